/* outputs.h - what the bugmatch tests read back from a match. */
#ifndef TB_TEST_BUGMATCH_OUTPUTS_H
#define TB_TEST_BUGMATCH_OUTPUTS_H

#include "tb_bugmatch.h"

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

#endif
