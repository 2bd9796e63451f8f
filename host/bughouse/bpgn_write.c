/* bpgn_write.c - BPGN out: both games' moves in time order, with board letters ("1A." White on
 * board A, "1a." Black on A, "1B."/"1b." on B), the mover's clock after each move, and the
 * results with their reasons and articles. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bug_internal.h"

struct out {
    char *buf;
    size_t len, n;
    int col; /* column of the current movetext line */
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k >= sizeof tmp)
        k = (int)sizeof tmp - 1;
    for (int i = 0; i < k; i++, o->n++)
        if (o->buf && o->n + 1 < o->len)
            o->buf[o->n] = tmp[i];
    if (o->buf && o->len)
        o->buf[o->n < o->len ? o->n : o->len - 1] = 0;
}

static void tag(struct out *o, const char *name, const char *value)
{
    put(o, "[%s \"", name);
    for (const char *p = value; *p; p++)
        put(o, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
    put(o, "\"]\n");
}

/* A movetext token, wrapped below 80 columns. */
static void word(struct out *o, const char *w)
{
    int k = (int)strlen(w);
    if (o->col && o->col + 1 + k >= 80) {
        put(o, "\n");
        o->col = 0;
    }
    put(o, "%s%s", o->col ? " " : "", w);
    o->col += (o->col ? 1 : 0) + k;
}

static bool is_start(const tb_bug_pos *pos)
{
    tb_bug_pos s;
    tb_bug_pos_startpos(&s);
    return tb_bug_pos_equal(&s, pos); /* field by field: padding bytes are not the position */
}

int tb_bug_bpgn_write(const tb_bug_record *rec, char *buf, size_t len)
{
    struct out o = {buf, len, 0, 0};
    char tmp[TB_BUG_FEN_MAX + 64];
    if (buf && len)
        buf[0] = 0;
    tag(&o, "Event", rec->event);
    tag(&o, "Site", rec->site);
    tag(&o, "Date", rec->date);
    static const char *const who[4] = {"WhiteA", "BlackA", "WhiteB", "BlackB"};
    for (int i = 0; i < 4; i++)
        tag(&o, who[i], rec->names[i]);
    snprintf(tmp, sizeof tmp, "%ld", (long)(rec->base_ms / 1000));
    if (rec->base_ms % 1000)
        snprintf(tmp, sizeof tmp, "%.3f", rec->base_ms / 1000.0);
    tag(&o, "TimeControl", tmp);
    tag(&o, "Result", tb_bug_result_text(rec->verdict[0].result));
    tag(&o, "ResultA", tb_bug_result_text(rec->verdict[0].result));
    tag(&o, "ResultB", tb_bug_result_text(rec->verdict[1].result));
    for (int b = 0; b < 2; b++) {
        if (is_start(&rec->start[b]))
            continue;
        tb_bug_pos_to_fen(&rec->start[b], tmp, sizeof tmp);
        tag(&o, b ? "FENB" : "FEN", tmp);
    }
    put(&o, "\n");

    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    struct tb_bug__open st = {0};
    for (int i = 0; i < rec->nplies; i++) {
        const struct tb_bug_ply *p = &rec->plies[i];
        if (p->board > 1)
            return TB_ERR_STATE;
        const tb_chess_pos *c = &pos[p->board].chess;
        char san[24];
        /* article 7: a comment says what the ply is; a takeback or removal is no move */
        if (p->irregular) {
            tb_bug__irregular_text(p, tmp, sizeof tmp);
            word(&o, tmp);
        }
        if (p->irregular == TB_BUG_PLY_TAKEBACK || p->irregular == TB_BUG_PLY_REMOVED) {
            if (tb_bug__step(pos, &st, p))
                return TB_ERR_STATE;
            continue;
        }
        snprintf(tmp, sizeof tmp, "%u%c.", (unsigned)c->fullmove,
                 (p->board ? 'B' : 'A') + (c->side == TB_CHESS_BLACK ? 32 : 0));
        word(&o, tmp);
        if (p->irregular)
            tb_bug_illegal_san(&pos[p->board], p->move, san, sizeof san);
        else
            tb_bug_move_to_san(&pos[p->board], p->move, TB_CHESS_LETTERS_EN, san, sizeof san);
        word(&o, san);
        if (p->clock_ms >= 0) {
            snprintf(tmp, sizeof tmp, "{%ld.%03ld}", (long)(p->clock_ms / 1000),
                     (long)(p->clock_ms % 1000));
            word(&o, tmp);
        }
        if (tb_bug__step(pos, &st, p))
            return TB_ERR_STATE;
    }
    for (int b = 0; b < 2; b++) {
        const struct tb_bug_verdict *v = &rec->verdict[b];
        if (v->result == TB_BUG_ONGOING && v->reason == TB_BUG_NONE)
            continue;
        snprintf(tmp, sizeof tmp, "{%c: %s %s%s (%s)}", 'A' + b, tb_bug_result_text(v->result),
                 tb_bug_reason_text(v->reason), v->last_move ? ", last move allowed" : "",
                 tb_bug__reason_article(v->reason));
        word(&o, tmp);
    }
    word(&o, tb_bug_result_text(rec->verdict[0].result));
    put(&o, "\n");
    return (int)o.n;
}
