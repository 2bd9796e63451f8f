/* pack.c - loading phrase packs (voice/packs/NAME.pack; format in docs/voice.md).
 *
 * A pack is refused as a whole when any entry is missing, malformed, unknown or duplicated, or a
 * template uses a placeholder it may not: a half-read pack would put wrong words in a player's
 * ears in the middle of a game. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tb_file.h"
#include "voice_internal.h"

#ifndef TB_VOICE_PACK_DIRS
#define TB_VOICE_PACK_DIRS "voice/packs"
#endif
#ifndef TB_VOICE_DATA_REL /* the data directory relative to the programs' directory */
#define TB_VOICE_DATA_REL "../share/twinboard"
#endif

enum kind { WORD, NUMBER, TEMPLATE, NAME };

struct keydef {
    const char *section;
    const char *key;
    enum kind kind;
    const char *placeholders; /* TEMPLATE: the {names} it may use, space-separated */
    int min, max;             /* NUMBER */
};

#define MOVE_PH "piece from to disamb capture ep promo castle"

/* A pack's eSpeak voice name is copied whole into the settings. */
_Static_assert(sizeof((struct tb_voice_settings *)0)->espeak_voice > TB_VOICE_WORD_MAX,
               "an eSpeak voice name of TB_VOICE_WORD_MAX bytes fits the settings");

