/* movegen.c - legal move generation on bitboards: pins, check evasions, en passant (3.7.4),
 * promotion (3.7.5) and castling (3.8, Chess960 Guideline II). Writes into a caller's array;
 * allocates nothing. */
#include "chess_internal.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE tb_chess_move *add_targets(tb_chess_move *m, int from, uint64_t b)
{
    for (; b; b &= b - 1)
        *m++ = tb_chess_move_new(from, tb_lsb(b), TB_CHESS_MK_NORMAL);
    return m;
}

/* Pawn moves whose destinations are b, each from to - delta; promotions on the last rank. */
static ALWAYS_INLINE tb_chess_move *add_pawn_targets(tb_chess_move *m, uint64_t b, int delta)
{
    for (; b; b &= b - 1) {
        int to = tb_lsb(b), from = to - delta;
        if (TB_CHESS_BIT(to) & (TB_RANK1 | TB_RANK8)) {
            /* 3.7.5: queen, rook, bishop or knight of the same colour */
            *m++ = tb_chess_move_new(from, to, TB_CHESS_MK_PROMO_Q);
            *m++ = tb_chess_move_new(from, to, TB_CHESS_MK_PROMO_R);
            *m++ = tb_chess_move_new(from, to, TB_CHESS_MK_PROMO_B);
            *m++ = tb_chess_move_new(from, to, TB_CHESS_MK_PROMO_N);
        } else {
            *m++ = tb_chess_move_new(from, to, TB_CHESS_MK_NORMAL);
        }
    }
    return m;
}

static ALWAYS_INLINE uint64_t shift_by(uint64_t b, int d)
{
    return d > 0 ? b << d : b >> -d;
}

/* Pawn pushes and captures of pawns that are not pinned; target limits destinations (check
 * evasion). us is a constant at each call so the shifts fold. */
static ALWAYS_INLINE tb_chess_move *gen_pawns(const tb_chess_pos *pos, tb_chess_move *m, int us,
                                              uint64_t pawns, uint64_t target)
{
    const int up = us == TB_CHESS_WHITE ? 8 : -8;
    const int upw = us == TB_CHESS_WHITE ? 7 : -9; /* towards the a-file */
    const int upe = us == TB_CHESS_WHITE ? 9 : -7; /* towards the h-file */
    const uint64_t rank3 = us == TB_CHESS_WHITE ? 0x0000000000FF0000ULL : 0x0000FF0000000000ULL;
    uint64_t occ = tb_chess_occupancy(pos), theirs = pos->by_color[us ^ 1];
    uint64_t single = shift_by(pawns, up) & ~occ;
    uint64_t dbl = shift_by(single & rank3, up) & ~occ & target;
    m = add_pawn_targets(m, single & target, up);
    for (; dbl; dbl &= dbl - 1) {
        int to = tb_lsb(dbl);
        *m++ = tb_chess_move_new(to - 2 * up, to, TB_CHESS_MK_NORMAL);
    }
    m = add_pawn_targets(m, shift_by(pawns & ~TB_FILEA, upw) & theirs & target, upw);
    m = add_pawn_targets(m, shift_by(pawns & ~TB_FILEH, upe) & theirs & target, upe);
    return m;
}

/* A pinned pawn may move only along the line of its pin. */
static tb_chess_move *gen_pinned_pawn(const tb_chess_pos *pos, tb_chess_move *m, int from,
                                      uint64_t allowed)
{
    int us = pos->side, up = us == TB_CHESS_WHITE ? 8 : -8;
    uint64_t occ = tb_chess_occupancy(pos);
    uint64_t caps = tb_chess__pawn_attacks[us][from] & pos->by_color[us ^ 1] & allowed;
    for (; caps; caps &= caps - 1)
        m = add_pawn_targets(m, TB_CHESS_BIT(tb_lsb(caps)), tb_lsb(caps) - from);
    int one = from + up;
    if (occ & TB_CHESS_BIT(one))
        return m;
    if (allowed & TB_CHESS_BIT(one))
        m = add_pawn_targets(m, TB_CHESS_BIT(one), up);
    int start_rank = us == TB_CHESS_WHITE ? 1 : 6;
    int two = one + up;
    if (TB_CHESS_RANK(from) == start_rank && !(occ & TB_CHESS_BIT(two)) &&
        (allowed & TB_CHESS_BIT(two)))
        *m++ = tb_chess_move_new(from, two, TB_CHESS_MK_NORMAL);
    return m;
}

