/* The game's clock in the daemon (Article 6, D.2.4, D.2.6, D.2.9): whole games in script time
 * on the built-in clock with the times expected at every move worked out here from the
 * script's own times (not by the clock module), the clock stopped while the boards disagree, a
 * flag fall judged by 6.9 both ways, the CLOCK button's words, a board's clock readings as the
 * source, and recovery after a kill giving the same clock and the same PGN. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_chess.h"
#include "tb_journal.h"
#include "tb_test.h"

/* ---- a game as a script: each move made on its player's board at a chosen time ---------- */

#define MAXPLY 160
/* The fixture's blip window: a placement counts once it has stood this long (a piece lifted
 * and put back within it is sensor noise, not a move), so a move is recognised as made, and
 * presses the clock, this long after its last placement. */
#define BLIP 100

struct timed_game {
    tb_chess_pos start;
    tb_chess_move moves[MAXPLY];
    int plies;
    uint64_t made[MAXPLY + 1]; /* made[i]: when ply i is made (its last placement, D.2.3) */
};

static char *script_buf;
static size_t script_len, script_cap;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (script_len + (size_t)n + 1 > script_cap) {
        script_cap = (script_len + (size_t)n + 1) * 2;
        script_buf = realloc(script_buf, script_cap);
        ASSERT_NOT_NULL(script_buf);
    }
    memcpy(script_buf + script_len, line, (size_t)n + 1);
    script_len += (size_t)n;
}

static const char *sq(int s)
{
    static char buf[4][3];
    static int i;
    i = (i + 1) % 4;
    return tb_chess_square_name(s, buf[i]);
}

/* The events of move m on board `board`, the last (the move made) at `end`. */
static void move_events(const char *board, const tb_chess_pos *pos, tb_chess_move m, uint64_t end)
{
    int from = tb_chess_move_from(m), to = tb_chess_move_to(m);
    switch (tb_chess_move_kind(m)) {
    case TB_CHESS_MK_CASTLE: { /* king first, then the rook (4.7: made when the rook is down) */
        bool kingside = to > from;
        int rank = from & ~7, kto = rank + (kingside ? 6 : 2), rto = rank + (kingside ? 5 : 3);
        out("%llu %s lift %s\n", (unsigned long long)(end - 900), board, sq(from));
        out("%llu %s place %s\n", (unsigned long long)(end - 600), board, sq(kto));
        out("%llu %s lift %s\n", (unsigned long long)(end - 300), board, sq(to));
        out("%llu %s place %s\n", (unsigned long long)end, board, sq(rto));
        return;
    }
    case TB_CHESS_MK_EP:
        out("%llu %s lift %s\n", (unsigned long long)(end - 600), board,
            sq(pos->side == TB_CHESS_WHITE ? to - 8 : to + 8));
        break;
    default:
        if (tb_chess_piece_at(pos, to))
            out("%llu %s lift %s\n", (unsigned long long)(end - 600), board, sq(to));
        break;
    }
    out("%llu %s lift %s\n", (unsigned long long)(end - 300), board, sq(from));
    out("%llu %s place %s\n", (unsigned long long)end, board, sq(to));
}

/* Writes the script: ply i made on the mover's board at g->made[i], copied on the other board
 * copy_ms later. vi plays White. */
static void write_game(struct fx *f, const struct timed_game *g, uint64_t copy_ms, const char *tail)
{
    script_len = 0;
    tb_chess_pos pos = g->start;
    for (int i = 1; i <= g->plies; i++) {
        const char *mover = pos.side == TB_CHESS_WHITE ? "vi" : "sighted";
        const char *copier = pos.side == TB_CHESS_WHITE ? "sighted" : "vi";
        move_events(mover, &pos, g->moves[i - 1], g->made[i]);
        move_events(copier, &pos, g->moves[i - 1], g->made[i] + copy_ms);
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i - 1], &u);
    }
    if (tail)
        out("%s", tail);
    fx_script(f, script_buf ? script_buf : "");
}

