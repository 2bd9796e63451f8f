/* control.c - time controls (6.3): the text people write and PGN's TimeControl, read and
 * written; the club's presets; the category of Appendix A/B. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tb_clock.h"

#define MS_S 1000ULL
#define MS_M (60 * MS_S)
#define MS_H (60 * MS_M)

/* The club's competitions (club rules 2.2 and 3: 1 hour 30 minutes plus 15 seconds a move for
 * each player; 4: blitz, 7 minutes for each player per game). */
static const struct {
    const char *name;
    struct tb_clock_control control;
} presets[] = {
    {"club", {1, {{0, 90 * MS_M, TB_CLOCK_FISCHER, 15 * MS_S}}}},
    {"blitz", {1, {{0, 7 * MS_M, TB_CLOCK_BONUS_NONE, 0}}}},
};

struct reader {
    const char *text;
    const char *p;
    struct tb_error *err;
    const char *what; /* "time control" or "warnings": the message's first words */
};

static long column(const struct reader *r, const char *at)
{
    return (long)(at - r->text) + 1;
}

static int fail(const struct reader *r, const char *at, int code, const char *what)
{
    return tb_error_set_at(r->err, code, 0, column(r, at), "%s \"%.40s\": column %ld: %s", r->what,
                           r->text, column(r, at), what);
}

static void blanks(struct reader *r)
{
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
}

/* Up to nine digits. */
static int number(struct reader *r, uint64_t *out)
{
    const char *start = r->p;
    uint64_t n = 0;
    if (!isdigit((unsigned char)*r->p))
        return fail(r, r->p, TB_ERR_PARSE, "expected a number");
    while (isdigit((unsigned char)*r->p)) {
        if (r->p - start >= 9)
            return fail(r, start, TB_ERR_PARSE, "number too long (at most 9 digits)");
        n = n * 10 + (uint64_t)(*r->p - '0');
        r->p++;
    }
    *out = n;
    return TB_OK;
}

static int unit_rank(char ch)
{
    switch (tolower((unsigned char)ch)) {
    case 'h':
        return 0;
    case 'm':
        return 1;
    case 's':
        return 2;
    default:
        return -1;
    }
}

/* A duration: "90m", "1h30m", "15s", or a bare number of seconds (PGN) when it stands alone. */
static int duration(struct reader *r, uint64_t *out)
{
    static const uint64_t unit_ms[3] = {MS_H, MS_M, MS_S};
    uint64_t total = 0, n;
    int last = -1, rc;
    for (;;) {
        if ((rc = number(r, &n)) < 0)
            return rc;
        blanks(r);
        int u = unit_rank(*r->p);
        if (u < 0) {
            if (last < 0) { /* PGN: a bare number is seconds */
                *out = n * MS_S;
                return TB_OK;
            }
            return fail(r, r->p, TB_ERR_PARSE, "expected a unit (h, m or s) after the number");
        }
        if (u <= last)
            return fail(r, r->p, TB_ERR_PARSE, "units go in the order h, m, s, each at most once");
        total += n * unit_ms[u];
        last = u;
        r->p++;
        blanks(r);
        if (!isdigit((unsigned char)*r->p))
            break;
    }
    *out = total;
    return TB_OK;
}

static int period(struct reader *r, struct tb_clock_period *out)
{
    struct tb_clock_period per = {0};
    uint64_t n;
    int rc;
    blanks(r);
    /* "40/..." is a move count; otherwise the number starts the time. */
    const char *save = r->p;
    if (isdigit((unsigned char)*r->p)) {
        if ((rc = number(r, &n)) < 0)
            return rc;
        blanks(r);
        if (*r->p == '/') {
            if (n < 1 || n > TB_CLOCK_MAX_MOVES)
                return fail(r, save, TB_ERR_PARSE, "a period's move count must be 1 to 500");
            per.moves = (uint32_t)n;
            r->p++;
            blanks(r);
        } else {
            r->p = save;
        }
    }
    const char *at = r->p;
    if ((rc = duration(r, &per.time_ms)) < 0)
        return rc;
    if (per.time_ms == 0)
        return fail(r, at, TB_ERR_PARSE, "a period's time must be more than 0");
    if (per.time_ms > TB_CLOCK_MAX_PERIOD_MS)
        return fail(r, at, TB_ERR_PARSE, "a period's time must be at most 100 hours");
    blanks(r);
    char ch = (char)tolower((unsigned char)*r->p);
    if (ch == '+' || ch == 'd' || ch == 'b') {
        per.bonus = ch == '+' ? TB_CLOCK_FISCHER : ch == 'd' ? TB_CLOCK_DELAY : TB_CLOCK_BRONSTEIN;
        r->p++;
        blanks(r);
        ch = (char)tolower((unsigned char)*r->p);
        if (per.bonus == TB_CLOCK_FISCHER && (ch == 'd' || ch == 'b')) { /* "+d5s" */
            per.bonus = ch == 'd' ? TB_CLOCK_DELAY : TB_CLOCK_BRONSTEIN;
            r->p++;
            blanks(r);
        }
        at = r->p;
        if (!isdigit((unsigned char)*r->p))
            return fail(r, at, TB_ERR_PARSE,
                        per.bonus == TB_CLOCK_FISCHER
                            ? "expected the increment after '+' (e.g. +15s)"
                            : "expected the delay after 'd' or 'b' (e.g. d5s)");
        if ((rc = duration(r, &per.bonus_ms)) < 0)
            return rc;
        if (per.bonus_ms > TB_CLOCK_MAX_BONUS_MS)
            return fail(r, at, TB_ERR_PARSE, "an increment or delay must be at most 1 hour");
        if (per.bonus_ms == 0)
            per.bonus = TB_CLOCK_BONUS_NONE;
        blanks(r);
    }
    *out = per;
    return TB_OK;
}

