/* The hall's payloads: what a table publishes decodes to the same state; the decoder refuses
 * malformed, oversized and unknown input naming the field; a command acts only with the PIN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_hall.h"
#include "tb_test.h"

static struct tb_hall_state *sample(void)
{
    struct tb_hall_state *s = calloc(1, sizeof *s);
    ASSERT_NOT_NULL(s);
    struct tb_match_config mc;
    tb_match_config_default(&mc);
    tb_match *m;
    ASSERT_OK(tb_match_new(&mc, NULL, 0, &m, NULL));
    /* 1.e4 on the VI board, copied wrongly (e2e3) on the sighted board: a D.2.9 mismatch */
    uint64_t t = 0;
    const int moves[][3] = {{0, 12, 28}, {1, 12, 20}};
    for (int i = 0; i < 2; i++) {
        struct tb_match_event ev = {.kind = TB_MATCH_EV_LIFT, .square = (uint8_t)moves[i][1]};
        t += 300;
        ASSERT_OK(tb_match_board_event(m, moves[i][0], &ev, t));
        ev.kind = TB_MATCH_EV_PLACE;
        ev.square = (uint8_t)moves[i][2];
        t += 300;
        ASSERT_OK(tb_match_board_event(m, moves[i][0], &ev, t));
        t += 1500;
        ASSERT_OK(tb_match_tick(m, t));
    }
    struct tb_match_out o;
    struct tb_hall_event ev;
    int mismatches = 0;
    while (tb_match_poll(m, &o) == 1)
        if (tb_hall_state_note(s, &o, &ev) == 1 && ev.kind == TB_HALL_EV_MISMATCH)
            mismatches++;
    ASSERT_EQ(mismatches, 1);
    tb_hall_state_from_match(s, m);
    snprintf(s->tournament, sizeof s->tournament, "open-2026");
    snprintf(s->table, sizeof s->table, "t7");
    s->seq = 3;
    s->clock_running = true;
    s->board[0].vi = s->board[0].white = true;
    s->board[0].clock_ms = 5400000;
    s->board[1].clock_ms = -1;
    snprintf(s->touch[s->ntouch++], sizeof s->touch[0], "4.3: touched the knight on g1");
    tb_match_free(m);
    return s;
}

TB_TEST(law_D_2_9_state_with_open_mismatch_round_trips)
{
    struct tb_hall_state *s = sample(), *back = calloc(1, sizeof *back);
    char *buf = malloc(TB_HALL_PAYLOAD_MAX);
    struct tb_error err;
    int n = tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_state_decode(buf, (size_t)n, back, &err));
    ASSERT_STR_EQ(back->state, "blocked");
    ASSERT_EQ(back->nhistory, 1);
    ASSERT_TRUE(back->history[0].open);
    ASSERT_STR_EQ(back->history[0].kind, "wrong-move");
    ASSERT_STR_CONTAINS(back->history[0].resolution, "move the white pawn on e3 to e4");
    ASSERT_EQ(back->board[0].nsheet, 1);
    ASSERT_STR_EQ(back->board[0].sheet[0], "e4");
    ASSERT_U64_EQ(back->board[0].occupancy ^ back->board[1].occupancy,
                  (1ull << 20) | (1ull << 28)); /* e3 and e4 differ */
    ASSERT_EQ(back->board[0].clock_ms, 5400000);
    ASSERT_EQ(back->board[1].clock_ms, -1);
    ASSERT_STR_EQ(back->touch[0], "4.3: touched the knight on g1");
    /* encoding the decoded state gives the same bytes */
    char *again = malloc(TB_HALL_PAYLOAD_MAX);
    ASSERT_EQ(tb_hall_state_encode(back, again, TB_HALL_PAYLOAD_MAX, &err), n);
    ASSERT_TRUE(memcmp(buf, again, (size_t)n) == 0);
    free(again);
    free(buf);
    free(back);
    free(s);
}

/* 5.1.2 and the journal: the end of the game and a journal that stops play reach the hall. */
TB_TEST(law_5_1_2_result_and_a_stopped_journal_round_trip)
{
    struct tb_hall_state *s = sample(), *back = calloc(1, sizeof *back);
    char *buf = malloc(TB_HALL_PAYLOAD_MAX);
    struct tb_error err;
    ASSERT_STR_EQ(s->result, "*"); /* from the match: still playing */
    snprintf(s->result, sizeof s->result, "0-1");
    snprintf(s->ending, sizeof s->ending, "White resigns (5.1.2)");
    snprintf(s->journal, sizeof s->journal,
             "cannot write: No space left on device; play stopped, the arbiter is called");
    int n = tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_state_decode(buf, (size_t)n, back, &err));
    ASSERT_STR_EQ(back->result, "0-1");
    ASSERT_STR_EQ(back->ending, "White resigns (5.1.2)");
    ASSERT_STR_CONTAINS(back->journal, "No space left on device");
    snprintf(s->result, sizeof s->result, "1:0");
    ASSERT_EQ(tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "result");
    free(buf);
    free(back);
    free(s);
}

