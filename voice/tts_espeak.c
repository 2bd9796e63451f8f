/* tts_espeak.c - eSpeak NG through its espeak_ng_* API, synchronous mode.
 *
 * eSpeak NG keeps global state and is not thread-safe, so only the speech thread calls these.
 * The legacy espeak_Initialize exits the process when its data is missing; the espeak_ng_* calls
 * return a status instead, and a missing data directory is checked here because eSpeak would
 * silently fall back to its default one.
 *
 * espeak_ng_Terminate is never called: with eSpeak NG 1.51 a Terminate after a second Initialize
 * in the same process hangs in its FIFO thread, while Initialize over a loaded eSpeak works. So
 * eSpeak stays loaded for the life of the process (its memory is freed at exit). */
#include <espeak-ng/espeak_ng.h>
#include <string.h>
#include <sys/stat.h>

#include "voice_internal.h"

struct say {
    tb_voice__pcm_fn fn;
    void *arg;
    int stopped;
};

static int synth_cb(short *wav, int n, espeak_EVENT *events)
{
    struct say *s = events ? events[0].user_data : NULL;
    if (!s || s->stopped)
        return 1;
    if (wav && n > 0 && s->fn(s->arg, wav, (size_t)n)) {
        s->stopped = 1;
        return 1; /* the supported way to stop synchronous synthesis */
    }
    return 0;
}

static int status_error(struct tb_error *err, int code, espeak_ng_STATUS st, const char *what)
{
    char msg[160];
    espeak_ng_GetStatusCodeMessage(st, msg, sizeof msg);
    return tb_error_set(err, code, "eSpeak NG: %s: %s", what, msg);
}

static bool has_data(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/phontab", dir);
    if (stat(path, &st) == 0)
        return true;
    snprintf(path, sizeof path, "%s/espeak-ng-data/phontab", dir);
    return stat(path, &st) == 0;
}

int tb_voice__tts_init(const char *data_path, const struct tb_voice_settings *st,
                       struct tb_voice_settings *current, unsigned *rate, char *describe,
                       size_t describe_len, struct tb_error *err)
{
    if (data_path && !has_data(data_path))
        return tb_error_set(err, TB_ERR_NOTFOUND,
                            "eSpeak NG data not found in %s (no phontab there or in "
                            "%s/espeak-ng-data)",
                            data_path, data_path);
    espeak_ng_InitializePath(data_path);
    espeak_ng_ERROR_CONTEXT ctx = NULL;
    espeak_ng_STATUS s = espeak_ng_Initialize(&ctx);
    espeak_ng_ClearErrorContext(&ctx);
    if (s != ENS_OK)
        return status_error(err, TB_ERR_NOTFOUND, s, "cannot load its data");
    s = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
    int sr = espeak_ng_GetSampleRate();
    if (s != ENS_OK || sr <= 0)
        return s != ENS_OK ? status_error(err, TB_ERR_SYS, s, "output")
                           : tb_error_set(err, TB_ERR_NOTFOUND,
                                          "eSpeak NG: no sample rate (data incomplete?)");
    espeak_SetSynthCallback(synth_cb);
    *current = (struct tb_voice_settings){.rate = -1};
    int rc = tb_voice__tts_select(st, current, err);
    if (rc)
        return rc;
    *rate = (unsigned)sr;
    const char *path = NULL;
    const char *version = espeak_Info(&path);
    espeak_VOICE *v = espeak_GetCurrentVoice();
    snprintf(describe, describe_len, "eSpeak NG %s, voice %s (%s), data %s", version,
             st->espeak_voice, v && v->name ? v->name : "?", path ? path : "?");
    return TB_OK;
}

int tb_voice__tts_select(const struct tb_voice_settings *want, struct tb_voice_settings *cur,
                         struct tb_error *err)
{
    if (strcmp(want->espeak_voice, cur->espeak_voice) != 0) {
        espeak_ng_STATUS s = espeak_ng_SetVoiceByName(want->espeak_voice);
        if (s != ENS_OK) {
            char what[96];
            snprintf(what, sizeof what, "voice \"%s\"", want->espeak_voice);
            cur->espeak_voice[0] = '\0';
            return status_error(err, TB_ERR_NOTFOUND, s, what);
        }
        /* A new voice may bring its own parameters: set them all again. */
        *cur = (struct tb_voice_settings){.rate = -1, .pitch = -1, .volume = -1, .wordgap = -1};
        snprintf(cur->espeak_voice, sizeof cur->espeak_voice, "%s", want->espeak_voice);
    }
    const struct {
        espeak_PARAMETER p;
        int want, *cur;
    } params[] = {{espeakRATE, want->rate, &cur->rate},
                  {espeakPITCH, want->pitch, &cur->pitch},
                  {espeakVOLUME, want->volume, &cur->volume},
                  {espeakWORDGAP, want->wordgap, &cur->wordgap}};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (params[i].want != *params[i].cur) {
            espeak_ng_SetParameter(params[i].p, params[i].want, 0);
            *params[i].cur = params[i].want;
        }
    return TB_OK;
}

int tb_voice__tts_say(const char *speech, tb_voice__pcm_fn fn, void *arg)
{
    struct say s = {fn, arg, 0};
    unsigned id = 0;
    espeak_ng_STATUS st =
        espeak_ng_Synthesize(speech, strlen(speech) + 1, 0, POS_CHARACTER, 0,
                             espeakCHARS_UTF8 | espeakPHONEMES | espeakENDPAUSE, &id, &s);
    if (st != ENS_OK && !(s.stopped && st == ENS_SPEECH_STOPPED))
        return TB_ERR_SYS;
    return s.stopped ? TB_ERR_STATE : TB_OK;
}

static int text_phonemes(const char *text, size_t n, char *buf, size_t len, size_t *pos)
{
    char part[1024];
    if (n >= sizeof part)
        return TB_ERR_FULL;
    memcpy(part, text, n);
    part[n] = '\0';
    const void *p = part;
    while (p) { /* one clause per call */
        const char *ph = espeak_TextToPhonemes(&p, espeakCHARS_UTF8, 0);
        if (!ph || !*ph)
            continue;
        int k = snprintf(buf + *pos, len - *pos, "%s%s", *pos ? " " : "", ph);
        if (k < 0 || (size_t)k >= len - *pos)
            return TB_ERR_FULL;
        *pos += (size_t)k;
    }
    return TB_OK;
}

/* espeak_TextToPhonemes does not read [[...]] as phonemes (it spells the brackets), so spelled
 * words are passed through as written, which is what synthesis with espeakPHONEMES says. */
int tb_voice__tts_phonemes(const char *speech, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (const char *s = speech; *s;) {
        const char *open = strstr(s, "[["), *close = open ? strstr(open + 2, "]]") : NULL;
        size_t n = close ? (size_t)(open - s) : strlen(s);
        int rc = n ? text_phonemes(s, n, buf, len, &pos) : TB_OK;
        if (rc)
            return rc;
        if (!close)
            break;
        int k = snprintf(buf + pos, len - pos, "%s%.*s", pos ? " " : "", (int)(close - open - 2),
                         open + 2);
        if (k < 0 || (size_t)k >= len - pos)
            return TB_ERR_FULL;
        pos += (size_t)k;
        s = close + 2;
    }
    return (int)pos;
}
