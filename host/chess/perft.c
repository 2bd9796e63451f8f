/* perft.c - leaf counts of the legal move tree, for checking the generator against known
 * counts. Counts at depth 1 by generating only (bulk counting), as other engines do. */
#include "chess_internal.h"

static uint64_t perft_rec(tb_chess_pos *pos, int depth)
{
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    int n = tb_chess__gen(pos, moves);
    if (depth <= 1)
        return (uint64_t)n;
    uint64_t total = 0;
    tb_chess_undo undo;
    for (int i = 0; i < n; i++) {
        tb_chess_make(pos, moves[i], &undo);
        total += perft_rec(pos, depth - 1);
        tb_chess_unmake(pos, moves[i], &undo);
    }
    return total;
}

uint64_t tb_chess_perft(tb_chess_pos *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_rec(pos, depth);
}

int tb_chess_perft_divide(tb_chess_pos *pos, int depth, tb_chess_move *moves, uint64_t *counts,
                          int cap)
{
    tb_chess_move all[TB_CHESS_MAX_MOVES];
    if (depth < 1 || !moves || !counts || cap < 0)
        return TB_ERR_ARG;
    int n = tb_chess__gen(pos, all);
    if (n > cap)
        return TB_ERR_FULL;
    for (int i = 0; i < n; i++) {
        tb_chess_undo undo;
        moves[i] = all[i];
        tb_chess_make(pos, all[i], &undo);
        counts[i] = tb_chess_perft(pos, depth - 1);
        tb_chess_unmake(pos, all[i], &undo);
    }
    return n;
}
