/* test_rb_board.c - the board core over the simulated board of firmware/hosttest: what the
 * host sees on the wire for lifts, placements, buttons, requests and faults, with time advanced
 * by hand. */
#include "rb_core.h"
#include "rb_hal.h"
#include "rb_hosttest.h"
#include "tb_test.h"

#define MAXMSG 4096

static struct rb_board board;
static struct rb_proto_msg got[MAXMSG];
static int ngot;
static size_t tx_seen;
static struct rb_proto_decoder host;

static void collect(void *ctx, const struct rb_proto_msg *m)
{
    (void)ctx;
    if (ngot < MAXMSG) {
        got[ngot] = *m;
    }
    ngot++;
}

static void setup_with(const struct rb_config *cfg)
{
    rb_hosttest_reset();
    rb_hosttest.tx_cap = 255; /* ample unless a test narrows it */
    rb_board_init(&board, cfg);
    rb_proto_decoder_init(&host);
    ngot = 0;
    tx_seen = 0;
}

static void setup(void)
{
    struct rb_config cfg;
    rb_config_default(&cfg);
    setup_with(&cfg);
}

/* Decodes everything the board sent since the last call into got[]. */
static void drain(void)
{
    rb_proto_decoder_feed(&host, rb_hosttest.tx + tx_seen, rb_hosttest.tx_len - tx_seen, collect,
                          NULL);
    tx_seen = rb_hosttest.tx_len;
    ASSERT_EQ(host.stats.bad_crc + host.stats.garbage_bytes + host.stats.bad_message, 0);
}

static void run(uint32_t ms)
{
    for (uint32_t i = 0; i < ms; i++) {
        rb_hosttest_advance(1);
        rb_board_tick(&board);
    }
    drain();
}

static void request(const uint8_t *frame, size_t len)
{
    ASSERT_GT(len, 0);
    rb_hosttest_receive(frame, len);
}

static void get_info(void)
{
    uint8_t f[RB_PROTO_MAX_FRAME];
    request(f, rb_proto_encode_get_info(f, sizeof f));
}

static void get_snapshot(void)
{
    uint8_t f[RB_PROTO_MAX_FRAME];
    request(f, rb_proto_encode_get_snapshot(f, sizeof f));
}

static void set_options(uint8_t debounce, uint16_t period, uint8_t events)
{
    struct rb_proto_options o = {debounce, period, events};
    uint8_t f[RB_PROTO_MAX_FRAME];
    request(f, rb_proto_encode_set_options(f, sizeof f, &o));
}

/* Opens the link the way the host does: GET_INFO, then take the messages so far. */
static void connect(void)
{
    get_info();
    run(1);
    ASSERT_GE(ngot, 1);
    ASSERT_EQ(got[0].type, RB_PROTO_INFO);
    ngot = 0;
}

static int count_type(uint8_t type)
{
    int n = 0;
    for (int i = 0; i < ngot && i < MAXMSG; i++) {
        n += got[i].type == type;
    }
    return n;
}

static const struct rb_proto_msg *first(uint8_t type)
{
    for (int i = 0; i < ngot && i < MAXMSG; i++) {
        if (got[i].type == type) {
            return &got[i];
        }
    }
    TB_FAIL("no %s message among %d", rb_proto_type_name(type), ngot);
}

static void expect_no_square_events_in(uint32_t ms)
{
    ngot = 0;
    run(ms);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0);
}

#define SQ(file, rank) ((uint8_t)(((rank)-1) * 8 + ((file) - 'a')))

TB_TEST(silent_until_the_host_speaks)
{
    setup();
    rb_hosttest_set_square(SQ('e', 2), 1);
    run(3000); /* pieces move, periodic snapshot time passes: nothing is sent */
    ASSERT_EQ(rb_hosttest.tx_len, 0);
    get_info();
    run(1);
    ASSERT_EQ(ngot, 1);
    ASSERT_EQ(got[0].type, RB_PROTO_INFO);
}

