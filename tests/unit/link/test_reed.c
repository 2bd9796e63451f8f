/* Tests of the pty:/serial: reed-board link without hardware: the test plays the board on the
 * master side of a pseudo-terminal, with frames from the shared codec (rb_proto). */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "rb_proto.h"
#include "tb_link.h"
#include "tb_test.h"

struct board {
    int master;
    char link_path[512]; /* a symlink to the current /dev/pts/N, so the board can come back */
    struct rb_proto_decoder dec;
};

static void board_start(struct board *b)
{
    b->master = posix_openpt(O_RDWR | O_NOCTTY);
    ASSERT_GE(b->master, 0);
    ASSERT_OK(grantpt(b->master));
    ASSERT_OK(unlockpt(b->master));
    const char *pts = ptsname(b->master);
    ASSERT_NOT_NULL(pts);
    snprintf(b->link_path, sizeof b->link_path, "%s/board", tb_test_tmp_dir());
    unlink(b->link_path);
    ASSERT_OK(symlink(pts, b->link_path));
    rb_proto_decoder_init(&b->dec);
}

static void board_write(struct board *b, const void *buf, size_t n)
{
    ASSERT_EQ(write(b->master, buf, n), (ssize_t)n);
}

static void board_square(struct board *b, uint16_t seq, int sq, int placed)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_square e = {
        .seq = seq, .ms = 1000u + seq, .square = (uint8_t)sq, .placed = (uint8_t)placed};
    size_t n = rb_proto_encode_square(buf, sizeof buf, &e);
    ASSERT_GT(n, 0);
    board_write(b, buf, n);
}

static void board_snapshot(struct board *b, uint16_t seq, uint64_t occ)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_snapshot s = {.seq = seq, .ms = 500, .occupancy = occ, .raw = occ};
    board_write(b, buf, rb_proto_encode_snapshot(buf, sizeof buf, &s));
}

static void board_info(struct board *b)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_info i = {.proto_version = RB_PROTO_VERSION,
                              .fw_major = 1,
                              .fw_minor = 2,
                              .serial = 4242,
                              .debounce_ms = 20,
                              .events = RB_PROTO_EV_ALL};
    board_write(b, buf, rb_proto_encode_info(buf, sizeof buf, &i));
}

/* Requests the host sent, as a string of types ("12" = GET_INFO, GET_SNAPSHOT). Waits up to a
 * second for at least want of them. */
static void board_expect_requests(struct board *b, const char *want)
{
    char got[32] = "";
    size_t n = 0;
    for (int tries = 0; tries < tb_test_ms(100) && n < strlen(want); tries++) {
        struct pollfd p = {.fd = b->master, .events = POLLIN};
        if (poll(&p, 1, 10) <= 0)
            continue;
        uint8_t buf[64];
        ssize_t r = read(b->master, buf, sizeof buf);
        for (ssize_t i = 0; i < r; i++) {
            struct rb_proto_msg m;
            if (rb_proto_decoder_push(&b->dec, buf[i], &m) && n < sizeof got - 1)
                got[n++] = (char)('0' + m.type);
        }
    }
    got[n] = '\0';
    ASSERT_STR_EQ(got, want);
}

/* Reads from the link until at least want events came or a second passed. */
static int link_collect(struct tb_link *l, uint64_t now, struct tb_link_event *ev, int max,
                        int want)
{
    int n = 0;
    for (int tries = 0; tries < tb_test_ms(100) && n < want; tries++) {
        int fd = tb_link_fd(l);
        if (fd >= 0) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            poll(&p, 1, 10);
        }
        int r = tb_link_read(l, now, ev + n, max - n, NULL);
        ASSERT_GE(r, 0);
        n += r;
    }
    return n;
}

static struct tb_link *connect_board(struct board *b)
{
    board_start(b);
    char res[600];
    snprintf(res, sizeof res, "pty:%s", b->link_path);
    struct tb_link *l;
    struct tb_error e = {0};
    if (tb_link_open(&l, res, "vi", 1000, &e) != TB_OK)
        TB_FAIL("open %s: %s", res, e.msg);
    /* The host asks first: bytes sent before it opened the port would be lost. */
    board_expect_requests(b, "12");
    return l;
}

TB_TEST(connect_asks_for_info_and_snapshot_and_delivers_them)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    ASSERT_GE(tb_link_fd(l), 0);
    board_info(&b);
    board_snapshot(&b, 5, 0xffff00000000ffffull);
    struct tb_link_event ev[8];
    ASSERT_EQ(link_collect(l, 1001, ev, 8, 2), 2);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_INFO);
    ASSERT_STR_CONTAINS(ev[0].text, "reedboard id 4242 firmware 1.2.0 on ");
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_SNAPSHOT);
    ASSERT_U64_EQ(ev[1].occupancy, 0xffff00000000ffffull);
    ASSERT_EQ(ev[1].seq, 5);
    ASSERT_U64_EQ(ev[1].host_ms, 1001);
    ASSERT_U64_EQ(tb_link_deadline(l), TB_LINK_NO_DEADLINE); /* snapshot answered */
    tb_link_close(l);
    close(b.master);
}

