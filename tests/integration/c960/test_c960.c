/* test_c960.c - Chess960 (Guideline II) end to end, for all 960 start arrays:
 * - perft of every array against Stockfish 15.1's counts (chess960.epd, made by
 *   `perft960 --table 4`; `perft960 5` in the benchmarks compares deeper, move by move);
 * - a random game from every array, both sides castling as soon as they can, turned into one
 *   board's events by the generator, written as an event script with its `# fen:` line, read
 *   back as `twinboard replay` reads it and replayed through the recogniser: exactly the game,
 *   no problem reported, each move as the script's `# expect:` line says;
 * - the same games on two boards through the match: each move made on one board and replicated
 *   on the other, every move agreed, no mismatch.
 * The games come in two sets: castlings as a board sees them in standard chess (the king two or
 * more files, king and rook each to an empty square: "plain"), and every castling kind of
 * Guideline II (also the king one file, king onto the rook's square, king and rook swapping,
 * king or rook already on its square). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game960.h"
#include "tb_match.h"
#include "tb_script.h"
#include "tb_sensor.h"
#include "tb_test.h"

#define PLIES 40
#define SEED  20261124

/* ---- perft ------------------------------------------------------------------------------ */

static void perft_arrays(int first, int last, int max_depth)
{
    FILE *f = fopen(TB_C960_EPD, "r");
    if (!f)
        TB_FAIL("cannot open %s", TB_C960_EPD);
    char line[512];
    int n = 0, checked = 0;
    while (fgets(line, sizeof line, f)) {
        int number = n++;
        if (number < first || number > last)
            continue;
        char *semi = strchr(line, ';');
        ASSERT_NOT_NULL(semi);
        *semi = '\0';
        /* The table's FEN is the array's, and reads as Chess960 without being told. */
        tb_chess_pos pos, want;
        struct tb_error err;
        char fen[100];
        ASSERT_OK(tb_chess_pos_960(&want, number));
        tb_chess_pos_to_fen(&want, fen, sizeof fen);
        *strrchr(line, ' ') = '\0'; /* the blank before ';' */
        ASSERT_STR_EQ(line, fen);
        if (tb_chess_pos_from_fen(&pos, line, 0, &err) != TB_OK)
            TB_FAIL("array %d: '%s' refused: %s", number, line, err.msg);
        ASSERT_TRUE(pos.chess960);
        ASSERT_TRUE(memcmp(&pos, &want, sizeof pos) == 0);
        for (char *p = semi + 1; p; p = strchr(p + 1, ';')) {
            int d;
            unsigned long long expected;
            if (sscanf(p[0] == ';' ? p + 1 : p, "D%d %llu", &d, &expected) != 2)
                TB_FAIL("array %d: bad field '%s'", number, p);
            if (d > max_depth)
                continue;
            uint64_t got = tb_chess_perft(&pos, d);
            if (got != expected)
                TB_FAIL("array %d (%s): perft %d = %" PRIu64 ", Stockfish %llu", number, fen, d,
                        got, expected);
            checked++;
        }
    }
    fclose(f);
    ASSERT_EQ(n, 960);
    ASSERT_GE(checked, (last - first + 1) * (max_depth < 4 ? max_depth : 4));
}

TB_TEST(guideline_ii_perft_3_of_all_960_arrays_matches_stockfish)
{
    perft_arrays(0, 959, 3);
}

/* Depth 4 (about 300,000 leaves an array) for a slice that includes the standard array. */
TB_TEST(guideline_ii_perft_4_of_arrays_480_to_559_matches_stockfish)
{
    perft_arrays(480, 559, 4);
}

/* ---- what went wrong, over all 960 arrays ------------------------------------------------- */

struct tally {
    int failed;    /* arrays whose game did not come back exactly */
    int castlings; /* castlings played */
    char first[3][400];
};

static void fail_game(struct tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_game(struct tally *t, const char *fmt, ...)
{
    if (t->failed < 3) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first[t->failed], sizeof t->first[0], fmt, ap);
        va_end(ap);
    }
    t->failed++;
}

/* Every game exact; enough castlings to matter (the seed is fixed, so the count is too). */
static void judge(const struct tally *t, int min_castlings)
{
    if (t->failed)
        TB_FAIL("%d of 960 arrays: the game did not come back exactly; first: %s%s%s%s%s",
                t->failed, t->first[0], t->failed > 1 ? "; then: " : "", t->first[1],
                t->failed > 2 ? "; then: " : "", t->first[2]);
    ASSERT_GE(t->castlings, min_castlings);
}

/* ---- one board: the generator's script, read back, through the recogniser ------------------ */

struct text {
    char *buf;
    size_t len, cap;
};

