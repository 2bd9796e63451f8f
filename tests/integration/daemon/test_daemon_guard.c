#define _GNU_SOURCE /* setgroups */
/* The real twinboardd guarded: every stopping signal ends it cleanly, promotions only while
 * pending, the PIN's delays, the socket against squatting and symlinks, the socket under load. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl_load.h"
#include "tb_ctl.h"
#include "tb_test.h"
#include "tb_sock.h"

struct daemon {
    char dir[600], script[700], config[700], sock[700], log[700];
    pid_t pid;
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Runs the daemon on d's configuration and waits until it answers. */
static void launch(struct daemon *d)
{
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

/* A configuration with both boards on the script (sim:, fast), PIN 471193, then the daemon. */
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
            "[arbiter]\npin = 471193\n[player vi]\nboard = sim:%s?speed=fast\n"
            "[player sighted]\nboard = sim:%s?speed=fast\n",
            d->sock, d->dir, d->script, d->script);
    ASSERT_OK(fclose(f));
    launch(d);
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
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=604127", answer, sizeof answer, &err), 1);
    uint64_t t1 = mono_ms();
    ASSERT_STR_CONTAINS(answer, "error denied wrong arbiter PIN");
    ASSERT_GE(t1 - t0, 950u);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=118624", answer, sizeof answer, &err), 1);
    uint64_t t2 = mono_ms();
    ASSERT_GE(t2 - t1, 1950u);
    /* others are served meanwhile: the loop is not blocked by a held answer */
    ASSERT_EQ(tb_ctl_request(d.sock, "status", answer, sizeof answer, &err), 0);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=471193", answer, sizeof answer, &err), 0);
    char want[120];
    snprintf(want, sizeof want, "wrong arbiter PIN from uid %u pid ", (unsigned)getuid());
    ASSERT_STR_CONTAINS(slurp(d.log), want);
    ASSERT_STR_CONTAINS(slurp(d.log), "(2 in a row)");
    ASSERT_NULL(strstr(slurp(d.log), "471193"));
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
    static const char wrong[] = "takeback 1 pin=958273\n";
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
    union tb_test_unix_addr sa;
    ASSERT_OK(bind(l, &sa.sa, tb_test_unix_addr(&sa, sock)));
    ASSERT_OK(listen(l, 4)); /* accepted by the kernel, never answered */
    snprintf(cmd, sizeof cmd, "%s status --socket %s --timeout 0.3 2>&1", TB_TWINBOARD, sock);
    uint64_t t0 = mono_ms();
    ASSERT_EQ(run_out(cmd, out, sizeof out), 2);
    ASSERT_LT(mono_ms() - t0, (uint64_t)tb_test_ms(3000));
    ASSERT_STR_CONTAINS(out, "did not answer within 300 ms");
    snprintf(cmd, sizeof cmd, "%s takeback 1 --pin 471193 --socket %s 2>&1", TB_TWINBOARD, sock);
    ASSERT_EQ(run_out(cmd, out, sizeof out), 2);
    ASSERT_STR_CONTAINS(out, "--pin is gone");
    close(l);
}

/* ---- where things go: never /tmp, no symlinked or shared directory ------------------------- */

/* Runs twinboardd with args (NULL-terminated) as uid (or as this process when uid is -1), with
 * XDG_RUNTIME_DIR / XDG_STATE_HOME / HOME set as given (NULL: unset); its stdout and stderr
 * into out. Waits at most wait_ms for it to end (then stops it with SIGTERM); returns its exit
 * status, or -1 when it was stopped. */
static int run_daemon_as(int uid, const char *runtime, const char *state, const char *home,
                         const char *const *args, int wait_ms, char *out, size_t len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/run-as.out", tb_test_tmp_dir());
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        if (uid >= 0 &&
            (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0))
            _exit(126);
        const char *names[3] = {"XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME"};
        const char *values[3] = {runtime, state, home};
        for (int i = 0; i < 3; i++)
            values[i] ? setenv(names[i], values[i], 1) : unsetenv(names[i]);
        char *argv[16] = {TB_TWINBOARDD};
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = (char *)args[i];
        execv(TB_TWINBOARDD, argv);
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    int st = 0;
    bool stopped = false;
    for (int waited = 0; waitpid(pid, &st, WNOHANG) == 0; waited += 10) {
        if (waited >= wait_ms && !stopped) {
            kill(pid, SIGTERM);
            stopped = true;
        }
        sleep_ms(10);
    }
    snprintf(out, len, "%s", slurp(path));
    return stopped ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -2;
}

