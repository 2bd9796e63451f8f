/* The control requests of the broadcast: `result` (how the game ended) and `new-game` with the
 * game's tags; quoted words. A refused request names what is wrong. */
#include <string.h>

#include "tb_ctl.h"
#include "tb_test.h"

static int parse(const char *line, struct tb_ctl_request *r, struct tb_error *err)
{
    return tb_ctl_parse(line, strlen(line), r, err);
}

TB_TEST(result_requests_parse_with_their_side_result_and_reason)
{
    struct tb_ctl_request r;
    struct tb_error err = {0};
    ASSERT_OK(parse("result resign black pin=471193", &r, &err));
    ASSERT_EQ(r.verb, TB_CTL_RESULT);
    ASSERT_TRUE(r.needs_pin && r.has_pin);
    ASSERT_EQ(r.how, TB_CTL_RESULT_RESIGN);
    ASSERT_EQ(r.side, 1);
    ASSERT_OK(parse("result flag white pin=471193", &r, &err));
    ASSERT_EQ(r.how, TB_CTL_RESULT_FLAG);
    ASSERT_EQ(r.side, 0);
    ASSERT_OK(parse("result draw pin=471193", &r, &err));
    ASSERT_EQ(r.how, TB_CTL_RESULT_DRAW);
    ASSERT_OK(parse("result threefold", &r, &err)); /* the PIN is checked after parsing */
    ASSERT_EQ(r.how, TB_CTL_RESULT_THREEFOLD);
    ASSERT_OK(parse("result fifty pin=1", &r, &err));
    ASSERT_EQ(r.how, TB_CTL_RESULT_FIFTY);
    ASSERT_OK(parse("result arbiter 1/2-1/2 both players left pin=471193", &r, &err));
    ASSERT_EQ(r.how, TB_CTL_RESULT_ARBITER);
    ASSERT_STR_EQ(r.result, "1/2-1/2");
    ASSERT_STR_EQ(r.text, "both players left");
    ASSERT_OK(parse("result arbiter 0-1 \"phone  rang\" pin=471193", &r, &err));
    ASSERT_STR_EQ(r.text, "phone  rang");
    ASSERT_OK(parse("result arbiter 1-0 pin=471193", &r, &err));
    ASSERT_STR_EQ(r.text, "");
}

TB_TEST(bad_result_requests_are_refused_naming_what)
{
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"result pin=471193", "more arguments"},
        {"result resign pin=471193", "takes white or black"},
        {"result resign grey pin=471193", "'grey' is not white or black"},
        {"result draw white pin=471193", "takes nothing more"},
        {"result win white pin=471193", "'win' is not resign"},
        {"result arbiter 2-0 pin=471193", "takes 1-0, 0-1 or 1/2-1/2"},
        {"result arbiter pin=471193", "takes 1-0, 0-1 or 1/2-1/2"},
        {"result arbiter 1-0 \"unclosed pin=471193", "a quote is not closed"},
        {"result arbiter 1-0 "
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaa pin=471193",
         "a reason of at most 100 bytes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_ctl_request r;
        struct tb_error err = {0};
        ASSERT_EQ(parse(bad[i].line, &r, &err), TB_ERR_PARSE);
        if (!strstr(err.msg, bad[i].msg))
            TB_FAIL("'%s': wanted '%s', got '%s'", bad[i].line, bad[i].msg, err.msg);
    }
}

TB_TEST(new_game_takes_the_games_tags)
{
    struct tb_ctl_request r;
    struct tb_error err = {0};
    ASSERT_OK(parse("new-game pin=471193", &r, &err));
    for (int i = 0; i < TB_CTL_TAGS; i++)
        ASSERT_STR_EQ(r.tag[i], "");
    ASSERT_OK(parse("new-game white=\"Carlsen, Magnus\" black=Navara round=5 date=2026.11.24 "
                    "event=\"Open 2026\" site=Hall pin=471193",
                    &r, &err));
    ASSERT_STR_EQ(r.tag[TB_CTL_WHITE], "Carlsen, Magnus");
    ASSERT_STR_EQ(r.tag[TB_CTL_BLACK], "Navara");
    ASSERT_STR_EQ(r.tag[TB_CTL_ROUND], "5");
    ASSERT_STR_EQ(r.tag[TB_CTL_DATE], "2026.11.24");
    ASSERT_STR_EQ(r.tag[TB_CTL_EVENT], "Open 2026");
    ASSERT_STR_EQ(r.tag[TB_CTL_SITE], "Hall");
    ASSERT_STR_EQ(tb_ctl_tag_name(TB_CTL_WHITE), "white");
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"new-game colour=white pin=471193", "is not event="},
        {"new-game white=a white=b pin=471193", "white= is given twice"},
        {"new-game white= pin=471193", "takes 1 to 48 bytes"},
        {"new-game round=a\\b pin=471193", "without"},
        {"new-game white=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa pin=471193", "1 to 48"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_EQ(parse(bad[i].line, &r, &err), TB_ERR_PARSE);
        if (!strstr(err.msg, bad[i].msg))
            TB_FAIL("'%s': wanted '%s', got '%s'", bad[i].line, bad[i].msg, err.msg);
    }
}
