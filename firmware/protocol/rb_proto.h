/* rb_proto.h - the reedboard wire protocol: one codec for the board firmware and the host.
 *
 * Frame (docs/protocol.md has the full description, with every payload byte by byte):
 *
 *     SYNC 0xA5 | LEN | TYPE | PAYLOAD[LEN] | CRC16 lo | CRC16 hi
 *
 * LEN counts payload bytes only (0..RB_PROTO_MAX_PAYLOAD). The CRC is CRC-16/CCITT-FALSE
 * (poly 0x1021, init 0xFFFF, no reflection, no final xor) over LEN, TYPE and PAYLOAD. Every
 * multi-byte field, the CRC included, is little-endian. Squares are numbered 0..63 with a1 = 0,
 * b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; in a 64-bit occupancy bit n is square n.
 *
 * The codec is pure C (C99/C11): no allocation, no I/O, no platform headers; it builds for the
 * AVR firmware and for the host (CMake library target `rb_proto`).
 *
 * Encoders write one complete frame into buf and return its length, or 0 when cap is too small
 * or a field is out of range (nothing useful is written then). A buffer of RB_PROTO_MAX_FRAME
 * bytes always suffices.
 *
 * The decoder is an incremental state machine fed one byte at a time. It resynchronises after
 * garbage by rescanning the bytes of a rejected candidate frame for the next SYNC, so a good frame
 * that began inside garbage is still found. It rejects bad CRCs, oversized lengths, unknown types,
 * payload lengths that do not match the type and out-of-range fields, never reads or writes
 * outside its own struct and the caller's message, and counts every kind of rejection.
 */
#ifndef RB_PROTO_H
#define RB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define RB_PROTO_VERSION     1u
#define RB_PROTO_SYNC        0xA5u
#define RB_PROTO_MAX_PAYLOAD 32u /* larger LEN bytes are rejected as oversized */
#define RB_PROTO_OVERHEAD    5u  /* SYNC, LEN, TYPE, CRC lo, CRC hi */
#define RB_PROTO_MAX_FRAME   (RB_PROTO_MAX_PAYLOAD + RB_PROTO_OVERHEAD)
#define RB_PROTO_SQUARES     64u
#define RB_PROTO_BUTTONS     4u /* button ids 0..3, see enum rb_proto_button_id */

/* Message types. Host-to-board requests are 0x01..0x7F, board-to-host messages 0x81..0xFF. */
enum rb_proto_type {
    RB_PROTO_GET_INFO = 0x01,     /* no payload; answered by INFO */
    RB_PROTO_GET_SNAPSHOT = 0x02, /* no payload; answered by SNAPSHOT */
    RB_PROTO_SET_OPTIONS = 0x03,  /* struct rb_proto_options; answered by INFO */
    RB_PROTO_PING = 0x04,         /* u32 token; answered by PONG with the same token */
    RB_PROTO_SET_OUTPUTS = 0x05,  /* struct rb_proto_outputs; no answer */
    RB_PROTO_SET_SERIAL = 0x06,   /* u32 serial (the board's identity); answered by INFO */

    RB_PROTO_INFO = 0x81,     /* struct rb_proto_info */
    RB_PROTO_SNAPSHOT = 0x82, /* struct rb_proto_snapshot */
    RB_PROTO_SQUARE = 0x83,   /* event: struct rb_proto_square */
    RB_PROTO_BUTTON = 0x84,   /* event: struct rb_proto_button */
    RB_PROTO_FAULT = 0x85,    /* event: struct rb_proto_fault */
    RB_PROTO_PONG = 0x86,     /* struct rb_proto_pong */
};

/* Exact payload length of each type. */
#define RB_PROTO_LEN_GET_INFO     0u
#define RB_PROTO_LEN_GET_SNAPSHOT 0u
#define RB_PROTO_LEN_SET_OPTIONS  4u
#define RB_PROTO_LEN_PING         4u
#define RB_PROTO_LEN_SET_OUTPUTS  3u
#define RB_PROTO_LEN_SET_SERIAL   4u
#define RB_PROTO_LEN_INFO         16u
#define RB_PROTO_LEN_SNAPSHOT     24u
#define RB_PROTO_LEN_SQUARE       8u
#define RB_PROTO_LEN_BUTTON       8u
#define RB_PROTO_LEN_FAULT        10u
#define RB_PROTO_LEN_PONG         8u

