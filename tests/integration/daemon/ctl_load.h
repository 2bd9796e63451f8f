/* ctl_load.h - load on the control socket for the guard test and the benchmark: idle clients
 * (connected, never sending) and slow ones (a byte a second, never a whole request), held open
 * by child processes, while a command (the real `twinboard status`) is timed. */
#ifndef TB_CTL_LOAD_H
#define TB_CTL_LOAD_H

#include <sys/types.h>

#define TB_CTL_LOAD_GROUP    16 /* connections per child process (= the daemon's per-uid limit) */
#define TB_CTL_LOAD_CHILDREN 16

struct tb_ctl_load {
    pid_t child[TB_CTL_LOAD_CHILDREN];
    int nchild;
};

/* Opens idle + slow connections to sock, TB_CTL_LOAD_GROUP per child. When base_uid >= 0 (the
 * caller is root) child k runs as uid base_uid + k with group 0, so the socket (0660, group of
 * root) is reachable and the load comes from many uids. Returns 0 once every connection is
 * made, -1 (with a message on stderr) otherwise. */
int tb_ctl_load_start(struct tb_ctl_load *l, const char *sock, int idle, int slow, int base_uid);
/* Ends the children (their connections close). */
void tb_ctl_load_stop(struct tb_ctl_load *l);

/* Runs the program argv (argv[0] a path) n times, gap_ms apart; ms[i] is the i-th run's time
 * from fork to its first output (the answer has arrived and is being printed). Returns how many
 * runs failed (exit status not 0, or no output). */
int tb_ctl_load_time(char *const *argv, int n, int gap_ms, double *ms);

/* Median and maximum of ms[0..n) (sorts ms). */
void tb_ctl_load_stats(double *ms, int n, double *median, double *max);

#endif /* TB_CTL_LOAD_H */
