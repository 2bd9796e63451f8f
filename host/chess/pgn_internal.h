/* pgn_internal.h - game-building helpers shared by the PGN reader and pgn_game.c. */
#ifndef TB_CHESS_PGN_INTERNAL_H
#define TB_CHESS_PGN_INTERNAL_H

#include "tb_chess.h"

/* Copies n bytes into the text arena (NUL added); *off is where. TB_ERR_FULL when full. */
int tb_chess__pgn_text_add(tb_chess_pgn_game *g, const char *s, size_t n, uint32_t *off,
                           struct tb_error *err);
/* Letters, digits and '_', at least one. */
bool tb_chess__pgn_tag_name_ok(const char *s, size_t n);
/* Adds or replaces a tag from counted strings. */
int tb_chess__pgn_tag_put(tb_chess_pgn_game *g, const char *name, size_t name_len,
                          const char *value, size_t value_len, struct tb_error *err);
/* Adds a note after the others of its ply. */
int tb_chess__pgn_note_add(tb_chess_pgn_game *g, const struct tb_chess_pgn_note *note,
                           struct tb_error *err);

#endif /* TB_CHESS_PGN_INTERNAL_H */
