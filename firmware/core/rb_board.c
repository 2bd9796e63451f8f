/* rb_board.c - one tick of the board: scan, debounce, events and faults, requests, frames out.
 *
 * The board is silent until the host's first valid request (a Nano resets when the port opens,
 * so anything sent earlier is lost anyway). From then on every debounced change becomes an event
 * with the next sequence number; a full queue drops the event but not its number, and a
 * QUEUE_OVERRUN fault plus a snapshot follow as soon as there is room. Sending never waits: a
 * frame goes out only when the whole frame fits in the UART buffer, otherwise it stays queued. */
#include "rb_core.h"
#include "rb_hal.h"

#include <string.h>

#define WANT_SNAPSHOT(reason) ((uint8_t)((reason) + 1u))
#define RX_BYTES_PER_TICK     64u

void rb_config_default(struct rb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->scan_period_us = (uint16_t)(1000000ul / RB_SCAN_HZ);
    cfg->debounce_ms = RB_DEBOUNCE_MS;
    cfg->button_debounce_ms = RB_BUTTON_DEBOUNCE_MS;
    cfg->snapshot_period_ms = RB_SNAPSHOT_MS;
}

void rb_board_init(struct rb_board *b, const struct rb_config *cfg)
{
    memset(b, 0, sizeof *b);
    b->cfg = *cfg;
    b->events = RB_PROTO_EV_ALL;
    b->led_mode = RB_PROTO_LED_AUTO;
    rb_queue_init(&b->queue);
    rb_proto_decoder_init(&b->dec);
    b->last_ms = rb_hal_now_ms();
    b->last_decay_ms = b->last_ms;
    b->boot_ms = b->last_ms;
    rb_hal_select_column(RB_HAL_COLUMN_NONE);
    rb_hal_led(0);
    rb_hal_buzzer(0);
}

uint64_t rb_matrix_to_bits(const uint8_t m[RB_FILES])
{
    /* Transpose file-major to rank-major with shifting masks: the AVR has no barrel shifter. */
    uint8_t rank[8] = {0};
    uint8_t fbit = 1;
    for (uint8_t f = 0; f < RB_FILES; f++, fbit = (uint8_t)(fbit << 1)) {
        uint8_t col = m[f];
        for (uint8_t r = 0; col; r++, col = (uint8_t)(col >> 1)) {
            if (col & 1u) {
                rank[r] |= fbit;
            }
        }
    }
    uint32_t lo = (uint32_t)rank[0] | (uint32_t)rank[1] << 8 | (uint32_t)rank[2] << 16 |
                  (uint32_t)rank[3] << 24;
    uint32_t hi = (uint32_t)rank[4] | (uint32_t)rank[5] << 8 | (uint32_t)rank[6] << 16 |
                  (uint32_t)rank[7] << 24;
    return (uint64_t)hi << 32 | lo;
}

static uint8_t after(uint32_t now, uint32_t until)
{
    return (int32_t)(until - now) > 0;
}

/* ---- events ---- */

static void push_event(struct rb_board *b, uint32_t now, uint8_t type, uint8_t id, uint8_t state,
                       uint16_t detail)
{
    struct rb_event e = {
        .seq = ++b->seq, .ms = now, .type = type, .id = id, .state = state, .detail = detail};
    if (rb_queue_push(&b->queue, &e)) {
        b->led_off_until = now + RB_LED_BLINK_MS;
    } else if (b->lost < 0xFFFFu) {
        b->lost++;
    }
}

/* Reports dropped events once there is room; the mask cannot silence this fault. */
static void report_overrun(struct rb_board *b, uint32_t now)
{
    if (!b->lost || b->queue.count >= RB_QUEUE_LEN) {
        return;
    }
    uint16_t lost = b->lost;
    b->lost = 0;
    push_event(b, now, RB_PROTO_FAULT, RB_PROTO_FAULT_QUEUE_OVERRUN, 0, lost);
    if (!b->want_snapshot) {
        b->want_snapshot = WANT_SNAPSHOT(RB_PROTO_SNAP_OVERRUN);
    }
}

