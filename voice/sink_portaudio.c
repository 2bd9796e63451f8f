/* sink_portaudio.c - one PortAudio output stream per player, chosen by device name.
 *
 * The speech thread writes 22050 Hz frames into a lock-free single-producer/single-consumer
 * ring; PortAudio's callback resamples them to the device rate (it must not lock, allocate or
 * do I/O). After two seconds of silence the callback completes the stream, and the next write
 * restarts it: an idle stream would otherwise run forever, and on ALSA's unpaced null/file
 * devices (CI) it would spin writing silence. */
#include <alsa/asoundlib.h>
#include <jack/jack.h>
#include <portaudio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "voice_internal.h"

#define RING_FRAMES  (1u << 18) /* 11.9 s at 22050 Hz: longer than any announcement */
#define RING_MASK    (RING_FRAMES - 1)
#define IDLE_SECONDS 2

struct pa_sink {
    PaStream *stream;
    int channels;
    unsigned in_rate, out_rate;
    _Atomic uint64_t wpos;     /* written by the speech thread */
    _Atomic uint64_t rpos;     /* advanced by the callback */
    _Atomic uint64_t flush_to; /* everything before this is dropped */
    _Atomic int stopped;       /* the callback completed the stream (or it never started) */
    /* Callback-only state. */
    struct tb_voice__resampler rs;
    uint64_t cb_r, cb_w;
    unsigned long idle_frames;
    int16_t ring[RING_FRAMES];
};

static void alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt,
                       ...)
{
    (void)file, (void)line, (void)function, (void)err, (void)fmt;
}
static void jack_quiet(const char *msg)
{
    (void)msg;
}

/* PortAudio probes every ALSA PCM and JACK when it starts and both print to stderr; the speaker
 * reports real failures itself. */
static int pa_start(struct tb_error *err)
{
    snd_lib_error_set_handler(alsa_quiet);
    jack_set_error_function(jack_quiet);
    jack_set_info_function(jack_quiet);
    PaError pe = Pa_Initialize();
    if (pe != paNoError)
        return tb_error_set(err, TB_ERR_SYS, "PortAudio: %s", Pa_GetErrorText(pe));
    return TB_OK;
}

int tb_voice_portaudio_devices(void (*fn)(void *arg, const char *name, int channels, double rate),
                               void *arg, struct tb_error *err)
{
    int rc = pa_start(err);
    if (rc)
        return rc;
    int count = 0, n = Pa_GetDeviceCount();
    for (int i = 0; i < n; i++) {
        const PaDeviceInfo *info = Pa_GetDeviceInfo(i);
        if (info && info->maxOutputChannels > 0) {
            fn(arg, info->name, info->maxOutputChannels, info->defaultSampleRate);
            count++;
        }
    }
    Pa_Terminate();
    return count;
}

/* The output devices' names, quoted and joined by ", "; "" when there are none. */
static void device_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0, n = Pa_GetDeviceCount(); i < n && used < len; i++) {
        const PaDeviceInfo *info = Pa_GetDeviceInfo(i);
        if (info && info->maxOutputChannels > 0)
            used +=
                (size_t)snprintf(buf + used, len - used, "%s\"%s\"", used ? ", " : "", info->name);
    }
}

/* Devices are chosen by name, never by index: indices change between boots. The one device
 * whose name is target, else the one whose name contains it; no device, or several (two
 * headsets whose names both contain it), is an error naming the devices there are. */
static int find_device(const char *target, PaDeviceIndex *out, struct tb_error *err)
{
    if (!target || !*target) {
        *out = Pa_GetDefaultOutputDevice();
        return *out != paNoDevice ? TB_OK
                                  : tb_error_set(err, TB_ERR_NOTFOUND,
                                                 "no default audio output device (no sound card?)");
    }
    int n = Pa_GetDeviceCount(), exact = 0, partial = 0;
    PaDeviceIndex exact_at = paNoDevice, partial_at = paNoDevice;
    for (int i = 0; i < n; i++) {
        const PaDeviceInfo *info = Pa_GetDeviceInfo(i);
        if (!info || info->maxOutputChannels < 1)
            continue;
        if (strcmp(info->name, target) == 0 && exact++ == 0)
            exact_at = i;
        if (strstr(info->name, target) && partial++ == 0)
            partial_at = i;
    }
    if (exact == 1 || (!exact && partial == 1)) {
        *out = exact == 1 ? exact_at : partial_at;
        return TB_OK;
    }
    char names[1024];
    device_names(names, sizeof names);
    if (!names[0])
        return tb_error_set(err, TB_ERR_NOTFOUND,
                            "no audio output device \"%s\": this machine has no audio output "
                            "device at all (no sound card found)",
                            target);
    if (!exact && !partial)
        return tb_error_set(err, TB_ERR_NOTFOUND,
                            "no audio output device \"%s\"; the devices are: %s", target, names);
    return tb_error_set(err, TB_ERR_ARG,
                        "audio output device \"%s\" is ambiguous: %d devices match it; name one "
                        "in full: %s",
                        target, exact ? exact : partial, names);
}

