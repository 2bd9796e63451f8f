/* twinboardd under systemd: READY=1 reaches NOTIFY_SOCKET (Type=notify) once the control socket
 * listens, log lines carry journald priorities when stderr is the journal, and --version answers.
 * The daemon runs on two keys: boards in a temporary directory. */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_run.h"
#include "tb_test.h"
#include "tb_sock.h"

struct fixture {
    char dir[64], ini[128], control[128], notify[128];
};

static void setup(struct fixture *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/tb-notify-XXXXXX");
    ASSERT_TRUE(mkdtemp(f->dir) != NULL);
    snprintf(f->ini, sizeof f->ini, "%s/t.ini", f->dir);
    snprintf(f->control, sizeof f->control, "%s/control", f->dir);
    snprintf(f->notify, sizeof f->notify, "%s/notify", f->dir);
    /* Black's pawn moved on the sighted board before White has moved: out of turn, a mismatch
     * whose arbiter's view is a multi-line message */
    char script[160];
    snprintf(script, sizeof script, "%s/sighted.events", f->dir);
    FILE *fp = fopen(script, "w");
    ASSERT_TRUE(fp != NULL);
    fputs("1000 sighted lift e7\n1200 sighted place e5\n", fp);
    fclose(fp);
    fp = fopen(f->ini, "w");
    ASSERT_TRUE(fp != NULL);
    fprintf(fp,
            "[daemon]\nsocket = %s\njournal_dir = %s\n[arbiter]\npin = 246813\n"
            "[player vi]\nboard = keys:\naudio = null\n[player sighted]\nboard = sim:%s\n"
            "audio = null\n",
            f->control, f->dir, script);
    fclose(fp);
}

