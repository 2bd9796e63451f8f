/* irregular.c - the irregularities of article 7 in the record: an illegal move completed with
 * the clock pressed and kept as the board shows it (7.4), its taking back (7.4, 7.7), and the
 * piece of 7.7 taken from the other board. */
#include <stdio.h>
#include <string.h>

#include "bug_internal.h"

#define BIT(sq) TB_CHESS_BIT(sq)

const char *tb_bug_illegal_why(const tb_bug_pos *pos, tb_bug_move m)
{
    if (tb_bug_move_is_drop(m) || tb_chess_move_kind(m) != TB_CHESS_MK_NORMAL ||
        tb_chess_move_promo(m))
        return "only a piece moved from one square to another can stand as an illegal move";
    const tb_chess_pos *c = &pos->chess;
    int us = c->side, from = tb_chess_move_from(m), to = tb_chess_move_to(m);
    int p = c->board[from], q = c->board[to], type = TB_CHESS_PIECE_TYPE(p);
    if (!p || TB_CHESS_PIECE_COLOR(p) != us)
        return "no piece of the side to move left that square";
    if (from == to)
        return "the piece did not move";
    if (q && TB_CHESS_PIECE_COLOR(q) == us)
        return "a piece of the mover's stands where it went";
    if (q && TB_CHESS_PIECE_TYPE(q) == TB_CHESS_KING)
        return "a king is never taken";
    if (tb_bug_is_legal(pos, m))
        return "the move is legal";
    if (type == TB_CHESS_PAWN && (TB_CHESS_RANK(to) == 0 || TB_CHESS_RANK(to) == 7))
        return "a pawn on the last rank is a promotion, which needs its piece (3.1)";
    if (type == TB_CHESS_PAWN && (from ^ to) == 16) {
        /* the core reads a pawn's two-rank step as a double step (3.7.2): only one from its
         * first rank over an empty square can stand */
        int fwd = us == TB_CHESS_WHITE ? 8 : -8;
        if (to != from + 2 * fwd || TB_CHESS_RANK(from) != (us == TB_CHESS_WHITE ? 1 : 6) ||
            c->board[from + fwd])
            return "a pawn's jump of two ranks other than its double step cannot stand";
    }
    /* 3.9: with the mover's king left in check the game cannot go on (the king would be
     * taken); attack queries read the bitboards only */
    tb_chess_pos a = *c;
    a.board[from] = 0;
    a.board[to] = (uint8_t)p;
    a.by_color[us] ^= BIT(from) | BIT(to);
    a.by_type[type] ^= BIT(from) | BIT(to);
    if (q) {
        a.by_color[us ^ 1] &= ~BIT(to);
        a.by_type[TB_CHESS_PIECE_TYPE(q)] &= ~BIT(to);
    }
    int king = type == TB_CHESS_KING ? to : c->king_sq[us];
    if (tb_chess_attacked(&a, king, us ^ 1))
        return "it leaves the mover's king in check (3.9)";
    return NULL;
}

int tb_bug_pos_remove(tb_bug_pos *pos, int sq)
{
    if (!pos || sq < 0 || sq > 63)
        return TB_ERR_ARG;
    const tb_chess_pos *c = &pos->chess;
    int p = c->board[sq];
    if (!p || TB_CHESS_PIECE_TYPE(p) == TB_CHESS_KING)
        return TB_ERR_ARG;
    /* 3.2: a promoted pawn is a pawn in the hand */
    int shape =
        pos->promoted & BIT(sq) ? TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(p), TB_CHESS_PAWN) : p;
    tb_chess_pos a = *c;
    a.board[sq] = 0;
    a.by_color[TB_CHESS_PIECE_COLOR(p)] &= ~BIT(sq);
    a.by_type[TB_CHESS_PIECE_TYPE(p)] &= ~BIT(sq);
    for (int i = 0; i < 4; i++)
        if (a.castle_rook[i] == sq)
            a.castle_rook[i] = TB_CHESS_NOSQ; /* 3.8.2.1: that rook is gone */
    if (a.ep != TB_CHESS_NOSQ && (sq == a.ep + 8 || sq == a.ep - 8))
        a.ep = TB_CHESS_NOSQ; /* 3.7.4: the pawn that stepped twice is gone */
    /* the derived fields (key) from the board as it now stands; the reader checks it */
    char fen[128];
    tb_chess_pos fresh;
    tb_bug_pos next = *pos;
    if (tb_chess_pos_to_fen(&a, fen, sizeof fen) < 0 ||
        tb_chess_pos_from_fen(
            &fresh, fen, TB_CHESS_FEN_DROPS | (c->chess960 ? TB_CHESS_FEN_960 : 0), NULL) != TB_OK)
        return TB_ERR_ILLEGAL;
    next.chess = fresh;
    next.promoted &= ~BIT(sq);
    int rc = tb_bug_pool_add(&next, shape);
    if (rc)
        return rc;
    *pos = next;
    return TB_OK;
}

