/* pgn_write.c - PGN export of a game: tags, wrapped SAN movetext, comments, NAGs, result. */
#include <stdio.h>
#include <string.h>

#include "notation_internal.h"
#include "tb_chess.h"

#define LINE_MAX_COLS 79 /* export format: lines below 80 columns */

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
static const char *const roster_default[7] = {"?", "?", "????.??.??", "?", "?", "?", "*"};

struct writer {
    struct tb_chess__out o;
    size_t col;
    bool comment; /* writing a comment's words: a '}' in them is written as ')' */
};

static void put_tag(struct tb_chess__out *o, const char *name, const char *value)
{
    tb_chess__putc(o, '[');
    tb_chess__puts(o, name);
    tb_chess__puts(o, " \"");
    for (; *value; value++) {
        if (*value == '"' || *value == '\\')
            tb_chess__putc(o, '\\');
        tb_chess__putc(o, *value);
    }
    tb_chess__puts(o, "\"]\n");
}

static bool in_roster(const char *name)
{
    for (int i = 0; i < 7; i++)
        if (strcmp(name, roster[i]) == 0)
            return true;
    return false;
}

static void put_tags(const tb_chess_pgn_game *g, struct tb_chess__out *o)
{
    for (int i = 0; i < 7; i++) {
        const char *v = i == 6 ? g->result : tb_chess_pgn_tag_get(g, roster[i]);
        put_tag(o, roster[i], v ? v : roster_default[i]);
    }
    /* A game set up from a position says so, even if its tags did not. */
    tb_chess_pos std;
    tb_chess_pos_startpos(&std);
    char fen[128], std_fen[128];
    tb_chess_pos_to_fen(&g->game.start, fen, sizeof fen);
    tb_chess_pos_to_fen(&std, std_fen, sizeof std_fen);
    bool set_up = strcmp(fen, std_fen) != 0 || g->game.start.chess960;
    if (g->game.start.chess960 && !tb_chess_pgn_tag_get(g, "Variant"))
        put_tag(o, "Variant", "Chess960");
    if (set_up && !tb_chess_pgn_tag_get(g, "SetUp"))
        put_tag(o, "SetUp", "1");
    if (set_up && !tb_chess_pgn_tag_get(g, "FEN"))
        put_tag(o, "FEN", fen);
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->text + g->tags[i].name;
        if (!in_roster(name))
            put_tag(o, name, g->text + g->tags[i].value);
    }
    tb_chess__putc(o, '\n');
}

/* One token, after a space or (when it would pass the limit) a line break. `sep` forces a
 * separator even at the start of a line, for the words inside a comment. A token starting with
 * '%' never starts a line: a reader takes such a line for an escape and skips it. */
static void token(struct writer *w, const char *pre, const char *s, size_t n, const char *post,
                  bool sep)
{
    size_t len = strlen(pre) + n + strlen(post);
    bool escape = (pre[0] ? pre[0] : n ? s[0] : post[0]) == '%';
    if (w->col > 0 || sep) {
        if (w->col + 1 + len > LINE_MAX_COLS && !escape) {
            tb_chess__putc(&w->o, '\n');
            w->col = 0;
        } else {
            tb_chess__putc(&w->o, ' ');
            w->col++;
        }
    }
    tb_chess__puts(&w->o, pre);
    for (size_t k = 0; k < n; k++)
        tb_chess__putc(&w->o, w->comment && s[k] == '}' ? ')' : s[k]);
    tb_chess__puts(&w->o, post);
    w->col += len;
}

/* The words of one comment's text, broken into lines at single spaces only, which a reader
 * turns back into the same spaces: the text survives a round trip. open: the first word opens
 * the brace; post: after the last word ("}" or a joint). A '}' in the text (a ;comment read
 * from a file may hold one) is written as ')': it would end the comment early. */
