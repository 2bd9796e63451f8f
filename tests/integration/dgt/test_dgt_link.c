/* The dgt: link against the emulated DGT board (dgtsim on a pty, played in-process): its first
 * reading names every piece, a move comes as a lift and a placement with its piece, the clock
 * as a clock event; bad input on the line (garbage, cut and oversized messages, impossible
 * times, a field beyond the board) changes nothing and crashes nothing; a board unplugged and
 * plugged back in after a move gives the move's events.
 *
 * style: real-time wait: the link reads a pty, polled with timeouts. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dgtpty.h"
#include "tb_chess.h"
#include "tb_link.h"
#include "tb_test.h"

#define MAXEV 512

struct run {
    struct dgtpty board;
    struct tb_link *link;
    char path[512];
    struct tb_link_event ev[MAXEV];
    int n;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Board and link both turned for ms; the events delivered meanwhile in r->ev (from 0). */
static void turn(struct run *r, int ms)
{
    r->n = 0;
    uint64_t end = now_ms() + (uint64_t)tb_test_ms(ms);
    while (now_ms() < end) {
        if (r->board.fd >= 0)
            dgtpty_pump(&r->board, now_ms());
        struct pollfd p = {.fd = tb_link_fd(r->link), .events = POLLIN};
        poll(&p, p.fd >= 0 ? 1 : 0, 5);
        struct tb_link_event ev[64];
        int k = tb_link_read(r->link, now_ms(), ev, 64, NULL);
        ASSERT_GE(k, 0);
        for (int i = 0; i < k && r->n < MAXEV; i++)
            r->ev[r->n++] = ev[i];
    }
}

static int count(const struct run *r, int kind)
{
    int c = 0;
    for (int i = 0; i < r->n; i++)
        c += r->ev[i].kind == kind;
    return c;
}

static const struct tb_link_event *find(const struct run *r, int kind)
{
    for (int i = 0; i < r->n; i++)
        if (r->ev[i].kind == kind)
            return &r->ev[i];
    return NULL;
}

static bool said(const struct run *r, const char *text)
{
    for (int i = 0; i < r->n; i++)
        if (strstr(r->ev[i].text, text))
            return true;
    return false;
}

static void start(struct run *r, const char *name)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s/%s-dgt", tb_test_tmp_dir(), name);
    ASSERT_OK(dgtpty_init(&r->board, r->path));
    char res[600];
    snprintf(res, sizeof res, "dgt:%s", r->path);
    struct tb_error err = {0};
    if (tb_link_open(&r->link, res, "sighted", now_ms(), &err) != TB_OK)
        TB_FAIL("open: %s", err.msg);
    turn(r, 1500);
}

static void stop(struct run *r)
{
    tb_link_close(r->link);
    dgtpty_close(&r->board);
    unlink(r->path);
}

static void move(struct run *r, const char *uci)
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_uci(&pos, uci, &m));
    dgtpty_move(&r->board, &pos, m, now_ms());
}

TB_TEST(first_reading_names_every_piece_and_a_move_names_its_piece)
{
    struct run r;
    start(&r, "read");
    const struct tb_link_event *s = find(&r, TB_LINK_EV_SNAPSHOT);
    ASSERT_NOT_NULL(s);
    ASSERT_TRUE(s->has_pieces);
    ASSERT_U64_EQ(s->occupancy, 0xffff00000000ffffull);
    ASSERT_EQ(s->pieces[tb_chess_square_parse("e1")],
              TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KING));
    ASSERT_EQ(s->pieces[tb_chess_square_parse("d8")],
              TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_QUEEN));
    ASSERT_EQ(count(&r, TB_LINK_EV_SNAPSHOT), 1);
    ASSERT_TRUE(said(&r, "DGT board version"));
    ASSERT_TRUE(said(&r, "DGT clock: DGT 3000"));
    ASSERT_TRUE(said(&r, "the right way round"));
    const struct tb_link_event *c = find(&r, TB_LINK_EV_CLOCK);
    ASSERT_NOT_NULL(c);
    ASSERT_EQ(c->clock_ms[0], 5400000);
    ASSERT_EQ(c->clock_ms[1], 5400000);
    ASSERT_EQ(c->clock_run, 0);
    struct tb_link_stats st;
    tb_link_stats(r.link, &st);
    ASSERT_TRUE(st.connected);
    ASSERT_FALSE(st.unread);

    move(&r, "g1f3");
    turn(&r, 400);
    ASSERT_EQ(r.n, 2);
    ASSERT_EQ(r.ev[0].kind, TB_LINK_EV_LIFT);
    ASSERT_EQ(r.ev[0].square, tb_chess_square_parse("g1"));
    ASSERT_EQ(r.ev[1].kind, TB_LINK_EV_PLACE);
    ASSERT_EQ(r.ev[1].square, tb_chess_square_parse("f3"));
    ASSERT_EQ(r.ev[1].piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    stop(&r);
}

