/* Audio that fails loudly, on the headless ALSA set-up (voice-notes 3.5: a self-contained ALSA
 * configuration with file-backed PCMs vi_white and vi_black over null slaves, and a default):
 * a headset name no device has, or one that several devices match, is refused by
 * --check-config and at start-up with the names of the devices there are; a headset lost
 * during the game leaves the other player speaking, is logged and shown in status, and its
 * player hears speech again once it is back. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"
#include "tb_run.h"
#include "tb_test.h"
#include "tb_voice.h"

#define SILENCE 100

static char alsa_dir[512];

static void alsa_config(void)
{
    snprintf(alsa_dir, sizeof alsa_dir, "%s", tb_test_tmp_dir());
    char conf[600];
    snprintf(conf, sizeof conf, "%s/alsa.conf", alsa_dir);
    FILE *f = fopen(conf, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "pcm.vi_white { type file slave { pcm { type null } } file \"%s/white.wav\" "
            "format \"wav\" }\n"
            "pcm.vi_black { type file slave { pcm { type null } } file \"%s/black.wav\" "
            "format \"wav\" }\n"
            "pcm.!default { type file slave { pcm { type null } } file \"%s/default.raw\" "
            "format \"raw\" }\n",
            alsa_dir, alsa_dir, alsa_dir);
    fclose(f);
    setenv("ALSA_CONFIG_PATH", conf, 1); /* replaces alsa.conf: no sound card is probed */
}

static void write_ini(const char *path, const char *vi_audio, const char *sighted_audio)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "[arbiter]\npin = 371946\n[player vi]\nboard = null:\naudio = %s\n"
            "[player sighted]\nboard = null:\naudio = %s\n",
            vi_audio, sighted_audio);
    fclose(f);
}

static const char *check_config(const char *vi_audio, const char *sighted_audio, int want_rc)
{
    static char out[4096];
    char ini[600];
    snprintf(ini, sizeof ini, "%s/audio.ini", tb_test_tmp_dir());
    write_ini(ini, vi_audio, sighted_audio);
    ASSERT_EQ(tb_run(out, sizeof out, "%s --check-config %s 2>&1", TB_TWINBOARDD, ini), want_rc);
    return out;
}

TB_TEST(check_config_names_the_devices_for_a_missing_headset)
{
    alsa_config();
    const char *out = check_config("USB Headset", "vi_black", 1);
    ASSERT_STR_CONTAINS(out, "audio.ini:5: [player vi] audio = USB Headset: no audio output "
                             "device \"USB Headset\"; the devices are: \"vi_white\", "
                             "\"vi_black\", \"default\"");
    ASSERT_NULL(strstr(out, "[player sighted]")); /* vi_black exists */
    ASSERT_NULL(strstr(out, ": ok"));
    ASSERT_STR_CONTAINS(check_config("vi_white", "vi_black", 0), ": ok");
}

/* Two headsets whose names both contain the configured name: refused, not both players on one */
TB_TEST(check_config_refuses_an_ambiguous_headset)
{
    alsa_config();
    const char *out = check_config("vi_white", "vi_", 1);
    ASSERT_STR_CONTAINS(out, "[player sighted] audio = vi_: audio output device \"vi_\" is "
                             "ambiguous: 2 devices match it; name one in full: \"vi_white\", "
                             "\"vi_black\", \"default\"");
}

/* No sound card at all: said plainly. An ALSA configuration whose only PCM is the default one
 * on a null slave gives one device; an empty one would leave PortAudio's device list empty but
 * PortAudio 19.6 aborts on it, so "no device at all" is the machine's own state: checked only
 * where the machine has no sound card (/dev/snd missing, as in CI). */
TB_TEST(check_config_without_a_sound_card_says_so)
{
    struct stat st;
    if (stat("/dev/snd", &st) == 0)
        return; /* a real sound card here */
    unsetenv("ALSA_CONFIG_PATH");
    const char *out = check_config("USB Headset", "null", 1);
    ASSERT_STR_CONTAINS(out, "[player vi] audio = USB Headset: no audio output device \"USB "
                             "Headset\": this machine has no audio output device at all");
    out = check_config("default", "null", 1);
    ASSERT_STR_CONTAINS(out, "[player vi] audio = default: no default audio output device");
}

