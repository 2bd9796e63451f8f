/* script.c - event-script parser and writer (format: docs/event-script.md). */
#include "tb_script.h"

#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
    [TB_SCRIPT_NONE] = "",         [TB_SCRIPT_LIFT] = "lift",       [TB_SCRIPT_PLACE] = "place",
    [TB_SCRIPT_PRESS] = "press",   [TB_SCRIPT_RELEASE] = "release", [TB_SCRIPT_CHOOSE] = "choose",
    [TB_SCRIPT_EXPECT] = "expect", [TB_SCRIPT_CLOCK] = "clock",
};
static const char *const run_names[] = {"stopped", "white", "black"};

const char *tb_script_kind_name(enum tb_script_kind kind)
{
    if ((unsigned)kind >= sizeof kind_names / sizeof kind_names[0])
        return "";
    return kind_names[kind];
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
}

bool tb_script_name_valid(const char *name)
{
    size_t n = 0;
    if (!name)
        return false;
    for (; name[n]; n++)
        if (!name_char(name[n]))
            return false;
    return n > 0 && n < TB_SCRIPT_NAME_MAX;
}

void tb_script_parser_init(struct tb_script_parser *p)
{
    p->line = 0;
    p->last_us = 0;
}

/* A field of the line: [start, start + len). */
struct field {
    const char *s;
    size_t len;
    long col; /* 1-based */
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Splits at blanks up to max fields; returns the count or max + 1 if there are more. */
static int split(const char *line, size_t len, struct field *f, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(line[i]))
            i++;
        if (i >= len)
            break;
        if (n == max)
            return max + 1;
        f[n].s = line + i;
        f[n].col = (long)i + 1;
        while (i < len && !is_space(line[i]))
            i++;
        f[n].len = (size_t)(line + i - f[n].s);
        n++;
    }
    return n;
}

static bool field_is(const struct field *f, const char *word)
{
    return f->len == strlen(word) && memcmp(f->s, word, f->len) == 0;
}

/* "1500" or "1500.25" -> microseconds. */
static bool parse_time(const struct field *f, uint64_t *us)
{
    uint64_t ms = 0, frac = 0;
    size_t i = 0, digits = 0;
    for (; i < f->len && f->s[i] >= '0' && f->s[i] <= '9'; i++, digits++) {
        ms = ms * 10 + (uint64_t)(f->s[i] - '0');
        if (ms > TB_SCRIPT_MAX_MS)
            return false;
    }
    if (digits == 0)
        return false;
    if (i < f->len) {
        size_t fd = 0;
        if (f->s[i++] != '.')
            return false;
        for (; i < f->len && f->s[i] >= '0' && f->s[i] <= '9'; i++, fd++) {
            if (fd == 3)
                return false;
            frac = frac * 10 + (uint64_t)(f->s[i] - '0');
        }
        if (fd == 0 || i < f->len)
            return false;
        for (; fd < 3; fd++)
            frac *= 10;
    }
    *us = ms * 1000 + frac;
    return true;
}

static int parse_square(const struct field *f)
{
    if (f->len != 2 || f->s[0] < 'a' || f->s[0] > 'h' || f->s[1] < '1' || f->s[1] > '8')
        return -1;
    return (f->s[1] - '1') * 8 + (f->s[0] - 'a');
}

static bool copy_name(const struct field *f, char out[TB_SCRIPT_NAME_MAX])
{
    if (f->len == 0 || f->len >= TB_SCRIPT_NAME_MAX)
        return false;
    for (size_t i = 0; i < f->len; i++)
        if (!name_char(f->s[i]))
            return false;
    memcpy(out, f->s, f->len);
    out[f->len] = '\0';
    return true;
}

/* After '#' and blanks, does the comment start with tag? Returns the text after it, trimmed,
 * as [*start, *end), or false. */
static bool directive(const char *s, size_t len, const char *tag, size_t *start, size_t *end)
{
    size_t i = 1, tl = strlen(tag); /* past '#' */
    while (i < len && is_space(s[i]))
        i++;
    if (len - i < tl || memcmp(s + i, tag, tl) != 0)
        return false;
    i += tl;
    while (i < len && is_space(s[i]))
        i++;
    size_t e = len;
    while (e > i && (is_space(s[e - 1]) || s[e - 1] == '\r' || s[e - 1] == '\n'))
        e--;
    *start = i;
    *end = e;
    return true;
}

