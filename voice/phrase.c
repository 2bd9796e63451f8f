/* phrase.c - the words of a move or a system message in a pack's language (D.2.1). Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voice_internal.h"

/* Buffers for parts of a phrase are sized from the longest entries a pack may hold
 * (TB_VOICE_WORD_MAX, TB_VOICE_TEMPLATE_MAX), so no pack that loads can overflow them; only the
 * caller's buffer can be too small (TB_ERR_FULL). */
_Static_assert(TB_VOICE_SQUARE_MAX == 2 * TB_VOICE_WORD_MAX + 1, "file word, space, rank word");
/* Digits of a long ("-9223372036854775808"), the numbers a template may hold. */
#define NUMBER_MAX 20
#define COUNT_MAX  TB_VOICE__COUNT_MAX
_Static_assert(NUMBER_MAX / (sizeof "{n}" - 1) <= TB_VOICE_WORD_MAX / (sizeof "{noun}" - 1),
               "COUNT_MAX bounds the count template");
/* The time template: its shortest placeholder, "{min}" (5 bytes), becomes a number; "{minutes}"
 * (9 bytes) becomes a count. */
#define TIME_MAX (TB_VOICE_TEMPLATE_MAX * (COUNT_MAX / (sizeof "{minutes}" - 1) + 1))
_Static_assert(NUMBER_MAX / (sizeof "{min}" - 1) <= COUNT_MAX / (sizeof "{minutes}" - 1) + 1,
               "TIME_MAX bounds the time template");

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

void tb_voice__tidy(char *s)
{
    char *w = s;
    bool space = false;
    for (const char *r = s; *r; r++) {
        if (is_space(*r)) {
            space = w != s; /* drop leading spaces */
            continue;
        }
        if (space && !strchr(",.:;!?", *r))
            *w++ = ' ';
        space = false;
        *w++ = *r;
    }
    *w = '\0';
}

int tb_voice__expand(const char *tmpl, const char *const *names, const char *const *values, int n,
                     char *buf, size_t len, size_t *pos)
{
    size_t p = *pos;
    for (const char *s = tmpl; *s; s++) {
        const char *add = s;
        size_t addn = 1;
        if (*s == '{') {
            const char *end = strchr(s, '}');
            if (!end)
                return TB_ERR_ARG;
            int i;
            for (i = 0; i < n; i++)
                if (strlen(names[i]) == (size_t)(end - s - 1) &&
                    memcmp(names[i], s + 1, (size_t)(end - s - 1)) == 0)
                    break;
            if (i == n)
                return TB_ERR_ARG;
            add = values[i] ? values[i] : "";
            addn = strlen(add);
            s = end;
        }
        if (p + addn >= len)
            return TB_ERR_FULL;
        memcpy(buf + p, add, addn);
        p += addn;
    }
    buf[p] = '\0';
    *pos = p;
    return TB_OK;
}

const char *tb_voice__piece_word(const struct tb_voice_pack *pack, int ptype)
{
    static const int key[7] = {K_W_PIECE,    K_PIECE_PAWN,  K_PIECE_KNIGHT, K_PIECE_BISHOP,
                               K_PIECE_ROOK, K_PIECE_QUEEN, K_PIECE_KING};
    return pack->value[ptype >= 1 && ptype <= 6 ? key[ptype] : K_W_PIECE];
}

/* A piece code with its colour ("weißen Bauern"), as put-right instructions name a piece; the
 * bare word for a code that gives no colour. */
static const char *coloured_piece_word(const struct tb_voice_pack *pack, int piece)
{
    static const int key[7] = {0,
                               K_CPIECE_WHITE_PAWN,
                               K_CPIECE_WHITE_KNIGHT,
                               K_CPIECE_WHITE_BISHOP,
                               K_CPIECE_WHITE_ROOK,
                               K_CPIECE_WHITE_QUEEN,
                               K_CPIECE_WHITE_KING};
    int type = TB_CHESS_PIECE_TYPE(piece);
    if (!piece || type < 1 || type > 6)
        return tb_voice__piece_word(pack, type);
    int k = key[type];
    if (TB_CHESS_PIECE_COLOR(piece) == TB_CHESS_BLACK)
        k += K_CPIECE_BLACK_KING - K_CPIECE_WHITE_KING;
    return pack->value[k];
}

