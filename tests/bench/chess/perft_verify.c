/* perft_verify.c - every depth of an EPD perft suite, including the deep ones ctest skips.
 *
 * Usage: perft_verify [--max=NODES] FILE.epd...
 * Runs each listed depth whose expected count is at most NODES (default: all), prints one line
 * per mismatch (and per check that took over 5 s) and a summary per file; exit status 1 on any
 * mismatch or unreadable line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_pipe.h"
#include "tb_chess.h"

static int verify_file(const char *path, unsigned long long max_nodes)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    char line[1024];
    int ln = 0, pairs = 0, bad = 0, skipped = 0;
    uint64_t nodes = 0;
    double t0 = sf_now();
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *semi = strchr(line, ';');
        if (!semi) {
            printf("line %d: no ';D' fields\n", ln);
            bad++;
            continue;
        }
        *semi = 0;
        tb_chess_pos pos;
        struct tb_error err;
        if (tb_chess_pos_from_fen(&pos, line, 0, &err) != TB_OK) {
            printf("line %d: %s\n", ln, err.msg);
            bad++;
            continue;
        }
        int depth;
        unsigned long long expected;
        for (char *p = semi + 1; p; p = strchr(p, ';')) {
            if (*p == ';')
                p++;
            if (sscanf(p, "D%d %llu", &depth, &expected) != 2) {
                printf("line %d: bad field '%s'\n", ln, p);
                bad++;
                break;
            }
            if (expected > max_nodes) {
                skipped++;
                continue;
            }
            double t = sf_now();
            uint64_t got = tb_chess_perft(&pos, depth);
            nodes += got;
            pairs++;
            if (got != expected) {
                printf("line %d: perft %d = %" PRIu64 ", expected %llu: %s\n", ln, depth, got,
                       expected, line);
                bad++;
            } else if (sf_now() - t > 5.0) {
                printf("line %d: perft %d = %" PRIu64 " ok (%.1f s)\n", ln, depth, got,
                       sf_now() - t);
                fflush(stdout);
            }
        }
    }
    fclose(f);
    double secs = sf_now() - t0;
    printf("%s: %d lines, %d position/depth pairs checked, %d skipped, %d mismatches; "
           "%" PRIu64 " leaves in %.1f s (%.0f M/s)\n",
           path, ln, pairs, skipped, bad, nodes, secs, (double)nodes / secs / 1e6);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    unsigned long long max_nodes = UINT64_MAX;
    int files = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--max=", 6) == 0) {
            max_nodes = strtoull(argv[i] + 6, NULL, 10);
            continue;
        }
        failed |= verify_file(argv[i], max_nodes);
        files++;
    }
    if (!files) {
        fprintf(stderr, "usage: perft_verify [--max=NODES] FILE.epd...\n");
        return 2;
    }
    return failed;
}
