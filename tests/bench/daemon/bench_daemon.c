/* bench_daemon - latency of twinboardd from the last physical event of a move on one board to
 * the first audio frame handed to the other player's sink (docs/benchmarks.md, "Daemon").
 *
 * Both boards are reed boards on pseudo-terminals played by this program with frames of the
 * shared codec; the daemon (tb_daemon, the same core as twinboardd) runs its real loop:
 * pty read, decode, journal, match (recogniser blip window), phrase, speech thread with eSpeak
 * NG, sink. The time of the last frame written is taken just after the write; the sink's first
 * write is timed on the speech thread. Usage: bench_daemon [MOVES] (default 200) [--dgt |
 * --chesslink | --chessnut | --eboards].
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
 * stand-in, a socket). --eboards: the three e-boards in one run, a game each in turn (DGT,
 * ChessLink, Chessnut, DGT, ...; a daemon each, the boards kept plugged in), until each has MOVES
 * moves timed: the three figures share the machine's load as it comes and goes. */
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

enum kind { K_REED, K_DGT, K_CL, K_CN, K_KINDS };
static const char *const kind_scheme[K_KINDS] = {"pty", "dgt", "chesslink", "chessnut"};

static struct tb_daemon *daemon_;
static struct ptyboard board[2];
static enum kind kind;    /* the sighted player's board in the game being played */
static struct dgtpty dgt; /* K_DGT */
static struct clpty cl;   /* K_CL */
static struct cnsim cn;   /* K_CN, behind its HID stand-in */

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
    if (kind == K_DGT)
        dgtpty_pump(&dgt, now_us() / 1000u);
    else if (kind == K_CL)
        clpty_pump(&cl, now_us() / 1000u);
    else if (kind == K_CN)
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
    if (n < 1)
        return;
    qsort(lat, (size_t)n, sizeof *lat, cmp);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += lat[i];
    int p99 = (int)(0.99 * (n - 1) + 0.5);
    printf("%s, %d moves:\n  min %.1f ms  median %.1f ms  mean %.1f ms  p99 %.1f ms  max %.1f ms\n",
           what, n, lat[0], lat[n / 2], sum / n, lat[p99], lat[n - 1]);
}

/* What a run collects: per kind of sighted board, each player's moves timed. */
struct timings {
    double *by[K_KINDS][2]; /* [kind][mover]: mover 0 the VI player's reed board */
    int nby[K_KINDS][2];
    double *shown; /* broadcast latency (reed boards only) */
    int nshown;
    int cap;
};

static struct ear ears[2];
static char dir[] = "/tmp/bench-daemon-XXXXXX";
static char sighted_link[K_KINDS][600];
static int blip;

/* A daemon with the sighted player at a board of kind k, its boards read, the broadcast's DGT
 * program listening; game numbers its journal. 0, 1 (the boards not read) or 2. */
static int start_daemon(enum kind k, int game)
{
    kind = k;
    static char journal[700], vi_link[600];
    snprintf(vi_link, sizeof vi_link, "%s/vi.pty", dir);
    snprintf(journal, sizeof journal, "%s/journal-%d", dir, game);
    struct tb_daemon_options o;
    tb_daemon_options_default(&o);
    const char *where[2] = {vi_link, sighted_link[k]};
    for (int b = 0; b < 2; b++) {
        if (snprintf(o.cfg.player[b].board, sizeof o.cfg.player[b].board, "%s:%s",
                     b ? kind_scheme[k] : "pty", where[b]) >= (int)sizeof o.cfg.player[b].board)
            return 2;
        o.sink_arg[b] = &ears[b];
    }
    snprintf(o.cfg.arbiter_pin, sizeof o.cfg.arbiter_pin, "371946");
    snprintf(o.cfg.broadcast.dgt, sizeof o.cfg.broadcast.dgt, "%s/dgt", dir);
    /* the shipped blip window (tb_config_defaults): the latency a player gets as installed */
    blip = o.cfg.blip_window_ms;
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
    return 0;
}

static void stop_daemon(void)
{
    tb_daemon_free(daemon_);
    daemon_ = NULL;
    close(dgt_fd);
    dgt_fd = -1;
}

