/* tb_braille.h - each player's braille display, through BRLTTY's BrlAPI.
 *
 * Two layers:
 *   1. The view (pure): what one player's display shows. The status line (the state of the game,
 *      then the last move: "Bitte nachziehen: Bauer Eva zwei Eva vier"), the clock on request,
 *      and the scoresheet, one half-move a line, browsed with the display's keys. Text is UTF-8
 *      in the player's pack (the same words the player hears); the view cuts it into windows of
 *      the display's width, at word boundaries where it can.
 *   2. The display: a view joined to a driver (one const ops table: BrlAPI, or null). The
 *      daemon calls tb_braille_display_* with what happened and polls the display's fd for keys.
 *
 * BRLTTY is optional: when it cannot be reached, tb_braille_display_open says so once through
 * its return value and err (the library never prints), and the daemon goes on without braille.
 * Errors are the codes of tb_err.h.
 */
#ifndef TB_BRAILLE_H
#define TB_BRAILLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"
#include "tb_voice.h"

/* ---- the view (pure) --------------------------------------------------------------------- */

/* What the player asks with the display's keys (the BrlAPI driver maps the display's own keys:
 * docs/braille.md). */
enum tb_braille_key {
    TB_BRAILLE_KEY_NONE = 0,
    TB_BRAILLE_KEY_PAN_LEFT,  /* the previous window of the line (or the previous line's end) */
    TB_BRAILLE_KEY_PAN_RIGHT, /* the next window of the line (or the next line) */
    TB_BRAILLE_KEY_LINE_UP,   /* an earlier half-move (from the status line: the latest one) */
    TB_BRAILLE_KEY_LINE_DOWN, /* a later half-move (after the latest: the status line) */
    TB_BRAILLE_KEY_TOP,       /* the first half-move */
    TB_BRAILLE_KEY_BOTTOM,    /* the latest half-move */
    TB_BRAILLE_KEY_HOME,      /* back to the status line */
    TB_BRAILLE_KEY_CLOCK,     /* ask for the clock */
    TB_BRAILLE_KEY__COUNT
};

enum tb_braille_mode {
    TB_BRAILLE_STATUS = 0,     /* state and last move */
    TB_BRAILLE_SCORESHEET = 1, /* one half-move a line */
    TB_BRAILLE_CLOCK = 2,      /* the clock, until a key or news */
};

/* What tb_braille_view_key asks the caller to do. */
enum {
    TB_BRAILLE_UNCHANGED = 0, /* nothing to show (at an edge, an unknown key) */
    TB_BRAILLE_REDRAW = 1,    /* the window changed: render and write it */
    TB_BRAILLE_WANT_CLOCK = 2 /* build the clock text and give it to tb_braille_view_clock */
};

#define TB_BRAILLE_CELLS_MAX 256  /* the widest display taken; wider ones use this many cells */
#define TB_BRAILLE_TEXT_MAX  1024 /* the longest text of a line, in bytes (longer is refused) */

struct tb_braille_view;

/* A view for a display of `cells` cells (1..TB_BRAILLE_CELLS_MAX), showing the status line. */
int tb_braille_view_new(int cells, struct tb_braille_view **out);
void tb_braille_view_free(struct tb_braille_view *view);
int tb_braille_view_cells(const struct tb_braille_view *view);
enum tb_braille_mode tb_braille_view_mode(const struct tb_braille_view *view);
/* The scoresheet line shown (0 = the first half-move), -1 outside the scoresheet. */
int tb_braille_view_line(const struct tb_braille_view *view);

/* News: each brings the status line back, from its start, so the player finds it at once.
 * last_move: the move phrase (tb_voice_phrase_move); state: what the player must do or know
 * (tb_voice_phrase_msg: replicate, mismatch, put_right ...; "" when nothing). Text is UTF-8
 * without control characters, at most TB_BRAILLE_TEXT_MAX bytes: else TB_ERR_ARG and nothing
 * changes. */
