/* ctlproto.c - the control protocol: parsing requests, reading lines, formatting responses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_clock.h" /* clock-set: a duration as a time control writes it */
#include "tb_ctl.h"

#define MAX_WORDS 12

#define TB_CTL_ROW(id, name, min, max, flags, h, usage, cli, cli_args, cli_summary)                \
    {TB_CTL_##id, name, min, max, flags, usage, cli, cli_args, cli_summary},
static const struct tb_ctl_verb_info verbs[] = {TB_CTL_VERBS(TB_CTL_ROW)};
#undef TB_CTL_ROW

#define NVERBS (sizeof verbs / sizeof verbs[0])
_Static_assert(NVERBS == TB_CTL_NVERBS - 1, "one row per request, in the enum's order");

const struct tb_ctl_verb_info *tb_ctl_verb_info(enum tb_ctl_verb v)
{
    return v > TB_CTL_NO_VERB && v < TB_CTL_NVERBS ? &verbs[v - 1] : NULL;
}

const struct tb_ctl_verb_info *tb_ctl_verb_at(int i)
{
    return i >= 0 && i < (int)NVERBS ? &verbs[i] : NULL;
}

const char *tb_ctl_verb_name(enum tb_ctl_verb verb)
{
    const struct tb_ctl_verb_info *v = tb_ctl_verb_info(verb);
    return v ? v->name : "";
}

bool tb_ctl_verb_is_multiline(enum tb_ctl_verb verb)
{
    const struct tb_ctl_verb_info *v = tb_ctl_verb_info(verb);
    return v && (v->flags & TB_CTL_MULTI);
}

const char *tb_ctl_help_line(int i)
{
    return i >= 0 && i < (int)NVERBS ? verbs[i].usage : NULL;
}

unsigned tb_ctl_request_modes(const struct tb_ctl_request *req)
{
    const struct tb_ctl_verb_info *v = tb_ctl_verb_info(req->verb);
    if (!v)
        return 0;
    if (v->flags & TB_CTL_BY_BOARD)
        return req->bug_board ? TB_CTL_BUG : TB_CTL_TWIN;
    return v->flags & (TB_CTL_TWIN | TB_CTL_BUG);
}

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t want;
    uint32_t min, cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0)
        want = 2, min = 0x80, cp = s[0] & 0x1f;
    else if ((s[0] & 0xf0) == 0xe0)
        want = 3, min = 0x800, cp = s[0] & 0x0f;
    else if ((s[0] & 0xf8) == 0xf0)
        want = 4, min = 0x10000, cp = s[0] & 0x07;
    else
        return 0;
    if (n < want)
        return 0;
    for (size_t i = 1; i < want; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return want;
}

/* Every byte must be printable UTF-8; tab counts as a space. */
static int check_bytes(const char *line, size_t len, struct tb_error *err)
{
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < len;) {
        if (s[i] == 0)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                   "request contains a NUL byte at column %zu", i + 1);
        if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                   "request contains control character 0x%02x at column %zu", s[i],
                                   i + 1);
        size_t n = utf8_len(s + i, len - i);
        if (!n)
            return tb_error_set_at(err, TB_ERR_PARSE, 1, (long)i + 1,
                                   "request is not valid UTF-8 at column %zu", i + 1);
        i += n;
    }
    return TB_OK;
}

