/* The wire: the VI board is a reed board on a pseudo-terminal that the test plays itself with
 * frames of the shared codec (rb_proto), the sighted player's assistant types moves (keys:,
 * D.2.10.1). The board is unplugged in the middle of a move and plugged back in; garbage and
 * truncated frames arrive between real ones. Nothing is lost, nothing crashes. Real time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_test.h"

#define board ptyboard

static void pump(struct board *b)
{
    ptyboard_pump(b);
}

static void put(struct board *b, const uint8_t *buf, size_t n)
{
    ASSERT_OK(ptyboard_write(b, buf, n));
}

/* A lift or placement on the board: the board model changes, a frame goes out. */
static void square(struct board *b, const char *name, int placed, bool send)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    ASSERT_OK(ptyboard_square(b, sq, placed, send));
}

static struct board *the_board;

/* The daemon's loop and the board's side, for up to ms or until the daemon has plies. */
static int want_plies;
static bool has_plies(struct fx *f)
{
    pump(the_board);
    return fx_plies(f) >= want_plies && strstr(fx_req(f, "status"), "state: in-sync");
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
    the_board = b;
    fx_start_pty_keys(f, b, name);
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
    ASSERT_STR_CONTAINS(fx_req(&f, "move sighted e5"), "error state White is to move");
    ASSERT_STR_CONTAINS(fx_req(&f, "move sighted zz9"), "error");
    opening(&f, &b);
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5");
    ASSERT_STR_CONTAINS(f.log, "the assistant typed e4");
    fx_free(&f);
    ptyboard_unplug(&b);
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
    ptyboard_unplug(&b);
    ASSERT_TRUE(fx_run_until(&f, 3000, lost));
    ASSERT_STR_CONTAINS(f.log, "vi board lost");
    square(&b, "f3", 1, false); /* made while the board is away */
    ASSERT_OK(ptyboard_plug(&b));
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
    /* and the journal has it all, the loss and the return included */
    fx_stop(&f);
    fx_options(&f, "null:", "keys:"); /* the assistant's board stays typed */
    fx_start(&f);
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 Nf3");
    fx_free(&f);
    ptyboard_unplug(&b);
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
    ptyboard_unplug(&b);
}
