/* daemon_clock.c - the game's chess clock (Article 6) in the daemon: the [clock] configuration;
 * the built-in clock (tb_clock) pressed by the moves made on the boards, stopped while play is
 * stopped, its flag fall judged by 6.9; or the readings of a clock a board reports (a DGT
 * clock); the CLOCK button's words (D.2.6, D.2.10.4), the status line, and the PGN's
 * TimeControl tag and [%clk] comments.
 *
 * Everything here follows from the match's outputs and the board inputs, each at its own time,
 * in the order the journal holds them, so a replayed journal gives the same clock. Only the
 * journal's own stops, which nothing else records, have a record of their own: the time the
 * clocks ran while play stood, given back when it goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_clock.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_session.h"
#include "daemon_voice.h"
#include "tb_clock.h"

#define PAUSE_PLAY   1u /* a mismatch or the arbiter's restoration stops play (D.2.9, 6.11.1) */
#define DEFERRED_MAX 8

struct deferred {
    int side, ply;
};

struct tb_daemon__clk {
    enum tb_config_clock_source source;
    bool has_control;
    struct tb_clock_control control;
    tb_clock clock; /* TB_CONFIG_CLOCK_BUILTIN */
    bool started;   /* the game's clock was started (6.6) */
    bool over;      /* the game has ended: the clock is stopped */
    bool stop_due;  /* the game ended by a move made while the clock stood */
    unsigned paused;
    struct deferred deferred[DEFERRED_MAX]; /* moves made while the clock stood */
    int ndeferred;
    int made;     /* plies made on the boards (each announced, D.2.3) */
    int told_ply; /* the last move announced: its ply and move */
    tb_chess_move told_move;
    tb_chess_pos pos; /* the position after them: the one a flag fall is judged in */
    int32_t clk[TB_CHESS_GAME_MAX_PLIES + 1]; /* [%clk] of each ply in ms, -1 none */
    int32_t reading[2]; /* a board clock's latest reading of White, Black; -1 unknown */
    uint8_t run;        /* which clock runs in it: 0 none, 1 White, 2 Black */
    bool have_reading;
    bool shown[2];  /* the board's clock has shown this side some time left: a 0 after it is a
                       flag, not a clock not yet set */
    char result[8]; /* the flag's result (6.9), "" while none fell */
    /* The journal stood from jstop_from (to jstop_to): what each clock ran meanwhile. The held
     * inputs and output are taken at their own times once it can be written again, as a replay
     * takes them, so the clocks run through the stop and the time is given back at its end. */
    bool jstop;
    uint64_t jstop_from, jstop_to, counted_to;
    uint64_t ran[2];
};

/* The running clock's time up to t inside the journal's stop, counted once. Called before
 * every call that stops or switches the running clock. */
static void count_stop(struct tb_daemon__clk *k, uint64_t t)
{
    if (!k->jstop)
        return;
    if (k->clock.state == TB_CLOCK_RUNNING) {
        uint64_t lo = k->clock.run_ms > k->counted_to ? k->clock.run_ms : k->counted_to;
        uint64_t hi = t < k->jstop_to ? t : k->jstop_to;
        if (lo < k->jstop_from)
            lo = k->jstop_from;
        if (hi > lo)
            k->ran[k->clock.turn] += hi - lo;
    }
    if (t > k->counted_to)
        k->counted_to = t;
}

static bool builtin(const struct tb_daemon__clk *k)
{
    return k && k->source == TB_CONFIG_CLOCK_BUILTIN;
}

/* Times given to the built-in clock never go back (inputs held while the journal could not be
 * written come at their own, earlier times). */
static uint64_t at(const struct tb_daemon__clk *k, uint64_t t)
{
    return t > k->clock.now_ms ? t : k->clock.now_ms;
}

static void hms(uint64_t ms, char *buf, size_t len)
{
    struct tb_clock_hms h = tb_clock_hms(ms);
    snprintf(buf, len, "%u:%02u:%02u", h.hours, h.minutes, h.seconds);
}

