/* san.c - reading moves as people write them: SAN in English, Dutch or German letters
 * (Appendix C, with the usual variants) and UCI. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "notation_internal.h"
#include "tb_chess.h"

#define SAN_MAX 32

static const char *const piece_names[7] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

static int square_at(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return TB_CHESS_SQ(s[0] - 'a', s[1] - '1');
}

static int promo_kind(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'n':
        return TB_CHESS_MK_PROMO_N;
    case 'b':
        return TB_CHESS_MK_PROMO_B;
    case 'r':
        return TB_CHESS_MK_PROMO_R;
    case 'q':
        return TB_CHESS_MK_PROMO_Q;
    default:
        return -1;
    }
}

int tb_chess_move_from_uci(const tb_chess_pos *pos, const char *s, tb_chess_move *out)
{
    if (!pos || !s || !out)
        return TB_ERR_ARG;
    size_t n = strlen(s);
    if (n < 4 || n > 5)
        return TB_ERR_PARSE;
    int from = square_at(s), to = square_at(s + 2), promo = 0;
    if (from < 0 || to < 0)
        return TB_ERR_PARSE;
    if (n == 5) {
        int kind = promo_kind(s[4]);
        if (kind < 0)
            return TB_ERR_PARSE;
        promo = kind - TB_CHESS_MK_PROMO_N + TB_CHESS_KNIGHT;
    }
    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        tb_chess_move m = list.moves[i];
        if (tb_chess_move_from(m) != from || tb_chess_move_promo(m) != promo)
            continue;
        /* Castling: king takes rook always; the king's destination (e1g1) only in standard
         * chess, where it cannot be confused with an ordinary king move. */
        bool match = tb_chess_move_to(m) == to;
        if (tb_chess_move_is_castle(m) && !pos->chess960 && tb_chess_move_king_to(m) == to)
            match = true;
        if (match) {
            *out = m;
            return TB_OK;
        }
    }
    return TB_ERR_ILLEGAL;
}

/* Which piece type an upper-case letter names in a letter set, 0 if none. */
static int letter_type(char c, enum tb_chess_letters letters)
{
    for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_KING; t++)
        if (tb_chess_piece_letter(t, letters) == c)
            return t;
    return 0;
}

static bool strip_suffix_ci(char *t, size_t *n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (*n < k + 2)
        return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)t[*n - k + i]) != suffix[i])
            return false;
    *n -= k;
    t[*n] = '\0';
    return true;
}

/* Removes check, mate and annotation signs and white space from the end. */
static void strip_signs(char *t, size_t *n)
{
    while (*n && strchr("+#!? \t", t[*n - 1]))
        t[--*n] = '\0';
}

/* O-O, 0-0, O-O-O, 0-0-0 (letters O or digit 0, hyphens optional): 1 king side, 2 queen
 * side, 0 not castling. */
static int castle_side(const char *t)
{
    int os = 0;
    if (*t != 'O' && *t != '0' && *t != 'o')
        return 0;
    for (; *t; t++) {
        if (*t == 'O' || *t == '0' || *t == 'o')
            os++;
        else if (*t != '-')
            return 0;
    }
    return os == 2 ? 1 : os == 3 ? 2 : 0;
}

struct san_spec {
    int ptype;                /* piece that moves */
    int from_file, from_rank; /* -1 when not given */
    int to;
    int promo;    /* promotion piece type or 0 */
    bool capture; /* an 'x' or ':' was written */
};

