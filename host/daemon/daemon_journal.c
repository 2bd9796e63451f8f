/* daemon_journal.c - the game's journal: every board event fed to the match and every decision,
 * appended; committed before any move is agreed or announced and at every arbiter action, on its
 * writer thread; when it cannot be written, play stops until a retry succeeds; replayed on start
 * through the same code path as live input, so a restarted daemon is where the stopped one was.
 * The journal and its writer are one part of the loop (tb_daemon__part_writer): opened with
 * recovery, its eventfd handing the writer's outcome to the session. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon_clock.h"
#include "daemon_games.h"
#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_table.h"

/* ---- the writer thread: the loop hands it a commit (write + fdatasync) or a flush (write) of
 * the records appended so far and goes on polling; the thread does the I/O, however long the
 * disk takes, and reports through an eventfd the loop polls. The journal keeps its own lock (a
 * commit may run while the loop appends); the thread owns nothing else. ---- */

static void *writer_main(void *arg)
{
    struct tb_daemon *d = arg;
    struct tb_daemon__writer *w = &d->session->writer;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (w->job == TBD_WRITE_NONE && !w->quit)
            pthread_cond_wait(&w->cond, &w->lock);
        if (w->quit)
            break;
        enum tbd_write job = w->job;
        pthread_mutex_unlock(&w->lock);
        struct tb_error err = {0};
        errno = 0;
        int rc = job == TBD_WRITE_COMMIT ? tb_journal_commit(d->session->journal, &err)
                                         : tb_journal_flush(d->session->journal);
        int e = errno;
        pthread_mutex_lock(&w->lock);
        w->job = TBD_WRITE_NONE;
        w->rc = rc;
        w->error = rc == TB_OK ? 0 : e ? e : EIO;
        snprintf(w->msg, sizeof w->msg, "%s", rc == TB_OK ? "" : err.msg);
        w->finished = true;
        pthread_cond_broadcast(&w->cond);
        uint64_t one = 1;
        ssize_t n = write(w->efd, &one, sizeof one);
        (void)n; /* a counter that is already due stays due */
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static int writer_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__writer *w = &d->session->writer;
    w->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (w->efd < 0)
        return tb_error_set(err, TB_ERR_SYS, "journal writer: eventfd: %s", strerror(errno));
    if (pthread_mutex_init(&w->lock, NULL) != 0 || pthread_cond_init(&w->cond, NULL) != 0)
        return tb_error_set(err, TB_ERR_SYS, "journal writer: no lock");
    w->inited = true;
    int rc = pthread_create(&w->thread, NULL, writer_main, d);
    if (rc != 0)
        return tb_error_set(err, TB_ERR_SYS, "journal writer: thread: %s", strerror(rc));
    w->started = true;
    return TB_OK;
}

static void writer_close(struct tb_daemon *d)
{
    struct tb_daemon__writer *w = &d->session->writer;
    if (w->started) { /* a write under way is waited for: the journal is closed after it */
        pthread_mutex_lock(&w->lock);
        w->quit = true;
        pthread_cond_broadcast(&w->cond);
        pthread_mutex_unlock(&w->lock);
        pthread_join(w->thread, NULL);
        w->started = false;
    }
    if (w->inited) {
        pthread_cond_destroy(&w->cond);
        pthread_mutex_destroy(&w->lock);
        w->inited = false;
    }
    if (w->efd > 0)
        close(w->efd);
    w->efd = -1;
}

static int writer_start(struct tb_daemon *d, enum tbd_write job, uint64_t now)
{
    struct tb_daemon__writer *w = &d->session->writer;
    if (!w->started)
        return TB_ERR_STATE;
    if (w->busy)
        return TB_ERR_AGAIN;
    pthread_mutex_lock(&w->lock);
    w->job = job;
    w->finished = false;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    w->busy = job;
    w->since = now;
    w->stall = TBD_STALL_NONE;
    return TB_OK;
}

