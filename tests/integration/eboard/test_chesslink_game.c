/* Whole games through twinboardd with the sighted player at a Millennium ChessLink board:
 * `chesslink:` on chesslink-sim (the board on a pseudo-terminal, reporting its status on every
 * change after its scan debounce), the VI player's reed board simulated (`sim:`), both playing
 * the event script of a real game of the shared corpus (each move made on its player's board
 * and copied on the other, D.2.1). The daemon's game must be the source game move for move:
 * with line noise on the board's line, and with the board unplugged in the middle of a move and
 * plugged back. Swapped pieces open a mismatch that names them, and the board's corner LEDs show
 * the squares to put right until the board is right again.
 *
 * style: real-time wait: a child process on a pty and a daemon in real time, with timeouts. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eboard_game.h"
#include "tb_file.h"
#include "tb_test.h"

#define PAUSE_MS 700 /* between a move and its copy, and between moves */

static void play(struct fx *f, struct eb_emu *e, const char *name, tb_chess_pgn_game *g,
                 uint32_t pause_ms, const char *const *extra)
{
    eb_write_script(f, &g->game, pause_ms, false);
    eb_emu_start(e, TB_CHESSLINK_SIM, name, f->script, "--led-log", extra);
    char res[600];
    snprintf(res, sizeof res, "chesslink:%s", e->link);
    fx_options(f, "script", res);
    f->o.speed = TB_DAEMON_SPEED_REALTIME;
    f->o.cfg.player[0].colour = TB_CONFIG_WHITE;
    f->o.cfg.player[1].colour = TB_CONFIG_BLACK;
    f->o.exit_when_done = false;
    fx_start(f);
    eb_run_game(f, g, name);
}

/* Kasparov - Butnorius 1978: both sides castle, en passant, captures both ways, and a pawn
 * promoted to a knight: the piece put down on the last rank says which (3.7.5). */
TB_TEST(whole_game_sighted_on_chesslink_board_gives_its_pgn)
{
    tb_chess_pgn_game *g = eb_load_game("Kasparov.pgn", 25);
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "clgame");
    play(&f, &e, "clgame", g, PAUSE_MS, NULL);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "=N");
    ASSERT_STR_CONTAINS(f.log, "ChessLink board version 1.05");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}

/* Random bytes on the line (inside frames too: cut frames, bad checks): the board is read
 * again after each, and the game is the same. Tiitta - Carlsen 2002: castling long and short,
 * a pawn promoted to a rook. */
TB_TEST(chesslink_line_noise_changes_nothing)
{
    tb_chess_pgn_game *g = eb_load_game("Carlsen.pgn", 81);
    static const char *const extra[] = {"--garbage", "60", "--seed", "3", NULL};
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "clnoise");
    play(&f, &e, "clnoise", g, PAUSE_MS, extra);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "O-O-O");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "=R");
    ASSERT_STR_CONTAINS(f.log, "bad frames");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}

/* Unplugged with a piece in the sighted player's hand, the piece put down while the board is
 * away, plugged back in: the board is read again and the move is there; nothing is lost. */
TB_TEST(chesslink_board_unplugged_mid_move_loses_nothing)
{
    tb_chess_pgn_game *g = eb_load_game("Korchnoi.pgn", 851);
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "clunplug");
    eb_write_script(&f, &g->game, 1500, false);
    unsigned long long lift, place;
    eb_copy_lift(f.script, 9, &lift, &place); /* 5. ..., the copy of White's fifth move */
    char unplug[64];
    snprintf(unplug, sizeof unplug, "%llu:%llu", lift + 1, place - lift + 300);
    const char *const extra[] = {"--unplug", unplug, NULL};
    play(&f, &e, "clunplug", g, 1500, extra);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(f.log, "sighted board lost");
    ASSERT_STR_CONTAINS(f.log, "sighted board is back");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "1 reconnects");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}

static bool has_mismatch(struct fx *f)
{
    return strstr(fx_req(f, "status"), "state: blocked") != NULL;
}
static bool in_sync(struct fx *f)
{
    return fx_plies(f) >= 1 && strstr(fx_req(f, "status"), "state: in-sync");
}

/* A knight and a bishop swapped on the ChessLink board while the game stands still: the
 * occupancy is right, the pieces are not. A mismatch names both squares and pieces with the
 * D.2.9 put-right; swapped back, it clears and play goes on. */
TB_TEST(law_d_2_9_swapped_pieces_on_the_chesslink_board_open_a_mismatch_naming_them)
{
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "clswap");
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
    eb_emu_start(&e, TB_CHESSLINK_SIM, "clswap", f.script, "--led-log", NULL);
    char res[600];
    snprintf(res, sizeof res, "chesslink:%s", e.link);
    fx_options(&f, "script", res);
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 10000, has_mismatch));
    ASSERT_STR_CONTAINS(f.log, "swapped");
    ASSERT_STR_CONTAINS(f.log, "on b8 a black bishop instead of the black knight");
    ASSERT_STR_CONTAINS(f.log, "on c8 a black knight instead of the black bishop");
    ASSERT_STR_CONTAINS(f.log, "D.2.9: the scoresheets agree");
    /* the board's corner LEDs show the two squares to put right */
    fx_run_until(&f, 500, NULL);
    char *leds;
    size_t len;
    struct tb_error err;
    ASSERT_OK(tb_read_file(e.side_log, &leds, &len, &err));
    ASSERT_STR_CONTAINS(leds, " b8 c8\n");
    free(leds);
    ASSERT_TRUE(fx_run_until(&f, 12000, in_sync));
    ASSERT_STR_CONTAINS(f.log, "RESOLVED");
    /* put right: the LEDs go out */
    fx_run_until(&f, 500, NULL);
    ASSERT_OK(tb_read_file(e.side_log, &leds, &len, &err));
    ASSERT_TRUE(len > 5 && strcmp(leds + len - 5, " off\n") == 0);
    free(leds);
    fx_free(&f);
    eb_emu_stop(&e);
}
