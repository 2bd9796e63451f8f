/* The chesslink: and chessnut: links against their emulated boards played in-process (clpty on
 * a pty, cnsim behind its HID stand-in): the first reading names every piece, a move comes as a
 * lift and a placement with its piece; a flood of bad bytes or bad reports changes nothing and
 * crashes nothing, and the next move still comes whole.
 *
 * style: real-time wait: the links read a pty and a socket, polled with timeouts. */
#define _DEFAULT_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clpty.h"
#include "cnsim.h"
#include "tb_chess.h"
#include "tb_chessnut.h"
#include "tb_link.h"
#include "tb_test.h"

#define MAXEV 512

struct run {
    bool nut; /* chessnut: (cnsim), else chesslink: (clpty) */
    struct clpty cl;
    struct cnsim cn;
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
        if (r->nut)
            cnsim_pump(&r->cn, now_ms(), 0);
        else
            clpty_pump(&r->cl, now_ms());
        struct pollfd p = {.fd = tb_link_fd(r->link), .events = POLLIN};
        poll(&p, p.fd >= 0 ? 1 : 0, 5);
        struct tb_link_event ev[64];
        int k = tb_link_read(r->link, now_ms(), ev, 64, NULL);
        ASSERT_GE(k, 0);
        for (int i = 0; i < k && r->n < MAXEV; i++)
            r->ev[r->n++] = ev[i];
    }
}

static const struct tb_link_event *find(const struct run *r, int kind)
{
    for (int i = 0; i < r->n; i++)
        if (r->ev[i].kind == kind)
            return &r->ev[i];
    return NULL;
}

static void set_board(struct run *r, const tb_chess_pos *pos)
{
    if (!r->nut) {
        clpty_set(&r->cl, pos);
        return;
    }
    for (int sq = 0; sq < 64; sq++)
        r->cn.pieces[sq] = (uint8_t)tb_chess_piece_at(pos, sq);
}

/* The link opened on the board in the start position; its first reading names every piece. */
static void start(struct run *r, bool nut, const char *name)
{
    memset(r, 0, sizeof *r);
    r->nut = nut;
    snprintf(r->path, sizeof r->path, "%s/%s", tb_test_tmp_dir(), name);
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    if (nut) {
        set_board(r, &pos);
        memcpy(r->cn.sent, r->cn.pieces, 64);
        r->cn.conn = -1;
        r->cn.next_scan = now_ms();
        r->cn.listener = cnsim_plug_socket(r->path);
        ASSERT_GE(r->cn.listener, 0);
    } else {
        ASSERT_EQ(clpty_init(&r->cl, r->path, now_ms()), 0);
    }
    char res[600];
    snprintf(res, sizeof res, "%s:%s", nut ? "chessnut" : "chesslink", r->path);
    struct tb_error err = {0};
    if (tb_link_open(&r->link, res, "sighted", now_ms(), &err) != TB_OK)
        TB_FAIL("%s: %s", res, err.msg);
    turn(r, 1000);
    const struct tb_link_event *snap = find(r, TB_LINK_EV_SNAPSHOT);
    ASSERT_NOT_NULL(snap);
    ASSERT_TRUE(snap->has_pieces);
    ASSERT_EQ(snap->occupancy, 0xffff00000000ffffull);
    for (int sq = 0; sq < 64; sq++)
        ASSERT_EQ(snap->pieces[sq], tb_chess_piece_at(&pos, sq));
}

static void stop(struct run *r)
{
    tb_link_close(r->link);
    if (r->nut)
        cnsim_unplug(&r->cn, r->path);
    else
        clpty_close(&r->cl);
}