/* The moves `colour` made among the first `plies` of a game starting with side s0 to move. */
static int moves_of(int plies, int s0, int colour)
{
    return (plies + (colour == s0 ? 1 : 0)) / 2;
}

static int start_side(const struct tb_daemon *d)
{
    return tb_match_game(tb_daemon__match(d))->start.side;
}

/* A new clock for the control: both sides get its first period, warnings armed. */
static int setup(struct tb_daemon *d, struct tb_daemon__clk *k, struct tb_error *err)
{
    for (int i = 0; i <= TB_CHESS_GAME_MAX_PLIES; i++)
        k->clk[i] = -1;
    k->started = k->over = k->stop_due = false;
    k->ndeferred = 0;
    k->made = k->told_ply = 0;
    k->shown[0] = k->shown[1] = false;
    k->result[0] = '\0';
    if (!builtin(k))
        return TB_OK;
    int rc = tb_clock_init(&k->clock, &k->control, err);
    for (int r = 0; rc == TB_OK && r < TBD_BOARDS; r++)
        rc = tb_clock_set_warnings(&k->clock, tb_daemon__match_config(d)->board[r].color,
                                   d->cfg->clock.warn_ms[r], d->cfg->clock.nwarn[r]);
    return rc;
}

static int clock_open(struct tb_daemon *d, struct tb_error *err)
{
    const struct tb_config_clock *cc = &d->cfg->clock;
    struct tb_daemon__clk *k = calloc(1, sizeof *k);
    if (!k)
        return tb_error_set(err, TB_ERR_MEM, "clock: out of memory");
    d->clk = k;
    k->source = cc->source;
    k->reading[0] = k->reading[1] = -1;
    if (cc->control[0]) {
        int rc = tb_clock_control_parse(&k->control, cc->control, err); /* checked by config */
        if (rc != TB_OK)
            return rc;
        k->has_control = true;
    }
    if (k->source == TB_CONFIG_CLOCK_BUILTIN && !k->has_control)
        return tb_error_set(err, TB_ERR_ARG, "clock: source builtin needs a time control");
    int rc = setup(d, k, err);
    if (rc != TB_OK)
        return rc;
    char text[64] = "no control";
    if (k->has_control)
        tb_clock_control_format(&k->control, text, sizeof text);
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "clock: %s, %s", tb_config_clock_source_name(k->source),
                   text);
    return TB_OK;
}

static void clock_close(struct tb_daemon *d)
{
    free(d->clk);
    d->clk = NULL;
}

/* 6.6: White's clock (the side to move of a game from a position) starts when the game does:
 * the journal's game at its time 0 (the clock's own start), a new game when the arbiter sets
 * it up (new_game). */
static void ensure_started(struct tb_daemon *d)
{
    struct tb_daemon__clk *k = d->clk;
    if (k->started || !tb_daemon__match(d))
        return;
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    k->started = true;
    k->pos = g->pos;
    k->made = g->plies;
    if (builtin(k))
        tb_clock_start(&k->clock, g->pos.side, k->clock.now_ms);
}

/* ---- what the clock decides -------------------------------------------------------------- */

/* The words of the clock for the player at board b (D.2.6.1: the time and the number of
 * moves): both times left, in the pack's message; moves: those the player has completed. */
static void say_clock(struct tb_daemon *d, int b, uint64_t white_ms, uint64_t black_ms)
{
    int colour = tb_daemon__match_config(d)->board[b].color;
    struct tb_voice_msg_args a = {
        .board = colour, .white_ms = (long)white_ms, .black_ms = (long)black_ms};
    a.n = builtin(d->clk) ? (int)d->clk->clock.side[colour].moves
                          : moves_of(d->clk->made, start_side(d), colour);
    tb_daemon__say_msg(d, b, TB_VOICE_MSG_CLOCK, &a, 0);
}

/* 6.9: the flag of `side` fell at flag_ms (noticed at t): a loss, or a draw when the opponent
 * cannot mate by any series of legal moves; judged in the position on the boards (the moves
 * made). Said to both players, logged, journaled, noted in the PGN; the result is set. */