/* Generates an event unless the host is not listening yet or the kind is disabled; returns 1
 * when the event took a sequence number (it is then reported, or counted as lost). */
static uint8_t emit(struct rb_board *b, uint32_t now, uint8_t enable, uint8_t type, uint8_t id,
                    uint8_t state, uint16_t detail)
{
    if (!b->active || !(b->events & enable)) {
        return 0;
    }
    report_overrun(b, now);
    push_event(b, now, type, id, state, detail);
    return 1;
}

uint8_t rb_board_fault(struct rb_board *b, uint32_t now, uint8_t code, uint8_t arg, uint16_t detail)
{
    return emit(b, now, RB_PROTO_EV_FAULTS, RB_PROTO_FAULT, code, arg, detail);
}

/* ---- sensing ---- */

/* Reads every file, then the rows with all columns blanked: any closed row then is a fault. */
static uint8_t scan(struct rb_board *b)
{
    for (uint8_t f = 0; f < RB_FILES; f++) {
        rb_hal_select_column(f);
        b->raw[f] = rb_hal_read_rows();
    }
    rb_hal_select_column(RB_HAL_COLUMN_NONE);
    return rb_hal_read_rows();
}

static uint8_t count_bits(const uint8_t *m, uint8_t n)
{
    uint8_t c = 0;
    for (uint8_t i = 0; i < n; i++) {
        for (uint8_t v = m[i]; v; v &= (uint8_t)(v - 1)) {
            c++;
        }
    }
    return c;
}

static void chatter(struct rb_board *b, uint32_t now, uint8_t sq)
{
    uint8_t score = b->chatter[sq] & 0x7Fu, reported = b->chatter[sq] & 0x80u;
    if (score < 0x7Fu) {
        score++;
    }
    if (score >= RB_CHATTER_LIMIT && !reported &&
        rb_board_fault(b, now, RB_PROTO_FAULT_STUCK_SQUARE, sq, score)) {
        reported = 0x80u;
    }
    b->chatter[sq] = (uint8_t)(score | reported);
}

/* Halves every chatter score once a period, so only sustained flicker reaches the limit; a
 * square whose score has decayed to zero may be reported again. */
static void decay_chatter(struct rb_board *b, uint32_t now)
{
    if (now - b->last_decay_ms < RB_CHATTER_DECAY) {
        return;
    }
    b->last_decay_ms = now;
    for (uint8_t sq = 0; sq < RB_PROTO_SQUARES; sq++) {
        uint8_t score = (uint8_t)((b->chatter[sq] & 0x7Fu) >> 1);
        b->chatter[sq] = score ? (uint8_t)(score | (b->chatter[sq] & 0x80u)) : 0;
    }
}

static void squares(struct rb_board *b, uint32_t now, uint8_t elapsed)
{
    uint8_t row_low = scan(b);
    uint8_t frozen[RB_FILES];
    const uint8_t *in = b->raw;
    if (row_low) {
        /* A row that is low with no column selected makes every reading on its rank a lie:
         * hold the debounced state until it clears. */
        memcpy(frozen, b->cooked, sizeof frozen);
        in = frozen;
    }
    if (row_low != b->row_fault) {
        if (!row_low ||
            rb_board_fault(b, now, RB_PROTO_FAULT_MATRIX, RB_PROTO_MATRIX_ROW_LOW, row_low)) {
            b->row_fault = row_low;
        }
    }

    uint8_t changed[RB_FILES], aborted[RB_FILES];
    uint8_t n = rb_debounce(b->timers, in, b->cooked, changed, aborted, RB_FILES, elapsed,
                            b->cfg.debounce_ms);
    uint8_t ranks = 0; /* ranks with a change or a cancelled countdown: usually none */
    for (uint8_t f = 0; f < RB_FILES; f++) {
        ranks |= (uint8_t)(changed[f] | aborted[f]);
    }
    /* Square order (a1, b1, ... h8) so simultaneous changes are reported rank by rank. */
    for (uint8_t r = 0, bit = 1; ranks && r < 8; r++, bit = (uint8_t)(bit << 1)) {
        if (!(ranks & bit)) {
            continue;
        }
        for (uint8_t f = 0; f < RB_FILES; f++) {
            if (!((changed[f] | aborted[f]) & bit)) {
                continue;
            }
            uint8_t sq = (uint8_t)(r * 8u + f);
            if (changed[f] & bit) {
                emit(b, now, RB_PROTO_EV_SQUARES, RB_PROTO_SQUARE, sq, (b->cooked[f] & bit) ? 1 : 0,
                     0);
            } else {
                chatter(b, now, sq);
            }
        }
    }

    /* More pieces than a chess set has: counted on the debounced state when it changes. */
    if (n) {
        b->pieces = count_bits(b->cooked, RB_FILES);
    }
    if (b->pieces <= RB_MAX_PIECES) {
        b->too_many = 0;
    } else if (!b->too_many &&
               rb_board_fault(b, now, RB_PROTO_FAULT_MATRIX, RB_PROTO_MATRIX_TOO_MANY, b->pieces)) {
        b->too_many = 1;
    }
}

