/* clock_filter.c - which BWTIME readings become the clock's state (docs/dgt.md, BWTIME rules). */
#include <string.h>

#include "dgt_internal.h"

void tb_dgt_clock_filter_init(struct tb_dgt_clock_filter *f)
{
    memset(f, 0, sizeof *f);
    f->max_increment_s = 300;
    f->confirm_ms = 1000;
    f->set_window_ms = 10000;
}

void tb_dgt_clock_filter_expect_set(struct tb_dgt_clock_filter *f, uint64_t now_ms)
{
    f->set_until_ms = now_ms + f->set_window_ms;
}

const char *tb_dgt_clock_verdict_name(enum tb_dgt_clock_verdict v)
{
    switch (v) {
    case TB_DGT_CLOCK_ACCEPTED:
        return "accepted";
    case TB_DGT_CLOCK_ACK:
        return "clock ACK";
    case TB_DGT_CLOCK_EMPTY:
        return "all-zero reading";
    case TB_DGT_CLOCK_NO_CLOCK:
        return "no clock connected";
    case TB_DGT_CLOCK_RANGE:
        return "impossible time";
    case TB_DGT_CLOCK_RISE:
        return "time went up";
    case TB_DGT_CLOCK_JUMP:
        return "time jumped up by more than an hour";
    }
    return "?";
}

/* Did this side's clock run in the old reading and stop in the new one (its player pressed)? */
static bool stopped(const struct tb_dgt_bwtime *old, const struct tb_dgt_bwtime *now, bool right)
{
    bool old_ran = (old->status & TB_DGT_ST_RUNNING) && tb_dgt_bwtime_right_runs(old) == right;
    bool now_runs = (now->status & TB_DGT_ST_RUNNING) && tb_dgt_bwtime_right_runs(now) == right;
    return old_ran && !now_runs;
}

/* How a side's new time compares with the accepted one: 0 not up, 1 an increment, 2 a rise,
 * 3 a jump of more than an hour. */
static int rise(const struct tb_dgt_clock_filter *f, const struct tb_dgt_bwtime *b, bool right)
{
    uint32_t old = right ? f->state.right.seconds : f->state.left.seconds;
    uint32_t now = right ? b->right.seconds : b->left.seconds;
    if (now <= old)
        return 0;
    if (now - old > 3600)
        return 3;
    if (now - old <= f->max_increment_s && stopped(&f->state, b, right))
        return 1;
    return 2;
}

static bool same_times(const struct tb_dgt_bwtime *a, const struct tb_dgt_bwtime *b,
                       uint64_t elapsed_ms)
{
    /* A confirming reading may have run down by the time passed since (plus a second). */
    uint32_t slack = (uint32_t)(elapsed_ms / 1000) + 1;
    return b->left.seconds <= a->left.seconds && b->left.seconds + slack >= a->left.seconds &&
           b->right.seconds <= a->right.seconds && b->right.seconds + slack >= a->right.seconds;
}

static enum tb_dgt_clock_verdict verdict(struct tb_dgt_clock_filter *f,
                                         const struct tb_dgt_bwtime *b, uint64_t now_ms)
{
    switch (b->kind) {
    case TB_DGT_BW_ACK:
        return TB_DGT_CLOCK_ACK;
    case TB_DGT_BW_EMPTY:
        return TB_DGT_CLOCK_EMPTY;
    case TB_DGT_BW_NO_CLOCK:
        return TB_DGT_CLOCK_NO_CLOCK;
    case TB_DGT_BW_RANGE:
        return TB_DGT_CLOCK_RANGE;
    case TB_DGT_BW_TIMES:
        break;
    }
    if (!f->have || now_ms < f->set_until_ms)
        return TB_DGT_CLOCK_ACCEPTED;
    int l = rise(f, b, false), r = rise(f, b, true);
    int worst = l > r ? l : r;
    if (worst <= 1)
        return TB_DGT_CLOCK_ACCEPTED;
    if (f->pending && now_ms >= f->pending_ms + f->confirm_ms &&
        same_times(&f->pending_reading, b, now_ms - f->pending_ms))
        return TB_DGT_CLOCK_ACCEPTED; /* a second reading confirms the new times */
    if (worst == 3 && !f->pending) {
        f->pending = true; /* dropped, but a later reading may still confirm it */
        f->pending_reading = *b;
        f->pending_ms = now_ms;
        return TB_DGT_CLOCK_JUMP;
    }
    if (!f->pending || !same_times(&f->pending_reading, b, now_ms - f->pending_ms)) {
        f->pending = true;
        f->pending_reading = *b;
        f->pending_ms = now_ms;
    }
    return worst == 3 ? TB_DGT_CLOCK_JUMP : TB_DGT_CLOCK_RISE;
}

enum tb_dgt_clock_verdict tb_dgt_clock_filter_push(struct tb_dgt_clock_filter *f,
                                                   const uint8_t payload[7], uint64_t now_ms)
{
    struct tb_dgt_bwtime b;
    tb_dgt_bwtime_decode(payload, &b);
    enum tb_dgt_clock_verdict v = verdict(f, &b, now_ms);
    if (v == TB_DGT_CLOCK_ACCEPTED) {
        f->have = true;
        f->state = b;
        f->state_ms = now_ms;
        f->pending = false;
    } else if (v != TB_DGT_CLOCK_ACK) {
        f->refused[v]++;
    }
    return v;
}
