/* braille_move.c - one move in the braille chess notation, and the BRF character of a cell.
 *
 * The notation follows the braille chess code of the braille chess associations where its
 * published examples fix it (move numbers and ranks as lower digits without a numeral sign,
 * files as letters, the English knight as s, no mark for en passant); each remaining sign is
 * the cell North American ASCII braille writes with the print sign (x, +, #, 0, -), so a BRF
 * file reads like the print score in lower case. */
#include <ctype.h>
#include <string.h>

#include "tb_record.h"

/* North American ASCII braille: the character of each of the 64 cells, by dot bits. */
static const char brf[] = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)=";

char tb_record_brf_char(tb_record_cell cell)
{
    return brf[cell & 63];
}

int tb_record_brf_cell(char c)
{
    const char *p = c ? strchr(brf, toupper((unsigned char)c)) : NULL;
    return p ? (int)(p - brf) : -1;
}

int tb_record_braille_move(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters lang,
                           tb_record_cell *cells, size_t cap)
{
    char san[16];
    /* Promotion as e8Q (Appendix C), castling with zeros, en passant unmarked. */
    int n =
        tb_chess_move_to_san(pos, m, lang, TB_CHESS_SAN_NOEQ | TB_CHESS_SAN_ZERO, san, sizeof san);
    if (n < 0)
        return n;
    if (!tb_chess_is_legal(pos, m))
        return TB_ERR_ILLEGAL;
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        char c = san[i];
        /* The braille chess code's knight is s (Springer) in English too. */
        if (lang == TB_CHESS_LETTERS_EN && c == 'N')
            c = 'S';
        int cell = tb_record_brf_cell(c);
        if (cell < 0)
            return TB_ERR_STATE;
        if (k == cap)
            return TB_ERR_FULL;
        cells[k++] = (tb_record_cell)cell;
    }
    return (int)k;
}
