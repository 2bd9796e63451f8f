/* chessnut_sim.c - `chessnut-sim`: an emulated Chessnut board (Air, Pro) written from the
 * vendor's published description (host/chessnut), behind a stand-in for its USB HID device: a
 * Unix SOCK_SEQPACKET socket, one HID report a packet, that the chessnut: link opens in place
 * of hidapi (docs/boards.md, "The emulators"). It plays one board's lifts and placements of an
 * event script.
 *
 *   chessnut-sim --link PATH --script FILE [--board NAME] [--no-wait] [--lead MS]
 *                [--linger MS] [--forever] [--unplug AT:FOR]... [--garbage PERMILLE]
 *                [--seed N] [--led-log FILE] [-v]
 *
 * The board scans its squares every SCAN_MS and, once the host has switched its reports on,
 * sends its position whenever it changed (and at once when the reports are switched on). It
 * answers a battery request and keeps its LEDs. Script time 0 is when the host switched the
 * reports on (or at once with --no-wait), plus --lead. --garbage sends, before PERMILLE of its
 * reports, a report of random bytes or a position cut short or holding a nibble that is no
 * piece. --unplug closes the device (the host reads an end) and takes the socket away for a
 * while. Exits 0 after the last event and --linger, 1 on bad arguments or input. */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ebplan.h"
#include "tb_chessnut.h"

#define SCAN_MS 50

