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

long long tb_str_duration_ms(const char *text, long long max_ms)
{
    long long n = 0;
    const char *c = text;
    if (!text || *c < '0' || *c > '9')
        return -1; /* no sign, no space: digits first */
    for (; *c >= '0' && *c <= '9'; c++) {
        n = n * 10 + (*c - '0');
        if (n > max_ms)
            return -1;
    }
    long long unit = !strcmp(c, "ms")                    ? 1
                     : !strcmp(c, "") || !strcmp(c, "s") ? 1000
                     : !strcmp(c, "m")                   ? 60000
                                                         : -1;
    return unit > 0 && n <= max_ms / unit ? n * unit : -1;
}
