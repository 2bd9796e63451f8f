/* dgtsim.h - an emulated DGT e-board with a DGT XL or DGT 3000 clock attached: the board side of
 * the protocol (docs/dgt.md), built on the codec of host/dgt. No file descriptors here: commands
 * come in as bytes, messages go out into a buffer, time is passed in. dgtboard_sim.c puts it on
 * a pseudo-terminal. */
#ifndef DGTSIM_H
#define DGTSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_dgt.h"

enum dgtsim_mode {
    DGTSIM_IDLE = 0,
    DGTSIM_UPDATE,      /* FIELD_UPDATE and BWTIME at least once a second */
    DGTSIM_UPDATE_BRD,  /* FIELD_UPDATE only */
    DGTSIM_UPDATE_NICE, /* FIELD_UPDATE and BWTIME when the clock changes */
    DGTSIM_BUS,         /* power-up and after TO_BUSMODE: single-board commands only wake it */
};

enum { DGTSIM_LEFT = 1, DGTSIM_RIGHT = 2 };

#define DGTSIM_OUT_MAX 65536

struct dgtsim_ack {
    struct tb_dgt_ack ack;
    uint64_t due;
};

struct dgtsim {
    uint8_t codes[64]; /* per field, as the board senses it */
    enum dgtsim_mode mode;
    bool revelation; /* accepts SET_LEDS; a plain board freezes on it */
    bool frozen;     /* a plain board got an LED command: it answers nothing any more */
    bool bootloader; /* STARTBOOTLOADER arrived: a host must never send it */
    enum tb_dgt_clock_kind clock;
    uint64_t left_ms, right_ms;
    int running;      /* DGTSIM_LEFT, DGTSIM_RIGHT or 0 */
    bool lever_right; /* lever high on the right: the right side's clock runs */
    uint32_t increment_ms;
    uint64_t now;
    uint8_t last_bw[7];
    bool bw_sent;
    uint64_t bw_at;
    char display[12]; /* text shown by the last ASCII/DISPLAY command, "" when the times show */
    struct dgtsim_ack acks[8];
    int nacks;
    uint32_t ack_delay_ms;
    uint32_t drop_acks; /* the next N clock commands go unanswered (to test resends) */
    struct tb_dgt_cmd_decoder cmd;
    uint32_t garbage_permille; /* chance of stray bytes before each message */
    uint64_t rng;
    uint8_t out[DGTSIM_OUT_MAX];
    size_t nout;
    uint64_t commands, clock_commands, acks_sent, garbage_bytes, leds;
};

/* A board with the pieces of codes (field order), a clock of the given kind with both sides at
 * start_ms (none: BWTIME says no clock), in bus mode as at power-up. */
void dgtsim_init(struct dgtsim *s, const uint8_t codes[64], enum tb_dgt_clock_kind clock,
                 uint64_t start_ms, uint32_t increment_ms, uint64_t seed);
/* Bytes from the host. */
void dgtsim_input(struct dgtsim *s, const uint8_t *buf, size_t n);
/* A piece lifted (code 0) or placed on a field. */
void dgtsim_field(struct dgtsim *s, int field, int code);
/* The player on `side` presses the clock: their time stops (plus the increment), the other's
 * runs. */
void dgtsim_press(struct dgtsim *s, int side);
/* Starts the clock of `side` (the arbiter starts White's clock). */
void dgtsim_start(struct dgtsim *s, int side);
/* Time passes: clocks run down, due ACKs and BWTIME messages go out. */
void dgtsim_tick(struct dgtsim *s, uint64_t now);
/* The board lost power (unplugged): back in bus mode, half-read commands and unsent bytes gone;
 * the clock keeps its own battery. */
void dgtsim_unplug(struct dgtsim *s);
/* Takes the pending output (the caller writes it). */
size_t dgtsim_take(struct dgtsim *s, uint8_t *buf, size_t cap);

#endif
