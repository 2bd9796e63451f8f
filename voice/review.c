/* review.c - the game by ear: past moves, the position, whose move, check, material and the
 * spoken scoresheet (D.2.7), in a pack's words. Pure: data in, text out. */
#include <stdio.h>
#include <string.h>

#include "voice_internal.h"

/* A ply's move phrase; a move template and its parts always fit. */
#define MOVE_TEXT_MAX 4096
#define NUMBER_TEXT   24

int tb_voice__put(char *buf, size_t len, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + n >= len)
        return TB_ERR_FULL;
    memcpy(buf + *pos, s, n + 1);
    *pos += n;
    return TB_OK;
}

static const char *side_word(const struct tb_voice_pack *pack, int color)
{
    return pack->value[color == TB_CHESS_BLACK ? K_W_BLACK : K_W_WHITE];
}

/* Sentences start with a capital ("white to move" -> "White to move"); only ASCII letters are
 * raised, the packs write their other capitals themselves. */
static void capitalise(char *s)
{
    for (char *p = s; *p; p++)
        if ((p == s || (p >= s + 2 && p[-1] == ' ' && p[-2] == '.')) && *p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
}

static int finish(char *buf)
{
    tb_voice__tidy(buf);
    capitalise(buf);
    return (int)strlen(buf);
}

/* ---- moves ---- */

/* The position before ply `ply` of game, replayed from its start. */
static int replay(const tb_chess_game *game, int ply, tb_chess_pos *pos)
{
    *pos = game->start;
    for (int i = 0; i < ply; i++) {
        if (!tb_chess_is_legal(pos, game->moves[i]))
            return TB_ERR_STATE;
        tb_chess_undo u;
        tb_chess_make(pos, game->moves[i], &u);
    }
    return TB_OK;
}

/* Appends "Zug 12, Weiß: ..." for the ply played from pos (which is then advanced). */
static int put_ply(const struct tb_voice_pack *pack, const tb_chess_game *game, int ply,
                   tb_chess_pos *pos, enum tb_voice_form form, char *buf, size_t len, size_t *at)
{
    char move[MOVE_TEXT_MAX], n[NUMBER_TEXT];
    tb_chess_move m = game->moves[ply];
    if (tb_voice_phrase_move(pack, pos, m, form, move, sizeof move) < 0)
        return TB_ERR_STATE;
    /* The move number as the scoresheet has it (a game from a FEN starts at its fullmove). */
    int before = ply + (game->start.side == TB_CHESS_BLACK);
    snprintf(n, sizeof n, "%d", game->start.fullmove + before / 2);
    static const char *const names[] = {"n", "side", "move"};
    const char *values[] = {n, side_word(pack, pos->side), move};
    tb_chess_undo u;
    tb_chess_make(pos, m, &u);
    return tb_voice__expand(pack->value[K_R_PLY], names, values, 3, buf, len, at);
}

/* Plies [from, to) as sentences "A. B. C". */
static int put_plies(const struct tb_voice_pack *pack, const tb_chess_game *game, int from, int to,
                     enum tb_voice_form form, char *buf, size_t len)
{
    tb_chess_pos pos;
    if (replay(game, from, &pos))
        return TB_ERR_STATE;
    size_t at = 0;
    buf[0] = '\0';
    for (int i = from; i < to; i++) {
        int rc = (i > from ? tb_voice__put(buf, len, &at, ". ") : TB_OK);
        if (!rc)
            rc = put_ply(pack, game, i, &pos, form, buf, len, &at);
        if (rc)
            return rc;
    }
    return TB_OK;
}

static bool args_ok(const struct tb_voice_pack *pack, const void *data, char *buf, size_t len)
{
    return pack && data && buf && len > 0;
}

static int no_move(const struct tb_voice_pack *pack, char *buf, size_t len)
{
    size_t at = 0;
    int rc = tb_voice__expand(pack->value[K_MSG_NO_MOVE], NULL, NULL, 0, buf, len, &at);
    return rc ? rc : finish(buf);
}

int tb_voice_review_ply(const struct tb_voice_pack *pack, const tb_chess_game *game, int ply,
                        enum tb_voice_form form, char *buf, size_t len)
{
    if (!args_ok(pack, game, buf, len) || ply < 0 || ply >= game->plies)
        return TB_ERR_ARG;
    int rc = put_plies(pack, game, ply, ply + 1, form, buf, len);
    return rc ? rc : finish(buf);
}

int tb_voice_review_last(const struct tb_voice_pack *pack, const tb_chess_game *game, int n,
                         enum tb_voice_form form, char *buf, size_t len)
{
    if (!args_ok(pack, game, buf, len) || n < 1)
        return TB_ERR_ARG;
    if (game->plies == 0)
        return no_move(pack, buf, len);
    int from = game->plies > n ? game->plies - n : 0;
    int rc = put_plies(pack, game, from, game->plies, form, buf, len);
    return rc ? rc : finish(buf);
}

int tb_voice_review_from(const struct tb_voice_pack *pack, const tb_chess_game *game, int move,
                         enum tb_voice_form form, char *buf, size_t len)
{
    if (!args_ok(pack, game, buf, len))
        return TB_ERR_ARG;
    /* White's half of `move` is ply 2 * (move - fullmove) - (Black began). */
    int ply = 2 * (move - game->start.fullmove) - (game->start.side == TB_CHESS_BLACK);
    if (ply < 0)
        ply = 0;
    if (move < 1 || ply >= game->plies)
        return TB_ERR_ARG;
    int rc = put_plies(pack, game, ply, game->plies, form, buf, len);
    return rc ? rc : finish(buf);
}

int tb_voice_review_scoresheet(const struct tb_voice_pack *pack, const tb_chess_game *game,
                               const char *result, enum tb_voice_form form, char *buf, size_t len)
{
    if (!args_ok(pack, game, buf, len))
        return TB_ERR_ARG;
    int key = -1;
    if (result && strcmp(result, "1-0") == 0)
        key = K_R_RESULT_WHITE;
    else if (result && strcmp(result, "0-1") == 0)
        key = K_R_RESULT_BLACK;
    else if (result && strcmp(result, "1/2-1/2") == 0)
        key = K_R_RESULT_DRAW;
    else if (result && *result && strcmp(result, "*") != 0)
        return TB_ERR_ARG;
    if (game->plies == 0 && key < 0)
        return no_move(pack, buf, len);
    int rc = put_plies(pack, game, 0, game->plies, form, buf, len);
    if (rc) /* buf may hold a part without its end */
        return rc;
    size_t at = strlen(buf);
    if (key >= 0 && game->plies > 0)
        rc = tb_voice__put(buf, len, &at, ". ");
    if (!rc && key >= 0)
        rc = tb_voice__expand(pack->value[key], NULL, NULL, 0, buf, len, &at);
    return rc ? rc : finish(buf);
}

/* ---- the position ---- */

/* Review order of the pieces: king, queen, rook, bishop, knight, pawn. */
static const int order[6] = {TB_CHESS_KING,   TB_CHESS_QUEEN,  TB_CHESS_ROOK,
                             TB_CHESS_BISHOP, TB_CHESS_KNIGHT, TB_CHESS_PAWN};

static enum tb_voice__noun noun_of(int ptype)
{
    return (enum tb_voice__noun)(ptype - TB_CHESS_PAWN + TB_VOICE__PAWNS);
}

/* "Anna zwei, Bella zwei und Hector zwei" for the squares of one piece kind. */
static int put_squares(const struct tb_voice_pack *pack, uint64_t set, char *buf, size_t len,
                       size_t *at)
{
    int total = __builtin_popcountll(set), i = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(set & TB_CHESS_BIT(sq)))
            continue;
        char square[TB_VOICE_SQUARE_MAX + 1];
        int rc = tb_voice_phrase_square(pack, sq, square, sizeof square) < 0 ? TB_ERR_STATE : 0;
        if (!rc && i > 0 && i == total - 1) {
            rc = tb_voice__put(buf, len, at, " ");
            if (!rc)
                rc = tb_voice__put(buf, len, at, pack->value[K_W_AND]);
            if (!rc)
                rc = tb_voice__put(buf, len, at, " ");
        } else if (!rc && i > 0) {
            rc = tb_voice__put(buf, len, at, ", ");
        }
        if (!rc)
            rc = tb_voice__put(buf, len, at, square);
        if (rc)
            return rc;
        i++;
    }
    return TB_OK;
}

