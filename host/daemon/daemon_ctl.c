/* daemon_ctl.c - the control socket (docs/control-protocol.md): a Unix stream socket, mode 0660,
 * guarded by a lock file; many clients (limited per uid and in total), each with a bounded
 * request line (tb_ctl_reader), a deadline for its request, one request served per loop turn,
 * a bounded answer queue, and wrong PINs held back (ctlguard.c). */
#define _GNU_SOURCE /* accept4, struct ucred */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon_boards.h"
#include "daemon_ctl.h"
#include "daemon_games.h"
#include "daemon_inputs.h"
#include "daemon_export.h"
#include "daemon_bugmode.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_session.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

#define TBD_MAX_CLIENTS_UID 16    /* connections of one peer uid */
#define TBD_REQUEST_MS      10000 /* a connection sends a whole request within this, or is dropped */
#define TBD_OUT_MAX         (1u << 20) /* a client that lets this much answer pile up is dropped */

void tb_daemon__buf_put(struct tb_daemon__buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void put_line(struct tb_daemon__buf *out, int n, const char *line)
{
    if (n > 0)
        tb_daemon__buf_put(out, line, (size_t)n);
}

static void reply_ok(struct tb_daemon__buf *out, const char *text)
{
    char line[TB_CTL_LINE_MAX + 64];
    put_line(out, tb_ctl_format_ok(line, sizeof line, text), line);
}

static void reply_error(struct tb_daemon__buf *out, int code, const char *msg)
{
    char line[600];
    put_line(out, tb_ctl_format_error(line, sizeof line, code, msg), line);
}

void tb_daemon__data(struct tb_daemon__buf *out, const char *head, const char *text)
{
    char line[4200];
    put_line(out, tb_ctl_format_data_begin(line, sizeof line, head), line);
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        char one[4096];
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), text);
        put_line(out, tb_ctl_format_data(line, sizeof line, one), line);
        text += n + (nl ? 1 : 0);
    }
    put_line(out, tb_ctl_format_end(line, sizeof line), line);
}

/* ---- the handlers of TB_CTL_VERBS -------------------------------------------------------- */

int tb_daemon__ctl_status(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)req, (void)err;
    tb_daemon__status(d, out);
    return TBD_ANSWERED;
}

int tb_daemon__ctl_moves(struct tb_daemon *d, const struct tb_ctl_request *req,
                         struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)req, (void)err;
    tb_daemon__moves(d, out);
    return TBD_ANSWERED;
}

static enum tb_chess_letters letters(const char *lang)
{
    return !strcmp(lang, "nl")   ? TB_CHESS_LETTERS_NL
           : !strcmp(lang, "de") ? TB_CHESS_LETTERS_DE
                                 : TB_CHESS_LETTERS_EN;
}

/* pgn and scoresheet */
int tb_daemon__ctl_pgn(struct tb_daemon *d, const struct tb_ctl_request *req,
                       struct tb_daemon__buf *out, struct tb_error *err)
{
    int rc = tb_daemon__pgn(d, letters(req->lang), req->verb == TB_CTL_SCORESHEET, out);
    return rc < 0 ? tb_error_set(err, rc, "the game cannot be written") : TBD_ANSWERED;
}

/* resolve, takeback, set-position, result (broadcast), clock-set (the game's clock) */
int tb_daemon__ctl_arbiter(struct tb_daemon *d, const struct tb_ctl_request *req,
                           struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)out;
    return tb_daemon__arbiter(d, req, err);
}

int tb_daemon__ctl_new_game(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_daemon__buf *out, struct tb_error *err)
{
    if (tb_daemon__mode(d)->new_match) /* doorgeefschaak: a new match */
        return tb_daemon__mode(d)->new_match(d, req, err);
    return tb_daemon__ctl_arbiter(d, req, out, err);
}

/* D.2.1: the promoting player announces the piece: the player to move, on their board */
int tb_daemon__ctl_promote(struct tb_daemon *d, const struct tb_ctl_request *req,
                           struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)out;
    int side = tb_match_game(tb_daemon__match(d))->pos.side, b = tb_daemon__board_of_color(d, side);
    if (req->board >= 0 && req->board != b)
        return tb_error_set(err, TB_ERR_STATE,
                            "%s is to move, on the %s board: the %s board's player has no "
                            "promotion to announce",
                            side == TB_CHESS_WHITE ? "White" : "Black", tb_daemon__board_name(b),
                            tb_daemon__board_name(req->board));
    return tb_daemon__promote(d, b, tb_daemon__promotion(req->piece), err);
}

