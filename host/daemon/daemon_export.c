/* daemon_export.c - what the control requests show: status (with the arbiter's view of an open
 * mismatch), the moves, the PGN with the notes of the game, scoresheets (Article 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon_audio.h"
#include "daemon_boards.h"
#include "daemon_clock.h"
#include "daemon_export.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_session.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

static void appendf(struct tb_daemon__buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void appendf(struct tb_daemon__buf *b, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        tb_daemon__buf_put(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static void move_words(const tb_chess_pos *pos, tb_chess_move m, int ply, char *buf, size_t len)
{
    char san[16] = "?", uci[8] = "?";
    tb_chess_move_to_san(pos, m, TB_CHESS_LETTERS_EN, 0, san, sizeof san);
    tb_chess_move_to_uci(pos, m, uci, sizeof uci);
    snprintf(buf, len, "%d.%s %s (%s)", (ply + 1) / 2, ply % 2 ? "" : "..", san, uci);
}

/* The plies clients are shown: those whose agreement is carried out, on disk (the match may
 * have agreed one more whose record the writer thread is still writing). */
static int shown(const struct tb_daemon *d)
{
    int plies = tb_match_game(tb_daemon__match(d))->plies;
    return tb_daemon__agreed(d) < plies ? tb_daemon__agreed(d) : plies;
}

void tb_daemon__status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    tb_daemon__mode(d)->status(d, out);
}

void tb_daemon__twin_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    /* what the outputs carried out tell (the match may be a write ahead) */
    struct tb_match_status st = *tb_daemon__shown(d);
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    struct tb_daemon__buf t = {0};
    int plies = shown(d);
    tb_chess_pos pos = g->start;
    for (int i = 0; i < plies; i++) {
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i], &u);
    }
    appendf(&t, "game: %d plies agreed, %s to move, result %s\n", plies,
            tb_daemon__color_name(pos.side), tb_daemon__result(d));
    if (tb_daemon__result_ply(d) >= 0) /* the game's end (daemon_result.c) */
        appendf(&t, "game over after ply %d: %s, %s\n", tb_daemon__result_ply(d),
                tb_daemon__result(d), tb_daemon__result_why(d));
    char mv[64];
    switch (st.state) {
    case TB_MATCH_WAITING:
        move_words(&pos, st.move, plies + 1, mv, sizeof mv);
        appendf(&t, "state: waiting: the %s board must replicate %s\n",
                tb_daemon__board_name(st.board), mv);
        break;
    case TB_MATCH_BLOCKED:
        appendf(&t, "state: blocked: mismatch %u open, play stopped (D.2.9)\n", st.mismatch);
        break;
    case TB_MATCH_RESTORING:
        appendf(&t, "state: restoring: waiting for both boards to show the position (%u)\n",
                st.mismatch);
        break;
    default:
        appendf(&t, "state: in-sync\n");
        break;
    }
    char health[TBD_JOURNAL_HEALTH_MAX];
    if (tb_daemon__journal_health(d, health, sizeof health))
        appendf(&t, "journal: %s\n", health);
    if (tb_daemon__damage(
            d)[0]) /* the journal was damaged at start: what it cost, for the arbiter */
        appendf(&t, "journal damage at start: %s\n", tb_daemon__damage(d));
    appendf(&t, "time used: White %lu s, Black %lu s\n",
            (unsigned long)(tb_daemon__vi_time_used(d, 0) / 1000),
            (unsigned long)(tb_daemon__vi_time_used(d, 1) / 1000));
    for (int i = 0; i < TBD_NPARTS; i++) /* each part's own lines, in daemon_parts.c's order */
        if (d->status_parts[i]->status)
            d->status_parts[i]->status(d, &t);
    /* the latest notes: touch-move reports, held moves, arbiter decisions, resolutions */
    const struct tb_daemon__note *note;
    int nnotes = tb_daemon__notes(d, &note);
    for (int i = nnotes > 5 ? nnotes - 5 : 0; i < nnotes; i++)
        appendf(&t, "note after ply %d: %s\n", note[i].ply, note[i].text);
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(tb_daemon__match(d));
    if (mm && st.state == TB_MATCH_BLOCKED) {
        char view[TBD_VIEW_MAX]; /* put-right lists may be long: not through appendf */
        tb_daemon__mismatch_view(d, mm, view, sizeof view);
        tb_daemon__buf_put(&t, view, strlen(view));
        tb_daemon__buf_put(&t, "\n", 1);
    }
    tb_daemon__data(out, tb_match_state_name(st.state), t.p);
    free(t.p);
}

