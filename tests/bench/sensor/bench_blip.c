/* bench_blip - the blip window against physical noise: false moves per 10,000 moves for each
 * window from 50 to 300 ms (docs/benchmarks.md, "Blip window"):
 *
 *   bench_blip [DATA_DIR] [MOVES_PER_CLASS]
 *
 * Every move of the corpus games is a trial of its own (corpus_move_trials): its events are
 * generated once per class, the same whatever the window, and replayed through a fresh
 * recogniser whose blip and wobble windows are the window measured (the daemon sets both from
 * blip_window_ms). Classes: pieces carried low over the holes on their way (each closed for a
 * dwell of 5-80 ms; the firmware reports a square only after its 20 ms debounce), pegs
 * wobbling in their holes for 5-80 ms before the move, and everyday handling (captures in either
 * order, castling, e.p., promotions in every order, hesitations, fly-overs inside 70 ms).
 * Prints the table and the lowest window with no false move, missed move or false report in
 * any class. Exit 1 if the shipped default (tb_config_defaults) has any. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "corpus.h"
#include "tb_config.h"

static const unsigned windows[] = {50, 60, 70, 80, 90, 100, 120, 150, 200, 250, 300};
#define NWIN (sizeof windows / sizeof windows[0])
enum { CARRIED, WOBBLES, EVERYDAY, NCLASS };
static const char *const names[NCLASS] = {"carried over holes", "peg wobbles", "everyday handling"};
static const char *const files[] = {"Carlsen.pgn", "Kasparov.pgn", "Korchnoi.pgn", "twic0920.pgn"};

static void class_config(int c, struct tb_sensor_gen_config *cfg)
{
    tb_sensor_gen_config_default(cfg); /* the script's own timing is fixed: blip_ms 100 */
    cfg->carry = c == CARRIED;
    cfg->wobbles = c == WOBBLES;
    cfg->noise_ms = c == EVERYDAY ? 0 : 80;
    cfg->blips = c == EVERYDAY;
}

/* moves trials of class c at window w, over the corpus files in turn. */
static void measure(const char *dir, int c, unsigned w, long moves, struct trial_stats *st)
{
    struct tb_sensor_gen_config cfg;
    class_config(c, &cfg);
    for (size_t f = 0; f < sizeof files / sizeof files[0] && st->moves < moves; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/games/%s", dir, files[f]);
        if (corpus_move_trials(path, &cfg, w, moves, 1000 + (uint64_t)c * 10 + f, st) < 0)
            fprintf(stderr, "bench_blip: %s: %s\n", path, st->first);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : TB_SHARED_DATA_DIR;
    long moves = argc > 2 ? atol(argv[2]) : 10000;
    struct tb_config shipped;
    if (moves < 1)
        return 2;
    tb_config_defaults(&shipped, NULL, NULL);
    printf("false moves / missed moves / false reports per 10,000 moves (%ld moves per class, "
           "each window on the same scripts)\n\n| blip window ms |",
           moves);
    for (int c = 0; c < NCLASS; c++)
        printf(" %s |", names[c]);
    printf("\n| ---: |");
    for (int c = 0; c < NCLASS; c++)
        printf(" ---: |");
    printf("\n");
    int lowest = -1, bad_default = 0;
    for (size_t i = 0; i < NWIN; i++) {
        long wrong = 0;
        printf("| %u |", windows[i]);
        for (int c = 0; c < NCLASS; c++) {
            struct trial_stats st = {0};
            measure(dir, c, windows[i], moves, &st);
            double k = 10000.0 / (double)(st.moves ? st.moves : 1);
            printf(" %.1f / %.1f / %.1f |", (double)st.false_moves * k, (double)st.missed * k,
                   (double)st.false_reports * k);
            wrong += st.false_moves + st.missed + st.false_reports;
            if (st.first[0] && (int)windows[i] == shipped.blip_window_ms)
                fprintf(stderr, "%s at %u ms: first: %s\n", names[c], windows[i], st.first);
        }
        printf("\n");
        if (wrong == 0 && lowest < 0)
            lowest = (int)windows[i];
        if (wrong && (int)windows[i] == shipped.blip_window_ms)
            bad_default = 1;
    }
    printf(
        "\nlowest window with none in any class: %d ms; shipped default blip_window_ms = %d ms\n",
        lowest, shipped.blip_window_ms);
    return bad_default;
}