int tb_daemon__ctl_repeat(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)out, (void)err;
    for (int b = 0; b < TBD_BOARDS; b++)
        if (req->board < 0 || req->board == b)
            tb_daemon__repeat(d, b);
    return TB_OK;
}

/* D.2.10.1: a typed move for a keys: board (a|b: doorgeefschaak's) */
int tb_daemon__ctl_move(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err)
{
    if (req->bug_board)
        return tb_daemon__bug_move(d, req, out, err);
    if (!(tb_daemon__board_caps(d, req->board) & TB_LINK_CAP_TYPED))
        return tb_error_set(err, TB_ERR_SUPP,
                            "the %s board is %s, it has sensors: only a keys: board takes typed "
                            "moves",
                            tb_daemon__board_name(req->board),
                            tb_daemon__board_resource(d, req->board));
    int rc = tb_daemon__typed_move(d, req->board, req->text, err);
    if (rc != TB_OK && !(rc == TB_ERR_AGAIN && tb_daemon__ticket_id(d)))
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: typed move '%s' refused: %s",
                       tb_daemon__board_name(req->board), req->text, err->msg);
    return rc;
}

int tb_daemon__ctl_help(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)d, (void)req, (void)err;
    struct tb_daemon__buf t = {0};
    for (int i = 0; tb_ctl_help_line(i); i++) {
        tb_daemon__buf_put(&t, tb_ctl_help_line(i), strlen(tb_ctl_help_line(i)));
        tb_daemon__buf_put(&t, "\n", 1);
    }
    tb_daemon__data(out, "requests", t.p);
    free(t.p);
    return TBD_ANSWERED;
}

/* the VI player on their own */
int tb_daemon__ctl_review(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)err;
    tb_daemon__review_request(d, req, out);
    return TBD_ANSWERED;
}

/* the PIN changed without a restart (daemon_pin.c) */
int tb_daemon__ctl_set_pin(struct tb_daemon *d, const struct tb_ctl_request *req,
                           struct tb_daemon__buf *out, struct tb_error *err)
{
    char note[300];
    int rc = tb_daemon__set_pin(d, req, d->ctl->req_uid, d->ctl->req_pid, d->ctl->configured_pin,
                                note, sizeof note, err);
    if (rc == TB_OK)
        reply_ok(out, note);
    return rc == TB_OK ? TBD_ANSWERED : rc;
}

/* games kept */
int tb_daemon__ctl_games(struct tb_daemon *d, const struct tb_ctl_request *req,
                         struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)req, (void)err;
    tb_daemon__games(d, out);
    return TBD_ANSWERED;
}

typedef int tbd_ctl_handler(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_daemon__buf *out, struct tb_error *err);
#define TBD_CTL_ROW(id, name, min, max, flags, h, ...) [TB_CTL_##id] = tb_daemon__ctl_##h,
static tbd_ctl_handler *const handlers[TB_CTL_NVERBS] = {TB_CTL_VERBS(TBD_CTL_ROW)};
#undef TBD_CTL_ROW

/* ---- journal writer: game-changing requests wait for their record ----------------------- */

static bool changes_game(enum tb_ctl_verb v)
{
    const struct tb_ctl_verb_info *info = tb_ctl_verb_info(v);
    return info && (info->flags & TB_CTL_CHANGES);
}

/* A game-changing request waits while the game is held for the journal (not when it cannot be
 * written: then it is refused) or while another one's record is being written. */
static bool must_wait(const struct tb_daemon *d)
{
    return (tb_daemon__journal_held(d) && !tb_daemon__jstopped(d)) || tb_daemon__ticket_waits(d);
}

/* The answer of ticket id, once there is one. false: not yet. */
static bool ticket_answer(struct tb_daemon *d, unsigned long id, struct tb_daemon__buf *out)
{
    struct tb_error err = {0};
    char said[TBD_TICKET_SAID];
    snprintf(said, sizeof said, "%s", tb_daemon__ticket_said(d));
    int rc = tb_daemon__ticket_outcome(d, id, &err);
    if (rc == TB_ERR_AGAIN)
        return false;
    if (rc == TB_OK)
        reply_ok(out, said[0] ? said : NULL);
    else
        reply_error(out, rc, err.msg);
    return true;
}

