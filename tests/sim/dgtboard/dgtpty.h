/* dgtpty.h - the emulated DGT e-board (dgtsim) on a pseudo-terminal, played in-process by a
 * benchmark or a test: the dgt: link reads it as a real board. */
#ifndef DGTPTY_H
#define DGTPTY_H

#include <stdint.h>

#include <stddef.h>

#include "dgtsim.h"
#include "tb_chess.h"

struct dgtpty {
    int fd; /* the pty's master side */
    struct dgtsim sim;
};

/* A board in the standard position with a DGT 3000 clock, its pty behind link. 0 or -1. */
int dgtpty_init(struct dgtpty *p, const char *link);
/* Answers what the host sent, lets the clock run, writes what the board says. */
void dgtpty_pump(struct dgtpty *p, uint64_t now_ms);
/* The field updates of a legal move in pos, written at once (a hand faster than nothing). */
void dgtpty_move(struct dgtpty *p, const tb_chess_pos *pos, tb_chess_move m, uint64_t now_ms);
/* Raw bytes as if the board sent them (garbage, cut or impossible messages). */
void dgtpty_raw(struct dgtpty *p, const void *buf, size_t n);
/* The start position set up again, square by square. */
void dgtpty_setup(struct dgtpty *p, uint64_t now_ms);
void dgtpty_close(struct dgtpty *p);

#endif
