#include "tb_test.h"

TB_TEST(placeholder) {}