/* Moves of the first game of a corpus file (up to max plies, stopping before a promotion). */
static void corpus_game(const char *file, int max, struct timed_game *g)
{
    char path[512];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    FILE *fp = fopen(path, "rb");
    ASSERT_NOT_NULL(fp);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    static tb_chess_pgn_game pg;
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    ASSERT_EQ(tb_chess_pgn_read(&r, &pg, &err), 1);
    memset(g, 0, sizeof *g);
    g->start = pg.game.start;
    for (int i = 0; i < pg.game.plies && g->plies < max; i++) {
        if (tb_chess_move_promo(pg.game.moves[i]))
            break;
        g->moves[g->plies++] = pg.game.moves[i];
    }
}

/* Move times: ply i made gap_lo..gap_hi ms (any millisecond) after ply i-1; the copy takes
 * copy_ms and comes before the next move. */
static void times(struct timed_game *g, uint64_t first, uint64_t gap_lo, uint64_t gap_hi,
                  unsigned seed)
{
    srand(seed);
    g->made[0] = 0;
    uint64_t t = first;
    for (int i = 1; i <= g->plies; i++) {
        g->made[i] = t;
        t += gap_lo + (uint64_t)rand() % (gap_hi - gap_lo + 1);
    }
}

/* ---- the expected clock, worked out from the script's times ----------------------------- */

/* 6.3 (Fischer): every move's time comes off its player's clock, the increment is added after
 * it; White's clock started at 0 (6.6); a move is completed when it is made (D.2.3, D.2.4):
 * recognised BLIP after its last placement. left[i]: the mover's time left after ply i. */
static void expected(const struct timed_game *g, int64_t base, int64_t inc, int64_t *left)
{
    int64_t clock[2] = {base, base};
    int side = g->start.side;
    for (int i = 1; i <= g->plies; i++) {
        int64_t used =
            (int64_t)(g->made[i] + BLIP) - (i > 1 ? (int64_t)(g->made[i - 1] + BLIP) : 0);
        clock[side] += inc - used;
        left[i] = clock[side];
        side = 1 - side;
    }
}

static void clk_text(int64_t ms, char *buf, size_t len)
{
    snprintf(buf, len, "[%%clk %lld:%02lld:%02lld]", (long long)(ms / 3600000),
             (long long)(ms / 60000 % 60), (long long)(ms / 1000 % 60));
}

/* The PGN on one line (the writer wraps lines at blanks, also inside comments). */
static const char *flat(const char *pgn)
{
    static char buf[65536];
    snprintf(buf, sizeof buf, "%s", pgn);
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return buf;
}

/* Every ply of the PGN carries the expected [%clk], in order. */
static void check_clk(const char *pgn, const struct timed_game *g, const int64_t *left)
{
    const char *p = flat(pgn);
    for (int i = 1; i <= g->plies; i++) {
        char want[40];
        clk_text(left[i], want, sizeof want);
        const char *q = strstr(p, "[%clk ");
        if (!q)
            TB_FAIL("ply %d: no [%%clk] left in the PGN (want %s)", i, want);
        if (strncmp(q, want, strlen(want)) != 0)
            TB_FAIL("ply %d: PGN has %.20s, want %s", i, q, want);
        p = q + 1;
    }
    ASSERT_NULL(strstr(p, "[%clk "));
}

static void clock_options(struct fx *f, const char *control)
{
    fx_options(f, "script", "script");
    f->o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f->o.cfg.clock.control, sizeof f->o.cfg.clock.control, "%s", control);
}

