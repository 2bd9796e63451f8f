/* bench_voice - how fast the voice is:
 *   latency   time from tb_voice_announce to the first PCM frame handed to the player's sink
 *             (median, p99, max over many announcements to an idle player; goal: median < 20 ms)
 *   phrase    time to build a move's phrase (every legal move of a few positions, long and short)
 *   synthesis eSpeak NG's real-time factor (render time / audio time) over the same phrases
 *   resample  CPU time of the headset resampler (22050 -> 48000 Hz) for 600 s of speech
 * Usage: bench_voice [ANNOUNCEMENTS] [--portaudio DEVICE]   (default 300 announcements). With
 * --portaudio the stamping sink passes the audio on to the real PortAudio sink on DEVICE. Exit 1
 * if the latency goal is missed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_voice.h"
#include "voice_internal.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A sink that notes when the first frame of each announcement is handed to it, and either plays
 * instantly or passes everything on to the real PortAudio sink. */
struct stamp {
    pthread_mutex_t mu;
    double first; /* 0 until a frame arrives after arming */
    uint64_t written;
    const struct tb_voice_sink_ops *inner; /* NULL: plays instantly */
    void *inner_state;
};

static int st_open(void **state, const char *target, unsigned rate, unsigned device_rate, void *arg,
                   struct tb_error *err)
{
    struct stamp *s = arg;
    *state = s;
    return s->inner ? s->inner->open(&s->inner_state, target, rate, device_rate, NULL, err) : TB_OK;
}
static long st_write(void *state, const int16_t *pcm, size_t n)
{
    struct stamp *s = state;
    /* With PortAudio: the frames are in its ring and the stream has been (re)started. */
    long k = s->inner ? s->inner->write(s->inner_state, pcm, n) : (long)n;
    double t = now();
    pthread_mutex_lock(&s->mu);
    if (s->first == 0 && k > 0)
        s->first = t;
    if (k > 0)
        s->written += (uint64_t)k;
    pthread_mutex_unlock(&s->mu);
    return k;
}
static int st_flush(void *state)
{
    struct stamp *s = state;
    return s->inner ? s->inner->flush(s->inner_state) : TB_OK;
}
static uint64_t st_played(void *state)
{
    struct stamp *s = state;
    if (s->inner)
        return s->inner->played(s->inner_state);
    pthread_mutex_lock(&s->mu);
    uint64_t w = s->written;
    pthread_mutex_unlock(&s->mu);
    return w;
}
static void st_close(void *state)
{
    struct stamp *s = state;
    if (s->inner)
        s->inner->close(s->inner_state);
}

static const struct tb_voice_sink_ops stamp_ops = {.name = "stamp",
                                                   .open = st_open,
                                                   .write = st_write,
                                                   .flush = st_flush,
                                                   .played = st_played,
                                                   .close = st_close};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
};

/* The resampler's input: one rendered phrase, over and over. */
struct loop {
    const int16_t *pcm;
    size_t n, at;
};

static int loop_next(void *arg, int16_t *s)
{
    struct loop *l = arg;
    *s = l->pcm[l->at++ % l->n];
    return 1;
}

