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

int tb_cli_games_each(const char *cmd, const char *path, long number,
                      int (*fn)(void *arg, const tb_chess_pgn_game *g), void *arg)
{
    size_t len;
    char *text = tb_cli_read_file(path, &len);
    if (!text)
        return TB_CLI_USAGE;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    if (!g) {
        free(text);
        tb_cli_error("%s: out of memory", cmd);
        return TB_CLI_USAGE;
    }
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    int n = 0, status = TB_CLI_OK, rc;
    struct tb_error err = {0};
    while (status == TB_CLI_OK && (rc = tb_chess_pgn_read(&r, g, &err)) != 0) {
        if (number && r.games < number)
            continue;
        if (rc < 0) {
            tb_cli_error("%s: %s: %s (line %ld)", cmd, path, err.msg, err.line);
            status = TB_CLI_FOUND;
            break;
        }
        n++;
        status = fn(arg, g);
        if (number)
            break;
    }
    if (status == TB_CLI_OK && n == 0) {
        if (number)
            tb_cli_error("%s: %s has %ld game%s, no game %ld", cmd, path, r.games,
                         r.games == 1 ? "" : "s", number);
        else
            tb_cli_error("%s: %s holds no game", cmd, path);
        status = TB_CLI_USAGE;
    }
    free(g);
    free(text);
    return status;
}

struct collect {
    const char *cmd, *path;
    int max, n;
    tb_chess_pgn_game **games;
};

static int keep(void *arg, const tb_chess_pgn_game *g)
{
    struct collect *c = arg;
    if (c->n == c->max) {
        tb_cli_error("%s: %s has more than %d games; choose one with --game N", c->cmd, c->path,
                     c->max);
        return TB_CLI_USAGE;
    }
    tb_chess_pgn_game *copy = malloc(sizeof *copy);
    if (!copy) {
        tb_cli_error("%s: out of memory", c->cmd);
        return TB_CLI_USAGE;
    }
    memcpy(copy, g, sizeof *copy);
    c->games[c->n++] = copy;
    return TB_CLI_OK;
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
    struct collect c = {.cmd = cmd, .path = path, .max = max};
    c.games = calloc((size_t)max, sizeof *c.games);
    if (!c.games) {
        tb_cli_error("%s: out of memory", cmd);
        return -TB_CLI_USAGE;
    }
    int status = tb_cli_games_each(cmd, path, number, keep, &c);
    if (status) {
        tb_cli_games_free(c.games, c.n);
        return -status;
    }
    *games = c.games;
    return c.n;
}