static void flag(struct tb_daemon *d, int side, uint64_t flag_ms, uint64_t t, bool first)
{
    struct tb_daemon__clk *k = d->clk;
    char when[16];
    hms(flag_ms, when, sizeof when);
    if (!first || k->over) {
        tb_daemon__log(d, tb_daemon__fx(d)->info,
                       "clock: %s's flag fell too (at %s), after the game ended",
                       tb_daemon__color_name(side), when);
        return;
    }
    struct tb_clock_judgement j;
    if (tb_clock_judge_flag(&k->pos, side, &j) != TB_OK || j.verdict == TB_CLOCK_ENDED)
        return; /* mate or stalemate had ended the game: the clock was stopped then */
    k->over = true;
    snprintf(k->result, sizeof k->result, "%s", j.result);
    tb_daemon__set_result(d, j.result);
    tb_daemon__log(d, tb_daemon__fx(d)->warn,
                   "FLAG: %s's time has run out (%s into the game, ply %d): %s, %s",
                   tb_daemon__color_name(side), when, k->made, j.result, j.why);
    tb_daemon__note(d, k->made, "%s's flag fell: %s (%s)", tb_daemon__color_name(side), j.result,
                    j.why);
    struct tb_journal_decision dec = {.board = (uint8_t)tb_daemon__board_of_color(d, side)};
    snprintf(dec.who, sizeof dec.who, "daemon");
    snprintf(dec.text, sizeof dec.text, "flag %s %s: %s", side ? "black" : "white", j.result,
             j.why);
    tb_daemon__fx(d)->store->append_decision(d, TB_JOURNAL_CLOCK, t, &dec, true);
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_msg_args a = {.board = side,
                                      .n = j.verdict == TB_CLOCK_DRAW ? 0 : 2 - side};
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_FLAG, &a, TB_VOICE_URGENT);
    }
    if (builtin(k)) {
        count_stop(k, k->clock.now_ms);
        tb_clock_stop(&k->clock, k->clock.now_ms);
    }
}

/* The built-in clock's events: flag falls (6.8: seen at once, stamped exactly), warnings, new
 * periods. */
static void drain(struct tb_daemon *d)
{
    struct tb_daemon__clk *k = d->clk;
    struct tb_clock_event ev;
    char left[16];
    while (tb_clock_event_pop(&k->clock, &ev)) {
        switch (ev.kind) {
        case TB_CLOCK_EV_FLAG:
            flag(d, ev.side, ev.at_ms, k->clock.now_ms, ev.first);
            break;
        case TB_CLOCK_EV_WARN: {
            int b = tb_daemon__board_of_color(d, ev.side);
            hms(ev.threshold, left, sizeof left);
            tb_daemon__log(d, tb_daemon__fx(d)->info, "clock: %s has %s left (warning)",
                           tb_daemon__color_name(ev.side), left);
            /* the words as they stood then: the threshold reached, the other clock standing */
            uint64_t t[2];
            t[ev.side] = ev.threshold;
            t[1 - ev.side] = tb_clock_remaining(&k->clock, 1 - ev.side, k->clock.now_ms);
            say_clock(d, b, t[TB_CHESS_WHITE], t[TB_CHESS_BLACK]);
            break;
        }
        case TB_CLOCK_EV_PERIOD:
            tb_daemon__log(d, tb_daemon__fx(d)->info,
                           "clock: %s completed the moves of a period: the next period's time "
                           "is added (6.3.2)",
                           tb_daemon__color_name(ev.side));
            break;
        default:
            break;
        }
    }
}

void tb_daemon__clock_tick(struct tb_daemon *d, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d))
        return;
    ensure_started(d);
    if (!builtin(k) || k->over)
        return;
    tb_clock_update(&k->clock, at(k, t));
    drain(d);
}

