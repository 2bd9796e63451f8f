/* fen.c - reading and writing FEN, with X-FEN and Shredder-FEN castling fields.
 *
 * The reader refuses anything that is not a position the Laws could allow (3.10) as far as a
 * single position can tell, names the problem, and never changes pos on error. */
#include <stdio.h>
#include <stdlib.h>

#include "chess_internal.h"

static const char *const color_name[2] = {"White", "Black"};
static const char *const right_name[4] = {"white king-side", "white queen-side", "black king-side",
                                          "black queen-side"};

struct field {
    const char *s;
    int len;
    int col; /* 1-based column in the FEN */
};

/* By piece code: white pawn 1 ... king 6, black pawn 9 ... king 14. */
static const char piece_chars[] = " PNBRQK  pnbrqk ";

int tb_chess_piece_from_fen(char c)
{
    if (c == ' ')
        return 0;
    for (int i = 1; i < 16; i++)
        if (piece_chars[i] == c)
            return i;
    return 0;
}

char tb_chess_piece_to_fen(int piece)
{
    if (piece <= 0 || piece >= 16 || piece_chars[piece] == ' ')
        return 0;
    return piece_chars[piece];
}

static int parse_board(tb_chess_pos *pos, const struct field *f, struct tb_error *err)
{
    int rank = 7, file = 0;
    for (int i = 0; i < f->len; i++) {
        char c = f->s[i];
        int col = f->col + i;
        if (c == '/') {
            if (file != 8)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                       "FEN board: rank %d is too short (%d squares, column %d)",
                                       rank + 1, file, col);
            if (--rank < 0)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                       "FEN board: more than 8 ranks (column %d)", col);
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                       "FEN board: rank %d is too long (%d squares, column %d)",
                                       rank + 1, file, col);
        } else {
            int p = tb_chess_piece_from_fen(c);
            if (!p)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                       "FEN board: bad piece letter '%c' on rank %d (column %d)", c,
                                       rank + 1, col);
            if (file >= 8)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                       "FEN board: rank %d is too long (more than 8 squares, "
                                       "column %d)",
                                       rank + 1, col);
            tb_chess_put(pos, TB_CHESS_SQ(file, rank), p);
            file++;
        }
    }
    if (file != 8)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col + f->len,
                               "FEN board: rank %d is too short (%d squares)", rank + 1, file);
    if (rank != 0)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col + f->len,
                               "FEN board: only %d ranks; 8 are needed", 8 - rank);
    return TB_OK;
}

/* Exactly one king each (3.10), no pawn on rank 1 or 8 (3.7.5), and no more pieces than
 * promotions could have made. */
static int check_material(tb_chess_pos *pos, unsigned flags, struct tb_error *err)
{
    static const int one_set[7] = {0, 8, 2, 2, 2, 1, 1};
    /* With drops a board can hold pieces of both sets of its colour. */
    const int sets = (flags & TB_CHESS_FEN_DROPS) ? 2 : 1;
    for (int c = 0; c < 2; c++) {
        int kings = tb_popcount(tb_pieces(pos, c, TB_CHESS_KING));
        if (kings != 1)
            return tb_error_set(err, TB_ERR_PARSE,
                                "FEN board: %s has %d kings; exactly 1 is needed", color_name[c],
                                kings);
        pos->king_sq[c] = (uint8_t)tb_lsb(tb_pieces(pos, c, TB_CHESS_KING));
        uint64_t bad = tb_pieces(pos, c, TB_CHESS_PAWN) & (TB_RANK1 | TB_RANK8);
        if (bad) {
            char sq[3];
            return tb_error_set(err, TB_ERR_PARSE,
                                "FEN board: %s pawn on %s; pawns cannot stand on rank 1 or 8",
                                color_name[c], tb_chess_square_name(tb_lsb(bad), sq));
        }
        int pawns = tb_popcount(tb_pieces(pos, c, TB_CHESS_PAWN)), extra = 0;
        for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_QUEEN; t++) {
            int n = tb_popcount(tb_pieces(pos, c, t));
            if (n > sets * one_set[t])
                extra += n - sets * one_set[t];
        }
        if (pawns > sets * 8 || extra > sets * 8 - pawns)
            return tb_error_set(err, TB_ERR_PARSE,
                                "FEN board: %s has %d pawns and %d pieces beyond the initial "
                                "set%s; promotions cannot produce that",
                                color_name[c], pawns, extra, sets == 2 ? "s" : "");
    }
    return TB_OK;
}

/* One castling letter: K/Q/k/q (X-FEN: the outermost rook on that side) or a rook's file
 * (Shredder-FEN / X-FEN). A file letter, or a right that standard chess cannot have (king off the
 * e-file, rook off the corner), makes the position Chess960; cols[right] keeps the letter's column
 * for the checks that need both colours. */
