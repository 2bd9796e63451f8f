/* bench_daemon - latency of twinboardd from the last physical event of a move on one board to
 * the first audio frame handed to the other player's sink (docs/benchmarks.md, "Daemon").
 *
 * Both boards are reed boards on pseudo-terminals played by this program with frames of the
 * shared codec; the daemon (tb_daemon, the same core as twinboardd) runs its real loop:
 * pty read, decode, journal, match (recogniser blip window), phrase, speech thread with eSpeak
 * NG, sink. The time of the last frame written is taken just after the write; the sink's first
 * write is timed on the speech thread. Usage: bench_daemon [MOVES] (default 200) [--dgt |
 * --chesslink | --chessnut].
 *
 * --dgt (docs/benchmarks.md, "DGT board"): the sighted player's board is a DGT e-board (dgt:,
 * the emulated board of tests/sim/dgtboard on a pty, played here); the sighted player's moves
 * are timed from the board's last field update to the VI player's first audio frame, and the
 * VI player's reed-board moves, the other way, in the same run.
 *
 * The broadcast is on: a DGT program on the daemon's virtual board (pty, single-board update
 * mode) times the copy's last frame, which makes the move agreed, to the first FIELD_UPDATE on
 * the pty (the reed boards' moves; without --dgt). --chesslink: the sighted player's board is
 * a ChessLink board (chesslink:, the emulated board of tests/sim/chesslink on a pty); its moves
 * are timed from the moment the pieces stand changed on it, so its scan and debounce count.
 * --chessnut: likewise a Chessnut board (chessnut:, tests/sim/chessnut behind its HID
 * stand-in, a socket). */
#define _DEFAULT_SOURCE /* cfmakeraw */
#include <fcntl.h>
#include <termios.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clpty.h"
#include "cnsim.h"
#include "dgtpty.h"
#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_daemon.h"
#include "tb_dgt.h"

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- a sink that notes when audio first arrives ------------------------------------------ */

struct ear {
    _Atomic uint64_t first_us; /* first frame since armed, 0 = none yet */
    _Atomic uint64_t written;
};

static int ear_open(void **state, const char *target, unsigned rate, unsigned device_rate,
                    void *arg, struct tb_error *err)
{
    (void)target, (void)rate, (void)device_rate, (void)err;
    *state = arg;
    return 0;
}
static long ear_write(void *state, const int16_t *pcm, size_t frames)
{
    struct ear *e = state;
    (void)pcm;
    uint64_t zero = 0;
    if (frames)
        atomic_compare_exchange_strong(&e->first_us, &zero, now_us());
    atomic_fetch_add(&e->written, frames);
    return (long)frames;
}
static int ear_flush(void *state)
{
    (void)state;
    return 0;
}
static uint64_t ear_played(void *state)
{
    return atomic_load(&((struct ear *)state)->written);
}
static void ear_close(void *state)
{
    (void)state;
}

static const struct tb_voice_sink_ops ear_ops = {
    .name = "bench",
    .open = ear_open,
    .write = ear_write,
    .flush = ear_flush,
    .played = ear_played,
    .close = ear_close,
};

/* ---- the run ------------------------------------------------------------------------------ */

static struct tb_daemon *daemon_;
static struct ptyboard board[2];
static struct dgtpty dgt; /* --dgt: the sighted player's board */
static bool with_dgt;
static struct clpty cl; /* --chesslink: the sighted player's board */
static bool with_cl;
static struct cnsim cn; /* --chessnut: the sighted player's board, behind its HID stand-in */
static bool with_cn;

static void cn_set(const tb_chess_pos *pos);

/* The Chessnut board in the start position, its stand-in's socket at path. 0 or -1. */
static int cn_init(const char *path)
{
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    cn_set(&start);
    memcpy(cn.sent, cn.pieces, sizeof cn.sent);
    cn.conn = -1;
    cn.next_scan = now_us() / 1000u;
    cn.listener = cnsim_plug_socket(path);
    return cn.listener < 0 ? -1 : 0;
}

