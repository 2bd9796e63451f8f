/* The audio path through the real PortAudio library on a machine without a sound card: the test
 * writes its own ALSA configuration (voice-notes 3.5) with two file-backed PCMs, vi_white and
 * vi_black, over null slaves, and checks that each player's stream receives its own speech at
 * the right length (compared with eSpeak's own rendering), so audio sent to the wrong player
 * fails the test. */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "tb_test.h"
#include "tb_voice.h"

#define SILENCE 100

static char white_wav[1024], black_wav[1024];

static void alsa_config(void)
{
    const char *dir = tb_test_tmp_dir();
    char conf[1024];
    snprintf(conf, sizeof conf, "%s/alsa.conf", dir);
    snprintf(white_wav, sizeof white_wav, "%s/white.wav", dir);
    snprintf(black_wav, sizeof black_wav, "%s/black.wav", dir);
    FILE *f = fopen(conf, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "pcm.vi_white { type file slave { pcm { type null } } file \"%s\" format \"wav\" }\n"
            "pcm.vi_black { type file slave { pcm { type null } } file \"%s\" format \"wav\" }\n"
            "pcm.!default { type file slave { pcm { type null } } file \"%s/default.raw\" "
            "format \"raw\" }\n",
            white_wav, black_wav, dir);
    fclose(f);
    /* Self-contained: replaces alsa.conf, so no sound card is probed. */
    setenv("ALSA_CONFIG_PATH", conf, 1);
}

static struct tb_voice_pack *pack;
static struct tb_voice *voice;

static void start(unsigned white_rate, unsigned black_rate)
{
    alsa_config();
    struct tb_error err = {0};
    if (tb_voice_pack_load("de-fide", &pack, &err))
        TB_FAIL("%s", err.msg);
    struct tb_voice_config cfg = {.pack = pack};
    cfg.player[TB_CHESS_WHITE] = (struct tb_voice_player_config){
        .sink = &tb_voice_sink_portaudio, .target = "vi_white", .device_rate = white_rate};
    cfg.player[TB_CHESS_BLACK] = (struct tb_voice_player_config){
        .sink = &tb_voice_sink_portaudio, .target = "vi_black", .device_rate = black_rate};
    if (tb_voice_new(&cfg, &voice, &err))
        TB_FAIL("%s", err.msg);
}

/* Seconds of loud audio (|sample| >= SILENCE). The file-backed devices are not paced, so the
 * callback may play silence between two of eSpeak's chunks; loud time is what the player hears
 * of the speech, whatever silence surrounds it. */
static double loud_seconds(const int16_t *pcm, size_t n, unsigned rate)
{
    size_t loud = 0;
    for (size_t i = 0; i < n; i++)
        loud += abs(pcm[i]) >= SILENCE;
    return (double)loud / rate;
}

static double rendered(const char *text)
{
    int16_t *pcm;
    size_t n;
    unsigned rate;
    ASSERT_OK(tb_voice_render(voice, -1, text, &pcm, &n, &rate));
    double sec = loud_seconds(pcm, n, rate);
    free(pcm);
    return sec;
}

/* What a device's file holds (malloc'd), its length and rate; want_rate 0: any rate. */
static int16_t *read_device_file(const char *path, unsigned want_rate, size_t *n, unsigned *rate)
{
    int16_t *pcm = NULL;
    struct tb_error err = {0};
    if (tb_voice_wav_read(path, &pcm, n, rate, &err))
        TB_FAIL("%s", err.msg);
    if (want_rate)
        ASSERT_EQ(*rate, want_rate);
    return pcm;
}

static void check_file(const char *path, unsigned want_rate, double want)
{
    size_t n;
    unsigned rate;
    int16_t *pcm = read_device_file(path, want_rate, &n, &rate);
    double sec = loud_seconds(pcm, n, rate);
    free(pcm);
    if (sec < want * 0.95 - 0.02 || sec > want * 1.05 + 0.02)
        TB_FAIL("%s: %.3f s of speech, expected %.3f s", path, sec, want);
}

/* White hears the long announcement, black the short one, each on its own stream; black's
 * device runs at 48 kHz, so eSpeak's 22050 Hz speech is resampled on the way. */
TB_TEST(two_players_two_streams)
{
    start(0, 48000);
    const char *w = "Läufer Felix eins schlägt Bella fünf, Schach", *b = "Kurze Rochade";
    double ww = rendered(w), bb = rendered(b);
    ASSERT_GT(ww, bb * 2); /* different enough that a swap cannot pass */
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, w, TB_VOICE_MOVE, 1), 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, b, TB_VOICE_MOVE, 1), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    tb_voice_free(voice); /* closes the streams: ALSA completes the files */
    check_file(white_wav, 22050, ww);
    check_file(black_wav, 48000, bb);
    tb_voice_pack_free(pack);
}