static const struct keydef keys[K__COUNT] = {
    [K_PACK_NAME] = {"pack", "name", NAME, NULL, 0, 0},
    [K_PACK_LANGUAGE] = {"pack", "language", WORD, NULL, 0, 0},
    [K_VOICE_ESPEAK] = {"voice", "espeak", NAME, NULL, 0, 0},
    [K_VOICE_RATE] = {"voice", "rate", NUMBER, NULL, 80, 800},
    [K_VOICE_PITCH] = {"voice", "pitch", NUMBER, NULL, 0, 100},
    [K_VOICE_VOLUME] = {"voice", "volume", NUMBER, NULL, 0, 200},
    [K_VOICE_WORDGAP] = {"voice", "wordgap", NUMBER, NULL, 0, 100},
    [K_PIECE_KING] = {"pieces", "king", WORD, NULL, 0, 0},
    [K_PIECE_QUEEN] = {"pieces", "queen", WORD, NULL, 0, 0},
    [K_PIECE_ROOK] = {"pieces", "rook", WORD, NULL, 0, 0},
    [K_PIECE_BISHOP] = {"pieces", "bishop", WORD, NULL, 0, 0},
    [K_PIECE_KNIGHT] = {"pieces", "knight", WORD, NULL, 0, 0},
    [K_PIECE_PAWN] = {"pieces", "pawn", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_KING] = {"colour_pieces", "white_king", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_QUEEN] = {"colour_pieces", "white_queen", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_ROOK] = {"colour_pieces", "white_rook", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_BISHOP] = {"colour_pieces", "white_bishop", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_KNIGHT] = {"colour_pieces", "white_knight", WORD, NULL, 0, 0},
    [K_CPIECE_WHITE_PAWN] = {"colour_pieces", "white_pawn", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_KING] = {"colour_pieces", "black_king", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_QUEEN] = {"colour_pieces", "black_queen", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_ROOK] = {"colour_pieces", "black_rook", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_BISHOP] = {"colour_pieces", "black_bishop", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_KNIGHT] = {"colour_pieces", "black_knight", WORD, NULL, 0, 0},
    [K_CPIECE_BLACK_PAWN] = {"colour_pieces", "black_pawn", WORD, NULL, 0, 0},
    [K_FILE_A] = {"files", "a", WORD, NULL, 0, 0},
    [K_FILE_B] = {"files", "b", WORD, NULL, 0, 0},
    [K_FILE_C] = {"files", "c", WORD, NULL, 0, 0},
    [K_FILE_D] = {"files", "d", WORD, NULL, 0, 0},
    [K_FILE_E] = {"files", "e", WORD, NULL, 0, 0},
    [K_FILE_F] = {"files", "f", WORD, NULL, 0, 0},
    [K_FILE_G] = {"files", "g", WORD, NULL, 0, 0},
    [K_FILE_H] = {"files", "h", WORD, NULL, 0, 0},
    [K_RANK_1] = {"ranks", "1", WORD, NULL, 0, 0},
    [K_RANK_2] = {"ranks", "2", WORD, NULL, 0, 0},
    [K_RANK_3] = {"ranks", "3", WORD, NULL, 0, 0},
    [K_RANK_4] = {"ranks", "4", WORD, NULL, 0, 0},
    [K_RANK_5] = {"ranks", "5", WORD, NULL, 0, 0},
    [K_RANK_6] = {"ranks", "6", WORD, NULL, 0, 0},
    [K_RANK_7] = {"ranks", "7", WORD, NULL, 0, 0},
    [K_RANK_8] = {"ranks", "8", WORD, NULL, 0, 0},
    [K_W_CAPTURE] = {"words", "capture", WORD, NULL, 0, 0},
    [K_W_CHECK] = {"words", "check", WORD, NULL, 0, 0},
    [K_W_MATE] = {"words", "mate", WORD, NULL, 0, 0},
    [K_W_EP] = {"words", "en_passant", WORD, NULL, 0, 0},
    [K_W_CASTLE_SHORT] = {"words", "castle_short", WORD, NULL, 0, 0},
    [K_W_CASTLE_LONG] = {"words", "castle_long", WORD, NULL, 0, 0},
    [K_W_WHITE] = {"words", "white", WORD, NULL, 0, 0},
    [K_W_BLACK] = {"words", "black", WORD, NULL, 0, 0},
    [K_W_PIECE] = {"words", "piece", WORD, NULL, 0, 0},
    [K_W_AND] = {"words", "and", WORD, NULL, 0, 0},
    [K_M_LONG_QUIET] = {"moves", "long.quiet", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_LONG_CAPTURE] = {"moves", "long.capture", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_LONG_EP] = {"moves", "long.en_passant", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_LONG_CASTLE] = {"moves", "long.castle", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_LONG_PROMO] = {"moves", "long.promotion", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_LONG_PROMO_CAPTURE] = {"moves", "long.promotion_capture", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_QUIET] = {"moves", "short.quiet", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_CAPTURE] = {"moves", "short.capture", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_EP] = {"moves", "short.en_passant", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_CASTLE] = {"moves", "short.castle", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_PROMO] = {"moves", "short.promotion", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SHORT_PROMO_CAPTURE] = {"moves", "short.promotion_capture", TEMPLATE, MOVE_PH, 0, 0},
    [K_M_SUFFIX_CHECK] = {"moves", "suffix.check", TEMPLATE, "check", 0, 0},
    [K_M_SUFFIX_MATE] = {"moves", "suffix.mate", TEMPLATE, "mate", 0, 0},
    [K_MSG_MISMATCH] = {"messages", "mismatch", TEMPLATE, "board", 0, 0},
    [K_MSG_ILLEGAL] = {"messages", "illegal", TEMPLATE, "", 0, 0},
    [K_MSG_WAIT] = {"messages", "wait", TEMPLATE, "", 0, 0},
    [K_MSG_REPLICATE] = {"messages", "replicate", TEMPLATE, "move", 0, 0},
    [K_MSG_PUT_RIGHT] = {"messages", "put_right", TEMPLATE, "actions", 0, 0},
    [K_MSG_LIFT] = {"messages", "lift", TEMPLATE, "piece square", 0, 0},
    [K_MSG_PLACE] = {"messages", "place", TEMPLATE, "piece square", 0, 0},
    [K_MSG_ARBITER] = {"messages", "arbiter", TEMPLATE, "", 0, 0},
    [K_MSG_CLOCK] = {"messages", "clock", TEMPLATE, "white black n moves", 0, 0},
    [K_MSG_TIME] = {"messages", "time", TEMPLATE, "min sec minutes seconds", 0, 0},
    [K_MSG_MOVE_NUMBER] = {"messages", "move_number", TEMPLATE, "n move", 0, 0},
    [K_MSG_CORRECTION] = {"messages", "correction", TEMPLATE, "move", 0, 0},
    [K_MSG_NO_MOVE] = {"messages", "no_move", TEMPLATE, "", 0, 0},
    [K_MSG_TAKEN] = {"messages", "taken", TEMPLATE, "", 0, 0},
    [K_MSG_NOT_RECOGNISED] = {"messages", "not_recognised", TEMPLATE, "", 0, 0},
    [K_MSG_PROMOTION_ASK] = {"messages", "promotion_ask", TEMPLATE, "", 0, 0},
    [K_MSG_PROMOTION_PIECE] = {"messages", "promotion_piece", TEMPLATE, "piece", 0, 0},
    [K_MSG_PROMOTION_NONE] = {"messages", "promotion_none", TEMPLATE, "", 0, 0},
    [K_MSG_PROMOTION_QUEEN] = {"messages", "promotion_queen", TEMPLATE, "piece", 0, 0},
    [K_MSG_WINS] = {"messages", "wins", TEMPLATE, "board", 0, 0},
    [K_MSG_DRAW] = {"messages", "draw", TEMPLATE, "", 0, 0},
    [K_MSG_FLAG] = {"messages", "flag", TEMPLATE, "board result", 0, 0},
#define PLURAL(noun, i)                                                                            \
    [K_PL_FIRST + 2 * (i)] = {"plurals", noun ".one", WORD, NULL, 0, 0},                           \
                      [K_PL_FIRST + 2 * (i) + 1] = {"plurals", noun ".other", WORD, NULL, 0, 0}
    PLURAL("pawn", TB_VOICE__PAWNS),
    PLURAL("knight", TB_VOICE__KNIGHTS),
    PLURAL("bishop", TB_VOICE__BISHOPS),
    PLURAL("rook", TB_VOICE__ROOKS),
    PLURAL("queen", TB_VOICE__QUEENS),
    PLURAL("king", TB_VOICE__KINGS),
    PLURAL("move", TB_VOICE__MOVES),
    PLURAL("minute", TB_VOICE__MINUTES),
    PLURAL("second", TB_VOICE__SECONDS),
    PLURAL("point", TB_VOICE__POINTS),
#undef PLURAL
    [K_R_PLY] = {"review", "ply", TEMPLATE, "n side move", 0, 0},
    [K_R_TO_MOVE] = {"review", "to_move", TEMPLATE, "side", 0, 0},
    [K_R_CHECK] = {"review", "check", TEMPLATE, "side", 0, 0},
    [K_R_NO_CHECK] = {"review", "no_check", TEMPLATE, "side", 0, 0},
    [K_R_CHECKMATE] = {"review", "checkmate", TEMPLATE, "side", 0, 0},
    [K_R_STALEMATE] = {"review", "stalemate", TEMPLATE, "side", 0, 0},
    [K_R_POSITION] = {"review", "position", TEMPLATE, "side pieces", 0, 0},
    [K_R_GROUP] = {"review", "group", TEMPLATE, "piece squares", 0, 0},
    [K_R_COUNT] = {"review", "count", TEMPLATE, "n noun", 0, 0},
    [K_R_MATERIAL] = {"review", "material", TEMPLATE, "side pieces", 0, 0},
    [K_R_MATERIAL_EQUAL] = {"review", "material_equal", TEMPLATE, "", 0, 0},
    [K_R_MATERIAL_AHEAD] = {"review", "material_ahead", TEMPLATE, "side points", 0, 0},
    [K_R_RESULT_WHITE] = {"review", "result_white", TEMPLATE, "", 0, 0},
    [K_R_RESULT_BLACK] = {"review", "result_black", TEMPLATE, "", 0, 0},
    [K_R_RESULT_DRAW] = {"review", "result_draw", TEMPLATE, "", 0, 0},
    [K_B_DROP] = {"bughouse", "drop", TEMPLATE, "piece to", 0, 0},
    [K_B_RECEIVED] = {"bughouse", "received", TEMPLATE, "piece", 0, 0},
    [K_B_POOL] = {"bughouse", "pool", TEMPLATE, "pieces", 0, 0},
    [K_B_POOL_EMPTY] = {"bughouse", "pool_empty", TEMPLATE, "", 0, 0},
    [K_B_CHOOSE] = {"bughouse", "choose", TEMPLATE, "square pieces", 0, 0},
    [K_B_OR] = {"bughouse", "or", WORD, NULL, 0, 0},
    [K_B_REFUSED] = {"bughouse", "refused", TEMPLATE, "article", 0, 0},
    [K_B_ILLEGAL] = {"bughouse", "illegal", TEMPLATE, "piece from to article", 0, 0},
    [K_B_ACCEPTED] = {"bughouse", "accepted", TEMPLATE, "article", 0, 0},
    [K_B_REPLACE] = {"bughouse", "replace", TEMPLATE, "square article", 0, 0},
    [K_B_RETURNED] = {"bughouse", "returned", TEMPLATE, "piece", 0, 0},
    [K_B_BLOCKED] = {"bughouse", "blocked", TEMPLATE, "piece board article", 0, 0},
    [K_B_HANDED_BACK] = {"bughouse", "handed_back", TEMPLATE, "piece square", 0, 0},
    [K_B_OVER] = {"bughouse", "over", TEMPLATE, "board why result", 0, 0},
    [K_B_WHY_MATE] = {"bughouse", "why_mate", TEMPLATE, "", 0, 0},
    [K_B_WHY_RESIGN] = {"bughouse", "why_resign", TEMPLATE, "", 0, 0},
    [K_B_WHY_FLAG] = {"bughouse", "why_flag", TEMPLATE, "", 0, 0},
    [K_B_WHY_FLAGS] = {"bughouse", "why_flags", TEMPLATE, "", 0, 0},
    [K_B_WHY_STALEMATE] = {"bughouse", "why_stalemate", TEMPLATE, "", 0, 0},
    [K_B_WHY_DEAD] = {"bughouse", "why_dead", TEMPLATE, "", 0, 0},
    [K_B_WHY_AGREED] = {"bughouse", "why_agreed", TEMPLATE, "", 0, 0},
};