/* Parses the body after signs and e.p. marks are gone. False for text that is no move. */
static bool parse_body(const char *t, enum tb_chess_letters letters, struct san_spec *sp)
{
    int files[4] = {0}, ranks[4] = {0}, kinds[4] = {0}, ntok = 0; /* kinds: 'f' file, 'r' rank */
    sp->ptype = TB_CHESS_PAWN;
    sp->from_file = sp->from_rank = sp->to = -1;
    sp->promo = 0;
    sp->capture = false;
    if (isupper((unsigned char)*t)) {
        sp->ptype = letter_type(*t, letters);
        if (!sp->ptype)
            return false;
        t++;
    }
    for (; *t; t++) {
        char c = *t;
        bool after_rank = ntok > 0 && kinds[ntok - 1] == 'r';
        bool last = t[1] == '\0' || (t[1] == ')' && t[2] == '\0');
        if (c == 'x' || c == ':') {
            sp->capture = true;
        } else if (c == '-') {
            continue;
        } else if ((c == '=' || c == '/' || c == '(') && after_rank && t[1]) {
            /* e8=Q, e8/Q, e8(Q) */
            int type = letter_type((char)toupper((unsigned char)t[1]), letters);
            if (type < TB_CHESS_KNIGHT || type > TB_CHESS_QUEEN)
                return false;
            sp->promo = type;
            t += 2;
            if (c == '(' && *t == ')')
                t++;
            if (*t != '\0')
                return false;
            break;
        } else if (after_rank && last && isalpha((unsigned char)c)) {
            /* e8Q, e8D, e8q: a promotion letter directly after the square */
            int type = letter_type((char)toupper((unsigned char)c), letters);
            if (type < TB_CHESS_KNIGHT || type > TB_CHESS_QUEEN)
                return false;
            sp->promo = type;
            break;
        } else if (c >= 'a' && c <= 'h' && ntok < 4) {
            files[ntok] = c - 'a';
            kinds[ntok++] = 'f';
        } else if (c >= '1' && c <= '8' && ntok < 4) {
            ranks[ntok] = c - '1';
            kinds[ntok++] = 'r';
        } else {
            return false;
        }
    }
    /* The destination is the last file + rank; before it at most a file, a rank or both. */
    if (ntok < 2 || kinds[ntok - 2] != 'f' || kinds[ntok - 1] != 'r')
        return false;
    sp->to = TB_CHESS_SQ(files[ntok - 2], ranks[ntok - 1]);
    int lead = ntok - 2;
    if (lead == 1) {
        if (kinds[0] == 'f')
            sp->from_file = files[0];
        else
            sp->from_rank = ranks[0];
    } else if (lead == 2) {
        if (kinds[0] != 'f' || kinds[1] != 'r')
            return false;
        sp->from_file = files[0];
        sp->from_rank = ranks[1];
    } else if (lead != 0) {
        return false;
    }
    return true;
}

static void append_move_list(char *msg, size_t len, const tb_chess_pos *pos,
                             const tb_chess_move *moves, int n, enum tb_chess_letters letters)
{
    size_t used = strlen(msg);
    for (int i = 0; i < n && used + 1 < len; i++) {
        char one[16];
        struct tb_chess__out o;
        tb_chess__out_init(&o, one, sizeof one);
        tb_chess__long_body(pos, moves[i], letters, &o);
        snprintf(msg + used, len - used, "%s%s", i ? ", " : "", one);
        used = strlen(msg);
    }
}

static int castle_from_san(const tb_chess_movelist *list, int side, const char *text,
                           tb_chess_move *out, struct tb_error *err)
{
    for (int i = 0; i < list->count; i++) {
        tb_chess_move m = list->moves[i];
        if (!tb_chess_move_is_castle(m))
            continue;
        bool king_side = TB_CHESS_FILE(tb_chess_move_to(m)) > TB_CHESS_FILE(tb_chess_move_from(m));
        if (king_side == (side == 1)) {
            *out = m;
            return TB_OK;
        }
    }
    return tb_error_set(err, TB_ERR_ILLEGAL, "%s is illegal: castling %s side is not possible here",
                        text, side == 1 ? "king" : "queen");
}

