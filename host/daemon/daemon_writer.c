/* daemon_writer.c - the journal's writer thread: the loop hands it a commit (write + fdatasync)
 * or a flush (write) of the records appended so far and goes on polling; the thread does the
 * I/O, however long the disk takes, and reports through an eventfd the loop polls. The journal
 * keeps its own lock (a commit may run while the loop appends); the thread owns nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "daemon_internal.h"

static void *writer_main(void *arg)
{
    struct tb_daemon *d = arg;
    struct tb_daemon__writer *w = &d->writer;
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
        int rc = job == TBD_WRITE_COMMIT ? tb_journal_commit(d->journal, &err)
                                         : tb_journal_flush(d->journal);
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

int tb_daemon__writer_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__writer *w = &d->writer;
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

void tb_daemon__writer_close(struct tb_daemon *d)
{
    struct tb_daemon__writer *w = &d->writer;
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

int tb_daemon__writer_start(struct tb_daemon *d, enum tbd_write job, uint64_t now)
{
    struct tb_daemon__writer *w = &d->writer;
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
    w->stall_said = false;
    return TB_OK;
}

bool tb_daemon__writer_take(struct tb_daemon *d, bool wait, struct tb_daemon__written *out)
{
    struct tb_daemon__writer *w = &d->writer;
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
