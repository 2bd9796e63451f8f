/* eboard_game.h - what the whole-game tests of the sighted player's e-boards share (dgt:,
 * chesslink:, chessnut:): an emulator child on a pty, a game of the shared corpus as an event
 * script whose sighted placements name their pieces, and the checks on the game played. */
#ifndef EBOARD_GAME_H
#define EBOARD_GAME_H

#include <stdbool.h>
#include <sys/types.h>

#include "fixture.h"
#include "tb_chess.h"

struct eb_emu {
    pid_t pid;
    char link[512], log[512], side_log[512]; /* side_log: the display's or the LEDs' */
};

/* Starts program (an emulator) with --link LINK --script script --board sighted --no-wait
 * --lead 0 --forever, side_flag side_log when side_flag is given, then extra (NULL-ended);
 * returns once its link exists. */
void eb_emu_start(struct eb_emu *e, const char *program, const char *name, const char *script,
                  const char *side_flag, const char *const *extra);
/* Stops it; it must exit 0. */
void eb_emu_stop(struct eb_emu *e);

/* The pause between a move and its copy, and between moves, in the whole-game scripts: room for
 * the slowest board's report of a change (a ChessLink board's three 41 ms scans after one begun,
 * at most 164 ms) and the blip window (100 ms), with as much again to spare; scaled by
 * TB_TIME_MULTIPLIER on a loaded machine. */
#define EB_PAUSE_MS 400
uint32_t eb_pause_ms(void);

/* Game `number` of games/file in the shared data; free() it. */
tb_chess_pgn_game *eb_load_game(const char *file, long number);
/* The game's script for both boards (each move made on its player's board and copied on the
 * other's), every sighted placement naming its piece (an e-board names the piece put down:
 * the capturing piece, the castling rook, the promoted piece); with presses, each ply followed
 * by its player's clock press on the sighted board's line. */
void eb_write_script(struct fx *f, const tb_chess_game *g, uint32_t pause_ms, bool presses);
/* Script time of the last line. */
unsigned long long eb_script_end(const char *path);
/* The first lift of the sighted board's copy of ply `ply`, and the placement after it. */
void eb_copy_lift(const char *script, int ply, unsigned long long *lift, unsigned long long *place);
/* Runs the daemon until every ply of g is agreed and the boards are in sync (fails if not). */
void eb_run_game(struct fx *f, const tb_chess_pgn_game *g, const char *name);
/* The game's script written, the emulator program started on it (with --led-log and extra),
 * the daemon on `scheme:LINK` for the sighted player in real time, the game run (eb_run_game). */
void eb_play(struct fx *f, struct eb_emu *e, const char *program, const char *scheme,
             const char *name, tb_chess_pgn_game *g, uint32_t pause_ms, const char *const *extra);
/* The daemon on `scheme:LINK` for the sighted player against the script already written, in
 * real time, not exiting when the script ends. */
void eb_start_daemon(struct fx *f, const struct eb_emu *e, const char *scheme);
/* D.2.9 on a board that names its pieces and has lights: a knight and a bishop swapped while
 * the game stands still open a `swapped` mismatch naming both, their squares lit; put back, it
 * clears and the lights go out. The move to copy is lit until it is copied, and the last move
 * again when the sighted player asks to hear it again. */
void eb_swapped_pieces(const char *program, const char *scheme, const char *name);
/* Unplugged with a piece in the sighted player's hand, the piece put down while the board is
 * away, plugged back in (the first EB_UNPLUG_PLIES plies of a game of the corpus, the copy of
 * White's fifth move, ply 9): nothing lost, and the five plies after it agreed as the game has
 * them. */
#define EB_UNPLUG_PLIES 14
void eb_unplugged_mid_move(const char *program, const char *scheme, const char *name);
/* The daemon's moves are g's, no mismatch was opened, and the PGN has every SAN in order. */
void eb_expect_game(struct fx *f, const tb_chess_pgn_game *g);

#endif
