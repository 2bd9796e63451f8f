/* record_games.c - reading the games the record commands write. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record_games.h"

int tb_cli_parse_lang(const char *s, enum tb_chess_letters *out)
{
    static const char *const names[] = {"en", "nl", "de"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum tb_chess_letters)i;
            return 1;
        }
    return 0;
}

void tb_cli_games_free(tb_chess_pgn_game **games, int n)
{
    for (int i = 0; games && i < n; i++)
        free(games[i]);
    free(games);
}

int tb_cli_games_read(const char *cmd, const char *path, long number, int max,
                      tb_chess_pgn_game ***games)
{
    size_t len;
    char *text = tb_cli_read_file(path, &len);
    if (!text)
        return -TB_CLI_USAGE;
    tb_chess_pgn_game **out = calloc((size_t)max, sizeof *out);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    int n = 0, status = 0;
    while (out && !status) {
        tb_chess_pgn_game *g = malloc(sizeof *g);
        if (!g) {
            tb_cli_error("%s: out of memory", cmd);
            status = -TB_CLI_USAGE;
            break;
        }
        struct tb_error err = {0};
        int rc = tb_chess_pgn_read(&r, g, &err);
        if (rc == 0 || (number && r.games < number)) {
            free(g);
            if (rc == 0)
                break;
            continue;
        }
        if (rc < 0) {
            tb_cli_error("%s: %s: %s (line %ld)", cmd, path, err.msg, err.line);
            free(g);
            status = -TB_CLI_FOUND;
        } else if (n == max) {
            tb_cli_error("%s: %s has more than %d games; choose one with --game N", cmd, path, max);
            free(g);
            status = -TB_CLI_USAGE;
        } else {
            out[n++] = g;
            if (number)
                break;
        }
    }
    free(text);
    if (!out) {
        tb_cli_error("%s: out of memory", cmd);
        return -TB_CLI_USAGE;
    }
    if (!status && n == 0) {
        if (number)
            tb_cli_error("%s: %s has %ld game%s, no game %ld", cmd, path, r.games,
                         r.games == 1 ? "" : "s", number);
        else
            tb_cli_error("%s: %s holds no game", cmd, path);
        status = -TB_CLI_USAGE;
    }
    if (status) {
        tb_cli_games_free(out, n);
        return status;
    }
    *games = out;
    return n;
}