static void buttons(struct rb_board *b, uint32_t now, uint8_t elapsed)
{
    uint8_t changed;
    b->btn_raw = (uint8_t)(rb_hal_read_buttons() & ((1u << RB_PROTO_BUTTONS) - 1u));
    rb_debounce(b->btn_timers, &b->btn_raw, &b->btn_cooked, &changed, NULL, 1, elapsed,
                b->cfg.button_debounce_ms);
    for (uint8_t id = 0; id < RB_PROTO_BUTTONS; id++) {
        uint8_t bit = (uint8_t)(1u << id);
        if (changed & bit) {
            emit(b, now, RB_PROTO_EV_BUTTONS, RB_PROTO_BUTTON, id, (b->btn_cooked & bit) ? 1 : 0,
                 0);
        }
    }
}

/* ---- requests ---- */

static void apply_options(struct rb_board *b, uint32_t now, const struct rb_proto_options *o)
{
    b->cfg.debounce_ms = o->debounce_ms;
    for (uint8_t i = 0; i < sizeof b->timers; i++) {
        if (b->timers[i] > o->debounce_ms) {
            b->timers[i] = o->debounce_ms;
        }
    }
    if (o->snapshot_period_ms != b->cfg.snapshot_period_ms) {
        b->cfg.snapshot_period_ms = o->snapshot_period_ms;
        b->last_snapshot_ms = now;
    }
    b->events = (uint8_t)(o->events & RB_PROTO_EV_ALL);
    if (!(o->events & RB_PROTO_OPT_SELF_TEST)) {
        rb_selftest_stop(b);
    } else if (!rb_selftest_running(b)) {
        rb_selftest_start(b, now);
    }
}

static void handle(struct rb_board *b, uint32_t now, const struct rb_proto_msg *m)
{
    if (m->type & 0x80u) {
        /* A board-to-host message sent to the board: well formed, but not a request. */
        rb_board_fault(b, now, RB_PROTO_FAULT_BAD_REQUEST, m->type, RB_PROTO_REJECT_TYPE);
        return;
    }
    if (!b->active) {
        b->active = 1;
        b->last_snapshot_ms = now;
    }
    switch (m->type) {
    case RB_PROTO_GET_INFO:
        b->want_info = 1;
        break;
    case RB_PROTO_GET_SNAPSHOT:
        b->want_snapshot = WANT_SNAPSHOT(RB_PROTO_SNAP_REQUESTED);
        break;
    case RB_PROTO_SET_OPTIONS:
        apply_options(b, now, &m->u.options);
        b->want_info = 1;
        break;
    case RB_PROTO_PING:
        b->want_pong = 1;
        b->pong_token = m->u.ping_token;
        break;
    case RB_PROTO_SET_OUTPUTS:
        b->led_mode = m->u.outputs.led;
        b->beep_until = now + m->u.outputs.beep_ms;
        break;
    case RB_PROTO_SET_SERIAL:
        /* The identity is set once: a board that has one keeps it (the host names it by it). */
        if (b->cfg.serial && b->cfg.serial != m->u.serial) {
            rb_board_fault(b, now, RB_PROTO_FAULT_BAD_REQUEST, m->type, RB_PROTO_REJECT_REFUSED);
            break;
        }
        if (b->cfg.serial != m->u.serial) {
            b->cfg.serial = m->u.serial;
            b->serial_unsaved = 0x0Fu;
        }
        b->want_info = 1;
        break;
    default:
        break;
    }
}

