/* daemon_ctl.c - the control socket (docs/control-protocol.md): a Unix stream socket, mode 0660,
 * many clients, each with a bounded request line (tb_ctl_reader) and a bounded answer queue. */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon_internal.h"

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

static void typed(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_daemon__buf *out)
{
    struct tb_daemon__board *bd = &d->board[req->board];
    char msg[400];
    struct tb_error err = {0};
    if (!(bd->caps & TB_LINK_CAP_TYPED)) {
        snprintf(msg, sizeof msg,
                 "the %s board is %s, it has sensors: only a keys: board takes typed moves",
                 tb_daemon__board_name(req->board), bd->resource);
        reply_error(out, TB_ERR_SUPP, msg);
        return;
    }
    int rc = tb_daemon__typed_move(d, req->board, req->text, &err);
    if (rc != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: typed move '%s' refused: %s",
                       tb_daemon__board_name(req->board), req->text, err.msg);
        reply_error(out, rc, err.msg);
        return;
    }
    reply_ok(out, NULL);
}

static void help(struct tb_daemon__buf *out)
{
    struct tb_daemon__buf t = {0};
    for (int i = 0; tb_ctl_help_line(i); i++) {
        tb_daemon__buf_put(&t, tb_ctl_help_line(i), strlen(tb_ctl_help_line(i)));
        tb_daemon__buf_put(&t, "\n", 1);
    }
    tb_daemon__data(out, "requests", t.p);
    free(t.p);
}

static enum tb_chess_letters letters(const char *lang)
{
    return !strcmp(lang, "nl")   ? TB_CHESS_LETTERS_NL
           : !strcmp(lang, "de") ? TB_CHESS_LETTERS_DE
                                 : TB_CHESS_LETTERS_EN;
}

void tb_daemon__request(struct tb_daemon *d, const char *line, size_t len,
                        struct tb_daemon__buf *out)
{
    struct tb_ctl_request req;
    struct tb_error err = {0};
    int rc = tb_ctl_parse(line, len, &req, &err);
    if (rc != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "control: refused: %s", err.msg);
        reply_error(out, rc, err.msg);
        return;
    }
    if ((rc = tb_ctl_authorise(&req, d->cfg->arbiter_pin, &err)) != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "control: %s refused: %s", tb_ctl_verb_name(req.verb),
                       err.msg);
        reply_error(out, rc, err.msg);
        return;
    }
    tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "control: %s", tb_ctl_verb_name(req.verb));
    switch (req.verb) {
    case TB_CTL_STATUS:
        tb_daemon__status(d, out);
        return;
    case TB_CTL_MOVES:
        tb_daemon__moves(d, out);
        return;
    case TB_CTL_PGN:
    case TB_CTL_SCORESHEET:
        if ((rc = tb_daemon__pgn(d, letters(req.lang), req.verb == TB_CTL_SCORESHEET, out)) < 0)
            reply_error(out, rc, "the game cannot be written");
        return;
    case TB_CTL_RESOLVE:
    case TB_CTL_TAKEBACK:
    case TB_CTL_NEW_GAME:
    case TB_CTL_SET_POSITION:
        rc = tb_daemon__arbiter(d, &req, &err);
        break;
    case TB_CTL_PROMOTE: {
        /* D.2.1: the promoting player announces the piece: the player to move, on their board */
        int side = tb_match_game(d->match)->pos.side, b = d->board_of_color[side];
        if (req.board >= 0 && req.board != b)
            rc = tb_error_set(&err, TB_ERR_STATE,
                              "%s is to move, on the %s board: the %s board's player has no "
                              "promotion to announce",
                              side == TB_CHESS_WHITE ? "White" : "Black", tb_daemon__board_name(b),
                              tb_daemon__board_name(req.board));
        else
            rc = tb_daemon__promote(d, b, tb_daemon__promotion(req.piece), &err);
        break;
    }
    case TB_CTL_REPEAT:
        for (int b = 0; b < TBD_BOARDS; b++)
            if (req.board < 0 || req.board == b)
                tb_daemon__repeat(d, b);
        rc = TB_OK;
        break;
    case TB_CTL_MOVE:
        typed(d, &req, out);
        return;
    case TB_CTL_HELP:
        help(out);
        return;
    }
    if (rc != TB_OK)
        reply_error(out, rc, err.msg[0] ? err.msg : "not possible now");
    else
        reply_ok(out, NULL);
}

int tb_daemon_request(struct tb_daemon *d, const char *line, char *out, size_t len)
{
    struct tb_daemon__buf b = {0};
    tb_daemon__request(d, line, strlen(line), &b);
    tb_daemon__outputs(d);
    int n = b.failed ? TB_ERR_MEM : (int)b.len;
    if (n >= 0 && (size_t)n >= len)
        n = TB_ERR_FULL;
    if (len)
        snprintf(out, len, "%s", b.p ? b.p : "");
    free(b.p);
    return n;
}

/* ---- the socket -------------------------------------------------------------------------- */

