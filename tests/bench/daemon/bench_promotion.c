/* bench_promotion - a promotion's decision time in twinboardd: from the last event that decides
 * it (the piece chosen, or the pawn placed on the last rank) to the announcement of the move to
 * the other player (docs/benchmarks.md, "Promotion"). 4.6: the move is not complete until its
 * piece is known, so the moment the piece is known is when the clock starts.
 *
 * Both boards are reed boards on pseudo-terminals played by this program; the daemon runs its
 * real loop. The announcement is the moment the daemon hands the words to the speech thread (its
 * "say to sighted" log line), so speech synthesis is not counted (bench_daemon counts it). Three
 * kinds, each from a new position (set-position) with a white pawn on b7:
 *   choice:    the pawn put on b8, the promotion waits; then `promote r` (the choice last);
 *   placement: `promote n` first (kept for the promotion to come); then the pawn put on b8
 *              (the placement last: its blip window is part of the time);
 *   button:    the pawn on b8; the PROMOTE button pressed twice (rook); the last press is the
 *              last event: the player's pause (promote_settle_ms) is part of the time.
 * Usage: bench_promotion [N] (default 100 of the first two kinds, N/5 of the button). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_daemon.h"

#define FEN "r7/1P5p/7k/8/8/8/8/4K3 w - - 0 1"

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static struct tb_daemon *daemon_;
static struct ptyboard board[2];
static char answer[65536];
static uint64_t said_us; /* when the move was last announced to the sighted player */

static void on_log(void *arg, enum tb_config_log level, const char *line)
{
    (void)arg, (void)level;
    if (strstr(line, "say to sighted (Black): Bauer"))
        said_us = now_us();
}

static const char *req(const char *line)
{
    tb_daemon_request(daemon_, line, answer, sizeof answer);
    return answer;
}

static bool until(bool (*cond)(void), int ms)
{
    uint64_t end = now_us() + (uint64_t)ms * 1000u;
    while (now_us() < end) {
        ptyboard_pump(&board[0]);
        ptyboard_pump(&board[1]);
        if (cond())
            return true;
        if (tb_daemon_step(daemon_, 2) < 0)
            return false;
    }
    return cond();
}

static bool in_sync(void)
{
    const char *st = req("status");
    return !strstr(st, "NOT CONNECTED") && !strstr(st, "first reading") &&
           strstr(st, "state: in-sync");
}
static bool said(void)
{
    return said_us != 0;
}
static int want_plies;
static bool agreed(void)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(daemon_, &c);
    return c.plies >= want_plies;
}

static void button(struct ptyboard *b, int down)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    b->seq++;
    b->ms += 100;
    struct rb_proto_button e = {.seq = b->seq, .ms = b->ms, .button = 0, .down = (uint8_t)down};
    ptyboard_write(b, buf, rb_proto_encode_button(buf, sizeof buf, &e));
}

/* Lets ms of real time pass with the loop turning. */
static void wait_ms(int ms)
{
    uint64_t end = now_us() + (uint64_t)ms * 1000u;
    while (now_us() < end) {
        ptyboard_pump(&board[0]);
        ptyboard_pump(&board[1]);
        tb_daemon_step(daemon_, 2);
    }
}

enum kind { CHOICE, PLACEMENT, BUTTON, KINDS };

/* One promotion of a kind; its decision time in ms, or a negative number. */
static double one(enum kind kind)
{
    tb_chess_pos pos;
    tb_chess_pos_from_fen(&pos, FEN, 0, NULL);
    req("set-position r7/1P5p/7k/8/8/8/8/4K3 w - - 0 1 pin=371946");
    uint64_t occ = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos.board[sq])
            occ |= TB_CHESS_BIT(sq);
    for (int b = 0; b < 2; b++) {
        board[b].occ = occ;
        ptyboard_snapshot(&board[b]);
    }
    if (!until(in_sync, 5000))
        return -1;
    said_us = 0;
    uint64_t t0 = 0;
    if (kind == PLACEMENT)
        req("promote n");
    ptyboard_square(&board[0], 49, 0, true); /* b7 */
    wait_ms(150);
    ptyboard_square(&board[0], 57, 1, true); /* b8 */
    if (kind == PLACEMENT) {
        t0 = now_us();
    } else if (kind == CHOICE) {
        wait_ms(400); /* the placement counts; the promotion waits for its piece */
        t0 = now_us();
        req("promote r");
    } else {
        wait_ms(400);
        for (int i = 0; i < 2; i++) {
            button(&board[0], 1);
            t0 = now_us();
            button(&board[0], 0);
            wait_ms(150);
        }
    }
    if (!until(said, 5000))
        return -2;
    double ms = (double)(said_us - t0) / 1000.0;
    /* the copy, so the next position starts from agreed boards */
    ptyboard_square(&board[1], 49, 0, true);
    ptyboard_square(&board[1], 57, 1, true);
    want_plies = 1;
    if (!until(agreed, 5000))
        return -3;
    return ms;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n < 5)
        n = 100;
    char dir[] = "/tmp/bench-promotion-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char link[2][600], journal[600];
    for (int b = 0; b < 2; b++) {
        snprintf(link[b], sizeof link[b], "%s/%s.pty", dir, b ? "sighted" : "vi");
        if (ptyboard_init(&board[b], link[b]) != 0)
            return 2;
    }
    snprintf(journal, sizeof journal, "%s/journal", dir);
    struct tb_daemon_options o;
    tb_daemon_options_default(&o);
    for (int b = 0; b < 2; b++)
        if (snprintf(o.cfg.player[b].board, sizeof o.cfg.player[b].board, "pty:%s", link[b]) >=
            (int)sizeof o.cfg.player[b].board)
            return 2;
    snprintf(o.cfg.arbiter_pin, sizeof o.cfg.arbiter_pin, "371946");
    o.cfg.blip_window_ms = 100;
    o.cfg.log_level = TB_CONFIG_LOG_INFO;
    o.journal_dir = journal;
    o.socket_path = "";
    o.audio = "none";
    o.log = on_log;
    struct tb_error err = {0};
    if (tb_daemon_new(&o, &daemon_, &err) != TB_OK) {
        fprintf(stderr, "bench_promotion: %s\n", err.msg);
        return 2;
    }
    static const char *const name[KINDS] = {"choice last (promote request)",
                                            "placement last (choice before)",
                                            "button: last press (1.5 s pause)"};
    int count[KINDS] = {n, n, n / 5};
    printf("promotion decision time, last event (choice or placement) -> announcement handed to "
           "speech\n(pty boards, real loop, blip window 100 ms, promote_settle_ms %d):\n",
           o.cfg.player[0].promote_settle_ms);
    for (int k = 0; k < KINDS; k++) {
        double *t = calloc((size_t)count[k], sizeof *t);
        for (int i = 0; i < count[k]; i++) {
            t[i] = one((enum kind)k);
            if (t[i] < 0) {
                fprintf(stderr, "bench_promotion: %s: run %d failed (%.0f)\n", name[k], i, t[i]);
                return 1;
            }
        }
        qsort(t, (size_t)count[k], sizeof *t, cmp);
        int p99 = (int)(0.99 * (count[k] - 1) + 0.5);
        printf("  %-34s %4d: min %7.2f ms  median %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", name[k],
               count[k], t[0], t[count[k] / 2], t[p99], t[count[k] - 1]);
        free(t);
    }
    tb_daemon_free(daemon_);
    return 0;
}
