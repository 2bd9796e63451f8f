/* round_pgn.c - each board's public PGN and the round's results list (pure). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "round_internal.h"

/* The header's lines: [pgn, end of the last tag line's break). */
static size_t header_end(const char *pgn)
{
    size_t at = 0;
    while (pgn[at] == '[') {
        const char *nl = strchr(pgn + at, '\n');
        if (!nl)
            return strlen(pgn);
        at = (size_t)(nl - pgn) + 1;
    }
    return at;
}

bool tb_round_pgn_tag(const char *pgn, const char *name, char *buf, size_t cap)
{
    size_t end = header_end(pgn), at = 0;
    if (cap)
        buf[0] = '\0';
    while (at < end) {
        const char *nl = memchr(pgn + at, '\n', end - at);
        size_t n = nl ? (size_t)(nl - (pgn + at)) : end - at;
        char tag[32];
        if (tb_round__tag_pair(pgn + at, n, tag, sizeof tag, buf, cap) && !strcmp(tag, name))
            return true;
        at += n + 1;
    }
    if (cap)
        buf[0] = '\0';
    return false;
}

bool tb_round_pgn_is(const struct tb_round_pairing *p, const char *pgn)
{
    static const enum tb_round_field keys[] = {TB_ROUND_WHITE, TB_ROUND_BLACK, TB_ROUND_ROUND};
    char v[TB_ROUND_VALUE_MAX + 8];
    for (size_t i = 0; pgn && i < sizeof keys / sizeof *keys; i++)
        if (!tb_round_pgn_tag(pgn, tb_round_field_name(keys[i]), v, sizeof v) ||
            strcmp(v, p->v[keys[i]]))
            return false;
    return pgn != NULL;
}

void tb_round__put(struct tb_round__out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->n < o->cap ? o->cap - o->n : 0;
    int k = vsnprintf(room ? o->buf + o->n : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->n += (size_t)k;
}

int tb_round__done(struct tb_round__out *o)
{
    if (o->cap && o->n >= o->cap)
        o->buf[o->cap - 1] = '\0';
    return (int)o->n;
}

/* The pairing's tags a table's PGN does not carry: Board, titles, ratings, FIDE ids. */
static void extra_tags(struct tb_round__out *o, const struct tb_round_pairing *p, const char *pgn)
{
    for (int f = TB_ROUND_BOARD; f < TB_ROUND_WHITE_RANK; f++) { /* start ranks: no tag */
        char have[8];
        if (p->v[f][0] &&
            !(pgn && tb_round_pgn_tag(pgn, tb_round_field_name(f), have, sizeof have)))
            tb_round__put(o, "[%s \"%s\"]\n", tb_round_field_name(f), p->v[f]);
    }
}

int tb_round_board_pgn(const struct tb_round_pairing *p, const char *table_pgn, char *buf,
                       size_t cap)
{
    struct tb_round__out o = {buf, cap, 0};
    if (cap)
        buf[0] = '\0';
    if (tb_round_pgn_is(p, table_pgn)) {
        size_t end = header_end(table_pgn);
        tb_round__put(&o, "%.*s", (int)end, table_pgn);
        extra_tags(&o, p, table_pgn);
        tb_round__put(&o, "%s", table_pgn + end);
        return tb_round__done(&o);
    }
    /* the table plays another game or has not started this one: the pairing, no moves */
    for (int f = TB_ROUND_EVENT; f <= TB_ROUND_BLACK; f++)
        tb_round__put(&o, "[%s \"%s\"]\n", tb_round_field_name(f), p->v[f][0] ? p->v[f] : "?");
    tb_round__put(&o, "[Result \"*\"]\n");
    extra_tags(&o, p, NULL);
    tb_round__put(&o, "\n*\n");
    return tb_round__done(&o);
}

/* A CSV value, quoted when it holds a comma or spaces at its ends. */
static void csv(struct tb_round__out *o, const char *v, const char *after)
{
    size_t n = strlen(v);
    bool q = strchr(v, ',') || (n && (v[0] == ' ' || v[n - 1] == ' '));
    if (q)
        tb_round__put(o, "\"%s\"%s", v, after);
    else
        tb_round__put(o, "%s%s", v, after);
}

int tb_round_results_csv(const struct tb_round *r, const char *const *results, char *buf,
                         size_t cap)
{
    struct tb_round__out o = {buf, cap, 0};
    if (cap)
        buf[0] = '\0';
    tb_round__put(&o, "Board,White,Black,Result\n");
    for (int i = 0; i < r->n; i++) {
        tb_round__put(&o, "%d,", r->p[i].board);
        csv(&o, r->p[i].v[TB_ROUND_WHITE], ",");
        csv(&o, r->p[i].v[TB_ROUND_BLACK], ",");
        csv(&o, results && results[i] ? results[i] : "*", "\n");
    }
    return tb_round__done(&o);
}

int tb_round_results_text(const struct tb_round *r, const char *const *results, char *buf,
                          size_t cap)
{
    struct tb_round__out o = {buf, cap, 0};
    int w = 5, b = 5; /* the columns as wide as their longest name */
    for (int i = 0; i < r->n; i++) {
        int lw = (int)strlen(r->p[i].v[TB_ROUND_WHITE]),
            lb = (int)strlen(r->p[i].v[TB_ROUND_BLACK]);
        w = lw > w ? lw : w;
        b = lb > b ? lb : b;
    }
    if (cap)
        buf[0] = '\0';
    tb_round__put(&o, "Round %s\n%-5s  %-*s  %-*s  %s\n", r->round, "Board", w, "White", b, "Black",
                  "Result");
    for (int i = 0; i < r->n; i++)
        tb_round__put(&o, "%5d  %-*s  %-*s  %s\n", r->p[i].board, w, r->p[i].v[TB_ROUND_WHITE], b,
                      r->p[i].v[TB_ROUND_BLACK], results && results[i] ? results[i] : "*");
    return tb_round__done(&o);
}
