/* fuzz_fen.c - fuzz target of the FEN reader (tb_chess_pos_from_fen), read as standard chess and
 * as Chess960.
 *
 * Refused text must leave the position exactly as it was and say why. An accepted position must
 * pass tb_chess_pos_check, leave the side not to move out of check, write back to a FEN that
 * reads to the same position (and the same text), and every legal move of it must make and
 * unmake cleanly, never leaving the mover's king attacked. */
#include "fuzz_chess.h"
#include "tb_fuzz.h"

static void check_moves(const tb_chess_pos *pos)
{
    tb_chess_movelist list;
    int n = tb_chess_gen_legal(pos, &list);
    TB_FUZZ_CHECK(n >= 0 && n <= TB_CHESS_MAX_MOVES && n == list.count);
    int us = pos->side;
    for (int i = 0; i < n; i++) {
        tb_chess_move m = list.moves[i];
        TB_FUZZ_CHECK(tb_chess_is_legal(pos, m));
        tb_chess_pos p = *pos;
        tb_chess_undo undo;
        tb_chess_make(&p, m, &undo);
        TB_FUZZ_CHECK(tb_chess_pos_check(&p) == TB_OK);
        TB_FUZZ_CHECK(p.side == !us);
        TB_FUZZ_CHECK(!tb_chess_attacked(&p, p.king_sq[us], !us));
        tb_chess_unmake(&p, m, &undo);
        TB_FUZZ_CHECK(tb_fuzz_same_pos(&p, pos));
    }
    enum tb_chess_state st = tb_chess_pos_state(pos);
    if (n == 0)
        TB_FUZZ_CHECK(st == (tb_chess_in_check(pos) ? TB_CHESS_CHECKMATE : TB_CHESS_STALEMATE));
    else
        TB_FUZZ_CHECK(st == TB_CHESS_PLAYING || st == TB_CHESS_DEAD);
    (void)tb_chess_repetition_key(pos);
}

static void check_fen(const char *fen, unsigned flags)
{
    tb_chess_pos pos, before;
    memset(&pos, 0x5a, sizeof pos); /* whatever was there must survive a refusal */
    memcpy(&before, &pos, sizeof pos);
    struct tb_error err;
    memset(&err, 0, sizeof err);
    int rc = tb_chess_pos_from_fen(&pos, fen, flags, &err);
    if (rc != TB_OK) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(memcmp(&pos, &before, sizeof pos) == 0);
        TB_FUZZ_CHECK(err.column >= 0 && (size_t)err.column <= strlen(fen) + 1);
        return;
    }
    TB_FUZZ_CHECK(tb_chess_pos_check(&pos) == TB_OK);
    TB_FUZZ_CHECK(!tb_chess_attacked(&pos, pos.king_sq[!pos.side], pos.side));

    char out[128], again_out[128];
    int n = tb_chess_pos_to_fen(&pos, out, sizeof out);
    TB_FUZZ_CHECK(n > 0 && n < 100 && (size_t)n == strlen(out));
    tb_chess_pos again;
    struct tb_error err2;
    TB_FUZZ_CHECK(tb_chess_pos_from_fen(&again, out, flags, &err2) == TB_OK);
    TB_FUZZ_CHECK(tb_fuzz_same_pos(&pos, &again));
    TB_FUZZ_CHECK(tb_chess_pos_to_fen(&again, again_out, sizeof again_out) == n);
    TB_FUZZ_CHECK(strcmp(out, again_out) == 0);
    check_moves(&pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *fen = tb_fuzz_cstr(data, size);
    check_fen(fen, 0);
    check_fen(fen, TB_CHESS_FEN_960);
    free(fen);
    return 0;
}
