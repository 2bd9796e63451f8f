/* chesslink_sim.c - `chesslink-sim`: an emulated Millennium ChessLink board on a
 * pseudo-terminal (clsim.h), playing one board's lifts and placements of an event script
 * (docs/boards.md, "The emulators").
 *
 *   chesslink-sim --link PATH --script FILE [--board NAME] [--no-wait] [--lead MS]
 *                 [--linger MS] [--forever] [--unplug AT:FOR]... [--garbage PERMILLE]
 *                 [--seed N] [--led-log FILE] [-v]
 *
 * Script time 0 is when the host has chosen a report mode (or at once with --no-wait), plus
 * --lead. --garbage puts random bytes into the line, PERMILLE of the writes (they fall inside
 * frames too: cut frames). --led-log writes a line for every change of the LEDs: the script
 * time and the squares whose four corners are lit ("off" for none). Exits 0 after the last
 * event and --linger, 1 on bad arguments or input. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "clsim.h"
#include "tb_chess.h"
#include "tb_file.h"
#include "tb_script.h"

struct action {
    uint64_t ms;
    int square, piece; /* piece 0: lifted; -1 unplug, -2 plug */
};

struct opts {
    const char *link, *script, *board, *led_log;
    bool wait_host, forever;
    int verbose;
    long lead_ms, linger_ms, garbage, seed;
    long unplug_at[8], unplug_for[8];
    int nunplug;
};

