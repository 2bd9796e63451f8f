/* The journal's file layer when the disk fails (a full file system, a read-only one, EIO, a file
 * size limit) and when the path is a trap (a symbolic link, another user's file): every failure
 * is reported with its errno, no half record is ever left for a later record to follow, the
 * records that could not be written stay in memory in order and are written by the next commit
 * that works, a commit may wait for the disk on a writer thread while appends go on, and a
 * refused path is left as it was. */
#define _GNU_SOURCE /* unshare */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_journal.h"
#include "tb_test.h"

#define SKIPPED 77

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tb_test_tmp_dir(), name);
}

static long file_size(const char *path)
{
    struct stat st;
    ASSERT_OK(stat(path, &st));
    return (long)st.st_size;
}

static int64_t append_n(struct tb_journal *j, uint64_t seq)
{
    char payload[64];
    int n = snprintf(payload, sizeof payload, "record %llu, a move or a board event",
                     (unsigned long long)seq);
    return tb_journal_append(j, 100, seq, payload, (size_t)n);
}

/* Reopens path and checks it holds records 1..n, each once, in order, intact, nothing torn. */
static void check_file(const char *path, uint64_t n)
{
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    struct tb_error e;
    if (tb_journal_open(&j, path, &rec, &e) != TB_OK)
        TB_FAIL("%s", e.msg);
    ASSERT_EQ(rec.torn_bytes, 0);
    ASSERT_EQ(rec.corrupt, 0);
    ASSERT_U64_EQ(rec.records, n);
    size_t len;
    const uint8_t *buf = tb_journal_contents(j, &len);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);
    for (uint64_t s = 1; s <= n; s++) {
        ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 1);
        ASSERT_U64_EQ(r.seq, s);
        char want[64];
        int w = snprintf(want, sizeof want, "record %llu, a move or a board event",
                         (unsigned long long)s);
        ASSERT_EQ(r.len, w);
        ASSERT_TRUE(memcmp(r.payload, want, r.len) == 0);
    }
    ASSERT_EQ(tb_journal_iter_next(&it, &r, NULL), 0);
    ASSERT_OK(tb_journal_close(j));
}

/* ---- injected failures ------------------------------------------------------------------ */

/* Lets `budget` more bytes through, then fails with err (a short write first when the budget
 * ends inside a write). fdatasync and ftruncate fail with their own errno when set. */
struct fault {
    long budget; /* < 0: unlimited */
    int err, sync_err, trunc_err;
    long writes, syncs;
    long bytes;
};

static ssize_t fault_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    struct fault *f = user;
    f->writes++;
    if (f->budget == 0) {
        errno = f->err;
        return -1;
    }
    if (f->budget > 0 && (long)len > f->budget)
        len = (size_t)f->budget;
    ssize_t n = pwrite(fd, buf, len, off);
    if (n > 0 && f->budget > 0)
        f->budget -= n;
    if (n > 0)
        f->bytes += n;
    return n;
}

static int fault_fdatasync(void *user, int fd)
{
    struct fault *f = user;
    f->syncs++;
    if (f->sync_err) {
        errno = f->sync_err;
        return -1;
    }
    return fdatasync(fd);
}

static int fault_ftruncate(void *user, int fd, off_t len)
{
    struct fault *f = user;
    if (f->trunc_err) {
        errno = f->trunc_err;
        return -1;
    }
    return ftruncate(fd, len);
}

static void inject(struct tb_journal *j, struct fault *f)
{
    struct tb_journal_io io = {fault_pwrite, fault_fdatasync, fault_ftruncate, f};
    tb_journal_set_io(j, &io);
}

/* A write fails part-way with e: the error is e, named, the file ends at the last durable
 * record, the records stay pending, and the retry writes them all in order. */
