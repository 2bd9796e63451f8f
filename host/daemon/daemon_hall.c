/* daemon_hall.c - the table on the arbiter's hall (docs/hall.md): its state and events published
 * to an MQTT broker through tb_hall, libmosquitto's fd in the daemon's poll loop (no thread), and
 * the arbiter's commands from the broker. Nothing of the game waits for the broker: with the
 * broker away the publisher keeps the latest state and queues the events.
 *
 * A command from the broker is the arbiter's only with the arbiter's PIN, and it goes through the
 * control socket's guard and action path: made the control request it is once, when it comes,
 * then the guard's delays, lockout and its one PIN check (each sender the hall names in "from",
 * a page session, is a peer of its own; commands without one are one peer), then
 * tb_daemon__arbiter (checked, journaled, applied) as a control request would. The outcome
 * goes back as a command event; a refused command changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_bug.h" /* doorgeefschaak: its match, for the hall's two games */
#include "daemon_boards.h"
#include "daemon_clock.h"
#include "daemon_ctl.h" /* the control socket's guard and action path */
#include "daemon_hall.h"
#include "daemon_export.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_session.h"
#include "tb_str.h"
#include "tb_hall.h"

/* Commands waiting for the guard or wrong PINs' answers held back: one per peer at a time. */
#define TBD_HALL_WAITS 8

struct tbd_hall_wait {
    uint64_t peer;
    bool held;      /* cmd waits until the guard lets its PIN be checked */
    bool answering; /* a wrong PIN's answer, held back as the socket's is */
    struct tb_hall_cmd cmd;
    struct tb_ctl_request req; /* cmd as a control request, made once */
    struct tb_hall_event answer;
    uint64_t at; /* tb_daemon__clock() when it is due */
};

/* A command whose PIN was right, being done: it waits for the journal (before it is taken, or
 * for its record) without holding the loop; the commands that come meanwhile wait behind it. */
struct tbd_hall_doing {
    bool on;
    struct tb_hall_cmd cmd;
    struct tb_ctl_request req;
    unsigned long ticket; /* its record is being written (0: not taken yet) */
    struct tb_hall_cmd next[TBD_HALL_WAITS];
    struct tb_ctl_request next_req[TBD_HALL_WAITS];
    int nnext;
};

struct tb_daemon__hall {
    tb_hall_pub *pub;
    struct tb_hall_state *st;
    char password[256];
    bool dirty; /* the state changed since it was handed to the publisher */
    bool link_up[TBD_BOARDS];
    struct tbd_hall_wait wait[TBD_HALL_WAITS];
    struct tbd_hall_doing doing;
    unsigned long cmds, refused;
    uint64_t due; /* its next due time, as its pollfds found it */
};

static uint64_t now_ms(const struct tb_daemon *d)
{
    return tb_daemon__clock(d);
}

