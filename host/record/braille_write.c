/* braille_write.c - the braille scoresheet: header through liblouis, moves in the braille chess
 * notation (braille_move.c), laid out as BRF pages for an embosser or Unicode lines for a
 * display. */
#include <liblouis/liblouis.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"
#include "tb_record.h"

struct line {
    int n;
    tb_record_cell c[TB_RECORD_SIZE_MAX];
};

struct sheet {
    int width;
    int n, cap;
    struct line *l;
};

static struct line *new_line(struct sheet *s)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        struct line *l = realloc(s->l, (size_t)cap * sizeof *l);
        if (!l)
            return NULL;
        s->l = l;
        s->cap = cap;
    }
    struct line *l = &s->l[s->n++];
    l->n = 0;
    return l;
}

/* Appends cells as words to lines of at most width cells: a line breaks at an empty cell, and a
 * word longer than a line is cut where the line ends. */
static int put_wrapped(struct sheet *s, const tb_record_cell *c, int n)
{
    struct line *l = new_line(s);
    if (!l)
        return TB_ERR_MEM;
    int i = 0;
    while (i < n) {
        while (i < n && c[i] == 0)
            i++;
        int end = i;
        while (end < n && c[end] != 0)
            end++;
        int len = end - i;
        if (len == 0)
            break;
        int need = l->n ? l->n + 1 + len : len;
        if (need > s->width && l->n) {
            if (!(l = new_line(s)))
                return TB_ERR_MEM;
        }
        if (l->n)
            l->c[l->n++] = 0;
        while (i < end) {
            if (l->n == s->width && !(l = new_line(s)))
                return TB_ERR_MEM;
            l->c[l->n++] = c[i++];
        }
    }
    return TB_OK;
}

int tb_record_braille_table(enum tb_chess_letters lang, int grade, const char **table,
                            struct tb_error *err)
{
    static const char *const tables[3][2] = {
        {"en-ueb-g1.ctb", "en-ueb-g2.ctb"},
        {"nl-NL-g0.utb", NULL},
        {"de-g1.ctb", "de-g2.ctb"},
    };
    static const char *const names[3] = {"English", "Dutch", "German"};
    if ((unsigned)lang > 2 || grade < 1 || grade > 2)
        return tb_error_set(err, TB_ERR_ARG, "grade %d: use 1 (uncontracted) or 2 (contracted)",
                            grade);
    if (!tables[lang][grade - 1])
        return tb_error_set(err, TB_ERR_SUPP, "grade %d: %s braille has no contracted grade; use 1",
                            grade, names[lang]);
    *table = tables[lang][grade - 1];
    return TB_OK;
}

/* UTF-8 text through liblouis into cells (n: in/out). */
static int translate(const char *table, const char *text, tb_record_cell *out, int *n,
                     struct tb_error *err)
{
    widechar in[512], res[1024];
    int inlen = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && inlen < 511;) {
        unsigned cp = *p++;
        int more = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : cp >= 0xc0 ? 1 : 0;
        cp &= more == 3 ? 0x07 : more == 2 ? 0x0f : more == 1 ? 0x1f : 0x7f;
        while (more-- && (*p & 0xc0) == 0x80)
            cp = (cp << 6) | (*p++ & 0x3f);
        in[inlen++] = cp;
    }
    int outlen = (int)(sizeof res / sizeof res[0]);
    if (!lou_translateString(table, in, &inlen, res, &outlen, NULL, NULL, ucBrl | dotsIO))
        return tb_error_set(err, TB_ERR_SUPP,
                            "liblouis cannot translate with the table %s (is liblouis-data "
                            "installed?)",
                            table);
    if (outlen > *n)
        outlen = *n;
    for (int i = 0; i < outlen; i++)
        out[i] = (tb_record_cell)(res[i] & 63);
    *n = outlen;
    return TB_OK;
}

static int put_text(struct sheet *s, const char *table, const char *text, struct tb_error *err)
{
    tb_record_cell c[1024];
    int n = (int)(sizeof c);
    int rc = translate(table, text, c, &n, err);
    return rc ? rc : put_wrapped(s, c, n);
}

static int put_header(struct sheet *s, const tb_chess_pgn_game *g, enum tb_chess_letters lang,
                      const char *table, struct tb_error *err)
{
    char text[8][400];
    int n = tb_record__header(g, lang, text, 8);
    for (int i = 0; i < n; i++) {
        int rc = put_text(s, table, text[i], err);
        if (rc)
            return rc;
    }
    return TB_OK;
}

/* A number in lower digits (BRF digits), as the code writes move numbers. */
static int lower_number(int v, tb_record_cell *c)
{
    char d[12];
    int n = snprintf(d, sizeof d, "%d", v);
    for (int i = 0; i < n; i++)
        c[i] = (tb_record_cell)tb_record_brf_cell(d[i]);
    return n;
}

enum { DOTS_36 = 36 }; /* before Black's move at the start of a line (print's "...") */

