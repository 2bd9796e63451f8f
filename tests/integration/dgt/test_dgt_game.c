/* Whole games through twinboardd with the sighted player at a DGT e-board: `dgt:` on
 * dgtboard-sim (a DGT board with a DGT 3000 clock on a pseudo-terminal), the VI player's reed
 * board simulated (`sim:`), both playing the event script of one real game of the shared corpus
 * (each move made on its player's board and replicated on the other, D.2.1). The daemon's game
 * must be the source game move for move; so it must be with the DGT board turned round, and
 * with the DGT board unplugged in the middle of a move and plugged back in. The clock's
 * readings reach the journal as clock events and the PGN as [%clk] (the game's clock is the
 * board's: `[clock] source = board`); the clock's display shows the moves to copy.
 * Swapped pieces on the DGT board open a mismatch that names them.
 *
 * style: real-time wait: a child process on a pty and a daemon in real time, with timeouts. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eboard_game.h"
#include "tb_chess.h"
#include "tb_file.h"
#include "tb_journal.h"
#include "tb_link.h"
#include "tb_test.h"

static int want_plies;
static bool game_over(struct fx *f)
{
    return fx_plies(f) >= want_plies && strstr(fx_req(f, "status"), "state: in-sync");
}
static bool has_mismatch(struct fx *f)
{
    return strstr(fx_req(f, "status"), "state: blocked") != NULL;
}
static bool dgt_read(struct fx *f)
{
    const char *st = fx_req(f, "status");
    return strstr(st, "sighted: Black") && !strstr(st, "waiting for its first reading") &&
           !strstr(st, "NOT CONNECTED");
}

/* The clock's readings as journaled, per side, in whole seconds (the PGN's [%clk] come from
 * them: `[clock] source = board`). */
#define MAX_READINGS 8192
static int reading_s[2][MAX_READINGS], nreading[2];

/* The journal's clock events of the sighted board: how many, how many with a clock running,
 * and whether every time is one the emulated clock can show (0 .. 1:30:00 plus increments). */
static void journal_clock(struct fx *f, int *n, int *running, bool *sane)
{
    nreading[0] = nreading[1] = 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/current.tbj", f->journal);
    char *buf;
    size_t len;
    struct tb_error err;
    *n = *running = 0;
    *sane = true;
    if (tb_read_file(path, &buf, &len, &err) != TB_OK)
        TB_FAIL("journal %s: %s", path, err.msg);
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1) {
        struct tb_journal_event je;
        if (rec.type != TB_JOURNAL_BOARD_EVENT || tb_journal_event_decode(&je, &rec, NULL) != 0 ||
            je.kind != TB_LINK_EV_CLOCK)
            continue;
        (*n)++;
        *running += je.clock_run != 0;
        for (int c = 0; c < 2; c++) {
            *sane = *sane && je.clock_ms[c] >= 0 && je.clock_ms[c] <= (5400 + 3600) * 1000;
            if (je.clock_ms[c] >= 0 && nreading[c] < MAX_READINGS)
                reading_s[c][nreading[c]++] = je.clock_ms[c] / 1000;
        }
        *sane = *sane && je.board == 1 && je.clock_run <= 2;
    }
    free(buf);
}

struct run {
    const char *name, *file;
    long game;
    const char *const *extra; /* more emulator options */
    uint32_t pause_ms;
};

/* Plays the game; returns the daemon for more checks (fx_free it). */
static void play(struct fx *f, struct eb_emu *s, const struct run *r, tb_chess_pgn_game *g)
{
    fx_init(f, r->name);
    eb_write_script(f, &g->game, r->pause_ms, true);
    eb_emu_start(s, TB_DGTBOARD_SIM, r->name, f->script, "--display-log", r->extra);
    char res[600];
    snprintf(res, sizeof res, "dgt:%s", s->link);
    fx_options(f, "script", res);
    f->o.speed = TB_DAEMON_SPEED_REALTIME;
    f->o.cfg.player[0].colour = TB_CONFIG_WHITE;
    f->o.cfg.player[1].colour = TB_CONFIG_BLACK;
    /* the game's clock is the DGT clock beside the sighted board: its readings give [%clk] */
    f->o.cfg.clock.source = TB_CONFIG_CLOCK_BOARD;
    snprintf(f->o.cfg.clock.control, sizeof f->o.cfg.clock.control, "90m+15s");
    f->o.exit_when_done = false;
    fx_start(f);
    eb_run_game(f, g, r->name);
}