/* 3.7.4 with the full test of 3.9: after the capture no piece may attack the king. This also
 * covers the pawn pinned along the rank by the removal of both pawns. */
static bool ep_capture_legal(const tb_chess_pos *pos, int from)
{
    int us = pos->side, them = us ^ 1, ep = pos->ep, ksq = pos->king_sq[us];
    int capsq = TB_CHESS_SQ(TB_CHESS_FILE(ep), TB_CHESS_RANK(from));
    const uint64_t *t = pos->by_type;
    uint64_t theirs = pos->by_color[them];
    uint64_t occ =
        tb_chess_occupancy(pos) ^ TB_CHESS_BIT(from) ^ TB_CHESS_BIT(capsq) ^ TB_CHESS_BIT(ep);
    uint64_t att = (tb_rook_attacks(ksq, occ) & (t[TB_CHESS_ROOK] | t[TB_CHESS_QUEEN])) |
                   (tb_bishop_attacks(ksq, occ) & (t[TB_CHESS_BISHOP] | t[TB_CHESS_QUEEN])) |
                   (tb_chess__knight_attacks[ksq] & t[TB_CHESS_KNIGHT]) |
                   (tb_chess__pawn_attacks[us][ksq] & t[TB_CHESS_PAWN] & ~TB_CHESS_BIT(capsq));
    return (att & theirs) == 0;
}

bool tb_chess__ep_legal(const tb_chess_pos *pos)
{
    if (pos->ep == TB_CHESS_NOSQ)
        return false;
    int us = pos->side;
    uint64_t b = tb_chess__pawn_attacks[us ^ 1][pos->ep] & tb_pieces(pos, us, TB_CHESS_PAWN);
    for (; b; b &= b - 1)
        if (ep_capture_legal(pos, tb_lsb(b)))
            return true;
    return false;
}

/* 3.8 and Guideline II: king and rook end on g/f or c/d; every square between the king and its
 * destination and between the rook and its destination is empty except for the two castling
 * pieces; no square the king stands on, crosses or reaches is attacked (tested with both
 * castling pieces lifted, so a rook that shielded the destination counts as gone). */
static tb_chess_move *gen_castling(const tb_chess_pos *pos, tb_chess_move *m)
{
    int us = pos->side, ksq = pos->king_sq[us], back = us == TB_CHESS_WHITE ? 0 : 7;
    uint64_t occ = tb_chess_occupancy(pos);
    for (int i = us * 2; i < us * 2 + 2; i++) {
        int rsq = pos->castle_rook[i];
        if (rsq == TB_CHESS_NOSQ)
            continue;
        bool queen_side = i & 1;
        int kto = TB_CHESS_SQ(queen_side ? 2 : 6, back),
            rto = TB_CHESS_SQ(queen_side ? 3 : 5, back);
        uint64_t movers = TB_CHESS_BIT(ksq) | TB_CHESS_BIT(rsq);
        uint64_t king_path = tb_chess__between[ksq][kto] | TB_CHESS_BIT(kto);
        uint64_t rook_path = tb_chess__between[rsq][rto] | TB_CHESS_BIT(rto);
        if ((king_path | rook_path) & occ & ~movers)
            continue;
        uint64_t lifted = occ & ~movers;
        bool attacked = false;
        for (uint64_t b = king_path; b && !attacked; b &= b - 1)
            attacked = tb_attackers(pos, tb_lsb(b), us ^ 1, lifted) != 0;
        if (!attacked)
            *m++ = tb_chess_move_new(ksq, rsq, TB_CHESS_MK_CASTLE);
    }
    return m;
}

