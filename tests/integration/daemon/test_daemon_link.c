/* The wire: the VI board is a reed board on a pseudo-terminal that the test plays itself with
 * frames of the shared codec (rb_proto), the sighted player's assistant types moves (keys:,
 * D.2.10.1). The board is unplugged in the middle of a move and plugged back in; garbage and
 * truncated frames arrive between real ones. Nothing is lost, nothing crashes. Real time. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "fixture.h"
#include "rb_proto.h"
#include "tb_chess.h"
#include "tb_test.h"

#define START_OCC 0xffff00000000ffffull

struct board {
    int master;
    char link[512];
    struct rb_proto_decoder dec;
    uint64_t occ;
    uint16_t seq;
    uint32_t ms;
};

static void plug(struct board *b)
{
    b->master = posix_openpt(O_RDWR | O_NOCTTY);
    ASSERT_GE(b->master, 0);
    ASSERT_OK(grantpt(b->master));
    ASSERT_OK(unlockpt(b->master));
    struct termios t;
    if (tcgetattr(b->master, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(b->master, TCSANOW, &t);
    }
    const char *pts = ptsname(b->master);
    ASSERT_NOT_NULL(pts);
    unlink(b->link);
    ASSERT_OK(symlink(pts, b->link));
    rb_proto_decoder_init(&b->dec);
}

static void board_init(struct board *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->link, sizeof b->link, "%s/vi-board", tb_test_tmp_dir());
    b->occ = START_OCC;
    b->ms = 1000;
    plug(b);
}

static void put(struct board *b, const uint8_t *buf, size_t n)
{
    ASSERT_EQ(write(b->master, buf, n), (ssize_t)n);
}

static void send_snapshot(struct board *b)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_snapshot s = {.seq = b->seq, .ms = b->ms, .occupancy = b->occ, .raw = b->occ};
    put(b, buf, rb_proto_encode_snapshot(buf, sizeof buf, &s));
}

/* Answers what the host asked: INFO, SNAPSHOT, PONG. */
static void pump(struct board *b)
{
    uint8_t in[256], buf[RB_PROTO_MAX_FRAME];
    struct pollfd p = {.fd = b->master, .events = POLLIN};
    while (b->master >= 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
        ssize_t r = read(b->master, in, sizeof in);
        if (r <= 0)
            return;
        for (ssize_t i = 0; i < r; i++) {
            struct rb_proto_msg m;
            if (!rb_proto_decoder_push(&b->dec, in[i], &m))
                continue;
            if (m.type == RB_PROTO_GET_INFO) {
                struct rb_proto_info info = {.proto_version = RB_PROTO_VERSION,
                                             .fw_major = 1,
                                             .serial = 7,
                                             .debounce_ms = 20,
                                             .events = RB_PROTO_EV_ALL};
                put(b, buf, rb_proto_encode_info(buf, sizeof buf, &info));
            } else if (m.type == RB_PROTO_GET_SNAPSHOT) {
                send_snapshot(b);
            } else if (m.type == RB_PROTO_PING) {
                struct rb_proto_pong pong = {.token = m.u.ping_token};
                put(b, buf, rb_proto_encode_pong(buf, sizeof buf, &pong));
            }
        }
    }
}

/* A lift or placement on the board: the board model changes, a frame goes out. */
static void square(struct board *b, const char *name, int placed, bool send)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    if (placed)
        b->occ |= TB_CHESS_BIT(sq);
    else
        b->occ &= ~TB_CHESS_BIT(sq);
    b->seq++;
    b->ms += 300;
    if (!send)
        return;
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_square e = {
        .seq = b->seq, .ms = b->ms, .square = (uint8_t)sq, .placed = (uint8_t)placed};
    put(b, buf, rb_proto_encode_square(buf, sizeof buf, &e));
}

static struct board *the_board;

/* The daemon's loop and the board's side, for up to ms or until the daemon has plies. */
static int want_plies;
static bool has_plies(struct fx *f)
{
    pump(the_board);
    return fx_plies(f) >= want_plies && strstr(fx_req(f, "status"), "state: in-sync");
}
static bool board_read(struct fx *f)
{
    pump(the_board);
    const char *st = fx_req(f, "status");
    return strstr(st, "vi: White") && !strstr(st, "waiting for its first reading") &&
           !strstr(st, "NOT CONNECTED");
}
static bool waiting_for_vi(struct fx *f)
{
    pump(the_board);
    return strstr(fx_req(f, "status"), "state: waiting: the vi board") != NULL;
}
static bool waiting_for_sighted(struct fx *f)
{
    pump(the_board);
    return strstr(fx_req(f, "status"), "state: waiting: the sighted board") != NULL;
}
static bool lost(struct fx *f)
{
    pump(the_board);
    return strstr(fx_req(f, "status"), "NOT CONNECTED") != NULL;
}