/* A move made on the board: its lift and placement, the placement naming the piece. */
static void move_comes_whole(struct run *r, tb_chess_pos *pos, const char *san)
{
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_san(pos, san, TB_CHESS_LETTERS_EN, &m, NULL));
    int piece = tb_chess_piece_at(pos, tb_chess_move_from(m));
    tb_chess_undo u;
    tb_chess_make(pos, m, &u);
    set_board(r, pos);
    turn(r, 600);
    const struct tb_link_event *lift = find(r, TB_LINK_EV_LIFT), *place = find(r, TB_LINK_EV_PLACE);
    ASSERT_NOT_NULL(lift);
    ASSERT_NOT_NULL(place);
    ASSERT_EQ(lift->square, tb_chess_move_from(m));
    ASSERT_EQ(place->square, tb_chess_move_to(m));
    ASSERT_EQ(place->piece, piece);
    ASSERT_TRUE(lift < place);
}

/* 64 KB of random bytes on a ChessLink board's line, then frames cut by the next one and a
 * frame with a wrong block check: faults reported, the board read again, the next move whole. */
TB_TEST(chesslink_flood_of_bad_bytes_changes_nothing)
{
    struct run r;
    start(&r, false, "clflood");
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    move_comes_whole(&r, &pos, "e4");
    static uint8_t junk[65536];
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof junk; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        junk[i] = (uint8_t)x;
    }
    for (size_t off = 0; off < sizeof junk;) {
        ssize_t w = write(r.cl.fd, junk + off, sizeof junk - off);
        if (w > 0)
            off += (size_t)w;
        else
            turn(&r, 20); /* the link reads the line empty */
    }
    static const char cut[] = "s........v01v010577";
    ASSERT_EQ(write(r.cl.fd, cut, sizeof cut - 1), (ssize_t)(sizeof cut - 1));
    turn(&r, 1500);
    ASSERT_NOT_NULL(find(&r, TB_LINK_EV_FAULT));
    ASSERT_TRUE(find(&r, TB_LINK_EV_LIFT) == NULL); /* nothing moved */
    ASSERT_TRUE(find(&r, TB_LINK_EV_PLACE) == NULL);
    struct tb_link_stats st;
    tb_link_stats(r.link, &st);
    ASSERT_GT(st.garbage_bytes, 1000);
    ASSERT_TRUE(st.connected);
    move_comes_whole(&r, &pos, "e5");
    stop(&r);
}

/* A flood of reports no Chessnut board sends (random bytes, positions cut short or holding a
 * nibble that is no piece): refused, the board's position unchanged, the next move whole. */
TB_TEST(chessnut_flood_of_bad_reports_changes_nothing)
{
    struct run r;
    start(&r, true, "cnflood");
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    move_comes_whole(&r, &pos, "d4");
    uint64_t x = 2463534242ull;
    for (int i = 0; i < 2000; i++) {
        uint8_t rep[TB_CHESSNUT_REPORT_MAX];
        int n = tb_chessnut_position(rep, sizeof rep, r.cn.pieces);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (i % 3 == 0)
            for (int k = 0; k < n; k++)
                rep[k] = (uint8_t)(x >> (k % 8));
        else if (i % 3 == 1)
            n = 2 + (int)(x % 30); /* cut short */
        else
            rep[2 + x % 32] |= 0xE0; /* a nibble that is no piece */
        if (send(r.cn.conn, rep, (size_t)n, MSG_NOSIGNAL) < 0)
            turn(&r, 20);
    }
    turn(&r, 1500);
    ASSERT_NOT_NULL(find(&r, TB_LINK_EV_FAULT));
    ASSERT_TRUE(find(&r, TB_LINK_EV_LIFT) == NULL);
    ASSERT_TRUE(find(&r, TB_LINK_EV_PLACE) == NULL);
    struct tb_link_stats st;
    tb_link_stats(r.link, &st);
    ASSERT_GT(st.bad_frames, 100);
    ASSERT_TRUE(st.connected);
    move_comes_whole(&r, &pos, "d5");
    stop(&r);
}

/* Castling shown in one reading (the king and the rook moved between two scans): the king's lift
 * comes first, as castling is begun (4.4.2), so no touch-move report follows; then the rook's,
 * and both placements with their pieces. */
