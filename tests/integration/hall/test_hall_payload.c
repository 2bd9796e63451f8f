/* The hall's payloads: what a table publishes decodes to the same state; the decoder refuses
 * malformed, oversized and unknown input naming the field; a command acts only with the PIN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_bugmatch.h"
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

/* A decoder error names the field; replacing one piece of s's valid payload is enough (s is
 * freed). */
static void refused_in(struct tb_hall_state *s, const char *from, const char *to, const char *field)
{
    struct tb_hall_state *back = calloc(1, sizeof *back);
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

static void expect_refused(const char *from, const char *to, const char *field)
{
    refused_in(sample(), from, to, field);
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
    expect_refused("\"games\":[]}", "\"games\":[]} x", "text after the JSON value");
    expect_refused("\"mode\":\"twin\"", "\"mode\":\"chess\"", "mode");
    expect_refused("\"mode\":\"twin\"", "\"mode\":\"bughouse\"", "games: 0 games");
}

/* A doorgeefschaak table: board A 1.e4 d5 2.exd5 (the pawn goes to Black on B, 2.1), board B
 * 1.e4 P@d4 (the drop), then White resigns on A (5.2). Moves typed: no boards needed. */
static struct tb_hall_state *bug_sample(struct tb_hall_event *evs, int *nev)
{
    struct tb_hall_state *s = calloc(1, sizeof *s);
    ASSERT_NOT_NULL(s);
    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    cfg.typed[0] = cfg.typed[1] = true;
    tb_bugmatch *m;
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, NULL));
    const struct {
        int board;
        const char *san;
    } moves[] = {{0, "e4"}, {0, "d5"}, {1, "e4"}, {0, "exd5"}, {1, "P@d4"}};
    uint64_t t = 1000;
    ASSERT_OK(tb_bugmatch_start(m, t));
    *nev = 0;
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
        struct tb_error err = {0};
        t += 2000;
        if (tb_bugmatch_typed(m, moves[i].board, moves[i].san, t, &err) != TB_OK)
            TB_FAIL("%s refused: %s", moves[i].san, err.msg);
        ASSERT_OK(tb_bugmatch_press(m, moves[i].board, t));
    }
    t += 1000;
    ASSERT_OK(tb_bugmatch_resign(m, 0, TB_CHESS_WHITE, t));
    struct tb_bugmatch_out o;
    while (tb_bugmatch_poll(m, &o) == 1)
        if (tb_hall_state_note_bug(s, &o, &evs[*nev]) == 1 && *nev < 15)
            ++*nev;
    tb_hall_state_from_bugmatch(s, m, t);
    snprintf(s->tournament, sizeof s->tournament, "open-2026");
    snprintf(s->table, sizeof s->table, "bug1");
    s->seq = 9;
    snprintf(s->board[0].name, sizeof s->board[0].name, "vi");
    snprintf(s->board[1].name, sizeof s->board[1].name, "sighted");
    tb_bugmatch_free(m);
    return s;
}

