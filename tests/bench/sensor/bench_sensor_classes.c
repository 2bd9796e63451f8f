/* bench_sensor_classes - the recogniser on the hard cases of everyday handling, at least 1,000
 * generated scripts per class (the ctest cases run a few hundred of each):
 *
 *   bench_sensor_classes [DATA_DIR] [SCRIPTS]
 *
 * Classes: strays (7.4: a taken piece dropped into an empty hole), knocks (7.6), wobbles (D.2.2),
 * late promotion choices (4.6), copies in any order (D.2.9, REPLICATING), Chess960 games castling
 * in every order (Guideline II), played and copied. Each script must be recognised exactly;
 * per class it prints scripts, plies, events, the problems reported as expected, and the first
 * mismatches by kind (wrong move, missed displaced report, false touch-move report). Exit 1 if
 * any script is misrecognised. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "corpus.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const files[] = {"Carlsen.pgn", "Kasparov.pgn", "Korchnoi.pgn", "twic0920.pgn"};

/* Games of the corpus files (seeds 1, 2 ... as needed) until `scripts` were run. */
static void run_games(const char *dir, long scripts, const struct tb_sensor_gen_config *cfg,
                      struct corpus_opts opt, struct corpus_stats *st)
{
    for (uint64_t seed = 1; st->games < scripts && seed < 50; seed++) {
        for (size_t f = 0; f < sizeof files / sizeof files[0] && st->games < scripts; f++) {
            char path[1024];
            struct corpus_stats one = {0};
            snprintf(path, sizeof path, "%s/games/%s", dir, files[f]);
            opt.max_games = scripts - st->games;
            corpus_run_file(path, seed * 100 + f, cfg, &opt, &one);
            st->games += one.games;
            st->plies += one.plies;
            st->events += one.events;
            st->problems += one.problems;
            st->wrong_moves += one.wrong_moves;
            st->missed_displaced += one.missed_displaced;
            st->false_touch += one.false_touch;
            if (one.failures && !st->failures)
                snprintf(st->first_failure, sizeof st->first_failure, "%s", one.first_failure);
            st->failures += one.failures;
        }
    }
}

static int row(const char *name, const struct corpus_stats *st, double seconds)
{
    printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.1f |\n", name, st->games,
           st->plies, st->events, st->problems, st->failures, st->wrong_moves, st->missed_displaced,
           st->false_touch, seconds);
    if (st->failures)
        fprintf(stderr, "%s: first failure: %s\n", name, st->first_failure);
    return st->failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : TB_SHARED_DATA_DIR;
    long n = argc > 2 ? atol(argv[2]) : 1000;
    int bad = 0;
    if (n < 1)
        return 2;
    printf("| class | scripts | plies | events | problems as expected | misrecognised | wrong "
           "moves | missed displaced | false touch-move | seconds |\n"
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int c = 0; c < 7; c++) {
        static const char *const names[] = {"strays", "knocks",   "wobbles",      "late choices",
                                            "copies", "Chess960", "Chess960 copy"};
        struct tb_sensor_gen_config cfg;
        struct corpus_stats st = {0};
        struct corpus_opts opt = {0};
        tb_sensor_gen_config_default(&cfg);
        cfg.blips = true;
        cfg.strays = c == 0;
        cfg.fault = c == 1 ? TB_SENSOR_GEN_KNOCKED_PIECE : TB_SENSOR_GEN_NO_FAULT;
        cfg.fault_rate = c == 1 ? 0.2 : 0;
        cfg.wobbles = c == 2;
        cfg.late_choices = c == 3;
        opt.promo_only = c == 3;
        cfg.copy = opt.replicate = c == 4 || c == 6;
        double t0 = now_s();
        if (c >= 5) /* every start position in turn */
            corpus_run_960((uint64_t)c, (n + 959) / 960 * 960, &cfg, c == 6, &st);
        else
            run_games(dir, n, &cfg, opt, &st);
        bad |= row(names[c], &st, now_s() - t0);
    }
    return bad;
}
