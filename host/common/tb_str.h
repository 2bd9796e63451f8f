/* tb_str.h - copying a string into a fixed field, for records and status lines whose fields are
 * shorter than some of the strings put in them. */
#ifndef TB_STR_H
#define TB_STR_H

#include <stddef.h>

/* Copies src into dst (cap bytes, cap >= 1), cut to cap - 1 bytes where it is longer, always
 * NUL-terminated. Returns strlen(src): a return >= cap says the copy was cut. A NULL src copies
 * "". The cut is on a byte: a caller whose text may hold UTF-8 and must stay whole checks the
 * return. */
size_t tb_str_copy(char *dst, size_t cap, const char *src);

#endif /* TB_STR_H */
