/* makemove.c - make and unmake with an undo record; the Zobrist key is kept incrementally. */
#include <assert.h>

#include "chess_internal.h"

static inline void drop_right(tb_chess_pos *pos, int i)
{
    pos->key ^= tb_chess__zobrist_castle[i][pos->castle_rook[i]];
    pos->castle_rook[i] = TB_CHESS_NOSQ;
}

/* 3.8.2.1: the right is lost when the king or that rook has moved (or the rook was taken). */
static inline void update_rights(tb_chess_pos *pos, int from, int to, bool king_moved, int us)
{
    for (int i = 0; i < 4; i++) {
        int r = pos->castle_rook[i];
        if (r == TB_CHESS_NOSQ)
            continue;
        if (r == from || r == to || (king_moved && (i >> 1) == us))
            drop_right(pos, i);
    }
}

/* Lifts king and rook from their squares, then places them: in Chess960 either may land where
 * the other stood (Guideline II). */
static inline void move_castlers(tb_chess_pos *pos, int us, int kfrom, int rfrom, int kto, int rto)
{
    tb_chess_remove(pos, kfrom);
    tb_chess_remove(pos, rfrom);
    tb_chess_put(pos, kto, TB_CHESS_PIECE(us, TB_CHESS_KING));
    tb_chess_put(pos, rto, TB_CHESS_PIECE(us, TB_CHESS_ROOK));
    pos->king_sq[us] = (uint8_t)kto;
}

static inline bool any_rights(const tb_chess_pos *pos)
{
    uint32_t r;
    memcpy(&r, pos->castle_rook, sizeof r);
    return r != 0x40404040u;
}

void tb_chess_make(tb_chess_pos *pos, tb_chess_move m, tb_chess_undo *undo)
{
    const int from = tb_chess_move_from(m), to = tb_chess_move_to(m), kind = tb_chess_move_kind(m);
    const int us = pos->side, them = us ^ 1;
    const int piece = pos->board[from], type = TB_CHESS_PIECE_TYPE(piece);

    tb_chess__begin_make(pos, undo);

    if (kind == TB_CHESS_MK_CASTLE) {
        int kto = tb_chess_move_king_to(m);
        move_castlers(pos, us, from, to, kto, tb_chess_castle_rook_to(kto));
        for (int i = us * 2; i < us * 2 + 2; i++)
            if (pos->castle_rook[i] != TB_CHESS_NOSQ)
                drop_right(pos, i);
    } else {
        int capsq =
            kind == TB_CHESS_MK_EP ? TB_CHESS_SQ(TB_CHESS_FILE(to), TB_CHESS_RANK(from)) : to;
        if (pos->board[capsq]) {
            undo->captured = pos->board[capsq];
            tb_chess_remove(pos, capsq);
            pos->halfmove = 0; /* 9.3: a capture resets the count */
        }
        tb_chess_remove(pos, from);
        int promo = tb_chess_move_promo(m);
        tb_chess_put(pos, to, promo ? TB_CHESS_PIECE(us, promo) : piece);
        if (type == TB_CHESS_PAWN) {
            pos->halfmove = 0; /* 9.3: so does a pawn move */
            if ((from ^ to) == 16) {
                /* Record the e.p. square only when an enemy pawn stands ready to take. */
                int ep = (from + to) / 2;
                if (tb_chess__pawn_attacks[us][ep] & tb_pieces(pos, them, TB_CHESS_PAWN)) {
                    pos->ep = (uint8_t)ep;
                    pos->key ^= tb_chess__zobrist_ep[ep];
                }
            }
        } else if (type == TB_CHESS_KING) {
            pos->king_sq[us] = (uint8_t)to;
        }
        if (any_rights(pos))
            update_rights(pos, from, to, type == TB_CHESS_KING, us);
    }

    pos->side = (uint8_t)them;
    pos->key ^= tb_chess__zobrist_side;
    if (us == TB_CHESS_BLACK)
        pos->fullmove++;
    assert(tb_chess_pos_check(pos) == TB_OK);
}

void tb_chess_unmake(tb_chess_pos *pos, tb_chess_move m, const tb_chess_undo *undo)
{
    const int from = tb_chess_move_from(m), to = tb_chess_move_to(m), kind = tb_chess_move_kind(m);
    const int them = pos->side, us = them ^ 1;

    if (kind == TB_CHESS_MK_CASTLE) {
        int kto = tb_chess_move_king_to(m);
        move_castlers(pos, us, kto, tb_chess_castle_rook_to(kto), from, to);
    } else {
        int piece = pos->board[to];
        if (tb_chess_move_promo(m))
            piece = TB_CHESS_PIECE(us, TB_CHESS_PAWN);
        tb_chess_remove(pos, to);
        tb_chess_put(pos, from, piece);
        if (TB_CHESS_PIECE_TYPE(piece) == TB_CHESS_KING)
            pos->king_sq[us] = (uint8_t)from;
        if (undo->captured) {
            int capsq =
                kind == TB_CHESS_MK_EP ? TB_CHESS_SQ(TB_CHESS_FILE(to), TB_CHESS_RANK(from)) : to;
            tb_chess_put(pos, capsq, undo->captured);
        }
    }
    pos->side = (uint8_t)us;
    if (us == TB_CHESS_BLACK)
        pos->fullmove--;
    pos->ep = undo->ep;
    pos->halfmove = undo->halfmove;
    memcpy(pos->castle_rook, undo->castle_rook, 4);
    pos->key = undo->key;
    assert(tb_chess_pos_check(pos) == TB_OK);
}
