/* fixture.h - two boards and a match for hand-written event sequences. */
#ifndef MATCH_FIXTURE_H
#define MATCH_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "tb_match.h"

struct fixture {
    tb_match *m;
    uint64_t t; /* the clock, ms */
    struct tb_match_out *outs;
    int nout, cap;
    int mark; /* outputs before this index are old */
};

/* A match from fen (NULL: the standard position): board 0 "vi" VI White, board 1 "sighted"
 * sighted Black unless swap. */
void fx_init(struct fixture *f, const char *fen, bool swap);
void fx_free(struct fixture *f);

/* Collects waiting outputs; marks everything so far as old. */
void fx_drain(struct fixture *f);
void fx_mark(struct fixture *f);

/* One event 300 ms after the last, by square name. */
void fx_lift(struct fixture *f, int board, const char *sq);
void fx_place(struct fixture *f, int board, const char *sq);
/* Lift and place (a quiet move by hand), then 300 ms. */
void fx_hand(struct fixture *f, int board, const char *from, const char *to);
/* Lets ms pass (tick). */
void fx_wait(struct fixture *f, uint64_t ms);
/* A whole move in UCI on a board, as the recogniser's generator handles it, then the blip
 * window passes. The board's own position is its scoresheet's. */
void fx_move(struct fixture *f, int board, const char *uci);

/* Feeds generator events to a board (tb_sensor_gen_fn); user is a struct fx_feed. */
struct fx_feed {
    struct fixture *f;
    int board;
};
int fx_feed_event(void *user, const struct tb_script_event *ev);

/* The first new output (since the mark) of a kind, NULL if none; how many new ones. */
const struct tb_match_out *fx_find(const struct fixture *f, enum tb_match_out_kind kind);
int fx_count(const struct fixture *f, enum tb_match_out_kind kind);
/* The first new announce to board with message msg (is_move: a move announce). */
const struct tb_match_announce *fx_announce(const struct fixture *f, int board, bool is_move,
                                            enum tb_match_msg msg);
/* The board's scoresheet position. */
void fx_board_pos(const struct fixture *f, int board, tb_chess_pos *pos);
/* Square set from names: "e2 e4". */
uint64_t fx_squares(const char *names);
/* All new outputs as lines, for failure messages and determinism checks. */
void fx_dump(const struct fixture *f, char *buf, size_t len);

#endif
