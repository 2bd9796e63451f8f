/* bench_match - every game of data/games played on two boards through one match: each move
 * made on its player's board (the generator's lawful handling orders, hesitations and blips),
 * then copied on the other board. Checks that the agreed game equals the PGN with no mismatch,
 * and times the match (events in, outputs drained), scripts generated beforehand.
 *
 *   bench_match [DATA_DIR] [SEED]
 *
 * Exit 1 if any game ends differently from its PGN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_match.h"
#include "tb_file.h"

struct bev {
    int board;
    struct tb_script_event ev;
};

struct script {
    struct bev *ev;
    int n, cap;
    int board; /* the board being generated */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int push(void *user, const struct tb_script_event *ev)
{
    struct script *sc = user;
    if (ev->kind == TB_SCRIPT_EXPECT)
        return 0;
    if (sc->n == sc->cap) {
        int cap = sc->cap ? sc->cap * 2 : 4096;
        struct bev *bigger = realloc(sc->ev, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return TB_ERR_MEM;
        sc->ev = bigger;
        sc->cap = cap;
    }
    sc->ev[sc->n].board = sc->board;
    sc->ev[sc->n++].ev = *ev;
    return 0;
}

/* Both boards' events for a game: board 0 has White. */
static int generate(struct script *sc, const tb_chess_game *g, uint64_t seed)
{
    struct tb_sensor_gen gen[2];
    struct tb_sensor_gen_config cfg;
    tb_chess_pos pos = g->start;
    tb_chess_undo undo;
    uint64_t t = 1000;
    sc->n = 0;
    for (int b = 0; b < 2; b++) {
        tb_sensor_gen_config_default(&cfg);
        cfg.board = b ? "sighted" : "vi";
        cfg.blips = true;
        cfg.hesitations = true;
        if (tb_sensor_gen_init(&gen[b], &cfg, seed * 2 + (uint64_t)b) < 0)
            return -1;
    }
    for (int ply = 0; ply < g->plies; ply++) {
        int mover = pos.side == TB_CHESS_WHITE ? 0 : 1;
        for (int k = 0; k < 2; k++) {
            int b = k ? 1 - mover : mover;
            sc->board = b;
            gen[b].t = t;
            if (tb_sensor_gen_moves(&gen[b], &pos, &g->moves[ply], 1, push, sc, NULL) < 0)
                return -1;
            t = gen[b].t + 400; /* the copy starts once the move is announced */
        }
        tb_chess_make(&pos, g->moves[ply], &undo);
    }
    return 0;
}

struct totals {
    long games, events, plies, outputs, failures;
    double seconds, worst_s;
    long slow; /* events over 50 us */
    char first_failure[256];
};

static void fail(struct totals *t, const char *file, long number, const char *why)
{
    if (t->failures++ == 0)
        snprintf(t->first_failure, sizeof t->first_failure, "%s game %ld: %s", file, number, why);
}

static void replay(tb_match *m, const struct script *sc, const tb_chess_game *g, uint64_t *clock,
                   struct totals *t, const char *file, long number)
{
    struct tb_match_out o;
    struct tb_match_event snap = {.kind = TB_MATCH_EV_SNAPSHOT};
    uint64_t base = *clock;
    long mismatches = 0;
    double t0 = now_s();

    /* the boards are set up for the game: a new game, both boards read as a whole */
    tb_match_new_game(m, &g->start, base);
    snap.occupancy = tb_chess_occupancy(&g->start);
    for (int b = 0; b < 2; b++)
        tb_match_board_event(m, b, &snap, base);
    while (tb_match_poll(m, &o))
        t->outputs++;
    for (int i = 0; i < sc->n; i++) {
        struct tb_script_event ev = sc->ev[i].ev;
        ev.ms += base;
        double e0 = now_s();
        tb_match_feed_script(m, sc->ev[i].board, &ev);
        while (tb_match_poll(m, &o)) {
            t->outputs++;
            mismatches += o.kind == TB_MATCH_OUT_MISMATCH;
        }
        double d = now_s() - e0;
        if (d > t->worst_s)
            t->worst_s = d;
        t->slow += d > 50e-6;
    }
    uint64_t end = (sc->n ? sc->ev[sc->n - 1].ev.ms + base : base) + 1000;
    tb_match_tick(m, end);
    while (tb_match_poll(m, &o)) {
        t->outputs++;
        mismatches += o.kind == TB_MATCH_OUT_MISMATCH;
    }
    t->seconds += now_s() - t0;
    t->events += sc->n;
    t->plies += g->plies;
    t->games++;
    *clock = end + 1000;

    const tb_chess_game *mg = tb_match_game(m);
    if (mismatches)
        fail(t, file, number, "mismatch reported");
    else if (mg->plies != g->plies ||
             memcmp(mg->moves, g->moves, (size_t)g->plies * sizeof g->moves[0]) != 0)
        fail(t, file, number, "agreed game differs from the PGN");
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : TB_SHARED_DATA_DIR;
    uint64_t seed = argc > 2 ? (uint64_t)atoll(argv[2]) : 1;
    static const char *files[] = {"Carlsen.pgn", "Kasparov.pgn", "Korchnoi.pgn", "twic0920.pgn"};
    struct totals t = {0};
    struct script sc = {0};
    struct tb_error err;
    tb_match *m;
    uint64_t clock = 0;
    tb_chess_pgn_game *g = malloc(sizeof *g);

    if (!g || tb_match_new(NULL, NULL, 0, &m, &err) < 0)
        return 2;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        size_t len;
        snprintf(path, sizeof path, "%s/games/%s", dir, files[f]);
        char *text;
        struct tb_error rerr;
        if (tb_read_file(path, &text, &len, &rerr) != TB_OK) {
            fprintf(stderr, "bench_match: %s\n", rerr.msg);
            return 2;
        }
        tb_chess_pgn_reader rd;
        tb_chess_pgn_reader_init(&rd, text, len);
        while (tb_chess_pgn_read(&rd, g, &err) == 1) {
            if (generate(&sc, &g->game, seed * 1000003u + (uint64_t)g->number) < 0) {
                fail(&t, files[f], g->number, "cannot generate events");
                continue;
            }
            replay(m, &sc, &g->game, &clock, &t, files[f], g->number);
        }
        free(text);
    }
    printf("games %ld (seed %llu), board events %ld, plies %ld, outputs %ld, games not agreed "
           "%ld%s%s\n",
           t.games, (unsigned long long)seed, t.events, t.plies, t.outputs, t.failures,
           t.failures ? ": " : "", t.first_failure);
    printf("match (two recognisers + sync): %.3f s, %.0f events/s (one core), mean %.0f ns per "
           "event; worst event %.1f us, %ld over 50 us\n",
           t.seconds, (double)t.events / t.seconds, t.seconds / (double)t.events * 1e9,
           t.worst_s * 1e6, t.slow);
    printf("dropped outputs %lu\n", tb_match_dropped(m));
    tb_match_free(m);
    free(sc.ev);
    free(g);
    return t.failures ? 1 : 0;
}
