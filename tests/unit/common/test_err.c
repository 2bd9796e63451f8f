/* Tests of the shared error vocabulary. */
#include "tb_err.h"
#include "tb_test.h"

TB_TEST(error_set_returns_code_and_formats)
{
    struct tb_error e;
    ASSERT_EQ(tb_error_set_at(&e, TB_ERR_PARSE, 3, 7, "bad field %d", 2), TB_ERR_PARSE);
    ASSERT_EQ(e.code, TB_ERR_PARSE);
    ASSERT_EQ(e.line, 3);
    ASSERT_EQ(e.column, 7);
    ASSERT_STR_EQ(e.msg, "bad field 2");
}

TB_TEST(error_set_accepts_null_detail)
{
    ASSERT_EQ(tb_error_set(NULL, TB_ERR_ARG, "ignored"), TB_ERR_ARG);
    tb_error_clear(NULL);
}

TB_TEST(strerror_names_every_code)
{
    for (int c = TB_ERR_PERM; c <= TB_OK; c++)
        ASSERT_TRUE(strcmp(tb_strerror(c), "unknown error") != 0);
    ASSERT_STR_EQ(tb_strerror(-99), "unknown error");
}