static void write_failure_is_reported_and_retried(int e, const char *name, bool truncate_fails)
{
    char path[512], file[64];
    snprintf(file, sizeof file, "%s%s.tbj", name, truncate_fails ? "-uncut" : "");
    path_in_tmp(path, sizeof path, file);
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    struct fault f = {.budget = -1, .err = e, .trunc_err = truncate_fails ? EIO : 0};
    inject(j, &f);
    for (uint64_t s = 1; s <= 10; s++)
        ASSERT_EQ(append_n(j, s), (int64_t)s);
    ASSERT_OK(tb_journal_commit(j, NULL));
    long durable = file_size(path);
    for (uint64_t s = 11; s <= 13; s++)
        ASSERT_EQ(append_n(j, s), (int64_t)s);
    f.budget = 50; /* the disk takes 50 more bytes: record 11 cut short */
    struct tb_error err;
    errno = 0;
    ASSERT_EQ(tb_journal_commit(j, &err), TB_ERR_SYS);
    ASSERT_EQ(errno, e);
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_STR_CONTAINS(err.msg, name);
    ASSERT_STR_CONTAINS(err.msg, "records 11 to 13");
    ASSERT_STR_CONTAINS(err.msg, "kept in memory");
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_EQ(st.error, e);
    ASSERT_U64_EQ(st.durable_seq, 10);
    ASSERT_U64_EQ(st.last_seq, 13);
    ASSERT_EQ(st.pending_records, 3);
    ASSERT_EQ(st.failures, 1);
    if (!truncate_fails)
        ASSERT_EQ(file_size(path), durable); /* the half record is cut off */
    else
        ASSERT_EQ(file_size(path), durable + 50); /* left, and the retry covers it */

    /* While failing, appends do no I/O: the caller decides when to retry. */
    long writes = f.writes;
    for (uint64_t s = 14; s <= 20; s++)
        ASSERT_EQ(append_n(j, s), (int64_t)s);
    ASSERT_EQ(f.writes, writes);
    ASSERT_EQ(tb_journal_commit(j, &err), TB_ERR_SYS); /* still failing */
    tb_journal_state(j, &st);
    ASSERT_EQ(st.failures, 2);
    ASSERT_EQ(st.pending_records, 10);

    f.budget = -1; /* writing works again */
    ASSERT_OK(tb_journal_commit(j, &err));
    tb_journal_state(j, &st);
    ASSERT_EQ(st.error, 0);
    ASSERT_EQ(st.failures, 0);
    ASSERT_EQ(st.pending_records, 0);
    ASSERT_U64_EQ(st.durable_seq, 20);
    ASSERT_OK(tb_journal_close(j));
    check_file(path, 20);
}

TB_TEST(enospc_is_reported_and_the_records_are_written_when_space_returns)
{
    write_failure_is_reported_and_retried(ENOSPC, "ENOSPC", false);
}

TB_TEST(erofs_is_reported_and_the_records_are_written_when_writable_again)
{
    write_failure_is_reported_and_retried(EROFS, "EROFS", false);
}

TB_TEST(eacces_is_reported_and_retried)
{
    write_failure_is_reported_and_retried(EACCES, "EACCES", false);
}

TB_TEST(eio_is_reported_and_retried)
{
    write_failure_is_reported_and_retried(EIO, "EIO", false);
}

TB_TEST(a_half_record_that_cannot_be_cut_is_overwritten_by_the_retry)
{
    write_failure_is_reported_and_retried(ENOSPC, "ENOSPC", true);
}

/* fdatasync fails (EIO: the kernel may have dropped the pages): the records are written anew. */
TB_TEST(a_failed_fdatasync_makes_the_records_pending_again)
{
    char path[512];
    path_in_tmp(path, sizeof path, "syncfail.tbj");
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    struct fault f = {.budget = -1, .sync_err = EIO};
    inject(j, &f);
    for (uint64_t s = 1; s <= 5; s++)
        ASSERT_EQ(append_n(j, s), (int64_t)s);
    struct tb_error err;
    ASSERT_EQ(tb_journal_commit(j, &err), TB_ERR_SYS);
    ASSERT_EQ(errno, EIO);
    ASSERT_STR_CONTAINS(err.msg, "cannot sync records 1 to 5");
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_U64_EQ(st.durable_seq, 0);
    ASSERT_EQ(st.pending_records, 5);
    long first = f.bytes;
    f.sync_err = 0;
    ASSERT_OK(tb_journal_commit(j, NULL));
    ASSERT_EQ(f.bytes, 2 * first); /* written again, all of it */
    ASSERT_OK(tb_journal_close(j));
    check_file(path, 5);
}