static void start(struct fx *f, struct board *b, const char *name)
{
    board_init(b);
    the_board = b;
    fx_init(f, name);
    char res[600];
    snprintf(res, sizeof res, "pty:%s", b->link);
    fx_options(f, res, "keys:");
    f->o.speed = TB_DAEMON_SPEED_CONFIG;
    fx_start(f);
    ASSERT_TRUE(fx_run_until(f, 5000, board_read));
}

/* 1. e4 on the reed board, replicated by the assistant; 1... e5 typed, replicated on the
 * reed board. */
static void opening(struct fx *f, struct board *b)
{
    square(b, "e2", 0, true);
    square(b, "e4", 1, true);
    ASSERT_TRUE(fx_run_until(f, 3000, waiting_for_sighted));
    ASSERT_STR_EQ(fx_req(f, "move sighted e4"), "ok\n");
    want_plies = 1;
    ASSERT_TRUE(fx_run_until(f, 3000, has_plies));
    ASSERT_STR_EQ(fx_req(f, "move sighted e5"), "ok\n");
    ASSERT_TRUE(fx_run_until(f, 3000, waiting_for_vi));
    square(b, "e7", 0, true);
    square(b, "e5", 1, true);
    want_plies = 2;
    ASSERT_TRUE(fx_run_until(f, 3000, has_plies));
}

/* The assistant's requests are checked: a board that is not keys:, an illegal move. */
TB_TEST(d2101_assistant_types_moves)
{
    struct fx f;
    struct board b;
    start(&f, &b, "keys");
    ASSERT_STR_CONTAINS(fx_req(&f, "move vi e4"), "error unsupported");
    ASSERT_STR_CONTAINS(fx_req(&f, "move sighted e5"), "error illegal");
    ASSERT_STR_CONTAINS(fx_req(&f, "move sighted zz9"), "error");
    opening(&f, &b);
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5");
    ASSERT_STR_CONTAINS(f.log, "the assistant typed e4");
    fx_free(&f);
    close(b.master);
}

/* Unplugged with the knight in the player's hand; the knight goes to f3 while the board is
 * away; plugged back in: the board is read again and the move is there. */
TB_TEST(board_unplugged_mid_move_nothing_lost)
{
    struct fx f;
    struct board b;
    start(&f, &b, "unplug");
    opening(&f, &b);
    square(&b, "g1", 0, true);
    fx_run_until(&f, 200, NULL);
    close(b.master);
    b.master = -1;
    ASSERT_TRUE(fx_run_until(&f, 3000, lost));
    ASSERT_STR_CONTAINS(f.log, "vi board lost");
    square(&b, "f3", 1, false); /* made while the board is away */
    plug(&b);
    ASSERT_TRUE(fx_run_until(&f, 6000, waiting_for_sighted));
    ASSERT_STR_CONTAINS(f.log, "vi board is back");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: waiting: the sighted board must replicate "
                                              "2. Nf3");
    ASSERT_STR_EQ(fx_req(&f, "move sighted Nf3"), "ok\n");
    want_plies = 3;
    ASSERT_TRUE(fx_run_until(&f, 3000, has_plies));
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 Nf3");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "1 reconnects");
    fx_free(&f);
    close(b.master);
}

/* Garbage bytes, a frame cut short and a frame with a bad CRC arrive between real frames: the
 * decoder drops them, a lost event is recovered by a snapshot, the game goes on. */
TB_TEST(garbage_and_truncated_frames_game_continues)
{
    struct fx f;
    struct board b;
    start(&f, &b, "garbage");
    static const uint8_t junk[] = {0x00, 0xff, 0x13, 0x37, 0x7e, 0x7e, 0x01, 0x02, 0xaa, 0x55};
    put(&b, junk, sizeof junk);
    opening(&f, &b);
    /* 2. Nf3 with its lift frame cut in half and garbage after it */
    uint8_t buf[RB_PROTO_MAX_FRAME];
    square(&b, "g1", 0, false);
    struct rb_proto_square e = {.seq = b.seq, .ms = b.ms, .square = 6, .placed = 0};
    size_t n = rb_proto_encode_square(buf, sizeof buf, &e);
    put(&b, buf, n / 2);
    put(&b, junk, sizeof junk);
    buf[n - 1] ^= 0x5a; /* and once whole with a bad CRC */
    put(&b, buf, n);
    square(&b, "f3", 1, true);
    want_plies = 3;
    ASSERT_TRUE(fx_run_until(&f, 4000, waiting_for_sighted));
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "must replicate 2. Nf3");
    ASSERT_STR_EQ(fx_req(&f, "move sighted Nf3"), "ok\n");
    ASSERT_TRUE(fx_run_until(&f, 3000, has_plies));
    char vi_line[512];
    const char *st = strstr(fx_req(&f, "status"), "vi: White");
    ASSERT_NOT_NULL(st);
    snprintf(vi_line, sizeof vi_line, "%.*s", (int)strcspn(st, "\n"), st);
    ASSERT_TRUE(strstr(vi_line, " 0 bad frames") == NULL); /* the rejected frames are counted */
    ASSERT_STR_CONTAINS(f.log, "events lost");
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 Nf3");
    fx_free(&f);
    close(b.master);
}
