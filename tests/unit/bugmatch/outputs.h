/* outputs.h - what the bugmatch tests read back from a match. */
#ifndef TB_TEST_BUGMATCH_OUTPUTS_H
#define TB_TEST_BUGMATCH_OUTPUTS_H

#include "tb_bugmatch.h"

/* All outputs so far as lines, "|" between, touches left out (a static buffer). */
const char *bugmatch_lines(tb_bugmatch *m);
/* The record as BPGN (malloc'd). */
char *bugmatch_bpgn(const tb_bug_record *rec);

#endif
