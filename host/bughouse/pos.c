/* pos.c - the bughouse position: start, pools, and the bughouse FEN ("[pool]", "~"). */
#include <stdio.h>
#include <string.h>

#include "bug_internal.h"

static const char *const color_name[2] = {"White", "Black"};
static const char *const type_name[7] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

void tb_bug_pos_startpos(tb_bug_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    tb_chess_pos_startpos(&pos->chess);
}

bool tb_bug_pos_equal(const tb_bug_pos *a, const tb_bug_pos *b)
{
    const tb_chess_pos *x = &a->chess, *y = &b->chess;
    return memcmp(x->by_color, y->by_color, sizeof x->by_color) == 0 &&
           memcmp(x->by_type, y->by_type, sizeof x->by_type) == 0 &&
           memcmp(x->board, y->board, sizeof x->board) == 0 && x->side == y->side &&
           x->ep == y->ep && memcmp(x->castle_rook, y->castle_rook, sizeof x->castle_rook) == 0 &&
           memcmp(x->king_sq, y->king_sq, sizeof x->king_sq) == 0 && x->chess960 == y->chess960 &&
           x->halfmove == y->halfmove && x->fullmove == y->fullmove && x->key == y->key &&
           memcmp(a->pool, b->pool, sizeof a->pool) == 0 && a->promoted == b->promoted;
}

int tb_bug_pool_count(const tb_bug_pos *pos, int color)
{
    int n = 0;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        n += pos->pool[color & 1][t];
    return n;
}

int tb_bug_pool_add(tb_bug_pos *pos, int piece)
{
    int t = TB_CHESS_PIECE_TYPE(piece), c = TB_CHESS_PIECE_COLOR(piece);
    if (!pos || piece <= 0 || piece > 15 || t < TB_CHESS_PAWN || t > TB_CHESS_QUEEN)
        return TB_ERR_ARG;
    if (pos->pool[c][t] >= TB_BUG_POOL_MAX)
        return TB_ERR_FULL;
    pos->pool[c][t]++;
    return TB_OK;
}

int tb_bug_pool_take(tb_bug_pos *pos, int piece)
{
    int t = TB_CHESS_PIECE_TYPE(piece), c = TB_CHESS_PIECE_COLOR(piece);
    if (!pos || piece <= 0 || piece > 15 || t < TB_CHESS_PAWN || t > TB_CHESS_QUEEN)
        return TB_ERR_ARG;
    if (!pos->pool[c][t])
        return TB_ERR_NOTFOUND;
    pos->pool[c][t]--;
    return TB_OK;
}

int tb_bug__mobility_bound(const tb_chess_pos *pos)
{
    static const int best[7] = {0, 4, 8, 13, 14, 27, 10};
    int us = pos->side, n = 0;
    uint64_t own = pos->by_color[us];
    uint64_t seventh = us == TB_CHESS_WHITE ? 0x00FF000000000000ULL : 0x000000000000FF00ULL;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_KING; t++)
        n += best[t] * __builtin_popcountll(own & pos->by_type[t]);
    /* A pawn about to promote: three targets, four pieces each (3.7.5). */
    n += 8 * __builtin_popcountll(own & pos->by_type[TB_CHESS_PAWN] & seventh);
    return n;
}

/* Splits the board field: copies the board without "~" into board[], marking promoted squares,
 * and finds the pool text (brackets or a ninth rank). Columns are 1-based in the FEN. */
static int split_board(const char *fen, char *board, size_t cap, const char **pool, int *pool_len,
                       int *pool_col, uint64_t *promoted, size_t *rest, struct tb_error *err)
{
    size_t i = 0, n = 0;
    int rank = 7, file = 0, slashes = 0, last_sq = -1;
    *pool = NULL;
    *pool_len = 0;
    *promoted = 0;
    while (fen[i] == ' ')
        i++;
    for (; fen[i] && fen[i] != ' ' && fen[i] != '['; i++) {
        char c = fen[i];
        if (c == '/' && ++slashes == 8) {
            /* The ninth "rank" is the pool. */
            size_t s = i + 1;
            while (fen[i + 1] && fen[i + 1] != ' ')
                i++;
            *pool = fen + s;
            *pool_len = (int)(i + 1 - s);
            *pool_col = (int)s + 1;
            continue;
        }
        if (c == '~') {
            int p = last_sq >= 0 ? board[n - 1] : 0;
            int t = TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen((char)p));
            if (last_sq < 0 || t < TB_CHESS_KNIGHT || t > TB_CHESS_QUEEN)
                return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                       "bughouse FEN: '~' at column %d does not follow a knight, "
                                       "bishop, rook or queen (3.1: a promoted pawn moves as one)",
                                       (int)i + 1);
            *promoted |= TB_CHESS_BIT(last_sq);
            last_sq = -1;
            continue;
        }
        last_sq = -1;
        if (c == '/') {
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            if (rank >= 0 && file < 8)
                last_sq = TB_CHESS_SQ(file, rank);
            file++;
        }
        if (n + 1 >= cap)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                   "bughouse FEN: the board field is too long");
        board[n++] = c;
    }
    if (fen[i] == '[') {
        size_t s = ++i;
        while (fen[i] && fen[i] != ']')
            i++;
        if (!fen[i])
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)s,
                                   "bughouse FEN: the pool opened with '[' at column %d is not "
                                   "closed with ']'",
                                   (int)s);
        *pool = fen + s;
        *pool_len = (int)(i - s);
        *pool_col = (int)s + 1;
        i++;
        if (fen[i] && fen[i] != ' ')
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                   "bughouse FEN: '%c' at column %d after the pool; a blank "
                                   "should follow ']'",
                                   fen[i], (int)i + 1);
    }
    board[n] = 0;
    *rest = i;
    return TB_OK;
}