TB_TEST(pending_records_are_capped)
{
    char path[512];
    path_in_tmp(path, sizeof path, "cap.tbj");
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    struct fault f = {.budget = 0, .err = ENOSPC};
    inject(j, &f);
    static uint8_t big[60000];
    int64_t rc;
    uint64_t n = 0;
    while ((rc = tb_journal_append(j, 1, 0, big, sizeof big)) > 0 || rc == TB_ERR_SYS)
        n++;
    ASSERT_EQ(rc, TB_ERR_FULL);
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_LE(st.pending_bytes, TB_JOURNAL_PENDING_MAX);
    ASSERT_U64_EQ(st.last_seq, n); /* the refused record took no sequence number */
    f.budget = -1;
    ASSERT_OK(tb_journal_close(j));
}

/* ---- a writer thread ------------------------------------------------------------------- */

/* A disk that stalls: the first write waits until the test lets it go (no sleeping). */
struct stall {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool entered, released;
    int err; /* errno the stalled write fails with, 0: it succeeds */
};

static ssize_t stall_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    struct stall *s = user;
    pthread_mutex_lock(&s->mu);
    s->entered = true;
    pthread_cond_broadcast(&s->cv);
    while (!s->released)
        pthread_cond_wait(&s->cv, &s->mu);
    int e = s->err;
    s->err = 0; /* stalls once */
    pthread_mutex_unlock(&s->mu);
    if (e) {
        errno = e;
        return -1;
    }
    return pwrite(fd, buf, len, off);
}

struct writer {
    struct tb_journal *j;
    int rc, err;
};

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    w->rc = tb_journal_commit(w->j, NULL);
    w->err = errno;
    return NULL;
}

/* The daemon's pattern: the loop hands the commit to a writer thread and goes on appending the
 * boards' events while the disk stalls; nothing waits for the disk but the writer. */
static void commit_on_a_writer_thread(int fail_with, const char *name)
{
    char path[512];
    path_in_tmp(path, sizeof path, name);
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    struct stall s = {.err = fail_with};
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    struct tb_journal_io io = {.pwrite = stall_pwrite, .user = &s};
    tb_journal_set_io(j, &io);
    for (uint64_t q = 1; q <= 5; q++)
        ASSERT_EQ(append_n(j, q), (int64_t)q);
    struct writer w = {.j = j};
    pthread_t t;
    ASSERT_OK(pthread_create(&t, NULL, writer_main, &w));
    pthread_mutex_lock(&s.mu);
    while (!s.entered)
        pthread_cond_wait(&s.cv, &s.mu);
    pthread_mutex_unlock(&s.mu);

    /* The writer is stuck in the disk; the loop is not. */
    for (uint64_t q = 6; q <= 50; q++)
        ASSERT_EQ(append_n(j, q), (int64_t)q);
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_TRUE(st.committing);
    ASSERT_U64_EQ(st.durable_seq, 0);
    ASSERT_U64_EQ(st.last_seq, 50);
    ASSERT_EQ(st.pending_records, 50);
    ASSERT_EQ(tb_journal_flush(j), TB_ERR_AGAIN); /* one writer at a time */

    pthread_mutex_lock(&s.mu);
    s.released = true;
    pthread_cond_broadcast(&s.cv);
    pthread_mutex_unlock(&s.mu);
    ASSERT_OK(pthread_join(t, NULL));
    tb_journal_state(j, &st);
    ASSERT_FALSE(st.committing);
    if (fail_with) {
        ASSERT_EQ(w.rc, TB_ERR_SYS);
        ASSERT_EQ(w.err, fail_with);
        ASSERT_U64_EQ(st.durable_seq, 0);
        ASSERT_EQ(st.pending_records, 50);
    } else {
        ASSERT_OK(w.rc);
        ASSERT_U64_EQ(st.durable_seq, 5); /* what was appended before the commit */
        ASSERT_EQ(st.pending_records, 45);
    }
    ASSERT_OK(tb_journal_commit(j, NULL)); /* the next commit writes the rest, in order */
    tb_journal_state(j, &st);
    ASSERT_U64_EQ(st.durable_seq, 50);
    ASSERT_OK(tb_journal_close(j));
    check_file(path, 50);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
}