static uint64_t clock_deadline(struct tb_daemon *d)
{
    const struct tb_daemon__clk *k = d->clk;
    if (!builtin(k) || k->over || tb_daemon__jstopped(d) || !tb_daemon__match(d))
        return UINT64_MAX;
    if (!k->started)
        return 0; /* the game's clock starts at the loop's first turn */
    return tb_clock_next_deadline(&k->clock);
}

/* The game ended with a move (6.2.1: that move is completed without a press): frozen. */
static void end_game(struct tb_daemon *d, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    k->over = true;
    if (builtin(k) && k->clock.state != TB_CLOCK_STOPPED) {
        count_stop(k, at(k, t));
        tb_clock_stop(&k->clock, at(k, t));
    }
}

/* D.2.4: the move is made (D.2.3: placed, captured piece removed, announced) and only now the
 * opponent's clock starts; 6.2.1: pressing completes the move. The daemon announces a move once
 * its placement has stood the blip window: until then the time is the mover's, as the time
 * between making a move and pressing the clock is (6.2.2). */
static void press(struct tb_daemon *d, int side, int ply, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    uint64_t ct = at(k, t);
    tb_clock_update(&k->clock, ct);
    drain(d); /* a flag that fell before the move came first */
    if (k->over)
        return;
    count_stop(k, ct);
    if (k->clock.turn != side) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "clock: %s made ply %d while %s's clock ran; the clock follows the move",
                       tb_daemon__color_name(side), ply, tb_daemon__color_name(k->clock.turn));
        tb_clock_pause(&k->clock, ct);
        tb_clock_set_turn(&k->clock, side);
        tb_clock_resume(&k->clock, ct);
    }
    if (tb_clock_press(&k->clock, side, ct) != TB_OK)
        return;
    if (ply > 0 && ply <= TB_CHESS_GAME_MAX_PLIES)
        k->clk[ply] = (int32_t)tb_clock_remaining(&k->clock, side, ct);
    drain(d);
}

static void clk_pause(struct tb_daemon *d, unsigned why, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    ensure_started(d);
    bool was = k->paused != 0;
    k->paused |= why;
    if (was || !builtin(k) || k->clock.state != TB_CLOCK_RUNNING)
        return;
    tb_clock_update(&k->clock, at(k, t));
    drain(d);
    count_stop(k, at(k, t));
    if (k->clock.state == TB_CLOCK_RUNNING)
        tb_clock_pause(&k->clock, at(k, t));
}

static void clk_resume(struct tb_daemon *d, unsigned why, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (!(k->paused & why))
        return;
    k->paused &= ~why;
    if (k->paused || !builtin(k))
        return;
    count_stop(k, at(k, t));
    if (k->clock.state == TB_CLOCK_PAUSED)
        tb_clock_resume(&k->clock, at(k, t));
    for (int i = 0; i < k->ndeferred; i++)
        press(d, k->deferred[i].side, k->deferred[i].ply, t);
    k->ndeferred = 0;
    if (k->stop_due)
        end_game(d, t);
}

/* ---- the match's outputs ---------------------------------------------------------------- */

/* D.2.9: the moves are taken back to where the scoresheets agree (plies made, pos after them);
 * "the arbiter adjusts the clock accordingly": the move counters follow the game, the side to
 * move's clock runs next, the times stand until the arbiter sets them. */
static void taken_back(struct tb_daemon *d, int plies, const tb_chess_pos *pos, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    k->made = plies;
    k->pos = *pos;
    k->ndeferred = 0;
    k->stop_due = false;
    for (int i = plies + 1; i <= TB_CHESS_GAME_MAX_PLIES; i++)
        k->clk[i] = -1;
    if (!builtin(k) || k->over)
        return;
    uint64_t ct = at(k, t);
    bool running = k->clock.state == TB_CLOCK_RUNNING;
    count_stop(k, ct);
    if (running)
        tb_clock_pause(&k->clock, ct);
    for (int s = 0; s < 2; s++)
        tb_clock_set(&k->clock, s, tb_clock_remaining(&k->clock, s, ct),
                     (uint32_t)moves_of(plies, start_side(d), s), ct);
    tb_clock_set_turn(&k->clock, pos->side);
    if (running)
        tb_clock_resume(&k->clock, ct);
}

