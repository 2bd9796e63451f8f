/* clock.c - the two clocks of Article 6: one runs at a time, a press completes a move (6.2.1)
 * and starts the opponent's clock (D.2.4), bonuses and periods (6.3), flag fall (6.1, 6.8)
 * detected at its exact time, pauses while play is stopped (D.2.9, 6.11) and the arbiter's
 * adjustments (6.10.2).
 *
 * The running side's clock is kept as its time when its move's timing began (remaining_ms)
 * plus how long the move has taken: move_used_ms before the current run, and now - run_ms
 * during it. Everything else follows from those by arithmetic, so a deadline is exact. */
#include "tb_clock.h"

static bool side_ok(int side)
{
    return side == TB_CHESS_WHITE || side == TB_CHESS_BLACK;
}

static const struct tb_clock_period *period_of(const tb_clock *c, int side)
{
    return &c->control.periods[c->side[side].period];
}

/* How long the turn side's current move has taken by t. */
static uint64_t move_elapsed(const tb_clock *c, uint64_t t)
{
    uint64_t e = c->move_used_ms;
    if (c->state == TB_CLOCK_RUNNING && t > c->run_ms)
        e += t - c->run_ms;
    return e;
}

/* The part of a move's time taken from the clock: all of it, except under a delay (6.3.2),
 * where the base time runs only once the delay has passed. */
static uint64_t charged(const struct tb_clock_period *p, uint64_t elapsed)
{
    if (p->bonus == TB_CLOCK_DELAY)
        return elapsed > p->bonus_ms ? elapsed - p->bonus_ms : 0;
    return elapsed;
}

/* The move time after which the turn side's clock shows `left` (left < remaining_ms). */
static uint64_t elapsed_when_left(const tb_clock *c, uint64_t left)
{
    const struct tb_clock_period *p = period_of(c, c->turn);
    uint64_t e = c->side[c->turn].remaining_ms - left;
    return p->bonus == TB_CLOCK_DELAY ? e + p->bonus_ms : e;
}

/* The time at which the turn side's move will have taken `elapsed`. */
static uint64_t time_at_elapsed(const tb_clock *c, uint64_t elapsed)
{
    return elapsed > c->move_used_ms ? c->run_ms + (elapsed - c->move_used_ms) : c->run_ms;
}

static bool ticking(const tb_clock *c)
{
    return c->state == TB_CLOCK_RUNNING && !c->side[c->turn].flagged;
}

static void push(tb_clock *c, const struct tb_clock_event *ev)
{
    if (c->ev_count == TB_CLOCK_EVENT_QUEUE) {
        c->ev_head = (c->ev_head + 1) % TB_CLOCK_EVENT_QUEUE;
        c->ev_count--;
        c->ev_lost++;
    }
    c->events[(c->ev_head + c->ev_count) % TB_CLOCK_EVENT_QUEUE] = *ev;
    c->ev_count++;
}

static void arm_warnings(struct tb_clock_side *s, uint64_t left)
{
    for (int i = 0; i < s->nwarn; i++)
        s->warn_armed[i] = s->warn_ms[i] < left;
}

/* Brings the clock to t (t >= now_ms): warnings, then the flag, each at its own time. */
static void advance(tb_clock *c, uint64_t t)
{
    if (ticking(c)) {
        struct tb_clock_side *s = &c->side[c->turn];
        /* Thresholds are descending, so they are reached in this order, all before the flag. */
        for (int i = 0; i < s->nwarn; i++) {
            if (!s->warn_armed[i])
                continue;
            uint64_t at = time_at_elapsed(c, elapsed_when_left(c, s->warn_ms[i]));
            if (at > t)
                break;
            s->warn_armed[i] = false;
            push(c, &(struct tb_clock_event){.kind = TB_CLOCK_EV_WARN,
                                             .side = c->turn,
                                             .period = s->period,
                                             .moves = s->moves,
                                             .at_ms = at,
                                             .threshold = s->warn_ms[i]});
        }
        uint64_t flag = tb_clock_flag_deadline(c);
        if (flag <= t) {
            /* 6.1: the flag falls when the allotted time has expired. */
            s->flagged = true;
            s->flag_ms = flag;
            for (int i = 0; i < s->nwarn; i++)
                s->warn_armed[i] = false;
            push(c, &(struct tb_clock_event){.kind = TB_CLOCK_EV_FLAG,
                                             .side = c->turn,
                                             .first = !c->any_flag,
                                             .period = s->period,
                                             .moves = s->moves,
                                             .at_ms = flag});
            c->any_flag = true;
        }
    }
    c->now_ms = t;
}

