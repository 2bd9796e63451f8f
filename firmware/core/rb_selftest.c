/* rb_selftest.c - the board's self-test: stuck, dead, crossed and bridged switches and lines.
 *
 * Entered by the host (SET_OPTIONS with RB_PROTO_OPT_SELF_TEST) or by holding PROMOTE from
 * power-up for RB_SELFTEST_HOLD_MS. With the board cleared, every closed square is stuck; then
 * the tester covers a1, b1, ..., h8 in turn with one piece. The expected square closing alone
 * passes (a short beep); another square closing instead names crossed lines or a miswired
 * square; two squares closing at once on one file name bridged rank lines, on one rank bridged
 * file lines (a long beep each). A square that does not close is skipped with CLOCK and reported
 * as never closing (a dead switch or an open diode). Findings go out as FAULT SELF_TEST events,
 * and only once the host listens, so a test begun at power-up loses nothing. */
#include "rb_core.h"

#include <string.h>

#define SHORT_BEEP_MS 40u
#define LONG_BEEP_MS  400u

enum { ST_OFF, ST_SETTLE, ST_WALK, ST_DONE };

void rb_selftest_start(struct rb_board *b, uint32_t now)
{
    memset(&b->test, 0, sizeof b->test);
    b->test.state = ST_SETTLE;
    b->test.since_ms = now;
    b->test.buttons = b->btn_cooked;
    b->test.hold = 0xFFu;
}

void rb_selftest_stop(struct rb_board *b)
{
    b->test.state = ST_OFF;
}

uint8_t rb_selftest_running(const struct rb_board *b)
{
    return b->test.state != ST_OFF;
}

static uint8_t finding(struct rb_board *b, uint32_t now, uint8_t what, uint16_t detail)
{
    return rb_board_fault(b, now, RB_PROTO_FAULT_SELF_TEST, what, detail);
}

static uint8_t is_stuck(const struct rb_board *b, uint8_t sq)
{
    return (b->test.stuck[sq & 7u] >> (sq >> 3)) & 1u;
}

/* The next square of the walk at or after sq that is not stuck; 64 when none is left. */
static uint8_t next_square(const struct rb_board *b, uint8_t sq)
{
    while (sq < RB_PROTO_SQUARES && is_stuck(b, sq)) {
        sq++;
    }
    return sq;
}

static void advance(struct rb_board *b, uint32_t now, uint16_t beep_ms)
{
    b->test.expect = next_square(b, (uint8_t)(b->test.expect + 1u));
    b->beep_until = now + beep_ms;
    if (b->test.expect >= RB_PROTO_SQUARES && finding(b, now, RB_PROTO_TEST_DONE, b->test.good)) {
        b->test.state = ST_DONE;
        b->beep_until = now + LONG_BEEP_MS;
    }
}

static void settle(struct rb_board *b, uint32_t now)
{
    /* the debounced state must have caught up with the cleared board first */
    if (now - b->test.since_ms < 3u * b->cfg.debounce_ms + 10u) {
        return;
    }
    uint8_t stuck = 0;
    memcpy(b->test.stuck, b->cooked, sizeof b->test.stuck);
    for (uint8_t sq = 0; sq < RB_PROTO_SQUARES; sq++) {
        if (is_stuck(b, sq)) {
            finding(b, now, RB_PROTO_TEST_STUCK, sq);
            stuck++;
        }
    }
    finding(b, now, RB_PROTO_TEST_STARTED, stuck);
    b->test.expect = next_square(b, 0);
    b->test.lifted = 1;
    b->test.state = ST_WALK;
}

/* Two or more squares closed at once with one piece on the board. */
static void bridged(struct rb_board *b, uint32_t now, const uint8_t *live)
{
    uint8_t files = 0, ranks = 0;
    for (uint8_t f = 0; f < RB_FILES; f++) {
        if (live[f]) {
            files |= (uint8_t)(1u << f);
            ranks |= live[f];
        }
    }
    if (!(files & (uint8_t)(files - 1u))) {
        finding(b, now, RB_PROTO_TEST_ROWS_BRIDGED, ranks);
    } else if (!(ranks & (uint8_t)(ranks - 1u))) {
        finding(b, now, RB_PROTO_TEST_FILES_BRIDGED, files);
    } else {
        /* neither one file nor one rank: the expected square against the first one read */
        uint8_t f = 0;
        while (!live[f]) {
            f++;
        }
        uint8_t r = 0;
        while (!((live[f] >> r) & 1u)) {
            r++;
        }
        finding(b, now, RB_PROTO_TEST_WRONG_SQUARE, (uint16_t)(b->test.expect << 8 | (r * 8u + f)));
    }
    b->beep_until = now + LONG_BEEP_MS;
}

static void walk(struct rb_board *b, uint32_t now)
{
    uint8_t live[RB_FILES], n = 0, square = 0;
    for (uint8_t f = 0; f < RB_FILES; f++) {
        live[f] = (uint8_t)(b->cooked[f] & ~b->test.stuck[f]);
        for (uint8_t r = 0; r < 8; r++) {
            if ((live[f] >> r) & 1u) {
                n++;
                square = (uint8_t)(r * 8u + f);
            }
        }
    }
    uint8_t pressed = (uint8_t)(b->btn_cooked & ~b->test.buttons);
    b->test.buttons = b->btn_cooked;
    if (!n) {
        b->test.lifted = 1;
        b->test.reported = 0;
    } else if (!b->test.reported && n > 1) {
        bridged(b, now, live);
        b->test.reported = 1;
        b->test.lifted = 0;
    } else if (b->test.lifted && n == 1) {
        b->test.lifted = 0;
        if (square == b->test.expect) {
            finding(b, now, RB_PROTO_TEST_OK, square);
            b->test.good++;
            advance(b, now, SHORT_BEEP_MS);
        } else {
            finding(b, now, RB_PROTO_TEST_WRONG_SQUARE, (uint16_t)(b->test.expect << 8 | square));
            b->test.reported = 1;
            b->beep_until = now + LONG_BEEP_MS;
        }
    }
    if (pressed & (1u << RB_PROTO_BTN_CLOCK)) {
        finding(b, now, RB_PROTO_TEST_NEVER_CLOSED, b->test.expect);
        advance(b, now, LONG_BEEP_MS);
    }
}

void rb_selftest_tick(struct rb_board *b, uint32_t now)
{
    /* PROMOTE held from power-up: only while the test has not run and the hold lasts */
    if (b->test.hold == 0 && !(b->btn_raw & (1u << RB_PROTO_BTN_PROMOTE))) {
        b->test.hold = 0xFFu; /* released (or never pressed): no power-up entry any more */
    }
    if (b->test.hold == 0 && now - b->boot_ms >= RB_SELFTEST_HOLD_MS) {
        rb_selftest_start(b, now);
    }
    /* findings need a listener: the walk waits for the host's first request */
    if (!b->active) {
        return;
    }
    if (b->test.state == ST_SETTLE) {
        settle(b, now);
    } else if (b->test.state == ST_WALK) {
        walk(b, now);
    }
}
