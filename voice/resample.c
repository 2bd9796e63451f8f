/* resample.c - eSpeak NG's 22050 Hz to whatever rate a device opens at (44100, 48000 ...).
 *
 * Linear interpolation with a 32.32 fixed-point phase: exact for 2x, drift-free for any ratio,
 * and cheap enough to run inside the audio callback (no allocation, no locks). Speech has little
 * energy above 5 kHz, so the imaging of linear interpolation stays quiet. */
#include "voice_internal.h"

void tb_voice__resampler_init(struct tb_voice__resampler *r, unsigned in_rate, unsigned out_rate)
{
    r->step = ((uint64_t)in_rate << 32) / out_rate;
    r->phase = (uint64_t)1 << 32; /* fetch the first input frame before the first output */
    r->prev = r->cur = 0;
}

void tb_voice__resample(struct tb_voice__resampler *r, int16_t *out, size_t out_frames,
                        int (*next)(void *arg, int16_t *sample), void *arg)
{
    const uint64_t one = (uint64_t)1 << 32;
    for (size_t i = 0; i < out_frames; i++) {
        while (r->phase >= one) {
            int16_t s = 0;
            r->prev = r->cur;
            r->cur = next(arg, &s) ? s : 0;
            r->phase -= one;
        }
        int64_t frac = (int64_t)(r->phase >> 16); /* 16-bit fraction */
        out[i] = (int16_t)(r->prev + (((int64_t)(r->cur - r->prev) * frac) >> 16));
        r->phase += r->step;
    }
}
