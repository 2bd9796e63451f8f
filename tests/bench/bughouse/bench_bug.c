/* bench_bug.c - generates N random matches (seeds FIRST..FIRST+N-1), writes each as BPGN,
 * reads it back and compares, and reports matches, plies and time per stage.
 *   bench_bug [N [FIRST]]   (default 10000 from seed 1) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_bug.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int same(const tb_bug_record *a, const tb_bug_record *b)
{
    if (a->nplies != b->nplies)
        return 0;
    for (int i = 0; i < a->nplies; i++)
        if (a->plies[i].board != b->plies[i].board || a->plies[i].move != b->plies[i].move ||
            a->plies[i].clock_ms != b->plies[i].clock_ms)
            return 0;
    for (int k = 0; k < 2; k++)
        if (a->verdict[k].result != b->verdict[k].result ||
            a->verdict[k].reason != b->verdict[k].reason)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000, first = argc > 2 ? atol(argv[2]) : 1;
    tb_bug_record *rec = malloc(sizeof *rec), *back = malloc(sizeof *back);
    size_t cap = 1 << 20;
    char *text = malloc(cap);
    if (!rec || !back || !text || n <= 0)
        return 2;
    double t_gen = 0, t_write = 0, t_read = 0;
    long plies = 0, bytes = 0, bad = 0;
    for (long s = first; s < first + n; s++) {
        struct tb_bug_gen_config cfg = {.seed = (uint64_t)s, .resign_permille = 2};
        double t0 = now();
        int k = tb_bug_gen_game(&cfg, rec);
        double t1 = now();
        int len = k < 0 ? -1 : tb_bug_bpgn_write(rec, text, cap);
        double t2 = now();
        struct tb_error err;
        int rc = len < 0 ? -1 : tb_bug_bpgn_read(back, text, (size_t)len, &err);
        double t3 = now();
        if (k < 0 || len < 0 || (size_t)len >= cap || rc || !same(rec, back)) {
            fprintf(stderr, "seed %ld: failed (generator %d, write %d, read %d)\n", s, k, len, rc);
            bad++;
            continue;
        }
        t_gen += t1 - t0, t_write += t2 - t1, t_read += t3 - t2;
        plies += rec->nplies, bytes += len;
    }
    printf("bughouse: %ld matches, %ld plies, %ld BPGN bytes; generate %.1f us/ply, write %.1f "
           "us/ply, read %.1f us/ply; %ld failures\n",
           n, plies, bytes, 1e6 * t_gen / (double)plies, 1e6 * t_write / (double)plies,
           1e6 * t_read / (double)plies, bad);
    free(rec);
    free(back);
    free(text);
    return bad ? 1 : 0;
}