int tb_voice_phrase_square(const struct tb_voice_pack *pack, int sq, char *buf, size_t len)
{
    if (sq < 0 || sq > 63)
        return TB_ERR_ARG;
    int n = snprintf(buf, len, "%s %s", pack->value[K_FILE_A + TB_CHESS_FILE(sq)],
                     pack->value[K_RANK_1 + TB_CHESS_RANK(sq)]);
    return n < 0 || (size_t)n >= len ? TB_ERR_FULL : n;
}

/* The disambiguation of a SAN move as spoken words: "Nbd7" -> "Bella", "R1e2" -> "eins",
 * "exd5" -> "Eva" (C.10: file first, then rank, then both). */
static int san_disamb(const struct tb_voice_pack *pack, const char *san, char *buf, size_t len)
{
    char core[16];
    snprintf(core, sizeof core, "%s", san);
    core[strcspn(core, "=+#")] = '\0';
    size_t n = strlen(core);
    if (n < 2)
        return TB_ERR_STATE;
    core[n - 2] = '\0'; /* destination square */
    char *s = core;
    if (*s >= 'A' && *s <= 'Z')
        s++;
    size_t m = strcspn(s, "x");
    s[m] = '\0';
    size_t pos = 0;
    buf[0] = '\0';
    for (; *s; s++) {
        const char *w = NULL;
        if (*s >= 'a' && *s <= 'h')
            w = pack->value[K_FILE_A + (*s - 'a')];
        else if (*s >= '1' && *s <= '8')
            w = pack->value[K_RANK_1 + (*s - '1')];
        else
            return TB_ERR_STATE;
        int k = snprintf(buf + pos, len - pos, "%s%s", pos ? " " : "", w);
        if (k < 0 || (size_t)k >= len - pos)
            return TB_ERR_FULL;
        pos += (size_t)k;
    }
    return (int)pos;
}

int tb_voice_phrase_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos, tb_chess_move m,
                         enum tb_voice_form form, char *buf, size_t len)
{
    return tb_voice__phrase_move(pack, pos, m, form, -1, buf, len);
}