static void put_words(struct writer *w, const char *text, bool open, const char *post)
{
    bool first = true;
    w->comment = true;
    for (;;) {
        const char *sp = strchr(text, ' ');
        size_t n = sp ? (size_t)(sp - text) : strlen(text);
        token(w, first && open ? "{" : "", text, n, sp ? "" : post, !(first && open));
        if (!sp)
            break;
        text = sp + 1;
        first = false;
    }
    w->comment = false;
}

/* An embedded command such as [%clk 0:04:58]: joined to its neighbour by a space alone. */
static bool command(const char *text, bool at_end)
{
    size_t n = strlen(text);
    return at_end ? n && text[n - 1] == ']' : text[0] == '[';
}

static bool is_comment(const struct tb_chess_pgn_note *n)
{
    return n->kind != TB_CHESS_PGN_NAG;
}

/* The notes after ply `ply`, from index i on; returns the index of the first note of a later
 * ply. As the export format and the readers want them: the NAGs first, right after the move
 * (chess.js refuses a NAG after a comment), then every comment of the place as one {comment}
 * (many readers, chess.js among them and so the web viewers built on it, refuse two comments in
 * a row, and pgn-extract a ;comment): the texts joined by "; ", or by a space beside an embedded
 * command ([%clk ...]), empty ones left out. */
static int put_notes(const tb_chess_pgn_game *g, int i, int ply, struct writer *w, bool *any)
{
    int end = i;
    while (end < g->nnotes && g->notes[end].ply <= ply)
        end++;
    int last = -1;
    bool comment = false;
    for (int k = i; k < end; k++) {
        const struct tb_chess_pgn_note *n = &g->notes[k];
        *any = true;
        if (!is_comment(n)) {
            char nag[8];
            int len = snprintf(nag, sizeof nag, "$%u", n->nag);
            token(w, "", nag, (size_t)len, "", false);
        } else {
            comment = true;
            if (g->text[n->text])
                last = k;
        }
    }
    if (comment && last < 0)
        token(w, "{", "", 0, "}", false);
    bool open = true;
    for (int k = i; k <= last; k++) {
        const char *text = g->text + g->notes[k].text;
        if (!is_comment(&g->notes[k]) || !text[0])
            continue;
        const char *post = "}";
        if (k != last) {
            int next = k + 1;
            while (!is_comment(&g->notes[next]) || !g->text[g->notes[next].text])
                next++;
            post = command(text, true) || command(g->text + g->notes[next].text, false) ? "" : ";";
        }
        put_words(w, text, open, post);
        open = false;
    }
    return end;
}

int tb_chess_pgn_write(const tb_chess_pgn_game *g, char *buf, size_t len)
{
    if (!g)
        return TB_ERR_ARG;
    struct writer w = {.col = 0};
    tb_chess__out_init(&w.o, buf, len);
    put_tags(g, &w.o);

    tb_chess_pos pos = g->game.start;
    bool after_note = false;
    int note = put_notes(g, 0, 0, &w, &after_note);
    for (int i = 0; i < g->game.plies; i++) {
        tb_chess_move m = g->game.moves[i];
        char san[16], tok[32];
        if (tb_chess_move_to_san(&pos, m, TB_CHESS_LETTERS_EN, 0, san, sizeof san) < 0)
            return TB_ERR_STATE;
        int n;
        if (pos.side == TB_CHESS_WHITE)
            n = snprintf(tok, sizeof tok, "%d. %s", pos.fullmove, san);
        else if (i == 0 || after_note)
            n = snprintf(tok, sizeof tok, "%d... %s", pos.fullmove, san);
        else
            n = snprintf(tok, sizeof tok, "%s", san);
        token(&w, "", tok, (size_t)n, "", false);
        tb_chess_undo undo;
        tb_chess_make(&pos, m, &undo);
        after_note = false;
        note = put_notes(g, note, i + 1, &w, &after_note);
    }
    token(&w, "", g->result, strlen(g->result), "", false);
    tb_chess__putc(&w.o, '\n');
    return (int)w.o.n;
}
