/* dgtboard-sim end to end: the emulator on a real pseudo-terminal, a host built from host/dgt
 * (decoder, tracker, clock filter, pacer) and the move recogniser reading it, as the DGT link
 * will. Real time, generous limits.
 *
 * style: real-time wait: a child process on a pty is polled with timeouts. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#define _XOPEN_SOURCE   700
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tb_chess.h"
#include "tb_dgt.h"
#include "tb_file.h"
#include "tb_sensor.h"
#include "tb_test.h"

#define MAXPLY 400

struct host {
    char link[512];
    int fd;
    pid_t child;
    int status;
    bool exited;
    tb_dgt_decoder *dec;
    tb_dgt_tracker *trk;
    tb_dgt_pacer *pacer;
    tb_sensor *sensor;
    struct tb_dgt_clock_filter filter;
    enum tb_dgt_clock_kind clock;
    bool started; /* the recogniser knows the start position */
    tb_chess_pos start;
    char moves[MAXPLY][8];
    int nmoves;
    int problems;
    int versions, serials, dumps, readings, connects;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void send_cmd(struct host *h, int cmd)
{
    uint8_t b[1];
    ASSERT_EQ(tb_dgt_cmd_encode(b, 1, cmd), 1);
    ASSERT_OK(tb_dgt_pacer_push(h->pacer, b, 1));
}

static void send_clock(struct host *h, const uint8_t *f, int n)
{
    ASSERT_GT(n, 0);
    ASSERT_OK(tb_dgt_pacer_push(h->pacer, f, (size_t)n));
}

