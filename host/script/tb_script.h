/* tb_script.h - event scripts: what sensor boards did, as text (docs/event-script.md).
 *
 * One action per line, times in milliseconds since the script's start, never decreasing:
 *
 *     <ms> <board> lift <square>
 *     <ms> <board> place <square> [<piece>]   piece: FEN letter, for boards that see identity
 *     <ms> <board> press <button>
 *     <ms> <board> release <button>
 *     <ms> <board> choose <q|r|b|n|p>           p: a dropped pawn (doorgeefschaak)
 *     <ms> <board> clock <white> <black> <running>   a clock beside the board read (DGT clock):
 *                                             times left in ms or '-', running white|black|stopped
 *
 * `#` starts a comment. A comment line of the form `# expect: <text>` is a directive for tests
 * (what a recogniser should report there) and is handed to the caller as TB_SCRIPT_EXPECT.
 * Header comments before the first event may say where the script starts (`# fen: <FEN>`) and
 * the blip window it was made for (`# blip-window: 100 ms`).
 * Times may carry a decimal fraction of up to three digits (microseconds): `1500.25`.
 *
 * Pure: parses from memory (a whole buffer or one line at a time), never opens files, never
 * prints. Errors name the line and the reason in a struct tb_error (line set, column of the
 * offending field).
 */
#ifndef TB_SCRIPT_H
#define TB_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

enum tb_script_kind {
    TB_SCRIPT_NONE = 0, /* blank or comment line: nothing to do */
    TB_SCRIPT_LIFT,
    TB_SCRIPT_PLACE,
    TB_SCRIPT_PRESS,
    TB_SCRIPT_RELEASE,
    TB_SCRIPT_CHOOSE,
    TB_SCRIPT_EXPECT, /* `# expect: <text>`; text in ev->text, no time or board */
    TB_SCRIPT_CLOCK,  /* a clock reading: clock_ms, clock_run */
};

#define TB_SCRIPT_NAME_MAX 16  /* board and button names: 1..15 of [A-Za-z0-9_.-] */
#define TB_SCRIPT_TEXT_MAX 128 /* expect and fen text, cut to fit */
/* Largest time accepted: about 31 years in ms; keeps microseconds far from overflow. */
#define TB_SCRIPT_MAX_MS 1000000000000ULL
/* Largest time a clock line may show: 100 hours. */
#define TB_SCRIPT_CLOCK_MAX_MS 360000000

struct tb_script_event {
    enum tb_script_kind kind;
    uint64_t us; /* exact time in microseconds */
    uint64_t ms; /* us / 1000 (what the recognisers use) */
    char board[TB_SCRIPT_NAME_MAX];
    uint8_t square; /* lift, place: 0..63, a1 = 0 (tb_chess numbering) */
    char piece;     /* place: FEN letter (KQRBNPkqrbnp) or 0; choose: q r b n, p (a drop's pawn) */
    char button[TB_SCRIPT_NAME_MAX]; /* press, release */
    char text[TB_SCRIPT_TEXT_MAX];   /* expect */
    int32_t clock_ms[2];             /* clock: time left of White, Black in ms; -1 unknown */
    uint8_t clock_run;               /* clock: 0 stopped, 1 White's clock runs, 2 Black's */
};

/* Line-by-line parsing keeps the line number and the last time (non-decreasing check). */
struct tb_script_parser {
    long line;        /* lines consumed so far */
    uint64_t last_us; /* time of the last event */
};

void tb_script_parser_init(struct tb_script_parser *p);

/* Parses the next line (len bytes, no newline needed; a trailing '\r' or '\n' is ignored).
 * Returns TB_OK with ev->kind set (TB_SCRIPT_NONE for a blank or plain comment line), or
 * TB_ERR_PARSE with err naming the line, the column and the reason; on error the parser's
 * last time is unchanged, so the caller may report and continue. */
int tb_script_parse_line(struct tb_script_parser *p, const char *line, size_t len,
                         struct tb_script_event *ev, struct tb_error *err);

/* Called for every event and expect line of a buffer; return non-zero to stop (that value is
 * then returned by tb_script_parse_buffer). */
typedef int (*tb_script_event_fn)(void *user, const struct tb_script_event *ev, long line);

/* Parses a whole buffer (need not be NUL-terminated). Returns TB_OK, the callback's non-zero
 * value, or TB_ERR_PARSE at the first malformed line (err->line set; events before it have
 * been delivered). */
int tb_script_parse_buffer(const char *buf, size_t len, tb_script_event_fn fn, void *user,
                           struct tb_error *err);

/* A growable list of events, for callers that keep a whole script in memory. Zero-initialise
 * it; tb_script_list_free releases it (and leaves it empty and reusable). */
struct tb_script_list {
    struct tb_script_event *ev;
    size_t n, cap;
};
/* Appends a copy of ev. TB_OK or TB_ERR_MEM (the list is unchanged). */
int tb_script_list_push(struct tb_script_list *list, const struct tb_script_event *ev);
void tb_script_list_free(struct tb_script_list *list);

/* The FEN of a `# fen: <FEN>` line before the script's first event, copied into fen (NUL-
 * terminated). Returns 1 if found, 0 if none, TB_ERR_FULL if it does not fit in len. Does not
 * check the rest of the script or the FEN itself. */
int tb_script_start_fen(const char *buf, size_t len, char *fen, size_t fen_len);

/* The blip window a script was made for: a `# blip-window: <ms> ms` line before its first event
 * (written by the generators, events-from-pgn and bughouse-events), so the recognisers that
 * replay it (the daemon's sim: boards, replay, bughouse-replay) use the window its noise was made
 * for. Returns 1 with *ms, 0 if none, TB_ERR_PARSE (err naming the line's value) when it is not
 * TB_SCRIPT_BLIP_MIN_MS to TB_SCRIPT_BLIP_MAX_MS, the range of the daemon's blip_window_ms. */
#define TB_SCRIPT_BLIP_MIN_MS 10u
#define TB_SCRIPT_BLIP_MAX_MS 2000u
int tb_script_blip_window(const char *buf, size_t len, uint32_t *ms, struct tb_error *err);

/* Writes one event as a script line without a newline ("1500 vi lift e2", "# expect: ...").
 * Returns the length, TB_ERR_FULL if buf is too small (a NUL-terminated prefix is left), or
 * TB_ERR_ARG for an event that cannot be written (kind NONE, bad square, bad name).
 * 200 bytes always suffice. */
int tb_script_format(const struct tb_script_event *ev, char *buf, size_t len);

/* Keyword of a kind ("lift", "place", ..., "expect"); "" for TB_SCRIPT_NONE. */
const char *tb_script_kind_name(enum tb_script_kind kind);

/* Is name a valid board or button name? */
bool tb_script_name_valid(const char *name);

#endif /* TB_SCRIPT_H */
