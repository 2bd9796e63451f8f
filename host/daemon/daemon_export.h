/* daemon_export.h - the game as the control requests show it: status, moves, PGN
 * (daemon_export.c). */
#ifndef TB_DAEMON_EXPORT_H
#define TB_DAEMON_EXPORT_H

#include <stdbool.h>

#include "tb_chess.h"

struct tb_daemon;
struct tb_daemon__buf;

void tb_daemon__status(struct tb_daemon *d, struct tb_daemon__buf *out);
void tb_daemon__moves(struct tb_daemon *d, struct tb_daemon__buf *out);
int tb_daemon__pgn(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                   struct tb_daemon__buf *out);
/* The running game as PGN (or a scoresheet), malloc'd into *text; its length or an error. */
int tb_daemon__pgn_text(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                        char **text);

#endif /* TB_DAEMON_EXPORT_H */
