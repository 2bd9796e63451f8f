/* cli.h - shared parts of the reedboard-sim program (not the rb_sim library). */
#ifndef RB_SIMCLI_H
#define RB_SIMCLI_H

#include <stdio.h>

#include "rb_sim.h"

struct rb_simcli_opts {
    const char *elf, *netlist, *script, *link, *board, *initial;
    double bounce_ms, tail_ms;
    unsigned seed;
    unsigned long serial; /* --serial: the board's identity in its EEPROM (0 = none) */
    int pty, use_stdin;
    struct rb_sim_faults faults; /* --fault */
};

/* Prints one decoded frame as a line: "<ms> ms <kind> ...". */
void rb_simcli_print_frame(FILE *out, const struct rb_sim *sim, const struct rb_sim_frame *f);

/* SIGINT and SIGTERM ask the run loops to stop cleanly; SIGPIPE is ignored. */
void rb_simcli_catch_signals(void);
int rb_simcli_stop_requested(void);
void rb_simcli_request_stop(void);

/* The --pty mode; returns the process exit status. */
int rb_simcli_run_pty(struct rb_sim *sim, const struct rb_simcli_opts *o);

#endif /* RB_SIMCLI_H */
