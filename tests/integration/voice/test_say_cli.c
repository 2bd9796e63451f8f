/* `twinboard say`: one phrase per move on stdout, a bad move named with its place in the list
 * (exit 2), and the audio of all phrases in a WAV file. Runs the real program. */
#include <stdlib.h>
#include <sys/stat.h>

#include "tb_run.h"
#include "tb_test.h"
#include "tb_voice.h"

/* Runs `twinboard say ARGS`; stdout into out, stderr into err; returns the exit status. */
static int say(const char *args, char *out, size_t outlen, char *err, size_t errlen)
{
    const char *prog = getenv("TB_TWINBOARD");
    ASSERT_NOT_NULL(prog);
    char errfile[1024];
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", tb_test_tmp_dir());
    int st = tb_run(out, outlen, "'%s' say %s 2>'%s'", prog, args, errfile);
    char *text = tb_run_read_file(errfile, NULL);
    snprintf(err, errlen, "%s", text);
    free(text);
    return st;
}

TB_TEST(one_phrase_per_move)
{
    char out[4096], err[4096];
    ASSERT_EQ(say("e2e4 e7e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O", out, sizeof out, err, sizeof err), 0);
    ASSERT_STR_EQ(out, "Bauer Eva zwei Eva vier\n"
                       "Bauer Eva sieben Eva fünf\n"
                       "Springer Gustav eins Felix drei\n"
                       "Springer Bella acht Cesar sechs\n"
                       "Läufer Felix eins Bella fünf\n"
                       "Bauer Anna sieben Anna sechs\n"
                       "Läufer Bella fünf schlägt Cesar sechs\n"
                       "Bauer David sieben schlägt Cesar sechs\n"
                       "Kurze Rochade\n");
    ASSERT_STR_EQ(err, "");
}

TB_TEST(short_form_other_pack_and_fen)
{
    char out[4096], err[4096];
    ASSERT_EQ(say("--short --pack nl --fen 'rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq "
                  "d6 0 3' exd6 Qxd6",
                  out, sizeof out, err, sizeof err),
              0);
    ASSERT_STR_EQ(out, "Eva slaat David zes en passant\ndame slaat David zes\n");
}

TB_TEST(bad_move_is_named_with_its_place)
{
    char out[4096], err[4096];
    ASSERT_EQ(say("e4 e5 Ke3 Nf3", out, sizeof out, err, sizeof err), 2);
    ASSERT_STR_EQ(out, ""); /* nothing printed before every move is checked */
    ASSERT_STR_CONTAINS(err, "move 3 'Ke3'");
    ASSERT_EQ(say("--pack klingon e4", out, sizeof out, err, sizeof err), 2);
    ASSERT_STR_CONTAINS(err, "\"klingon\"");
    ASSERT_EQ(say("", out, sizeof out, err, sizeof err), 2);
}

TB_TEST(wav_holds_the_audio_of_all_phrases)
{
    char out[4096], err[4096], args[1200], path[1024];
    snprintf(path, sizeof path, "%s/say.wav", tb_test_tmp_dir());
    snprintf(args, sizeof args, "--wav '%s' e4 e5", path);
    ASSERT_EQ(say(args, out, sizeof out, err, sizeof err), 0);
    int16_t *pcm;
    size_t n;
    unsigned rate;
    struct tb_error e = {0};
    ASSERT_OK(tb_voice_wav_read(path, &pcm, &n, &rate, &e));
    ASSERT_EQ(rate, 22050);
    /* Two phrases of about 1.5 s each at 175 words per minute. */
    ASSERT_GT(n, 22050 * 2);
    ASSERT_LT(n, 22050 * 6);
    size_t loud = 0;
    for (size_t i = 0; i < n; i++)
        loud += abs(pcm[i]) > 1000;
    ASSERT_GT(loud, 22050 / 2);
    free(pcm);
}

/* `twinboard devices`: the names to put in the configuration, from the sound system (here the
 * headless ALSA set-up of voice-notes 3.5); `say --list-devices` is the same list. */
TB_TEST(devices_lists_the_names_for_the_configuration)
{
    const char *prog = getenv("TB_TWINBOARD");
    ASSERT_NOT_NULL(prog);
    char conf[1024], out[4096];
    snprintf(conf, sizeof conf, "%s/alsa.conf", tb_test_tmp_dir());
    FILE *f = fopen(conf, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "pcm.vi_white { type file slave { pcm { type null } } file \"%s.w\" }\n"
            "pcm.!default { type null }\n",
            conf);
    fclose(f);
    ASSERT_EQ(tb_run(out, sizeof out, "ALSA_CONFIG_PATH='%s' '%s' devices", conf, prog), 0);
    ASSERT_STR_CONTAINS(out, "audio output devices (put a name in the configuration: "
                             "audio = NAME):\n  vi_white\t");
    ASSERT_STR_CONTAINS(out, "\n  default\t");
    char again[4096];
    ASSERT_EQ(
        tb_run(again, sizeof again, "ALSA_CONFIG_PATH='%s' '%s' say --list-devices", conf, prog),
        0);
    ASSERT_STR_EQ(again, out);
}

/* Without a sound card the list is not silent: it says there is none (checked where the machine
 * has none, as in CI). */
TB_TEST(devices_without_a_sound_card_says_so)
{
    struct stat st;
    if (stat("/dev/snd", &st) == 0)
        return;
    const char *prog = getenv("TB_TWINBOARD");
    ASSERT_NOT_NULL(prog);
    char out[4096];
    ASSERT_EQ(tb_run(out, sizeof out, "env -u ALSA_CONFIG_PATH '%s' devices", prog), 0);
    ASSERT_STR_CONTAINS(out, "no audio output devices: this machine has no sound card");
}
