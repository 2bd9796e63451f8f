/* bugmatch_internal.h - the match's state, shared by its files. */
#ifndef TB_BUGMATCH_INTERNAL_H
#define TB_BUGMATCH_INTERNAL_H

#include "tb_bugmatch.h"

#define TB_BUGMATCH_OUT_CAP 256

/* One game: its board's recogniser (NULL when typed), its clock, and the move made but not
 * yet completed (FIDE 6.2.1: the press completes it). */
struct tb_bugmatch__game {
    tb_sensor *sensor;
    tb_clock clock;
    bool ended;
    bool pending; /* a move made, not yet completed */
    tb_bug_move pend_move;
    int selected;                 /* the choice button's piece type, 0 if none */
    struct tb_bugmatch__dgt *dgt; /* a DGT board's pieces (dgt.c), NULL for the others */
};

struct tb_bugmatch {
    struct tb_bugmatch_config cfg;
    uint64_t now;
    bool started;
    struct tb_bugmatch__game game[TB_BUGMATCH_BOARDS];
    tb_bug_record *rec;

    struct tb_bugmatch_out out[TB_BUGMATCH_OUT_CAP];
    int ohead, on;
    unsigned long dropped;
};

static inline int tb_bugmatch__seat(int board, int color)
{
    return 2 * board + color;
}

/* match.c */
struct tb_bugmatch_out *tb_bugmatch__emit(tb_bugmatch *m, enum tb_bugmatch_out_kind kind, int board,
                                          int seat, uint64_t ms);

/* play.c: the games' rules at the match level */
void tb_bugmatch__made(tb_bugmatch *m, int b, tb_bug_move move, uint64_t t);
void tb_bugmatch__complete(tb_bugmatch *m, int b, uint64_t t);
void tb_bugmatch__end(tb_bugmatch *m, int b, const struct tb_bug_verdict *v, uint64_t t);
void tb_bugmatch__flag(tb_bugmatch *m, int b, uint64_t t);
void tb_bugmatch__live_pool(const tb_bugmatch *m, int b, int color, uint8_t pool[6]);
void tb_bugmatch__sensor_out(tb_bugmatch *m, int b, const struct tb_sensor_out *o);

/* dgt.c: a board that names its pieces */
int tb_bugmatch__dgt_new(tb_bugmatch *m, int b);
void tb_bugmatch__dgt_reset(tb_bugmatch *m, int b);
void tb_bugmatch__dgt_lift(tb_bugmatch *m, int b, int square);
int tb_bugmatch__dgt_place(tb_bugmatch *m, int b, int square, int piece);
void tb_bugmatch__dgt_moved(tb_bugmatch *m, int b, tb_bug_move move);

#endif /* TB_BUGMATCH_INTERNAL_H */