/* The sighted player's board as pos stands (the move's pieces changed, or a new game set up). */
static void sighted_move(const tb_chess_pos *pos, tb_chess_move m, const tb_chess_pos *after)
{
    if (kind == K_DGT)
        dgtpty_move(&dgt, pos, m, now_us() / 1000u);
    else if (kind == K_CL)
        clpty_set(&cl, after); /* the board's scan and debounce are in the figure */
    else if (kind == K_CN)
        cn_set(after); /* the board's scan is in the figure */
    else
        ptyboard_move(&board[1], pos, m);
}

/* One game of the demo's moves (or fewer: until left moves are timed); the timings go in t.
 * Returns how many were timed, -1 when a move was not heard or agreed. */
static int play_game(struct timings *t, int left)
{
    tb_chess_move moves[64];
    int nm = tb_daemon_demo_moves(moves, 64), timed = 0;
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    for (int ply = 0; ply < nm && timed < left; ply++) {
        int mover = pos.side, other = 1 - mover; /* vi: White, sighted: Black */
        if (!until(quiet, NULL, 10000))
            return -1;
        atomic_store(&ears[other].first_us, 0);
        tb_chess_pos after = pos;
        tb_chess_undo au;
        tb_chess_make(&after, moves[ply], &au);
        if (mover == 1)
            sighted_move(&pos, moves[ply], &after);
        else
            ptyboard_move(&board[0], &pos, moves[ply]);
        uint64_t t0 = now_us(); /* the last physical event is on the wire */
        if (!until(heard, &ears[other], 5000))
            return -1;
        double ms = (double)(atomic_load(&ears[other].first_us) - t0) / 1000.0;
        if (t->nby[kind][mover] < t->cap)
            t->by[kind][mover][t->nby[kind][mover]++] = ms;
        timed++;
        field_update(NULL); /* nothing old counts */
        if (other == 1 && kind != K_REED) {
            sighted_move(&pos, moves[ply], &after);
        } else {
            ptyboard_move(&board[other], &pos, moves[ply]);
            uint64_t t1 = now_us(); /* the copy's last frame: the move is agreed on it */
            if (!until(field_update, NULL, 5000))
                return -1;
            if (t->nshown < t->cap)
                t->shown[t->nshown++] = (double)(now_us() - t1) / 1000.0;
        }
        want_plies = ply + 1;
        if (!until(agreed, NULL, 5000))
            return -1;
        tb_chess_undo u;
        tb_chess_make(&pos, moves[ply], &u);
    }
    return timed;
}

/* Both boards set up for a new game: the start position, read again. */
static void set_up_again(void)
{
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    if (kind == K_DGT)
        dgtpty_setup(&dgt, now_us() / 1000u);
    else if (kind == K_CL)
        clpty_set(&cl, &start);
    else if (kind == K_CN)
        cn_set(&start);
    for (int b = 0; b < (kind == K_REED ? 2 : 1); b++) {
        board[b].occ = 0xffff00000000ffffull;
        ptyboard_snapshot(&board[b]);
    }
}

static const char *const sighted_title[K_KINDS] = {
    NULL,
    "DGT board (dgt:), last field update of a move -> first audio frame for the VI player\n"
    "(real loop, eSpeak NG",
    "ChessLink board (chesslink:), a move's pieces changed on the board -> first audio frame for "
    "the VI player\n(the board's scan and 3-scan debounce, real loop, eSpeak NG",
    "Chessnut board (chessnut:, its HID stand-in), a move's pieces changed on the board -> first "
    "audio frame\nfor the VI player (the board's 50 ms scan, the link's 10 ms read, real loop, "
    "eSpeak NG",
};