static void expect_clock(struct fx *f)
{
    /* the game as the daemon has it, then the daemon stopped: every record on disk */
    static char pgn[65536];
    snprintf(pgn, sizeof pgn, "%s", fx_req(f, "pgn"));
    for (char *p = pgn; *p; p++) /* the writer wraps lines at blanks, inside comments too */
        if (*p == '\n')
            *p = ' ';
    int plies = fx_plies(f);
    fx_stop(f);
    int n, running;
    bool sane;
    journal_clock(f, &n, &running, &sane);
    ASSERT_GT(n, 20); /* one a second while a clock runs (UPDATE_NICE) */
    ASSERT_GT(running, 20);
    ASSERT_TRUE(sane);
    /* the PGN's [%clk] after every move is what the emulated clock showed: a journaled reading
     * of the side that moved (to the second) */
    ASSERT_STR_CONTAINS(pgn, "[TimeControl \"");
    int ply = 0;
    for (const char *at = strstr(pgn, "[%clk "); at; at = strstr(at + 1, "[%clk ")) {
        int h, m, sec;
        ASSERT_EQ(sscanf(at, "[%%clk %d:%d:%d]", &h, &m, &sec), 3);
        int v = h * 3600 + m * 60 + sec, side = ply % 2, found = 0;
        for (int i = 0; i < nreading[side] && !found; i++)
            found = reading_s[side][i] >= v - 1 && reading_s[side][i] <= v + 1;
        if (!found) {
            int other = 0;
            for (int i = 0; i < nreading[1 - side]; i++)
                other += reading_s[1 - side][i] >= v - 1 && reading_s[1 - side][i] <= v + 1;
            TB_FAIL("ply %d: [%%clk %d:%02d:%02d] is no reading of the emulated clock (%d of the "
                    "other side's; last of this side %d s)",
                    ply + 1, h, m, sec, other,
                    nreading[side] ? reading_s[side][nreading[side] - 1] : -1);
        }
        ply++;
    }
    ASSERT_EQ(ply, plies);
}

/* Kasparov - Brown 1998: both sides castle, a promotion, mate in 39 plies. */
TB_TEST(whole_game_sighted_on_dgt_board_gives_its_pgn)
{
    tb_chess_pgn_game *g = eb_load_game("Kasparov.pgn", 1457);
    struct fx f;
    struct eb_emu s;
    struct run r = {
        .name = "dgtgame", .file = "Kasparov.pgn", .game = 1457, .pause_ms = eb_pause_ms()};
    play(&f, &s, &r, g);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Result \"1-0\"]");
    ASSERT_STR_CONTAINS(f.log, "game over: 1-0, checkmate");
    ASSERT_STR_CONTAINS(f.log, "DGT board version");
    ASSERT_STR_CONTAINS(f.log, "DGT clock: DGT 3000");
    ASSERT_STR_CONTAINS(f.log, "sighted board clock: Black pressed (D.2.4); White's clock runs");
    expect_clock(&f);
    /* the VI player's moves, shown on the clock for the sighted player to copy */
    char *disp;
    size_t len;
    struct tb_error err;
    ASSERT_OK(tb_read_file(s.side_log, &disp, &len, &err));
    ASSERT_STR_CONTAINS(disp, " e4\n");
    ASSERT_STR_CONTAINS(disp, "(times)");
    free(disp);
    fx_free(&f);
    eb_emu_stop(&s);
    free(g);
}

/* The DGT board turned round (White at the connector's right): found from the start position,
 * every square mapped, the clock's sides swapped. Korchnoi's draw: en passant, both castlings. */
TB_TEST(whole_game_on_a_rotated_dgt_board_gives_its_pgn)
{
    tb_chess_pgn_game *g = eb_load_game("Korchnoi.pgn", 2467);
    static const char *const extra[] = {"--rotated", "--out-of-order", NULL};
    struct fx f;
    struct eb_emu s;
    struct run r = {.name = "dgtrot",
                    .file = "Korchnoi.pgn",
                    .game = 2467,
                    .extra = extra,
                    .pause_ms = eb_pause_ms()};
    play(&f, &s, &r, g);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(f.log, "the board rotated");
    expect_clock(&f);
    fx_free(&f);
    eb_emu_stop(&s);
    free(g);
}