TB_TEST(square_events_arrive_with_board_time_and_sequence)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    board_snapshot(&b, 5, 0xffff00000000ffffull);
    board_square(&b, 6, 12, 0); /* lift e2 */
    board_square(&b, 7, 28, 1); /* place e4 */
    struct tb_link_event ev[8];
    ASSERT_EQ(link_collect(l, 2000, ev, 8, 3), 3);
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_LIFT);
    ASSERT_EQ(ev[1].square, 12);
    ASSERT_EQ(ev[1].seq, 6);
    ASSERT_EQ(ev[1].board_ms, 1006);
    ASSERT_TRUE(ev[1].has_seq);
    ASSERT_EQ(ev[2].kind, TB_LINK_EV_PLACE);
    ASSERT_EQ(ev[2].square, 28);
    tb_link_close(l);
    close(b.master);
}

/* Until the first whole reading after a connect, the board's square events are dropped (the
 * reading holds them); the reading is news then, and events after it count. */
TB_TEST(events_before_the_first_reading_are_left_to_it)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    struct tb_link_stats st;
    tb_link_stats(l, &st);
    ASSERT_TRUE(st.connected);
    ASSERT_TRUE(st.unread);
    board_square(&b, 3, 12, 0); /* lift e2, before the reading */
    struct tb_link_event ev[8];
    ASSERT_EQ(link_collect(l, 1500, ev, 8, 1), 0);
    uint64_t occ = 0xffff00000000ffffull & ~(1ull << 12);
    board_snapshot(&b, 3, occ);
    board_square(&b, 4, 28, 1); /* place e4 */
    ASSERT_EQ(link_collect(l, 1600, ev, 8, 2), 2);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_SNAPSHOT);
    ASSERT_U64_EQ(ev[0].occupancy, occ);
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_PLACE);
    tb_link_stats(l, &st);
    ASSERT_FALSE(st.unread);
    tb_link_close(l);
    close(b.master);
}

TB_TEST(sequence_gap_is_reported_and_a_snapshot_requested)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    board_snapshot(&b, 5, 0xffff00000000ffffull);
    board_square(&b, 6, 12, 0);
    board_square(&b, 9, 28, 1); /* 7 and 8 lost */
    struct tb_link_event ev[8];
    ASSERT_EQ(link_collect(l, 3000, ev, 8, 4), 4);
    ASSERT_EQ(ev[2].kind, TB_LINK_EV_FAULT);
    ASSERT_EQ(ev[2].fault, TB_LINK_FAULT_SEQ_GAP);
    ASSERT_EQ(ev[2].fault_detail, 2);
    ASSERT_STR_CONTAINS(ev[2].text, "2 board events lost");
    ASSERT_EQ(ev[3].kind, TB_LINK_EV_PLACE); /* the event itself still counts */
    board_expect_requests(&b, "2");
    /* The answer resynchronises; a stale event from before it is dropped. The lost events moved
     * the knight g1-f3: the reading differs from what the events say, so it goes out after a
     * RESYNC fault. */
    uint64_t knight = (0xffff00001000efffull & ~(1ull << 6)) | (1ull << 21);
    board_snapshot(&b, 9, knight);
    board_square(&b, 8, 20, 1);
    board_square(&b, 10, 52, 0);
    ASSERT_EQ(link_collect(l, 3001, ev, 8, 3), 3);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_FAULT);
    ASSERT_EQ(ev[0].fault, TB_LINK_FAULT_RESYNC);
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_SNAPSHOT);
    ASSERT_U64_EQ(ev[1].occupancy, knight);
    ASSERT_EQ(ev[2].kind, TB_LINK_EV_LIFT);
    ASSERT_EQ(ev[2].seq, 10);
    /* The firmware's periodic reading that agrees with the events adds nothing. */
    board_snapshot(&b, 10, knight & ~(1ull << 52));
    ASSERT_EQ(link_collect(l, 3002, ev, 8, 1), 0);
    struct tb_link_stats st;
    tb_link_stats(l, &st);
    ASSERT_EQ(st.seq_gaps, 1);
    ASSERT_GE(st.snapshots_requested, 2);
    tb_link_close(l);
    close(b.master);
}

TB_TEST(unanswered_snapshot_request_is_repeated)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    ASSERT_U64_EQ(tb_link_deadline(l), 2000); /* opened at 1000, waits a second */
    struct tb_link_event ev[4];
    ASSERT_EQ(tb_link_read(l, 1999, ev, 4, NULL), 0);
    ASSERT_EQ(tb_link_read(l, 2000, ev, 4, NULL), 0);
    board_expect_requests(&b, "2");
    tb_link_close(l);
    close(b.master);
}