static bool all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* A decimal number lo..hi without sign or leading zeros. */
static bool parse_number(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    if (!all_digits(s) || (s[0] == '0' && s[1]) || strlen(s) > 9)
        return false;
    unsigned long v = strtoul(s, NULL, 10);
    if (v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

static int parse_board(const char *s, int *board)
{
    if (strcmp(s, "vi") == 0)
        *board = 0;
    else if (strcmp(s, "sighted") == 0)
        *board = 1;
    else
        return TB_ERR_PARSE;
    return TB_OK;
}

/* doorgeefschaak: board a or b */
static int parse_bug_board(const char *s, struct tb_ctl_request *req)
{
    if ((s[0] != 'a' && s[0] != 'b') || s[1])
        return TB_ERR_PARSE;
    req->board = s[0] - 'a';
    req->bug_board = true;
    return TB_OK;
}

/* doorgeefschaak: a seat by name or number (0 White A, 1 Black A, 2 White B, 3 Black B) */
static int parse_seat(const char *s, int *seat)
{
    static const char *const names[] = {"white-a", "black-a", "white-b", "black-b"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i]) || (s[0] == '0' + i && !s[1])) {
            *seat = i;
            return TB_OK;
        }
    return TB_ERR_PARSE;
}

static const char *const tag_names[TB_CTL_TAGS] = {"event", "site",  "date",
                                                   "round", "white", "black"};

const char *tb_ctl_tag_name(enum tb_ctl_tag t)
{
    return (unsigned)t < TB_CTL_TAGS ? tag_names[t] : "";
}

/* new-game key=value...: each tag once, PGN-safe (no quote or backslash). */
static int parse_tags(char **words, int nargs, struct tb_ctl_request *req, struct tb_error *err)
{
    for (int i = 1; i <= nargs; i++) {
        const char *eq = strchr(words[i], '=');
        int t = 0;
        while (eq && t < TB_CTL_TAGS &&
               (strlen(tag_names[t]) != (size_t)(eq - words[i]) ||
                strncmp(words[i], tag_names[t], (size_t)(eq - words[i])) != 0))
            t++;
        if (!eq || t == TB_CTL_TAGS)
            return tb_error_set(err, TB_ERR_PARSE,
                                "new-game: '%.20s' is not event=, site=, date=, round=, white= or "
                                "black=",
                                words[i]);
        const char *v = eq + 1;
        if (req->tag[t][0])
            return tb_error_set(err, TB_ERR_PARSE, "new-game: %s= is given twice", tag_names[t]);
        if (!*v || strlen(v) > TB_CTL_TAG_MAX || strpbrk(v, "\"\\"))
            return tb_error_set(err, TB_ERR_PARSE,
                                "new-game: %s= takes 1 to %d bytes without \" or \\", tag_names[t],
                                TB_CTL_TAG_MAX);
        strcpy(req->tag[t], v);
    }
    return TB_OK;
}

static int parse_side(const char *s, int *side)
{
    *side = !strcmp(s, "white") ? 0 : !strcmp(s, "black") ? 1 : -1;
    return *side < 0 ? TB_ERR_PARSE : TB_OK;
}

/* result HOW [...]: resign|flag take a side, arbiter a result and a reason. */
static int parse_result(char **words, int nargs, struct tb_ctl_request *req, struct tb_error *err)
{
    static const struct {
        const char *name;
        int how, args; /* words after HOW; -1: a result and any reason */
    } hows[] = {{"resign", TB_CTL_RESULT_RESIGN, 1}, {"draw", TB_CTL_RESULT_DRAW, 0},
                {"flag", TB_CTL_RESULT_FLAG, 1},     {"threefold", TB_CTL_RESULT_THREEFOLD, 0},
                {"fifty", TB_CTL_RESULT_FIFTY, 0},   {"arbiter", TB_CTL_RESULT_ARBITER, -1}};
    size_t i = 0;
    while (i < sizeof hows / sizeof hows[0] && strcmp(words[1], hows[i].name))
        i++;
    if (i == sizeof hows / sizeof hows[0])
        return tb_error_set(err, TB_ERR_PARSE,
                            "result: '%.20s' is not resign, draw, flag, threefold, fifty or "
                            "arbiter",
                            words[1]);
    req->how = hows[i].how;
    int more = nargs - 1;
    if (hows[i].args >= 0 && more != hows[i].args)
        return tb_error_set(err, TB_ERR_PARSE, "result %s takes %s", hows[i].name,
                            hows[i].args ? "white or black" : "nothing more");
    if (hows[i].args == 1 && parse_side(words[2], &req->side) != TB_OK)
        return tb_error_set(err, TB_ERR_PARSE, "result %s: '%.20s' is not white or black",
                            hows[i].name, words[2]);
    if (hows[i].args >= 0)
        return TB_OK;
    if (more < 1 ||
        (strcmp(words[2], "1-0") && strcmp(words[2], "0-1") && strcmp(words[2], "1/2-1/2")))
        return tb_error_set(err, TB_ERR_PARSE,
                            "result arbiter takes 1-0, 0-1 or 1/2-1/2, then the reason");
    strcpy(req->result, words[2]);
    size_t used = 0;
    for (int w = 3; w <= nargs; w++) { /* the reason, its words joined by one space */
        size_t n = strlen(words[w]);
        if (used + n + 1 > TB_CTL_TEXT_MAX)
            return tb_error_set(err, TB_ERR_PARSE, "result arbiter: a reason of at most %d bytes",
                                TB_CTL_TEXT_MAX);
        if (used)
            req->text[used++] = ' ';
        memcpy(req->text + used, words[w], n + 1);
        used += n;
    }
    return TB_OK;
}