int tb_chess__gen(const tb_chess_pos *pos, tb_chess_move *out)
{
    tb_chess_move *m = out;
    const int us = pos->side, them = us ^ 1, ksq = pos->king_sq[us];
    const uint64_t *t = pos->by_type;
    const uint64_t ours = pos->by_color[us], theirs = pos->by_color[them];
    const uint64_t occ = ours | theirs;
    const uint64_t diag = t[TB_CHESS_BISHOP] | t[TB_CHESS_QUEEN];
    const uint64_t orth = t[TB_CHESS_ROOK] | t[TB_CHESS_QUEEN];
    const uint64_t checkers = tb_attackers(pos, ksq, them, occ);

    /* The king: its destination must not be attacked once it has left its square. */
    const uint64_t occ_noking = occ ^ TB_CHESS_BIT(ksq);
    for (uint64_t b = tb_chess__king_attacks[ksq] & ~ours; b; b &= b - 1) {
        int to = tb_lsb(b);
        if (!tb_attackers(pos, to, them, occ_noking))
            *m++ = tb_chess_move_new(ksq, to, TB_CHESS_MK_NORMAL);
    }
    if (tb_many(checkers))
        return (int)(m - out); /* double check: only the king may move */

    uint64_t target = ~ours;
    if (checkers)
        target = tb_chess__between[ksq][tb_lsb(checkers)] | checkers;

    /* Pieces pinned to the king: an enemy slider sees the king through exactly one of ours. */
    uint64_t pinned = 0;
    uint64_t snipers = (tb_rook_attacks(ksq, theirs) & theirs & orth) |
                       (tb_bishop_attacks(ksq, theirs) & theirs & diag);
    for (; snipers; snipers &= snipers - 1) {
        uint64_t blockers = tb_chess__between[ksq][tb_lsb(snipers)] & occ;
        if (blockers && !tb_many(blockers))
            pinned |= blockers;
    }

    for (uint64_t b = ours & t[TB_CHESS_KNIGHT] & ~pinned; b; b &= b - 1) {
        int from = tb_lsb(b);
        m = add_targets(m, from, tb_chess__knight_attacks[from] & target);
    }
    /* Sliders; a pinned one keeps to the line through its king and its pinner. */
    for (uint64_t b = ours & (diag | orth); b; b &= b - 1) {
        int from = tb_lsb(b);
        uint64_t bit = TB_CHESS_BIT(from), a = 0;
        if (diag & bit)
            a |= tb_bishop_attacks(from, occ);
        if (orth & bit)
            a |= tb_rook_attacks(from, occ);
        a &= target;
        if (pinned & bit)
            a &= tb_chess__line[ksq][from];
        m = add_targets(m, from, a);
    }

    uint64_t pawns = ours & t[TB_CHESS_PAWN];
    if (us == TB_CHESS_WHITE)
        m = gen_pawns(pos, m, TB_CHESS_WHITE, pawns & ~pinned, target);
    else
        m = gen_pawns(pos, m, TB_CHESS_BLACK, pawns & ~pinned, target);
    for (uint64_t b = pawns & pinned; b; b &= b - 1) {
        int from = tb_lsb(b);
        m = gen_pinned_pawn(pos, m, from, target & tb_chess__line[ksq][from]);
    }

    if (pos->ep != TB_CHESS_NOSQ) {
        uint64_t b = tb_chess__pawn_attacks[them][pos->ep] & pawns;
        for (; b; b &= b - 1)
            if (ep_capture_legal(pos, tb_lsb(b)))
                *m++ = tb_chess_move_new(tb_lsb(b), pos->ep, TB_CHESS_MK_EP);
    }

    if (!checkers && (pos->castle_rook[us * 2] != TB_CHESS_NOSQ ||
                      pos->castle_rook[us * 2 + 1] != TB_CHESS_NOSQ))
        m = gen_castling(pos, m);
    return (int)(m - out);
}

int tb_chess_gen_legal(const tb_chess_pos *pos, tb_chess_movelist *list)
{
    list->count = tb_chess__gen(pos, list->moves);
    return list->count;
}

bool tb_chess_is_legal(const tb_chess_pos *pos, tb_chess_move m)
{
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    int n = tb_chess__gen(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}
