/* rb_core.h - the portable reedboard firmware: matrix scan, per-square deferred debounce, button
 * debounce, the event queue and the protocol handling (requests in, frames out).
 *
 * No platform headers and no I/O except through rb_hal.h. Everything the board knows lives in
 * struct rb_board; the port's main() owns one and calls rb_board_tick() once per scan period.
 *
 * Matrix layout in this module: m[f] is file f (a..h = 0..7), bit r is rank r+1, 1 = closed
 * switch = piece present; square = r * 8 + f (a1 = 0, as on the wire).
 */
#ifndef RB_CORE_H
#define RB_CORE_H

#include <stdint.h>

#include "rb_proto.h"

#define RB_FW_MAJOR 1u
#define RB_FW_MINOR 0u
#define RB_FW_PATCH 0u

/* Build options (CMake cache variables, passed as -D; docs/firmware.md justifies the defaults). */
#ifndef RB_DEBOUNCE_MS
#define RB_DEBOUNCE_MS 20u
#endif
#ifndef RB_BUTTON_DEBOUNCE_MS
#define RB_BUTTON_DEBOUNCE_MS 20u
#endif
#ifndef RB_SCAN_HZ
#define RB_SCAN_HZ 1000u
#endif
#ifndef RB_SNAPSHOT_MS
#define RB_SNAPSHOT_MS 1000u
#endif
#ifndef RB_QUEUE_LEN
#define RB_QUEUE_LEN 32u
#endif

#define RB_FILES            8u
#define RB_MAX_PIECES       32u   /* more occupied squares is an impossible reading */
#define RB_CHATTER_LIMIT    40u   /* chatter score that raises FAULT STUCK_SQUARE */
#define RB_CHATTER_DECAY    1000u /* ms between halvings of every chatter score */
#define RB_LED_BLINK_MS     50u   /* auto LED: off this long after each event */
#define RB_SELFTEST_HOLD_MS 1000u /* PROMOTE held this long from power-up starts the self-test */
/* The board serial (its identity) in EEPROM: four bytes, little-endian, from this address; an
 * erased EEPROM (all ones) means none. The port reads it into rb_config.serial at start. */
#define RB_SERIAL_EEPROM_ADDR 0u

/* ---- per-element deferred debounce (QMK sym_defer_pk semantics) ----
 *
 * A pure function over (raw, debounced, elapsed time): element i (bit i % 8 of byte i / 8) takes
 * its raw value only after the raw value has differed from the debounced one for debounce_ms
 * without a break. If raw returns to the debounced value first, the countdown is cancelled
 * (counted in aborted): chatter restarts the window, a blip shorter than the window does nothing.
 * timers holds nbytes * 8 countdowns (ms; 0 = idle) and is the only state. raw is never written.
 * changed (may be NULL) gets a 1 for every element whose debounced value changed, aborted (may
 * be NULL) a 1 for every cancelled countdown. Returns the number of changed elements. */
uint8_t rb_debounce(uint8_t *timers, const uint8_t *raw, uint8_t *cooked, uint8_t *changed,
                    uint8_t *aborted, uint8_t nbytes, uint8_t elapsed_ms, uint8_t debounce_ms);

/* ---- event queue ---- */

struct rb_event {
    uint16_t seq;
    uint32_t ms;
    uint8_t type;    /* RB_PROTO_SQUARE, RB_PROTO_BUTTON or RB_PROTO_FAULT */
    uint8_t id;      /* square, button or fault code */
    uint8_t state;   /* placed / down, or the fault's arg */
    uint16_t detail; /* fault detail */
};

struct rb_queue {
    struct rb_event ev[RB_QUEUE_LEN];
    uint8_t head; /* oldest */
    uint8_t count;
};

void rb_queue_init(struct rb_queue *q);
/* Appends a copy of *e; returns 1, or 0 (nothing changed) when the queue is full. */
uint8_t rb_queue_push(struct rb_queue *q, const struct rb_event *e);
/* The oldest event, or NULL when empty. */
const struct rb_event *rb_queue_peek(const struct rb_queue *q);
void rb_queue_pop(struct rb_queue *q);

/* ---- the self-test (rb_selftest.c) ---- */

