/* chessnut_sim.c - `chessnut-sim`: an emulated Chessnut board (Air, Pro) written from the
 * vendor's published description (host/chessnut), behind a stand-in for its USB HID device: a
 * Unix SOCK_SEQPACKET socket, one HID report a packet, that the chessnut: link opens in place
 * of hidapi (docs/boards.md, "The emulators"). It plays one board's lifts and placements of an
 * event script.
 *
 *   chessnut-sim --link PATH --script FILE [--board NAME] [--no-wait] [--lead MS]
 *                [--linger MS] [--forever] [--unplug AT:FOR]... [--garbage PERMILLE]
 *                [--torn PERMILLE] [--seed N] [--led-log FILE] [-v]
 *
 * The board scans its squares every SCAN_MS and, once the host has switched its reports on,
 * sends its position whenever it changed (and at once when the reports are switched on). It
 * answers a battery request and keeps its LEDs. Script time 0 is when the host switched the
 * reports on (or at once with --no-wait), plus --lead. --garbage sends, before PERMILLE of its
 * reports, a report of random bytes or a position cut short or holding a nibble that is no
 * piece. --torn reads PERMILLE of the scans that see a change as if a piece were lifted while
 * the board read its squares (some squares before the change, the rest after: a moved piece on
 * both squares or on neither, for one report). --unplug closes the device (the host reads an end)
 * and takes the socket away for a while. Exits 0 after the last event and --linger, 1 on bad
 * arguments or input. */
#define _GNU_SOURCE /* accept4 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cnsim.h"
#include "ebplan.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static int run(const struct ebplan_opts *o, const struct ebplan *p)
{
    static struct cnsim b;
    b.rng = (uint64_t)o->seed * 2654435761u + 1;
    memcpy(b.pieces, p->start, 64);
    memcpy(b.sent, p->start, 64);
    b.conn = -1;
    b.garbage = o->garbage;
    b.torn = o->torn;
    b.led_log = o->led_log;
    if ((b.listener = cnsim_plug_socket(o->link)) < 0)
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
                cnsim_unplug(&b, o->link);
            else if (a->piece == EBPLAN_PLUG && b.listener < 0 &&
                     (b.listener = cnsim_plug_socket(o->link)) < 0)
                return 1;
            else if (a->piece >= 0)
                b.pieces[a->square] = (uint8_t)a->piece;
        }
        if (start != UINT64_MAX && next == p->n && end == UINT64_MAX)
            end = now + (uint64_t)o->linger_ms;
        if (!o->forever && now >= end)
            break;
        cnsim_pump(&b, now, start == UINT64_MAX || now < start ? 0 : now - start);
        struct pollfd pf = {.fd = b.conn, .events = POLLIN};
        poll(&pf, 1, 5);
    }
    cnsim_unplug(&b, o->link);
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
