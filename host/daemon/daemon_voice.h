/* daemon_voice.h - the players' ears (daemon_voice.c): the announcements of the match phrased in
 * each player's pack and queued on the speech thread. Its state (the speech thread, the packs)
 * is the voice part's, opened after recovery (daemon_parts.c): until then, and with speech off,
 * there is no pack and no speech thread, and what would be said is only logged. */
#ifndef TB_DAEMON_VOICE_H
#define TB_DAEMON_VOICE_H

#include <stdbool.h>

#include "tb_voice.h"

struct tb_daemon;
struct tb_error;
struct tb_match_announce;

void tb_daemon__say(struct tb_daemon *d, const struct tb_match_announce *a);
void tb_daemon__say_msg(struct tb_daemon *d, int board, enum tb_voice_msg msg,
                        const struct tb_voice_msg_args *args, unsigned flags);
void tb_daemon__repeat(struct tb_daemon *d, int board);
bool tb_daemon__voice_idle(struct tb_daemon *d);
/* The twin game's parts of the mode table (tb_daemon__twin, daemon_feed.c). */
int tb_daemon__twin_voice_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__twin_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
/* The speech thread, NULL before the voice part is open and with speech off. */
struct tb_voice *tb_daemon__speaker(const struct tb_daemon *d);
/* The speech thread started with vc (a mode's voice_open): TB_OK, or the start-up error "speech:
 * ..." (no game where a player would hear nothing). */
int tb_daemon__speaker_start(struct tb_daemon *d, const struct tb_voice_config *vc,
                             struct tb_error *err);
/* The pack board's player hears, NULL before the voice part is open (recovery). */
const struct tb_voice_pack *tb_daemon__pack(const struct tb_daemon *d, int board);

#endif /* TB_DAEMON_VOICE_H */
