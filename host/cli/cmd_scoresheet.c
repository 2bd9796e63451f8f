/* cmd_scoresheet.c - `twinboard scoresheet [--letters en|nl|de] [--game N] FILE`: one game of a
 * PGN file as a plain-text scoresheet (Article 8, Appendix C). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record_games.h"
#include "tb_chess.h"

/* Reads up to game `number`; 0 when printed, else the exit status after reporting. */
static int print_game(const char *path, const char *text, size_t len, long number,
                      enum tb_chess_letters letters, tb_chess_pgn_game *g)
{
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    int rc;
    while ((rc = tb_chess_pgn_read(&r, g, &err)) != 0) {
        if (r.games < number)
            continue;
        if (rc < 0) {
            tb_cli_error("scoresheet: %s: %s (line %ld)", path, err.msg, err.line);
            return TB_CLI_FOUND;
        }
        int n = tb_chess_scoresheet_write(g, letters, NULL, 0);
        char *sheet = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (!sheet) {
            tb_cli_error("scoresheet: %s", n < 0 ? tb_strerror(n) : "out of memory");
            return TB_CLI_USAGE;
        }
        tb_chess_scoresheet_write(g, letters, sheet, (size_t)n + 1);
        fputs(sheet, stdout);
        free(sheet);
        return TB_CLI_OK;
    }
    tb_cli_error("scoresheet: %s has %ld game%s, no game %ld", path, r.games,
                 r.games == 1 ? "" : "s", number);
    return TB_CLI_USAGE;
}

int tb_cli_cmd_scoresheet(int argc, char **argv)
{
    enum tb_chess_letters letters = TB_CHESS_LETTERS_EN;
    long number = 1;
    const char *path = NULL;
    enum { O_LETTERS = 256, O_GAME };
    static const struct option longs[] = {
        {"letters", required_argument, NULL, O_LETTERS},
        {"game", required_argument, NULL, O_GAME},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        if (c == O_LETTERS) {
            if (!tb_cli_parse_lang(optarg, &letters)) {
                tb_cli_error("scoresheet: letters '%s': use en (KQRBN), nl (KDTLP) or de (KDTLS)",
                             optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == O_GAME) {
            if (!tb_cli_parse_int(optarg, 1, 10000000, &number)) {
                tb_cli_error("scoresheet: game '%s' is not a number from 1 up", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c != 1) {
            return tb_cli_usage("scoresheet");
        } else if (!path) {
            path = optarg;
        } else {
            tb_cli_error("scoresheet: one file only ('%s' and '%s')", path, optarg);
            return tb_cli_usage("scoresheet");
        }
    }
    if (!path)
        return tb_cli_usage("scoresheet");
    size_t len;
    char *text = tb_cli_read_file(path, &len);
    if (!text)
        return TB_CLI_USAGE;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    int rc = TB_CLI_USAGE;
    if (g)
        rc = print_game(path, text, len, number, letters, g);
    else
        tb_cli_error("scoresheet: out of memory");
    free(g);
    free(text);
    return rc;
}