int tb_voice__phrase_move(const struct tb_voice_pack *pack, const tb_chess_pos *pos,
                          tb_chess_move m, enum tb_voice_form form, int check, char *buf,
                          size_t len)
{
    if (!pack || !pos || !buf || len == 0)
        return TB_ERR_ARG;
    if (!tb_chess_is_legal(pos, m))
        return TB_ERR_ILLEGAL;
    struct tb_chess_move_squares sq;
    tb_chess_move_squares(pos, m, &sq);
    bool is_short = form == TB_VOICE_SHORT;
    int kind = tb_chess_move_kind(m), ptype = TB_CHESS_PIECE_TYPE(sq.piece);
    bool capture = sq.captured != 0 && kind != TB_CHESS_MK_CASTLE;

    /* disamb: a file word, a rank word or both (C.10), as a square's words are. */
    char from[TB_VOICE_SQUARE_MAX + 1], to[TB_VOICE_SQUARE_MAX + 1],
        disamb[TB_VOICE_SQUARE_MAX + 1] = "";
    if (tb_voice_phrase_square(pack, sq.from, from, sizeof from) < 0 ||
        tb_voice_phrase_square(pack, sq.to, to, sizeof to) < 0)
        return TB_ERR_STATE;
    if (is_short && kind != TB_CHESS_MK_CASTLE) {
        char san[16];
        if (tb_chess_move_to_san(pos, m, TB_CHESS_LETTERS_EN, 0, san, sizeof san) < 0 ||
            san_disamb(pack, san, disamb, sizeof disamb) < 0)
            return TB_ERR_STATE;
    }

    int key;
    if (kind == TB_CHESS_MK_CASTLE)
        key = K_M_LONG_CASTLE;
    else if (kind == TB_CHESS_MK_EP)
        key = K_M_LONG_EP;
    else if (tb_chess_move_promo(m))
        key = capture ? K_M_LONG_PROMO_CAPTURE : K_M_LONG_PROMO;
    else
        key = capture ? K_M_LONG_CAPTURE : K_M_LONG_QUIET;
    if (is_short)
        key += K_M_SHORT_QUIET - K_M_LONG_QUIET;

    /* Castling: the king's destination decides the side (Chess960 too, Guideline II). */
    const char *castle = NULL;
    if (kind == TB_CHESS_MK_CASTLE)
        castle = pack->value[TB_CHESS_FILE(tb_chess_move_king_to(m)) == 6 ? K_W_CASTLE_SHORT
                                                                          : K_W_CASTLE_LONG];
    /* The pawn's word is left out of the short form, as SAN leaves out its letter. */
    const char *piece =
        is_short && ptype == TB_CHESS_PAWN ? NULL : tb_voice__piece_word(pack, ptype);
    const char *promo =
        tb_chess_move_promo(m) ? tb_voice__piece_word(pack, tb_chess_move_promo(m)) : NULL;
    static const char *const names[] = {"piece", "from",  "to",     "disamb", "capture",
                                        "ep",    "promo", "castle", "check",  "mate"};
    const char *values[] = {piece,
                            from,
                            to,
                            disamb,
                            capture ? pack->value[K_W_CAPTURE] : NULL,
                            pack->value[K_W_EP],
                            promo,
                            castle,
                            pack->value[K_W_CHECK],
                            pack->value[K_W_MATE]};
    size_t p = 0;
    int rc = tb_voice__expand(pack->value[key], names, values, 10, buf, len, &p);

    if (check < 0) {
        tb_chess_pos after = *pos;
        tb_chess_undo undo;
        tb_chess_movelist list;
        tb_chess_make(&after, m, &undo);
        check = !tb_chess_in_check(&after)               ? 0
                : tb_chess_gen_legal(&after, &list) == 0 ? 2 /* 5.1.1 */
                                                         : 1;
    }
    if (!rc && check > 0)
        rc = tb_voice__expand(pack->value[check == 2 ? K_M_SUFFIX_MATE : K_M_SUFFIX_CHECK], names,
                              values, 10, buf, len, &p);
    if (rc)
        return rc;
    tb_voice__tidy(buf);
    return (int)strlen(buf);
}

const char *tb_voice__noun(const struct tb_voice_pack *pack, enum tb_voice__noun noun, long n)
{
    return pack->value[K_PL_FIRST + 2 * (int)noun + (n == 1 ? 0 : 1)];
}

int tb_voice__count(const struct tb_voice_pack *pack, enum tb_voice__noun noun, long n, char *buf,
                    size_t len, size_t *pos)
{
    char num[NUMBER_MAX + 1];
    snprintf(num, sizeof num, "%ld", n);
    static const char *const names[] = {"n", "noun"};
    const char *values[] = {num, tb_voice__noun(pack, noun, n)};
    return tb_voice__expand(pack->value[K_R_COUNT], names, values, 2, buf, len, pos);
}

/* A count phrase ("3 Minuten") into its own buffer. */
static int count_text(const struct tb_voice_pack *pack, enum tb_voice__noun noun, long n,
                      char buf[COUNT_MAX + 1])
{
    size_t p = 0;
    buf[0] = '\0';
    return tb_voice__count(pack, noun, n, buf, COUNT_MAX + 1, &p);
}

static int format_time(const struct tb_voice_pack *pack, long ms, char *buf, size_t len)
{
    char min[NUMBER_MAX + 1], sec[NUMBER_MAX + 1], minutes[COUNT_MAX + 1], seconds[COUNT_MAX + 1];
    if (ms < 0)
        ms = 0;
    snprintf(min, sizeof min, "%ld", ms / 60000);
    snprintf(sec, sizeof sec, "%ld", ms / 1000 % 60);
    if (count_text(pack, TB_VOICE__MINUTES, ms / 60000, minutes) ||
        count_text(pack, TB_VOICE__SECONDS, ms / 1000 % 60, seconds))
        return TB_ERR_STATE;
    static const char *const names[] = {"min", "sec", "minutes", "seconds"};
    const char *values[] = {min, sec, minutes, seconds};
    size_t p = 0;
    return tb_voice__expand(pack->value[K_MSG_TIME], names, values, 4, buf, len, &p);
}