TB_TEST(info_reports_version_and_build_options)
{
    setup();
    connect();
    get_info();
    run(1);
    const struct rb_proto_info *i = &first(RB_PROTO_INFO)->u.info;
    ASSERT_EQ(i->proto_version, RB_PROTO_VERSION);
    ASSERT_EQ(i->fw_major, RB_FW_MAJOR);
    ASSERT_EQ(i->debounce_ms, RB_DEBOUNCE_MS);
    ASSERT_EQ(i->scan_period_us, 1000000u / RB_SCAN_HZ);
    ASSERT_EQ(i->snapshot_period_ms, RB_SNAPSHOT_MS);
    ASSERT_EQ(i->events, RB_PROTO_EV_ALL);
    ASSERT_TRUE(i->features & RB_PROTO_FEAT_ROW_CHECK);
}

TB_TEST(snapshot_shows_the_position_in_wire_order)
{
    setup();
    for (char f = 'a'; f <= 'h'; f++) { /* the starting position */
        rb_hosttest_set_square(SQ(f, 1), 1);
        rb_hosttest_set_square(SQ(f, 2), 1);
        rb_hosttest_set_square(SQ(f, 7), 1);
        rb_hosttest_set_square(SQ(f, 8), 1);
    }
    run(50);
    get_snapshot();
    run(1);
    const struct rb_proto_snapshot *s = &first(RB_PROTO_SNAPSHOT)->u.snapshot;
    ASSERT_U64_EQ(s->occupancy, 0xFFFF00000000FFFFull);
    ASSERT_U64_EQ(s->raw, 0xFFFF00000000FFFFull);
    ASSERT_EQ(s->seq, 0); /* changes before the host spoke are in the snapshot, not events */
    ASSERT_EQ(s->reason, RB_PROTO_SNAP_REQUESTED);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0);
}

TB_TEST(lift_and_place_become_events_after_the_window)
{
    setup();
    rb_hosttest_set_square(SQ('e', 2), 1);
    run(100);
    connect();
    uint32_t t0 = rb_hosttest.now_ms;
    rb_hosttest_set_square(SQ('e', 2), 0);
    /* The first scan to see the lift is at t0 + 1; the window runs from there. */
    run(RB_DEBOUNCE_MS);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0); /* not before the window is over */
    run(1);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 1);
    const struct rb_proto_square *e = &first(RB_PROTO_SQUARE)->u.square;
    ASSERT_EQ(e->square, SQ('e', 2));
    ASSERT_EQ(e->placed, 0);
    ASSERT_EQ(e->seq, 1);
    ASSERT_EQ(e->ms, t0 + 1 + RB_DEBOUNCE_MS);
    ngot = 0;
    rb_hosttest_set_square(SQ('e', 4), 1);
    run(RB_DEBOUNCE_MS + 1);
    e = &first(RB_PROTO_SQUARE)->u.square;
    ASSERT_EQ(e->square, SQ('e', 4));
    ASSERT_EQ(e->placed, 1);
    ASSERT_EQ(e->seq, 2);
}

TB_TEST(chatter_gives_one_event_and_a_blip_none)
{
    setup();
    connect();
    for (int i = 0; i < 5; i++) { /* 5 ms of chatter on d4 */
        rb_hosttest_set_square(SQ('d', 4), i % 2 == 0);
        run(1);
    }
    rb_hosttest_set_square(SQ('d', 4), 1);
    rb_hosttest_set_square(SQ('f', 6), 1); /* and a 2 ms blip on f6 */
    run(2);
    rb_hosttest_set_square(SQ('f', 6), 0);
    run(500);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 1);
    ASSERT_EQ(first(RB_PROTO_SQUARE)->u.square.square, SQ('d', 4));
}

TB_TEST(simultaneous_changes_are_all_reported_in_order)
{
    setup();
    connect();
    for (uint8_t sq = 0; sq < 16; sq++) {
        rb_hosttest_set_square(sq, 1);
    }
    for (uint8_t sq = 48; sq < 64; sq++) {
        rb_hosttest_set_square(sq, 1);
    }
    run(200);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 32);
    int k = 0;
    for (int i = 0; i < ngot; i++) {
        if (got[i].type != RB_PROTO_SQUARE) {
            continue;
        }
        uint8_t want = (uint8_t)(k < 16 ? k : k + 32);
        ASSERT_EQ(got[i].u.square.square, want);
        ASSERT_EQ(got[i].u.square.seq, k + 1);
        k++;
    }
}

