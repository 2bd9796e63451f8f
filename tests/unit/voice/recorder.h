/* recorder.h - a sink for tests: keeps what a player would hear, with a play position the test
 * controls (limit), so "is playing now" is a state the test sets, not a race with a clock. */
#ifndef TB_VOICE_TEST_RECORDER_H
#define TB_VOICE_TEST_RECORDER_H

#include <pthread.h>

#include "tb_voice.h"

struct recorder {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    int16_t *heard; /* frames that are or will be heard */
    size_t frames, cap;
    uint64_t dropped; /* flushed before being heard */
    uint64_t limit;   /* frames of `heard` played so far; UINT64_MAX = at once */
    int flushes, writes, opens;
    bool broken; /* a device gone: writes and opens fail */
};

extern const struct tb_voice_sink_ops recorder_ops;

void recorder_init(struct recorder *r, uint64_t limit);
void recorder_destroy(struct recorder *r);
void recorder_set_limit(struct recorder *r, uint64_t limit);
/* Waits until at least n frames were written (heard + dropped). */
void recorder_wait_frames(struct recorder *r, size_t n);

/* A device pulled out (true) or plugged in again (false). */
void recorder_set_broken(struct recorder *r, bool broken);

/* Waits until the sink has been flushed n times. */
void recorder_wait_flushes(struct recorder *r, int n);

#endif