/* A request the table's mode does not take (its row's modes), refused with what to do instead:
 * true when it was. */
static bool other_mode(struct tb_daemon *d, const struct tb_ctl_request *req,
                       struct tb_daemon__buf *out)
{
    unsigned modes = tb_ctl_request_modes(req);
    if (modes & tb_daemon__mode(d)->ctl_modes)
        return false;
    /* the mode the request is for, named as its table names it */
    const struct tb_daemon__mode *const known[] = {&tb_daemon__twin, &tb_daemon__doorgeefschaak};
    const struct tb_daemon__mode *wanted = known[0];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i]->ctl_modes & modes)
            wanted = known[i];
    bool bug = modes & TB_CTL_BUG, by_board = tb_ctl_verb_info(req->verb)->flags & TB_CTL_BY_BOARD;
    char msg[300];
    snprintf(msg, sizeof msg, "%s%s is for %s: this daemon runs %s ([bughouse] enabled = %s)%s",
             tb_ctl_verb_name(req->verb),
             !by_board ? ""
             : bug     ? " a|b"
                       : " vi|sighted",
             wanted->name, tb_daemon__mode(d)->name, tb_daemon__mode(d)->enabled,
             tb_daemon__mode(d)->requests);
    reply_error(out, TB_ERR_STATE, msg);
    return true;
}

void tb_daemon__request(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out)
{
    struct tb_error err = {0};
    tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "control: %s", tb_ctl_verb_name(req->verb));
    if (other_mode(d, req, out))
        return;
    tb_daemon__ticket_want(d, changes_game(req->verb)); /* journal writer: answered once on disk */
    int rc = handlers[req->verb](d, req, out, &err);
    tb_daemon__ticket_want(d, false);
    if (rc == TBD_ANSWERED)
        return;
    if (rc == TB_ERR_AGAIN && tb_daemon__ticket_id(d)) {
        out->ticket = tb_daemon__ticket_id(d);
        return;
    }
    if (rc != TB_OK)
        reply_error(out, rc, err.msg[0] ? err.msg : "not possible now");
    else
        reply_ok(out, NULL);
}

/* A request line parsed, the one time it is: false (answered into out) when it is no request. */
static bool parse(struct tb_daemon *d, const char *line, size_t len, struct tb_ctl_request *req,
                  struct tb_daemon__buf *out)
{
    struct tb_error err = {0};
    int rc = tb_ctl_parse(line, len, req, &err);
    if (rc == TB_OK)
        return true;
    tb_daemon__refusal(d, d->ctl->req_uid, false, TB_CONFIG_LOG_INFO,
                       "control: refused (uid %u pid %d): %s", (unsigned)d->ctl->req_uid,
                       (int)d->ctl->req_pid, err.msg);
    reply_error(out, rc, err.msg);
    return false;
}

/* A request that needs the PIN while none is configured or none is given: refused (true). */
static bool pin_missing(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out)
{
    struct tb_error err = {0};
    int rc = tb_ctl_pin_missing(req, d->cfg->arbiter_pin, &err);
    if (rc == TB_OK)
        return false;
    tb_daemon__refusal(d, d->ctl->req_uid, false, TB_CONFIG_LOG_WARN,
                       "control: %s refused (uid %u pid %d): %s", tb_ctl_verb_name(req->verb),
                       (unsigned)d->ctl->req_uid, (int)d->ctl->req_pid, err.msg);
    reply_error(out, rc, err.msg);
    return true;
}

int tb_daemon__arbiter_start(struct tb_daemon *d, const struct tb_ctl_request *req,
                             unsigned long *ticket, struct tb_error *err)
{
    *ticket = 0;
    if (must_wait(d)) /* the journal first, as a socket client's request waits unread */
        return TB_ERR_AGAIN;
    tb_daemon__ticket_want(d, true);
    int rc = tb_daemon__arbiter(d, req, err);
    tb_daemon__ticket_want(d, false);
    if (rc == TB_ERR_AGAIN && tb_daemon__ticket_id(d))
        *ticket = tb_daemon__ticket_id(d); /* done once its record is on disk */
    return rc;
}

int tb_daemon__arbiter_outcome(struct tb_daemon *d, unsigned long ticket, struct tb_error *err)
{
    return tb_daemon__ticket_outcome(d, ticket, err);
}

