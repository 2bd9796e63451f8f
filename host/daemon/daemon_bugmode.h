/* daemon_bugmode.h - doorgeefschaak as the rest of the daemon sees it ([bughouse];
 * docs/doorgeefschaak.md, "Running a match with twinboardd"): while the mode's state (d->bug) is
 * set the board inputs, the deadlines, the ears and the control requests are the match's of two
 * games and the twin game stands idle. The mode's own state and calls: daemon_bug.h. */
#ifndef TB_DAEMON_BUGMODE_H
#define TB_DAEMON_BUGMODE_H

#include <stdint.h>

struct tb_daemon;
struct tb_daemon__buf;
struct tb_ctl_request;
struct tb_error;

/* Opened before recovery when [bughouse] is enabled (the mode table set); freed last. */
int tb_daemon__bug_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__bug_free(struct tb_daemon *d);
uint64_t tb_daemon__bug_deadline(const struct tb_daemon *d); /* UINT64_MAX: none (or no match) */
void tb_daemon__bug_keep(struct tb_daemon *d);               /* NAME.bpgn beside the journal */
/* doorgeefschaak's move a|b (the handler tb_daemon__ctl_move in this mode); hand, bpgn, resign,
 * choose, accept, replace are its own (TB_CTL_VERBS). */
int tb_daemon__bug_move(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err);

#endif /* TB_DAEMON_BUGMODE_H */
