/* cmd_scoresheet.c - `twinboard scoresheet [--letters en|nl|de] [--game N] FILE`: one game of a
 * PGN file as a plain-text scoresheet (Article 8, Appendix C). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_chess.h"

static int parse_letters(const char *s, enum tb_chess_letters *out)
{
    static const char *const names[] = {"en", "nl", "de"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum tb_chess_letters)i;
            return 1;
        }
    return 0;
}

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
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--letters") && i + 1 < argc) {
            if (!parse_letters(argv[++i], &letters)) {
                tb_cli_error("scoresheet: letters '%s': use en (KQRBN), nl (KDTLP) or de (KDTLS)",
                             argv[i]);
                return TB_CLI_USAGE;
            }
        } else if (!strcmp(argv[i], "--game") && i + 1 < argc) {
            if (!tb_cli_parse_int(argv[++i], 1, 10000000, &number)) {
                tb_cli_error("scoresheet: game '%s' is not a number from 1 up", argv[i]);
                return TB_CLI_USAGE;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            tb_cli_error("scoresheet: unknown option or missing value: %s", argv[i]);
            return tb_cli_usage("scoresheet");
        } else if (!path) {
            path = argv[i];
        } else {
            tb_cli_error("scoresheet: one file only ('%s' and '%s')", path, argv[i]);
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