int tb_daemon_request(struct tb_daemon *d, const char *line, char *out, size_t len)
{
    struct tb_daemon__ctl *s = d->ctl;
    struct tb_daemon__buf b = {0};
    s->req_uid = (uint32_t)getuid(); /* in-process: this process asks */
    s->req_pid = (int32_t)getpid();
    struct tb_ctl_request req;
    if (parse(d, line, strlen(line), &req, &b) && !pin_missing(d, &req, &b)) {
        uint64_t delay;
        bool locked; /* the guard counts it as it counts a client's; nothing here is held */
        if (req.needs_pin && tb_ctl_guard_check(&s->guard, s->req_uid, &req, d->cfg->arbiter_pin,
                                                tb_daemon__mono_ms(), &delay, &locked) != TB_OK) {
            tb_daemon__refusal(d, s->req_uid, true, TB_CONFIG_LOG_WARN,
                               "control: %s refused (uid %u pid %d): wrong arbiter PIN",
                               tb_ctl_verb_name(req.verb), (unsigned)s->req_uid, (int)s->req_pid);
            reply_error(&b, TB_ERR_PERM, "wrong arbiter PIN");
        } else {
            /* in-process, a game-changing request waits here for the journal as a client would */
            if (changes_game(req.verb))
                tb_daemon__journal_settle(d);
            tb_daemon__request(d, &req, &b);
        }
    }
    if (b.ticket) {
        tb_daemon__journal_settle(d);
        ticket_answer(d, b.ticket, &b);
    }
    tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_DRAIN}, 0, NULL);
    int n = b.failed ? TB_ERR_MEM : (int)b.len;
    if (n >= 0 && (size_t)n >= len)
        n = TB_ERR_FULL;
    if (len)
        snprintf(out, len, "%s", b.p ? b.p : "");
    free(b.p);
    return n;
}

/* ---- the socket -------------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
    return tb_daemon__mono_ms();
}

static void arm(int fd, uint64_t at_ms)
{
    struct itimerspec it = {0};
    it.it_value.tv_sec = (time_t)(at_ms / 1000u);
    it.it_value.tv_nsec = (long)(at_ms % 1000u) * 1000000L;
    if (!it.it_value.tv_sec && !it.it_value.tv_nsec)
        it.it_value.tv_nsec = 1; /* 0 would disarm it */
    timerfd_settime(fd, TFD_TIMER_ABSTIME, &it, NULL);
}

/* A running daemon keeps an exclusive flock on SOCKET.lock: a second daemon names it and leaves
 * the socket alone, and a socket file without a locked lock file is a stopped daemon's. */
static int take_lock(struct tb_daemon *d, struct tb_error *err)
{
    char path[sizeof d->socket_path + 8];
    snprintf(path, sizeof path, "%s.lock", d->socket_path);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "control socket lock %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        close(fd);
        return tb_error_set(err, TB_ERR_PERM,
                            "control socket lock %s: not a regular file of this user", path);
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        close(fd);
        return tb_error_set(err, TB_ERR_STATE,
                            "control socket %s: another twinboardd (pid %s) is running; "
                            "stop it first or use another --socket",
                            d->socket_path, pid[0] ? pid : "?");
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "control socket lock %s: cannot write the pid", path);
    d->ctl->lock_fd = fd;
    return TB_OK;
}