static const char *const sections[] = {"pack",   "voice",    "pieces",  "colour_pieces", "files",
                                       "ranks",  "words",    "moves",   "messages",      "plurals",
                                       "review", "bughouse", "phonemes"};

struct parser {
    const char *path;
    long line;
    const char *section; /* one of sections[], NULL before the first header */
    long key_line[K__COUNT];
    struct tb_error *err;
};

static int fail(struct parser *p, int code, const char *entry, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct parser *p, int code, const char *entry, const char *fmt, ...)
{
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (entry)
        return tb_error_set_at(p->err, code, p->line, 0, "%s:%ld: [%s] %s: %s", p->path, p->line,
                               p->section ? p->section : "-", entry, detail);
    return tb_error_set_at(p->err, code, p->line, 0, "%s:%ld: %s", p->path, p->line, detail);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

bool tb_voice_utf8_valid(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        int extra = *u < 0x80             ? 0
                    : (*u & 0xE0) == 0xC0 ? 1
                    : (*u & 0xF0) == 0xE0 ? 2
                    : (*u & 0xF8) == 0xF0 ? 3
                                          : -1;
        if (extra < 0 || (extra == 1 && *u < 0xC2))
            return false;
        u++;
        for (int i = 0; i < extra; i++, u++)
            if ((*u & 0xC0) != 0x80)
                return false;
    }
    return true;
}