/* INFO.features bits. */
#define RB_PROTO_FEAT_BUTTONS   0x0001u /* four debounced buttons, BUTTON events */
#define RB_PROTO_FEAT_LED       0x0002u /* status LED, SET_OUTPUTS.led */
#define RB_PROTO_FEAT_BUZZER    0x0004u /* buzzer, SET_OUTPUTS.beep_ms */
#define RB_PROTO_FEAT_ROW_CHECK 0x0008u /* rows are checked with all columns blanked each scan */
#define RB_PROTO_FEAT_STUCK     0x0010u /* chattering squares are reported as FAULT STUCK_SQUARE */

/* Event enable bits (SET_OPTIONS.events, INFO.events). Disabled events are not generated and take
 * no sequence number. */
#define RB_PROTO_EV_SQUARES 0x01u
#define RB_PROTO_EV_BUTTONS 0x02u
#define RB_PROTO_EV_FAULTS  0x04u
#define RB_PROTO_EV_ALL     0x07u
/* SET_OPTIONS.events bit 7: run the self-test (set) or leave it (clear); INFO.events shows it. */
#define RB_PROTO_OPT_SELF_TEST 0x80u

/* A board serial (its identity): 1..RB_PROTO_SERIAL_MAX; 0 means none, and all ones is what an
 * erased EEPROM reads. A board takes SET_SERIAL only while it has none (or to the serial it has):
 * the identity is set once; otherwise FAULT BAD_REQUEST with detail RB_PROTO_REJECT_REFUSED. */
#define RB_PROTO_SERIAL_MAX 0xFFFFFFFEul

/* Limits checked by the encoder, the decoder and the board. */
#define RB_PROTO_DEBOUNCE_MIN    1u
#define RB_PROTO_DEBOUNCE_MAX    250u
#define RB_PROTO_SNAPSHOT_MIN_MS 50u /* a non-zero period below this is refused */
#define RB_PROTO_BEEP_MAX_MS     5000u

/* The board's buttons; their meaning is the host's (it speaks to the VI player, Appendix D). */
enum rb_proto_button_id {
    RB_PROTO_BTN_PROMOTE = 0, /* choose the promotion piece (3.7.5; announced per D.2.1) */
    RB_PROTO_BTN_REPEAT = 1,  /* repeat the last announcement (D.2.1) */
    RB_PROTO_BTN_CLOCK = 2,   /* clock times and move count (D.2.6, D.2.10.4) */
    RB_PROTO_BTN_ARBITER = 3, /* call the arbiter */
};

enum rb_proto_fault_code {
    RB_PROTO_FAULT_STUCK_SQUARE =
        1,                     /* arg = square; detail = chatter count; square keeps flickering */
    RB_PROTO_FAULT_MATRIX = 2, /* impossible reading; arg = enum rb_proto_matrix_fault */
    RB_PROTO_FAULT_QUEUE_OVERRUN = 3, /* detail = events lost (their seqs were skipped) */
    RB_PROTO_FAULT_BAD_REQUEST = 4,   /* arg = request type; detail = enum rb_proto_reject */
    RB_PROTO_FAULT_RX_ERROR = 5,      /* detail = corrupt or lost request bytes/frames since last */
    RB_PROTO_FAULT_SELF_TEST = 6,     /* a self-test finding: arg = enum rb_proto_test_finding */
};

/* Self-test findings (FAULT SELF_TEST arg; docs/protocol.md, "Self-test"). The self-test runs
 * with the board cleared: it reads every closed square as stuck, then walks the squares a1, b1,
 * ..., h8 as the tester covers each in turn, one piece at a time. */
enum rb_proto_test_finding {
    RB_PROTO_TEST_STARTED = 1,       /* detail = stuck squares found; the walk expects its first */
    RB_PROTO_TEST_STUCK = 2,         /* detail = square closed with the board cleared */
    RB_PROTO_TEST_OK = 3,            /* detail = square: the expected square closed, alone */
    RB_PROTO_TEST_WRONG_SQUARE = 4,  /* detail = expected << 8 | read: crossed lines or wiring */
    RB_PROTO_TEST_ROWS_BRIDGED = 5,  /* detail = rank mask read at once on one file */
    RB_PROTO_TEST_FILES_BRIDGED = 6, /* detail = file mask read at once on one rank */
    RB_PROTO_TEST_NEVER_CLOSED = 7,  /* detail = square skipped by the CLOCK button: dead */
    RB_PROTO_TEST_DONE = 8,          /* detail = squares that passed (64 = a healthy board) */
};

enum rb_proto_matrix_fault {
    RB_PROTO_MATRIX_ROW_LOW = 1,  /* a row read low with every column blanked; detail = rank mask */
    RB_PROTO_MATRIX_TOO_MANY = 2, /* more than 32 squares occupied; detail = count */
};

/* SNAPSHOT.reason */
enum rb_proto_snapshot_reason {
    RB_PROTO_SNAP_REQUESTED = 0,
    RB_PROTO_SNAP_PERIODIC = 1,
    RB_PROTO_SNAP_OVERRUN = 2, /* sent by the board itself after events were lost */
};

