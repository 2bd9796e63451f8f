/* daemon_audio.c - the players' audio devices. Each configured PortAudio device is probed before
 * the game (start-up and --check-config): an unknown name, or one that matches several devices,
 * is an error naming the devices there are. A device lost during the game is logged and shown
 * in status; the speaker goes on with the other player and opens the lost one again until it
 * is back. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon_audio.h"
#include "daemon_boards.h"
#include "daemon_shell.h"
#include "daemon_session.h"
#include "daemon_voice.h"

const char *tb_daemon__audio_target(const char *audio)
{
    if (!audio || !audio[0] || !strcmp(audio, "null") || !strcmp(audio, "none") ||
        !strncmp(audio, "wav:", 4))
        return NULL;
    return !strcmp(audio, "pa") || !strcmp(audio, "default") ? "" : audio;
}

int tb_daemon_audio_device(const char *audio, char *name, size_t len, struct tb_error *err)
{
    const char *target = tb_daemon__audio_target(audio);
    if (len)
        name[0] = '\0';
    if (!target)
        return TB_OK;
    return tb_voice_portaudio_resolve(target, name, len, err);
}

int tb_daemon__audio_probe(struct tb_daemon *d, struct tb_error *err)
{
    if (d->opt.sink)
        return TB_OK; /* the caller's own sinks */
    for (int b = 0; b < TBD_BOARDS; b++) {
        const char *audio = d->opt.audio ? d->opt.audio : d->cfg->player[b].audio;
        char name[256];
        struct tb_error e = {0};
        if (tb_daemon_audio_device(audio, name, sizeof name, &e) != TB_OK)
            return tb_error_set(err, e.code, "%s player: audio = %s: %s", tb_daemon__board_name(b),
                                audio, e.msg);
        if (name[0])
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s player hears the audio device \"%s\"",
                           tb_daemon__board_name(b), name);
    }
    return TB_OK;
}

static const char *audio_of(const struct tb_daemon *d, int board)
{
    return d->opt.audio ? d->opt.audio : d->cfg->player[board].audio;
}

void tb_daemon__audio_event(struct tb_daemon *d, const struct tb_voice_event *ev)
{
    int color = ev->player, b = tb_daemon__board_of_color(d, color);
    if (ev->status == TB_VOICE_DEVICE_LOST) {
        char why[256] = "";
        tb_voice_device_ok(tb_daemon__speaker(d), color, why, sizeof why, NULL);
        tb_daemon__log(
            d, TB_CONFIG_LOG_ERROR,
            "audio: the %s player (%s) hears nothing: audio = %s is lost: %s; the %s player "
            "still hears everything; trying it again every second",
            tb_daemon__board_name(b), tb_daemon__color_name(color), audio_of(d, b), why,
            tb_daemon__board_name(1 - b));
    } else if (ev->status == TB_VOICE_DEVICE_BACK) {
        tb_daemon__log(
            d, TB_CONFIG_LOG_WARN,
            "audio: audio = %s is back: the %s player (%s) hears speech again (REPEAT says "
            "the last move)",
            audio_of(d, b), tb_daemon__board_name(b), tb_daemon__color_name(color));
    }
}

void tb_daemon__audio_status(struct tb_daemon *d, char *buf, size_t len)
{
    size_t u = 0;
    struct tb_voice *speaker = tb_daemon__speaker(d);
    buf[0] = '\0';
    for (int c = 0; c < TBD_BOARDS && speaker && u < len; c++) { /* the twin game's two */
        char why[256];
        double since;
        int b = tb_daemon__board_of_color(d, c);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (tb_voice_device_ok(speaker, c, why, sizeof why, &since))
            u += (size_t)snprintf(buf + u, len - u, "%s%s ok",
                                  u ? ", " : "audio: ", tb_daemon__color_name(c));
        else
            u += (size_t)snprintf(
                buf + u, len - u, "%s%s LOST for %.0f s (%s: %s; retried every second)",
                u ? ", " : "audio: ", tb_daemon__color_name(c),
                (double)now.tv_sec + now.tv_nsec * 1e-9 - since, audio_of(d, b), why);
    }
}
