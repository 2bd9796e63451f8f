/* daemon_bcdelay.c - the broadcast delay ([broadcast] delay, docs/broadcast.md): the virtual
 * DGT board and the live PGN show the game as it stood `delay` ago. Each change the broadcast
 * is given (a new game, the agreed game with its clock, a result) is kept with its time and
 * handed to the library once it is that old, in order: nothing is lost, nothing younger is
 * shown. Without a delay each change goes on at once. The arbiter's views (`pgn`, status, the
 * hall) never pass here. */
#include <stdio.h>
#include <stdlib.h>

#include "daemon_broadcast.h"
#include "daemon_shell.h"
#include "tb_fifo.h"

enum change_kind {
    NEW_GAME = TB_DAEMON__BCDELAY_NEW_GAME,
    AGREED = TB_DAEMON__BCDELAY_AGREED,
    RESULT = TB_DAEMON__BCDELAY_RESULT
};

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
    struct tb_fifo q;    /* struct change, oldest first */
    tb_chess_game *game; /* the game handed over, rebuilt from a change */
};

static void change_free(struct change *c)
{
    free(c->moves);
    free(c->clk);
    free(c->tags);
}

void tb_daemon__bcdelay_free(struct tb_daemon__bcdelay *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < tb_fifo_count(&q->q); i++)
        change_free(tb_fifo_at(&q->q, i));
    tb_fifo_free(&q->q);
    free(q->game);
    free(q);
}

struct tb_daemon__bcdelay *tb_daemon__bcdelay_new(void)
{
    struct tb_daemon__bcdelay *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->q = TB_FIFO_INIT(sizeof(struct change), 0);
    if (!(q->game = malloc(sizeof *q->game))) {
        free(q);
        return NULL;
    }
    return q;
}

/* Hands one change to the library. The clock's reading is moved on by the time it waited, so
 * the virtual board's clock runs from the reading as it was then and the mover's [%clk] is the
 * time it had at the press. */
static int hand_over(struct tb_daemon__bcdelay *q, tb_broadcast *bc, struct change *c, uint64_t now,
                     struct tb_error *err)
{
    switch (c->kind) {
    case NEW_GAME:
        return tb_broadcast_new_game(bc, c->tags, &c->start, now, err);
    case AGREED:
        tb_chess_game_init(q->game, &c->start);
        for (int i = 0; i < c->plies; i++)
            tb_chess_game_push(q->game, c->moves[i]);
        if (c->clock.known)
            c->clock.at_ms += now - c->at;
        return tb_broadcast_agreed_clk(bc, q->game, c->clk, &c->clock, now, err);
    case RESULT:
        c->end.result = c->result[0] ? c->result : NULL; /* the change may have moved */
        return tb_broadcast_result(bc, &c->end, now, err);
    }
    return TB_OK;
}

int tb_daemon__bcdelay_hand_over(struct tb_daemon__bcdelay *q, tb_broadcast *bc, uint64_t now,
                                 uint64_t delay, struct tb_error *err)
{
    err->code = 0;
    err->msg[0] = '\0';
    struct change *c = q ? tb_fifo_at(&q->q, 0) : NULL;
    if (!c || c->at + delay > now)
        return 0;
    int kind = (int)c->kind;
    hand_over(q, bc, c, now, err);
    change_free(c);
    tb_fifo_pop(&q->q, NULL);
    return kind;
}

uint64_t tb_daemon__bcdelay_deadline(const struct tb_daemon__bcdelay *q, uint64_t delay)
{
    const struct change *c = q ? tb_fifo_at(&q->q, 0) : NULL;
    return c ? c->at + delay : UINT64_MAX;
}

/* Appends the change made by the caller; on TB_ERR_MEM what it owns is freed (the caller says
 * so: not counted, never shown). */
static int add(struct tb_daemon__bcdelay *q, struct change *c)
{
    int rc = tb_fifo_push(&q->q, c);
    if (rc != TB_OK)
        change_free(c);
    return rc;
}

int tb_daemon__bcdelay_new_game(struct tb_daemon__bcdelay *q, const struct tb_broadcast_tags *tags,
                                const tb_chess_pos *start, uint64_t now)
{
    struct change c = {.kind = NEW_GAME, .at = now, .start = *start};
    if (!(c.tags = malloc(sizeof *c.tags)))
        return TB_ERR_MEM; /* not counted: never shown */
    *c.tags = *tags;
    return add(q, &c);
}

int tb_daemon__bcdelay_agreed(struct tb_daemon__bcdelay *q, const tb_chess_game *g,
                              const uint64_t *clk_ms, const struct tb_broadcast_clock *clock,
                              uint64_t now)
{
    struct change c = {
        .kind = AGREED, .at = now, .start = g->start, .plies = g->plies, .clock = *clock};
    size_t n = g->plies ? (size_t)g->plies : 1;
    if (!(c.moves = malloc(n * sizeof *c.moves)) || !(c.clk = malloc(n * sizeof *c.clk))) {
        change_free(&c);
        return TB_ERR_MEM;
    }
    for (int i = 0; i < g->plies; i++) {
        c.moves[i] = g->moves[i];
        c.clk[i] = clk_ms ? clk_ms[i] : TB_BROADCAST_NO_CLK;
    }
    return add(q, &c);
}

int tb_daemon__bcdelay_result(struct tb_daemon__bcdelay *q, const struct tb_broadcast_end *end,
                              uint64_t now)
{
    struct change c = {.kind = RESULT, .at = now, .end = *end};
    if (end->result)
        snprintf(c.result, sizeof c.result, "%s", end->result);
    c.end.result = NULL; /* set from c.result when handed over: the change moves */
    return add(q, &c);
}
