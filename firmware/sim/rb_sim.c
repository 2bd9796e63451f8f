/* rb_sim.c - loading the firmware into simavr, running it, and its UART in both directions. */
#include "rb_sim_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "avr_eeprom.h"
#include "avr_uart.h"
#include "sim_elf.h"
#include "sim_time.h"

#ifndef RB_SIM_DEFAULT_NETLIST
#define RB_SIM_DEFAULT_NETLIST "hardware/netlist.txt"
#endif

/* ATmega328P UCSR0B and its RXEN0 bit: simavr drops bytes raised while the receiver is off. */
enum { UCSR0B_ADDR = 0xC1, RXEN0_BIT = 4 };

static void sleep_noop(avr_t *avr, avr_cycle_count_t how_long)
{
    /* Simulated time runs as fast as the host allows; callers pace it when they need to. */
    (void)avr;
    (void)how_long;
}

static void quiet_logger(avr_t *avr, const int level, const char *format, va_list ap)
{
    /* simavr logs from inside the library (even "Loaded N bytes" while reading an ELF); this
     * library never prints, and every failure reaches the caller as a return code instead. */
    (void)avr;
    (void)level;
    (void)format;
    (void)ap;
}

static void deliver(struct rb_sim *sim, const struct rb_proto_msg *msg, uint64_t cycle)
{
    if (!sim->h.frame)
        return;
    struct rb_sim_frame f = {*msg, sim->frame_first_cycle, cycle};
    sim->h.frame(sim->h.ctx, &f);
}

static void on_uart_out(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    struct rb_sim *sim = param;
    uint8_t byte = (uint8_t)value;
    uint64_t cycle = sim->avr->cycle;
    if (sim->h.tx_byte)
        sim->h.tx_byte(sim->h.ctx, byte, cycle);
    if (sim->dec.have == 0 && byte == RB_PROTO_SYNC)
        sim->frame_first_cycle = cycle;
    struct rb_proto_msg msg;
    if (rb_proto_decoder_push(&sim->dec, byte, &msg)) {
        deliver(sim, &msg, cycle);
        while (rb_proto_decoder_next(&sim->dec, &msg))
            deliver(sim, &msg, cycle);
    }
}

static void on_uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    if (value)
        ((struct rb_sim *)param)->rx_full = true;
}

static void on_uart_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    if (value)
        ((struct rb_sim *)param)->rx_full = false;
}

static int load_netlist(struct rb_sim *sim, const char *path, struct tb_error *err)
{
    struct rb_netlist *nl = NULL;
    int rc = rb_netlist_load(path, &nl, err);
    if (rc == 0)
        rc = rb_netlist_wiring(nl, &sim->wiring, err);
    rb_netlist_free(nl);
    return rc;
}

static void free_firmware(elf_firmware_t *fw)
{
    /* elf_read_firmware allocates these; avr_load_firmware copies what it needs. */
    free(fw->flash);
    free(fw->eeprom);
    free(fw->fuse);
    free(fw->lockbits);
#if ELF_SYMBOLS
    for (uint32_t i = 0; i < fw->symbolcount; i++)
        free(fw->symbol[i]);
    free(fw->symbol);
#endif
}

int rb_sim_load_elf(const char *elf, struct avr_t **out, struct tb_error *err)
{
    if (!elf || !out)
        return tb_error_set(err, TB_ERR_ARG, "reedboard-sim: no firmware ELF given");
    struct stat st;
    if (stat(elf, &st) != 0)
        return tb_error_set(err, TB_ERR_NOTFOUND, "%s: cannot open the firmware ELF: %s", elf,
                            strerror(errno));
    avr_global_logger_set(quiet_logger);
    elf_firmware_t *fw = calloc(1, sizeof *fw);
    if (!fw)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    if (elf_read_firmware(elf, fw) != 0 || !fw->flash || fw->flashsize == 0) {
        free_firmware(fw);
        free(fw);
        return tb_error_set(err, TB_ERR_PARSE,
                            "%s: not an AVR firmware ELF (no program code found)", elf);
    }
    const char *mmcu = fw->mmcu[0] ? fw->mmcu : "atmega328p";
    avr_t *avr = avr_make_mcu_by_name(mmcu);
    if (!avr) {
        /* mmcu lives in fw: report before freeing it */
        int rc = tb_error_set(err, TB_ERR_SUPP, "%s: simavr does not know the MCU '%s'", elf, mmcu);
        free_firmware(fw);
        free(fw);
        return rc;
    }
    avr_init(avr);
    if (!fw->frequency)
        fw->frequency = 16000000;
    avr_load_firmware(avr, fw);
    free_firmware(fw);
    free(fw);
    avr->sleep = sleep_noop;
    *out = avr;
    return 0;
}

