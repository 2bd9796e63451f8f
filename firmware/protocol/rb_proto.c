/* rb_proto.c - frame encoder and incremental decoder of the reedboard wire protocol.
 *
 * Pure C: no allocation, no I/O, no platform headers; the same object code runs on the AVR and
 * on the host. Names for printing live in rb_proto_names.c so the firmware does not carry them.
 */
#include "rb_proto.h"

#include <string.h>

uint16_t rb_proto_crc16(uint16_t crc, const uint8_t *data, size_t len)
{
    /* Byte at a time without a table (a table would cost the AVR 512 bytes of RAM): for the
     * polynomial 0x1021 the eight shift/xor steps fold into these three xors. */
    for (size_t i = 0; i < len; i++) {
        uint8_t x = (uint8_t)((crc >> 8) ^ data[i]);
        x ^= (uint8_t)(x >> 4);
        crc = (uint16_t)((crc << 8) ^ ((uint16_t)x << 12) ^ ((uint16_t)x << 5) ^ x);
    }
    return crc;
}

int rb_proto_payload_len(uint8_t type)
{
    switch (type) {
    case RB_PROTO_GET_INFO:
        return RB_PROTO_LEN_GET_INFO;
    case RB_PROTO_GET_SNAPSHOT:
        return RB_PROTO_LEN_GET_SNAPSHOT;
    case RB_PROTO_SET_OPTIONS:
        return RB_PROTO_LEN_SET_OPTIONS;
    case RB_PROTO_PING:
        return RB_PROTO_LEN_PING;
    case RB_PROTO_SET_OUTPUTS:
        return RB_PROTO_LEN_SET_OUTPUTS;
    case RB_PROTO_SET_SERIAL:
        return RB_PROTO_LEN_SET_SERIAL;
    case RB_PROTO_INFO:
        return RB_PROTO_LEN_INFO;
    case RB_PROTO_SNAPSHOT:
        return RB_PROTO_LEN_SNAPSHOT;
    case RB_PROTO_SQUARE:
        return RB_PROTO_LEN_SQUARE;
    case RB_PROTO_BUTTON:
        return RB_PROTO_LEN_BUTTON;
    case RB_PROTO_FAULT:
        return RB_PROTO_LEN_FAULT;
    case RB_PROTO_PONG:
        return RB_PROTO_LEN_PONG;
    default:
        return -1;
    }
}

/* ---- field validity, shared by encoder and decoder ---- */

static int options_ok(const struct rb_proto_options *o)
{
    return o->debounce_ms >= RB_PROTO_DEBOUNCE_MIN && o->debounce_ms <= RB_PROTO_DEBOUNCE_MAX &&
           (o->snapshot_period_ms == 0 || o->snapshot_period_ms >= RB_PROTO_SNAPSHOT_MIN_MS) &&
           (o->events & (uint8_t) ~(RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST)) == 0;
}

static int outputs_ok(const struct rb_proto_outputs *o)
{
    return o->led <= RB_PROTO_LED_ON && o->beep_ms <= RB_PROTO_BEEP_MAX_MS;
}

static int snapshot_ok(const struct rb_proto_snapshot *s)
{
    return s->reason <= RB_PROTO_SNAP_OVERRUN && (s->buttons >> RB_PROTO_BUTTONS) == 0;
}

static int square_ok(const struct rb_proto_square *e)
{
    return e->square < RB_PROTO_SQUARES && e->placed <= 1;
}

static int button_ok(const struct rb_proto_button *e)
{
    return e->button < RB_PROTO_BUTTONS && e->down <= 1;
}

static int fault_ok(const struct rb_proto_fault *f)
{
    return f->code >= RB_PROTO_FAULT_STUCK_SQUARE && f->code <= RB_PROTO_FAULT_SELF_TEST;
}

/* ---- little-endian field access ---- */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* ---- encoders ---- */

/* Checks room for a frame of len payload bytes; the payload goes to buf + 3. */
static int room(size_t cap, uint8_t len)
{
    return cap >= (size_t)len + RB_PROTO_OVERHEAD;
}

/* Writes header and CRC around the payload already at buf + 3. */
static size_t finish(uint8_t *buf, uint8_t type, uint8_t len)
{
    buf[0] = RB_PROTO_SYNC;
    buf[1] = len;
    buf[2] = type;
    put16(buf + 3 + len, rb_proto_crc16(0xFFFFu, buf + 1, (size_t)len + 2));
    return (size_t)len + RB_PROTO_OVERHEAD;
}

static size_t encode_empty(uint8_t *buf, size_t cap, uint8_t type)
{
    if (!buf || !room(cap, 0)) {
        return 0;
    }
    return finish(buf, type, 0);
}

size_t rb_proto_encode_get_info(uint8_t *buf, size_t cap)
{
    return encode_empty(buf, cap, RB_PROTO_GET_INFO);
}