/* The {pieces} of one side: its groups joined by ", ", expanded into the {side}/{pieces}
 * template by splitting it at {pieces} (which may hold any number of groups). */
static int put_side(const struct tb_voice_pack *pack, int tmpl, int color, const char *pieces,
                    char *buf, size_t len, size_t *at)
{
    static const char *const names[] = {"side", "pieces"};
    const char *values[] = {side_word(pack, color), pieces};
    return tb_voice__expand(pack->value[tmpl], names, values, 2, buf, len, at);
}

/* The groups of one colour into buf ("König Gustav eins, Türme Anna eins und Hector eins"). */
static int position_groups(const struct tb_voice_pack *pack, const tb_chess_pos *pos, int color,
                           char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < 6; k++) {
        uint64_t set = pos->by_type[order[k]] & pos->by_color[color];
        if (!set)
            continue;
        int rc = at ? tb_voice__put(buf, len, &at, ", ") : TB_OK;
        char squares[64 * (TB_VOICE_SQUARE_MAX + TB_VOICE_WORD_MAX + 2)];
        size_t sq_at = 0;
        squares[0] = '\0';
        if (!rc)
            rc = put_squares(pack, set, squares, sizeof squares, &sq_at);
        static const char *const names[] = {"piece", "squares"};
        const char *values[] = {tb_voice__noun(pack, noun_of(order[k]), __builtin_popcountll(set)),
                                squares};
        if (!rc)
            rc = tb_voice__expand(pack->value[K_R_GROUP], names, values, 2, buf, len, &at);
        if (rc)
            return rc;
    }
    return TB_OK;
}