bool tb_daemon__writer_take(struct tb_daemon *d, bool wait, struct tb_daemon__written *out)
{
    struct tb_daemon__writer *w = &d->session->writer;
    uint64_t n;
    ssize_t r = read(w->efd, &n, sizeof n);
    (void)r; /* drained (a wait may have taken the job's outcome already): the result counts */
    if (!w->busy)
        return false;
    pthread_mutex_lock(&w->lock);
    while (wait && !w->finished)
        pthread_cond_wait(&w->cond, &w->lock);
    bool done = w->finished;
    if (done) {
        out->job = w->busy;
        out->rc = w->rc;
        out->error = w->error;
        snprintf(out->msg, sizeof out->msg, "%s", w->msg);
        w->finished = false;
    }
    pthread_mutex_unlock(&w->lock);
    if (done) {
        w->busy = TBD_WRITE_NONE;
        r = read(w->efd, &n, sizeof n); /* the thread signalled before it let go of the lock */
    }
    return done;
}

/* ---- durability: nothing agreed or said before it is on disk (docs/journal.md) ----------- */

/* Players and arbiter told that play waits for the journal: both hear "please wait" and "the
 * arbiter has been called" once, whether the disk stalled or failed. */
static void tell_players(struct tb_daemon *d)
{
    if (d->session->jstop.notice == TB_TABLE_NOTICE_TOLD)
        return;
    tb_table_notice_to(&d->session->jstop.notice, TB_TABLE_NOTICE_TOLD);
    d->session->mode->tell_wait(d);
}

/* The journal cannot be written: play stops, as for a mismatch. Said once: both players hear
 * that the arbiter is called, the log has one line with the reason, status shows it. */
void tb_daemon__journal_stop(struct tb_daemon *d, int error, const char *msg)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    js->retry_at = tb_daemon__clock(d) + TBD_JOURNAL_RETRY_MS;
    if (tbd_stopped(js))
        return;
    tb_table_journal_to(&js->state, TB_TABLE_STOPPED);
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
    tell_players(d);
}

/* The journal store's commit (recovery's quiet store has nothing to write). */
int tb_daemon__store_commit(struct tb_daemon *d)
{
    if (!d->session->journal)
        return TB_OK;
    if (tb_daemon__jstopped(d))
        return TB_ERR_SYS; /* only the timer retries: no write storm, no repeated lines */
    if (d->session->writer.busy)
        return TB_ERR_AGAIN; /* its outcome is taken first (the session's WRITTEN input) */
    struct tb_journal_state st;
    tb_journal_state(d->session->journal, &st);
    if (st.pending_records == 0 && st.error == 0)
        return TB_OK;
    d->session->writer.flushed_seq = st.last_seq;
    /* A game on script time has no player waiting on the wall clock, and its outcome must not
     * depend on how fast the disk answers: its commits are made on the loop. */
    if (!d->virtual_time && writer_start(d, TBD_WRITE_COMMIT, tb_daemon__clock(d)) == TB_OK)
        return TB_ERR_AGAIN; /* the writer thread has it: the loop goes on */
    /* no writer thread (the daemon is being made, or script time): on the loop */
    struct tb_error err = {0};
    int rc = tb_journal_commit(d->session->journal, &err);
    if (rc == TB_OK)
        return TB_OK;
    tb_daemon__journal_stop(d, rc == TB_ERR_SYS && errno ? errno : EIO, err.msg);
    return TB_ERR_SYS;
}

bool tb_daemon__journal_stopped(struct tb_daemon *d, struct tb_error *err)
{
    if (!tb_daemon__jstopped(d))
        return false;
    tb_error_set(err, TB_ERR_STATE,
                 "the journal cannot be written (%s): play is stopped until it can; nothing was "
                 "changed",
                 d->session->jstop.reason);
    return true;
}

/* Tells the players and the arbiter about a write that stalls while the game waits for it. */
static void stall_notice(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__writer *w = &d->session->writer;
    w->stall = TBD_STALL_SAID;
    if (d->session->jstop.notice == TB_TABLE_NOTICE_TOLD)
        return;
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "journal %s: a write has not returned for %llu ms: play is held until it is on "
                   "disk, ARBITER called",
                   d->journal_path, (unsigned long long)(now - w->since));
    tell_players(d);
}

