/* journal_write.c - appending to an open journal: records pending in memory, written in order,
 * fdatasync'd; a failed write is cut back to a record boundary and retried later, never lost.
 * A commit may run on a writer thread while another thread appends: the lock guards the state,
 * and the batch being written belongs to the commit alone (docs/journal.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "journal_internal.h"

#define FLUSH_AT 65536 /* pending bytes written without being asked */

int tb_journal__write_init(struct tb_journal *j)
{
    return pthread_mutex_init(&j->lock, NULL) == 0 ? TB_OK : TB_ERR_SYS;
}

void tb_journal__write_free(struct tb_journal *j)
{
    pthread_mutex_destroy(&j->lock);
    free(j->flight.buf);
    free(j->pend.buf);
}

void tb_journal_set_io(struct tb_journal *j, const struct tb_journal_io *io)
{
    if (!j)
        return;
    pthread_mutex_lock(&j->lock);
    j->io = io ? *io : (struct tb_journal_io){0};
    pthread_mutex_unlock(&j->lock);
}

/* A write past RLIMIT_FSIZE would raise SIGXFSZ (or, ignored, write part of a record): it is
 * refused whole, as the kernel would refuse its first byte past the limit. */
static bool past_size_limit(off_t end)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
           (rlim_t)end > rl.rlim_cur;
}

static bool reserve(struct tb_journal_batch *b, size_t need)
{
    if (b->len + need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + need)
        cap *= 2;
    uint8_t *p = realloc(b->buf, cap);
    if (!p)
        return false;
    b->buf = p;
    b->cap = cap;
    return true;
}

/* Under the lock: the records appended so far join the batch in flight, which this caller
 * then owns (busy) until finish(). TB_ERR_AGAIN when another thread is writing. */
static int take(struct tb_journal *j)
{
    if (j->busy)
        return TB_ERR_AGAIN;
    struct tb_journal_batch *f = &j->flight, *p = &j->pend;
    if (!f->len) {
        struct tb_journal_batch t = *f;
        *f = *p;
        *p = t;
        p->len = p->records = 0;
    } else if (p->len) {
        if (!reserve(f, p->len))
            return TB_ERR_MEM;
        memcpy(f->buf + f->len, p->buf, p->len);
        f->len += p->len;
        f->records += p->records;
        p->len = p->records = 0;
    }
    j->flight_last_seq = j->last_seq;
    j->busy = true;
    return TB_OK;
}

/* What a commit or flush writes: the flight's unwritten bytes, taken under the lock. */
struct span {
    int fd;
    const uint8_t *buf;
    size_t len;
    off_t at;
};

/* Without the lock (the batch is ours): writes the span. 0 or an errno. A failed or short write
 * is cut back to where it started: no half record stays behind; if the cut fails too, the next
 * write starts at that same boundary and covers the partial bytes with the same records. */
static int write_span(const struct span *w, const struct tb_journal_io *io)
{
    if (w->len && past_size_limit(w->at + (off_t)w->len))
        return EFBIG;
    for (size_t done = 0; done < w->len;) {
        const uint8_t *p = w->buf + done;
        off_t off = w->at + (off_t)done;
        ssize_t n = io->pwrite ? io->pwrite(io->user, w->fd, p, w->len - done, off)
                               : pwrite(w->fd, p, w->len - done, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            (void)(io->ftruncate ? io->ftruncate(io->user, w->fd, w->at) : ftruncate(w->fd, w->at));
            return e;
        }
        done += (size_t)n;
    }
    return 0;
}

static int sync_span(const struct span *w, const struct tb_journal_io *io)
{
    int rc = io->fdatasync ? io->fdatasync(io->user, w->fd) : fdatasync(w->fd);
    return rc == 0 ? 0 : errno ? errno : EIO;
}

/* Under the lock: the outcome of an attempt. e an errno or 0; written: the write succeeded. */
static int finish(struct tb_journal *j, int e, bool written, bool synced)
{
    j->busy = false;
    if (written)
        j->fwritten = j->flight.len;
    if (written && e) /* fdatasync failed: the kernel may have dropped the pages, write anew */
        j->fwritten = 0;
    if (e) {
        j->error = e;
        j->failures++;
        errno = e;
        return TB_ERR_SYS;
    }
    if (synced) {
        j->durable_end += (off_t)j->flight.len;
        j->durable_seq = j->flight_last_seq;
        j->flight.len = j->flight.records = 0;
        j->fwritten = 0;
        j->error = 0;
        j->failures = 0;
    }
    return TB_OK;
}

/* One attempt: take the records, write them (and sync), record the outcome. */
static int attempt(struct tb_journal *j, bool sync, const char **what)
{
    pthread_mutex_lock(&j->lock);
    int rc = take(j);
    struct tb_journal_io io = j->io;
    struct span w = {
        .fd = j->fd, .len = j->flight.len - j->fwritten, .at = j->durable_end + (off_t)j->fwritten};
    if (w.len)
        w.buf = j->flight.buf + j->fwritten;
    pthread_mutex_unlock(&j->lock);
    if (rc != TB_OK) {
        *what = rc == TB_ERR_AGAIN ? "write (another commit is writing)" : "hold";
        return rc;
    }
    int e = write_span(&w, &io);
    bool written = !e;
    *what = "write";
    if (written && sync && (e = sync_span(&w, &io)) != 0)
        *what = "sync";
    pthread_mutex_lock(&j->lock);
    rc = finish(j, e, written, sync);
    pthread_mutex_unlock(&j->lock);
    errno = e;
    return rc;
}