/* "1:25:00", "45:30", or a duration as a control writes it ("1h25m", "90s"). */
static bool parse_left(const char *s, uint64_t *ms)
{
    unsigned h, m, sec;
    char end;
    if (sscanf(s, "%u:%u:%u%c", &h, &m, &sec, &end) == 3 && m < 60 && sec < 60)
        *ms = ((uint64_t)h * 3600 + m * 60 + sec) * 1000;
    else if (sscanf(s, "%u:%u%c", &m, &sec, &end) == 2 && sec < 60)
        *ms = ((uint64_t)m * 60 + sec) * 1000;
    else if (strchr(s, ':') || tb_clock_warnings_parse(ms, 1, s, NULL) != 1)
        return false;
    return *ms <= TB_CLOCK_MAX_PERIOD_MS;
}

bool tb_ctl_clock_times(const char *text, uint64_t ms[2])
{
    char w[16], b[16], extra;
    return sscanf(text, "%15s %15s %c", w, b, &extra) == 2 && parse_left(w, &ms[0]) &&
           parse_left(b, &ms[1]);
}

/* Splits buf into words at blanks; a double-quoted part keeps its blanks (the quotes go). */
static int split_words(char *buf, char **words, int *nwords, struct tb_error *err)
{
    char *r = buf, *w = buf;
    *nwords = 0;
    while (*r) {
        while (*r == ' ' || *r == '\t')
            r++;
        if (!*r)
            break;
        if (*nwords == MAX_WORDS + 1)
            return tb_error_set(err, TB_ERR_PARSE, "too many words (at most %d)", MAX_WORDS);
        words[(*nwords)++] = w;
        bool quoted = false;
        for (; *r && (quoted || (*r != ' ' && *r != '\t')); r++) {
            if (*r == '"')
                quoted = !quoted;
            else
                *w++ = *r;
        }
        if (quoted)
            return tb_error_set(err, TB_ERR_PARSE, "a quote is not closed");
        char *next = *r ? r + 1 : r; /* w never passes r: the word is ended in place */
        *w++ = '\0';
        r = next;
    }
    return TB_OK;
}