void tb_daemon__moves(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    struct tb_daemon__buf t = {0};
    tb_chess_pos pos = g->start;
    for (int i = 0; i < shown(d); i++) {
        char mv[64];
        move_words(&pos, g->moves[i], i + 1, mv, sizeof mv);
        appendf(&t, "%s\n", mv);
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i], &u);
    }
    char head[32];
    snprintf(head, sizeof head, "%d plies", shown(d));
    tb_daemon__data(out, head, t.p);
    free(t.p);
}

/* The game's PGN tags, as the live PGN has them (daemon_broadcast.c). */
static void tags(struct tb_daemon *d, tb_chess_pgn_game *pg)
{
    const struct tb_broadcast_tags *t = tb_daemon__tags(d);
    tb_chess_pgn_tag_set(pg, "Event", t->event, NULL);
    tb_chess_pgn_tag_set(pg, "Site", t->site, NULL);
    tb_chess_pgn_tag_set(pg, "Date", t->date, NULL);
    tb_chess_pgn_tag_set(pg, "Round", t->round, NULL);
    tb_chess_pgn_tag_set(pg, "White", t->white, NULL);
    tb_chess_pgn_tag_set(pg, "Black", t->black, NULL);
}

int tb_daemon__pgn(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                   struct tb_daemon__buf *out)
{
    char *text = NULL;
    int rc = tb_daemon__pgn_text(d, letters, scoresheet, &text);
    if (rc >= 0)
        tb_daemon__data(out, scoresheet ? "scoresheet" : "pgn", text);
    free(text);
    return rc < 0 ? rc : TB_OK;
}

int tb_daemon__pgn_text(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                        char **out)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    tb_chess_pgn_game *pg = malloc(sizeof *pg);
    if (!pg)
        return TB_ERR_MEM;
    tb_chess_pgn_game_init(pg, &g->start);
    int plies = shown(d);
    /* the game up to its result: moves agreed after it are not part of it */
    int end = tb_daemon__result_ply(d);
    if (end >= 0 && end < plies)
        plies = end;
    for (int i = 0; i < plies; i++)
        tb_chess_game_push(&pg->game, g->moves[i]);
    snprintf(pg->result, sizeof pg->result, "%s", tb_daemon__result(d));
    tags(d, pg);
    tb_daemon__clock_pgn(d, pg); /* TimeControl and [%clk], before the notes */
    const struct tb_daemon__note *note;
    int nnotes = tb_daemon__notes(d, &note);
    for (int i = 0; i < nnotes; i++) {
        int ply = note[i].ply > plies ? plies : note[i].ply;
        tb_chess_pgn_add_comment(pg, ply, note[i].text, NULL);
    }
    int n = scoresheet ? tb_chess_scoresheet_write(pg, letters, NULL, 0)
                       : tb_chess_pgn_write(pg, NULL, 0);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    int rc = n < 0 ? n : text ? n : TB_ERR_MEM;
    if (text) {
        if (scoresheet)
            tb_chess_scoresheet_write(pg, letters, text, (size_t)n + 1);
        else
            tb_chess_pgn_write(pg, text, (size_t)n + 1);
    }
    *out = text;
    free(pg);
    return rc;
}