static int ctl_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__ctl *s = calloc(1, sizeof *s);
    if (!s)
        return tb_error_set(err, TB_ERR_MEM, "control socket: out of memory");
    s->listen_fd = s->lock_fd = s->sweep_fd = -1;
    tb_ctl_guard_init(&s->guard);
    tb_ctl_loglimit_init(&s->refusals, now_ms());
    /* before tb_daemon__pin_start puts a PIN kept by set-pin in the configuration's place */
    snprintf(s->configured_pin, sizeof s->configured_pin, "%s", d->cfg->arbiter_pin);
    d->ctl = s;
    if (!d->socket_path[0])
        return TB_OK;
    union { /* the address as bind() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_un un;
    } addr = {.un.sun_family = AF_UNIX};
    if (strlen(d->socket_path) >= sizeof addr.un.sun_path)
        return tb_error_set(err, TB_ERR_ARG, "control socket %s: path too long", d->socket_path);
    strcpy(addr.un.sun_path, d->socket_path);
    int rc = take_lock(d, err);
    if (rc != TB_OK)
        return rc;
    /* locked: whatever is at the path is left over from a stopped daemon (or planted) */
    struct stat st;
    if (lstat(d->socket_path, &st) == 0 && !S_ISSOCK(st.st_mode))
        return tb_error_set(err, TB_ERR_PERM,
                            "control socket %s: something that is no socket is there; "
                            "remove it by hand",
                            d->socket_path);
    unlink(d->socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "socket: %s", strerror(errno));
    mode_t old = umask(0117);
    rc = bind(fd, &addr.sa, sizeof addr.un);
    umask(old);
    if (rc != 0 || chmod(d->socket_path, 0660) != 0 || listen(fd, 64) != 0) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "control socket %s: %s", d->socket_path, strerror(e));
    }
    s->listen_fd = fd;
    s->sweep_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (s->sweep_fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "timerfd: %s", strerror(errno));
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "control socket %s", d->socket_path);
    return TB_OK;
}

static void drop(struct tb_daemon *d, int i)
{
    struct tb_daemon__ctl *s = d->ctl;
    close(s->client[i].fd);
    close(s->client[i].timer_fd);
    free(s->client[i].out);
    free(s->client[i].answer);
    s->client[i] = s->client[--s->nclients];
}

static void ctl_close(struct tb_daemon *d)
{
    struct tb_daemon__ctl *s = d->ctl;
    if (!s) /* never opened, or closed already */
        return;
    while (s->nclients)
        drop(d, s->nclients - 1);
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
        unlink(d->socket_path);
    }
    if (s->sweep_fd >= 0)
        close(s->sweep_fd);
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* the lock file stays: removing it would race a starting daemon */
    free(s);
    d->ctl = NULL;
}

struct tb_ctl_guard *tb_daemon__ctl_guard(struct tb_daemon *d)
{
    return &d->ctl->guard;
}

/* The earliest request deadline among the clients that wait for a request. */
static void arm_sweep(struct tb_daemon *d)
{
    struct tb_daemon__ctl *s = d->ctl;
    uint64_t due = UINT64_MAX;
    for (int i = 0; i < s->nclients; i++) {
        const struct tb_daemon__client *c = &s->client[i];
        if (!c->closing && !c->held_on && !c->answer && c->since + TBD_REQUEST_MS < due)
            due = c->since + TBD_REQUEST_MS;
    }
    if (tb_ctl_log_due(&s->refusals) < due) /* the refusals' summary of the minute */
        due = tb_ctl_log_due(&s->refusals);
    if (due == UINT64_MAX) {
        struct itimerspec off = {0};
        timerfd_settime(s->sweep_fd, 0, &off, NULL);
    } else {
        arm(s->sweep_fd, due);
    }
}

static int ctl_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    struct tb_daemon__ctl *s = d->ctl;
    int n = 0;
    if (s->listen_fd < 0)
        return 0;
    if (n < max)
        p[n++] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
    if (s->sweep_fd >= 0 && n < max) {
        arm_sweep(d);
        p[n++] = (struct pollfd){.fd = s->sweep_fd, .events = POLLIN};
    }
    for (int i = 0; i < s->nclients && n < max; i++) {
        struct tb_daemon__client *c = &s->client[i];
        if (c->ticket || c->wait_on) { /* waits for the journal: only its answer goes out */
            p[n++] = (struct pollfd){.fd = c->fd, .events = (short)(c->out_len ? POLLOUT : 0)};
            continue;
        }
        if (c->timer_due) { /* nothing is read meanwhile: its turn comes with the timer */
            p[n++] = (struct pollfd){.fd = c->timer_fd, .events = POLLIN};
            continue;
        }
        short ev = (short)((c->closing ? 0 : POLLIN) | (c->out_len ? POLLOUT : 0));
        p[n++] = (struct pollfd){.fd = c->fd, .events = ev};
    }
    return n;
}

/* The connection of uid that has waited longest for a request of it: the one to give up when
 * a limit is reached (a client that only holds connections open loses them first). */
static int longest_idle(struct tb_daemon *d, bool of_uid, uint32_t uid)
{
    struct tb_daemon__ctl *s = d->ctl;
    int best = -1;
    for (int i = 0; i < s->nclients; i++) {
        const struct tb_daemon__client *c = &s->client[i];
        if ((of_uid && c->uid != uid) || c->held_on || c->answer || c->out_len || c->ticket ||
            c->wait_on)
            continue;
        if (best < 0 || c->since < s->client[best].since)
            best = i;
    }
    return best;
}