size_t rb_proto_encode_get_snapshot(uint8_t *buf, size_t cap)
{
    return encode_empty(buf, cap, RB_PROTO_GET_SNAPSHOT);
}

size_t rb_proto_encode_set_options(uint8_t *buf, size_t cap, const struct rb_proto_options *o)
{
    if (!buf || !o || !room(cap, RB_PROTO_LEN_SET_OPTIONS) || !options_ok(o)) {
        return 0;
    }
    buf[3] = o->debounce_ms;
    put16(buf + 4, o->snapshot_period_ms);
    buf[6] = o->events;
    return finish(buf, RB_PROTO_SET_OPTIONS, RB_PROTO_LEN_SET_OPTIONS);
}

size_t rb_proto_encode_ping(uint8_t *buf, size_t cap, uint32_t token)
{
    if (!buf || !room(cap, RB_PROTO_LEN_PING)) {
        return 0;
    }
    put32(buf + 3, token);
    return finish(buf, RB_PROTO_PING, RB_PROTO_LEN_PING);
}

size_t rb_proto_encode_set_outputs(uint8_t *buf, size_t cap, const struct rb_proto_outputs *o)
{
    if (!buf || !o || !room(cap, RB_PROTO_LEN_SET_OUTPUTS) || !outputs_ok(o)) {
        return 0;
    }
    buf[3] = o->led;
    put16(buf + 4, o->beep_ms);
    return finish(buf, RB_PROTO_SET_OUTPUTS, RB_PROTO_LEN_SET_OUTPUTS);
}

size_t rb_proto_encode_set_serial(uint8_t *buf, size_t cap, uint32_t serial)
{
    if (!buf || !room(cap, RB_PROTO_LEN_SET_SERIAL) || serial == 0 ||
        serial > RB_PROTO_SERIAL_MAX) {
        return 0;
    }
    put32(buf + 3, serial);
    return finish(buf, RB_PROTO_SET_SERIAL, RB_PROTO_LEN_SET_SERIAL);
}

size_t rb_proto_encode_info(uint8_t *buf, size_t cap, const struct rb_proto_info *info)
{
    if (!buf || !info || !room(cap, RB_PROTO_LEN_INFO)) {
        return 0;
    }
    uint8_t *p = buf + 3;
    p[0] = info->proto_version;
    p[1] = info->fw_major;
    p[2] = info->fw_minor;
    p[3] = info->fw_patch;
    put32(p + 4, info->serial);
    put16(p + 8, info->features);
    p[10] = info->debounce_ms;
    put16(p + 11, info->scan_period_us);
    put16(p + 13, info->snapshot_period_ms);
    p[15] = info->events;
    return finish(buf, RB_PROTO_INFO, RB_PROTO_LEN_INFO);
}

size_t rb_proto_encode_snapshot(uint8_t *buf, size_t cap, const struct rb_proto_snapshot *s)
{
    if (!buf || !s || !room(cap, RB_PROTO_LEN_SNAPSHOT) || !snapshot_ok(s)) {
        return 0;
    }
    uint8_t *p = buf + 3;
    put16(p, s->seq);
    put32(p + 2, s->ms);
    put64(p + 6, s->occupancy);
    put64(p + 14, s->raw);
    p[22] = s->buttons;
    p[23] = s->reason;
    return finish(buf, RB_PROTO_SNAPSHOT, RB_PROTO_LEN_SNAPSHOT);
}

/* SQUARE and BUTTON share one layout: seq, ms, id, state. */
static size_t encode_event(uint8_t *buf, uint8_t type, uint16_t seq, uint32_t ms, uint8_t id,
                           uint8_t state)
{
    put16(buf + 3, seq);
    put32(buf + 5, ms);
    buf[9] = id;
    buf[10] = state;
    return finish(buf, type, RB_PROTO_LEN_SQUARE);
}

size_t rb_proto_encode_square(uint8_t *buf, size_t cap, const struct rb_proto_square *e)
{
    if (!buf || !e || !room(cap, RB_PROTO_LEN_SQUARE) || !square_ok(e)) {
        return 0;
    }
    return encode_event(buf, RB_PROTO_SQUARE, e->seq, e->ms, e->square, e->placed);
}

size_t rb_proto_encode_button(uint8_t *buf, size_t cap, const struct rb_proto_button *e)
{
    if (!buf || !e || !room(cap, RB_PROTO_LEN_BUTTON) || !button_ok(e)) {
        return 0;
    }
    return encode_event(buf, RB_PROTO_BUTTON, e->seq, e->ms, e->button, e->down);
}

