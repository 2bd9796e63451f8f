/* recorder.c - the test sink of recorder.h. */
#include <stdlib.h>
#include <string.h>

#include "recorder.h"

void recorder_init(struct recorder *r, uint64_t limit)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cond, NULL);
    r->limit = limit;
}

void recorder_destroy(struct recorder *r)
{
    free(r->heard);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cond);
}

void recorder_set_limit(struct recorder *r, uint64_t limit)
{
    pthread_mutex_lock(&r->mu);
    r->limit = limit;
    pthread_mutex_unlock(&r->mu);
}

void recorder_set_broken(struct recorder *r, bool broken)
{
    pthread_mutex_lock(&r->mu);
    r->broken = broken;
    pthread_mutex_unlock(&r->mu);
}

void recorder_wait_frames(struct recorder *r, size_t n)
{
    pthread_mutex_lock(&r->mu);
    while (r->frames + r->dropped < n)
        pthread_cond_wait(&r->cond, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

void recorder_wait_flushes(struct recorder *r, int n)
{
    pthread_mutex_lock(&r->mu);
    while (r->flushes < n)
        pthread_cond_wait(&r->cond, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

static int rec_open(void **state, const char *target, unsigned rate, unsigned device_rate,
                    void *arg, struct tb_error *err)
{
    (void)target, (void)device_rate;
    if (rate != 22050)
        return tb_error_set(err, TB_ERR_SUPP, "recorder: unexpected rate %u", rate);
    struct recorder *r = arg;
    pthread_mutex_lock(&r->mu);
    bool broken = r->broken;
    r->opens++;
    pthread_mutex_unlock(&r->mu);
    if (broken)
        return tb_error_set(err, TB_ERR_SYS, "recorder: no such device");
    *state = arg;
    return TB_OK;
}

static long rec_write(void *state, const int16_t *pcm, size_t n)
{
    struct recorder *r = state;
    pthread_mutex_lock(&r->mu);
    if (r->broken) {
        pthread_mutex_unlock(&r->mu);
        return TB_ERR_SYS;
    }
    if (r->frames + n > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1 << 16;
        while (cap < r->frames + n)
            cap *= 2;
        r->heard = realloc(r->heard, cap * sizeof *r->heard);
        r->cap = cap;
    }
    memcpy(r->heard + r->frames, pcm, n * sizeof *pcm);
    r->frames += n;
    r->writes++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->mu);
    return (long)n;
}

static uint64_t heard_now(const struct recorder *r)
{
    return r->frames < r->limit ? r->frames : r->limit;
}

static int rec_flush(void *state)
{
    struct recorder *r = state;
    pthread_mutex_lock(&r->mu);
    uint64_t keep = heard_now(r);
    r->dropped += r->frames - keep;
    r->frames = (size_t)keep;
    r->flushes++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->mu);
    return TB_OK;
}

static uint64_t rec_played(void *state)
{
    struct recorder *r = state;
    pthread_mutex_lock(&r->mu);
    uint64_t p = r->dropped + heard_now(r);
    pthread_mutex_unlock(&r->mu);
    return p;
}

static void rec_close(void *state)
{
    (void)state;
}

const struct tb_voice_sink_ops recorder_ops = {
    .name = "recorder",
    .open = rec_open,
    .write = rec_write,
    .flush = rec_flush,
    .played = rec_played,
    .close = rec_close,
};