/* A directory of the test that an unprivileged uid may use (the scratch directory is 0700). */
static void dir_for(int uid, const char *dir)
{
    ASSERT_TRUE(mkdir(dir, 0700) == 0 || errno == EEXIST);
    if (uid >= 0) {
        ASSERT_OK(chmod(tb_test_tmp_dir(), 0711));
        ASSERT_OK(chown(dir, (uid_t)uid, (gid_t)uid));
    }
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    ASSERT_OK(fclose(f));
}

/* Without socket= and journal_dir= a user's daemon puts its socket in
 * $XDG_RUNTIME_DIR/twinboard/ and its journals in $XDG_STATE_HOME/twinboard (else
 * ~/.local/state/twinboard), both made 0700; without XDG_RUNTIME_DIR it stops with an error that
 * asks for socket=, never falling back to /tmp. As root the defaults are the service's. */
TB_TEST(default_places_are_the_users_own_never_tmp)
{
    int uid = geteuid() == 0 ? 65534 : -1; /* as root: the defaults of an ordinary user */
    char dir[600], run[700], state[700], home[700], cfg[700], out[8192], want[800];
    snprintf(dir, sizeof dir, "%s/places", tb_test_tmp_dir());
    dir_for(uid, dir);
    snprintf(run, sizeof run, "%s/run", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    snprintf(home, sizeof home, "%s/home", dir);
    snprintf(cfg, sizeof cfg, "%s/twinboard.ini", dir);
    write_file(cfg, "[arbiter]\npin = 471193\n[player vi]\nboard = keys:\n[player sighted]\n"
                    "board = keys:\n");
    for (int i = 0; i < 2; i++) {
        const char *d = i ? state : run;
        ASSERT_TRUE(mkdir(d, 0700) == 0 || errno == EEXIST);
        if (uid >= 0)
            ASSERT_OK(chown(d, (uid_t)uid, (gid_t)uid));
    }
    const char *check[] = {"--check-config", cfg, NULL};
    ASSERT_EQ(run_daemon_as(uid, run, state, home, check, tb_test_ms(5000), out, sizeof out), 0);
    snprintf(want, sizeof want, "control socket: %s/twinboard/control\n", run);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want, "journal: %s/twinboard\n", state);
    ASSERT_STR_CONTAINS(out, want);
    ASSERT_NULL(strstr(out, "/tmp/twinboard"));
    /* no XDG_STATE_HOME: ~/.local/state/twinboard */
    ASSERT_EQ(run_daemon_as(uid, run, NULL, home, check, tb_test_ms(5000), out, sizeof out), 0);
    snprintf(want, sizeof want, "journal: %s/.local/state/twinboard\n", home);
    ASSERT_STR_CONTAINS(out, want);
    /* no XDG_RUNTIME_DIR: an error asking for socket=, not /tmp */
    ASSERT_EQ(run_daemon_as(uid, NULL, state, home, check, tb_test_ms(5000), out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, "no place for the control socket: XDG_RUNTIME_DIR is not set");
    ASSERT_STR_CONTAINS(out, "set socket = PATH in [daemon]");
    const char *daemon[] = {"-c", cfg, "--audio", "none", NULL};
    ASSERT_EQ(run_daemon_as(uid, NULL, state, home, daemon, tb_test_ms(5000), out, sizeof out), 78);
    ASSERT_STR_CONTAINS(out, "no place for the control socket");

    /* the daemon itself: where things land, and the modes of what it made */
    ASSERT_EQ(run_daemon_as(uid, run, state, home, daemon, tb_test_ms(1500), out, sizeof out), -1);
    char sock[800], journal[800];
    snprintf(sock, sizeof sock, "%s/twinboard", run);
    snprintf(journal, sizeof journal, "%s/twinboard/current.tbj", state);
    struct stat st;
    ASSERT_OK(lstat(sock, &st));
    ASSERT_TRUE(S_ISDIR(st.st_mode));
    ASSERT_EQ(st.st_mode & 07777, 0700u);
    ASSERT_OK(lstat(journal, &st));
    ASSERT_TRUE(S_ISREG(st.st_mode));
    snprintf(journal, sizeof journal, "%s/twinboard", state);
    ASSERT_OK(lstat(journal, &st));
    ASSERT_EQ(st.st_mode & 07777, 0700u);
    snprintf(want, sizeof want, "socket=%s/twinboard/control", run);
    ASSERT_STR_CONTAINS(out, want);

    if (geteuid() == 0) { /* root is the service: /run/twinboard and /var/lib/twinboard */
        ASSERT_EQ(run_daemon_as(-1, run, state, home, check, tb_test_ms(5000), out, sizeof out), 0);
        ASSERT_STR_CONTAINS(out, "control socket: /run/twinboard/control\n");
        ASSERT_STR_CONTAINS(out, "journal: /var/lib/twinboard\n");
    }
}

/* A symbolic link as the socket's or the journal's directory is not followed, and a directory
 * others may write to (like /tmp) is refused, each with the path and what is wrong. */
TB_TEST(a_symlinked_or_shared_directory_is_refused)
{
    char dir[600], real[700], link_[700], cfg[700], text[2400], out[8192], want[1600];
    snprintf(dir, sizeof dir, "%s/unsafe", tb_test_tmp_dir());
    ASSERT_TRUE(mkdir(dir, 0700) == 0 || errno == EEXIST);
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(link_, sizeof link_, "%s/link", dir);
    snprintf(cfg, sizeof cfg, "%s/twinboard.ini", dir);
    ASSERT_OK(mkdir(real, 0700));
    ASSERT_OK(symlink(real, link_));
    const char *args[] = {"-c", cfg, "--audio", "none", NULL};
    const char *check[] = {"--check-config", cfg, NULL};
    static const char keys[] = "[arbiter]\npin = 471100\n[player vi]\nboard = keys:\n"
                               "[player sighted]\nboard = keys:\n";
    /* the socket in a symlinked directory */
    snprintf(text, sizeof text, "[daemon]\nsocket = %s/control\njournal_dir = %s/journal\n%s",
             link_, dir, keys);
    write_file(cfg, text);
    snprintf(want, sizeof want, "control socket directory %s is a symbolic link: not followed",
             link_);
    ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, args, tb_test_ms(5000), out, sizeof out), 78);
    ASSERT_STR_CONTAINS(out, want);
    ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, check, tb_test_ms(5000), out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, want);
    /* the journal directory a symlink */
    snprintf(text, sizeof text, "[daemon]\nsocket = %s/control\njournal_dir = %s\n%s", dir, link_,
             keys);
    write_file(cfg, text);
    ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, args, tb_test_ms(5000), out, sizeof out), 78);
    snprintf(want, sizeof want, "journal directory %s is a symbolic link", link_);
    ASSERT_STR_CONTAINS(out, want);
    struct stat st;
    snprintf(want, sizeof want, "%s/current.tbj", real);
    ASSERT_NE(lstat(want, &st), 0); /* nothing made in the link's target */
    /* a directory every user may write to, and one its group may */
    static const struct {
        unsigned mode;
        const char *why;
    } modes[] = {{01777, "every user may write to it"}, {0770, "its group may write to it"}};
    for (size_t i = 0; i < 2; i++) {
        ASSERT_OK(chmod(real, modes[i].mode));
        snprintf(text, sizeof text, "[daemon]\nsocket = %s/control\njournal_dir = %s/journal\n%s",
                 real, dir, keys);
        write_file(cfg, text);
        ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, args, tb_test_ms(5000), out, sizeof out), 78);
        snprintf(want, sizeof want, "control socket directory %s is not safe: %s", real,
                 modes[i].why);
        ASSERT_STR_CONTAINS(out, want);
        ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, check, tb_test_ms(5000), out, sizeof out), 1);
        ASSERT_STR_CONTAINS(out, want);
        snprintf(want, sizeof want, "%s/control", real);
        ASSERT_NE(lstat(want, &st), 0); /* no socket made there */
    }
    /* a directory of its own inside one every user may write to without the sticky bit: the
       one above could be renamed away and replaced */
    char open_[700], inner[800];
    snprintf(open_, sizeof open_, "%s/open", dir);
    snprintf(inner, sizeof inner, "%s/inner", open_);
    ASSERT_OK(mkdir(open_, 0700));
    ASSERT_OK(chmod(open_, 0777));
    ASSERT_OK(mkdir(inner, 0700));
    snprintf(text, sizeof text, "[daemon]\nsocket = %s/control\njournal_dir = %s\n%s", inner, dir,
             keys);
    write_file(cfg, text);
    ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, args, tb_test_ms(5000), out, sizeof out), 78);
    snprintf(want, sizeof want,
             "control socket directory %s is not safe: %s above it may be written by other "
             "users without the sticky bit",
             inner, open_);
    ASSERT_STR_CONTAINS(out, want);
    /* /tmp itself, as a configured directory */
    snprintf(text, sizeof text, "[daemon]\nsocket = /tmp/twinboard-test-%d\njournal_dir = %s\n%s",
             (int)getpid(), dir, keys);
    write_file(cfg, text);
    ASSERT_EQ(run_daemon_as(-1, NULL, NULL, NULL, check, tb_test_ms(5000), out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, "control socket directory /tmp is not safe: every user may write");
}

