/* fuzz_bug.c - fuzz target of the bughouse FEN reader (tb_bug_pos_from_fen) and of drop and
 * move text (tb_bug_move_from_san in three letter sets, tb_bug_move_from_uci) on fixed positions
 * with pieces in hand, a promoted pawn, and a check that drops may block.
 *
 * Refused FEN must leave the position as it was and say why; an accepted one writes back to a
 * FEN that reads to the same position and text, and every legal move (drops included) makes and
 * unmakes cleanly, never leaves the mover in check, and no drop gives check (2.4) or lands a
 * pawn on rank 1 or 8 (2.5). Accepted move text must be a legal move whose SAN and UCI read back
 * to it; refused text must say why. */
#include "tb_bug.h"
#include "tb_fuzz.h"

static const char *const fixed[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[QRBNPqrbnp] w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/r3K3[NPQ] w - - 0 1",
    "6bk/8/5B1K/8/8/8/8/8[pn] b - - 0 1",
    "r3k3/1Q~6/8/8/8/8/8/4K3[Bb] b - - 0 1",
};
#define NFIXED (sizeof fixed / sizeof fixed[0])

static void check_moves(const tb_bug_pos *pos)
{
    tb_bug_movelist list;
    int n = tb_bug_gen_legal(pos, &list);
    if (n < 0) {
        TB_FUZZ_CHECK(n == TB_ERR_FULL);
        return;
    }
    TB_FUZZ_CHECK(n <= TB_BUG_MAX_MOVES && n == list.count);
    int us = pos->chess.side;
    for (int i = 0; i < n; i++) {
        tb_bug_move m = list.moves[i];
        TB_FUZZ_CHECK(tb_bug_is_legal(pos, m));
        tb_bug_pos p = *pos;
        tb_bug_undo undo;
        tb_bug_make(&p, m, &undo);
        TB_FUZZ_CHECK(tb_chess_pos_check(&p.chess) == TB_OK);
        TB_FUZZ_CHECK(!tb_chess_attacked(&p.chess, p.chess.king_sq[us], !us));
        if (tb_bug_move_is_drop(m)) {
            int sq = tb_chess_move_to(m);
            TB_FUZZ_CHECK(!tb_bug_in_check(&p)); /* 2.4 */
            TB_FUZZ_CHECK(tb_bug_move_drop_type(m) != TB_CHESS_PAWN ||
                          (TB_CHESS_RANK(sq) != 0 && TB_CHESS_RANK(sq) != 7)); /* 2.5 */
            TB_FUZZ_CHECK(p.pool[us][tb_bug_move_drop_type(m)] + 1 ==
                          pos->pool[us][tb_bug_move_drop_type(m)]);
        }
        tb_bug_unmake(&p, m, &undo);
        TB_FUZZ_CHECK(tb_bug_pos_equal(&p, pos));
    }
    enum tb_bug_pos_state st = tb_bug_pos_state(pos);
    if (n == 0)
        TB_FUZZ_CHECK(st == (tb_bug_in_check(pos) ? TB_BUG_POS_CHECKMATE : TB_BUG_POS_STALEMATE));
    else
        TB_FUZZ_CHECK(st == TB_BUG_POS_PLAYING);
}

static void check_fen(const char *fen)
{
    tb_bug_pos pos, before;
    memset(&pos, 0x5a, sizeof pos);
    memcpy(&before, &pos, sizeof pos);
    struct tb_error err;
    memset(&err, 0, sizeof err);
    int rc = tb_bug_pos_from_fen(&pos, fen, &err);
    if (rc != TB_OK) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(memcmp(&pos, &before, sizeof pos) == 0);
        return;
    }
    char out[TB_BUG_FEN_MAX], again_out[TB_BUG_FEN_MAX];
    int n = tb_bug_pos_to_fen(&pos, out, sizeof out);
    TB_FUZZ_CHECK(n > 0 && (size_t)n == strlen(out));
    tb_bug_pos again;
    TB_FUZZ_CHECK(tb_bug_pos_from_fen(&again, out, &err) == TB_OK);
    TB_FUZZ_CHECK(tb_bug_pos_equal(&pos, &again));
    TB_FUZZ_CHECK(tb_bug_pos_to_fen(&again, again_out, sizeof again_out) == n);
    TB_FUZZ_CHECK(strcmp(out, again_out) == 0);
    check_moves(&pos);
}

static void check_move_text(const tb_bug_pos *pos, const char *s)
{
    static const enum tb_chess_letters sets[] = {TB_CHESS_LETTERS_EN, TB_CHESS_LETTERS_NL,
                                                 TB_CHESS_LETTERS_DE};
    for (int k = 0; k < 4; k++) {
        tb_bug_pos copy = *pos;
        tb_bug_move m = 0;
        struct tb_error err;
        memset(&err, 0, sizeof err);
        int rc = k < 3 ? tb_bug_move_from_san(&copy, s, sets[k], &m, &err)
                       : tb_bug_move_from_uci(&copy, s, &m, &err);
        TB_FUZZ_CHECK(tb_bug_pos_equal(&copy, pos));
        if (rc != TB_OK) {
            TB_FUZZ_CHECK(rc == TB_ERR_PARSE || rc == TB_ERR_ILLEGAL);
            continue;
        }
        TB_FUZZ_CHECK(tb_bug_is_legal(pos, m));
        char text[24];
        enum tb_chess_letters l = k < 3 ? sets[k] : TB_CHESS_LETTERS_EN;
        TB_FUZZ_CHECK(tb_bug_move_to_san(pos, m, l, text, sizeof text) > 0);
        tb_bug_move back = 0;
        TB_FUZZ_CHECK(tb_bug_move_from_san(pos, text, l, &back, &err) == TB_OK && back == m);
        TB_FUZZ_CHECK(tb_bug_move_to_uci(pos, m, text, sizeof text) > 0);
        TB_FUZZ_CHECK(tb_bug_move_from_uci(pos, text, &back, &err) == TB_OK && back == m);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = tb_fuzz_cstr(data, size);
    check_fen(text);
    if (size <= 32) {
        for (size_t i = 0; i < NFIXED; i++) {
            tb_bug_pos pos;
            TB_FUZZ_CHECK(tb_bug_pos_from_fen(&pos, fixed[i], NULL) == TB_OK);
            check_move_text(&pos, text);
        }
    }
    free(text);
    return 0;
}
