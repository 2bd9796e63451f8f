/* rb_avr.h - what the AVR port's main() needs from its HAL file beyond rb_hal.h. */
#ifndef RB_AVR_H
#define RB_AVR_H

#include <stdint.h>

/* Sets up pins, UART0 and the Timer1 scan tick; interrupts stay off until the caller's sei(). */
void rb_avr_init(void);

/* Scan ticks since the previous call (interrupt-safe). */
uint8_t rb_avr_take_ticks(void);

#endif /* RB_AVR_H */