/* ---- the PIN changed without a restart ---------------------------------------------------- */

/* set-pin takes the current PIN as every arbiter request does and the new one from TB_NEW_PIN
 * (never argv); the old PIN stops working at once, the log names who changed it and never the
 * PIN; the change survives a restart until the configuration names another PIN. */
TB_TEST(set_pin_changes_the_pin_without_a_restart)
{
    struct daemon d;
    start(&d, "setpin", game);
    char cmd[2048], out[4096], answer[4096];
    struct tb_error err = {0};
    static const struct {
        const char *env, *opt;
        int exit;
        const char *says;
    } runs[] = {
        /* argv and malformed new PINs are refused before anything is sent */
        {"TB_PIN=471193", "--new-pin 135790", 2, "--new-pin: a PIN on the command line is seen"},
        {"TB_PIN=471193 TB_NEW_PIN=12x", "", 2, "the new PIN (TB_NEW_PIN) must be 6 to 8 digits"},
        /* the wrong current PIN: refused, counted as a wrong PIN, nothing changes */
        {"TB_PIN=604127 TB_NEW_PIN=135790", "", 1, "wrong arbiter PIN"},
        /* the right one: changed, and the old PIN is wrong from now on */
        {"TB_PIN=471193 TB_NEW_PIN=135790", "", 0, "the arbiter PIN is changed"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s %s set-pin %s --socket %s 2>&1", runs[i].env, TB_TWINBOARD,
                 runs[i].opt, d.sock);
        ASSERT_EQ(run_out(cmd, out, sizeof out), runs[i].exit);
        ASSERT_STR_CONTAINS(out, runs[i].says);
    }
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=471193", answer, sizeof answer, &err), 1);
    ASSERT_STR_CONTAINS(answer, "wrong arbiter PIN");
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=135790", answer, sizeof answer, &err), 0);
    char want[200], kept[800];
    snprintf(want, sizeof want, "arbiter PIN changed by uid %u pid ", (unsigned)getuid());
    ASSERT_STR_CONTAINS(slurp(d.log), want);
    ASSERT_NULL(strstr(slurp(d.log), "135790"));
    snprintf(kept, sizeof kept, "%s/journal/arbiter-pin", d.dir);
    struct stat st;
    ASSERT_OK(lstat(kept, &st));
    ASSERT_EQ(st.st_mode & 0777, 0600u);
    /* a short or guessable one is refused, nothing changed; a good one is taken */
    ASSERT_EQ(tb_ctl_request(d.sock, "set-pin 24680 pin=135790", answer, sizeof answer, &err), 1);
    ASSERT_STR_CONTAINS(answer, "the new PIN must be 6 to 8 digits");
    ASSERT_EQ(tb_ctl_request(d.sock, "set-pin 111111 pin=135790", answer, sizeof answer, &err), 1);
    ASSERT_STR_CONTAINS(answer, "one digit repeated");
    ASSERT_EQ(tb_ctl_request(d.sock, "set-pin 246809 pin=135790", answer, sizeof answer, &err), 0);
    ASSERT_STR_CONTAINS(answer, "the arbiter PIN is changed");
    stop_with(&d, SIGTERM);

    /* a restart keeps it */
    launch(&d);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=246809", answer, sizeof answer, &err), 0);
    stop_with(&d, SIGTERM);
    ASSERT_STR_CONTAINS(slurp(d.log), "the one set with set-pin");
    /* until the configuration names another PIN: then the configuration's holds */
    char config[4096];
    snprintf(config, sizeof config, "%s", slurp(d.config));
    char *pin = strstr(config, "pin = 471193");
    ASSERT_NOT_NULL(pin);
    memcpy(pin, "pin = 975318", 12);
    write_file(d.config, config);
    launch(&d);
    ASSERT_EQ(tb_ctl_request(d.sock, "new-game pin=975318", answer, sizeof answer, &err), 0);
    stop_with(&d, SIGTERM);
    ASSERT_STR_CONTAINS(slurp(d.log), "the configuration names another PIN");
    ASSERT_NE(lstat(kept, &st), 0);
}