/* One byte of a new serial per tick, when the EEPROM is free: no tick waits for a write. */
static void save_serial(struct rb_board *b)
{
    if (!b->serial_unsaved || !rb_hal_eeprom_ready()) {
        return;
    }
    uint8_t i = 0;
    while (!(b->serial_unsaved & (1u << i))) {
        i++;
    }
    rb_hal_eeprom_write((uint8_t)(RB_SERIAL_EEPROM_ADDR + i), (uint8_t)(b->cfg.serial >> (8u * i)));
    b->serial_unsaved &= (uint8_t) ~(1u << i);
}

static uint16_t clamp16(uint32_t v)
{
    return v > 0xFFFFu ? 0xFFFFu : (uint16_t)v;
}

static void receive(struct rb_board *b, uint32_t now)
{
    struct rb_proto_msg m;
    int c;
    for (uint8_t n = 0; n < RX_BYTES_PER_TICK && (c = rb_hal_uart_read()) >= 0; n++) {
        if (!rb_proto_decoder_push(&b->dec, (uint8_t)c, &m)) {
            continue;
        }
        do {
            handle(b, now, &m);
        } while (rb_proto_decoder_next(&b->dec, &m));
    }

    /* Damaged requests: reported once the host listens, so it knows a request may be lost. */
    const struct rb_proto_stats *s = &b->dec.stats;
    uint32_t errors = s->bad_crc + s->oversize;
    uint32_t fresh = (errors - b->rx_errors_seen) + rb_hal_uart_take_errors();
    b->rx_errors_seen = errors;
    if (fresh) {
        rb_board_fault(b, now, RB_PROTO_FAULT_RX_ERROR, 0, clamp16(fresh));
    }
    if (s->bad_message != b->bad_seen) {
        b->bad_seen = s->bad_message;
        rb_board_fault(b, now, RB_PROTO_FAULT_BAD_REQUEST, b->dec.last_bad_type,
                       b->dec.last_bad_reason);
    }
}

/* ---- frames out ---- */

static uint8_t send(const uint8_t *frame, size_t len)
{
    if (!len || len > rb_hal_uart_tx_free()) {
        return 0;
    }
    rb_hal_uart_write(frame, (uint8_t)len);
    return 1;
}

static uint8_t fits(uint8_t payload_len)
{
    return rb_hal_uart_tx_free() >= payload_len + RB_PROTO_OVERHEAD;
}

static size_t encode_info(const struct rb_board *b, uint8_t *frame)
{
    struct rb_proto_info info = {
        .proto_version = RB_PROTO_VERSION,
        .fw_major = RB_FW_MAJOR,
        .fw_minor = RB_FW_MINOR,
        .fw_patch = RB_FW_PATCH,
        .serial = b->cfg.serial,
        .features = RB_PROTO_FEAT_BUTTONS | RB_PROTO_FEAT_LED | RB_PROTO_FEAT_BUZZER |
                    RB_PROTO_FEAT_ROW_CHECK | RB_PROTO_FEAT_STUCK,
        .debounce_ms = b->cfg.debounce_ms,
        .scan_period_us = b->cfg.scan_period_us,
        .snapshot_period_ms = b->cfg.snapshot_period_ms,
        .events = (uint8_t)(b->events | (rb_selftest_running(b) ? RB_PROTO_OPT_SELF_TEST : 0u)),
    };
    return rb_proto_encode_info(frame, RB_PROTO_MAX_FRAME, &info);
}