static int parse_castle_char(tb_chess_pos *pos, char c, int col, int cols[4], struct tb_error *err)
{
    int color = (c >= 'a' && c <= 'z') ? TB_CHESS_BLACK : TB_CHESS_WHITE;
    char u = (char)(color == TB_CHESS_BLACK ? c - 32 : c);
    int back = color == TB_CHESS_WHITE ? 0 : 7, ksq = pos->king_sq[color];
    int kfile = TB_CHESS_FILE(ksq);
    int rook = TB_CHESS_PIECE(color, TB_CHESS_ROOK), rfile = -1, right;
    const char *who = color == 0 ? "white" : "black";
    char ksq_name[3];
    tb_chess_square_name(ksq, ksq_name);
    if (u != 'K' && u != 'Q' && (u < 'A' || u > 'H'))
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: bad letter '%c' (column %d)", c, col);
    if (TB_CHESS_RANK(ksq) != back)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: '%c' but the %s king is not on rank %d "
                               "(column %d)",
                               c, who, back + 1, col);
    /* Guideline II: the king starts between the two rooks, so a king that may still castle
     * never stands on the a- or h-file. */
    if (kfile == 0 || kfile == 7)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: '%c' but the %s king on %s is not between "
                               "two rooks' files; a king on the a- or h-file cannot castle "
                               "(column %d)",
                               c, who, ksq_name, col);
    if (u == 'K') {
        for (int f = 7; f > kfile && rfile < 0; f--)
            if (pos->board[TB_CHESS_SQ(f, back)] == rook)
                rfile = f;
        right = 0;
    } else if (u == 'Q') {
        for (int f = 0; f < kfile && rfile < 0; f++)
            if (pos->board[TB_CHESS_SQ(f, back)] == rook)
                rfile = f;
        right = 1;
    } else {
        rfile = u - 'A';
        if (rfile == kfile)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                                   "FEN castling field: '%c' names the file of the %s king on "
                                   "%s, not a rook's (column %d)",
                                   c, who, ksq_name, col);
        if (pos->board[TB_CHESS_SQ(rfile, back)] != rook)
            rfile = -1;
        right = rfile >= 0 && rfile < kfile;
        pos->chess960 = true; /* a rook's file is Chess960 notation (Shredder-FEN, X-FEN) */
    }
    if (rfile < 0)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: '%c' but no %s rook on rank %d %s "
                               "(column %d)",
                               c, who, back + 1,
                               u == 'K'   ? "on the king's h-side"
                               : u == 'Q' ? "on the king's a-side"
                                          : "on that file",
                               col);
    right += color * 2;
    if (kfile != 4 || rfile != (right & 1 ? 0 : 7))
        pos->chess960 = true; /* only Chess960 (Guideline II) castles like this */
    if (pos->castle_rook[right] != TB_CHESS_NOSQ) {
        char have[3];
        tb_chess_square_name(pos->castle_rook[right], have);
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: '%c' gives the %s right again (already with "
                               "the rook on %s); the king castles with one rook on each side "
                               "(column %d)",
                               c, right_name[right], have, col);
    }
    pos->castle_rook[right] = (uint8_t)TB_CHESS_SQ(rfile, back);
    cols[right] = col;
    return TB_OK;
}

/* Both colours keep rights only while king and rooks are unmoved, and the Chess960 arrays are
 * mirrored (Guideline II): then the kings, and the rooks of the same side, share their files. */
static int check_mirrored(const tb_chess_pos *pos, const int cols[4], struct tb_error *err)
{
    bool white = pos->castle_rook[TB_CHESS_CR_WK] != TB_CHESS_NOSQ ||
                 pos->castle_rook[TB_CHESS_CR_WQ] != TB_CHESS_NOSQ;
    bool black = pos->castle_rook[TB_CHESS_CR_BK] != TB_CHESS_NOSQ ||
                 pos->castle_rook[TB_CHESS_CR_BQ] != TB_CHESS_NOSQ;
    char a[3], b[3];
    if (!white || !black)
        return TB_OK;
    int wk = pos->king_sq[TB_CHESS_WHITE], bk = pos->king_sq[TB_CHESS_BLACK];
    if (TB_CHESS_FILE(wk) != TB_CHESS_FILE(bk)) {
        int col = cols[2] > 0 ? cols[2] : cols[3];
        return tb_error_set_at(err, TB_ERR_PARSE, 1, col,
                               "FEN castling field: both sides keep castling rights but the "
                               "kings stand on %s and %s; unmoved kings share their file "
                               "(column %d)",
                               tb_chess_square_name(wk, a), tb_chess_square_name(bk, b), col);
    }
    for (int i = 0; i < 2; i++) {
        int w = pos->castle_rook[i], k = pos->castle_rook[i + 2];
        if (w == TB_CHESS_NOSQ || k == TB_CHESS_NOSQ || TB_CHESS_FILE(w) == TB_CHESS_FILE(k))
            continue;
        return tb_error_set_at(err, TB_ERR_PARSE, 1, cols[i + 2],
                               "FEN castling field: the %s castling rooks stand on %s and %s; "
                               "unmoved rooks share their file (column %d)",
                               i ? "queen-side" : "king-side", tb_chess_square_name(w, a),
                               tb_chess_square_name(k, b), cols[i + 2]);
    }
    return TB_OK;
}

