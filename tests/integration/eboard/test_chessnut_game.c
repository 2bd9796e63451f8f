/* Whole games through twinboardd with the sighted player at a Chessnut board: `chessnut:` on
 * chessnut-sim (the board behind a stand-in for its HID device, sending its position on every
 * change), the VI player's reed board simulated (`sim:`), both playing the event script of a
 * real game of the shared corpus (each move made on its player's board and copied on the other,
 * D.2.1). The daemon's game must be the source game move for move: with bad reports among the
 * board's, and with the board unplugged in the middle of a move and plugged back. Swapped
 * pieces open a mismatch that names them, and the square LEDs show where.
 *
 * style: real-time wait: a child process on a socket and a daemon in real time, with timeouts. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eboard_game.h"
#include "tb_test.h"

/* Kasparov - Butnorius 1978: both sides castle, en passant, captures both ways, and a pawn
 * promoted to a knight: the piece put down on the last rank says which (3.7.5). */
TB_TEST(whole_game_sighted_on_chessnut_board_gives_its_pgn)
{
    tb_chess_pgn_game *g = eb_load_game("Kasparov.pgn", 25);
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "cngame");
    eb_play(&f, &e, TB_CHESSNUT_SIM, "chessnut", "cngame", g, eb_pause_ms(), NULL);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "=N");
    ASSERT_STR_CONTAINS(f.log, "Chessnut board: battery 87%");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}

/* Reports no board should send (random bytes, positions cut short or with a nibble that is no
 * piece) among the board's own: refused, counted, and the game is the same. */
TB_TEST(chessnut_bad_reports_change_nothing)
{
    tb_chess_pgn_game *g = eb_load_game("Kasparov.pgn", 1457);
    static const char *const extra[] = {"--garbage", "150", "--seed", "5", NULL};
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "cnnoise");
    eb_play(&f, &e, TB_CHESSNUT_SIM, "chessnut", "cnnoise", g, eb_pause_ms(), extra);
    eb_expect_game(&f, g);
    ASSERT_STR_CONTAINS(f.log, "a bad position report");
    fx_free(&f);
    eb_emu_stop(&e);
    free(g);
}

/* Unplugged with a piece in the sighted player's hand, the piece put down while the board is
 * away, plugged back in: the board is read again and the move is there; nothing is lost. */
TB_TEST(chessnut_board_unplugged_mid_move_loses_nothing)
{
    eb_unplugged_mid_move(TB_CHESSNUT_SIM, "chessnut", "cnunplug");
}

/* A knight and a bishop swapped on the Chessnut board: a mismatch naming both, their square
 * LEDs lit; put back, it clears and the LEDs go out. */
TB_TEST(law_D_2_9_swapped_pieces_on_the_chessnut_board_open_a_mismatch_naming_them)
{
    eb_swapped_pieces(TB_CHESSNUT_SIM, "chessnut", "cnswap");
}
