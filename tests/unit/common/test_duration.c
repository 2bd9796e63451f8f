/* Tests of the configured delay's one rule (the daemon's [broadcast] delay, the hall's [round]
 * delay and [lichess] retry). */
#include "tb_str.h"
#include "tb_test.h"

TB_TEST(delays_taken_in_ms)
{
    ASSERT_EQ(tb_str_duration_ms("0", 3600000), 0);
    ASSERT_EQ(tb_str_duration_ms("90", 3600000), 90000);
    ASSERT_EQ(tb_str_duration_ms("90s", 3600000), 90000);
    ASSERT_EQ(tb_str_duration_ms("500ms", 3600000), 500);
    ASSERT_EQ(tb_str_duration_ms("15m", 3600000), 900000);
    ASSERT_EQ(tb_str_duration_ms("60m", 3600000), 3600000);
    ASSERT_EQ(tb_str_duration_ms("3600000ms", 3600000), 3600000);
}

/* A sign, a space, another unit, past the bound, an overflowing number: none is a delay. */
TB_TEST(delays_refused)
{
    static const char *const bad[] = {"+5s", "-5s",  " 5s", "5 s", "61m", "3601s",
                                      "15h", "5sec", "",    "s",   "m5",  "99999999999999999999999",
                                      NULL};
    for (int i = 0; bad[i]; i++)
        ASSERT_EQ(tb_str_duration_ms(bad[i], 3600000), -1);
    ASSERT_EQ(tb_str_duration_ms(NULL, 3600000), -1);
}
