/* record_games.h - the games of a PGN file for the record commands (braille, daisy,
 * large-print). */
#ifndef TB_CLI_RECORD_GAMES_H
#define TB_CLI_RECORD_GAMES_H

#include "tb_chess.h"

/* Calls fn for game `number` of the PGN file at path (0: for every game, one at a time, in one
 * buffer), until fn returns non-zero. Returns TB_CLI_OK, fn's status, or after reporting
 * (prefixed by cmd, naming the file, game and line) TB_CLI_FOUND for a bad game or TB_CLI_USAGE
 * for a file that cannot be read or has no such game. */
int tb_cli_games_each(const char *cmd, const char *path, long number,
                      int (*fn)(void *arg, const tb_chess_pgn_game *g), void *arg);

/* Reads game `number` of the PGN file at path (0: every game, at most max) into *games (an
 * array of malloc'd games; free with tb_cli_games_free). Returns how many, or after reporting
 * (prefixed by cmd, naming the file, game and line) TB_CLI_FOUND for a bad game or TB_CLI_USAGE
 * for a file that cannot be read or has no such game, negated. */
int tb_cli_games_read(const char *cmd, const char *path, long number, int max,
                      tb_chess_pgn_game ***games);
void tb_cli_games_free(tb_chess_pgn_game **games, int n);

/* A letter set or language: "en" (KQRBN), "nl" (KDTLP), "de" (KDTLS); 0 for anything else. */
int tb_cli_parse_lang(const char *s, enum tb_chess_letters *out);

#endif
