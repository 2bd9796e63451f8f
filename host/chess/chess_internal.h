/* chess_internal.h - declarations shared by the chess core's files: the const tables made by
 * gen/gen_tables.c at build time, bitboard helpers and the internal move generator. */
#ifndef CHESS_INTERNAL_H
#define CHESS_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "tb_chess.h"

/* Fancy magic bitboards: attacks = table[offset + ((occ & mask) * magic >> shift)]. */
struct tb_chess_magic {
    uint64_t mask;
    uint64_t magic;
    uint32_t offset;
    uint32_t shift;
};

#define TB_CHESS_SLIDER_TABLE_SIZE 107648 /* 102400 rook + 5248 bishop entries */

extern const uint64_t tb_chess__knight_attacks[64];
extern const uint64_t tb_chess__king_attacks[64];
extern const uint64_t tb_chess__pawn_attacks[2][64]; /* [colour][sq]: squares a pawn attacks */
extern const uint64_t tb_chess__between[64][64];     /* strictly between aligned squares, else 0 */
extern const uint64_t tb_chess__line[64][64]; /* whole line through aligned squares, else 0 */
extern const struct tb_chess_magic tb_chess__rook_magics[64];
extern const struct tb_chess_magic tb_chess__bishop_magics[64];
extern const uint64_t tb_chess__slider_table[TB_CHESS_SLIDER_TABLE_SIZE];
extern const uint64_t tb_chess__zobrist_psq[16][64];
extern const uint64_t tb_chess__zobrist_castle[4][64]; /* [right][rook square] */
extern const uint64_t tb_chess__zobrist_ep[64];
extern const uint64_t tb_chess__zobrist_side;

#define TB_RANK1        0x00000000000000FFULL
#define TB_RANK8        0xFF00000000000000ULL
#define TB_FILEA        0x0101010101010101ULL
#define TB_FILEH        0x8080808080808080ULL
#define TB_DARK_SQUARES 0xAA55AA55AA55AA55ULL

static inline int tb_lsb(uint64_t b)
{
    return __builtin_ctzll(b);
}
static inline int tb_popcount(uint64_t b)
{
    return __builtin_popcountll(b);
}
static inline bool tb_many(uint64_t b)
{
    return (b & (b - 1)) != 0;
}

static inline uint64_t tb_rook_attacks(int sq, uint64_t occ)
{
    const struct tb_chess_magic *m = &tb_chess__rook_magics[sq];
    return tb_chess__slider_table[m->offset + (((occ & m->mask) * m->magic) >> m->shift)];
}

static inline uint64_t tb_bishop_attacks(int sq, uint64_t occ)
{
    const struct tb_chess_magic *m = &tb_chess__bishop_magics[sq];
    return tb_chess__slider_table[m->offset + (((occ & m->mask) * m->magic) >> m->shift)];
}

static inline uint64_t tb_pieces(const tb_chess_pos *pos, int color, int type)
{
    return pos->by_color[color] & pos->by_type[type];
}

/* Pieces of colour by that attack sq, with occupancy occ. */
static inline uint64_t tb_attackers(const tb_chess_pos *pos, int sq, int by, uint64_t occ)
{
    const uint64_t *t = pos->by_type;
    uint64_t diag = t[TB_CHESS_BISHOP] | t[TB_CHESS_QUEEN];
    uint64_t orth = t[TB_CHESS_ROOK] | t[TB_CHESS_QUEEN];
    return pos->by_color[by] &
           ((tb_chess__pawn_attacks[by ^ 1][sq] & t[TB_CHESS_PAWN]) |
            (tb_chess__knight_attacks[sq] & t[TB_CHESS_KNIGHT]) |
            (tb_chess__king_attacks[sq] & t[TB_CHESS_KING]) | (tb_bishop_attacks(sq, occ) & diag) |
            (tb_rook_attacks(sq, occ) & orth));
}

/* Writes the legal moves to out (room for TB_CHESS_MAX_MOVES); returns the count. */
int tb_chess__gen(const tb_chess_pos *pos, tb_chess_move *out);

/* Is an en passant capture legal here? (9.2.2 identity, FEN output) */
bool tb_chess__ep_legal(const tb_chess_pos *pos);

/* Zobrist key of pos computed from scratch. */
uint64_t tb_chess__compute_key(const tb_chess_pos *pos);

/* Places / removes a piece, keeping bitboards and key in step (king_sq is the caller's). */
static inline void tb_chess_put(tb_chess_pos *pos, int sq, int piece)
{
    uint64_t b = TB_CHESS_BIT(sq);
    pos->board[sq] = (uint8_t)piece;
    pos->by_color[TB_CHESS_PIECE_COLOR(piece)] |= b;
    pos->by_type[TB_CHESS_PIECE_TYPE(piece)] |= b;
    pos->key ^= tb_chess__zobrist_psq[piece][sq];
}

static inline void tb_chess_remove(tb_chess_pos *pos, int sq)
{
    int piece = pos->board[sq];
    uint64_t b = TB_CHESS_BIT(sq);
    pos->board[sq] = 0;
    pos->by_color[TB_CHESS_PIECE_COLOR(piece)] &= ~b;
    pos->by_type[TB_CHESS_PIECE_TYPE(piece)] &= ~b;
    pos->key ^= tb_chess__zobrist_psq[piece][sq];
}

/* The part of every move's make that comes first: the undo record, the e.p. square cleared,
 * the halfmove count advanced (make resets it for captures and pawn moves). */
static inline void tb_chess__begin_make(tb_chess_pos *pos, tb_chess_undo *undo)
{
    undo->key = pos->key;
    undo->ep = pos->ep;
    undo->halfmove = pos->halfmove;
    memcpy(undo->castle_rook, pos->castle_rook, 4);
    undo->captured = 0;
    if (pos->ep != TB_CHESS_NOSQ) {
        pos->key ^= tb_chess__zobrist_ep[pos->ep];
        pos->ep = TB_CHESS_NOSQ;
    }
    pos->halfmove++;
}

/* Where the rook lands when castling puts the king on kto: the f- or d-file (Guideline II). */
static inline int tb_chess_castle_rook_to(int kto)
{
    return TB_CHESS_FILE(kto) == 6 ? kto - 1 : kto + 1;
}

/* An empty board with no rights; callers then place pieces. */
void tb_chess__pos_clear(tb_chess_pos *pos);

/* Fills out with the back rank of Chess960 position number (0..959) as piece types a..h. */
void tb_chess__960_back_rank(int number, uint8_t out[8]);

#endif /* CHESS_INTERNAL_H */
