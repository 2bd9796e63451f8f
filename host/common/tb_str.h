/* tb_str.h - copying a string into a fixed field, for records and status lines whose fields are
 * shorter than some of the strings put in them; and a delay as a configuration file writes it
 * ("90", "90s", "15m", "500ms": one rule for the daemon's [broadcast] delay and the hall's
 * [round] delay and [lichess] retry). */
#ifndef TB_STR_H
#define TB_STR_H

#include <stddef.h>

/* Copies src into dst (cap bytes, cap >= 1), cut to cap - 1 bytes where it is longer, always
 * NUL-terminated. Returns strlen(src): a return >= cap says the copy was cut. A NULL src copies
 * "". The cut is on a byte: a caller whose text may hold UTF-8 and must stay whole checks the
 * return. */
size_t tb_str_copy(char *dst, size_t cap, const char *src);

/* The delay in ms (a string read, hence tb_str_): digits, then nothing or "s" (seconds), "m"
 * (minutes) or "ms"; at most max_ms. -1 when text is anything else: a sign, a space, another unit,
 * more than max_ms. */
long long tb_str_duration_ms(const char *text, long long max_ms);

#endif /* TB_STR_H */