TB_TEST(clock_is_read_once_per_tick)
{
    setup();
    connect();
    rb_hosttest_set_square(SQ('a', 1), 1);
    get_snapshot();
    uint32_t before = rb_hosttest.clock_reads;
    run(100);
    ASSERT_EQ(rb_hosttest.clock_reads - before, 100);
}

TB_TEST(full_transmit_buffer_keeps_events_queued)
{
    setup();
    connect();
    rb_hosttest.tx_cap = 12; /* smaller than one SQUARE frame (13 bytes) */
    rb_hosttest_set_square(SQ('b', 1), 1);
    rb_hosttest_set_square(SQ('g', 1), 1);
    run(100);
    ASSERT_EQ(ngot, 0);      /* nothing sent, nothing half-sent */
    rb_hosttest.tx_cap = 13; /* exactly one SQUARE frame at a time */
    run(10);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 2);
    ASSERT_EQ(got[0].u.square.seq, 1);
    ASSERT_EQ(got[1].u.square.seq, 2);
}

TB_TEST(queue_overflow_is_a_fault_never_silent)
{
    setup();
    connect();
    rb_hosttest.tx_cap = 0; /* the host stops reading */
    for (uint8_t sq = 0; sq < 20; sq++) {
        rb_hosttest_set_square(sq, 1);
    }
    run(100);
    for (uint8_t sq = 0; sq < 20; sq++) {
        rb_hosttest_set_square(sq, 0);
    }
    run(100);
    ASSERT_EQ(ngot, 0);
    /* 40 events, room for RB_QUEUE_LEN: the rest are lost, but not silently. */
    rb_hosttest.tx_cap = 255;
    run(50);
    int lost = 40 - RB_QUEUE_LEN;
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), RB_QUEUE_LEN);
    const struct rb_proto_fault *f = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(f->code, RB_PROTO_FAULT_QUEUE_OVERRUN);
    ASSERT_EQ(f->detail, lost);
    ASSERT_EQ(f->seq, 41); /* the lost events' numbers were skipped: the host sees the gap */
    const struct rb_proto_snapshot *s = &first(RB_PROTO_SNAPSHOT)->u.snapshot;
    ASSERT_EQ(s->reason, RB_PROTO_SNAP_OVERRUN);
    ASSERT_U64_EQ(s->occupancy, 0); /* the truth, lost lifts included */
    ASSERT_EQ(s->seq, 41);
}

TB_TEST(more_changes_in_one_scan_than_the_queue_holds)
{
    setup();
    connect();
    rb_hosttest.squares = 0x5555555555555555ull; /* 32 placements in one scan: they fit */
    run(100);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 32);
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 0);
    ngot = 0;
    rb_hosttest.squares = 0xAAAAAAAAAAAAAAAAull; /* 64 changes in one scan: they do not */
    run(100);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), RB_QUEUE_LEN);
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 1);
    ASSERT_EQ(first(RB_PROTO_FAULT)->u.fault.code, RB_PROTO_FAULT_QUEUE_OVERRUN);
    ASSERT_EQ(first(RB_PROTO_FAULT)->u.fault.detail, 64 - RB_QUEUE_LEN);
    ASSERT_U64_EQ(first(RB_PROTO_SNAPSHOT)->u.snapshot.occupancy, 0xAAAAAAAAAAAAAAAAull);
}

TB_TEST(periodic_snapshot_about_once_a_second)
{
    setup();
    connect();
    run(3500);
    ASSERT_EQ(count_type(RB_PROTO_SNAPSHOT), 3);
    ASSERT_EQ(first(RB_PROTO_SNAPSHOT)->u.snapshot.reason, RB_PROTO_SNAP_PERIODIC);
}