TB_TEST(garbage_and_truncated_frames_are_counted_and_good_frames_still_decoded)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    board_snapshot(&b, 5, 0xffff00000000ffffull);
    uint8_t frame[RB_PROTO_MAX_FRAME];
    struct rb_proto_square e = {.seq = 6, .ms = 1, .square = 12, .placed = 0};
    size_t n = rb_proto_encode_square(frame, sizeof frame, &e);
    board_write(&b, "\x00\x13garbage\xff", 10);
    board_write(&b, frame, n - 3); /* truncated: no CRC */
    frame[4] ^= 0x55;
    board_write(&b, frame, n); /* bad CRC */
    board_square(&b, 6, 12, 0);
    board_square(&b, 7, 28, 1);
    struct tb_link_event ev[16];
    int got = link_collect(l, 4000, ev, 16, 4);
    int lifts = 0, places = 0, faults = 0;
    for (int i = 0; i < got; i++) {
        lifts += ev[i].kind == TB_LINK_EV_LIFT;
        places += ev[i].kind == TB_LINK_EV_PLACE;
        faults += ev[i].kind == TB_LINK_EV_FAULT && ev[i].fault == TB_LINK_FAULT_DECODE;
    }
    ASSERT_EQ(lifts, 1);
    ASSERT_EQ(places, 1);
    ASSERT_GE(faults, 1);
    struct tb_link_stats st;
    tb_link_stats(l, &st);
    ASSERT_GE(st.bad_frames, 1);
    ASSERT_GE(st.garbage_bytes, 8);
    ASSERT_GE(st.frames, 3);
    tb_link_close(l);
    close(b.master);
}

TB_TEST(random_bytes_never_crash_the_link)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    unsigned seed = 12345;
    struct tb_link_event ev[64];
    for (int round = 0; round < 50; round++) {
        uint8_t buf[256];
        for (size_t i = 0; i < sizeof buf; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (uint8_t)(seed >> 16);
            if (i % 7 == 0)
                buf[i] = RB_PROTO_SYNC; /* many candidate frames */
        }
        board_write(&b, buf, sizeof buf);
        struct pollfd p = {.fd = tb_link_fd(l), .events = POLLIN};
        poll(&p, 1, 10);
        while (tb_link_read(l, 5000, ev, 64, NULL) > 0) {
        }
    }
    board_snapshot(&b, 100, 1); /* still in step afterwards */
    int got = link_collect(l, 5001, ev, 64, 1), snaps = 0;
    for (int i = 0; i < got; i++)
        snaps += ev[i].kind == TB_LINK_EV_SNAPSHOT && ev[i].occupancy == 1;
    ASSERT_EQ(snaps, 1);
    tb_link_close(l);
    close(b.master);
}

TB_TEST(board_closing_is_link_lost_and_reopening_is_link_back)
{
    struct board b;
    struct tb_link *l = connect_board(&b);
    board_snapshot(&b, 5, 0xffff00000000ffffull);
    struct tb_link_event ev[8];
    ASSERT_EQ(link_collect(l, 1000, ev, 8, 1), 1);
    close(b.master); /* unplugged, or the simulator stopped */
    ASSERT_EQ(link_collect(l, 1100, ev, 8, 1), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_LOST);
    ASSERT_STR_CONTAINS(ev[0].text, "pty:");
    ASSERT_EQ(tb_link_fd(l), -1);
    uint64_t retry = tb_link_deadline(l);
    ASSERT_GT(retry, 1100);
    ASSERT_LE(retry, 1100 + 250);
    /* Still gone at the first retry: the backoff grows. */
    unlink(b.link_path);
    ASSERT_EQ(tb_link_read(l, retry, ev, 8, NULL), 0);
    uint64_t retry2 = tb_link_deadline(l);
    ASSERT_GE(retry2 - retry, 500);
    /* The board comes back (a new pty behind the same name). */
    board_start(&b);
    ASSERT_EQ(tb_link_read(l, retry2, ev, 8, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_BACK);
    ASSERT_GE(tb_link_fd(l), 0);
    board_expect_requests(&b, "12"); /* re-read the board */
    board_snapshot(&b, 1, 0xfffe00000000ffffull);
    ASSERT_EQ(link_collect(l, retry2 + 1, ev, 8, 1), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_SNAPSHOT);
    struct tb_link_stats st;
    tb_link_stats(l, &st);
    ASSERT_EQ(st.reconnects, 1);
    ASSERT_TRUE(st.connected);
    tb_link_close(l);
    close(b.master);
}

TB_TEST(open_of_a_missing_device_names_it)
{
    struct tb_link *l;
    struct tb_error e;
    ASSERT_EQ(tb_link_open(&l, "pty:/dev/pts/nonexistent", "vi", 0, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "pty:/dev/pts/nonexistent");
    ASSERT_EQ(tb_link_open(&l, "serial:/dev/ttyNONEXISTENT9", "vi", 0, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "serial:/dev/ttyNONEXISTENT9");
    ASSERT_EQ(tb_link_open(&l, "pty:/dev/null", "vi", 0, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "not a terminal");
}
