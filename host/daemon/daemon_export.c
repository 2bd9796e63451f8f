/* daemon_export.c - what the control requests show: status (with the arbiter's view of an open
 * mismatch), the moves, the PGN with the notes of the game, scoresheets (Article 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon_boards.h"
#include "daemon_internal.h"

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
    int plies = tb_match_game(d->match)->plies;
    return d->agreed < plies ? d->agreed : plies;
}

/* "ok" means every move agreed or said is on disk. */
int tb_daemon__journal_health(const struct tb_daemon *d, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!d->journal)
        return 0;
    struct tb_journal_state js = {0};
    tb_journal_state(d->journal, &js);
    int n;
    if (tb_daemon__jstopped(&d->jstop))
        n = snprintf(buf, len,
                     "cannot write: %s; play stopped, the arbiter is called; %zu records kept in "
                     "memory, retrying",
                     d->jstop.reason, js.pending_records);
    else if (d->writer.busy && tb_daemon__journal_held(d) &&
             tb_daemon__clock(d) >= d->writer.since + 1000) /* journal writer: a slow disk */
        n = snprintf(buf, len, "writing, %llu s; play held until the record is on disk%s",
                     (unsigned long long)((tb_daemon__clock(d) - d->writer.since) / 1000),
                     d->writer.stall_said ? ", the arbiter is called" : "");
    else
        n = snprintf(buf, len, "ok");
    return n < 0 ? 0 : (size_t)n < len ? n : (int)len - 1;
}

void tb_daemon__status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    d->mode->status(d, out);
}

void tb_daemon__twin_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    /* what the outputs carried out tell (the match may be a write ahead) */
    struct tb_match_status st = d->shown;
    const tb_chess_game *g = tb_match_game(d->match);
    struct tb_daemon__buf t = {0};
    int plies = shown(d);
    tb_chess_pos pos = g->start;
    for (int i = 0; i < plies; i++) {
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i], &u);
    }
    appendf(&t, "game: %d plies agreed, %s to move, result %s\n", plies,
            tb_daemon__color_name(pos.side), d->result);
    if (d->end.ply >= 0) /* the game's end (daemon_result.c) */
        appendf(&t, "game over after ply %d: %s, %s\n", d->end.ply, d->result, d->end.why);
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
    if (d->damage[0]) /* the journal was damaged at start: what it cost, for the arbiter */
        appendf(&t, "journal damage at start: %s\n", d->damage);
    for (int b = 0; b < TBD_BOARDS; b++) {
        const char *resource = tb_daemon__board_resource(d, b);
        struct tb_link_stats ls = {0};
        if (tb_daemon__board_link(d, b))
            tb_link_stats(tb_daemon__board_link(d, b), &ls);
        /* reed:id= and usb: find their tty: the organiser sees which one */
        bool on = ls.device[0] && !strstr(resource, ls.device);
        appendf(&t, "%s: %s, %s, %s%s%s%s, %lu events, %u bad frames, %u reconnects\n",
                tb_daemon__board_name(b), tb_daemon__color_name(d->mcfg.board[b].color), resource,
                !ls.connected ? "NOT CONNECTED"
                : ls.unread   ? "connected, waiting for its first reading"
                              : "connected",
                on ? " on " : "", on ? ls.device : "", ls.ended ? ", script ended" : "",
                tb_daemon__board_events(d, b), ls.bad_frames, ls.reconnects);
    }
    appendf(&t, "time used: White %lu s, Black %lu s\n", (unsigned long)(d->used_ms[0] / 1000),
            (unsigned long)(d->used_ms[1] / 1000));
    char clock[512]; /* the game's clock (daemon_clock.c) */
    if (tb_daemon__clock_status(d, clock, sizeof clock) > 0)
        appendf(&t, "%s\n", clock);
    appendf(&t, "speech: %s\n", !d->voice ? "off" : tb_daemon__voice_idle(d) ? "idle" : "speaking");
    tb_daemon__broadcast_status(d, &t); /* broadcast */
    tb_daemon__hall_status(d, &t);      /* hall */
    char audio[1024];                   /* audio devices: a lost headset shows here */
    tb_daemon__audio_status(d, audio, sizeof audio);
    if (audio[0])
        appendf(&t, "%s\n", audio);
    /* the latest notes: touch-move reports, held moves, arbiter decisions, resolutions */
    for (int i = d->nnotes > 5 ? d->nnotes - 5 : 0; i < d->nnotes; i++)
        appendf(&t, "note after ply %d: %s\n", d->note[i].ply, d->note[i].text);
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(d->match);
    if (mm && st.state == TB_MATCH_BLOCKED) {
        char view[sizeof d->last_view]; /* put-right lists may be long: not through appendf */
        tb_daemon__mismatch_view(d, mm, view, sizeof view);
        tb_daemon__buf_put(&t, view, strlen(view));
        tb_daemon__buf_put(&t, "\n", 1);
    }
    tb_daemon__data(out, tb_match_state_name(st.state), t.p);
    free(t.p);
}

void tb_daemon__moves(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    const tb_chess_game *g = tb_match_game(d->match);
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
    const struct tb_broadcast_tags *t = &d->tags;
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
    const tb_chess_game *g = tb_match_game(d->match);
    tb_chess_pgn_game *pg = malloc(sizeof *pg);
    if (!pg)
        return TB_ERR_MEM;
    tb_chess_pgn_game_init(pg, &g->start);
    int plies = shown(d);
    /* the game up to its result: moves agreed after it are not part of it */
    if (d->end.ply >= 0 && d->end.ply < plies)
        plies = d->end.ply;
    for (int i = 0; i < plies; i++)
        tb_chess_game_push(&pg->game, g->moves[i]);
    snprintf(pg->result, sizeof pg->result, "%s", d->result);
    tags(d, pg);
    tb_daemon__clock_pgn(d, pg); /* TimeControl and [%clk], before the notes */
    for (int i = 0; i < d->nnotes; i++) {
        int ply = d->note[i].ply > plies ? plies : d->note[i].ply;
        tb_chess_pgn_add_comment(pg, ply, d->note[i].text, NULL);
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