/* Opens the board when its link is there: 9600 8N1 raw, then the handshake of docs/dgt.md. */
static bool connect_board(struct host *h)
{
    int fd = open(h->link, O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct termios t;
    if (tcgetattr(fd, &t) == 0) {
        cfmakeraw(&t);
        cfsetispeed(&t, B9600);
        cfsetospeed(&t, B9600);
        tcsetattr(fd, TCSANOW, &t);
    }
    h->fd = fd;
    h->connects++;
    tb_dgt_decoder_reset(h->dec);
    tb_dgt_pacer_clear(h->pacer);
    /* the dump before update mode: no FIELD_UPDATE can come before the state it changes */
    send_cmd(h, TB_DGT_CMD_RESET);
    send_cmd(h, TB_DGT_CMD_SEND_BRD);
    send_cmd(h, TB_DGT_CMD_SEND_UPDATE_NICE);
    send_cmd(h, TB_DGT_CMD_SEND_VERSION);
    send_cmd(h, TB_DGT_CMD_RETURN_SERIALNR);
    uint8_t f[TB_DGT_CLOCK_FRAME_MAX];
    send_clock(h, f, tb_dgt_clk_simple(f, sizeof f, TB_DGT_CLK_VERSION));
    return true;
}

static void disconnect(struct host *h)
{
    close(h->fd);
    h->fd = -1;
}

static void forward(struct host *h, uint64_t t)
{
    struct tb_dgt_event e;
    while (tb_dgt_tracker_next(h->trk, &e)) {
        if (e.kind == TB_DGT_EV_ORIENT && !h->started) {
            tb_sensor_reset(h->sensor, &h->start, t);
            h->started = true;
        } else if (e.kind == TB_DGT_EV_LIFT && h->started) {
            ASSERT_OK(tb_sensor_lift(h->sensor, e.square, t));
        } else if (e.kind == TB_DGT_EV_PLACE && h->started) {
            ASSERT_OK(tb_sensor_place(h->sensor, e.square, e.piece, t));
        }
    }
    tb_sensor_tick(h->sensor, t);
    struct tb_sensor_out o;
    while (tb_sensor_poll(h->sensor, &o)) {
        if (o.kind == TB_SENSOR_OUT_MOVE && h->nmoves < MAXPLY) {
            memcpy(h->moves[h->nmoves], o.uci, sizeof o.uci);
            h->nmoves++;
        } else if (o.kind == TB_SENSOR_OUT_PROBLEM) {
            char line[160];
            tb_sensor_out_format(&o, line, sizeof line);
            fprintf(stderr, "recogniser: %s\n", line);
            h->problems++;
        }
    }
}

static void on_msg(void *user, const struct tb_dgt_msg *m)
{
    struct host *h = user;
    uint64_t t = now_ms();
    switch (m->id) {
    case TB_DGT_MSG_BOARD_DUMP:
        h->dumps++;
        ASSERT_GE(tb_dgt_tracker_dump(h->trk, m->data, t), 0);
        break;
    case TB_DGT_MSG_FIELD_UPDATE: {
        int rc = tb_dgt_tracker_update(h->trk, m->field, m->code, t);
        ASSERT_TRUE(rc >= 0 || rc == TB_ERR_STATE); /* before the first dump: in the dump */
        break;
    }
    case TB_DGT_MSG_VERSION:
        h->versions++;
        break;
    case TB_DGT_MSG_SERIALNR:
        h->serials++;
        break;
    case TB_DGT_MSG_BWTIME: {
        enum tb_dgt_clock_verdict v = tb_dgt_clock_filter_push(&h->filter, m->data, t);
        if (v == TB_DGT_CLOCK_ACK) {
            struct tb_dgt_bwtime b;
            tb_dgt_bwtime_decode(m->data, &b);
            if (b.ack.b[1] == TB_DGT_CLK_VERSION)
                h->clock = b.ack.b[2] >> 4 == 2 ? TB_DGT_CLOCK_3000 : TB_DGT_CLOCK_XL;
            tb_dgt_pacer_ack(h->pacer, &b.ack, t);
        } else if (v == TB_DGT_CLOCK_ACCEPTED) {
            h->readings++;
        }
        break;
    }
    default:
        break;
    }
    forward(h, t);
}

/* One round: commands out, bytes in, time passes. */
static void pump(struct host *h, int wait_ms)
{
    uint64_t t = now_ms();
    if (h->fd < 0 && !connect_board(h)) {
        struct pollfd none;
        poll(&none, 0, wait_ms);
        return;
    }
    uint8_t out[TB_DGT_CLOCK_FRAME_MAX];
    int n;
    while ((n = tb_dgt_pacer_next(h->pacer, t, out, sizeof out)) > 0) {
        if (write(h->fd, out, (size_t)n) != n) {
            disconnect(h);
            return;
        }
    }
    struct pollfd p = {.fd = h->fd, .events = POLLIN};
    if (poll(&p, 1, wait_ms) > 0) {
        uint8_t in[512];
        ssize_t r = read(h->fd, in, sizeof in);
        if (r > 0)
            tb_dgt_decoder_feed(h->dec, in, (size_t)r, on_msg, h);
        else if (r == 0 || (errno != EAGAIN && errno != EINTR))
            disconnect(h); /* unplugged: reconnect when the link comes back */
    }
    t = now_ms();
    tb_dgt_tracker_tick(h->trk, t);
    forward(h, t);
}

static void start_sim(struct host *h, const char *const *args)
{
    memset(h, 0, sizeof *h);
    h->fd = -1;
    snprintf(h->link, sizeof h->link, "%s/dgt-board", tb_test_tmp_dir());
    unlink(h->link);
    h->dec = tb_dgt_decoder_new();
    struct tb_dgt_tracker_config tc = {.reorder_ms = 300, .hand_ms = 400};
    h->trk = tb_dgt_tracker_new(&tc);
    h->pacer = tb_dgt_pacer_new(NULL);
    ASSERT_OK(tb_sensor_new(NULL, &h->sensor));
    tb_dgt_clock_filter_init(&h->filter);
    tb_chess_pos_startpos(&h->start);
    const char *argv[40];
    int n = 0;
    argv[n++] = TB_DGTBOARD_SIM;
    argv[n++] = "--link";
    argv[n++] = h->link;
    for (int i = 0; args[i] && n < 38; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    h->child = fork();
    ASSERT_GE(h->child, 0);
    if (h->child == 0) {
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
}

/* Pumps until the board is connected and has sent its first dump (commands queued before
 * would be dropped by the handshake). */
static void wait_connected(struct host *h)
{
    uint64_t end = now_ms() + 30000;
    while (h->dumps == 0 && now_ms() < end)
        pump(h, 20);
    ASSERT_GT(h->dumps, 0);
}

/* Runs until the emulator has exited and its last bytes are read, or limit_ms passes. */
static void run_until_exit(struct host *h, uint64_t limit_ms)
{
    uint64_t end = now_ms() + limit_ms, quiet = 0;
    while (now_ms() < end) {
        pump(h, 20);
        if (!h->exited && waitpid(h->child, &h->status, WNOHANG) == h->child) {
            h->exited = true;
            quiet = now_ms() + 500;
        }
        if (h->exited && now_ms() >= quiet)
            break;
    }
    if (!h->exited) {
        kill(h->child, SIGTERM);
        waitpid(h->child, &h->status, 0);
        TB_FAIL("dgtboard-sim still running after %llu ms", (unsigned long long)limit_ms);
    }
    uint64_t t = now_ms() + 5000;
    tb_dgt_tracker_tick(h->trk, t);
    forward(h, t);
}

static void stop_host(struct host *h)
{
    if (h->fd >= 0)
        close(h->fd);
    tb_dgt_decoder_free(h->dec);
    tb_dgt_tracker_free(h->trk);
    tb_dgt_pacer_free(h->pacer);
    tb_sensor_free(h->sensor);
}

/* The moves of a game of a PGN file in UCI. */
static int game_moves(const char *file, long number, char moves[][8])
{
    char path[1024], *buf;
    size_t len;
    struct tb_error err;
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    ASSERT_OK(tb_read_file(path, &buf, &len, &err));
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, buf, len);
    for (long i = 0; i < number; i++)
        ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);
    tb_chess_pos pos = g->game.start;
    int n = g->game.plies;
    for (int i = 0; i < n; i++) {
        tb_chess_move_to_uci(&pos, g->game.moves[i], moves[i], 8);
        tb_chess_undo u;
        tb_chess_make(&pos, g->game.moves[i], &u);
    }
    free(g);
    free(buf);
    return n;
}

static void expect_game(struct host *h, const char *file, long number)
{
    static char want[MAXPLY][8];
    int n = game_moves(file, number, want);
    ASSERT_TRUE(WIFEXITED(h->status));
    ASSERT_EQ(WEXITSTATUS(h->status), 0);
    ASSERT_EQ(h->problems, 0);
    ASSERT_EQ(h->nmoves, n);
    for (int i = 0; i < n; i++)
        ASSERT_STR_EQ(h->moves[i], want[i]);
}

static const char *game_path(void)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/games/Kasparov.pgn", tb_test_data_dir());
    return path;
}

