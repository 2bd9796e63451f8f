/* squares.c - DGT piece codes and fields against tb_chess pieces and squares; orientation. */
#include "dgt_internal.h"

#include "tb_chess.h"

/* DGT codes 1..12 in tb_chess codes. */
static const uint8_t to_chess[16] = {
    0,
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN),
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_ROOK),
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT),
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_BISHOP),
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KING),
    TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_QUEEN),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_ROOK),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KNIGHT),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_BISHOP),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KING),
    TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_QUEEN),
    0,
    0,
    0,
};

int tb_dgt_piece_to_chess(int code)
{
    return to_chess[code & 0x0F];
}

int tb_dgt_piece_from_chess(int piece)
{
    for (int c = 1; c <= 12; c++) {
        if (piece != 0 && to_chess[c] == piece)
            return c;
    }
    return TB_DGT_EMPTY;
}

bool tb_dgt_piece_is_magic(int code)
{
    return (code & 0x0F) >= TB_DGT_DRAW;
}

int tb_dgt_field_to_square(int field, enum tb_dgt_orient o)
{
    if (field < 0 || field > 63)
        return -1;
    /* Field 0 is a8, read row by row as seen with the connector on the left. */
    int sq = TB_CHESS_SQ(field % 8, 7 - field / 8);
    switch (o) {
    case TB_DGT_ORIENT_NORMAL:
        return sq;
    case TB_DGT_ORIENT_ROTATED:
        return 63 - sq;
    default:
        return -1;
    }
}

int tb_dgt_square_to_field(int square, enum tb_dgt_orient o)
{
    if (square < 0 || square > 63 || (o != TB_DGT_ORIENT_NORMAL && o != TB_DGT_ORIENT_ROTATED))
        return -1;
    int sq = o == TB_DGT_ORIENT_ROTATED ? 63 - square : square;
    return (7 - TB_CHESS_RANK(sq)) * 8 + TB_CHESS_FILE(sq);
}

static bool is_start(const uint8_t codes[64], enum tb_dgt_orient o, int *number)
{
    uint8_t b[64];
    for (int f = 0; f < 64; f++) {
        if (tb_dgt_piece_is_magic(codes[f]))
            return false;
        b[tb_dgt_field_to_square(f, o)] = (uint8_t)tb_dgt_piece_to_chess(codes[f]);
    }
    /* Quick structural test first: pawns on ranks 2 and 7, nothing between, kings home. */
    for (int file = 0; file < 8; file++) {
        if (b[TB_CHESS_SQ(file, 1)] != TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN) ||
            b[TB_CHESS_SQ(file, 6)] != TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN))
            return false;
        for (int rank = 2; rank < 6; rank++) {
            if (b[TB_CHESS_SQ(file, rank)] != 0)
                return false;
        }
    }
    /* Then the back ranks: a Chess960 array (two rooks with the king between them, bishops on
     * squares of both colours, knights, queen) that Black mirrors (Guideline II). */
    int count[7] = {0}, king = -1, rooks = 0, bishop_colours = 0;
    for (int file = 0; file < 8; file++) {
        int w = b[TB_CHESS_SQ(file, 0)], k = b[TB_CHESS_SQ(file, 7)];
        int type = TB_CHESS_PIECE_TYPE(w);
        if (w == 0 || TB_CHESS_PIECE_COLOR(w) != TB_CHESS_WHITE || type == TB_CHESS_PAWN ||
            k != TB_CHESS_PIECE(TB_CHESS_BLACK, type))
            return false;
        count[type]++;
        if (type == TB_CHESS_KING)
            king = file;
        if (type == TB_CHESS_ROOK && king < 0)
            rooks++; /* rooks left of the king */
        if (type == TB_CHESS_BISHOP)
            bishop_colours |= 1 << (file & 1);
    }
    if (count[TB_CHESS_KING] != 1 || count[TB_CHESS_QUEEN] != 1 || count[TB_CHESS_ROOK] != 2 ||
        count[TB_CHESS_BISHOP] != 2 || count[TB_CHESS_KNIGHT] != 2 || rooks != 1 ||
        bishop_colours != 3)
        return false;
    if (number) {
        for (int n = 0; n < 960; n++) {
            tb_chess_pos pos;
            tb_chess_pos_960(&pos, n);
            int file = 0;
            while (file < 8 && b[file] == tb_chess_piece_at(&pos, file))
                file++;
            if (file == 8) {
                *number = n;
                break;
            }
        }
    }
    return true;
}

enum tb_dgt_orient tb_dgt_find_orientation(const uint8_t codes[64], int *number)
{
    if (!codes)
        return TB_DGT_ORIENT_UNKNOWN;
    if (is_start(codes, TB_DGT_ORIENT_NORMAL, number))
        return TB_DGT_ORIENT_NORMAL;
    if (is_start(codes, TB_DGT_ORIENT_ROTATED, number))
        return TB_DGT_ORIENT_ROTATED;
    return TB_DGT_ORIENT_UNKNOWN;
}
