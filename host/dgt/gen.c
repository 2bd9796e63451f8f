/* gen.c - a move as the field updates a DGT board sends for it. */
#include "dgt_internal.h"

struct seq {
    struct tb_dgt_update *out;
    int cap, n;
    enum tb_dgt_orient o;
};

static void put(struct seq *s, int sq, int piece)
{
    if (s->n < s->cap)
        s->out[s->n] = (struct tb_dgt_update){(uint8_t)tb_dgt_square_to_field(sq, s->o),
                                              (uint8_t)tb_dgt_piece_from_chess(piece)};
    s->n++;
}

int tb_dgt_codes_of_pos(const tb_chess_pos *pos, enum tb_dgt_orient o, uint8_t codes[64])
{
    if (!pos || !codes || (o != TB_DGT_ORIENT_NORMAL && o != TB_DGT_ORIENT_ROTATED))
        return TB_ERR_ARG;
    for (int sq = 0; sq < 64; sq++)
        codes[tb_dgt_square_to_field(sq, o)] =
            (uint8_t)tb_dgt_piece_from_chess(tb_chess_piece_at(pos, sq));
    return TB_OK;
}

int tb_dgt_move_updates(const tb_chess_pos *pos, tb_chess_move m, enum tb_dgt_orient o,
                        unsigned flags, struct tb_dgt_update *out, int cap)
{
    if (!pos || (cap > 0 && !out) || cap < 0 ||
        (o != TB_DGT_ORIENT_NORMAL && o != TB_DGT_ORIENT_ROTATED))
        return TB_ERR_ARG;
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, m, &ms);
    struct seq s = {out, cap, 0, o};
    bool new_first = (flags & TB_DGT_GEN_NEW_FIRST) != 0;
    int placed = ms.promo ? TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(ms.piece), ms.promo) : ms.piece;
    if (ms.rook_from != TB_CHESS_NOSQ) {
        int rook = tb_chess_piece_at(pos, ms.rook_from);
        bool apart = ms.from != ms.rook_to && ms.to != ms.rook_from && ms.from != ms.to &&
                     ms.rook_from != ms.rook_to;
        if (new_first && apart) {
            put(&s, ms.to, ms.piece);
            put(&s, ms.from, 0);
            put(&s, ms.rook_to, rook);
            put(&s, ms.rook_from, 0);
        } else {
            /* King first (4.4.2); both off before either lands, so Chess960 squares may
             * overlap. */
            put(&s, ms.from, 0);
            put(&s, ms.rook_from, 0);
            put(&s, ms.to, ms.piece);
            put(&s, ms.rook_to, rook);
        }
    } else {
        /* Without NO_EMPTY the taken piece is off first; with it, it is swapped for the
         * capturing one between two scans. */
        bool swapped = (flags & TB_DGT_GEN_NO_EMPTY) != 0;
        if (ms.capture_sq != TB_CHESS_NOSQ && ms.capture_sq == ms.to && !swapped)
            put(&s, ms.capture_sq, 0);
        put(&s, new_first ? ms.to : ms.from, new_first ? placed : 0);
        put(&s, new_first ? ms.from : ms.to, new_first ? 0 : placed);
        if (ms.capture_sq != TB_CHESS_NOSQ && ms.capture_sq != ms.to)
            put(&s, ms.capture_sq, 0); /* en passant: the pawn beside is taken off last */
    }
    return s.n > cap ? TB_ERR_FULL : s.n;
}
