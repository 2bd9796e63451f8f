/* sensor.c - the recogniser's life cycle, its event queue (blip filter) and its clock. */
#include "sensor_internal.h"

#include <stdlib.h>
#include <string.h>

void tb_sensor_config_default(struct tb_sensor_config *cfg)
{
    cfg->blip_ms = 100;
    cfg->promo_wait_ms = 0;
    cfg->lifted_report_ms = 2000;
    cfg->wobble_ms = 100;
    cfg->promo_prompt_ms = 3000;
    cfg->settle_ms = 3000;
    cfg->piece_must_fit = false;
}

int tb_sensor_new(const struct tb_sensor_config *cfg, tb_sensor **out)
{
    struct tb_sensor_config def;
    tb_chess_pos start;

    if (!out)
        return TB_ERR_ARG;
    *out = NULL;
    if (!cfg) {
        tb_sensor_config_default(&def);
        cfg = &def;
    }
    if (cfg->blip_ms > 10000 || cfg->wobble_ms > 10000 || cfg->settle_ms > 10000 ||
        cfg->promo_wait_ms > 600000 || cfg->promo_prompt_ms > 600000)
        return TB_ERR_ARG;
    tb_sensor *s = calloc(1, sizeof *s);
    if (!s)
        return TB_ERR_MEM;
    s->cfg = *cfg;
    tb_chess_pos_startpos(&start);
    tb_sensor_reset(s, &start, 0);
    *out = s;
    return TB_OK;
}

void tb_sensor_free(tb_sensor *s)
{
    free(s);
}

void tb_sensor_reset(tb_sensor *s, const tb_chess_pos *pos, uint64_t now_ms)
{
    s->now = now_ms;
    s->qn = 0;
    s->ohead = s->on = 0;
    s->mode = TB_SENSOR_PLAYING;
    s->expected = 0;
    s->last_move = 0;
    memset(s->hand, 0, sizeof s->hand); /* a new game: nothing in hand */
    tb_sensor__load_position(s, pos);
    s->occ = s->base;
    s->stray = s->gone = 0;
    tb_sensor__clear_move(s);
}

void tb_sensor_set_position(tb_sensor *s, const tb_chess_pos *pos, uint64_t now_ms)
{
    tb_sensor_tick(s, now_ms);
    s->last_move = 0;
    tb_sensor__load_position(s, pos);
    tb_sensor__clear_move(s);
    s->stray = s->gone = 0; /* what is out of place is judged against the new position */
    if (s->occ != s->base)
        tb_sensor__evaluate(s, s->now, s->now);
}

void tb_sensor_set_occupancy(tb_sensor *s, uint64_t occupancy, uint64_t now_ms)
{
    tb_sensor_tick(s, now_ms);
    s->qn = 0;
    s->occ = occupancy;
    s->stray &= occupancy;
    s->gone &= ~occupancy;
    tb_sensor__evaluate(s, s->now, s->now);
}

int tb_sensor_set_mode(tb_sensor *s, enum tb_sensor_mode mode, tb_chess_move expected)
{
    if (mode == TB_SENSOR_PLAYING) {
        s->mode = mode;
        s->expected = 0;
        return TB_OK;
    }
    if (mode != TB_SENSOR_REPLICATING)
        return TB_ERR_ARG;
    int type, sq;
    if (!tb_chess_is_legal(&s->pos, expected) && !tb_sensor__expected_drop(s, expected, &type, &sq))
        return TB_ERR_ILLEGAL;
    s->mode = mode;
    s->expected = expected;
    tb_sensor__clear_move(s);
    return TB_OK;
}

/* The earliest time something is due without further events, and what it is. */
enum due { DUE_NONE, DUE_EVENT, DUE_PROMO_LIMIT, DUE_PROMPT, DUE_SETTLE, DUE_MISSING };

static uint64_t window(const tb_sensor *s, const struct tb_sensor_qev *ev)
{
    return ev->ms + (ev->place ? s->cfg.blip_ms : s->cfg.wobble_ms);
}

static void earlier(enum due *what, uint64_t *when, enum due cand, uint64_t at)
{
    if (at < *when) {
        *when = at;
        *what = cand;
    }
}

