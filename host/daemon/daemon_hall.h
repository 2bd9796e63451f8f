/* daemon_hall.h - the table on the hall's MQTT broker (daemon_hall.c, docs/hall.md): its state is
 * the part's own (struct tb_daemon__hall), NULL while [hall] is off. Private to the daemon
 * library. */
#ifndef TB_DAEMON_HALL_H
#define TB_DAEMON_HALL_H

struct tb_daemon;
struct tb_match_out;
struct tb_bugmatch_out;

/* No-ops while [hall] is off. A match output carried out: noted for the hall (events). */
void tb_daemon__hall_output(struct tb_daemon *d, const struct tb_match_out *o);
/* The ARBITER button at a board. */
void tb_daemon__hall_arbiter_call(struct tb_daemon *d, int board);
/* A doorgeefschaak output carried out (daemon_bug.c). */
void tb_daemon__hall_bug_output(struct tb_daemon *d, const struct tb_bugmatch_out *o);

#endif /* TB_DAEMON_HALL_H */
