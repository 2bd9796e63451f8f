/* bughouse.c - the words of doorgeefschaak ([bughouse] in a pack): drops, the pieces the
 * partner passes, the pieces in hand, the question a drop's kind waits on. Pure. */
#include <string.h>

#include "voice_internal.h"

/* One template of [bughouse] with its placeholders, tidied. */
static int expand(const struct tb_voice_pack *pack, int key, const char *const *names,
                  const char *const *values, int n, char *buf, size_t len)
{
    size_t p = 0;
    if (!pack || !buf || len == 0)
        return TB_ERR_ARG;
    buf[0] = '\0';
    int rc = tb_voice__expand(pack->value[key], names, values, n, buf, len, &p);
    if (rc)
        return rc;
    tb_voice__tidy(buf);
    return (int)strlen(buf);
}

static bool droppable(int ptype)
{
    return ptype >= TB_CHESS_PAWN && ptype <= TB_CHESS_QUEEN;
}

int tb_voice_phrase_move_check(const struct tb_voice_pack *pack, const tb_chess_pos *pos,
                               tb_chess_move m, enum tb_voice_form form, int check, char *buf,
                               size_t len)
{
    if (check < 0 || check > 2)
        return TB_ERR_ARG;
    return tb_voice__phrase_move(pack, pos, m, form, check, buf, len);
}

int tb_voice_phrase_drop(const struct tb_voice_pack *pack, int ptype, int sq, char *buf, size_t len)
{
    char to[TB_VOICE_SQUARE_MAX + 1];
    if (!pack || !droppable(ptype) || tb_voice_phrase_square(pack, sq, to, sizeof to) < 0)
        return TB_ERR_ARG;
    static const char *const names[] = {"piece", "to"};
    const char *values[] = {tb_voice__piece_word(pack, ptype), to};
    return expand(pack, K_B_DROP, names, values, 2, buf, len);
}

int tb_voice_phrase_piece(const struct tb_voice_pack *pack, int ptype, char *buf, size_t len)
{
    if (!pack || !buf || ptype < TB_CHESS_PAWN || ptype > TB_CHESS_KING)
        return TB_ERR_ARG;
    const char *w = tb_voice__piece_word(pack, ptype);
    size_t n = strlen(w);
    if (n >= len)
        return TB_ERR_FULL;
    memcpy(buf, w, n + 1);
    return (int)n;
}

int tb_voice_phrase_received(const struct tb_voice_pack *pack, int ptype, char *buf, size_t len)
{
    if (!pack || !droppable(ptype))
        return TB_ERR_ARG;
    static const char *const names[] = {"piece"};
    const char *values[] = {tb_voice__piece_word(pack, ptype)};
    return expand(pack, K_B_RECEIVED, names, values, 1, buf, len);
}

/* Five kinds at most, each a count ("2 Springer") with a separator. */
#define LIST_MAX (5 * (TB_VOICE__COUNT_MAX + TB_VOICE_WORD_MAX + 3))

int tb_voice_phrase_pool(const struct tb_voice_pack *pack, const uint8_t pool[6], char *buf,
                         size_t len)
{
    char list[LIST_MAX + 1] = "";
    size_t p = 0;
    if (!pack || !pool)
        return TB_ERR_ARG;
    for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--) {
        if (!pool[t])
            continue;
        if ((p && tb_voice__put(list, sizeof list, &p, ", ")) ||
            tb_voice__count(pack, (enum tb_voice__noun)(t - 1), pool[t], list, sizeof list, &p))
            return TB_ERR_STATE;
    }
    if (!p)
        return expand(pack, K_B_POOL_EMPTY, NULL, NULL, 0, buf, len);
    static const char *const names[] = {"pieces"};
    const char *values[] = {list};
    return expand(pack, K_B_POOL, names, values, 1, buf, len);
}

