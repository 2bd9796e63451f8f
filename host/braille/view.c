/* view.c - what one player's braille display shows, and how its keys move through it. Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_braille.h"

#define STATUS_SEP " - "

struct tb_braille_view {
    int cells;
    enum tb_braille_mode mode;
    int line;     /* scoresheet line shown */
    size_t start; /* byte offset of the window in the text shown */
    char last[TB_BRAILLE_TEXT_MAX + 1];
    char state[TB_BRAILLE_TEXT_MAX + 1];
    char clock[TB_BRAILLE_TEXT_MAX + 1];
    char status[2 * TB_BRAILLE_TEXT_MAX + sizeof STATUS_SEP];
    char **lines;
    int nlines, cap;
};

/* UTF-8 without control characters, at most TB_BRAILLE_TEXT_MAX bytes: what a display takes. */
static bool text_ok(const char *s)
{
    if (!s || strlen(s) > TB_BRAILLE_TEXT_MAX || !tb_voice_utf8_valid(s))
        return false;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if (*u < 0x20 || *u == 0x7F)
            return false;
    return true;
}

/* Bytes of the character at s. */
static size_t char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    return c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
}

static const char *text_of(const struct tb_braille_view *v)
{
    switch (v->mode) {
    case TB_BRAILLE_SCORESHEET:
        return v->lines[v->line];
    case TB_BRAILLE_CLOCK:
        return v->clock;
    case TB_BRAILLE_STATUS:
        break;
    }
    return v->status;
}

/* The window starting at start: its end (*end) and where the next window starts (the end of the
 * text when there is none). A word that would be split moves whole to the next window, unless
 * it is longer than the display. */
static size_t window(const char *text, size_t start, int cells, size_t *end)
{
    size_t at = start;
    for (int n = 0; n < cells && text[at]; n++)
        at += char_len(text + at);
    /* The status line's parts (state, last move) are kept apart when the rest does not fit. */
    const char *sep = NULL;
    for (const char *p = strstr(text + start, STATUS_SEP); text[at] && p && p + 3 <= text + at;
         p = strstr(p + 1, STATUS_SEP))
        sep = p;
    if (sep && sep > text + start) {
        at = (size_t)(sep - text) + 2; /* up to and with the dash */
    } else if (text[at] && text[at] != ' ' && at > start && text[at - 1] != ' ') {
        size_t sp = at;
        while (sp > start && text[sp - 1] != ' ')
            sp--;
        if (sp > start)
            at = sp - 1; /* the space before the word */
    }
    *end = at;
    while (text[at] == ' ')
        at++;
    return at;
}

/* Start of the last window of text. */
static size_t last_window(const char *text, int cells)
{
    size_t s = 0, end;
    for (size_t next; text[next = window(text, s, cells, &end)];)
        s = next;
    return s;
}

/* Start of the window before the one at start (start > 0). */
static size_t previous_window(const char *text, size_t start, int cells)
{
    size_t s = 0, end;
    for (size_t next; (next = window(text, s, cells, &end)) < start;)
        s = next;
    return s;
}

static void compose_status(struct tb_braille_view *v)
{
    const char *sep = *v->state && *v->last ? STATUS_SEP : "";
    snprintf(v->status, sizeof v->status, "%s%s%s", v->state, sep, v->last);
}

int tb_braille_view_new(int cells, struct tb_braille_view **out)
{
    if (!out || cells < 1)
        return TB_ERR_ARG;
    struct tb_braille_view *v = calloc(1, sizeof *v);
    if (!v)
        return TB_ERR_MEM;
    v->cells = cells > TB_BRAILLE_CELLS_MAX ? TB_BRAILLE_CELLS_MAX : cells;
    v->line = -1;
    *out = v;
    return TB_OK;
}

void tb_braille_view_free(struct tb_braille_view *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->nlines; i++)
        free(v->lines[i]);
    free(v->lines);
    free(v);
}

int tb_braille_view_cells(const struct tb_braille_view *v)
{
    return v ? v->cells : TB_ERR_ARG;
}