int tb_daemon__ctl_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!d->socket_path[0])
        return TB_OK;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(d->socket_path) >= sizeof sa.sun_path)
        return tb_error_set(err, TB_ERR_ARG, "control socket %s: path too long", d->socket_path);
    strcpy(sa.sun_path, d->socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "socket: %s", strerror(errno));
    /* A socket file nobody answers on is left over from a stopped daemon. */
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
        close(fd);
        return tb_error_set(err, TB_ERR_STATE, "control socket %s: another daemon is listening",
                            d->socket_path);
    }
    unlink(d->socket_path);
    close(fd);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "socket: %s", strerror(errno));
    mode_t old = umask(0117);
    int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    umask(old);
    if (rc != 0 || chmod(d->socket_path, 0660) != 0 || listen(fd, 16) != 0) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "control socket %s: %s", d->socket_path, strerror(e));
    }
    d->listen_fd = fd;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "control socket %s", d->socket_path);
    return TB_OK;
}

static void drop(struct tb_daemon *d, int i)
{
    close(d->client[i].fd);
    free(d->client[i].out);
    d->client[i] = d->client[--d->nclients];
}

void tb_daemon__ctl_close(struct tb_daemon *d)
{
    while (d->nclients)
        drop(d, d->nclients - 1);
    if (d->listen_fd >= 0) {
        close(d->listen_fd);
        unlink(d->socket_path);
        d->listen_fd = -1;
    }
}

int tb_daemon__ctl_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    int n = 0;
    if (d->listen_fd >= 0 && d->nclients < TBD_MAX_CLIENTS && n < max)
        p[n++] = (struct pollfd){.fd = d->listen_fd, .events = POLLIN};
    for (int i = 0; i < d->nclients && n < max; i++) {
        struct tb_daemon__client *c = &d->client[i];
        short ev = (short)((c->closing ? 0 : POLLIN) | (c->out_len ? POLLOUT : 0));
        p[n++] = (struct pollfd){.fd = c->fd, .events = ev};
    }
    return n;
}

static void accept_clients(struct tb_daemon *d)
{
    while (d->nclients < TBD_MAX_CLIENTS) {
        int fd = accept4(d->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        struct tb_daemon__client *c = &d->client[d->nclients++];
        memset(c, 0, sizeof *c);
        c->fd = fd;
        tb_ctl_reader_init(&c->reader);
    }
}

/* Writes what it can; false when the client is gone. */
static bool flush_out(struct tb_daemon__client *c)
{
    while (c->out_len) {
        ssize_t w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (w < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        memmove(c->out, c->out + w, c->out_len - (size_t)w);
        c->out_len -= (size_t)w;
    }
    return !c->closing;
}

static bool queue_out(struct tb_daemon *d, struct tb_daemon__client *c,
                      const struct tb_daemon__buf *b)
{
    if (!b->failed && !b->len)
        return true;
    if (b->failed || c->out_len + b->len > TBD_OUT_MAX) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "control: a client does not read its answers: dropped");
        return false;
    }
    if (c->out_len + b->len > c->out_cap) {
        size_t cap = c->out_len + b->len + 1024;
        char *p = realloc(c->out, cap);
        if (!p)
            return false;
        c->out = p;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, b->p, b->len);
    c->out_len += b->len;
    return true;
}

static bool client_read(struct tb_daemon *d, struct tb_daemon__client *c)
{
    char buf[4096];
    ssize_t r = read(c->fd, buf, sizeof buf);
    if (r == 0) {
        c->closing = true;
        return c->out_len > 0;
    }
    if (r < 0)
        return errno == EAGAIN || errno == EINTR;
    size_t off = 0;
    while (off < (size_t)r) {
        size_t used = 0;
        const char *line;
        size_t line_len;
        int rc =
            tb_ctl_reader_take(&c->reader, buf + off, (size_t)r - off, &used, &line, &line_len);
        off += used;
        struct tb_daemon__buf out = {0};
        if (rc == TB_ERR_FULL) {
            char msg[80];
            snprintf(msg, sizeof msg, "a request may be at most %d bytes with its newline",
                     TB_CTL_LINE_MAX);
            reply_error(&out, TB_ERR_FULL, msg);
        } else if (rc == 1) {
            tb_daemon__request(d, line, line_len, &out);
        }
        bool ok = queue_out(d, c, &out);
        free(out.p);
        if (!ok)
            return false;
        if (rc == 0 && used == 0)
            break;
    }
    return true;
}

void tb_daemon__ctl_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    bool accept_now = false;
    for (int k = 0; k < n; k++) {
        if (!p[k].revents)
            continue;
        if (p[k].fd == d->listen_fd) {
            accept_now = true;
            continue;
        }
        for (int i = 0; i < d->nclients; i++) {
            struct tb_daemon__client *c = &d->client[i];
            if (c->fd != p[k].fd)
                continue;
            bool alive = true;
            if (p[k].revents & (POLLIN | POLLHUP | POLLERR))
                alive = client_read(d, c);
            if (alive)
                alive = flush_out(c);
            if (!alive)
                drop(d, i);
            break;
        }
    }
    if (accept_now)
        accept_clients(d);
}