TB_TEST(set_options_applies_and_answers_with_info)
{
    setup();
    connect();
    set_options(50, 0, RB_PROTO_EV_SQUARES | RB_PROTO_EV_FAULTS);
    run(1);
    const struct rb_proto_info *i = &first(RB_PROTO_INFO)->u.info;
    ASSERT_EQ(i->debounce_ms, 50);
    ASSERT_EQ(i->snapshot_period_ms, 0);
    ngot = 0;
    rb_hosttest_set_square(SQ('c', 3), 1);
    run(50);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0);
    run(1);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 1);
    run(3000);
    ASSERT_EQ(count_type(RB_PROTO_SNAPSHOT), 0); /* period 0 = off */
}

TB_TEST(disabled_square_events_still_update_the_snapshot)
{
    setup();
    connect();
    set_options(RB_DEBOUNCE_MS, 1000, RB_PROTO_EV_BUTTONS | RB_PROTO_EV_FAULTS);
    run(1);
    ngot = 0;
    rb_hosttest_set_square(SQ('h', 8), 1);
    expect_no_square_events_in(100);
    get_snapshot();
    run(1);
    ASSERT_U64_EQ(first(RB_PROTO_SNAPSHOT)->u.snapshot.occupancy, 1ull << 63);
    ASSERT_EQ(first(RB_PROTO_SNAPSHOT)->u.snapshot.seq, 0); /* took no sequence number */
}

TB_TEST(bad_options_are_refused_and_change_nothing)
{
    setup();
    connect();
    uint8_t f[16] = {RB_PROTO_SYNC, 4, RB_PROTO_SET_OPTIONS, 0 /* debounce 0 */, 0xE8, 3, 7};
    uint16_t crc = rb_proto_crc16(0xFFFF, f + 1, 6);
    f[7] = (uint8_t)crc;
    f[8] = (uint8_t)(crc >> 8);
    request(f, 9);
    run(1);
    const struct rb_proto_fault *ft = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(ft->code, RB_PROTO_FAULT_BAD_REQUEST);
    ASSERT_EQ(ft->arg, RB_PROTO_SET_OPTIONS);
    ASSERT_EQ(ft->detail, RB_PROTO_REJECT_FIELD);
    ASSERT_EQ(count_type(RB_PROTO_INFO), 0);
    ASSERT_EQ(board.cfg.debounce_ms, RB_DEBOUNCE_MS);
}

TB_TEST(corrupt_request_is_reported_as_rx_error)
{
    setup();
    connect();
    uint8_t f[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode_ping(f, sizeof f, 5);
    f[4] ^= 0x10;
    request(f, n);
    rb_hosttest.rx_errors = 2; /* and two bytes the UART lost */
    run(1);
    ASSERT_EQ(count_type(RB_PROTO_PONG), 0);
    const struct rb_proto_fault *ft = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(ft->code, RB_PROTO_FAULT_RX_ERROR);
    ASSERT_EQ(ft->detail, 3);
}

TB_TEST(board_message_sent_to_the_board_is_a_bad_request)
{
    setup();
    connect();
    uint8_t f[RB_PROTO_MAX_FRAME];
    struct rb_proto_pong p = {1, 2};
    request(f, rb_proto_encode_pong(f, sizeof f, &p));
    run(1);
    ASSERT_EQ(first(RB_PROTO_FAULT)->u.fault.arg, RB_PROTO_PONG);
}

TB_TEST(ping_is_answered_with_its_token)
{
    setup();
    uint8_t f[RB_PROTO_MAX_FRAME];
    request(f, rb_proto_encode_ping(f, sizeof f, 0xFEEDC0DEu));
    run(1);
    ASSERT_EQ(ngot, 1);
    ASSERT_EQ(got[0].type, RB_PROTO_PONG);
    ASSERT_EQ(got[0].u.pong.token, 0xFEEDC0DEu);
    ASSERT_EQ(got[0].u.pong.ms, rb_hosttest.now_ms);
}

static void set_serial(uint32_t serial)
{
    uint8_t f[RB_PROTO_MAX_FRAME];
    request(f, rb_proto_encode_set_serial(f, sizeof f, serial));
}

static uint32_t eeprom_serial(void)
{
    const uint8_t *e = rb_hosttest.eeprom + RB_SERIAL_EEPROM_ADDR;
    return (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24;
}

TB_TEST(serial_is_set_once_answered_with_info_and_kept_in_eeprom)
{
    setup(); /* erased EEPROM: the port reads no serial (0) */
    connect();
    set_serial(0x00C0FFEEu);
    run(1);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.serial, 0x00C0FFEEu); /* at once, before the EEPROM */
    run(20); /* one byte per tick when the EEPROM is free */
    ASSERT_EQ(eeprom_serial(), 0x00C0FFEEu);
    ASSERT_EQ(rb_hosttest.eeprom_writes, 4);
    /* the same serial again changes nothing; another one is refused and changes nothing */
    ngot = 0;
    set_serial(0x00C0FFEEu);
    run(10);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.serial, 0x00C0FFEEu);
    ngot = 0;
    set_serial(77);
    run(10);
    const struct rb_proto_fault *ft = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(ft->code, RB_PROTO_FAULT_BAD_REQUEST);
    ASSERT_EQ(ft->arg, RB_PROTO_SET_SERIAL);
    ASSERT_EQ(ft->detail, RB_PROTO_REJECT_REFUSED);
    ASSERT_EQ(count_type(RB_PROTO_INFO), 0);
    ASSERT_EQ(eeprom_serial(), 0x00C0FFEEu);
    ASSERT_EQ(rb_hosttest.eeprom_writes, 4);
    ASSERT_EQ(board.cfg.serial, 0x00C0FFEEu);
}

