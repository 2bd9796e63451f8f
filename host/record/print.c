/* print.c - the large-print scoresheet: a PDF through cairo in a big type (default 24 pt),
 * the header, one line per move number, the result, and the final position if asked for. */
#include <cairo-pdf.h>
#include <cairo.h>
#include <string.h>

#include "record_internal.h"
#include "tb_record.h"

#define PAGE_W 595.0 /* A4 in points */
#define PAGE_H 842.0
#define MARGIN 48.0
#define FONT   "DejaVu Sans" /* has the chess figurines */

struct page {
    cairo_t *cr;
    double pt, y;
    int pages;
};

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Room for h more points on the page, or a new page. */
static void room(struct page *p, double h)
{
    if (p->y + h > PAGE_H - MARGIN) {
        cairo_show_page(p->cr);
        p->pages++;
        p->y = MARGIN;
    }
}

static double width_of(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* One line of text, wrapped at spaces to the page's width; a wrapped line is indented. */
static void put_line(struct page *p, const char *text, bool bold)
{
    cairo_select_font_face(p->cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(p->cr, p->pt);
    char rest[512];
    snprintf(rest, sizeof rest, "%s", text);
    char *s = rest;
    double indent = 0;
    while (*s) {
        char line[512];
        size_t fit = strlen(s);
        snprintf(line, sizeof line, "%s", s);
        while (width_of(p->cr, line) > PAGE_W - 2 * MARGIN - indent) {
            char *sp = strrchr(line, ' ');
            if (!sp || sp == line)
                break;
            *sp = 0;
            fit = (size_t)(sp - line);
        }
        room(p, p->pt * 1.4);
        p->y += p->pt * 1.4;
        cairo_move_to(p->cr, MARGIN + indent, p->y - p->pt * 0.3);
        cairo_show_text(p->cr, line);
        s += fit;
        while (*s == ' ')
            s++;
        indent = p->pt;
    }
}

/* SAN with figurines for the piece letters (English SAN has only K Q R B N as capitals). */
static void figurines(const char *san, char *out, size_t len)
{
    static const char *const fig[] = {"♔", "♕", "♖", "♗", "♘"};
    static const char letters[] = "KQRBN";
    size_t k = 0;
    for (; *san && k + 4 < len; san++) {
        const char *f = strchr(letters, *san);
        if (*san && f) {
            const char *u = fig[f - letters];
            memcpy(out + k, u, strlen(u));
            k += strlen(u);
        } else {
            out[k++] = *san;
        }
    }
    out[k] = 0;
}

static int move_text(const tb_chess_pos *pos, tb_chess_move m, const struct tb_record_print_opts *o,
                     char *buf, size_t len)
{
    char san[16];
    /* Promotion as on the scoresheet (Appendix C): d8D in Dutch and German, d8=Q in English. */
    enum tb_chess_letters letters = o->figurine ? TB_CHESS_LETTERS_EN : o->lang;
    int n = tb_chess_move_to_san(
        pos, m, letters, letters == TB_CHESS_LETTERS_EN ? 0 : TB_CHESS_SAN_NOEQ, san, sizeof san);
    if (n < 0)
        return n;
    if (o->figurine)
        figurines(san, buf, len);
    else
        snprintf(buf, len, "%s", san);
    return TB_OK;
}

static int put_moves(struct page *p, const tb_chess_pgn_game *g,
                     const struct tb_record_print_opts *o, tb_chess_pos *pos)
{
    char line[160] = ""; /* a number and two moves of at most 63 bytes each */
    for (int ply = 0; ply < g->game.plies; ply++) {
        tb_chess_move m = g->game.moves[ply];
        char mv[64];
        if (move_text(pos, m, o, mv, sizeof mv))
            return TB_ERR_STATE;
        if (pos->side == TB_CHESS_WHITE) {
            snprintf(line, sizeof line, "%d. %s", pos->fullmove, mv);
        } else if (!*line) {
            snprintf(line, sizeof line, "%d. ... %s", pos->fullmove, mv);
        } else {
            /* Black's half on White's line when the pair fits the page. */
            size_t a = strlen(line), b = strlen(mv);
            line[a] = ' ';
            memcpy(line + a + 1, mv, b + 1); /* a + b + 2 <= 2 * 64: line holds it */
            cairo_select_font_face(p->cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
            cairo_set_font_size(p->cr, p->pt);
            if (width_of(p->cr, line) > PAGE_W - 2 * MARGIN) {
                line[a] = 0;
                put_line(p, line, false);
                snprintf(line, sizeof line, "%d. ... %s", pos->fullmove, mv);
            }
        }
        if (pos->side == TB_CHESS_BLACK) {
            put_line(p, line, false);
            *line = 0;
        }
        tb_chess_undo u;
        tb_chess_make(pos, m, &u);
    }
    if (*line)
        put_line(p, line, false);
    return TB_OK;
}

/* The final position: eight ranks from 8 down, White's pieces as outline figurines. */
static void put_diagram(struct page *p, const tb_chess_pos *pos)
{
    static const char *const fig[2][7] = {{"", "♙", "♘", "♗", "♖", "♕", "♔"},
                                          {"", "♟", "♞", "♝", "♜", "♛", "♚"}};
    double sq = (PAGE_W - 2 * MARGIN - p->pt) / 8;
    if (sq > p->pt * 2)
        sq = p->pt * 2;
    room(p, sq * 8 + p->pt * 2.5);
    p->y += p->pt;
    double x0 = MARGIN + p->pt, y0 = p->y;
    cairo_select_font_face(p->cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    for (int r = 7; r >= 0; r--)
        for (int f = 0; f < 8; f++) {
            double x = x0 + f * sq, y = y0 + (7 - r) * sq;
            cairo_rectangle(p->cr, x, y, sq, sq);
            double shade = (r + f) % 2 ? 1.0 : 0.75; /* a1 is dark */
            cairo_set_source_rgb(p->cr, shade, shade, shade);
            cairo_fill_preserve(p->cr);
            cairo_set_source_rgb(p->cr, 0, 0, 0);
            cairo_set_line_width(p->cr, 1);
            cairo_stroke(p->cr);
            int pc = tb_chess_piece_at(pos, TB_CHESS_SQ(f, r));
            if (pc) {
                cairo_set_font_size(p->cr, sq * 0.8);
                const char *s = fig[TB_CHESS_PIECE_COLOR(pc)][TB_CHESS_PIECE_TYPE(pc)];
                cairo_move_to(p->cr, x + (sq - width_of(p->cr, s)) / 2, y + sq * 0.8);
                cairo_show_text(p->cr, s);
            }
        }
    cairo_set_font_size(p->cr, p->pt * 0.6);
    for (int i = 0; i < 8; i++) {
        char file[2] = {(char)('a' + i), 0}, rank[2] = {(char)('8' - i), 0};
        cairo_move_to(p->cr, x0 + i * sq + sq * 0.4, y0 + 8 * sq + p->pt * 0.7);
        cairo_show_text(p->cr, file);
        cairo_move_to(p->cr, MARGIN, y0 + i * sq + sq * 0.6);
        cairo_show_text(p->cr, rank);
    }
    p->y = y0 + 8 * sq + p->pt;
}

/* One game from the top of a page. */
static int put_game(struct page *p, const tb_chess_pgn_game *g,
                    const struct tb_record_print_opts *opts)
{
    char lines[8][400];
    int n = tb_record__header(g, opts->lang, lines, 8);
    for (int i = 0; i < n; i++)
        put_line(p, lines[i], true);
    p->y += p->pt;
    tb_chess_pos pos = g->game.start;
    int rc = put_moves(p, g, opts, &pos);
    if (!rc && strcmp(g->result, "*"))
        put_line(p, g->result, true);
    if (!rc && opts->diagram)
        put_diagram(p, &pos);
    return rc;
}

int tb_record_print_write(const tb_chess_pgn_game *const *games, int ngames,
                          const struct tb_record_print_opts *opts, FILE *out, struct tb_error *err)
{
    if (!games || ngames < 1 || !opts || !out)
        return tb_error_set(err, TB_ERR_ARG, "no games, options or output");
    double pt = opts->pt > 0 ? opts->pt : TB_RECORD_PT_DEFAULT;
    if (pt < TB_RECORD_PT_MIN || pt > TB_RECORD_PT_MAX)
        return tb_error_set(err, TB_ERR_ARG, "type size %g pt: use %d to %d", pt, TB_RECORD_PT_MIN,
                            TB_RECORD_PT_MAX);
    /* Replayed first, so that a game that does not replay leaves nothing written. */
    for (int k = 0; k < ngames; k++) {
        tb_chess_pos pos = games[k]->game.start;
        for (int i = 0; i < games[k]->game.plies; i++) {
            if (!tb_chess_is_legal(&pos, games[k]->game.moves[i]))
                return tb_error_set(err, TB_ERR_STATE, "game %ld: ply %d does not replay",
                                    games[k]->number, i + 1);
            tb_chess_undo u;
            tb_chess_make(&pos, games[k]->game.moves[i], &u);
        }
    }
    cairo_surface_t *surf = cairo_pdf_surface_create_for_stream(to_file, out, PAGE_W, PAGE_H);
    cairo_t *cr = cairo_create(surf);
    struct page p = {.cr = cr, .pt = pt, .y = MARGIN, .pages = 1};
    cairo_set_source_rgb(cr, 0, 0, 0);
    int rc = TB_OK;
    for (int k = 0; k < ngames && !rc; k++) {
        if (k > 0) { /* each game on a page of its own */
            cairo_show_page(cr);
            p.pages++;
            p.y = MARGIN;
        }
        rc = put_game(&p, games[k], opts);
    }
    cairo_show_page(cr);
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    cairo_status_t st = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (rc)
        return tb_error_set(err, rc, "a game's moves do not replay");
    if (st != CAIRO_STATUS_SUCCESS)
        return tb_error_set(err, TB_ERR_SYS, "writing the PDF failed: %s",
                            cairo_status_to_string(st));
    return p.pages;
}