TB_TEST(appends_go_on_while_a_writer_thread_waits_for_the_disk)
{
    commit_on_a_writer_thread(0, "writer.tbj");
}

TB_TEST(a_writer_thread_that_fails_loses_nothing_appended_meanwhile)
{
    commit_on_a_writer_thread(EIO, "writer-eio.tbj");
}

/* ---- real failures ---------------------------------------------------------------------- */

/* Runs fn in a child; a child that exits SKIPPED prints why and the test passes. */
static void in_child(void (*fn)(void), const char *what)
{
    fflush(stderr);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == SKIPPED) {
        fprintf(stderr, "skipped: %s\n", what);
        return;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        TB_FAIL("%s: child ended with status %d", what, status);
}

/* A private mount namespace (as root, or as root of a new user namespace) with a small tmpfs at
 * dir; exits SKIPPED when this machine does not allow it. */
static void mount_small_tmpfs(const char *dir, const char *size)
{
    if (geteuid() != 0) {
        uid_t uid = geteuid();
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
            fprintf(stderr, "no user namespace: %s\n", strerror(errno));
            _exit(SKIPPED);
        }
        char map[64];
        int fd = open("/proc/self/uid_map", O_WRONLY);
        int n = snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
        if (fd < 0 || write(fd, map, (size_t)n) != n)
            _exit(SKIPPED);
        close(fd);
    } else if (unshare(CLONE_NEWNS) != 0) {
        fprintf(stderr, "no mount namespace: %s\n", strerror(errno));
        _exit(SKIPPED);
    }
    if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 || mkdir(dir, 0700) != 0 ||
        mount("tmpfs", dir, "tmpfs", 0, size) != 0) {
        fprintf(stderr, "cannot mount a tmpfs: %s\n", strerror(errno));
        _exit(SKIPPED);
    }
}

static void fill_the_disk(void)
{
    char dir[512], path[600], filler[600];
    path_in_tmp(dir, sizeof dir, "small");
    mount_small_tmpfs(dir, "size=64k,mode=0700");
    snprintf(path, sizeof path, "%s/current.tbj", dir);
    snprintf(filler, sizeof filler, "%s/filler", dir);
    int fd = open(filler, O_WRONLY | O_CREAT, 0600); /* 32 KiB that can be freed later */
    static char block[32768];
    ASSERT_EQ(write(fd, block, sizeof block), (ssize_t)sizeof block);
    close(fd);

    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    struct tb_error err;
    uint64_t s = 0;
    int rc = TB_OK;
    while (rc == TB_OK && s < 100000) { /* one commit per record, as per agreed move */
        s++;
        ASSERT_EQ(append_n(j, s), (int64_t)s);
        rc = tb_journal_commit(j, &err);
    }
    ASSERT_EQ(rc, TB_ERR_SYS);
    ASSERT_EQ(errno, ENOSPC);
    ASSERT_STR_CONTAINS(err.msg, "ENOSPC");
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_EQ(st.error, ENOSPC);
    ASSERT_U64_EQ(st.durable_seq, s - 1);
    uint64_t full_at = s;
    for (int k = 0; k < 20; k++) { /* play is stopped, the boards still report */
        s++;
        ASSERT_EQ(append_n(j, s), (int64_t)s);
    }
    ASSERT_EQ(tb_journal_commit(j, NULL), TB_ERR_SYS);
    ASSERT_OK(unlink(filler)); /* space returns */
    ASSERT_OK(tb_journal_commit(j, &err));
    ASSERT_OK(tb_journal_close(j));
    check_file(path, s);
    fprintf(stderr,
            "tmpfs of 64 KiB: full at record %llu; %llu records written after space "
            "returned, none lost\n",
            (unsigned long long)full_at, (unsigned long long)(s - full_at + 1));
}