static size_t encode_snapshot(struct rb_board *b, uint32_t now, uint8_t *frame)
{
    struct rb_proto_snapshot s = {
        .seq = b->seq,
        .ms = now,
        .occupancy = rb_matrix_to_bits(b->cooked),
        .raw = rb_matrix_to_bits(b->raw),
        .buttons = b->btn_cooked,
        .reason = (uint8_t)(b->want_snapshot - 1u),
    };
    return rb_proto_encode_snapshot(frame, RB_PROTO_MAX_FRAME, &s);
}

static size_t encode_event(const struct rb_event *e, uint8_t *frame)
{
    if (e->type == RB_PROTO_FAULT) {
        struct rb_proto_fault f = {e->seq, e->ms, e->id, e->state, e->detail};
        return rb_proto_encode_fault(frame, RB_PROTO_MAX_FRAME, &f);
    }
    if (e->type == RB_PROTO_BUTTON) {
        struct rb_proto_button bt = {e->seq, e->ms, e->id, e->state};
        return rb_proto_encode_button(frame, RB_PROTO_MAX_FRAME, &bt);
    }
    struct rb_proto_square sq = {e->seq, e->ms, e->id, e->state};
    return rb_proto_encode_square(frame, RB_PROTO_MAX_FRAME, &sq);
}

/* Answers first (they are what the host waits for), then events oldest first, each only when
 * the whole frame fits. */
static void transmit(struct rb_board *b, uint32_t now)
{
    uint8_t frame[RB_PROTO_MAX_FRAME];
    for (;;) {
        if (b->want_pong) {
            struct rb_proto_pong p = {b->pong_token, now};
            if (!send(frame, rb_proto_encode_pong(frame, sizeof frame, &p))) {
                return;
            }
            b->want_pong = 0;
        } else if (b->want_info) {
            if (!fits(RB_PROTO_LEN_INFO) || !send(frame, encode_info(b, frame))) {
                return;
            }
            b->want_info = 0;
        } else if (b->want_snapshot) {
            if (!fits(RB_PROTO_LEN_SNAPSHOT) || !send(frame, encode_snapshot(b, now, frame))) {
                return;
            }
            b->want_snapshot = 0;
            b->last_snapshot_ms = now;
        } else {
            const struct rb_event *e = rb_queue_peek(&b->queue);
            if (!e || !fits((uint8_t)rb_proto_payload_len(e->type)) ||
                !send(frame, encode_event(e, frame))) {
                return;
            }
            rb_queue_pop(&b->queue);
        }
    }
}

/* ---- outputs ---- */

static void outputs(struct rb_board *b, uint32_t now)
{
    uint8_t led;
    if (b->led_mode == RB_PROTO_LED_ON) {
        led = 1;
    } else if (b->led_mode == RB_PROTO_LED_OFF) {
        led = 0;
    } else if (!b->active) {
        led = (now & 512u) == 0; /* slow blink (about 1 Hz): waiting for the host */
    } else {
        led = !after(now, b->led_off_until);
    }
    uint8_t buzz = after(now, b->beep_until);
    if (led != b->led_on) {
        b->led_on = led;
        rb_hal_led(led);
    }
    if (buzz != b->buzzer_on) {
        b->buzzer_on = buzz;
        rb_hal_buzzer(buzz);
    }
}

void rb_board_tick(struct rb_board *b)
{
    uint32_t now = rb_hal_now_ms();
    uint32_t dt = now - b->last_ms;
    uint8_t elapsed = dt > 0xFFu ? 0xFFu : (uint8_t)dt;
    b->last_ms = now;

    squares(b, now, elapsed);
    buttons(b, now, elapsed);
    decay_chatter(b, now);
    receive(b, now);
    rb_selftest_tick(b, now);
    save_serial(b);
    if (b->active) {
        report_overrun(b, now);
        if (b->cfg.snapshot_period_ms && !b->want_snapshot &&
            now - b->last_snapshot_ms >= b->cfg.snapshot_period_ms) {
            b->want_snapshot = WANT_SNAPSHOT(RB_PROTO_SNAP_PERIODIC);
        }
        transmit(b, now);
    }
    outputs(b, now);
}
