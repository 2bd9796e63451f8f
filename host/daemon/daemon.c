/* daemon.c - twinboardd's loop: a shell of parts (boards, control socket, hall, broadcast,
 * braille, voice, the game's clock, games kept, the journal's writer), each an ops table; one poll
 * over their fds, signals and a wake-up pipe; the timeout is the nearest deadline, so an idle
 * daemon sleeps. */
#define _GNU_SOURCE /* signalfd_siginfo */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "daemon_boards.h"
#include "daemon_ctl.h"
#include "daemon_inputs.h"
#include "daemon_export.h"
#include "daemon_bugmode.h"
#include "daemon_shell.h"
#include "daemon_result.h"
#include "daemon_session.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

void tb_daemon_options_default(struct tb_daemon_options *o)
{
    memset(o, 0, sizeof *o);
    struct tb_config_place place;
    tb_config_place_from_env(&place);
    tb_config_defaults(&o->cfg, &place, NULL);
    o->signal_fd = -1;
}

static void match_config(struct tb_daemon *d)
{
    struct tb_match_config mcfg;
    tb_match_config_default(&mcfg);
    for (int b = 0; b < TBD_BOARDS; b++) {
        mcfg.board[b].role = b == 0 ? TB_MATCH_VI : TB_MATCH_SIGHTED;
        mcfg.board[b].color = (int)d->cfg->player[b].colour;
        mcfg.board[b].typed = tb_daemon__board_caps(d, b) & TB_LINK_CAP_TYPED;
        snprintf(mcfg.board[b].name, sizeof mcfg.board[b].name, "%s",
                 tb_config_role_name((enum tb_config_role)b));
    }
    mcfg.sensor.blip_ms = (uint32_t)d->cfg->blip_window_ms;
    mcfg.sensor.wobble_ms = (uint32_t)d->cfg->blip_window_ms; /* lifted and put back: no touch */
    /* 4.6: a promotion waiting this long for its piece: the player is asked */
    mcfg.sensor.promo_prompt_ms = (uint32_t)d->cfg->promotion_prompt_ms;
    tb_daemon__set_match_config(d, &mcfg);
}

int tb_daemon_new(const struct tb_daemon_options *o, struct tb_daemon **out, struct tb_error *err)
{
    struct tb_daemon *d = calloc(1, sizeof *d);
    if (!d)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    d->opt = *o;
    d->cfg = &d->opt.cfg;
    d->wake_pipe[0] = d->wake_pipe[1] = -1;
    d->mono_start = tb_daemon__mono_ms();
    d->status_parts = tb_daemon__parts_status; /* their lines after the game's in status */
    d->inputs = tb_daemon__inputs;             /* how each input is taken (daemon_inputs.c) */
    snprintf(d->socket_path, sizeof d->socket_path, "%s",
             o->socket_path ? o->socket_path : d->cfg->socket_path);
    if (strlen(d->socket_path) < sizeof d->cfg->socket_path)
        memcpy(d->cfg->socket_path, d->socket_path, strlen(d->socket_path) + 1); /* for the log */
    if (o->journal_dir)
        snprintf(d->cfg->journal_dir, sizeof d->cfg->journal_dir, "%s", o->journal_dir);

    int rc;
    /* the game's session first: every part reads it, closing ones too */
    if ((rc = tb_daemon__session_new(d, err)) != TB_OK) {
        free(d);
        return rc;
    }
    /* the socket's and the journal's directories: made and checked (daemon_paths.c) */
    if ((rc = tb_daemon__paths_prepare(d, err)) != TB_OK)
        goto fail;
    if ((rc = tb_daemon__boards_plan(d, err)) != TB_OK)
        goto fail;
    if ((rc = tb_daemon__boards_blip(d, err)) != TB_OK) /* a script's own blip window */
        goto fail;
    match_config(d);
    if ((rc = tb_daemon__bug_open(d, err)) != TB_OK) /* doorgeefschaak: before recovery */
        goto fail;
    if ((rc = tb_daemon__result_open(d, err)) != TB_OK) /* the first game's tags, no result */
        goto fail;
    if (pipe2(d->wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        rc = tb_error_set(err, TB_ERR_SYS, "pipe: %s", strerror(errno));
        goto fail;
    }
    for (int i = 0; i < TBD_NPARTS; i++) {
        const struct tb_daemon__part *part = tb_daemon__parts_opened[i];
        if (part->open && (rc = part->open(d, err)) != TB_OK)
            goto fail; /* those opened before it close in tb_daemon_free */
    }
    char summary[1024];
    tb_config_summary(d->cfg, summary, sizeof summary);
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "started: %s", summary);
    tb_daemon__pin_start(d); /* the PIN: a change kept from set-pin, the length warning */
    *out = d;
    return TB_OK;
fail:
    tb_daemon_free(d);
    return rc;
}