TB_TEST(a_full_tmpfs_loses_no_record)
{
    in_child(fill_the_disk, "mounting a tmpfs is not allowed here (namespaces)");
}

static void read_only_mount(void)
{
    char dir[512], path[600];
    path_in_tmp(dir, sizeof dir, "ro");
    mount_small_tmpfs(dir, "size=64k,mode=0700");
    snprintf(path, sizeof path, "%s/current.tbj", dir);
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    ASSERT_EQ(append_n(j, 1), 1);
    ASSERT_OK(tb_journal_close(j));
    if (mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0)
        _exit(SKIPPED);
    struct tb_error err;
    ASSERT_EQ(tb_journal_open(&j, path, NULL, &err), TB_ERR_SYS);
    ASSERT_EQ(errno, EROFS);
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_STR_CONTAINS(err.msg, "Read-only file system");
}

TB_TEST(a_read_only_file_system_is_named_at_open)
{
    in_child(read_only_mount, "mounting a tmpfs is not allowed here (namespaces)");
}

/* RLIMIT_FSIZE: with SIGXFSZ ignored (as the daemon does) and with it at its default (which
 * would kill the process), a write past the limit is a clean EFBIG, nothing of it written. */
static void file_size_limit(bool ignore)
{
    char path[512];
    path_in_tmp(path, sizeof path, ignore ? "fsize-ign.tbj" : "fsize-dfl.tbj");
    if (ignore)
        signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {.rlim_cur = 4096, .rlim_max = RLIM_INFINITY};
    ASSERT_OK(setrlimit(RLIMIT_FSIZE, &rl));
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    uint64_t s = 0;
    struct tb_error err;
    int rc = TB_OK;
    while (rc == TB_OK && s < 1000) {
        s++;
        ASSERT_EQ(append_n(j, s), (int64_t)s);
        rc = tb_journal_commit(j, &err);
    }
    ASSERT_EQ(rc, TB_ERR_SYS);
    ASSERT_EQ(errno, EFBIG);
    ASSERT_STR_CONTAINS(err.msg, "EFBIG");
    ASSERT_LE(file_size(path), 4096);
    struct tb_journal_state st;
    tb_journal_state(j, &st);
    ASSERT_U64_EQ(st.durable_seq, s - 1);
    rl.rlim_cur = RLIM_INFINITY;
    ASSERT_OK(setrlimit(RLIMIT_FSIZE, &rl));
    s++;
    ASSERT_EQ(append_n(j, s), (int64_t)s);
    ASSERT_OK(tb_journal_commit(j, NULL));
    ASSERT_OK(tb_journal_close(j));
    check_file(path, s);
}

static void file_size_limit_ignored(void)
{
    file_size_limit(true);
}

static void file_size_limit_default(void)
{
    file_size_limit(false);
}

TB_TEST(efbig_past_the_file_size_limit_is_a_clean_error)
{
    in_child(file_size_limit_ignored, "setrlimit");
    in_child(file_size_limit_default, "setrlimit");
}

/* ---- traps in the path ------------------------------------------------------------------ */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    ASSERT_OK(fclose(f));
}

static void expect_refused(const char *path, const char *why)
{
    struct tb_journal *j = (struct tb_journal *)(uintptr_t)1; /* not NULL, never read */
    struct tb_error err;
    ASSERT_EQ(tb_journal_open(&j, path, NULL, &err), TB_ERR_PERM);
    ASSERT_NULL(j);
    ASSERT_STR_CONTAINS(err.msg, path);
    ASSERT_STR_CONTAINS(err.msg, why);
}