/* Unplugged with a piece in the sighted player's hand, the piece put down while the board is
 * away, plugged back in: the board is read again and the move is there; nothing is lost. */
TB_TEST(dgt_board_unplugged_mid_move_loses_nothing)
{
    tb_chess_pgn_game *g = eb_load_game("Korchnoi.pgn", 851);
    g->game.plies = EB_UNPLUG_PLIES;
    struct fx f;
    struct eb_emu s;
    fx_init(&f, "dgtunplug");
    eb_write_script(&f, &g->game, 1500, true);
    unsigned long long lift, place;
    eb_copy_lift(f.script, 9, &lift, &place); /* 5. ..., the copy of White's fifth move */
    char unplug[64];
    snprintf(unplug, sizeof unplug, "%llu:%llu", lift + 1, place - lift + 300);
    const char *const extra[] = {"--unplug", unplug, NULL};
    struct run r = {.name = "dgtunplug", .extra = extra, .pause_ms = 1500};
    play(&f, &s, &r, g);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(f.log, "sighted board lost");
    ASSERT_STR_CONTAINS(f.log, "sighted board is back");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "1 reconnects");
    fx_free(&f);
    eb_emu_stop(&s);
    free(g);
}

/* A knight and a bishop swapped on the DGT board while the game stands still: occupancy is
 * right, the pieces are not. A mismatch names both squares and pieces, with the D.2.9
 * put-right; swapped back, it clears and play goes on. */
TB_TEST(law_D_2_9_swapped_pieces_on_the_dgt_board_open_a_mismatch_naming_them)
{
    struct fx f;
    struct eb_emu s;
    fx_init(&f, "dgtswap");
    /* 1. e4 on the VI board, copied; then the sighted player swaps the knight on b8 and the
     * bishop on c8, and later puts them back */
    static const char script[] = "2000 vi lift e2\n"
                                 "2300 vi place e4\n"
                                 "3000 sighted lift e2\n"
                                 "3300 sighted place e4\n"
                                 "5000 sighted lift b8\n"
                                 "5200 sighted lift c8\n"
                                 "5400 sighted place b8 b\n"
                                 "5600 sighted place c8 n\n"
                                 "12000 sighted lift b8\n"
                                 "12200 sighted lift c8\n"
                                 "12400 sighted place b8 n\n"
                                 "12600 sighted place c8 b\n";
    fx_script(&f, script);
    eb_emu_start(&s, TB_DGTBOARD_SIM, "dgtswap", f.script, "--display-log", NULL);
    char res[600];
    snprintf(res, sizeof res, "dgt:%s", s.link);
    fx_options(&f, "script", res);
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 10000, has_mismatch));
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(f.log, "swapped");
    ASSERT_STR_CONTAINS(f.log, "on b8 a black bishop instead of the black knight");
    ASSERT_STR_CONTAINS(f.log, "on c8 a black knight instead of the black bishop");
    ASSERT_STR_CONTAINS(f.log, "D.2.9: the scoresheets agree");
    ASSERT_STR_CONTAINS(f.log, "move the black bishop on b8 to c8");
    ASSERT_TRUE(strstr(st, "state: blocked") != NULL);
    /* the clock's display says play has stopped, and where */
    char *disp;
    size_t len;
    struct tb_error err;
    ASSERT_TRUE(fx_run_until(&f, 3000, dgt_read));
    fx_run_until(&f, 1000, NULL);
    ASSERT_OK(tb_read_file(s.side_log, &disp, &len, &err));
    ASSERT_STR_CONTAINS(disp, "STOP b8");
    free(disp);
    want_plies = 1;
    ASSERT_TRUE(fx_run_until(&f, 12000, game_over));
    ASSERT_STR_CONTAINS(f.log, "RESOLVED");
    fx_run_until(&f, 500, NULL);
    ASSERT_OK(tb_read_file(s.side_log, &disp, &len, &err));
    ASSERT_STR_CONTAINS(disp, "GO e4");
    free(disp);
    fx_free(&f);
    eb_emu_stop(&s);
}