/* `# expect: text` -> true with the text; any other comment -> false. */
static bool parse_expect(const char *s, size_t len, struct tb_script_event *ev)
{
    size_t i, end;
    if (!directive(s, len, "expect:", &i, &end))
        return false;
    size_t n = end - i < TB_SCRIPT_TEXT_MAX - 1 ? end - i : TB_SCRIPT_TEXT_MAX - 1;
    memcpy(ev->text, s + i, n);
    ev->text[n] = '\0';
    ev->kind = TB_SCRIPT_EXPECT;
    return true;
}

/* The value of the header directive `# <tag> <value>` before the script's first event: true
 * with it at buf[*a, *b). */
static bool header_directive(const char *buf, size_t len, const char *tag, size_t *a, size_t *b)
{
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len, i = pos;
        while (i < end && is_space(buf[i]))
            i++;
        if (i < end && buf[i] != '#' && buf[i] != '\r')
            return false; /* the first event (or a malformed line) comes first */
        if (i < end && directive(buf + i, end - i, tag, a, b)) {
            *a += i;
            *b += i;
            return true;
        }
        pos = nl ? end + 1 : len;
    }
    return false;
}

int tb_script_start_fen(const char *buf, size_t len, char *fen, size_t fen_len)
{
    size_t a, b;
    if (!header_directive(buf, len, "fen:", &a, &b))
        return 0;
    if (b - a >= fen_len)
        return TB_ERR_FULL;
    memcpy(fen, buf + a, b - a);
    fen[b - a] = '\0';
    return 1;
}

int tb_script_blip_window(const char *buf, size_t len, uint32_t *ms, struct tb_error *err)
{
    size_t a, b;
    if (!header_directive(buf, len, "blip-window:", &a, &b))
        return 0;
    uint32_t v = 0;
    size_t i = a;
    for (; i < b && buf[i] >= '0' && buf[i] <= '9' && v <= TB_SCRIPT_BLIP_MAX_MS; i++)
        v = v * 10 + (uint32_t)(buf[i] - '0');
    if (i == a || v < TB_SCRIPT_BLIP_MIN_MS || v > TB_SCRIPT_BLIP_MAX_MS ||
        (i < b && (b - i != 3 || memcmp(buf + i, " ms", 3) != 0)))
        return tb_error_set(err, TB_ERR_PARSE,
                            "'# blip-window: %.*s': not a time of %u to %u ms ('# blip-window: "
                            "100 ms')",
                            (int)(b - a), buf + a, TB_SCRIPT_BLIP_MIN_MS, TB_SCRIPT_BLIP_MAX_MS);
    *ms = v;
    return 1;
}

/* Is c one of set? A NUL byte in a line is not (strchr would find the terminator). */
static bool one_of(char c, const char *set)
{
    return c != '\0' && strchr(set, c) != NULL;
}

static enum tb_script_kind keyword(const struct field *f)
{
    for (int k = TB_SCRIPT_LIFT; k <= TB_SCRIPT_CHOOSE; k++)
        if (field_is(f, kind_names[k]))
            return (enum tb_script_kind)k;
    return field_is(f, kind_names[TB_SCRIPT_CLOCK]) ? TB_SCRIPT_CLOCK : TB_SCRIPT_NONE;
}

/* A clock's time left: milliseconds up to TB_SCRIPT_CLOCK_MAX_MS, or '-' (unknown: -1). */
static bool parse_clock_time(const struct field *f, int32_t *out)
{
    if (f->len == 1 && f->s[0] == '-') {
        *out = -1;
        return true;
    }
    int64_t v = 0;
    for (size_t i = 0; i < f->len; i++) {
        if (f->s[i] < '0' || f->s[i] > '9')
            return false;
        v = v * 10 + (f->s[i] - '0');
        if (v > TB_SCRIPT_CLOCK_MAX_MS)
            return false;
    }
    *out = (int32_t)v;
    return f->len > 0;
}

/* The fields of a clock line after its keyword: <white> <black> <running>. */
static int parse_clock(const struct field *f, int n, long ln, struct tb_script_event *ev,
                       struct tb_error *err)
{
    if (n != 6)
        return tb_error_set_at(err, TB_ERR_PARSE, ln, n > 6 ? f[6].col : 0,
                               "expected '<ms> <board> clock <white ms|-> <black ms|-> "
                               "<white|black|stopped>'");
    for (int c = 0; c < 2; c++)
        if (!parse_clock_time(&f[3 + c], &ev->clock_ms[c]))
            return tb_error_set_at(err, TB_ERR_PARSE, ln, f[3 + c].col,
                                   "bad clock time '%.*s' (milliseconds up to %d, or -)",
                                   (int)f[3 + c].len, f[3 + c].s, TB_SCRIPT_CLOCK_MAX_MS);
    for (int r = 0; r < 3; r++)
        if (field_is(&f[5], run_names[r])) {
            ev->clock_run = (uint8_t)r;
            return TB_OK;
        }
    return tb_error_set_at(err, TB_ERR_PARSE, ln, f[5].col,
                           "bad running clock '%.*s' (white, black or stopped)", (int)f[5].len,
                           f[5].s);
}