/* Kasparov - Polgar 2000: castling, en passant and a promotion in 53 plies. */
TB_TEST(whole_game_on_the_emulated_board_gives_its_moves_and_clock)
{
    struct host h;
    const char *args[] = {"--pgn",       game_path(), "--game", "1608",   "--speed",
                          "3",           "--move-ms", "1800",   "--time", "600",
                          "--increment", "5",         NULL};
    start_sim(&h, args);
    run_until_exit(&h, 120000);
    expect_game(&h, "Kasparov.pgn", 1608);
    ASSERT_GE(h.versions, 1);
    ASSERT_GE(h.serials, 1);
    ASSERT_EQ(h.clock, TB_DGT_CLOCK_3000);
    ASSERT_GT(h.readings, 10);
    /* every reading was possible; the times that went up were the 5 s increments on a press */
    ASSERT_U64_EQ(h.filter.refused[TB_DGT_CLOCK_RISE], 0);
    ASSERT_U64_EQ(h.filter.refused[TB_DGT_CLOCK_JUMP], 0);
    ASSERT_U64_EQ(h.filter.refused[TB_DGT_CLOCK_RANGE], 0);
    /* 10 min + 5 s a move; each ply takes 1.8 s of the mover's clock, and Black's runs 2 s
     * more after White's 27th move: White 600 + 27 x (5 - 1.8) = 686.4, Black
     * 600 + 26 x (5 - 1.8) - 2 = 681.2 (a clock shows a started second) */
    struct tb_dgt_clock_side white, black;
    tb_dgt_clock_by_color(&h.filter.state, false, &white, &black);
    ASSERT_TRUE(white.seconds >= 684 && white.seconds <= 690);
    ASSERT_TRUE(black.seconds >= 678 && black.seconds <= 685);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(h.dec, &st);
    ASSERT_U64_EQ(st.garbage, 0);
    stop_host(&h);
}

TB_TEST(rotated_board_out_of_order_updates_and_garbage)
{
    struct host h;
    const char *args[] = {"--pgn",     game_path(), "--game", "1608",      "--speed",
                          "3",         "--move-ms", "1800",   "--rotated", "--out-of-order",
                          "--garbage", "300",       "--seed", "7",         NULL};
    start_sim(&h, args);
    run_until_exit(&h, 120000);
    expect_game(&h, "Kasparov.pgn", 1608);
    ASSERT_EQ(tb_dgt_tracker_orientation(h.trk), TB_DGT_ORIENT_ROTATED);
    /* White at the clock's right now: 90 min + 15 s a move, as in the unrotated sums */
    struct tb_dgt_clock_side white, black;
    tb_dgt_clock_by_color(&h.filter.state, true, &white, &black);
    ASSERT_TRUE(white.seconds >= 5754 && white.seconds <= 5760);
    ASSERT_TRUE(black.seconds >= 5738 && black.seconds <= 5745);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(h.dec, &st);
    ASSERT_GT(st.garbage, 0);
    stop_host(&h);
}

TB_TEST(board_unplugged_mid_move_and_replugged_loses_nothing)
{
    struct host h;
    /* out for 2.5 s between two moves, then for 0.9 s in the middle of one (ply 34 lifted at
     * 61200 ms, put down at 61280): what happened meanwhile comes back in the dump */
    const char *args[] = {"--pgn",    game_path(), "--game", "1608",     "--speed",
                          "3",        "--move-ms", "1800",   "--unplug", "20050:2500",
                          "--unplug", "61240:900", NULL};
    start_sim(&h, args);
    run_until_exit(&h, 120000);
    expect_game(&h, "Kasparov.pgn", 1608);
    ASSERT_GE(h.connects, 3);
    ASSERT_GE(h.dumps, 3);
    stop_host(&h);
}

