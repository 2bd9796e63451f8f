/* perft_random.c - perft on random positions against Stockfish's "go perft", move by move.
 *
 * Usage: perft_random COUNT DEPTH SEED [STOCKFISH]
 * Each position comes from a random number of random legal moves (0..119 plies, a seeded PRNG)
 * from the standard start or, one time in four, from a random Chess960 start. For each one the
 * per-move counts of depth DEPTH (divide) and the total must equal Stockfish's. Exit status 1 on
 * any difference, 2 when the engine is missing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_pipe.h"
#include "tb_chess.h"

static uint64_t rng = 0;

static uint64_t next_random(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* UCI text of a move as Stockfish prints it: castling as king to its square in standard chess,
 * king takes rook in Chess960. */
static void uci(const tb_chess_pos *pos, tb_chess_move m, char out[16])
{
    char a[3], b[3];
    int to = tb_chess_move_to(m);
    if (tb_chess_move_is_castle(m) && !pos->chess960)
        to = tb_chess_move_king_to(m);
    tb_chess_square_name(tb_chess_move_from(m), a);
    tb_chess_square_name(to, b);
    int promo = tb_chess_move_promo(m);
    snprintf(out, 16, "%s%s%s", a, b,
             promo ? (const char *[]){"", "", "n", "b", "r", "q"}[promo] : "");
}

/* A random position with at least one legal move; false if the walk ended in mate/stalemate. */
static bool random_position(tb_chess_pos *pos)
{
    if (next_random() % 4 == 0)
        tb_chess_pos_960(pos, (int)(next_random() % 960));
    else
        tb_chess_pos_startpos(pos);
    int plies = (int)(next_random() % 120);
    tb_chess_movelist list;
    for (int i = 0; i < plies; i++) {
        if (tb_chess_gen_legal(pos, &list) == 0)
            return false;
        tb_chess_undo undo;
        tb_chess_make(pos, list.moves[next_random() % (uint64_t)list.count], &undo);
    }
    return tb_chess_gen_legal(pos, &list) > 0;
}

static int compare_div(const void *a, const void *b)
{
    return strcmp(((const struct sf_divide *)a)->move, ((const struct sf_divide *)b)->move);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: perft_random COUNT DEPTH SEED [STOCKFISH]\n");
        return 2;
    }
    int count = atoi(argv[1]), depth = atoi(argv[2]);
    rng = strtoull(argv[3], NULL, 10);
    struct sf_pipe sf;
    if (!sf_open(&sf, argc > 4 ? argv[4] : SF_PATH)) {
        fprintf(stderr, "perft_random: no engine to compare with\n");
        return 2;
    }
    int done = 0, bad = 0, c960 = 0, with_ep = 0, with_castle = 0, in_check = 0;
    uint64_t nodes = 0;
    while (done < count) {
        tb_chess_pos pos;
        if (!random_position(&pos))
            continue;
        char fen[100];
        tb_chess_pos_to_fen(&pos, fen, sizeof fen);
        static tb_chess_move moves[TB_CHESS_MAX_MOVES];
        static uint64_t counts[TB_CHESS_MAX_MOVES];
        static struct sf_divide ours[TB_CHESS_MAX_MOVES], theirs[TB_CHESS_MAX_MOVES];
        int n = tb_chess_perft_divide(&pos, depth, moves, counts, TB_CHESS_MAX_MOVES);
        uint64_t total = 0, sf_total = 0;
        for (int i = 0; i < n; i++) {
            uci(&pos, moves[i], ours[i].move);
            ours[i].nodes = counts[i];
            total += counts[i];
            with_castle += tb_chess_move_is_castle(moves[i]);
            with_ep += tb_chess_move_kind(moves[i]) == TB_CHESS_MK_EP;
        }
        int sn = sf_perft(&sf, fen, pos.chess960, depth, theirs, TB_CHESS_MAX_MOVES, &sf_total);
        if (sn < 0) {
            printf("engine stopped at %s\n", fen);
            return 1;
        }
        qsort(ours, (size_t)n, sizeof ours[0], compare_div);
        qsort(theirs, (size_t)sn, sizeof theirs[0], compare_div);
        bool same = n == sn && total == sf_total;
        for (int i = 0; same && i < n; i++)
            same = strcmp(ours[i].move, theirs[i].move) == 0 && ours[i].nodes == theirs[i].nodes;
        if (!same) {
            bad++;
            printf("DIFFERENT %s%s: ours %d moves %" PRIu64 ", engine %d moves %" PRIu64 "\n", fen,
                   pos.chess960 ? " (960)" : "", n, total, sn, sf_total);
        }
        c960 += pos.chess960;
        in_check += tb_chess_in_check(&pos);
        nodes += total;
        done++;
    }
    sf_close(&sf);
    printf("%d random positions (%d Chess960, %d in check; %d root castlings, %d root e.p. "
           "captures), perft %d, %" PRIu64 " leaves: %d differ from the engine\n",
           done, c960, in_check, with_castle, with_ep, depth, nodes, bad);
    return bad ? 1 : 0;
}