TB_TEST(serial_read_at_start_is_reported_and_not_replaced)
{
    struct rb_config cfg;
    rb_config_default(&cfg);
    cfg.serial = 4242;
    setup_with(&cfg);
    connect();
    get_info();
    run(1);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.serial, 4242);
    ngot = 0;
    set_serial(4243);
    run(10);
    ASSERT_EQ(first(RB_PROTO_FAULT)->u.fault.detail, RB_PROTO_REJECT_REFUSED);
    ASSERT_EQ(rb_hosttest.eeprom_writes, 0);
}

TB_TEST(buttons_are_debounced_and_reported)
{
    setup();
    connect();
    rb_hosttest.buttons = 1u << RB_PROTO_BTN_REPEAT;
    run(3);
    rb_hosttest.buttons = 0; /* a 3 ms bounce: nothing */
    run(100);
    ASSERT_EQ(count_type(RB_PROTO_BUTTON), 0);
    rb_hosttest.buttons = 1u << RB_PROTO_BTN_ARBITER;
    run(RB_BUTTON_DEBOUNCE_MS + 5);
    rb_hosttest.buttons = 0;
    run(RB_BUTTON_DEBOUNCE_MS + 5);
    ASSERT_EQ(count_type(RB_PROTO_BUTTON), 2);
    ASSERT_EQ(got[0].u.button.button, RB_PROTO_BTN_ARBITER);
    ASSERT_EQ(got[0].u.button.down, 1);
    ASSERT_EQ(got[1].u.button.down, 0);
}

TB_TEST(shorted_row_is_a_fault_and_freezes_its_readings)
{
    setup();
    connect();
    rb_hosttest.row_short = 0x04; /* rank 3 stuck low: every square of it would read occupied */
    run(200);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0);
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 1);
    const struct rb_proto_fault *f = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(f->code, RB_PROTO_FAULT_MATRIX);
    ASSERT_EQ(f->arg, RB_PROTO_MATRIX_ROW_LOW);
    ASSERT_EQ(f->detail, 0x04);
    rb_hosttest.row_short = 0;
    rb_hosttest_set_square(SQ('a', 3), 1);
    ngot = 0;
    run(100);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 1); /* readings count again once it clears */
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 0);
}

TB_TEST(more_than_32_pieces_is_an_impossible_reading)
{
    setup();
    connect();
    for (uint8_t sq = 0; sq < 33; sq++) {
        rb_hosttest_set_square(sq, 1);
        run(2); /* one after another, so the queue never fills */
    }
    run(100);
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 1);
    const struct rb_proto_fault *f = &first(RB_PROTO_FAULT)->u.fault;
    ASSERT_EQ(f->code, RB_PROTO_FAULT_MATRIX);
    ASSERT_EQ(f->arg, RB_PROTO_MATRIX_TOO_MANY);
    ASSERT_EQ(f->detail, 33);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 33); /* the squares are still reported */
}