static void put_line(struct text *t, const char *line)
{
    size_t n = strlen(line);
    if (t->len + n + 2 > t->cap) {
        t->cap = (t->len + n + 2) * 2;
        t->buf = realloc(t->buf, t->cap);
        ASSERT_NOT_NULL(t->buf);
    }
    memcpy(t->buf + t->len, line, n);
    t->len += n;
    t->buf[t->len++] = '\n';
    t->buf[t->len] = '\0';
}

static int write_event(void *user, const struct tb_script_event *ev)
{
    char line[200];
    ASSERT_GE(tb_script_format(ev, line, sizeof line), 0);
    put_line(user, line);
    return 0;
}

struct replay {
    tb_sensor *s;
    int moves, expects;
    char problem[200];       /* the first problem reported */
    int problem_after;       /* moves recognised before it */
    char uci[PLIES + 8][8];  /* recognised */
    char want[PLIES + 8][8]; /* the script's expect lines */
};

static void drain(struct replay *r)
{
    struct tb_sensor_out o;
    while (tb_sensor_poll(r->s, &o)) {
        if (o.kind == TB_SENSOR_OUT_PROBLEM && !r->problem[0]) {
            tb_sensor_out_format(&o, r->problem, sizeof r->problem);
            r->problem_after = r->moves;
        }
        if (o.kind == TB_SENSOR_OUT_MOVE && r->moves < PLIES + 8)
            snprintf(r->uci[r->moves++], 8, "%s", o.uci);
    }
}

static int feed(void *user, const struct tb_script_event *ev, long line)
{
    struct replay *r = user;
    (void)line;
    if (ev->kind == TB_SCRIPT_EXPECT) {
        ASSERT_LT(r->expects, PLIES + 8);
        snprintf(r->want[r->expects++], 8, "%s", ev->text);
        return 0;
    }
    ASSERT_OK(tb_sensor_feed(r->s, ev));
    drain(r);
    return 0;
}

static void replay_one_board(tb_sensor *s, int number, unsigned kinds, struct tally *tally)
{
    struct game960 g;
    game960_play(&g, number, PLIES, kinds, SEED);
    tally->castlings += g.castlings;
    struct tb_sensor_gen_config gc;
    tb_sensor_gen_config_default(&gc);
    gc.blips = true;
    gc.hesitations = true;
    struct tb_sensor_gen gen;
    ASSERT_OK(tb_sensor_gen_init(&gen, &gc, SEED + (uint64_t)number));
    struct text t = {0};
    char fen[100], line[140];
    tb_chess_pos_to_fen(&g.start, fen, sizeof fen);
    snprintf(line, sizeof line, "# fen: %s", fen);
    put_line(&t, line);
    struct tb_error err;
    if (tb_sensor_gen_moves(&gen, &g.start, g.moves, g.plies, write_event, &t, &err) != TB_OK)
        TB_FAIL("array %d: generator: %s", number, err.msg);

    /* as `twinboard replay` reads a script */
    char script_fen[128];
    tb_chess_pos start;
    ASSERT_EQ(tb_script_start_fen(t.buf, t.len, script_fen, sizeof script_fen), 1);
    if (tb_chess_pos_from_fen(&start, script_fen, 0, &err) != TB_OK)
        TB_FAIL("array %d: '# fen: %s' refused: %s", number, script_fen, err.msg);
    ASSERT_TRUE(start.chess960);
    ASSERT_TRUE(memcmp(&start, &g.start, sizeof start) == 0);
    struct replay r = {.s = s};
    tb_sensor_reset(s, &start, 0);
    ASSERT_OK(tb_script_parse_buffer(t.buf, t.len, feed, &r, &err));
    tb_sensor_flush(s);
    drain(&r);
    free(t.buf);
    ASSERT_EQ(r.expects, g.plies);
    tb_chess_pos pos = g.start;
    for (int i = 0; i < g.plies; i++) {
        char uci[8];
        tb_chess_move_to_uci(&pos, g.moves[i], uci, sizeof uci);
        ASSERT_STR_EQ(r.want[i], uci); /* the script says what was played */
        if (i >= r.moves || strcmp(r.uci[i], uci) != 0) {
            fail_game(tally, "array %d (%s) ply %d: played %s, recognised %s%s%s", number, fen,
                      i + 1, uci, i < r.moves ? r.uci[i] : "nothing",
                      r.problem[0] ? ", reported " : "", r.problem);
            return;
        }
        tb_chess_undo u;
        tb_chess_make(&pos, g.moves[i], &u);
    }
    if (r.moves != g.plies || r.problem[0])
        fail_game(tally, "array %d (%s): %d moves recognised of %d, after move %d: '%s'", number,
                  fen, r.moves, g.plies, r.problem_after, r.problem);
}

static void replay_all(unsigned kinds, int min_castlings)
{
    tb_sensor *s;
    struct tally tally = {0};
    ASSERT_OK(tb_sensor_new(NULL, &s));
    for (int n = 0; n < 960; n++)
        replay_one_board(s, n, kinds, &tally);
    tb_sensor_free(s);
    judge(&tally, min_castlings);
}