/* Both colours through a template with {side} and {pieces}, "A. B". */
static int two_sides(const struct tb_voice_pack *pack, const tb_chess_pos *pos, int tmpl,
                     int (*groups)(const struct tb_voice_pack *, const tb_chess_pos *, int, char *,
                                   size_t),
                     char *buf, size_t len, size_t *at)
{
    /* Every square's words and a separator, for each piece: room for any full board. */
    char pieces[64 * (2 * TB_VOICE_SQUARE_MAX + 2 * TB_VOICE_WORD_MAX + 8)];
    for (int color = TB_CHESS_WHITE; color <= TB_CHESS_BLACK; color++) {
        int rc = groups(pack, pos, color, pieces, sizeof pieces) ? TB_ERR_FULL : TB_OK;
        if (!rc && color == TB_CHESS_BLACK)
            rc = tb_voice__put(buf, len, at, ". ");
        if (!rc)
            rc = put_side(pack, tmpl, color, pieces, buf, len, at);
        if (rc)
            return rc;
    }
    return TB_OK;
}

int tb_voice_review_position(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                             size_t len)
{
    if (!args_ok(pack, pos, buf, len))
        return TB_ERR_ARG;
    size_t at = 0;
    buf[0] = '\0';
    int rc = two_sides(pack, pos, K_R_POSITION, position_groups, buf, len, &at);
    return rc ? rc : finish(buf);
}

static int side_phrase(const struct tb_voice_pack *pack, int key, int color, char *buf, size_t len)
{
    static const char *const names[] = {"side"};
    const char *values[] = {side_word(pack, color)};
    size_t at = 0;
    int rc = tb_voice__expand(pack->value[key], names, values, 1, buf, len, &at);
    return rc ? rc : finish(buf);
}

int tb_voice_review_to_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                            size_t len)
{
    if (!args_ok(pack, pos, buf, len))
        return TB_ERR_ARG;
    return side_phrase(pack, K_R_TO_MOVE, pos->side, buf, len);
}

int tb_voice_review_check(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                          size_t len)
{
    if (!args_ok(pack, pos, buf, len))
        return TB_ERR_ARG;
    enum tb_chess_state st = tb_chess_pos_state(pos);
    int key = st == TB_CHESS_CHECKMATE   ? K_R_CHECKMATE /* 5.1.1 */
              : st == TB_CHESS_STALEMATE ? K_R_STALEMATE /* 5.2.1 */
              : tb_chess_in_check(pos)   ? K_R_CHECK
                                         : K_R_NO_CHECK;
    return side_phrase(pack, key, pos->side, buf, len);
}

/* ---- material ---- */

static const int points[7] = {0, 1, 3, 3, 5, 9, 0};

/* "1 Dame, 2 Türme, ..., 8 Bauern": the counted pieces of one colour, kings left out. */
static int material_groups(const struct tb_voice_pack *pack, const tb_chess_pos *pos, int color,
                           char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 1; k < 6; k++) {
        int n = __builtin_popcountll(pos->by_type[order[k]] & pos->by_color[color]);
        if (n == 0)
            continue;
        int rc = at ? tb_voice__put(buf, len, &at, ", ") : TB_OK;
        if (!rc)
            rc = tb_voice__count(pack, noun_of(order[k]), n, buf, len, &at);
        if (rc)
            return rc;
    }
    if (at == 0) /* a bare king: "Weiß: König" */
        return tb_voice__put(buf, len, &at, pack->value[K_PIECE_KING]);
    return TB_OK;
}

int tb_voice_review_material(const struct tb_voice_pack *pack, const tb_chess_pos *pos, char *buf,
                             size_t len)
{
    if (!args_ok(pack, pos, buf, len))
        return TB_ERR_ARG;
    size_t at = 0;
    buf[0] = '\0';
    int rc = two_sides(pack, pos, K_R_MATERIAL, material_groups, buf, len, &at);
    int score[2] = {0, 0};
    for (int color = 0; color < 2; color++)
        for (int t = TB_CHESS_PAWN; t < TB_CHESS_KING; t++)
            score[color] +=
                points[t] * __builtin_popcountll(pos->by_type[t] & pos->by_color[color]);
    if (!rc)
        rc = tb_voice__put(buf, len, &at, ". ");
    if (!rc && score[0] == score[1]) {
        rc = tb_voice__expand(pack->value[K_R_MATERIAL_EQUAL], NULL, NULL, 0, buf, len, &at);
    } else if (!rc) {
        int ahead = score[0] > score[1] ? TB_CHESS_WHITE : TB_CHESS_BLACK;
        int diff = score[ahead] - score[!ahead];
        char pts[TB_VOICE__COUNT_MAX + 1];
        size_t p = 0;
        pts[0] = '\0';
        rc = tb_voice__count(pack, TB_VOICE__POINTS, diff, pts, sizeof pts, &p);
        static const char *const names[] = {"side", "points"};
        const char *values[] = {side_word(pack, ahead), pts};
        if (!rc)
            rc = tb_voice__expand(pack->value[K_R_MATERIAL_AHEAD], names, values, 2, buf, len, &at);
    }
    return rc ? rc : finish(buf);
}