/* CPU seconds the PortAudio callback's resampler takes for `seconds` of speech at 48 kHz. */
static double resample_cpu(const int16_t *pcm, size_t n, unsigned rate, double seconds)
{
    struct tb_voice__resampler r;
    if (tb_voice__resampler_init(&r, rate, 48000))
        return -1;
    struct loop l = {pcm, n, 0};
    int16_t out[512];
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (double done = 0; done < seconds * 48000; done += 512)
        tb_voice__resample(&r, out, 512, loop_next, &l);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    tb_voice__resampler_free(&r);
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    int rounds = 300;
    const char *device = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--portaudio") && i + 1 < argc)
            device = argv[++i];
        else
            rounds = atoi(argv[i]);
    }
    if (rounds < 10)
        rounds = 10;
    struct tb_error err = {0};
    struct tb_voice_pack *pack = NULL;
    if (tb_voice_pack_load("de-fide", &pack, &err)) {
        fprintf(stderr, "bench_voice: %s\n", err.msg);
        return 2;
    }

    /* Phrases of every legal move of the positions, long and short. */
    static char phrases[2048][256];
    int nphrases = 0;
    double t0 = now();
    int reps = 200;
    for (int r = 0; r < reps; r++) {
        nphrases = 0;
        for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
            tb_chess_pos pos;
            tb_chess_movelist list;
            tb_chess_pos_from_fen(&pos, fens[f], 0, NULL);
            tb_chess_gen_legal(&pos, &list);
            for (int i = 0; i < list.count; i++)
                for (int form = 0; form < 2 && nphrases < 2048; form++)
                    tb_voice_phrase_move(pack, &pos, list.moves[i], (enum tb_voice_form)form,
                                         phrases[nphrases++], sizeof phrases[0]);
        }
    }
    double phrase_us = (now() - t0) / ((double)reps * nphrases) * 1e6;

    struct stamp st = {.mu = PTHREAD_MUTEX_INITIALIZER,
                       .inner = device ? &tb_voice_sink_portaudio : NULL};
    struct tb_voice_config cfg = {.pack = pack};
    cfg.player[TB_CHESS_WHITE].sink = &stamp_ops;
    cfg.player[TB_CHESS_WHITE].target = device;
    cfg.player[TB_CHESS_WHITE].sink_arg = &st;
    struct tb_voice *voice = NULL;
    if (tb_voice_new(&cfg, &voice, &err)) {
        fprintf(stderr, "bench_voice: %s\n", err.msg);
        return 2;
    }

    /* Synthesis real-time factor over (up to) 100 phrases. */
    double synth = 0, audio = 0;
    unsigned rate = 22050;
    for (int i = 0; i < nphrases && i < 100; i++) {
        int16_t *pcm;
        size_t n;
        double t = now();
        if (tb_voice_render(voice, -1, phrases[i], &pcm, &n, &rate) == TB_OK) {
            synth += now() - t;
            audio += (double)n / rate;
            free(pcm);
        }
    }

    /* The headset resampler (libsamplerate, in PortAudio's callback): 22050 -> 48000 Hz. */
    double rs_cpu = -1;
    int16_t *rs_pcm;
    size_t rs_n;
    if (tb_voice_render(voice, -1, phrases[0], &rs_pcm, &rs_n, &rate) == TB_OK) {
        rs_cpu = resample_cpu(rs_pcm, rs_n, rate, 600);
        free(rs_pcm);
    }

    /* Latency: announce to an idle player, time the first frame at the sink. */
    double *lat = malloc((size_t)rounds * sizeof *lat);
    for (int i = 0; i < rounds; i++) {
        pthread_mutex_lock(&st.mu);
        st.first = 0;
        pthread_mutex_unlock(&st.mu);
        double t = now();
        tb_voice_announce(voice, TB_CHESS_WHITE, phrases[(i * 37) % nphrases], TB_VOICE_MOVE,
                          i + 1);
        tb_voice_wait_idle(voice, -1, -1);
        pthread_mutex_lock(&st.mu);
        lat[i] = (st.first - t) * 1e3;
        pthread_mutex_unlock(&st.mu);
    }
    struct tb_voice_event ev[64];
    while (tb_voice_events(voice, ev, 64) > 0)
        ;
    qsort(lat, (size_t)rounds, sizeof *lat, cmp_double);
    double median = lat[rounds / 2], p99 = lat[(rounds * 99) / 100], max = lat[rounds - 1];

    char desc[320];
    tb_voice_describe(voice, desc, sizeof desc);
    printf("voice: %s\n", desc);
    printf("voice: announce -> first PCM frame at the %s sink: median %.3f ms, p99 %.3f ms, max "
           "%.3f ms (%d announcements)\n",
           device ? "PortAudio" : "instant", median, p99, max, rounds);
    printf("voice: phrase build: %.2f us per phrase (%d phrases x %d)\n", phrase_us, nphrases,
           reps);
    printf("voice: synthesis: %.1f s of audio in %.1f ms, real-time factor %.5f (%.0fx faster "
           "than real time)\n",
           audio, synth * 1e3, synth / audio, audio / synth);
    printf("voice: resampling 600 s of speech to 48 kHz: %.3f s of CPU (%.2f %% of a core)\n",
           rs_cpu, rs_cpu / 6);
    int ok = median < 20.0;
    printf("voice: goal median < 20 ms: %s\n", ok ? "met" : "MISSED");
    free(lat);
    tb_voice_free(voice);
    tb_voice_pack_free(pack);
    return ok ? 0 : 1;
}