uint64_t tb_daemon__journal_retry(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__jstop *js = &d->session->jstop;
    struct tb_daemon__writer *w = &d->session->writer;
    if (w->busy) { /* the retry waits for the write under way; a stall is said */
        if (w->stall == TBD_STALL_SAID || !tb_daemon__journal_held(d))
            return UINT64_MAX;
        if (now >= w->since + TBD_JOURNAL_STALL_MS)
            stall_notice(d, now);
        return w->stall == TBD_STALL_SAID ? UINT64_MAX : w->since + TBD_JOURNAL_STALL_MS;
    }
    if (!tbd_stopped(js))
        return UINT64_MAX;
    if (now < js->retry_at)
        return js->retry_at;
    js->tries++;
    struct tb_journal_state st;
    tb_journal_state(d->session->journal, &st);
    js->kept = st.pending_records;
    js->retry_at = now + TBD_JOURNAL_RETRY_MS;
    if (writer_start(d, TBD_WRITE_COMMIT, now) == TB_OK)
        return UINT64_MAX; /* its outcome wakes the loop */
    return js->retry_at;
}

void tb_daemon__journal_flush(struct tb_daemon *d)
{
    if (!d->session->journal || tb_daemon__jstopped(d) || d->session->writer.busy)
        return;
    uint64_t last = tb_journal_last_seq(d->session->journal);
    if (last <= d->session->writer.flushed_seq)
        return;
    d->session->writer.flushed_seq = last;
    writer_start(d, TBD_WRITE_FLUSH, tb_daemon__clock(d));
}

void tb_daemon__journal_free(struct tb_daemon *d)
{
    tb_fifo_free(&d->session->jstop.in);
}

struct tb_journal *tb_daemon__journal(const struct tb_daemon *d)
{
    return d->session->journal;
}

bool tb_daemon__jstopped(const struct tb_daemon *d)
{
    return tbd_stopped(&d->session->jstop);
}

bool tb_daemon__writing(const struct tb_daemon *d)
{
    return d->session->writer.busy != TBD_WRITE_NONE;
}

void tb_daemon__journal_close(struct tb_daemon *d)
{
    struct tb_daemon__session *s = d->session;
    if (s->journal && tb_journal_close(s->journal) != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal %s: closing failed: %s", d->journal_path,
                       strerror(errno));
    s->journal = NULL;
}

int tb_daemon__journal_reopen(struct tb_daemon *d, struct tb_journal_recovery *rec,
                              struct tb_error *e)
{
    struct tb_daemon__session *s = d->session;
    int rc = tb_journal_open(&s->journal, d->journal_path, rec, e);
    if (rc != TB_OK)
        s->journal = NULL;
    else if (d->opt.journal_io) /* tests: a disk that fails on demand */
        tb_journal_set_io(s->journal, d->opt.journal_io);
    return rc;
}

/* "ok" means every move agreed or said is on disk. */
int tb_daemon__journal_health(const struct tb_daemon *d, char *buf, size_t len)
{
    const struct tb_daemon__session *s = d->session;
    buf[0] = '\0';
    if (!s->journal)
        return 0;
    struct tb_journal_state js = {0};
    tb_journal_state(s->journal, &js);
    int n;
    if (tbd_stopped(&s->jstop))
        n = snprintf(buf, len,
                     "cannot write: %s; play stopped, the arbiter is called; %zu records kept in "
                     "memory, retrying",
                     s->jstop.reason, js.pending_records);
    else if (s->writer.busy && tb_daemon__journal_held(d) &&
             tb_daemon__clock(d) >= s->writer.since + 1000) /* journal writer: a slow disk */
        n = snprintf(buf, len, "writing, %llu s; play held until the record is on disk%s",
                     (unsigned long long)((tb_daemon__clock(d) - s->writer.since) / 1000),
                     s->writer.stall == TBD_STALL_SAID ? ", the arbiter is called" : "");
    else
        n = snprintf(buf, len, "ok");
    return n < 0 ? 0 : (size_t)n < len ? n : (int)len - 1;
}