/* Power of pcm at frequency hz (Goertzel), per sample. */
static double power_at(const int16_t *pcm, size_t n, unsigned rate, double hz)
{
    double c = 2 * cos(2 * acos(-1.0) * hz / rate), s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        double s0 = pcm[i] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return (s1 * s1 + s2 * s2 - c * s1 * s2) / ((double)n * n);
}

/* Mean power from lo to hi Hz in 125 Hz steps. */
static double band(const int16_t *pcm, size_t n, unsigned rate, double lo, double hi)
{
    double sum = 0;
    int k = 0;
    for (double hz = lo; hz <= hi; hz += 125, k++)
        sum += power_at(pcm, n, rate, hz);
    return sum / k;
}

/* Speech resampled from 22050 to 48000 Hz keeps nothing above eSpeak's band: a player hears no
 * images of the voice: libsamplerate's sinc converter leaves the band above 12.5 kHz about
 * 87 dB below the voice, where the linear interpolator it replaced left it 37 dB below, a hiss
 * above the voice in a headset. */
TB_TEST(resampled_speech_has_no_images_above_its_band)
{
    start(0, 48000);
    const char *text = "Läufer Felix eins schlägt Bella fünf, Schach";
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_BLACK, text, TB_VOICE_MOVE, 1), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    tb_voice_free(voice);
    size_t n;
    unsigned rate;
    int16_t *pcm = read_device_file(black_wav, 48000, &n, &rate);
    double speech = band(pcm, n, rate, 250, 4000), images = band(pcm, n, rate, 12500, 20000);
    free(pcm);
    double db = 10 * log10(images / speech);
    if (!(db < -55))
        TB_FAIL("the band above the voice is %.1f dB below the voice, want at least 55", -db);
    tb_voice_pack_free(pack);
}

/* Announcements in a row on one stream, with the stream going idle and starting again between
 * them; 44.1 kHz on white. */
TB_TEST(stream_restarts_after_idle)
{
    start(44100, 0);
    const char *text[3] = {"Springer Gustav eins Felix drei", "Eva vier",
                           "Bauer David sieben schlägt Eva acht Springer"};
    double want = 0;
    for (int i = 0; i < 3; i++) {
        want += rendered(text[i]);
        ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, text[i], TB_VOICE_MOVE, i + 1), 0);
        ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    }
    tb_voice_free(voice);
    check_file(white_wav, 44100, want);
    check_file(black_wav, 0, 0);
    tb_voice_pack_free(pack);
}

static void add_name(void *arg, const char *name, int channels, double rate)
{
    char *names = arg;
    (void)rate;
    if (channels > 0)
        snprintf(names + strlen(names), 512 - strlen(names), "[%s]", name);
}

TB_TEST(devices_listed_by_name)
{
    alsa_config();
    struct tb_error err = {0};
    char names[512] = "";
    ASSERT_GE(tb_voice_portaudio_devices(add_name, names, &err), 2);
    ASSERT_STR_CONTAINS(names, "[vi_white]");
    ASSERT_STR_CONTAINS(names, "[vi_black]");
}

TB_TEST(unknown_device_is_a_clear_error)
{
    alsa_config();
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    struct tb_voice_config cfg = {.pack = pack};
    cfg.player[TB_CHESS_BLACK].sink = &tb_voice_sink_portaudio;
    cfg.player[TB_CHESS_BLACK].target = "vi_nosuch";
    ASSERT_EQ(tb_voice_new(&cfg, &voice, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "\"vi_nosuch\"");
    ASSERT_STR_CONTAINS(err.msg, "vi_white"); /* names what there is */
    tb_voice_pack_free(pack);
}

/* voice-notes 4: PortAudio's probing of ALSA and JACK prints nothing on stderr. */
TB_TEST(no_alsa_or_jack_noise_on_stderr)
{
    char log[1024];
    snprintf(log, sizeof log, "%s/stderr.txt", tb_test_tmp_dir());
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    dup2(fd, 2);
    close(fd);
    start(0, 0);
    ASSERT_GT(tb_voice_announce(voice, TB_CHESS_WHITE, "Eva vier", 0, 0), 0);
    ASSERT_OK(tb_voice_wait_idle(voice, -1, 30000));
    tb_voice_free(voice);
    tb_voice_pack_free(pack);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(log, "r");
    ASSERT_NOT_NULL(f);
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strstr(line, "ALSA lib") || strstr(line, "jack") || strstr(line, "JACK"))
            TB_FAIL("noise on stderr: %s", line);
    fclose(f);
}
