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
    memset(&m, 0, sizeof m);
    m.type = RB_PROTO_SET_SERIAL;
    m.u.serial = RB_PROTO_SERIAL_MAX;
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
    ASSERT_EQ(rb_proto_encode_set_serial(f, sizeof f, 0), 0);           /* 0 is "no serial" */
    ASSERT_EQ(rb_proto_encode_set_serial(f, sizeof f, 0xFFFFFFFFu), 0); /* erased EEPROM */
    struct rb_proto_msg m = {.type = 0x42};
    ASSERT_EQ(rb_proto_encode(f, sizeof f, &m), 0);
    ASSERT_EQ(rb_proto_encode(NULL, 64, &m), 0);
    ASSERT_EQ(rb_proto_encode_get_info(f, 4), 0);
}

/* ---- bad streams ---- */

static size_t frame_ping(uint8_t *out, uint32_t token)
{
    return rb_proto_encode_ping(out, RB_PROTO_MAX_FRAME, token);
}

/* The corpus of bad streams. Each row is a byte stream (hex) and what the decoder must make of it:
 * the messages delivered (their types, and the PING tokens), every counter, and the reason it
 * gives for the last rejection. The CRCs were computed with an independent bitwise CRC. */
struct bad_stream {
    const char *name;
    const char *hex;
    int frames;
    uint8_t types[3];
    uint32_t tokens[3]; /* for PING messages */
    uint32_t garbage, oversize, bad_crc, bad_message;
    uint8_t last_reject, last_bad_reason;
};

#define PING RB_PROTO_PING
#define NONE RB_PROTO_REJECT_NONE

static const struct bad_stream corpus[] = {
    {"one flipped payload bit",
     "A5 04 04 01 00 01 00 03 F7",
     0,
     {0},
     {0},
     8,
     0,
     1,
     0,
     RB_PROTO_REJECT_CRC,
     NONE},
    {"one flipped CRC bit",
     "A5 04 04 01 00 00 00 03 77",
     0,
     {0},
     {0},
     8,
     0,
     1,
     0,
     RB_PROTO_REJECT_CRC,
     NONE},
    {"oversized length (33), then PING 2",
     "A5 21 A5 04 04 02 00 00 00 DF 6C",
     1,
     {PING},
     {2},
     1,
     1,
     0,
     0,
     RB_PROTO_REJECT_OVERSIZE,
     NONE},
    {"length 255 refused at once, then PING 2",
     "A5 FF A5 04 04 02 00 00 00 DF 6C",
     1,
     {PING},
     {2},
     1,
     1,
     0,
     0,
     RB_PROTO_REJECT_OVERSIZE,
     NONE},
    {"PING 1 cut short, then PING 2",
     "A5 04 04 01 00 00 A5 04 04 02 00 00 00 DF 6C",
     1,
     {PING},
     {2},
     5,
     0,
     1,
     0,
     RB_PROTO_REJECT_CRC,
     NONE},
    {"garbage before PING 2",
     "00 FF 13 37 81 A5 04 04 02 00 00 00 DF 6C",
     1,
     {PING},
     {2},
     5,
     0,
     0,
     0,
     RB_PROTO_REJECT_GARBAGE,
     NONE},
    {"false start swallowing the start of PING 2, idle noise after",
     "A5 06 04 A5 04 04 02 00 00 00 DF 6C 55 55 55 55 55 55 55 55",
     1,
     {PING},
     {2},
     10,
     0,
     1,
     0,
     RB_PROTO_REJECT_GARBAGE,
     NONE},
    {"stray byte inside PING 1, then PING 2 and 3",
     "A5 04 04 01 EE 00 00 00 03 F7 A5 04 04 02 00 00 00 DF 6C A5 04 04 03 00 00 00 6B 1A",
     2,
     {PING, PING},
     {2, 3},
     9,
     0,
     1,
     0,
     RB_PROTO_REJECT_GARBAGE,
     NONE},
    {"SYNC bytes inside payloads are data",
     "A5 08 83 A5 A5 A5 A5 A5 A5 25 01 0C 09 A5 04 04 A5 A5 A5 A5 2C 86",
     2,
     {RB_PROTO_SQUARE, PING},
     {0, 0xA5A5A5A5u},
     0,
     0,
     0,
     0,
     NONE,
     NONE},
    {"run of SYNC bytes, then PING 2",
     "A5 A5 A5 A5 A5 A5 A5 04 04 02 00 00 00 DF 6C",
     1,
     {PING},
     {2},
     0,
     6,
     0,
     0,
     RB_PROTO_REJECT_OVERSIZE,
     NONE},
    {"unknown type 0x42, good CRC",
     "A5 00 42 89 75",
     0,
     {0},
     {0},
     0,
     0,
     0,
     1,
     RB_PROTO_REJECT_TYPE,
     RB_PROTO_REJECT_TYPE},
    {"PING with 3 payload bytes, good CRC",
     "A5 03 04 01 02 03 1E 54",
     0,
     {0},
     {0},
     0,
     0,
     0,
     1,
     RB_PROTO_REJECT_LENGTH,
     RB_PROTO_REJECT_LENGTH},
    {"SQUARE 64 does not exist",
     "A5 08 83 01 00 0A 00 00 00 40 01 B8 E5",
     0,
     {0},
     {0},
     0,
     0,
     0,
     1,
     RB_PROTO_REJECT_FIELD,
     RB_PROTO_REJECT_FIELD},
    {"SET_OPTIONS with debounce 0",
     "A5 04 03 00 E8 03 07 47 CA",
     0,
     {0},
     {0},
     0,
     0,
     0,
     1,
     RB_PROTO_REJECT_FIELD,
     RB_PROTO_REJECT_FIELD},
    {"nothing at all", "", 0, {0}, {0}, 0, 0, 0, 0, NONE, NONE},
    {"GET_INFO and GET_SNAPSHOT back to back",
     "A5 00 01 2E 0D A5 00 02 4D 3D",
     2,
     {RB_PROTO_GET_INFO, RB_PROTO_GET_SNAPSHOT},
     {0},
     0,
     0,
     0,
     0,
     NONE,
     NONE},
};

