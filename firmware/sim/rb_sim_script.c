/* rb_sim_script.c - event scripts, button names and initial occupancy for the simulator. */
#include "rb_sim_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tb_script.h"

int rb_sim_button_parse(const char *name)
{
    static const char *const names[RB_NETLIST_NBUTTONS][3] = {
        {"promote", "promotion", "1"},
        {"repeat", "2", NULL},
        {"clock", "time", "3"},
        {"arbiter", "4", NULL},
    };
    if (!name)
        return -1;
    for (int b = 0; b < RB_NETLIST_NBUTTONS; b++)
        for (int k = 0; k < 3 && names[b][k]; k++)
            if (strcasecmp(name, names[b][k]) == 0)
                return b;
    return -1;
}

int rb_sim_occupancy_parse(const char *s, uint64_t *out, struct tb_error *err)
{
    if (!s || !out)
        return tb_error_set(err, TB_ERR_ARG, "occupancy: nothing given");
    if (strcmp(s, "start") == 0) {
        *out = 0xFFFF00000000FFFFull; /* ranks 1, 2, 7 and 8 */
        return 0;
    }
    if (strcmp(s, "empty") == 0) {
        *out = 0;
        return 0;
    }
    /* FEN placement: rank 8 first, '/' between ranks, digits for empty runs. */
    uint64_t occ = 0;
    int rank = 7, file = 0;
    const char *p = s;
    for (; *p && *p != ' '; p++) {
        long col = (long)(p - s) + 1;
        if (*p == '/') {
            if (file != 8 || rank == 0)
                return tb_error_set_at(err, TB_ERR_PARSE, 0, col,
                                       "occupancy '%s': rank %d does not have 8 squares", s,
                                       rank + 1);
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else if (strchr("KQRBNPkqrbnp", *p)) {
            if (file < 8)
                occ |= 1ull << (rank * 8 + file);
            file++;
        } else {
            return tb_error_set_at(err, TB_ERR_PARSE, 0, col,
                                   "occupancy '%s': unexpected '%c' at column %ld (expected "
                                   "start, empty or a FEN placement)",
                                   s, *p, col);
        }
        if (file > 8)
            return tb_error_set_at(err, TB_ERR_PARSE, 0, col,
                                   "occupancy '%s': rank %d has more than 8 squares", s, rank + 1);
    }
    if (rank != 0 || file != 8)
        return tb_error_set(err, TB_ERR_PARSE, "occupancy '%s': needs 8 ranks of 8 squares", s);
    *out = occ;
    return 0;
}

struct collect {
    struct rb_sim_action *acts; /* square/button changes, cycle = ms as given */
    size_t n, cap;
    const char *board;
    long bad_button_line;
    struct rb_sim_script_result res;
};

static int on_event(void *user, const struct tb_script_event *ev, long line)
{
    struct collect *c = user;
    if (ev->kind == TB_SCRIPT_NONE || ev->kind == TB_SCRIPT_EXPECT)
        return 0;
    if (c->board && strcmp(c->board, ev->board) != 0) {
        c->res.skipped++;
        return 0;
    }
    c->res.end_ms = ev->ms;
    if (ev->kind == TB_SCRIPT_CHOOSE || ev->kind == TB_SCRIPT_CLOCK) { /* no such input here */
        c->res.ignored++;
        return 0;
    }
    struct rb_sim_action a = {0};
    a.cycle = ev->us; /* microseconds until scheduling */
    a.square = -1;
    a.button = -1;
    if (ev->kind == TB_SCRIPT_LIFT || ev->kind == TB_SCRIPT_PLACE) {
        a.square = (int8_t)ev->square;
        a.on = ev->kind == TB_SCRIPT_PLACE;
    } else {
        int b = rb_sim_button_parse(ev->button);
        if (b < 0) {
            c->bad_button_line = line;
            return 1; /* reported by the caller */
        }
        a.button = (int8_t)b;
        a.on = ev->kind == TB_SCRIPT_PRESS;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        struct rb_sim_action *p = realloc(c->acts, cap * sizeof *p);
        if (!p)
            return TB_ERR_MEM;
        c->acts = p;
        c->cap = cap;
    }
    c->acts[c->n++] = a;
    return 0;
}

int rb_sim_schedule_script(struct rb_sim *sim, const char *text, size_t len, const char *source,
                           const char *board, double offset_ms, double bounce_ms,
                           struct rb_sim_script_result *res, struct tb_error *err)
{
    if (!sim || (!text && len) || bounce_ms < 0)
        return tb_error_set(err, TB_ERR_ARG, "script: bad arguments");
    if (!source)
        source = "script";
    struct collect c = {0};
    c.board = board;
    struct tb_error perr = {0};
    int rc = tb_script_parse_buffer(text, len, on_event, &c, &perr);
    if (rc == TB_ERR_PARSE) {
        tb_error_set_at(err, TB_ERR_PARSE, perr.line, perr.column, "%s:%ld: %s", source, perr.line,
                        perr.msg);
    } else if (rc == 1) {
        rc = tb_error_set_at(err, TB_ERR_PARSE, c.bad_button_line, 0,
                             "%s:%ld: unknown button (expected promote, repeat, clock, arbiter "
                             "or 1..4)",
                             source, c.bad_button_line);
    } else if (rc) {
        tb_error_set(err, rc, "%s: %s", source, tb_strerror(rc));
    }
    /* Schedule only a script that parsed completely. */
    for (size_t i = 0; rc == 0 && i < c.n; i++) {
        const struct rb_sim_action *a = &c.acts[i];
        uint64_t at = rb_sim_ms_to_cycles(sim, offset_ms + (double)a->cycle / 1000.0);
        rc = a->square >= 0 ? rb_sim_square_at(sim, at, a->square, a->on, bounce_ms)
                            : rb_sim_button_at(sim, at, a->button, a->on, bounce_ms);
        if (rc)
            tb_error_set(err, rc, "%s: cannot schedule: %s", source, tb_strerror(rc));
    }
    if (rc == 0) {
        c.res.actions = c.n;
        if (res)
            *res = c.res;
    }
    free(c.acts);
    return rc;
}
