/* Each player hears their own language (D.2.1: the announcement is for that player's ears): the
 * sighted player configured with the English pack hears English words in the English voice,
 * the VI player German words in the German voice, from one daemon. Audio goes to a recording
 * sink per player; each player's recording is compared with the same text rendered in each
 * language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "recorder.h"
#include "tb_test.h"
#include "tb_voice.h"

#define SILENCE 100 /* |sample| below this is silence */

/* Frames from the first to the last loud sample. */
static size_t sound_span(const int16_t *pcm, size_t n)
{
    size_t first = n, last = 0;
    for (size_t i = 0; i < n; i++) {
        if (abs(pcm[i]) >= SILENCE) {
            if (first == n)
                first = i;
            last = i;
        }
    }
    return first == n ? 0 : last - first + 1;
}

/* The text the log says was said to a board's player ("say to NAME (Colour): text"). */
static void said(const struct fx *f, const char *who, char *buf, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "say to %s (", who);
    const char *p = strstr(f->log, key);
    ASSERT_NOT_NULL(p);
    p = strstr(p, "): ");
    ASSERT_NOT_NULL(p);
    p += 3;
    size_t n = strcspn(p, "\n");
    ASSERT_LT(n, len);
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* The span of text as a speaker with pack `name` alone renders it, at rate words a minute. */
static size_t rendered(const char *name, int rate, const char *text)
{
    struct tb_error err = {0};
    struct tb_voice_pack *pack = NULL;
    struct tb_voice *voice = NULL;
    int16_t *pcm = NULL;
    size_t n = 0;
    if (tb_voice_pack_load(name, &pack, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    struct tb_voice_config cfg = {.pack = pack, .rate = rate};
    if (tb_voice_new(&cfg, &voice, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    ASSERT_OK(tb_voice_render(voice, -1, text, &pcm, &n, NULL));
    size_t span = sound_span(pcm, n);
    free(pcm);
    tb_voice_free(voice);
    tb_voice_pack_free(pack);
    return span;
}

static size_t distance(size_t a, size_t b)
{
    return a > b ? a - b : b - a;
}

TB_TEST(law_D_2_1_each_player_hears_their_own_pack_and_voice)
{
    struct fx f;
    struct recorder rec[2];
    fx_init(&f, "voices");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n"
                  "2000 sighted lift e2\n2300 sighted place e4\n"
                  "3000 sighted lift g8\n3300 sighted place f6\n"
                  "4000 vi lift g8\n4300 vi place f6\n");
    fx_options(&f, "script", "script");
    snprintf(f.o.cfg.player[1].pack, sizeof f.o.cfg.player[1].pack, "en");
    /* each player's own rate too: the sighted player's faster */
    const int rate[2] = {160, 240};
    for (int b = 0; b < 2; b++)
        f.o.cfg.player[b].rate = rate[b];
    f.o.audio = NULL; /* speech on, into the recorders */
    f.o.sink = &recorder_ops;
    for (int i = 0; i < 2; i++) {
        recorder_init(&rec[i], UINT64_MAX);
        f.o.sink_arg[i] = &rec[i];
    }
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_TRUE(c.done);
    fx_stop(&f); /* the speaker is gone: another may be made for the renders below */

    /* the words: German for the VI player (White), English for the sighted player (Black) */
    char vi_text[256], sighted_text[256];
    said(&f, "vi", vi_text, sizeof vi_text);
    said(&f, "sighted", sighted_text, sizeof sighted_text);
    ASSERT_STR_CONTAINS(vi_text, "Springer Gustav acht Felix sechs");
    ASSERT_STR_CONTAINS(sighted_text, "pawn");
    ASSERT_NULL(strstr(sighted_text, "Bauer"));
    ASSERT_STR_CONTAINS(f.log, "say to sighted (Black): pawn");

    /* the sound: each recording is nearer its own language's rendering than the other's */
    size_t heard_vi = sound_span(rec[TB_CHESS_WHITE].heard, rec[TB_CHESS_WHITE].frames);
    size_t heard_sighted = sound_span(rec[TB_CHESS_BLACK].heard, rec[TB_CHESS_BLACK].frames);
    ASSERT_GT(heard_vi, 0);
    ASSERT_GT(heard_sighted, 0);
    size_t sighted_en = rendered("en", rate[1], sighted_text),
           sighted_de = rendered("de-fide", rate[1], sighted_text);
    size_t vi_de = rendered("de-fide", rate[0], vi_text), vi_en = rendered("en", rate[0], vi_text);
    ASSERT_NE(sighted_en, sighted_de);
    ASSERT_LT(distance(heard_sighted, sighted_en), distance(heard_sighted, sighted_de));
    ASSERT_LT(distance(heard_vi, vi_de), distance(heard_vi, vi_en));
    ASSERT_LE(distance(heard_sighted, sighted_en), sighted_en / 20 + 22050 / 50);
    for (int i = 0; i < 2; i++)
        recorder_destroy(&rec[i]);
    fx_free(&f);
}
