/* daemon_dgt.h - the boards' own displays (daemon_dgt.c): a DGT clock's display and readings, an
 * e-board's lights. Private to the daemon library. */
#ifndef TB_DAEMON_DGT_H
#define TB_DAEMON_DGT_H

struct tb_daemon;
struct tb_match_out;
struct tb_link_event;

/* (DGT): a match output on the boards' clock displays, live only; a clock reading logged (a
 * press, D.2.4, at info level) */
void tb_daemon__dgt_display(struct tb_daemon *d, const struct tb_match_out *o);
/* A board with lights (TB_LINK_CAP_LEDS): the last agreed move's squares lit (a repeat asked). */
void tb_daemon__eboard_show_last(struct tb_daemon *d, int board);
void tb_daemon__dgt_clock(struct tb_daemon *d, int board, const struct tb_link_event *ev);

#endif /* TB_DAEMON_DGT_H */
