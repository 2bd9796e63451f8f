/* The real twinboardd guarded: every stopping signal ends it cleanly, promotions only while
 * pending, the PIN's delays, the socket against squatting and symlinks, the socket under load. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_ctl.h"
#include "tb_test.h"

struct daemon {
    char dir[600], script[700], config[700], sock[700];
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