/* Every connection has a request under way (held PIN checks, answers not yet read): the oldest
 * connection of uid goes, or at the total limit (of_uid false) the oldest of the uid that holds
 * the most connections, so a uid with few connections (the arbiter's) always gets in. */
static int oldest_busy(struct tb_daemon *d, bool of_uid, uint32_t uid)
{
    struct tb_daemon__ctl *s = d->ctl;
    if (!of_uid) {
        int most = 0;
        for (int i = 0; i < s->nclients; i++) {
            int n = 0;
            for (int j = 0; j < s->nclients; j++)
                n += s->client[j].uid == s->client[i].uid;
            if (n > most)
                most = n, uid = s->client[i].uid;
        }
    }
    int best = -1;
    for (int i = 0; i < s->nclients; i++)
        if (s->client[i].uid == uid && (best < 0 || s->client[i].since < s->client[best].since))
            best = i;
    return best;
}

static void accept_clients(struct tb_daemon *d)
{
    struct tb_daemon__ctl *s = d->ctl;
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        struct ucred cred = {0};
        socklen_t len = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
            cred.uid = (uid_t)-1;
        int of_uid = 0;
        for (int i = 0; i < s->nclients; i++)
            of_uid += s->client[i].uid == cred.uid;
        /* at a limit the new connection takes another's place: no number of idle, slow or
           held connections locks a new client out (docs/control-protocol.md, "Limits") */
        bool uid_full = of_uid >= TBD_MAX_CLIENTS_UID;
        int victim = -2;
        if (uid_full || s->nclients >= TBD_MAX_CLIENTS) {
            victim = longest_idle(d, uid_full, cred.uid);
            if (victim < 0)
                victim = oldest_busy(d, uid_full, cred.uid);
        }
        if (victim >= 0) {
            const struct tb_daemon__client *v = &s->client[victim];
            tb_daemon__refusal(
                d, cred.uid, false, TB_CONFIG_LOG_WARN,
                "control: connection limit (%d per uid, %d in all): the %s connection "
                "(uid %u pid %d) is closed for uid %u pid %d",
                TBD_MAX_CLIENTS_UID, TBD_MAX_CLIENTS,
                v->held_on || v->answer || v->out_len ? "oldest busy" : "longest idle",
                (unsigned)v->uid, (int)v->pid, (unsigned)cred.uid, (int)cred.pid);
            drop(d, victim);
        }
        int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (tfd < 0) {
            close(fd);
            return;
        }
        struct tb_daemon__client *c = &s->client[s->nclients++];
        memset(c, 0, sizeof *c);
        c->fd = fd;
        c->timer_fd = tfd;
        c->uid = (uint32_t)cred.uid;
        c->pid = (int32_t)cred.pid;
        c->since = now_ms();
        tb_ctl_reader_init(&c->reader);
    }
}

/* Writes what it can; false when the client is gone. */
static bool flush_out(struct tb_daemon__client *c)
{
    while (c->out_len) {
        ssize_t w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        memmove(c->out, c->out + w, c->out_len - (size_t)w);
        c->out_len -= (size_t)w;
    }
    return !c->closing;
}

static bool queue_text(struct tb_daemon *d, struct tb_daemon__client *c, const char *p, size_t n,
                       bool failed)
{
    if (!failed && !n)
        return true;
    if (failed || c->out_len + n > TBD_OUT_MAX) {
        tb_daemon__refusal(d, c->uid, false, TB_CONFIG_LOG_WARN,
                           "control: uid %u pid %d does not read its answers: dropped",
                           (unsigned)c->uid, (int)c->pid);
        return false;
    }
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_len + n + 1024;
        char *q = realloc(c->out, cap);
        if (!q)
            return false;
        c->out = q;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
    return true;
}

/* A request with a PIN goes through the guard, the one place its PIN is checked: checked only
 * when its uid's and the global delay have passed (else held: false), refused unchecked during a
 * lockout, a wrong one's answer held back. true when it was answered (into out) or held. */
