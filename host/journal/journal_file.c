/* journal_file.c - the journal on disk: opened safely (no symbolic link, no file of another
 * user), read and recovered (torn tail cut, damage listed), closed. */
#define _DEFAULT_SOURCE /* S_ISVTX */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal_internal.h"

/* The most a crash leaves after the last intact record: one record cut short, in a write that
 * may have been extended by a zero-filled page. More is damage (or no journal): it is kept. */
#define TORN_MAX (TB_JOURNAL_HEADER_SIZE + TB_JOURNAL_MAX_PAYLOAD + 4096)

static int sys_fail(struct tb_error *err, const char *what, const char *path)
{
    int e = errno;
    tb_error_set(err, TB_ERR_SYS, "%s %s: %s", what, path, strerror(e));
    errno = e;
    return TB_ERR_SYS;
}

/* A refusal on safety grounds: a sentence naming the file and why; errno e. */
__attribute__((format(printf, 4, 5))) static int refuse(struct tb_error *err, int e,
                                                        const char *path, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    tb_error_set(err, TB_ERR_PERM, "journal %s: refused, %s", path, why);
    errno = e;
    return TB_ERR_PERM;
}

/* The directory holding the journal: no symbolic link as its last component, ours or root's,
 * and nobody else may replace our file in it (writable by others only with the sticky bit). */
static int open_dir(const char *dir, const char *path, struct tb_error *err)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        if (errno == ELOOP || errno == ENOTDIR) {
            struct stat st;
            if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
                return refuse(err, ELOOP, path, "its directory is a symbolic link");
        }
        return sys_fail(err, "cannot open the directory of journal", path);
    }
    struct stat st;
    int rc = TB_OK;
    if (fstat(dfd, &st) != 0)
        rc = sys_fail(err, "cannot check the directory of journal", path);
    else if (st.st_uid != geteuid() && st.st_uid != 0)
        rc = refuse(err, EPERM, path,
                    "its directory belongs to uid %ld, this process runs as uid %ld",
                    (long)st.st_uid, (long)geteuid());
    else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
        rc = refuse(
            err, EPERM, path,
            "its directory is writable by group or others without the sticky bit (mode %04o)",
            (unsigned)(st.st_mode & 07777));
    if (rc != TB_OK) {
        close(dfd);
        return rc;
    }
    return dfd;
}

/* The journal file itself: created exclusively when missing, never through a symbolic link,
 * and only a regular file of ours that nobody else can write or reach by another name. */
static int open_file(int dfd, const char *base, const char *path, bool *created,
                     struct tb_error *err)
{
    const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 3; tries++) {
        fd = openat(dfd, base, flags);
        *created = false;
        if (fd < 0 && errno == ENOENT) {
            fd = openat(dfd, base, flags | O_CREAT | O_EXCL, 0640);
            *created = fd >= 0;
            if (fd < 0 && errno == EEXIST)
                continue; /* made meanwhile: look at what it is */
        }
        if (fd < 0 && errno == ELOOP)
            return refuse(err, ELOOP, path, "it is a symbolic link");
        if (fd < 0)
            return sys_fail(err, "cannot open journal", path);
    }
    if (fd < 0)
        return sys_fail(err, "cannot open journal", path);
    struct stat st;
    int rc = TB_OK;
    if (fstat(fd, &st) != 0)
        rc = sys_fail(err, "cannot check journal", path);
    else if (!S_ISREG(st.st_mode))
        rc = refuse(err, EPERM, path, "it is not a regular file");
    else if (st.st_uid != geteuid())
        rc = refuse(err, EPERM, path, "it belongs to uid %ld, this process runs as uid %ld",
                    (long)st.st_uid, (long)geteuid());
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        rc = refuse(err, EPERM, path, "it is writable by group or others (mode %04o)",
                    (unsigned)(st.st_mode & 07777));
    else if (st.st_nlink != 1)
        rc = refuse(err, EPERM, path, "it has %lu names (hard links)", (unsigned long)st.st_nlink);
    if (rc != TB_OK) {
        close(fd);
        return rc;
    }
    return fd;
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