/* A decoder error names the field; replacing one piece of a valid payload is enough. */
static void expect_refused(const char *from, const char *to, const char *field)
{
    struct tb_hall_state *s = sample(), *back = calloc(1, sizeof *back);
    char *buf = malloc(TB_HALL_PAYLOAD_MAX), *bad = malloc(TB_HALL_PAYLOAD_MAX + 64);
    int n = tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, NULL);
    ASSERT_GT(n, 0);
    char *at = strstr(buf, from);
    if (!at)
        TB_FAIL("%s not in %s", from, buf);
    size_t pre = (size_t)(at - buf);
    snprintf(bad, TB_HALL_PAYLOAD_MAX + 64, "%.*s%s%s", (int)pre, buf, to, at + strlen(from));
    struct tb_error err = {0};
    ASSERT_EQ(tb_hall_state_decode(bad, strlen(bad), back, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, field);
    free(bad);
    free(buf);
    free(back);
    free(s);
}

TB_TEST(decoder_names_the_bad_field)
{
    expect_refused("\"seq\":3", "\"seq\":-3", "seq");
    expect_refused("\"seq\":3", "\"seq\":3.5", "seq");
    expect_refused("\"table\":\"t7\"", "\"table\":\"t/7\"", "table");
    expect_refused("\"table\":\"t7\"", "\"table\":\"t7\",\"table\":\"t8\"", "table: given twice");
    expect_refused("\"plies\":", "\"evil\":1,\"plies\":", "evil: unknown field");
    expect_refused("\"occupancy\":\"", "\"occupancy\":\"x", "boards[0].occupancy");
    expect_refused("\"sheet\":[\"e4\"]", "\"sheet\":[\"e4<script>\"]", "boards[0].sheet[0]");
    expect_refused("\"kind\":\"wrong-move\"", "\"kind\":7", "mismatches[0].kind: not a string");
    expect_refused("\"clock_running\":true", "\"clock_running\":1", "clock_running");
    expect_refused("\"result\":\"*\"", "\"result\":\"2-0\"", "result");
    expect_refused("\"journal\":\"\"", "\"journal\":7", "journal");
    expect_refused("\"outcome\":\"\"}]}", "\"outcome\":\"\"}]} x", "text after the JSON value");
}

