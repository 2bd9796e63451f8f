/* cmd_events_from_pgn.c - `twinboard events-from-pgn`: a game of a PGN file as the event script
 * one board would report (docs/event-script.md, docs/replay.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_chess.h"
#include "tb_script.h"
#include "tb_sensor.h"

static int print_line(void *user, const struct tb_script_event *ev)
{
    char line[200];
    (void)user;
    if (tb_script_format(ev, line, sizeof line) >= 0)
        puts(line);
    return 0;
}

static const char *const fault_names[] = {
    [TB_SENSOR_GEN_WRONG_SQUARE] = "wrong-square",
    [TB_SENSOR_GEN_KNOCKED_PIECE] = "knocked-piece",
    [TB_SENSOR_GEN_SAME_SIDE_TWICE] = "same-side-twice",
};

static int parse_fault(const char *s, enum tb_sensor_gen_fault *out)
{
    for (int f = TB_SENSOR_GEN_WRONG_SQUARE; f <= TB_SENSOR_GEN_SAME_SIDE_TWICE; f++) {
        if (strcmp(s, fault_names[f]) == 0) {
            *out = (enum tb_sensor_gen_fault)f;
            return 1;
        }
    }
    return 0;
}

int tb_cli_cmd_events_from_pgn(int argc, char **argv)
{
    struct tb_sensor_gen_config cfg;
    const char *path = NULL;
    long seed = 1, game = 1;
    bool rate_given = false;
    struct tb_error err;

    tb_sensor_gen_config_default(&cfg);
    enum { O_BLIPS = 256, O_SEED, O_GAME, O_BOARD, O_FAULT, O_FAULT_RATE };
    static const struct option longs[] = {
        {"blips", no_argument, NULL, O_BLIPS},
        {"seed", required_argument, NULL, O_SEED},
        {"game", required_argument, NULL, O_GAME},
        {"board", required_argument, NULL, O_BOARD},
        {"fault", required_argument, NULL, O_FAULT},
        {"fault-rate", required_argument, NULL, O_FAULT_RATE},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        const char *val = optarg;
        if (c == O_BLIPS) {
            cfg.blips = true;
        } else if (c == 1 && !path) {
            path = val;
        } else if (c == O_SEED) {
            if (!tb_cli_parse_int(val, 0, 2147483647L, &seed))
                return tb_cli_usage(argv[0]);
        } else if (c == O_GAME) {
            if (!tb_cli_parse_int(val, 1, 100000000L, &game))
                return tb_cli_usage(argv[0]);
        } else if (c == O_BOARD) {
            cfg.board = val;
        } else if (c == O_FAULT) {
            if (!parse_fault(val, &cfg.fault)) {
                tb_cli_error("unknown fault '%s' (wrong-square, knocked-piece, same-side-twice)",
                             val);
                return TB_CLI_USAGE;
            }
        } else if (c == O_FAULT_RATE) {
            char *end;
            cfg.fault_rate = strtod(val, &end);
            if (*end || !(cfg.fault_rate >= 0 && cfg.fault_rate <= 1)) {
                tb_cli_error("bad fault rate '%s' (0..1)", val);
                return TB_CLI_USAGE;
            }
            rate_given = true;
        } else {
            return tb_cli_usage(argv[0]);
        }
    }
    if (!path)
        return tb_cli_usage(argv[0]);
    if (cfg.fault && !rate_given)
        cfg.fault_rate = 0.1;
    struct tb_sensor_gen gen;
    if (tb_sensor_gen_init(&gen, &cfg, (uint64_t)seed) < 0) {
        tb_cli_error("bad board name '%s'", cfg.board);
        return TB_CLI_USAGE;
    }

    size_t len;
    char *text = tb_cli_read_file(path, &len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    if (!text || !g) {
        free(text);
        free(g);
        return TB_CLI_USAGE;
    }
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, text, len);
    int rc = 0;
    for (long n = 0; n < game; n++) {
        rc = tb_chess_pgn_read(&rd, g, &err);
        if (rc <= 0)
            break;
    }
    int status = TB_CLI_OK;
    if (rc == 0) {
        tb_cli_error("%s: no game %ld", path, game);
        status = TB_CLI_USAGE;
    } else if (rc < 0) {
        fprintf(stderr, "%s:%ld: %s\n", path, err.line, err.msg);
        status = TB_CLI_USAGE;
    } else {
        char fen[100];
        tb_chess_pos_to_fen(&g->game.start, fen, sizeof fen);
        printf("# events-from-pgn %s game %ld seed %ld%s%s%s\n", path, game, seed,
               cfg.blips ? " blips" : "", cfg.fault ? " fault " : "",
               cfg.fault ? fault_names[cfg.fault] : "");
        printf("# fen: %s\n", fen);
        printf("# blip-window: %u ms\n", (unsigned)cfg.blip_ms); /* what its noise was made for */
        tb_sensor_gen_moves(&gen, &g->game.start, g->game.moves, g->game.plies, print_line, NULL,
                            &err);
    }
    free(g);
    free(text);
    return status;
}
