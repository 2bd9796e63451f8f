/* daemon_braille.h - each player's braille display (daemon_braille.c, docs/braille.md). Both
 * calls are no-ops for a player without a display and until the braille part is open (recovery
 * runs before it, daemon_parts.c). */
#ifndef TB_DAEMON_BRAILLE_H
#define TB_DAEMON_BRAILLE_H

struct tb_daemon;

/* What the player was told (a move to copy, their own move, a message) and the game so far,
 * onto the display. */
enum { TBD_BRAILLE_MESSAGE, TBD_BRAILLE_TO_COPY, TBD_BRAILLE_OWN_MOVE };
void tb_daemon__braille_said(struct tb_daemon *d, int board, int what, const char *text);
void tb_daemon__braille_game(struct tb_daemon *d);

#endif /* TB_DAEMON_BRAILLE_H */
