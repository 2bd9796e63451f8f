/* clsim.h - an emulated Millennium ChessLink board, byte for byte as the published protocol
 * describes it (host/chesslink): it scans its squares every scan time, reports its status on a
 * change once the change has stood for the debounce its E2ROM sets, answers S V L X W R T, and
 * keeps its LEDs. No I/O: bytes in, bytes out, time passed in. */
#ifndef CLSIM_H
#define CLSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chesslink.h"

#define CLSIM_OUT_CAP 16384

struct clsim {
    uint8_t board[64];    /* tb_chess codes by square: what stands on it now */
    uint8_t scanned[64];  /* as the latest scan saw it */
    uint8_t reported[64]; /* as the latest automatic report said */
    int stable;           /* scans the board has looked like `scanned` */
    uint8_t e2[256];      /* the E2ROM options */
    uint8_t leds[TB_CHESSLINK_LEDS];
    uint64_t next_scan, next_timed, asleep_until;
    struct tb_chesslink_decoder dec;
    uint8_t out[CLSIM_OUT_CAP];
    size_t nout;
    uint64_t commands, reports, leds_changes;
    bool report_set;   /* the host has chosen a report mode */
    long torn;         /* permille of the scans that see a change read mid-change (ebplan_tear) */
    uint8_t stood[64]; /* the pieces as they stood at the previous scan */
    uint64_t rng;
    unsigned long torn_scans; /* scans that read a position no hand made */
};

/* A board with these pieces (tb_chess codes by square), E2ROM defaults, LEDs off. */
void clsim_init(struct clsim *s, const uint8_t board[64], uint64_t now_ms);
/* Bytes the host sent. */
void clsim_input(struct clsim *s, const uint8_t *buf, size_t n, uint64_t now_ms);
/* Scans due by now: automatic reports. */
void clsim_tick(struct clsim *s, uint64_t now_ms);
/* A piece put on sq (tb_chess code) or taken off it (0). */
void clsim_set(struct clsim *s, int sq, int piece);
/* Takes up to cap bytes the board has to send. */
size_t clsim_take(struct clsim *s, uint8_t *out, size_t cap);
/* Unplugged: what was queued is lost, a half-read command too. */
void clsim_unplug(struct clsim *s);
/* The squares whose four corner LEDs are lit. */
uint64_t clsim_lit(const struct clsim *s);

#endif