static bool word_is(const char *text, const char *word)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)text[i]) != word[i])
            return false;
    for (text += n; *text == ' ' || *text == '\t';)
        text++;
    return *text == '\0';
}

int tb_clock_control_parse(struct tb_clock_control *out, const char *text, struct tb_error *err)
{
    if (!out || !text)
        return tb_error_set(err, TB_ERR_ARG, "time control: no text");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (word_is(text, presets[i].name)) {
            *out = presets[i].control;
            return TB_OK;
        }
    }
    struct reader r = {text, text, err, "time control"};
    struct tb_clock_control c = {0};
    blanks(&r);
    if (*r.p == '\0')
        return fail(&r, r.p, TB_ERR_PARSE,
                    "empty: expected a time such as 90m+15s, or club or "
                    "blitz");
    if (isalpha((unsigned char)*r.p))
        return fail(&r, r.p, TB_ERR_PARSE,
                    "unknown preset: expected club, blitz or a time such as 90m+15s");
    if (*r.p == '?' || *r.p == '-' || *r.p == '*')
        return fail(&r, r.p, TB_ERR_SUPP,
                    "unknown (?), no control (-) and sandglass (*) cannot run a clock");
    for (;;) {
        const char *at = r.p;
        if (c.nperiods == TB_CLOCK_MAX_PERIODS)
            return fail(&r, at, TB_ERR_PARSE, "more than 4 periods");
        int rc = period(&r, &c.periods[c.nperiods]);
        if (rc < 0)
            return rc;
        c.nperiods++;
        if (*r.p == '\0')
            break;
        if (*r.p != ',' && *r.p != ':')
            return fail(&r, r.p, TB_ERR_PARSE,
                        "expected '+' (increment), 'd' or 'b' (delay), ',' (next period) or the "
                        "end");
        if (c.periods[c.nperiods - 1].moves == 0)
            return fail(&r, at, TB_ERR_PARSE,
                        "only the last period may hold all remaining moves: write moves/ before "
                        "the time (e.g. 40/120m)");
        r.p++;
        blanks(&r);
    }
    *out = c;
    return TB_OK;
}

int tb_clock_warnings_parse(uint64_t *out, int cap, const char *text, struct tb_error *err)
{
    if (!out || cap < 0 || !text)
        return tb_error_set(err, TB_ERR_ARG, "warnings: no text");
    struct reader r = {text, text, err, "warnings"};
    uint64_t got[TB_CLOCK_MAX_WARN];
    int n = 0, rc;
    for (;;) {
        while (*r.p == ',' || *r.p == ' ' || *r.p == '\t')
            r.p++;
        if (*r.p == '\0')
            break;
        const char *at = r.p;
        uint64_t ms;
        if ((rc = duration(&r, &ms)) < 0)
            return rc;
        if (ms == 0 || ms > TB_CLOCK_MAX_PERIOD_MS)
            return fail(&r, at, TB_ERR_PARSE,
                        "a warning must be more than 0 and at most 100 hours");
        if (n == cap || n == TB_CLOCK_MAX_WARN)
            return fail(&r, at, TB_ERR_FULL, "too many warnings");
        got[n++] = ms;
        if (*r.p != '\0' && *r.p != ',')
            return fail(&r, r.p, TB_ERR_PARSE, "expected ',' between warnings, or the end");
    }
    memcpy(out, got, (size_t)n * sizeof *out);
    return n;
}