/* A placeholder list "a b c" contains name (of length n)? */
static bool allowed(const char *list, const char *name, size_t n)
{
    for (const char *s = list; *s;) {
        size_t w = strcspn(s, " ");
        if (w == n && memcmp(s, name, n) == 0)
            return true;
        s += w;
        while (*s == ' ')
            s++;
    }
    return false;
}

/* Refuses a value longer than its kind may be or holding a control character (a tab is a
 * space to the phrases); the value itself is not repeated, it may not print. */
static int check_bytes(struct parser *p, const char *entry, const char *v, bool is_template)
{
    size_t max = is_template ? TB_VOICE_TEMPLATE_MAX : TB_VOICE_WORD_MAX;
    for (const char *s = v; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7F)
            return fail(p, TB_ERR_PARSE, entry, "control character 0x%02x at byte %zu of the value",
                        (unsigned char)*s, (size_t)(s - v) + 1);
    if (strlen(v) > max)
        return fail(p, TB_ERR_PARSE, entry, "%s longer than %zu bytes",
                    is_template ? "template" : "word", max);
    return TB_OK;
}

static int check_template(struct parser *p, const struct keydef *k, const char *v)
{
    for (const char *s = v; *s; s++) {
        if (*s == '}')
            return fail(p, TB_ERR_PARSE, k->key, "'}' without '{' in \"%s\"", v);
        if (*s != '{')
            continue;
        const char *end = strchr(s, '}');
        if (!end)
            return fail(p, TB_ERR_PARSE, k->key, "'{' without '}' in \"%s\"", v);
        char name[32];
        size_t n = (size_t)(end - s - 1);
        if (n == 0 || n >= sizeof name || !allowed(k->placeholders, s + 1, n)) {
            snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1),
                     s + 1);
            char what[128];
            snprintf(what, sizeof what, "{%s} (allowed: %s)", name,
                     *k->placeholders ? k->placeholders : "none");
            return fail(p, TB_ERR_PARSE, k->key, "unknown placeholder %s", what);
        }
        s = end;
    }
    return TB_OK;
}

