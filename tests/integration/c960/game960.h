/* game960.h - random legal Chess960 games (Guideline II) for tests and benchmarks.
 *
 * From a start array each side castles as soon as it legally can (castling forced where
 * possible), clears the squares between king and rooks first so that it can, keeps king and
 * rooks at home meanwhile, and otherwise plays random legal moves. Deterministic per seed. */
#ifndef GAME960_H
#define GAME960_H

#include <stdbool.h>
#include <stdint.h>

#include "tb_chess.h"

/* Castling kinds by what a board sees. */
enum {
    GAME960_PLAIN = 1,   /* as in standard chess: the king goes two or more files, king and rook
                            each to an empty square */
    GAME960_SPECIAL = 2, /* the king goes one file (a king move until the rook follows) or stays,
                            the rook stays, the king lands on the rook's square or the rook on
                            the king's (they swap) */
};

/* GAME960_PLAIN or GAME960_SPECIAL for castling m of pos. */
int game960_castle_kind(const tb_chess_pos *pos, tb_chess_move m);

struct game960 {
    tb_chess_pos start;
    int plies;
    tb_chess_move moves[200];
    int castlings;         /* castling moves in the game */
    int kinds_played;      /* GAME960_* bits of the castlings played */
    unsigned rook_on_king; /* castlings where the rook lands where the king stood or the
                              king where the rook stood */
};

/* A game of at most max_plies (capped at 200) from Chess960 array number (0..959), castling
 * only of the kinds in `kinds` (0: never castles). Stops early at mate, stalemate or a dead
 * position. */
void game960_play(struct game960 *g, int number, int max_plies, unsigned kinds, uint64_t seed);

#endif
