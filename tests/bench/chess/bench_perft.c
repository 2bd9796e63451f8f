/* bench_perft.c - perft speed of the chess core against Stockfish's "go perft", same run, same
 * machine, single thread: start position depth 6 and Kiwipete depth 5.
 *
 * Usage: bench_perft [STOCKFISH [RUNS]]   (default /usr/games/stockfish, skipped when absent;
 * 3 runs). Each side's best time of RUNS alternating runs counts, so that a machine shared with
 * other work disturbs the ratio less. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sf_pipe.h"
#include "tb_chess.h"

struct bench_case {
    const char *name;
    const char *fen;
    int depth;
    uint64_t expected;
};

static const struct bench_case cases[] = {
    {"start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324},
    {"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
     193690690},
};

int main(int argc, char **argv)
{
    const char *sf_path = argc > 1 ? argv[1] : SF_PATH;
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    if (runs < 1)
        runs = 1;
    struct sf_pipe sf;
    bool have_sf = sf_open(&sf, sf_path);
    int failures = 0;
    if (!have_sf)
        printf("(no engine at %s: timing twinboard only)\n", sf_path);
    printf("best of %d runs each, single thread\n", runs);
    printf("%-16s %5s %12s %9s %10s %9s %10s %7s\n", "position", "depth", "nodes", "tb s",
           "tb Mnps", "sf s", "sf Mnps", "tb/sf");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct bench_case *c = &cases[i];
        tb_chess_pos pos;
        struct tb_error err;
        if (tb_chess_pos_from_fen(&pos, c->fen, 0, &err) != TB_OK) {
            printf("%s: %s\n", c->name, err.msg);
            return 1;
        }
        double tb_s = 1e30, sf_s = 1e30;
        uint64_t nodes = 0, sf_nodes = 0;
        for (int r = 0; r < runs; r++) {
            double t0 = sf_now();
            nodes = tb_chess_perft(&pos, c->depth);
            double t = sf_now() - t0;
            tb_s = t < tb_s ? t : tb_s;
            if (!have_sf)
                continue;
            struct sf_divide div[TB_CHESS_MAX_MOVES];
            /* Make sure the engine is idle before the clock starts. */
            char line[256];
            sf_send(&sf, "isready");
            sf_wait(&sf, "readyok", line, sizeof line);
            t0 = sf_now();
            int n = sf_perft(&sf, c->fen, false, c->depth, div, TB_CHESS_MAX_MOVES, &sf_nodes);
            t = sf_now() - t0;
            sf_s = t < sf_s ? t : sf_s;
            if (n < 0 || sf_nodes != nodes) {
                printf("%s: engine perft %" PRIu64 " differs from ours %" PRIu64 "\n", c->name,
                       sf_nodes, nodes);
                failures++;
            }
        }
        if (nodes != c->expected) {
            printf("%s: perft %d = %" PRIu64 ", expected %" PRIu64 "\n", c->name, c->depth, nodes,
                   c->expected);
            failures++;
        }
        double tb_mnps = (double)nodes / tb_s / 1e6;
        if (!have_sf) {
            printf("%-16s %5d %12" PRIu64 " %9.3f %10.1f\n", c->name, c->depth, nodes, tb_s,
                   tb_mnps);
            continue;
        }
        double sf_mnps = (double)sf_nodes / sf_s / 1e6;
        printf("%-16s %5d %12" PRIu64 " %9.3f %10.1f %9.3f %10.1f %7.2f\n", c->name, c->depth,
               nodes, tb_s, tb_mnps, sf_s, sf_mnps, tb_mnps / sf_mnps);
    }
    if (have_sf)
        sf_close(&sf);
    return failures ? 1 : 0;
}
