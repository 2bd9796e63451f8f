/* test_c960.c - Chess960 (Guideline II) end to end, for all 960 start arrays:
 * - perft of every array against Stockfish 15.1's counts (chess960.epd, made by
 *   `perft960 --table 4`; `perft960 5` in the benchmarks compares deeper, move by move);
 * - a random game from every array, both sides castling as soon as they can, turned into one
 *   board's events by the generator, written as an event script with its `# fen:` line, read
 *   back as `twinboard replay` reads it and replayed through the recogniser: exactly the game,
 *   no problem reported, each move as the script's `# expect:` line says;
 * - the same games on two boards through the match: each move made on one board and replicated
 *   on the other, every move agreed, no mismatch;
 * - every castling kind of Guideline II in every handling order a board can see, for the player
 *   to move (king first, 4.4.1) and for the copier (any order).
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
        ASSERT_LT(snprintf(r->want[r->expects++], 8, "%s", ev->text), 8);
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

/* ---- every castling kind in every handling order ------------------------------------------ */

/* Castlings of Guideline II by what a board sees (White's; one of Black's). */
static const struct {
    const char *fen, *uci, *kind;
} castlings[] = {
    {"4k3/8/8/8/8/8/8/4K2R w H - 0 1", "e1h1", "as in standard chess"},
    {"4k3/8/8/8/8/8/8/1K5R w H - 0 1", "b1h1", "king five files"},
    {"4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "king one file"},
    {"4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "king stays (king side)"},
    {"4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "c1a1", "king stays (queen side)"},
    {"4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", "rook stays (king side)"},
    {"4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1", "rook stays (queen side)"},
    {"4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "king and rook swap (king side)"},
    {"4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "d1c1", "king and rook swap (queen side)"},
    {"4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", "e1g1", "king onto the rook's square"},
    {"4k3/8/8/8/8/8/8/2R1K3 w C - 0 1", "e1c1", "king onto the rook's square (queen side)"},
    {"4k3/8/8/8/8/8/8/5K1R w H - 0 1", "f1h1", "rook onto the king's square"},
    {"4k3/8/8/8/8/8/8/R2K4 w A - 0 1", "d1a1", "rook onto the king's square (queen side)"},
    {"2rk4/8/8/8/8/8/8/4K3 b c - 0 1", "d8c8", "king and rook swap (Black)"},
};

struct hand {
    int piece; /* 0 king, 1 rook */
    bool place;
    int sq;
};

/* Every order of the lifts and placements of king and rook that a board can see: each piece
 * lifted before it is placed, nothing placed on a square still filled. A piece that stays on
 * its square is either not touched or lifted and put back (touch_still). */
static int orders(const struct tb_chess_move_squares *ms, bool touch_still, struct hand out[][4])
{
    struct hand items[4];
    int n = 0, count = 0;
    int from[2] = {ms->from, ms->rook_from}, to[2] = {ms->to, ms->rook_to};
    for (int p = 0; p < 2; p++) {
        if (from[p] == to[p] && !touch_still)
            continue;
        items[n++] = (struct hand){p, false, from[p]};
        items[n++] = (struct hand){p, true, to[p]};
    }
    /* every permutation of the n <= 4 items: a holds one index per 2 bits */
    for (int a = 0; a < 256; a++) {
        int perm[4], used = 0;
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            perm[i] = (a >> (2 * i)) & 3;
            ok = perm[i] < n && !(used & (1 << perm[i]));
            used |= 1 << perm[i];
        }
        if (!ok || (n < 4 && (a >> (2 * n)) != 0))
            continue;
        uint64_t occ = TB_CHESS_BIT(from[0]) | TB_CHESS_BIT(from[1]);
        bool lifted[2] = {false, false};
        for (int i = 0; i < n && ok; i++) {
            struct hand h = items[perm[i]];
            if (!h.place) {
                lifted[h.piece] = true;
                occ &= ~TB_CHESS_BIT(h.sq);
            } else {
                ok = lifted[h.piece] && !(occ & TB_CHESS_BIT(h.sq));
                occ |= TB_CHESS_BIT(h.sq);
            }
        }
        if (!ok)
            continue;
        for (int i = 0; i < n; i++)
            out[count][i] = items[perm[i]];
        if (n < 4)
            out[count][n].piece = -1;
        count++;
    }
    return count;
}

/* Feeds one order, gap_ms apart (150: each placement stands past the blip window; 60: a quick
 * hand), and says what came out if it is not exactly the castling. */
static bool castle_order(tb_sensor *s, const tb_chess_pos *pos, tb_chess_move castle,
                         enum tb_sensor_mode mode, const struct hand *order, uint64_t gap_ms,
                         char *why, size_t len)
{
    tb_sensor_reset(s, pos, 0);
    ASSERT_OK(tb_sensor_set_mode(s, mode, mode == TB_SENSOR_REPLICATING ? castle : 0));
    uint64_t t = 1000;
    int used = snprintf(why, len, "events %llu ms apart:", (unsigned long long)gap_ms);
    for (int i = 0; i < 4 && order[i].piece >= 0; i++, t += gap_ms) {
        char sq[3];
        tb_chess_square_name(order[i].sq, sq);
        used += snprintf(why + used, len - (size_t)used, " %s %s",
                         order[i].place ? "place" : "lift", sq);
        if (order[i].place)
            ASSERT_OK(tb_sensor_place(s, order[i].sq, 0, t));
        else
            ASSERT_OK(tb_sensor_lift(s, order[i].sq, t));
    }
    tb_sensor_flush(s);
    used += snprintf(why + used, len - (size_t)used, " give:");
    struct tb_sensor_out o;
    int moves = 0, problems = 0;
    bool right = false;
    while (tb_sensor_poll(s, &o)) {
        char line[160];
        if (o.kind == TB_SENSOR_OUT_TOUCH)
            continue;
        tb_sensor_out_format(&o, line, sizeof line);
        used += snprintf(why + used, len - (size_t)used, " '%s'", line);
        moves += o.kind == TB_SENSOR_OUT_MOVE;
        problems += o.kind == TB_SENSOR_OUT_PROBLEM;
        right |= o.kind == TB_SENSOR_OUT_MOVE && o.move == castle;
    }
    return right && moves == 1 && problems == 0;
}

static void castle_every_order(enum tb_sensor_mode mode)
{
    tb_sensor *s;
    ASSERT_OK(tb_sensor_new(NULL, &s));
    int tried = 0, failed = 0;
    char first[3][600];
    for (size_t c = 0; c < sizeof castlings / sizeof castlings[0]; c++) {
        tb_chess_pos pos;
        tb_chess_move castle;
        ASSERT_OK(tb_chess_pos_from_fen(&pos, castlings[c].fen, 0, NULL));
        ASSERT_TRUE(pos.chess960 || c == 0);
        ASSERT_OK(tb_chess_move_from_uci(&pos, castlings[c].uci, &castle));
        ASSERT_TRUE(tb_chess_move_is_castle(castle));
        struct tb_chess_move_squares ms;
        tb_chess_move_squares(&pos, castle, &ms);
        for (int touch_still = 0; touch_still < 2; touch_still++) {
            struct hand list[24][4];
            int n = orders(&ms, touch_still, list);
            for (int k = 0; k < n; k++) {
                /* 4.4.1, 4.4.2: the player castles by touching the king first (or only the
                 * rook, when the king stays untouched); the copier may use any order */
                bool king_first = list[k][0].piece == 0 || (ms.from == ms.to && !touch_still);
                if (mode == TB_SENSOR_PLAYING && !king_first)
                    continue;
                for (uint64_t gap = 60; gap <= 150; gap += 90) {
                    char why[500];
                    tried++;
                    if (castle_order(s, &pos, castle, mode, list[k], gap, why, sizeof why))
                        continue;
                    if (failed < 3)
                        snprintf(first[failed], sizeof first[0], "%s (%s): %s", castlings[c].kind,
                                 castlings[c].uci, why);
                    failed++;
                }
            }
        }
    }
    tb_sensor_free(s);
    ASSERT_GT(tried, mode == TB_SENSOR_PLAYING ? 120 : 240);
    if (failed)
        TB_FAIL("%d of %d handling orders do not give exactly the castling; first: %s%s%s%s%s",
                failed, tried, first[0], failed > 1 ? "; then: " : "", failed > 1 ? first[1] : "",
                failed > 2 ? "; then: " : "", failed > 2 ? first[2] : "");
}

/* The player to move (4.4.1: king first; a king that stays need not be touched). */
TB_TEST(guideline_ii_every_castling_kind_every_order_played_king_first)
{
    castle_every_order(TB_SENSOR_PLAYING);
}

/* The copier (D.2.1): any order, only the end decides. */
TB_TEST(guideline_ii_every_castling_kind_every_order_replicated)
{
    castle_every_order(TB_SENSOR_REPLICATING);
}
