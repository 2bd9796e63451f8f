/* rb_cycles.c - measures the real reedboard ELF in simavr: cycles of one full-matrix scan, the
 * scan period, and the CPU time each tick takes (idle and under a burst of changes).
 *
 *     reedboard_cycles build/firmware/reedboard.elf
 *
 * The board is modelled as an ideal diode matrix answering the 74HC138 address and enable pins;
 * the host side sends GET_INFO so the firmware is connected and reporting. Exits 1 when a tick
 * ever takes longer than the scan period (the firmware would fall behind), 2 on a setup error. */
#include <stdio.h>
#include <stdlib.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "rb_proto.h"
#include "rb_sim.h"
#include "sim_avr.h"

struct bench {
    avr_t *avr;
    uint64_t occupancy; /* bit n = piece on square n */
    avr_cycle_count_t scan_start, last_scan_start;
    avr_cycle_count_t scan_cycles_max, period_min, period_max;
    uint64_t busy, busy_at_scan; /* running cycles so far, and at the last scan start */
    uint64_t tick_busy_max, tick_busy_sum, ticks;
    struct rb_proto_decoder dec;
    unsigned squares_seen;
};

static struct bench B; /* simavr callbacks reach the model through their param */

static int selected_file(avr_t *avr)
{
    avr_ioport_state_t d, c;
    avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('D'), &d);
    avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('C'), &c);
    if (c.port & 0x20) { /* COL_EN_N high: every column blanked */
        return -1;
    }
    return (d.port >> 2) & 7; /* COL_A0..A2 on PD2..PD4 */
}

/* Rows PD5..PD7 (ranks 1-3) and PB0..PB4 (ranks 4-8) read low where a closed switch sits on
 * the selected column. Driven as external levels so firmware PORT writes cannot undo them. */
static void drive_rows(struct bench *b)
{
    int f = selected_file(b->avr);
    uint8_t high = 0xFF;
    for (int r = 0; f >= 0 && r < 8; r++) {
        if (b->occupancy >> (r * 8 + f) & 1) {
            high &= (uint8_t) ~(1u << r);
        }
    }
    avr_ioport_external_t ed = {.name = 'D', .mask = 0xE0, .value = (uint8_t)((high & 7) << 5)};
    avr_ioport_external_t eb = {.name = 'B', .mask = 0x1F, .value = (uint8_t)(high >> 3)};
    avr_ioctl(b->avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('D'), &ed);
    avr_ioctl(b->avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('B'), &eb);
    for (int i = 0; i < 3; i++) {
        avr_raise_irq(avr_io_getirq(b->avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 5 + i), high >> i & 1);
    }
    for (int i = 0; i < 5; i++) {
        avr_raise_irq(avr_io_getirq(b->avr, AVR_IOCTL_IOPORT_GETIRQ('B'), i), high >> (3 + i) & 1);
    }
}

static void on_column_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    drive_rows(param);
}

/* COL_EN_N falls when a scan starts and rises when it ends. */
static void on_enable(struct avr_irq_t *irq, uint32_t value, void *param)
{
    struct bench *b = param;
    avr_cycle_count_t now = b->avr->cycle;
    if (!value) {
        if (b->last_scan_start) {
            avr_cycle_count_t period = now - b->last_scan_start;
            if (!b->period_min || period < b->period_min) {
                b->period_min = period;
            }
            if (period > b->period_max) {
                b->period_max = period;
            }
            uint64_t busy = b->busy - b->busy_at_scan;
            b->tick_busy_sum += busy;
            b->ticks++;
            if (busy > b->tick_busy_max) {
                b->tick_busy_max = busy;
            }
        }
        b->last_scan_start = now;
        b->busy_at_scan = b->busy;
        b->scan_start = now;
    } else if (b->scan_start) {
        if (now - b->scan_start > b->scan_cycles_max) {
            b->scan_cycles_max = now - b->scan_start;
        }
    }
    drive_rows(b);
    (void)irq;
}

static void on_uart(struct avr_irq_t *irq, uint32_t value, void *param)
{
    struct bench *b = param;
    struct rb_proto_msg m;
    (void)irq;
    if (rb_proto_decoder_push(&b->dec, (uint8_t)value, &m)) {
        do {
            b->squares_seen += m.type == RB_PROTO_SQUARE;
        } while (rb_proto_decoder_next(&b->dec, &m));
    }
}

