/* move.c - drops and their rules (2.2-2.5), legal moves, make/unmake with the passed piece
 * (2.1, 3.2), promoted pawns (3.1), mate and stalemate with pieces in hand. */
#include <string.h>

#include "bug_internal.h"

bool tb_bug_in_check(const tb_bug_pos *pos)
{
    return tb_chess_in_check(&pos->chess);
}

/* Squares from which a sliding piece would see sq along (df, dr), up to the first piece. */
static uint64_t ray(uint64_t occ, int sq, int df, int dr)
{
    uint64_t out = 0;
    int f = TB_CHESS_FILE(sq) + df, r = TB_CHESS_RANK(sq) + dr;
    for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
        int s = TB_CHESS_SQ(f, r);
        if (occ & TB_CHESS_BIT(s))
            break;
        out |= TB_CHESS_BIT(s);
    }
    return out;
}

static uint64_t square_at(int sq, int df, int dr)
{
    int f = TB_CHESS_FILE(sq) + df, r = TB_CHESS_RANK(sq) + dr;
    return f >= 0 && f < 8 && r >= 0 && r < 8 ? TB_CHESS_BIT(TB_CHESS_SQ(f, r)) : 0;
}

/* 2.4: the empty squares where a piece of type, dropped by us, would attack the enemy king. */
static void checking_squares(const tb_chess_pos *pos, uint64_t out[6])
{
    static const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    int us = pos->side, k = pos->king_sq[us ^ 1];
    uint64_t occ = tb_chess_occupancy(pos);
    /* A pawn attacks forward-diagonally, so it checks from one rank behind the king. */
    int back = us == TB_CHESS_WHITE ? -1 : 1;
    out[TB_CHESS_PAWN] = square_at(k, -1, back) | square_at(k, 1, back);
    out[TB_CHESS_KNIGHT] = 0;
    for (int i = 0; i < 8; i++)
        out[TB_CHESS_KNIGHT] |= square_at(k, knight[i][0], knight[i][1]);
    out[TB_CHESS_BISHOP] =
        ray(occ, k, 1, 1) | ray(occ, k, 1, -1) | ray(occ, k, -1, 1) | ray(occ, k, -1, -1);
    out[TB_CHESS_ROOK] =
        ray(occ, k, 1, 0) | ray(occ, k, -1, 0) | ray(occ, k, 0, 1) | ray(occ, k, 0, -1);
    out[TB_CHESS_QUEEN] = out[TB_CHESS_BISHOP] | out[TB_CHESS_ROOK];
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        out[t] &= ~occ;
}

/* FIDE 3.9 by 1.5: a drop cannot uncover a check, so it matters only when in check, where it
 * must block the one checking line. */
static bool drop_leaves_king_safe(const tb_chess_pos *pos, int type, int sq)
{
    if (!tb_chess_in_check(pos))
        return true;
    /* Attack queries read the bitboards only, so the piece is set there without a full make
     * (whose invariant checks an illegal drop would break). */
    int us = pos->side;
    tb_chess_pos p = *pos;
    p.board[sq] = (uint8_t)TB_CHESS_PIECE(us, type);
    p.by_color[us] |= TB_CHESS_BIT(sq);
    p.by_type[type] |= TB_CHESS_BIT(sq);
    return !tb_chess_attacked(&p, p.king_sq[us], us ^ 1);
}

enum tb_bug_drop_verdict tb_bug_drop_verdict(const tb_bug_pos *pos, int type, int sq)
{
    if (type < TB_CHESS_PAWN || type > TB_CHESS_QUEEN || sq < 0 || sq > 63)
        return TB_BUG_DROP_BAD_PIECE;
    const tb_chess_pos *c = &pos->chess;
    if (!pos->pool[c->side][type])
        return TB_BUG_DROP_NOT_IN_POOL; /* 2.2 */
    if (c->board[sq])
        return TB_BUG_DROP_OCCUPIED; /* 2.3 */
    if (type == TB_CHESS_PAWN && (TB_CHESS_RANK(sq) == 0 || TB_CHESS_RANK(sq) == 7))
        return TB_BUG_DROP_PAWN_RANK; /* 2.5 */
    uint64_t checks[6];
    checking_squares(c, checks);
    if (checks[type] & TB_CHESS_BIT(sq))
        return TB_BUG_DROP_CHECKS; /* 2.4 */
    if (!drop_leaves_king_safe(c, type, sq))
        return TB_BUG_DROP_SELF_CHECK;
    return TB_BUG_DROP_OK;
}

const char *tb_bug_drop_article(enum tb_bug_drop_verdict v)
{
    switch (v) {
    case TB_BUG_DROP_NOT_IN_POOL:
        return "2.2";
    case TB_BUG_DROP_OCCUPIED:
        return "2.3";
    case TB_BUG_DROP_CHECKS:
        return "2.4";
    case TB_BUG_DROP_PAWN_RANK:
        return "2.5";
    case TB_BUG_DROP_SELF_CHECK:
        return "1.5 (FIDE 3.9)";
    case TB_BUG_DROP_BAD_PIECE:
        return "2.1";
    default:
        return "";
    }
}

const char *tb_bug_drop_reason(enum tb_bug_drop_verdict v)
{
    switch (v) {
    case TB_BUG_DROP_NOT_IN_POOL:
        return "no such piece is in hand";
    case TB_BUG_DROP_OCCUPIED:
        return "the square is not empty";
    case TB_BUG_DROP_CHECKS:
        return "the drop would give check";
    case TB_BUG_DROP_PAWN_RANK:
        return "a pawn may not be placed on the 1st or 8th rank";
    case TB_BUG_DROP_SELF_CHECK:
        return "the king would stay in check";
    case TB_BUG_DROP_BAD_PIECE:
        return "only a pawn, knight, bishop, rook or queen can be placed";
    default:
        return "legal";
    }
}