/* Arguments of one request; words[0] is the request itself. */
static int parse_args(const struct tb_ctl_verb_info *v, char **words, int nargs,
                      struct tb_ctl_request *req, struct tb_error *err)
{
    const char *a = nargs ? words[1] : "";
    switch (v->verb) {
    case TB_CTL_SCORESHEET:
        if (nargs && strcmp(a, "en") && strcmp(a, "nl") && strcmp(a, "de"))
            return tb_error_set(err, TB_ERR_PARSE,
                                "scoresheet language '%.20s' is not en, nl or de", a);
        strcpy(req->lang, a);
        break;
    case TB_CTL_RESOLVE:
        if (!parse_number(a, 1, 999999, &req->number))
            return tb_error_set(err, TB_ERR_PARSE,
                                "resolve needs a mismatch number (1 to 999999), not '%.20s'", a);
        break;
    case TB_CTL_TAKEBACK:
        req->number = 1;
        if (nargs && !parse_number(a, 1, 999, &req->number))
            return tb_error_set(err, TB_ERR_PARSE,
                                "takeback needs a number of plies (1 to 999), not '%.20s'", a);
        break;
    case TB_CTL_PROMOTE:
        req->board = -1; /* the board of the player to move */
        if (nargs == 2 && parse_board(a, &req->board) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE,
                                "promote: board must be vi or sighted, not '%.20s'", a);
        a = words[nargs];
        if (strlen(a) != 1 || !strchr("qrbn", a[0]))
            return tb_error_set(err, TB_ERR_PARSE, "promote takes q, r, b or n, not '%.20s'", a);
        req->piece = a[0];
        break;
    case TB_CTL_REPEAT:
        req->board = -1;
        if (nargs && parse_board(a, &req->board) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE, "repeat takes vi or sighted, not '%.20s'", a);
        break;
    case TB_CTL_SET_POSITION: {
        size_t used = 0;
        for (int i = 1; i <= nargs; i++) {
            size_t n = strlen(words[i]);
            if (strspn(words[i], "pnbrqkPNBRQK0123456789/wb-abcdefghABCDEFGH") != n)
                return tb_error_set(err, TB_ERR_PARSE, "set-position: '%.20s' is not part of a FEN",
                                    words[i]);
            if (used + n + 1 > TB_CTL_TEXT_MAX)
                return tb_error_set(err, TB_ERR_PARSE, "set-position: FEN longer than %d bytes",
                                    TB_CTL_TEXT_MAX);
            if (i > 1)
                req->text[used++] = ' ';
            memcpy(req->text + used, words[i], n);
            used += n;
            req->text[used] = '\0';
        }
        break;
    }
    case TB_CTL_MOVE: /* doorgeefschaak: a|b, and drops (N@f3) */
        if (parse_board(a, &req->board) != TB_OK && parse_bug_board(a, req) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE,
                                "move: board must be vi or sighted (a or b in doorgeefschaak), "
                                "not '%.20s'",
                                a);
        if (strlen(words[2]) < 2 || strlen(words[2]) > 10 ||
            strspn(words[2], "abcdefgh12345678KQRBNPOqrbnpx+#=-0@") != strlen(words[2]))
            return tb_error_set(err, TB_ERR_PARSE,
                                "move: '%.20s' is not a move in SAN (Nf3, O-O, exd8=Q) or UCI "
                                "(g1f3)",
                                words[2]);
        strcpy(req->text, words[2]);
        break;
    case TB_CTL_REVIEW: {
        static const char *const what[] = {"last",    "from",     "position",
                                           "to-move", "material", "scoresheet"};
        const char *w = nargs >= 2 ? words[2] : "last";
        if (parse_board(a, &req->board) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE,
                                "review: board must be vi or sighted, not '%.20s'", a);
        size_t i = 0;
        while (i < sizeof what / sizeof what[0] && strcmp(w, what[i]) != 0)
            i++;
        if (i == sizeof what / sizeof what[0])
            return tb_error_set(err, TB_ERR_PARSE,
                                "review: '%.20s' is not last, from, position, to-move, material or "
                                "scoresheet",
                                w);
        strcpy(req->text, what[i]);
        bool counted = i == 0 || i == 1;
        if (nargs == 3 && (!counted || !parse_number(words[3], 1, 999, &req->number)))
            return tb_error_set(err, TB_ERR_PARSE, "review %s: '%.20s' %s", what[i], words[3],
                                counted ? "is not a number from 1 to 999" : "takes no number");
        if (i == 1 && nargs < 3)
            return tb_error_set(err, TB_ERR_PARSE, "review from needs a move number");
        break;
    }
    case TB_CTL_SET_PIN: /* the new PIN is never echoed, not even in an error */
        if (tb_ctl_pin_weakness(a))
            return tb_error_set(err, TB_ERR_PARSE, "set-pin: the new PIN %s",
                                tb_ctl_pin_weakness(a));
        strcpy(req->text, a);
        break;
    case TB_CTL_RESULT:
        return parse_result(words, nargs, req, err);
    case TB_CTL_NEW_GAME:
        return parse_tags(words, nargs, req, err);
    case TB_CTL_HAND: /* doorgeefschaak */
        if (parse_seat(a, &req->seat) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE,
                                "hand: '%.20s' is not white-a, black-a, white-b, black-b or 0..3",
                                a);
        break;
    case TB_CTL_RESIGN:
    case TB_CTL_CHOOSE:
        if (parse_bug_board(a, req) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE, "%s: board must be a or b, not '%.20s'", v->name,
                                a);
        if (v->verb == TB_CTL_RESIGN && parse_side(words[2], &req->side) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE, "resign: '%.20s' is not white or black",
                                words[2]);
        if (v->verb == TB_CTL_CHOOSE && (strlen(words[2]) != 1 || !strchr("qrbnp", words[2][0])))
            return tb_error_set(err, TB_ERR_PARSE, "choose takes q, r, b, n or p, not '%.20s'",
                                words[2]);
        req->piece = words[2][0];
        break;
    case TB_CTL_ACCEPT: /* doorgeefschaak, article 7 */
    case TB_CTL_REPLACE:
        if (parse_bug_board(a, req) != TB_OK)
            return tb_error_set(err, TB_ERR_PARSE, "%s: board must be a or b, not '%.20s'", v->name,
                                a);
        break;
    case TB_CTL_CLOCK_SET: /* the game's clock: two times, read by the daemon's clock */
        for (int i = 1; i <= 2; i++)
            if (strlen(words[i]) > 12 || strspn(words[i], "0123456789:hms") != strlen(words[i]))
                return tb_error_set(err, TB_ERR_PARSE,
                                    "clock-set: '%.20s' is not a time (1:25:00, 45:30 or 1h25m)",
                                    words[i]);
        snprintf(req->text, sizeof req->text, "%s %s", words[1], words[2]);
        req->clock_ok = tb_ctl_clock_times(req->text, req->clock_ms);
        break;
    default:
        break;
    }
    return TB_OK;
}

