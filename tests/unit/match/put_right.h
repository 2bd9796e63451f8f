/* put_right.h - a put-right instruction as the player hears it (the English pack's words),
 * parsed back into actions and followed literally on a model of what physically stands on a
 * board: every piece named must be the piece there, and the board must end in a position its
 * scoresheet allows (D.2.9). */
#ifndef MATCH_PUT_RIGHT_H
#define MATCH_PUT_RIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "tb_match.h"

/* What stands on a board, piece codes by square (0 empty). */
struct phys_board {
    uint8_t sq[64];
};

void phys_from_pos(struct phys_board *p, const tb_chess_pos *pos);
/* A legal move of pos made on the board (pos: the position the board showed before it). */
void phys_move(struct phys_board *p, const tb_chess_pos *pos, tb_chess_move mv);
/* Same pieces on every square as pos. */
bool phys_shows(const struct phys_board *p, const tb_chess_pos *pos);

struct put_right_stats {
    long instructions; /* put-right instructions heard and followed */
    long named;        /* pieces named in them (the rest: "piece", kind unknown) */
};

/* Says the instruction in the English pack's words, parses the words back into lifts and
 * places and applies them to p literally. Returns NULL, or what is wrong (a piece named that
 * is not the piece on its square, a lift from an empty square, a piece put where one stands,
 * words that do not parse back to the instruction). */
const char *put_right_follow(const struct tb_match_announce *a, struct phys_board *p,
                             struct put_right_stats *st);

#endif
