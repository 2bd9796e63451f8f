/* daemon_broadcast.h - the broadcast part of twinboardd (daemon_broadcast.c, daemon_bcdelay.c):
 * the agreed game as a virtual DGT board and a live PGN (docs/broadcast.md). Its state is the
 * part's own (struct tb_daemon__broadcast, opaque), made when the part opens with [broadcast] on.
 * Private to the daemon library. */
#ifndef TB_DAEMON_BROADCAST_H
#define TB_DAEMON_BROADCAST_H

#include <stdint.h>

#include "tb_broadcast.h"
#include "tb_chess.h"

struct tb_daemon;
struct tb_daemon__bcdelay;

/* daemon_broadcast.c: every call is a no-op while [broadcast] is off. */
/* An agreed move (ply of the match's game): shown at once, in order. */
void tb_daemon__broadcast_move(struct tb_daemon *d, int ply, uint64_t t);
/* A new game (new-game, set-position): its start and tags shown, a new PGN file. */
void tb_daemon__broadcast_new_game(struct tb_daemon *d);
/* The result request of the game (tb_daemon__result_by_request), as the broadcast takes it (it
 * judges flags and claims by the same rules). */
void tb_daemon__broadcast_result(struct tb_daemon *d);
/* The agreed game, whatever changed it (takeback, resolution, set-position, new game, result). */
void tb_daemon__broadcast_sync(struct tb_daemon *d, uint64_t t);
/* The clock as it stands shown when it changed (a press, a pause, a correction, a DGT clock's
 * reading): the virtual board's clock and the next move's [%clk] follow it. */
void tb_daemon__broadcast_clock(struct tb_daemon *d);

/* daemon_bcdelay.c: [broadcast] delay, between the agreed game and the library: the changes
 * (times on the daemon's clock), each handed over once it is delay old, in order. It calls only
 * the library: the daemon's files log what it reports. TB_ERR_MEM when a change cannot be kept. */
enum { TB_DAEMON__BCDELAY_NEW_GAME = 1, TB_DAEMON__BCDELAY_AGREED, TB_DAEMON__BCDELAY_RESULT };
struct tb_daemon__bcdelay *tb_daemon__bcdelay_new(void);
void tb_daemon__bcdelay_free(struct tb_daemon__bcdelay *q);
int tb_daemon__bcdelay_new_game(struct tb_daemon__bcdelay *q, const struct tb_broadcast_tags *tags,
                                const tb_chess_pos *start, uint64_t now);
/* clk_ms: each ply's [%clk] as recorded (may be NULL), for tb_broadcast_agreed_clk. */
int tb_daemon__bcdelay_agreed(struct tb_daemon__bcdelay *q, const tb_chess_game *g,
                              const uint64_t *clk_ms, const struct tb_broadcast_clock *clock,
                              uint64_t now);
int tb_daemon__bcdelay_result(struct tb_daemon__bcdelay *q, const struct tb_broadcast_end *end,
                              uint64_t now);
/* Hands the oldest change over when it is due by now: its kind (err says how the library took
 * it), 0 when none is due. */
int tb_daemon__bcdelay_hand_over(struct tb_daemon__bcdelay *q, tb_broadcast *bc, uint64_t now,
                                 uint64_t delay, struct tb_error *err);
/* When the oldest change is due (UINT64_MAX: none waits). */
uint64_t tb_daemon__bcdelay_deadline(const struct tb_daemon__bcdelay *q, uint64_t delay);

#endif /* TB_DAEMON_BROADCAST_H */