size_t rb_proto_encode_fault(uint8_t *buf, size_t cap, const struct rb_proto_fault *f)
{
    if (!buf || !f || !room(cap, RB_PROTO_LEN_FAULT) || !fault_ok(f)) {
        return 0;
    }
    put16(buf + 3, f->seq);
    put32(buf + 5, f->ms);
    buf[9] = f->code;
    buf[10] = f->arg;
    put16(buf + 11, f->detail);
    return finish(buf, RB_PROTO_FAULT, RB_PROTO_LEN_FAULT);
}

size_t rb_proto_encode_pong(uint8_t *buf, size_t cap, const struct rb_proto_pong *p)
{
    if (!buf || !p || !room(cap, RB_PROTO_LEN_PONG)) {
        return 0;
    }
    put32(buf + 3, p->token);
    put32(buf + 7, p->ms);
    return finish(buf, RB_PROTO_PONG, RB_PROTO_LEN_PONG);
}

size_t rb_proto_encode(uint8_t *buf, size_t cap, const struct rb_proto_msg *msg)
{
    if (!msg) {
        return 0;
    }
    switch (msg->type) {
    case RB_PROTO_GET_INFO:
        return rb_proto_encode_get_info(buf, cap);
    case RB_PROTO_GET_SNAPSHOT:
        return rb_proto_encode_get_snapshot(buf, cap);
    case RB_PROTO_SET_OPTIONS:
        return rb_proto_encode_set_options(buf, cap, &msg->u.options);
    case RB_PROTO_PING:
        return rb_proto_encode_ping(buf, cap, msg->u.ping_token);
    case RB_PROTO_SET_OUTPUTS:
        return rb_proto_encode_set_outputs(buf, cap, &msg->u.outputs);
    case RB_PROTO_SET_SERIAL:
        return rb_proto_encode_set_serial(buf, cap, msg->u.serial);
    case RB_PROTO_INFO:
        return rb_proto_encode_info(buf, cap, &msg->u.info);
    case RB_PROTO_SNAPSHOT:
        return rb_proto_encode_snapshot(buf, cap, &msg->u.snapshot);
    case RB_PROTO_SQUARE:
        return rb_proto_encode_square(buf, cap, &msg->u.square);
    case RB_PROTO_BUTTON:
        return rb_proto_encode_button(buf, cap, &msg->u.button);
    case RB_PROTO_FAULT:
        return rb_proto_encode_fault(buf, cap, &msg->u.fault);
    case RB_PROTO_PONG:
        return rb_proto_encode_pong(buf, cap, &msg->u.pong);
    default:
        return 0;
    }
}

/* ---- decoder ---- */

/* Turns a CRC-checked frame body into a message; returns RB_PROTO_REJECT_NONE or the reason. */
static uint8_t parse(uint8_t type, const uint8_t *p, uint8_t len, struct rb_proto_msg *m)
{
    int want = rb_proto_payload_len(type);
    if (want < 0) {
        return RB_PROTO_REJECT_TYPE;
    }
    if (want != len) {
        return RB_PROTO_REJECT_LENGTH;
    }
    memset(m, 0, sizeof *m);
    m->type = type;
    int ok = 1;
    switch (type) {
    case RB_PROTO_SET_OPTIONS:
        m->u.options.debounce_ms = p[0];
        m->u.options.snapshot_period_ms = get16(p + 1);
        m->u.options.events = p[3];
        ok = options_ok(&m->u.options);
        break;
    case RB_PROTO_PING:
        m->u.ping_token = get32(p);
        break;
    case RB_PROTO_SET_OUTPUTS:
        m->u.outputs.led = p[0];
        m->u.outputs.beep_ms = get16(p + 1);
        ok = outputs_ok(&m->u.outputs);
        break;
    case RB_PROTO_SET_SERIAL:
        m->u.serial = get32(p);
        ok = m->u.serial != 0 && m->u.serial <= RB_PROTO_SERIAL_MAX;
        break;
    case RB_PROTO_INFO:
        m->u.info.proto_version = p[0];
        m->u.info.fw_major = p[1];
        m->u.info.fw_minor = p[2];
        m->u.info.fw_patch = p[3];
        m->u.info.serial = get32(p + 4);
        m->u.info.features = get16(p + 8);
        m->u.info.debounce_ms = p[10];
        m->u.info.scan_period_us = get16(p + 11);
        m->u.info.snapshot_period_ms = get16(p + 13);
        m->u.info.events = p[15];
        break;
    case RB_PROTO_SNAPSHOT:
        m->u.snapshot.seq = get16(p);
        m->u.snapshot.ms = get32(p + 2);
        m->u.snapshot.occupancy = get64(p + 6);
        m->u.snapshot.raw = get64(p + 14);
        m->u.snapshot.buttons = p[22];
        m->u.snapshot.reason = p[23];
        ok = snapshot_ok(&m->u.snapshot);
        break;
    case RB_PROTO_SQUARE:
        m->u.square.seq = get16(p);
        m->u.square.ms = get32(p + 2);
        m->u.square.square = p[6];
        m->u.square.placed = p[7];
        ok = square_ok(&m->u.square);
        break;
    case RB_PROTO_BUTTON:
        m->u.button.seq = get16(p);
        m->u.button.ms = get32(p + 2);
        m->u.button.button = p[6];
        m->u.button.down = p[7];
        ok = button_ok(&m->u.button);
        break;
    case RB_PROTO_FAULT:
        m->u.fault.seq = get16(p);
        m->u.fault.ms = get32(p + 2);
        m->u.fault.code = p[6];
        m->u.fault.arg = p[7];
        m->u.fault.detail = get16(p + 8);
        ok = fault_ok(&m->u.fault);
        break;
    case RB_PROTO_PONG:
        m->u.pong.token = get32(p);
        m->u.pong.ms = get32(p + 4);
        break;
    default: /* GET_INFO, GET_SNAPSHOT: no payload */
        break;
    }
    return ok ? RB_PROTO_REJECT_NONE : RB_PROTO_REJECT_FIELD;
}

