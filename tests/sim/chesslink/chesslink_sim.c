/* chesslink_sim.c - `chesslink-sim`: an emulated Millennium ChessLink board on a
 * pseudo-terminal (clsim.h), playing one board's lifts and placements of an event script
 * (docs/boards.md, "The emulators").
 *
 *   chesslink-sim --link PATH --script FILE [--board NAME] [--no-wait] [--lead MS]
 *                 [--linger MS] [--forever] [--unplug AT:FOR]... [--garbage PERMILLE]
 *                 [--torn PERMILLE] [--seed N] [--led-log FILE] [-v]
 *
 * Script time 0 is when the host has chosen a report mode (or at once with --no-wait), plus
 * --lead. --garbage puts random bytes into the line, PERMILLE of the writes (they fall inside
 * frames too: cut frames). --torn reads PERMILLE of the scans that see a change as if a piece
 * were lifted while the board read its squares (a moved piece on both squares or on neither for
 * one scan; the board's own debounce, three equal scans, keeps such a scan from its reports).
 * --led-log writes a line for every change of the LEDs: the script
 * time and the squares whose four corners are lit ("off" for none). Exits 0 after the last
 * event and --linger, 1 on bad arguments or input. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "clsim.h"
#include "ebplan.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* A fresh pty behind link (renamed into place: the host never sees a dangling link). */
static int plug(const char *link)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    struct termios t;
    if (fd < 0 || grantpt(fd) != 0 || unlockpt(fd) != 0 || tcgetattr(fd, &t) != 0) {
        perror("chesslink-sim: pty");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.new", link);
    unlink(tmp);
    const char *pts = ptsname(fd);
    if (!pts || symlink(pts, tmp) != 0 || rename(tmp, link) != 0) {
        perror("chesslink-sim: link");
        close(fd);
        return -1;
    }
    return fd;
}

/* The board's bytes to the host, with --garbage now and then among them. */
static void send_out(const struct ebplan_opts *o, struct clsim *s, int fd, uint64_t *rng)
{
    uint8_t out[4096];
    size_t n = clsim_take(s, out, sizeof out);
    size_t off = 0;
    while (off < n) {
        size_t chunk = n - off;
        *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
        if (o->garbage && (long)((*rng >> 33) % 1000) < o->garbage) {
            chunk = 1 + (size_t)(*rng >> 20) % chunk; /* the junk lands inside a frame */
            uint8_t junk[4];
            for (size_t i = 0; i < sizeof junk; i++)
                junk[i] = (uint8_t)(*rng >> (8 * i));
            if (write(fd, junk, sizeof junk) < 0)
                return;
        }
        ssize_t w = write(fd, out + off, chunk);
        if (w <= 0)
            return; /* nobody reads: the host asks again */
        off += (size_t)w;
    }
}

static int run(const struct ebplan_opts *o, struct ebplan *p)
{
    static struct clsim sim;
    uint64_t t0 = ebplan_now_ms(), rng = (uint64_t)o->seed * 2654435761u + 1;
    clsim_init(&sim, p->start, 0);
    sim.torn = o->torn;
    sim.rng = rng ^ 0x9E3779B97F4A7C15ull;
    int fd = plug(o->link);
    if (fd < 0)
        return 1;
    uint64_t start = o->wait_host ? UINT64_MAX : (uint64_t)o->lead_ms, end = UINT64_MAX;
    uint64_t lit = 0;
    size_t next = 0;
    while (!stop_requested) {
        uint64_t now = ebplan_now_ms() - t0;
        if (start == UINT64_MAX && sim.report_set)
            start = now + (uint64_t)o->lead_ms;
        while (start != UINT64_MAX && next < p->n && start + p->a[next].ms <= now) {
            const struct ebplan_action *a = &p->a[next++];
            if (o->verbose)
                fprintf(stderr, "chesslink-sim: %llu ms: square %d piece %d\n",
                        (unsigned long long)a->ms, a->square, a->piece);
            if (a->piece == EBPLAN_UNPLUG && fd >= 0) {
                close(fd);
                unlink(o->link);
                fd = -1;
                clsim_unplug(&sim);
            } else if (a->piece == EBPLAN_PLUG && fd < 0) {
                if ((fd = plug(o->link)) < 0)
                    return 1;
            } else if (a->piece >= 0) {
                clsim_set(&sim, a->square, a->piece);
            }
        }
        if (start != UINT64_MAX && next == p->n && end == UINT64_MAX)
            end = now + (uint64_t)o->linger_ms;
        if (!o->forever && now >= end)
            break;
        clsim_tick(&sim, now);
        if (fd < 0)
            clsim_unplug(&sim); /* unplugged: nothing reaches the host */
        else
            send_out(o, &sim, fd, &rng);
        if (clsim_lit(&sim) != lit) {
            lit = clsim_lit(&sim);
            ebplan_log_leds(o->led_log, start == UINT64_MAX || now < start ? 0 : now - start, lit);
        }
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, fd >= 0 ? 1 : 0, 5);
        if (r > 0 && (pf.revents & POLLIN)) {
            uint8_t in[512];
            ssize_t k = read(fd, in, sizeof in);
            if (k > 0)
                clsim_input(&sim, in, (size_t)k, now);
        } else if (r > 0 && (pf.revents & POLLHUP)) {
            struct timespec ts = {0, 10 * 1000000L}; /* no host on the line yet */
            nanosleep(&ts, NULL);
        }
    }
    if (fd >= 0)
        close(fd);
    unlink(o->link);
    fprintf(stderr, "chesslink-sim: %zu events played, %llu commands, %llu reports\n", next,
            (unsigned long long)sim.commands, (unsigned long long)sim.reports);
    return 0;
}

int main(int argc, char **argv)
{
    struct ebplan_opts o;
    if (ebplan_parse(argc, argv, "chesslink-sim", &o) != 0)
        return 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    static struct ebplan p;
    int rc =
        ebplan_script(&p, "chesslink-sim", o.script, o.board, o.unplug_at, o.unplug_for, o.nunplug);
    return rc ? rc : run(&o, &p);
}