int tb_clock_control_check(const struct tb_clock_control *c, struct tb_error *err)
{
    if (!c)
        return tb_error_set(err, TB_ERR_ARG, "time control: none given");
    if (c->nperiods < 1 || c->nperiods > TB_CLOCK_MAX_PERIODS)
        return tb_error_set(err, TB_ERR_ARG, "time control: %d periods (1 to 4 allowed)",
                            c->nperiods);
    for (int i = 0; i < c->nperiods; i++) {
        const struct tb_clock_period *p = &c->periods[i];
        if (p->time_ms == 0 || p->time_ms > TB_CLOCK_MAX_PERIOD_MS || p->time_ms % MS_S)
            return tb_error_set(err, TB_ERR_ARG,
                                "time control: period %d: time must be whole seconds, more than "
                                "0 and at most 100 hours",
                                i + 1);
        if (p->moves > TB_CLOCK_MAX_MOVES || (p->moves == 0 && i + 1 < c->nperiods))
            return tb_error_set(err, TB_ERR_ARG,
                                "time control: period %d: move count must be 1 to 500 (0 only "
                                "in the last period)",
                                i + 1);
        if (p->bonus > TB_CLOCK_BRONSTEIN || p->bonus_ms > TB_CLOCK_MAX_BONUS_MS ||
            p->bonus_ms % MS_S || (p->bonus == TB_CLOCK_BONUS_NONE) != (p->bonus_ms == 0))
            return tb_error_set(err, TB_ERR_ARG,
                                "time control: period %d: bonus must be whole seconds up to 1 "
                                "hour, and 0 exactly when there is none",
                                i + 1);
    }
    return TB_OK;
}

/* Output with snprintf semantics: n counts the full length, buf holds what fits. */
struct out {
    char *buf;
    size_t len;
    int n;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(struct out *o, const char *fmt, ...)
{
    size_t at = (size_t)o->n < o->len ? (size_t)o->n : o->len;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->buf ? o->buf + at : NULL, o->len - at, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->n += k;
}

static void out_duration(struct out *o, uint64_t ms)
{
    unsigned long long s = ms / MS_S;
    if (s % 60 == 0)
        outf(o, "%llum", s / 60);
    else if (s >= 60)
        outf(o, "%llum%llus", s / 60, s % 60);
    else
        outf(o, "%llus", s);
}

/* One writer for both texts: canonical ("40/120m+30s, 30m+30s") or PGN ("40/7200+30:1800+30"). */
static int write_control(const struct tb_clock_control *c, char *buf, size_t len, bool pgn)
{
    static const char *const letter[2][4] = {{"", "+", " d", " b"}, {"", "+", "d", "b"}};
    if (tb_clock_control_check(c, NULL) < 0 || (!buf && len))
        return TB_ERR_ARG;
    struct out o = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < c->nperiods; i++) {
        const struct tb_clock_period *p = &c->periods[i];
        if (i)
            outf(&o, pgn ? ":" : ", ");
        if (p->moves)
            outf(&o, "%u/", (unsigned)p->moves);
        if (pgn)
            outf(&o, "%llu", (unsigned long long)(p->time_ms / MS_S));
        else
            out_duration(&o, p->time_ms);
        if (!p->bonus)
            continue;
        outf(&o, "%s", letter[pgn][p->bonus]);
        if (pgn)
            outf(&o, "%llu", (unsigned long long)(p->bonus_ms / MS_S));
        else
            out_duration(&o, p->bonus_ms);
    }
    return o.n;
}

int tb_clock_control_format(const struct tb_clock_control *c, char *buf, size_t len)
{
    return write_control(c, buf, len, false);
}

int tb_clock_control_pgn(const struct tb_clock_control *c, char *buf, size_t len)
{
    return write_control(c, buf, len, true);
}

enum tb_clock_category tb_clock_control_category(const struct tb_clock_control *c)
{
    const struct tb_clock_period *p = &c->periods[0];
    /* A.1, B.1: the allotted time plus 60 times the time added per move. */
    uint64_t ms = p->time_ms + 60 * p->bonus_ms;
    if (ms <= 10 * MS_M)
        return TB_CLOCK_BLITZ;
    if (ms < 60 * MS_M)
        return TB_CLOCK_RAPID;
    return TB_CLOCK_STANDARD;
}

uint64_t tb_clock_penalty_ms(const struct tb_clock_control *c)
{
    /* 7.5.5: two minutes; A.3 (and B.3 through it): one minute in rapid and blitz. */
    return tb_clock_control_category(c) == TB_CLOCK_STANDARD ? 2 * MS_M : MS_M;
}