TB_TEST(guideline_ii_960_random_games_replay_exactly_plain_castling)
{
    replay_all(GAME960_PLAIN, 850);
}

TB_TEST(guideline_ii_960_random_games_replay_exactly_every_castling_kind)
{
    replay_all(GAME960_PLAIN | GAME960_SPECIAL, 1700);
}

/* ---- two boards: the match ---------------------------------------------------------------- */

static int collect(void *user, const struct tb_script_event *ev)
{
    return ev->kind == TB_SCRIPT_EXPECT ? 0 : tb_script_list_push(user, ev);
}

/* The events of one move on one board, from *cursor on, into the match. */
static void one_move(tb_match *m, int board, struct tb_sensor_gen *gen, const tb_chess_pos *pos,
                     tb_chess_move mv, uint64_t *cursor)
{
    struct tb_script_list e = {0};
    gen->t = 0;
    ASSERT_OK(tb_sensor_gen_moves(gen, pos, &mv, 1, collect, &e, NULL));
    uint64_t first = e.n ? e.ev[0].ms : 0, base = *cursor;
    for (size_t i = 0; i < e.n; i++) {
        struct tb_script_event ev = e.ev[i];
        ev.ms = base + (ev.ms - first);
        ev.us = ev.ms * 1000;
        if (getenv("C960_VERBOSE")) {
            char line[200];
            tb_script_format(&ev, line, sizeof line);
            fprintf(stderr, "  %s\n", line);
        }
        ASSERT_OK(tb_match_feed_script(m, board, &ev));
        *cursor = ev.ms;
    }
    tb_script_list_free(&e);
}

/* Returns false (after telling the tally) at the first ply that does not agree. */
static bool match_ply(tb_match *m, int number, int ply, const tb_chess_pos *pos, tb_chess_move mv,
                      struct tally *tally)
{
    struct tb_match_out o;
    char line[1200], uci[8];
    tb_chess_move_to_uci(pos, mv, uci, sizeof uci);
    while (tb_match_poll(m, &o)) {
        tb_match_out_format(&o, line, sizeof line);
        if (getenv("C960_VERBOSE"))
            fprintf(stderr, "%s\n", line);
        if (o.kind == TB_MATCH_OUT_MISMATCH || o.kind == TB_MATCH_OUT_TOUCH_REPORT ||
            o.kind == TB_MATCH_OUT_HELD) {
            fail_game(tally, "array %d ply %d (%s): %s", number, ply, uci, line);
            return false;
        }
    }
    const tb_chess_game *game = tb_match_game(m);
    if (game->plies != ply || game->moves[ply - 1] != mv) {
        fail_game(tally, "array %d ply %d: %s played on both boards, the match agreed %d plies",
                  number, ply, uci, game->plies);
        return false;
    }
    return true;
}

static void match_one(int number, unsigned kinds, struct tally *tally)
{
    struct game960 g;
    game960_play(&g, number, PLIES, kinds, SEED);
    tally->castlings += g.castlings;
    tb_match *m;
    struct tb_error err;
    struct tb_match_config cfg;
    tb_match_config_default(&cfg);
    if (tb_match_new(&cfg, &g.start, 0, &m, &err) != TB_OK)
        TB_FAIL("array %d: %s", number, err.msg);
    struct tb_sensor_gen gen[2];
    for (int b = 0; b < 2; b++) {
        struct tb_sensor_gen_config gc;
        tb_sensor_gen_config_default(&gc);
        gc.board = b ? "sighted" : "vi";
        gc.blips = true;
        ASSERT_OK(tb_sensor_gen_init(&gen[b], &gc, SEED * 2 + (uint64_t)number * 4 + (uint64_t)b));
    }
    uint64_t t = 1000;
    tb_chess_pos pos = g.start;
    for (int i = 0; i < g.plies; i++) {
        int mover = pos.side; /* board 0 (vi) plays White */
        one_move(m, mover, &gen[mover], &pos, g.moves[i], &t);
        t += 300;
        one_move(m, 1 - mover, &gen[1 - mover], &pos, g.moves[i], &t);
        t += 300;
        tb_match_tick(m, t);
        if (!match_ply(m, number, i + 1, &pos, g.moves[i], tally))
            break;
        tb_chess_undo u;
        tb_chess_make(&pos, g.moves[i], &u);
    }
    tb_match_free(m);
}

static void match_all(unsigned kinds, int min_castlings)
{
    struct tally tally = {0};
    for (int n = 0; n < 960; n++)
        match_one(n, kinds, &tally);
    judge(&tally, min_castlings);
}

TB_TEST(guideline_ii_960_random_games_agree_on_two_boards_plain_castling)
{
    match_all(GAME960_PLAIN, 850);
}

TB_TEST(guideline_ii_960_random_games_agree_on_two_boards_every_castling_kind)
{
    match_all(GAME960_PLAIN | GAME960_SPECIAL, 1700);
}