static pid_t start(const struct fixture *f, const char *notify_env)
{
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        if (notify_env)
            setenv("NOTIFY_SOCKET", notify_env, 1);
        else
            unsetenv("NOTIFY_SOCKET");
        execl(TB_TWINBOARDD, "twinboardd", "-c", f->ini, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void stop(pid_t pid)
{
    int status;
    kill(pid, SIGTERM);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
}

static int bind_dgram(const char *path) /* "@name": an abstract name, as systemd gives it */
{
    union tb_test_unix_addr sa;
    socklen_t len = tb_test_unix_addr(&sa, path);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ASSERT_TRUE(fd >= 0);
    ASSERT_OK(bind(fd, &sa.sa, len));
    return fd;
}

static bool control_listens(const char *path)
{
    union tb_test_unix_addr sa;
    socklen_t len = tb_test_unix_addr(&sa, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool ok = fd >= 0 && connect(fd, &sa.sa, len) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

/* Waits (up to 30 s, a loaded machine) for one datagram; returns its text. */
static void receive(int fd, char *buf, size_t len)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    ASSERT_EQ(poll(&p, 1, 30000), 1);
    ssize_t n = recv(fd, buf, len - 1, 0);
    ASSERT_GT(n, 0);
    buf[n] = '\0';
}

static void ready_is_sent_when_the_control_socket_listens(bool abstract)
{
    struct fixture f;
    setup(&f);
    char name[160];
    if (abstract)
        snprintf(name, sizeof name, "@tb-notify-%ld", (long)getpid());
    else
        snprintf(name, sizeof name, "%s", f.notify);
    int fd = bind_dgram(name);
    pid_t pid = start(&f, name);
    char msg[256];
    receive(fd, msg, sizeof msg);
    ASSERT_STR_EQ(msg, "READY=1");
    ASSERT_TRUE(control_listens(f.control));
    stop(pid);
    close(fd);
    unlink(f.notify);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f.dir);
    ASSERT_OK(system(cmd));
}

TB_TEST(ready_1_on_notify_socket_path_once_control_socket_listens)
{
    ready_is_sent_when_the_control_socket_listens(false);
}

TB_TEST(ready_1_on_abstract_notify_socket)
{
    ready_is_sent_when_the_control_socket_listens(true);
}

TB_TEST(without_notify_socket_the_daemon_runs_as_before)
{
    struct fixture f;
    setup(&f);
    pid_t pid = start(&f, NULL);
    for (int i = 0; i < 300 && !control_listens(f.control); i++)
        usleep(100 * 1000);
    ASSERT_TRUE(control_listens(f.control));
    stop(pid);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f.dir);
    ASSERT_OK(system(cmd));
}

TB_TEST(version_names_the_program_and_its_version)
{
    static char out[4096];
    ASSERT_EQ(tb_run(out, sizeof out, "'%s' --version", TB_TWINBOARDD), 0);
    ASSERT_TRUE(strncmp(out, "twinboardd " TB_VERSION, strlen("twinboardd " TB_VERSION)) == 0);
    ASSERT_EQ(tb_run(out, sizeof out, "'%s' --version", TB_TWINBOARD), 0);
    ASSERT_TRUE(strncmp(out, "twinboard " TB_VERSION, strlen("twinboard " TB_VERSION)) == 0);
}

static bool file_has(const char *path, const char *text)
{
    static char buf[1 << 16];
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return strstr(buf, text) != NULL;
}

/* Runs the daemon with stderr in a file; journal: JOURNAL_STREAM names that file as systemd
 * names the journal's stream. Returns what the daemon wrote, up to SIGTERM. */
static void run_logging(bool journal, char *out, size_t len)
{
    struct fixture f;
    setup(&f);
    char log[160];
    snprintf(log, sizeof log, "%s/stderr", f.dir);
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        FILE *fp = freopen(log, "w", stderr);
        struct stat st;
        if (!fp || fstat(STDERR_FILENO, &st) != 0)
            _exit(126);
        char js[64];
        snprintf(js, sizeof js, "%llu:%llu", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
        if (journal)
            setenv("JOURNAL_STREAM", js, 1);
        else
            unsetenv("JOURNAL_STREAM");
        execl(TB_TWINBOARDD, "twinboardd", "-c", f.ini, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 300 && !control_listens(f.control); i++)
        usleep(100 * 1000);
    ASSERT_TRUE(control_listens(f.control));
    for (int i = 0; i < 300 && !file_has(log, "MISMATCH 1"); i++)
        usleep(100 * 1000);
    stop(pid);
    FILE *fp = fopen(log, "r");
    ASSERT_TRUE(fp != NULL);
    size_t n = fread(out, 1, len - 1, fp);
    out[n] = '\0';
    fclose(fp);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f.dir);
    ASSERT_OK(system(cmd));
}

TB_TEST(journal_stream_gives_every_line_its_priority)
{
    static char out[1 << 16];
    run_logging(true, out, sizeof out);
    ASSERT_TRUE(strstr(out, "<6>twinboardd: info: started: ") != NULL);
    ASSERT_TRUE(strstr(out, "<6>twinboardd: info: signal 15: stopping") != NULL);
    /* the arbiter's view: a warning over several lines, each its own record */
    ASSERT_TRUE(strstr(out, "<4>twinboardd: warn: MISMATCH 1") != NULL);
    ASSERT_TRUE(strstr(out, "\n<4>twinboardd: warn:   what: ") != NULL); /* a log line a line */
    int lines = 0;
    for (char *l = out; *l; lines++) {
        if (!(l[0] == '<' && l[1] >= '0' && l[1] <= '7' && l[2] == '>'))
            TB_FAIL("a line without a priority: %.80s", l);
        char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : l + strlen(l);
    }
    ASSERT_GT(lines, 2);
}

TB_TEST(without_journal_stream_lines_are_plain)
{
    static char out[1 << 16];
    run_logging(false, out, sizeof out);
    ASSERT_TRUE(strncmp(out, "twinboardd: ", 12) == 0);
    ASSERT_TRUE(strstr(out, "<6>") == NULL);
}