/* Writes an event script into the test's directory; its path in path. */
static void write_script(char *path, size_t len, const char *name, const char *text)
{
    snprintf(path, len, "%s/%s", tb_test_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    ASSERT_EQ(fclose(f), 0);
}

/* Clock text on the DGT 3000 behind its ACK; a lost ACK makes the pacer send again. */
TB_TEST(clock_text_acked_and_resent_when_an_ack_is_lost)
{
    struct host h;
    char script[1024];
    write_script(script, sizeof script, "short.events",
                 "0 dgt lift e2\n100 dgt place e4\n300 dgt press clock\n"
                 "1500 dgt lift e7\n1600 dgt place e5\n1800 dgt press clock\n");
    const char *args[] = {"--script", script, "--drop-acks", "2", "--linger", "7000", NULL};
    start_sim(&h, args);
    wait_connected(&h);
    uint8_t fr[TB_DGT_CLOCK_FRAME_MAX];
    send_clock(&h, fr, tb_dgt_clk_text(fr, sizeof fr, TB_DGT_CLOCK_3000, "STOP e4", true));
    run_until_exit(&h, 60000);
    ASSERT_TRUE(WIFEXITED(h.status));
    ASSERT_EQ(WEXITSTATUS(h.status), 0);
    ASSERT_EQ(h.nmoves, 2);
    ASSERT_STR_EQ(h.moves[0], "e2e4");
    ASSERT_STR_EQ(h.moves[1], "e7e5");
    struct tb_dgt_pacer_stats st;
    tb_dgt_pacer_stats(h.pacer, &st);
    ASSERT_GE(st.retries, 1);
    ASSERT_GE(st.acked, 1);
    stop_host(&h);
}

/* Script mode, out of order: the new square before the old one, a capture never empty. */
TB_TEST(script_out_of_order_capture_recognised)
{
    struct host h;
    char script[1024];
    write_script(script, sizeof script, "ooo.events",
                 "0 dgt lift e2\n100 dgt place e4\n200 dgt press clock\n"
                 "1500 dgt lift d7\n1600 dgt place d5\n1700 dgt press clock\n"
                 "3000 dgt lift d5\n3100 dgt lift e4\n3200 dgt place d5\n3300 dgt press clock\n");
    const char *args[] = {"--script", script, "--out-of-order", "--clock", "none", NULL};
    start_sim(&h, args);
    run_until_exit(&h, 60000);
    ASSERT_TRUE(WIFEXITED(h.status));
    ASSERT_EQ(WEXITSTATUS(h.status), 0);
    ASSERT_EQ(h.problems, 0);
    ASSERT_EQ(h.nmoves, 3);
    ASSERT_STR_EQ(h.moves[2], "e4d5");
    ASSERT_FALSE(h.filter.have); /* no clock: no reading kept */
    ASSERT_GT(h.filter.refused[TB_DGT_CLOCK_NO_CLOCK], 0);
    stop_host(&h);
}

TB_TEST(xl_clock_told_by_its_version)
{
    struct host h;
    char script[1024];
    write_script(script, sizeof script, "xl.events",
                 "0 dgt lift g1\n100 dgt place f3\n200 dgt press clock\n");
    const char *args[] = {"--script", script, "--clock", "xl", NULL};
    start_sim(&h, args);
    run_until_exit(&h, 60000);
    ASSERT_EQ(h.clock, TB_DGT_CLOCK_XL);
    ASSERT_EQ(h.nmoves, 1);
    ASSERT_STR_EQ(h.moves[0], "g1f3");
    stop_host(&h);
}

TB_TEST(led_command_to_a_plain_board_is_reported_by_the_emulator)
{
    struct host h;
    char script[1024];
    write_script(script, sizeof script, "led.events", "0 dgt lift e2\n100 dgt place e4\n");
    const char *args[] = {"--script", script, NULL};
    start_sim(&h, args);
    wait_connected(&h);
    /* what the encoder refuses to build, sent raw: the emulated plain board freezes */
    const uint8_t leds[] = {0x60, 0x04, 0x01, 0x0C, 0x0C, 0x00};
    ASSERT_OK(tb_dgt_pacer_push(h.pacer, leds, sizeof leds));
    run_until_exit(&h, 60000);
    ASSERT_TRUE(WIFEXITED(h.status));
    ASSERT_EQ(WEXITSTATUS(h.status), 3);
    stop_host(&h);
}
