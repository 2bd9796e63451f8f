/* gen.c - random legal matches on two boards in interleaved time, deterministic per seed. */
#include <stdint.h>
#include <string.h>

#include "bug_internal.h"

#define NEVER INT64_MAX

struct sim {
    uint64_t rng;
    tb_bug_record *rec;
    struct tb_bug_gen_config cfg;
    int32_t left[2][2]; /* [board][colour] time left, ms */
    int64_t turn_start[2];
    int64_t due[2]; /* when the side to move moves; NEVER while stalemated and waiting */
    bool ended[2];
    /* pieces still being handed over (pass_ms): [board][colour][type] their arrival times */
    int64_t transit[2][2][6][TB_BUG_POOL_MAX];
    int ntransit[2][2][6];
};

static uint64_t rnd(struct sim *s)
{
    /* splitmix64: small, fast, and the same on every machine */
    uint64_t z = (s->rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(struct sim *s, int n) /* 0 for n <= 0: no choice to make */
{
    return n > 0 ? (int)(rnd(s) % (uint64_t)n) : 0;
}

static void finish(struct sim *s, int b, const struct tb_bug_verdict *v, int64_t now)
{
    s->rec->verdict[b] = *v;
    s->rec->end_ms[b] = now;
    s->ended[b] = true;
}

/* Looks at board b after a change: mate, or (5.3) stalemate and dead positions; plans the
 * next move of its side to move. */
static void review(struct sim *s, int b, int64_t now)
{
    if (s->ended[b])
        return;
    struct tb_bug_other other = {&s->rec->cur[b ^ 1], s->ended[b ^ 1]};
    struct tb_bug_verdict v;
    tb_bug_judge_position(&s->rec->cur[b], &other, &v);
    if (v.result != TB_BUG_ONGOING) {
        finish(s, b, &v, now);
        return;
    }
    if (v.reason == TB_BUG_WAIT_STALEMATE) {
        s->due[b] = NEVER; /* waits for a piece while the clock runs */
        return;
    }
    if (s->due[b] == NEVER || s->due[b] < now)
        s->due[b] = now + s->cfg.min_think_ms + below(s, 2 * s->cfg.think_ms);
}

/* Pieces of type in the hand of colour on board b that are still on their way at now. */
static int in_transit(struct sim *s, int b, int color, int type, int64_t now)
{
    int n = 0, *count = &s->ntransit[b][color][type];
    int64_t *t = s->transit[b][color][type];
    for (int i = 0; i < *count; i++)
        if (t[i] > now)
            t[n++] = t[i];
    *count = n;
    return n;
}

/* Keeps only the drops of pieces already handed over; when nothing is left to play, the
 * earliest arrival (the player waits for it) or NEVER. */
static int64_t ready_moves(struct sim *s, int b, int64_t now, tb_bug_movelist *list)
{
    const tb_bug_pos *pos = &s->rec->cur[b];
    int side = pos->chess.side, n = 0, usable[6];
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        usable[t] = pos->pool[side][t] - in_transit(s, b, side, t, now);
    for (int i = 0; i < list->count; i++) {
        int t = tb_bug_move_drop_type(list->moves[i]);
        if (!t || usable[t] > 0)
            list->moves[n++] = list->moves[i];
    }
    list->count = n;
    int64_t next = NEVER;
    for (int t = TB_CHESS_PAWN; !n && t <= TB_CHESS_QUEEN; t++)
        for (int i = 0; i < s->ntransit[b][side][t]; i++)
            next = s->transit[b][side][t][i] < next ? s->transit[b][side][t][i] : next;
    return next;
}

/* 2.1: a piece passed to board b reaches the hand pass_ms after the capture. */
static void hand_over(struct sim *s, int b, const tb_bug_pos *before, int64_t now)
{
    const tb_bug_pos *after = &s->rec->cur[b];
    for (int c = 0; c < 2 && s->cfg.pass_ms > 0; c++)
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
            if (after->pool[c][t] > before->pool[c][t] && s->ntransit[b][c][t] < TB_BUG_POOL_MAX)
                s->transit[b][c][t][s->ntransit[b][c][t]++] = now + s->cfg.pass_ms;
}

static tb_bug_move pick(struct sim *s, const tb_bug_movelist *list)
{
    int drops = 0;
    for (int i = 0; i < list->count; i++)
        drops += tb_bug_move_is_drop(list->moves[i]);
    int ordinary = list->count - drops;
    bool drop = drops && (!ordinary || below(s, 100) < s->cfg.drop_percent);
    int k = below(s, drop ? drops : ordinary);
    for (int i = 0; i < list->count; i++)
        if (tb_bug_move_is_drop(list->moves[i]) == drop && k-- == 0)
            return list->moves[i];
    return list->moves[0];
}

static int step_move(struct sim *s, int b, int64_t now)
{
    tb_bug_pos *pos = &s->rec->cur[b];
    int side = pos->chess.side;
    s->left[b][side] -= (int32_t)(now - s->turn_start[b]);
    s->turn_start[b] = now;
    if (s->cfg.resign_permille && below(s, 1000) < s->cfg.resign_permille) {
        struct tb_bug_verdict v;
        tb_bug_judge_resign(pos, side, &v); /* 5.2: on move */
        finish(s, b, &v, now);
        review(s, b ^ 1, now);
        return TB_OK;
    }
    tb_bug_movelist list;
    int n = tb_bug_gen_legal(pos, &list);
    if (n < 0)
        return n;
    if (s->cfg.pass_ms > 0) {
        int64_t next = ready_moves(s, b, now, &list);
        if (!list.count) {
            s->due[b] = next; /* nothing to play until a piece arrives */
            return TB_OK;
        }
    }
    int other_pool =
        tb_bug_pool_count(&s->rec->cur[b ^ 1], 0) + tb_bug_pool_count(&s->rec->cur[b ^ 1], 1);
    tb_bug_pos other_before = s->rec->cur[b ^ 1];
    int rc = tb_bug_record_push(s->rec, b, pick(s, &list), s->left[b][side]);
    if (rc)
        return rc;
    hand_over(s, b ^ 1, &other_before, now);
    s->due[b] = NEVER;
    review(s, b, now);
    /* A piece passed across may end the other board's wait; the end of this game makes its
     * stalemate or dead position a draw (5.3). */
    if (s->ended[b] ||
        tb_bug_pool_count(&s->rec->cur[b ^ 1], 0) + tb_bug_pool_count(&s->rec->cur[b ^ 1], 1) !=
            other_pool)
        review(s, b ^ 1, now);
    return TB_OK;
}

static void step_flag(struct sim *s, int b, int64_t now)
{
    tb_bug_pos *pos = &s->rec->cur[b];
    int side = pos->chess.side;
    s->left[b][side] = 0;
    bool flag[2] = {side == TB_CHESS_WHITE, side == TB_CHESS_BLACK};
    struct tb_bug_other other = {&s->rec->cur[b ^ 1], s->ended[b ^ 1]};
    struct tb_bug_verdict v;
    tb_bug_judge_flags(pos, flag, &other, &v); /* 5.4 */
    finish(s, b, &v, now);
    review(s, b ^ 1, now);
}

int tb_bug_gen_game(const struct tb_bug_gen_config *cfg, tb_bug_record *rec)
{
    struct sim s;
    memset(&s, 0, sizeof s);
    s.cfg = *cfg;
    if (s.cfg.base_ms <= 0)
        s.cfg.base_ms = 7 * 60 * 1000; /* 6.3 */
    if (s.cfg.think_ms <= 0)
        s.cfg.think_ms = 3000;
    if (s.cfg.drop_percent <= 0)
        s.cfg.drop_percent = 35;
    if (s.cfg.min_think_ms < 50)
        s.cfg.min_think_ms = 50;
    s.rng = cfg->seed;
    s.rec = rec;
    tb_bug_record_init(rec);
    rec->base_ms = s.cfg.base_ms;
    rec->cur[0] = rec->start[0];
    rec->cur[1] = rec->start[1];
    for (int b = 0; b < 2; b++) {
        s.left[b][0] = s.left[b][1] = s.cfg.base_ms;
        s.due[b] = NEVER;
        review(&s, b, 0); /* 6.4: both clocks start together */
    }
    while (!s.ended[0] || !s.ended[1]) {
        int best = -1;
        bool flag = false;
        int64_t when = NEVER;
        for (int b = 0; b < 2; b++) {
            if (s.ended[b])
                continue;
            int side = rec->cur[b].chess.side;
            int64_t fall = s.turn_start[b] + s.left[b][side];
            if (s.due[b] < fall && s.due[b] < when)
                best = b, when = s.due[b], flag = false;
            else if (fall <= s.due[b] && fall < when)
                best = b, when = fall, flag = true;
        }
        if (flag) {
            step_flag(&s, best, when);
        } else {
            int rc = step_move(&s, best, when);
            if (rc)
                return rc;
        }
    }
    return rec->nplies;
}
