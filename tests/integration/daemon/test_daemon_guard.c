/* The real twinboardd guarded: every stopping signal ends it cleanly, promotions only while
 * pending, the PIN's delays, the socket against squatting and symlinks, the socket under load. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_ctl.h"
#include "tb_test.h"

struct daemon {
    char dir[600], script[700], config[700], sock[700], log[700];
    pid_t pid;
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A configuration with both boards on the script (sim:, fast), PIN 4711, then the daemon. */
static void start(struct daemon *d, const char *name, const char *script)
{
    snprintf(d->dir, sizeof d->dir, "%s/%s", tb_test_tmp_dir(), name);
    ASSERT_TRUE(mkdir(d->dir, 0700) == 0 || errno == EEXIST);
    snprintf(d->script, sizeof d->script, "%s/game.txt", d->dir);
    snprintf(d->config, sizeof d->config, "%s/twinboard.ini", d->dir);
    snprintf(d->sock, sizeof d->sock, "%s/control", d->dir);
    snprintf(d->log, sizeof d->log, "%s/log", d->dir);
    FILE *f = fopen(d->script, "w");
    ASSERT_NOT_NULL(f);
    fputs(script, f);
    ASSERT_OK(fclose(f));
    f = fopen(d->config, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "[daemon]\nsocket = %s\njournal_dir = %s/journal\nblip_window_ms = 100\n"
            "[arbiter]\npin = 4711\n[player vi]\nboard = sim:%s?speed=fast\n"
            "[player sighted]\nboard = sim:%s?speed=fast\n",
            d->sock, d->dir, d->script, d->script);
    ASSERT_OK(fclose(f));
    d->pid = fork();
    if (d->pid == 0) {
        int fd = open(d->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0)
            dup2(fd, STDERR_FILENO);
        execl(TB_TWINBOARDD, TB_TWINBOARDD, "-c", d->config, "--audio", "none", "--log-level",
              "warn", (char *)NULL);
        _exit(127);
    }
    char answer[4096];
    struct tb_error err = {0};
    for (int i = 0; i < tb_test_ms(500); i++) {
        if (tb_ctl_request(d->sock, "status", answer, sizeof answer, &err) == 0)
            return;
        sleep_ms(10);
    }
    TB_FAIL("twinboardd did not answer on %s: %s", d->sock, err.msg);
}

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Runs a shell command, its output into out; returns its exit status (-1 if killed). */
static int run_out(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    ASSERT_NOT_NULL(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Stops the daemon with sig; it must exit 0 and leave no socket file. */
static void stop_with(struct daemon *d, int sig)
{
    ASSERT_OK(kill(d->pid, sig));
    int st;
    ASSERT_EQ(waitpid(d->pid, &st, 0), d->pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        TB_FAIL("signal %d (%s): the daemon %s %d", sig, strsignal(sig),
                WIFSIGNALED(st) ? "was killed by signal" : "exited",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    struct stat s;
    if (lstat(d->sock, &s) == 0)
        TB_FAIL("signal %d (%s): the socket file %s is left", sig, strsignal(sig), d->sock);
}

static const char game[] = "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n"
                           "2300 sighted place e4\n";

/* Each signal whose default would kill the daemon ends it cleanly; SIGPIPE is ignored. */
TB_TEST(every_stopping_signal_removes_the_socket)
{
    static const int sigs[] = {SIGTERM, SIGINT,  SIGQUIT,   SIGUSR1,
                               SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct daemon d;
        char name[64];
        snprintf(name, sizeof name, "sig%d", sigs[i]);
        start(&d, name, game);
        stop_with(&d, sigs[i]);
    }
    struct daemon d;
    start(&d, "sigrt", game);
    stop_with(&d, SIGRTMIN + 3);
}

TB_TEST(sigpipe_and_sighup_do_not_stop_it)
{
    struct daemon d;
    start(&d, "sigpipe", game);
    ASSERT_OK(kill(d.pid, SIGPIPE));
    ASSERT_OK(kill(d.pid, SIGHUP));
    sleep_ms(100);
    char answer[4096];
    struct tb_error err = {0};
    ASSERT_EQ(tb_ctl_request(d.sock, "status", answer, sizeof answer, &err), 0);
    stop_with(&d, SIGTERM);
}

/* Wrong PINs: each answer is held back longer (1 s, then 2 s), the log names the peer's uid and
 * pid, and the right PIN still works once the delay has passed. */
TB_TEST(wrong_pins_are_held_back_and_logged_with_uid_and_pid)
{
    struct daemon d;
    start(&d, "pin", game);
    char answer[4096];
    struct tb_error err = {0};
    uint64_t t0 = mono_ms();
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=0000", answer, sizeof answer, &err), 1);
    uint64_t t1 = mono_ms();
    ASSERT_STR_CONTAINS(answer, "error denied wrong arbiter PIN");
    ASSERT_GE(t1 - t0, 950u);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=1111", answer, sizeof answer, &err), 1);
    uint64_t t2 = mono_ms();
    ASSERT_GE(t2 - t1, 1950u);
    /* others are served meanwhile: the loop is not blocked by a held answer */
    ASSERT_EQ(tb_ctl_request(d.sock, "status", answer, sizeof answer, &err), 0);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=4711", answer, sizeof answer, &err), 0);
    char want[120];
    snprintf(want, sizeof want, "wrong arbiter PIN from uid %u pid ", (unsigned)getuid());
    ASSERT_STR_CONTAINS(slurp(d.log), want);
    ASSERT_STR_CONTAINS(slurp(d.log), "(2 in a row)");
    ASSERT_NULL(strstr(slurp(d.log), "4711"));
    stop_with(&d, SIGTERM);
}

/* While one client's wrong PIN is held back, another client's status is answered at once. */
TB_TEST(a_held_wrong_pin_does_not_delay_other_clients)
{
    struct daemon d;
    start(&d, "pin-others", game);
    struct tb_error err = {0};
    int fd = tb_ctl_client_connect(d.sock, false, &err);
    ASSERT_GE(fd, 0);
    static const char wrong[] = "takeback 1 pin=9999\n";
    ASSERT_EQ(write(fd, wrong, sizeof wrong - 1), (ssize_t)(sizeof wrong - 1));
    sleep_ms(50);
    char answer[8192];
    uint64_t t0 = mono_ms();
    ASSERT_EQ(tb_ctl_request(d.sock, "status", answer, sizeof answer, &err), 0);
    ASSERT_LT(mono_ms() - t0, (uint64_t)tb_test_ms(300));
    char got[256] = "";
    ASSERT_GT(read(fd, got, sizeof got - 1), 0);
    ASSERT_STR_CONTAINS(got, "error denied wrong arbiter PIN");
    close(fd);
    stop_with(&d, SIGTERM);
}

/* A second daemon on the same socket refuses to start, naming the running one; the running one
 * still answers. Something that is no socket at the path is not removed. */
TB_TEST(a_running_daemons_socket_is_never_taken_over)
{
    struct daemon d;
    start(&d, "squat", game);
    char cmd[2048], out[4096];
    /* its own journal: the socket alone is shared */
    snprintf(cmd, sizeof cmd, "%s -c %s --journal %s/journal2 --audio none 2>&1", TB_TWINBOARDD,
             d.config, d.dir);
    ASSERT_EQ(run_out(cmd, out, sizeof out), 1);
    char want[64];
    snprintf(want, sizeof want, "another twinboardd (pid %d) is running", (int)d.pid);
    ASSERT_STR_CONTAINS(out, want);
    char answer[4096];
    struct tb_error err = {0};
    ASSERT_EQ(tb_ctl_request(d.sock, "status", answer, sizeof answer, &err), 0);
    stop_with(&d, SIGTERM);

    FILE *f;
    /* a planted file where the socket goes: left alone, the daemon refuses */
    f = fopen(d.sock, "w");
    ASSERT_NOT_NULL(f);
    fputs("precious\n", f);
    ASSERT_OK(fclose(f));
    ASSERT_EQ(run_out(cmd, out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, "no socket is there");
    ASSERT_STR_CONTAINS(slurp(d.sock), "precious");
    unlink(d.sock);

    /* a symlink planted as the lock file: not followed */
    char lock[800], target[800];
    snprintf(lock, sizeof lock, "%s.lock", d.sock);
    snprintf(target, sizeof target, "%s/victim", d.dir);
    f = fopen(target, "w");
    ASSERT_NOT_NULL(f);
    fputs("victim\n", f);
    ASSERT_OK(fclose(f));
    unlink(lock);
    ASSERT_OK(symlink(target, lock));
    ASSERT_EQ(run_out(cmd, out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, "control socket lock");
    ASSERT_STR_EQ(slurp(target), "victim\n");
}

/* The CLI gives up after --timeout on a daemon that never answers, and takes no PIN on argv. */
TB_TEST(cli_times_out_and_refuses_a_pin_on_the_command_line)
{
    char dir[600], sock[700], cmd[2048], out[4096];
    snprintf(dir, sizeof dir, "%s/mute", tb_test_tmp_dir());
    ASSERT_TRUE(mkdir(dir, 0700) == 0 || errno == EEXIST);
    snprintf(sock, sizeof sock, "%s/control", dir);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
    ASSERT_OK(bind(l, (struct sockaddr *)&sa, sizeof sa));
    ASSERT_OK(listen(l, 4)); /* accepted by the kernel, never answered */
    snprintf(cmd, sizeof cmd, "%s status --socket %s --timeout 0.3 2>&1", TB_TWINBOARD, sock);
    uint64_t t0 = mono_ms();
    ASSERT_EQ(run_out(cmd, out, sizeof out), 2);
    ASSERT_LT(mono_ms() - t0, (uint64_t)tb_test_ms(3000));
    ASSERT_STR_CONTAINS(out, "did not answer within 300 ms");
    snprintf(cmd, sizeof cmd, "%s takeback 1 --pin 4711 --socket %s 2>&1", TB_TWINBOARD, sock);
    ASSERT_EQ(run_out(cmd, out, sizeof out), 2);
    ASSERT_STR_CONTAINS(out, "--pin is gone");
    close(l);
}
