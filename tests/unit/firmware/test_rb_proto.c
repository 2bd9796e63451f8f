/* test_rb_proto.c - the reedboard wire codec: exact frames, round trips of every message, and a
 * corpus of bad streams, each with the decoder's expected outcome. */
#include "rb_proto.h"
#include "tb_test.h"

struct collected {
    struct rb_proto_msg msg[16];
    int n;
};

static void collect(void *ctx, const struct rb_proto_msg *m)
{
    struct collected *c = ctx;
    if (c->n < 16) {
        c->msg[c->n] = *m;
    }
    c->n++;
}

/* Decodes a whole buffer with a fresh decoder. */
static int decode_all(const uint8_t *buf, size_t len, struct collected *c,
                      struct rb_proto_decoder *d)
{
    memset(c, 0, sizeof *c);
    rb_proto_decoder_init(d);
    return (int)rb_proto_decoder_feed(d, buf, len, collect, c);
}

/* Encodes msg, decodes it back and checks it comes out equal, re-encoding to the same bytes. */
static void round_trip(const struct rb_proto_msg *msg)
{
    uint8_t frame[RB_PROTO_MAX_FRAME], again[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode(frame, sizeof frame, msg);
    ASSERT_EQ(n, (size_t)rb_proto_payload_len(msg->type) + RB_PROTO_OVERHEAD);
    ASSERT_EQ(frame[0], RB_PROTO_SYNC);
    ASSERT_EQ(frame[2], msg->type);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(frame, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].type, msg->type);
    ASSERT_EQ(rb_proto_encode(again, sizeof again, &c.msg[0]), n);
    ASSERT_EQ(memcmp(frame, again, n), 0);
    ASSERT_EQ(d.stats.frames, 1);
    ASSERT_EQ(d.stats.garbage_bytes + d.stats.bad_crc + d.stats.oversize + d.stats.bad_message, 0);
    /* A frame one byte too small for the buffer is refused. */
    ASSERT_EQ(rb_proto_encode(again, n - 1, msg), 0);
}

TB_TEST(crc_is_ccitt_false)
{
    /* The standard check value of CRC-16/CCITT-FALSE. */
    ASSERT_EQ(rb_proto_crc16(0xFFFF, (const uint8_t *)"123456789", 9), 0x29B1);
    ASSERT_EQ(rb_proto_crc16(0xFFFF, NULL, 0), 0xFFFF);
}

static void expect_bytes(const uint8_t *got, size_t n, const uint8_t *want, size_t wn)
{
    ASSERT_EQ(n, wn);
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            TB_FAIL("byte %zu: got %02X, expected %02X", i, got[i], want[i]);
        }
    }
}

/* The frames of docs/protocol.md "Examples"; the CRCs were checked with an independent
 * bit-by-bit implementation of CRC-16/CCITT-FALSE. */
TB_TEST(frames_are_pinned_to_the_document)
{
    uint8_t f[RB_PROTO_MAX_FRAME];
    static const uint8_t get_info[] = {0xA5, 0x00, 0x01, 0x2E, 0x0D};
    expect_bytes(f, rb_proto_encode_get_info(f, sizeof f), get_info, sizeof get_info);
    static const uint8_t get_snapshot[] = {0xA5, 0x00, 0x02, 0x4D, 0x3D};
    expect_bytes(f, rb_proto_encode_get_snapshot(f, sizeof f), get_snapshot, sizeof get_snapshot);
    static const uint8_t ping[] = {0xA5, 0x04, 0x04, 0x78, 0x56, 0x34, 0x12, 0x4D, 0x51};
    expect_bytes(f, rb_proto_encode_ping(f, sizeof f, 0x12345678u), ping, sizeof ping);
    struct rb_proto_square e = {7, 1234, 28, 1}; /* e4 placed */
    static const uint8_t square[] = {0xA5, 0x08, 0x83, 0x07, 0x00, 0xD2, 0x04,
                                     0x00, 0x00, 0x1C, 0x01, 0x51, 0x0E};
    expect_bytes(f, rb_proto_encode_square(f, sizeof f, &e), square, sizeof square);
}

