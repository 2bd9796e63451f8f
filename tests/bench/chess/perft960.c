/* perft960.c - perft of every Chess960 start position (Guideline II, arrays 0..959) against
 * Stockfish's "go perft" with UCI_Chess960, move by move; then, from each array, a random game in
 * which both sides castle as soon as they can, checked at every position where castling is
 * legal (perft 3 divide), so every castling kind is compared too.
 *
 * Usage: perft960 DEPTH [STOCKFISH]           compare; exit status 1 on any difference
 *        perft960 --table DEPTH [STOCKFISH]   print the arrays as EPD with Stockfish's counts
 *                                             of depth 1..DEPTH (tests/integration/c960)
 * Exit status 2 when the engine is missing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game960.h"
#include "sf_pipe.h"
#include "tb_chess.h"

static int by_move(const void *a, const void *b)
{
    return strcmp(((const struct sf_divide *)a)->move, ((const struct sf_divide *)b)->move);
}

/* Divide of depth against the engine; returns the leaves, or 0 after printing a difference. */
static uint64_t compare(struct sf_pipe *sf, tb_chess_pos *pos, int depth, const char *what)
{
    static tb_chess_move moves[TB_CHESS_MAX_MOVES];
    static uint64_t counts[TB_CHESS_MAX_MOVES];
    static struct sf_divide ours[TB_CHESS_MAX_MOVES], theirs[TB_CHESS_MAX_MOVES];
    char fen[100];
    tb_chess_pos_to_fen(pos, fen, sizeof fen);
    int n = tb_chess_perft_divide(pos, depth, moves, counts, TB_CHESS_MAX_MOVES);
    uint64_t total = 0, sf_total = 0;
    for (int i = 0; i < n; i++) {
        tb_chess_move_to_uci(pos, moves[i], ours[i].move, sizeof ours[i].move);
        ours[i].nodes = counts[i];
        total += counts[i];
    }
    int sn = sf_perft(sf, fen, true, depth, theirs, TB_CHESS_MAX_MOVES, &sf_total);
    qsort(ours, (size_t)n, sizeof ours[0], by_move);
    if (sn >= 0)
        qsort(theirs, (size_t)sn, sizeof theirs[0], by_move);
    bool same = n == sn && total == sf_total;
    for (int i = 0; same && i < n; i++)
        same = strcmp(ours[i].move, theirs[i].move) == 0 && ours[i].nodes == theirs[i].nodes;
    if (!same)
        printf("DIFFERENT %s %s perft %d: ours %d moves %" PRIu64 ", engine %d moves %" PRIu64 "\n",
               what, fen, depth, n, total, sn, sf_total);
    return same ? total : 0;
}

static int table(struct sf_pipe *sf, int depth)
{
    for (int n = 0; n < 960; n++) {
        tb_chess_pos pos;
        char fen[100];
        tb_chess_pos_960(&pos, n);
        tb_chess_pos_to_fen(&pos, fen, sizeof fen);
        printf("%s", fen);
        for (int d = 1; d <= depth; d++) {
            struct sf_divide div[TB_CHESS_MAX_MOVES];
            uint64_t total = 0;
            if (sf_perft(sf, fen, true, d, div, TB_CHESS_MAX_MOVES, &total) < 0)
                return 1;
            if (tb_chess_perft(&pos, d) != total) {
                fprintf(stderr, "perft960: array %d depth %d differs from the engine\n", n, d);
                return 1;
            }
            printf(" ;D%d %" PRIu64, d, total);
        }
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    bool want_table = argc > 1 && strcmp(argv[1], "--table") == 0;
    int a = want_table ? 2 : 1;
    if (argc <= a) {
        fprintf(stderr, "usage: perft960 [--table] DEPTH [STOCKFISH]\n");
        return 2;
    }
    int depth = atoi(argv[a]);
    struct sf_pipe sf;
    if (depth < 1 || !sf_open(&sf, argc > a + 1 ? argv[a + 1] : SF_PATH)) {
        fprintf(stderr, "perft960: no engine to compare with (or bad depth)\n");
        return 2;
    }
    if (want_table) {
        int rc = table(&sf, depth);
        sf_close(&sf);
        return rc;
    }
    double t0 = sf_now();
    int bad = 0, castle_positions = 0, kinds = 0;
    uint64_t leaves = 0;
    for (int n = 0; n < 960; n++) {
        tb_chess_pos pos;
        char what[32];
        snprintf(what, sizeof what, "array %d", n);
        tb_chess_pos_960(&pos, n);
        uint64_t got = compare(&sf, &pos, depth, what);
        bad += got == 0;
        leaves += got;
        struct game960 g;
        game960_play(&g, n, 80, GAME960_PLAIN | GAME960_SPECIAL, 20261123);
        kinds |= g.kinds_played;
        pos = g.start;
        for (int i = 0; i < g.plies; i++) {
            tb_chess_movelist list;
            tb_chess_gen_legal(&pos, &list);
            bool castle = false;
            for (int k = 0; k < list.count; k++)
                castle |= tb_chess_move_is_castle(list.moves[k]);
            if (castle) {
                snprintf(what, sizeof what, "array %d ply %d", n, i + 1);
                bad += compare(&sf, &pos, 3, what) == 0;
                castle_positions++;
            }
            tb_chess_undo u;
            tb_chess_make(&pos, g.moves[i], &u);
        }
    }
    sf_close(&sf);
    printf("960 Chess960 arrays, perft %d: %" PRIu64 " leaves; %d positions with castling legal "
           "(perft 3, kinds %s): %d differ from the engine (%.1f s)\n",
           depth, leaves, castle_positions,
           kinds == (GAME960_PLAIN | GAME960_SPECIAL) ? "plain and special" : "SOME", bad,
           sf_now() - t0);
    return bad ? 1 : 0;
}
