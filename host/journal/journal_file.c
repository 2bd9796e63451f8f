/* journal_file.c - the journal on disk: open with recovery, buffered append, fdatasync. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb_journal.h"

#define FLUSH_AT 65536 /* bytes buffered before a write without being asked */

struct tb_journal {
    int fd;
    uint8_t *image; /* valid contents read at open */
    size_t image_len;
    uint8_t *wbuf; /* records appended, not yet written */
    size_t wlen, wcap;
    off_t file_end; /* end of the last complete record in the file */
    uint64_t last_seq;
};

static int sys_fail(struct tb_error *err, const char *what, const char *path)
{
    int e = errno;
    tb_error_set(err, TB_ERR_SYS, "%s %s: %s", what, path, strerror(e));
    errno = e;
    return TB_ERR_SYS;
}

/* Reads the whole file; journals are one game long, so this stays small. */
static int read_all(int fd, uint8_t **out, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return TB_ERR_SYS;
    size_t cap = (size_t)st.st_size, n = 0;
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf)
        return TB_ERR_MEM;
    while (n < cap) {
        ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return TB_ERR_SYS;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *out = buf;
    *len = n;
    return TB_OK;
}

/* A new file's directory entry must be durable too, or a power cut can lose the whole file. */
static int sync_parent_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return TB_ERR_MEM;
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(copy);
    if (dfd < 0)
        return TB_ERR_SYS;
    int rc = fsync(dfd) == 0 ? TB_OK : TB_ERR_SYS;
    close(dfd);
    return rc;
}

int tb_journal_open(struct tb_journal **out, const char *path, struct tb_journal_recovery *rec,
                    struct tb_error *err)
{
    if (!out || !path)
        return tb_error_set(err, TB_ERR_ARG, "journal open: no path");
    *out = NULL;
    struct tb_journal_recovery found = {0};
    struct tb_journal *j = calloc(1, sizeof *j);
    if (!j)
        return tb_error_set(err, TB_ERR_MEM, "journal open: out of memory");
    bool existed = access(path, F_OK) == 0;
    j->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
    if (j->fd < 0) {
        int rc = sys_fail(err, "cannot open journal", path);
        free(j);
        return rc;
    }
    int rc;
    /* One writer per journal: a second daemon on the same game would interleave records. */
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(j->fd, F_SETLK, &lk) != 0) {
        rc = errno == EACCES || errno == EAGAIN
                 ? tb_error_set(err, TB_ERR_STATE, "journal %s is in use by another process", path)
                 : sys_fail(err, "cannot lock journal", path);
        goto fail;
    }
    size_t len = 0;
    rc = read_all(j->fd, &j->image, &len);
    if (rc != TB_OK) {
        rc = rc == TB_ERR_MEM ? tb_error_set(err, rc, "journal %s: out of memory", path)
                              : sys_fail(err, "cannot read journal", path);
        goto fail;
    }
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, j->image, len);
    for (;;) {
        int n = tb_journal_iter_next(&it, &r, NULL);
        if (n == 0)
            break;
        if (n == 1) {
            found.records++;
            found.last_seq = r.seq;
            found.last_time_ms = r.time_ms;
        }
    }
    found.corrupt = it.corrupt;
    j->image_len = it.valid_end;
    if (it.valid_end < len) {
        found.torn_bytes = len - it.valid_end;
        if (ftruncate(j->fd, (off_t)it.valid_end) != 0 || fdatasync(j->fd) != 0) {
            rc = sys_fail(err, "cannot cut the torn tail of journal", path);
            goto fail;
        }
    }
    if (!existed && sync_parent_dir(path) != TB_OK) {
        rc = sys_fail(err, "cannot sync the directory of journal", path);
        goto fail;
    }
    j->file_end = (off_t)it.valid_end;
    j->last_seq = found.last_seq;
    if (rec)
        *rec = found;
    *out = j;
    return TB_OK;
fail:
    close(j->fd);
    free(j->image);
    free(j);
    return rc;
}

const uint8_t *tb_journal_contents(const struct tb_journal *j, size_t *len)
{
    *len = j ? j->image_len : 0;
    return j ? j->image : NULL;
}

int64_t tb_journal_append(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                          const void *payload, size_t len)
{
    if (!j || len > TB_JOURNAL_MAX_PAYLOAD || (len && !payload))
        return TB_ERR_ARG;
    size_t need = TB_JOURNAL_HEADER_SIZE + len;
    if (j->wlen + need > j->wcap) {
        size_t cap = j->wcap ? j->wcap : 4096;
        while (cap < j->wlen + need)
            cap *= 2;
        uint8_t *p = realloc(j->wbuf, cap);
        if (!p)
            return TB_ERR_MEM;
        j->wbuf = p;
        j->wcap = cap;
    }
    uint64_t seq = j->last_seq + 1;
    tb_journal_encode(j->wbuf + j->wlen, j->wcap - j->wlen, type, seq, time_ms, payload, len);
    j->wlen += need;
    j->last_seq = seq;
    if (j->wlen >= FLUSH_AT) {
        int rc = tb_journal_flush(j);
        if (rc != TB_OK)
            return rc; /* the record stays buffered for the next flush */
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

int tb_journal_flush(struct tb_journal *j)
{
    if (!j)
        return TB_ERR_ARG;
    size_t done = 0;
    while (done < j->wlen) {
        ssize_t n = pwrite(j->fd, j->wbuf + done, j->wlen - done, j->file_end + (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            /* Never leave a partial record behind: cut back to the last complete one. */
            if (ftruncate(j->fd, j->file_end) != 0) {
                /* The torn bytes stay; open() drops them on the next start. */
            }
            errno = e;
            return TB_ERR_SYS;
        }
        done += (size_t)n;
    }
    j->file_end += (off_t)j->wlen;
    j->wlen = 0;
    return TB_OK;
}

int tb_journal_sync(struct tb_journal *j)
{
    int rc = tb_journal_flush(j);
    if (rc != TB_OK)
        return rc;
    return fdatasync(j->fd) == 0 ? TB_OK : TB_ERR_SYS;
}

uint64_t tb_journal_last_seq(const struct tb_journal *j)
{
    return j ? j->last_seq : 0;
}

int tb_journal_close(struct tb_journal *j)
{
    if (!j)
        return TB_OK;
    int rc = tb_journal_sync(j);
    int e = errno;
    close(j->fd);
    free(j->image);
    free(j->wbuf);
    free(j);
    errno = e;
    return rc;
}