struct plan {
    struct action a[8192];
    size_t n;
    uint8_t start[64];
    uint8_t board[64], hand[64];
    int nhand;
    const struct opts *o;
    char msg[200];
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static int add(struct plan *p, uint64_t ms, int square, int piece)
{
    if (p->n == sizeof p->a / sizeof p->a[0]) {
        snprintf(p->msg, sizeof p->msg, "more than %zu events", p->n);
        return 1;
    }
    p->a[p->n++] = (struct action){ms, square, piece};
    return 0;
}

/* A lift takes the piece into the hand; a placement puts down the piece named, else the one
 * lifted last. */
static int on_event(void *user, const struct tb_script_event *ev, long line)
{
    struct plan *p = user;
    if (p->o->board && strcmp(ev->board, p->o->board) != 0)
        return 0;
    char sq[3];
    if (ev->kind == TB_SCRIPT_LIFT) {
        int piece = p->board[ev->square];
        if (!piece) {
            snprintf(p->msg, sizeof p->msg, "line %ld: lift from the empty square %s", line,
                     tb_chess_square_name(ev->square, sq));
            return 1;
        }
        p->board[ev->square] = 0;
        if (p->nhand < 64)
            p->hand[p->nhand++] = (uint8_t)piece;
        return add(p, ev->ms, ev->square, 0);
    }
    if (ev->kind != TB_SCRIPT_PLACE)
        return 0;
    int piece = ev->piece ? tb_chess_piece_from_fen(ev->piece) : 0;
    int h = p->nhand - 1;
    while (piece > 0 && h >= 0 && p->hand[h] != piece)
        h--;
    if (piece <= 0 && h >= 0)
        piece = p->hand[h];
    if (piece <= 0) {
        snprintf(p->msg, sizeof p->msg, "line %ld: place on %s without a piece in the hand", line,
                 tb_chess_square_name(ev->square, sq));
        return 1;
    }
    if (h >= 0) {
        memmove(&p->hand[h], &p->hand[h + 1], (size_t)(p->nhand - h - 1));
        p->nhand--;
    }
    p->board[ev->square] = (uint8_t)piece;
    return add(p, ev->ms, ev->square, piece);
}

static int plan_script(const struct opts *o, struct plan *p)
{
    char *buf;
    size_t len;
    struct tb_error err;
    if (tb_read_file(o->script, &buf, &len, &err) != TB_OK) {
        fprintf(stderr, "chesslink-sim: %s\n", err.msg);
        return 1;
    }
    tb_chess_pos pos;
    char fen[128];
    tb_chess_pos_startpos(&pos);
    if (tb_script_start_fen(buf, len, fen, sizeof fen) == 1 &&
        tb_chess_pos_from_fen(&pos, fen, TB_CHESS_FEN_960, &err) != TB_OK) {
        free(buf);
        fprintf(stderr, "chesslink-sim: start FEN: %s\n", err.msg);
        return 1;
    }
    for (int sq = 0; sq < 64; sq++)
        p->start[sq] = p->board[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    p->o = o;
    int rc = tb_script_parse_buffer(buf, len, on_event, p, &err);
    free(buf);
    if (rc != 0) {
        fprintf(stderr, "chesslink-sim: %s\n", rc == TB_ERR_PARSE ? err.msg : p->msg);
        return 1;
    }
    for (int i = 0; i < o->nunplug; i++) {
        if (add(p, (uint64_t)o->unplug_at[i], 0, -1) ||
            add(p, (uint64_t)(o->unplug_at[i] + o->unplug_for[i]), 0, -2))
            return 1;
    }
    return 0;
}

static int cmp_action(const void *a, const void *b)
{
    const struct action *x = a, *y = b;
    return x->ms < y->ms ? -1 : x->ms > y->ms;
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

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void log_leds(const struct opts *o, uint64_t now, uint64_t lit)
{
    FILE *f = o->led_log ? fopen(o->led_log, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%llu", (unsigned long long)now);
    for (int sq = 0; sq < 64; sq++) {
        char name[3];
        if (lit & TB_CHESS_BIT(sq))
            fprintf(f, " %s", tb_chess_square_name(sq, name));
    }
    fprintf(f, "%s\n", lit ? "" : " off");
    fclose(f);
}

/* The board's bytes to the host, with --garbage now and then among them. */
static void send_out(const struct opts *o, struct clsim *s, int fd, uint64_t *rng)
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

static int run(const struct opts *o, struct plan *p)
{
    static struct clsim sim;
    qsort(p->a, p->n, sizeof p->a[0], cmp_action);
    uint64_t t0 = mono_ms(), rng = (uint64_t)o->seed * 2654435761u + 1;
    clsim_init(&sim, p->start, 0);
    int fd = plug(o->link);
    if (fd < 0)
        return 1;
    uint64_t start = o->wait_host ? UINT64_MAX : (uint64_t)o->lead_ms, end = UINT64_MAX;
    uint64_t lit = 0;
    size_t next = 0;
    while (!stop_requested) {
        uint64_t now = mono_ms() - t0;
        if (start == UINT64_MAX && sim.report_set)
            start = now + (uint64_t)o->lead_ms;
        while (start != UINT64_MAX && next < p->n && start + p->a[next].ms <= now) {
            const struct action *a = &p->a[next++];
            if (o->verbose)
                fprintf(stderr, "chesslink-sim: %llu ms: square %d piece %d\n",
                        (unsigned long long)a->ms, a->square, a->piece);
            if (a->piece == -1 && fd >= 0) {
                close(fd);
                unlink(o->link);
                fd = -1;
                clsim_unplug(&sim);
            } else if (a->piece == -2 && fd < 0) {
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
            log_leds(o, start == UINT64_MAX || now < start ? 0 : now - start, lit);
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

static bool num(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int usage(void)
{
    fprintf(stderr, "usage: chesslink-sim --link PATH --script FILE [--board NAME] [--no-wait]\n"
                    "       [--lead MS] [--linger MS] [--forever] [--unplug AT_MS:FOR_MS]...\n"
                    "       [--garbage PERMILLE] [--seed N] [--led-log FILE] [-v]\n");
    return 1;
}

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.wait_host = true, .lead_ms = 300, .linger_ms = 2000, .seed = 1};
    static const struct option longs[] = {
        {"no-wait", no_argument, NULL, 'W'},       {"forever", no_argument, NULL, 'F'},
        {"link", required_argument, NULL, 'l'},    {"script", required_argument, NULL, 's'},
        {"board", required_argument, NULL, 'b'},   {"lead", required_argument, NULL, 'L'},
        {"linger", required_argument, NULL, 'g'},  {"unplug", required_argument, NULL, 'u'},
        {"garbage", required_argument, NULL, 'G'}, {"seed", required_argument, NULL, 'S'},
        {"led-log", required_argument, NULL, 'E'}, {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":v", longs, NULL)) != -1) {
        const char *v = optarg;
        bool ok = true;
        switch (c) {
        case 'W':
            o->wait_host = false;
            break;
        case 'F':
            o->forever = true;
            break;
        case 'v':
            o->verbose++;
            break;
        case 'l':
            o->link = v;
            break;
        case 's':
            o->script = v;
            break;
        case 'b':
            o->board = v;
            break;
        case 'E':
            o->led_log = v;
            break;
        case 'L':
            ok = num(v, 0, 600000L, &o->lead_ms);
            break;
        case 'g':
            ok = num(v, 0, 3600000L, &o->linger_ms);
            break;
        case 'G':
            ok = num(v, 0, 1000, &o->garbage);
            break;
        case 'S':
            ok = num(v, 0, 2147483647L, &o->seed);
            break;
        case 'u':
            ok = o->nunplug < 8 &&
                 sscanf(v, "%ld:%ld", &o->unplug_at[o->nunplug], &o->unplug_for[o->nunplug]) == 2 &&
                 o->unplug_at[o->nunplug] >= 0 && o->unplug_for[o->nunplug] > 0;
            o->nunplug += ok;
            break;
        default:
            ok = false;
            break;
        }
        if (!ok) {
            fprintf(stderr, "chesslink-sim: bad option or value: %s\n", argv[optind - 1]);
            return usage();
        }
    }
    if (optind < argc || !o->link || !o->script)
        return usage();
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (parse(argc, argv, &o) != 0)
        return 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    static struct plan p;
    int rc = plan_script(&o, &p);
    return rc ? rc : run(&o, &p);
}