/* "Springer von Gustav eins nehmen, Bauer auf Eva zwei stellen". */
static const struct tb_voice_square_action *action(const struct tb_voice_msg_args *a, int i)
{
    return i < a->nlift ? &a->lift[i] : &a->place[i - a->nlift];
}

static bool actions_valid(const struct tb_voice_msg_args *a)
{
    if (a->nlift < 0 || a->nplace < 0 || a->nlift + a->nplace == 0 || (a->nlift && !a->lift) ||
        (a->nplace && !a->place))
        return false;
    for (int i = 0; i < a->nlift + a->nplace; i++)
        if (action(a, i)->sq > 63)
            return false;
    return true;
}

/* The actions are written straight into the phrase at *pos: there may be any number of them. */
static int format_actions(const struct tb_voice_pack *pack, const struct tb_voice_msg_args *a,
                          char *buf, size_t len, size_t *pos)
{
    for (int i = 0; i < a->nlift + a->nplace; i++) {
        const struct tb_voice_square_action *act = action(a, i);
        char square[TB_VOICE_SQUARE_MAX + 1];
        if (tb_voice_phrase_square(pack, act->sq, square, sizeof square) < 0)
            return TB_ERR_STATE;
        if (i > 0) {
            if (*pos + 2 >= len)
                return TB_ERR_FULL;
            memcpy(buf + *pos, ", ", 3);
            *pos += 2;
        }
        static const char *const names[] = {"piece", "square"};
        const char *values[] = {coloured_piece_word(pack, act->piece), square};
        int rc = tb_voice__expand(pack->value[i < a->nlift ? K_MSG_LIFT : K_MSG_PLACE], names,
                                  values, 2, buf, len, pos);
        if (rc)
            return rc;
    }
    return TB_OK;
}

/* The put_right template, whose only placeholder is {actions} (pack.c checks). */
static int expand_put_right(const struct tb_voice_pack *pack, const struct tb_voice_msg_args *a,
                            char *buf, size_t len)
{
    static const char placeholder[] = "{actions}";
    size_t p = 0;
    buf[0] = '\0';
    for (const char *s = pack->value[K_MSG_PUT_RIGHT]; *s;) {
        if (strncmp(s, placeholder, sizeof placeholder - 1) == 0) {
            int rc = format_actions(pack, a, buf, len, &p);
            if (rc)
                return rc;
            s += sizeof placeholder - 1;
            continue;
        }
        if (*s == '{')
            return TB_ERR_STATE;
        if (p + 1 >= len)
            return TB_ERR_FULL;
        buf[p++] = *s++;
        buf[p] = '\0';
    }
    return TB_OK;
}

