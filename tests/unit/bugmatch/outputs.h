/* outputs.h - shared by the bugmatch tests: what they read back from a match, and a driver of
 * random inputs. */
#ifndef TB_TEST_BUGMATCH_OUTPUTS_H
#define TB_TEST_BUGMATCH_OUTPUTS_H

#include "tb_bugmatch.h"

/* A match of cfg (NULL: defaults) from the two FENs (NULL: the start), its clocks started. */
tb_bugmatch *bugmatch_started(const struct tb_bugmatch_config *cfg, const char *fen_a,
                              const char *fen_b);
/* All outputs so far as lines, "|" between, touches left out (a static buffer). */
const char *bugmatch_lines(tb_bugmatch *m);
/* The record as BPGN (malloc'd). */
char *bugmatch_bpgn(const tb_bug_record *rec);

/* The moves made and not yet completed, followed through the outputs. */
struct bugmatch_follow {
    bool pending[2];
    tb_bug_move pend[2];
    long moves, wrong; /* MOVE outputs; WRONG_PIECE reports */
};
/* Takes the outputs: a MOVE only when none waits on its board, a PLY the move made. */
void bugmatch_follow(tb_bugmatch *m, struct bugmatch_follow *f);
/* Each ongoing game's recogniser sees the record's position with the move made, and holds the
 * hands the match says (fails naming seed and input). */
void bugmatch_in_step(tb_bugmatch *m, const struct bugmatch_follow *f, int seed, int input);

/* The piece code a random placement on board b names (0: none); called for lifts too (lift
 * true, the answer ignored), before the event, so a chooser can remember what left. */
typedef int (*bugmatch_piece_fn)(void *user, const tb_sensor *s, int sq, bool lift, uint64_t *r);

/* One run of up to 3,000 random inputs on both boards of a match of cfg (NULL: defaults) from
 * hands holding every kind: lifts of occupied squares, placements on empty ones (pieces named
 * by piece, NULL: none), choices, presses, the button, asks. Every input is taken or refused
 * for its state and the match stays in step after each (bugmatch_in_step); the clocks end the
 * games. f counts the moves and wrong pieces over the runs. */
void bugmatch_random_run(const struct tb_bugmatch_config *cfg, uint64_t seed,
                         bugmatch_piece_fn piece, void *user, struct bugmatch_follow *f);

#endif
