/* pacer.c - what to send to the board next, and when.
 *
 * The board's command buffer is small, so board commands go out gap_ms apart. Clock commands go
 * one at a time: the next waits until the clock has ACKed the one in flight. Without its ACK a
 * command is sent again after ack_ms, up to `attempts` sends, and given up after give_up_ms.
 * Board commands queued behind a clock command waiting for its ACK go ahead of it (a dump asked
 * after a doubt must not wait seconds for the clock). */
#include <stdlib.h>
#include <string.h>

#include "dgt_internal.h"

struct frame {
    uint8_t bytes[TB_DGT_CLOCK_FRAME_MAX];
    uint8_t n;
    bool clock;
};

struct tb_dgt_pacer {
    struct tb_dgt_pacer_config cfg;
    struct frame queue[TB_DGT_PACER_QUEUE]; /* in order of push */
    int len;
    bool in_flight; /* queue[0] is a clock command waiting for its ACK */
    uint32_t sends;
    uint64_t first_sent, last_sent;
    uint64_t quiet_until; /* no board command before this */
    struct tb_dgt_pacer_stats stats;
};

void tb_dgt_pacer_config_default(struct tb_dgt_pacer_config *cfg)
{
    cfg->gap_ms = 100;
    cfg->ack_ms = 2000;
    cfg->attempts = 3;
    cfg->give_up_ms = 6000;
}

tb_dgt_pacer *tb_dgt_pacer_new(const struct tb_dgt_pacer_config *cfg)
{
    struct tb_dgt_pacer_config def;
    tb_dgt_pacer_config_default(&def);
    if (cfg && (cfg->attempts < 1 || cfg->ack_ms < 1 || cfg->give_up_ms < cfg->ack_ms))
        return NULL;
    tb_dgt_pacer *p = calloc(1, sizeof *p);
    if (p)
        p->cfg = cfg ? *cfg : def;
    return p;
}

void tb_dgt_pacer_free(tb_dgt_pacer *p)
{
    free(p);
}

void tb_dgt_pacer_clear(tb_dgt_pacer *p)
{
    if (p) {
        p->len = 0;
        p->in_flight = false;
    }
}

void tb_dgt_pacer_stats(const tb_dgt_pacer *p, struct tb_dgt_pacer_stats *out)
{
    if (p && out)
        *out = p->stats;
}

bool tb_dgt_pacer_busy(const tb_dgt_pacer *p)
{
    return p && p->in_flight;
}

/* Is the frame one whole clock message (2B len 03 cmd ... 00)? */
static bool clock_frame(const uint8_t *f, size_t n)
{
    return n >= 5 && n <= TB_DGT_CLOCK_FRAME_MAX && f[0] == TB_DGT_CMD_CLOCK_MESSAGE &&
           f[1] == n - 2 && f[2] == 0x03 && f[n - 1] == 0x00;
}

int tb_dgt_pacer_push(tb_dgt_pacer *p, const uint8_t *frame, size_t n)
{
    if (!p || !frame)
        return TB_ERR_ARG;
    bool clock = clock_frame(frame, n);
    bool board = (n == 1 && frame[0] != TB_DGT_CMD_STARTBOOTLOADER &&
                  tb_dgt_cmd_encode((uint8_t[1]){0}, 1, frame[0]) == 1) ||
                 (n == 6 && frame[0] == TB_DGT_CMD_SET_LEDS && frame[1] == 4);
    if (!clock && !board)
        return TB_ERR_ARG;
    if (p->len == TB_DGT_PACER_QUEUE)
        return TB_ERR_FULL;
    struct frame *f = &p->queue[p->len++];
    memcpy(f->bytes, frame, n);
    f->n = (uint8_t)n;
    f->clock = clock;
    return TB_OK;
}

static void take(tb_dgt_pacer *p, int i)
{
    memmove(&p->queue[i], &p->queue[i + 1], (size_t)(p->len - i - 1) * sizeof p->queue[0]);
    p->len--;
    if (i == 0)
        p->in_flight = false;
}

static void pop(tb_dgt_pacer *p)
{
    take(p, 0);
}

/* The first board command behind the clock command in flight, or -1. */
static int overtaker(const tb_dgt_pacer *p)
{
    for (int i = 1; i < p->len; i++) {
        if (!p->queue[i].clock)
            return i;
    }
    return -1;
}

/* A clock command in flight that has waited too long is given up. */
static void expire(tb_dgt_pacer *p, uint64_t now)
{
    if (p->in_flight && (now >= p->first_sent + p->cfg.give_up_ms ||
                         (p->sends >= p->cfg.attempts && now >= p->last_sent + p->cfg.ack_ms))) {
        p->stats.abandoned++;
        pop(p);
    }
}

uint64_t tb_dgt_pacer_due(const tb_dgt_pacer *p, uint64_t now)
{
    if (!p || p->len == 0)
        return UINT64_MAX;
    uint64_t board = p->quiet_until > now ? p->quiet_until : now;
    if (p->in_flight) {
        uint64_t again = p->last_sent + p->cfg.ack_ms, end = p->first_sent + p->cfg.give_up_ms;
        uint64_t clock = again < end ? again : end;
        return overtaker(p) >= 0 && board < clock ? board : clock;
    }
    return board;
}

int tb_dgt_pacer_next(tb_dgt_pacer *p, uint64_t now, uint8_t *buf, size_t cap)
{
    if (!p || !buf)
        return TB_ERR_ARG;
    expire(p, now);
    if (p->len == 0)
        return 0;
    int i = 0;
    if (p->in_flight && now < p->last_sent + p->cfg.ack_ms) {
        i = overtaker(p);
        if (i < 0 || now < p->quiet_until)
            return 0;
    } else if (!p->in_flight && now < p->quiet_until) {
        return 0;
    }
    struct frame *f = &p->queue[i];
    if (cap < f->n)
        return TB_ERR_FULL;
    memcpy(buf, f->bytes, f->n);
    int n = f->n;
    p->stats.sent++;
    p->quiet_until = now + p->cfg.gap_ms;
    if (!f->clock) {
        take(p, i);
        return n;
    }
    p->last_sent = now;
    if (!p->in_flight) {
        p->in_flight = true;
        p->sends = 1;
        p->first_sent = now;
    } else {
        p->sends++;
        p->stats.retries++; /* no ACK yet: once more */
    }
    return n;
}

int tb_dgt_pacer_ack(tb_dgt_pacer *p, const struct tb_dgt_ack *ack, uint64_t now)
{
    if (!p || !ack)
        return TB_ERR_ARG;
    expire(p, now);
    if (ack->b[1] & TB_DGT_ACK_UNSOLICITED) {
        p->stats.unsolicited++;
        return 0;
    }
    if (!p->in_flight || ack->b[1] != p->queue[0].bytes[3])
        return 0;
    if (ack->b[0] == TB_DGT_ACK_ERROR)
        p->stats.refused++;
    else
        p->stats.acked++;
    pop(p);
    return 1;
}