int tb_voice_portaudio_resolve(const char *target, char *name, size_t len, struct tb_error *err)
{
    int rc = pa_start(err);
    if (rc)
        return rc;
    PaDeviceIndex d;
    if ((rc = find_device(target, &d, err)) != TB_OK) {
        Pa_Terminate();
        return rc;
    }
    if (name && len)
        snprintf(name, len, "%s", Pa_GetDeviceInfo(d)->name);
    Pa_Terminate();
    return TB_OK;
}

static int sample(void *arg, int16_t *s)
{
    struct pa_sink *k = arg;
    if (k->cb_r == k->cb_w)
        return 0;
    *s = k->ring[k->cb_r++ & RING_MASK];
    return 1;
}

static int callback(const void *in, void *out, unsigned long frames,
                    const PaStreamCallbackTimeInfo *time, PaStreamCallbackFlags flags, void *arg)
{
    (void)in, (void)time, (void)flags;
    struct pa_sink *k = arg;
    int16_t *o = out;
    uint64_t r = atomic_load_explicit(&k->rpos, memory_order_relaxed);
    uint64_t ft = atomic_load_explicit(&k->flush_to, memory_order_acquire);
    if (ft > r) { /* cut: skip what was dropped, start the next sound clean */
        r = ft;
        tb_voice__resampler_reset(&k->rs);
    }
    k->cb_r = r;
    k->cb_w = atomic_load_explicit(&k->wpos, memory_order_acquire);
    bool had = k->cb_w > k->cb_r;
    tb_voice__resample(&k->rs, o, frames, sample, k);
    if (k->channels == 2)
        for (unsigned long i = frames; i-- > 0;)
            o[2 * i] = o[2 * i + 1] = o[i];
    atomic_store_explicit(&k->rpos, k->cb_r, memory_order_release);
    if (had) {
        k->idle_frames = 0;
        return paContinue;
    }
    k->idle_frames += frames;
    if (k->idle_frames < (unsigned long)k->out_rate * IDLE_SECONDS)
        return paContinue;
    /* Pairs with the writer: it stores wpos, then reads stopped; we store stopped, then read
     * wpos. One of us sees the other, so no write is left unplayed. */
    atomic_store(&k->stopped, 1);
    if (atomic_load(&k->wpos) != k->cb_r) {
        atomic_store(&k->stopped, 0);
        k->idle_frames = 0;
        return paContinue;
    }
    return paComplete;
}

static int try_rate(PaStreamParameters *p, unsigned rate)
{
    return rate && Pa_IsFormatSupported(NULL, p, rate) == paFormatIsSupported;
}