int main(int argc, char **argv)
{
    int n = 200;
    bool use[K_KINDS] = {false};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dgt") == 0)
            use[K_DGT] = true;
        else if (strcmp(argv[i], "--chesslink") == 0)
            use[K_CL] = true;
        else if (strcmp(argv[i], "--chessnut") == 0)
            use[K_CN] = true;
        else if (strcmp(argv[i], "--eboards") == 0)
            use[K_DGT] = use[K_CL] = use[K_CN] = true;
        else if ((n = atoi(argv[i])) < 1)
            n = 200;
    }
    bool eboards = use[K_DGT] || use[K_CL] || use[K_CN];
    use[K_REED] = !eboards;
    if (!mkdtemp(dir))
        return 2;
    char vi_link[600];
    snprintf(vi_link, sizeof vi_link, "%s/vi.pty", dir);
    if (ptyboard_init(&board[0], vi_link) != 0)
        return 2;
    for (int k = 0; k < K_KINDS; k++) {
        snprintf(sighted_link[k], sizeof sighted_link[k], "%s/sighted-%s", dir, kind_scheme[k]);
        if (use[k] && (k == K_DGT  ? dgtpty_init(&dgt, sighted_link[k]) != 0
                       : k == K_CL ? clpty_init(&cl, sighted_link[k], now_us() / 1000u) != 0
                       : k == K_CN ? cn_init(sighted_link[k]) != 0
                                   : ptyboard_init(&board[1], sighted_link[k]) != 0))
            return 2;
    }
    /* every kind until n of its moves (both players') are timed, a game each in turn */
    struct timings t = {.cap = 2 * n + 64};
    t.shown = calloc((size_t)t.cap, sizeof *t.shown);
    for (int k = 0; k < K_KINDS; k++)
        for (int m = 0; m < 2; m++)
            t.by[k][m] = calloc((size_t)t.cap, sizeof(double));
    int done[K_KINDS] = {0}, failed = 0, game = 0;
    for (bool more = true; more && failed < 5;) {
        more = false;
        for (int k = 0; k < K_KINDS; k++) {
            if (!use[k] || done[k] >= n)
                continue;
            int rc = start_daemon((enum kind)k, game++);
            if (rc != 0)
                return rc;
            int got = play_game(&t, n - done[k]);
            failed += got < 0;
            done[k] += got > 0 ? got : 0;
            set_up_again(); /* while the daemon still reads the boards */
            want_plies = 0;
            stop_daemon();
            more |= done[k] < n;
        }
    }
    int rc = 0;
    for (int k = 0; k < K_KINDS; k++)
        if (use[k] && done[k] < n) {
            fprintf(stderr, "bench_daemon: %s: only %d of %d moves timed\n", kind_scheme[k],
                    done[k], n);
            rc = 1;
        }
    char title[512];
    for (int k = K_DGT; k < K_KINDS && !rc; k++) {
        if (!use[k])
            continue;
        snprintf(title, sizeof title, "%s, shipped blip window %d ms included)", sighted_title[k],
                 blip);
        report(title, t.by[k][1], t.nby[k][1]);
        report("reed board (pty:), same games, last event of a move -> first audio frame for the "
               "sighted player",
               t.by[k][0], t.nby[k][0]);
    }
    if (use[K_REED] && !rc) {
        double *all = calloc((size_t)(t.nby[K_REED][0] + t.nby[K_REED][1]) + 1, sizeof *all);
        int nall = 0;
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < t.nby[K_REED][m]; i++)
                all[nall++] = t.by[K_REED][m][i];
        snprintf(title, sizeof title,
                 "daemon latency, last event of a move on one board -> first audio frame for the "
                 "other player\n(pty boards, real loop, eSpeak NG, shipped blip window %d ms "
                 "included)",
                 blip);
        report(title, all, nall);
        free(all);
    }
    if (t.nshown > 0 && !rc) {
        snprintf(title, sizeof title,
                 "broadcast latency, last event of the copy on the other board (the move agreed) "
                 "-> first FIELD_UPDATE\non the virtual DGT board's pty (blip window %d ms, "
                 "journal sync included)",
                 blip);
        report(title, t.shown, t.nshown);
    }
    if (use[K_DGT])
        dgtpty_close(&dgt);
    if (use[K_CL])
        clpty_close(&cl);
    if (use[K_CN])
        cnsim_unplug(&cn, sighted_link[K_CN]);
    free(t.shown);
    for (int k = 0; k < K_KINDS; k++)
        for (int m = 0; m < 2; m++)
            free(t.by[k][m]);
    return rc;
}