/* A PIN under 6 digits, one digit repeated or a run is refused by --check-config, and the daemon
 * does not start with it: the same line, on stdout for the check and on stderr for the start. */
TB_TEST(a_short_or_guessable_pin_keeps_the_daemon_from_starting)
{
    struct daemon d;
    start(&d, "pinweak", game);
    stop_with(&d, SIGTERM);
    char config[4096], weak[4200], cmd[2048], out[8192], want[800];
    snprintf(config, sizeof config, "%s", slurp(d.config));
    char *pin = strstr(config, "pin = 471193\n");
    ASSERT_NOT_NULL(pin);
    *pin = '\0';
    static const char *const pins[] = {"4711", "000000", "345678", "76543210"};
    static const char *const says[] = {"pin must be 6 to 8 digits", "pin is one digit repeated",
                                       "pin is a run of digits", "pin is a run of digits"};
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        snprintf(weak, sizeof weak, "%spin = %s\n%s", config, pins[i], pin + 13);
        write_file(d.config, weak);
        snprintf(want, sizeof want, "%s:6: %s", d.config, says[i]);
        snprintf(cmd, sizeof cmd, "%s --check-config %s 2>/dev/null", TB_TWINBOARDD, d.config);
        ASSERT_EQ(run_out(cmd, out, sizeof out), 1);
        ASSERT_STR_CONTAINS(out, want);
        snprintf(cmd, sizeof cmd, "%s -c %s 2>&1 >/dev/null", TB_TWINBOARDD, d.config);
        ASSERT_EQ(run_out(cmd, out, sizeof out), 78); /* EX_CONFIG: the unit does not restart */
        ASSERT_STR_CONTAINS(out, want);
        ASSERT_NULL(strstr(out, "state: ")); /* it never ran */
    }
}