static int check_value(struct parser *p, const struct keydef *k, const char *v)
{
    if (!*v)
        return fail(p, TB_ERR_PARSE, k->key, "empty value");
    if (!tb_voice_utf8_valid(v))
        return fail(p, TB_ERR_PARSE, k->key, "value is not UTF-8");
    int rc = check_bytes(p, k->key, v, k->kind == TEMPLATE);
    if (rc)
        return rc;
    switch (k->kind) {
    case NUMBER: {
        char *end;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (errno || *end || n < k->min || n > k->max) {
            char what[96];
            snprintf(what, sizeof what, "\"%s\" is not a number from %d to %d", v, k->min, k->max);
            return fail(p, TB_ERR_PARSE, k->key, "%s", what);
        }
        return TB_OK;
    }
    case NAME:
        for (const char *s = v; *s; s++)
            if (!isalnum((unsigned char)*s) && !strchr("+-_./", *s))
                return fail(p, TB_ERR_PARSE, k->key,
                            "\"%s\" may hold only letters, digits and + - _ . /", v);
        return TB_OK;
    case WORD:
        if (strpbrk(v, "{}[]"))
            return fail(p, TB_ERR_PARSE, k->key, "\"%s\": a word may not contain { } [ ]", v);
        return TB_OK;
    case TEMPLATE:
        return check_template(p, k, v);
    }
    return TB_OK;
}

static int add_phoneme(struct parser *p, struct tb_voice_pack *pack, const char *word,
                       const char *v)
{
    size_t n = strlen(v);
    if (!tb_voice_utf8_valid(word) || strpbrk(word, "{}[]"))
        return fail(p, TB_ERR_PARSE, word, "not a word");
    int rc = check_bytes(p, word, word, false);
    if (!rc)
        rc = check_bytes(p, word, v, true);
    if (rc)
        return rc;
    if (n < 5 || strncmp(v, "[[", 2) != 0 || strcmp(v + n - 2, "]]") != 0 ||
        strpbrk(v + 2, "[") != NULL || strstr(v + 2, "]]") != v + n - 2)
        return fail(p, TB_ERR_PARSE, word, "\"%s\" is not an eSpeak phoneme spelling [[...]]", v);
    for (int i = 0; i < pack->nphonemes; i++)
        if (strcmp(pack->phonemes[i].word, word) == 0)
            return fail(p, TB_ERR_PARSE, word, "duplicate entry");
    struct tb_voice__phoneme *ph =
        realloc(pack->phonemes, (size_t)(pack->nphonemes + 1) * sizeof *ph);
    if (!ph)
        return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
    pack->phonemes = ph;
    ph[pack->nphonemes].word = strdup(word);
    ph[pack->nphonemes].spelling = strdup(v);
    pack->nphonemes++;
    if (!ph[pack->nphonemes - 1].word || !ph[pack->nphonemes - 1].spelling)
        return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
    return TB_OK;
}