static int read_password(struct tb_daemon *d, char *out, size_t len, struct tb_error *err)
{
    const char *path = d->cfg->hall.password_file;
    FILE *f = fopen(path, "r");
    if (!f)
        return tb_error_set(err, TB_ERR_SYS, "[hall] password_file %s: cannot be read", path);
    if (!fgets(out, (int)len, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\r\n")] = '\0';
    return TB_OK;
}

static int hall_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!tb_config_hall_on(d->cfg))
        return TB_OK;
    const struct tb_config_hall *c = &d->cfg->hall;
    struct tb_daemon__hall *h = calloc(1, sizeof *h);
    if (!h || !(h->st = calloc(1, sizeof *h->st))) {
        free(h);
        return tb_error_set(err, TB_ERR_MEM, "hall: out of memory");
    }
    d->hall = h;
    int rc;
    if (c->password_file[0] && (rc = read_password(d, h->password, sizeof h->password, err)))
        return rc;
    struct tb_hall_config hc = {
        .host = c->broker,
        .port = c->port,
        .tournament = c->tournament,
        .table = c->table,
        .username = c->username[0] ? c->username : NULL,
        .password = c->password_file[0] ? h->password : NULL,
        .cafile = c->cafile[0] ? c->cafile : NULL,
    };
    if ((rc = tb_hall_pub_new(&hc, now_ms(d), &h->pub, err)) != TB_OK)
        return rc;
    struct tb_hall_state *st = h->st;
    snprintf(st->tournament, sizeof st->tournament, "%s", c->tournament);
    snprintf(st->table, sizeof st->table, "%s", c->table);
    snprintf(st->epoch, sizeof st->epoch, "%s", tb_hall_pub_epoch(h->pub)); /* this session */
    for (int b = 0; b < TBD_BOARDS; b++) {
        snprintf(st->board[b].name, sizeof st->board[b].name, "%s",
                 tb_daemon__match_config(d)->board[b].name);
        st->board[b].vi = tb_daemon__match_config(d)->board[b].role == TB_MATCH_VI;
        st->board[b].white = tb_daemon__match_config(d)->board[b].color == TB_CHESS_WHITE;
        st->board[b].clock_ms = -1; /* no clock known */
    }
    h->dirty = true;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "hall: table %s/%s on the broker %s:%d%s", c->tournament,
                   c->table, c->broker,
                   c->port        ? c->port
                   : c->cafile[0] ? 8883
                                  : 1883,
                   c->cafile[0] ? " (TLS)" : "");
    return TB_OK;
}

/* Before the publisher goes: what is queued gets at most a second to reach the broker. */
static void drain(struct tb_daemon *d, struct tb_daemon__hall *h)
{
    for (uint64_t end = now_ms(d) + 1000; now_ms(d) < end;) {
        struct tb_hall_pub_stats ps;
        tb_hall_pub_stats(h->pub, &ps);
        if (!ps.connected || (!ps.queued && !tb_hall_pub_want_write(h->pub)))
            return;
        int fd = tb_hall_pub_fd(h->pub);
        struct pollfd p = {fd, (short)(POLLIN | POLLOUT), 0};
        poll(&p, fd >= 0 ? 1 : 0, 50);
        tb_hall_pub_service(h->pub, p.revents & POLLIN, p.revents & POLLOUT, now_ms(d));
    }
}

static void hall_close(struct tb_daemon *d)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h)
        return;
    if (h->pub)
        drain(d, h);
    tb_hall_pub_free(h->pub);
    free(h->st);
    free(h);
    d->hall = NULL;
}

static void event(struct tb_daemon *d, struct tb_hall_event *ev)
{
    struct tb_error err = {0};
    if (tb_hall_pub_event(d->hall->pub, ev, &err) != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "hall: an event is not published: %s", err.msg);
}

void tb_daemon__hall_output(struct tb_daemon *d, const struct tb_match_out *o)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h || !tb_daemon__fx(d)->acts)
        return;
    struct tb_hall_event ev;
    if (o->kind == TB_MATCH_OUT_ARBITER)
        h->st->arbiter_call = false; /* the arbiter has acted */
    if (tb_hall_state_note(h->st, o, &ev) == 1) {
        ev.ms = o->ms;
        event(d, &ev);
    }
    if (o->kind != TB_MATCH_OUT_ANNOUNCE)
        h->dirty = true;
}

/* doorgeefschaak: a match output carried out, noted in its game (log, the move made) and, live,
 * published as an event (moves completed, results, irregularities); the state follows. */
void tb_daemon__hall_bug_output(struct tb_daemon *d, const struct tb_bugmatch_out *o)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h)
        return;
    struct tb_hall_event ev;
    if (tb_hall_state_note_bug(h->st, o, &ev) == 1 && tb_daemon__fx(d)->acts) {
        ev.ms = o->ms;
        event(d, &ev);
    }
    h->dirty = true;
}