static void run_done(struct fx *f)
{
    ASSERT_EQ(fx_run(f, 200000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    ASSERT_TRUE(c.done);
}

/* The status line of the clock. */
static void clock_line(struct fx *f, char *buf, size_t len)
{
    const char *st = strstr(fx_req(f, "status"), "clock: ");
    ASSERT_NOT_NULL(st);
    snprintf(buf, len, "%.*s", (int)strcspn(st, "\n"), st);
}

/* The daemon's journal file as it stands. */
static const uint8_t *journal_bytes(const struct fx *f, size_t *len)
{
    static uint8_t buf[4 << 20];
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", f->journal);
    FILE *fp = fopen(path, "rb");
    ASSERT_NOT_NULL(fp);
    *len = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    return buf;
}

/* ---- the club's 90m+15s game and the 7-minute blitz ------------------------------------- */

/* A corpus game in script time on a control; every ply's [%clk] and the TimeControl tag as
 * worked out from the script's times. */
struct timed_case {
    const char *name, *corpus, *control, *tag, *status;
    int max_plies;
    uint64_t gap_lo, gap_hi, copy_ms;
    unsigned seed;
    int64_t base, inc;
};

static void timed_game_case(const struct timed_case *tc)
{
    static struct timed_game g;
    static int64_t left[MAXPLY + 1];
    struct fx f;
    fx_init(&f, tc->name);
    corpus_game(tc->corpus, tc->max_plies, &g);
    ASSERT_GT(g.plies, 30);
    times(&g, 3000, tc->gap_lo, tc->gap_hi, tc->seed);
    write_game(&f, &g, tc->copy_ms, NULL);
    clock_options(&f, tc->control);
    fx_start(&f);
    run_done(&f);
    ASSERT_EQ(fx_plies(&f), g.plies);
    expected(&g, tc->base, tc->inc, left);
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, tc->tag);
    check_clk(pgn, &g, left);
    /* status: the last mover's clock stands at its [%clk] */
    char want[128];
    int last = g.plies % 2 == 1 ? TB_CHESS_WHITE : TB_CHESS_BLACK;
    snprintf(want, sizeof want, "%s %lld:%02lld:%02lld (%d moves)", last ? "Black" : "White",
             (long long)(left[g.plies] / 3600000), (long long)(left[g.plies] / 60000 % 60),
             (long long)(left[g.plies] / 1000 % 60), (g.plies + (last ? 0 : 1)) / 2);
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, tc->status);
    ASSERT_STR_CONTAINS(st, want);
    fx_free(&f);
}

/* The club's standard tempo (club rules: 1h30 + 15 s a move), a long game. */
TB_TEST(law_6_3_club_tempo_90m_15s_times_at_every_move)
{
    static const struct timed_case tc = {"club",
                                         "Carlsen.pgn",
                                         "club",
                                         "[TimeControl \"5400+15\"]",
                                         "clock: builtin 90m+15s, ",
                                         120,
                                         4000,
                                         240000,
                                         1500,
                                         7,
                                         90 * 60000,
                                         15000};
    timed_game_case(&tc);
}

/* The club's blitz (Appendix B: 10 minutes or less): 7 minutes, no increment. */
TB_TEST(law_B_blitz_7m_times_at_every_move)
{
    static const struct timed_case tc = {"blitz",
                                         "Kasparov.pgn",
                                         "blitz",
                                         "[TimeControl \"420\"]",
                                         "clock: builtin 7m, ",
                                         60,
                                         2500,
                                         9000,
                                         1200,
                                         11,
                                         7 * 60000,
                                         0};
    timed_game_case(&tc);
}

/* The daemon on control until the first mismatch stops play (D.2.9): its id. */
static unsigned until_mismatch(struct fx *f, const char *control)
{
    clock_options(f, control);
    fx_start(f);
    unsigned id = fx_run(f, 100000);
    ASSERT_GT(id, 0u);
    ASSERT_STR_CONTAINS(fx_req(f, "status"), "stopped: play is stopped (D.2.9)");
    return id;
}

/* The arbiter's request: resolve the open mismatch (n 0) or take back n plies. */
static void arbiter(struct fx *f, const char *verb, unsigned n)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    char line[64];
    snprintf(line, sizeof line, "%s %u pin=%s", verb, n ? n : c.mismatch, FX_PIN);
    ASSERT_STR_EQ(fx_req(f, line), "ok\n");
}

/* ---- D.2.9: the clock stands while the boards disagree ---------------------------------- */

