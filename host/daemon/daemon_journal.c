/* daemon_journal.c - the game's journal: every board event fed to the match and every decision,
 * appended; committed before any move is agreed or announced and at every arbiter action; when
 * it cannot be written, play stops until a retry succeeds; replayed on start through the same
 * code path as live input, so a restarted daemon is where the stopped one was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon_internal.h"

/* ---- durability: nothing agreed or said before it is on disk (docs/journal.md) ----------- */

static bool replaying(const struct tb_daemon *d)
{
    return d->fx == &tb_daemon__replay;
}

/* The journal cannot be written: play stops, as for a mismatch. Said once: both players hear
 * that the arbiter is called, the log has one line with the reason, status shows it. */
static void stop_play(struct tb_daemon *d, int error, const char *msg)
{
    struct tb_daemon__jstop *js = &d->jstop;
    js->retry_at = tb_daemon__clock(d) + TBD_JOURNAL_RETRY_MS;
    if (js->on)
        return;
    js->on = true;
    js->error = error;
    js->tries = 0;
    snprintf(js->reason, sizeof js->reason, "%s", strerror(error));
    char what[600];
    if (msg && msg[0]) /* the journal's words: the file, the records, the reason */
        snprintf(what, sizeof what, "%s", msg);
    else
        snprintf(what, sizeof what, "journal %s: cannot write: %s", d->journal_path, js->reason);
    tb_daemon__log(d, TB_CONFIG_LOG_ERROR,
                   "%s; play stopped, ARBITER called; retrying every %d ms until it can", what,
                   TBD_JOURNAL_RETRY_MS);
    tb_daemon__clock_journal(d, true); /* clock: stopped with play */
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_msg_args a = {.board = d->mcfg.board[b].color};
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_WAIT, &a, 0);
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_ARBITER, &a, 0);
    }
}

int tb_daemon__journal_commit(struct tb_daemon *d)
{
    if (!d->journal || replaying(d))
        return TB_OK;
    if (d->jstop.on)
        return TB_ERR_SYS; /* only the timer retries: no write storm, no repeated lines */
    struct tb_journal_state st;
    tb_journal_state(d->journal, &st);
    if (st.pending_records == 0 && st.error == 0)
        return TB_OK;
    struct tb_error err = {0};
    int rc = tb_journal_commit(d->journal, &err);
    if (rc == TB_OK)
        return TB_OK;
    stop_play(d, rc == TB_ERR_SYS && errno ? errno : EIO, err.msg);
    return TB_ERR_SYS;
}

bool tb_daemon__journal_stopped(struct tb_daemon *d, struct tb_error *err)
{
    if (!d->jstop.on)
        return false;
    tb_error_set(err, TB_ERR_STATE,
                 "the journal cannot be written (%s): play is stopped until it can; nothing was "
                 "changed",
                 d->jstop.reason);
    return true;
}

int tb_daemon__journal_hold_input(struct tb_daemon *d, const struct tb_journal_event *in,
                                  uint64_t t)
{
    struct tb_daemon__jstop *js = &d->jstop;
    if (js->head && js->head == js->n)
        js->head = js->n = 0;
    if (js->n == js->cap) {
        size_t cap = js->cap ? js->cap * 2 : 256;
        struct tb_journal_event *in2 = realloc(js->in, cap * sizeof *in2);
        if (in2)
            js->in = in2;
        uint64_t *t2 = in2 ? realloc(js->in_t, cap * sizeof *t2) : NULL;
        if (t2)
            js->in_t = t2;
        if (!in2 || !t2) {
            tb_daemon__log(d, TB_CONFIG_LOG_ERROR,
                           "%s board: an event while play is stopped "
                           "cannot be kept (out of memory)",
                           tb_daemon__board_name(in->board));
            return TB_ERR_MEM;
        }
        js->cap = cap;
    }
    js->in[js->n] = *in;
    js->in_t[js->n++] = t;
    return TB_OK;
}

uint64_t tb_daemon__journal_retry(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__jstop *js = &d->jstop;
    if (!js->on)
        return UINT64_MAX;
    if (now < js->retry_at)
        return js->retry_at;
    js->tries++;
    struct tb_journal_state before;
    tb_journal_state(d->journal, &before);
    if (tb_journal_commit(d->journal, NULL) != TB_OK) {
        if (errno && errno != js->error) { /* status follows the reason; the log said it once */
            js->error = errno;
            snprintf(js->reason, sizeof js->reason, "%s", strerror(errno));
        }
        js->retry_at = now + TBD_JOURNAL_RETRY_MS;
        return js->retry_at;
    }
    js->on = false;
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "journal %s: writing again after %lu tries: %zu records kept in memory are on "
                   "disk, nothing lost; play resumes (%zu board events that waited are taken now)",
                   d->journal_path, js->tries, before.pending_records, js->n - js->head);
    js->error = 0;
    js->reason[0] = '\0';
    /* The output held first, then the inputs that waited, at their own times. */
    tb_daemon__outputs(d);
    while (!js->on && js->head < js->n) {
        size_t i = js->head++;
        tb_daemon__apply(d, &js->in[i], js->in_t[i]);
    }
    if (!js->on)
        tb_daemon__clock_journal(d, false); /* clock: runs again with play */
    return js->on ? js->retry_at : UINT64_MAX;
}