/* ---- the socket: squatters ----------------------------------------------------------------- */

/* A listening socket planted at the path without the lock (a squatter) is replaced: the CLI
 * then reaches the daemon. A squatter of another user never receives the PIN: the CLI checks the
 * socket's owner and the peer's uid first. */
TB_TEST(a_squatters_socket_is_replaced_and_never_gets_the_pin)
{
    char dir[600], sock[700], cmd[2048], out[4096];
    struct daemon d;
    snprintf(dir, sizeof dir, "%s/squatter", tb_test_tmp_dir());
    ASSERT_TRUE(mkdir(dir, 0700) == 0 || errno == EEXIST);
    snprintf(sock, sizeof sock, "%s/control", dir);
    int l = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    union tb_test_unix_addr sa;
    ASSERT_OK(bind(l, &sa.sa, tb_test_unix_addr(&sa, sock)));
    ASSERT_OK(listen(l, 4));
    start(&d, "squatter", game); /* the same directory, the same socket path */
    for (int a; (a = accept4(l, NULL, NULL, SOCK_NONBLOCK)) >= 0;)
        close(a); /* start()'s first tries, made before the daemon was there */
    snprintf(cmd, sizeof cmd, "TB_PIN=471193 %s takeback 1 --socket %s 2>&1", TB_TWINBOARD, sock);
    run_out(cmd, out, sizeof out);
    ASSERT_NULL(strstr(out, "cannot reach")); /* the daemon answered, whatever it said */
    struct pollfd p = {.fd = l, .events = POLLIN};
    ASSERT_EQ(poll(&p, 1, 0), 0); /* the squatter was never reached */
    close(l);
    stop_with(&d, SIGTERM);

    if (geteuid() != 0)
        return; /* another user's socket needs a second uid */
    /* another user's socket in a directory that user may write to */
    char shared[700], other[800];
    snprintf(shared, sizeof shared, "%s/shared", dir);
    ASSERT_OK(chmod(tb_test_tmp_dir(), 0711));
    ASSERT_OK(chmod(dir, 0711));
    ASSERT_OK(mkdir(shared, 0777));
    ASSERT_OK(chmod(shared, 0777));
    snprintf(other, sizeof other, "%s/control", shared);
    int ready[2];
    ASSERT_OK(pipe(ready));
    pid_t pid = fork();
    if (pid == 0) { /* uid 65534: listens, reports how many bytes it received */
        if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
            _exit(1);
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        union tb_test_unix_addr o;
        if (bind(s, &o.sa, tb_test_unix_addr(&o, other)) != 0 || chmod(other, 0666) != 0 ||
            listen(s, 4) != 0)
            _exit(1);
        char c = 'r', buf[256];
        if (write(ready[1], &c, 1) != 1)
            _exit(1);
        ssize_t got = 0;
        struct pollfd q = {.fd = s, .events = POLLIN};
        if (poll(&q, 1, 3000) == 1) {
            int a = accept(s, NULL, NULL);
            struct pollfd r = {.fd = a, .events = POLLIN};
            if (poll(&r, 1, 1000) == 1)
                got = read(a, buf, sizeof buf);
        }
        _exit(got > 0 ? 3 : 0);
    }
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    snprintf(cmd, sizeof cmd, "TB_PIN=471193 %s resolve 1 --socket %s 2>&1", TB_TWINBOARD, other);
    ASSERT_EQ(run_out(cmd, out, sizeof out), 2);
    ASSERT_STR_CONTAINS(out, "uid 65534, not of this user, root or the user twinboard: the PIN "
                             "is not sent");
    int st;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT_TRUE(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0); /* it received nothing at all */
    close(ready[0]);
    close(ready[1]);
}