static size_t from_hex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned v;
    int used;
    while (n < cap && sscanf(hex, " %2x%n", &v, &used) == 1) {
        out[n++] = (uint8_t)v;
        hex += used;
    }
    return n;
}

TB_TEST(bad_stream_corpus)
{
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
        const struct bad_stream *c = &corpus[i];
        uint8_t s[64];
        size_t n = from_hex(c->hex, s, sizeof s);
        struct collected got;
        struct rb_proto_decoder d;
        int frames = decode_all(s, n, &got, &d);
        const struct rb_proto_stats *st = &d.stats;
        if (frames != c->frames || st->garbage_bytes != c->garbage || st->oversize != c->oversize ||
            st->bad_crc != c->bad_crc || st->bad_message != c->bad_message ||
            d.last_reject != c->last_reject || d.last_bad_reason != c->last_bad_reason) {
            TB_FAIL("%s: frames %d garbage %u oversize %u crc %u message %u reject %u/%u; expected "
                    "%d %u %u %u %u %u/%u",
                    c->name, frames, st->garbage_bytes, st->oversize, st->bad_crc, st->bad_message,
                    d.last_reject, d.last_bad_reason, c->frames, c->garbage, c->oversize,
                    c->bad_crc, c->bad_message, c->last_reject, c->last_bad_reason);
        }
        for (int k = 0; k < frames; k++) {
            if (got.msg[k].type != c->types[k] ||
                (c->types[k] == PING && got.msg[k].u.ping_token != c->tokens[k])) {
                TB_FAIL("%s: message %d is %s, expected %s", c->name, k,
                        rb_proto_type_name(got.msg[k].type), rb_proto_type_name(c->types[k]));
            }
        }
        /* Nothing was lost by feeding byte by byte, and the bytes are all accounted for. */
        ASSERT_EQ(st->frames, (uint32_t)frames);
        ASSERT_LE(d.have, RB_PROTO_MAX_FRAME);
    }
}

TB_TEST(bad_message_names_type_and_reason)
{
    uint8_t s[16];
    size_t n = from_hex("A5 00 42 89 75", s, sizeof s);
    struct collected c;
    struct rb_proto_decoder d;
    ASSERT_EQ(decode_all(s, n, &c, &d), 0);
    ASSERT_EQ(d.last_bad_type, 0x42);
    ASSERT_STR_EQ(rb_proto_reject_name(d.last_bad_reason), "unknown message type");
    ASSERT_STR_EQ(rb_proto_reject_name(RB_PROTO_REJECT_CRC), "CRC mismatch");
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