static int parse_castling(tb_chess_pos *pos, const struct field *f, struct tb_error *err)
{
    int cols[4] = {0, 0, 0, 0};
    if (f->len == 1 && f->s[0] == '-')
        return TB_OK;
    if (f->len > 4)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN castling field: '%.*s' has more than 4 letters (column %d)",
                               f->len > 8 ? 8 : f->len, f->s, f->col);
    for (int i = 0; i < f->len; i++) {
        int rc = parse_castle_char(pos, f->s[i], f->col + i, cols, err);
        if (rc)
            return rc;
    }
    int rc = check_mirrored(pos, cols, err);
    if (rc)
        return rc;
    for (int i = 0; i < 4; i++)
        if (pos->castle_rook[i] != TB_CHESS_NOSQ)
            pos->key ^= tb_chess__zobrist_castle[i][pos->castle_rook[i]];
    return TB_OK;
}

/* 3.7.4: the target square was just passed over by a double push of the side not to move. */
static int parse_ep(tb_chess_pos *pos, const struct field *f, struct tb_error *err)
{
    if (f->len == 1 && f->s[0] == '-')
        return TB_OK;
    int sq = f->len == 2 ? tb_chess_square_parse(f->s) : -1;
    if (sq < 0)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN e.p. field: '%.*s' is not a square or '-' (column %d)",
                               f->len > 8 ? 8 : f->len, f->s, f->col);
    char name[3], pawn_sq[3], behind_sq[3];
    tb_chess_square_name(sq, name);
    int us = pos->side, them = us ^ 1, want_rank = us == TB_CHESS_WHITE ? 5 : 2;
    if (TB_CHESS_RANK(sq) != want_rank)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN e.p. field: %s is on the wrong rank; with %s to move it must "
                               "be on rank %d",
                               name, color_name[us], want_rank + 1);
    int fwd = them == TB_CHESS_WHITE ? 8 : -8; /* the direction the opponent's pawns go */
    tb_chess_square_name(sq + fwd, pawn_sq);
    tb_chess_square_name(sq - fwd, behind_sq);
    if (pos->board[sq + fwd] != TB_CHESS_PIECE(them, TB_CHESS_PAWN))
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN e.p. field: %s, but no %s pawn on %s that could have just "
                               "moved two squares",
                               name, them == 0 ? "white" : "black", pawn_sq);
    if (pos->board[sq] || pos->board[sq - fwd])
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN e.p. field: %s, but %s is occupied, so no pawn can have "
                               "just passed it",
                               name, pos->board[sq] ? name : behind_sq);
    pos->ep = (uint8_t)sq;
    pos->key ^= tb_chess__zobrist_ep[sq];
    return TB_OK;
}

static int parse_counter(const struct field *f, const char *what, long min, long *out,
                         struct tb_error *err)
{
    long v = 0;
    if (f->len == 0 || f->len > 5)
        v = -1;
    for (int i = 0; i < f->len && v >= 0; i++)
        v = (f->s[i] >= '0' && f->s[i] <= '9') ? v * 10 + (f->s[i] - '0') : -1;
    if (v < min || v > 65535)
        return tb_error_set_at(err, TB_ERR_PARSE, 1, f->col,
                               "FEN %s: '%.*s' is not a number from %ld to 65535 (column %d)", what,
                               f->len > 8 ? 8 : f->len, f->s, min, f->col);
    *out = v;
    return TB_OK;
}

