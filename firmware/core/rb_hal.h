/* rb_hal.h - the only door from the reedboard core to hardware.
 *
 * The core (firmware/core/) includes no platform header; every pin, timer and UART access goes
 * through these functions. firmware/avr/ implements them on the ATmega328P, firmware/hosttest/
 * on a simulated board for the host unit tests. The port is chosen at link time, so there is
 * exactly one implementation in any program.
 *
 * None of these functions may block for longer than a column settle time; the core calls them
 * from its 1 kHz tick.
 */
#ifndef RB_HAL_H
#define RB_HAL_H

#include <stdint.h>

#define RB_HAL_COLUMN_NONE 0xFFu /* rb_hal_select_column(): blank every column */

/* Selects file 0..7 (a..h) by driving its column low, or blanks all columns for
 * RB_HAL_COLUMN_NONE, and returns once the row lines have settled. */
void rb_hal_select_column(uint8_t file);

/* Reads the eight row lines: bit r set = rank r+1 reads closed (pulled low through a switch on
 * the selected column). With every column blanked a set bit means a fault. */
uint8_t rb_hal_read_rows(void);

/* Reads the buttons: bit n set = button n (enum rb_proto_button_id) pressed. */
uint8_t rb_hal_read_buttons(void);

void rb_hal_led(uint8_t on);
void rb_hal_buzzer(uint8_t on);

/* Milliseconds since start-up; wraps at 2^32. */
uint32_t rb_hal_now_ms(void);

/* Next received byte (0..255), or -1 when none is waiting. */
int rb_hal_uart_read(void);

/* Received bytes lost or damaged (buffer overrun, framing error) since the previous call. */
uint8_t rb_hal_uart_take_errors(void);

/* Free space in the transmit buffer, in bytes. */
uint8_t rb_hal_uart_tx_free(void);

/* Queues len bytes for sending and returns at once; the caller guarantees
 * len <= rb_hal_uart_tx_free(), so a frame is never split. */
void rb_hal_uart_write(const uint8_t *buf, uint8_t len);

/* EEPROM, one byte at a time so no call waits for a write (3.3 ms each on the ATmega328P):
 * rb_hal_eeprom_ready() is non-zero when no write is in progress; rb_hal_eeprom_write() starts
 * writing value at addr and returns at once, and is only called when ready. */
uint8_t rb_hal_eeprom_ready(void);
void rb_hal_eeprom_write(uint8_t addr, uint8_t value);

#endif /* RB_HAL_H */
