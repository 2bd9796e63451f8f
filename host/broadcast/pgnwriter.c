/* pgnwriter.c - the live PGN written on a thread of its own, so the caller's loop never waits
 * for the disk: the latest text is handed over, the thread writes it atomically; a text handed
 * over while an older one waits replaces it (the file shows the latest agreed game). */
#include <stdlib.h>
#include <string.h>

#include "broadcast_internal.h"

static void *run(void *arg)
{
    struct tb_broadcast__writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->has_pending && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->has_pending)
            break; /* stopping, nothing left to write */
        /* Take the text: the caller may hand over the next one meanwhile. */
        char *t = w->work;
        w->work = w->pending;
        w->pending = t;
        size_t n = w->pending_n;
        char path[sizeof w->path];
        memcpy(path, w->path, sizeof path);
        w->has_pending = false;
        w->busy = true;
        pthread_mutex_unlock(&w->mu);
        struct tb_error err;
        int rc = tb_broadcast__write_atomic(path, w->work, n, &err);
        pthread_mutex_lock(&w->mu);
        w->busy = false;
        if (rc == TB_OK) {
            w->writes++;
        } else {
            w->failures++;
            w->error = err;
        }
        pthread_cond_broadcast(&w->idle);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int tb_broadcast__writer_start(struct tb_broadcast__writer *w, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->cap = cap;
    w->pending = malloc(cap);
    w->work = malloc(cap);
    if (!w->pending || !w->work)
        goto fail;
    if (pthread_mutex_init(&w->mu, NULL) != 0)
        goto fail;
    if (pthread_cond_init(&w->cv, NULL) != 0 || pthread_cond_init(&w->idle, NULL) != 0 ||
        pthread_create(&w->thread, NULL, run, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        goto fail;
    }
    w->running = true;
    return TB_OK;
fail:
    free(w->pending);
    free(w->work);
    w->pending = w->work = NULL;
    return TB_ERR_MEM;
}

void tb_broadcast__writer_put(struct tb_broadcast__writer *w, const char *path, const char *text,
                              size_t n)
{
    pthread_mutex_lock(&w->mu);
    memcpy(w->pending, text, n < w->cap ? n : w->cap);
    w->pending_n = n < w->cap ? n : w->cap;
    snprintf(w->path, sizeof w->path, "%s", path);
    w->has_pending = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void tb_broadcast__writer_flush(struct tb_broadcast__writer *w)
{
    if (!w->running)
        return;
    pthread_mutex_lock(&w->mu);
    while (w->has_pending || w->busy)
        pthread_cond_wait(&w->idle, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

void tb_broadcast__writer_stop(struct tb_broadcast__writer *w)
{
    if (w->running) {
        pthread_mutex_lock(&w->mu);
        w->stop = true;
        pthread_cond_signal(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL); /* the last text is written first */
        pthread_cond_destroy(&w->cv);
        pthread_cond_destroy(&w->idle);
        pthread_mutex_destroy(&w->mu);
        w->running = false;
    }
    free(w->pending);
    free(w->work);
    w->pending = w->work = NULL;
}

void tb_broadcast__writer_stats(struct tb_broadcast__writer *w, uint64_t *writes,
                                uint64_t *failures, struct tb_error *err)
{
    if (!w->running)
        return;
    pthread_mutex_lock(&w->mu);
    *writes = w->writes;
    *failures = w->failures;
    *err = w->error;
    pthread_mutex_unlock(&w->mu);
}
