/* state.c - the result of a single position: checkmate (5.1.1), stalemate (5.2.1), dead
 * position (5.2.2), and the position identity of 9.2.2. */
#include "chess_internal.h"

bool tb_chess_pos_is_dead(const tb_chess_pos *pos)
{
    const uint64_t *t = pos->by_type;
    if (t[TB_CHESS_PAWN] | t[TB_CHESS_ROOK] | t[TB_CHESS_QUEEN])
        return false;
    uint64_t minors = t[TB_CHESS_KNIGHT] | t[TB_CHESS_BISHOP];
    /* K v K, K+B v K, K+N v K: one minor piece cannot mate. */
    if (!tb_many(minors))
        return true;
    /* K+B(s) v K(+B(s)) with every bishop on squares of one colour: no mate can be built. */
    if (t[TB_CHESS_KNIGHT])
        return false;
    uint64_t b = t[TB_CHESS_BISHOP];
    return (b & TB_DARK_SQUARES) == 0 || (b & ~TB_DARK_SQUARES) == 0;
}

enum tb_chess_state tb_chess_pos_state(const tb_chess_pos *pos)
{
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    if (tb_chess__gen(pos, moves) == 0)
        return tb_chess_in_check(pos) ? TB_CHESS_CHECKMATE : TB_CHESS_STALEMATE;
    if (tb_chess_pos_is_dead(pos))
        return TB_CHESS_DEAD;
    return TB_CHESS_PLAYING;
}

uint64_t tb_chess_repetition_key(const tb_chess_pos *pos)
{
    uint64_t key = pos->key;
    /* 9.2.2: the e.p. square counts only when the capture is possible. */
    if (pos->ep != TB_CHESS_NOSQ && !tb_chess__ep_legal(pos))
        key ^= tb_chess__zobrist_ep[pos->ep];
    return key;
}
