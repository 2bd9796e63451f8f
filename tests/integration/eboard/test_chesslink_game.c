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

static void play(struct fx *f, struct eb_emu *e, const char *name, tb_chess_pgn_game *g,
                 uint32_t pause_ms, const char *const *extra)
{
    eb_play(f, e, TB_CHESSLINK_SIM, "chesslink", name, g, pause_ms, extra);
}

/* Kasparov - Butnorius 1978: both sides castle, en passant, captures both ways, and a pawn
 * promoted to a knight: the piece put down on the last rank says which (3.7.5). */
TB_TEST(whole_game_sighted_on_chesslink_board_gives_its_pgn)
{
    tb_chess_pgn_game *g = eb_load_game("Kasparov.pgn", 25);
    struct fx f;
    struct eb_emu e;
    fx_init(&f, "clgame");
    play(&f, &e, "clgame", g, eb_pause_ms(), NULL);
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
    play(&f, &e, "clnoise", g, eb_pause_ms(), extra);
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
    eb_unplugged_mid_move(TB_CHESSLINK_SIM, "chesslink", "clunplug");
}

/* A knight and a bishop swapped on the ChessLink board while the game stands still: the
 * occupancy is right, the pieces are not. A mismatch names both squares and pieces with the
 * D.2.9 put-right, and the corner LEDs show both squares; swapped back, it clears, the LEDs go
 * out and play goes on. */
TB_TEST(law_D_2_9_swapped_pieces_on_the_chesslink_board_open_a_mismatch_naming_them)
{
    eb_swapped_pieces(TB_CHESSLINK_SIM, "chesslink", "clswap");
}