int tb_ctl_parse(const char *line, size_t len, struct tb_ctl_request *out, struct tb_error *err)
{
    if (!line || !out)
        return tb_error_set(err, TB_ERR_ARG, "no request");
    if (len && line[len - 1] == '\n')
        len--;
    if (len && line[len - 1] == '\r')
        len--;
    if (len + 1 > TB_CTL_LINE_MAX)
        return tb_error_set(err, TB_ERR_FULL, "request longer than %d bytes", TB_CTL_LINE_MAX - 1);
    int rc = check_bytes(line, len, err);
    if (rc != TB_OK)
        return rc;

    char buf[TB_CTL_LINE_MAX];
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *words[MAX_WORDS + 1];
    int nwords = 0;
    if ((rc = split_words(buf, words, &nwords, err)) != TB_OK)
        return rc;
    if (nwords == 0)
        return tb_error_set(err, TB_ERR_PARSE, "empty request; try help");

    const struct tb_ctl_verb_info *v = NULL;
    for (size_t i = 0; i < NVERBS; i++)
        if (strcmp(words[0], verbs[i].name) == 0)
            v = &verbs[i];
    if (!v)
        return tb_error_set(err, TB_ERR_NOTFOUND, "unknown request '%.32s'; try help", words[0]);

    bool needs_pin = v->flags & TB_CTL_PIN;
    struct tb_ctl_request req = {.verb = v->verb, .needs_pin = needs_pin};
    for (int i = 1; i < nwords; i++) {
        if (strncmp(words[i], "pin=", 4) != 0)
            continue;
        if (!needs_pin)
            return tb_error_set(err, TB_ERR_PARSE, "%s takes no PIN", v->name);
        if (i != nwords - 1)
            return tb_error_set(err, TB_ERR_PARSE, "pin= must come last");
        const char *pin = words[i] + 4;
        size_t n = strlen(pin);
        if (!all_digits(pin) || n > TB_CTL_PIN_MAX) /* never echo what was given */
            return tb_error_set(err, TB_ERR_PARSE, "pin= takes up to %d digits", TB_CTL_PIN_MAX);
        strcpy(req.pin, pin);
        req.has_pin = true;
        nwords--;
    }
    int nargs = nwords - 1;
    if (nargs < v->min_args || nargs > v->max_args)
        return tb_error_set(err, TB_ERR_PARSE, "%s takes %s; usage: %s", v->name,
                            nargs < v->min_args ? "more arguments" : "fewer arguments", v->usage);
    rc = parse_args(v, words, nargs, &req, err);
    if (rc != TB_OK)
        return rc;
    *out = req;
    return TB_OK;
}

