/* daemon_audio.h - the players' audio devices (daemon_audio.c): probed before the game, lost and
 * back during it. The part keeps no state of its own: the speech thread knows each device's
 * health (tb_daemon__speaker). */
#ifndef TB_DAEMON_AUDIO_H
#define TB_DAEMON_AUDIO_H

#include <stddef.h>

struct tb_daemon;
struct tb_error;
struct tb_voice_event;

/* The PortAudio device an audio entry names: NULL for null, none and wav:, "" for the default. */
const char *tb_daemon__audio_target(const char *audio);
/* Each player's PortAudio device: an unknown or ambiguous name is the error (naming the player
 * and the devices there are); the devices found are logged. */
int tb_daemon__audio_probe(struct tb_daemon *d, struct tb_error *err);
/* TB_VOICE_DEVICE_LOST and _BACK: logged. */
void tb_daemon__audio_event(struct tb_daemon *d, const struct tb_voice_event *ev);
/* "audio: White ok, Black LOST for 12 s (...)" for status; "" without speech. */
void tb_daemon__audio_status(struct tb_daemon *d, char *buf, size_t len);

#endif /* TB_DAEMON_AUDIO_H */