TB_TEST(round_trip_every_message)
{
    struct rb_proto_msg m;
    memset(&m, 0, sizeof m);
    m.type = RB_PROTO_GET_INFO;
    round_trip(&m);
    m.type = RB_PROTO_GET_SNAPSHOT;
    round_trip(&m);
    m.type = RB_PROTO_SET_OPTIONS;
    m.u.options = (struct rb_proto_options){35, 500, RB_PROTO_EV_SQUARES | RB_PROTO_EV_FAULTS};
    round_trip(&m);
    memset(&m, 0, sizeof m);
    m.type = RB_PROTO_PING;
    m.u.ping_token = 0xA5A5A5A5u; /* SYNC bytes inside the payload */
    round_trip(&m);
    m.type = RB_PROTO_SET_OUTPUTS;
    m.u.outputs = (struct rb_proto_outputs){RB_PROTO_LED_ON, 5000};
    round_trip(&m);
    m.type = RB_PROTO_INFO;
    m.u.info = (struct rb_proto_info){1, 1, 2, 3, 0xDEADBEEFu, 0x001F, 20, 1000, 1000, 7};
    round_trip(&m);
    m.type = RB_PROTO_SNAPSHOT;
    m.u.snapshot = (struct rb_proto_snapshot){
        65535, 0xFFFFFFFFu,          0xFFFF00000000FFFFull, 0x8000000000000001ull,
        0x0F,  RB_PROTO_SNAP_OVERRUN};
    round_trip(&m);
    m.type = RB_PROTO_SQUARE;
    m.u.square = (struct rb_proto_square){1, 160, 63, 0};
    round_trip(&m);
    m.type = RB_PROTO_BUTTON;
    m.u.button = (struct rb_proto_button){2, 99, RB_PROTO_BTN_ARBITER, 1};
    round_trip(&m);
    m.type = RB_PROTO_FAULT;
    m.u.fault = (struct rb_proto_fault){3, 7, RB_PROTO_FAULT_QUEUE_OVERRUN, 0, 4000};
    round_trip(&m);
    m.type = RB_PROTO_PONG;
    m.u.pong = (struct rb_proto_pong){0xCAFEF00Du, 123456};
    round_trip(&m);
}

TB_TEST(snapshot_fields_survive_exactly)
{
    struct rb_proto_snapshot s = {
        42, 1000, 0x0000FFFF0000FFFFull, 0x0000FFFF1000EFFFull, 0x05, RB_PROTO_SNAP_PERIODIC};
    uint8_t f[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode_snapshot(f, sizeof f, &s);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(f, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].u.snapshot.seq, 42);
    ASSERT_EQ(c.msg[0].u.snapshot.ms, 1000);
    ASSERT_U64_EQ(c.msg[0].u.snapshot.occupancy, 0x0000FFFF0000FFFFull);
    ASSERT_U64_EQ(c.msg[0].u.snapshot.raw, 0x0000FFFF1000EFFFull);
    ASSERT_EQ(c.msg[0].u.snapshot.buttons, 5);
    ASSERT_EQ(c.msg[0].u.snapshot.reason, RB_PROTO_SNAP_PERIODIC);
}

