/* bench_bugmatch.c - N random matches (seeds FIRST..FIRST+N-1) generated with room to handle
 * pieces, turned into the event scripts of two reed boards (lifts, placements in every
 * handling order, drops with their choice before or after, blips, wobbles, knocked pieces),
 * recognised by the match of two boards, and compared with the generated match as BPGN.
 *   bench_bugmatch [N [FIRST [A,B]]]   (default 1000 from seed 1, reed,reed; A and B each
 *                                       reed or dgt: a DGT board names every piece put down) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_bugmatch.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, first = argc > 2 ? atol(argv[2]) : 1;
    tb_bug_record *rec = malloc(sizeof *rec);
    size_t cap = 1 << 20;
    char *want = malloc(cap), *got = malloc(cap);
    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    const char *kinds = argc > 3 ? argv[3] : "reed,reed";
    for (int b = 0; b < 2; b++) {
        const char *k = b ? strchr(kinds, ',') : kinds;
        k = k && b ? k + 1 : k;
        if (!k || (strncmp(k, "reed", 4) != 0 && strncmp(k, "dgt", 3) != 0)) {
            fprintf(stderr, "bench_bugmatch: boards %s: give reed or dgt for each, A,B\n", kinds);
            return 2;
        }
        cfg.kind[b] = k[0] == 'd' ? TB_BUGMATCH_DGT : TB_BUGMATCH_REED;
    }
    if (!rec || !want || !got || n <= 0)
        return 2;
    double t_replay = 0;
    long plies = 0, drops = 0, events = 0, bad = 0, results = 0;
    for (long s = first; s < first + n; s++) {
        struct tb_bug_gen_config gc = {
            .seed = (uint64_t)s, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
        struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true};
        struct tb_error err;
        tb_bugmatch *m;
        long k = 0;
        if (tb_bug_gen_game(&gc, rec) < 0)
            return 2;
        double t0 = now();
        int rc = tb_bugmatch_replay(rec, &cfg, &sc, (uint64_t)s, &m, &k, &err);
        t_replay += now() - t0;
        if (rc) {
            fprintf(stderr, "seed %ld: %s\n", s, err.msg);
            bad++;
            continue;
        }
        int a = tb_bug_bpgn_write(rec, want, cap),
            b = tb_bug_bpgn_write(tb_bugmatch_record(m), got, cap);
        if (a < 0 || b < 0 || strcmp(want, got) != 0) {
            fprintf(stderr, "seed %ld: the recognised match differs from the generated one\n", s);
            bad++;
        }
        for (int i = 0; i < rec->nplies; i++)
            drops += tb_bug_move_is_drop(rec->plies[i].move);
        plies += rec->nplies;
        events += k;
        results +=
            (rec->verdict[0].result != TB_BUG_ONGOING) + (rec->verdict[1].result != TB_BUG_ONGOING);
        tb_bugmatch_free(m);
    }
    printf("bugmatch (%s): %ld matches, %ld plies (%ld drops), %ld board events, %ld results: "
           "%ld the same as generated, %ld differ\n",
           kinds, n, plies, drops, events, results, n - bad, bad);
    printf("bugmatch: %.2f s recognising, %.1f us per event, %.0f events/s\n", t_replay,
           events ? t_replay * 1e6 / (double)events : 0.0,
           t_replay > 0 ? (double)events / t_replay : 0.0);
    free(rec);
    free(want);
    free(got);
    return bad ? 1 : 0;
}
