/* Tests of the event-script parser and writer (docs/event-script.md). */
#include "tb_script.h"
#include "tb_test.h"

static int parse1(const char *line, struct tb_script_event *ev, struct tb_error *err)
{
    struct tb_script_parser p;
    tb_script_parser_init(&p);
    return tb_script_parse_line(&p, line, strlen(line), ev, err);
}

TB_TEST(parses_every_action)
{
    struct tb_script_event ev;
    struct tb_error err;
    ASSERT_OK(parse1("1500 vi lift e2", &ev, &err));
    ASSERT_EQ(ev.kind, TB_SCRIPT_LIFT);
    ASSERT_U64_EQ(ev.ms, 1500);
    ASSERT_U64_EQ(ev.us, 1500000);
    ASSERT_STR_EQ(ev.board, "vi");
    ASSERT_EQ(ev.square, 12);
    ASSERT_OK(parse1("0 sighted place h8", &ev, &err));
    ASSERT_EQ(ev.kind, TB_SCRIPT_PLACE);
    ASSERT_EQ(ev.square, 63);
    ASSERT_EQ(ev.piece, 0);
    ASSERT_OK(parse1("7 dgt place a1 Q", &ev, &err));
    ASSERT_EQ(ev.square, 0);
    ASSERT_EQ(ev.piece, 'Q');
    ASSERT_OK(parse1("9 vi press clock", &ev, &err));
    ASSERT_EQ(ev.kind, TB_SCRIPT_PRESS);
    ASSERT_STR_EQ(ev.button, "clock");
    ASSERT_OK(parse1("9 vi release clock", &ev, &err));
    ASSERT_EQ(ev.kind, TB_SCRIPT_RELEASE);
    ASSERT_OK(parse1("10 vi choose n", &ev, &err));
    ASSERT_EQ(ev.kind, TB_SCRIPT_CHOOSE);
    ASSERT_EQ(ev.piece, 'n');
    /* doorgeefschaak: the kind of a dropped piece may be a pawn */
    char line[64];
    ASSERT_OK(parse1("11 A choose p", &ev, &err));
    ASSERT_EQ(ev.piece, 'p');
    ASSERT_GT(tb_script_format(&ev, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "11 A choose p");
}

TB_TEST(comments_blanks_and_expect_directives)
{
    struct tb_script_event ev;
    ASSERT_OK(parse1("", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
    ASSERT_OK(parse1("   \t\r\n", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
    ASSERT_OK(parse1("# a remark", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
    ASSERT_OK(parse1("  # expect:   ! illegal e2 placed e5  ", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_EXPECT);
    ASSERT_STR_EQ(ev.text, "! illegal e2 placed e5");
    ASSERT_OK(parse1("# fen: 4k3/8/8/8/8/8/8/4K3 w - - 0 1", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE); /* found by tb_script_start_fen, not delivered */
    ASSERT_OK(parse1("#expected to fail", &ev, NULL)); /* not the directive */
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
    ASSERT_OK(parse1("12 vi lift e2 # trailing comment", &ev, NULL));
    ASSERT_EQ(ev.kind, TB_SCRIPT_LIFT);
    ASSERT_EQ(ev.square, 12);
}

TB_TEST(fractional_times_to_microseconds)
{
    struct tb_script_event ev;
    ASSERT_OK(parse1("1500.25 vi lift e2", &ev, NULL));
    ASSERT_U64_EQ(ev.us, 1500250);
    ASSERT_U64_EQ(ev.ms, 1500);
    ASSERT_OK(parse1("0.001 vi lift e2", &ev, NULL));
    ASSERT_U64_EQ(ev.us, 1);
    struct tb_error err;
    ASSERT_EQ(parse1("1.2345 vi lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("1. vi lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("-1 vi lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("99999999999999999999 vi lift e2", &ev, &err), TB_ERR_PARSE);
}

TB_TEST(errors_name_line_column_and_reason)
{
    struct tb_script_parser p;
    struct tb_script_event ev;
    struct tb_error err;
    const char *lines[] = {"100 vi lift e2", "# c", "50 vi place e4"};
    tb_script_parser_init(&p);
    ASSERT_OK(tb_script_parse_line(&p, lines[0], strlen(lines[0]), &ev, &err));
    ASSERT_OK(tb_script_parse_line(&p, lines[1], strlen(lines[1]), &ev, &err));
    ASSERT_EQ(tb_script_parse_line(&p, lines[2], strlen(lines[2]), &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(err.line, 3);
    ASSERT_EQ(err.column, 1);
    ASSERT_STR_CONTAINS(err.msg, "goes back");
    /* the failed line left the last time alone: 100 is still accepted */
    ASSERT_OK(tb_script_parse_line(&p, "100 vi place e4", 15, &ev, &err));

    ASSERT_EQ(parse1("1 vi lift i9", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "bad square");
    ASSERT_EQ(err.column, 11);
    ASSERT_EQ(parse1("1 vi jump e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "unknown action 'jump'");
    ASSERT_EQ(parse1("1 vi lift", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("1 vi lift e2 Q", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "unexpected 'Q'");
    ASSERT_EQ(parse1("1 vi place e2 X", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "bad piece");
    ASSERT_EQ(parse1("1 vi choose k", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "promotion choice");
    ASSERT_EQ(parse1("1 v!i lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "board name");
    ASSERT_EQ(parse1("1 averyveryverylongname lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("1 vi press", &ev, &err), TB_ERR_PARSE);
    ASSERT_EQ(parse1("x vi lift e2", &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "bad time 'x'");
}

/* A NUL byte where a piece letter or a promotion choice belongs is no piece: the line is
 * refused, not read as "no piece". */
TB_TEST(nul_byte_is_no_piece_or_choice)
{
    struct tb_script_parser p;
    struct tb_script_event ev;
    struct tb_error err;
    static const char choose[] = "900 vi choose \0";
    static const char place[] = "900 vi place e4 \0";
    tb_script_parser_init(&p);
    ASSERT_EQ(tb_script_parse_line(&p, choose, sizeof choose - 1, &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "promotion choice");
    ASSERT_EQ(err.column, 15);
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
    ASSERT_EQ(tb_script_parse_line(&p, place, sizeof place - 1, &ev, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "bad piece");
    ASSERT_EQ(err.column, 17);
    ASSERT_EQ(ev.kind, TB_SCRIPT_NONE);
}

struct collect {
    int n;
    struct tb_script_event ev[8];
    long line[8];
};

static int collect_fn(void *user, const struct tb_script_event *ev, long line)
{
    struct collect *c = user;
    if (c->n == 8)
        return 99;
    c->line[c->n] = line;
    c->ev[c->n++] = *ev;
    return 0;
}

TB_TEST(buffer_delivers_events_with_line_numbers)
{
    const char text[] =
        "# game 1\n0 vi lift e2\r\n\n250 vi place e4\n# expect: e2e4\n300 vi lift e7";
    struct collect c = {0};
    struct tb_error err;
    ASSERT_OK(tb_script_parse_buffer(text, sizeof text - 1, collect_fn, &c, &err));
    ASSERT_EQ(c.n, 4);
    ASSERT_EQ(c.line[0], 2);
    ASSERT_EQ(c.ev[1].kind, TB_SCRIPT_PLACE);
    ASSERT_EQ(c.line[1], 4);
    ASSERT_EQ(c.ev[2].kind, TB_SCRIPT_EXPECT);
    ASSERT_STR_EQ(c.ev[2].text, "e2e4");
    ASSERT_EQ(c.ev[3].square, 52);
    ASSERT_EQ(c.line[3], 6);

    const char bad[] = "0 vi lift e2\n5 vi place z9\n9 vi lift e4\n";
    struct collect d = {0};
    ASSERT_EQ(tb_script_parse_buffer(bad, sizeof bad - 1, collect_fn, &d, &err), TB_ERR_PARSE);
    ASSERT_EQ(err.line, 2);
    ASSERT_EQ(d.n, 1);
}

TB_TEST(callback_stops_the_parse)
{
    char text[400] = "";
    for (int i = 0; i < 12; i++)
        strcat(text, "1 vi lift a1\n");
    struct collect c = {0};
    ASSERT_EQ(tb_script_parse_buffer(text, strlen(text), collect_fn, &c, NULL), 99);
    ASSERT_EQ(c.n, 8);
}

TB_TEST(format_round_trips)
{
    const char *lines[] = {"0 vi lift a1",
                           "1500.25 sighted place h8",
                           "2 dgt place c3 n",
                           "3 vi press clock",
                           "4 vi release clock",
                           "5 vi choose r",
                           "# expect: ! displaced clear e4 fill e2",
                           "7.5 vi lift e2"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct tb_script_event ev;
        char buf[200];
        ASSERT_OK(parse1(lines[i], &ev, NULL));
        ASSERT_EQ(tb_script_format(&ev, buf, sizeof buf), (int)strlen(lines[i]));
        ASSERT_STR_EQ(buf, lines[i]);
    }
    struct tb_script_event ev;
    char small[6];
    ASSERT_OK(parse1("1500 vi lift e2", &ev, NULL));
    ASSERT_EQ(tb_script_format(&ev, small, sizeof small), TB_ERR_FULL);
    ASSERT_STR_EQ(small, "1500 ");
    ev.square = 64;
    ASSERT_EQ(tb_script_format(&ev, small, sizeof small), TB_ERR_ARG);
    ev.kind = TB_SCRIPT_NONE;
    ASSERT_EQ(tb_script_format(&ev, small, sizeof small), TB_ERR_ARG);
}

/* The blip window a script was made for, from its header; a value the daemon would not take is
 * refused naming it; after the first event it is only a comment. */
TB_TEST(blip_window_from_the_header_only)
{
    uint32_t ms = 0;
    struct tb_error err = {0};
    const char a[] = "# bughouse-events x.bpgn seed 1\n# blip-window: 100 ms\n0 A press clock\n";
    ASSERT_EQ(tb_script_blip_window(a, sizeof a - 1, &ms, &err), 1);
    ASSERT_EQ(ms, 100u);
    const char b[] = "#blip-window:250\n";
    ASSERT_EQ(tb_script_blip_window(b, sizeof b - 1, &ms, &err), 1);
    ASSERT_EQ(ms, 250u);
    const char c[] = "0 A press clock\n# blip-window: 100 ms\n";
    ASSERT_EQ(tb_script_blip_window(c, sizeof c - 1, &ms, &err), 0);
    ASSERT_EQ(tb_script_blip_window("", 0, &ms, &err), 0);
    static const char *const bad[] = {
        "# blip-window: 5 ms\n",  "# blip-window: 2001 ms\n",           "# blip-window: ms\n",
        "# blip-window: 100 s\n", "# blip-window: 99999999999999 ms\n", "# blip-window: -100 ms\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ms = 7;
        ASSERT_EQ(tb_script_blip_window(bad[i], strlen(bad[i]), &ms, &err), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(err.msg, "blip-window");
        ASSERT_EQ(ms, 7u);
    }
}

TB_TEST(start_fen_only_before_the_first_event)
{
    char fen[100];
    const char a[] = "# game\n\n  # fen:  4k3/8/8/8/8/8/8/4K3 w - - 0 1 \r\n0 vi lift e1\n";
    ASSERT_EQ(tb_script_start_fen(a, sizeof a - 1, fen, sizeof fen), 1);
    ASSERT_STR_EQ(fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_EQ(tb_script_start_fen(a, sizeof a - 1, fen, 10), TB_ERR_FULL);
    const char b[] = "0 vi lift e1\n# fen: 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
    ASSERT_EQ(tb_script_start_fen(b, sizeof b - 1, fen, sizeof fen), 0);
    ASSERT_EQ(tb_script_start_fen("", 0, fen, sizeof fen), 0);
}

TB_TEST(list_keeps_every_event_in_order)
{
    struct tb_script_list list = {0};
    struct tb_script_event ev = {.kind = TB_SCRIPT_LIFT};
    for (int i = 0; i < 1000; i++) {
        ev.ms = (uint64_t)i;
        ev.square = i % 64;
        ASSERT_OK(tb_script_list_push(&list, &ev));
    }
    ASSERT_EQ(list.n, 1000);
    for (size_t i = 0; i < list.n; i++) {
        ASSERT_EQ(list.ev[i].ms, i);
        ASSERT_EQ(list.ev[i].square, i % 64);
    }
    tb_script_list_free(&list);
    ASSERT_NULL(list.ev);
    ASSERT_EQ(list.n, 0);
    tb_script_list_free(&list); /* an empty list frees again harmlessly */
}