void rb_proto_decoder_init(struct rb_proto_decoder *d)
{
    memset(d, 0, sizeof *d);
}

/* Removes the first n held bytes. */
static void consume(struct rb_proto_decoder *d, uint8_t n)
{
    if (n >= d->have) {
        d->have = 0;
        return;
    }
    d->have = (uint8_t)(d->have - n);
    memmove(d->buf, d->buf + n, d->have);
}

static void reject(struct rb_proto_decoder *d, uint8_t why)
{
    d->last_reject = why;
}

int rb_proto_decoder_next(struct rb_proto_decoder *d, struct rb_proto_msg *out)
{
    for (;;) {
        /* Skip to the next SYNC; after a rejection this rescans the candidate's own bytes. */
        uint8_t skip = 0;
        while (skip < d->have && d->buf[skip] != RB_PROTO_SYNC) {
            skip++;
        }
        if (skip) {
            /* Counted, but last_reject keeps the reason that started the rescan. */
            d->stats.garbage_bytes += skip;
            consume(d, skip);
        }
        if (d->have < 2) {
            return 0;
        }
        uint8_t len = d->buf[1];
        if (len > RB_PROTO_MAX_PAYLOAD) {
            d->stats.oversize++;
            reject(d, RB_PROTO_REJECT_OVERSIZE);
            consume(d, 1);
            continue;
        }
        uint8_t total = (uint8_t)(len + RB_PROTO_OVERHEAD);
        if (d->have < total) {
            return 0;
        }
        uint16_t crc = rb_proto_crc16(0xFFFFu, d->buf + 1, (size_t)len + 2);
        if (crc != get16(d->buf + 3 + len)) {
            d->stats.bad_crc++;
            reject(d, RB_PROTO_REJECT_CRC);
            consume(d, 1);
            continue;
        }
        struct rb_proto_msg m;
        uint8_t type = d->buf[2];
        uint8_t why = parse(type, d->buf + 3, len, &m);
        consume(d, total);
        if (why != RB_PROTO_REJECT_NONE) {
            d->stats.bad_message++;
            d->last_bad_type = type;
            d->last_bad_reason = why;
            reject(d, why);
            continue;
        }
        d->stats.frames++;
        *out = m;
        return 1;
    }
}

int rb_proto_decoder_push(struct rb_proto_decoder *d, uint8_t byte, struct rb_proto_msg *out)
{
    if (d->have == 0 && byte != RB_PROTO_SYNC) {
        d->stats.garbage_bytes++;
        reject(d, RB_PROTO_REJECT_GARBAGE);
        return 0;
    }
    if (d->have >= sizeof d->buf) {
        /* Only reachable when complete frames were left undrained; make room, never overrun. */
        d->stats.garbage_bytes++;
        consume(d, 1);
    }
    d->buf[d->have++] = byte;
    return rb_proto_decoder_next(d, out);
}

size_t rb_proto_decoder_feed(struct rb_proto_decoder *d, const uint8_t *data, size_t len,
                             rb_proto_msg_fn fn, void *ctx)
{
    size_t n = 0;
    struct rb_proto_msg m;
    for (size_t i = 0; i < len; i++) {
        if (!rb_proto_decoder_push(d, data[i], &m)) {
            continue;
        }
        do {
            n++;
            if (fn) {
                fn(ctx, &m);
            }
        } while (rb_proto_decoder_next(d, &m));
    }
    return n;
}

void rb_proto_decoder_reset(struct rb_proto_decoder *d)
{
    if (d->have) {
        d->stats.truncated++;
        reject(d, RB_PROTO_REJECT_TRUNCATED);
    }
    d->have = 0;
}
