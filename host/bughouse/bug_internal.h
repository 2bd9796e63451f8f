/* bug_internal.h - helpers shared by the bughouse module's files. */
#ifndef BUG_INTERNAL_H
#define BUG_INTERNAL_H

#include "tb_bug.h"

/* Most ordinary moves the side to move's material could have, counted per piece at its best
 * mobility; above TB_CHESS_MAX_MOVES the core's list could overflow. */
int tb_bug__mobility_bound(const tb_chess_pos *pos);

/* The article of a reason ("5.4"; "" for none). */
const char *tb_bug__reason_article(enum tb_bug_reason r);

/* Keeps rec's current positions in step: plays m on board b and passes a capture across. */
void tb_bug__play(tb_bug_pos pos[2], int board, tb_bug_move m);

#endif /* BUG_INTERNAL_H */