int tb_voice_phrase_msg(const struct tb_voice_pack *pack, enum tb_voice_msg msg,
                        const struct tb_voice_msg_args *args, char *buf, size_t len)
{
    static const int key[TB_VOICE_MSG_COUNT] = {
        [TB_VOICE_MSG_MISMATCH] = K_MSG_MISMATCH,
        [TB_VOICE_MSG_ILLEGAL] = K_MSG_ILLEGAL,
        [TB_VOICE_MSG_WAIT] = K_MSG_WAIT,
        [TB_VOICE_MSG_REPLICATE] = K_MSG_REPLICATE,
        [TB_VOICE_MSG_PUT_RIGHT] = K_MSG_PUT_RIGHT,
        [TB_VOICE_MSG_ARBITER] = K_MSG_ARBITER,
        [TB_VOICE_MSG_CLOCK] = K_MSG_CLOCK,
        [TB_VOICE_MSG_MOVE_NUMBER] = K_MSG_MOVE_NUMBER,
        [TB_VOICE_MSG_CORRECTION] = K_MSG_CORRECTION,
        [TB_VOICE_MSG_NO_MOVE] = K_MSG_NO_MOVE,
        [TB_VOICE_MSG_TAKEN] = K_MSG_TAKEN,
        [TB_VOICE_MSG_NOT_RECOGNISED] = K_MSG_NOT_RECOGNISED,
        [TB_VOICE_MSG_PROMOTION_ASK] = K_MSG_PROMOTION_ASK,
        [TB_VOICE_MSG_PROMOTION_PIECE] = K_MSG_PROMOTION_PIECE,
        [TB_VOICE_MSG_PROMOTION_NONE] = K_MSG_PROMOTION_NONE,
        [TB_VOICE_MSG_PROMOTION_QUEEN] = K_MSG_PROMOTION_QUEEN,
        [TB_VOICE_MSG_WINS] = K_MSG_WINS,
        [TB_VOICE_MSG_DRAW] = K_MSG_DRAW,
        [TB_VOICE_MSG_FLAG] = K_MSG_FLAG,
    };
    if (!pack || !buf || len == 0 || (unsigned)msg >= TB_VOICE_MSG_COUNT)
        return TB_ERR_ARG;
    static const struct tb_voice_msg_args none = {0};
    const struct tb_voice_msg_args *a = args ? args : &none;
    bool needs_move = msg == TB_VOICE_MSG_REPLICATE || msg == TB_VOICE_MSG_MOVE_NUMBER ||
                      msg == TB_VOICE_MSG_CORRECTION;
    if (needs_move && !a->move)
        return TB_ERR_ARG;
    if ((msg == TB_VOICE_MSG_MISMATCH || msg == TB_VOICE_MSG_WINS) && a->board != TB_CHESS_WHITE &&
        a->board != TB_CHESS_BLACK)
        return TB_ERR_ARG;

    if (msg == TB_VOICE_MSG_PUT_RIGHT && !actions_valid(a))
        return TB_ERR_ARG;
    bool needs_piece = msg == TB_VOICE_MSG_PROMOTION_PIECE || msg == TB_VOICE_MSG_PROMOTION_QUEEN;
    if (needs_piece && (a->piece < TB_CHESS_KNIGHT || a->piece > TB_CHESS_QUEEN))
        return TB_ERR_ARG;

    char n[NUMBER_MAX + 1], moves[COUNT_MAX + 1] = "";
    char *white = NULL, *black = NULL; /* TIME_MAX is too large for the stack */
    snprintf(n, sizeof n, "%d", a->n);
    int rc = TB_OK;
    if (msg == TB_VOICE_MSG_CLOCK) {
        white = malloc(TIME_MAX + 1);
        black = malloc(TIME_MAX + 1);
        if (!white || !black)
            rc = TB_ERR_MEM;
        /* A pack that loads always fits here: only a broken pack makes this fail. */
        else if (format_time(pack, a->white_ms, white, TIME_MAX + 1) ||
                 format_time(pack, a->black_ms, black, TIME_MAX + 1) ||
                 count_text(pack, TB_VOICE__MOVES, a->n, moves))
            rc = TB_ERR_STATE;
    }
    if (rc) {
        /* out of memory or a broken pack: reported below */
    } else if (msg == TB_VOICE_MSG_PUT_RIGHT) {
        rc = expand_put_right(pack, a, buf, len);
    } else {
        const char *board = pack->value[a->board == TB_CHESS_BLACK ? K_W_BLACK : K_W_WHITE];
        /* FLAG: the result in the words of the spoken scoresheet */
        const char *result = pack->value[a->n == 1   ? K_R_RESULT_WHITE
                                         : a->n == 2 ? K_R_RESULT_BLACK
                                                     : K_R_RESULT_DRAW];
        static const char *const names[] = {"board", "move",  "n",     "white",
                                            "black", "moves", "piece", "result"};
        const char *values[] = {board,
                                a->move,
                                n,
                                white,
                                black,
                                moves,
                                needs_piece ? tb_voice__piece_word(pack, a->piece) : NULL,
                                result};
        size_t p = 0;
        rc = tb_voice__expand(pack->value[key[msg]], names, values,
                              (int)(sizeof names / sizeof names[0]), buf, len, &p);
    }
    free(white);
    free(black);
    if (rc)
        return rc;
    tb_voice__tidy(buf);
    return (int)strlen(buf);
}
