/* bench_sensor_classes - the recogniser on the hard cases of everyday handling, at least 1,000
 * generated scripts per class (the ctest cases run a few hundred of each):
 *
 *   bench_sensor_classes [DATA_DIR] [SCRIPTS]
 *
 * Classes: strays (7.4: a taken piece dropped into an empty hole), knocks (7.6), wobbles (D.2.2),
 * late promotion choices (4.6), copies in any order (D.2.9, REPLICATING), Chess960 games castling
 * in every order (Guideline II), played and copied; the new piece put down first in every
 * promotion (4.6, the choice before or after), played and copied; strays dropped at once after
 * the capture or before it lands, played and copied; pieces carried over holes (5-80 ms dwell at
 * the firmware's 20 ms debounce). Each script must be recognised exactly;
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

enum {
    STRAYS,
    KNOCKS,
    WOBBLES,
    LATE_CHOICES,
    COPIES,
    C960,
    C960_COPY,
    NEW_PIECE_FIRST,
    NEW_PIECE_FIRST_COPY,
    QUICK_STRAYS,
    COPY_STRAYS,
    CARRIED,
    NCLASSES
};

static const char *const class_names[NCLASSES] = {
    "strays",         "knocks",           "wobbles",
    "late choices",   "copies",           "Chess960",
    "Chess960 copy",  "new piece first",  "new piece first copy",
    "strays at once", "strays on copies", "carried over holes"};

/* The generator's noise and the replay of class c. */
static void class_config(int c, struct tb_sensor_gen_config *cfg, struct corpus_opts *opt)
{
    cfg->strays = c == STRAYS || c == QUICK_STRAYS || c == COPY_STRAYS;
    cfg->quick_strays = c == QUICK_STRAYS || c == COPY_STRAYS;
    cfg->fault = c == KNOCKS ? TB_SENSOR_GEN_KNOCKED_PIECE : TB_SENSOR_GEN_NO_FAULT;
    cfg->fault_rate = c == KNOCKS ? 0.2 : 0;
    cfg->wobbles = c == WOBBLES;
    cfg->late_choices = c == LATE_CHOICES;
    cfg->new_piece_first = c == NEW_PIECE_FIRST || c == NEW_PIECE_FIRST_COPY;
    opt->promo_only = c == LATE_CHOICES || cfg->new_piece_first;
    cfg->copy = opt->replicate =
        c == COPIES || c == C960_COPY || c == NEW_PIECE_FIRST_COPY || c == COPY_STRAYS;
    /* a magnet passing over holes for 5-80 ms: the physical dwell, not the window's */
    cfg->carry = c == CARRIED;
    cfg->noise_ms = c == CARRIED ? 80 : 0;
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
    for (int c = 0; c < NCLASSES; c++) {
        struct tb_sensor_gen_config cfg;
        struct corpus_stats st = {0};
        struct corpus_opts opt = {0};
        tb_sensor_gen_config_default(&cfg);
        cfg.blips = true;
        class_config(c, &cfg, &opt);
        double t0 = now_s();
        if (c == C960 || c == C960_COPY) /* every start position in turn */
            corpus_run_960((uint64_t)c, (n + 959) / 960 * 960, &cfg, c == C960_COPY, &st);
        else
            run_games(dir, n, &cfg, opt, &st);
        bad |= row(class_names[c], &st, now_s() - t0);
    }
    return bad;
}
