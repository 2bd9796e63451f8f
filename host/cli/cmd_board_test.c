/* cmd_board_test.c - `twinboard board-test PORT`: runs a reed board's self-test over its serial
 * port and prints the squares' map.
 *
 * Opens PORT (115200 8N1), waits for the Nano's reset (--wait-ms, default 2000), starts the
 * firmware's self-test (SET_OPTIONS bit 7; docs/protocol.md, "Self-test") and prints each square
 * as it is covered and uncovered and every finding as it comes. At the end of the walk (or when
 * --timeout-s passes, default 600) it prints the map, rank 8 at the top:
 *
 *     o passed   S stuck   X never closed   W another square read   . not reached
 *
 * Exit: 0 a healthy board (all 64 passed), 1 faults found or the walk not finished, 2 bad usage
 * or the port unusable. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rb_proto.h"

struct walk {
    char map[64];
    int faults, done, passed;
};

static void square_name(int sq, char out[3])
{
    out[0] = (char)('a' + sq % 8);
    out[1] = (char)('1' + sq / 8);
    out[2] = 0;
}

static void mark(struct walk *w, int sq, char c)
{
    if (sq >= 0 && sq < 64)
        w->map[sq] = c;
}

/* One finding: said in words, marked on the map. */
static void finding(struct walk *w, uint8_t what, uint16_t detail)
{
    char a[3], b[3];
    square_name(detail & 63, a);
    square_name((detail >> 8) & 63, b);
    switch (what) {
    case RB_PROTO_TEST_STARTED:
        printf("self-test started (%u stuck): cover a1, b1, ..., h8 one at a time; CLOCK skips a "
               "square that does not answer\n",
               detail);
        break;
    case RB_PROTO_TEST_STUCK:
        printf("%s stuck: closed with the board cleared\n", a);
        mark(w, detail, 'S');
        w->faults++;
        break;
    case RB_PROTO_TEST_OK:
        printf("%s ok\n", a);
        mark(w, detail, 'o');
        break;
    case RB_PROTO_TEST_WRONG_SQUARE:
        printf("%s expected, %s read: crossed lines or a miswired square\n", b, a);
        mark(w, detail >> 8, 'W');
        w->faults++;
        break;
    case RB_PROTO_TEST_ROWS_BRIDGED:
    case RB_PROTO_TEST_FILES_BRIDGED:
        printf("%s lines joined (mask 0x%02x): more than one square read at once\n",
               what == RB_PROTO_TEST_ROWS_BRIDGED ? "rank" : "file", detail);
        w->faults++;
        break;
    case RB_PROTO_TEST_NEVER_CLOSED:
        printf("%s never closed: a dead switch, an open diode or a broken line\n", a);
        mark(w, detail, 'X');
        w->faults++;
        break;
    case RB_PROTO_TEST_DONE:
        printf("self-test done: %u of 64 squares passed\n", detail);
        w->done = 1;
        w->passed = detail;
        break;
    default:
        printf("unknown self-test finding %u (detail %u)\n", what, detail);
        break;
    }
}

static void on_msg(void *ctx, const struct rb_proto_msg *m)
{
    struct walk *w = ctx;
    char sq[3];
    if (m->type == RB_PROTO_SQUARE) {
        square_name(m->u.square.square, sq);
        printf("%s %s\n", sq, m->u.square.placed ? "covered" : "uncovered");
    } else if (m->type == RB_PROTO_FAULT && m->u.fault.code == RB_PROTO_FAULT_SELF_TEST) {
        finding(w, m->u.fault.arg, m->u.fault.detail);
    } else if (m->type == RB_PROTO_FAULT && m->u.fault.code == RB_PROTO_FAULT_BAD_REQUEST &&
               m->u.fault.arg == RB_PROTO_SET_OPTIONS) {
        printf("the board refused to start its self-test: its firmware is older; flash a newer "
               "one (hardware/BUILD.md, step 5)\n");
        w->done = -1;
    } else if (m->type == RB_PROTO_FAULT) {
        printf("board fault: %s (arg %u, detail %u)\n", rb_proto_fault_name(m->u.fault.code),
               m->u.fault.arg, m->u.fault.detail);
    }
    fflush(stdout);
}

static int open_port(const char *path)
{
    int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        tb_cli_error("board-test: %s: %s", path, strerror(errno));
        return -1;
    }
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        tb_cli_error("board-test: %s is not a serial port: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    cfmakeraw(&t);
    cfsetispeed(&t, B115200);
    cfsetospeed(&t, B115200);
    t.c_cflag |= CLOCAL | CREAD;
    tcsetattr(fd, TCSANOW, &t);
    return fd;
}

