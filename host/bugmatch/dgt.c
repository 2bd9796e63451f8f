/* dgt.c - a DGT e-board in the match: it names every piece put down. The recogniser reads a
 * piece by what it moves as, but a promoted pawn keeps the pawn's shape (3.1): each piece the
 * board reports is passed on as the piece it stands for. A pawn picked up where a promoted pawn
 * stood moves as its piece; a pawn from the board put on the last rank is a promotion whose
 * piece is chosen (its code withheld, as on a reed board); a piece from beside the board is
 * what it shows. */
#include <stdlib.h>
#include <string.h>

#include "bugmatch_internal.h"

#define AIR_MAX 32

/* A piece off the board: the code it shows, the piece it stands for, and the moves made on the
 * board before it was lifted. */
struct held {
    uint8_t shape, value;
    unsigned long moves;
};

struct tb_bugmatch__dgt {
    uint8_t shape[64]; /* the code the board's events left on each square, 0 empty */
    uint8_t value[64]; /* the piece each stands for, 0 unknown */
    struct held air[AIR_MAX];
    int nair;
    unsigned long moves; /* moves made on the board */
};

/* The position the board shows: the record's, with the move made and not yet completed. */
static void live(const tb_bugmatch *m, int b, tb_bug_pos *pos)
{
    *pos = m->rec->cur[b];
    if (m->game[b].pending) {
        tb_bug_undo undo;
        tb_bug_make(pos, m->game[b].pend_move, &undo);
    }
}

static uint8_t shape_of(const tb_bug_pos *pos, int sq)
{
    int p = pos->chess.board[sq];
    /* 3.1: a promoted pawn shows as a pawn */
    if (p && (pos->promoted & TB_CHESS_BIT(sq)))
        return (uint8_t)TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(p), TB_CHESS_PAWN);
    return (uint8_t)p;
}

static void drop_held(struct tb_bugmatch__dgt *d, int i)
{
    memmove(d->air + i, d->air + i + 1, (size_t)(d->nair - i - 1) * sizeof d->air[0]);
    d->nair--;
}

/* The piece taken leaves the pieces off the board: the one standing for it, else one of its
 * shape. */
static void forget(struct tb_bugmatch__dgt *d, int shape, int value)
{
    int at = -1;
    for (int i = d->nair - 1; i >= 0; i--) {
        if (d->air[i].shape != shape)
            continue;
        if (d->air[i].value == value) {
            at = i;
            break;
        }
        at = at < 0 ? i : at;
    }
    if (at >= 0)
        drop_held(d, at);
}

int tb_bugmatch__dgt_new(tb_bugmatch *m, int b)
{
    m->game[b].dgt = calloc(1, sizeof *m->game[b].dgt);
    if (!m->game[b].dgt)
        return TB_ERR_MEM;
    tb_bugmatch__dgt_reset(m, b);
    return TB_OK;
}

void tb_bugmatch__dgt_reset(tb_bugmatch *m, int b)
{
    struct tb_bugmatch__dgt *d = m->game[b].dgt;
    tb_bug_pos pos;
    live(m, b, &pos);
    for (int sq = 0; sq < 64; sq++) {
        d->value[sq] = pos.chess.board[sq];
        d->shape[sq] = shape_of(&pos, sq);
    }
    d->nair = 0;
}

void tb_bugmatch__dgt_lift(tb_bugmatch *m, int b, int square)
{
    struct tb_bugmatch__dgt *d = m->game[b].dgt;
    if (!d->shape[square])
        return;
    if (d->nair == AIR_MAX) { /* more pieces off than a hand holds: forget the oldest */
        memmove(d->air, d->air + 1, (AIR_MAX - 1) * sizeof d->air[0]);
        d->nair--;
    }
    /* a piece whose meaning was open (a pawn set down on the last rank) is what it shows */
    int value = d->value[square] ? d->value[square] : d->shape[square];
    d->air[d->nair++] = (struct held){d->shape[square], (uint8_t)value, d->moves};
    d->shape[square] = d->value[square] = 0;
}

