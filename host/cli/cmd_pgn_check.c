/* cmd_pgn_check.c - `twinboard pgn-check FILE...`: replays every game through the rules core
 * and reports each illegal or unreadable move with its game, move and line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "tb_chess.h"

struct tally {
    long games, plies, errors;
};

static void print_tally(const char *what, const struct tally *t)
{
    printf("%s: %ld game%s, %ld plies", what, t->games, t->games == 1 ? "" : "s", t->plies);
    if (t->errors)
        printf(", %ld with errors", t->errors);
    putchar('\n');
}

static void check_file(const char *path, const char *text, size_t len, tb_chess_pgn_game *g,
                       struct tally *t)
{
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    int rc;
    while ((rc = tb_chess_pgn_read(&r, g, &err)) != 0) {
        t->plies += g->game.plies;
        if (rc < 0) {
            t->errors++;
            printf("%s: %s (line %ld)\n", path, err.msg, err.line);
        }
    }
    t->games = r.games;
}

int tb_cli_cmd_pgn_check(int argc, char **argv)
{
    static const struct option none[] = {{NULL, 0, NULL, 0}};
    int nfiles = 0, c;
    while ((c = tb_cli_getopt(argc, argv, "", none)) != -1) {
        if (c != 1)
            return tb_cli_usage("pgn-check");
        argv[++nfiles] = optarg; /* the files, in order, where the operands were */
    }
    if (nfiles < 1)
        return tb_cli_usage("pgn-check");
    tb_chess_pgn_game *g = malloc(sizeof *g);
    if (!g) {
        tb_cli_error("pgn-check: out of memory");
        return TB_CLI_USAGE;
    }
    struct tally total = {0, 0, 0};
    int unreadable = 0;
    for (int i = 1; i <= nfiles; i++) {
        size_t len;
        char *text = tb_cli_read_file(argv[i], &len);
        if (!text) {
            unreadable++;
            continue;
        }
        struct tally t = {0, 0, 0};
        check_file(argv[i], text, len, g, &t);
        free(text);
        print_tally(argv[i], &t);
        total.games += t.games;
        total.plies += t.plies;
        total.errors += t.errors;
    }
    print_tally("total", &total);
    free(g);
    if (unreadable)
        return TB_CLI_USAGE;
    return total.errors ? TB_CLI_FOUND : TB_CLI_OK;
}
