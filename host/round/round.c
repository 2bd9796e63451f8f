/* round.c - the pairings file read (PGN or CSV), every value checked as a table takes it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "round_internal.h"
#include "tb_str.h"

static const char *const field_names[TB_ROUND_FIELDS] = {
    "Event",    "Site",        "Date",        "Round",          "White",
    "Black",    "Board",       "WhiteTitle",  "BlackTitle",     "WhiteElo",
    "BlackElo", "WhiteFideId", "BlackFideId", "WhiteStartRank", "BlackStartRank"};

const char *tb_round_field_name(enum tb_round_field f)
{
    return f >= 0 && f < TB_ROUND_FIELDS ? field_names[f] : "?";
}

static int field_of(const char *name)
{
    for (int f = 0; f < TB_ROUND_FIELDS; f++)
        if (!strcmp(field_names[f], name))
            return f;
    return -1;
}

/* The parser's place: the file's name and the line for the messages. */
struct rd {
    const char *name;
    struct tb_error *err;
    struct tb_round *r;
    int round_line; /* where the round's number was first given */
};

static int bad(struct rd *rd, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(struct rd *rd, int line, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return tb_error_set(rd->err, TB_ERR_PARSE, "%s:%d: %s", rd->name, line, what);
}

static bool all(const char *s, const char *set)
{
    return s[strspn(s, set)] == '\0';
}

#define DIGITS "0123456789"
#define UPPER  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/* One value as a table's new-game takes it, and of its field's form. */
static int check_value(struct rd *rd, int line, int f, const char *v)
{
    const char *name = field_names[f];
    size_t n = strlen(v);
    if (n >= TB_ROUND_VALUE_MAX)
        return bad(rd, line, "%s: longer than 48 bytes (a table's tags take 48)", name);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '"' || c == '\\')
            return bad(rd, line,
                       "%s: \"%s\" has a quote or backslash, which a table's tag cannot "
                       "carry",
                       name, v);
        if (c < 0x20 || c == 0x7F)
            return bad(rd, line, "%s: a control character", name);
    }
    bool ok = true;
    if (!n)
        return TB_OK;
    if (f == TB_ROUND_WHITE_ELO || f == TB_ROUND_BLACK_ELO)
        ok = n <= 4 && all(v, DIGITS);
    else if (f == TB_ROUND_WHITE_FIDE || f == TB_ROUND_BLACK_FIDE)
        ok = n <= 12 && all(v, DIGITS);
    else if (f == TB_ROUND_WHITE_TITLE || f == TB_ROUND_BLACK_TITLE)
        ok = n <= 4 && all(v, UPPER);
    else if (f == TB_ROUND_WHITE_RANK || f == TB_ROUND_BLACK_RANK)
        ok = n <= 4 && all(v, DIGITS) && atoi(v) >= 1;
    else if (f == TB_ROUND_BOARD)
        ok = n <= 3 && all(v, DIGITS) && atoi(v) >= 1 && atoi(v) <= TB_ROUND_MAX_BOARDS;
    else if (f == TB_ROUND_DATE)
        ok = n == 10 && v[4] == '.' && v[7] == '.' && strspn(v, DIGITS ".?") == n;
    if (!ok) {
        static const char *const form[TB_ROUND_FIELDS] = {
            [TB_ROUND_WHITE_ELO] = "a rating (digits)",
            [TB_ROUND_BLACK_ELO] = "a rating (digits)",
            [TB_ROUND_WHITE_FIDE] = "a FIDE id (digits)",
            [TB_ROUND_BLACK_FIDE] = "a FIDE id (digits)",
            [TB_ROUND_WHITE_TITLE] = "a title (GM, IM, WFM ...)",
            [TB_ROUND_BLACK_TITLE] = "a title (GM, IM, WFM ...)",
            [TB_ROUND_BOARD] = "a board number (1 to 512)",
            [TB_ROUND_WHITE_RANK] = "a start rank (1 to 9999)",
            [TB_ROUND_BLACK_RANK] = "a start rank (1 to 9999)",
            [TB_ROUND_DATE] = "a PGN date (2026.11.28)"};
        return bad(rd, line, "%s: \"%.40s\" is not %s", name, v, form[f]);
    }
    return TB_OK;
}

