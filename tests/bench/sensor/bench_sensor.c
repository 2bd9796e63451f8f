/* bench_sensor - the recogniser over the whole corpus: every game of data/games as event
 * scripts (seeds 1-3, blips and hesitations on), checked move for move, then timed.
 *
 *   bench_sensor [DATA_DIR] [SEEDS]
 *
 * Prints events per second (recogniser only: feed + poll, scripts generated beforehand), the
 * wall-clock time per event (mean and worst), and the decision latency in simulated time
 * (decision time - deciding event time) over all moves. Exit 1 if any game is misrecognised. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus.h"
#include "tb_file.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct totals {
    long games, events, moves, failures;
    double seconds, worst_event_s;
    long slow_events; /* over 50 us, timed one by one */
    uint64_t latency_sum, latency_max;
    long latency_hist[4]; /* < blip, = blip, blip + 1, more */
};

/* Times one script: feed every event, drain the outputs. */
static void timed_replay(tb_sensor *s, const struct tb_script_list *sc, const tb_chess_pos *start,
                         struct totals *t, bool per_event)
{
    struct tb_sensor_out o;
    tb_sensor_reset(s, start, 0);
    double t0 = now_s();
    for (size_t i = 0; i < sc->n; i++) {
        if (sc->ev[i].kind == TB_SCRIPT_EXPECT)
            continue;
        double e0 = per_event ? now_s() : 0;
        tb_sensor_feed(s, &sc->ev[i]);
        while (tb_sensor_poll(s, &o)) {
            if (o.kind != TB_SENSOR_OUT_MOVE)
                continue;
            uint64_t lat = o.ms - o.event_ms;
            t->moves++;
            t->latency_sum += lat;
            if (lat > t->latency_max)
                t->latency_max = lat;
            t->latency_hist[lat < 100 ? 0 : lat == 100 ? 1 : lat == 101 ? 2 : 3]++;
        }
        if (per_event) {
            double d = now_s() - e0;
            if (d > t->worst_event_s)
                t->worst_event_s = d;
            t->slow_events += d > 50e-6;
        }
        t->events++;
    }
    tb_sensor_flush(s);
    while (tb_sensor_poll(s, &o)) {
        if (o.kind == TB_SENSOR_OUT_MOVE) {
            t->moves++;
            t->latency_sum += o.ms - o.event_ms;
        }
    }
    t->seconds += now_s() - t0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : TB_SHARED_DATA_DIR;
    int seeds = argc > 2 ? atoi(argv[2]) : 3;
    static const char *files[] = {"Carlsen.pgn", "Kasparov.pgn", "Korchnoi.pgn", "twic0920.pgn"};
    struct tb_sensor_gen_config cfg;
    struct totals t = {0}, te = {0};
    struct corpus_stats st = {0};
    struct tb_script_list sc = {0};
    tb_sensor *s;
    tb_chess_pgn_game *g = malloc(sizeof *g);

    tb_sensor_gen_config_default(&cfg);
    cfg.blips = true;
    if (!g || tb_sensor_new(NULL, &s) < 0)
        return 2;
    for (int seed = 1; seed <= seeds; seed++) {
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            char path[1024];
            size_t len;
            snprintf(path, sizeof path, "%s/games/%s", dir, files[f]);
            char *text;
            struct tb_error rerr;
            if (tb_read_file(path, &text, &len, &rerr) != TB_OK) {
                fprintf(stderr, "bench_sensor: %s\n", rerr.msg);
                return 2;
            }
            tb_chess_pgn_reader rd;
            struct tb_error err;
            long n = 0;
            tb_chess_pgn_reader_init(&rd, text, len);
            while (tb_chess_pgn_read(&rd, g, &err) == 1) {
                n++;
                uint64_t game_seed = (uint64_t)seed * 1000003u + (uint64_t)n;
                if (corpus_generate(&sc, &cfg, game_seed, &g->game.start, g->game.moves,
                                    g->game.plies) < 0)
                    return 2;
                corpus_replay(s, &sc, &g->game.start, files[f], false, &st); /* correctness */
                timed_replay(s, &sc, &g->game.start, &t, false);
                if (seed == 1)
                    timed_replay(s, &sc, &g->game.start, &te, true);
                t.games++;
            }
            free(text);
        }
    }
    printf("games %ld (seeds 1-%d), events %ld, moves %ld, misrecognised games %ld%s%s\n", t.games,
           seeds, t.events, t.moves, st.failures, st.failures ? ": " : "", st.first_failure);
    printf("recogniser: %.3f s, %.0f events/s (one core)\n", t.seconds,
           (double)t.events / t.seconds);
    printf("wall time per event: mean %.0f ns; timed one by one (seed 1): worst %.1f us, %ld of "
           "%ld over 50 us\n",
           t.seconds / (double)t.events * 1e9, te.worst_event_s * 1e6, te.slow_events, te.events);
    printf("decision latency (simulated ms, decision - deciding event): mean %.1f, max %llu; "
           "<100: %ld, =100: %ld, =101: %ld, more: %ld\n",
           (double)t.latency_sum / (double)(t.moves ? t.moves : 1),
           (unsigned long long)t.latency_max, t.latency_hist[0], t.latency_hist[1],
           t.latency_hist[2], t.latency_hist[3]);
    tb_script_list_free(&sc);
    tb_sensor_free(s);
    free(g);
    return st.failures ? 1 : 0;
}