void tb_daemon__hall_arbiter_call(struct tb_daemon *d, int board)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h)
        return;
    struct tb_hall_event ev = {.kind = TB_HALL_EV_ARBITER_CALL, .ms = tb_daemon__match_time(d)};
    snprintf(ev.text, sizeof ev.text, "the ARBITER button was pressed at the %s board",
             tb_daemon__board_name(board));
    h->st->arbiter_call = true;
    h->dirty = true;
    event(d, &ev);
}

/* What the table's owner knows beyond the match: the result (5.1, 5.2, 6.9, the arbiter's) and
 * the journal's health (a full or failing disk stops play, docs/journal.md). */
#define NOTE_RESULT  8
#define NOTE_ENDING  (TB_HALL_TEXT_MAX / 4)
#define NOTE_JOURNAL (TB_HALL_TEXT_MAX / 2)
static void table_notes(const struct tb_daemon *d, char result[NOTE_RESULT],
                        char ending[NOTE_ENDING], char journal[NOTE_JOURNAL])
{
    bool twin = tb_daemon__mode(d)->one_result; /* doorgeefschaak: each game its own result */
    const char *res = tb_daemon__result(d);
    snprintf(result, NOTE_RESULT, "%s", twin && res[0] ? res : "*");
    tb_str_copy(ending, NOTE_ENDING, twin ? tb_daemon__result_why(d) : ""); /* the hall's field */
    tb_daemon__journal_health(d, journal, NOTE_JOURNAL);
}

/* The twin game in the hall's state: the match, each player's time as it stands. */
void tb_daemon__twin_hall_state(struct tb_daemon *d, struct tb_hall_state *st)
{
    tb_hall_state_from_match(st, tb_daemon__match(d));
    char *pgn = NULL; /* the game as `pgn` gives it: the hall's round folder and push */
    st->pgn[0] = '\0';
    if (tb_daemon__pgn_text(d, TB_CHESS_LETTERS_EN, false, &pgn) > 0 &&
        strlen(pgn) < sizeof st->pgn) /* a longer one is not sent (TB_HALL_PGN_MAX) */
        tb_str_copy(st->pgn, sizeof st->pgn, pgn);
    free(pgn);
    int64_t left[2];
    int running;
    bool clock = tb_daemon__clock_now(d, left, &running);
    for (int b = 0; b < TBD_BOARDS; b++)
        st->board[b].clock_ms =
            clock ? left[st->board[b].white ? TB_CHESS_WHITE : TB_CHESS_BLACK] : -1;
    st->clock_running = clock && running >= 0;
}

/* The state as it stands, handed to the publisher (it supersedes any not yet sent). */
static void publish(struct tb_daemon *d, struct tb_daemon__hall *h)
{
    struct tb_hall_state *st = h->st;
    st->ms = tb_daemon__match_time(d);
    tb_daemon__mode(d)->hall_state(d, st); /* the game(s) and the clocks */
    table_notes(d, st->result, st->ending, st->journal);
    st->seq++;
    struct tb_hall_pub_stats ps;
    tb_hall_pub_stats(h->pub, &ps);
    st->dropped = ps.dropped;
    for (int b = 0; b < TBD_BOARDS; b++)
        st->board[b].link_up = h->link_up[b];
    struct tb_error err = {0};
    if (tb_hall_pub_state(h->pub, st, &err) != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "hall: the state is not published: %s", err.msg);
    h->dirty = false;
}

static int hall_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h)
        return 0;
    for (int b = 0; b < TBD_BOARDS; b++) { /* link health is part of the state */
        struct tb_link_stats ls = {0};
        if (tb_daemon__board_link(d, b))
            tb_link_stats(tb_daemon__board_link(d, b), &ls);
        if (ls.connected != h->link_up[b])
            h->dirty = true;
        h->link_up[b] = ls.connected;
    }
    char result[NOTE_RESULT], ending[NOTE_ENDING], journal[NOTE_JOURNAL]; /* they changed */
    table_notes(d, result, ending, journal);
    if (strcmp(result, h->st->result) || strcmp(ending, h->st->ending) ||
        strcmp(journal, h->st->journal))
        h->dirty = true;
    if (h->dirty)
        publish(d, h);
    h->due = tb_hall_pub_deadline(h->pub);
    for (int i = 0; i < TBD_HALL_WAITS; i++)
        if ((h->wait[i].held || h->wait[i].answering) && h->wait[i].at < h->due)
            h->due = h->wait[i].at;
    int fd = tb_hall_pub_fd(h->pub);
    if (fd < 0 || max < 1)
        return 0;
    p[0] = (struct pollfd){
        .fd = fd, .events = (short)(POLLIN | (tb_hall_pub_want_write(h->pub) ? POLLOUT : 0))};
    return 1;
}