TB_TEST(law_4_4_2_castling_in_one_reading_lifts_the_king_first)
{
    struct run r;
    start(&r, false, "clcastle");
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    static const char *const opening[] = {"d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd3", "Qd6"};
    for (size_t i = 0; i < sizeof opening / sizeof opening[0]; i++)
        move_comes_whole(&r, &pos, opening[i]);
    tb_chess_move m;
    /* queenside: the rook's square (a1) comes before the king's in the board's order */
    ASSERT_OK(tb_chess_move_from_san(&pos, "O-O-O", TB_CHESS_LETTERS_EN, &m, NULL));
    tb_chess_undo u;
    tb_chess_make(&pos, m, &u);
    set_board(&r, &pos);
    turn(&r, 600);
    int lifts = 0, places = 0;
    for (int i = 0; i < r.n; i++) {
        const struct tb_link_event *e = &r.ev[i];
        if (e->kind == TB_LINK_EV_LIFT && lifts++ == 0)
            ASSERT_EQ(e->square, TB_CHESS_SQ(4, 0)); /* e1 first */
        if (e->kind == TB_LINK_EV_PLACE) {
            places++;
            ASSERT_EQ(e->piece, tb_chess_piece_at(&pos, e->square));
        }
    }
    ASSERT_EQ(lifts, 2);
    ASSERT_EQ(places, 2);
    stop(&r);
}

/* Plays the plies on a board that reads every changing scan mid-change (--torn 1000: a piece
 * lifted while the board reads its squares, so a moved piece shows on both squares or on
 * neither for one scan). The link's lifts and placements, applied to the pieces it said, end
 * each ply on the true position; every placement names the piece that truly ends on its square
 * and every lift is of a square the move changed: nothing lost, nothing invented. */
static void torn_reads_change_nothing(bool nut, const char *name)
{
    static const char *const plies[] = {"e4", "e5",   "Nf3",  "Nc6", "Bb5",
                                        "a6", "Bxc6", "dxc6", "O-O"};
    struct run r;
    start(&r, nut, name);
    long *torn = nut ? &r.cn.torn : &r.cl.sim.torn;
    *torn = 1000;
    if (!nut)
        r.cl.sim.rng = 12345;
    else
        r.cn.rng = 12345;
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    uint8_t seen[64]; /* the pieces as the link's events say */
    for (int sq = 0; sq < 64; sq++)
        seen[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++) {
        tb_chess_pos before = pos;
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_san(&pos, plies[i], TB_CHESS_LETTERS_EN, &m, NULL));
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
        set_board(&r, &pos); /* the whole move at once: a hand quicker than one scan */
        bool right = false;
        for (int slice = 0; slice < 12 && !right; slice++) {
            turn(&r, 100);
            for (int k = 0; k < r.n; k++) {
                const struct tb_link_event *e = &r.ev[k];
                if (e->kind == TB_LINK_EV_SNAPSHOT)
                    TB_FAIL("ply %zu: a whole reading again (%s)", i + 1, e->text);
                if (e->kind == TB_LINK_EV_LIFT) {
                    ASSERT_NE(tb_chess_piece_at(&before, e->square),
                              tb_chess_piece_at(&pos, e->square));
                    seen[e->square] = 0;
                }
                if (e->kind == TB_LINK_EV_PLACE) {
                    ASSERT_EQ(e->piece, tb_chess_piece_at(&pos, e->square));
                    seen[e->square] = e->piece;
                }
            }
            right = true;
            for (int sq = 0; sq < 64; sq++)
                right &= seen[sq] == tb_chess_piece_at(&pos, sq);
        }
        if (!right)
            TB_FAIL("ply %zu (%s): the link's events do not give the position", i + 1, plies[i]);
    }
    turn(&r, 300); /* nothing comes after */
    ASSERT_EQ(r.n, 0);
    /* the board did read mid-change: positions no hand made were scanned */
    ASSERT_GE(nut ? r.cn.torn_scans : r.cl.sim.torn_scans, 8); /* a tear a ply */
    stop(&r);
}

TB_TEST(chessnut_piece_lifted_mid_read_loses_and_invents_nothing)
{
    torn_reads_change_nothing(true, "cntorn");
}

TB_TEST(chesslink_piece_lifted_mid_read_loses_and_invents_nothing)
{
    torn_reads_change_nothing(false, "cltorn");
}