static void move_made(struct tb_daemon *d, const struct tb_match_announce *a, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (a->ply == k->told_ply && a->move == k->told_move)
        return;            /* the same move told again (a reminder): made once */
    if (a->ply <= k->made) /* a resolution took moves back (D.2.9) */
        taken_back(d, a->ply - 1, &a->pos, t);
    k->told_ply = a->ply;
    k->told_move = a->move;
    int side = a->pos.side;
    tb_chess_pos after = a->pos;
    tb_chess_undo u;
    if (!tb_chess_is_legal(&after, a->move))
        return;
    tb_chess_make(&after, a->move, &u);
    k->made = a->ply;
    /* a board's clock: the mover's time as last read (its press may come before the move is
     * announced), replaced by the readings that follow until the next move */
    if (a->ply <= TB_CHESS_GAME_MAX_PLIES)
        k->clk[a->ply] =
            k->source == TB_CONFIG_CLOCK_BOARD && k->have_reading ? k->reading[side] : -1;
    bool ends = tb_chess_pos_state(&after) != TB_CHESS_PLAYING; /* 5.1.1, 5.2.1, 5.2.2 */
    if (!builtin(k) || k->over) {
        k->pos = after;
        if (ends)
            k->over = true;
        return;
    }
    if (k->paused) { /* made while play stood: completed when play goes on */
        if (k->ndeferred < DEFERRED_MAX)
            k->deferred[k->ndeferred++] = (struct deferred){side, a->ply};
        k->pos = after;
        k->stop_due = ends;
        return;
    }
    press(d, side, a->ply, t);
    k->pos = after;
    if (ends)
        end_game(d, t);
}

/* A new game (new-game, set-position): a new clock, started for the side to move (6.6) and
 * standing until both boards show the position. */
static void new_game(struct tb_daemon *d, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    struct tb_error err = {0};
    if (builtin(k))
        count_stop(k, at(k, t));
    if (setup(d, k, &err) != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "clock: %s", err.msg);
        return;
    }
    k->paused = 0;
    if (builtin(k))
        tb_clock_update(&k->clock, t); /* READY: nothing runs, it only learns the time */
    ensure_started(d);
    if (k->jstop) /* the new clock starts counting here */
        k->counted_to = t > k->jstop_from ? t : k->jstop_from;
    clk_pause(d, PAUSE_PLAY, t);
}

void tb_daemon__clock_output(struct tb_daemon *d, const struct tb_match_out *o)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d))
        return;
    tb_daemon__clock_tick(d, o->ms);
    switch (o->kind) {
    case TB_MATCH_OUT_ANNOUNCE:
        if (o->u.announce.is_move)
            move_made(d, &o->u.announce, o->ms);
        break;
    case TB_MATCH_OUT_MISMATCH:
        clk_pause(d, PAUSE_PLAY, o->ms); /* D.2.9: the arbiter stops the clock (6.11.1) */
        break;
    case TB_MATCH_OUT_RESOLVED:
        clk_resume(d, PAUSE_PLAY, o->ms); /* 6.11.3: play goes on */
        break;
    case TB_MATCH_OUT_ARBITER:
        if (o->u.arbiter.action == TB_MATCH_ARB_TAKEBACK) {
            const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
            clk_pause(d, PAUSE_PLAY, o->ms);
            taken_back(d, g->plies, &g->pos, o->ms);
            k->told_ply = 0;
        } else if (o->u.arbiter.action != TB_MATCH_ARB_RESOLVE) {
            new_game(d, o->ms);
        }
        break;
    case TB_MATCH_OUT_MOVE_AGREED:
        if (k->result[0]) /* the flag decided the game (6.9); moves after it change nothing */
            tb_daemon__set_result(d, k->result);
        else if (tb_chess_game_state(tb_match_game(tb_daemon__match(d))) != TB_CHESS_PLAYING)
            end_game(d, o->ms); /* 9.6: fivefold repetition, 75 moves */
        break;
    default:
        break;
    }
}

