/* c960.c - start positions: the standard array and Chess960 (Guideline II) by Scharnagl
 * number, 0..959, where 518 is the standard array. */
#include "chess_internal.h"

void tb_chess__960_back_rank(int number, uint8_t out[8])
{
    /* Knight pairs among the five squares left after bishops and queen, by n / 96. */
    static const uint8_t knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                           {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    int n = number;
    memset(out, 0, 8);
    out[(n % 4) * 2 + 1] = TB_CHESS_BISHOP; /* light-squared bishop: b, d, f or h */
    n /= 4;
    out[(n % 4) * 2] = TB_CHESS_BISHOP; /* dark-squared bishop: a, c, e or g */
    n /= 4;
    int q = n % 6, k = n / 6, free_idx = 0;
    for (int f = 0; f < 8; f++) {
        if (out[f])
            continue;
        if (free_idx++ == q) {
            out[f] = TB_CHESS_QUEEN;
            break;
        }
    }
    free_idx = 0;
    for (int f = 0; f < 8; f++) {
        if (out[f])
            continue;
        if (free_idx == knights[k][0] || free_idx == knights[k][1])
            out[f] = TB_CHESS_KNIGHT;
        free_idx++;
    }
    /* The three squares left take rook, king, rook: the king between the rooks. */
    static const uint8_t rkr[3] = {TB_CHESS_ROOK, TB_CHESS_KING, TB_CHESS_ROOK};
    int j = 0;
    for (int f = 0; f < 8; f++)
        if (!out[f])
            out[f] = rkr[j++];
}

static void setup(tb_chess_pos *pos, const uint8_t back[8], bool chess960)
{
    tb_chess__pos_clear(pos);
    pos->chess960 = chess960;
    for (int f = 0; f < 8; f++) {
        tb_chess_put(pos, TB_CHESS_SQ(f, 0), TB_CHESS_PIECE(TB_CHESS_WHITE, back[f]));
        tb_chess_put(pos, TB_CHESS_SQ(f, 1), TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
        tb_chess_put(pos, TB_CHESS_SQ(f, 6), TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
        tb_chess_put(pos, TB_CHESS_SQ(f, 7), TB_CHESS_PIECE(TB_CHESS_BLACK, back[f]));
        if (back[f] == TB_CHESS_KING) {
            pos->king_sq[TB_CHESS_WHITE] = (uint8_t)f;
            pos->king_sq[TB_CHESS_BLACK] = (uint8_t)TB_CHESS_SQ(f, 7);
        }
    }
    int kfile = pos->king_sq[TB_CHESS_WHITE];
    for (int f = 0; f < 8; f++) {
        if (back[f] != TB_CHESS_ROOK)
            continue;
        int right = f > kfile ? TB_CHESS_CR_WK : TB_CHESS_CR_WQ;
        pos->castle_rook[right] = (uint8_t)f;
        pos->castle_rook[right + 2] = (uint8_t)TB_CHESS_SQ(f, 7);
    }
    pos->key = tb_chess__compute_key(pos);
}

void tb_chess_pos_startpos(tb_chess_pos *pos)
{
    static const uint8_t back[8] = {TB_CHESS_ROOK, TB_CHESS_KNIGHT, TB_CHESS_BISHOP, TB_CHESS_QUEEN,
                                    TB_CHESS_KING, TB_CHESS_BISHOP, TB_CHESS_KNIGHT, TB_CHESS_ROOK};
    setup(pos, back, false);
}

int tb_chess_pos_960(tb_chess_pos *pos, int number)
{
    if (number < 0 || number > 959)
        return TB_ERR_ARG;
    uint8_t back[8];
    tb_chess__960_back_rank(number, back);
    setup(pos, back, true);
    return TB_OK;
}