static enum due next_due(const tb_sensor *s, uint64_t *when)
{
    enum due what = DUE_NONE;
    *when = TB_SENSOR_NOTIME;
    if (s->qn > 0)
        earlier(&what, when, DUE_EVENT, window(s, &s->q[0]));
    if (s->promo_pending && s->cfg.promo_wait_ms > 0 && !s->choice_drop)
        earlier(&what, when, DUE_PROMO_LIMIT, s->promo_since + s->cfg.promo_wait_ms);
    if (s->promo_pending && !s->promo_prompted)
        earlier(&what, when, DUE_PROMPT, s->promo_since + s->cfg.promo_prompt_ms);
    if (s->settle_pending)
        earlier(&what, when, DUE_SETTLE, s->settle_since + s->cfg.settle_ms);
    if (s->missing_pending)
        earlier(&what, when, DUE_MISSING, s->missing_since + s->cfg.lifted_report_ms);
    return what;
}

uint64_t tb_sensor_deadline(const tb_sensor *s)
{
    uint64_t when;
    next_due(s, &when);
    return when;
}

static void pop_front(tb_sensor *s)
{
    memmove(&s->q[0], &s->q[1], (size_t)(s->qn - 1) * sizeof s->q[0]);
    s->qn--;
}

static void drop(tb_sensor *s, int i)
{
    memmove(&s->q[i], &s->q[i + 1], (size_t)(s->qn - i - 1) * sizeof s->q[0]);
    s->qn--;
}

/* Nothing else off its square: a lift put back at once is a wobble, not a touch. */
static bool alone_in_the_air(const tb_sensor *s)
{
    return !(s->base & ~tb_sensor__seen(s));
}

/* Applies queued events in order while they have outlasted their window (a place blip_ms, a
 * lift wobble_ms); each counts at the end of its window, or when an earlier one does. */
static void drain(tb_sensor *s, uint64_t t)
{
    uint64_t last = 0;
    while (s->qn > 0) {
        struct tb_sensor_qev ev = s->q[0];
        uint64_t due = window(s, &ev);
        if (due > t)
            break;
        pop_front(s);
        if (!ev.place && s->qn > 0 && s->q[0].place && s->q[0].square == ev.square &&
            s->q[0].ms - ev.ms < s->cfg.wobble_ms && alone_in_the_air(s) &&
            (!s->q[0].piece || s->q[0].piece == s->pos.board[ev.square])) {
            /* D.2.2 counts a piece taken out of its hole; one that wobbled in it and was down
             * again within wobble_ms, nothing else lifted meanwhile, never left. A board that
             * names its pieces shows whether it is the same piece: another one (a capture whose
             * square never read empty) is no wobble. */
            pop_front(s);
            continue;
        }
        last = due > last ? due : last;
        tb_sensor__apply(s, &ev, last);
    }
}

void tb_sensor_tick(tb_sensor *s, uint64_t now_ms)
{
    uint64_t when;
    enum due what;

    if (now_ms < s->now)
        return;
    while ((what = next_due(s, &when)) != DUE_NONE && when <= now_ms) {
        s->now = when;
        if (what == DUE_EVENT)
            drain(s, when);
        else if (what == DUE_PROMO_LIMIT || what == DUE_PROMPT)
            tb_sensor__promo_timeout(s, what == DUE_PROMO_LIMIT);
        else if (what == DUE_SETTLE)
            tb_sensor__settle_timeout(s, when, s->settle_event_ms);
        else
            tb_sensor__missing_timeout(s);
    }
    s->now = now_ms;
}

void tb_sensor_flush(tb_sensor *s)
{
    uint64_t when = s->now;
    /* the last events count, then the end of the events ends the move */
    for (int i = 0; i < s->qn; i++)
        when = window(s, &s->q[i]) > when ? window(s, &s->q[i]) : when;
    tb_sensor_tick(s, when);
    tb_sensor__promo_end(s, s->now, s->now);
    while ((when = tb_sensor_deadline(s)) != TB_SENSOR_NOTIME)
        tb_sensor_tick(s, when);
}

int tb_sensor_end_move(tb_sensor *s, uint64_t now_ms)
{
    if (now_ms < s->now)
        return TB_ERR_STATE;
    tb_sensor_tick(s, now_ms);
    if (s->settle_pending) {
        /* 6.2.1: the clock pressed, the move is complete as the board shows it */
        unsigned long n = s->moves;
        tb_sensor__settle_timeout(s, now_ms, now_ms);
        if (s->moves != n)
            return 1;
    }
    return tb_sensor__promo_end(s, now_ms, now_ms) ? 1 : 0;
}