struct board {
    uint8_t pieces[64], sent[64];
    bool enabled, must_send;
    uint64_t lit, next_scan, rng;
    int listener, conn;
    unsigned long reports, commands;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* The device plugged in: a listening socket at path. */
static int plug(const char *path)
{
    union {
        struct sockaddr sa;
        struct sockaddr_un un;
    } a = {.un = {.sun_family = AF_UNIX}};
    if (strlen(path) >= sizeof a.un.sun_path) {
        fprintf(stderr, "chessnut-sim: %s: path too long\n", path);
        return -1;
    }
    memcpy(a.un.sun_path, path, strlen(path) + 1);
    unlink(path);
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, &a.sa, sizeof a.un) != 0 || listen(fd, 1) != 0) {
        perror("chessnut-sim: socket");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static void unplug(struct board *b, const char *path)
{
    if (b->conn >= 0)
        close(b->conn);
    if (b->listener >= 0)
        close(b->listener);
    b->conn = b->listener = -1;
    b->enabled = false;
    unlink(path);
}

static uint32_t next_rand(struct board *b)
{
    b->rng = b->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(b->rng >> 33);
}

static void send_report(struct board *b, const uint8_t *buf, int n)
{
    if (b->conn >= 0 && n > 0 && send(b->conn, buf, (size_t)n, MSG_NOSIGNAL) < 0 &&
        errno != EAGAIN) {
        close(b->conn); /* the host went away */
        b->conn = -1;
        b->enabled = false;
    }
}

/* Now and then a report no board should send: random bytes, a position cut short, a position
 * with a nibble that is no piece. */
static void noise(const struct ebplan_opts *o, struct board *b)
{
    if (!o->garbage || (long)(next_rand(b) % 1000) >= o->garbage)
        return;
    uint8_t junk[TB_CHESSNUT_REPORT_MAX];
    int kind = (int)(next_rand(b) % 3), n;
    if (kind == 0) {
        n = 1 + (int)(next_rand(b) % sizeof junk);
        for (int i = 0; i < n; i++)
            junk[i] = (uint8_t)next_rand(b);
    } else {
        n = tb_chessnut_position(junk, sizeof junk, b->pieces);
        if (kind == 1)
            n = 2 + (int)(next_rand(b) % 30); /* cut short */
        else
            junk[2 + next_rand(b) % 32] |= 0x0E; /* a nibble above C */
    }
    send_report(b, junk, n);
}

static void send_position(const struct ebplan_opts *o, struct board *b)
{
    uint8_t r[TB_CHESSNUT_REPORT_MAX];
    noise(o, b);
    send_report(b, r, tb_chessnut_position(r, sizeof r, b->pieces));
    memcpy(b->sent, b->pieces, 64);
    b->reports++;
}

static void command(const struct ebplan_opts *o, struct board *b, const uint8_t *buf, size_t n,
                    uint64_t now)
{
    uint64_t squares = 0;
    uint8_t r[8];
    b->commands++;
    switch (tb_chessnut_command(buf, n, &squares)) {
    case 'E':
        b->enabled = true;
        send_position(o, b); /* the board says where it stands */
        break;
    case 'B':
        send_report(b, r, tb_chessnut_battery(r, sizeof r, 87, false));
        break;
    case 'L':
        if (squares != b->lit)
            ebplan_log_leds(o->led_log, now, squares);
        b->lit = squares;
        break;
    default:
        break;
    }
}

static void scan(const struct ebplan_opts *o, struct board *b, uint64_t now)
{
    while (b->next_scan <= now) {
        b->next_scan += SCAN_MS;
        if (b->enabled && memcmp(b->pieces, b->sent, 64) != 0)
            send_position(o, b);
    }
}

static int run(const struct ebplan_opts *o, const struct ebplan *p)
{
    static struct board b;
    b.rng = (uint64_t)o->seed * 2654435761u + 1;
    memcpy(b.pieces, p->start, 64);
    memcpy(b.sent, p->start, 64);
    b.conn = -1;
    if ((b.listener = plug(o->link)) < 0)
        return 1;
    uint64_t t0 = ebplan_now_ms(), end = UINT64_MAX;
    uint64_t start = o->wait_host ? UINT64_MAX : (uint64_t)o->lead_ms;
    size_t next = 0;
    while (!stop_requested) {
        uint64_t now = ebplan_now_ms() - t0;
        if (start == UINT64_MAX && b.enabled)
            start = now + (uint64_t)o->lead_ms;
        while (start != UINT64_MAX && next < p->n && start + p->a[next].ms <= now) {
            const struct ebplan_action *a = &p->a[next++];
            if (o->verbose)
                fprintf(stderr, "chessnut-sim: %llu ms: square %d piece %d\n",
                        (unsigned long long)a->ms, a->square, a->piece);
            if (a->piece == EBPLAN_UNPLUG)
                unplug(&b, o->link);
            else if (a->piece == EBPLAN_PLUG && b.listener < 0 && (b.listener = plug(o->link)) < 0)
                return 1;
            else if (a->piece >= 0)
                b.pieces[a->square] = (uint8_t)a->piece;
        }
        if (start != UINT64_MAX && next == p->n && end == UINT64_MAX)
            end = now + (uint64_t)o->linger_ms;
        if (!o->forever && now >= end)
            break;
        scan(o, &b, now);
        if (b.listener >= 0 && b.conn < 0)
            b.conn = accept4(b.listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        struct pollfd pf = {.fd = b.conn, .events = POLLIN};
        int r = poll(&pf, 1, 5);
        if (r > 0 && (pf.revents & (POLLIN | POLLHUP))) {
            uint8_t in[TB_CHESSNUT_REPORT_MAX];
            ssize_t k = recv(b.conn, in, sizeof in, 0);
            if (k > 0) {
                command(o, &b, in, (size_t)k, start == UINT64_MAX || now < start ? 0 : now - start);
            } else if (k == 0 || errno != EAGAIN) {
                close(b.conn); /* the host closed the device: wait for it again */
                b.conn = -1;
                b.enabled = false;
            }
        }
    }
    unplug(&b, o->link);
    fprintf(stderr, "chessnut-sim: %zu events played, %lu commands, %lu position reports\n", next,
            b.commands, b.reports);
    return 0;
}

int main(int argc, char **argv)
{
    struct ebplan_opts o;
    if (ebplan_parse(argc, argv, "chessnut-sim", &o) != 0)
        return 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    static struct ebplan p;
    int rc =
        ebplan_script(&p, "chessnut-sim", o.script, o.board, o.unplug_at, o.unplug_for, o.nunplug);
    return rc ? rc : run(&o, &p);
}