/* ---- the arbiter adjusts the clock (D.2.9, 6.10.2) --------------------------------------- */

int tb_daemon__clock_set(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         bool apply, struct tb_error *err)
{
    struct tb_daemon__clk *k = d->clk;
    const uint64_t *ms = req->clock_ms; /* read once, by the parser */
    if (!builtin(k))
        return tb_error_set(err, TB_ERR_STATE,
                            "the game has no built-in clock (source %s): set the clock itself",
                            tb_config_clock_source_name(k ? k->source : TB_CONFIG_CLOCK_NONE));
    if (!req->clock_ok)
        return tb_error_set(err, TB_ERR_PARSE,
                            "clock-set: '%.40s' is not White's and Black's time left (1:25:00, "
                            "45:30 or 1h25m; at most 100 hours)",
                            req->text);
    if (k->over)
        return tb_error_set(err, TB_ERR_STATE, "the game is over: its clock stands");
    if (!apply)
        return TB_OK;
    ensure_started(d);
    uint64_t ct = at(k, t);
    tb_clock_update(&k->clock, ct);
    drain(d);
    if (k->over)
        return TB_OK; /* a flag fell first (said and logged) */
    count_stop(k, ct);
    bool running = k->clock.state == TB_CLOCK_RUNNING;
    if (running)
        tb_clock_pause(&k->clock, ct);
    for (int s = 0; s < 2; s++)
        tb_clock_set(&k->clock, s, ms[s], k->clock.side[s].moves, ct);
    if (running)
        tb_clock_resume(&k->clock, ct);
    char wt[16], bt[16];
    hms(ms[0], wt, sizeof wt);
    hms(ms[1], bt, sizeof bt);
    tb_daemon__log(d, tb_daemon__fx(d)->info,
                   "clock: the arbiter set White %s, Black %s (D.2.9, 6.10.2)", wt, bt);
    tb_daemon__note(d, k->made, "the arbiter set the clocks: White %s, Black %s", wt, bt);
    return TB_OK;
}

/* ---- the journal's stops ----------------------------------------------------------------- */

/* The clocks ran ms[side] while the journal stood: given back, as the arbiter adjusts the clock
 * for a stop that was nobody's doing (6.11.1), at t. */
static void give_back(struct tb_daemon *d, const uint64_t ms[2], uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (!builtin(k) || k->over || (!ms[0] && !ms[1]))
        return;
    uint64_t ct = at(k, t);
    tb_clock_update(&k->clock, ct);
    drain(d);
    bool running = k->clock.state == TB_CLOCK_RUNNING;
    if (k->over || (running && tb_clock_pause(&k->clock, ct) != TB_OK))
        return;
    for (int s = 0; s < 2; s++)
        if (ms[s])
            tb_clock_set(&k->clock, s, tb_clock_remaining(&k->clock, s, ct) + ms[s],
                         k->clock.side[s].moves, ct);
    if (running)
        tb_clock_resume(&k->clock, ct);
    char w[16], b[16];
    hms(ms[0], w, sizeof w);
    hms(ms[1], b, sizeof b);
    tb_daemon__log(d, tb_daemon__fx(d)->info,
                   "clock: the time run while the journal could not be written is given back: "
                   "White %s, Black %s",
                   w, b);
}

void tb_daemon__clock_journal(struct tb_daemon *d, bool stopped)
{
    struct tb_daemon__clk *k = d->clk;
    if (!builtin(k) || !tb_daemon__match(d) || stopped == k->jstop)
        return;
    uint64_t t = tb_daemon__match_time(d);
    if (stopped) {
        k->jstop = true;
        k->jstop_from = k->counted_to = t;
        k->jstop_to = UINT64_MAX;
        k->ran[0] = k->ran[1] = 0;
    }
}

bool tb_daemon__clock_resumes(const struct tb_daemon *d)
{
    const struct tb_daemon__clk *k = d->clk;
    return builtin(k) && tb_daemon__match(d) && k->jstop;
}

