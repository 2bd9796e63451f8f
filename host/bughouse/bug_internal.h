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

/* irregular.c: article 7 in the record. Each board's open illegal move (7.4) and the board
 * before it, while replaying. */
struct tb_bug__open {
    tb_bug_pos before[2];
    tb_bug_move move[2];
    bool open[2];
};
/* Plays one ply, irregular or not; TB_ERR_STATE when it does not play there. */
int tb_bug__step(tb_bug_pos pos[2], struct tb_bug__open *st, const struct tb_bug_ply *p);
/* BPGN: the comment before or for an irregular ply, and the reader's
 * side (1 when the comment was one of article 7's, 0 when not, < 0 when it does not play). */
int tb_bug__irregular_text(const struct tb_bug_ply *p, char *buf, size_t len);
int tb_bug__irregular_comment(tb_bug_record *rec, const char *c, bool *illegal_next);
int tb_bug__illegal_from_text(const char *s, tb_bug_move *out);

#endif /* BUG_INTERNAL_H */