TB_TEST(law_D_2_9_clock_stops_while_the_boards_disagree)
{
    struct fx f;
    fx_init(&f, "mismatch");
    /* 1. e4 at 5000; the sighted board copies e2-e3 instead (8000): mismatch, play stops; the
     * arbiter confirms; e3-e4 put right at 30300: play goes on; 1... e5 at 40000 */
    fx_script(&f, "4700 vi lift e2\n5000 vi place e4\n"
                  "7700 sighted lift e2\n8000 sighted place e3\n"
                  "30000 sighted lift e3\n30300 sighted place e4\n"
                  "39700 sighted lift e7\n40000 sighted place e5\n"
                  "41700 vi lift e7\n42000 vi place e5\n"
                  "49700 vi lift g1\n50000 vi place f3\n"
                  "51700 sighted lift g1\n52000 sighted place f3\n");
    until_mismatch(&f, "90m+15s");
    arbiter(&f, "resolve", 0);
    run_done(&f);
    ASSERT_EQ(fx_plies(&f), 3);
    /* each move recognised BLIP after its placement: White 5100 used; Black 40100 - 5100 =
     * 35000, less the 22300 the clock stood (mismatch at 8100 to put right at 30400); White
     * 50100 - 40100 */
    const char *pgn = flat(fx_req(&f, "pgn"));
    /* the clock and the resolution stand at one place: one comment (chess.js reads no two) */
    ASSERT_STR_CONTAINS(pgn,
                        "e4 {[%clk 1:30:09] resolved by the arbiter"); /* 5400000 - 5100 + 15000 */
    ASSERT_STR_CONTAINS(pgn, "e5 {[%clk 1:30:02]}");                   /* 5400000 - 12700 + 15000 */
    ASSERT_STR_CONTAINS(pgn, "Nf3 {[%clk 1:30:14]}");                  /* 5409900 - 10000 + 15000 */
    ASSERT_NULL(strstr(pgn, "[%clk 1:29:")); /* no standing time charged */
    fx_free(&f);
}

/* D.2.9: the scoresheets differ, the arbiter takes the move back: the move counters follow
 * the game, the side to move's clock runs once both boards show the position, the times stand
 * (the arbiter adjusts them). */
TB_TEST(law_D_2_9_takeback_sets_the_move_counters_and_the_turn)
{
    struct fx f;
    fx_init(&f, "takeback");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
                  "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
                  "5000 vi lift g1\n5300 vi place f3\n6000 sighted lift g1\n6300 sighted place h3\n"
                  "10000 vi lift f3\n10300 vi place g1\n11000 sighted lift h3\n"
                  "11300 sighted place g1\n20000 vi lift d2\n20300 vi place d4\n"
                  "21000 sighted lift d2\n21300 sighted place d4\n");
    until_mismatch(&f, "90m+15s");
    arbiter(&f, "takeback", 1);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "White 1:30:26 (1 move), Black 1:30:12 (1 move)");
    run_done(&f);
    ASSERT_EQ(fx_plies(&f), 3); /* 1. e4 e5 2. d4 */
    /* White: 5400000 - 1400 + 15000, then Nf3 (taken back) 2000 + 15000 back: 5426600; runs
     * from the position shown (11400) to d4 (20400): 9000, + 15000 */
    const char *pgn = flat(fx_req(&f, "pgn"));
    ASSERT_STR_CONTAINS(pgn, "d4 {[%clk 1:30:32]}");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "White 1:30:32 (2 moves)");
    fx_free(&f);
}

/* D.2.9 "the arbiter adjusts the clock", 6.10.2: clock-set gives both clocks their time left;
 * journaled, so a recovery sets them again. */
