/* daemon_vi.h - the VI player on their own (daemon_vi.c, docs/guide-vi-player.md): the buttons,
 * the promote button's choice, the confirmation of the player's own move, the game by ear, the
 * time each colour has used. Its state is the vi part's, opened before recovery (daemon_parts.c)
 * because recovery rebuilds it: what each player was told, the time used. */
#ifndef TB_DAEMON_VI_H
#define TB_DAEMON_VI_H

#include <stdint.h>

struct tb_daemon;
struct tb_daemon__buf;
struct tb_ctl_request;
struct tb_journal_event;
struct tb_match_announce;
struct tb_voice_event;

/* Before a board input at t is journaled (the session has taken the choices due by t): a
 * clock press takes its board's choice at once (its record must precede the press's), and a
 * review is cut by any event of its player's board. */
void tb_daemon__vi_before_input(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
/* A promote button's choice due by t: the match ticked to *due and its board, or -1 (none, or
 * play stopped); the session carries out the outputs, then tb_daemon__vi_take takes it. */
int tb_daemon__vi_next(struct tb_daemon *d, uint64_t t, uint64_t *due);
void tb_daemon__vi_take(struct tb_daemon *d, int board, uint64_t t);
/* The earliest choice still to take, or UINT64_MAX. */
uint64_t tb_daemon__vi_deadline(const struct tb_daemon *d);
/* 6.2.1: the player at board pressed the clock: the move is ended (7.5.2); the session carries
 * out the move and its confirmation before the clock's own words. */
void tb_daemon__end_move(struct tb_daemon *d, int board, uint64_t t);
/* Live buttons (the live effects' button and release): a press of any button (enum
 * tb_link_button) answered, the table's subscribers told (tb_daemon__tell_button); a long press
 * told at its release. */
void tb_daemon__vi_button(struct tb_daemon *d, int board, int button);
void tb_daemon__vi_release(struct tb_daemon *d, int board, int button);
void tb_daemon__vi_confirm(struct tb_daemon *d, int board, int what);
/* A move was told to the player at a->board: the mover's confirmation. */
void tb_daemon__vi_told(struct tb_daemon *d, const struct tb_match_announce *a);
/* A review request into the player's ears (logged as "review to NAME (Colour): text"); the
 * text is malloc'd into *text when text is not NULL. Returns the length or an error. */
int tb_daemon__review(struct tb_daemon *d, int board, int what, int arg, char **text);
/* The `review` control request: said to the player, the text as data lines; the scoresheet also
 * as a WAV file in the journal directory when there is speech. */
void tb_daemon__review_request(struct tb_daemon *d, const struct tb_ctl_request *req,
                               struct tb_daemon__buf *out);
void tb_daemon__vi_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
/* D.2.6: the time each colour has used, measured between the boards' moves: a move of mover
 * announced at ms, a new game started at t, and the time used by color (ms). */
void tb_daemon__vi_moved(struct tb_daemon *d, int mover, uint64_t ms);
void tb_daemon__vi_new_game(struct tb_daemon *d, uint64_t t);
uint64_t tb_daemon__vi_time_used(const struct tb_daemon *d, int color);

#endif /* TB_DAEMON_VI_H */
