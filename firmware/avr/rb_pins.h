/* rb_pins.h - the reedboard pin map (ATmega328P), the only place pins are named.
 *
 * Format, machine-checked against hardware/netlist.txt by tests/unit/hardware/test_pins.c:
 * one line per net,
 *
 *     #define RB_NET_<NET> <PORT>, <BIT>
 *
 * where <NET> is the netlist's net name, <PORT> one of the letters B, C, D and <BIT> 0..7, i.e.
 * the controller pin P<PORT><BIT> (regular expression:
 * ^#define RB_NET_([A-Z0-9_]+) +([BCD]), *([0-7])\b). Nothing else in this file starts with
 * "#define RB_NET_". The RB_IO_* helpers below turn a net into its registers and bit.
 */
#ifndef RB_PINS_H
#define RB_PINS_H

#define RB_NET_UART_RX     D, 0 /* from the USB-serial bridge */
#define RB_NET_UART_TX     D, 1
#define RB_NET_COL_A0      D, 2 /* 74HC138 A0 */
#define RB_NET_COL_A1      D, 3 /* 74HC138 A1 */
#define RB_NET_COL_A2      D, 4 /* 74HC138 A2 */
#define RB_NET_ROW_1       D, 5 /* rank 1, pull-up, low = closed */
#define RB_NET_ROW_2       D, 6
#define RB_NET_ROW_3       D, 7
#define RB_NET_ROW_4       B, 0
#define RB_NET_ROW_5       B, 1
#define RB_NET_ROW_6       B, 2
#define RB_NET_ROW_7       B, 3
#define RB_NET_ROW_8       B, 4
#define RB_NET_LED_STATUS  B, 5 /* high = on */
#define RB_NET_BTN_PROMOTE C, 0 /* pull-up, low = pressed */
#define RB_NET_BTN_REPEAT  C, 1
#define RB_NET_BTN_CLOCK   C, 2
#define RB_NET_BTN_ARBITER C, 3
#define RB_NET_BUZZER      C, 4 /* high = sounding (active buzzer via transistor) */
#define RB_NET_COL_EN_N    C, 5 /* 74HC138 /G2A: high blanks every column */

/* Register access by net: RB_IO_PORT(RB_NET_ROW_1) is PORTD, RB_IO_BIT(...) is 5. */
#define RB_IO_PORT_(port, bit) PORT##port
#define RB_IO_DDR_(port, bit)  DDR##port
#define RB_IO_PIN_(port, bit)  PIN##port
#define RB_IO_BIT_(port, bit)  (bit)
/* Each helper takes a net name; they are variadic because the net expands to "port, bit". */
#define RB_IO_PORT(...) RB_IO_PORT_(__VA_ARGS__)
#define RB_IO_DDR(...)  RB_IO_DDR_(__VA_ARGS__)
#define RB_IO_PIN(...)  RB_IO_PIN_(__VA_ARGS__)
#define RB_IO_BIT(...)  RB_IO_BIT_(__VA_ARGS__)
#define RB_IO_MASK(...) ((uint8_t)(1u << RB_IO_BIT(__VA_ARGS__)))

#define RB_IO_HIGH(...)   (RB_IO_PORT(__VA_ARGS__) |= RB_IO_MASK(__VA_ARGS__))
#define RB_IO_LOW(...)    (RB_IO_PORT(__VA_ARGS__) &= (uint8_t)~RB_IO_MASK(__VA_ARGS__))
#define RB_IO_OUTPUT(...) (RB_IO_DDR(__VA_ARGS__) |= RB_IO_MASK(__VA_ARGS__))
#define RB_IO_INPUT_PULLUP(...)                                                                    \
    do {                                                                                           \
        RB_IO_DDR(__VA_ARGS__) &= (uint8_t)~RB_IO_MASK(__VA_ARGS__);                               \
        RB_IO_PORT(__VA_ARGS__) |= RB_IO_MASK(__VA_ARGS__);                                        \
    } while (0)
#define RB_IO_IS_LOW(...) ((RB_IO_PIN(__VA_ARGS__) & RB_IO_MASK(__VA_ARGS__)) == 0)

#endif /* RB_PINS_H */
