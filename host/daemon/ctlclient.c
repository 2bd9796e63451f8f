/* ctlclient.c - the control protocol's client: connect, ask, read the answer, each within a
 * timeout; a PIN only to a daemon of this user, root or the service's user. */
#define _GNU_SOURCE /* struct ucred */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "tb_ctl.h"

int tb_ctl_client_connect(const char *path, bool nonblock, struct tb_error *err)
{
    /* the union passes the address as the struct sockaddr connect() takes, with no cast
     * between object types */
    union {
        struct sockaddr sa;
        struct sockaddr_un un;
    } addr = {.un.sun_family = AF_UNIX};
    if (!path || strlen(path) >= sizeof addr.un.sun_path)
        return tb_error_set(err, TB_ERR_ARG, "control socket path too long: %s",
                            path ? path : "(none)");
    memcpy(addr.un.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "socket: %s", strerror(errno));
    if (connect(fd, &addr.sa, sizeof addr.un) != 0) {
        int e = errno;
        close(fd);
        int rc =
            tb_error_set(err, TB_ERR_SYS, "cannot reach twinboardd at %s: %s", path, strerror(e));
        errno = e; /* EAGAIN: a full backlog, worth another try */
        return rc;
    }
    return fd;
}

bool tb_ctl_answer_complete(const char *buf, size_t n)
{
    if (!n || buf[n - 1] != '\n')
        return false;
    if (n < 3 || strncmp(buf, "ok+", 3) != 0)
        return true; /* one line */
    return !memcmp(buf + n - 3, "\n.\n", 3);
}

int tb_ctl_answer_text(const char *answer, char *out, size_t len)
{
    size_t used = 0;
    if (len)
        out[0] = '\0';
    const char *nl = strchr(answer, '\n');
    size_t first = nl ? (size_t)(nl - answer) : strlen(answer);
    if (!strncmp(answer, "error ", 6)) {
        const char *msg = memchr(answer + 6, ' ', first - 6);
        msg = msg ? msg + 1 : answer + 6;
        snprintf(out, len, "%.*s", (int)(answer + first - msg), msg);
        return 1;
    }
    if (!strncmp(answer, "ok+", 3)) {
        for (const char *l = nl ? nl + 1 : NULL; l && *l; l = nl ? nl + 1 : NULL) {
            nl = strchr(l, '\n');
            size_t n = nl ? (size_t)(nl - l) : strlen(l);
            if (n == 1 && l[0] == '.')
                return 0;
            if (l[0] == '.') /* dot-stuffed */
                l++, n--;
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%.*s\n", (int)n, l);
        }
        return 0;
    }
    if (!strncmp(answer, "ok", 2) && (first == 2 || answer[2] == ' ')) {
        snprintf(out, len, "%.*s", first > 3 ? (int)(first - 3) : 0, answer + 3);
        return 0;
    }
    return TB_ERR_PARSE;
}

/* Waits until fd is ready for events, at most ms. */
static bool ready(int fd, short events, int ms)
{
    struct pollfd p = {.fd = fd, .events = events};
    int r;
    while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    return r > 0;
}

/* Connects within ms (a daemon whose backlog is full does not hang the client). */
static int connect_within(const char *path, int ms, struct tb_error *err)
{
    int fd = tb_ctl_client_connect(path, true, err);
    if (fd >= 0 || errno != EAGAIN)
        return fd;
    /* a full backlog: a Unix socket gives EAGAIN, try again until the time is up */
    for (int waited = 0; waited < ms; waited += 20) {
        poll(NULL, 0, 20);
        if ((fd = tb_ctl_client_connect(path, true, err)) >= 0 || errno != EAGAIN)
            return fd;
    }
    return tb_error_set(err, TB_ERR_TIMEOUT, "twinboardd at %s accepts no connection (%d ms)", path,
                        ms);
}

/* The users a PIN may go to: this user, root, and the packaged service's user. */
static bool trusted(uid_t uid)
{
    if (uid == getuid() || uid == 0)
        return true;
    const struct passwd *pw = getpwnam(TB_CTL_SERVICE_USER);
    return pw && pw->pw_uid == uid;
}

