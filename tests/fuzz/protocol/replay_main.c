/* replay_main.c - runs the protocol fuzz target without libFuzzer (gcc builds): every file of
 * the corpus directory, then N pseudo-random mutations of them (fixed seed, so a failure is
 * reproducible). Usage: fuzz_rb_proto CORPUS_DIR [N] */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXFILES 256
#define MAXLEN   512

static uint8_t corpus[MAXFILES][MAXLEN];
static size_t lens[MAXFILES];

static uint32_t next_rand(uint32_t *s)
{
    /* xorshift32 */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS]\n", argv[0]);
        return 2;
    }
    long mutations = argc > 2 ? strtol(argv[2], NULL, 10) : 100000;
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "%s: cannot open corpus directory %s\n", argv[0], argv[1]);
        return 2;
    }
    size_t nfiles = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && nfiles < MAXFILES) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            continue;
        }
        lens[nfiles] = fread(corpus[nfiles], 1, MAXLEN, f);
        fclose(f);
        LLVMFuzzerTestOneInput(corpus[nfiles], lens[nfiles]);
        nfiles++;
    }
    closedir(dir);
    if (!nfiles) {
        fprintf(stderr, "%s: corpus directory %s is empty\n", argv[0], argv[1]);
        return 2;
    }
    uint32_t seed = 0x2545F491u;
    uint8_t buf[MAXLEN * 2];
    for (long i = 0; i < mutations; i++) {
        /* Splice two corpus entries, then flip, insert or overwrite a few bytes. */
        size_t a = next_rand(&seed) % nfiles, b = next_rand(&seed) % nfiles;
        size_t la = lens[a] ? next_rand(&seed) % (lens[a] + 1) : 0;
        size_t len = la;
        memcpy(buf, corpus[a], la);
        memcpy(buf + len, corpus[b], lens[b]);
        len += lens[b];
        int edits = (int)(next_rand(&seed) % 6);
        for (int k = 0; k < edits && len; k++) {
            size_t at = next_rand(&seed) % len;
            uint32_t r = next_rand(&seed);
            switch (r % 4) {
            case 0:
                buf[at] ^= (uint8_t)(1u << (r >> 8) % 8);
                break;
            case 1:
                buf[at] = (uint8_t)(r >> 8);
                break;
            case 2:
                buf[at] = 0xA5; /* a stray SYNC */
                break;
            default:
                if (len < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = (uint8_t)(r >> 16);
                    len++;
                }
                break;
            }
        }
        LLVMFuzzerTestOneInput(buf, len);
    }
    printf("%zu corpus files and %ld mutations: no failure\n", nfiles, mutations);
    return 0;
}
