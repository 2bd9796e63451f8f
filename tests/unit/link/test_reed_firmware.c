/* The pty: link against the real reedboard firmware running in simavr (reedboard-sim --pty):
 * the same bytes a board on a USB cable would send, from the same firmware image. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_link.h"
#include "tb_test.h"

struct sim {
    pid_t pid;
    int in;  /* the simulator's stdin: "lift e2" lines */
    int out; /* its stdout: "reedboard-sim: board on ..." */
    char link[512];
};

static void sim_start(struct sim *s)
{
    snprintf(s->link, sizeof s->link, "%s/reedboard", tb_test_tmp_dir());
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
        execl(REEDBOARD_SIM, REEDBOARD_SIM, "--elf", REEDBOARD_ELF, "--pty", "--link", s->link,
              "--stdin", "--initial", "start", "--board", "vi", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->in = in[1];
    s->out = out[0];
    /* Wait for the simulator to say where the board is. */
    char buf[512];
    size_t n = 0;
    while (n < sizeof buf - 1 && !memchr(buf, '\n', n)) {
        struct pollfd p = {.fd = s->out, .events = POLLIN};
        if (poll(&p, 1, tb_test_ms(10000)) <= 0)
            TB_FAIL("reedboard-sim did not start");
        ssize_t r = read(s->out, buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            TB_FAIL("reedboard-sim exited at start");
        n += (size_t)r;
    }
    buf[n] = '\0';
    ASSERT_STR_CONTAINS(buf, "board on");
}

static void sim_say(struct sim *s, const char *line)
{
    ASSERT_EQ(write(s->in, line, strlen(line)), (ssize_t)strlen(line));
}

/* Reads events until one of kind arrives (returned in *out) or 10 s pass. */
static void wait_for(struct tb_link *l, uint64_t now, int kind, struct tb_link_event *out)
{
    for (int tries = 0; tries < tb_test_ms(1000); tries++) {
        struct pollfd p = {.fd = tb_link_fd(l), .events = POLLIN};
        if (p.fd >= 0)
            poll(&p, 1, 10);
        struct tb_link_event ev[16];
        int n = tb_link_read(l, now, ev, 16, NULL);
        ASSERT_GE(n, 0);
        for (int i = 0; i < n; i++) {
            if (ev[i].kind == kind) {
                *out = ev[i];
                return;
            }
            if (ev[i].kind == TB_LINK_EV_FAULT)
                TB_FAIL("unexpected fault: %s", ev[i].text);
        }
    }
    TB_FAIL("no %s event from the firmware", tb_link_event_name(kind));
}

TB_TEST(firmware_answers_info_snapshot_and_reports_moves_then_link_lost)
{
    struct sim s;
    sim_start(&s);
    char res[600];
    snprintf(res, sizeof res, "pty:%s", s.link);
    struct tb_link *l;
    struct tb_error e = {0};
    if (tb_link_open(&l, res, "vi", 0, &e) != TB_OK)
        TB_FAIL("%s", e.msg);
    struct tb_link_event ev;
    wait_for(l, 0, TB_LINK_EV_INFO, &ev);
    ASSERT_STR_CONTAINS(ev.text, "reedboard");
    /* A board that has just started may not have debounced its pieces yet: it reports them
     * as they settle, and a later snapshot shows the initial position. The first reading may
     * have come before the INFO; one asked for always comes (the board's periodic ones only
     * when they differ from what its events say). */
    ASSERT_OK(tb_link_request_snapshot(l, NULL));
    wait_for(l, 0, TB_LINK_EV_SNAPSHOT, &ev);
    for (int i = 0; i < 50 && ev.occupancy != 0xffff00000000ffffull; i++) {
        ASSERT_OK(tb_link_request_snapshot(l, NULL));
        wait_for(l, 0, TB_LINK_EV_SNAPSHOT, &ev);
    }
    ASSERT_U64_EQ(ev.occupancy, 0xffff00000000ffffull);
    uint16_t seq = ev.seq;

    sim_say(&s, "lift e2\n");
    wait_for(l, 1, TB_LINK_EV_LIFT, &ev);
    ASSERT_EQ(ev.square, 12);
    ASSERT_EQ(ev.seq, (uint16_t)(seq + 1));
    sim_say(&s, "place e4\n");
    wait_for(l, 2, TB_LINK_EV_PLACE, &ev);
    ASSERT_EQ(ev.square, 28);
    ASSERT_OK(tb_link_request_snapshot(l, NULL));
    wait_for(l, 3, TB_LINK_EV_SNAPSHOT, &ev);
    ASSERT_U64_EQ(ev.occupancy, (0xffff00000000ffffull & ~(1ull << 12)) | (1ull << 28));

    close(s.in); /* end of input ends the simulator: the board is gone */
    wait_for(l, 4, TB_LINK_EV_LOST, &ev);
    int status;
    ASSERT_EQ(waitpid(s.pid, &status, 0), s.pid);
    close(s.out);
    tb_link_close(l);
}