int tb_clock_init(tb_clock *c, const struct tb_clock_control *control, struct tb_error *err)
{
    if (!c)
        return tb_error_set(err, TB_ERR_ARG, "clock: none given");
    int rc = tb_clock_control_check(control, err);
    if (rc < 0)
        return rc;
    *c = (tb_clock){.control = *control, .state = TB_CLOCK_READY, .turn = TB_CHESS_WHITE};
    for (int i = 0; i < 2; i++)
        c->side[i].remaining_ms = control->periods[0].time_ms;
    return TB_OK;
}

/* Common checks of a call at time t. */
static int at_time(const tb_clock *c, uint64_t t)
{
    if (!c)
        return TB_ERR_ARG;
    return t < c->now_ms || t >= TB_CLOCK_MAX_TIME_MS ? TB_ERR_ARG : TB_OK;
}

int tb_clock_update(tb_clock *c, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0)
        return rc;
    advance(c, t);
    return c->ev_count;
}

int tb_clock_start(tb_clock *c, int side, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0 || !side_ok(side))
        return TB_ERR_ARG;
    if (c->state != TB_CLOCK_READY)
        return TB_ERR_STATE;
    advance(c, t);
    c->turn = (uint8_t)side;
    c->run_ms = t;
    c->move_used_ms = 0;
    c->state = TB_CLOCK_RUNNING;
    return TB_OK;
}

/* The move is complete: the next period's time when its moves are done (6.3.1). */
static void count_move(tb_clock *c, struct tb_clock_side *s, uint64_t t, uint64_t *left)
{
    const struct tb_clock_control *ctl = &c->control;
    const struct tb_clock_period *p = &ctl->periods[s->period];
    s->moves++;
    s->period_moves++;
    if (p->moves == 0 || s->period_moves < p->moves)
        return;
    s->period_moves = 0;
    if (s->period + 1 < ctl->nperiods)
        s->period++; /* else the last period repeats */
    if (s->flagged)
        return;
    *left += ctl->periods[s->period].time_ms;
    arm_warnings(s, *left);
    push(c, &(struct tb_clock_event){.kind = TB_CLOCK_EV_PERIOD,
                                     .side = (uint8_t)(s - c->side),
                                     .period = s->period,
                                     .moves = s->moves,
                                     .at_ms = t});
}

int tb_clock_press(tb_clock *c, int side, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0 || !side_ok(side))
        return TB_ERR_ARG;
    if (c->state != TB_CLOCK_RUNNING || side != c->turn)
        return TB_ERR_STATE;
    advance(c, t);
    struct tb_clock_side *s = &c->side[side];
    const struct tb_clock_period *p = period_of(c, side);
    uint64_t elapsed = move_elapsed(c, t);
    uint64_t left = 0;
    s->used_ms += elapsed;
    if (!s->flagged) {
        left = s->remaining_ms - charged(p, elapsed); /* > 0: the flag has not fallen */
        if (p->bonus == TB_CLOCK_FISCHER)
            left += p->bonus_ms; /* 6.3: added after the move */
        else if (p->bonus == TB_CLOCK_BRONSTEIN)
            left += elapsed < p->bonus_ms ? elapsed : p->bonus_ms;
    }
    count_move(c, s, t, &left);
    s->remaining_ms = left;
    /* D.2.4: the opponent's clock starts now. */
    c->turn = (uint8_t)(side ^ 1);
    c->run_ms = t;
    c->move_used_ms = 0;
    return TB_OK;
}

int tb_clock_pause(tb_clock *c, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0)
        return rc;
    if (c->state != TB_CLOCK_RUNNING)
        return TB_ERR_STATE;
    advance(c, t);
    c->move_used_ms = move_elapsed(c, t);
    c->state = TB_CLOCK_PAUSED;
    return TB_OK;
}

int tb_clock_resume(tb_clock *c, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0)
        return rc;
    if (c->state != TB_CLOCK_PAUSED)
        return TB_ERR_STATE;
    advance(c, t);
    c->run_ms = t;
    c->state = TB_CLOCK_RUNNING;
    return TB_OK;
}

int tb_clock_stop(tb_clock *c, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0)
        return rc;
    if (c->state == TB_CLOCK_STOPPED)
        return TB_ERR_STATE;
    advance(c, t);
    c->move_used_ms = move_elapsed(c, t);
    c->state = TB_CLOCK_STOPPED;
    return TB_OK;
}