static bool guarded(struct tb_daemon *d, struct tb_daemon__client *c,
                    const struct tb_ctl_request *req, struct tb_daemon__buf *out, bool *held)
{
    *held = false;
    if (!req->needs_pin)
        return false;
    if (pin_missing(d, req, out))
        return true;
    uint64_t now = now_ms(), at;
    int w = tb_ctl_guard_when(&d->ctl->guard, c->uid, now, &at);
    if (w == TB_ERR_PERM) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "too many wrong arbiter PINs from uid %u: no PIN of it is checked for %llu more "
                 "s",
                 (unsigned)c->uid, (unsigned long long)((at - now + 999) / 1000));
        tb_daemon__refusal(d, c->uid, true, TB_CONFIG_LOG_WARN,
                           "control: %s refused (uid %u pid %d): locked out",
                           tb_ctl_verb_name(req->verb), (unsigned)c->uid, (int)c->pid);
        reply_error(out, TB_ERR_PERM, msg);
        return true;
    }
    if (w == 1) { /* held: checked when the delay has passed */
        c->held = *req;
        c->held_on = true;
        c->timer_due = true;
        arm(c->timer_fd, at);
        *held = true;
        return true;
    }
    uint64_t delay;
    bool locked;
    if (tb_ctl_guard_check(&d->ctl->guard, c->uid, req, d->cfg->arbiter_pin, now, &delay,
                           &locked) == TB_OK)
        return false; /* runs as any request */
    unsigned fails = tb_ctl_guard_fails(&d->ctl->guard, c->uid, now);
    tb_daemon__refusal(d, c->uid, true, TB_CONFIG_LOG_WARN,
                       "control: %s refused: wrong arbiter PIN from uid %u pid %d (%u in a row)%s",
                       tb_ctl_verb_name(req->verb), (unsigned)c->uid, (int)c->pid, fails,
                       locked ? "; locked out for 15 minutes" : "");
    struct tb_daemon__buf ans = {0};
    reply_error(&ans, TB_ERR_PERM, "wrong arbiter PIN");
    free(c->answer);
    c->answer = ans.p;
    c->timer_due = true;
    arm(c->timer_fd, now + delay);
    *held = true;
    return true;
}

/* A request past the guard: run now, or kept (parsed, its PIN checked) until the journal lets
 * a game-changing one be served. */
static void run_request(struct tb_daemon *d, struct tb_daemon__client *c,
                        const struct tb_ctl_request *req, struct tb_daemon__buf *out)
{
    d->ctl->req_uid = c->uid;
    d->ctl->req_pid = c->pid;
    if (must_wait(d) && changes_game(req->verb)) {
        c->wait = *req; /* served once the journal lets it */
        c->wait_on = true;
        return;
    }
    tb_daemon__request(d, req, out);
    c->ticket = out->ticket;
}

/* One request: answered into out, held (the timer brings it back) or waiting for the journal. */
static void serve(struct tb_daemon *d, struct tb_daemon__client *c,
                  const struct tb_ctl_request *req, struct tb_daemon__buf *out)
{
    bool held;
    d->ctl->req_uid = c->uid;
    d->ctl->req_pid = c->pid;
    if (!guarded(d, c, req, out, &held))
        run_request(d, c, req, out);
    if (!held)
        c->since = now_ms();
}

void tb_daemon__ctl_waiting(struct tb_daemon *d)
{
    struct tb_daemon__ctl *s = d->ctl;
    for (int i = 0; i < s->nclients; i++) {
        struct tb_daemon__client *c = &s->client[i];
        struct tb_daemon__buf out = {0};
        if (c->ticket && ticket_answer(d, c->ticket, &out)) {
            c->ticket = 0;
            c->since = now_ms();
        } else if (c->wait_on && !must_wait(d)) {
            struct tb_ctl_request req = c->wait;
            c->wait_on = false;
            run_request(d, c, &req, &out);
            if (!c->wait_on)
                c->since = now_ms();
        }
        if ((out.len || out.failed) && !queue_text(d, c, out.p, out.len, out.failed))
            c->closing = true, c->out_len = 0;
        free(out.p);
    }
}

