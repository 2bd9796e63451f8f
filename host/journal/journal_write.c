/* journal_write.c - appending to an open journal: records pending in memory, written in order,
 * fdatasync'd; a failed write is cut back to a record boundary and retried later, never lost. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "journal_internal.h"

#define FLUSH_AT 65536 /* pending bytes written without being asked */

static ssize_t do_pwrite(struct tb_journal *j, const void *buf, size_t len, off_t off)
{
    return j->io.pwrite ? j->io.pwrite(j->io.user, j->fd, buf, len, off)
                        : pwrite(j->fd, buf, len, off);
}

static int do_fdatasync(struct tb_journal *j)
{
    return j->io.fdatasync ? j->io.fdatasync(j->io.user, j->fd) : fdatasync(j->fd);
}

static int do_ftruncate(struct tb_journal *j, off_t len)
{
    return j->io.ftruncate ? j->io.ftruncate(j->io.user, j->fd, len) : ftruncate(j->fd, len);
}

void tb_journal_set_io(struct tb_journal *j, const struct tb_journal_io *io)
{
    if (j)
        j->io = io ? *io : (struct tb_journal_io){0};
}

/* A write past RLIMIT_FSIZE would raise SIGXFSZ (or, ignored, write part of a record): it is
 * refused whole, as the kernel would refuse its first byte past the limit. */
static bool past_size_limit(off_t end)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
           (rlim_t)end > rl.rlim_cur;
}

static int failed(struct tb_journal *j, int e)
{
    j->error = e;
    j->failures++;
    errno = e;
    return TB_ERR_SYS;
}

int tb_journal_flush(struct tb_journal *j)
{
    if (!j)
        return TB_ERR_ARG;
    off_t at = j->durable_end + (off_t)j->pwritten;
    size_t todo = j->plen - j->pwritten, done = 0;
    if (todo && past_size_limit(at + (off_t)todo))
        return failed(j, EFBIG);
    while (done < todo) {
        ssize_t n = do_pwrite(j, j->pend + j->pwritten + done, todo - done, at + (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            /* No half record stays behind. If the cut fails too, the next write starts at the
             * same boundary and covers the partial bytes with the same records. */
            if (done)
                (void)do_ftruncate(j, at);
            return failed(j, e);
        }
        done += (size_t)n;
    }
    j->pwritten = j->plen;
    return TB_OK;
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

static int commit_error(struct tb_journal *j, const char *what, struct tb_error *err)
{
    int e = errno;
    tb_error_set(err, TB_ERR_SYS,
                 "journal %s: cannot %s records %llu to %llu: %s (%s %d); %zu records (%zu bytes) "
                 "kept in memory until the disk takes them",
                 j->path, what, (unsigned long long)j->durable_seq + 1,
                 (unsigned long long)j->last_seq, strerror(e), errno_name(e), e, j->precords,
                 j->plen);
    errno = e;
    return TB_ERR_SYS;
}

int tb_journal_commit(struct tb_journal *j, struct tb_error *err)
{
    if (!j)
        return tb_error_set(err, TB_ERR_ARG, "journal commit: no journal");
    if (tb_journal_flush(j) != TB_OK)
        return commit_error(j, "write", err);
    if (do_fdatasync(j) != 0) {
        /* After a failed fdatasync the kernel may have dropped the pages: write them anew. */
        j->pwritten = 0;
        failed(j, errno);
        return commit_error(j, "sync", err);
    }
    j->durable_end += (off_t)j->plen;
    j->durable_seq = j->last_seq;
    j->plen = j->pwritten = j->precords = 0;
    j->error = 0;
    j->failures = 0;
    return TB_OK;
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
    if (j->plen + need > TB_JOURNAL_PENDING_MAX)
        return TB_ERR_FULL;
    if (j->plen + need > j->pcap) {
        size_t cap = j->pcap ? j->pcap : 4096;
        while (cap < j->plen + need)
            cap *= 2;
        uint8_t *p = realloc(j->pend, cap);
        if (!p)
            return TB_ERR_MEM;
        j->pend = p;
        j->pcap = cap;
    }
    uint64_t seq = j->last_seq + 1;
    tb_journal_encode(j->pend + j->plen, j->pcap - j->plen, type, seq, time_ms, payload, len);
    j->plen += need;
    j->precords++;
    j->last_seq = seq;
    if (j->plen - j->pwritten >= FLUSH_AT && !j->error) {
        int rc = tb_journal_flush(j);
        if (rc != TB_OK)
            return rc; /* the record stays pending for the next flush or commit */
    }
    return (int64_t)seq;
}

int64_t tb_journal_append_event(struct tb_journal *j, uint64_t time_ms,
                                const struct tb_journal_event *ev)
{
    uint8_t buf[64];
    int n = tb_journal_event_encode(ev, buf, sizeof buf);
    return n < 0 ? n : tb_journal_append(j, TB_JOURNAL_BOARD_EVENT, time_ms, buf, (size_t)n);
}

int64_t tb_journal_append_move(struct tb_journal *j, uint64_t time_ms,
                               const struct tb_journal_move *mv)
{
    uint8_t buf[64];
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

uint64_t tb_journal_last_seq(const struct tb_journal *j)
{
    return j ? j->last_seq : 0;
}

void tb_journal_state(const struct tb_journal *j, struct tb_journal_state *st)
{
    memset(st, 0, sizeof *st);
    if (!j)
        return;
    st->last_seq = j->last_seq;
    st->durable_seq = j->durable_seq;
    st->pending_records = j->precords;
    st->pending_bytes = j->plen;
    st->error = j->error;
    st->failures = j->failures;
}