int tb_voice_phrase_drop_choice(const struct tb_voice_pack *pack, int sq, unsigned kinds, char *buf,
                                size_t len)
{
    char square[TB_VOICE_SQUARE_MAX + 1], list[LIST_MAX + 1] = "";
    size_t p = 0;
    int left = __builtin_popcount(kinds & 0x3E);
    if (!pack || tb_voice_phrase_square(pack, sq, square, sizeof square) < 0 || !left)
        return TB_ERR_ARG;
    for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--) {
        if (!(kinds & (1u << t)))
            continue;
        /* "Läufer, Springer oder Bauer" */
        const char *sep = !p ? "" : left == 1 ? " " : ", ";
        if (tb_voice__put(list, sizeof list, &p, sep) ||
            (left == 1 && p &&
             (tb_voice__put(list, sizeof list, &p, pack->value[K_B_OR]) ||
              tb_voice__put(list, sizeof list, &p, " "))) ||
            tb_voice__put(list, sizeof list, &p, tb_voice__piece_word(pack, t)))
            return TB_ERR_STATE;
        left--;
    }
    static const char *const names[] = {"square", "pieces"};
    const char *values[] = {square, list};
    return expand(pack, K_B_CHOOSE, names, values, 2, buf, len);
}

int tb_voice_phrase_drop_refused(const struct tb_voice_pack *pack, const char *article, char *buf,
                                 size_t len)
{
    if (!article)
        return TB_ERR_ARG;
    static const char *const names[] = {"article"};
    const char *values[] = {article};
    return expand(pack, K_B_REFUSED, names, values, 1, buf, len);
}

/* ---- article 7: illegal moves ------------------------------------------------------------ */

int tb_voice_phrase_illegal(const struct tb_voice_pack *pack, int ptype, int from, int to,
                            const char *article, char *buf, size_t len)
{
    char a[TB_VOICE_SQUARE_MAX + 1], b[TB_VOICE_SQUARE_MAX + 1];
    if (!pack || !article || ptype < TB_CHESS_PAWN || ptype > TB_CHESS_KING ||
        tb_voice_phrase_square(pack, from, a, sizeof a) < 0 ||
        tb_voice_phrase_square(pack, to, b, sizeof b) < 0)
        return TB_ERR_ARG;
    static const char *const names[] = {"piece", "from", "to", "article"};
    const char *values[] = {tb_voice__piece_word(pack, ptype), a, b, article};
    return expand(pack, K_B_ILLEGAL, names, values, 4, buf, len);
}

int tb_voice_phrase_irregular(const struct tb_voice_pack *pack, enum tb_voice_irregular what,
                              int ptype, int sq, int board, const char *article, char *buf,
                              size_t len)
{
    static const int key[] = {K_B_ACCEPTED, K_B_REPLACE, K_B_RETURNED, K_B_BLOCKED,
                              K_B_HANDED_BACK};
    static const char *const names[] = {"piece", "square", "board", "article"};
    char square[TB_VOICE_SQUARE_MAX + 1] = "", letter[2] = {(char)board, 0};
    bool piece = what == TB_VOICE_IRR_RETURNED || what == TB_VOICE_IRR_BLOCKED ||
                 what == TB_VOICE_IRR_HANDED_BACK;
    bool at = what == TB_VOICE_IRR_REPLACE || what == TB_VOICE_IRR_HANDED_BACK;
    if (!pack || (unsigned)what > TB_VOICE_IRR_HANDED_BACK || (piece && !droppable(ptype)) ||
        (at && tb_voice_phrase_square(pack, sq, square, sizeof square) < 0) ||
        (what == TB_VOICE_IRR_BLOCKED && board != 'A' && board != 'B'))
        return TB_ERR_ARG;
    const char *values[] = {piece ? tb_voice__piece_word(pack, ptype) : "", square, letter,
                            article ? article : ""};
    return expand(pack, key[what], names, values, 4, buf, len);
}

int tb_voice_phrase_game_over(const struct tb_voice_pack *pack, int board,
                              enum tb_voice_game_end why, int result, char *buf, size_t len)
{
    static const int because[] = {K_B_WHY_MATE,      K_B_WHY_RESIGN, K_B_WHY_FLAG,  K_B_WHY_FLAGS,
                                  K_B_WHY_STALEMATE, K_B_WHY_DEAD,   K_B_WHY_AGREED};
    static const int outcome[] = {K_R_RESULT_DRAW, K_R_RESULT_WHITE, K_R_RESULT_BLACK};
    static const char *const names[] = {"board", "why", "result"};
    char letter[2] = {(char)board, 0};
    if (!pack || (board != 'A' && board != 'B') || (unsigned)why > TB_VOICE_END_AGREED ||
        result < 0 || result > 2)
        return TB_ERR_ARG;
    const char *values[] = {letter, pack->value[because[why]], pack->value[outcome[result]]};
    return expand(pack, K_B_OVER, names, values, 3, buf, len);
}
