/* rb_hal_avr.c - rb_hal.h on the ATmega328P at 16 MHz: pins from rb_pins.h, Timer1 tick,
 * interrupt-driven UART0 with receive and transmit rings. */
#include "rb_avr.h"
#include "rb_core.h" /* RB_SCAN_HZ */
#include "rb_hal.h"
#include "rb_pins.h"

#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/delay.h>

#ifndef RB_SETTLE_US
#define RB_SETTLE_US 20 /* row settle after a column change; docs/firmware.md */
#endif

/* Ring sizes are powers of two that divide 256, so free-running uint8_t indices work. */
#define TX_SIZE 64u
#define RX_SIZE 32u

/* Shared with the interrupt handlers; one producer and one consumer each. */
static volatile uint8_t tx_buf[TX_SIZE], rx_buf[RX_SIZE];
static volatile uint8_t tx_head, tx_tail, rx_head, rx_tail, rx_errors;
static volatile uint32_t ms_now;
static volatile uint8_t ticks;
static volatile uint16_t us_acc;

#define TICK_US  (1000000ul / RB_SCAN_HZ)
#define TICK_OCR (F_CPU / 8ul / RB_SCAN_HZ - 1ul)
#if TICK_OCR > 65535ul || TICK_OCR < 100ul
#error "RB_SCAN_HZ out of range for Timer1 with prescaler 8"
#endif

ISR(TIMER1_COMPA_vect)
{
    uint16_t acc = (uint16_t)(us_acc + TICK_US);
    while (acc >= 1000u) {
        acc = (uint16_t)(acc - 1000u);
        ms_now++;
    }
    us_acc = acc;
    if (ticks < 0xFFu) {
        ticks++;
    }
}

ISR(USART_RX_vect)
{
    uint8_t status = UCSR0A;
    uint8_t c = UDR0;
    if (status & (_BV(FE0) | _BV(DOR0))) {
        rx_errors++;
        return;
    }
    if ((uint8_t)(rx_head - rx_tail) >= RX_SIZE) {
        rx_errors++;
        return;
    }
    rx_buf[rx_head % RX_SIZE] = c;
    rx_head++;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail % TX_SIZE];
    tx_tail++;
}

void rb_avr_init(void)
{
    RB_IO_HIGH(RB_NET_COL_EN_N); /* blank the columns before the pin becomes an output */
    RB_IO_OUTPUT(RB_NET_COL_EN_N);
    RB_IO_OUTPUT(RB_NET_COL_A0);
    RB_IO_OUTPUT(RB_NET_COL_A1);
    RB_IO_OUTPUT(RB_NET_COL_A2);
    RB_IO_OUTPUT(RB_NET_LED_STATUS);
    RB_IO_OUTPUT(RB_NET_BUZZER);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_1);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_2);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_3);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_4);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_5);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_6);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_7);
    RB_IO_INPUT_PULLUP(RB_NET_ROW_8);
    RB_IO_INPUT_PULLUP(RB_NET_BTN_PROMOTE);
    RB_IO_INPUT_PULLUP(RB_NET_BTN_REPEAT);
    RB_IO_INPUT_PULLUP(RB_NET_BTN_CLOCK);
    RB_IO_INPUT_PULLUP(RB_NET_BTN_ARBITER);

    /* UART0: 115200 8N1, double speed, UBRR 16 (2.1 % error, within 8N1 tolerance). */
    UCSR0A = _BV(U2X0);
    UBRR0 = 16;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);

    /* Timer1 CTC at RB_SCAN_HZ: clock / 8 = 2 MHz. */
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11);
    OCR1A = (uint16_t)TICK_OCR;
    TIMSK1 = _BV(OCIE1A);
}

uint8_t rb_avr_take_ticks(void)
{
    uint8_t sreg = SREG;
    cli();
    uint8_t n = ticks;
    ticks = 0;
    SREG = sreg;
    return n;
}