TB_TEST(flickering_square_is_reported_stuck_once)
{
    setup();
    connect();
    /* A magnet at the threshold: b5 flickers every 4 ms for 5 seconds. */
    for (int i = 0; i < 1250; i++) {
        rb_hosttest_set_square(SQ('b', 5), i % 2);
        run(4);
    }
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 0);
    int stuck = 0;
    for (int i = 0; i < ngot; i++) {
        if (got[i].type == RB_PROTO_FAULT) {
            ASSERT_EQ(got[i].u.fault.code, RB_PROTO_FAULT_STUCK_SQUARE);
            ASSERT_EQ(got[i].u.fault.arg, SQ('b', 5));
            stuck++;
        }
    }
    ASSERT_EQ(stuck, 1);
}

TB_TEST(ordinary_moves_never_look_stuck)
{
    setup();
    connect();
    /* 200 moves on one square, each with 3 ms of chatter, 2 s apart. */
    for (int m = 0; m < 200; m++) {
        for (int i = 0; i < 4; i++) {
            rb_hosttest_set_square(SQ('e', 5), (m + i + 1) % 2);
            run(1);
        }
        rb_hosttest_set_square(SQ('e', 5), (m + 1) % 2);
        run(2000);
    }
    ASSERT_EQ(count_type(RB_PROTO_FAULT), 0);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 200);
}

TB_TEST(outputs_follow_set_outputs)
{
    setup();
    connect();
    uint8_t f[RB_PROTO_MAX_FRAME];
    struct rb_proto_outputs o = {RB_PROTO_LED_OFF, 300};
    request(f, rb_proto_encode_set_outputs(f, sizeof f, &o));
    run(1);
    ASSERT_EQ(rb_hosttest.led, 0);
    ASSERT_EQ(rb_hosttest.buzzer, 1);
    run(298);
    ASSERT_EQ(rb_hosttest.buzzer, 1);
    run(2);
    ASSERT_EQ(rb_hosttest.buzzer, 0);
    o = (struct rb_proto_outputs){RB_PROTO_LED_ON, 0};
    request(f, rb_proto_encode_set_outputs(f, sizeof f, &o));
    run(1);
    ASSERT_EQ(rb_hosttest.led, 1);
}

TB_TEST(pins_are_written_only_on_change)
{
    setup();
    connect();
    uint32_t writes = rb_hosttest.led_writes;
    run(400); /* connected, nothing happening: the auto LED stays on */
    ASSERT_LE(rb_hosttest.led_writes - writes, 1);
}

TB_TEST(matrix_to_bits_maps_a1_to_bit_0)
{
    uint8_t m[RB_FILES] = {0};
    m[0] = 0x01; /* a1 */
    m[7] = 0x80; /* h8 */
    m[4] = 0x08; /* e4 */
    ASSERT_U64_EQ(rb_matrix_to_bits(m), (1ull << 0) | (1ull << 63) | (1ull << 28));
}

TB_TEST(stalled_tick_takes_a_pending_change_when_it_resumes)
{
    setup();
    connect();
    rb_hosttest_set_square(SQ('g', 7), 1);
    run(5);                    /* the window is running */
    rb_hosttest.now_ms += 500; /* then the loop stalls for half a second */
    rb_board_tick(&board);
    drain();
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 1);
    ASSERT_EQ(first(RB_PROTO_SQUARE)->u.square.ms, rb_hosttest.now_ms);
}

TB_TEST(quiet_board_sends_only_snapshots_for_a_minute)
{
    setup();
    rb_hosttest.squares = 0xFFFF00000000FFFFull;
    run(100); /* settled before the host connects: in the snapshots, not events */
    connect();
    run(60000);
    ASSERT_EQ(count_type(RB_PROTO_SNAPSHOT), ngot);
    ASSERT_EQ(ngot, 60);
    ASSERT_U64_EQ(got[59].u.snapshot.occupancy, 0xFFFF00000000FFFFull);
}

