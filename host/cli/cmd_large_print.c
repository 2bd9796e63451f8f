/* cmd_large_print.c - `twinboard large-print FILE -o OUT.pdf`: the games of a PGN file (or one)
 * as a large-print PDF scoresheet (D.2.7, for players with low vision). */
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "record_games.h"
#include "tb_record.h"

#define MAX_GAMES 200 /* a round, or a few; about 140 kB each in memory */

int tb_cli_cmd_large_print(int argc, char **argv)
{
    struct tb_record_print_opts rec = {.lang = TB_CHESS_LETTERS_DE, .pt = TB_RECORD_PT_DEFAULT};
    long game = 0, pt;
    const char *path = NULL, *outpath = NULL;
    enum { O_PT = 256, O_LANG, O_FIG, O_DIAGRAM, O_GAME };
    static const struct option longs[] = {
        {"pt", required_argument, NULL, O_PT},
        {"lang", required_argument, NULL, O_LANG},
        {"figurine", no_argument, NULL, O_FIG},
        {"diagram", no_argument, NULL, O_DIAGRAM},
        {"game", required_argument, NULL, O_GAME},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "o:", longs)) != -1) {
        if (c == O_PT) {
            if (!tb_cli_parse_int(optarg, TB_RECORD_PT_MIN, TB_RECORD_PT_MAX, &pt)) {
                tb_cli_error("large-print: pt '%s': use a type size from %d to %d", optarg,
                             TB_RECORD_PT_MIN, TB_RECORD_PT_MAX);
                return TB_CLI_USAGE;
            }
            rec.pt = (double)pt;
        } else if (c == O_LANG) {
            if (!tb_cli_parse_lang(optarg, &rec.lang)) {
                tb_cli_error("large-print: language '%s': use de, nl or en", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == O_FIG) {
            rec.figurine = true;
        } else if (c == O_DIAGRAM) {
            rec.diagram = true;
        } else if (c == O_GAME) {
            if (!tb_cli_parse_int(optarg, 1, 10000000, &game)) {
                tb_cli_error("large-print: game '%s' is not a number from 1 up", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == 'o') {
            outpath = optarg;
        } else if (c != 1) {
            return tb_cli_usage("large-print");
        } else if (!path) {
            path = optarg;
        } else {
            tb_cli_error("large-print: one file only ('%s' and '%s')", path, optarg);
            return tb_cli_usage("large-print");
        }
    }
    if (!path || !outpath)
        return tb_cli_usage("large-print");
    tb_chess_pgn_game **games = NULL;
    int n = tb_cli_games_read("large-print", path, game, MAX_GAMES, &games);
    if (n < 0)
        return -n;
    int rc = TB_CLI_OK;
    struct tb_error err = {0};
    FILE *out = fopen(outpath, "wb");
    if (!out) {
        tb_cli_error("large-print: %s: %s", outpath, strerror(errno));
        rc = TB_CLI_USAGE;
    } else {
        if (tb_record_print_write((const tb_chess_pgn_game *const *)games, n, &rec, out, &err) <
            0) {
            tb_cli_error("large-print: %s: %s", path, err.msg);
            rc = TB_CLI_USAGE;
        }
        if (fclose(out) && rc == TB_CLI_OK) {
            tb_cli_error("large-print: %s: %s", outpath, strerror(errno));
            rc = TB_CLI_USAGE;
        }
    }
    tb_cli_games_free(games, n);
    /* The font caches cairo and fontconfig keep for the process, given back before exit so
     * that a leak checker sees nothing left. */
    cairo_debug_reset_static_data();
    FcFini();
    return rc;
}
