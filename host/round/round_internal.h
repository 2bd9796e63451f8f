/* round_internal.h - what the round's files share. */
#ifndef ROUND_INTERNAL_H
#define ROUND_INTERNAL_H

#include "tb_round.h"

/* [Name "value"] with PGN's escapes (\" and \\) on a line of n bytes: name and value (cut at
 * their caps); false when the line is no tag pair. */
bool tb_round__tag_pair(const char *s, size_t n, char *name, size_t ncap, char *val, size_t vcap);

/* snprintf into a growing text, counting what would not fit; done: its length (cut at cap). */
struct tb_round__out {
    char *buf;
    size_t cap, n;
};
void tb_round__put(struct tb_round__out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int tb_round__done(struct tb_round__out *o);

#endif
