/* sink_file.c - the sinks without a device: a WAV file (valid after every write) and null. Both
 * "play" instantly: everything written counts as played at once. */
#include <stdlib.h>

#include "voice_internal.h"

struct file_sink {
    struct tb_voice__wav wav;
    uint64_t written;
};

static int wav_open(void **state, const char *target, unsigned rate, unsigned device_rate,
                    void *arg, struct tb_error *err)
{
    (void)arg;
    if (!target || !*target)
        return tb_error_set(err, TB_ERR_ARG, "WAV sink: no file name");
    struct file_sink *s = calloc(1, sizeof *s);
    if (!s)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    if (device_rate && device_rate != rate) {
        free(s);
        return tb_error_set(err, TB_ERR_SUPP, "WAV sink %s: writes at %u Hz only", target, rate);
    }
    int rc = tb_voice__wav_open(&s->wav, target, rate, false, err);
    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return TB_OK;
}

static long wav_write(void *state, const int16_t *pcm, size_t frames)
{
    struct file_sink *s = state;
    int rc = tb_voice__wav_append(&s->wav, pcm, frames);
    if (rc)
        return rc;
    s->written += frames;
    return (long)frames;
}

static int file_flush(void *state)
{
    (void)state; /* nothing is waiting: every frame was played when written */
    return TB_OK;
}

static uint64_t file_played(void *state)
{
    return ((struct file_sink *)state)->written;
}

static void wav_close(void *state)
{
    struct file_sink *s = state;
    if (!s)
        return;
    tb_voice__wav_close(&s->wav);
    free(s);
}

const struct tb_voice_sink_ops tb_voice_sink_wav = {
    .name = "wav",
    .open = wav_open,
    .write = wav_write,
    .flush = file_flush,
    .played = file_played,
    .close = wav_close,
};

static int null_open(void **state, const char *target, unsigned rate, unsigned device_rate,
                     void *arg, struct tb_error *err)
{
    (void)target, (void)rate, (void)device_rate, (void)arg;
    struct file_sink *s = calloc(1, sizeof *s);
    if (!s)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    s->wav.sf = NULL;
    *state = s;
    return TB_OK;
}

static long null_write(void *state, const int16_t *pcm, size_t frames)
{
    (void)pcm;
    ((struct file_sink *)state)->written += frames;
    return (long)frames;
}

const struct tb_voice_sink_ops tb_voice_sink_null = {
    .name = "null",
    .open = null_open,
    .write = null_write,
    .flush = file_flush,
    .played = file_played,
    .close = wav_close,
};
