/* corpus.h - seeded two-board games with the match-level handling the Laws allow and the slips
 * they correct, written as board events by the recogniser's generator (tb_sensor_gen_*). */
#ifndef MATCH_CORPUS_H
#define MATCH_CORPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "fixture.h"

enum corpus_class {
    CORPUS_PLAIN = 0,  /* each move made on its board, then copied */
    CORPUS_OWN_FIRST,  /* the copier replies before copying (D.2.9: both are the game's) */
    CORPUS_SLIP_OTHER, /* a piece knocked over on the board not to move; the move is made */
    CORPUS_SLIP_AHEAD, /* the board whose move waits knocks a piece; the copier copies, replies */
    CORPUS_SLIP_COPY,  /* the copier knocks a piece before copying */
    CORPUS_STRAY_COPY, /* the copier drops a captured piece into a hole during or after the
                          copy (capture, e.p., castling), then replies (7.4: both stand) */
    CORPUS_STRAY_MOVE, /* the mover drops the captured piece into a hole right after the
                          capture, or before it lands: the move is announced when made */
    CORPUS_KNOCK_TURN, /* the player not to move takes a piece of theirs to a square it could
                          go to (1.2, 7.4: displaced, never a move) while the mover moves */
    CORPUS_CLASSES
};

#include "put_right.h"

struct corpus_stats {
    long scripts, plies, own_first, slips, mismatches, resolved, arbiter;
    struct put_right_stats put_right; /* instructions heard, followed and checked */
};

/* One seeded game of up to max_plies with handling of class cls now and then (PLAIN: none),
 * through a match; every check fails the test with the script's seed. */
void corpus_run(enum corpus_class cls, uint64_t seed, int max_plies, struct corpus_stats *st);

const char *corpus_class_name(enum corpus_class cls);

#endif
