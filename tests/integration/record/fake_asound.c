/* fake_asound.c - preloaded into daisy-player by test_record: a machine without a sound card
 * (a container, CI) has no /proc/asound/cards, and daisy-player refuses to start without one.
 * Opening that file opens the file named by TB_FAKE_ASOUND_CARDS instead; nothing else changes,
 * so the book is read and listed by daisy-player's own code. Built without sanitizers: it runs
 * inside a program that has none. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *redirect(const char *path)
{
    const char *to = getenv("TB_FAKE_ASOUND_CARDS");
    return path && to && !strcmp(path, "/proc/asound/cards") ? to : path;
}

FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) =
        (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    return real(redirect(path), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) =
        (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen64");
    return real(redirect(path), mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    return real(redirect(path), flags, mode);
}
