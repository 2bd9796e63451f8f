/* daemon_session.c - the table's session: the one way every input enters the game, live and in
 * recovery alike. Each input (a board event, an arbiter action, a promotion choice, a typed move,
 * a doorgeefschaak request, the time running on, the writer's outcome) is taken here in one
 * order: the game's time runs to it, the mode checks it and appends its record, the journal
 * commits it through the store (live: the writer thread; replay: nothing to write), and
 * each output is carried out only once its cause is on disk (docs/journal.md). No other file
 * lets the time run, carries out outputs or commits: they hand their input in here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_table.h"
#include "daemon_vi.h"

static void outputs(struct tb_daemon *d);

static int commit(struct tb_daemon *d)
{
    return d->session->fx->store->commit(d);
}

bool tb_daemon__journal_held(const struct tb_daemon *d)
{
    const struct tb_daemon__jstop *js = &d->session->jstop;
    return tb_table_held(js->state, js->out_state, js->act);
}

/* ---- the game's time ------------------------------------------------------------------------ */

/* The VI player's promote button: each choice due by t is taken at its own time, the match
 * first reaching that moment and what it decided meanwhile carried out. */
static void choices_due(struct tb_daemon *d, uint64_t t)
{
    uint64_t due;
    int b;
    while ((b = tb_daemon__vi_next(d, t, &due)) >= 0) {
        outputs(d);
        tb_daemon__vi_take(d, b, due);
    }
}

/* The game's time to t and what it decided carried out; nothing while the game is held (the
 * match is frozen until the journal is written). */
static void advance(struct tb_daemon *d, uint64_t t)
{
    if (tb_daemon__journal_held(d))
        return;
    choices_due(d, t);
    d->session->mode->tick(d, t);
    outputs(d);
    if (d->session->mode->ticked)
        d->session->mode->ticked(d, t);
}

/* ---- inputs that waited for the journal ------------------------------------------------- */

static int hold_input(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    struct tb_table_held h = {.kind = TB_TABLE_HELD_BOARD, .t = t, .board = *in};
    if (tb_fifo_push(&d->session->jstop.in, &h) == TB_OK)
        return TB_OK;
    tb_daemon__log(d, TB_CONFIG_LOG_ERROR,
                   "%s board: an event while play is stopped cannot be kept (out of memory)",
                   tb_daemon__board_name(in->board));
    return TB_ERR_MEM;
}

/* A board input already journaled, into the game at t: the mode takes it, what it decided is
 * carried out, then the mode answers it (a button's words come after the move it completed). */
static int apply(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    advance(d, t);
    int rc = d->session->mode->apply(d, in, t);
    outputs(d);
    if (d->session->mode->answer) {
        d->session->mode->answer(d, in, t);
        outputs(d);
    }
    return rc;
}

/* ---- requests that change the game: answered once their record is on disk --------------- */

static const char *const ticket_what[] = {"the action", "the promotion choice", "the typed move",
                                          "the request"};

/* A record just appended for a control request: its answer waits for the writer. */
static void open_ticket(struct tb_daemon *d, enum tbd_ticket kind)
{
    struct tb_daemon__ticket *tk = &d->session->ticket;
    if (!d->session->ticket_wanted)
        return; /* a board's button: nobody waits for an answer */
    memset(tk, 0, sizeof *tk);
    tk->id = ++d->session->tickets;
    tk->kind = kind;
    tk->seq = tb_journal_last_seq(d->session->journal);
}

static void answer_ticket(struct tb_daemon *d, int rc, const char *msg)
{
    struct tb_daemon__ticket *tk = &d->session->ticket;
    if (!tk->id || tk->answered)
        return;
    tk->answered = true;
    tk->rc = rc;
    snprintf(tk->msg, sizeof tk->msg, "%s", msg ? msg : "");
}

/* The journal failed before the request's record was on disk: not done now, kept in memory, done
 * (or in force) once the journal can be written again. The answer says exactly that. */
static void ticket_failed(struct tb_daemon *d)
{
    struct tb_daemon__ticket *tk = &d->session->ticket;
    if (!tk->id || tk->answered)
        return;
    char msg[600];
    const char *what = tk->kind == TBD_TICKET_ACTION && d->session->jstop.act_req.verb
                           ? tb_ctl_verb_name(d->session->jstop.act_req.verb)
                           : ticket_what[tk->kind];
    snprintf(msg, sizeof msg,
             "not done: the journal cannot be written (%s); %s%s is kept in memory and %s when "
             "the journal can be written again; play is stopped until then, the arbiter is called",
             d->session->jstop.reason, tk->kind == TBD_TICKET_ACTION ? "the " : "", what,
             tk->kind == TBD_TICKET_ACTION ? "is done" : "takes effect");
    answer_ticket(d, TB_ERR_STATE, msg);
}