int tb_clock_set(tb_clock *c, int side, uint64_t remaining_ms, uint32_t moves, uint64_t t)
{
    int rc = at_time(c, t);
    if (rc < 0 || !side_ok(side) || remaining_ms == 0 ||
        remaining_ms > TB_CLOCK_MAX_PERIODS * TB_CLOCK_MAX_PERIOD_MS ||
        moves > TB_CHESS_GAME_MAX_PLIES)
        return TB_ERR_ARG;
    if (c->state != TB_CLOCK_READY && c->state != TB_CLOCK_PAUSED)
        return TB_ERR_STATE; /* 6.10.2: the clock is stopped first */
    advance(c, t);
    const struct tb_clock_control *ctl = &c->control;
    struct tb_clock_side *s = &c->side[side];
    /* The period follows from the moves completed: 40/120m, 30m after 41 moves is period 2. */
    uint32_t m = moves;
    int per = 0;
    while (ctl->periods[per].moves && m >= ctl->periods[per].moves) {
        if (per + 1 == ctl->nperiods) {
            m %= ctl->periods[per].moves;
            break;
        }
        m -= ctl->periods[per].moves;
        per++;
    }
    s->period = (uint8_t)per;
    s->period_moves = m;
    s->moves = moves;
    s->remaining_ms = remaining_ms;
    s->flagged = false;
    s->flag_ms = 0;
    c->any_flag = c->side[side ^ 1].flagged;
    arm_warnings(s, remaining_ms);
    if (side == c->turn)
        c->move_used_ms = 0;
    return TB_OK;
}

int tb_clock_set_turn(tb_clock *c, int side)
{
    if (!c || !side_ok(side))
        return TB_ERR_ARG;
    if (c->state != TB_CLOCK_READY && c->state != TB_CLOCK_PAUSED)
        return TB_ERR_STATE;
    if (side != c->turn) {
        c->turn = (uint8_t)side;
        c->move_used_ms = 0;
    }
    return TB_OK;
}

int tb_clock_set_warnings(tb_clock *c, int side, const uint64_t *thresholds_ms, int n)
{
    if (!c || !side_ok(side) || n < 0 || n > TB_CLOCK_MAX_WARN || (n && !thresholds_ms))
        return TB_ERR_ARG;
    uint64_t sorted[TB_CLOCK_MAX_WARN];
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t w = thresholds_ms[i];
        if (w == 0)
            return TB_ERR_ARG;
        /* insertion into descending order, duplicates once */
        int j = 0;
        while (j < k && sorted[j] > w)
            j++;
        if (j < k && sorted[j] == w)
            continue;
        for (int m = k; m > j; m--)
            sorted[m] = sorted[m - 1];
        sorted[j] = w;
        k++;
    }
    struct tb_clock_side *s = &c->side[side];
    s->nwarn = k;
    for (int i = 0; i < k; i++)
        s->warn_ms[i] = sorted[i];
    arm_warnings(s, tb_clock_remaining(c, side, c->now_ms));
    return TB_OK;
}

bool tb_clock_event_pop(tb_clock *c, struct tb_clock_event *ev)
{
    if (!c || !ev || c->ev_count == 0)
        return false;
    *ev = c->events[c->ev_head];
    c->ev_head = (c->ev_head + 1) % TB_CLOCK_EVENT_QUEUE;
    c->ev_count--;
    return true;
}

uint64_t tb_clock_flag_deadline(const tb_clock *c)
{
    if (!c || !ticking(c))
        return TB_CLOCK_NEVER;
    return time_at_elapsed(c, elapsed_when_left(c, 0));
}

uint64_t tb_clock_next_deadline(const tb_clock *c)
{
    if (!c || !ticking(c))
        return TB_CLOCK_NEVER;
    const struct tb_clock_side *s = &c->side[c->turn];
    for (int i = 0; i < s->nwarn; i++)
        if (s->warn_armed[i])
            return time_at_elapsed(c, elapsed_when_left(c, s->warn_ms[i]));
    return tb_clock_flag_deadline(c);
}

uint64_t tb_clock_remaining(const tb_clock *c, int side, uint64_t t)
{
    if (!c || !side_ok(side))
        return 0;
    const struct tb_clock_side *s = &c->side[side];
    if (s->flagged)
        return 0;
    if (side != c->turn)
        return s->remaining_ms;
    uint64_t spent = charged(period_of(c, side), move_elapsed(c, t > c->now_ms ? t : c->now_ms));
    return spent >= s->remaining_ms ? 0 : s->remaining_ms - spent;
}

uint64_t tb_clock_used(const tb_clock *c, int side, uint64_t t)
{
    if (!c || !side_ok(side))
        return 0;
    uint64_t used = c->side[side].used_ms;
    if (side == c->turn)
        used += move_elapsed(c, t > c->now_ms ? t : c->now_ms);
    return used;
}
