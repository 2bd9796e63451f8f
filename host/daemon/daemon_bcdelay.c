/* daemon_bcdelay.c - the broadcast delay ([broadcast] delay, docs/broadcast.md): the virtual
 * DGT board and the live PGN show the game as it stood `delay` ago. Each change the broadcast
 * is given (a new game, the agreed game with its clock, a result) is kept with its time and
 * handed to the library once it is that old, in order: nothing is lost, nothing younger is
 * shown. Without a delay each change goes on at once. The arbiter's views (`pgn`, status, the
 * hall) never pass here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_internal.h"

enum change_kind { NEW_GAME, AGREED, RESULT };

struct change {
    enum change_kind kind;
    uint64_t at;                     /* the daemon's clock when it happened */
    tb_chess_pos start;              /* NEW_GAME, AGREED */
    tb_chess_move *moves;            /* AGREED: the agreed plies (owned) */
    uint64_t *clk;                   /* AGREED: their [%clk] as recorded then (owned) */
    int plies;                       /* AGREED */
    struct tb_broadcast_clock clock; /* AGREED */
    struct tb_broadcast_tags *tags;  /* NEW_GAME (owned) */
    struct tb_broadcast_end end;     /* RESULT; end.result is set from result when handed over */
    char result[8];
};

struct tb_daemon__bcdelay {
    struct change *q; /* oldest first, from head */
    size_t head, n, cap;
    tb_chess_game *game; /* the game handed over, rebuilt from a change */
};

static void change_free(struct change *c)
{
    free(c->moves);
    free(c->clk);
    free(c->tags);
}

void tb_daemon__bcdelay_free(struct tb_daemon *d)
{
    struct tb_daemon__bcdelay *q = d->bc_delay;
    if (!q)
        return;
    for (size_t i = 0; i < q->n; i++)
        change_free(&q->q[q->head + i]);
    free(q->q);
    free(q->game);
    free(q);
    d->bc_delay = NULL;
}

int tb_daemon__bcdelay_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__bcdelay *q = calloc(1, sizeof *q);
    if (!q || !(q->game = malloc(sizeof *q->game))) {
        free(q);
        return tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
    }
    d->bc_delay = q;
    return TB_OK;
}

/* Hands one change to the library. The clock's reading is moved on by the time it waited, so
 * the virtual board's clock runs from the reading as it was then and the mover's [%clk] is the
 * time it had at the press. */
static void hand_over(struct tb_daemon *d, struct change *c, uint64_t now)
{
    struct tb_error err = {0};
    switch (c->kind) {
    case NEW_GAME:
        if (tb_broadcast_new_game(d->bc, c->tags, &c->start, now, &err) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: the new game is not shown: %s",
                           err.msg);
        else
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "broadcast: new game, live PGN %s",
                           tb_broadcast_pgn_path(d->bc)[0] ? tb_broadcast_pgn_path(d->bc) : "off");
        break;
    case AGREED: {
        tb_chess_game *g = d->bc_delay->game;
        tb_chess_game_init(g, &c->start);
        for (int i = 0; i < c->plies; i++)
            tb_chess_game_push(g, c->moves[i]);
        if (c->clock.known)
            c->clock.at_ms += now - c->at;
        if (tb_broadcast_agreed_clk(d->bc, g, c->clk, &c->clock, now, &err) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "broadcast: not shown: %s", err.msg);
        break;
    }
    case RESULT:
        c->end.result = c->result[0] ? c->result : NULL; /* the change may have moved */
        if (tb_broadcast_result(d->bc, &c->end, now, &err) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN, "broadcast: the result is not shown: %s",
                           err.msg);
        break;
    }
}

void tb_daemon__bcdelay_due(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__bcdelay *q = d->bc_delay;
    uint64_t delay = d->cfg->broadcast.delay_ms;
    while (q && q->n && q->q[q->head].at + delay <= now) {
        struct change *c = &q->q[q->head];
        hand_over(d, c, now);
        change_free(c);
        q->head++;
        q->n--;
    }
    if (q && !q->n)
        q->head = 0;
}

uint64_t tb_daemon__bcdelay_deadline(const struct tb_daemon *d)
{
    const struct tb_daemon__bcdelay *q = d->bc_delay;
    return q && q->n ? q->q[q->head].at + d->cfg->broadcast.delay_ms : UINT64_MAX;
}

/* A new change at the queue's end; NULL (logged) when memory runs out: that change is never
 * shown, nothing younger is shown in its place. */
static struct change *add(struct tb_daemon *d, enum change_kind kind)
{
    struct tb_daemon__bcdelay *q = d->bc_delay;
    if (q->head + q->n == q->cap) {
        if (q->head) { /* room at the front: move the waiting ones there */
            memmove(q->q, q->q + q->head, q->n * sizeof *q->q);
            q->head = 0;
        } else {
            size_t cap = q->cap ? q->cap * 2 : 16;
            struct change *grown = realloc(q->q, cap * sizeof *grown);
            if (!grown) {
                tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: out of memory, a change lost");
                return NULL;
            }
            q->q = grown;
            q->cap = cap;
        }
    }
    struct change *c = &q->q[q->head + q->n];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->at = tb_daemon__clock(d);
    return c;
}

/* The change goes on now without a delay, else when it is due. */
static void added(struct tb_daemon *d)
{
    d->bc_delay->n++;
    if (!d->cfg->broadcast.delay_ms)
        tb_daemon__bcdelay_due(d, tb_daemon__clock(d));
}

void tb_daemon__bcdelay_new_game(struct tb_daemon *d, const struct tb_broadcast_tags *tags,
                                 const tb_chess_pos *start)
{
    struct change *c = add(d, NEW_GAME);
    if (!c)
        return;
    if (!(c->tags = malloc(sizeof *c->tags))) { /* the change is not counted: never shown */
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: out of memory, a new game lost");
        return;
    }
    *c->tags = *tags;
    c->start = *start;
    added(d);
}

void tb_daemon__bcdelay_agreed(struct tb_daemon *d, const tb_chess_game *g,
                               const struct tb_broadcast_clock *clk)
{
    struct change *c = add(d, AGREED);
    if (!c)
        return;
    size_t n = g->plies ? (size_t)g->plies : 1;
    if (!(c->moves = malloc(n * sizeof *c->moves)) || !(c->clk = malloc(n * sizeof *c->clk))) {
        change_free(c);
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: out of memory, a change lost");
        return;
    }
    for (int i = 0; i < g->plies; i++) {
        c->moves[i] = g->moves[i];
        c->clk[i] = tb_daemon__clock_ply_ms(d, i + 1);
    }
    c->plies = g->plies;
    c->start = g->start;
    c->clock = *clk;
    added(d);
}

void tb_daemon__bcdelay_result(struct tb_daemon *d, const struct tb_broadcast_end *end)
{
    struct change *c = add(d, RESULT);
    if (!c)
        return;
    c->end = *end;
    if (end->result)
        snprintf(c->result, sizeof c->result, "%s", end->result);
    c->end.result = NULL;
    added(d);
}