/* A pairing complete: White and Black given, the board from Board or from Round "r.b", one
 * round for every pairing, no board twice. Round becomes "r.b". */
static int finish(struct rd *rd, struct tb_round_pairing *p)
{
    struct tb_round *r = rd->r;
    for (int f = TB_ROUND_WHITE; f <= TB_ROUND_BLACK; f++)
        if (!p->v[f][0] || !strcmp(p->v[f], "?"))
            return bad(rd, p->line, "the pairing has no %s player",
                       f == TB_ROUND_WHITE ? "White" : "Black");
    char round[TB_ROUND_VALUE_MAX], *dot;
    snprintf(round, sizeof round, "%s", p->v[TB_ROUND_ROUND]);
    int board = p->v[TB_ROUND_BOARD][0] ? atoi(p->v[TB_ROUND_BOARD]) : 0;
    if ((dot = strchr(round, '.'))) { /* "3.1": round 3, board 1 */
        *dot = '\0';
        int b = atoi(dot + 1);
        if (!all(dot + 1, DIGITS) || b < 1 || b > TB_ROUND_MAX_BOARDS)
            return bad(rd, p->line, "Round: \"%s\" is not a round or round.board",
                       p->v[TB_ROUND_ROUND]);
        if (board && board != b)
            return bad(rd, p->line, "Board %s differs from the board of Round \"%s\"",
                       p->v[TB_ROUND_BOARD], p->v[TB_ROUND_ROUND]);
        board = b;
    }
    if (!round[0] || !all(round, DIGITS))
        return bad(rd, p->line, "Round: \"%s\" is not a round number", p->v[TB_ROUND_ROUND]);
    if (!board)
        return bad(rd, p->line, "the pairing has no board (Board, or Round \"%s.N\")", round);
    if (!r->round[0]) {
        snprintf(r->round, sizeof r->round, "%s", round);
        rd->round_line = p->line;
    } else if (strcmp(r->round, round)) {
        return bad(rd, p->line, "round %s, but the file's round is %s (line %d)", round, r->round,
                   rd->round_line);
    }
    for (int i = 0; i < r->n; i++)
        if (r->p[i].board == board)
            return bad(rd, p->line, "board %d is paired already (line %d)", board, r->p[i].line);
    if (r->n >= TB_ROUND_MAX_BOARDS)
        return bad(rd, p->line, "more than 512 boards");
    p->board = board;
    snprintf(p->v[TB_ROUND_BOARD], sizeof p->v[TB_ROUND_BOARD], "%d", board);
    char rb[TB_ROUND_VALUE_MAX + 16];
    snprintf(rb, sizeof rb, "%s.%d", round, board);
    if (strlen(rb) >= TB_ROUND_VALUE_MAX)
        return bad(rd, p->line, "Round: \"%s\" is too long for a table's tag", rb);
    tb_str_copy(p->v[TB_ROUND_ROUND], sizeof p->v[TB_ROUND_ROUND], rb);
    r->p[r->n++] = *p;
    return TB_OK;
}

/* The next line of text: [*at, end of line) without the line break; false at the end. */
static bool next_line(const char *text, size_t len, size_t *at, const char **line, size_t *n)
{
    if (*at >= len)
        return false;
    const char *s = text + *at, *nl = memchr(s, '\n', len - *at);
    size_t l = nl ? (size_t)(nl - s) : len - *at;
    *at += l + (nl ? 1 : 0);
    if (l && s[l - 1] == '\r')
        l--;
    *line = s;
    *n = l;
    return true;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

bool tb_round__tag_pair(const char *s, size_t n, char *name, size_t ncap, char *val, size_t vcap)
{
    size_t i = 0, k = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i++] != '[')
        return false;
    while (i < n && k + 1 < ncap &&
           (s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
            ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')))
        name[k++] = s[i++];
    name[k] = '\0';
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (!k || i >= n || s[i++] != '"')
        return false;
    for (k = 0; i < n && s[i] != '"'; i++) {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        if (k + 1 < vcap) /* a longer value stays longer than 48: refused by its check */
            val[k++] = s[i];
    }
    val[k] = '\0';
    if (i >= n || s[i++] != '"')
        return false;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i++] != ']')
        return false;
    return blank(s + i, n - i);
}