static int parse_pool(tb_bug_pos *p, const char *s, int len, int col, struct tb_error *err)
{
    for (int i = 0; i < len; i++) {
        int piece = tb_chess_piece_from_fen(s[i]), t = TB_CHESS_PIECE_TYPE(piece);
        if (s[i] == '-' && len == 1)
            break; /* "-" for an empty pool, as some writers put it */
        if (!piece || t == TB_CHESS_KING)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, col + i,
                                   "bughouse FEN pool: '%c' at column %d is %s; a pool holds "
                                   "pawns, knights, bishops, rooks and queens (2.1)",
                                   s[i], col + i, piece ? "a king" : "no piece letter");
        if (tb_bug_pool_add(p, piece) != TB_OK)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, col + i,
                                   "bughouse FEN pool: more than %d of %s's %ss", TB_BUG_POOL_MAX,
                                   color_name[TB_CHESS_PIECE_COLOR(piece)], type_name[t]);
    }
    return TB_OK;
}

/* Board and pool together hold no more than two sets of a colour: pawns (promoted ones count
 * as pawns, 3.1) at most 16, other pieces at most two sets' worth. */
static int check_two_sets(const tb_bug_pos *p, struct tb_error *err)
{
    static const int two_sets[6] = {0, 16, 4, 4, 4, 2};
    for (int c = 0; c < 2; c++) {
        uint64_t own = p->chess.by_color[c];
        int pawns = __builtin_popcountll(own & (p->chess.by_type[TB_CHESS_PAWN] | p->promoted)) +
                    p->pool[c][TB_CHESS_PAWN];
        if (pawns > 16)
            return tb_error_set(err, TB_ERR_PARSE,
                                "bughouse FEN: %s has %d pawns on the board (promoted ones "
                                "included) and in hand; two sets have 16",
                                color_name[c], pawns);
        for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_QUEEN; t++) {
            int n = __builtin_popcountll(own & p->chess.by_type[t] & ~p->promoted) + p->pool[c][t];
            if (n > two_sets[t])
                return tb_error_set(err, TB_ERR_PARSE,
                                    "bughouse FEN: %s has %d %ss on the board and in hand that "
                                    "are not promoted pawns; two sets have %d (mark a promoted "
                                    "pawn with '~', 3.1)",
                                    color_name[c], n, type_name[t], two_sets[t]);
        }
    }
    if (tb_bug__mobility_bound(&p->chess) > TB_CHESS_MAX_MOVES)
        return tb_error_set(err, TB_ERR_PARSE,
                            "bughouse FEN: the side to move has more pieces than the move list "
                            "can hold the moves of");
    return TB_OK;
}

int tb_bug_pos_from_fen(tb_bug_pos *pos, const char *fen, struct tb_error *err)
{
    char board[160], plain[400];
    const char *pool;
    int pool_len, pool_col = 0;
    uint64_t promoted;
    size_t rest = 0;
    if (!pos || !fen)
        return tb_error_set(err, TB_ERR_ARG, "bughouse FEN: no text");
    int rc =
        split_board(fen, board, sizeof board, &pool, &pool_len, &pool_col, &promoted, &rest, err);
    if (rc)
        return rc;
    size_t nb = strlen(board), nr = strlen(fen + rest);
    if (nb + nr + 1 > sizeof plain)
        return tb_error_set(err, TB_ERR_PARSE, "bughouse FEN: too long");
    memcpy(plain, board, nb);
    memcpy(plain + nb, fen + rest, nr + 1);

    tb_bug_pos p;
    memset(&p, 0, sizeof p);
    if ((rc = tb_chess_pos_from_fen(&p.chess, plain, TB_CHESS_FEN_DROPS, err)))
        return rc;
    p.promoted = promoted;
    if (pool && (rc = parse_pool(&p, pool, pool_len, pool_col, err)))
        return rc;
    if ((rc = check_two_sets(&p, err)))
        return rc;
    *pos = p;
    return TB_OK;
}

int tb_bug_pos_to_fen(const tb_bug_pos *pos, char *buf, size_t len)
{
    char out[TB_BUG_FEN_MAX], chess[128];
    int n = 0, sq = 56;
    for (int c = 0; c < 2; c++)
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
            if (pos->pool[c][t] > TB_BUG_POOL_MAX)
                return TB_ERR_ARG;
    tb_chess_pos_to_fen(&pos->chess, chess, sizeof chess);
    /* The core's board field, with "~" after each promoted pawn (3.1). */
    const char *p = chess;
    for (; *p != ' '; p++) {
        out[n++] = *p;
        if (*p == '/')
            sq -= 16;
        else if (*p >= '1' && *p <= '8')
            sq += *p - '0';
        else if (pos->promoted & TB_CHESS_BIT(sq++))
            out[n++] = '~';
    }
    out[n++] = '[';
    for (int c = 0; c < 2; c++)
        for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--)
            for (int k = 0; k < pos->pool[c][t]; k++)
                out[n++] = tb_chess_piece_to_fen(TB_CHESS_PIECE(c, t));
    out[n++] = ']';
    n += snprintf(out + n, sizeof out - (size_t)n, "%s", p);
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