TB_TEST(encoders_refuse_out_of_range_fields)
{
    uint8_t f[RB_PROTO_MAX_FRAME];
    struct rb_proto_square sq = {1, 1, 64, 1};
    ASSERT_EQ(rb_proto_encode_square(f, sizeof f, &sq), 0);
    sq = (struct rb_proto_square){1, 1, 0, 2};
    ASSERT_EQ(rb_proto_encode_square(f, sizeof f, &sq), 0);
    struct rb_proto_button bt = {1, 1, 4, 0};
    ASSERT_EQ(rb_proto_encode_button(f, sizeof f, &bt), 0);
    struct rb_proto_options o = {0, 1000, RB_PROTO_EV_ALL};
    ASSERT_EQ(rb_proto_encode_set_options(f, sizeof f, &o), 0);
    o = (struct rb_proto_options){251, 1000, RB_PROTO_EV_ALL};
    ASSERT_EQ(rb_proto_encode_set_options(f, sizeof f, &o), 0);
    o = (struct rb_proto_options){20, 49, RB_PROTO_EV_ALL};
    ASSERT_EQ(rb_proto_encode_set_options(f, sizeof f, &o), 0);
    o = (struct rb_proto_options){20, 0, 0x08};
    ASSERT_EQ(rb_proto_encode_set_options(f, sizeof f, &o), 0);
    o = (struct rb_proto_options){20, 0, 0};
    ASSERT_GT(rb_proto_encode_set_options(f, sizeof f, &o), 0); /* period 0 = off is valid */
    struct rb_proto_outputs out = {3, 0};
    ASSERT_EQ(rb_proto_encode_set_outputs(f, sizeof f, &out), 0);
    out = (struct rb_proto_outputs){0, 5001};
    ASSERT_EQ(rb_proto_encode_set_outputs(f, sizeof f, &out), 0);
    struct rb_proto_fault ft = {1, 1, 0, 0, 0};
    ASSERT_EQ(rb_proto_encode_fault(f, sizeof f, &ft), 0);
    struct rb_proto_msg m = {.type = 0x42};
    ASSERT_EQ(rb_proto_encode(f, sizeof f, &m), 0);
    ASSERT_EQ(rb_proto_encode(NULL, 64, &m), 0);
    ASSERT_EQ(rb_proto_encode_get_info(f, 4), 0);
}

/* ---- the corpus of bad streams ---- */

static size_t frame_ping(uint8_t *out, uint32_t token)
{
    return rb_proto_encode_ping(out, RB_PROTO_MAX_FRAME, token);
}

/* A frame with a good CRC around whatever type and payload (for invalid messages). */
static size_t raw_frame(uint8_t *out, uint8_t type, const uint8_t *payload, uint8_t len)
{
    out[0] = RB_PROTO_SYNC;
    out[1] = len;
    out[2] = type;
    if (len) {
        memcpy(out + 3, payload, len);
    }
    uint16_t crc = rb_proto_crc16(0xFFFF, out + 1, (size_t)len + 2);
    out[3 + len] = (uint8_t)crc;
    out[4 + len] = (uint8_t)(crc >> 8);
    return (size_t)len + 5;
}

TB_TEST(bad_crc_is_rejected_and_counted)
{
    uint8_t s[64];
    size_t n = frame_ping(s, 1);
    s[5] ^= 0x01; /* one flipped payload bit */
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.stats.bad_crc, 1);
    ASSERT_EQ(d.last_reject, RB_PROTO_REJECT_CRC);
    ASSERT_STR_EQ(rb_proto_reject_name(d.last_reject), "CRC mismatch");
}

TB_TEST(flipped_crc_byte_is_rejected)
{
    uint8_t s[64];
    size_t n = frame_ping(s, 77);
    s[n - 1] ^= 0x80;
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.stats.bad_crc, 1);
}

TB_TEST(oversized_length_rejected_at_once_then_next_frame_found)
{
    uint8_t s[64] = {RB_PROTO_SYNC, RB_PROTO_MAX_PAYLOAD + 1};
    size_t n = 2 + frame_ping(s + 2, 9);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].u.ping_token, 9);
    ASSERT_EQ(d.stats.oversize, 1);
}

TB_TEST(length_255_does_not_make_the_decoder_wait)
{
    /* A corrupt LEN of 255 is refused at the second byte, so the frame right after is not eaten
     * by a 260-byte wait. */
    uint8_t s[64] = {RB_PROTO_SYNC, 0xFF};
    size_t n = 2 + frame_ping(s + 2, 10);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
}

TB_TEST(truncated_frame_then_good_frame_recovers_the_good_one)
{
    uint8_t s[64];
    size_t a = frame_ping(s, 1) - 3; /* the first frame loses its last three bytes */
    size_t n = a + frame_ping(s + a, 2);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].u.ping_token, 2);
    ASSERT_EQ(d.stats.bad_crc, 1);
}