static int parse_line(struct parser *p, struct tb_voice_pack *pack, char *raw)
{
    char *s = trim(raw);
    if (!*s || *s == '#')
        return TB_OK;
    if (*s == '[') {
        char *end = strchr(s, ']');
        if (!end || end[1] != '\0')
            return fail(p, TB_ERR_PARSE, NULL, "malformed section header \"%s\"", s);
        *end = '\0';
        for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
            if (strcmp(s + 1, sections[i]) == 0) {
                p->section = sections[i];
                return TB_OK;
            }
        return fail(p, TB_ERR_PARSE, NULL, "unknown section [%s]", s + 1);
    }
    char *eq = strchr(s, '=');
    if (!eq)
        return fail(p, TB_ERR_PARSE, NULL, "malformed line \"%s\" (expected key = value)", s);
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!*key)
        return fail(p, TB_ERR_PARSE, NULL, "malformed line: no key before '='");
    for (const char *c = key; *c; c++)
        if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7F)
            return fail(p, TB_ERR_PARSE, NULL, "control character 0x%02x in a key",
                        (unsigned char)*c);
    if (!p->section)
        return fail(p, TB_ERR_PARSE, key, "entry before the first [section]");
    if (strcmp(p->section, "phonemes") == 0)
        return add_phoneme(p, pack, key, value);
    for (int i = 0; i < K__COUNT; i++) {
        if (strcmp(keys[i].section, p->section) != 0 || strcmp(keys[i].key, key) != 0)
            continue;
        if (p->key_line[i]) {
            char first[32];
            snprintf(first, sizeof first, "%ld", p->key_line[i]);
            return fail(p, TB_ERR_PARSE, key, "duplicate entry (first on line %s)", first);
        }
        int rc = check_value(p, &keys[i], value);
        if (rc)
            return rc;
        if (!(pack->value[i] = strdup(value)))
            return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
        p->key_line[i] = p->line;
        return TB_OK;
    }
    return fail(p, TB_ERR_PARSE, key, "unknown entry");
}

/* Longer phoneme words first, so "en passant" wins over a word inside it. */
static int by_length_desc(const void *a, const void *b)
{
    size_t la = strlen(((const struct tb_voice__phoneme *)a)->word);
    size_t lb = strlen(((const struct tb_voice__phoneme *)b)->word);
    return la < lb ? 1 : la > lb ? -1 : 0;
}

static int finish(struct parser *p, struct tb_voice_pack *pack)
{
    for (int i = 0; i < K__COUNT; i++)
        if (!pack->value[i])
            return tb_error_set_at(p->err, TB_ERR_PARSE, 0, 0, "%s: [%s] %s: missing entry",
                                   p->path, keys[i].section, keys[i].key);
    struct tb_voice_settings *st = &pack->settings;
    snprintf(st->espeak_voice, sizeof st->espeak_voice, "%s", pack->value[K_VOICE_ESPEAK]);
    st->rate = atoi(pack->value[K_VOICE_RATE]);
    st->pitch = atoi(pack->value[K_VOICE_PITCH]);
    st->volume = atoi(pack->value[K_VOICE_VOLUME]);
    st->wordgap = atoi(pack->value[K_VOICE_WORDGAP]);
    if (pack->nphonemes > 1)
        qsort(pack->phonemes, (size_t)pack->nphonemes, sizeof *pack->phonemes, by_length_desc);
    return TB_OK;
}

#define LINE_MAX_BYTES 1000
enum { LINE_OK = 1, LINE_LONG = -1, LINE_NUL = -2 };

/* The text a pack is read from, and how far it has been read. */
struct source {
    const char *text;
    size_t len, at;
};

/* Reads one line (its newline dropped) into buf. Returns 0 at the end of the text, LINE_OK,
 * LINE_LONG for a line of more than LINE_MAX_BYTES or LINE_NUL for one holding a NUL byte, which
 * would end the text early. The rest of a refused line is not read: loading stops there. */
static int read_line(struct source *src, char *buf, size_t len)
{
    if (src->at >= src->len)
        return 0;
    size_t n = 0;
    bool nul = false;
    while (src->at < src->len) {
        char c = src->text[src->at++];
        if (c == '\n')
            break;
        if (c == '\0')
            nul = true;
        if (n + 1 >= len)
            return LINE_LONG;
        buf[n++] = c;
    }
    buf[n] = '\0';
    return nul ? LINE_NUL : LINE_OK;
}

