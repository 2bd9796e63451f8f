/* daemon_games.h - games kept (daemon_games.c): one journal and one PGN per game, named by date,
 * round and players. The running game's name is the part's own state (opaque), made when the
 * part opens. Private to the daemon library. */
#ifndef TB_DAEMON_GAMES_H
#define TB_DAEMON_GAMES_H

#include <stdint.h>

struct tb_daemon;
struct tb_error;
struct tb_ctl_request;
struct tb_daemon__buf;

/* The longest name of a game, with its '\0' ("2026-11-24_r3_Anna_Schmidt-Bert_Meier"). */
#define TBD_GAME_NAME 256

/* A new game's name, made of its tags (tb_daemon__tags, set by tb_daemon__game_tags); the name
 * and the tags are written to JOURNAL_DIR/current.name. */
void tb_daemon__game_begin(struct tb_daemon *d);
/* The unfinished game's name and tags after a restart (current.name). */
void tb_daemon__game_recover(struct tb_daemon *d);
/* Writes the game's PGN as JOURNAL_DIR/NAME.pgn (live only). */
void tb_daemon__game_keep(struct tb_daemon *d);
/* new-game: the finished game's journal kept as NAME.tbj, a fresh current.tbj for the next
 * game (its tags from the request, as tb_daemon__game_tags takes them), its start recorded at t. */
int tb_daemon__game_next(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         struct tb_error *err);
/* The games request: the running game, then every game kept in the journal directory. */
void tb_daemon__games(struct tb_daemon *d, struct tb_daemon__buf *out);
/* The running game's name: its journal's and PGN's when kept ("" before it has one). */
const char *tb_daemon__game_name(const struct tb_daemon *d);
/* Text written whole as JOURNAL_DIR/file (a temporary file renamed, synced): doorgeefschaak's
 * BPGN. */
int tb_daemon__game_write(struct tb_daemon *d, const char *file, const char *text);

#endif /* TB_DAEMON_GAMES_H */