TB_TEST(garbage_before_a_frame_is_skipped)
{
    uint8_t s[64] = {0x00, 0xFF, 0x13, 0x37, 0x81};
    size_t n = 5 + frame_ping(s + 5, 3);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
    ASSERT_EQ(d.stats.garbage_bytes, 5);
    ASSERT_EQ(d.stats.bad_crc, 0);
}

TB_TEST(garbage_with_sync_bytes_before_a_frame)
{
    /* Garbage that looks like the start of a frame swallows the real frame's first bytes; the
     * rescan after the CRC fails finds the real frame anyway. */
    uint8_t s[64] = {RB_PROTO_SYNC, 0x06, 0x04};
    size_t n = 3 + frame_ping(s + 3, 0x0BADF00Du);
    memset(s + n, 0x55, 8); /* line idle noise after */
    n += 8;
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].u.ping_token, 0x0BADF00Du);
}

TB_TEST(garbage_inside_a_frame_loses_only_that_frame)
{
    uint8_t s[96];
    size_t a = frame_ping(s, 1);
    memmove(s + 5, s + 4, a - 4); /* a stray byte in the middle of frame 1 */
    s[4] = 0xEE;
    size_t n = a + 1;
    n += frame_ping(s + n, 2);
    n += frame_ping(s + n, 3);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 2);
    ASSERT_EQ(c.msg[0].u.ping_token, 2);
    ASSERT_EQ(c.msg[1].u.ping_token, 3);
    ASSERT_GE(d.stats.bad_crc, 1);
}

TB_TEST(sync_byte_in_payload_is_data)
{
    uint8_t s[64];
    struct rb_proto_square e = {0xA5A5, 0xA5A5A5A5u, 0x25, 1};
    size_t n = rb_proto_encode_square(s, sizeof s, &e);
    n += frame_ping(s + n, 0xA5A5A5A5u);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 2);
    ASSERT_EQ(c.msg[0].u.square.seq, 0xA5A5);
    ASSERT_EQ(c.msg[0].u.square.ms, 0xA5A5A5A5u);
    ASSERT_EQ(c.msg[1].u.ping_token, 0xA5A5A5A5u);
    ASSERT_EQ(d.stats.bad_crc + d.stats.garbage_bytes, 0);
}

TB_TEST(run_of_sync_bytes_then_frame)
{
    uint8_t s[64];
    memset(s, RB_PROTO_SYNC, 6);
    size_t n = 6 + frame_ping(s + 6, 5);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 1);
    ASSERT_EQ(c.msg[0].u.ping_token, 5);
}

TB_TEST(two_frames_hidden_in_a_rejected_candidate_are_both_delivered)
{
    /* A false start claims 20 payload bytes; two whole frames sit inside its span. Both come
     * out: the first from push(), the second from next(). */
    uint8_t s[64] = {RB_PROTO_SYNC, 20, 0x04};
    size_t n = 3;
    n += frame_ping(s + n, 11);
    n += frame_ping(s + n, 12);
    n += 7; /* filler up to the candidate's end: 25 bytes after SYNC */
    struct rb_proto_decoder d;
    struct rb_proto_msg m;
    rb_proto_decoder_init(&d);
    int got = 0;
    uint32_t tokens[4] = {0};
    for (size_t i = 0; i < n; i++) {
        if (rb_proto_decoder_push(&d, s[i], &m)) {
            do {
                tokens[got++] = m.u.ping_token;
            } while (rb_proto_decoder_next(&d, &m));
        }
    }
    ASSERT_EQ(got, 2);
    ASSERT_EQ(tokens[0], 11);
    ASSERT_EQ(tokens[1], 12);
    ASSERT_EQ(d.stats.bad_crc, 1);
}

TB_TEST(unknown_type_with_good_crc)
{
    uint8_t s[16];
    size_t n = raw_frame(s, 0x42, NULL, 0);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.stats.bad_message, 1);
    ASSERT_EQ(d.last_bad_type, 0x42);
    ASSERT_EQ(d.last_bad_reason, RB_PROTO_REJECT_TYPE);
}