static bool result_token(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    static const char *const res[] = {"*", "1-0", "0-1", "1/2-1/2"};
    for (int i = 0; i < 4; i++)
        if (n == strlen(res[i]) && !memcmp(s, res[i], n))
            return true;
    return false;
}

static int parse_pgn(struct rd *rd, const char *text, size_t len)
{
    struct tb_round_pairing p;
    bool open = false, after_blank = false;
    bool given[TB_ROUND_FIELDS];
    size_t at = 0;
    const char *s;
    size_t n;
    int line = 0;
    while (next_line(text, len, &at, &s, &n)) {
        line++;
        char name[32], val[TB_ROUND_VALUE_MAX + 8];
        if (blank(s, n)) {
            after_blank = open;
            continue;
        }
        if (tb_round__tag_pair(s, n, name, sizeof name, val, sizeof val)) {
            if (open && after_blank) { /* a pairing without movetext ended at the blank line */
                if (finish(rd, &p))
                    return TB_ERR_PARSE;
                open = false;
            }
            if (!open) {
                memset(&p, 0, sizeof p);
                memset(given, 0, sizeof given);
                p.line = line;
                open = true;
            }
            after_blank = false;
            int f = field_of(name);
            if (f < 0)
                continue; /* Result, ECO, teams ...: not the round's */
            if (given[f])
                return bad(rd, line, "%s is given twice in one pairing", name);
            given[f] = true;
            if (check_value(rd, line, f, val))
                return TB_ERR_PARSE;
            tb_str_copy(p.v[f], sizeof p.v[f], val);
            continue;
        }
        if (s[strspn(s, " \t")] == '[')
            return bad(rd, line, "not a tag pair: [Name \"value\"]");
        if (!open)
            return bad(rd, line, "moves or text before any pairing's tags");
        if (!result_token(s, n))
            return bad(rd, line, "a pairing has no moves: only a result (*) may follow its tags");
        if (finish(rd, &p))
            return TB_ERR_PARSE;
        open = after_blank = false;
    }
    if (open && finish(rd, &p))
        return TB_ERR_PARSE;
    return TB_OK;
}

/* One CSV field from s[*i]: quoted ("" for a quote) or plain; *i past the comma. */
static int csv_field(struct rd *rd, int line, const char *s, size_t n, size_t *i, char *out,
                     size_t cap)
{
    size_t k = 0;
    bool quoted = *i < n && s[*i] == '"';
    if (quoted) {
        for ((*i)++;; (*i)++) {
            if (*i >= n)
                return bad(rd, line, "a quote is not closed on its line");
            if (s[*i] == '"' && !(*i + 1 < n && s[*i + 1] == '"'))
                break;
            if (s[*i] == '"')
                (*i)++;
            if (k + 1 < cap)
                out[k++] = s[*i];
        }
        (*i)++;
    } else {
        for (; *i < n && s[*i] != ','; (*i)++)
            if (k + 1 < cap)
                out[k++] = s[*i];
    }
    out[k] = '\0';
    while (k && (out[k - 1] == ' ' || out[k - 1] == '\t')) /* spaces around a field */
        out[--k] = '\0';
    size_t lead = strspn(out, " \t");
    memmove(out, out + lead, strlen(out + lead) + 1);
    if (*i < n && s[*i] != ',')
        return bad(rd, line, "text after a quoted field");
    return TB_OK; /* a longer value stays longer than 48: refused by its check */
}