int tb_chess_pos_from_fen(tb_chess_pos *pos, const char *fen, unsigned flags, struct tb_error *err)
{
    struct field fields[7];
    int n = 0;
    if (!pos || !fen)
        return tb_error_set(err, TB_ERR_ARG, "FEN: no text");
    for (const char *p = fen; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            p++;
        if (n < 7)
            fields[n] = (struct field){start, (int)(p - start), (int)(start - fen) + 1};
        n++;
    }
    if (n != 6 && n != 4)
        return tb_error_set(err, TB_ERR_PARSE,
                            "FEN has %d fields; 6 are needed (or 4, without the counters)", n);

    tb_chess_pos p;
    tb_chess__pos_clear(&p);
    p.chess960 = (flags & TB_CHESS_FEN_960) != 0;
    int rc = parse_board(&p, &fields[0], err);
    if (!rc)
        rc = check_material(&p, flags, err);
    if (rc)
        return rc;

    if (fields[1].len != 1 || (fields[1].s[0] != 'w' && fields[1].s[0] != 'b'))
        return tb_error_set_at(err, TB_ERR_PARSE, 1, fields[1].col,
                               "FEN side to move: '%.*s' is neither 'w' nor 'b' (column %d)",
                               fields[1].len > 8 ? 8 : fields[1].len, fields[1].s, fields[1].col);
    p.side = fields[1].s[0] == 'w' ? TB_CHESS_WHITE : TB_CHESS_BLACK;
    if (p.side == TB_CHESS_BLACK)
        p.key ^= tb_chess__zobrist_side;

    if ((rc = parse_castling(&p, &fields[2], err)) || (rc = parse_ep(&p, &fields[3], err)))
        return rc;

    if (n == 6) {
        long half, full;
        if ((rc = parse_counter(&fields[4], "halfmove clock", 0, &half, err)) ||
            (rc = parse_counter(&fields[5], "fullmove number", 1, &full, err)))
            return rc;
        p.halfmove = (uint16_t)half;
        p.fullmove = (uint16_t)full;
    }

    /* 3.9 / 3.10: the side that has just moved cannot be in check. */
    int them = p.side ^ 1;
    if (tb_attackers(&p, p.king_sq[them], p.side, tb_chess_occupancy(&p)))
        return tb_error_set(err, TB_ERR_PARSE,
                            "FEN: the side not to move (%s) is in check, which no legal move "
                            "can leave",
                            color_name[them]);
    *pos = p;
    return TB_OK;
}

/* Does the right look like standard chess (king on the e-file, rook in its corner)? */
static bool standard_right(const tb_chess_pos *pos, int i)
{
    int rsq = pos->castle_rook[i];
    return TB_CHESS_FILE(pos->king_sq[i >> 1]) == 4 && TB_CHESS_FILE(rsq) == (i & 1 ? 0 : 7);
}

/* X-FEN: K/Q when the castling rook is the outermost one on its side, else its file. A Chess960
 * position whose rights all look standard is written in Shredder-FEN (file letters), the only
 * way its FEN can say that it is Chess960. */
static char castle_char(const tb_chess_pos *pos, int i, bool shredder)
{
    int color = i >> 1, rsq = pos->castle_rook[i], back = TB_CHESS_RANK(rsq);
    int rook = TB_CHESS_PIECE(color, TB_CHESS_ROOK);
    bool outermost = !shredder;
    if (i & 1) {
        for (int f = 0; f < TB_CHESS_FILE(rsq); f++)
            outermost &= pos->board[TB_CHESS_SQ(f, back)] != rook;
    } else {
        for (int f = 7; f > TB_CHESS_FILE(rsq); f--)
            outermost &= pos->board[TB_CHESS_SQ(f, back)] != rook;
    }
    char c = outermost ? "KQ"[i & 1] : (char)('A' + TB_CHESS_FILE(rsq));
    return color == TB_CHESS_BLACK ? (char)(c + 32) : c;
}

int tb_chess_pos_to_fen(const tb_chess_pos *pos, char *buf, size_t len)
{
    char out[128];
    int n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int p = pos->board[TB_CHESS_SQ(file, rank)];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            out[n++] = tb_chess_piece_to_fen(p);
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (rank)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = pos->side == TB_CHESS_WHITE ? 'w' : 'b';
    out[n++] = ' ';
    int rights = 0;
    bool shredder = pos->chess960;
    for (int i = 0; i < 4; i++)
        if (pos->castle_rook[i] != TB_CHESS_NOSQ)
            shredder &= standard_right(pos, i);
    for (int i = 0; i < 4; i++) {
        if (pos->castle_rook[i] == TB_CHESS_NOSQ)
            continue;
        out[n++] = castle_char(pos, i, shredder);
        rights++;
    }
    if (!rights)
        out[n++] = '-';
    out[n++] = ' ';
    char ep[3];
    tb_chess_square_name(pos->ep, ep);
    n += snprintf(out + n, sizeof out - (size_t)n, "%s %u %u", ep, (unsigned)pos->halfmove,
                  (unsigned)pos->fullmove);
    if (!buf || len == 0)
        return TB_ERR_FULL;
    if ((size_t)n >= len) {
        memcpy(buf, out, len - 1);
        buf[len - 1] = 0;
        return TB_ERR_FULL;
    }
    memcpy(buf, out, (size_t)n + 1);
    return n;
}