/* ---- the socket under load ----------------------------------------------------------------- */

/* 64 idle connections and 32 that send a byte a second without ever finishing a request are
 * held open while the real `twinboard status` runs 25 times: the answers arrive within 100 ms
 * (the median; a busy machine may hold one program's start back, so each one within a second;
 * TB_TIME_MULTIPLIER scales both). As root the load comes from 6 other uids (16 each, the
 * per-uid limit), so the total limit is what is tested; else from this uid, the per-uid one. */
TB_TEST(status_answers_within_100_ms_beside_64_idle_and_32_slow_connections)
{
    struct daemon d;
    start(&d, "load", game);
    if (geteuid() == 0) { /* the socket's group (root) may connect: let the other uids in */
        ASSERT_OK(chmod(tb_test_tmp_dir(), 0711));
        ASSERT_OK(chmod(d.dir, 0750));
    }
    struct tb_ctl_load load;
    ASSERT_OK(tb_ctl_load_start(&load, d.sock, 64, 32, geteuid() == 0 ? 61001 : -1));
    char *argv[] = {(char *)TB_TWINBOARD, "status", "--socket", d.sock, "--timeout", "5", NULL};
    enum { RUNS = 25 };
    double ms[RUNS], median, max;
    tb_ctl_load_time(argv, 1, 0, ms); /* the program's first start reads its files from disk */
    int failed = tb_ctl_load_time(argv, RUNS, 120, ms);
    tb_ctl_load_stop(&load);
    stop_with(&d, SIGTERM); /* first: a failure below leaves no daemon behind */
    tb_ctl_load_stats(ms, RUNS, &median, &max);
    fprintf(stderr, "status with 64 idle + 32 slow connections: median %.1f ms, max %.1f ms\n",
            median, max);
    ASSERT_EQ(failed, 0);
    ASSERT_LT(median, (double)tb_test_ms(100));
    ASSERT_LT(max, (double)tb_test_ms(1000));
    ASSERT_STR_CONTAINS(slurp(d.log), "connection limit"); /* the limits were reached */
}

/* ---- one uid guessing and flooding, another with the right PIN ------------------------------ */

