/* daemon_outputs.c - the words of what the match decided: the arbiter's view of a mismatch
 * (D.2.9), the notes for the PGN (kept in the session's state), colours and plies named. The
 * twin game's outputs are carried out beside its mode table (daemon_feed.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_table.h"
#include "daemon_vi.h"

const char *tb_daemon__color_name(int c)
{
    return c == TB_CHESS_BLACK ? "Black" : "White";
}

void tb_daemon__ply_words(int ply, char *buf, size_t len)
{
    if (ply < 1)
        snprintf(buf, len, "the start");
    else
        snprintf(buf, len, "move %d, %s (ply %d)", (ply + 1) / 2,
                 tb_daemon__color_name((ply - 1) % 2), ply);
}

void tb_daemon__note(struct tb_daemon *d, int ply, const char *fmt, ...)
{
    if (d->session->nnotes == TBD_NOTES) {
        memmove(d->session->note, d->session->note + 1,
                sizeof d->session->note[0] * (TBD_NOTES - 1));
        d->session->nnotes--;
    }
    struct tb_daemon__note *n = &d->session->note[d->session->nnotes++];
    n->ply = ply;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
    for (char *p = n->text; *p; p++)
        if (*p == '}' || *p == '{' || *p == '\n')
            *p = ' '; /* a PGN comment cannot hold braces */
}

static void squares_text(uint64_t set, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t used = 0;
    int k = 0;
    for (int sq = 0; sq < 64 && used + 12 < len; sq++) {
        if (!(set & TB_CHESS_BIT(sq)))
            continue;
        char s[3]; /* 16 squares a line: a whole board's are four short lines */
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 !used    ? ""
                                 : k % 16 ? " "
                                          : "\n                 ",
                                 tb_chess_square_name(sq, s));
        k++;
    }
    if (!used)
        snprintf(buf, len, "-");
}

/* The steps that put one board right, "; " between them; after every TBD_FIX_STEPS_PER_LINE
 * steps a new line, indented under the first, so a whole board to set up stays readable. */
static void fix_text(const struct tb_match_fix *fix, char *buf, size_t len)
{
    size_t u = 0;
    int steps = 0;
    buf[0] = '\0';
    if (!fix->change) {
        snprintf(buf, len, "nothing to change");
        return;
    }
    char a[3], b[3];
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (steps)                                                                                 \
            u += (size_t)snprintf(buf + u, u < len ? len - u : 0, "%s",                            \
                                  steps % TBD_FIX_STEPS_PER_LINE ? "; " : ";\n      ");            \
        u += (size_t)snprintf(buf + u, u < len ? len - u : 0, __VA_ARGS__);                        \
        steps++;                                                                                   \
    } while (0)
    for (int i = 0; i < fix->ntakeback && u < len; i++)
        ADD("take back %s (%s)", fix->takeback[i].san, fix->takeback[i].uci);
    for (int i = 0; i < fix->npairs && u < len; i++)
        ADD("move the piece on %s to %s", tb_chess_square_name(fix->lift_list[i].sq, a),
            tb_chess_square_name(fix->place_list[i].sq, b));
    for (int i = fix->npairs; i < fix->nlift && u < len; i++)
        ADD("lift the piece on %s", tb_chess_square_name(fix->lift_list[i].sq, a));
    for (int i = fix->npairs; i < fix->nplace && u < len; i++) {
        int p = fix->place_list[i].piece;
        char letter = p ? tb_chess_piece_letter(TB_CHESS_PIECE_TYPE(p), TB_CHESS_LETTERS_EN) : 0;
        ADD("put a %s%s on %s", p ? tb_daemon__color_name(TB_CHESS_PIECE_COLOR(p)) : "piece",
            p ? (letter ? (char[]){' ', letter, 0} : " pawn") : "",
            tb_chess_square_name(fix->place_list[i].sq, b));
    }
    if (u < len)
        ADD("then the board shows the position after %d plies", fix->target_ply);
#undef ADD
}

/* A line of the view longer than TBD_VIEW_LONG (the match's description of a whole board to
 * set up) is broken at spaces into lines of at most TBD_VIEW_WIDTH, indented under its text. */