static int add_loss(struct tb_journal *j, const struct tb_journal_loss *l, struct tb_error *err)
{
    if (j->nlosses == j->losscap) {
        size_t cap = j->losscap ? 2 * j->losscap : 8;
        struct tb_journal_loss *p = realloc(j->losses, cap * sizeof *p);
        if (!p)
            return tb_error_set(err, TB_ERR_MEM, "journal %s: out of memory", j->path);
        j->losses = p;
        j->losscap = cap;
    }
    j->losses[j->nlosses++] = *l;
    return TB_OK;
}

/* Scans the image: counts, losses (with the ply of the next intact move), where it ends. */
static int scan(struct tb_journal *j, size_t len, struct tb_journal_recovery *found,
                size_t *valid_end, uint16_t *ply, uint64_t *seq, struct tb_error *err)
{
    struct tb_journal_iter it;
    struct tb_journal_record r;
    struct tb_error e = {0};
    size_t open_from = 0; /* losses still waiting for their next move */
    tb_journal_iter_init(&it, j->image, len);
    int n;
    while ((n = tb_journal_iter_next(&it, &r, &e)) != 0) {
        if (n == TB_ERR_SUPP)
            return tb_error_set(err, TB_ERR_SUPP, "journal %s: %s; nothing changed", j->path,
                                e.msg);
        if (n < 0) {
            if ((n = add_loss(j, &it.loss, err)) != TB_OK)
                return n;
            continue;
        }
        found->records++;
        found->v1_records += r.format == 1;
        found->last_seq = r.seq;
        found->last_time_ms = r.time_ms;
        if (r.type == TB_JOURNAL_MOVE && r.len >= 3) {
            for (; open_from < j->nlosses; open_from++)
                j->losses[open_from].next_ply = it.ply;
        }
    }
    found->corrupt = it.corrupt;
    found->lost = it.lost;
    *valid_end = it.valid_end;
    *ply = it.ply;
    *seq = it.next_seq ? it.next_seq - 1 : 0; /* a lost last record's number is taken too */
    return TB_OK;
}

static int recover(struct tb_journal *j, struct tb_journal_recovery *found, struct tb_error *err)
{
    size_t len = 0, valid_end = 0;
    uint16_t ply = 0;
    uint64_t seq = 0;
    int rc = read_all(j->fd, &j->image, &len);
    if (rc != TB_OK)
        return rc == TB_ERR_MEM ? tb_error_set(err, rc, "journal %s: out of memory", j->path)
                                : sys_fail(err, "cannot read journal", j->path);
    if ((rc = scan(j, len, found, &valid_end, &ply, &seq, err)) != TB_OK)
        return rc;
    if (len - valid_end > TORN_MAX) {
        /* More than a crash leaves: not a torn write but damage, or no journal at all. It is
         * kept (nothing is destroyed) and reported; records are appended after it. */
        struct tb_journal_loss tail = {.first_seq = seq + 1,
                                       .last_seq = seq,
                                       .offset = valid_end,
                                       .bytes = len - valid_end,
                                       .ply = ply};
        if ((rc = add_loss(j, &tail, err)) != TB_OK)
            return rc;
        found->corrupt++;
        valid_end = len;
    }
    j->image_len = valid_end;
    found->torn_bytes = len - valid_end;
    if (found->torn_bytes && ftruncate(j->fd, (off_t)valid_end) != 0)
        return sys_fail(err, "cannot cut the torn tail of journal", j->path);
    /* What was read counts as durable only once it is on the disk itself. */
    if (fdatasync(j->fd) != 0)
        return sys_fail(err, "cannot sync journal", j->path);
    j->durable_end = (off_t)valid_end;
    j->last_seq = j->durable_seq = seq;
    return TB_OK;
}

