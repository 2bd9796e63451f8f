/* replay_main.c - runs a fuzz target without libFuzzer (gcc builds): every file of the corpus
 * directory, then N pseudo-random splices and mutations of them (fixed seed, so a failure is
 * reproducible), stopping early after SECONDS when that is not 0. Given a file instead of a
 * directory, runs just that file (to replay a crash).
 * Usage: fuzz_NAME CORPUS_DIR|FILE [MUTATIONS [SECONDS]]
 *
 * TB_FUZZ_MAXLEN bounds what is read of a file; TB_FUZZ_BYTE is a byte the mutator likes to
 * insert (the reedboard SYNC by default; a newline suits text formats). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_fuzz.h"

#ifndef TB_FUZZ_MAXLEN
#define TB_FUZZ_MAXLEN 512
#endif
#ifndef TB_FUZZ_BYTE
#define TB_FUZZ_BYTE 0xA5
#endif
#define MAXFILES 256

static uint8_t *corpus[MAXFILES];
static size_t lens[MAXFILES];

static uint32_t next_rand(uint32_t *s)
{
    /* xorshift32 */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Reads up to TB_FUZZ_MAXLEN bytes of path into a new buffer; NULL if it cannot be read. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    uint8_t *buf = malloc(TB_FUZZ_MAXLEN);
    if (buf) {
        *len = fread(buf, 1, TB_FUZZ_MAXLEN, f);
    }
    fclose(f);
    return buf;
}

/* Splices two corpus entries into buf (room for 2 * TB_FUZZ_MAXLEN), then flips, overwrites or
 * inserts a few bytes. Returns the length. */
static size_t mutate(uint8_t *buf, size_t nfiles, uint32_t *seed)
{
    size_t a = next_rand(seed) % nfiles, b = next_rand(seed) % nfiles;
    size_t la = lens[a] ? next_rand(seed) % (lens[a] + 1) : 0;
    size_t len = la;
    memcpy(buf, corpus[a], la);
    memcpy(buf + len, corpus[b], lens[b]);
    len += lens[b];
    int edits = (int)(next_rand(seed) % 6);
    for (int k = 0; k < edits && len; k++) {
        size_t at = next_rand(seed) % len;
        uint32_t r = next_rand(seed);
        switch (r % 4) {
        case 0:
            buf[at] ^= (uint8_t)(1u << (r >> 8) % 8);
            break;
        case 1:
            buf[at] = (uint8_t)(r >> 8);
            break;
        case 2:
            buf[at] = TB_FUZZ_BYTE;
            break;
        default:
            if (len < 2 * TB_FUZZ_MAXLEN) {
                memmove(buf + at + 1, buf + at, len - at);
                buf[at] = (uint8_t)(r >> 16);
                len++;
            }
            break;
        }
    }
    return len;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR|FILE [MUTATIONS [SECONDS]]\n", argv[0]);
        return 2;
    }
    long mutations = argc > 2 ? strtol(argv[2], NULL, 10) : 100000;
    long seconds = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        size_t len = 0;
        uint8_t *one = read_file(argv[1], &len);
        if (!one) {
            fprintf(stderr, "%s: cannot open corpus directory or file %s\n", argv[0], argv[1]);
            return 2;
        }
        LLVMFuzzerTestOneInput(one, len);
        free(one);
        printf("%s: no failure\n", argv[1]);
        return 0;
    }
    size_t nfiles = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && nfiles < MAXFILES) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        corpus[nfiles] = read_file(path, &lens[nfiles]);
        if (!corpus[nfiles]) {
            continue;
        }
        LLVMFuzzerTestOneInput(corpus[nfiles], lens[nfiles]);
        nfiles++;
    }
    closedir(dir);
    if (!nfiles) {
        fprintf(stderr, "%s: corpus directory %s is empty\n", argv[0], argv[1]);
        return 2;
    }
    uint32_t seed = 0x2545F491u;
    uint8_t *buf = malloc(2 * TB_FUZZ_MAXLEN);
    if (!buf) {
        return 2;
    }
    time_t start = time(NULL);
    long i = 0;
    for (; i < mutations; i++) {
        if (seconds > 0 && (i & 255) == 0 && time(NULL) - start >= seconds) {
            break;
        }
        size_t len = mutate(buf, nfiles, &seed);
        LLVMFuzzerTestOneInput(buf, len);
    }
    free(buf);
    for (size_t k = 0; k < nfiles; k++) {
        free(corpus[k]);
    }
    printf("%zu corpus files and %ld mutations: no failure\n", nfiles, i);
    return 0;
}