/* The Chessnut board as pos stands. */
static void cn_set(const tb_chess_pos *pos)
{
    for (int sq = 0; sq < 64; sq++)
        cn.pieces[sq] = (uint8_t)tb_chess_piece_at(pos, sq);
}
static char answer[65536];

static const char *req(const char *line)
{
    tb_daemon_request(daemon_, line, answer, sizeof answer);
    return answer;
}

static void pump(void)
{
    ptyboard_pump(&board[0]);
    if (with_dgt)
        dgtpty_pump(&dgt, now_us() / 1000u);
    else if (with_cl)
        clpty_pump(&cl, now_us() / 1000u);
    else if (with_cn)
        cnsim_pump(&cn, now_us() / 1000u, 0);
    else
        ptyboard_pump(&board[1]);
}

/* Turns the loop until cond holds; false after ms. */
static bool until(bool (*cond)(void *), void *arg, int ms)
{
    uint64_t end = now_us() + (uint64_t)ms * 1000u;
    while (now_us() < end) {
        pump();
        if (cond(arg))
            return true;
        if (tb_daemon_step(daemon_, 2) < 0)
            return false;
    }
    return cond(arg);
}

static bool ready(void *arg)
{
    (void)arg;
    const char *st = req("status");
    return !strstr(st, "NOT CONNECTED") && !strstr(st, "first reading");
}
static bool quiet(void *arg)
{
    (void)arg;
    const char *st = req("status");
    return strstr(st, "speech: idle") && strstr(st, "state: in-sync");
}
static bool heard(void *arg)
{
    return atomic_load(&((struct ear *)arg)->first_us) != 0;
}
static int want_plies;
static bool agreed(void *arg)
{
    (void)arg;
    struct tb_daemon_counters c;
    tb_daemon_counters(daemon_, &c);
    return c.plies >= want_plies;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A short game of the demo, then new games, until n moves are timed. */
/* The DGT program's pty: true once a FIELD_UPDATE has come (its id byte). */
static int dgt_fd = -1;
static bool field_update(void *arg)
{
    (void)arg;
    uint8_t buf[512];
    ssize_t n;
    bool seen = false;
    while ((n = read(dgt_fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            seen |= buf[i] == TB_DGT_MSG_FIELD_UPDATE; /* ids alone have bit 7 set */
    return seen;
}

static void report(const char *what, double *lat, int n)
{
    qsort(lat, (size_t)n, sizeof *lat, cmp);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += lat[i];
    int p99 = (int)(0.99 * (n - 1) + 0.5);
    printf("%s, %d moves:\n  min %.1f ms  median %.1f ms  mean %.1f ms  p99 %.1f ms  max %.1f ms\n",
           what, n, lat[0], lat[n / 2], sum / n, lat[p99], lat[n - 1]);
}

int main(int argc, char **argv)
{
    int n = 200;
    char title[256];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dgt") == 0)
            with_dgt = true;
        else if (strcmp(argv[i], "--chesslink") == 0)
            with_cl = true;
        else if (strcmp(argv[i], "--chessnut") == 0)
            with_cn = true;
        else if ((n = atoi(argv[i])) < 1)
            n = 200;
    }
    char dir[] = "/tmp/bench-daemon-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char link[2][600], journal[600];
    static struct ear ears[2];
    for (int b = 0; b < 2; b++) {
        snprintf(link[b], sizeof link[b], "%s/%s.pty", dir, b ? "sighted" : "vi");
        if (b == 1 && with_dgt  ? dgtpty_init(&dgt, link[b]) != 0
            : b == 1 && with_cl ? clpty_init(&cl, link[b], now_us() / 1000u) != 0
            : b == 1 && with_cn ? cn_init(link[b]) != 0
                                : ptyboard_init(&board[b], link[b]) != 0)
            return 2;
    }
    snprintf(journal, sizeof journal, "%s/journal", dir);
    struct tb_daemon_options o;
    tb_daemon_options_default(&o);
    for (int b = 0; b < 2; b++) {
        if (snprintf(o.cfg.player[b].board, sizeof o.cfg.player[b].board, "%s:%s",
                     b == 1 && with_dgt  ? "dgt"
                     : b == 1 && with_cl ? "chesslink"
                     : b == 1 && with_cn ? "chessnut"
                                         : "pty",
                     link[b]) >= (int)sizeof o.cfg.player[b].board)
            return 2;
        o.sink_arg[b] = &ears[b];
    }
    snprintf(o.cfg.arbiter_pin, sizeof o.cfg.arbiter_pin, "371946");
    snprintf(o.cfg.broadcast.dgt, sizeof o.cfg.broadcast.dgt, "%s/dgt", dir);
    /* the shipped blip window (tb_config_defaults): the latency a player gets as installed */
    int blip = o.cfg.blip_window_ms;
    o.cfg.log_level = TB_CONFIG_LOG_WARN;
    o.journal_dir = journal;
    o.socket_path = "";
    o.sink = &ear_ops;
    struct tb_error err = {0};
    if (tb_daemon_new(&o, &daemon_, &err) != TB_OK) {
        fprintf(stderr, "bench_daemon: %s\n", err.msg);
        return 2;
    }
    if (!until(ready, NULL, 5000)) {
        fprintf(stderr, "bench_daemon: the boards were not read\n");
        return 1;
    }
    dgt_fd = open(o.cfg.broadcast.dgt, O_RDWR | O_NOCTTY | O_NONBLOCK);
    struct termios t;
    if (dgt_fd < 0 || tcgetattr(dgt_fd, &t) != 0)
        return 2;
    cfmakeraw(&t);
    tcsetattr(dgt_fd, TCSANOW, &t);
    uint8_t mode = TB_DGT_CMD_SEND_UPDATE_BRD;
    if (write(dgt_fd, &mode, 1) != 1)
        return 2;
    for (int i = 0; i < 50; i++) /* the mode taken, anything waiting read */
        until(field_update, NULL, 2);
    double *shown = calloc((size_t)n, sizeof *shown);
    int nshown = 0;
    tb_chess_move moves[64];
    int nm = tb_daemon_demo_moves(moves, 64);
    double *lat = calloc((size_t)n, sizeof *lat), *by[2];
    int got = 0, failed = 0, nby[2] = {0, 0};
    by[0] = calloc((size_t)n, sizeof *lat);
    by[1] = calloc((size_t)n, sizeof *lat);
    while (got < n && failed < 5) {
        tb_chess_pos pos;
        tb_chess_pos_startpos(&pos);
        for (int ply = 0; ply < nm && got < n; ply++) {
            int mover = pos.side, other = 1 - mover; /* vi: White, sighted: Black */
            if (!until(quiet, NULL, 10000)) {
                failed++;
                break;
            }
            atomic_store(&ears[other].first_us, 0);
            tb_chess_pos after = pos;
            tb_chess_undo au;
            tb_chess_make(&after, moves[ply], &au);
            if (mover == 1 && with_dgt)
                dgtpty_move(&dgt, &pos, moves[ply], now_us() / 1000u);
            else if (mover == 1 && with_cl)
                clpty_set(&cl, &after); /* the board's scan and debounce are in the figure */
            else if (mover == 1 && with_cn)
                cn_set(&after); /* the board's scan is in the figure */
            else
                ptyboard_move(&board[mover], &pos, moves[ply]);
            uint64_t t0 = now_us(); /* the last physical event is on the wire */
            if (!until(heard, &ears[other], 5000)) {
                failed++;
                break;
            }
            lat[got] = (double)(atomic_load(&ears[other].first_us) - t0) / 1000.0;
            by[mover][nby[mover]++] = lat[got++];
            field_update(NULL); /* nothing old counts */
            if (other == 1 && with_dgt) {
                dgtpty_move(&dgt, &pos, moves[ply], now_us() / 1000u);
            } else if (other == 1 && with_cl) {
                clpty_set(&cl, &after);
            } else if (other == 1 && with_cn) {
                cn_set(&after);
            } else {
                ptyboard_move(&board[other], &pos, moves[ply]);
                uint64_t t1 = now_us(); /* the copy's last frame: the move is agreed on it */
                if (!until(field_update, NULL, 5000)) {
                    failed++;
                    break;
                }
                shown[nshown++] = (double)(now_us() - t1) / 1000.0;
            }
            want_plies = ply + 1;
            if (!until(agreed, NULL, 5000)) {
                failed++;
                break;
            }
            tb_chess_undo u;
            tb_chess_make(&pos, moves[ply], &u);
        }
        /* a new game: the boards are set up again and read */
        req("new-game pin=371946");
        for (int b = 0; b < 2; b++) {
            if (b == 1 && with_dgt) {
                dgtpty_setup(&dgt, now_us() / 1000u);
                continue;
            }
            if (b == 1 && (with_cl || with_cn)) {
                tb_chess_pos start;
                tb_chess_pos_startpos(&start);
                if (with_cl)
                    clpty_set(&cl, &start);
                else
                    cn_set(&start);
                continue;
            }
            board[b].occ = 0xffff00000000ffffull;
            ptyboard_snapshot(&board[b]);
        }
        want_plies = 0;
    }
    tb_daemon_free(daemon_);
    if (got < n) {
        fprintf(stderr, "bench_daemon: only %d of %d moves timed\n", got, n);
        return 1;
    }
    if (with_dgt) {
        snprintf(title, sizeof title,
                 "DGT board (dgt:), last field update of a move -> first audio frame for the VI "
                 "player\n(real loop, eSpeak NG, shipped blip window %d ms included)",
                 blip);
        report(title, by[1], nby[1]);
        report("reed board (pty:), same run, last event of a move -> first audio frame for the "
               "sighted player",
               by[0], nby[0]);
        dgtpty_close(&dgt);
    } else if (with_cl) {
        report("ChessLink board (chesslink:), a move's pieces changed on the board -> first audio "
               "frame for the VI player\n(the board's scan and 3-scan debounce, real loop, eSpeak "
               "NG, blip window 100 ms included)",
               by[1], nby[1]);
        report("reed board (pty:), same run, last event of a move -> first audio frame for the "
               "sighted player",
               by[0], nby[0]);
        clpty_close(&cl);
    } else if (with_cn) {
        report("Chessnut board (chessnut:, its HID stand-in), a move's pieces changed on the board "
               "-> first audio frame\nfor the VI player (the board's 50 ms scan, the link's 10 ms "
               "read, real loop, eSpeak NG, blip window\n100 ms included)",
               by[1], nby[1]);
        report("reed board (pty:), same run, last event of a move -> first audio frame for the "
               "sighted player",
               by[0], nby[0]);
        cnsim_unplug(&cn, link[1]);
    } else {
        snprintf(title, sizeof title,
                 "daemon latency, last event of a move on one board -> first audio frame for the "
                 "other player\n(pty boards, real loop, eSpeak NG, shipped blip window %d ms "
                 "included)",
                 blip);
        report(title, lat, n);
    }
    if (nshown > 0) {
        snprintf(title, sizeof title,
                 "broadcast latency, last event of the copy on the other board (the move agreed) "
                 "-> first FIELD_UPDATE\non the virtual DGT board's pty (blip window %d ms, "
                 "journal sync included)",
                 blip);
        report(title, shown, nshown);
    }
    free(shown);
    close(dgt_fd);
    free(lat);
    free(by[0]);
    free(by[1]);
    return 0;
}
