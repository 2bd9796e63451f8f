/* cmd_braille.c - `twinboard braille FILE`: the games of a PGN file as a braille scoresheet
 * (D.2.7), BRF for an embosser or Unicode braille for a display. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "record_games.h"
#include "tb_record.h"

struct braille_opts {
    struct tb_record_braille_opts rec;
    long game;
    const char *path, *out;
};

static int parse(int argc, char **argv, struct braille_opts *o)
{
    enum { O_LANG = 256, O_GRADE, O_CELLS, O_LINES, O_UNICODE, O_GAME };
    static const struct option longs[] = {
        {"lang", required_argument, NULL, O_LANG},   {"grade", required_argument, NULL, O_GRADE},
        {"cells", required_argument, NULL, O_CELLS}, {"lines", required_argument, NULL, O_LINES},
        {"unicode", no_argument, NULL, O_UNICODE},   {"game", required_argument, NULL, O_GAME},
        {"output", required_argument, NULL, 'o'},    {NULL, 0, NULL, 0},
    };
    int c;
    long v;
    while ((c = tb_cli_getopt(argc, argv, "o:", longs)) != -1) {
        if (c == O_LANG) {
            if (!tb_cli_parse_lang(optarg, &o->rec.lang)) {
                tb_cli_error("braille: language '%s': use de, nl or en", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == O_GRADE) {
            if (!tb_cli_parse_int(optarg, 1, 2, &v)) {
                tb_cli_error("braille: grade '%s': use 1 (uncontracted) or 2 (contracted)", optarg);
                return TB_CLI_USAGE;
            }
            o->rec.grade = (int)v;
        } else if (c == O_CELLS || c == O_LINES) {
            long min = c == O_CELLS ? TB_RECORD_CELLS_MIN : TB_RECORD_LINES_MIN;
            if (!tb_cli_parse_int(optarg, min, TB_RECORD_SIZE_MAX, &v)) {
                tb_cli_error("braille: %s '%s': use a number from %ld to %d",
                             c == O_CELLS ? "cells" : "lines", optarg, min, TB_RECORD_SIZE_MAX);
                return TB_CLI_USAGE;
            }
            *(c == O_CELLS ? &o->rec.cells : &o->rec.lines) = (int)v;
        } else if (c == O_UNICODE) {
            o->rec.unicode = true;
        } else if (c == O_GAME) {
            if (!tb_cli_parse_int(optarg, 1, 10000000, &o->game)) {
                tb_cli_error("braille: game '%s' is not a number from 1 up", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == 'o') {
            o->out = optarg;
        } else if (c != 1) {
            return tb_cli_usage("braille");
        } else if (!o->path) {
            o->path = optarg;
        } else {
            tb_cli_error("braille: one file only ('%s' and '%s')", o->path, optarg);
            return tb_cli_usage("braille");
        }
    }
    return o->path ? TB_CLI_OK : tb_cli_usage("braille");
}

struct each {
    const struct braille_opts *o;
    FILE *out;
    int games;
};

/* One game after the other, each from a page of its own (BRF). */
static int write_one(void *arg, const tb_chess_pgn_game *g)
{
    struct each *e = arg;
    struct tb_error err = {0};
    /* Unicode lines have no pages: a blank line between games. */
    if (e->o->rec.unicode && e->games++ > 0)
        fputc('\n', e->out);
    if (tb_record_braille_write(g, &e->o->rec, e->out, &err) < 0) {
        tb_cli_error("braille: %s: game %ld: %s", e->o->path, g->number, err.msg);
        return TB_CLI_USAGE;
    }
    return TB_CLI_OK;
}

int tb_cli_cmd_braille(int argc, char **argv)
{
    struct braille_opts o = {.rec = {.lang = TB_CHESS_LETTERS_DE, .grade = 1}};
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    const char *table;
    struct tb_error err = {0};
    if (tb_record_braille_table(o.rec.lang, o.rec.grade, &table, &err)) {
        tb_cli_error("braille: %s", err.msg);
        return TB_CLI_USAGE;
    }
    /* Written beside the file and renamed when every game is in: bad input leaves no file. */
    char tmp[4096];
    if (o.out && snprintf(tmp, sizeof tmp, "%s.tmp", o.out) >= (int)sizeof tmp) {
        tb_cli_error("braille: %s: the name is too long", o.out);
        return TB_CLI_USAGE;
    }
    struct each e = {.o = &o};
    e.out = o.out ? fopen(tmp, "w") : stdout;
    if (!e.out) {
        tb_cli_error("braille: %s: %s", tmp, strerror(errno));
        return TB_CLI_USAGE;
    }
    rc = tb_cli_games_each("braille", o.path, o.game, write_one, &e);
    if (o.out) {
        if (fclose(e.out) && rc == TB_CLI_OK) {
            tb_cli_error("braille: %s: %s", tmp, strerror(errno));
            rc = TB_CLI_USAGE;
        }
        if (rc == TB_CLI_OK && rename(tmp, o.out)) {
            tb_cli_error("braille: %s: %s", o.out, strerror(errno));
            rc = TB_CLI_USAGE;
        }
        if (rc != TB_CLI_OK)
            remove(tmp);
    }
    return rc;
}
