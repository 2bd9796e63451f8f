/* Boards known by who they are: two reed boards running the real firmware (simavr, behind
 * pseudo-terminals: identical "adapters") with different identities in their EEPROM, offered to
 * the daemon as udev's candidates in either order; the configuration names each seat's board by
 * its identity (reed:id=N). Each board reaches its own seat, and a board plugged in again (a new
 * tty, another candidate name) comes back to the same seat. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_test.h"

struct sim {
    pid_t pid;
    int in; /* the simulator's stdin: "lift e2" lines */
};

/* A reed board with identity id, plugged in as candidate name of dev. */
static void sim_plug(struct sim *s, const char *dev, const char *name, unsigned id)
{
    char link[700], serial[16];
    snprintf(link, sizeof link, "%s/candidate-%s", dev, name);
    snprintf(serial, sizeof serial, "%u", id);
    int in[2], out[2];
    ASSERT_OK(pipe(in));
    ASSERT_OK(pipe(out));
    s->pid = fork();
    ASSERT_GE(s->pid, 0);
    if (s->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[1]);
        close(out[0]);
        execl(REEDBOARD_SIM, REEDBOARD_SIM, "--elf", REEDBOARD_ELF, "--pty", "--link", link,
              "--stdin", "--initial", "start", "--serial", serial, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->in = in[1];
    /* "reedboard-sim: board on /dev/pts/N": the link is there */
    char buf[512];
    size_t n = 0;
    while (n < sizeof buf - 1 && !memchr(buf, '\n', n)) {
        struct pollfd p = {.fd = out[0], .events = POLLIN};
        if (poll(&p, 1, tb_test_ms(10000)) <= 0)
            TB_FAIL("reedboard-sim did not start");
        ssize_t r = read(out[0], buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            TB_FAIL("reedboard-sim exited at start");
        n += (size_t)r;
    }
    buf[n] = '\0';
    ASSERT_STR_CONTAINS(buf, "board on");
    close(out[0]); /* its frame lines are not read: SIGPIPE is ignored there */
}

static void sim_say(struct sim *s, const char *line)
{
    ASSERT_EQ(write(s->in, line, strlen(line)), (ssize_t)strlen(line));
}

/* Unplugged: the simulator ends and its tty with it. */
static void sim_unplug(struct sim *s)
{
    close(s->in);
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
}

static const char *want[3];
static bool log_has_all(struct fx *f)
{
    for (int i = 0; i < 3 && want[i]; i++)
        if (!f->log || !strstr(f->log, want[i]))
            return false;
    const char *st = fx_req(f, "status");
    return !strstr(st, "NOT CONNECTED") && !strstr(st, "waiting for its first reading");
}

static void start_daemon(struct fx *f, const char *name, char *dev, size_t len)
{
    fx_init(f, name);
    snprintf(dev, len, "%s/dev", f->dir);
    ASSERT_OK(mkdir(dev, 0755));
    ASSERT_OK(setenv("TWINBOARD_DEV_DIR", dev, 1));
}

/* The VI player (White) plays e4 on board id 111, the sighted player repeats it on id 222. */
static bool one_ply(struct fx *f)
{
    return fx_plies(f) == 1;
}

static void play_e4(struct fx *f, struct sim *vi, struct sim *sighted)
{
    sim_say(vi, "lift e2\n");
    ASSERT_TRUE(fx_run_until(f, 300, NULL));
    sim_say(vi, "place e4\n");
    ASSERT_TRUE(fx_run_until(f, 600, NULL));
    sim_say(sighted, "lift e2\n");
    ASSERT_TRUE(fx_run_until(f, 300, NULL));
    sim_say(sighted, "place e4\n");
    ASSERT_TRUE(fx_run_until(f, 5000, one_ply));
    char buf[64];
    ASSERT_STR_EQ(fx_moves(f, buf, sizeof buf), "e4");
}

TB_TEST(two_reed_boards_on_identical_ttys_reach_their_seats_in_either_order)
{
    for (int order = 0; order < 2; order++) {
        struct fx f;
        char dev[400];
        start_daemon(&f, order ? "identity-ba" : "identity-ab", dev, sizeof dev);
        struct sim a, b; /* a: id 111 (the VI player's), b: id 222 (the sighted player's) */
        if (order == 0) {
            sim_plug(&a, dev, "ttyUSB0", 111);
            sim_plug(&b, dev, "ttyUSB1", 222);
        } else {
            sim_plug(&b, dev, "ttyUSB0", 222);
            sim_plug(&a, dev, "ttyUSB1", 111);
        }
        fx_options(&f, "reed:id=111", "reed:id=222");
        f.o.speed = TB_DAEMON_SPEED_CONFIG;
        fx_start(&f);
        want[0] = order ? "vi board: reedboard id 111 firmware 1.0.0 on candidate-ttyUSB1"
                        : "vi board: reedboard id 111 firmware 1.0.0 on candidate-ttyUSB0";
        want[1] = order ? "sighted board: reedboard id 222 firmware 1.0.0 on candidate-ttyUSB0"
                        : "sighted board: reedboard id 222 firmware 1.0.0 on candidate-ttyUSB1";
        want[2] = NULL;
        if (!fx_run_until(&f, 8000, log_has_all))
            TB_FAIL("the boards did not reach their seats:\n%s", f.log ? f.log : "");
        /* the status names the tty each board was found on */
        char vi_on[600], sighted_on[600];
        snprintf(vi_on, sizeof vi_on, "vi: White, reed:id=111, connected on %s/candidate-ttyUSB%d,",
                 dev, order ? 1 : 0);
        snprintf(sighted_on, sizeof sighted_on,
                 "sighted: Black, reed:id=222, connected on %s/candidate-ttyUSB%d,", dev,
                 order ? 0 : 1);
        ASSERT_STR_CONTAINS(fx_req(&f, "status"), vi_on);
        ASSERT_STR_CONTAINS(f.answer, sighted_on);
        play_e4(&f, &a, &b);
        sim_unplug(&a);
        sim_unplug(&b);
        fx_stop(&f);
        fx_free(&f);
    }
}

static bool vi_lost(struct fx *f)
{
    return f->log && strstr(f->log, "vi board lost");
}

TB_TEST(a_reed_board_plugged_in_again_keeps_its_seat)
{
    struct fx f;
    char dev[400];
    start_daemon(&f, "identity-replug", dev, sizeof dev);
    struct sim a, b;
    sim_plug(&a, dev, "ttyUSB0", 111);
    sim_plug(&b, dev, "ttyUSB1", 222);
    fx_options(&f, "reed:id=111", "reed:id=222");
    f.o.speed = TB_DAEMON_SPEED_CONFIG;
    fx_start(&f);
    want[0] = "vi board: reedboard id 111 firmware 1.0.0 on candidate-ttyUSB0";
    want[1] = "sighted board: reedboard id 222 firmware 1.0.0 on candidate-ttyUSB1";
    want[2] = NULL;
    ASSERT_TRUE(fx_run_until(&f, 8000, log_has_all));
    /* the VI board unplugged, and plugged in again elsewhere: a new tty, another name */
    sim_unplug(&a);
    ASSERT_TRUE(fx_run_until(&f, 5000, vi_lost));
    char linkpath[700];
    snprintf(linkpath, sizeof linkpath, "%s/candidate-ttyUSB0", dev);
    unlink(linkpath); /* udev removes the name of a device unplugged */
    sim_plug(&a, dev, "ttyUSB2", 111);
    want[0] = "vi board: reedboard id 111 firmware 1.0.0 on candidate-ttyUSB2";
    want[1] = "vi board is back";
    if (!fx_run_until(&f, 8000, log_has_all))
        TB_FAIL("the VI board did not come back to its seat:\n%s", f.log ? f.log : "");
    char vi_on[600];
    snprintf(vi_on, sizeof vi_on, "vi: White, reed:id=111, connected on %s/candidate-ttyUSB2,",
             dev);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), vi_on);
    ASSERT_STR_CONTAINS(f.answer, "sighted: Black, reed:id=222, connected on ");
    play_e4(&f, &a, &b);
    sim_unplug(&a);
    sim_unplug(&b);
    fx_stop(&f);
    fx_free(&f);
}