/* SET_OUTPUTS.led */
enum rb_proto_led_mode {
    RB_PROTO_LED_AUTO = 0, /* board decides: on, briefly off on each event */
    RB_PROTO_LED_OFF = 1,
    RB_PROTO_LED_ON = 2,
};

struct rb_proto_info {
    uint8_t proto_version; /* RB_PROTO_VERSION of the firmware */
    uint8_t fw_major, fw_minor, fw_patch;
    uint32_t serial;   /* board serial number; 0 when the board has none */
    uint16_t features; /* RB_PROTO_FEAT_* */
    uint8_t debounce_ms;
    uint16_t scan_period_us;     /* period of one full matrix scan */
    uint16_t snapshot_period_ms; /* 0 = no periodic snapshots */
    uint8_t events;              /* RB_PROTO_EV_* enabled */
};

struct rb_proto_snapshot {
    uint16_t seq;       /* newest event seq generated; reflects every event with seq <= this */
    uint32_t ms;        /* board time of the reading */
    uint64_t occupancy; /* debounced; bit n = square n, 1 = piece present */
    uint64_t raw;       /* last raw scan, undebounced (diagnostics) */
    uint8_t buttons;    /* debounced; bit n = button id n, 1 = down */
    uint8_t reason;     /* enum rb_proto_snapshot_reason */
};

struct rb_proto_square {
    uint16_t seq;
    uint32_t ms;
    uint8_t square; /* 0..63, a1 = 0 */
    uint8_t placed; /* 1 = piece placed (occupied), 0 = lifted (empty) */
};

struct rb_proto_button {
    uint16_t seq;
    uint32_t ms;
    uint8_t button; /* enum rb_proto_button_id */
    uint8_t down;   /* 1 = pressed, 0 = released */
};

struct rb_proto_fault {
    uint16_t seq;
    uint32_t ms;
    uint8_t code; /* enum rb_proto_fault_code */
    uint8_t arg;
    uint16_t detail;
};

struct rb_proto_pong {
    uint32_t token; /* copied from PING */
    uint32_t ms;    /* board time when answered */
};

struct rb_proto_options {
    uint8_t debounce_ms;         /* RB_PROTO_DEBOUNCE_MIN..MAX */
    uint16_t snapshot_period_ms; /* 0 = off, else >= RB_PROTO_SNAPSHOT_MIN_MS */
    uint8_t events;              /* RB_PROTO_EV_* mask, other bits must be 0 */
};

struct rb_proto_outputs {
    uint8_t led; /* enum rb_proto_led_mode */
    uint16_t
        beep_ms; /* sound the buzzer this long from now (0 = silence), <= RB_PROTO_BEEP_MAX_MS */
};

/* One decoded message: type selects the union member (none for GET_INFO / GET_SNAPSHOT). */
struct rb_proto_msg {
    uint8_t type; /* enum rb_proto_type */
    union {
        struct rb_proto_info info;
        struct rb_proto_snapshot snapshot;
        struct rb_proto_square square;
        struct rb_proto_button button;
        struct rb_proto_fault fault;
        struct rb_proto_pong pong;
        struct rb_proto_options options;
        struct rb_proto_outputs outputs;
        uint32_t ping_token;
        uint32_t serial; /* SET_SERIAL */
    } u;
};

/* Why the decoder dropped bytes (also FAULT BAD_REQUEST detail). */
enum rb_proto_reject {
    RB_PROTO_REJECT_NONE = 0,
    RB_PROTO_REJECT_GARBAGE = 1,   /* bytes outside any frame */
    RB_PROTO_REJECT_OVERSIZE = 2,  /* LEN > RB_PROTO_MAX_PAYLOAD */
    RB_PROTO_REJECT_CRC = 3,       /* CRC mismatch */
    RB_PROTO_REJECT_TYPE = 4,      /* good CRC, unknown TYPE */
    RB_PROTO_REJECT_LENGTH = 5,    /* good CRC, LEN does not match TYPE */
    RB_PROTO_REJECT_FIELD = 6,     /* good CRC, a field is out of range */
    RB_PROTO_REJECT_TRUNCATED = 7, /* rb_proto_decoder_reset() dropped a partial frame */
    RB_PROTO_REJECT_REFUSED = 8,   /* a valid request the board refuses (SET_SERIAL: it has one) */
};