enum tb_braille_mode tb_braille_view_mode(const struct tb_braille_view *v)
{
    return v ? v->mode : TB_BRAILLE_STATUS;
}

int tb_braille_view_line(const struct tb_braille_view *v)
{
    return v && v->mode == TB_BRAILLE_SCORESHEET ? v->line : -1;
}

static void show(struct tb_braille_view *v, enum tb_braille_mode mode, int line)
{
    v->mode = mode;
    v->line = mode == TB_BRAILLE_SCORESHEET ? line : -1;
    v->start = 0;
}

static int set_text(struct tb_braille_view *v, char *field, const char *text,
                    enum tb_braille_mode mode)
{
    if (!v || !text_ok(text))
        return TB_ERR_ARG;
    memcpy(field, text, strlen(text) + 1);
    compose_status(v);
    show(v, mode, -1);
    return TB_OK;
}

int tb_braille_view_last_move(struct tb_braille_view *v, const char *text)
{
    return set_text(v, v ? v->last : NULL, text, TB_BRAILLE_STATUS);
}

int tb_braille_view_state(struct tb_braille_view *v, const char *text)
{
    return set_text(v, v ? v->state : NULL, text, TB_BRAILLE_STATUS);
}

int tb_braille_view_clock(struct tb_braille_view *v, const char *text)
{
    return set_text(v, v ? v->clock : NULL, text, TB_BRAILLE_CLOCK);
}

int tb_braille_view_append(struct tb_braille_view *v, const char *line)
{
    if (!v || !text_ok(line))
        return TB_ERR_ARG;
    if (v->nlines == v->cap) {
        int cap = v->cap ? 2 * v->cap : 64;
        char **grown = realloc(v->lines, (size_t)cap * sizeof *grown);
        if (!grown)
            return TB_ERR_MEM;
        v->lines = grown;
        v->cap = cap;
    }
    if (!(v->lines[v->nlines] = strdup(line)))
        return TB_ERR_MEM;
    v->nlines++;
    return TB_OK;
}

int tb_braille_view_set_game(struct tb_braille_view *v, const struct tb_voice_pack *pack,
                             const tb_chess_game *game, enum tb_voice_form form)
{
    if (!v || !pack || !game)
        return TB_ERR_ARG;
    /* Built aside first: a game that cannot be phrased changes nothing. */
    struct tb_braille_view fresh = {.cells = v->cells};
    for (int i = 0; i < game->plies; i++) {
        char line[TB_BRAILLE_TEXT_MAX + 1];
        int rc = tb_voice_review_ply(pack, game, i, form, line, sizeof line);
        if (rc >= 0)
            rc = tb_braille_view_append(&fresh, line);
        if (rc < 0) {
            for (int k = 0; k < fresh.nlines; k++)
                free(fresh.lines[k]);
            free(fresh.lines);
            return rc;
        }
    }
    for (int k = 0; k < v->nlines; k++)
        free(v->lines[k]);
    free(v->lines);
    v->lines = fresh.lines;
    v->nlines = fresh.nlines;
    v->cap = fresh.cap;
    if (v->mode == TB_BRAILLE_SCORESHEET && v->line >= v->nlines) {
        if (v->nlines == 0)
            show(v, TB_BRAILLE_STATUS, -1);
        else
            show(v, TB_BRAILLE_SCORESHEET, v->nlines - 1);
    }
    return TB_OK;
}

static int pan_right(struct tb_braille_view *v)
{
    const char *text = text_of(v);
    size_t end, next = window(text, v->start, v->cells, &end);
    if (text[next]) {
        v->start = next;
        return TB_BRAILLE_REDRAW;
    }
    if (v->mode == TB_BRAILLE_SCORESHEET && v->line + 1 < v->nlines) {
        show(v, TB_BRAILLE_SCORESHEET, v->line + 1);
        return TB_BRAILLE_REDRAW;
    }
    return TB_BRAILLE_UNCHANGED;
}