static uint64_t hall_deadline(struct tb_daemon *d)
{
    return d->hall ? d->hall->due : UINT64_MAX;
}

static void answer(struct tb_daemon *d, const struct tb_hall_cmd *c, bool ok, const char *text)
{
    struct tb_hall_event ev = {.kind = TB_HALL_EV_COMMAND, .ms = tb_daemon__match_time(d)};
    ev.ok = ok;
    ev.mismatch = c->action == TB_HALL_CMD_RESOLVE ? c->mismatch : 0;
    snprintf(ev.request, sizeof ev.request, "%s", c->request);
    snprintf(ev.text, sizeof ev.text, "%s", text);
    event(d, &ev);
    d->hall->dirty |= ok;
}

static uint64_t peer_of(const struct tb_hall_cmd *c)
{
    return tb_ctl_guard_peer_named("hall", c->from);
}

/* The waiting slot of peer, or a free one (add), or NULL. */
static struct tbd_hall_wait *wait_slot(struct tb_daemon__hall *h, uint64_t peer, bool add)
{
    struct tbd_hall_wait *free_slot = NULL;
    for (int i = 0; i < TBD_HALL_WAITS; i++) {
        struct tbd_hall_wait *w = &h->wait[i];
        if ((w->held || w->answering) && w->peer == peer)
            return w;
        if (!w->held && !w->answering && !free_slot)
            free_slot = w;
    }
    if (!add || !free_slot)
        return NULL;
    memset(free_slot, 0, sizeof *free_slot);
    free_slot->peer = peer;
    return free_slot;
}

static void refuse(struct tb_daemon *d, struct tb_daemon__hall *h, const struct tb_hall_cmd *c,
                   uint64_t peer, bool wrong_pin, const char *msg)
{
    char who[48];
    tb_daemon__peer_name(peer, who, sizeof who);
    tb_daemon__refusal(
        d, peer, wrong_pin, TB_CONFIG_LOG_WARN, "hall: %s (request %s) refused: %s; sender %s (%s)",
        tb_hall_cmd_name(c->action), c->request, msg, c->from[0] ? c->from : "-", who);
    h->refused++;
}

/* A command whose PIN the guard lets be checked now: right, it runs as the control request would;
 * wrong, its answer is held back as long as the socket holds a wrong PIN's answer. */
static void run(struct tb_daemon *d, struct tb_daemon__hall *h, const struct tb_hall_cmd *c,
                const struct tb_ctl_request *req)
{
    uint64_t now = now_ms(d), peer = peer_of(c), delay;
    bool locked;
    if (tb_ctl_guard_check(tb_daemon__ctl_guard(d), peer, req, d->cfg->arbiter_pin,
                           tb_daemon__mono_ms(), &delay, &locked) != TB_OK) {
        char msg[120];
        snprintf(msg, sizeof msg, "wrong arbiter PIN (%u in a row)%s",
                 tb_ctl_guard_fails(tb_daemon__ctl_guard(d), peer, tb_daemon__mono_ms()),
                 locked ? "; locked out for 15 minutes" : "");
        refuse(d, h, c, peer, true, msg);
        struct tbd_hall_wait *w = wait_slot(h, peer, true);
        if (!w) { /* every slot taken: answered now, the guard holds its next check back */
            answer(d, c, false, "wrong PIN: nothing done");
            return;
        }
        w->answer = (struct tb_hall_event){.kind = TB_HALL_EV_COMMAND};
        w->answer.mismatch = c->action == TB_HALL_CMD_RESOLVE ? c->mismatch : 0;
        snprintf(w->answer.request, sizeof w->answer.request, "%s", c->request);
        snprintf(w->answer.text, sizeof w->answer.text, "wrong PIN: nothing done");
        w->answering = true;
        w->at = now + delay;
        return;
    }
    struct tbd_hall_doing *g = &h->doing;
    g->on = true;
    g->cmd = *c;
    g->ticket = 0;
    g->req = *req;
}