int tb_bugmatch__dgt_place(tb_bugmatch *m, int b, int square, int piece)
{
    struct tb_bugmatch__dgt *d = m->game[b].dgt;
    int found = -1, value = piece;
    bool unsure = false;
    /* the piece picked up last of that shape; another one picked up for the same move and
     * standing for something else leaves it open */
    for (int i = d->nair - 1; piece && i >= 0; i--) {
        if (d->air[i].shape != piece)
            continue;
        if (found < 0)
            found = i;
        else
            unsure |= d->air[i].value != d->air[found].value && d->air[i].moves == d->moves;
    }
    if (found >= 0) { /* a piece picked up from the board stands for what it stood for */
        value = unsure ? 0 : d->air[found].value;
        drop_held(d, found);
    }
    int rank = square >> 3;
    /* 3.1: the pawn from the board stays a pawn on the last rank; its piece is chosen (4.2).
     * A pawn from beside the board there is a drop 2.5 refuses. */
    if (found >= 0 && TB_CHESS_PIECE_TYPE(value) == TB_CHESS_PAWN && (rank == 0 || rank == 7))
        value = 0;
    d->shape[square] = (uint8_t)piece;
    d->value[square] = (uint8_t)value;
    return value;
}

void tb_bugmatch__dgt_moved(tb_bugmatch *m, int b, tb_bug_move move)
{
    struct tb_bugmatch__dgt *d = m->game[b].dgt;
    tb_bug_pos pos, after;
    tb_bug_undo undo;
    live(m, b, &pos);
    after = pos;
    tb_bug_make(&after, move, &undo);
    int them = pos.chess.side ^ 1;
    /* what was lifted before the move before this one and is still off the board was put
     * aside (a wrong piece taken away, a piece taken earlier) */
    for (int i = d->nair - 1; i >= 0; i--)
        if (d->air[i].moves < d->moves)
            drop_held(d, i);
    d->moves++;
    for (int sq = 0; sq < 64; sq++) {
        int p = pos.chess.board[sq];
        /* the piece taken is off the board for good (2.1: the partner's now) */
        if (p && TB_CHESS_PIECE_COLOR(p) == them && after.chess.board[sq] != p)
            forget(d, shape_of(&pos, sq), p);
        /* the pawn on the promotion square stands for the piece chosen (3.1) */
        if (d->shape[sq] && after.chess.board[sq])
            d->value[sq] = after.chess.board[sq];
    }
}

int tb_bugmatch_snapshot(tb_bugmatch *m, int board, const uint8_t pieces[64], uint64_t ms)
{
    if (board < 0 || board >= TB_BUGMATCH_BOARDS || !m->game[board].dgt || !pieces)
        return TB_ERR_ARG;
    for (int sq = 0; sq < 64; sq++) {
        int t = TB_CHESS_PIECE_TYPE(pieces[sq]);
        if (pieces[sq] && (pieces[sq] > 14 || t == 0 || t == 7))
            return TB_ERR_ARG;
    }
    if (ms < m->now)
        return TB_ERR_STATE;
    const uint8_t *shape = m->game[board].dgt->shape;
    int n = 0, rc = TB_OK;
    /* what left its square first, then what arrived (a capture: the victim off, the piece on) */
    for (int sq = 0; sq < 64 && !rc; sq++)
        if (shape[sq] && shape[sq] != pieces[sq] && !(rc = tb_bugmatch_lift(m, board, sq, ms)))
            n++;
    for (int sq = 0; sq < 64 && !rc; sq++)
        if (pieces[sq] && shape[sq] != pieces[sq] &&
            !(rc = tb_bugmatch_place(m, board, sq, pieces[sq], ms)))
            n++;
    return rc ? rc : n;
}