/* ---- the journal store ----------------------------------------------------------- */

int tb_daemon__journal_event(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t)
{
    if (!d->session->journal)
        return TB_OK;
    int64_t rc = tb_journal_append_event(d->session->journal, t, je);
    if (rc == TB_ERR_SYS) /* appended; writing the pending records out failed */
        tb_daemon__journal_stop(d, errno ? errno : EIO, NULL);
    else if (rc < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append a board event (%d)",
                       (int)rc);
    return rc < 0 && rc != TB_ERR_SYS ? (int)rc : TB_OK;
}

/* A record appended (rc: tb_journal_append's), what it is for the log: a write that failed
 * stops play; sync: the record must be on disk before anything follows from it. */
static int appended(struct tb_daemon *d, int64_t rc, const char *what, bool sync)
{
    if (rc < 0 && rc != TB_ERR_SYS) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append %s (%d)", what, (int)rc);
        return (int)rc;
    }
    if (rc == TB_ERR_SYS)
        tb_daemon__journal_stop(d, errno ? errno : EIO, NULL);
    if (sync) /* the store's own: a record that must be on disk starts its commit */
        tb_daemon__store_commit(d);
    return TB_OK;
}

/* sync: the decision must be on disk before anything follows from it. A decision while play
 * is stopped is refused (nothing appended); one whose commit fails stays appended in memory and
 * is written when the journal can be written again (play stops meanwhile). */
int tb_daemon__journal_decision(struct tb_daemon *d, uint16_t type, uint64_t t,
                                const struct tb_journal_decision *dec, bool sync)
{
    if (!d->session->journal)
        return TB_OK;
    if (sync && tb_daemon__jstopped(d))
        return TB_ERR_STATE;
    return appended(d, tb_journal_append_decision(d->session->journal, type, t, dec), "a decision",
                    sync);
}

/* A doorgeefschaak input the match took, as a decision is. */
int tb_daemon__journal_bug_input(struct tb_daemon *d, uint64_t t,
                                 const struct tb_journal_bug_input *in, bool sync)
{
    if (!d->session->journal)
        return TB_OK;
    if (sync && tb_daemon__jstopped(d))
        return TB_ERR_STATE;
    return appended(d, tb_journal_append_bug_input(d->session->journal, t, in),
                    "a doorgeefschaak input", sync);
}

/* The agreed move's record, appended; the session commits it before it is carried out. */
int tb_daemon__journal_move(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                            const char *san)
{
    if (!d->session->journal)
        return TB_OK;
    struct tb_journal_move mv = {.board = (uint8_t)board, .ply = (uint16_t)ply, .move = m};
    snprintf(mv.san, sizeof mv.san, "%s", san);
    /* the moves before it: a loss of their records (a zeroed page) is bridged with them */
    const tb_chess_game *g = tb_match_game(d->session->match);
    int have = ply - 1 <= g->plies ? ply - 1 : g->plies;
    mv.nhist = (uint8_t)(have < TB_JOURNAL_MOVE_HISTORY ? have : TB_JOURNAL_MOVE_HISTORY);
    for (int i = 0; i < mv.nhist; i++)
        mv.hist[i] = g->moves[have - mv.nhist + i];
    int64_t rc = tb_journal_append_move(d->session->journal, t, &mv);
    if (rc == TB_ERR_SYS)
        tb_daemon__journal_stop(d, errno ? errno : EIO, NULL);
    else if (rc < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "journal: cannot append the move of ply %d (%d)",
                       ply, (int)rc);
    return rc < 0 && rc != TB_ERR_SYS ? (int)rc : TB_OK;
}

const struct tb_daemon__store tb_daemon__journal_store = {
    .append_event = tb_daemon__journal_event,
    .append_decision = tb_daemon__journal_decision,
    .append_bug_input = tb_daemon__journal_bug_input,
    .append_move = tb_daemon__journal_move,
    .commit = tb_daemon__store_commit,
};