/* A command from the broker as the control request it is, made once when it comes: the PIN as
 * given (one longer than any arbiter PIN is none that can be right). */
static void request_of(const struct tb_hall_cmd *c, struct tb_ctl_request *req)
{
    *req = (struct tb_ctl_request){.has_pin = true};
    req->verb = c->action == TB_HALL_CMD_RESOLVE    ? TB_CTL_RESOLVE
                : c->action == TB_HALL_CMD_NEW_GAME ? TB_CTL_NEW_GAME
                                                    : TB_CTL_TAKEBACK;
    req->needs_pin = tb_ctl_verb_info(req->verb)->flags & TB_CTL_PIN;
    req->number = c->action == TB_HALL_CMD_RESOLVE ? c->mismatch : (unsigned)c->n;
    if (strlen(c->pin) < sizeof req->pin)
        tb_str_copy(req->pin, sizeof req->pin, c->pin);
    _Static_assert(TB_HALL_TAGS == TB_CTL_TAGS, "the hall's tags are new-game's, in its order");
    for (int t = 0; t < TB_CTL_TAGS; t++) /* new-game: the round's tags */
        tb_str_copy(req->tag[t], sizeof req->tag[t], c->tags[t]);
}

/* The command being done, a step further: taken when the journal lets it be, answered once its
 * record is on disk (the answer and the log line then). */
static void doing_step(struct tb_daemon *d, struct tb_daemon__hall *h)
{
    struct tbd_hall_doing *g = &h->doing;
    struct tb_error err = {0};
    int rc = g->ticket ? tb_daemon__arbiter_outcome(d, g->ticket, &err)
                       : tb_daemon__arbiter_start(d, &g->req, &g->ticket, &err);
    if (rc == TB_ERR_AGAIN)
        return;
    const struct tb_hall_cmd *c = &g->cmd;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "hall: %s (request %s) %s%s", tb_hall_cmd_name(c->action),
                   c->request, rc == TB_OK ? "done" : "refused: ", rc == TB_OK ? "" : err.msg);
    if (rc != TB_OK)
        h->refused++;
    answer(d, c, rc == TB_OK, rc == TB_OK ? "done" : err.msg[0] ? err.msg : "not possible now");
    g->on = false;
}

/* A command from the broker, through the guard: checked now, held until its peer's delay has
 * passed (one per peer at a time: another of that peer meanwhile is refused unchecked), or
 * refused during its peer's lockout. Other peers' commands go on meanwhile. */
