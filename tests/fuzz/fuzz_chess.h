/* fuzz_chess.h - chess helpers shared by the fuzz targets that produce positions. */
#ifndef TB_FUZZ_CHESS_H
#define TB_FUZZ_CHESS_H

#include <stdbool.h>
#include <string.h>

#include "tb_chess.h"

/* Field by field (struct padding is not part of a position). */
static inline bool tb_fuzz_same_pos(const tb_chess_pos *a, const tb_chess_pos *b)
{
    return memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->board, b->board, sizeof a->board) == 0 && a->side == b->side &&
           a->ep == b->ep && memcmp(a->castle_rook, b->castle_rook, sizeof a->castle_rook) == 0 &&
           memcmp(a->king_sq, b->king_sq, sizeof a->king_sq) == 0 && a->chess960 == b->chess960 &&
           a->halfmove == b->halfmove && a->fullmove == b->fullmove && a->key == b->key;
}

#endif /* TB_FUZZ_CHESS_H */
