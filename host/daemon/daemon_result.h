/* daemon_result.h - the game's tags and its end (daemon_result.c), their one owner: set by the
 * new game's tags, the result request and the rules, read by the broadcast, the PGN, the games
 * kept, status and the hall through the functions here. Private to the daemon library. */
#ifndef TB_DAEMON_RESULT_H
#define TB_DAEMON_RESULT_H

#include <stdint.h>

struct tb_daemon;
struct tb_error;
struct tb_ctl_request;
struct tb_journal_decision;
struct tb_broadcast_tags;

/* The state made when the daemon is (tb_daemon_new, before its parts open: recovery ends a game
 * and the broadcast shows it) with the first game's tags and no result; freed last. */
int tb_daemon__result_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__result_free(struct tb_daemon *d);

/* The tags of a new game: the configuration's, with a new-game request's over them. The
 * broadcast shows them, the PGN has them, the games kept are named by them. */
void tb_daemon__game_tags(struct tb_daemon *d, const struct tb_ctl_request *req);
/* The game's tags as they stand; set: the tags of an unfinished game read back (games kept). */
const struct tb_broadcast_tags *tb_daemon__tags(const struct tb_daemon *d);
void tb_daemon__tags_set(struct tb_daemon *d, const struct tb_broadcast_tags *tags);

/* The game's end: the plies of the game when it ended (-1 while it is played), why ("checkmate
 * (5.1.1)", "White resigns (5.1.2)" ...; "" while played), and the result request that ended it
 * (NULL while played or when the rules ended it). */
int tb_daemon__result_ply(const struct tb_daemon *d);
const char *tb_daemon__result_why(const struct tb_daemon *d);
const struct tb_ctl_request *tb_daemon__result_by_request(const struct tb_daemon *d);

/* daemon_result.c: the game's end. The result request (an arbiter action of daemon_arbiter.c's
 * table) and the end by the rules after an agreed move: in the PGN, the journal, status, the
 * broadcast, and said to both players. */
int tb_daemon__result_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err);
int tb_daemon__result_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err);
void tb_daemon__result_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                              struct tb_journal_decision *dec);
void tb_daemon__result_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req);
/* After an agreed move: mate, stalemate, dead position, fivefold, 75 moves end the game. */
void tb_daemon__result_rules(struct tb_daemon *d, uint64_t t);
/* A new game: no result. */
void tb_daemon__result_clear(struct tb_daemon *d);

#endif /* TB_DAEMON_RESULT_H */