int tb_voice_pack_load_text(const char *name, const char *text, size_t len,
                            struct tb_voice_pack **out, struct tb_error *err)
{
    if (!name || (!text && len) || !out)
        return tb_error_set(err, TB_ERR_ARG, "no pack name, text or output");
    struct tb_voice_pack *pack = calloc(1, sizeof *pack);
    struct parser p = {.path = name, .err = err};
    struct source src = {.text = text, .len = len};
    int rc = pack && (pack->path = strdup(name)) ? TB_OK : TB_ERR_MEM;
    if (rc)
        tb_error_set(err, rc, "out of memory");
    char line[LINE_MAX_BYTES + 1];
    int got;
    while (!rc && (got = read_line(&src, line, sizeof line)) != 0) {
        p.line++;
        if (got == LINE_LONG)
            rc = fail(&p, TB_ERR_PARSE, NULL, "line longer than %d bytes", LINE_MAX_BYTES);
        else if (got == LINE_NUL)
            rc = fail(&p, TB_ERR_PARSE, NULL, "NUL byte in line");
        else
            rc = parse_line(&p, pack, line);
    }
    if (!rc)
        rc = finish(&p, pack);
    if (rc) {
        tb_voice_pack_free(pack);
        return rc;
    }
    *out = pack;
    return TB_OK;
}

int tb_voice_pack_load_file(const char *path, struct tb_voice_pack **out, struct tb_error *err)
{
    if (!path || !out)
        return tb_error_set(err, TB_ERR_ARG, "no pack path");
    char *text;
    size_t len;
    struct tb_error read_err;
    int rc = tb_read_file(path, &text, &len, &read_err);
    if (rc) {
        int saved = errno;
        if (rc == TB_ERR_SYS && saved == ENOENT)
            return tb_error_set(err, TB_ERR_NOTFOUND, "%s: cannot open: %s", path, strerror(saved));
        if (err)
            *err = read_err;
        return rc;
    }
    rc = tb_voice_pack_load_text(path, text, len, out, err);
    free(text);
    return rc;
}

/* The installed packs relative to the running program (bin/ or sbin/ beside share/), so an
 * installed tree moved to another prefix, or unpacked under DESTDIR, still finds its own. */
static size_t exe_data_dir(char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    int w = snprintf(buf, len, "%s/" TB_VOICE_DATA_REL "/packs:", exe);
    return w < 0 || (size_t)w >= len ? 0 : (size_t)w;
}

/* TB_VOICE_PACKS, else $TWINBOARD_DATA_DIR/packs, else the installed packs beside the program,
 * the build tree's copy, the configured prefix's and the source tree's. */
static int search_path(char *buf, size_t len)
{
    const char *env = getenv("TB_VOICE_PACKS");
    const char *data = getenv("TWINBOARD_DATA_DIR");
    int n;
    if (env && *env)
        n = snprintf(buf, len, "%s", env);
    else if (data && *data)
        n = snprintf(buf, len, "%s/packs", data);
    else {
        size_t used = exe_data_dir(buf, len);
        n = snprintf(buf + used, len - used, "%s", TB_VOICE_PACK_DIRS);
        n = n < 0 ? n : n + (int)used;
    }
    return n < 0 || (size_t)n >= len ? TB_ERR_FULL : n;
}

int tb_voice_pack_search_path(char *buf, size_t len)
{
    return search_path(buf, len);
}

static int check_name(const char *name, struct tb_error *err)
{
    for (const char *s = name; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return tb_error_set(err, TB_ERR_ARG,
                                "pack name \"%s\" may hold only letters, digits, - and _", name);
    return *name ? TB_OK : tb_error_set(err, TB_ERR_ARG, "empty pack name");
}

int tb_voice_pack_find(const char *name, const char *dirs, char *path, size_t len,
                       struct tb_error *err)
{
    if (!name || !path || len == 0)
        return tb_error_set(err, TB_ERR_ARG, "no pack name or no buffer");
    int rc = check_name(name, err);
    if (rc)
        return rc;
    char buf[8192];
    if (!dirs) {
        if (search_path(buf, sizeof buf) < 0)
            return tb_error_set(err, TB_ERR_FULL, "the phrase pack search path is too long");
        dirs = buf;
    }
    for (const char *d = dirs; *d;) {
        size_t n = strcspn(d, ":");
        int k = snprintf(path, len, "%.*s/%s.pack", (int)n, d, name);
        if (n > 0 && k > 0 && (size_t)k < len && access(path, R_OK) == 0)
            return k;
        d += n;
        if (*d == ':')
            d++;
    }
    path[0] = '\0';
    return tb_error_set(err, TB_ERR_NOTFOUND, "no phrase pack \"%s\" in %s", name, dirs);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Adds name to names unless it is there; TB_ERR_MEM when it cannot. */
static int add_name(char ***names, int *n, int *cap, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*names)[i], name) == 0)
            return TB_OK;
    if (*n == *cap) {
        int grown_cap = *cap ? 2 * *cap : 8;
        char **grown = realloc(*names, (size_t)grown_cap * sizeof *grown);
        if (!grown)
            return TB_ERR_MEM;
        *names = grown;
        *cap = grown_cap;
    }
    if (!((*names)[*n] = strdup(name)))
        return TB_ERR_MEM;
    (*n)++;
    return TB_OK;
}