/* A control request's record is appended and its commit is under way: kind ACTION queues the
 * arbiter action req at t (done once its record is on disk), the others are in force already;
 * the request's answer waits (d->session->ticket). TB_ERR_AGAIN. */
static int defer(struct tb_daemon *d, enum tbd_ticket kind, const struct tb_ctl_request *req,
                 uint64_t t, struct tb_error *err)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    if (kind == TBD_TICKET_ACTION) {
        struct tb_table_held act = {
            .kind = TB_TABLE_HELD_ACTION, .t = t, .seq = tb_journal_last_seq(d->session->journal)};
        if (tb_fifo_push(&js->in, &act) != TB_OK)
            return tb_error_set(err, TB_ERR_MEM, "out of memory");
        js->act_req = *req;
        js->act_seq = act.seq;
        tb_table_action_to(&js->act, TB_TABLE_ACT_WAITS);
    }
    open_ticket(d, kind);
    if (tbd_stopped(js))
        ticket_failed(d);
    return tb_error_set(err, TB_ERR_AGAIN, "waiting for the journal");
}

/* The arbiter's action, its record on disk: the match, then its outputs, then the broadcast. */
static int act(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
               struct tb_error *err)
{
    advance(d, t);
    const struct tb_daemon__in_row *row = tb_daemon__in_row(d->inputs, TB_DAEMON__IN_ACTION);
    int rc = row->apply(d, &(struct tb_daemon__input){.kind = row->kind, .req = req}, t, err);
    outputs(d);
    tb_daemon__tell_action(d, t); /* the broadcast: a takeback or resolution shown */
    return rc;
}

/* The queued action's record is on disk: it is done, its outcome is the answer. */
static void apply_action(struct tb_daemon *d, uint64_t t)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    struct tb_error err = {0};
    tb_table_action_to(&js->act, TB_TABLE_ACT_NONE);
    int rc = act(d, &js->act_req, t, &err);
    if (d->session->ticket.kind == TBD_TICKET_ACTION)
        answer_ticket(d, rc, err.msg);
}

/* The inputs that waited, taken in order at their own times while the game is not held. */
static void drain(struct tb_daemon *d)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    if (js->draining)
        return; /* a re-entrancy guard, no state of the game: an input taken here drains too */
    js->draining = true;
    struct tb_table_held h; /* a copy: the queue may grow meanwhile */
    while (!tb_daemon__journal_held(d) && tb_fifo_pop(&js->in, &h)) {
        if (h.kind == TB_TABLE_HELD_ACTION)
            apply_action(d, h.t);
        else
            apply(d, &h.board, h.t);
    }
    if (!tb_daemon__journal_held(d) && tb_fifo_count(&js->in) == 0 &&
        tb_daemon__tell_waits_for_play(d)) {
        /* what waited for play (the clock) goes on with it; the match's time runs on to now
           first (a replay takes the clock's record after the same) */
        uint64_t t = tb_daemon__match_time(d);
        advance(d, t);
        tb_daemon__tell_play(d, t);
    }
    js->draining = false;
}

/* Carries out the mode's outputs in order; stops at the first one whose journal record cannot
 * be made durable and holds it (with everything after it, still in the match's queue) until the
 * journal can be written: nothing is agreed or said before it is on disk. */
static void outputs(struct tb_daemon *d)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    while (!tbd_stopped(js)) {
        if (js->out_state == TB_TABLE_OUT_NONE) {
            if (!d->session->mode->next(d))
                break;
            tb_table_output_to(&js->out_state, TB_TABLE_OUT_HELD);
        }
        bool appended = js->out_state == TB_TABLE_OUT_APPENDED;
        bool disk = d->session->mode->needs_disk(d, &appended);
        if (appended && js->out_state == TB_TABLE_OUT_HELD)
            tb_table_output_to(&js->out_state, TB_TABLE_OUT_APPENDED);
        if (disk && commit(d) != TB_OK)
            return; /* the writer has it (TB_ERR_AGAIN), or play stopped (TB_ERR_SYS) */
        tb_table_output_to(&js->out_state, TB_TABLE_OUT_NONE);
        d->session->mode->carry_out(d);
    }
    if (d->session->mode->drained)
        d->session->mode->drained(d);
    drain(d); /* the inputs that waited for the journal, if not held now */
}

/* ---- the writer's outcome ---------------------------------------------------------------- */

/* Something waits for the disk and nothing writes: a commit. */
static void kick(struct tb_daemon *d)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    if (!d->session->writer.busy && !tbd_stopped(js) && js->act == TB_TABLE_ACT_WAITS)
        commit(d);
}