/* The held output and inputs have been taken, each at its own time, and the match's time has
 * run on to t (a replay takes the record below after the same). */
void tb_daemon__clock_resume(struct tb_daemon *d, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (!tb_daemon__clock_resumes(d))
        return;
    k->jstop_to = t;
    if (k->clock.state == TB_CLOCK_RUNNING)
        count_stop(k, at(k, t));
    k->jstop = false;
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "daemon");
    snprintf(dec.text, sizeof dec.text, "journal stop %llu %llu", (unsigned long long)k->ran[0],
             (unsigned long long)k->ran[1]);
    tb_daemon__fx(d)->store->append_decision(d, TB_JOURNAL_CLOCK, t, &dec, false);
    give_back(d, k->ran, t);
}

void tb_daemon__clock_record(struct tb_daemon *d, const struct tb_journal_record *rec)
{
    struct tb_journal_decision dec;
    unsigned long long w, b;
    if (!d->clk || tb_journal_decision_decode(&dec, rec, NULL) != TB_OK)
        return;
    /* a flag is decided again from the same inputs; a journal stop's time only is here */
    if (sscanf(dec.text, "journal stop %llu %llu", &w, &b) == 2)
        give_back(d, (const uint64_t[2]){w, b}, rec->time_ms);
}

/* ---- a board's clock (a DGT clock) ------------------------------------------------------- */

/* A reading: the times left stand for the clock (6.10.1: the clock's display decides). The time
 * recorded for the latest move made is the latest reading after it; a side shown at 0 has
 * run out of time. */
void tb_daemon__clock_reading(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d))
        return;
    ensure_started(d);
    const int32_t *ms = in->clock_ms;
    if (k->source != TB_CONFIG_CLOCK_BOARD) {
        tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "%s board: a clock reading (not the game's clock)",
                       tb_daemon__board_name(in->board));
        return;
    }
    if (in->clock_run != k->run || !k->have_reading)
        tb_daemon__log(d, tb_daemon__fx(d)->info, "%s board's clock: %s",
                       tb_daemon__board_name(in->board),
                       in->clock_run == 1   ? "White's clock runs"
                       : in->clock_run == 2 ? "Black's clock runs"
                                            : "stopped");
    k->run = in->clock_run <= 2 ? in->clock_run : 0;
    k->have_reading = true;
    for (int s = 0; s < 2; s++) {
        k->reading[s] = ms[s] >= 0 ? ms[s] : -1;
        k->shown[s] |= ms[s] > 0;
    }
    int mover = 1 - k->pos.side;
    if (k->made > 0 && k->made <= TB_CHESS_GAME_MAX_PLIES && k->reading[mover] >= 0)
        k->clk[k->made] = k->reading[mover];
    int first = k->run == 2 ? TB_CHESS_BLACK : TB_CHESS_WHITE;
    for (int i = 0; i < 2 && !k->over; i++) {
        int s = i ? 1 - first : first;
        if (k->reading[s] == 0 && k->shown[s])
            flag(d, s, t, t, true);
    }
}

/* ---- what players, the arbiter and the PGN see ------------------------------------------ */

bool tb_daemon__clock_button(struct tb_daemon *d, int b)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d) || k->source == TB_CONFIG_CLOCK_NONE)
        return false;
    if (builtin(k)) {
        uint64_t t = k->clock.now_ms;
        say_clock(d, b, tb_clock_remaining(&k->clock, TB_CHESS_WHITE, t),
                  tb_clock_remaining(&k->clock, TB_CHESS_BLACK, t));
        return true;
    }
    if (k->reading[0] < 0 || k->reading[1] < 0)
        return false; /* nothing read yet: the time used, measured between the moves */
    say_clock(d, b, (uint64_t)k->reading[0], (uint64_t)k->reading[1]);
    return true;
}

int tb_daemon__clock_control_pgn(struct tb_daemon *d, char *buf, size_t len)
{
    const struct tb_daemon__clk *k = d->clk;
    if (!k || k->source == TB_CONFIG_CLOCK_NONE || !k->has_control)
        return 0;
    int n = tb_clock_control_pgn(&k->control, buf, len);
    return n > 0 ? n : 0;
}