/* The piece an illegal move took, as it goes to the partner (3.2: a promoted pawn as a pawn). */
static int passed_piece(const tb_bug_pos *before, tb_bug_move m)
{
    int to = tb_chess_move_to(m), q = before->chess.board[to];
    if (!q)
        return 0;
    return before->promoted & BIT(to) ? TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(q), TB_CHESS_PAWN) : q;
}

int tb_bug__step(tb_bug_pos pos[2], struct tb_bug__open *st, const struct tb_bug_ply *p)
{
    int b = p->board;
    if (b > 1)
        return TB_ERR_STATE;
    switch (p->irregular) {
    case 0:
        if (!tb_bug_is_legal(&pos[b], p->move))
            return TB_ERR_STATE;
        st->open[b] = false; /* 7.5: a move played on accepts the illegal one before it */
        tb_bug__play(pos, b, p->move);
        return TB_OK;
    case TB_BUG_PLY_ILLEGAL:
        if (tb_bug_illegal_why(&pos[b], p->move))
            return TB_ERR_STATE;
        st->before[b] = pos[b];
        st->move[b] = p->move;
        st->open[b] = true;
        tb_bug__play(pos, b, p->move);
        return TB_OK;
    case TB_BUG_PLY_TAKEBACK: {
        if (!st->open[b] || st->move[b] != p->move)
            return TB_ERR_STATE;
        /* 7.7: the piece passed comes back from the partner's hand */
        int piece = passed_piece(&st->before[b], p->move);
        tb_bug_pos other = pos[b ^ 1];
        if (piece && tb_bug_pool_take(&other, piece) != TB_OK)
            return TB_ERR_NOTFOUND;
        pos[b ^ 1] = other;
        /* the board as before; its hands are what they are now */
        pos[b].chess = st->before[b].chess;
        pos[b].promoted = st->before[b].promoted;
        st->open[b] = false;
        return TB_OK;
    }
    case TB_BUG_PLY_REMOVED: {
        int sq = tb_chess_move_to(p->move);
        if (!st->open[b])
            return tb_bug_pos_remove(&pos[b], sq) ? TB_ERR_STATE : TB_OK;
        /* the board has an illegal move open: the piece is gone from the board before it too
         * (a takeback must not bring it back); not one of that move's squares */
        tb_bug_pos now = pos[b], before = st->before[b];
        int from = tb_chess_move_from(st->move[b]), to = tb_chess_move_to(st->move[b]);
        if (sq == from || sq == to || tb_bug_pos_remove(&now, sq) || tb_bug_pos_remove(&before, sq))
            return TB_ERR_STATE;
        pos[b] = now;
        st->before[b] = before;
        return TB_OK;
    }
    default:
        return TB_ERR_STATE;
    }
}

/* Replays the whole record and appends p if it plays there. */
static int push_irregular(tb_bug_record *rec, const struct tb_bug_ply *p, int fail)
{
    if (!rec || p->board > 1)
        return TB_ERR_ARG;
    if (rec->nplies >= TB_BUG_RECORD_MAX_PLIES)
        return TB_ERR_FULL;
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    struct tb_bug__open st = {0};
    for (int i = 0; i < rec->nplies; i++)
        if (tb_bug__step(pos, &st, &rec->plies[i]))
            return TB_ERR_STATE;
    int rc = tb_bug__step(pos, &st, p);
    if (rc)
        return rc == TB_ERR_NOTFOUND ? rc : fail;
    rec->plies[rec->nplies++] = *p;
    rec->cur[0] = pos[0];
    rec->cur[1] = pos[1];
    return TB_OK;
}

int tb_bug_record_push_illegal(tb_bug_record *rec, int board, tb_bug_move m, int32_t clock_ms)
{
    struct tb_bug_ply p = {(uint8_t)board, m, clock_ms, TB_BUG_PLY_ILLEGAL};
    return push_irregular(rec, &p, TB_ERR_ILLEGAL);
}