/* A PIN goes only to a daemon of a trusted user, not to whoever made the socket: the socket
 * file's owner and the peer's uid (SO_PEERCRED) must both be one. */
static int check_peer(int fd, const char *path, struct tb_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return tb_error_set(err, TB_ERR_SYS, "%s: %s", path, strerror(errno));
    if (!S_ISSOCK(st.st_mode) || !trusted(st.st_uid))
        return tb_error_set(err, TB_ERR_PERM,
                            "%s is %s of uid %u, not of this user, root or the user "
                            "%s: the PIN is not sent",
                            path, S_ISSOCK(st.st_mode) ? "a socket" : "no socket",
                            (unsigned)st.st_uid, TB_CTL_SERVICE_USER);
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return tb_error_set(err, TB_ERR_SYS, "%s: cannot tell who listens: %s", path,
                            strerror(errno));
    if (!trusted(cred.uid))
        return tb_error_set(err, TB_ERR_PERM,
                            "%s is served by uid %u (pid %d), not by this user, root or the user "
                            "%s: the PIN is not sent",
                            path, (unsigned)cred.uid, (int)cred.pid, TB_CTL_SERVICE_USER);
    return TB_OK;
}

int tb_ctl_request_within(const char *socket_path, const char *line, int timeout_ms, char *out,
                          size_t len, struct tb_error *err)
{
    if (!out || !len)
        return tb_error_set(err, TB_ERR_ARG, "no room for the answer");
    out[0] = '\0';
    int ms = timeout_ms > 0 ? timeout_ms : TB_CTL_TIMEOUT_MS;
    int fd = connect_within(socket_path, ms, err);
    if (fd < 0)
        return fd;
    int rc = strstr(line, "pin=") ? check_peer(fd, socket_path, err) : TB_OK;
    if (rc != TB_OK) {
        close(fd);
        return rc;
    }
    size_t n = strlen(line);
    bool nl = n && line[n - 1] == '\n';
    char req[TB_CTL_LINE_MAX + 2];
    int reqlen = snprintf(req, sizeof req, "%s%s", line, nl ? "" : "\n");
    if (reqlen < 0 || (size_t)reqlen >= sizeof req) /* the daemon would refuse it: say so */
        reqlen = (int)sizeof req - 1;
    for (size_t sent = 0; sent < (size_t)reqlen;) {
        ssize_t w =
            ready(fd, POLLOUT, ms) ? send(fd, req + sent, (size_t)reqlen - sent, MSG_NOSIGNAL) : -2;
        if (w < 0 && w != -2 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (w < 0) {
            int e = errno;
            close(fd);
            return w == -2
                       ? tb_error_set(err, TB_ERR_TIMEOUT,
                                      "twinboardd at %s takes no request (%d ms)", socket_path, ms)
                       : tb_error_set(err, TB_ERR_SYS, "cannot send to twinboardd: %s",
                                      strerror(e));
        }
        sent += (size_t)w;
    }
    shutdown(fd, SHUT_WR);
    if (rc == TB_OK && strstr(line, "pin="))
        ms += (int)TB_CTL_PIN_DELAY_MAX_MS; /* a PIN's check may be held back that long */
    size_t got = 0;
    bool late = false;
    while (got + 1 < len && !tb_ctl_answer_complete(out, got)) {
        if (!ready(fd, POLLIN, ms)) {
            late = true;
            break;
        }
        ssize_t r = read(fd, out + got, len - got - 1);
        if (r < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (r <= 0)
            break;
        out[got += (size_t)r] = '\0';
    }
    close(fd);
    if (!tb_ctl_answer_complete(out, got))
        return late             ? tb_error_set(err, TB_ERR_TIMEOUT,
                                               "twinboardd at %s did not answer within %d ms", socket_path, ms)
               : got + 1 >= len ? tb_error_set(err, TB_ERR_FULL, "the answer is too long")
                                : tb_error_set(err, TB_ERR_SYS, "the answer was cut short");
    return strncmp(out, "ok", 2) == 0 ? 0 : 1;
}

int tb_ctl_request(const char *socket_path, const char *line, char *out, size_t len,
                   struct tb_error *err)
{
    return tb_ctl_request_within(socket_path, line, 0, out, len, err);
}