bool tb_daemon__clock_now(struct tb_daemon *d, int64_t left[2], int *running)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d) || k->source == TB_CONFIG_CLOCK_NONE)
        return false;
    if (builtin(k)) {
        uint64_t now = tb_daemon__match_time(d);
        if (k->jstop && now > k->jstop_from)
            now = k->jstop_from; /* the time run meanwhile is given back */
        for (int s = 0; s < 2; s++)
            left[s] = (int64_t)tb_clock_remaining(&k->clock, s, now);
        *running =
            k->clock.state == TB_CLOCK_RUNNING && !tb_daemon__jstopped(d) ? k->clock.turn : -1;
    } else {
        for (int s = 0; s < 2; s++)
            left[s] = k->reading[s];
        *running = k->run ? k->run - 1 : -1;
    }
    return true;
}

/* status: the clock's line, none without a clock. */
static void clock_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || !tb_daemon__match(d) || k->source == TB_CONFIG_CLOCK_NONE)
        return;
    char control[64] = "no control", side[2][64];
    if (k->has_control)
        tb_clock_control_format(&k->control, control, sizeof control);
    int64_t left[2];
    int running;
    tb_daemon__clock_now(d, left, &running);
    for (int s = 0; s < 2; s++) {
        char text[16] = "?";
        if (left[s] >= 0)
            hms((uint64_t)left[s], text, sizeof text);
        int moves = builtin(k) ? (int)k->clock.side[s].moves : moves_of(k->made, start_side(d), s);
        snprintf(side[s], sizeof side[s], "%s %s (%d move%s%s)", tb_daemon__color_name(s), text,
                 moves, moves == 1 ? "" : "s", running == s ? ", running" : "");
    }
    const char *state = k->result[0]             ? ", flag fell"
                        : k->over                ? ", stopped: the game is over"
                        : tb_daemon__jstopped(d) ? ", stopped: the journal cannot be written"
                        : k->paused              ? ", stopped: play is stopped (D.2.9)"
                                                 : "";
    char line[600];
    int n = snprintf(line, sizeof line, "clock: %s %s, %s, %s%s%s%s\n",
                     tb_config_clock_source_name(k->source), control, side[0], side[1], state,
                     k->result[0] ? ": " : "", k->result);
    if (n > 0)
        tb_daemon__buf_put(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

uint64_t tb_daemon__clock_ply_ms(const struct tb_daemon *d, int ply)
{
    const struct tb_daemon__clk *k = d->clk;
    if (!k || k->source == TB_CONFIG_CLOCK_NONE || ply < 1 || ply > TB_CHESS_GAME_MAX_PLIES ||
        k->clk[ply] < 0)
        return TB_BROADCAST_NO_CLK;
    return (uint64_t)k->clk[ply];
}

void tb_daemon__clock_pgn(struct tb_daemon *d, tb_chess_pgn_game *pg)
{
    struct tb_daemon__clk *k = d->clk;
    if (!k || k->source == TB_CONFIG_CLOCK_NONE)
        return;
    char text[64];
    if (k->has_control && tb_clock_control_pgn(&k->control, text, sizeof text) > 0)
        tb_chess_pgn_tag_set(pg, "TimeControl", text, NULL);
    for (int ply = 1; ply <= pg->game.plies && ply <= TB_CHESS_GAME_MAX_PLIES; ply++)
        if (k->clk[ply] >= 0 && tb_clock_format_clk((uint64_t)k->clk[ply], text, sizeof text) > 0)
            tb_chess_pgn_add_comment(pg, ply, text, NULL);
}

/* The game's clock and its display: a flag fall or a warning is due (the match's time). */
const struct tb_daemon__part tb_daemon__part_clock = {
    .name = "clock",
    .open = clock_open,
    .close = clock_close,
    .deadline = clock_deadline,
    .match_time = true,
    .status = clock_status,
};