/* Appends the legal drops (2.2-2.5, FIDE 3.9) to moves[n..], by type Q R B N P and square. */
static int add_drops(const tb_bug_pos *pos, tb_bug_move *moves, int n)
{
    const tb_chess_pos *c = &pos->chess;
    int us = c->side;
    if (!tb_bug_pool_count(pos, us))
        return n;
    uint64_t checks[6];
    checking_squares(c, checks);
    uint64_t empty = ~tb_chess_occupancy(c);
    bool in_check = tb_chess_in_check(c);
    for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--) {
        if (!pos->pool[us][t])
            continue;
        uint64_t to = empty & ~checks[t]; /* 2.3, 2.4 */
        if (t == TB_CHESS_PAWN)
            to &= ~0xFF000000000000FFULL; /* 2.5 */
        for (; to; to &= to - 1) {
            int sq = __builtin_ctzll(to);
            if (in_check && !drop_leaves_king_safe(c, t, sq))
                continue;
            moves[n++] = tb_bug_move_drop(t, sq);
        }
    }
    return n;
}

int tb_bug_gen_legal(const tb_bug_pos *pos, tb_bug_movelist *list)
{
    const tb_chess_pos *c = &pos->chess;
    list->count = 0;
    if (tb_bug__mobility_bound(c) > TB_CHESS_MAX_MOVES)
        return TB_ERR_FULL;
    tb_chess_movelist ord;
    int n = tb_chess_gen_legal(c, &ord);
    memcpy(list->moves, ord.moves, (size_t)n * sizeof ord.moves[0]);
    list->count = add_drops(pos, list->moves, n);
    return list->count;
}

int tb_bug_gen_drops(const tb_bug_pos *pos, tb_bug_movelist *list)
{
    list->count = add_drops(pos, list->moves, 0);
    return list->count;
}

bool tb_bug_is_legal(const tb_bug_pos *pos, tb_bug_move m)
{
    if (tb_bug_move_is_drop(m))
        return tb_bug_drop_verdict(pos, tb_bug_move_drop_type(m), tb_chess_move_to(m)) ==
               TB_BUG_DROP_OK;
    if (tb_chess_move_kind(m) == TB_BUG_MK_DROP)
        return false;
    return tb_chess_is_legal(&pos->chess, m);
}

void tb_bug_make(tb_bug_pos *pos, tb_bug_move m, tb_bug_undo *undo)
{
    int us = pos->chess.side, to = tb_chess_move_to(m);
    undo->promoted = pos->promoted;
    undo->passed = 0;
    if (tb_bug_move_is_drop(m)) {
        int t = tb_bug_move_drop_type(m);
        pos->pool[us][t]--;
        tb_chess_make_drop(&pos->chess, to, TB_CHESS_PIECE(us, t), &undo->chess);
        return;
    }
    int from = tb_chess_move_from(m), kind = tb_chess_move_kind(m);
    if (kind != TB_CHESS_MK_CASTLE) {
        int capsq =
            kind == TB_CHESS_MK_EP ? TB_CHESS_SQ(TB_CHESS_FILE(to), TB_CHESS_RANK(from)) : to;
        int captured = pos->chess.board[capsq];
        if (captured) {
            /* 3.2: a promoted pawn goes to the partner as a pawn. */
            bool was_pawn = (pos->promoted & TB_CHESS_BIT(capsq)) != 0;
            undo->passed = (uint8_t)(was_pawn ? TB_CHESS_PIECE(us ^ 1, TB_CHESS_PAWN) : captured);
            pos->promoted &= ~TB_CHESS_BIT(capsq);
        }
    }
    tb_chess_make(&pos->chess, m, &undo->chess);
    if (pos->promoted & TB_CHESS_BIT(from))
        pos->promoted = (pos->promoted & ~TB_CHESS_BIT(from)) | TB_CHESS_BIT(to);
    if (tb_chess_move_promo(m))
        pos->promoted |= TB_CHESS_BIT(to); /* 3.1: it keeps the pawn's shape */
}

void tb_bug_unmake(tb_bug_pos *pos, tb_bug_move m, const tb_bug_undo *undo)
{
    if (tb_bug_move_is_drop(m)) {
        tb_chess_unmake_drop(&pos->chess, tb_chess_move_to(m), &undo->chess);
        pos->pool[pos->chess.side][tb_bug_move_drop_type(m)]++;
    } else {
        tb_chess_unmake(&pos->chess, m, &undo->chess);
    }
    pos->promoted = undo->promoted;
}

static uint64_t perft(tb_bug_pos *pos, int depth)
{
    tb_bug_movelist list;
    int n = tb_bug_gen_legal(pos, &list);
    if (n < 0)
        return 0;
    if (depth <= 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        tb_bug_undo undo;
        tb_bug_make(pos, list.moves[i], &undo);
        total += perft(pos, depth - 1);
        tb_bug_unmake(pos, list.moves[i], &undo);
    }
    return total;
}

uint64_t tb_bug_perft(tb_bug_pos *pos, int depth)
{
    return depth <= 0 ? 1 : perft(pos, depth);
}

enum tb_bug_pos_state tb_bug_pos_state(const tb_bug_pos *pos)
{
    tb_bug_movelist list;
    if (tb_bug_gen_legal(pos, &list) != 0)
        return TB_BUG_POS_PLAYING;
    /* FIDE 5.1.1 by 1.5: mate is no legal move in check, drops from the pool included; pieces
     * the partner has yet to pass do not count (5.4 speaks of them for flag fall only). */
    return tb_bug_in_check(pos) ? TB_BUG_POS_CHECKMATE : TB_BUG_POS_STALEMATE;
}
