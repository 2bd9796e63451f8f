/* rb_sim.h - the real reedboard firmware ELF running in simavr, on a modelled board.
 *
 * The model is wired from the hardware netlist (hardware/netlist.txt via rb_netlist): 64 reed
 * switches with ideal diodes behind a 74HC138 whose address and enable pins the firmware drives,
 * the eight row inputs recomputed whenever a column pin changes, and four buttons to GND. Row and
 * button levels are held with AVR_IOCTL_IOPORT_SET_EXTERNAL so the firmware's own PORT writes
 * (pull-ups) cannot overwrite them. Sleep is a no-op: simulated time runs as fast as the host
 * allows; callers that need wall-clock pacing do it themselves between rb_sim_run_until calls.
 *
 * Everything that happens is on the simulated cycle clock: scheduled switch changes (optionally
 * with a seeded burst of contact bounce), bytes queued for the firmware's UART receiver (fed as
 * fast as its FIFO accepts them), and every byte the firmware sends, decoded with the shared
 * rb_proto codec. The library never prints; results arrive through the handlers.
 */
#ifndef RB_SIM_H
#define RB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rb_proto.h"
#include "tb_err.h"

struct rb_sim;

struct rb_sim_config {
    const char *elf;     /* firmware ELF (required) */
    const char *netlist; /* hardware netlist; NULL = the one in this source tree */
    uint32_t seed;       /* seed of the bounce generator */
};

/* One frame the firmware sent, decoded. */
struct rb_sim_frame {
    struct rb_proto_msg msg;
    uint64_t first_cycle; /* cycle at which its first byte left the UART */
    uint64_t last_cycle;  /* cycle of its last byte */
};

/* One modelled physical change, reported when it has settled (after its bounce). */
struct rb_sim_change {
    int square;            /* 0..63 (a1 = 0), or -1 for a button */
    int button;            /* RB_PROTO_BTN_*, or -1 for a square */
    bool on;               /* piece present / button down */
    uint64_t start_cycle;  /* first contact change */
    uint64_t stable_cycle; /* last contact change: from here the input is stable */
};

struct rb_sim_handlers {
    void (*frame)(void *ctx, const struct rb_sim_frame *f);   /* may be NULL */
    void (*change)(void *ctx, const struct rb_sim_change *c); /* may be NULL */
    void (*tx_byte)(void *ctx, uint8_t byte, uint64_t cycle); /* may be NULL */
    void *ctx;
};

/* Loads the ELF (MCU and clock from its .mmcu section, else atmega328p at 16 MHz) and the
 * netlist, wires the model and resets the MCU. The board starts empty, buttons up. */
int rb_sim_new(const struct rb_sim_config *cfg, struct rb_sim **out, struct tb_error *err);
void rb_sim_free(struct rb_sim *sim);

struct avr_t; /* simavr's MCU (sim_avr.h) */

/* The firmware ELF in a new, reset simavr MCU, loaded as rb_sim_new loads it (MCU and clock from
 * the .mmcu section, else atmega328p at 16 MHz; sleep takes no host time; simavr's own log
 * silenced) but without the board model, for programs that drive the pins themselves
 * (firmware/bench/rb_cycles.c). Free it with avr_terminate() and free(). */
int rb_sim_load_elf(const char *elf, struct avr_t **out, struct tb_error *err);

void rb_sim_set_handlers(struct rb_sim *sim, const struct rb_sim_handlers *h);

/* Writes the board serial (its identity) into the simulated EEPROM where the firmware keeps it,
 * as a board given one earlier would hold it; call before running (the firmware reads it at
 * start). 0 erases it (no serial). TB_ERR_ARG for a serial the protocol does not allow. */
int rb_sim_set_serial(struct rb_sim *sim, uint32_t serial);