void tb_daemon__journal_free(struct tb_daemon *d)
{
    free(d->jstop.in);
    free(d->jstop.in_t);
    d->jstop.in = NULL;
    d->jstop.in_t = NULL;
}

/* ---- appends (the live effects) ----------------------------------------------------------- */

int tb_daemon__journal_event(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t)
{
    if (!d->journal)
        return TB_OK;
    int64_t rc = tb_journal_append_event(d->journal, t, je);
    if (rc == TB_ERR_SYS) /* appended; writing the pending records out failed */
        stop_play(d, errno ? errno : EIO, NULL);
    else if (rc < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append a board event (%d)",
                       (int)rc);
    return rc < 0 && rc != TB_ERR_SYS ? (int)rc : TB_OK;
}

/* sync: the decision must be on disk before anything follows from it. A decision while play
 * is stopped is refused (nothing appended); one whose commit fails stays appended in memory and
 * is written when the journal can be written again (play stops meanwhile). */
int tb_daemon__journal_decision(struct tb_daemon *d, uint16_t type, uint64_t t,
                                const struct tb_journal_decision *dec, bool sync)
{
    if (!d->journal)
        return TB_OK;
    if (sync && d->jstop.on)
        return TB_ERR_STATE;
    int64_t rc = tb_journal_append_decision(d->journal, type, t, dec);
    if (rc < 0 && rc != TB_ERR_SYS) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append a decision (%d)", (int)rc);
        return (int)rc;
    }
    if (rc == TB_ERR_SYS)
        stop_play(d, errno ? errno : EIO, NULL);
    if (sync)
        tb_daemon__journal_commit(d);
    return TB_OK;
}

/* The agreed move's record, appended; tb_daemon__outputs commits it before it is carried out. */
int tb_daemon__journal_move(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                            const char *san)
{
    if (!d->journal)
        return TB_OK;
    struct tb_journal_move mv = {.board = (uint8_t)board, .ply = (uint16_t)ply, .move = m};
    snprintf(mv.san, sizeof mv.san, "%s", san);
    int64_t rc = tb_journal_append_move(d->journal, t, &mv);
    if (rc == TB_ERR_SYS)
        stop_play(d, errno ? errno : EIO, NULL);
    else if (rc < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append the move of ply %d (%d)",
                       ply, (int)rc);
    return rc < 0 && rc != TB_ERR_SYS ? (int)rc : TB_OK;
}

/* ---- recovery: the same paths as live input, with the replay effects -------------------- */

static void skipped(struct tb_daemon *d, const struct tb_journal_record *rec, const char *why)
{
    tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal record %llu: %s (skipped)",
                   (unsigned long long)rec->seq, why);
}

static void replay_record(struct tb_daemon *d, const struct tb_journal_record *rec)
{
    uint64_t t = rec->time_ms;
    if (t < d->last_mt)
        t = d->last_mt;
    d->vnow = t;
    d->last_mt = t;
    struct tb_error err = {0};
    struct tb_journal_event je;
    struct tb_journal_decision dec;
    struct tb_journal_move mv;
    struct tb_match_status st;
    tb_daemon__advance(d, t);
    switch (rec->type) {
    case TB_JOURNAL_BOARD_EVENT:
        if (tb_journal_event_decode(&je, rec, &err) != TB_OK || je.board >= TBD_BOARDS) {
            skipped(d, rec, err.msg[0] ? err.msg : "bad board");
            return;
        }
        if (je.board_seq > d->board[je.board].skip_seq)
            d->board[je.board].skip_seq = je.board_seq;
        tb_daemon__feed(d, &je, t);
        return;
    case TB_JOURNAL_MOVE:
        tb_match_status(d->match, &st);
        if (tb_journal_move_decode(&mv, rec, &err) == TB_OK && st.plies < mv.ply)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal: ply %d (%s) was agreed, the replay has only %d plies", mv.ply,
                           mv.san, st.plies);
        return;
    case TB_JOURNAL_PROMOTION:
    case TB_JOURNAL_TYPED_MOVE:
        if (tb_journal_decision_decode(&dec, rec, &err) != TB_OK || dec.board >= TBD_BOARDS) {
            skipped(d, rec, err.msg[0] ? err.msg : "bad board");
            return;
        }
        if (rec->type == TB_JOURNAL_PROMOTION)
            tb_daemon__promote(d, dec.board,
                               tb_daemon__promotion(dec.text[0]) ? tb_daemon__promotion(dec.text[0])
                                                                 : TB_CHESS_QUEEN,
                               &err);
        else if (tb_daemon__typed_move(d, dec.board, dec.text, &err) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal record %llu: typed move %s refused: %s",
                           (unsigned long long)rec->seq, dec.text, err.msg);
        return;
    case TB_JOURNAL_CLOCK:
        tb_daemon__clock_record(d, rec);
        return;
    default:
        if (tb_daemon__is_arbiter_record(rec->type) &&
            tb_daemon__arbiter_record(d, rec, &err) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal record %llu: arbiter action failed again: %s",
                           (unsigned long long)rec->seq, err.msg);
        return; /* the match's own decisions (mismatch, resolution, notes) are retaken */
    }
}

