/* notation.c - SAN and UCI with drops ("N@f3"), and check/mate marks as the pools decide. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bug_internal.h"

static int copy_out(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (!buf || len == 0)
        return TB_ERR_FULL;
    if (n >= len) {
        memcpy(buf, s, len - 1);
        buf[len - 1] = 0;
        return TB_ERR_FULL;
    }
    memcpy(buf, s, n + 1);
    return (int)n;
}

/* The letter of a dropped piece; a pawn is "P" in English and has none in Dutch and German. */
static char drop_letter(int type, enum tb_chess_letters letters)
{
    if (type == TB_CHESS_PAWN)
        return letters == TB_CHESS_LETTERS_EN ? 'P' : 0;
    return tb_chess_piece_letter(type, letters);
}

int tb_bug_move_to_san(const tb_bug_pos *pos, tb_bug_move m, enum tb_chess_letters letters,
                       char *buf, size_t len)
{
    char out[32];
    if (tb_bug_move_is_drop(m)) {
        char l = drop_letter(tb_bug_move_drop_type(m), letters);
        /* 2.4: a drop never checks, so it never carries "+" or "#". */
        int n = 0;
        if (l)
            out[n++] = l;
        out[n++] = '@';
        tb_chess_square_name(tb_chess_move_to(m), out + n);
        return copy_out(out, buf, len);
    }
    int n = tb_chess_move_to_san(&pos->chess, m, letters, 0, out, sizeof out);
    if (n < 0)
        return n;
    while (n > 0 && (out[n - 1] == '+' || out[n - 1] == '#'))
        out[--n] = 0;
    tb_bug_pos after = *pos;
    tb_bug_undo undo;
    tb_bug_make(&after, m, &undo);
    if (tb_bug_in_check(&after))
        out[n++] = tb_bug_pos_state(&after) == TB_BUG_POS_CHECKMATE ? '#' : '+';
    out[n] = 0;
    return copy_out(out, buf, len);
}

/* "X@sq" with an optional letter; *type 0 when s is no drop. */
static int parse_drop(const tb_bug_pos *pos, const char *s, enum tb_chess_letters letters, bool uci,
                      tb_bug_move *out, struct tb_error *err)
{
    const char *at = strchr(s, '@');
    int type = TB_CHESS_PAWN;
    if (at - s > 1)
        return tb_error_set(err, TB_ERR_PARSE, "drop '%s': one piece letter before '@'", s);
    if (at - s == 1) {
        char c = uci ? (char)toupper((unsigned char)s[0]) : s[0];
        type = 0;
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
            if (c && c == drop_letter(t, uci ? TB_CHESS_LETTERS_EN : letters))
                type = t;
        if (!type)
            return tb_error_set(err, TB_ERR_PARSE, "drop '%s': '%c' is no piece that can be placed",
                                s, s[0]);
    }
    int sq = tb_chess_square_parse(at + 1);
    if (sq < 0)
        return tb_error_set(err, TB_ERR_PARSE, "drop '%s': no square after '@'", s);
    const char *tail = at + 3;
    while (*tail == '+' || *tail == '#' || (!uci && (*tail == '!' || *tail == '?')))
        tail++;
    if (*tail)
        return tb_error_set(err, TB_ERR_PARSE, "drop '%s': '%s' after the square", s, at + 3);
    enum tb_bug_drop_verdict v = tb_bug_drop_verdict(pos, type, sq);
    if (v != TB_BUG_DROP_OK) {
        char name[3];
        return tb_error_set(err, TB_ERR_ILLEGAL, "drop '%s' on %s is not allowed: %s: %s", s,
                            tb_chess_square_name(sq, name), tb_bug_drop_article(v),
                            tb_bug_drop_reason(v));
    }
    *out = tb_bug_move_drop(type, sq);
    return TB_OK;
}

int tb_bug_move_from_san(const tb_bug_pos *pos, const char *s, enum tb_chess_letters letters,
                         tb_bug_move *out, struct tb_error *err)
{
    if (!pos || !s || !out)
        return tb_error_set(err, TB_ERR_ARG, "move: no text");
    if (strchr(s, '@'))
        return parse_drop(pos, s, letters, false, out, err);
    tb_chess_move m;
    int rc = tb_chess_move_from_san(&pos->chess, s, letters, &m, err);
    if (rc == TB_OK)
        *out = m;
    return rc;
}

int tb_bug_move_to_uci(const tb_bug_pos *pos, tb_bug_move m, char *buf, size_t len)
{
    if (tb_bug_move_is_drop(m)) {
        char out[8], sq[3];
        snprintf(out, sizeof out, "%c@%s",
                 drop_letter(tb_bug_move_drop_type(m), TB_CHESS_LETTERS_EN),
                 tb_chess_square_name(tb_chess_move_to(m), sq));
        return copy_out(out, buf, len);
    }
    return tb_chess_move_to_uci(&pos->chess, m, buf, len);
}

int tb_bug_move_from_uci(const tb_bug_pos *pos, const char *s, tb_bug_move *out,
                         struct tb_error *err)
{
    if (!pos || !s || !out)
        return tb_error_set(err, TB_ERR_ARG, "move: no text");
    if (strchr(s, '@'))
        return parse_drop(pos, s, TB_CHESS_LETTERS_EN, true, out, err);
    tb_chess_move m;
    int rc = tb_chess_move_from_uci(&pos->chess, s, &m);
    if (rc == TB_ERR_PARSE)
        return tb_error_set(err, rc, "UCI move '%.16s' is malformed", s);
    if (rc == TB_ERR_ILLEGAL)
        return tb_error_set(err, rc, "UCI move '%.16s' is not legal here", s);
    if (rc == TB_OK)
        *out = m;
    return rc;
}