static int send_all(int fd, const uint8_t *buf, size_t len)
{
    while (len) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return -1;
        if (n > 0) {
            buf += n;
            len -= (size_t)n;
        } else {
            poll(&(struct pollfd){.fd = fd, .events = POLLOUT}, 1, 100);
        }
    }
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One numeric option's value, within its range; 0 (named) when it is not. */
static int number(const char *opt, const char *v, long lo, long hi, long *out)
{
    if (tb_cli_parse_int(v, lo, hi, out))
        return 1;
    tb_cli_error("board-test: %s '%s' is not a whole number from %ld to %ld", opt, v, lo, hi);
    return 0;
}

static int options(int argc, char **argv, long *wait_ms, long *debounce, long *timeout_s,
                   const char **port)
{
    enum { O_WAIT = 256, O_DEBOUNCE, O_TIMEOUT };
    static const struct option longs[] = {{"wait-ms", required_argument, NULL, O_WAIT},
                                          {"debounce-ms", required_argument, NULL, O_DEBOUNCE},
                                          {"timeout-s", required_argument, NULL, O_TIMEOUT},
                                          {NULL, 0, NULL, 0}};
    int c, ok = 1;
    while (ok && (c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        switch (c) {
        case 1:
            ok = !*port;
            if (ok)
                *port = optarg;
            else
                tb_cli_error("board-test: one serial port, not '%s' as well", optarg);
            break;
        case O_WAIT:
            ok = number("--wait-ms", optarg, 0, 10000, wait_ms);
            break;
        case O_DEBOUNCE:
            ok = number("--debounce-ms", optarg, RB_PROTO_DEBOUNCE_MIN, RB_PROTO_DEBOUNCE_MAX,
                        debounce);
            break;
        case O_TIMEOUT:
            ok = number("--timeout-s", optarg, 1, 86400, timeout_s);
            break;
        default:
            ok = 0;
            break;
        }
    }
    if (ok && !*port) {
        tb_cli_error("board-test: no serial port given");
        ok = 0;
    }
    return ok ? TB_CLI_OK : TB_CLI_USAGE;
}

int tb_cli_cmd_board_test(int argc, char **argv)
{
    long wait_ms = 2000, debounce = 20, timeout_s = 600;
    const char *port = NULL;
    if (options(argc, argv, &wait_ms, &debounce, &timeout_s, &port) != TB_CLI_OK)
        return tb_cli_usage("board-test");
    int fd = open_port(port);
    if (fd < 0)
        return TB_CLI_USAGE;
    usleep((useconds_t)wait_ms * 1000u); /* the Nano restarts when its port opens */

    uint8_t frame[RB_PROTO_MAX_FRAME];
    struct rb_proto_options o = {(uint8_t)debounce, 0, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST};
    size_t n = rb_proto_encode_set_options(frame, sizeof frame, &o);
    if (send_all(fd, frame, n)) {
        tb_cli_error("board-test: writing to %s: %s", port, strerror(errno));
        close(fd);
        return TB_CLI_USAGE;
    }

    struct walk w;
    memset(w.map, '.', sizeof w.map);
    w.faults = w.done = w.passed = 0;
    struct rb_proto_decoder dec;
    rb_proto_decoder_init(&dec);
    double end = now_s() + (double)timeout_s;
    while (!w.done && now_s() < end) {
        uint8_t buf[256];
        poll(&(struct pollfd){.fd = fd, .events = POLLIN}, 1, 200);
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno != EAGAIN && errno != EINTR) {
            tb_cli_error("board-test: reading %s: %s", port, strerror(errno));
            close(fd);
            return TB_CLI_USAGE;
        }
        if (got > 0)
            rb_proto_decoder_feed(&dec, buf, (size_t)got, on_msg, &w);
    }
    /* leave the self-test: the board goes back to reporting a game */
    o.events = RB_PROTO_EV_ALL;
    n = rb_proto_encode_set_options(frame, sizeof frame, &o);
    send_all(fd, frame, n);
    close(fd);

    if (w.done < 0)
        return TB_CLI_USAGE;
    printf("\n  a b c d e f g h\n");
    for (int r = 7; r >= 0; r--) {
        printf("%d", r + 1);
        for (int f = 0; f < 8; f++)
            printf(" %c", w.map[r * 8 + f]);
        printf(" %d\n", r + 1);
    }
    printf("  a b c d e f g h\n");
    if (!w.done)
        printf("the walk did not finish in %ld s\n", timeout_s);
    return w.done && w.passed == 64 && !w.faults ? TB_CLI_OK : TB_CLI_FOUND;
}
