/* daemon_ctl.h - the control socket part (daemon_ctl.c) and its refusals in the log
 * (daemon_refusals.c) and set-pin (daemon_pin.c): what the other files of the daemon call. The
 * part's state (struct tb_daemon__ctl: the socket, its clients, the wrong-PIN guard, the
 * refusals' rate limit, the configured PIN) is its own: made by its open, freed by its close. */
#ifndef TB_DAEMON_CTL_H
#define TB_DAEMON_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_config.h"
#include "tb_ctl.h"

#define TBD_MAX_CLIENTS 64 /* connections in total (docs/control-protocol.md, "Limits") */

struct tb_daemon;
struct tb_daemon__buf;

/* A connection to the control socket. */
struct tb_daemon__client {
    int fd;
    int timer_fd; /* due: a held PIN check or answer, or more requests already read */
    uint32_t uid; /* the peer (SO_PEERCRED) */
    int32_t pid;
    struct tb_ctl_reader reader;
    char in[4096]; /* read, not yet taken: one request per loop turn */
    size_t in_off, in_len;
    struct tb_ctl_request held; /* a PIN request waiting until its check may be made */
    bool held_on;
    char *answer;   /* a wrong PIN's answer, held back until the timer */
    uint64_t since; /* connected or last answered (monotonic ms): TBD_REQUEST_MS from here */
    bool timer_due;
    char *out;
    size_t out_len, out_cap;
    bool closing; /* close once out is written */
    /* journal writer: a game-changing request waits for the journal (nothing read meanwhile) */
    unsigned long ticket;       /* its answer comes with the session's ticket of this id */
    struct tb_ctl_request wait; /* PIN checked: served once the game is no longer held */
    bool wait_on;
};

/* The part's state: made by its open, freed by its close (d->ctl, NULL meanwhile). Defined here,
 * not in daemon_ctl.c alone, for daemon_refusals.c: a call from it into daemon_ctl.c for the
 * refusals' limit would close a circle of calls between the two files. */
struct tb_daemon__ctl {
    int listen_fd;
    struct tb_daemon__client client[TBD_MAX_CLIENTS];
    int nclients;
    int lock_fd;                     /* flock'd lock file beside the socket */
    int sweep_fd;                    /* timerfd: the next client's request deadline */
    struct tb_ctl_guard guard;       /* wrong PINs: delays and lockouts (the hall's commands too) */
    struct tb_ctl_loglimit refusals; /* refused requests in the log (daemon_refusals.c) */
    /* set-pin: the configuration's PIN (what a kept PIN replaced), the request's peer */
    char configured_pin[TB_CONFIG_PIN_MAX + 1];
    uint32_t req_uid;
    int32_t req_pid;
};

/* daemon_ctl.c */
/* Requests that waited for the journal: answered or served now if they can be. */
void tb_daemon__ctl_waiting(struct tb_daemon *d);
/* The wrong-PIN guard (ctlguard.c) the socket's requests and the hall's broker commands share:
 * one count of wrong PINs per peer. It exists from the part's open to its close; the hall asks
 * for it only in its handle slot, which the loop runs once every part is open. */
struct tb_ctl_guard *tb_daemon__ctl_guard(struct tb_daemon *d);
/* An arbiter's action from inside the daemon (the hall's broker), taken as a socket client's
 * request is and never waiting on the loop: TB_ERR_AGAIN while it waits for the journal, before
 * it is taken (*ticket 0: start it again later) or for its record (*ticket set: ask
 * tb_daemon__arbiter_outcome, TB_ERR_AGAIN until it is on disk); else its outcome. */
int tb_daemon__arbiter_start(struct tb_daemon *d, const struct tb_ctl_request *req,
                             unsigned long *ticket, struct tb_error *err);
int tb_daemon__arbiter_outcome(struct tb_daemon *d, unsigned long ticket, struct tb_error *err);
/* Runs one request, parsed and its PIN checked, appending the response to out. */
void tb_daemon__request(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out);
/* The handler of each request (its row's in TB_CTL_VERBS): answers into out itself
 * (TBD_ANSWERED), or returns TB_OK ("ok") or an error err names; TB_ERR_AGAIN with the session's
 * ticket open: answered once its record is on disk. */
#define TBD_ANSWERED 1
#define TBD_CTL_HANDLER(id, name, min, max, flags, h, ...)                                         \
    int tb_daemon__ctl_##h(struct tb_daemon *d, const struct tb_ctl_request *req,                  \
                           struct tb_daemon__buf *out, struct tb_error *err);
TB_CTL_VERBS(TBD_CTL_HANDLER)
#undef TBD_CTL_HANDLER

/* daemon_refusals.c: a request of peer (a uid, or tb_ctl_guard_peer_named) refused: logged at
 * level as it is while few come, else counted and summed up per peer once a minute
 * (docs/control-protocol.md, "The log"). Times are CLOCK_MONOTONIC ms, as the guard's. Before
 * the part opens (or after it closed) a refusal is logged as it is. */
void tb_daemon__refusal(struct tb_daemon *d, uint64_t peer, bool wrong_pin,
                        enum tb_config_log level, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void tb_daemon__refusals_flush(struct tb_daemon *d); /* the summary of a minute that ended */
void tb_daemon__peer_name(uint64_t peer, char *buf, size_t len); /* "uid 1000" */

/* daemon_pin.c: the arbiter PIN changed without a restart (set-pin), kept in the state
 * directory; the length warning at start. configured: the configuration's PIN, which a kept PIN
 * replaces (the control part notes it at its open, before tb_daemon__pin_start). */
void tb_daemon__pin_start(struct tb_daemon *d);
int tb_daemon__set_pin(struct tb_daemon *d, const struct tb_ctl_request *req, uint32_t uid,
                       int32_t pid, const char *configured, char *note, size_t len,
                       struct tb_error *err);

#endif /* TB_DAEMON_CTL_H */
