/* ctl_load.c - idle and slow clients on the control socket, and timing a command meanwhile. */
#define _GNU_SOURCE /* setgroups */
#include "ctl_load.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int connect_to(const char *sock)
{
    union { /* the address as connect() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_un un;
    } addr = {.un.sun_family = AF_UNIX};
    snprintf(addr.un.sun_path, sizeof addr.un.sun_path, "%s", sock);
    for (int tries = 0; tries < 200; tries++) { /* a full backlog says EAGAIN: try again */
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return -1;
        if (connect(fd, &addr.sa, sizeof addr.un) == 0)
            return fd;
        int e = errno;
        close(fd);
        if (e != EAGAIN)
            return -1;
        poll(NULL, 0, 10);
    }
    return -1;
}

/* A child: n connections, the first `slow` of them sending one byte a second, until killed. */
static void child(const char *sock, int n, int slow, int ready_fd)
{
    int fd[TB_CTL_LOAD_GROUP];
    for (int i = 0; i < n; i++)
        if ((fd[i] = connect_to(sock)) < 0) {
            fprintf(stderr, "ctl_load: cannot connect to %s: %s\n", sock, strerror(errno));
            _exit(1);
        }
    if (write(ready_fd, "r", 1) != 1)
        _exit(1);
    for (;;) {
        poll(NULL, 0, 1000);
        for (int i = 0; i < slow; i++) /* never a newline: never a whole request */
            if (fd[i] >= 0 && send(fd[i], "s", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
                errno != EAGAIN)
                fd[i] = -1; /* closed by the daemon: it stays closed */
    }
}

int tb_ctl_load_start(struct tb_ctl_load *l, const char *sock, int idle, int slow, int base_uid)
{
    memset(l, 0, sizeof *l);
    int p[2];
    if (pipe(p) != 0)
        return -1;
    for (int kind = 0; kind < 2; kind++) {
        for (int left = kind ? slow : idle; left > 0; left -= TB_CTL_LOAD_GROUP) {
            int n = left < TB_CTL_LOAD_GROUP ? left : TB_CTL_LOAD_GROUP;
            if (l->nchild == TB_CTL_LOAD_CHILDREN) {
                fprintf(stderr, "ctl_load: at most %d children\n", TB_CTL_LOAD_CHILDREN);
                goto fail;
            }
            int uid = base_uid >= 0 ? base_uid + l->nchild : -1;
            pid_t pid = fork();
            if (pid == 0) {
                close(p[0]);
                if (uid >= 0 &&
                    (setgroups(0, NULL) != 0 || setgid(0) != 0 || setuid((uid_t)uid) != 0))
                    _exit(1);
                child(sock, n, kind ? n : 0, p[1]);
            }
            if (pid < 0)
                goto fail;
            l->child[l->nchild++] = pid;
        }
    }
    close(p[1]);
    p[1] = -1;
    for (int got = 0; got < l->nchild;) { /* one byte from each child once it is connected */
        char c;
        ssize_t r = read(p[0], &c, 1);
        if (r != 1) {
            fprintf(stderr, "ctl_load: a child could not make its connections\n");
            goto fail;
        }
        got++;
    }
    close(p[0]);
    return 0;
fail:
    close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
    tb_ctl_load_stop(l);
    return -1;
}

void tb_ctl_load_stop(struct tb_ctl_load *l)
{
    for (int i = 0; i < l->nchild; i++) {
        kill(l->child[i], SIGKILL);
        waitpid(l->child[i], NULL, 0);
    }
    l->nchild = 0;
}

int tb_ctl_load_time(char *const *argv, int n, int gap_ms, double *ms)
{
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            poll(NULL, 0, gap_ms);
        int p[2];
        if (pipe(p) != 0)
            return n;
        double t0 = now_ms();
        pid_t pid = fork();
        if (pid == 0) { /* no shell between: the command's own time */
            close(p[0]);
            dup2(p[1], STDOUT_FILENO);
            execv(argv[0], argv);
            _exit(127);
        }
        close(p[1]);
        char buf[4096];
        size_t got = 0;
        ssize_t r;
        double answered = 0;
        while ((r = read(p[0], buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR)) {
            if (r > 0 && !got)
                answered = now_ms(); /* the answer has arrived: the program prints it */
            got += r > 0 ? (size_t)r : 0;
        }
        close(p[0]);
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid)
            st = -1;
        ms[i] = (got ? answered : now_ms()) - t0;
        failed += !got || st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    return failed;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void tb_ctl_load_stats(double *ms, int n, double *median, double *max)
{
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    *median = n ? (n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2) : 0;
    *max = n ? ms[n - 1] : 0;
}