int tb_braille_view_last_move(struct tb_braille_view *view, const char *last_move);
int tb_braille_view_state(struct tb_braille_view *view, const char *state);
/* The clock's text (tb_voice_phrase_msg TB_VOICE_MSG_CLOCK), shown until the next key or news. */
int tb_braille_view_clock(struct tb_braille_view *view, const char *clock);

/* The scoresheet: one line per half-move, "Zug 12, Weiß: Springer Gustav eins Felix drei"
 * (tb_voice_review_ply in the player's pack). set_game rebuilds every line from the game; append
 * adds one. The line being read stays where it is. */
int tb_braille_view_set_game(struct tb_braille_view *view, const struct tb_voice_pack *pack,
                             const tb_chess_game *game, enum tb_voice_form form);
int tb_braille_view_append(struct tb_braille_view *view, const char *line);

/* Applies a key; returns TB_BRAILLE_UNCHANGED, _REDRAW or _WANT_CLOCK, or TB_ERR_ARG. */
int tb_braille_view_key(struct tb_braille_view *view, enum tb_braille_key key);

/* The window as the display shows it: exactly `cells` characters (UTF-8, padded with spaces).
 * Returns the length in bytes or TB_ERR_FULL; 4 * TB_BRAILLE_CELLS_MAX + 1 bytes always do. */
int tb_braille_view_render(const struct tb_braille_view *view, char *buf, size_t len);

/* ---- drivers ----------------------------------------------------------------------------- */

/* One display. All calls from one thread. */
struct tb_braille_ops {
    const char *name;
    /* Connects. target: the BrlAPI host ("127.0.0.1:1", ":0"; NULL or "" = BrlAPI's default),
     * auth: BrlAPI's auth setting (NULL = default). *cells: the display's width. */
    int (*open)(void **state, const char *target, const char *auth, int *cells,
                struct tb_error *err);
    /* Shows exactly `cells` characters of UTF-8 text (computer braille, BRLTTY's text table). */
    int (*write)(void *state, const char *text);
    /* Takes one key without waiting: 1 and *key (TB_BRAILLE_KEY_NONE for a key without a use
     * here), 0 when none waits, or an error (the connection is lost). */
    int (*read_key)(void *state, enum tb_braille_key *key);
    /* A descriptor readable when keys wait (for poll), or -1. */
    int (*fd)(void *state);
    void (*close)(void *state);
};

/* Shows nothing, has no keys; 40 cells. For a player without a display. */
extern const struct tb_braille_ops tb_braille_null;
/* BRLTTY through BrlAPI. Open fails with TB_ERR_SUPP in a build without BrlAPI, and with
 * TB_ERR_NOTFOUND (err: where it looked and why) when BRLTTY cannot be reached. */
extern const struct tb_braille_ops tb_braille_brlapi;
/* Was this build made with BrlAPI? */
bool tb_braille_brlapi_built(void);

/* ---- a player's display: a view and a driver ---------------------------------------------- */

struct tb_braille_display;

/* Opens the driver (NULL ops: tb_braille_null) and a view of its width, and shows the empty
 * status line. On failure nothing is left open; err says why, once. */
int tb_braille_display_open(const struct tb_braille_ops *ops, const char *target, const char *auth,
                            struct tb_braille_display **out, struct tb_error *err);
void tb_braille_display_free(struct tb_braille_display *display);
struct tb_braille_view *tb_braille_display_view(struct tb_braille_display *display);
/* Writes the view to the display when it differs from what the display shows. */
int tb_braille_display_update(struct tb_braille_display *display);
/* Reads every waiting key, applies each to the view and updates the display. Returns
 * TB_BRAILLE_WANT_CLOCK when a key asked for the clock (then call tb_braille_view_clock and
 * tb_braille_display_update), else TB_OK, or the driver's error (the connection is lost). */
int tb_braille_display_poll(struct tb_braille_display *display);
/* The driver's descriptor for poll, or -1. */
int tb_braille_display_fd(const struct tb_braille_display *display);

#endif /* TB_BRAILLE_H */