struct rb_selftest {
    uint8_t state;           /* off, settling, walking the squares, done */
    uint8_t hold;            /* 0 while PROMOTE has been held since power-up */
    uint8_t expect;          /* the square the walk waits for; 64 = past h8 */
    uint8_t lifted;          /* the board has been clear since the last reading */
    uint8_t reported;        /* a wrong or bridged reading of this placement was reported */
    uint8_t good;            /* squares that closed as expected */
    uint8_t buttons;         /* debounced buttons at the previous tick (CLOCK skips) */
    uint8_t stuck[RB_FILES]; /* squares closed with the board cleared, file-major */
    uint32_t since_ms;       /* when the test began */
};

/* ---- the board ---- */

struct rb_config {
    uint32_t serial;             /* board serial for INFO (0 = none) */
    uint16_t scan_period_us;     /* reported in INFO */
    uint8_t debounce_ms;         /* squares, RB_PROTO_DEBOUNCE_MIN..MAX */
    uint8_t button_debounce_ms;  /* buttons */
    uint16_t snapshot_period_ms; /* 0 = off */
};

/* The build's defaults: RB_DEBOUNCE_MS, RB_SCAN_HZ, RB_BUTTON_DEBOUNCE_MS, RB_SNAPSHOT_MS. */
void rb_config_default(struct rb_config *cfg);

struct rb_board {
    struct rb_config cfg;
    /* sensing */
    uint8_t raw[RB_FILES];    /* last scan */
    uint8_t cooked[RB_FILES]; /* debounced */
    uint8_t timers[RB_FILES * 8];
    uint8_t chatter[RB_FILES * 8]; /* bit 7: fault reported; bits 0-6: score */
    uint8_t btn_raw, btn_cooked;
    uint8_t btn_timers[8];
    uint32_t last_ms;       /* time of the previous tick */
    uint32_t last_decay_ms; /* previous chatter decay */
    uint8_t row_fault;      /* rank mask reported by the last ROW_LOW fault */
    uint8_t pieces;         /* occupied squares, debounced */
    uint8_t too_many;       /* TOO_MANY reported and not yet cleared */
    /* options in force */
    uint8_t events; /* RB_PROTO_EV_* */
    /* host link */
    uint8_t active; /* the host has sent a valid request */
    uint16_t seq;   /* newest event seq generated */
    uint16_t lost;  /* events dropped since the last QUEUE_OVERRUN fault */
    struct rb_queue queue;
    struct rb_proto_decoder dec;
    uint32_t rx_errors_seen; /* decoder error total already reported */
    uint32_t bad_seen;       /* decoder bad_message total already reported */
    uint8_t want_info;
    uint8_t want_snapshot; /* 0 none, else 1 + enum rb_proto_snapshot_reason */
    uint8_t want_pong;
    uint32_t pong_token;
    uint32_t last_snapshot_ms;
    /* outputs */
    uint8_t led_mode; /* enum rb_proto_led_mode */
    uint32_t led_off_until;
    uint32_t beep_until;
    uint8_t led_on, buzzer_on; /* last levels written, so pins are only written on a change */
    uint32_t boot_ms;          /* rb_board_init's time */
    struct rb_selftest test;
    uint8_t serial_unsaved; /* bit i: byte i of cfg.serial still to be written to EEPROM */
};

void rb_board_init(struct rb_board *b, const struct rb_config *cfg);

/* One period of work: reads the clock once, scans the matrix and the buttons, debounces, queues
 * events and faults, handles received requests and sends what fits in the transmit buffer.
 * Never waits for the UART. */
void rb_board_tick(struct rb_board *b);

/* Queues a FAULT event (when the host listens and faults are enabled); 1 = it took a seq. */
uint8_t rb_board_fault(struct rb_board *b, uint32_t now, uint8_t code, uint8_t arg,
                       uint16_t detail);

/* The self-test (RB_PROTO_OPT_SELF_TEST; docs/firmware.md, "Self-test"). rb_board_tick calls
 * rb_selftest_tick after each scan; start and stop are the host's requests. */
void rb_selftest_start(struct rb_board *b, uint32_t now);
void rb_selftest_stop(struct rb_board *b);
uint8_t rb_selftest_running(const struct rb_board *b);
void rb_selftest_tick(struct rb_board *b, uint32_t now);

/* Converts a file-major matrix into a wire bitboard (bit n = square n). */
uint64_t rb_matrix_to_bits(const uint8_t m[RB_FILES]);

#endif /* RB_CORE_H */