void tb_daemon_free(struct tb_daemon *d)
{
    if (!d)
        return;
    for (int i = TBD_NPARTS; i-- > 0;) { /* a journal write under way ends first */
        const struct tb_daemon__part *part = tb_daemon__parts_opened[i];
        if (part->close)
            part->close(d);
    }
    tb_daemon__journal_close(d);
    tb_daemon__bug_free(d); /* doorgeefschaak (its BPGN kept as the games kept closed) */
    tb_daemon__session_free(d);
    tb_daemon__result_free(d);
    for (int i = 0; i < 2; i++)
        if (d->wake_pipe[i] >= 0)
            close(d->wake_pipe[i]);
    free(d);
}

void tb_daemon_stop(struct tb_daemon *d)
{
    d->stop = true;
    if (d->wake_pipe[1] >= 0) {
        ssize_t w = write(d->wake_pipe[1], "x", 1);
        (void)w;
    }
}

void tb_daemon_counters(const struct tb_daemon *d, struct tb_daemon_counters *c)
{
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    c->wakeups = d->wakeups;
    c->events = d->events;
    int agreed = tb_daemon__agreed(d);
    c->plies = agreed < st.plies ? agreed : st.plies; /* carried out, on disk */
    c->mismatch = st.state == TB_MATCH_BLOCKED ? st.mismatch : 0;
    c->done = d->done;
    struct tb_journal_state js = {0};
    if (tb_daemon__journal(d))
        tb_journal_state(tb_daemon__journal(d), &js);
    c->journal_last_seq = js.last_seq;
    c->journal_durable_seq = js.durable_seq;
    c->journal_stopped = tb_daemon__jstopped(d);
    c->journal_writing = tb_daemon__writing(d);
}

static void handle_signals(struct tb_daemon *d)
{
    struct signalfd_siginfo si;
    while (read(d->opt.signal_fd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGHUP) {
            struct tb_daemon__buf b = {0};
            tb_daemon__status(d, &b);
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "status on SIGHUP:\n%.*s", (int)b.len,
                           b.p ? b.p : "");
            free(b.p);
        } else {
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "signal %u: stopping", si.ssi_signo);
            d->stop = true;
        }
    }
}

/* The match's next decision: the twin game's, or doorgeefschaak's (daemon_bug.c). */
static uint64_t game_deadline(const struct tb_daemon *d)
{
    uint64_t md = tb_match_deadline(tb_daemon__match(d)), bd = tb_daemon__bug_deadline(d);
    return bd < md ? bd : md;
}

/* Done: every script has ended and been fed, the match has nothing pending, speech drained. */
static bool finished(struct tb_daemon *d)
{
    if (!d->opt.exit_when_done || !tb_daemon__boards_all_ended(d) || tb_daemon__boards_pending(d))
        return false;
    if (tb_daemon__journal_held(d) || tb_daemon__writing(d))
        return false; /* play resumes once the journal can be written */
    if (game_deadline(d) != UINT64_MAX || tb_daemon__vi_deadline(d) != UINT64_MAX)
        return false;
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    if (st.state == TB_MATCH_BLOCKED || st.state == TB_MATCH_RESTORING)
        return false; /* waiting for the arbiter */
    return tb_daemon__voice_idle(d);
}

/* Poll timeout in ms: the nearest of the parts' deadlines and the match's. */
static int timeout_ms(struct tb_daemon *d, uint64_t now, int max_wait)
{
    uint64_t dl = UINT64_MAX, md = UINT64_MAX; /* the parts', the match's */
    for (int i = 0; i < TBD_NPARTS; i++) {
        const struct tb_daemon__part *part = tb_daemon__parts_served[i];
        if (!part->deadline)
            continue;
        uint64_t x = part->deadline(d);
        uint64_t *into = part->match_time ? &md : &dl;
        if (x < *into)
            *into = x;
    }
    if (tb_daemon__journal_held(d)) {
        /* the match is frozen until the journal is written: only the retry is due */
    } else if (!d->virtual_time) {
        if (game_deadline(d) < md)
            md = game_deadline(d);
        if (tb_daemon__vi_deadline(d) < md) /* a promote button's choice to take */
            md = tb_daemon__vi_deadline(d);
        if (md < dl)
            dl = md;
    } else if (tb_daemon__boards_pending(d) && !tb_daemon__boards_paused(d)) {
        dl = 0;
    } else if (tb_daemon__boards_all_ended(d) && !tb_daemon__boards_pending(d) &&
               (game_deadline(d) != UINT64_MAX || tb_daemon__vi_deadline(d) != UINT64_MAX)) {
        dl = 0; /* virtual time runs on to the match's last decision */
    }
    uint64_t retry = tb_daemon__journal_retry(d, now);
    if (retry < dl)
        dl = retry;
    long t = -1;
    if (dl != UINT64_MAX)
        t = dl <= now ? 0 : (long)(dl - now > 3600000 ? 3600000 : dl - now);
    if (d->opt.exit_when_done && !d->virtual_time && tb_daemon__boards_all_ended(d) &&
        !tb_daemon__voice_idle(d) && (t < 0 || t > 20))
        t = 20; /* speech has no fd event for "idle": look again shortly */
    if (max_wait >= 0 && (t < 0 || t > max_wait))
        t = max_wait;
    return (int)t;
}