int tb_bug_record_push_takeback(tb_bug_record *rec, int board, tb_bug_move m)
{
    struct tb_bug_ply p = {(uint8_t)board, m, -1, TB_BUG_PLY_TAKEBACK};
    return push_irregular(rec, &p, TB_ERR_STATE);
}

int tb_bug_record_push_removed(tb_bug_record *rec, int board, int sq)
{
    if (sq < 0 || sq > 63)
        return TB_ERR_ARG;
    struct tb_bug_ply p = {(uint8_t)board, tb_chess_move_new(sq, sq, TB_CHESS_MK_NORMAL), -1,
                           TB_BUG_PLY_REMOVED};
    return push_irregular(rec, &p, TB_ERR_ILLEGAL);
}

/* ---- BPGN: "{A 7.4: illegal move} 12A. Bc1xh6", "{A 7.4: illegal move c1h6 taken back}",
 * "{B 7.7: piece on e5 handed back}" ------------------------------------------------------- */

int tb_bug__irregular_text(const struct tb_bug_ply *p, char *buf, size_t len)
{
    char a[3], b[3];
    int board = 'A' + p->board, to = tb_chess_move_to(p->move);
    switch (p->irregular) {
    case TB_BUG_PLY_ILLEGAL:
        return snprintf(buf, len, "{%c 7.4: illegal move}", board);
    case TB_BUG_PLY_TAKEBACK:
        return snprintf(buf, len, "{%c 7.4: illegal move %s%s taken back}", board,
                        tb_chess_square_name(tb_chess_move_from(p->move), a),
                        tb_chess_square_name(to, b));
    case TB_BUG_PLY_REMOVED:
        return snprintf(buf, len, "{%c 7.7: piece on %s handed back}", board,
                        tb_chess_square_name(to, a));
    default:
        return TB_ERR_ARG;
    }
}

int tb_bug_illegal_san(const tb_bug_pos *pos, tb_bug_move m, char *buf, size_t len)
{
    static const char letter[7] = {0, 0, 'N', 'B', 'R', 'Q', 'K'};
    char a[3], b[3];
    int from = tb_chess_move_from(m), to = tb_chess_move_to(m);
    int t = TB_CHESS_PIECE_TYPE(pos->chess.board[from]);
    char l[2] = {letter[t & 7], 0};
    return snprintf(buf, len, "%s%s%s%s", l, tb_chess_square_name(from, a),
                    pos->chess.board[to] ? "x" : "", tb_chess_square_name(to, b));
}

int tb_bug__irregular_comment(tb_bug_record *rec, const char *c, bool *illegal_next)
{
    if ((c[0] != 'A' && c[0] != 'B') || c[1] != ' ')
        return 0;
    int board = c[0] - 'A';
    char a[3], b[3];
    if (!strcmp(c + 2, "7.4: illegal move")) {
        *illegal_next = true;
        return 1;
    }
    if (sscanf(c + 2, "7.4: illegal move %2[a-h1-8]%2[a-h1-8] taken back", a, b) == 2) {
        int from = tb_chess_square_parse(a), to = tb_chess_square_parse(b);
        if (from < 0 || to < 0)
            return TB_ERR_PARSE;
        return tb_bug_record_push_takeback(rec, board,
                                           tb_chess_move_new(from, to, TB_CHESS_MK_NORMAL))
                   ? TB_ERR_ILLEGAL
                   : 1;
    }
    if (sscanf(c + 2, "7.7: piece on %2[a-h1-8] handed back", a) == 1) {
        int sq = tb_chess_square_parse(a);
        if (sq < 0)
            return TB_ERR_PARSE;
        return tb_bug_record_push_removed(rec, board, sq) ? TB_ERR_ILLEGAL : 1;
    }
    return 0;
}

int tb_bug__illegal_from_text(const char *s, tb_bug_move *out)
{
    /* "Bc1xh6", "c1h6": an optional piece letter, two squares, an optional "x" between */
    if (*s && strchr("NBRQK", *s))
        s++;
    char a[3] = {s[0], s[0] ? s[1] : 0, 0};
    if (strlen(s) < 4)
        return TB_ERR_PARSE;
    s += 2;
    if (*s == 'x' || *s == '-')
        s++;
    char b[3] = {s[0], s[1], 0};
    int from = tb_chess_square_parse(a), to = tb_chess_square_parse(b);
    if (from < 0 || to < 0 || s[2])
        return TB_ERR_PARSE;
    *out = tb_chess_move_new(from, to, TB_CHESS_MK_NORMAL);
    return TB_OK;
}
