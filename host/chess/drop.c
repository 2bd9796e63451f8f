/* drop.c - placing a piece from outside the board as a move, for variants built on this core
 * (doorgeefschaak, host/bughouse). The move path of standard chess does not use it. */
#include <assert.h>

#include "chess_internal.h"

void tb_chess_make_drop(tb_chess_pos *pos, int sq, int piece, tb_chess_undo *undo)
{
    tb_chess__begin_make(pos, undo);
    tb_chess_put(pos, sq, piece);
    if (pos->side == TB_CHESS_BLACK)
        pos->fullmove++;
    pos->side ^= 1;
    pos->key ^= tb_chess__zobrist_side;
    assert(tb_chess_pos_check(pos) == TB_OK);
}

void tb_chess_unmake_drop(tb_chess_pos *pos, int sq, const tb_chess_undo *undo)
{
    tb_chess_remove(pos, sq);
    pos->side ^= 1;
    if (pos->side == TB_CHESS_BLACK)
        pos->fullmove--;
    pos->ep = undo->ep;
    pos->halfmove = undo->halfmove;
    pos->key = undo->key;
    assert(tb_chess_pos_check(pos) == TB_OK);
}