/* The pack names NAME of every NAME.pack in dirs, each once, sorted (malloc'd). */
static int collect_names(const char *dirs, char ***out, int *count)
{
    char **names = NULL;
    int n = 0, cap = 0, rc = TB_OK;
    for (const char *d = dirs; *d && !rc;) {
        size_t dn = strcspn(d, ":");
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)dn, d);
        DIR *dp = dn > 0 && dn < sizeof dir ? opendir(dir) : NULL;
        for (struct dirent *e; !rc && dp && (e = readdir(dp));) {
            size_t len = strlen(e->d_name);
            char name[256];
            if (len <= 5 || len - 5 >= sizeof name || strcmp(e->d_name + len - 5, ".pack") != 0)
                continue;
            snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
            if (check_name(name, NULL) == TB_OK)
                rc = add_name(&names, &n, &cap, name);
        }
        if (dp)
            closedir(dp);
        d += dn;
        if (*d == ':')
            d++;
    }
    if (rc) {
        free_names(names, n);
        return rc;
    }
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, by_name);
    *out = names;
    *count = n;
    return TB_OK;
}

int tb_voice_pack_list(const char *dirs, void (*fn)(void *arg, const char *name, const char *path),
                       void *arg)
{
    char buf[8192];
    if (!dirs) {
        if (search_path(buf, sizeof buf) < 0)
            return TB_ERR_FULL;
        dirs = buf;
    }
    char **names = NULL;
    int n = 0, rc = collect_names(dirs, &names, &n);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        char path[4096];
        if (fn && tb_voice_pack_find(names[i], dirs, path, sizeof path, NULL) > 0)
            fn(arg, names[i], path);
    }
    free_names(names, n);
    return n;
}

int tb_voice_pack_load(const char *name, struct tb_voice_pack **out, struct tb_error *err)
{
    if (!name || !*name)
        name = "de-fide";
    char path[4096];
    int rc = tb_voice_pack_find(name, NULL, path, sizeof path, err);
    return rc < 0 ? rc : tb_voice_pack_load_file(path, out, err);
}

void tb_voice_pack_free(struct tb_voice_pack *pack)
{
    if (!pack)
        return;
    for (int i = 0; i < K__COUNT; i++)
        free(pack->value[i]);
    for (int i = 0; i < pack->nphonemes; i++) {
        free(pack->phonemes[i].word);
        free(pack->phonemes[i].spelling);
    }
    free(pack->phonemes);
    free(pack->path);
    free(pack);
}

const char *tb_voice_pack_name(const struct tb_voice_pack *pack)
{
    return pack->value[K_PACK_NAME];
}

void tb_voice_pack_settings(const struct tb_voice_pack *pack, struct tb_voice_settings *out)
{
    *out = pack->settings;
}

static bool word_byte(unsigned char c)
{
    return isalnum(c) || c >= 0x80;
}

int tb_voice_pack_speech_text(const struct tb_voice_pack *pack, const char *text, char *buf,
                              size_t len)
{
    size_t pos = 0;
    for (size_t i = 0; text[i];) {
        const char *add = NULL;
        size_t skip = 1;
        if (i == 0 || !word_byte((unsigned char)text[i - 1])) {
            for (int k = 0; k < pack->nphonemes && !add; k++) {
                size_t n = strlen(pack->phonemes[k].word);
                if (strncmp(text + i, pack->phonemes[k].word, n) == 0 &&
                    !word_byte((unsigned char)text[i + n])) {
                    add = pack->phonemes[k].spelling;
                    skip = n;
                }
            }
        }
        size_t n = add ? strlen(add) : 1;
        if (pos + n >= len)
            return TB_ERR_FULL;
        memcpy(buf + pos, add ? add : text + i, n);
        pos += n;
        i += skip;
    }
    if (pos >= len)
        return TB_ERR_FULL;
    buf[pos] = '\0';
    return (int)pos;
}