TB_TEST(wrong_length_for_type)
{
    uint8_t s[16], p[3] = {1, 2, 3};
    size_t n = raw_frame(s, RB_PROTO_PING, p, 3);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.last_bad_reason, RB_PROTO_REJECT_LENGTH);
    ASSERT_EQ(d.last_bad_type, RB_PROTO_PING);
}

TB_TEST(field_out_of_range)
{
    uint8_t s[32], p[8] = {1, 0, 10, 0, 0, 0, 64, 1}; /* square 64 does not exist */
    size_t n = raw_frame(s, RB_PROTO_SQUARE, p, 8);
    uint8_t o[4] = {0, 0xE8, 0x03, 7}; /* debounce 0 */
    n += raw_frame(s + n, RB_PROTO_SET_OPTIONS, o, 4);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.stats.bad_message, 2);
    ASSERT_EQ(d.last_bad_reason, RB_PROTO_REJECT_FIELD);
    ASSERT_EQ(d.last_bad_type, RB_PROTO_SET_OPTIONS);
}

TB_TEST(reset_counts_a_partial_frame_as_truncated)
{
    uint8_t s[16];
    size_t n = frame_ping(s, 1);
    struct rb_proto_decoder d;
    struct rb_proto_msg m;
    rb_proto_decoder_init(&d);
    for (size_t i = 0; i < n - 2; i++) {
        ASSERT_EQ(rb_proto_decoder_push(&d, s[i], &m), 0);
    }
    rb_proto_decoder_reset(&d);
    ASSERT_EQ(d.stats.truncated, 1);
    rb_proto_decoder_reset(&d); /* nothing held: not counted again */
    ASSERT_EQ(d.stats.truncated, 1);
    for (size_t i = 0; i < n; i++) {
        if (rb_proto_decoder_push(&d, s[i], &m)) {
            ASSERT_EQ(i, n - 1);
        }
    }
    ASSERT_EQ(d.stats.frames, 1);
}

TB_TEST(rejected_byte_leaves_the_output_untouched)
{
    struct rb_proto_decoder d;
    struct rb_proto_msg m;
    memset(&m, 0x5A, sizeof m);
    rb_proto_decoder_init(&d);
    uint8_t s[16];
    size_t n = frame_ping(s, 1);
    s[n - 1] ^= 1;
    for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(rb_proto_decoder_push(&d, s[i], &m), 0);
    }
    const uint8_t *p = (const uint8_t *)&m;
    for (size_t i = 0; i < sizeof m; i++) {
        ASSERT_EQ(p[i], 0x5A);
    }
}

TB_TEST(every_single_bit_error_in_a_snapshot_is_caught)
{
    struct rb_proto_snapshot snap = {9, 5000, 0x0000FFFF0000FFFFull, 0, 0, 0};
    uint8_t good[RB_PROTO_MAX_FRAME], s[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode_snapshot(good, sizeof good, &snap);
    for (size_t byte = 1; byte < n; byte++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(s, good, n);
            s[byte] ^= (uint8_t)(1u << bit);
            struct collected c;
            struct rb_proto_decoder d;
            ASSERT_EQ(decode_all(s, n, &c, &d), 0);
        }
    }
}

TB_TEST(names_for_logs)
{
    ASSERT_STR_EQ(rb_proto_type_name(RB_PROTO_SQUARE), "SQUARE");
    ASSERT_STR_EQ(rb_proto_type_name(0x7F), "unknown type");
    ASSERT_STR_EQ(rb_proto_fault_name(RB_PROTO_FAULT_QUEUE_OVERRUN), "event queue overrun");
    ASSERT_EQ(rb_proto_payload_len(RB_PROTO_SNAPSHOT), 24);
    ASSERT_EQ(rb_proto_payload_len(0x00), -1);
    ASSERT_EQ(rb_proto_seq_gap(65535, 0), 1);
    ASSERT_EQ(rb_proto_seq_gap(10, 13), 3);
}