TB_TEST(law_2_1_bughouse_table_round_trips_with_hands_moves_and_result)
{
    struct tb_hall_event evs[16];
    int nev = 0;
    struct tb_hall_state *s = bug_sample(evs, &nev), *back = calloc(1, sizeof *back);
    char *buf = malloc(TB_HALL_PAYLOAD_MAX), *again = malloc(TB_HALL_PAYLOAD_MAX);
    struct tb_error err = {0};
    int n = tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, &err);
    ASSERT_GT(n, 0);
    if (tb_hall_state_decode(buf, (size_t)n, back, &err) != TB_OK)
        TB_FAIL("%s: %s", err.msg, buf);
    ASSERT_TRUE(back->bughouse);
    ASSERT_EQ(back->ngames, 2);
    ASSERT_STR_CONTAINS(buf, "\"mode\":\"bughouse\"");
    const struct tb_hall_game *a = &back->game[0], *b = &back->game[1];
    ASSERT_STR_EQ(a->name, "A");
    ASSERT_EQ(a->plies, 3);
    ASSERT_EQ(a->nsheet, 3);
    ASSERT_STR_EQ(a->sheet[2], "exd5");
    ASSERT_STR_EQ(a->result, "0-1"); /* 5.2: White resigned on A */
    ASSERT_STR_CONTAINS(a->ending, "5.2");
    ASSERT_STR_EQ(b->result, "*");
    ASSERT_EQ(b->nsheet, 2);
    ASSERT_STR_EQ(b->sheet[1], "P@d4");    /* 2.2: the pawn passed, dropped */
    ASSERT_STR_EQ(b->hand[1], "");         /* and no longer in hand */
    ASSERT_STR_CONTAINS(b->fen, "/3pP3/"); /* the pawn on d4 */
    ASSERT_STR_EQ(b->irregular, "none");
    ASSERT_TRUE(b->clock_ms[0] > 0 && b->clock_ms[0] <= 7 * 60 * 1000);
    ASSERT_STR_EQ(a->running, ""); /* game A is over: its clock stopped */
    bool received = false;
    for (int i = 0; i < b->nlog; i++)
        received |= strstr(b->log[i], "receives: pawn") != NULL;
    ASSERT_TRUE(received);
    ASSERT_EQ(tb_hall_state_encode(back, again, TB_HALL_PAYLOAD_MAX, &err), n);
    ASSERT_TRUE(memcmp(buf, again, (size_t)n) == 0);
    /* the events: five moves completed (each with its game), then A's result */
    ASSERT_EQ(nev, 6);
    ASSERT_EQ(evs[4].kind, TB_HALL_EV_MOVE);
    ASSERT_STR_EQ(evs[4].board, "B");
    ASSERT_STR_EQ(evs[4].san, "P@d4");
    ASSERT_STR_EQ(evs[4].uci, "P@d4");
    ASSERT_EQ(evs[4].ply, 2);
    ASSERT_STR_EQ(evs[4].text, "B: 1... P@d4");
    ASSERT_EQ(evs[5].kind, TB_HALL_EV_RESULT);
    ASSERT_STR_EQ(evs[5].board, "A");
    evs[5].seq = 12;
    n = tb_hall_event_encode(&evs[5], buf, TB_HALL_PAYLOAD_MAX, &err);
    ASSERT_GT(n, 0);
    struct tb_hall_event ev;
    ASSERT_OK(tb_hall_event_decode(buf, (size_t)n, &ev, &err));
    ASSERT_EQ(ev.kind, TB_HALL_EV_RESULT);
    ASSERT_STR_EQ(ev.board, "A");
    free(again);
    free(buf);
    free(back);
    free(s);
}

static void expect_bug_refused(const char *from, const char *to, const char *field)
{
    struct tb_hall_event evs[16];
    int nev;
    refused_in(bug_sample(evs, &nev), from, to, field);
}