static void written(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    struct tb_journal_state st;
    tb_journal_state(d->session->journal, &st);
    if (tbd_stopped(js)) {
        tb_table_journal_to(&js->state, TB_TABLE_WRITABLE);
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal %s: writing again after %lu tries: %zu records kept in memory are "
                       "on disk, nothing lost; play resumes (%zu board events that waited are "
                       "taken now)",
                       d->journal_path, js->tries, js->kept, tb_fifo_count(&js->in));
        js->error = 0;
        js->reason[0] = '\0';
    } else if (js->notice == TB_TABLE_NOTICE_TOLD) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal %s: the write took %llu ms; it is on disk, play goes on",
                       d->journal_path, (unsigned long long)(now - d->session->writer.since));
    }
    if (js->notice == TB_TABLE_NOTICE_TOLD)
        tb_table_notice_to(&js->notice, TB_TABLE_NOTICE_NONE); /* on disk: play goes on */
    if (js->act == TB_TABLE_ACT_WAITS && st.durable_seq >= js->act_seq)
        tb_table_action_to(&js->act, TB_TABLE_ACT_DURABLE);
    struct tb_daemon__ticket *tk = &d->session->ticket;
    if (tk->id && !tk->answered && tk->kind != TBD_TICKET_ACTION && st.durable_seq >= tk->seq)
        answer_ticket(d, TB_OK, NULL);
}

/* The writer has finished (wait: block until it has): on success the held output is carried
 * out and the inputs that waited are taken; on failure play stops. */
static void writer_done(struct tb_daemon *d, bool wait)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    struct tb_daemon__written r;
    if (!tb_daemon__writer_take(d, wait, &r))
        return;
    uint64_t now = tb_daemon__clock(d);
    if (r.rc != TB_OK) {
        if (tbd_stopped(js)) { /* a retry: status follows the reason; said once */
            tb_table_journal_to(&js->state, TB_TABLE_STOPPED);
            if (r.error != js->error) {
                js->error = r.error;
                snprintf(js->reason, sizeof js->reason, "%s", strerror(r.error));
            }
            js->retry_at = now + TBD_JOURNAL_RETRY_MS;
        } else {
            tb_daemon__journal_stop(d, r.error, r.msg);
        }
        ticket_failed(d);
        return;
    }
    if (r.job == TBD_WRITE_COMMIT)
        written(d, now);
    /* the output held first, then the inputs that waited (and an action), at their own times */
    outputs(d);
    kick(d);
}

void tb_daemon__journal_settle(struct tb_daemon *d)
{
    for (int guard = 0; guard < 100000; guard++) {
        if (d->session->writer.busy) {
            writer_done(d, true);
            continue;
        }
        if (tb_daemon__jstopped(d) || !tb_daemon__journal_held(d))
            return;
        outputs(d);
        kick(d);
        if (!d->session->writer.busy)
            return;
    }
}

/* ---- the one entry --------------------------------------------------------------------------- */

/* A board input at t: the promote button's choices due first, journaled, then into the game;
 * while the game is held it waits, journaled in memory, until it is not. */
static int board_input(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    if (in->board >= TBD_BOARDS)
        return TB_ERR_ARG;
    choices_due(d, t);
    tb_daemon__vi_before_input(d, in, t); /* promote button choices first, in the journal too */
    d->session->fx->store->append_event(d, in, t);
    if (tb_daemon__journal_held(d))
        return hold_input(d, in, t);
    return apply(d, in, t);
}

/* A checked input (its row's take): the time runs to t, it is taken, its record committed. In
 * force when taken (no apply): nothing of it is carried out before its record is on disk, its
 * answer once it is; a refusal changes nothing (drain_refused: what the match decided meanwhile
 * is carried out). With an apply (an arbiter's action) it is done once its record is on disk;
 * live the commit runs on the writer thread and it waits, queued, with the request's answer. */
static int checked(struct tb_daemon *d, const struct tb_daemon__in_row *row,
                   const struct tb_daemon__input *in, uint64_t t, struct tb_error *err)
{
    if (row->refused_stopped && tb_daemon__journal_stopped(d, err))
        return TB_ERR_STATE;
    advance(d, t);
    int rc = row->take(d, in, t, err);
    if (rc != TB_OK && !row->drain_refused)
        return rc;
    if (!row->apply)
        outputs(d);
    if (rc != TB_OK)
        return rc;
    if (commit(d) == TB_OK)
        return row->apply ? act(d, in->req, t, err) : TB_OK;
    bool wanted = d->session->ticket_wanted;
    /* the request's client waits for its answer */
    d->session->ticket_wanted = wanted || row->client_waits;
    rc = defer(d, (enum tbd_ticket)row->ticket, in->req, t, err);
    d->session->ticket_wanted = wanted;
    return rc;
}

