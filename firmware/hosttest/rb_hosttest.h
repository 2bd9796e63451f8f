/* rb_hosttest.h - the host test port of the reedboard HAL: a simulated board for unit tests.
 *
 * Implements rb_hal.h over one simulated board (the HAL is a link-time singleton, as on the
 * AVR). Tests set squares, buttons and time by hand, feed received bytes and read back every
 * byte the core sent; nothing sleeps and nothing touches real hardware. */
#ifndef RB_HOSTTEST_H
#define RB_HOSTTEST_H

#include <stddef.h>
#include <stdint.h>

#define RB_HOSTTEST_TX_LOG 65536u
#define RB_HOSTTEST_RX_MAX 4096u

struct rb_hosttest {
    uint64_t squares;     /* bit n = a piece on square n (switch closed) */
    uint8_t row_short;    /* ranks whose row line is stuck low (fault injection) */
    uint64_t dead;        /* squares whose switch or diode never conducts (fault injection) */
    uint8_t rows_bridged; /* ranks whose lines are joined: one low pulls all low (injection) */
    uint8_t buttons;      /* bit n = button n held down */
    uint32_t now_ms;
    uint32_t clock_reads; /* rb_hal_now_ms() calls */
    uint8_t column;       /* selected file, or RB_HAL_COLUMN_NONE */
    uint32_t column_selects;
    uint8_t led, buzzer;
    uint32_t led_writes;
    /* receive side: bytes the core will read */
    uint8_t rx[RB_HOSTTEST_RX_MAX];
    size_t rx_len, rx_pos;
    uint8_t rx_errors;
    /* transmit side: every byte written, and a buffer that drains at the line rate */
    uint8_t tx[RB_HOSTTEST_TX_LOG];
    size_t tx_len;
    uint8_t tx_cap;      /* size of the simulated transmit buffer */
    uint32_t tx_pending; /* bytes written but not yet on the line */
    /* EEPROM: erased (all ones) after reset; a write keeps it busy for eeprom_busy_ms */
    uint8_t eeprom[16];
    uint32_t eeprom_writes;
    uint32_t eeprom_busy_until;
};

/* The one simulated board. */
extern struct rb_hosttest rb_hosttest;

/* Resets the board: empty squares, time 0, a 64-byte transmit buffer. */
void rb_hosttest_reset(void);
/* Advances time by ms and drains the transmit buffer at 115200 baud (11.52 bytes per ms). */
void rb_hosttest_advance(uint32_t ms);
/* Queues bytes as if received from the host. */
void rb_hosttest_receive(const uint8_t *data, size_t len);
void rb_hosttest_set_square(uint8_t square, int occupied);

#endif /* RB_HOSTTEST_H */