static int pan_left(struct tb_braille_view *v)
{
    if (v->start > 0) {
        v->start = previous_window(text_of(v), v->start, v->cells);
        return TB_BRAILLE_REDRAW;
    }
    if (v->mode == TB_BRAILLE_SCORESHEET && v->line > 0) {
        show(v, TB_BRAILLE_SCORESHEET, v->line - 1);
        v->start = last_window(text_of(v), v->cells);
        return TB_BRAILLE_REDRAW;
    }
    return TB_BRAILLE_UNCHANGED;
}

/* Goes to a scoresheet line (or stays when there is none or it is shown already). */
static int go_line(struct tb_braille_view *v, int line)
{
    if (v->nlines == 0 || line < 0 || line >= v->nlines)
        return TB_BRAILLE_UNCHANGED;
    if (v->mode == TB_BRAILLE_SCORESHEET && v->line == line && v->start == 0)
        return TB_BRAILLE_UNCHANGED;
    show(v, TB_BRAILLE_SCORESHEET, line);
    return TB_BRAILLE_REDRAW;
}

int tb_braille_view_key(struct tb_braille_view *v, enum tb_braille_key key)
{
    if (!v || (unsigned)key >= TB_BRAILLE_KEY__COUNT)
        return TB_ERR_ARG;
    bool in_sheet = v->mode == TB_BRAILLE_SCORESHEET;
    /* The clock is shown until a key other than panning or the clock itself. */
    bool left_clock = false;
    if (v->mode == TB_BRAILLE_CLOCK && key != TB_BRAILLE_KEY_PAN_LEFT &&
        key != TB_BRAILLE_KEY_PAN_RIGHT && key != TB_BRAILLE_KEY_CLOCK) {
        show(v, TB_BRAILLE_STATUS, -1);
        left_clock = true;
    }
    int rc = TB_BRAILLE_UNCHANGED;
    switch (key) {
    case TB_BRAILLE_KEY_NONE:
    case TB_BRAILLE_KEY__COUNT:
        break;
    case TB_BRAILLE_KEY_PAN_LEFT:
        rc = pan_left(v);
        break;
    case TB_BRAILLE_KEY_PAN_RIGHT:
        rc = pan_right(v);
        break;
    case TB_BRAILLE_KEY_LINE_UP:
        rc = go_line(v, in_sheet ? v->line - 1 : v->nlines - 1);
        break;
    case TB_BRAILLE_KEY_LINE_DOWN:
        if (in_sheet && v->line + 1 >= v->nlines) {
            show(v, TB_BRAILLE_STATUS, -1);
            rc = TB_BRAILLE_REDRAW;
        } else if (in_sheet) {
            rc = go_line(v, v->line + 1);
        }
        break;
    case TB_BRAILLE_KEY_TOP:
        rc = go_line(v, 0);
        break;
    case TB_BRAILLE_KEY_BOTTOM:
        rc = go_line(v, v->nlines - 1);
        break;
    case TB_BRAILLE_KEY_HOME:
        if (v->mode != TB_BRAILLE_STATUS || v->start > 0) {
            show(v, TB_BRAILLE_STATUS, -1);
            rc = TB_BRAILLE_REDRAW;
        }
        break;
    case TB_BRAILLE_KEY_CLOCK:
        return TB_BRAILLE_WANT_CLOCK;
    }
    return left_clock && rc == TB_BRAILLE_UNCHANGED ? TB_BRAILLE_REDRAW : rc;
}

int tb_braille_view_render(const struct tb_braille_view *v, char *buf, size_t len)
{
    if (!v || !buf)
        return TB_ERR_ARG;
    const char *text = text_of(v);
    size_t end;
    window(text, v->start, v->cells, &end);
    size_t n = end - v->start, chars = 0;
    for (size_t i = v->start; i < end; i += char_len(text + i))
        chars++;
    size_t total = n + (size_t)v->cells - chars;
    if (total + 1 > len)
        return TB_ERR_FULL;
    memcpy(buf, text + v->start, n);
    memset(buf + n, ' ', total - n);
    buf[total] = '\0';
    return (int)total;
}