static void command(struct tb_daemon *d, struct tb_daemon__hall *h, const struct tb_hall_cmd *c,
                    const struct tb_ctl_request *req)
{
    uint64_t now = now_ms(d), gnow = tb_daemon__mono_ms(), at, peer = peer_of(c);
    struct tbd_hall_doing *g = &h->doing;
    if (g->on) { /* one is being done: this one waits behind it, unchecked yet */
        if (g->nnext < TBD_HALL_WAITS) {
            g->next_req[g->nnext] = *req;
            g->next[g->nnext++] = *c;
            return;
        }
        h->cmds++;
        refuse(d, h, c, peer, false, "busy: earlier commands are being done");
        answer(d, c, false, "busy: earlier commands are being done");
        return;
    }
    h->cmds++;
    const char *why =
        tb_daemon__mode(d)->hall_refusal; /* doorgeefschaak: no D.2.9, no twin takeback */
    if (why) {
        refuse(d, h, c, peer, false, why);
        answer(d, c, false, why);
        return;
    }
    int w = tb_ctl_guard_when(tb_daemon__ctl_guard(d), peer, gnow, &at);
    struct tbd_hall_wait *slot = NULL; /* none if this peer has one waiting already */
    if (w == 1 && !wait_slot(h, peer, false))
        slot = wait_slot(h, peer, true);
    if (w == TB_ERR_PERM || (w == 1 && !slot)) {
        char msg[160];
        if (w == TB_ERR_PERM)
            snprintf(msg, sizeof msg,
                     "too many wrong arbiter PINs: no PIN of this sender is checked for %llu "
                     "more s",
                     (unsigned long long)((at - gnow + 999) / 1000));
        else
            snprintf(msg, sizeof msg, "busy: an earlier command waits for its PIN check");
        refuse(d, h, c, peer, w == TB_ERR_PERM, msg);
        answer(d, c, false, msg);
    } else if (w == 1) {
        slot->cmd = *c;
        slot->req = *req;
        slot->held = true;
        slot->at = now + (at - gnow);
    } else {
        run(d, h, c, req);
    }
}

static int hall_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    struct tb_daemon__hall *h = d->hall;
    if (!h)
        return TB_OK;
    bool rd = n > 0 && (p[0].revents & (POLLIN | POLLERR | POLLHUP));
    bool wr = n > 0 && (p[0].revents & POLLOUT);
    tb_hall_pub_service(h->pub, rd, wr, now_ms(d));
    uint64_t now = now_ms(d);
    for (int i = 0; i < TBD_HALL_WAITS; i++) {
        struct tbd_hall_wait *w = &h->wait[i];
        if (w->answering && now >= w->at) {
            w->answering = false;
            w->answer.ms = tb_daemon__match_time(d);
            event(d, &w->answer);
        }
        if (w->held && now >= w->at) {
            struct tb_hall_cmd c = w->cmd;
            struct tb_ctl_request req = w->req;
            w->held = false;
            command(d, h, &c, &req);
        }
    }
    struct tbd_hall_doing *g = &h->doing;
    if (g->on)
        doing_step(d, h);
    while (!g->on && g->nnext > 0) { /* those that waited behind it, in order */
        struct tb_hall_cmd next = g->next[0];
        struct tb_ctl_request req = g->next_req[0];
        memmove(g->next, g->next + 1, sizeof *g->next * (size_t)(g->nnext - 1));
        memmove(g->next_req, g->next_req + 1, sizeof *g->next_req * (size_t)--g->nnext);
        command(d, h, &next, &req);
        if (g->on)
            doing_step(d, h);
    }
    struct tb_hall_cmd c;
    while (tb_hall_pub_cmd(h->pub, &c) == 1) {
        struct tb_ctl_request req;
        request_of(&c, &req);
        command(d, h, &c, &req);
        if (g->on)
            doing_step(d, h);
    }
    return TB_OK;
}

static void hall_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    char line[400];
    int n;
    struct tb_daemon__hall *h = d->hall;
    if (!h) {
        n = snprintf(line, sizeof line, "hall: off\n");
    } else {
        struct tb_hall_pub_stats ps;
        tb_hall_pub_stats(h->pub, &ps);
        n = snprintf(line, sizeof line,
                     "hall: %s/%s, broker %s, %lu connects, %lu events queued, %lu dropped, %lu "
                     "commands (%lu refused)\n",
                     d->cfg->hall.tournament, d->cfg->hall.table,
                     ps.connected ? "connected" : "NOT CONNECTED", ps.connects, ps.queued,
                     ps.dropped, h->cmds, h->refused);
    }
    tb_daemon__buf_put(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

const struct tb_daemon__part tb_daemon__part_hall = {
    .name = "hall",
    .open = hall_open,
    .close = hall_close,
    .pollfds = hall_pollfds,
    .handle = hall_handle,
    .deadline = hall_deadline,
    .status = hall_status,
};
