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
    struct tb_bugmatch__dgt *dgt; /* a DGT board's pieces (dgt.c), NULL for the others */
    int selected;                 /* the choice button's piece type, 0 if none */
    struct tb_bugmatch__irr {     /* article 7 (irregular.c) */
        enum tb_bugmatch_irregular state;
        tb_bug_move move; /* the illegal move */
        int mover;        /* its colour */
        int passed;       /* piece code passed to the partner, 0 if none */
        bool recorded;    /* a TB_BUG_PLY_ILLEGAL holds it */
        bool touch_due;   /* 4.3: after putting back, the piece on touched must move */
        bool refused;     /* 7.7: the board shows a move refused: nothing is read until
                             it is put back */
        int touched;      /* the square it left */
        uint64_t lifted;  /* squares lifted since the board's last move */
        int last_place;   /* 1 + the last square a piece was put on, 0 none */
    } irr;
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

/* match.c: an input's checks and the time brought to it */
int tb_bugmatch__begin(tb_bugmatch *m, int b, uint64_t ms, bool sensor);

/* irregular.c: article 7 (7.3-7.7). Each hook returns true when it took the input. */
void tb_bugmatch__irr_event(tb_bugmatch *m, int b, int square, bool lift);
bool tb_bugmatch__irr_lift(tb_bugmatch *m, int b, int square, uint64_t t);
int tb_bugmatch__irr_press(tb_bugmatch *m, int b, uint64_t t);
bool tb_bugmatch__irr_sensor_out(tb_bugmatch *m, int b, const struct tb_sensor_out *s);
bool tb_bugmatch__irr_made(tb_bugmatch *m, int b, tb_bug_move move, uint64_t t);
void tb_bugmatch__irr_watch(tb_bugmatch *m, int b);
/* 7.7: the side to move on b may not move (its partner's illegal capture waits for the piece). */
bool tb_bugmatch__irr_blocked(const tb_bugmatch *m, int b);

/* An article 7 output as its English line (who: "A White"); TB_ERR_ARG for another kind. */
int tb_bugmatch__irr_format(const struct tb_bugmatch_out *o, const char *who, char *buf,
                            size_t len);
/* What the players hear of an article 7 output; 0 for others (nothing said). */
int tb_bugmatch__irr_say(const struct tb_voice_pack *pack, const struct tb_bugmatch_out *o,
                         char *buf, size_t len);
/* text.c: "knight" */
const char *tb_bugmatch__piece_name(int type);

/* play.c: the games' rules at the match level */
void tb_bugmatch__judge(tb_bugmatch *m, int b, uint64_t t);
void tb_bugmatch__sync_hands(tb_bugmatch *m);
/* The pieces the move on b passed (hands of b ^ 1 grown since before), told and judged;
 * judge_board: board b too (article 5). */
void tb_bugmatch__passed(tb_bugmatch *m, int b, const uint8_t before[2][6], bool judge_board,
                         uint64_t t);
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