static int parse_csv(struct rd *rd, const char *text, size_t len)
{
    int col[TB_ROUND_FIELDS + 8], ncol = 0, line = 0;
    size_t at = 0, n;
    const char *s;
    while (next_line(text, len, &at, &s, &n)) {
        line++;
        if (blank(s, n))
            continue;
        char val[TB_ROUND_VALUE_MAX + 8];
        size_t i = 0;
        if (!ncol) { /* the header line names the columns */
            bool seen[TB_ROUND_FIELDS] = {false};
            for (;;) {
                if (ncol >= (int)(sizeof col / sizeof *col))
                    return bad(rd, line, "too many columns");
                if (csv_field(rd, line, s, n, &i, val, sizeof val))
                    return TB_ERR_PARSE;
                int f = field_of(val);
                if (f < 0 && strcmp(val, "Result"))
                    return bad(rd, line,
                               "column \"%s\" is none of Board, White, Black, Round, "
                               "WhiteFideId, BlackFideId, WhiteTitle, BlackTitle, "
                               "WhiteElo, BlackElo, WhiteStartRank, BlackStartRank, Event, "
                               "Site, Date, Result%s",
                               val, "");
                if (f >= 0 && seen[f])
                    return bad(rd, line, "column %s is named twice", val);
                if (f >= 0)
                    seen[f] = true;
                col[ncol++] = f;
                if (i >= n)
                    break;
                i++;
            }
            if (!seen[TB_ROUND_WHITE] || !seen[TB_ROUND_BLACK])
                return bad(rd, line, "the header line names no White or no Black column");
            continue;
        }
        struct tb_round_pairing p;
        memset(&p, 0, sizeof p);
        p.line = line;
        for (int c = 0; c < ncol; c++) {
            if (csv_field(rd, line, s, n, &i, val, sizeof val))
                return TB_ERR_PARSE;
            if (col[c] >= 0 && check_value(rd, line, col[c], val))
                return TB_ERR_PARSE;
            if (col[c] >= 0)
                tb_str_copy(p.v[col[c]], sizeof p.v[col[c]], val);
            if (c + 1 < ncol && i >= n)
                return bad(rd, line, "%d fields, the header names %d", c + 1, ncol);
            if (c + 1 < ncol)
                i++;
        }
        if (i < n)
            return bad(rd, line, "more fields than the header names");
        if (finish(rd, &p))
            return TB_ERR_PARSE;
    }
    if (!ncol)
        return bad(rd, line ? line : 1, "no header line and no pairing");
    return TB_OK;
}

static int by_board(const void *a, const void *b)
{
    const struct tb_round_pairing *x = a, *y = b;
    return (x->board > y->board) - (x->board < y->board);
}

int tb_round_parse(const char *name, const char *text, size_t len, struct tb_round *r,
                   struct tb_error *err)
{
    memset(r, 0, sizeof *r);
    struct rd rd = {name ? name : "pairings", err, r, 0};
    if (!text)
        return tb_error_set(err, TB_ERR_ARG, "%s: no text", rd.name);
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) /* a spreadsheet's byte order mark */
        text += 3, len -= 3;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *c = text; c < nul; c++)
            line += *c == '\n';
        return bad(&rd, line, "a NUL byte: not a text file");
    }
    size_t first = 0;
    while (first < len && strchr(" \t\r\n", text[first]))
        first++;
    int rc =
        first < len && text[first] == '[' ? parse_pgn(&rd, text, len) : parse_csv(&rd, text, len);
    if (rc)
        return rc;
    if (!r->n)
        return bad(&rd, 1, "no pairing in the file");
    qsort(r->p, (size_t)r->n, sizeof r->p[0], by_board);
    return TB_OK;
}

const struct tb_round_pairing *tb_round_board(const struct tb_round *r, int board)
{
    for (int i = 0; r && i < r->n; i++)
        if (r->p[i].board == board)
            return &r->p[i];
    return NULL;
}