TB_TEST(a_planted_symlink_is_refused_and_its_target_untouched)
{
    char victim[512], link[512], dangling[512], gone[512];
    path_in_tmp(victim, sizeof victim, "passwd");
    path_in_tmp(link, sizeof link, "current.tbj");
    write_text(victim, "root:x:0:0:root:/root:/bin/sh\n");
    ASSERT_OK(symlink(victim, link));
    expect_refused(link, "symbolic link");
    ASSERT_EQ(file_size(victim), 30);
    /* A link to a file not yet there: nothing is created through it. */
    path_in_tmp(dangling, sizeof dangling, "new.tbj");
    path_in_tmp(gone, sizeof gone, "created-through-link");
    ASSERT_OK(symlink(gone, dangling));
    expect_refused(dangling, "symbolic link");
    ASSERT_EQ(access(gone, F_OK), -1);
}

TB_TEST(a_symlinked_journal_directory_is_refused)
{
    char real[512], dir[512], path[600];
    path_in_tmp(real, sizeof real, "elsewhere");
    path_in_tmp(dir, sizeof dir, "journals");
    ASSERT_OK(mkdir(real, 0700));
    ASSERT_OK(symlink(real, dir));
    snprintf(path, sizeof path, "%s/current.tbj", dir);
    expect_refused(path, "directory is a symbolic link");
    snprintf(path, sizeof path, "%s//current.tbj", dir);
    expect_refused(path, "directory is a symbolic link");
    snprintf(path, sizeof path, "%s/current.tbj", real);
    ASSERT_EQ(access(path, F_OK), -1);
}

TB_TEST(a_file_of_another_user_is_refused)
{
    if (geteuid() != 0) {
        fprintf(stderr, "skipped: only root can give a file to another user\n");
        return;
    }
    char path[512];
    path_in_tmp(path, sizeof path, "theirs.tbj");
    write_text(path, "not ours");
    ASSERT_OK(chown(path, 65534, 65534));
    expect_refused(path, "belongs to uid 65534, this process runs as uid 0");
    ASSERT_EQ(file_size(path), 8);
}

TB_TEST(a_file_others_can_write_or_reach_by_another_name_is_refused)
{
    char path[512], other[512];
    path_in_tmp(path, sizeof path, "shared.tbj");
    write_text(path, "");
    ASSERT_OK(chmod(path, 0666));
    expect_refused(path, "writable by group or others (mode 0666)");
    ASSERT_OK(chmod(path, 0640));
    path_in_tmp(other, sizeof other, "hardlink.tbj");
    ASSERT_OK(link(path, other));
    expect_refused(path, "2 names");
    ASSERT_OK(unlink(other));
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    ASSERT_OK(tb_journal_close(j));
    /* Not a regular file. */
    path_in_tmp(path, sizeof path, "fifo.tbj");
    ASSERT_OK(mkfifo(path, 0600));
    expect_refused(path, "not a regular file");
}

TB_TEST(a_directory_others_can_write_needs_the_sticky_bit)
{
    char dir[512], path[600];
    path_in_tmp(dir, sizeof dir, "open-dir");
    ASSERT_OK(mkdir(dir, 0700));
    ASSERT_OK(chmod(dir, 0777));
    snprintf(path, sizeof path, "%s/current.tbj", dir);
    expect_refused(path, "without the sticky bit (mode 0777)");
    ASSERT_EQ(access(path, F_OK), -1);
    ASSERT_OK(chmod(dir, 01777)); /* like /tmp: others cannot replace our file */
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    ASSERT_OK(tb_journal_close(j));
}

TB_TEST(a_new_journal_is_created_private)
{
    char path[512];
    path_in_tmp(path, sizeof path, "fresh.tbj");
    mode_t old = umask(0);
    struct tb_journal *j;
    ASSERT_OK(tb_journal_open(&j, path, NULL, NULL));
    umask(old);
    struct stat st;
    ASSERT_OK(stat(path, &st));
    ASSERT_EQ(st.st_mode & 07777, 0640);
    ASSERT_EQ(st.st_uid, geteuid());
    ASSERT_OK(tb_journal_close(j));
}
