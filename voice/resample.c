/* resample.c - eSpeak NG's 22050 Hz to whatever rate a device opens at (44100, 48000 ...),
 * through libsamplerate's band-limited sinc converter.
 *
 * It runs inside the audio callback, which must not allocate, lock or do I/O: libsamplerate
 * allocates once when the converter is made, and in callback mode it pulls its input from
 * next() in small blocks kept here. A gap in the input (nothing written yet) is fed as silence,
 * so the device hears silence and speech that arrives later starts within one block. */
#include <samplerate.h>
#include <string.h>

#include "voice_internal.h"

/* libsamplerate's input callback: up to TB_VOICE__RS_BLOCK frames from next(), or a block of
 * silence when next() has nothing. */
static long pull(void *arg, float **data)
{
    struct tb_voice__resampler *r = arg;
    long n = 0;
    int16_t s;
    while (n < TB_VOICE__RS_BLOCK && r->next(r->arg, &s))
        r->in[n++] = (float)s / 32768.0f;
    if (n == 0) {
        memset(r->in, 0, sizeof r->in);
        n = TB_VOICE__RS_BLOCK;
    }
    *data = r->in;
    return n;
}

int tb_voice__resampler_init(struct tb_voice__resampler *r, unsigned in_rate, unsigned out_rate)
{
    int e = 0;
    memset(r, 0, sizeof *r);
    r->ratio = (double)out_rate / in_rate;
    if (in_rate == out_rate) /* eSpeak's own rate: copied as it is */
        return TB_OK;
    r->src = src_callback_new(pull, SRC_SINC_FASTEST, 1, &e, r);
    return r->src ? TB_OK : TB_ERR_MEM;
}

void tb_voice__resampler_reset(struct tb_voice__resampler *r)
{
    if (r->src)
        src_reset(r->src);
}

void tb_voice__resampler_free(struct tb_voice__resampler *r)
{
    if (r->src)
        src_delete(r->src);
    r->src = NULL;
}

void tb_voice__resample(struct tb_voice__resampler *r, int16_t *out, size_t out_frames,
                        int (*next)(void *arg, int16_t *sample), void *arg)
{
    float buf[TB_VOICE__RS_BLOCK];
    r->next = next;
    r->arg = arg;
    if (!r->src) {
        for (size_t i = 0; i < out_frames; i++)
            if (!next(arg, &out[i]))
                out[i] = 0;
        return;
    }
    while (out_frames > 0) {
        long want = out_frames < TB_VOICE__RS_BLOCK ? (long)out_frames : TB_VOICE__RS_BLOCK;
        long got = src_callback_read(r->src, r->ratio, want, buf);
        if (got <= 0) { /* the converter failed: silence rather than noise */
            memset(out, 0, out_frames * sizeof *out);
            return;
        }
        for (long i = 0; i < got; i++) {
            float v = buf[i] * 32768.0f;
            out[i] = (int16_t)(v >= 32767.0f ? 32767 : v <= -32768.0f ? -32768 : (int)v);
        }
        out += got;
        out_frames -= (size_t)got;
    }
}
