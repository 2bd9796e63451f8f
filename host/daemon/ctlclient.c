/* ctlclient.c - the control protocol's client: connect, ask, read the answer. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tb_ctl.h"

int tb_ctl_client_connect(const char *path, bool nonblock, struct tb_error *err)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (!path || strlen(path) >= sizeof sa.sun_path)
        return tb_error_set(err, TB_ERR_ARG, "control socket path too long: %s",
                            path ? path : "(none)");
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "cannot reach twinboardd at %s: %s", path,
                            strerror(e));
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

int tb_ctl_request(const char *socket_path, const char *line, char *out, size_t len,
                   struct tb_error *err)
{
    if (!out || !len)
        return tb_error_set(err, TB_ERR_ARG, "no room for the answer");
    out[0] = '\0';
    int fd = tb_ctl_client_connect(socket_path, false, err);
    if (fd < 0)
        return fd;
    size_t n = strlen(line);
    bool nl = n && line[n - 1] == '\n';
    if (write(fd, line, n) != (ssize_t)n || (!nl && write(fd, "\n", 1) != 1)) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "cannot send to twinboardd: %s", strerror(e));
    }
    shutdown(fd, SHUT_WR);
    size_t got = 0;
    ssize_t r = 0;
    while (got + 1 < len && !tb_ctl_answer_complete(out, got) &&
           ((r = read(fd, out + got, len - got - 1)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0)
            out[got += (size_t)r] = '\0';
    close(fd);
    if (!tb_ctl_answer_complete(out, got))
        return got + 1 >= len ? tb_error_set(err, TB_ERR_FULL, "the answer is too long")
                              : tb_error_set(err, TB_ERR_SYS, "the answer was cut short");
    return strncmp(out, "ok", 2) == 0 ? 0 : 1;
}