/* Decoder counters; they only grow (they wrap at 2^32). */
struct rb_proto_stats {
    uint32_t frames;        /* messages delivered */
    uint32_t garbage_bytes; /* bytes skipped while looking for SYNC */
    uint32_t oversize;      /* candidates with LEN > RB_PROTO_MAX_PAYLOAD */
    uint32_t bad_crc;       /* candidates whose CRC did not match */
    uint32_t bad_message;   /* good CRC but unknown type, wrong length or field out of range */
    uint32_t truncated;     /* partial frames dropped by rb_proto_decoder_reset() */
};

/* Decoder state. Treat as opaque except stats and last_reject; zero it or call
 * rb_proto_decoder_init() before use. */
struct rb_proto_decoder {
    uint8_t buf[RB_PROTO_MAX_FRAME]; /* bytes of the current candidate, buf[0] == SYNC */
    uint8_t have;                    /* bytes held in buf */
    uint8_t last_reject;             /* enum rb_proto_reject of the latest rejection */
    uint8_t last_bad_type;           /* latest good-CRC frame rejected: its TYPE byte */
    uint8_t last_bad_reason;         /* ... and why (RB_PROTO_REJECT_TYPE, _LENGTH, _FIELD) */
    struct rb_proto_stats stats;
};

void rb_proto_decoder_init(struct rb_proto_decoder *d);

/* Feeds one received byte. Returns 1 and fills *out when a valid message completes, else 0
 * (*out is then untouched). After a 1, call rb_proto_decoder_next() until it returns 0: in rare
 * cases a rejected candidate held further complete frames. */
int rb_proto_decoder_push(struct rb_proto_decoder *d, uint8_t byte, struct rb_proto_msg *out);

/* Delivers a further message already held in the decoder; 1 = *out filled, 0 = none. */
int rb_proto_decoder_next(struct rb_proto_decoder *d, struct rb_proto_msg *out);

/* Feeds len bytes, calling fn(ctx, msg) for every message; returns the number delivered. */
typedef void (*rb_proto_msg_fn)(void *ctx, const struct rb_proto_msg *msg);
size_t rb_proto_decoder_feed(struct rb_proto_decoder *d, const uint8_t *data, size_t len,
                             rb_proto_msg_fn fn, void *ctx);

/* Drops a partial frame (e.g. after an inter-byte timeout or when the port is reopened), counting
 * it as truncated when one was in progress. Counters are kept. */
void rb_proto_decoder_reset(struct rb_proto_decoder *d);

/* Payload length of a known type, or -1 for an unknown one. */
int rb_proto_payload_len(uint8_t type);

/* Short English name of a type ("SQUARE"), of a fault code, of a reject reason; never NULL. */
const char *rb_proto_type_name(uint8_t type);
const char *rb_proto_fault_name(uint8_t code);
const char *rb_proto_reject_name(uint8_t reject);

/* CRC-16/CCITT-FALSE over len bytes, continuing from crc (start with 0xFFFF). */
uint16_t rb_proto_crc16(uint16_t crc, const uint8_t *data, size_t len);

/* Encoders: one per message kind, plus rb_proto_encode() for any struct rb_proto_msg. */
size_t rb_proto_encode(uint8_t *buf, size_t cap, const struct rb_proto_msg *msg);
size_t rb_proto_encode_get_info(uint8_t *buf, size_t cap);
size_t rb_proto_encode_get_snapshot(uint8_t *buf, size_t cap);
size_t rb_proto_encode_set_options(uint8_t *buf, size_t cap, const struct rb_proto_options *o);
size_t rb_proto_encode_ping(uint8_t *buf, size_t cap, uint32_t token);
size_t rb_proto_encode_set_outputs(uint8_t *buf, size_t cap, const struct rb_proto_outputs *o);
size_t rb_proto_encode_set_serial(uint8_t *buf, size_t cap, uint32_t serial);
size_t rb_proto_encode_info(uint8_t *buf, size_t cap, const struct rb_proto_info *info);
size_t rb_proto_encode_snapshot(uint8_t *buf, size_t cap, const struct rb_proto_snapshot *s);
size_t rb_proto_encode_square(uint8_t *buf, size_t cap, const struct rb_proto_square *e);
size_t rb_proto_encode_button(uint8_t *buf, size_t cap, const struct rb_proto_button *e);
size_t rb_proto_encode_fault(uint8_t *buf, size_t cap, const struct rb_proto_fault *f);
size_t rb_proto_encode_pong(uint8_t *buf, size_t cap, const struct rb_proto_pong *p);

/* Sequence arithmetic: how many events lie between the last seen seq and a new one
 * (new - last, modulo 2^16). 1 means no loss; a snapshot's seq resynchronises the count. */
static inline uint16_t rb_proto_seq_gap(uint16_t last, uint16_t next)
{
    return (uint16_t)(next - last);
}

#endif /* RB_PROTO_H */