#define TBD_VIEW_LONG  200
#define TBD_VIEW_WIDTH 150
static void wrap(char *buf, size_t len)
{
    size_t n = strlen(buf);
    char *out = malloc(2 * n + 1);
    if (!out)
        return;
    size_t o = 0;
    for (const char *line = buf; *line;) {
        size_t l = strcspn(line, "\n"), col = 0, indent = strspn(line, " ") + 8;
        for (size_t i = 0; i < l;) {
            size_t word = strcspn(line + i, " \n");
            if (l > TBD_VIEW_LONG && col > indent && col + word > TBD_VIEW_WIDTH) {
                while (o && out[o - 1] == ' ')
                    o--;
                out[o++] = '\n';
                memset(out + o, ' ', indent);
                o += indent;
                col = indent;
                while (i < l && line[i] == ' ')
                    i++;
                continue;
            }
            memcpy(out + o, line + i, word);
            o += word, col += word, i += word;
            for (; i < l && line[i] == ' '; i++, col++)
                out[o++] = ' ';
        }
        line += l;
        if (*line == '\n')
            out[o++] = *line++;
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
    free(out);
}

void tb_daemon__mismatch_view(const struct tb_daemon *d, const struct tb_match_mismatch *mm,
                              char *buf, size_t len)
{
    char sq[400], since[64], fix[2][3000];
    squares_text(mm->squares, sq, sizeof sq);
    tb_daemon__ply_words(mm->ply, since, sizeof since);
    for (int b = 0; b < TBD_BOARDS; b++)
        fix_text(&mm->fix[b], fix[b], sizeof fix[b]);
    int on = mm->board >= 0 && mm->board < TBD_BOARDS ? mm->board : 0;
    snprintf(buf, len,
             "MISMATCH %u (%s) on the %s board (%s)\n"
             "  what:   %s\n"
             "  where:  %s board, squares %s\n"
             "  since:  %s\n"
             "  vi player (%s): %s\n"
             "  sighted player (%s): %s\n"
             "  resolution: %s\n"
             "  arbiter: %s",
             mm->id, tb_match_mismatch_name(mm->kind), tb_daemon__board_name(on),
             tb_daemon__color_name(d->session->mcfg.board[on].color), mm->text,
             tb_daemon__board_name(on), sq, since,
             tb_daemon__color_name(d->session->mcfg.board[0].color), fix[0],
             tb_daemon__color_name(d->session->mcfg.board[1].color), fix[1], mm->resolution,
             mm->needs_arbiter ? "take the moves back: twinboard takeback N, or confirm the "
                                 "proposal: twinboard resolve ID"
                               : "confirm once the board is put right: twinboard resolve ID");
    /* ID in the last line: the real number */
    char *p = strstr(buf, "resolve ID");
    if (p) {
        char tail[32];
        snprintf(tail, sizeof tail, "resolve %u", mm->id);
        size_t keep = (size_t)(p - buf);
        snprintf(buf + keep, len - keep, "%s", tail);
    }
    wrap(buf, len);
}

int tb_daemon__plies(const struct tb_daemon *d)
{
    struct tb_match_status st;
    tb_match_status(d->session->match, &st);
    return st.plies;
}

/* The notes of the PGN a decision leaves: the same words live, in replay, and from the journal's
 * own records when recovery passes over lost board events (daemon_recover.c). */
void tb_daemon__note_mismatch(struct tb_daemon *d, unsigned id, const char *kind, int board,
                              int ply, const char *text)
{
    char since[64];
    tb_daemon__ply_words(ply, since, sizeof since);
    tb_daemon__note(d, tb_daemon__plies(d),
                    "the boards disagreed (D.2.9): mismatch %u, %s on the %s board "
                    "since %s: %s",
                    id, kind, tb_daemon__board_name(board), since, text);
}

void tb_daemon__note_resolved(struct tb_daemon *d, bool by_arbiter, const char *text)
{
    tb_daemon__note(d, tb_daemon__plies(d), "resolved%s: %s", by_arbiter ? " by the arbiter" : "",
                    text);
}

const char *tb_daemon__note_what(uint16_t type)
{
    return type == TB_JOURNAL_TOUCH ? "touch-move report (4.3, 4.4)"
                                    : "move held while play was stopped";
}
