/* The event script's clock line (docs/event-script.md): what a clock beside a board showed. */
#include <string.h>

#include "tb_script.h"
#include "tb_test.h"

static int parse1(const char *line, struct tb_script_event *ev, struct tb_error *err)
{
    struct tb_script_parser p;
    tb_script_parser_init(&p);
    return tb_script_parse_line(&p, line, strlen(line), ev, err);
}

TB_TEST(clock_line_parsed_and_written_back)
{
    static const char *const lines[] = {
        "5600 sighted clock 5410000 5399000 black",
        "0 dgt clock - 420000 stopped",
        "1500.5 sighted clock 0 - white",
        "7 sighted clock 360000000 360000000 stopped",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct tb_script_event ev;
        struct tb_error err = {0};
        if (parse1(lines[i], &ev, &err) != TB_OK)
            TB_FAIL("%s: %s", lines[i], err.msg);
        ASSERT_EQ(ev.kind, TB_SCRIPT_CLOCK);
        char out[200];
        ASSERT_GT(tb_script_format(&ev, out, sizeof out), 0);
        ASSERT_STR_EQ(out, lines[i]);
    }
    struct tb_script_event ev;
    ASSERT_OK(parse1("5600 sighted clock 5410000 5399000 black # pressed", &ev, NULL));
    ASSERT_EQ(ev.clock_ms[0], 5410000);
    ASSERT_EQ(ev.clock_ms[1], 5399000);
    ASSERT_EQ(ev.clock_run, 2);
    ASSERT_U64_EQ(ev.ms, 5600);
    ASSERT_STR_EQ(tb_script_kind_name(TB_SCRIPT_CLOCK), "clock");
    ASSERT_OK(parse1("1 vi clock - - stopped", &ev, NULL));
    ASSERT_EQ(ev.clock_ms[0], -1);
    ASSERT_EQ(ev.clock_run, 0);
}

TB_TEST(clock_line_errors_name_the_field)
{
    static const struct {
        const char *line;
        long column;
        const char *msg;
    } bad[] = {
        {"5 vi clock 1000 2000", 0, "expected '<ms> <board> clock"},
        {"5 vi clock 1000 2000 white extra", 28, "expected '<ms> <board> clock"},
        {"5 vi clock 10x0 2000 white", 12, "bad clock time '10x0'"},
        {"5 vi clock 1000 360000001 white", 17, "bad clock time '360000001'"},
        {"5 vi clock 1000 -5 white", 17, "bad clock time '-5'"},
        {"5 vi clock 1000 2000 red", 22, "bad running clock 'red'"},
        {"5 vi lift e2 e4 x", 0, "too many fields"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_script_event ev;
        struct tb_error err = {0};
        ASSERT_EQ(parse1(bad[i].line, &ev, &err), TB_ERR_PARSE);
        ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
        if (err.column != bad[i].column || !strstr(err.msg, bad[i].msg))
            TB_FAIL("%s: column %ld: %s", bad[i].line, err.column, err.msg);
    }
    struct tb_script_event ev = {.kind = TB_SCRIPT_CLOCK, .board = "vi", .clock_run = 3};
    char out[200];
    ASSERT_EQ(tb_script_format(&ev, out, sizeof out), TB_ERR_ARG);
}