int tb_script_parse_line(struct tb_script_parser *p, const char *line, size_t len,
                         struct tb_script_event *ev, struct tb_error *err)
{
    struct field f[8];
    long ln = ++p->line;

    memset(ev, 0, sizeof *ev);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    size_t start = 0;
    while (start < len && is_space(line[start]))
        start++;
    if (start < len && line[start] == '#') {
        parse_expect(line + start, len - start, ev);
        return TB_OK;
    }
    const char *hash = memchr(line, '#', len); /* a trailing comment */
    if (hash)
        len = (size_t)(hash - line);
    int n = split(line, len, f, 7);
    if (n == 0)
        return TB_OK;
    if (n < 4)
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[n - 1].col + (long)f[n - 1].len,
                               "expected '<ms> <board> <action> <argument>'");
    bool clock = field_is(&f[2], kind_names[TB_SCRIPT_CLOCK]); /* three arguments */
    if (n > 5 && !clock)
        return tb_error_set_at(err, TB_ERR_PARSE, ln, 0, "too many fields");

    uint64_t us;
    if (!parse_time(&f[0], &us))
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[0].col,
                               "bad time '%.*s' (milliseconds, up to 3 decimals)", (int)f[0].len,
                               f[0].s);
    if (us < p->last_us)
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[0].col,
                               "time %.*s goes back (previous event at %llu.%03llu ms)",
                               (int)f[0].len, f[0].s, (unsigned long long)(p->last_us / 1000),
                               (unsigned long long)(p->last_us % 1000));
    if (!copy_name(&f[1], ev->board))
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[1].col,
                               "bad board name '%.*s' (1-15 of A-Z a-z 0-9 _ . -)", (int)f[1].len,
                               f[1].s);
    ev->kind = keyword(&f[2]);
    if (ev->kind == TB_SCRIPT_NONE)
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[2].col,
                               "unknown action '%.*s' (lift, place, press, release, "
                               "choose, clock)",
                               (int)f[2].len, f[2].s);
    if (ev->kind == TB_SCRIPT_CLOCK) {
        int rc = parse_clock(f, n, ln, ev, err);
        if (rc != TB_OK) {
            ev->kind = TB_SCRIPT_NONE;
            return rc;
        }
        ev->us = us;
        ev->ms = us / 1000;
        p->last_us = us;
        return TB_OK;
    }
    int maxf = ev->kind == TB_SCRIPT_PLACE ? 5 : 4;
    if (n > maxf) {
        ev->kind = TB_SCRIPT_NONE;
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[maxf].col, "unexpected '%.*s' after %s",
                               (int)f[maxf].len, f[maxf].s, kind_names[keyword(&f[2])]);
    }

    const char *why = NULL;
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
    case TB_SCRIPT_PLACE: {
        int sq = parse_square(&f[3]);
        if (sq < 0) {
            why = "bad square (a1..h8)";
            break;
        }
        ev->square = (uint8_t)sq;
        if (n == 5) {
            if (f[4].len != 1 || !one_of(f[4].s[0], "KQRBNPkqrbnp")) {
                ev->kind = TB_SCRIPT_NONE;
                return tb_error_set_at(err, TB_ERR_PARSE, ln, f[4].col,
                                       "bad piece '%.*s' (one of KQRBNPkqrbnp)", (int)f[4].len,
                                       f[4].s);
            }
            ev->piece = f[4].s[0];
        }
        break;
    }
    case TB_SCRIPT_PRESS:
    case TB_SCRIPT_RELEASE:
        if (!copy_name(&f[3], ev->button))
            why = "bad button name (1-15 of A-Z a-z 0-9 _ . -)";
        break;
    case TB_SCRIPT_CHOOSE:
        /* p: the kind of a dropped piece (doorgeefschaak), never a promotion piece */
        if (f[3].len != 1 || !one_of(f[3].s[0], "qrbnp"))
            why = "bad promotion choice (q, r, b or n; p: a dropped pawn)";
        else
            ev->piece = f[3].s[0];
        break;
    default:
        break;
    }
    if (why) {
        ev->kind = TB_SCRIPT_NONE;
        return tb_error_set_at(err, TB_ERR_PARSE, ln, f[3].col, "%s: '%.*s'", why, (int)f[3].len,
                               f[3].s);
    }
    ev->us = us;
    ev->ms = us / 1000;
    p->last_us = us;
    return TB_OK;
}

