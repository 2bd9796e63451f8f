/* daemon_outputs.c - what the match decided, carried out: speech for the players, the journal's
 * sync points, the arbiter's view of a mismatch (D.2.9), and notes for the PGN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_internal.h"

/* Text cut to fit on purpose (journal and note fields are bounded). */
static void clip(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void clip(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

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
    if (d->nnotes == TBD_NOTES) {
        memmove(d->note, d->note + 1, sizeof d->note[0] * (TBD_NOTES - 1));
        d->nnotes--;
    }
    struct tb_daemon__note *n = &d->note[d->nnotes++];
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
             tb_daemon__color_name(d->mcfg.board[on].color), mm->text, tb_daemon__board_name(on),
             sq, since, tb_daemon__color_name(d->mcfg.board[0].color), fix[0],
             tb_daemon__color_name(d->mcfg.board[1].color), fix[1], mm->resolution,
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

static int agreed_plies(const struct tb_daemon *d)
{
    struct tb_match_status st;
    tb_match_status(d->match, &st);
    return st.plies;
}

static void agreed(struct tb_daemon *d, const struct tb_match_out *o)
{
    int ply = o->u.agreed.ply;
    d->agreed = ply; /* on disk: shown from now on */
    tb_daemon__log(d, d->fx->info, "agreed: %d.%s %s (%s)%s", (ply + 1) / 2, ply % 2 ? "" : "..",
                   o->u.agreed.san, o->u.agreed.uci,
                   o->u.agreed.queen_assumed ? ", promoted without a choice: queen (7.5.2)" : "");
    if (o->u.agreed.queen_assumed)
        tb_daemon__note(d, ply, "promoted without a choice: queen (7.5.2)");
    tb_daemon__result_rules(d, o->ms);     /* the game's end by the rules */
    tb_daemon__tell_agreed(d, ply, o->ms); /* the broadcast, then the scoresheet in braille */
}

static void mismatch(struct tb_daemon *d, const struct tb_match_out *o)
{
    const struct tb_match_mismatch *mm = &o->u.mismatch;
    tb_daemon__mismatch_view(d, mm, d->last_view, sizeof d->last_view);
    for (const char *p = d->last_view; *p;) { /* one log line a line: none is cut */
        int n = (int)strcspn(p, "\n");
        tb_daemon__log(d, d->fx->warn, "%.*s", n, p);
        p += n + (p[n] == '\n');
    }
    tb_daemon__note_mismatch(d, mm->id, tb_match_mismatch_name(mm->kind), mm->board, mm->ply,
                             mm->text);
    struct tb_journal_decision dec = {.id = mm->id, .board = (uint8_t)mm->board};
    snprintf(dec.who, sizeof dec.who, "daemon");
    clip(dec.text, sizeof dec.text, "%s: %s | %s", tb_match_mismatch_name(mm->kind), mm->text,
         mm->resolution);
    d->fx->store->append_decision(d, TB_JOURNAL_MISMATCH, o->ms, &dec, true);
}

static void resolved(struct tb_daemon *d, const struct tb_match_out *o)
{
    tb_daemon__log(d, d->fx->info, "RESOLVED %u: %s", o->u.resolved.id, o->u.resolved.text);
    tb_daemon__note_resolved(d, o->u.resolved.by_arbiter, o->u.resolved.text);
    d->last_view[0] = '\0';
    struct tb_journal_decision dec = {.id = o->u.resolved.id, .board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "%s", o->u.resolved.by_arbiter ? "arbiter" : "player");
    clip(dec.text, sizeof dec.text, "%s", o->u.resolved.text);
    d->fx->store->append_decision(d, TB_JOURNAL_RESOLUTION, o->ms, &dec, true);
}

/* The notes of the PGN a decision leaves: the same words live, in replay, and from the journal's
 * own records when recovery passes over lost board events (daemon_recover.c). */
void tb_daemon__note_mismatch(struct tb_daemon *d, unsigned id, const char *kind, int board,
                              int ply, const char *text)
{
    char since[64];
    tb_daemon__ply_words(ply, since, sizeof since);
    tb_daemon__note(d, agreed_plies(d),
                    "the boards disagreed (D.2.9): mismatch %u, %s on the %s board "
                    "since %s: %s",
                    id, kind, tb_daemon__board_name(board), since, text);
}

void tb_daemon__note_resolved(struct tb_daemon *d, bool by_arbiter, const char *text)
{
    tb_daemon__note(d, agreed_plies(d), "resolved%s: %s", by_arbiter ? " by the arbiter" : "",
                    text);
}

const char *tb_daemon__note_what(uint16_t type)
{
    return type == TB_JOURNAL_TOUCH ? "touch-move report (4.3, 4.4)"
                                    : "move held while play was stopped";
}

static void note_only(struct tb_daemon *d, const struct tb_match_out *o, uint16_t type, int board,
                      const char *text)
{
    const char *what = tb_daemon__note_what(type);
    tb_daemon__log(d, d->fx->warn, "%s, %s board: %s", what, tb_daemon__board_name(board), text);
    tb_daemon__note(d, agreed_plies(d), "%s (%s board): %s", what, tb_daemon__board_name(board),
                    text);
    struct tb_journal_decision dec = {.board = (uint8_t)board};
    snprintf(dec.who, sizeof dec.who, "daemon");
    clip(dec.text, sizeof dec.text, "%s", text);
    d->fx->store->append_decision(d, type, o->ms, &dec, false);
}

static void handle(struct tb_daemon *d, const struct tb_match_out *o)
{
    char line[200];
    tb_daemon__tell_output(d, o); /* the DGT clocks' display, the hall */
    switch (o->kind) {
    case TB_MATCH_OUT_ANNOUNCE:
        if (o->u.announce.is_move) {
            int mover = o->u.announce.pos.side;
            if (o->ms > d->turn_start)
                d->used_ms[mover] += o->ms - d->turn_start;
            d->turn_start = o->ms;
        }
        tb_daemon__tell_announce(d, &o->u.announce);
        break;
    case TB_MATCH_OUT_MOVE_AGREED:
        agreed(d, o);
        break;
    case TB_MATCH_OUT_MISMATCH:
        mismatch(d, o);
        break;
    case TB_MATCH_OUT_RESOLVED:
        resolved(d, o);
        tb_daemon__tell_resolved(d);
        break;
    case TB_MATCH_OUT_TOUCH_REPORT:
        note_only(d, o, TB_JOURNAL_TOUCH, o->u.touch.board, o->u.touch.text);
        break;
    case TB_MATCH_OUT_HELD:
        note_only(d, o, TB_JOURNAL_HELD, o->u.held.board, o->u.held.text);
        break;
    case TB_MATCH_OUT_ARBITER:
        if (d->agreed > tb_match_game(d->match)->plies) /* a takeback, a new game */
            d->agreed = tb_match_game(d->match)->plies;
        tb_match_out_format(o, line, sizeof line);
        /* The formatted line already opens with "arbiter" ("arbiter resolve #1"). */
        tb_daemon__log(d, d->fx->info, "%s", line);
        tb_daemon__note(d, agreed_plies(d), "%s", line);
        break;
    case TB_MATCH_OUT_STATE:
        d->shown = (struct tb_match_status){.state = o->u.state.state,
                                            .board = o->u.state.board,
                                            .move = o->u.state.move,
                                            .mismatch = o->u.state.mismatch,
                                            .plies = o->u.state.plies};
        tb_match_out_format(o, line, sizeof line);
        tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "%s", line);
        break;
    }
    tb_daemon__tell_done(d, o); /* the clock: moves press it, stopped play stops it */
}

/* The match's next output, held (d->jstop.out) until it is carried out; false: none. */
bool tb_daemon__twin_next(struct tb_daemon *d)
{
    return tb_match_poll(d->match, &d->jstop.out) == 1;
}

/* What must be on disk before an output is carried out: an agreed move's record (appended here,
 * once: *written), and for anything said to a player every record before it (the board events
 * that made the move announced, D.2.1). */
bool tb_daemon__twin_needs_disk(struct tb_daemon *d, bool *written)
{
    const struct tb_match_out *o = &d->jstop.out;
    if (o->kind == TB_MATCH_OUT_MOVE_AGREED && !*written) {
        int lead = tb_daemon__board_of_color(d, o->u.agreed.pos.side);
        if (d->fx->store->append_move(d, o->ms, lead, o->u.agreed.ply, o->u.agreed.move,
                                      o->u.agreed.san) == TB_OK)
            *written = true; /* appended: kept in memory until a commit writes it */
    }
    return o->kind == TB_MATCH_OUT_MOVE_AGREED || o->kind == TB_MATCH_OUT_ANNOUNCE;
}

void tb_daemon__twin_carry_out(struct tb_daemon *d)
{
    handle(d, &d->jstop.out);
}