int tb_chess_move_from_san(const tb_chess_pos *pos, const char *s, enum tb_chess_letters letters,
                           tb_chess_move *out, struct tb_error *err)
{
    if (!pos || !s || !out || (unsigned)letters > TB_CHESS_LETTERS_DE)
        return tb_error_set(err, TB_ERR_ARG, "bad arguments to tb_chess_move_from_san");
    while (isspace((unsigned char)*s))
        s++;
    char text[SAN_MAX], t[SAN_MAX];
    size_t n = strlen(s);
    if (n == 0)
        return tb_error_set(err, TB_ERR_PARSE, "empty move");
    if (n >= SAN_MAX)
        return tb_error_set(err, TB_ERR_PARSE, "'%.24s...' is not a move: too long", s);
    memcpy(text, s, n + 1);
    while (n && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    memcpy(t, text, n + 1);

    /* Signs and a draw offer "(=)" (Appendix C) first, then an e.p. mark ("exd6 e.p.",
     * "exd6ep"), then signs again. */
    strip_signs(t, &n);
    if (strip_suffix_ci(t, &n, "(=)"))
        strip_signs(t, &n);
    if (n >= 3 && isdigit((unsigned char)t[n - 1]) == 0 &&
        (strip_suffix_ci(t, &n, "e.p.") || strip_suffix_ci(t, &n, "e.p") ||
         strip_suffix_ci(t, &n, "ep"))) {
        strip_signs(t, &n);
        if (!n || !isdigit((unsigned char)t[n - 1]))
            return tb_error_set(err, TB_ERR_PARSE, "'%s' is not a move", text);
    }

    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    int side = castle_side(t);
    if (side)
        return castle_from_san(&list, side, text, out, err);

    struct san_spec sp;
    if (!parse_body(t, letters, &sp))
        return tb_error_set(err, TB_ERR_PARSE, "'%s' is not a move", text);

    tb_chess_move found[TB_CHESS_MAX_MOVES];
    int nfound = 0;
    bool needs_promo = false;
    for (int i = 0; i < list.count; i++) {
        tb_chess_move m = list.moves[i];
        int from = tb_chess_move_from(m);
        if (tb_chess_move_is_castle(m) || tb_chess_move_to(m) != sp.to ||
            TB_CHESS_PIECE_TYPE(pos->board[from]) != sp.ptype)
            continue;
        if (sp.from_file >= 0 && TB_CHESS_FILE(from) != sp.from_file)
            continue;
        if (sp.from_rank >= 0 && TB_CHESS_RANK(from) != sp.from_rank)
            continue;
        /* A pawn without a departure file only goes straight ahead (C.9). */
        if (sp.ptype == TB_CHESS_PAWN && sp.from_file < 0 &&
            TB_CHESS_FILE(from) != TB_CHESS_FILE(sp.to))
            continue;
        if (sp.capture && !tb_chess__is_capture(pos, m))
            continue;
        if (tb_chess_move_promo(m) != sp.promo) {
            needs_promo |= sp.promo == 0;
            continue;
        }
        found[nfound++] = m;
    }
    if (nfound == 1) {
        *out = found[0];
        return TB_OK;
    }
    char to_name[3] = {(char)('a' + TB_CHESS_FILE(sp.to)), (char)('1' + TB_CHESS_RANK(sp.to)), 0};
    if (nfound > 1) {
        /* Listed by departure square, a1 first, so the message does not depend on the
         * generator's order. */
        for (int i = 1; i < nfound; i++)
            for (int j = i;
                 j > 0 && tb_chess_move_from(found[j - 1]) > tb_chess_move_from(found[j]); j--) {
                tb_chess_move x = found[j];
                found[j] = found[j - 1];
                found[j - 1] = x;
            }
        if (err) {
            tb_error_set(err, TB_ERR_ILLEGAL, "%s is ambiguous: ", text);
            append_move_list(err->msg, sizeof err->msg, pos, found, nfound, letters);
        }
        return TB_ERR_ILLEGAL;
    }
    if (needs_promo)
        return tb_error_set(err, TB_ERR_ILLEGAL,
                            "%s is incomplete: a pawn reaching %s must be promoted (=Q, =R, =B "
                            "or =N)",
                            text, to_name);
    if (sp.promo && sp.ptype != TB_CHESS_PAWN)
        return tb_error_set(err, TB_ERR_PARSE, "'%s' is not a move: only pawns promote", text);
    return tb_error_set(err, TB_ERR_ILLEGAL, "%s is illegal: no %s%s can %s %s", text,
                        piece_names[sp.ptype],
                        sp.from_file >= 0 || sp.from_rank >= 0 ? " from there" : "",
                        sp.capture ? "capture on" : "move to", to_name);
}

static bool looks_like_uci(const char *s)
{
    size_t n = strlen(s);
    return (n == 4 || n == 5) && square_at(s) >= 0 && square_at(s + 2) >= 0 &&
           (n == 4 || promo_kind(s[4]) >= 0);
}

int tb_chess_move_parse(const tb_chess_pos *pos, const char *s, tb_chess_move *out,
                        struct tb_error *err)
{
    if (!pos || !s || !out)
        return tb_error_set(err, TB_ERR_ARG, "bad arguments to tb_chess_move_parse");
    if (looks_like_uci(s)) {
        int rc = tb_chess_move_from_uci(pos, s, out);
        if (rc == TB_ERR_ILLEGAL)
            return tb_error_set(err, rc, "%s is illegal here", s);
        if (rc)
            return tb_error_set(err, rc, "'%s' is not a UCI move", s);
        return TB_OK;
    }
    return tb_chess_move_from_san(pos, s, TB_CHESS_LETTERS_EN, out, err);
}