TB_TEST(bughouse_decoder_names_the_bad_field)
{
    expect_bug_refused("\"mode\":\"bughouse\"", "\"mode\":\"twin\"", "games: 2 games");
    expect_bug_refused("\"name\":\"A\"", "\"name\":\"C\"", "games[0].name");
    expect_bug_refused("\"hand_black\":\"\"", "\"hand_black\":\"K\"", "hand_black");
    expect_bug_refused("\"irregular\":\"none\"", "\"irregular\":\"maybe\"", "games[0].irregular");
    expect_bug_refused("\"P@d4\"", "\"P@d4<b>\"", "games[1].sheet[1]");
    expect_bug_refused("\"running\":\"\"", "\"running\":\"red\"", "games[0].running");
    expect_bug_refused("\"result\":\"0-1\"", "\"result\":\"2-0\"", "games[0].result");
    expect_bug_refused("\"clock_white_ms\":", "\"clock_white_ms\":-5,\"x\":", "games[0].x");
    expect_bug_refused("\"plies\":3", "\"plies\":4", "games[0].sheet_from");
    expect_bug_refused("\"log\":[", "\"log\":[7,", "games[0].log[0]");
    /* an event names its game A or B, or none */
    const char *ev = "{\"kind\":\"result\",\"seq\":1,\"ms\":0,\"ply\":0,\"mismatch\":0,"
                     "\"ok\":false,\"request\":\"\",\"san\":\"\",\"uci\":\"\",\"text\":\"\","
                     "\"detail\":\"\",\"board\":\"C\"}";
    struct tb_hall_event e;
    struct tb_error err = {0};
    ASSERT_EQ(tb_hall_event_decode(ev, strlen(ev), &e, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "event.board");
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

/* The PIN goes through as the arbiter typed it: the table's guard checks it (tb_ctl_guard_check),
 * the one place a PIN is checked. */
TB_TEST(command_carries_the_pin_as_typed)
{
    struct tb_hall_cmd c = {TB_HALL_CMD_RESOLVE, "hall-1", 4, 0, "246813", "", {""}}, back;
    char buf[256];
    struct tb_error err;
    int n = tb_hall_cmd_encode(&c, buf, sizeof buf, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_cmd_decode(buf, (size_t)n, &back, &err));
    ASSERT_EQ(back.action, TB_HALL_CMD_RESOLVE);
    ASSERT_EQ(back.mismatch, 4u);
    ASSERT_STR_EQ(back.pin, "246813");
    ASSERT_STR_EQ(back.from, ""); /* no sender named: the field is left out */
    ASSERT_NULL(strstr(buf, "from"));
    /* a sender (the page session the table holds back for its wrong PINs) goes both ways */
    snprintf(c.from, sizeof c.from, "s-4f2a");
    ASSERT_GT((n = tb_hall_cmd_encode(&c, buf, sizeof buf, &err)), 0);
    ASSERT_OK(tb_hall_cmd_decode(buf, (size_t)n, &back, &err));
    ASSERT_STR_EQ(back.from, "s-4f2a");
    /* forged: no PIN, letters in the PIN, an action that does not exist, takeback of 0 */
    const char *forged[] = {
        "{\"action\":\"resolve\",\"request\":\"r\",\"mismatch\":4,\"n\":0}",
        "{\"action\":\"resolve\",\"request\":\"r\",\"mismatch\":4,\"n\":0,\"pin\":\"12a4\"}",
        "{\"action\":\"format-disk\",\"request\":\"r\",\"mismatch\":4,\"n\":0,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":0,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":9,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":1,\"pin\":\"1\","
        "\"from\":\"a b\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":1,\"pin\":\"1\","
        "\"from\":7}",
    };
    for (size_t i = 0; i < sizeof forged / sizeof *forged; i++)
        ASSERT_EQ(tb_hall_cmd_decode(forged[i], strlen(forged[i]), &back, &err), TB_ERR_PARSE);
}

/* The round's tags reach a table as new-game takes them; the table's PGN comes back in its
 * state, line breaks and all. */
TB_TEST(round_tags_and_table_pgn_round_trip)
{
    struct tb_hall_cmd c = {TB_HALL_CMD_NEW_GAME, "round-1", 0, 0, "246813", "", {""}}, back;
    snprintf(c.tags[3], sizeof c.tags[3], "3.1");
    snprintf(c.tags[4], sizeof c.tags[4], "Carlsen, Magnus");
    snprintf(c.tags[5], sizeof c.tags[5], "Nakamura, Hikaru");
    char buf[512];
    struct tb_error err;
    int n = tb_hall_cmd_encode(&c, buf, sizeof buf, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_cmd_decode(buf, (size_t)n, &back, &err));
    ASSERT_EQ(back.action, TB_HALL_CMD_NEW_GAME);
    ASSERT_STR_EQ(back.tags[4], "Carlsen, Magnus");
    ASSERT_STR_EQ(back.tags[3], "3.1");
    ASSERT_STR_EQ(back.tags[0], "");
    /* a quote cannot reach a PGN tag; tags on another command; new-game without tags */
    snprintf(c.tags[4], sizeof c.tags[4], "Carlsen \"Magnus\"");
    ASSERT_EQ(tb_hall_cmd_encode(&c, buf, sizeof buf, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "cmd.tags.white");
    const char *forged[] = {
        "{\"action\":\"new-game\",\"request\":\"r\",\"mismatch\":0,\"n\":0,\"pin\":\"1\"}",
        "{\"action\":\"takeback\",\"request\":\"r\",\"mismatch\":0,\"n\":1,\"pin\":\"1\","
        "\"tags\":{}}",
        "{\"action\":\"new-game\",\"request\":\"r\",\"mismatch\":0,\"n\":0,\"pin\":\"1\","
        "\"tags\":{\"white\":\"a\\\\b\"}}",
        "{\"action\":\"new-game\",\"request\":\"r\",\"mismatch\":0,\"n\":0,\"pin\":\"1\","
        "\"tags\":{\"elo\":\"2800\"}}",
    };
    for (size_t i = 0; i < sizeof forged / sizeof *forged; i++)
        ASSERT_EQ(tb_hall_cmd_decode(forged[i], strlen(forged[i]), &back, &err), TB_ERR_PARSE);
    struct tb_hall_state *s = sample(), *st = calloc(1, sizeof *st);
    snprintf(s->pgn, sizeof s->pgn, "[Event \"?\"]\n\n1. e4 {[%%clk 1:29:58]} *\n");
    char *json = malloc(TB_HALL_PAYLOAD_MAX);
    ASSERT_GT((n = tb_hall_state_encode(s, json, TB_HALL_PAYLOAD_MAX, &err)), 0);
    ASSERT_OK(tb_hall_state_decode(json, (size_t)n, st, &err));
    ASSERT_STR_EQ(st->pgn, s->pgn);
    free(json);
    free(st);
    free(s);
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

/* A viewer takes a session's newest numbers and a new session from its start, never a jump no
 * restart explains: a forged state with a huge seq cannot hide the table. */
TB_TEST(a_forged_sequence_is_refused_and_a_new_session_taken)
{
    struct tb_hall_seen s = {0};
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 5), 1);
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 6), 1);
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 6), 0);                              /* sent again */
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 3), 0);                              /* overtaken */
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 9007199254740991ull), TB_ERR_PARSE); /* forged */
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 7 + TB_HALL_SEQ_JUMP), TB_ERR_PARSE);
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 7), 1);                    /* the table's own next one */
    ASSERT_EQ(tb_hall_seen_take(&s, "a1", 6 + TB_HALL_SEQ_JUMP), 1); /* a long absence */
    /* the table started again: a new session from its start, whatever the old one reached */
    ASSERT_EQ(tb_hall_seen_take(&s, "b2", 1), 1);
    ASSERT_EQ(tb_hall_seen_take(&s, "b2", 2), 1);
    ASSERT_EQ(tb_hall_seen_take(&s, "c3", 1 + TB_HALL_SEQ_JUMP), TB_ERR_PARSE);
    ASSERT_STR_EQ(s.epoch, "b2");
    ASSERT_EQ(s.seq, 2u);
    /* a forged state of another session is overtaken by the table's next state */
    ASSERT_EQ(tb_hall_seen_take(&s, "f0f0", 50), 1);
    ASSERT_EQ(tb_hall_seen_take(&s, "b2", 3), 1);
    /* a table without epochs: seq 1 is a start again */
    struct tb_hall_seen old = {0};
    ASSERT_EQ(tb_hall_seen_take(&old, "", 40), 1);
    ASSERT_EQ(tb_hall_seen_take(&old, "", 1), 1);
    ASSERT_EQ(tb_hall_seen_take(&old, "", 2), 1);
    /* the first one seen: no more than a session's start */
    struct tb_hall_seen first = {0};
    ASSERT_EQ(tb_hall_seen_take(&first, "a1", 1 + TB_HALL_SEQ_JUMP), TB_ERR_PARSE);
    ASSERT_FALSE(first.any);
}