/* ---- the quiet store: recovery writes nothing --------------------------------------------- */

static int quiet_event(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t)
{
    (void)d, (void)je, (void)t;
    return TB_OK;
}
static int quiet_decision(struct tb_daemon *d, uint16_t type, uint64_t t,
                          const struct tb_journal_decision *dec, bool sync)
{
    (void)d, (void)type, (void)t, (void)dec, (void)sync;
    return TB_OK;
}
static int quiet_bug_input(struct tb_daemon *d, uint64_t t, const struct tb_journal_bug_input *in,
                           bool sync)
{
    (void)d, (void)t, (void)in, (void)sync;
    return TB_OK;
}
static int quiet_move(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                      const char *san)
{
    (void)d, (void)t, (void)board, (void)ply, (void)m, (void)san;
    return TB_OK;
}
static int quiet_commit(struct tb_daemon *d)
{
    (void)d;
    return TB_OK;
}

const struct tb_daemon__store tb_daemon__quiet_store = {
    .append_event = quiet_event,
    .append_decision = quiet_decision,
    .append_bug_input = quiet_bug_input,
    .append_move = quiet_move,
    .commit = quiet_commit,
};

/* ---- opening ------------------------------------------------------------------------------ */

static int journal_open(struct tb_daemon *d, struct tb_error *err)
{
    const char *dir = d->cfg->journal_dir;
    if (mkdir(dir, 0750) != 0 && errno != EEXIST)
        return tb_error_set(err, TB_ERR_SYS, "journal directory %s: %s", dir, strerror(errno));
    snprintf(d->journal_path, sizeof d->journal_path, "%s/current.tbj", dir);
    struct tb_journal_recovery rec;
    int rc = tb_daemon__journal_reopen(d, &rec, err);
    if (rc != TB_OK)
        return rc;
    if ((rc = tb_daemon__recover(d, &rec, err)) != TB_OK)
        return rc;
    if (d->session->match) {
        /* The clock goes on from the journal's last record. */
        d->base_ms = rec.last_time_ms + 1;
        tb_daemon__game_recover(d); /* games kept: its name and tags */
        return TB_OK;
    }
    tb_daemon__game_begin(d);
    if ((rc = tb_match_new(&d->session->mcfg, &d->session->start, 0, &d->session->match, err)) !=
        TB_OK)
        return rc;
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "daemon");
    tb_chess_pos_to_fen(&d->session->start, dec.fen, sizeof dec.fen);
    tb_config_summary(d->cfg, dec.text, sizeof dec.text);
    tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_DRAIN}, 0, NULL);
    int rc2 = tb_daemon__journal_decision(d, TB_JOURNAL_GAME_START, 0, &dec, true);
    tb_daemon__journal_settle(d); /* on disk before the daemon is up */
    return rc2;
}

/* ---- the journal and its writer as one part of the loop: opened with the journal (recovery),
 * its eventfd says a write has finished ---- */

/* The journal and its writer thread. The journal comes first: recovery rebuilds the game before
 * any board is heard; the writer runs the commits off the loop. */
static int writer_part_open(struct tb_daemon *d, struct tb_error *err)
{
    int rc = writer_open(d, err);
    if (rc == TB_OK)
        rc = journal_open(d, err);
    if (rc == TB_OK)
        tb_match_status(d->session->match, &d->session->shown); /* recovered: all of it on disk */
    return rc;
}

static int writer_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    int efd = d->session->writer.efd;
    if (efd < 0 || max < 1)
        return 0;
    p[0] = (struct pollfd){.fd = efd, .events = POLLIN}; /* a write has finished */
    return 1;
}

static int writer_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    if (n > 0 && (p[0].revents & POLLIN))
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_WRITTEN},
                         tb_daemon__clock(d), NULL);
    return TB_OK;
}

const struct tb_daemon__part tb_daemon__part_writer = {
    .name = "journal writer",
    .open = writer_part_open,
    .close = writer_close,
    .pollfds = writer_pollfds,
    .handle = writer_handle,
};