/* Plays one scenario with k ticks per ms and returns a digest of every message on the wire. */
static uint32_t scenario_digest(int k)
{
    setup();
    connect();
    uint32_t digest = 2166136261u;
    for (uint32_t t = 0; t < 3000; t++) {
        if (t == 100) {
            rb_hosttest_set_square(SQ('e', 2), 1);
        }
        if (t >= 500 && t < 504) { /* 4 ms of chatter, then e4 stays */
            rb_hosttest_set_square(SQ('e', 4), t % 2 == 0);
        }
        if (t == 504) {
            rb_hosttest_set_square(SQ('e', 4), 1);
        }
        if (t == 900) {
            rb_hosttest.buttons = 1;
        }
        rb_hosttest_advance(1);
        for (int i = 0; i < k; i++) {
            rb_board_tick(&board);
        }
    }
    drain();
    for (int i = 0; i < ngot; i++) {
        uint8_t f[RB_PROTO_MAX_FRAME];
        size_t n = rb_proto_encode(f, sizeof f, &got[i]);
        for (size_t j = 0; j < n; j++) {
            digest = (digest ^ f[j]) * 16777619u;
        }
    }
    return digest;
}

TB_TEST(two_or_four_scans_per_ms_send_the_same_bytes_as_one)
{
    uint32_t one = scenario_digest(1);
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 2);
    ASSERT_EQ(count_type(RB_PROTO_BUTTON), 1);
    ASSERT_EQ(scenario_digest(2), one);
    ASSERT_EQ(scenario_digest(4), one);
}

/* ---- the self-test (docs/firmware.md, "Self-test") ---- */

/* The self-test's findings among the messages, in order: what[i] = arg, detail[i]. */
static int findings(uint8_t *what, uint16_t *detail, int max)
{
    int n = 0;
    for (int i = 0; i < ngot && i < MAXMSG; i++) {
        const struct rb_proto_fault *f = &got[i].u.fault;
        if (got[i].type == RB_PROTO_FAULT && f->code == RB_PROTO_FAULT_SELF_TEST && n < max) {
            what[n] = f->arg;
            detail[n] = f->detail;
            n++;
        }
    }
    return n;
}

static int count_finding(uint8_t kind)
{
    uint8_t what[256];
    uint16_t detail[256];
    int n = findings(what, detail, 256), c = 0;
    for (int i = 0; i < n; i++) {
        c += what[i] == kind;
    }
    return c;
}

static uint16_t finding_detail(uint8_t kind)
{
    uint8_t what[256];
    uint16_t detail[256];
    int n = findings(what, detail, 256);
    for (int i = 0; i < n; i++) {
        if (what[i] == kind) {
            return detail[i];
        }
    }
    TB_FAIL("no self-test finding %u among %d findings", kind, n);
}

static void start_selftest(void)
{
    connect();
    set_options(RB_DEBOUNCE_MS, 0, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST);
    run(200);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.events, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST);
}

/* The tester covers one square with a piece and takes it away again. */
static void cover(uint8_t sq)
{
    rb_hosttest_set_square(sq, 1);
    run(60);
    rb_hosttest_set_square(sq, 0);
    run(60);
}

static void press(uint8_t button)
{
    rb_hosttest.buttons = (uint8_t)(1u << button);
    run(60);
    rb_hosttest.buttons = 0;
    run(60);
}

TB_TEST(selftest_healthy_board_passes_every_square_in_order)
{
    setup();
    start_selftest();
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_STARTED), 0);
    for (uint8_t sq = 0; sq < RB_PROTO_SQUARES; sq++) {
        cover(sq);
    }
    uint8_t what[256];
    uint16_t detail[256];
    int n = findings(what, detail, 256);
    ASSERT_EQ(n, 1 + 64 + 1); /* STARTED, 64 x OK, DONE: nothing else */
    for (int i = 0; i < 64; i++) {
        ASSERT_EQ(what[1 + i], RB_PROTO_TEST_OK);
        ASSERT_EQ(detail[1 + i], i);
    }
    ASSERT_EQ(what[65], RB_PROTO_TEST_DONE);
    ASSERT_EQ(detail[65], 64);
    /* each square was also reported as covered and uncovered */
    ASSERT_EQ(count_type(RB_PROTO_SQUARE), 128);
}

