#include "tb_str.h"

#include <string.h>

size_t tb_str_copy(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    size_t k = n < cap ? n : cap - 1; /* no format: a cut here is meant, not a compiler's guess */
    if (k)
        memcpy(dst, src, k);
    dst[k] = '\0';
    return n;
}