static long file_size(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 ? (long)s.st_size : -1;
}

/* A child as uid 61101 (group root: the socket's) sending requests as fast as the daemon answers
 * for ms: wrong PINs (guess), requests without a PIN or garbage; it writes how many were refused
 * into the pipe. */
static pid_t attacker(const char *sock, bool guess, int ms, int out)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (setgroups(0, NULL) != 0 || setgid(0) != 0 || setuid(61101) != 0)
        _exit(1);
    char answer[512], line[64];
    struct tb_error err = {0};
    unsigned long n = 0;
    uint64_t end = mono_ms() + (uint64_t)ms;
    for (int i = 0; mono_ms() < end; i++) {
        if (guess)
            snprintf(line, sizeof line, "new-game pin=%06d", i % 1000000);
        else
            snprintf(line, sizeof line, i % 2 ? "new-game" : "takeback x%d", i);
        n += tb_ctl_request(sock, line, answer, sizeof answer, &err) == 1;
    }
    if (write(out, &n, sizeof n) != (ssize_t)sizeof n)
        _exit(1);
    _exit(0);
}

/* One uid guesses PINs one after another (each answer held back longer) and floods requests
 * that are refused (no PIN, garbage) for 6 s; meanwhile another uid's right-PIN request every
 * 400 ms is answered within 1 s (TB_TIME_MULTIPLIER scales it), and the log grows by a few
 * lines, not one per refusal (before, each refusal wrote a line: about 100 bytes each). */
TB_TEST(a_brute_force_from_one_uid_never_delays_another_uids_right_pin_and_the_log_stays_small)
{
    if (geteuid() != 0) {
        fprintf(stderr, "skipped: a second uid needs root\n");
        return;
    }
    struct daemon d;
    start(&d, "brute", game);
    ASSERT_OK(chmod(tb_test_tmp_dir(), 0711));
    ASSERT_OK(chmod(d.dir, 0750));
    long log0 = file_size(d.log);
    int counts[2];
    ASSERT_OK(pipe(counts));
    enum { FLOOD_MS = 6000 };
    pid_t guesser = attacker(d.sock, true, FLOOD_MS, counts[1]);
    sleep_ms(100); /* its first wrong PIN is checked at once: among the lines told */
    pid_t flood1 = attacker(d.sock, false, FLOOD_MS, counts[1]);
    pid_t flood2 = attacker(d.sock, false, FLOOD_MS, counts[1]);
    uint64_t worst = 0, t_end = mono_ms() + FLOOD_MS - 500;
    int rights = 0;
    char answer[4096];
    struct tb_error err = {0};
    sleep_ms(300);
    while (mono_ms() < t_end) {
        uint64_t t0 = mono_ms();
        int rc = tb_ctl_request(d.sock, "new-game pin=471193", answer, sizeof answer, &err);
        uint64_t took = mono_ms() - t0;
        if (rc != 0)
            TB_FAIL("the right PIN from uid 0 was refused: %s%s", answer, err.msg);
        worst = took > worst ? took : worst;
        rights++;
        sleep_ms(400);
    }
    unsigned long refused = 0, n;
    pid_t kids[] = {guesser, flood1, flood2};
    for (int i = 0; i < 3; i++) {
        int st;
        ASSERT_EQ(waitpid(kids[i], &st, 0), kids[i]);
        ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        ASSERT_EQ(read(counts[0], &n, sizeof n), (ssize_t)sizeof n);
        refused += n;
    }
    close(counts[0]);
    close(counts[1]);
    long grown = file_size(d.log) - log0;
    stop_with(&d, SIGTERM);
    fprintf(stderr,
            "%d right-PIN requests beside %lu refused ones from uid 61101: slowest %llu ms; the "
            "log grew %ld bytes\n",
            rights, refused, (unsigned long long)worst, grown);
    ASSERT_GT(rights, 5);
    ASSERT_GT(refused, 500ul);
    ASSERT_LT(worst, (uint64_t)tb_test_ms(1000));
    ASSERT_LT(grown, 4096l);
    char want[80];
    snprintf(want, sizeof want, "wrong arbiter PIN from uid 61101 pid ");
    ASSERT_STR_CONTAINS(slurp(d.log), want); /* the first refusals are told as they are */
}