/* Virtual time after the scripts: take the match's remaining decisions. */
static void virtual_drain(struct tb_daemon *d)
{
    if (!d->virtual_time || tb_daemon__journal_held(d) || !tb_daemon__boards_all_ended(d) ||
        tb_daemon__boards_pending(d))
        return;
    for (int i = 0; i < 64; i++) {
        uint64_t md = game_deadline(d);
        if (tb_daemon__vi_deadline(d) < md) /* a promote button's choice to take */
            md = tb_daemon__vi_deadline(d);
        if (md == UINT64_MAX)
            break;
        if (md > d->vnow)
            d->vnow = md;
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_TIME},
                         tb_daemon__match_time(d), NULL);
    }
}

int tb_daemon_step(struct tb_daemon *d, int max_wait_ms)
{
    if (d->stop || d->done)
        return 0;
    /* the wake pipe, signals; the journal's writer, the voice; the links, the braille displays; the
     * listener, sweep timer and clients; the broadcast's pty, listener and readers; the hall's
     * broker */
    enum { MAXFD = 5 + TBD_BOARDS + TBD_MAX_CLIENTS + 2 + TBD_BOARDS + 2 + 64 + 1 };
    struct pollfd p[MAXFD];
    int n = 0, sig_i = -1, wake_i = n, at[TBD_NPARTS + 1];
    p[n++] = (struct pollfd){.fd = d->wake_pipe[0], .events = POLLIN};
    if (d->opt.signal_fd >= 0) {
        sig_i = n;
        p[n++] = (struct pollfd){.fd = d->opt.signal_fd, .events = POLLIN};
    }
    for (int i = 0; i < TBD_NPARTS; i++) { /* each part's slice of the poll */
        at[i] = n;
        const struct tb_daemon__part *part = tb_daemon__parts_served[i];
        if (part->pollfds)
            n += part->pollfds(d, p + n, MAXFD - n);
    }
    at[TBD_NPARTS] = n;

    int r = poll(p, (nfds_t)n, timeout_ms(d, tb_daemon__clock(d), max_wait_ms));
    if (r < 0 && errno != EINTR) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "poll: %s", strerror(errno));
        return TB_ERR_SYS;
    }
    d->wakeups++;
    if (r > 0 && (p[wake_i].revents & POLLIN)) {
        char buf[64];
        while (read(d->wake_pipe[0], buf, sizeof buf) > 0)
            ;
    }
    if (sig_i >= 0 && (p[sig_i].revents & POLLIN))
        handle_signals(d);
    for (int i = 0; i < TBD_NPARTS; i++) {
        const struct tb_daemon__part *part = tb_daemon__parts_served[i];
        int rc = part->handle ? part->handle(d, p + at[i], at[i + 1] - at[i]) : TB_OK;
        if (rc < 0)
            return rc;
    }
    tb_daemon__boards_feed(d);
    if (!d->virtual_time)
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_TIME},
                         tb_daemon__match_time(d), NULL);
    tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_DRAIN}, 0, NULL);
    virtual_drain(d);
    /* Board events not yet written go to the writer now (no sync); a failure stops play once. */
    tb_daemon__journal_flush(d);
    tb_daemon__ctl_waiting(d); /* requests that waited for the journal */
    if (finished(d)) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO,
                       "done: the scripts have ended and speech has drained");
        d->done = true;
    }
    return d->stop || d->done ? 0 : 1;
}

int tb_daemon_run(struct tb_daemon *d)
{
    int rc;
    while ((rc = tb_daemon_step(d, -1)) > 0)
        ;
    return rc < 0 ? rc : 0;
}