TB_TEST(law_D_2_9_arbiter_sets_the_clocks)
{
    static char pgn[65536];
    struct fx f;
    fx_init(&f, "clock-set");
    fx_script(&f, "4700 vi lift e2\n5000 vi place e4\n5700 sighted lift e2\n6000 sighted place e4\n"
                  "9700 sighted lift e7\n10000 sighted place e5\n10700 vi lift e7\n"
                  "11000 vi place e5\n");
    clock_options(&f, "90m+15s");
    fx_start(&f);
    char line[96];
    snprintf(line, sizeof line, "clock-set 1:00:00 1h pin=%s", "958273");
    ASSERT_STR_CONTAINS(fx_req(&f, line), "err"); /* the arbiter's PIN */
    snprintf(line, sizeof line, "clock-set 1:00:00 1:61:00 pin=%s", FX_PIN);
    ASSERT_STR_CONTAINS(fx_req(&f, line), "is not White's and Black's time left");
    snprintf(line, sizeof line, "clock-set 1:00:00 45:30 pin=%s", FX_PIN);
    ASSERT_STR_EQ(fx_req(&f, line), "ok\n");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "White 1:00:00 (0 moves, running), Black 0:45:30");
    run_done(&f);
    /* White 3600000 - 5100 + 15000; Black 2730000 - 5000 + 15000 */
    snprintf(pgn, sizeof pgn, "%s", fx_req(&f, "pgn"));
    ASSERT_STR_CONTAINS(flat(pgn), "e4 {[%clk 1:00:09]}");
    ASSERT_STR_CONTAINS(flat(pgn), "e5 {[%clk 0:45:40]}");
    ASSERT_STR_CONTAINS(f.log, "clock: the arbiter set White 1:00:00, Black 0:45:30");
    fx_stop(&f);
    struct fx g; /* the same journal recovered */
    fx_init(&g, "clock-set");
    fx_options(&g, "null:", "null:");
    g.o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(g.o.cfg.clock.control, sizeof g.o.cfg.clock.control, "90m+15s");
    fx_start(&g);
    ASSERT_STR_EQ(fx_req(&g, "pgn"), pgn);
    fx_free(&g);
    fx_free(&f);
}

/* ---- 6.9: flag fall ------------------------------------------------------------------- */

/* White: king and queen; Black: a lone king. */
#define KQ_K "4k3/8/8/8/8/8/8/4K2Q w - - 0 1"

static void flag_game(struct fx *f, const char *name, const char *script)
{
    fx_init(f, name);
    fx_script(f, script);
    clock_options(f, "1m");
    snprintf(f->o.cfg.start_fen, sizeof f->o.cfg.start_fen, "%s", KQ_K);
    snprintf(f->o.cfg.player[0].pack, sizeof f->o.cfg.player[0].pack, "en");
    snprintf(f->o.cfg.player[1].pack, sizeof f->o.cfg.player[1].pack, "en");
    f->o.cfg.clock.warn_ms[TB_CONFIG_VI][0] = 30000; /* the VI player is told at 30 s left */
    f->o.cfg.clock.nwarn[TB_CONFIG_VI] = 1;
    fx_start(f);
    run_done(f);
}

TB_TEST(law_6_9_flag_fall_loses_when_the_opponent_can_mate)
{
    struct fx f;
    /* Qh1-h2 placed at 2000, made (recognised) at 2100; Black never moves: Black's flag falls
     * at 2100 + 60000 */
    flag_game(&f, "flag-loss",
              "1700 vi lift h1\n2000 vi place h2\n3700 sighted lift h1\n4000 sighted place h2\n"
              "70000 vi press clock\n");
    ASSERT_STR_CONTAINS(f.log, "FLAG: Black's time has run out (0:01:02 into the game, ply 1): "
                               "1-0");
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): Flag fall, black. White wins");
    ASSERT_STR_CONTAINS(f.log, "say to sighted (Black): Flag fall, black. White wins");
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): White 0 minutes 57 seconds, black 0 minutes "
                               "0 seconds, 1 move");
    const char *pgn = flat(fx_req(&f, "pgn"));
    ASSERT_STR_CONTAINS(pgn, "[Result \"1-0\"]");
    ASSERT_STR_CONTAINS(pgn, "Black's flag fell: 1-0");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "result 1-0");
    ASSERT_STR_CONTAINS(f.answer, "flag fell: 1-0");
    fx_free(&f);
}