/* The client's turn: at most one request. false when it is to be dropped. */
static bool client_turn(struct tb_daemon *d, struct tb_daemon__client *c, bool readable)
{
    struct tb_daemon__buf out = {0};
    if (c->answer) { /* a held wrong-PIN answer: its time has come */
        tb_daemon__buf_put(&out, c->answer, strlen(c->answer));
        free(c->answer);
        c->answer = NULL;
        c->since = now_ms();
    } else if (c->held_on) { /* a held PIN request: check it now (or hold it again) */
        struct tb_ctl_request req = c->held;
        c->held_on = false;
        serve(d, c, &req, &out);
    } else {
        if (c->in_off == c->in_len && readable) {
            ssize_t r = read(c->fd, c->in, sizeof c->in);
            if (r == 0) {
                c->closing = true;
                return c->out_len > 0;
            }
            if (r < 0)
                return errno == EAGAIN || errno == EINTR;
            c->in_off = 0;
            c->in_len = (size_t)r;
        }
        size_t used = 0, line_len;
        const char *line;
        int rc;
        do { /* bytes up to one whole line (an over-long one is answered and skipped) */
            rc = tb_ctl_reader_take(&c->reader, c->in + c->in_off, c->in_len - c->in_off, &used,
                                    &line, &line_len);
            c->in_off += used;
        } while (rc == 0 && used && c->in_off < c->in_len);
        if (rc == TB_ERR_FULL) {
            char msg[80];
            snprintf(msg, sizeof msg, "a request may be at most %d bytes with its newline",
                     TB_CTL_LINE_MAX);
            reply_error(&out, TB_ERR_FULL, msg);
        } else if (rc == 1) {
            struct tb_ctl_request req;
            d->ctl->req_uid = c->uid;
            d->ctl->req_pid = c->pid;
            if (parse(d, line, line_len, &req, &out))
                serve(d, c, &req, &out);
            else
                c->since = now_ms();
        }
    }
    bool ok = queue_text(d, c, out.p, out.len, out.failed);
    free(out.p);
    /* more already read, or a hold: the timer gives the next turn (others are served between) */
    if (!c->held_on && !c->answer) {
        c->timer_due = c->in_off < c->in_len;
        if (c->timer_due)
            arm(c->timer_fd, 0);
    }
    return ok;
}

static void sweep(struct tb_daemon *d)
{
    struct tb_daemon__ctl *s = d->ctl;
    uint64_t expirations, now = now_ms();
    if (read(s->sweep_fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
        return;
    tb_daemon__refusals_flush(d);
    for (int i = s->nclients - 1; i >= 0; i--) {
        struct tb_daemon__client *c = &s->client[i];
        if (c->closing || c->held_on || c->answer || c->timer_due || c->ticket || c->wait_on ||
            now < c->since + TBD_REQUEST_MS)
            continue;
        tb_daemon__refusal(d, c->uid, false, TB_CONFIG_LOG_INFO,
                           "control: uid %u pid %d sent no whole request in %d s: closed",
                           (unsigned)c->uid, (int)c->pid, TBD_REQUEST_MS / 1000);
        drop(d, i);
    }
}

static int ctl_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    struct tb_daemon__ctl *s = d->ctl;
    bool accept_now = false;
    for (int k = 0; k < n; k++) {
        if (!p[k].revents)
            continue;
        if (p[k].fd == s->listen_fd) {
            accept_now = true;
            continue;
        }
        if (p[k].fd == s->sweep_fd) {
            sweep(d);
            continue;
        }
        for (int i = 0; i < s->nclients; i++) {
            struct tb_daemon__client *c = &s->client[i];
            bool timer = c->timer_fd == p[k].fd;
            if (c->fd != p[k].fd && !timer)
                continue;
            bool alive = true;
            if (timer) {
                uint64_t x;
                if (read(c->timer_fd, &x, sizeof x) == (ssize_t)sizeof x) {
                    c->timer_due = false;
                    alive = client_turn(d, c, false);
                }
            } else if (c->ticket || c->wait_on) { /* waits for the journal */
                alive = !(p[k].revents & (POLLHUP | POLLERR));
            } else if (p[k].revents & (POLLIN | POLLHUP | POLLERR)) {
                alive = client_turn(d, c, true);
            }
            if (alive)
                alive = flush_out(c);
            if (!alive)
                drop(d, i);
            break;
        }
    }
    if (accept_now)
        accept_clients(d);
    return TB_OK;
}

const struct tb_daemon__part tb_daemon__part_ctl = {
    .name = "control socket",
    .open = ctl_open,
    .close = ctl_close,
    .pollfds = ctl_pollfds,
    .handle = ctl_handle,
};
