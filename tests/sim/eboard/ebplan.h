/* ebplan.h - what the e-board emulators (chesslink-sim, chessnut-sim) share: one board's lifts
 * and placements of an event script as timed actions on a board of pieces, unplug and plug
 * times, the LED log, and a monotonic clock. */
#ifndef EBPLAN_H
#define EBPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EBPLAN_MAX     8192
#define EBPLAN_UNPLUG  (-1)
#define EBPLAN_PLUG    (-2)
#define EBPLAN_UNPLUGS 8

struct ebplan_action {
    uint64_t ms;
    int square, piece; /* piece: a tb_chess code put down, 0 lifted, or EBPLAN_UNPLUG/PLUG */
};

struct ebplan {
    struct ebplan_action a[EBPLAN_MAX];
    size_t n;
    uint8_t start[64];           /* the pieces at script time 0, by square */
    uint8_t board[64], hand[64]; /* while planning */
    int nhand;
    const char *only; /* the board whose lines are played (NULL: all) */
    char msg[200];
};

/* The options both emulators take (docs/boards.md, "The emulators"). */
struct ebplan_opts {
    const char *link, *script, *board, *led_log;
    bool wait_host, forever;
    int verbose;
    long lead_ms, linger_ms, garbage, seed;
    long torn; /* permille of scans read while the pieces change (ebplan_tear) */
    long unplug_at[EBPLAN_UNPLUGS], unplug_for[EBPLAN_UNPLUGS];
    int nunplug;
};
/* Reads them; 0, or 1 with the usage on stderr. */
int ebplan_parse(int argc, char **argv, const char *prog, struct ebplan_opts *o);

/* Plans the script's lines of board `only`; unplug_at/for: n times the board is away. 0, or 1
 * with what is wrong on stderr (prefixed by prog). The actions come sorted by time. */
int ebplan_script(struct ebplan *p, const char *prog, const char *script, const char *only,
                  const long *unplug_at, const long *unplug_for, int n);
/* A scan read while the pieces changed (a piece lifted mid-read, --torn): the board reads its
 * squares in order (a1, b1, ... h8) and the change fell between two of the squares that changed,
 * chosen by rnd: those read before it show the pieces as they stood, the others as they stand.
 * A quick hand thus shows a moved piece on both squares or on neither, for one scan. Returns
 * true when the reading is such a position (two squares or more changed), else reading = now. */
bool ebplan_tear(uint8_t reading[64], const uint8_t before[64], const uint8_t now[64],
                 uint32_t rnd);
/* Milliseconds of a monotonic clock. */
uint64_t ebplan_now_ms(void);
/* Appends "MS SQUARE..." (or "MS off") to path, when path is not NULL. */
void ebplan_log_leds(const char *path, uint64_t ms, uint64_t lit);
/* "AT:FOR" of --unplug into the next of the (at most EBPLAN_UNPLUGS) slots. */
bool ebplan_parse_unplug(const char *v, long *at, long *for_ms, int *n);

#endif