TB_TEST(selftest_finds_a_stuck_switch_with_the_board_cleared)
{
    setup();
    rb_hosttest_set_square(SQ('c', 3), 1); /* welded shut: reads closed with no piece */
    start_selftest();
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_STUCK), SQ('c', 3));
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_STARTED), 1);
    for (uint8_t sq = 0; sq < RB_PROTO_SQUARES; sq++) {
        if (sq != SQ('c', 3)) {
            cover(sq);
        }
    }
    ASSERT_EQ(count_finding(RB_PROTO_TEST_OK), 63);
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_DONE), 63);
    ASSERT_EQ(count_finding(RB_PROTO_TEST_WRONG_SQUARE), 0);
}

TB_TEST(selftest_finds_a_switch_that_never_closes)
{
    setup();
    rb_hosttest.dead = 1ull << SQ('e', 4); /* open diode: covering e4 reads nothing */
    start_selftest();
    for (uint8_t sq = 0; sq < RB_PROTO_SQUARES; sq++) {
        cover(sq);
        if (sq == SQ('e', 4)) {
            ASSERT_EQ(count_finding(RB_PROTO_TEST_OK), SQ('e', 4)); /* the walk waits on e4 */
            press(RB_PROTO_BTN_CLOCK);                              /* the tester skips it */
        }
    }
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_NEVER_CLOSED), SQ('e', 4));
    ASSERT_EQ(count_finding(RB_PROTO_TEST_NEVER_CLOSED), 1);
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_DONE), 63);
}

TB_TEST(selftest_finds_bridged_rank_lines_and_a_wrong_square)
{
    setup();
    rb_hosttest.rows_bridged = (1u << 3) | (1u << 4); /* ranks 4 and 5 joined */
    start_selftest();
    for (uint8_t sq = 0; sq < SQ('a', 4); sq++) {
        cover(sq);
    }
    cover(SQ('a', 4)); /* reads a4 and a5 at once */
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_ROWS_BRIDGED), (1u << 3) | (1u << 4));
    ASSERT_EQ(count_finding(RB_PROTO_TEST_OK), 24);
    rb_hosttest.rows_bridged = 0;
    cover(SQ('c', 4)); /* not the expected a4: named with both squares */
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_WRONG_SQUARE), SQ('a', 4) << 8 | SQ('c', 4));
}

TB_TEST(selftest_starts_from_promote_held_at_power_up)
{
    rb_hosttest_reset();
    rb_hosttest.tx_cap = 255;
    rb_hosttest.buttons = 1u << RB_PROTO_BTN_PROMOTE;
    struct rb_config cfg;
    rb_config_default(&cfg);
    rb_board_init(&board, &cfg);
    rb_proto_decoder_init(&host);
    ngot = 0;
    tx_seen = 0;
    run(RB_SELFTEST_HOLD_MS + 50);
    rb_hosttest.buttons = 0;
    ASSERT_EQ(rb_hosttest.tx_len, 0); /* nothing is lost: the findings wait for the host */
    get_info();
    run(200);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.events, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST);
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_STARTED), 0);
    cover(SQ('a', 1));
    ASSERT_EQ(finding_detail(RB_PROTO_TEST_OK), SQ('a', 1));
}

TB_TEST(selftest_not_started_by_promote_pressed_after_power_up)
{
    setup();
    run(10);
    rb_hosttest.buttons = 1u << RB_PROTO_BTN_PROMOTE;
    run(RB_SELFTEST_HOLD_MS + 50);
    rb_hosttest.buttons = 0;
    connect();
    run(200);
    ASSERT_EQ(count_finding(RB_PROTO_TEST_STARTED), 0);
    /* a host's options start the test and end it */
    set_options(RB_DEBOUNCE_MS, 0, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST);
    run(200);
    ASSERT_EQ(count_finding(RB_PROTO_TEST_STARTED), 1);
    ngot = 0;
    set_options(RB_DEBOUNCE_MS, 0, RB_PROTO_EV_ALL);
    run(10);
    ASSERT_EQ(first(RB_PROTO_INFO)->u.info.events, RB_PROTO_EV_ALL);
    cover(SQ('a', 1));
    ASSERT_EQ(count_finding(RB_PROTO_TEST_OK), 0);
}
