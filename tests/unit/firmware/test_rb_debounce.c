/* test_rb_debounce.c - the per-square deferred debounce as event tables, in the manner of QMK's
 * debounce tests: each table lists raw inputs and the debounced outputs expected at given
 * milliseconds, and is replayed at 1, 2 and 4 scans per ms and with time jumping from one listed
 * time to the next. Every replay checks that raw is never written, that `changed` and the return
 * value agree with the state, that outputs change exactly when listed, and that nothing changes
 * in a quiet minute after the table ends. */
#include "rb_core.h"
#include "tb_test.h"

#define ALL   -1 /* every one of the 64 elements */
#define END   0xFFFF
#define DEB   20 /* debounce window of these tables, the build default */
#define BYTES 8

enum { IN, OUT };

struct step {
    uint16_t t;   /* ms */
    uint8_t kind; /* IN: raw changes at t; OUT: debounced changes at t */
    int8_t elem;  /* 0..63 or ALL */
    uint8_t value;
};

static void set_elem(uint8_t *m, int elem, uint8_t v)
{
    for (int e = 0; e < 64; e++) {
        if (elem == ALL || elem == e) {
            if (v) {
                m[e / 8] |= (uint8_t)(1u << (e % 8));
            } else {
                m[e / 8] &= (uint8_t) ~(1u << (e % 8));
            }
        }
    }
}

static int popcount8(uint8_t v)
{
    int n = 0;
    for (; v; v &= (uint8_t)(v - 1)) {
        n++;
    }
    return n;
}

/* One debounce call, with every invariant that does not depend on the table. */
static int call(uint8_t *timers, const uint8_t *raw, uint8_t *cooked, uint8_t elapsed)
{
    uint8_t raw_copy[BYTES], before[BYTES], changed[BYTES], aborted[BYTES];
    memcpy(raw_copy, raw, BYTES);
    memcpy(before, cooked, BYTES);
    uint8_t n = rb_debounce(timers, raw, cooked, changed, aborted, BYTES, elapsed, DEB);
    int counted = 0;
    for (int i = 0; i < BYTES; i++) {
        ASSERT_EQ(raw[i], raw_copy[i]); /* raw input is never modified */
        ASSERT_EQ(changed[i], before[i] ^ cooked[i]);
        ASSERT_EQ(changed[i] & aborted[i], 0);
        counted += popcount8(changed[i]);
    }
    ASSERT_EQ(n, counted);
    return n;
}

/* Replays a table. scans = calls per ms (time moves smoothly), or 0 = call only at the listed
 * times (time jumps). Returns the total number of debounced changes seen. */
static int replay(const struct step *table, int scans)
{
    uint8_t timers[64] = {0}, raw[BYTES] = {0}, cooked[BYTES] = {0}, expect[BYTES] = {0};
    uint32_t last = 0, end = 0;
    int total = 0;
    for (const struct step *s = table; s->t != END; s++) {
        end = s->t;
    }
    uint32_t stop = end + 60000; /* a quiet minute after the table */
    const struct step *s = table;
    for (uint32_t t = 0; t <= stop; t++) {
        int listed = 0;
        for (; s->t == t; s++) {
            listed = 1;
            set_elem(s->kind == IN ? raw : expect, s->elem, s->value);
        }
        if (scans == 0 && !listed && t != stop) {
            continue;
        }
        int n = 0;
        for (int k = 0; k < (scans ? scans : 1); k++) {
            uint32_t dt = t - last;
            n += call(timers, raw, cooked, (uint8_t)(dt > 255 ? 255 : dt));
            last = t;
        }
        total += n;
        if (memcmp(cooked, expect, BYTES) != 0) {
            TB_FAIL("scans/ms %d: at %u ms debounced %02x%02x%02x%02x%02x%02x%02x%02x, expected "
                    "%02x%02x%02x%02x%02x%02x%02x%02x",
                    scans, (unsigned)t, cooked[7], cooked[6], cooked[5], cooked[4], cooked[3],
                    cooked[2], cooked[1], cooked[0], expect[7], expect[6], expect[5], expect[4],
                    expect[3], expect[2], expect[1], expect[0]);
        }
        if (t > end) {
            ASSERT_EQ(n, 0); /* nothing changes in the quiet tail */
        }
    }
    return total;
}

/* Replays at 1, 2 and 4 scans per ms and with jumping time; all must agree. */
static void check_table(const struct step *table, int expected_changes)
{
    static const int rates[] = {1, 2, 4, 0};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        int changes = replay(table, rates[i]);
        if (changes != expected_changes) {
            TB_FAIL("scans/ms %d: %d changes, expected %d", rates[i], changes, expected_changes);
        }
    }
}

TB_TEST(place_then_lift_after_window)
{
    static const struct step t[] = {
        {0, IN, 12, 1},   {20, OUT, 12, 1}, /* stable 20 ms: taken */
        {100, IN, 12, 0}, {120, OUT, 12, 0}, {END, 0, 0, 0},
    };
    check_table(t, 2);
}

TB_TEST(chatter_for_5ms_gives_exactly_one_change)
{
    /* A magnet at the pull-in distance: closes, opens, closes ... for 5 ms, then stays. The
     * window restarts at the last edge, so the one change comes 20 ms after it. */
    static const struct step t[] = {
        {0, IN, 28, 1}, {1, IN, 28, 0},   {2, IN, 28, 1}, {3, IN, 28, 0},
        {5, IN, 28, 1}, {25, OUT, 28, 1}, {END, 0, 0, 0},
    };
    check_table(t, 1);
}