int tb_journal_flush(struct tb_journal *j)
{
    const char *what;
    return j ? attempt(j, false, &what) : TB_ERR_ARG;
}

static const char *errno_name(int e)
{
    switch (e) {
    case ENOSPC:
        return "ENOSPC";
    case EROFS:
        return "EROFS";
    case EIO:
        return "EIO";
    case EFBIG:
        return "EFBIG";
    case EDQUOT:
        return "EDQUOT";
    case EACCES:
        return "EACCES";
    case EPERM:
        return "EPERM";
    case EBADF:
        return "EBADF";
    default:
        return "errno";
    }
}

int tb_journal_commit(struct tb_journal *j, struct tb_error *err)
{
    if (!j)
        return tb_error_set(err, TB_ERR_ARG, "journal commit: no journal");
    const char *what;
    int rc = attempt(j, true, &what);
    if (rc == TB_OK)
        return rc;
    int e = errno;
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    if (rc != TB_ERR_SYS)
        tb_error_set(err, rc, "journal %s: cannot %s the pending records", j->path, what);
    else
        tb_error_set(err, TB_ERR_SYS,
                     "journal %s: cannot %s records %llu to %llu: %s (%s %d); %zu records (%zu "
                     "bytes) kept in memory until the disk takes them",
                     j->path, what, (unsigned long long)st.durable_seq + 1,
                     (unsigned long long)st.last_seq, strerror(e), errno_name(e), e,
                     st.pending_records, st.pending_bytes);
    errno = e;
    return rc;
}

int tb_journal_sync(struct tb_journal *j)
{
    return tb_journal_commit(j, NULL);
}

int64_t tb_journal_append(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                          const void *payload, size_t len)
{
    if (!j || len > TB_JOURNAL_MAX_PAYLOAD || (len && !payload))
        return TB_ERR_ARG;
    size_t need = TB_JOURNAL_HEADER_SIZE + len;
    pthread_mutex_lock(&j->lock);
    struct tb_journal_batch *p = &j->pend;
    int64_t rc;
    if (j->flight.len + p->len + need > TB_JOURNAL_PENDING_MAX) {
        rc = TB_ERR_FULL;
    } else if (!reserve(p, need)) {
        rc = TB_ERR_MEM;
    } else {
        rc = (int64_t)++j->last_seq;
        tb_journal_encode(p->buf + p->len, p->cap - p->len, type, j->last_seq, time_ms, payload,
                          len);
        p->len += need;
        p->records++;
    }
    bool flush =
        rc > 0 && !j->error && !j->busy && j->flight.len - j->fwritten + p->len >= FLUSH_AT;
    pthread_mutex_unlock(&j->lock);
    if (flush && tb_journal_flush(j) == TB_ERR_SYS)
        return TB_ERR_SYS; /* the record stays pending for the next flush or commit */
    return rc;
}

int64_t tb_journal_append_event(struct tb_journal *j, uint64_t time_ms,
                                const struct tb_journal_event *ev)
{
    uint8_t buf[TB_JOURNAL_EVENT_MAX];
    int n = tb_journal_event_encode(ev, buf, sizeof buf);
    return n < 0 ? n : tb_journal_append(j, TB_JOURNAL_BOARD_EVENT, time_ms, buf, (size_t)n);
}

int64_t tb_journal_append_move(struct tb_journal *j, uint64_t time_ms,
                               const struct tb_journal_move *mv)
{
    uint8_t buf[8 + sizeof mv->san + 1 + 2 * TB_JOURNAL_MOVE_HISTORY];
    int n = tb_journal_move_encode(mv, buf, sizeof buf);
    return n < 0 ? n : tb_journal_append(j, TB_JOURNAL_MOVE, time_ms, buf, (size_t)n);
}

int64_t tb_journal_append_decision(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                                   const struct tb_journal_decision *d)
{
    uint8_t buf[sizeof *d + 8];
    int n = tb_journal_decision_encode(d, buf, sizeof buf);
    return n < 0 ? n : tb_journal_append(j, type, time_ms, buf, (size_t)n);
}

int64_t tb_journal_append_bug_input(struct tb_journal *j, uint64_t time_ms,
                                    const struct tb_journal_bug_input *in)
{
    uint8_t buf[4 + TB_JOURNAL_BUG_MOVE_MAX];
    int n = tb_journal_bug_input_encode(in, buf, sizeof buf, NULL);
    return n < 0 ? n : tb_journal_append(j, TB_JOURNAL_BUG_INPUT_BIN, time_ms, buf, (size_t)n);
}

uint64_t tb_journal_last_seq(const struct tb_journal *j)
{
    if (!j)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&j->lock);
    uint64_t seq = j->last_seq;
    pthread_mutex_unlock((pthread_mutex_t *)&j->lock);
    return seq;
}

void tb_journal_state(const struct tb_journal *j, struct tb_journal_state *st)
{
    memset(st, 0, sizeof *st);
    if (!j)
        return;
    pthread_mutex_t *lock = (pthread_mutex_t *)&j->lock; /* reading takes the lock too */
    pthread_mutex_lock(lock);
    st->last_seq = j->last_seq;
    st->durable_seq = j->durable_seq;
    st->pending_records = j->flight.records + j->pend.records;
    st->pending_bytes = j->flight.len + j->pend.len;
    st->error = j->error;
    st->failures = j->failures;
    st->committing = j->busy;
    pthread_mutex_unlock(lock);
}
