/* daemon_boards.h - the two boards' part of the daemon (daemon_boards.c): their links, what each
 * can do, their events dated on the daemon's clock and handed into the game, typed moves. Its
 * state is its own; the other files ask these functions. Private to the daemon library. */
#ifndef TB_DAEMON_BOARDS_H
#define TB_DAEMON_BOARDS_H

#include <stdbool.h>
#include <stdint.h>

struct tb_daemon;
struct tb_error;
struct tb_link;

/* What each board is and can do, before the journal is replayed (its state made here, so
 * recovery can note what the journal has; the part's close frees it). */
int tb_daemon__boards_plan(struct tb_daemon *d, struct tb_error *err);
int tb_daemon__boards_blip(struct tb_daemon *d, struct tb_error *err); /* scripts' own window */
int tb_daemon__boards_feed(struct tb_daemon *d);
bool tb_daemon__boards_paused(const struct tb_daemon *d);
bool tb_daemon__boards_pending(const struct tb_daemon *d);
bool tb_daemon__boards_all_ended(const struct tb_daemon *d);
/* D.2.10.1: a move typed for a typed board; refused (nothing changes) unless the board may make
 * it now. Live and in recovery. */
int tb_daemon__typed_move(struct tb_daemon *d, int board, const char *text, struct tb_error *err);
const char *tb_daemon__board_name(int board);

/* A board as the other parts see it. Before the plan and after the part's close: no link, no
 * caps, "" for its resource, no events. */
struct tb_link *tb_daemon__board_link(const struct tb_daemon *d, int board); /* NULL: not open */
unsigned tb_daemon__board_caps(const struct tb_daemon *d, int board);        /* enum tb_link_cap */
const char *tb_daemon__board_resource(const struct tb_daemon *d, int board); /* as configured */
unsigned long tb_daemon__board_events(const struct tb_daemon *d, int board); /* fed to the game */
/* DGT: whose clock ran at the board's last clock reading (TB_LINK_EV_CLOCK's clock_run); while a
 * reading is handed to tb_daemon__dgt_clock, the one before it. */
uint8_t tb_daemon__board_clock_run(const struct tb_daemon *d, int board);
int tb_daemon__board_of_color(const struct tb_daemon *d, int color); /* the board of a colour */
/* One of the board's events went into the game (counted for status). */
void tb_daemon__board_fed(struct tb_daemon *d, int board);
/* Recovery: the board's script events up to seq are in the journal already (a script that
 * replays from its start skips them). */
void tb_daemon__board_recovered(struct tb_daemon *d, int board, uint32_t seq);

#endif /* TB_DAEMON_BOARDS_H */