static int pa_open(void **state, const char *target, unsigned rate, unsigned device_rate, void *arg,
                   struct tb_error *err)
{
    (void)arg;
    int rc = pa_start(err);
    if (rc)
        return rc;
    struct pa_sink *k = calloc(1, sizeof *k);
    if (!k) {
        Pa_Terminate();
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    }
    PaDeviceIndex dev;
    if ((rc = find_device(target, &dev, err)) != TB_OK) {
        free(k);
        Pa_Terminate();
        return rc;
    }
    const PaDeviceInfo *info = Pa_GetDeviceInfo(dev);
    PaStreamParameters p = {.device = dev,
                            .channelCount = 1,
                            .sampleFormat = paInt16,
                            .suggestedLatency = info->defaultHighOutputLatency};
    /* eSpeak's rate when the device takes it; else the usual headset rates, resampled here. */
    const unsigned rates[] = {device_rate, rate, 44100, 48000, (unsigned)info->defaultSampleRate};
    unsigned chosen = 0;
    for (int ch = 1; ch <= 2 && !chosen; ch++) {
        p.channelCount = ch;
        for (size_t i = 0; i < (device_rate ? 1u : sizeof rates / sizeof rates[0]) && !chosen; i++)
            if (try_rate(&p, rates[i]))
                chosen = rates[i];
    }
    if (!chosen) {
        free(k);
        Pa_Terminate();
        if (device_rate)
            return tb_error_set(err, TB_ERR_SUPP, "PortAudio device \"%s\" does not play %u Hz",
                                info->name, device_rate);
        return tb_error_set(err, TB_ERR_SUPP, "PortAudio device \"%s\": no usable s16 format",
                            info->name);
    }
    k->channels = p.channelCount;
    k->in_rate = rate;
    k->out_rate = chosen;
    if (tb_voice__resampler_init(&k->rs, rate, chosen)) {
        free(k);
        Pa_Terminate();
        return tb_error_set(err, TB_ERR_MEM, "out of memory (resampler)");
    }
    atomic_init(&k->stopped, 1);
    PaError pe = Pa_OpenStream(&k->stream, NULL, &p, chosen, paFramesPerBufferUnspecified,
                               paClipOff, callback, k);
    if (pe != paNoError) {
        tb_voice__resampler_free(&k->rs);
        free(k);
        Pa_Terminate();
        return tb_error_set(err, TB_ERR_SYS, "PortAudio device \"%s\": %s", info->name,
                            Pa_GetErrorText(pe));
    }
    *state = k;
    return TB_OK;
}

/* Starts the stream again after the callback completed it for idleness. A device that is gone
 * (a headset pulled out) refuses: TB_ERR_SYS, and the speaker reopens the sink later. */
static int restart(struct pa_sink *k)
{
    if (!atomic_load(&k->stopped))
        return TB_OK;
    if (Pa_IsStreamStopped(k->stream) != 1)
        Pa_StopStream(k->stream);
    tb_voice__resampler_reset(&k->rs);
    k->idle_frames = 0;
    atomic_store(&k->stopped, 0);
    if (Pa_StartStream(k->stream) == paNoError)
        return TB_OK;
    atomic_store(&k->stopped, 1);
    return TB_ERR_SYS;
}

static long pa_write(void *state, const int16_t *pcm, size_t frames)
{
    struct pa_sink *k = state;
    uint64_t w = atomic_load_explicit(&k->wpos, memory_order_relaxed);
    uint64_t r = atomic_load_explicit(&k->rpos, memory_order_acquire);
    size_t space = RING_FRAMES - (size_t)(w - r);
    size_t n = frames < space ? frames : space;
    for (size_t i = 0; i < n; i++)
        k->ring[(w + i) & RING_MASK] = pcm[i];
    atomic_store(&k->wpos, w + n);
    if (n > 0 && restart(k) != TB_OK) {
        atomic_store(&k->wpos, w); /* the stream is stopped: no callback reads it */
        return TB_ERR_SYS;
    }
    return (long)n;
}

static int pa_flush(void *state)
{
    struct pa_sink *k = state;
    atomic_store_explicit(&k->flush_to, atomic_load(&k->wpos), memory_order_release);
    return TB_OK;
}

static uint64_t pa_played(void *state)
{
    struct pa_sink *k = state;
    uint64_t r = atomic_load(&k->rpos), ft = atomic_load(&k->flush_to);
    if (r < ft)
        r = ft;
    if (r < atomic_load(&k->wpos))
        (void)restart(k); /* belt and braces: never leave written frames unplayed */
    return r;
}

static void pa_close(void *state)
{
    struct pa_sink *k = state;
    if (!k)
        return;
    if (Pa_IsStreamStopped(k->stream) != 1)
        Pa_StopStream(k->stream); /* plays out what PortAudio holds */
    Pa_CloseStream(k->stream);
    Pa_Terminate();
    tb_voice__resampler_free(&k->rs);
    free(k);
}

const struct tb_voice_sink_ops tb_voice_sink_portaudio = {
    .name = "portaudio",
    .open = pa_open,
    .write = pa_write,
    .flush = pa_flush,
    .played = pa_played,
    .close = pa_close,
};
