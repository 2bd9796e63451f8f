/* sf_pipe.h - drives a UCI engine (Stockfish) over pipes for the perft benchmarks. */
#ifndef SF_PIPE_H
#define SF_PIPE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sf_pipe {
    FILE *in;  /* we write commands here */
    FILE *out; /* and read its answers here */
    int pid;
};

#define SF_PATH "/usr/games/stockfish"

/* Starts the engine and waits for readyok; false (and nothing to clean up) if it cannot. */
bool sf_open(struct sf_pipe *sf, const char *path);
void sf_close(struct sf_pipe *sf);
/* Sends one command line. */
void sf_send(struct sf_pipe *sf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Waits for a line starting with prefix; copies it into line (size n). false at end of file. */
bool sf_wait(struct sf_pipe *sf, const char *prefix, char *line, size_t n);

/* One "move: count" line of go perft output. */
struct sf_divide {
    char move[16];
    uint64_t nodes;
};

/* Runs "go perft depth" on fen (UCI_Chess960 set as given); fills up to cap divide lines and
 * returns their number, the total in *total; -1 if the engine died. */
int sf_perft(struct sf_pipe *sf, const char *fen, bool chess960, int depth, struct sf_divide *div,
             int cap, uint64_t *total);

/* Wall-clock seconds from a monotonic clock. */
double sf_now(void);

#endif
