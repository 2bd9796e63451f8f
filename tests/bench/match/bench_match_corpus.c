/* bench_match_corpus - the match-level corpus (tests/unit/match/corpus.c) at benchmark size:
 * SCRIPTS seeded games per class (plain, own reply first, slip on the other board, slip on the
 * board ahead, slip before the copy, a stray on the copying board, a stray after a capture, a
 * piece moved by the player not to move), each checked as in ctest (the agreed game exact, no
 * report for lawful handling, one mismatch per slip, each put right by following its
 * instruction as said in words, every piece named truly, the other player's moves standing). Prints
 * the figures per class and the time.
 *
 *   bench_match_corpus [SCRIPTS] [PLIES] [FIRST_SEED]
 *
 * A failed check aborts with the class and seed of the script. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "corpus.h"

int main(int argc, char **argv)
{
    long scripts = argc > 1 ? atol(argv[1]) : 1000;
    int plies = argc > 2 ? atoi(argv[2]) : 40;
    unsigned long long first = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (scripts < 1 || plies < 1) {
        fprintf(stderr, "usage: bench_match_corpus [SCRIPTS] [PLIES] [FIRST_SEED]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int cls = 0; cls < CORPUS_CLASSES; cls++) {
        struct corpus_stats st = {0};
        for (long s = 0; s < scripts; s++)
            corpus_run((enum corpus_class)cls, first + (unsigned long long)s, plies, &st);
        printf("%-10s %6ld scripts %7ld plies %6ld own replies first %6ld slips %6ld mismatches "
               "%6ld put right %ld arbiter; %ld instructions followed as said, %ld pieces named "
               "(all true)\n",
               corpus_class_name((enum corpus_class)cls), st.scripts, st.plies, st.own_first,
               st.slips, st.mismatches, st.resolved, st.arbiter, st.put_right.instructions,
               st.put_right.named);
        if (st.mismatches != st.slips || st.resolved != st.mismatches || st.arbiter) {
            printf("FAIL: %s\n", corpus_class_name((enum corpus_class)cls));
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%ld scripts per class, %d plies at most: all exact, %.1f s\n", scripts, plies,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