/* Garbage, a message cut by the next header, lengths wrong for their IDs, a field beyond the
 * board, BWTIME readings with impossible or risen times: faults are reported, the board is read
 * again, no square event and no clock reading comes of it. */
TB_TEST(bad_input_on_the_line_changes_nothing)
{
    struct run r;
    start(&r, "bad");
    static const uint8_t junk[] = {
        0x01, 0x7f, 0x00, 0x42,             /* stray bytes without bit 7 */
        0x8e, 0x00, 0x05, 0x0c,             /* FIELD_UPDATE cut by the next header */
        0x8e, 0x00, 0x06, 0x0c, 0x01, 0x00, /* FIELD_UPDATE declaring 6 bytes */
        0x86, 0x00, 0x0a, 0x01, 0x02,       /* BOARD_DUMP declaring 10 */
        0x8e, 0x00, 0x05, 0x46, 0x01,       /* field 70 */
        0x8d, 0x00, 0x0a, 0x0c, 0x59, 0x59, 0x01, 0x30, 0x00, 0x01, /* 12 hours */
        0x8d, 0x00, 0x0a, 0x01, 0x6a, 0x00, 0x01, 0x30, 0x00, 0x01, /* minutes 6A: no BCD */
        0x8d, 0x00, 0x0a, 0x02, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, /* 2:00:00, risen */
        0xfe, 0x7f, 0x7f, 0x01, 0x02, /* unknown ID of 16383 bytes, cut */
    };
    dgtpty_raw(&r.board, junk, sizeof junk);
    turn(&r, 2500);
    ASSERT_GT(count(&r, TB_LINK_EV_FAULT), 0);
    ASSERT_EQ(count(&r, TB_LINK_EV_LIFT), 0);
    ASSERT_EQ(count(&r, TB_LINK_EV_PLACE), 0);
    ASSERT_EQ(count(&r, TB_LINK_EV_SNAPSHOT), 0);
    ASSERT_EQ(count(&r, TB_LINK_EV_CLOCK), 0);
    ASSERT_EQ(count(&r, TB_LINK_EV_LOST), 0);
    struct tb_link_stats st;
    tb_link_stats(r.link, &st);
    ASSERT_GT(st.bad_frames, 3u);
    ASSERT_GT(st.garbage_bytes, 0u);
    /* and the board still reads right */
    move(&r, "e2e4");
    turn(&r, 400);
    ASSERT_EQ(count(&r, TB_LINK_EV_LIFT), 1);
    ASSERT_EQ(count(&r, TB_LINK_EV_PLACE), 1);
    stop(&r);
}

/* Unplugged (the pty closes), a move made while it is away, plugged back in: LOST, BACK, then
 * the move's events with its piece, read from the fresh dump. */
TB_TEST(unplugged_and_back_the_move_made_meanwhile_comes_whole)
{
    struct run r;
    start(&r, "unplug");
    dgtpty_close(&r.board);
    unlink(r.path);
    turn(&r, 300);
    ASSERT_EQ(count(&r, TB_LINK_EV_LOST), 1);
    ASSERT_OK(dgtpty_init(&r.board, r.path)); /* back in bus mode, as after power-up */
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_uci(&pos, "b1c3", &m));
    dgtpty_move(&r.board, &pos, m, now_ms()); /* made while nobody reads */
    turn(&r, 3000);
    ASSERT_EQ(count(&r, TB_LINK_EV_BACK), 1);
    const struct tb_link_event *p = find(&r, TB_LINK_EV_PLACE);
    ASSERT_NOT_NULL(p);
    ASSERT_EQ(p->square, tb_chess_square_parse("c3"));
    ASSERT_EQ(p->piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    ASSERT_EQ(count(&r, TB_LINK_EV_LIFT), 1);
    struct tb_link_stats st;
    tb_link_stats(r.link, &st);
    ASSERT_EQ(st.reconnects, 1u);
    stop(&r);
}