static void run_ms(struct bench *b, unsigned ms)
{
    avr_cycle_count_t end = b->avr->cycle + (avr_cycle_count_t)ms * (b->avr->frequency / 1000);
    while (b->avr->cycle < end) {
        avr_cycle_count_t before = b->avr->cycle;
        int state = avr_run(b->avr);
        if (b->avr->state == cpu_Running) {
            b->busy += b->avr->cycle - before;
        }
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "reedboard_cycles: the firmware stopped (state %d)\n", state);
            exit(2);
        }
    }
}

static void reset_stats(struct bench *b)
{
    b->tick_busy_max = b->tick_busy_sum = b->ticks = 0;
    b->scan_cycles_max = b->period_min = b->period_max = 0;
}

static double us(uint64_t cycles)
{
    return (double)cycles * 1e6 / 16e6;
}

static void report(const struct bench *b, const char *what)
{
    printf("%-34s ticks %5llu  busy/tick mean %6.0f cycles (%6.1f us), max %6llu cycles "
           "(%6.1f us)\n",
           what, (unsigned long long)b->ticks, (double)b->tick_busy_sum / (double)b->ticks,
           us(b->tick_busy_sum) / (double)b->ticks, (unsigned long long)b->tick_busy_max,
           us(b->tick_busy_max));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s reedboard.elf\n", argv[0]);
        return 2;
    }
    struct bench *b = &B;
    struct tb_error err;
    if (rb_sim_load_elf(argv[1], &b->avr, &err) != 0) {
        fprintf(stderr, "reedboard_cycles: %s\n", err.msg);
        return 2;
    }
    uint32_t flags = 0;
    avr_ioctl(b->avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    rb_proto_decoder_init(&b->dec);
    avr_irq_register_notify(avr_io_getirq(b->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart, b);
    for (int pin = 2; pin <= 4; pin++) {
        avr_irq_register_notify(avr_io_getirq(b->avr, AVR_IOCTL_IOPORT_GETIRQ('D'), pin),
                                on_column_pin, b);
    }
    avr_irq_register_notify(avr_io_getirq(b->avr, AVR_IOCTL_IOPORT_GETIRQ('C'), 5), on_enable, b);

    b->occupancy = 0xFFFF00000000FFFFull; /* the starting position */
    run_ms(b, 50);
    uint8_t frame[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode_get_info(frame, sizeof frame);
    for (size_t i = 0; i < n; i++) {
        avr_raise_irq(avr_io_getirq(b->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), frame[i]);
    }
    run_ms(b, 50);

    printf("reedboard in simavr (%s, %u Hz)\n", b->avr->mmcu, (unsigned)b->avr->frequency);
    reset_stats(b);
    run_ms(b, 2000);
    printf("full-matrix scan (8 columns + blank check): %llu cycles = %.1f us\n",
           (unsigned long long)b->scan_cycles_max, us(b->scan_cycles_max));
    printf("scan period: %llu..%llu cycles = %.1f..%.1f us\n", (unsigned long long)b->period_min,
           (unsigned long long)b->period_max, us(b->period_min), us(b->period_max));
    report(b, "connected, board at rest:");
    uint64_t worst = b->tick_busy_max, period = b->period_min;

    reset_stats(b);
    unsigned before = b->squares_seen;
    b->occupancy &= ~(1ull << 12); /* e2 lifted */
    run_ms(b, 100);
    b->occupancy |= 1ull << 28; /* e4 placed */
    run_ms(b, 100);
    report(b, "one move (2 events):");
    printf("square events received: %u\n", b->squares_seen - before);
    if (b->tick_busy_max > worst) {
        worst = b->tick_busy_max;
    }
    printf("worst tick at rest and in play: %.1f%% of the scan period\n",
           100.0 * (double)worst / (double)period);

    /* Sweeps: many squares change in the same scan. A tick may then overrun its period; the
     * next scan starts late, and debounce time is measured in ms, so nothing is misread. */
    static const struct {
        const char *what;
        uint64_t occupancy;
    } sweeps[] = {
        {"sweep: 15 squares in one scan:", 0xFFFF000000000000ull | 0x10000000ull},
        {"sweep: 32 squares in one scan:", 0x0000FFFFFFFF0000ull},
    };
    for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
        b->occupancy = 0xFFFF00000000EFFFull | 0x10000000ull;
        run_ms(b, 100);
        reset_stats(b);
        before = b->squares_seen;
        b->occupancy = sweeps[i].occupancy;
        run_ms(b, 200);
        report(b, sweeps[i].what);
        printf("square events received: %u\n", b->squares_seen - before);
    }
    avr_terminate(b->avr);
    free(b->avr);
    return worst < period ? 0 : 1;
}
