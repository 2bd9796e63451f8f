/* ptyboard.h - a reed board played by a test or benchmark: the master side of a
 * pseudo-terminal, frames of the shared codec (rb_proto), a model of the board's occupancy. The
 * daemon opens pty:LINK, a symlink that follows the board when it is plugged in again. */
#ifndef TB_PTYBOARD_H
#define TB_PTYBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "rb_proto.h"

struct ptyboard {
    int master;
    char link[512];
    struct rb_proto_decoder dec;
    uint64_t occ;
    uint16_t seq;
    uint32_t ms;
};

/* A board with the pieces of the starting position, plugged in at link. 0 or -1. */
int ptyboard_init(struct ptyboard *b, const char *link);
/* A new pseudo-terminal behind the same link (unplugged and plugged in again). */
int ptyboard_plug(struct ptyboard *b);
/* Unplugged: the terminal is closed. */
void ptyboard_unplug(struct ptyboard *b);
/* Raw bytes on the wire. */
int ptyboard_write(struct ptyboard *b, const void *buf, size_t n);
/* A full reading of the board, unasked. */
int ptyboard_snapshot(struct ptyboard *b);
/* Answers what the host asked (INFO, SNAPSHOT, PONG). */
void ptyboard_pump(struct ptyboard *b);
/* A lift (placed = 0) or placement on square sq; send = false: the board is unplugged and the
 * model changes without a frame. */
int ptyboard_square(struct ptyboard *b, int sq, int placed, bool send);
/* The events of a legal move in pos (the captured piece off first, king before rook). */
struct tb_chess_pos;
int ptyboard_move(struct ptyboard *b, const struct tb_chess_pos *pos, uint16_t move);

#endif