static void wire_uart(struct rb_sim *sim)
{
    /* No console echo, no host usleep while the firmware polls the receiver. */
    uint32_t flags = 0;
    avr_ioctl(sim->avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    sim->uart_in = avr_io_getirq(sim->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(sim->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_out, sim);
    avr_irq_register_notify(avr_io_getirq(sim->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_uart_xoff, sim);
    avr_irq_register_notify(avr_io_getirq(sim->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            on_uart_xon, sim);
}

int rb_sim_new(const struct rb_sim_config *cfg, struct rb_sim **out, struct tb_error *err)
{
    if (!cfg || !cfg->elf || !out)
        return tb_error_set(err, TB_ERR_ARG, "reedboard-sim: no firmware ELF given");
    struct rb_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    sim->rng = cfg->seed ? cfg->seed : 0x2545F491u;
    rb_proto_decoder_init(&sim->dec);
    int rc = load_netlist(sim, cfg->netlist ? cfg->netlist : RB_SIM_DEFAULT_NETLIST, err);
    if (rc == 0)
        rc = rb_sim_load_elf(cfg->elf, &sim->avr, err);
    if (rc == 0) {
        wire_uart(sim);
        rc = rb_sim__board_init(sim, err);
    }
    if (rc) {
        rb_sim_free(sim);
        return rc;
    }
    *out = sim;
    return 0;
}

void rb_sim_free(struct rb_sim *sim)
{
    if (!sim)
        return;
    if (sim->avr) {
        avr_terminate(sim->avr);
        free(sim->avr);
    }
    free(sim->heap);
    free(sim->rx);
    free(sim);
}

void rb_sim_set_handlers(struct rb_sim *sim, const struct rb_sim_handlers *h)
{
    if (sim)
        sim->h = h ? *h : (struct rb_sim_handlers){0};
}

uint32_t rb_sim_frequency(const struct rb_sim *sim)
{
    return sim->avr->frequency;
}

uint64_t rb_sim_cycle(const struct rb_sim *sim)
{
    return sim->avr->cycle;
}

uint64_t rb_sim_ms_to_cycles(const struct rb_sim *sim, double ms)
{
    return ms <= 0 ? 0 : (uint64_t)(ms * sim->avr->frequency / 1000.0 + 0.5);
}

double rb_sim_cycles_to_ms(const struct rb_sim *sim, uint64_t cycles)
{
    return (double)cycles * 1000.0 / sim->avr->frequency;
}

struct rb_proto_stats rb_sim_rx_stats(const struct rb_sim *sim)
{
    return sim->dec.stats;
}

/* --- host to board ------------------------------------------------------------------------ */

int rb_sim_send(struct rb_sim *sim, const uint8_t *data, size_t len)
{
    if (!sim || (!data && len))
        return TB_ERR_ARG;
    if (len == 0)
        return 0;
    if (sim->rx_head + sim->rx_len + len > sim->rx_cap) {
        /* compact, then grow */
        if (sim->rx_len)
            memmove(sim->rx, sim->rx + sim->rx_head, sim->rx_len);
        sim->rx_head = 0;
        if (sim->rx_len + len > sim->rx_cap) {
            size_t cap = (sim->rx_len + len) * 2 + 64;
            uint8_t *p = realloc(sim->rx, cap);
            if (!p)
                return TB_ERR_MEM;
            sim->rx = p;
            sim->rx_cap = cap;
        }
    }
    memcpy(sim->rx + sim->rx_head + sim->rx_len, data, len);
    sim->rx_len += len;
    return 0;
}

int rb_sim_request(struct rb_sim *sim, const struct rb_proto_msg *msg)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    size_t n = msg ? rb_proto_encode(buf, sizeof buf, msg) : 0;
    if (n == 0)
        return TB_ERR_ARG;
    return rb_sim_send(sim, buf, n);
}

size_t rb_sim_rx_pending(const struct rb_sim *sim)
{
    return sim ? sim->rx_len : 0;
}

static void feed_uart(struct rb_sim *sim)
{
    if (!(sim->avr->data[UCSR0B_ADDR] & (1u << RXEN0_BIT)))
        return;
    while (sim->rx_len && !sim->rx_full) {
        uint8_t b = sim->rx[sim->rx_head++];
        sim->rx_len--;
        avr_raise_irq(sim->uart_in, b);
    }
}

int rb_sim_run_until(struct rb_sim *sim, uint64_t cycle, struct tb_error *err)
{
    if (!sim)
        return tb_error_set(err, TB_ERR_ARG, "reedboard-sim: no simulator");
    rb_sim__arm_timer(sim);
    while (sim->avr->cycle < cycle) {
        if (sim->rx_len)
            feed_uart(sim);
        int state = avr_run(sim->avr);
        if (state == cpu_Done || state == cpu_Crashed)
            return tb_error_set(
                err, TB_ERR_STATE, "firmware %s at cycle %llu (%.3f ms)",
                state == cpu_Done ? "stopped (sleep with interrupts off)" : "crashed",
                (unsigned long long)sim->avr->cycle, rb_sim_cycles_to_ms(sim, sim->avr->cycle));
    }
    return 0;
}

int rb_sim_set_serial(struct rb_sim *sim, uint32_t serial)
{
    if (!sim || serial > RB_PROTO_SERIAL_MAX)
        return TB_ERR_ARG;
    uint32_t stored = serial ? serial : 0xFFFFFFFFu; /* erased EEPROM reads all ones */
    uint8_t bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (uint8_t)(stored >> (8 * i)); /* little-endian, as eeprom_read_dword reads */
    avr_eeprom_desc_t d = {.ee = bytes, .offset = 0, .size = sizeof bytes};
    /* simavr's answer to SET says little (its return code varies by version): read back */
    avr_ioctl(sim->avr, AVR_IOCTL_EEPROM_SET, &d);
    avr_eeprom_desc_t got = {.ee = NULL, .offset = 0, .size = sizeof bytes};
    avr_ioctl(sim->avr, AVR_IOCTL_EEPROM_GET, &got);
    return got.ee && memcmp(got.ee, bytes, sizeof bytes) == 0 ? TB_OK : TB_ERR_SUPP;
}
