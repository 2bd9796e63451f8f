/* notation.c - writing moves: piece letters, UCI, SAN and long algebraic notation (Appendix C). */
#include <string.h>

#include "notation_internal.h"
#include "tb_chess.h"

/* Appendix C: English K Q R B N, Dutch K D T L P (paard), German K D T L S (Springer). */
static const char piece_letters[3][7] = {
    {0, 0, 'N', 'B', 'R', 'Q', 'K'},
    {0, 0, 'P', 'L', 'T', 'D', 'K'},
    {0, 0, 'S', 'L', 'T', 'D', 'K'},
};

char tb_chess_piece_letter(int ptype, enum tb_chess_letters letters)
{
    if (ptype < TB_CHESS_KNIGHT || ptype > TB_CHESS_KING || (unsigned)letters > TB_CHESS_LETTERS_DE)
        return 0;
    return piece_letters[letters][ptype];
}

static void put_square(struct tb_chess__out *o, int sq)
{
    tb_chess__putc(o, (char)('a' + TB_CHESS_FILE(sq)));
    tb_chess__putc(o, (char)('1' + TB_CHESS_RANK(sq)));
}

bool tb_chess__is_capture(const tb_chess_pos *pos, tb_chess_move m)
{
    int kind = tb_chess_move_kind(m);
    if (kind == TB_CHESS_MK_CASTLE)
        return false;
    return kind == TB_CHESS_MK_EP || pos->board[tb_chess_move_to(m)] != 0;
}

static bool in_list(const tb_chess_movelist *list, tb_chess_move m)
{
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

int tb_chess_move_to_uci(const tb_chess_pos *pos, tb_chess_move m, char *buf, size_t len)
{
    struct tb_chess__out o;
    tb_chess__out_init(&o, buf, len);
    int to = tb_chess_move_to(m);
    /* Standard chess: the king's destination (e1g1); Chess960: king takes rook (e1h1). */
    if (tb_chess_move_is_castle(m) && !pos->chess960)
        to = tb_chess_move_king_to(m);
    put_square(&o, tb_chess_move_from(m));
    put_square(&o, to);
    if (tb_chess_move_promo(m))
        tb_chess__putc(&o, "  nbrq"[tb_chess_move_promo(m)]);
    return tb_chess__out_result(&o);
}

/* Castling side from the rook's position relative to the king (Guideline II covers 960). */
static void put_castle(struct tb_chess__out *o, tb_chess_move m, bool zero)
{
    bool king_side = TB_CHESS_FILE(tb_chess_move_to(m)) > TB_CHESS_FILE(tb_chess_move_from(m));
    if (zero)
        tb_chess__puts(o, king_side ? "0-0" : "0-0-0");
    else
        tb_chess__puts(o, king_side ? "O-O" : "O-O-O");
}

static void put_promo(struct tb_chess__out *o, tb_chess_move m, enum tb_chess_letters letters,
                      bool eq)
{
    int promo = tb_chess_move_promo(m);
    if (!promo)
        return;
    if (eq)
        tb_chess__putc(o, '=');
    tb_chess__putc(o, tb_chess_piece_letter(promo, letters));
}

void tb_chess__san_body(const tb_chess_pos *pos, const tb_chess_movelist *list, tb_chess_move m,
                        enum tb_chess_letters letters, unsigned flags, struct tb_chess__out *o)
{
    if (tb_chess_move_is_castle(m)) {
        put_castle(o, m, flags & TB_CHESS_SAN_ZERO);
        return;
    }
    int from = tb_chess_move_from(m), to = tb_chess_move_to(m);
    int ptype = TB_CHESS_PIECE_TYPE(pos->board[from]);
    bool capture = tb_chess__is_capture(pos, m);
    if (ptype == TB_CHESS_PAWN) {
        /* C.9: a pawn capture names the pawn's file. */
        if (capture)
            tb_chess__putc(o, (char)('a' + TB_CHESS_FILE(from)));
    } else {
        tb_chess__putc(o, tb_chess_piece_letter(ptype, letters));
        /* C.10: another piece of the same type can reach the square: the departure file if
         * that tells them apart, else the rank, else both. */
        bool other = false, same_file = false, same_rank = false;
        for (int i = 0; i < list->count; i++) {
            tb_chess_move x = list->moves[i];
            int xf = tb_chess_move_from(x);
            if (xf == from || tb_chess_move_to(x) != to || tb_chess_move_is_castle(x) ||
                TB_CHESS_PIECE_TYPE(pos->board[xf]) != ptype)
                continue;
            other = true;
            same_file |= TB_CHESS_FILE(xf) == TB_CHESS_FILE(from);
            same_rank |= TB_CHESS_RANK(xf) == TB_CHESS_RANK(from);
        }
        if (other && (!same_file || same_rank))
            tb_chess__putc(o, (char)('a' + TB_CHESS_FILE(from)));
        if (other && same_file)
            tb_chess__putc(o, (char)('1' + TB_CHESS_RANK(from)));
    }
    if (capture)
        tb_chess__putc(o, 'x');
    put_square(o, to);
    put_promo(o, m, letters, !(flags & TB_CHESS_SAN_NOEQ));
    if ((flags & TB_CHESS_SAN_EP) && tb_chess_move_kind(m) == TB_CHESS_MK_EP)
        tb_chess__puts(o, " e.p.");
}

void tb_chess__long_body(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                         struct tb_chess__out *o)
{
    if (tb_chess_move_is_castle(m)) {
        put_castle(o, m, true);
        return;
    }
    int from = tb_chess_move_from(m);
    char letter = tb_chess_piece_letter(TB_CHESS_PIECE_TYPE(pos->board[from]), letters);
    if (letter)
        tb_chess__putc(o, letter);
    put_square(o, from);
    if (tb_chess__is_capture(pos, m))
        tb_chess__putc(o, 'x');
    put_square(o, tb_chess_move_to(m));
    put_promo(o, m, letters, false);
}

/* "+" for check, "#" for mate (Appendix C). */
static void put_check(const tb_chess_pos *pos, tb_chess_move m, struct tb_chess__out *o)
{
    tb_chess_pos after = *pos;
    tb_chess_undo undo;
    tb_chess_make(&after, m, &undo);
    if (!tb_chess_in_check(&after))
        return;
    tb_chess_movelist replies;
    tb_chess__putc(o, tb_chess_gen_legal(&after, &replies) ? '+' : '#');
}

int tb_chess_move_to_san(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                         unsigned flags, char *buf, size_t len)
{
    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    if ((unsigned)letters > TB_CHESS_LETTERS_DE)
        return TB_ERR_ARG;
    if (!in_list(&list, m))
        return TB_ERR_ILLEGAL;
    struct tb_chess__out o;
    tb_chess__out_init(&o, buf, len);
    tb_chess__san_body(pos, &list, m, letters, flags, &o);
    put_check(pos, m, &o);
    return tb_chess__out_result(&o);
}

int tb_chess_move_to_long(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters,
                          char *buf, size_t len)
{
    if ((unsigned)letters > TB_CHESS_LETTERS_DE)
        return TB_ERR_ARG;
    if (!tb_chess_is_legal(pos, m))
        return TB_ERR_ILLEGAL;
    struct tb_chess__out o;
    tb_chess__out_init(&o, buf, len);
    tb_chess__long_body(pos, m, letters, &o);
    put_check(pos, m, &o);
    return tb_chess__out_result(&o);
}