TB_TEST(law_6_9_flag_fall_is_a_draw_when_the_opponent_cannot_mate)
{
    struct fx f;
    /* White (king and queen) never moves: its flag falls at 60000; Black has a lone king */
    flag_game(&f, "flag-draw", "70000 vi press clock\n");
    ASSERT_STR_CONTAINS(f.log, "FLAG: White's time has run out (0:01:00 into the game, ply 0): "
                               "1/2-1/2");
    ASSERT_STR_CONTAINS(f.log, "say to sighted (Black): Flag fall, white. Draw");
    /* the warning came first, at 30 s left, with the clock's words (one minute: singular) */
    const char *warn = strstr(f.log, "say to vi (White): White 0 minutes 30 seconds, black 1 "
                                     "minute 0 seconds, 0 moves");
    ASSERT_NOT_NULL(warn);
    ASSERT_LT(warn, strstr(f.log, "FLAG:"));
    ASSERT_STR_CONTAINS(f.log, "clock: White has 0:00:30 left (warning)");
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[Result \"1/2-1/2\"]");
    fx_free(&f);
}

/* Real time: the loop wakes for the flag by itself (its deadline is in the poll's timeout). */
TB_TEST(law_6_8_flag_seen_on_time_without_any_input)
{
    struct fx f;
    fx_init(&f, "flag-realtime");
    fx_options(&f, "null:", "null:");
    f.o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f.o.cfg.clock.control, sizeof f.o.cfg.clock.control, "1s");
    f.o.exit_when_done = false;
    fx_start(&f);
    for (int i = 0; i < 200 && !strstr(f.log ? f.log : "", "FLAG"); i++)
        tb_daemon_step(f.d, -1); /* no timeout of its own: only the clock's deadline wakes it */
    ASSERT_STR_CONTAINS(f.log, "FLAG: White's time has run out (0:00:01 into the game, ply 0)");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "result 0-1");
    fx_free(&f);
}

/* ---- D.2.6, D.2.10.4: the CLOCK button ------------------------------------------------- */

TB_TEST(law_D_2_6_clock_button_says_both_times_and_the_moves)
{
    struct fx f;
    fx_init(&f, "button");
    /* 1. e4 (made at 61500) e5 (at 62750); at 90000 each player asks */
    fx_script(&f, "61200 vi lift e2\n61500 vi place e4\n61800 sighted lift e2\n"
                  "62000 sighted place e4\n62450 sighted lift e7\n62750 sighted place e5\n"
                  "63000 vi lift e7\n63300 vi place e5\n90000 vi press clock\n"
                  "90000 vi release clock\n91000 sighted press clock\n");
    clock_options(&f, "90m+15s");
    snprintf(f.o.cfg.player[1].pack, sizeof f.o.cfg.player[1].pack, "en");
    fx_start(&f);
    run_done(&f);
    /* made BLIP after the placements: White 5400000 - 61600 + 15000 = 5353400, running since
     * 62850: at 90000 27150 less = 5326250 (88:46); Black 5400000 - 1250 + 15000 = 5413750
     * (90:13) */
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): Weiß 88 Minuten 46 Sekunden, Schwarz 90 "
                               "Minuten 13 Sekunden, 1 Zug");
    /* at 91000 one second more off White's clock; Black has made 1 move */
    ASSERT_STR_CONTAINS(f.log, "say to sighted (Black): White 88 minutes 45 seconds, black 90 "
                               "minutes 13 seconds, 1 move");
    fx_free(&f);
}

/* ---- a board's clock (a DGT clock) as the source ---------------------------------------- */

