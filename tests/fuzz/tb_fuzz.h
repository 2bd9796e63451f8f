/* tb_fuzz.h - what every fuzz target shares: the libFuzzer entry point, a check that stops the
 * run with the failed condition, and a NUL-terminated copy of an input for text parsers. */
#ifndef TB_FUZZ_H
#define TB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void tb_fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    abort();
}

/* A property the target asserts; a failure is a crash libFuzzer keeps as an artifact. */
#define TB_FUZZ_CHECK(cond) ((cond) ? (void)0 : tb_fuzz_fail(__FILE__, __LINE__, #cond))

/* The input as a C string (cut at its first NUL, as a reader of C strings sees it); free it. */
static inline char *tb_fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) {
        abort();
    }
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* An error result must say what went wrong: a negative code, the same in err, and a message. */
#define TB_FUZZ_CHECK_ERROR(rc, err)                                                               \
    do {                                                                                           \
        TB_FUZZ_CHECK((rc) < 0);                                                                   \
        TB_FUZZ_CHECK((err).code == (rc));                                                         \
        TB_FUZZ_CHECK((err).msg[0] != '\0');                                                       \
        TB_FUZZ_CHECK(memchr((err).msg, '\0', sizeof(err).msg) != NULL);                           \
    } while (0)

#endif /* TB_FUZZ_H */
