/* earcon.c - the short tone that confirms a player's own move: synthesized, not a sound file. */
#include <math.h>

#include "voice_internal.h"

#define FADE_MS 5
#define PEAK    16384 /* about -6 dBFS */

int tb_voice_earcon(int16_t *pcm, size_t cap, unsigned rate, int freq_hz, int ms)
{
    if (!pcm || rate < 8000 || rate > 192000 || freq_hz <= 0 || (unsigned)freq_hz >= rate / 2 ||
        ms <= 0 || ms > 2000)
        return TB_ERR_ARG;
    size_t n = (size_t)rate * (size_t)ms / 1000, fade = (size_t)rate * FADE_MS / 1000;
    if (n > cap)
        return TB_ERR_FULL;
    if (2 * fade > n)
        fade = n / 2;
    const double pi = 3.14159265358979323846;
    for (size_t i = 0; i < n; i++) {
        /* Raised-cosine fades at both ends: a tone that starts or stops at full level clicks. */
        double gain = 1.0;
        size_t edge = i < n - 1 - i ? i : n - 1 - i;
        if (edge < fade)
            gain = 0.5 - 0.5 * cos(pi * (double)edge / (double)fade);
        pcm[i] = (int16_t)lrint(PEAK * gain * sin(2.0 * pi * freq_hz * (double)i / rate));
    }
    return (int)n;
}
