/* position.c - squares, the start position, attack queries and the invariant check. */
#include "chess_internal.h"

int tb_chess_square_parse(const char *s)
{
    if (!s || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return TB_CHESS_SQ(s[0] - 'a', s[1] - '1');
}

char *tb_chess_square_name(int sq, char buf[3])
{
    if (sq < 0 || sq > 63) {
        buf[0] = '-';
        buf[1] = 0;
        return buf;
    }
    buf[0] = (char)('a' + TB_CHESS_FILE(sq));
    buf[1] = (char)('1' + TB_CHESS_RANK(sq));
    buf[2] = 0;
    return buf;
}

int tb_chess_move_king_to(tb_chess_move m)
{
    int from = tb_chess_move_from(m), to = tb_chess_move_to(m);
    if (!tb_chess_move_is_castle(m))
        return to;
    /* Guideline II / 3.8: the king ends on g (king side) or c (queen side) of its rank. */
    return TB_CHESS_SQ(to > from ? 6 : 2, TB_CHESS_RANK(from));
}

void tb_chess__pos_clear(tb_chess_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    pos->ep = TB_CHESS_NOSQ;
    for (int i = 0; i < 4; i++)
        pos->castle_rook[i] = TB_CHESS_NOSQ;
    pos->king_sq[0] = pos->king_sq[1] = TB_CHESS_NOSQ;
    pos->fullmove = 1;
}

uint64_t tb_chess__compute_key(const tb_chess_pos *pos)
{
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->board[sq])
            key ^= tb_chess__zobrist_psq[pos->board[sq] & 15][sq];
    if (pos->side == TB_CHESS_BLACK)
        key ^= tb_chess__zobrist_side;
    for (int i = 0; i < 4; i++)
        if (pos->castle_rook[i] < 64)
            key ^= tb_chess__zobrist_castle[i][pos->castle_rook[i]];
    if (pos->ep < 64)
        key ^= tb_chess__zobrist_ep[pos->ep];
    return key;
}

bool tb_chess_attacked(const tb_chess_pos *pos, int sq, int by)
{
    return tb_attackers(pos, sq, by, tb_chess_occupancy(pos)) != 0;
}

bool tb_chess_in_check(const tb_chess_pos *pos)
{
    int us = pos->side;
    return tb_attackers(pos, pos->king_sq[us], us ^ 1, tb_chess_occupancy(pos)) != 0;
}

static bool castle_right_ok(const tb_chess_pos *pos, int i)
{
    int color = i >> 1, rsq = pos->castle_rook[i], ksq = pos->king_sq[color];
    int back = color == TB_CHESS_WHITE ? 0 : 7;
    if (rsq > 63 || TB_CHESS_RANK(rsq) != back || TB_CHESS_RANK(ksq) != back)
        return false;
    if (pos->board[rsq] != TB_CHESS_PIECE(color, TB_CHESS_ROOK))
        return false;
    bool king_side = (i & 1) == 0;
    if (king_side != (TB_CHESS_FILE(rsq) > TB_CHESS_FILE(ksq)))
        return false;
    if (!pos->chess960 && (TB_CHESS_FILE(ksq) != 4 || TB_CHESS_FILE(rsq) != (king_side ? 7 : 0)))
        return false;
    return true;
}

int tb_chess_pos_check(const tb_chess_pos *pos)
{
    uint64_t by_color[2] = {0, 0}, by_type[7] = {0};
    int kings[2] = {0, 0};
    if (pos->side > 1)
        return TB_ERR_STATE;
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->board[sq];
        if (!p)
            continue;
        int t = TB_CHESS_PIECE_TYPE(p), c = TB_CHESS_PIECE_COLOR(p);
        if (p > 15 || t == 0 || t > TB_CHESS_KING)
            return TB_ERR_STATE;
        by_color[c] |= TB_CHESS_BIT(sq);
        by_type[t] |= TB_CHESS_BIT(sq);
        if (t == TB_CHESS_KING) {
            kings[c]++;
            if (pos->king_sq[c] != sq)
                return TB_ERR_STATE;
        }
        if (t == TB_CHESS_PAWN && (TB_CHESS_BIT(sq) & (TB_RANK1 | TB_RANK8)))
            return TB_ERR_STATE;
    }
    if (kings[0] != 1 || kings[1] != 1)
        return TB_ERR_STATE;
    if (by_color[0] != pos->by_color[0] || by_color[1] != pos->by_color[1])
        return TB_ERR_STATE;
    for (int t = 0; t < 7; t++)
        if (by_type[t] != pos->by_type[t])
            return TB_ERR_STATE;
    if (pos->ep != TB_CHESS_NOSQ) {
        /* 3.7.4: the target is the square passed over by the opponent's double push. */
        int ep = pos->ep, them = pos->side ^ 1;
        int fwd = them == TB_CHESS_WHITE ? 8 : -8;
        if (ep > 63 || TB_CHESS_RANK(ep) != (them == TB_CHESS_WHITE ? 2 : 5))
            return TB_ERR_STATE;
        if (pos->board[ep] || pos->board[ep - fwd] ||
            pos->board[ep + fwd] != TB_CHESS_PIECE(them, TB_CHESS_PAWN))
            return TB_ERR_STATE;
    }
    for (int i = 0; i < 4; i++)
        if (pos->castle_rook[i] != TB_CHESS_NOSQ && !castle_right_ok(pos, i))
            return TB_ERR_STATE;
    if (pos->fullmove < 1)
        return TB_ERR_STATE;
    if (pos->key != tb_chess__compute_key(pos))
        return TB_ERR_STATE;
    /* 3.9 / 3.10: the side that just moved may not be in check. */
    int them = pos->side ^ 1;
    if (tb_attackers(pos, pos->king_sq[them], pos->side, tb_chess_occupancy(pos)))
        return TB_ERR_STATE;
    return TB_OK;
}

void tb_chess_move_squares(const tb_chess_pos *pos, tb_chess_move m,
                           struct tb_chess_move_squares *out)
{
    int from = tb_chess_move_from(m), to = tb_chess_move_to(m), kind = tb_chess_move_kind(m);
    out->piece = pos->board[from];
    out->from = (uint8_t)from;
    out->to = (uint8_t)to;
    out->capture_sq = TB_CHESS_NOSQ;
    out->captured = 0;
    out->rook_from = out->rook_to = TB_CHESS_NOSQ;
    out->promo = (uint8_t)tb_chess_move_promo(m);
    if (kind == TB_CHESS_MK_CASTLE) {
        int kto = tb_chess_move_king_to(m);
        out->to = (uint8_t)kto;
        out->rook_from = (uint8_t)to;
        out->rook_to = (uint8_t)tb_chess_castle_rook_to(kto);
    } else if (kind == TB_CHESS_MK_EP) {
        int capsq = TB_CHESS_SQ(TB_CHESS_FILE(to), TB_CHESS_RANK(from));
        out->capture_sq = (uint8_t)capsq;
        out->captured = pos->board[capsq];
    } else if (pos->board[to]) {
        out->capture_sq = (uint8_t)to;
        out->captured = pos->board[to];
    }
}