int tb_script_parse_buffer(const char *buf, size_t len, tb_script_event_fn fn, void *user,
                           struct tb_error *err)
{
    struct tb_script_parser p;
    struct tb_script_event ev;
    size_t pos = 0;

    if (!buf && len)
        return tb_error_set(err, TB_ERR_ARG, "no buffer");
    tb_script_parser_init(&p);
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        int rc = tb_script_parse_line(&p, buf + pos, end - pos, &ev, err);
        if (rc < 0)
            return rc;
        if (ev.kind != TB_SCRIPT_NONE && fn) {
            rc = fn(user, &ev, p.line);
            if (rc)
                return rc;
        }
        pos = nl ? end + 1 : len;
    }
    return TB_OK;
}

int tb_script_format(const struct tb_script_event *ev, char *buf, size_t len)
{
    char t[32], arg[40];
    int n;

    if (!ev || !buf || len == 0)
        return TB_ERR_ARG;
    if (ev->kind == TB_SCRIPT_EXPECT) {
        n = snprintf(buf, len, "# expect: %s", ev->text);
        return n < 0 ? TB_ERR_ARG : (size_t)n >= len ? TB_ERR_FULL : n;
    }
    if (ev->kind < TB_SCRIPT_LIFT || ev->kind > TB_SCRIPT_CLOCK || ev->kind == TB_SCRIPT_EXPECT ||
        ev->us / 1000 > TB_SCRIPT_MAX_MS || !tb_script_name_valid(ev->board))
        return TB_ERR_ARG;
    if (ev->us % 1000 == 0) {
        snprintf(t, sizeof t, "%llu", (unsigned long long)(ev->us / 1000));
    } else {
        unsigned frac = (unsigned)(ev->us % 1000);
        int digits = 3;
        while (frac % 10 == 0) {
            frac /= 10;
            digits--;
        }
        snprintf(t, sizeof t, "%llu.%0*u", (unsigned long long)(ev->us / 1000), digits, frac);
    }
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
    case TB_SCRIPT_PLACE:
        if (ev->square > 63 ||
            (ev->piece && (ev->kind != TB_SCRIPT_PLACE || !strchr("KQRBNPkqrbnp", ev->piece))))
            return TB_ERR_ARG;
        snprintf(arg, sizeof arg, "%c%c%s%c", 'a' + (ev->square & 7), '1' + (ev->square >> 3),
                 ev->piece ? " " : "", ev->piece ? ev->piece : '\0');
        break;
    case TB_SCRIPT_PRESS:
    case TB_SCRIPT_RELEASE:
        if (!tb_script_name_valid(ev->button))
            return TB_ERR_ARG;
        snprintf(arg, sizeof arg, "%s", ev->button);
        break;
    case TB_SCRIPT_CLOCK:
        if (ev->clock_run > 2)
            return TB_ERR_ARG;
        for (int c = 0; c < 2; c++)
            if (ev->clock_ms[c] < -1 || ev->clock_ms[c] > TB_SCRIPT_CLOCK_MAX_MS)
                return TB_ERR_ARG;
        char w[16] = "-", b[16] = "-";
        if (ev->clock_ms[0] >= 0)
            snprintf(w, sizeof w, "%ld", (long)ev->clock_ms[0]);
        if (ev->clock_ms[1] >= 0)
            snprintf(b, sizeof b, "%ld", (long)ev->clock_ms[1]);
        snprintf(arg, sizeof arg, "%s %s %s", w, b, run_names[ev->clock_run]);
        break;
    default: /* choose */
        if (!ev->piece || !strchr("qrbnp", ev->piece))
            return TB_ERR_ARG;
        snprintf(arg, sizeof arg, "%c", ev->piece);
        break;
    }
    n = snprintf(buf, len, "%s %s %s %s", t, ev->board, kind_names[ev->kind], arg);
    return n < 0 ? TB_ERR_ARG : (size_t)n >= len ? TB_ERR_FULL : n;
}
