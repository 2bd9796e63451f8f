/* test_bug_perft.c - move counts of bughouse positions with pieces in hand, checked against a
 * brute-force generator written here from the rules alone: every piece in hand on every square,
 * kept when the square is empty (2.3), no pawn on rank 1 or 8 (2.5), the enemy king not in check
 * afterwards (2.4) and the mover's king not in check (FIDE 3.9), made with the core's own drop. */
#include "tb_bug.h"
#include "tb_test.h"

struct node {
    tb_chess_pos chess;
    uint8_t pool[2][6];
};

static uint64_t brute(struct node *n, int depth)
{
    tb_chess_movelist ord;
    int count = tb_chess_gen_legal(&n->chess, &ord);
    uint64_t total = depth <= 1 ? (uint64_t)count : 0;
    if (depth > 1)
        for (int i = 0; i < count; i++) {
            struct node child = *n;
            tb_chess_undo undo;
            tb_chess_make(&child.chess, ord.moves[i], &undo);
            total += brute(&child, depth - 1);
        }
    int us = n->chess.side;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++) {
        if (!n->pool[us][t])
            continue;
        for (int sq = 0; sq < 64; sq++) {
            if (tb_chess_piece_at(&n->chess, sq))
                continue;
            if (t == TB_CHESS_PAWN && (TB_CHESS_RANK(sq) == 0 || TB_CHESS_RANK(sq) == 7))
                continue;
            /* The piece on the square, judged before the drop is made (make checks its own
             * invariants, which an illegal drop would break). */
            tb_chess_pos look = n->chess;
            look.board[sq] = (uint8_t)TB_CHESS_PIECE(us, t);
            look.by_color[us] |= TB_CHESS_BIT(sq);
            look.by_type[t] |= TB_CHESS_BIT(sq);
            if (tb_chess_attacked(&look, look.king_sq[us ^ 1], us) ||
                tb_chess_attacked(&look, look.king_sq[us], us ^ 1))
                continue;
            if (depth <= 1) {
                total++;
                continue;
            }
            struct node child = *n;
            tb_chess_undo undo;
            tb_chess_make_drop(&child.chess, sq, TB_CHESS_PIECE(us, t), &undo);
            child.pool[us][t]--;
            total += brute(&child, depth - 1);
        }
    }
    return total;
}

static void compare(const char *fen, int depth, uint64_t want)
{
    tb_bug_pos pos;
    struct tb_error err;
    if (tb_bug_pos_from_fen(&pos, fen, &err))
        TB_FAIL("'%s' refused: %s", fen, err.msg);
    struct node n;
    n.chess = pos.chess;
    memcpy(n.pool, pos.pool, sizeof n.pool);
    for (int d = 1; d <= depth; d++) {
        uint64_t got = tb_bug_perft(&pos, d), ref = brute(&n, d);
        if (got != ref)
            TB_FAIL("%s depth %d: %" PRIu64 " moves, the brute force finds %" PRIu64, fen, d, got,
                    ref);
    }
    if (want)
        ASSERT_U64_EQ(tb_bug_perft(&pos, 1), want);
}

TB_TEST(perft_bare_kings_with_full_pool_counted_by_hand)
{
    /* King: 5 moves. Drops on 62 empty squares: queen 62 - 20 checking squares, rook 62 - 13,
     * bishop 62 - 7, knight 62 - 4, pawn 48 (ranks 2-7) - 2 (d7, f7). */
    compare("4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", 2, 5 + 42 + 49 + 55 + 58 + 46);
}

TB_TEST(perft_pools_match_brute_force)
{
    compare("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[NBp] w KQkq - 0 1", 2, 0);
    compare("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[qrp] b KQkq - 0 1", 2, 0);
    compare("4k3/8/8/8/8/8/8/r3K3[NPQ] w - - 0 1", 3, 0); /* in check: blocks only */
    compare("3k4/8/8/8/8/8/8/r3K3[R] w - - 0 1", 3, 0);   /* a blocking drop that checks */
    compare("6bk/8/7K/8/7B/8/8/8[Nnp] w - - 0 1", 3, 0);  /* mates and interpositions */
    compare("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1", 3, 0);
}