uint32_t rb_sim_frequency(const struct rb_sim *sim);
uint64_t rb_sim_cycle(const struct rb_sim *sim);
uint64_t rb_sim_ms_to_cycles(const struct rb_sim *sim, double ms);
double rb_sim_cycles_to_ms(const struct rb_sim *sim, uint64_t cycles);

/* Occupancy the model holds now (bit n = square n, 1 = piece); a bouncing square reads its
 * current contact state. */
uint64_t rb_sim_occupancy(const struct rb_sim *sim);
/* Sets the whole board at once, without bounce and without change reports. */
void rb_sim_set_occupancy(struct rb_sim *sim, uint64_t occupancy);

/* Faults wired into the modelled board (all zero: a healthy board). */
struct rb_sim_faults {
    uint64_t stuck;       /* squares whose switch is welded closed */
    uint64_t dead;        /* squares whose switch never closes or whose diode is open */
    uint8_t rows_bridged; /* ranks whose row lines are joined (solder bridge): one low, all low */
    uint8_t rows_crossed; /* two ranks whose row lines reach each other's MCU pin (0 or 2 bits) */
};
void rb_sim_set_faults(struct rb_sim *sim, const struct rb_sim_faults *f);

/* Schedules a square (or button) change at an absolute cycle (a past cycle means "now").
 * bounce_ms > 0 adds a seeded burst of random contact toggles ending within bounce_ms; the
 * change is reported to the change handler when the burst has ended. TB_ERR_ARG for a bad
 * square or button. */
int rb_sim_square_at(struct rb_sim *sim, uint64_t cycle, int square, bool occupied,
                     double bounce_ms);
int rb_sim_button_at(struct rb_sim *sim, uint64_t cycle, int button, bool down, double bounce_ms);
/* Scheduled actions not yet applied (bounce toggles included). */
size_t rb_sim_scheduled(const struct rb_sim *sim);

/* Queues bytes for the firmware's UART receiver. */
int rb_sim_send(struct rb_sim *sim, const uint8_t *data, size_t len);
/* Encodes a host request and queues it. */
int rb_sim_request(struct rb_sim *sim, const struct rb_proto_msg *msg);
/* Bytes queued but not yet taken by the UART. */
size_t rb_sim_rx_pending(const struct rb_sim *sim);

/* Runs the firmware until the cycle counter reaches `cycle`. TB_ERR_STATE (with the reason in
 * err) if the firmware crashed or stopped; the simulation cannot continue then. */
int rb_sim_run_until(struct rb_sim *sim, uint64_t cycle, struct tb_error *err);

/* Decoder counters of the firmware's output (rejected bytes show firmware or model faults). */
struct rb_proto_stats rb_sim_rx_stats(const struct rb_sim *sim);

/* Button id of a script button name: promote|1, repeat|2, clock|3, arbiter|4 (any case);
 * -1 when unknown. */
int rb_sim_button_parse(const char *name);

/* Occupancy of "start" (ranks 1, 2, 7, 8), "empty", or a FEN piece-placement field (the first
 * word of a FEN; anything after a space is ignored). TB_ERR_PARSE with the reason otherwise. */
int rb_sim_occupancy_parse(const char *s, uint64_t *out, struct tb_error *err);

/* Schedules an event script (docs/event-script.md) read from memory: lift/place/press/release
 * lines at offset_ms + their time; `choose` and `clock` lines are counted in *ignored (the
 * board has no such action); lines for other boards are skipped when `board` is not NULL. Errors
 * name `source`:line: reason, and nothing is scheduled then. */
struct rb_sim_script_result {
    size_t actions;  /* changes scheduled */
    size_t ignored;  /* choose and clock lines */
    size_t skipped;  /* lines for other boards */
    uint64_t end_ms; /* time of the last line */
};
int rb_sim_schedule_script(struct rb_sim *sim, const char *text, size_t len, const char *source,
                           const char *board, double offset_ms, double bounce_ms,
                           struct rb_sim_script_result *res, struct tb_error *err);

#endif /* RB_SIM_H */