void rb_hal_select_column(uint8_t file)
{
    if (file >= 8) {
        RB_IO_HIGH(RB_NET_COL_EN_N);
    } else {
        if (file & 1u) {
            RB_IO_HIGH(RB_NET_COL_A0);
        } else {
            RB_IO_LOW(RB_NET_COL_A0);
        }
        if (file & 2u) {
            RB_IO_HIGH(RB_NET_COL_A1);
        } else {
            RB_IO_LOW(RB_NET_COL_A1);
        }
        if (file & 4u) {
            RB_IO_HIGH(RB_NET_COL_A2);
        } else {
            RB_IO_LOW(RB_NET_COL_A2);
        }
        RB_IO_LOW(RB_NET_COL_EN_N);
    }
    _delay_us(RB_SETTLE_US);
}

uint8_t rb_hal_read_rows(void)
{
    uint8_t rows = 0;
    if (RB_IO_IS_LOW(RB_NET_ROW_1)) {
        rows |= 0x01;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_2)) {
        rows |= 0x02;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_3)) {
        rows |= 0x04;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_4)) {
        rows |= 0x08;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_5)) {
        rows |= 0x10;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_6)) {
        rows |= 0x20;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_7)) {
        rows |= 0x40;
    }
    if (RB_IO_IS_LOW(RB_NET_ROW_8)) {
        rows |= 0x80;
    }
    return rows;
}

uint8_t rb_hal_read_buttons(void)
{
    uint8_t b = 0;
    if (RB_IO_IS_LOW(RB_NET_BTN_PROMOTE)) {
        b |= 0x01;
    }
    if (RB_IO_IS_LOW(RB_NET_BTN_REPEAT)) {
        b |= 0x02;
    }
    if (RB_IO_IS_LOW(RB_NET_BTN_CLOCK)) {
        b |= 0x04;
    }
    if (RB_IO_IS_LOW(RB_NET_BTN_ARBITER)) {
        b |= 0x08;
    }
    return b;
}

void rb_hal_led(uint8_t on)
{
    if (on) {
        RB_IO_HIGH(RB_NET_LED_STATUS);
    } else {
        RB_IO_LOW(RB_NET_LED_STATUS);
    }
}

void rb_hal_buzzer(uint8_t on)
{
    if (on) {
        RB_IO_HIGH(RB_NET_BUZZER);
    } else {
        RB_IO_LOW(RB_NET_BUZZER);
    }
}

uint32_t rb_hal_now_ms(void)
{
    uint8_t sreg = SREG;
    cli();
    uint32_t ms = ms_now;
    SREG = sreg;
    return ms;
}

int rb_hal_uart_read(void)
{
    if (rx_head == rx_tail) {
        return -1;
    }
    uint8_t c = rx_buf[rx_tail % RX_SIZE];
    rx_tail++;
    return c;
}

uint8_t rb_hal_uart_take_errors(void)
{
    uint8_t sreg = SREG;
    cli();
    uint8_t n = rx_errors;
    rx_errors = 0;
    SREG = sreg;
    return n;
}

uint8_t rb_hal_uart_tx_free(void)
{
    return (uint8_t)(TX_SIZE - (uint8_t)(tx_head - tx_tail));
}

void rb_hal_uart_write(const uint8_t *buf, uint8_t len)
{
    for (uint8_t i = 0; i < len; i++) {
        tx_buf[tx_head % TX_SIZE] = buf[i];
        tx_head++;
    }
    UCSR0B |= _BV(UDRIE0);
}

uint8_t rb_hal_eeprom_ready(void)
{
    return eeprom_is_ready() ? 1u : 0u;
}

void rb_hal_eeprom_write(uint8_t addr, uint8_t value)
{
    /* avr-libc waits for a previous write first; the core only calls this when ready. */
    eeprom_write_byte((uint8_t *)(uintptr_t)addr, value);
}