/* The start position of the journal's game, from its GAME_START record. */
static void game_start(struct tb_daemon *d, const struct tb_journal_record *rec)
{
    struct tb_journal_decision dec;
    struct tb_error err = {0};
    if (tb_journal_decision_decode(&dec, rec, &err) != TB_OK)
        return;
    if (dec.fen[0] && tb_chess_pos_from_fen(&d->start, dec.fen, 0, &err) != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "journal: game start FEN: %s", err.msg);
}

static int replay(struct tb_daemon *d, const uint8_t *buf, size_t len, struct tb_error *err)
{
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    struct tb_error e = {0};
    tb_journal_iter_init(&it, buf, len);
    unsigned long n = 0;
    int rc;
    d->fx = &tb_daemon__replay;
    while ((rc = tb_journal_iter_next(&it, &rec, &e)) != 0) {
        if (rc < 0) /* each loss was logged at open (log_losses) */
            continue;
        if (n++ == 0) {
            if (rec.type == TB_JOURNAL_GAME_START)
                game_start(d, &rec);
            if ((rc = tb_match_new(&d->mcfg, &d->start, rec.time_ms, &d->match, err)) != TB_OK)
                break;
            d->vnow = d->last_mt = rec.time_ms;
        }
        replay_record(d, &rec);
    }
    d->fx = &tb_daemon__live;
    if (n)
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "journal %s: %lu records replayed", d->journal_path,
                       n);
    return rc < 0 && !d->match ? rc : TB_OK;
}

/* What damage cost, for the arbiter: which records, which bytes, from which ply. */
static void log_losses(struct tb_daemon *d, const struct tb_journal_recovery *rec)
{
    size_t n;
    const struct tb_journal_loss *l = tb_journal_losses(d->journal, &n);
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "journal %s: %zu corrupt regions skipped, %llu records lost, %zu kept",
                   d->journal_path, rec->corrupt, (unsigned long long)rec->lost, rec->records);
    for (size_t i = 0; i < n; i++, l++) {
        char bytes[64] = "no bytes unreadable", moves[96] = "";
        if (l->bytes)
            snprintf(bytes, sizeof bytes, "bytes %zu to %zu", l->offset, l->offset + l->bytes - 1);
        if (l->next_ply == l->ply + 1)
            snprintf(moves, sizeof moves, "; the next intact move is ply %u: no agreed move lost",
                     l->next_ply);
        else if (l->next_ply)
            snprintf(moves, sizeof moves, "; the next intact move is ply %u", l->next_ply);
        if (l->last_seq >= l->first_seq)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal %s: records %llu to %llu lost (%s), from ply %u%s",
                           d->journal_path, (unsigned long long)l->first_seq,
                           (unsigned long long)l->last_seq, bytes, l->ply + 1u, moves);
        else
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "journal %s: %s unreadable after ply %u, no record known lost%s",
                           d->journal_path, bytes, l->ply, moves);
    }
}

int tb_daemon__journal_open(struct tb_daemon *d, struct tb_error *err)
{
    const char *dir = d->cfg->journal_dir;
    if (mkdir(dir, 0750) != 0 && errno != EEXIST)
        return tb_error_set(err, TB_ERR_SYS, "journal directory %s: %s", dir, strerror(errno));
    snprintf(d->journal_path, sizeof d->journal_path, "%s/current.tbj", dir);
    struct tb_journal_recovery rec;
    int rc = tb_journal_open(&d->journal, d->journal_path, &rec, err);
    if (rc != TB_OK)
        return rc;
    if (d->opt.journal_io) /* tests: a disk that fails on demand */
        tb_journal_set_io(d->journal, d->opt.journal_io);
    if (rec.torn_bytes)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "journal %s: a torn last record (%zu bytes) was dropped; %zu records kept",
                       d->journal_path, rec.torn_bytes, rec.records);
    if (rec.corrupt)
        log_losses(d, &rec);
    size_t len;
    const uint8_t *buf = tb_journal_contents(d->journal, &len);
    if ((rc = replay(d, buf, len, err)) != TB_OK)
        return rc;
    if (d->match) {
        /* The clock goes on from the journal's last record. */
        d->base_ms = rec.last_time_ms + 1;
        tb_daemon__game_recover(d); /* games kept: its name and tags */
        return TB_OK;
    }
    tb_daemon__game_begin(d);
    if ((rc = tb_match_new(&d->mcfg, &d->start, 0, &d->match, err)) != TB_OK)
        return rc;
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "daemon");
    tb_chess_pos_to_fen(&d->start, dec.fen, sizeof dec.fen);
    tb_config_summary(d->cfg, dec.text, sizeof dec.text);
    tb_daemon__outputs(d);
    return tb_daemon__journal_decision(d, TB_JOURNAL_GAME_START, 0, &dec, true);
}
