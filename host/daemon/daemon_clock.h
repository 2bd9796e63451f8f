/* daemon_clock.h - the game's clock ([clock]; docs/clock.md, "The daemon's clock"), its state the
 * part's own (struct tb_daemon__clk, daemon_clock.c). Private to the daemon library. */
#ifndef TB_DAEMON_CLOCK_H
#define TB_DAEMON_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"

struct tb_daemon;
struct tb_error;
struct tb_ctl_request;
struct tb_match_out;
struct tb_journal_event;
struct tb_journal_record;

/* The clock follows the match's outputs and the board inputs at their own times, so recovery
 * rebuilds it. */
void tb_daemon__clock_tick(struct tb_daemon *d, uint64_t t); /* flags and warnings to t */
void tb_daemon__clock_output(struct tb_daemon *d, const struct tb_match_out *o); /* after it */
void tb_daemon__clock_journal(struct tb_daemon *d, bool stopped); /* the journal stops */
/* The journal resumed: true if the clock waits for it; then, the match's time run to t, it runs
 * again from t (its record appended). */
bool tb_daemon__clock_resumes(const struct tb_daemon *d);
void tb_daemon__clock_resume(struct tb_daemon *d, uint64_t t);
void tb_daemon__clock_record(struct tb_daemon *d, const struct tb_journal_record *rec);
/* A board's clock reading (TB_LINK_EV_CLOCK, journaled as a board event), taken in. */
void tb_daemon__clock_reading(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
bool tb_daemon__clock_button(struct tb_daemon *d, int board); /* false: no clock to tell */
/* The time control in PGN's TimeControl form ("40/5400+30:1800+30"); 0 when there is none. */
int tb_daemon__clock_control_pgn(struct tb_daemon *d, char *buf, size_t len);
/* The clocks now, for other outputs (a broadcast): time left of White and Black in ms (-1
 * unknown) and which runs (-1 none, else the colour). false when the game has no clock. */
bool tb_daemon__clock_now(struct tb_daemon *d, int64_t left[2], int *running);
/* The arbiter's clock-set, its times as the parser read them (req->clock_ms); with apply, both
 * clocks get those times at t (the move counters stay). Refused (err says why, nothing changes)
 * for a bad time or when the game has no built-in clock or is over. */
int tb_daemon__clock_set(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         bool apply, struct tb_error *err);
void tb_daemon__clock_pgn(struct tb_daemon *d, tb_chess_pgn_game *pg);
/* The [%clk] recorded after ply (1 = the first) in ms; TB_BROADCAST_NO_CLK when none. */
uint64_t tb_daemon__clock_ply_ms(const struct tb_daemon *d, int ply);

#endif /* TB_DAEMON_CLOCK_H */