static int enqueue(tb_sensor *s, bool place, int square, int piece, uint64_t ms)
{
    if (square < 0 || square > 63)
        return TB_ERR_ARG;
    if (ms < s->now)
        return TB_ERR_STATE;
    tb_sensor_tick(s, ms);
    if (!place) {
        /* 'a place that is lifted again within the blip window is not a placement' */
        for (int i = s->qn - 1; i >= 0; i--) {
            if (s->q[i].place && s->q[i].square == square) {
                drop(s, i);
                drain(s, ms);
                return TB_OK;
            }
        }
    }
    if (s->qn == TB_SENSOR_QUEUE_CAP) { /* cannot happen at human speed: confirm the oldest */
        struct tb_sensor_qev ev = s->q[0];
        pop_front(s);
        tb_sensor__apply(s, &ev, ms);
    }
    int at = s->qn;
    while (!place && at > 0 && s->q[at - 1].place && s->q[at - 1].square != square &&
           ms - s->q[at - 1].ms <= TB_SENSOR_SCAN_SLACK_MS)
        at--;
    memmove(&s->q[at + 1], &s->q[at], (size_t)(s->qn - at) * sizeof s->q[0]);
    s->q[at] = (struct tb_sensor_qev){place, (uint8_t)square, (uint8_t)piece, ms};
    s->qn++;
    drain(s, ms);
    return TB_OK;
}

int tb_sensor_lift(tb_sensor *s, int square, uint64_t ms)
{
    return enqueue(s, false, square, 0, ms);
}

int tb_sensor_place(tb_sensor *s, int square, int piece, uint64_t ms)
{
    int t = TB_CHESS_PIECE_TYPE(piece);
    if (piece && (piece > 14 || t == 0 || t == 7))
        return TB_ERR_ARG;
    return enqueue(s, true, square, piece, ms);
}

int tb_sensor_choose(tb_sensor *s, int ptype, uint64_t ms)
{
    if (ptype < TB_CHESS_PAWN || ptype > TB_CHESS_QUEEN)
        return TB_ERR_ARG;
    if (ms < s->now)
        return TB_ERR_STATE;
    tb_sensor_tick(s, ms);
    if (s->promo_pending && s->choice_drop)
        return tb_sensor__drop_choice(s, ptype, ms);
    if (ptype == TB_CHESS_PAWN || !tb_sensor__can_promote(s)) {
        /* a drop's kind said before the piece is put down is kept for it */
        if (tb_sensor__can_drop(s, ptype)) {
            s->choice = ptype;
            return TB_OK;
        }
        /* the piece of the drop just decided named again (the copier naming it, or a player
         * naming the only kind there was): nothing to change */
        if (s->just_dropped == ptype)
            return TB_OK;
        if (ptype == TB_CHESS_PAWN)
            return TB_ERR_STATE; /* no pawn is ever a promotion's piece (3.7.5) */
    }
    /* too late (the promotion was decided: the opponent is to move and has none) or for
     * nothing: refused, so a late choice never passes for a used one. A choice kept lasts
     * until the move it was made for is decided. */
    if (!tb_sensor__can_promote(s)) {
        /* the piece just put down named again (a copier pressing the choice after placing the
         * new piece): it agrees with the move taken, nothing to change */
        if (s->last_move && tb_chess_move_promo(s->last_move) == ptype &&
            s->exempt_sq == tb_chess_move_to(s->last_move))
            return TB_OK;
        return TB_ERR_STATE;
    }
    /* A choice is no board contact: it needs no window and is not queued. */
    s->choice = ptype;
    if (s->promo_pending)
        tb_sensor__evaluate(s, ms, ms);
    return TB_OK;
}

int tb_sensor_poll(tb_sensor *s, struct tb_sensor_out *out)
{
    if (s->on == 0)
        return 0;
    *out = s->out[s->ohead];
    s->ohead = (s->ohead + 1) % TB_SENSOR_OUT_CAP;
    s->on--;
    return 1;
}

unsigned long tb_sensor_dropped(const tb_sensor *s)
{
    return s->dropped;
}

const tb_chess_pos *tb_sensor_position(const tb_sensor *s)
{
    return &s->pos;
}

uint64_t tb_sensor_occupancy(const tb_sensor *s)
{
    return s->occ;
}

uint64_t tb_sensor_strays(const tb_sensor *s)
{
    return s->stray;
}

struct tb_sensor_out *tb_sensor__emit(tb_sensor *s, enum tb_sensor_out_kind kind, uint64_t t,
                                      uint64_t event_ms)
{
    if (s->on == TB_SENSOR_OUT_CAP) {
        s->ohead = (s->ohead + 1) % TB_SENSOR_OUT_CAP;
        s->on--;
        s->dropped++;
    }
    struct tb_sensor_out *o = &s->out[(s->ohead + s->on++) % TB_SENSOR_OUT_CAP];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->ms = t;
    o->event_ms = event_ms;
    o->square = o->square2 = TB_CHESS_NOSQ;
    return o;
}