/* Splits path into a directory and a last component (malloc'd copies). */
static int split(const char *path, char **dir, char **base)
{
    const char *slash = strrchr(path, '/');
    *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    *base = strdup(slash ? slash + 1 : path);
    if (*dir && *base) {
        /* "dir//x" or "link/" would follow a symbolic link despite O_NOFOLLOW */
        for (size_t n = strlen(*dir); n > 1 && (*dir)[n - 1] == '/'; n--)
            (*dir)[n - 1] = '\0';
        return TB_OK;
    }
    free(*dir);
    free(*base);
    return TB_ERR_MEM;
}

static void free_journal(struct tb_journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    free(j->path);
    free(j->image);
    free(j->losses);
    tb_journal__write_free(j);
    free(j);
}

static int open_locked(struct tb_journal *j, const char *path, struct tb_journal_recovery *rec,
                       struct tb_error *err)
{
    char *dir, *base;
    if (split(path, &dir, &base) != TB_OK)
        return tb_error_set(err, TB_ERR_MEM, "journal open: out of memory");
    int rc = TB_OK;
    bool created = false, locked = false;
    int dfd = open_dir(dir, path, err);
    if (dfd < 0) {
        rc = dfd;
        goto out;
    }
    if (!base[0]) {
        rc = tb_error_set(err, TB_ERR_ARG, "journal %s: no file name", path);
        goto out;
    }
    if ((j->fd = open_file(dfd, base, path, &created, err)) < 0) {
        rc = j->fd;
        goto out;
    }
    /* One writer per journal: a second daemon on the same game would interleave records. */
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(j->fd, F_SETLK, &lk) != 0) {
        rc = errno == EACCES || errno == EAGAIN
                 ? tb_error_set(err, TB_ERR_STATE, "journal %s is in use by another process", path)
                 : sys_fail(err, "cannot lock journal", path);
        goto out;
    }
    locked = true;
    if ((rc = recover(j, rec, err)) != TB_OK)
        goto out;
    /* A new file's directory entry must be durable too, or a power cut can lose the file. */
    if (created && fsync(dfd) != 0)
        rc = sys_fail(err, "cannot sync the directory of journal", path);
out:
    if (rc != TB_OK && created && locked)
        (void)unlinkat(dfd, base, 0); /* nothing changed: not even an empty file left */
    if (dfd >= 0)
        close(dfd);
    free(dir);
    free(base);
    return rc;
}

int tb_journal_open(struct tb_journal **out, const char *path, struct tb_journal_recovery *rec,
                    struct tb_error *err)
{
    if (!out || !path || !path[0])
        return tb_error_set(err, TB_ERR_ARG, "journal open: no path");
    *out = NULL;
    struct tb_journal_recovery found = {0};
    struct tb_journal *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        return tb_error_set(err, TB_ERR_MEM, "journal open: out of memory");
    }
    if (tb_journal__write_init(j) != TB_OK) {
        free(j->path);
        free(j);
        return tb_error_set(err, TB_ERR_SYS, "journal open: no lock");
    }
    j->fd = -1;
    int rc = open_locked(j, path, &found, err);
    if (rc != TB_OK) {
        int e = errno;
        free_journal(j);
        errno = e;
        return rc;
    }
    if (rec)
        *rec = found;
    *out = j;
    return TB_OK;
}

const uint8_t *tb_journal_contents(const struct tb_journal *j, size_t *len)
{
    *len = j ? j->image_len : 0;
    return j ? j->image : NULL;
}

const struct tb_journal_loss *tb_journal_losses(const struct tb_journal *j, size_t *n)
{
    *n = j ? j->nlosses : 0;
    return j && j->nlosses ? j->losses : NULL;
}

int tb_journal_close(struct tb_journal *j)
{
    if (!j)
        return TB_OK;
    int rc = tb_journal_sync(j);
    int e = errno;
    free_journal(j);
    errno = e;
    return rc;
}