TB_TEST(clock_source_board_records_the_latest_reading_after_each_move)
{
    struct fx f;
    fx_init(&f, "board-clock");
    fx_script(&f, "500 sighted clock 0 0 stopped\n" /* not set yet: no flag */
                  "1000 sighted clock 5400000 5400000 white\n"
                  "4700 vi lift e2\n5000 vi place e4\n"
                  "5200 sighted clock 5395000 5400000 white\n"
                  "5600 sighted clock 5410000 5399000 black\n" /* the press, with +15 s */
                  "5700 sighted lift e2\n6000 sighted place e4\n"
                  "9700 sighted lift e7\n10000 sighted place e5\n"
                  "10300 sighted clock 5410000 5385000 black\n"
                  "10500 sighted clock 5409000 5400000 white\n"
                  "11700 vi lift e7\n12000 vi place e5\n");
    fx_options(&f, "script", "script");
    f.o.cfg.clock.source = TB_CONFIG_CLOCK_BOARD;
    snprintf(f.o.cfg.clock.control, sizeof f.o.cfg.clock.control, "90m+15s");
    fx_start(&f);
    run_done(&f);
    const char *pgn = flat(fx_req(&f, "pgn"));
    ASSERT_STR_CONTAINS(pgn, "[TimeControl \"5400+15\"]");
    ASSERT_STR_CONTAINS(pgn, "e4 {[%clk 1:30:10]}"); /* 5410000: the latest reading after it */
    ASSERT_STR_CONTAINS(pgn, "e5 {[%clk 1:30:00]}"); /* 5400000 */
    ASSERT_STR_CONTAINS(f.log, "sighted board's clock: Black's clock runs");
    ASSERT_NULL(strstr(f.log, "FLAG"));
    ASSERT_STR_CONTAINS(fx_req(&f, "status"),
                        "clock: board 90m+15s, White 1:30:09 (1 move, running), Black 1:30:00 "
                        "(1 move)");
    fx_free(&f);
}

/* A board's clock showing a side at 0:00 after it showed it time: that side's flag (6.9). */
TB_TEST(law_6_9_board_clock_at_zero_is_a_flag_fall)
{
    struct fx f;
    fx_init(&f, "board-flag");
    fx_script(&f, "500 sighted clock 0 0 stopped\n1000 sighted clock 60000 60000 white\n"
                  "4700 vi lift e2\n5000 vi place e4\n5700 sighted lift e2\n6000 sighted place e4\n"
                  "6100 sighted clock 55000 60000 black\n66100 sighted clock 55000 0 black\n");
    fx_options(&f, "script", "script");
    f.o.cfg.clock.source = TB_CONFIG_CLOCK_BOARD;
    fx_start(&f);
    run_done(&f);
    ASSERT_STR_CONTAINS(f.log, "FLAG: Black's time has run out (0:01:06 into the game, ply 1): "
                               "1-0");
    ASSERT_STR_CONTAINS(flat(fx_req(&f, "pgn")), "[Result \"1-0\"]");
    ASSERT_NULL(strstr(f.answer, "TimeControl")); /* no control configured: no tag */
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "clock: board no control, White 0:00:55 (1 move), "
                                              "Black 0:00:00 (0 moves, running), flag fell: 1-0");
    fx_free(&f);
}

/* ---- recovery: the same clock from the journal ----------------------------------------- */

TB_TEST(clock_recovered_from_the_journal_mid_game)
{
    static struct timed_game g;
    static char pgn[65536], status_line[512];
    struct fx f;
    fx_init(&f, "rec-full");
    corpus_game("Korchnoi.pgn", 50, &g);
    times(&g, 3000, 3000, 30000, 5);
    write_game(&f, &g, 1200, NULL);
    clock_options(&f, "40/120m+30s, 30m+30s");
    fx_start(&f);
    run_done(&f);
    snprintf(pgn, sizeof pgn, "%s", fx_req(&f, "pgn"));
    ASSERT_STR_CONTAINS(pgn, "[%clk ");
    clock_line(&f, status_line, sizeof status_line);
    size_t len;
    const uint8_t *buf = journal_bytes(&f, &len);
    for (int k = 1; k <= 3; k++) { /* killed a quarter, half, three quarters in */
        struct fx h;
        char name[32];
        snprintf(name, sizeof name, "rec-%d", k);
        fx_init(&h, name);
        mkdir(h.journal, 0755);
        char jp[600];
        snprintf(jp, sizeof jp, "%s/current.tbj", h.journal);
        FILE *w = fopen(jp, "wb");
        ASSERT_NOT_NULL(w);
        ASSERT_EQ(fwrite(buf, 1, len * (size_t)k / 4, w), len * (size_t)k / 4);
        fclose(w);
        snprintf(h.script, sizeof h.script, "%s", f.script);
        clock_options(&h, "40/120m+30s, 30m+30s");
        fx_start(&h);
        run_done(&h);
        ASSERT_STR_EQ(fx_req(&h, "pgn"), pgn);
        ASSERT_STR_CONTAINS(fx_req(&h, "status"), status_line);
        fx_free(&h);
    }
    fx_free(&f);
}