_Static_assert(TB_CTL_PIN_MIN == 6 && TB_CTL_PIN_MAX == 8, "the reason below names 6 to 8");

const char *tb_ctl_pin_weakness(const char *pin)
{
    size_t n = strlen(pin);
    if (!all_digits(pin) || n < TB_CTL_PIN_MIN || n > TB_CTL_PIN_MAX)
        return "must be 6 to 8 digits";
    bool same = true, up = true, down = true; /* a run wraps: 890123, 210987 */
    for (size_t i = 1; i < n; i++) {
        int step = (pin[i] - pin[i - 1] + 10) % 10;
        same &= step == 0;
        up &= step == 1;
        down &= step == 9;
    }
    if (same)
        return "is one digit repeated (like 000000): the first guess of anyone";
    if (up || down)
        return "is a run of digits (like 123456 or 654321): the first guess of anyone";
    return NULL;
}

bool tb_ctl_pin_equal(const char *expected, const char *given)
{
    /* Both are padded into fixed buffers and compared whole: no early exit. */
    unsigned char a[TB_CTL_PIN_MAX + 1] = {0}, b[TB_CTL_PIN_MAX + 1] = {0};
    size_t la = strnlen(expected, TB_CTL_PIN_MAX + 1), lb = strnlen(given, TB_CTL_PIN_MAX + 1);
    memcpy(a, expected, la > TB_CTL_PIN_MAX ? TB_CTL_PIN_MAX : la);
    memcpy(b, given, lb > TB_CTL_PIN_MAX ? TB_CTL_PIN_MAX : lb);
    volatile unsigned diff = (unsigned)(la ^ lb);
    for (size_t i = 0; i < sizeof a; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0 && la > 0;
}

int tb_ctl_pin_missing(const struct tb_ctl_request *req, const char *configured_pin,
                       struct tb_error *err)
{
    if (!req)
        return TB_ERR_ARG;
    if (!req->needs_pin)
        return TB_OK;
    const char *name = tb_ctl_verb_name(req->verb);
    if (!configured_pin || !*configured_pin)
        return tb_error_set(err, TB_ERR_PERM,
                            "%s needs the arbiter PIN, and none is configured ([arbiter] pin)",
                            name);
    if (!req->has_pin)
        return tb_error_set(err, TB_ERR_PERM, "%s needs the arbiter PIN: add pin=NNNN", name);
    return TB_OK;
}

int tb_ctl_authorise(const struct tb_ctl_request *req, const char *configured_pin,
                     struct tb_error *err)
{
    int rc = tb_ctl_pin_missing(req, configured_pin, err);
    if (rc != TB_OK || !req->needs_pin)
        return rc;
    if (!tb_ctl_pin_equal(configured_pin, req->pin))
        return tb_error_set(err, TB_ERR_PERM, "wrong arbiter PIN");
    return TB_OK;
}

/* ---- line reader ------------------------------------------------------------------------- */

void tb_ctl_reader_init(struct tb_ctl_reader *r)
{
    memset(r, 0, sizeof *r);
}

int tb_ctl_reader_take(struct tb_ctl_reader *r, const char *data, size_t n, size_t *used,
                       const char **line, size_t *line_len)
{
    size_t i = 0;
    *used = 0;
    while (i < n) {
        char c = data[i++];
        if (r->discarding) {
            if (c == '\n')
                r->discarding = false;
            continue;
        }
        r->buf[r->len++] = c;
        if (c == '\n') {
            *line = r->buf;
            *line_len = r->len;
            r->len = 0; /* the caller reads the line before the next call */
            *used = i;
            return 1;
        }
        if (r->len == sizeof r->buf) {
            r->len = 0;
            r->discarding = true;
            *used = i;
            return TB_ERR_FULL;
        }
    }
    *used = i;
    return 0;
}

/* ---- responses -------------------------------------------------------------------------- */

static int format_line(char *buf, size_t len, const char *prefix, const char *text)
{
    size_t pl = strlen(prefix), tl = text ? strlen(text) : 0;
    size_t need = pl + (tl && pl ? 1 : 0) + tl + 2;
    if (!buf || len < need) {
        if (buf && len)
            buf[0] = '\0';
        return TB_ERR_FULL;
    }
    size_t o = 0;
    memcpy(buf, prefix, pl);
    o += pl;
    if (tl && pl)
        buf[o++] = ' ';
    for (size_t i = 0; i < tl; i++) {
        unsigned char c = (unsigned char)text[i];
        buf[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    buf[o++] = '\n';
    buf[o] = '\0';
    return (int)o;
}

int tb_ctl_format_ok(char *buf, size_t len, const char *text)
{
    return format_line(buf, len, "ok", text);
}

int tb_ctl_format_data_begin(char *buf, size_t len, const char *text)
{
    return format_line(buf, len, "ok+", text);
}

int tb_ctl_format_data(char *buf, size_t len, const char *text)
{
    if (text && text[0] == '.') { /* a data line never looks like the end */
        if (!buf || len < 2)
            return TB_ERR_FULL;
        buf[0] = '.';
        int n = format_line(buf + 1, len - 1, "", text);
        if (n < 0)
            buf[0] = '\0';
        return n < 0 ? n : n + 1;
    }
    return format_line(buf, len, "", text ? text : "");
}

int tb_ctl_format_end(char *buf, size_t len)
{
    return format_line(buf, len, ".", NULL);
}

const char *tb_ctl_error_word(int code)
{
    switch (code) {
    case TB_ERR_FULL:
        return "too-long";
    case TB_ERR_PARSE:
    case TB_ERR_ARG:
        return "syntax";
    case TB_ERR_NOTFOUND:
        return "unknown";
    case TB_ERR_PERM:
        return "denied";
    case TB_ERR_ILLEGAL:
        return "illegal";
    case TB_ERR_STATE:
        return "state";
    case TB_ERR_SUPP:
        return "unsupported";
    case TB_ERR_AGAIN:
    case TB_ERR_TIMEOUT:
        return "busy";
    default:
        return "internal";
    }
}

int tb_ctl_format_error(char *buf, size_t len, int code, const char *msg)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "error %s", tb_ctl_error_word(code));
    return format_line(buf, len, prefix, msg && *msg ? msg : tb_strerror(code));
}