TB_TEST(the_epoch_travels_with_states_and_events)
{
    struct tb_hall_event e = {.kind = TB_HALL_EV_MOVE, .seq = 3}, back;
    snprintf(e.epoch, sizeof e.epoch, "0123456789abcdef");
    char buf[2048];
    struct tb_error err;
    int n = tb_hall_event_encode(&e, buf, sizeof buf, &err);
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_hall_event_decode(buf, (size_t)n, &back, &err));
    ASSERT_STR_EQ(back.epoch, "0123456789abcdef");
    snprintf(e.epoch, sizeof e.epoch, "XYZ");
    ASSERT_EQ(tb_hall_event_encode(&e, buf, sizeof buf, &err), TB_ERR_ARG);
    static const char *const bad[] = {
        "{\"kind\":\"move\",\"seq\":1,\"ms\":0,\"ply\":0,\"mismatch\":0,\"ok\":false,\"request\":"
        "\"\","
        "\"san\":\"\",\"uci\":\"\",\"text\":\"\",\"detail\":\"\",\"board\":\"\",\"epoch\":\"\"}",
        "{\"kind\":\"move\",\"seq\":1,\"ms\":0,\"ply\":0,\"mismatch\":0,\"ok\":false,\"request\":"
        "\"\","
        "\"san\":\"\",\"uci\":\"\",\"text\":\"\",\"detail\":\"\",\"board\":\"\",\"epoch\":"
        "\"0123456789abcdef0\"}",
        "{\"kind\":\"move\",\"seq\":1,\"ms\":0,\"ply\":0,\"mismatch\":0,\"ok\":false,\"request\":"
        "\"\","
        "\"san\":\"\",\"uci\":\"\",\"text\":\"\",\"detail\":\"\",\"board\":\"\",\"epoch\":"
        "\"ABCD\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ASSERT_EQ(tb_hall_event_decode(bad[i], strlen(bad[i]), &back, &err), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(err.msg, "epoch");
    }
}