TB_TEST(chatter_on_release_gives_exactly_one_change)
{
    static const struct step t[] = {
        {0, IN, 3, 1},   {20, OUT, 3, 1}, {200, IN, 3, 0},  {201, IN, 3, 1}, {203, IN, 3, 0},
        {204, IN, 3, 1}, {205, IN, 3, 0}, {225, OUT, 3, 0}, {END, 0, 0, 0},
    };
    check_table(t, 2);
}

TB_TEST(blip_of_2ms_gives_nothing)
{
    static const struct step t[] = {
        {10, IN, 40, 1},
        {12, IN, 40, 0},
        {END, 0, 0, 0},
    };
    check_table(t, 0);
}

TB_TEST(blip_one_ms_short_of_the_window_gives_nothing)
{
    static const struct step t[] = {
        {10, IN, 63, 1},
        {29, IN, 63, 0},
        {END, 0, 0, 0},
    };
    check_table(t, 0);
}

TB_TEST(slide_across_squares_registers_only_where_it_rests)
{
    /* A piece slid e2-e3-e4 touches e3 for 8 ms on the way: only e2 (lift) and e4 count. */
    static const struct step t[] = {
        {0, IN, 12, 1},   {20, OUT, 12, 1},  {100, IN, 12, 0},  {104, IN, 20, 1}, {112, IN, 20, 0},
        {115, IN, 28, 1}, {120, OUT, 12, 0}, {135, OUT, 28, 1}, {END, 0, 0, 0},
    };
    check_table(t, 3);
}

TB_TEST(simultaneous_changes_on_all_squares_all_reported)
{
    static const struct step t[] = {
        {10, IN, ALL, 1}, {30, OUT, ALL, 1}, {500, IN, ALL, 0}, {520, OUT, ALL, 0}, {END, 0, 0, 0},
    };
    check_table(t, 128);
}

TB_TEST(busy_square_does_not_delay_others)
{
    /* Per-square windows: e1 settles on time while d1 chatters for 15 ms beside it. */
    static const struct step t[] = {
        {0, IN, 4, 1},  {0, IN, 3, 1},   {3, IN, 3, 0},   {6, IN, 3, 1},  {9, IN, 3, 0},
        {15, IN, 3, 1}, {20, OUT, 4, 1}, {35, OUT, 3, 1}, {END, 0, 0, 0},
    };
    check_table(t, 2);
}

TB_TEST(capture_swap_keeps_the_open_interval)
{
    /* A capture: the victim lifted from d5, the capturer put there 60 ms later. The open interval
     * must be reported, or the host cannot tell which square was captured. */
    static const struct step t[] = {
        {0, IN, 35, 1},    {20, OUT, 35, 1},   {1000, IN, 35, 0}, {1020, OUT, 35, 0},
        {1060, IN, 35, 1}, {1080, OUT, 35, 1}, {END, 0, 0, 0},
    };
    check_table(t, 3);
}

TB_TEST(time_jump_past_window_takes_raw_at_once)
{
    uint8_t timers[64] = {0}, raw[BYTES] = {0}, cooked[BYTES] = {0};
    raw[2] = 0x81;
    ASSERT_EQ(call(timers, raw, cooked, 0), 0);   /* countdowns start */
    ASSERT_EQ(call(timers, raw, cooked, 255), 2); /* a long stall: both expire together */
    ASSERT_EQ(cooked[2], 0x81);
    ASSERT_EQ(call(timers, raw, cooked, 255), 0);
}

TB_TEST(time_jump_after_raw_returned_gives_nothing)
{
    uint8_t timers[64] = {0}, raw[BYTES] = {0}, cooked[BYTES] = {0};
    raw[0] = 1;
    call(timers, raw, cooked, 0);
    raw[0] = 0; /* back before the window ended, then the clock jumps */
    ASSERT_EQ(call(timers, raw, cooked, 200), 0);
    ASSERT_EQ(cooked[0], 0);
}

TB_TEST(aborted_marks_each_cancelled_countdown)
{
    uint8_t timers[64] = {0}, raw[BYTES] = {0}, cooked[BYTES] = {0}, changed[BYTES], aborted[BYTES];
    raw[5] = 0x10;
    rb_debounce(timers, raw, cooked, changed, aborted, BYTES, 1, DEB);
    ASSERT_EQ(aborted[5], 0);
    raw[5] = 0;
    rb_debounce(timers, raw, cooked, changed, aborted, BYTES, 1, DEB);
    ASSERT_EQ(aborted[5], 0x10);
    rb_debounce(timers, raw, cooked, changed, aborted, BYTES, 1, DEB);
    ASSERT_EQ(aborted[5], 0); /* once per cancellation, not while idle */
}

TB_TEST(window_of_one_ms_and_of_250ms)
{
    uint8_t timers[8] = {0}, raw = 1, cooked = 0;
    ASSERT_EQ(rb_debounce(timers, &raw, &cooked, NULL, NULL, 1, 0, 1), 0);
    ASSERT_EQ(rb_debounce(timers, &raw, &cooked, NULL, NULL, 1, 0, 1), 0); /* same ms */
    ASSERT_EQ(rb_debounce(timers, &raw, &cooked, NULL, NULL, 1, 1, 1), 1);
    raw = 0;
    for (int t = 0; t < 250; t++) {
        ASSERT_EQ(rb_debounce(timers, &raw, &cooked, NULL, NULL, 1, t ? 1 : 0, 250), 0);
    }
    ASSERT_EQ(rb_debounce(timers, &raw, &cooked, NULL, NULL, 1, 1, 250), 1);
    ASSERT_EQ(cooked, 0);
}