/* The input's row says how it is taken (daemon_inputs.c). */
int tb_daemon__input(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                     struct tb_error *err)
{
    const struct tb_daemon__in_row *row = tb_daemon__in_row(d->inputs, in->kind);
    if (!row)
        return TB_ERR_ARG;
    switch (row->way) {
    case TB_DAEMON__WAY_TIME:
        advance(d, t);
        return TB_OK;
    case TB_DAEMON__WAY_DRAIN:
        outputs(d);
        return TB_OK;
    case TB_DAEMON__WAY_BOARD:
        return board_input(d, in->board, t);
    case TB_DAEMON__WAY_WRITTEN:
        writer_done(d, in->wait);
        return TB_OK;
    case TB_DAEMON__WAY_CHECKED:
        return checked(d, row, in, t, err);
    }
    return TB_ERR_ARG;
}

/* ---- the session's state; what the other files read of it ------------------------------------ */

int tb_daemon__session_new(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__session *s = calloc(1, sizeof *s);
    if (!s)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    d->session = s;
    s->writer.efd = -1;
    s->jstop.in = TB_FIFO_INIT(sizeof(struct tb_table_held), 0);
    s->fx = &tb_daemon__live;
    s->mode = &tb_daemon__twin; /* doorgeefschaak: set when [bughouse] opens it */
    tb_daemon__subscribe(d);    /* what the game carries out reaches (daemon_feed.c) */
    snprintf(s->result, sizeof s->result, "*");
    tb_chess_pos_startpos(&s->start);
    if (d->cfg->start_fen[0]) /* checked when the configuration was read */
        tb_chess_pos_from_fen(&s->start, d->cfg->start_fen, 0, NULL);
    return TB_OK;
}

void tb_daemon__session_free(struct tb_daemon *d)
{
    if (!d->session)
        return;
    tb_match_free(d->session->match);
    tb_daemon__journal_free(d);
    free(d->session);
    d->session = NULL;
}

tb_match *tb_daemon__match(const struct tb_daemon *d)
{
    return d->session->match;
}

const struct tb_match_config *tb_daemon__match_config(const struct tb_daemon *d)
{
    return &d->session->mcfg;
}

void tb_daemon__set_match_config(struct tb_daemon *d, const struct tb_match_config *mcfg)
{
    d->session->mcfg = *mcfg;
}

const tb_chess_pos *tb_daemon__start(const struct tb_daemon *d)
{
    return &d->session->start;
}

const struct tb_daemon__effects *tb_daemon__fx(const struct tb_daemon *d)
{
    return d->session->fx;
}

const struct tb_daemon__mode *tb_daemon__mode(const struct tb_daemon *d)
{
    return d->session->mode;
}

void tb_daemon__set_mode(struct tb_daemon *d, const struct tb_daemon__mode *mode)
{
    d->session->mode = mode;
}

int tb_daemon__agreed(const struct tb_daemon *d)
{
    return d->session->agreed;
}

const struct tb_match_status *tb_daemon__shown(const struct tb_daemon *d)
{
    return &d->session->shown;
}

const char *tb_daemon__result(const struct tb_daemon *d)
{
    return d->session->result;
}

void tb_daemon__set_result(struct tb_daemon *d, const char *result)
{
    snprintf(d->session->result, sizeof d->session->result, "%s", result);
}

const char *tb_daemon__damage(const struct tb_daemon *d)
{
    return d->session->damage;
}

int tb_daemon__notes(const struct tb_daemon *d, const struct tb_daemon__note **notes)
{
    *notes = d->session->note;
    return d->session->nnotes;
}

void tb_daemon__ticket_want(struct tb_daemon *d, bool wanted)
{
    d->session->ticket_wanted = wanted;
}

unsigned long tb_daemon__ticket_id(const struct tb_daemon *d)
{
    return d->session->ticket.id;
}

bool tb_daemon__ticket_waits(const struct tb_daemon *d)
{
    return d->session->ticket.id && !d->session->ticket.answered;
}

const char *tb_daemon__ticket_said(const struct tb_daemon *d)
{
    return d->session->ticket.said;
}

void tb_daemon__ticket_say(struct tb_daemon *d, const char *said)
{
    snprintf(d->session->ticket.said, sizeof d->session->ticket.said, "%s", said ? said : "");
}

int tb_daemon__ticket_outcome(struct tb_daemon *d, unsigned long id, struct tb_error *err)
{
    struct tb_daemon__ticket *tk = &d->session->ticket;
    if (tk->id != id)
        return tb_error_set(err, TB_ERR_STATE, "the request's outcome is lost; see status");
    if (!tk->answered)
        return TB_ERR_AGAIN;
    tk->id = 0;
    if (tk->rc != TB_OK)
        tb_error_set(err, tk->rc, "%s", tk->msg[0] ? tk->msg : "not possible now");
    return tk->rc;
}
