/* clpty.h - the emulated ChessLink board (clsim) on a pseudo-terminal, played in-process by a
 * benchmark or a test: the chesslink: link reads it as a real board. */
#ifndef CLPTY_H
#define CLPTY_H

#include <stdint.h>

#include "clsim.h"
#include "tb_chess.h"

struct clpty {
    int fd; /* the pty's master side */
    struct clsim sim;
};

/* A board in the standard position, its pty behind link. 0 or -1. */
int clpty_init(struct clpty *p, const char *link, uint64_t now_ms);
/* Answers what the host sent, scans, writes what the board says. */
void clpty_pump(struct clpty *p, uint64_t now_ms);
/* The board as pos stands (every change of a move at once: a hand faster than the scan). */
void clpty_set(struct clpty *p, const tb_chess_pos *pos);
void clpty_close(struct clpty *p);

#endif