TB_TEST(decoder_refuses_oversized_and_broken_payloads)
{
    struct tb_hall_state *back = calloc(1, sizeof *back);
    struct tb_error err = {0};
    size_t big = TB_HALL_PAYLOAD_MAX + 1;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    ASSERT_EQ(tb_hall_state_decode(huge, big, back, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "more than");
    ASSERT_EQ(tb_hall_state_decode("{\"seq\":", 7, back, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "not JSON");
    ASSERT_EQ(tb_hall_state_decode("[1,2]", 5, back, &err), TB_ERR_PARSE);
    ASSERT_EQ(tb_hall_state_decode("{}", 2, back, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "tournament: missing");
    ASSERT_EQ(tb_hall_state_decode("{\"a\"\0:1}", 8, back, &err), TB_ERR_PARSE);
    free(huge);
    free(back);
}

TB_TEST(command_acts_only_with_the_arbiter_pin)
{
    struct tb_hall_cmd c = {TB_HALL_CMD_RESOLVE, "hall-1", 4, 0, "2468"}, back;
    char buf[256];
    struct tb_error err;
    int n = tb_hall_cmd_encode(&c, buf, sizeof buf, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_cmd_decode(buf, (size_t)n, &back, &err));
    ASSERT_EQ(back.action, TB_HALL_CMD_RESOLVE);
    ASSERT_EQ(back.mismatch, 4u);
    ASSERT_TRUE(tb_hall_cmd_pin_ok(&back, "2468"));
    ASSERT_FALSE(tb_hall_cmd_pin_ok(&back, "2469"));
    ASSERT_FALSE(tb_hall_cmd_pin_ok(&back, "24680"));
    ASSERT_FALSE(tb_hall_cmd_pin_ok(&back, "246"));
    ASSERT_FALSE(tb_hall_cmd_pin_ok(&back, "")); /* no PIN configured: nothing authorised */
    /* forged: no PIN, letters in the PIN, an action that does not exist, takeback of 0 */
    const char *forged[] = {
        "{\"action\":\"resolve\",\"request\":\"r\",\"mismatch\":4,\"n\":0}",
        "{\"action\":\"resolve\",\"request\":\"r\",\"mismatch\":4,\"n\":0,\"pin\":\"12a4\"}",
        "{\"action\":\"format-disk\",\"request\":\"r\",\"mismatch\":4,\"n\":0,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":0,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":9,\"pin\":\"1\"}",
    };
    for (size_t i = 0; i < sizeof forged / sizeof *forged; i++)
        ASSERT_EQ(tb_hall_cmd_decode(forged[i], strlen(forged[i]), &back, &err), TB_ERR_PARSE);
}

TB_TEST(topics_per_tournament_and_table)
{
    char buf[128], t[TB_HALL_NAME_MAX], x[TB_HALL_NAME_MAX], leaf[8];
    ASSERT_GT(tb_hall_topic("open-2026", "t7", "state", buf, sizeof buf), 0);
    ASSERT_STR_EQ(buf, "twinboard/open-2026/t7/state");
    ASSERT_OK(tb_hall_topic_parse(buf, t, x, leaf, sizeof leaf));
    ASSERT_STR_EQ(t, "open-2026");
    ASSERT_STR_EQ(x, "t7");
    ASSERT_STR_EQ(leaf, "state");
    ASSERT_EQ(tb_hall_topic("open/2026", "t7", "state", buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_hall_topic("+", "t7", "state", buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_hall_topic_parse("twinboard/a/b/c/d", t, x, leaf, sizeof leaf), TB_ERR_PARSE);
    ASSERT_EQ(tb_hall_topic_parse("other/a/b/state", t, x, leaf, sizeof leaf), TB_ERR_PARSE);
    ASSERT_EQ(tb_hall_topic_parse("twinboard//b/state", t, x, leaf, sizeof leaf), TB_ERR_PARSE);
}

/* No broker at all (a port nobody listens on): the table plays on, events queue up to the
 * limit, the oldest are dropped and counted, the state is kept (the latest only), and no call
 * waits. */
TB_TEST(broker_away_events_bounded_oldest_dropped_and_counted)
{
    struct tb_hall_config cfg = {
        .port = 1, .tournament = "open-2026", .table = "t7", .max_events = 4, .retry_ms = 50};
    tb_hall_pub *p = NULL;
    struct tb_error err;
    ASSERT_OK(tb_hall_pub_new(&cfg, 1000, &p, &err));
    struct tb_hall_state *s = sample();
    for (int i = 1; i <= 10; i++) {
        struct tb_hall_event ev = {.kind = TB_HALL_EV_MOVE, .ply = i};
        snprintf(ev.text, sizeof ev.text, "ply %d", i);
        ASSERT_OK(tb_hall_pub_event(p, &ev, &err));
        s->seq = (uint64_t)i;
        ASSERT_OK(tb_hall_pub_state(p, s, &err));
        tb_hall_pub_service(p, false, false, 1000 + (uint64_t)i * 100);
    }
    struct tb_hall_pub_stats st;
    tb_hall_pub_stats(p, &st);
    ASSERT_FALSE(st.connected);
    ASSERT_EQ(st.queued, 4ul);
    ASSERT_EQ(st.dropped, 6ul);
    ASSERT_EQ(st.events_sent, 0ul);
    ASSERT_EQ(st.states_sent, 0ul);
    ASSERT_TRUE(tb_hall_pub_deadline(p) != UINT64_MAX); /* a reconnect is due */
    struct tb_hall_cmd c;
    ASSERT_EQ(tb_hall_pub_cmd(p, &c), 0);
    /* a bad state is refused and the kept one stays */
    s->table[0] = '\0';
    ASSERT_EQ(tb_hall_pub_state(p, s, &err), TB_ERR_ARG);
    tb_hall_pub_free(p);
    tb_hall_pub_free(NULL);
    free(s);
}

TB_TEST(publisher_refuses_bad_configuration)
{
    tb_hall_pub *p = NULL;
    struct tb_error err = {0};
    struct tb_hall_config cfg = {.tournament = "open 2026", .table = "t7"};
    ASSERT_EQ(tb_hall_pub_new(&cfg, 0, &p, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "tournament");
    ASSERT_NULL(p);
    cfg.tournament = "open-2026";
    cfg.table = "t/7";
    ASSERT_EQ(tb_hall_pub_new(&cfg, 0, &p, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "table");
    cfg.table = "t7";
    cfg.port = 70000;
    ASSERT_EQ(tb_hall_pub_new(&cfg, 0, &p, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "port");
}
