/* main.c - reedboard firmware entry: init, then one core tick per timer tick, idle in between. */
#include "rb_avr.h"
#include "rb_core.h"

#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#ifdef RB_SIM_MMCU
/* Tells simavr the core and clock; the section is linked at 0x910000 and left out of the hex. */
#include "avr/avr_mcu_section.h"
AVR_MCU(F_CPU, "atmega328p");
#endif

/* The board serial lives in the first four EEPROM bytes; erased EEPROM (all ones) means none. */
static uint32_t board_serial(void)
{
    uint32_t s = eeprom_read_dword((const uint32_t *)0);
    return s == 0xFFFFFFFFul ? 0 : s;
}

static struct rb_board board;

int main(void)
{
    struct rb_config cfg;
    rb_avr_init();
    rb_config_default(&cfg);
    cfg.serial = board_serial();
    sei();
    rb_board_init(&board, &cfg);
    set_sleep_mode(SLEEP_MODE_IDLE);
    for (;;) {
        /* Sleep until the next tick; checking and sleeping with interrupts off closes the race
         * where the tick arrives between the check and the sleep. */
        cli();
        while (!rb_avr_take_ticks()) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
            cli();
        }
        sei();
        rb_board_tick(&board);
    }
}