/* The daemon does not start with a wrong headset: the error names the player and the devices. */
TB_TEST(start_up_refuses_a_missing_headset)
{
    alsa_config();
    struct fx f;
    fx_init(&f, "missing");
    fx_options(&f, "null:", "null:");
    f.o.audio = NULL;
    snprintf(f.o.cfg.player[0].audio, sizeof f.o.cfg.player[0].audio, "USB Headset");
    snprintf(f.o.cfg.player[1].audio, sizeof f.o.cfg.player[1].audio, "vi_black");
    struct tb_error err = {0};
    ASSERT_EQ(tb_daemon_new(&f.o, &f.d, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "vi player: audio = USB Headset: no audio output device");
    ASSERT_STR_CONTAINS(err.msg, "\"vi_white\", \"vi_black\", \"default\"");
    fx_free(&f);
}

/* ---- a headset lost during the game ---- */

/* The real PortAudio sink on an ALSA PCM, with a plug the test pulls: while pulled, writes and
 * opens fail as they do for a headset that is gone. fail_at: pulled by itself once that many
 * frames were written (in the middle of an announcement). */
struct plug {
    const char *device;
    void *inner;
    _Atomic int pulled;
    _Atomic long written, fail_at;
};

static int plug_open(void **state, const char *target, unsigned rate, unsigned device_rate,
                     void *arg, struct tb_error *err)
{
    (void)target;
    struct plug *p = arg;
    if (atomic_load(&p->pulled))
        return tb_error_set(err, TB_ERR_SYS, "%s: no such device", p->device);
    int rc = tb_voice_sink_portaudio.open(&p->inner, p->device, rate, device_rate, NULL, err);
    if (rc == TB_OK)
        *state = p;
    return rc;
}

static long plug_write(void *state, const int16_t *pcm, size_t frames)
{
    struct plug *p = state;
    long fail_at = atomic_load(&p->fail_at);
    if (fail_at && atomic_load(&p->written) >= fail_at)
        atomic_store(&p->pulled, 1);
    if (atomic_load(&p->pulled))
        return TB_ERR_SYS;
    long n = tb_voice_sink_portaudio.write(p->inner, pcm, frames);
    if (n > 0)
        atomic_fetch_add(&p->written, n);
    return n;
}

static int plug_flush(void *state)
{
    return tb_voice_sink_portaudio.flush(((struct plug *)state)->inner);
}

static uint64_t plug_played(void *state)
{
    return tb_voice_sink_portaudio.played(((struct plug *)state)->inner);
}

static void plug_close(void *state)
{
    struct plug *p = state;
    tb_voice_sink_portaudio.close(p->inner);
    p->inner = NULL;
}

static const struct tb_voice_sink_ops plug_ops = {
    .name = "portaudio",
    .open = plug_open,
    .write = plug_write,
    .flush = plug_flush,
    .played = plug_played,
    .close = plug_close,
};

static double loud_seconds(const char *path)
{
    int16_t *pcm = NULL;
    size_t n = 0, loud = 0;
    unsigned rate = 0;
    struct tb_error err = {0};
    if (tb_voice_wav_read(path, &pcm, &n, &rate, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    for (size_t i = 0; i < n; i++)
        loud += abs(pcm[i]) >= SILENCE;
    free(pcm);
    return (double)loud / rate;
}

static int said_to(const struct fx *f, const char *who)
{
    int n = 0;
    char key[64];
    snprintf(key, sizeof key, "say to %s (", who);
    for (const char *p = f->log; (p = strstr(p, key)); p++)
        n++;
    return n;
}

static bool lost_and_quiet(struct fx *f)
{
    return fx_plies(f) == 4 && f->log && strstr(f->log, "is lost") &&
           strstr(fx_req(f, "status"), "speech: idle");
}

static bool back(struct fx *f)
{
    return f->log && strstr(f->log, "is back");
}

static bool quiet(struct fx *f)
{
    return strstr(fx_req(f, "status"), "speech: idle") != NULL;
}

TB_TEST(lost_headset_mid_game_other_player_speaks_on_and_it_comes_back)
{
    alsa_config();
    struct fx f;
    fx_init(&f, "lost");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
                  "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
                  "5000 vi lift g1\n5300 vi place f3\n6000 sighted lift g1\n6300 sighted place f3\n"
                  "7000 sighted lift b8\n7300 sighted place c6\n8000 vi lift b8\n8300 vi place "
                  "c6\n");
    fx_options(&f, "script", "script");
    f.o.audio = NULL;
    f.o.exit_when_done = false;
    struct plug plug[2] = {{.device = "vi_white"}, {.device = "vi_black"}};
    atomic_store(&plug[TB_CHESS_BLACK].fail_at, 8000); /* pulled out in the first announcement */
    f.o.sink = &plug_ops;
    for (int c = 0; c < 2; c++)
        f.o.sink_arg[c] = &plug[c];
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 20000, lost_and_quiet));

    /* logged once, with the player and what the other player still hears */
    ASSERT_STR_CONTAINS(f.log, "audio: the sighted player (Black) hears nothing: ");
    ASSERT_STR_CONTAINS(f.log, "the vi player still hears everything");
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "audio: White ok, Black LOST for ");
    /* the game went on: all four plies agreed, both of Black's moves said to White */
    ASSERT_EQ(said_to(&f, "vi"), 2);
    ASSERT_NULL(strstr(f.log, "for White failed"));
    ASSERT_STR_CONTAINS(f.log, "for Black failed");

    atomic_store(&plug[TB_CHESS_BLACK].fail_at, 0);
    atomic_store(&plug[TB_CHESS_BLACK].pulled, 0); /* plugged in again */
    ASSERT_TRUE(fx_run_until(&f, 10000, back));
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "audio: White ok, Black ok");
    fx_req(&f, "repeat sighted"); /* REPEAT: the last move, heard again */
    ASSERT_TRUE(fx_run_until(&f, 10000, quiet));
    fx_stop(&f); /* the streams close: ALSA completes the files */

    /* White heard both of Black's moves: the PCM's file holds that much speech; Black hears the
     * repeated move once the device is back (its file starts afresh when it is opened again) */
    char white[600], black[600];
    snprintf(white, sizeof white, "%s/white.wav", alsa_dir);
    snprintf(black, sizeof black, "%s/black.wav", alsa_dir);
    double w = loud_seconds(white), b = loud_seconds(black);
    if (w < 1.0 || b < 0.3)
        TB_FAIL("White heard %.2f s, Black %.2f s after coming back", w, b);
    ASSERT_STR_CONTAINS(f.log, "say to sighted: the last move again");
    fx_free(&f);
}
