/* rb_hal_host.c - rb_hal.h on a simulated board, for host unit tests of the core. */
#include "rb_hal.h"
#include "rb_hosttest.h"

#include <string.h>

struct rb_hosttest rb_hosttest;

void rb_hosttest_reset(void)
{
    memset(&rb_hosttest, 0, sizeof rb_hosttest);
    rb_hosttest.column = RB_HAL_COLUMN_NONE;
    rb_hosttest.tx_cap = 64;
    memset(rb_hosttest.eeprom, 0xFF, sizeof rb_hosttest.eeprom);
}

void rb_hosttest_advance(uint32_t ms)
{
    rb_hosttest.now_ms += ms;
    /* 115200 baud, 10 bits per byte: 11.52 bytes per ms, rounded down. */
    uint32_t sent = ms * 1152u / 100u;
    rb_hosttest.tx_pending = sent >= rb_hosttest.tx_pending ? 0 : rb_hosttest.tx_pending - sent;
}

void rb_hosttest_receive(const uint8_t *data, size_t len)
{
    if (rb_hosttest.rx_pos == rb_hosttest.rx_len) {
        rb_hosttest.rx_pos = rb_hosttest.rx_len = 0;
    }
    size_t room = sizeof rb_hosttest.rx - rb_hosttest.rx_len;
    if (len > room) {
        len = room;
    }
    memcpy(rb_hosttest.rx + rb_hosttest.rx_len, data, len);
    rb_hosttest.rx_len += len;
}

void rb_hosttest_set_square(uint8_t square, int occupied)
{
    uint64_t bit = (uint64_t)1 << (square & 63u);
    rb_hosttest.squares = occupied ? rb_hosttest.squares | bit : rb_hosttest.squares & ~bit;
}

void rb_hal_select_column(uint8_t file)
{
    rb_hosttest.column = file < 8 ? file : RB_HAL_COLUMN_NONE;
    rb_hosttest.column_selects++;
}

uint8_t rb_hal_read_rows(void)
{
    uint8_t rows = rb_hosttest.row_short;
    uint64_t closed = rb_hosttest.squares & ~rb_hosttest.dead;
    if (rb_hosttest.column < 8) {
        for (uint8_t r = 0; r < 8; r++) {
            if (closed >> (r * 8u + rb_hosttest.column) & 1u) {
                rows |= (uint8_t)(1u << r);
            }
        }
    }
    if (rows & rb_hosttest.rows_bridged) {
        rows |= rb_hosttest.rows_bridged;
    }
    return rows;
}

uint8_t rb_hal_read_buttons(void)
{
    return rb_hosttest.buttons;
}

void rb_hal_led(uint8_t on)
{
    rb_hosttest.led = on;
    rb_hosttest.led_writes++;
}

void rb_hal_buzzer(uint8_t on)
{
    rb_hosttest.buzzer = on;
}

uint32_t rb_hal_now_ms(void)
{
    rb_hosttest.clock_reads++;
    return rb_hosttest.now_ms;
}

int rb_hal_uart_read(void)
{
    if (rb_hosttest.rx_pos >= rb_hosttest.rx_len) {
        return -1;
    }
    return rb_hosttest.rx[rb_hosttest.rx_pos++];
}

uint8_t rb_hal_uart_take_errors(void)
{
    uint8_t n = rb_hosttest.rx_errors;
    rb_hosttest.rx_errors = 0;
    return n;
}

uint8_t rb_hal_uart_tx_free(void)
{
    uint32_t cap = rb_hosttest.tx_cap;
    return rb_hosttest.tx_pending >= cap ? 0 : (uint8_t)(cap - rb_hosttest.tx_pending);
}

void rb_hal_uart_write(const uint8_t *buf, uint8_t len)
{
    size_t room = sizeof rb_hosttest.tx - rb_hosttest.tx_len;
    memcpy(rb_hosttest.tx + rb_hosttest.tx_len, buf, len < room ? len : room);
    rb_hosttest.tx_len += len < room ? len : room;
    rb_hosttest.tx_pending += len;
}

uint8_t rb_hal_eeprom_ready(void)
{
    return rb_hosttest.now_ms >= rb_hosttest.eeprom_busy_until;
}

void rb_hal_eeprom_write(uint8_t addr, uint8_t value)
{
    if (addr < sizeof rb_hosttest.eeprom) {
        rb_hosttest.eeprom[addr] = value;
    }
    rb_hosttest.eeprom_writes++;
    rb_hosttest.eeprom_busy_until = rb_hosttest.now_ms + 4u; /* 3.3 ms on the ATmega328P */
}