/* ---- the journal cannot be written: the clock stands with play --------------------------- */

static int disk_error; /* while set, every write and sync of the journal fails with it */

static ssize_t disk_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    (void)user;
    if (disk_error) {
        errno = disk_error;
        return -1;
    }
    return pwrite(fd, buf, len, off);
}

static int disk_fdatasync(void *user, int fd)
{
    (void)user;
    if (disk_error) {
        errno = disk_error;
        return -1;
    }
    return fdatasync(fd);
}

static bool two_plies(struct fx *f)
{
    return fx_plies(f) >= 2;
}

static bool journal_stopped(struct fx *f)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    return c.journal_stopped;
}

/* Real time: the disk fails after two plies for about two seconds; the clocks stand meanwhile
 * (the time they ran is given back when play goes on, journaled), and a recovery from that
 * journal gives the same clock and the same PGN. */
TB_TEST(clock_stands_while_the_journal_cannot_be_written)
{
    static char pgn[65536], before[512], during[512];
    struct fx f;
    fx_init(&f, "jstop");
    fx_script(&f,
              "300 vi lift e2\n500 vi place e4\n700 sighted lift e2\n900 sighted place e4\n"
              "1100 sighted lift e7\n1300 sighted place e5\n1500 vi lift e7\n1700 vi place e5\n"
              "1900 vi lift g1\n2100 vi place f3\n2300 sighted lift g1\n2500 sighted place f3\n"
              "2700 sighted lift b8\n2900 sighted place c6\n3100 vi lift b8\n3300 vi place c6\n");
    clock_options(&f, "5m");
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    struct tb_journal_io io = {.pwrite = disk_pwrite, .fdatasync = disk_fdatasync};
    f.o.journal_io = &io;
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 20000, two_plies));
    disk_error = ENOSPC;
    ASSERT_TRUE(fx_run_until(&f, 20000, journal_stopped));
    clock_line(&f, before, sizeof before);
    ASSERT_STR_CONTAINS(before, "stopped: the journal cannot be written");
    fx_run_until(&f, 1800, NULL); /* the scripts play on; their events wait */
    clock_line(&f, during, sizeof during);
    ASSERT_STR_EQ(during, before);
    disk_error = 0;
    for (int i = 0; i < 100000 && fx_plies(&f) < 4; i++)
        tb_daemon_step(f.d, 20);
    ASSERT_EQ(fx_plies(&f), 4);
    ASSERT_STR_CONTAINS(f.log, "the time run while the journal could not be written is given "
                               "back");
    snprintf(pgn, sizeof pgn, "%s", fx_req(&f, "pgn"));
    fx_stop(&f);
    /* the journal says how long the clocks ran while it stood: at least the 1.8 s waited */
    size_t len;
    const uint8_t *buf = journal_bytes(&f, &len);
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    unsigned long long ran[2] = {0, 0};
    int stops = 0;
    while (tb_journal_iter_next(&it, &rec, NULL) == 1) {
        struct tb_journal_decision dec;
        if (rec.type == TB_JOURNAL_CLOCK && tb_journal_decision_decode(&dec, &rec, NULL) == TB_OK &&
            sscanf(dec.text, "journal stop %llu %llu", &ran[0], &ran[1]) == 2)
            stops++;
    }
    ASSERT_EQ(stops, 1);
    ASSERT_GE(ran[0] + ran[1], 1800u);

    /* the same journal recovered: the same clock */
    struct fx g;
    fx_init(&g, "jstop"); /* the same directory: its journal */
    fx_options(&g, "null:", "null:");
    g.o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(g.o.cfg.clock.control, sizeof g.o.cfg.clock.control, "5m");
    fx_start(&g);
    ASSERT_STR_EQ(fx_req(&g, "pgn"), pgn);
    ASSERT_STR_CONTAINS(pgn, "[%clk 0:04:5"); /* a second or so a move: the stop not charged */
    fx_free(&g);
    fx_free(&f);
}
