/* io.c - the virtual board's transports: a pty behind a stable link, loopback TCP clients,
 * non-blocking writes through a bounded buffer per reader. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "broadcast_internal.h"

#define AWAY_RETRY_MS 200 /* how often a pty without a program is looked at again */
#define READ_CHUNK    512

static int sys_fail(struct tb_error *err, const char *what, const char *where)
{
    return tb_error_set(err, TB_ERR_SYS, "broadcast: cannot %s %s: %s", what, where,
                        strerror(errno));
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static struct tb_broadcast__reader *slot(tb_broadcast *bc, int fd, bool pty)
{
    for (int i = pty ? 0 : 1; i < (pty ? 1 : bc->nreaders); i++) {
        struct tb_broadcast__reader *r = &bc->readers[i];
        if (r->fd >= 0)
            continue;
        if (!r->out && !(r->out = malloc(bc->cfg.out_max)))
            return NULL;
        r->fd = fd;
        r->pty = pty;
        r->away = r->doomed = false;
        r->out_len = 0;
        r->out_cap = bc->cfg.out_max;
        tb_broadcast_session_init(&r->s, &bc->board);
        return r;
    }
    return NULL;
}

static int open_pty(tb_broadcast *bc, struct tb_error *err)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0 || grantpt(fd) != 0 || unlockpt(fd) != 0) {
        int rc = sys_fail(err, "open a pseudo-terminal for", bc->pty_link);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    /* Raw bytes both ways: DGT is binary, no echo, no line discipline. */
    struct termios t;
    if (tcgetattr(fd, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(fd, TCSANOW, &t);
    }
    const char *pts = ptsname(fd);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.new", bc->pty_link);
    unlink(tmp);
    if (!pts || symlink(pts, tmp) != 0 || rename(tmp, bc->pty_link) != 0) {
        int rc = sys_fail(err, "make the link", bc->pty_link);
        unlink(tmp);
        close(fd);
        return rc;
    }
    snprintf(bc->pty_name, sizeof bc->pty_name, "%s", pts);
    if (!slot(bc, fd, true)) {
        close(fd);
        unlink(bc->pty_link);
        return tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
    }
    return TB_OK;
}

static int open_tcp(tb_broadcast *bc, struct tb_error *err)
{
    char where[32];
    snprintf(where, sizeof where, "127.0.0.1:%d", bc->cfg.tcp_port);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return sys_fail(err, "open a socket for", where);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* Loopback only: a broadcast program on this machine, never the tournament hall's net. */
    union { /* the address as bind() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_in in;
    } a;
    memset(&a, 0, sizeof a);
    a.in.sin_family = AF_INET;
    a.in.sin_port = htons((uint16_t)bc->cfg.tcp_port);
    a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a.in;
    if (bind(fd, &a.sa, sizeof a.in) != 0 || listen(fd, 8) != 0 || set_nonblock(fd) != 0 ||
        getsockname(fd, &a.sa, &al) != 0) {
        int rc = sys_fail(err, "listen on", where);
        close(fd);
        return rc;
    }
    bc->listen_fd = fd;
    bc->port = ntohs(a.in.sin_port);
    return TB_OK;
}

int tb_broadcast__io_open(tb_broadcast *bc, struct tb_error *err)
{
    bc->nreaders = 1 + bc->cfg.max_clients;
    bc->readers = calloc((size_t)bc->nreaders, sizeof *bc->readers);
    if (!bc->readers)
        return tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
    for (int i = 0; i < bc->nreaders; i++)
        bc->readers[i].fd = -1;
    int rc = bc->pty_link[0] ? open_pty(bc, err) : TB_OK;
    if (rc == TB_OK && bc->cfg.tcp)
        rc = open_tcp(bc, err);
    return rc;
}

static void drop_reader(tb_broadcast *bc, struct tb_broadcast__reader *r)
{
    close(r->fd);
    r->fd = -1;
    r->out_len = 0;
    if (!r->pty)
        bc->closed++;
}

void tb_broadcast__io_close(tb_broadcast *bc)
{
    for (int i = 0; bc->readers && i < bc->nreaders; i++) {
        if (bc->readers[i].fd >= 0)
            drop_reader(bc, &bc->readers[i]);
        free(bc->readers[i].out);
    }
    free(bc->readers);
    bc->readers = NULL;
    if (bc->listen_fd >= 0)
        close(bc->listen_fd);
    bc->listen_fd = -1;
    if (bc->pty_name[0])
        unlink(bc->pty_link);
}

/* Whole messages only: one that does not fit is dropped for the pty (a program that fell
 * that far behind re-reads the board, as DGT advises) and ends a TCP client (it reconnects
 * and starts afresh, never reading a stream with a hole). */
static void emit(void *user, const uint8_t *bytes, size_t n)
{
    struct tb_broadcast__reader *r = user;
    if (r->away || r->doomed)
        return;
    if (r->out_len + n > r->out_cap) {
        r->dropped++;
        if (!r->pty)
            r->doomed = true;
        return;
    }
    memcpy(r->out + r->out_len, bytes, n);
    r->out_len += n;
}

/* No program holds the pty's other end: what waits is dropped, and so is what was written
 * since the program left and still sits in the pty for the next one to open it (stale field
 * updates would make it see moves twice); a look again later. */
static void go_away(tb_broadcast *bc, struct tb_broadcast__reader *r, uint64_t now_ms)
{
    if (!r->away && bc->pty_name[0]) {
        int fd = open(bc->pty_name, O_RDWR | O_NOCTTY | O_NONBLOCK);
        if (fd >= 0) {
            tcflush(fd, TCIFLUSH);
            close(fd);
        }
    }
    r->away = true;
    r->retry_ms = now_ms + AWAY_RETRY_MS;
    r->out_len = 0;
}

/* Writes what waits without blocking. A pty whose program went away keeps its session (a
 * board keeps its mode when a program restarts) and drops what it would have sent. */
static void flush(tb_broadcast *bc, struct tb_broadcast__reader *r, uint64_t now_ms)
{
    bc->dropped += r->dropped;
    r->dropped = 0;
    while (r->fd >= 0 && r->out_len && !r->doomed) {
        ssize_t w = write(r->fd, r->out, r->out_len);
        if (w > 0) {
            memmove(r->out, r->out + w, r->out_len - (size_t)w);
            r->out_len -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (r->pty) {
            go_away(bc, r, now_ms);
            return;
        }
        r->doomed = true;
    }
    if (r->fd >= 0 && r->doomed)
        drop_reader(bc, r);
}

static void flush_all(tb_broadcast *bc, uint64_t now_ms)
{
    for (int i = 0; i < bc->nreaders; i++) {
        if (bc->readers[i].fd >= 0)
            flush(bc, &bc->readers[i], now_ms);
    }
}

void tb_broadcast__io_changes(tb_broadcast *bc, const struct tb_dgt_update *ch, int n,
                              uint64_t now_ms)
{
    for (int i = 0; i < bc->nreaders; i++) {
        struct tb_broadcast__reader *r = &bc->readers[i];
        if (r->fd >= 0) {
            tb_broadcast_session_changes(&r->s, ch, n, emit, r);
            /* A clock change may make a BWTIME due at once. */
            tb_broadcast_session_tick(&r->s, &bc->board, now_ms, emit, r);
        }
    }
    flush_all(bc, now_ms);
}

int tb_broadcast_pollfds(tb_broadcast *bc, struct pollfd *fds, int cap, uint64_t now_ms,
                         uint64_t *deadline_ms)
{
    if (!bc || (cap > 0 && !fds) || !deadline_ms)
        return TB_ERR_ARG;
    int n = 0;
    uint64_t due = UINT64_MAX;
    if (bc->listen_fd >= 0 && n < cap)
        fds[n++] = (struct pollfd){bc->listen_fd, POLLIN, 0};
    for (int i = 0; i < bc->nreaders; i++) {
        struct tb_broadcast__reader *r = &bc->readers[i];
        if (r->fd < 0)
            continue;
        if (r->away && r->retry_ms > now_ms) {
            due = r->retry_ms < due ? r->retry_ms : due;
            continue;
        }
        uint64_t d = tb_broadcast_session_due(&r->s, &bc->board, now_ms);
        due = d < due ? d : due;
        if (n < cap)
            fds[n++] = (struct pollfd){r->fd, (short)(POLLIN | (r->out_len ? POLLOUT : 0)), 0};
    }
    *deadline_ms = due;
    return n;
}

static void accept_all(tb_broadcast *bc)
{
    for (;;) {
        int fd = accept(bc->listen_fd, NULL, NULL);
        if (fd < 0)
            return;
        if (set_nonblock(fd) != 0 || !slot(bc, fd, false)) {
            close(fd); /* full: the program sees the connection closed */
            bc->closed++;
        }
    }
}

/* Reads what the program sent, a bounded number of chunks (a flood never starves the loop). */
static void read_reader(tb_broadcast *bc, struct tb_broadcast__reader *r, short rev,
                        uint64_t now_ms)
{
    uint8_t buf[READ_CHUNK];
    for (int k = 0; k < 16 && r->fd >= 0; k++) {
        ssize_t got = read(r->fd, buf, sizeof buf);
        if (got > 0) {
            r->away = false;
            tb_broadcast_session_input(&r->s, &bc->board, buf, (size_t)got, now_ms, emit, r);
            flush(bc, r, now_ms);
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (r->pty && (rev & POLLHUP))
                go_away(bc, r, now_ms);
            else if (r->pty)
                r->away = false;
            return;
        }
        if (r->pty) {
            go_away(bc, r, now_ms); /* EIO: no program holds the other end now */
            return;
        }
        drop_reader(bc, r);
        return;
    }
}

int tb_broadcast_handle(tb_broadcast *bc, const struct pollfd *fds, int n, uint64_t now_ms)
{
    if (!bc || (n > 0 && !fds))
        return TB_ERR_ARG;
    for (int i = 0; i < n; i++) {
        /* A pty polled without a hang-up has a program at its other end again. */
        if (bc->readers[0].fd >= 0 && fds[i].fd == bc->readers[0].fd && !(fds[i].revents & POLLHUP))
            bc->readers[0].away = false;
        if (!fds[i].revents)
            continue;
        if (fds[i].fd == bc->listen_fd) {
            accept_all(bc);
            continue;
        }
        for (int k = 0; k < bc->nreaders; k++) {
            struct tb_broadcast__reader *r = &bc->readers[k];
            if (r->fd != fds[i].fd || r->fd < 0)
                continue;
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                read_reader(bc, r, fds[i].revents, now_ms);
            break;
        }
    }
    for (int k = 0; k < bc->nreaders; k++) {
        struct tb_broadcast__reader *r = &bc->readers[k];
        if (r->fd >= 0 && !r->away)
            tb_broadcast_session_tick(&r->s, &bc->board, now_ms, emit, r);
    }
    flush_all(bc, now_ms);
    return TB_OK;
}

int tb_broadcast_tcp_port(const tb_broadcast *bc)
{
    return bc && bc->listen_fd >= 0 ? bc->port : 0;
}

const char *tb_broadcast_pty_name(const tb_broadcast *bc)
{
    return bc ? bc->pty_name : "";
}