static int put_moves(struct sheet *s, const tb_chess_pgn_game *g, enum tb_chess_letters lang,
                     struct tb_error *err)
{
    tb_chess_pos pos = g->game.start;
    const tb_chess_game *game = &g->game;
    struct line *l = NULL;
    for (int ply = 0; ply < game->plies; ply++) {
        tb_chess_move m = game->moves[ply];
        tb_record_cell mv[16];
        int n = tb_record_braille_move(&pos, m, lang, mv, sizeof mv);
        if (n < 0)
            return tb_error_set(err, TB_ERR_STATE, "move %d (ply %d) does not replay", pos.fullmove,
                                ply + 1);
        bool white = pos.side == TB_CHESS_WHITE;
        if (white || !l) {
            if (!(l = new_line(s)))
                return TB_ERR_MEM;
            l->n = lower_number(pos.fullmove, l->c);
            l->c[l->n++] = 0;
            if (!white)
                l->c[l->n++] = DOTS_36;
        } else if (l->n + 1 + n > s->width) {
            if (!(l = new_line(s)))
                return TB_ERR_MEM;
            l->c[l->n++] = DOTS_36;
        } else {
            l->c[l->n++] = 0;
        }
        memcpy(&l->c[l->n], mv, (size_t)n);
        l->n += n;
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
    }
    return TB_OK;
}

static int put_cells(FILE *out, const struct line *l, bool unicode)
{
    for (int i = 0; i < l->n; i++) {
        if (unicode) {
            unsigned char u[3] = {0xe2, 0xa0, (unsigned char)(0x80 + (l->c[i] & 63))};
            if (fwrite(u, 1, 3, out) != 3)
                return TB_ERR_SYS;
        } else if (fputc(tb_record_brf_char(l->c[i]), out) == EOF) {
            return TB_ERR_SYS;
        }
    }
    return fputs(unicode ? "\n" : "\r\n", out) == EOF ? TB_ERR_SYS : TB_OK;
}

/* The page number, number sign and upper digits, at the right end of the page's last line. */
static int put_page_number(FILE *out, int page, int width)
{
    static const tb_record_cell upper[10] = {26, 1, 3, 9, 25, 17, 11, 27, 19, 10};
    char d[12];
    int n = snprintf(d, sizeof d, "%d", page);
    struct line l = {0};
    while (l.n < width - n - 1)
        l.c[l.n++] = 0;
    l.c[l.n++] = 60;
    for (int i = 0; i < n; i++)
        l.c[l.n++] = upper[d[i] - '0'];
    return put_cells(out, &l, false);
}

static int emit(FILE *out, const struct sheet *s, int lines, bool unicode)
{
    if (unicode) {
        for (int i = 0; i < s->n; i++)
            if (put_cells(out, &s->l[i], true))
                return TB_ERR_SYS;
        return 1;
    }
    /* Pages of lines - 1 lines and the page number; a blank line never opens a page. */
    int body = lines - 1, pages = 0, k = 0;
    static const struct line blank = {0};
    while (k < s->n) {
        for (int i = 0; i < body; i++) {
            while (i == 0 && k < s->n && s->l[k].n == 0)
                k++;
            if (put_cells(out, k < s->n ? &s->l[k] : &blank, false))
                return TB_ERR_SYS;
            k++;
        }
        if (put_page_number(out, ++pages, s->width) || fputc('\f', out) == EOF)
            return TB_ERR_SYS;
    }
    return pages;
}

int tb_record_braille_write(const tb_chess_pgn_game *g, const struct tb_record_braille_opts *opts,
                            FILE *out, struct tb_error *err)
{
    if (!g || !opts || !out)
        return tb_error_set(err, TB_ERR_ARG, "no game, options or output");
    int cells = opts->cells ? opts->cells : TB_RECORD_CELLS_DEFAULT;
    int lines = opts->lines ? opts->lines : TB_RECORD_LINES_DEFAULT;
    if (cells < TB_RECORD_CELLS_MIN || cells > TB_RECORD_SIZE_MAX)
        return tb_error_set(err, TB_ERR_ARG, "cells %d: a line has %d to %d cells", cells,
                            TB_RECORD_CELLS_MIN, TB_RECORD_SIZE_MAX);
    if (lines < TB_RECORD_LINES_MIN || lines > TB_RECORD_SIZE_MAX)
        return tb_error_set(err, TB_ERR_ARG, "lines %d: a page has %d to %d lines", lines,
                            TB_RECORD_LINES_MIN, TB_RECORD_SIZE_MAX);
    const char *table;
    int rc = tb_record_braille_table(opts->lang, opts->grade ? opts->grade : 1, &table, err);
    if (rc)
        return rc;
    struct sheet s = {.width = cells};
    rc = put_header(&s, g, opts->lang, table, err);
    if (!rc && g->game.plies > 0 && new_line(&s) == NULL)
        rc = TB_ERR_MEM;
    if (!rc)
        rc = put_moves(&s, g, opts->lang, err);
    if (!rc && strcmp(g->result, "*"))
        rc = put_text(&s, table, g->result, err);
    if (!rc)
        rc = emit(out, &s, lines, opts->unicode);
    if (rc == TB_ERR_SYS)
        tb_error_set(err, rc, "writing the braille scoresheet failed");
    else if (rc == TB_ERR_MEM)
        tb_error_set(err, rc, "out of memory");
    free(s.l);
    return rc;
}
