/* cmd_replay.c - `twinboard replay`: one board's events through the recogniser, moves in UCI
 * and problems as `! kind details` lines (docs/replay.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_chess.h"
#include "tb_script.h"
#include "tb_sensor.h"

struct replay {
    tb_sensor *sensor;
    char board[TB_SCRIPT_NAME_MAX];
    bool touches;
};

static bool is_event(const struct tb_script_event *ev)
{
    return ev->kind >= TB_SCRIPT_LIFT && ev->kind <= TB_SCRIPT_CHOOSE;
}

static void print_outputs(struct replay *r)
{
    struct tb_sensor_out o;
    char line[200];
    while (tb_sensor_poll(r->sensor, &o)) {
        if (o.kind == TB_SENSOR_OUT_TOUCH && !r->touches)
            continue;
        if (tb_sensor_out_format(&o, line, sizeof line) >= 0)
            puts(line);
    }
}

/* Only checks the script, and finds the first board name. */
static int survey(void *user, const struct tb_script_event *ev, long line)
{
    (void)line;
    struct replay *r = user;
    if (!is_event(ev))
        return 0;
    if (!r->board[0])
        memcpy(r->board, ev->board, sizeof r->board);
    return 0;
}

static int feed(void *user, const struct tb_script_event *ev, long line)
{
    (void)line;
    struct replay *r = user;
    if (!is_event(ev) || strcmp(ev->board, r->board) != 0)
        return 0;
    tb_sensor_feed(r->sensor, ev);
    print_outputs(r);
    return 0;
}

int tb_cli_cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *fen = NULL;
    struct tb_sensor_config cfg;
    struct replay r = {0};
    tb_chess_pos start;
    struct tb_error err;
    long v;
    bool blip_given = false;

    tb_sensor_config_default(&cfg);
    enum { O_TOUCHES = 256, O_EVENTS, O_FEN, O_BOARD, O_BLIP, O_PROMO };
    static const struct option longs[] = {
        {"touches", no_argument, NULL, O_TOUCHES},
        {"events", required_argument, NULL, O_EVENTS},
        {"fen", required_argument, NULL, O_FEN},
        {"board", required_argument, NULL, O_BOARD},
        {"blip-ms", required_argument, NULL, O_BLIP},
        {"promo-wait-ms", required_argument, NULL, O_PROMO},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        const char *val = optarg;
        if (c == O_TOUCHES) {
            r.touches = true;
        } else if (c == O_EVENTS) {
            path = val;
        } else if (c == O_FEN) {
            fen = val;
        } else if (c == O_BOARD) {
            if (!tb_script_name_valid(val)) {
                tb_cli_error("bad board name '%s'", val);
                return TB_CLI_USAGE;
            }
            snprintf(r.board, sizeof r.board, "%s", val);
        } else if (c == O_BLIP && tb_cli_parse_int(val, 0, 10000, &v)) {
            cfg.blip_ms = (uint32_t)v;
            blip_given = true;
        } else if (c == O_PROMO && tb_cli_parse_int(val, 0, 600000, &v)) {
            cfg.promo_wait_ms = (uint32_t)v;
        } else {
            return tb_cli_usage(argv[0]);
        }
    }
    if (!path)
        return tb_cli_usage(argv[0]);
    size_t len;
    char *text = tb_cli_read_file(path, &len);
    if (!text)
        return TB_CLI_USAGE;
    /* check the whole script first: a malformed line stops the replay before any output */
    if (tb_script_parse_buffer(text, len, survey, &r, &err) < 0) {
        fprintf(stderr, "%s:%ld: %s\n", path, err.line, err.msg);
        free(text);
        return TB_CLI_USAGE;
    }
    /* the window the script was made for, unless --blip-ms says otherwise */
    int w = blip_given ? 0 : tb_script_blip_window(text, len, &cfg.blip_ms, &err);
    if (w < 0) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        free(text);
        return TB_CLI_USAGE;
    }
    if (w == 1)
        cfg.wobble_ms = cfg.blip_ms; /* as the daemon: lifted and put back within it, no touch */
    tb_chess_pos_startpos(&start);
    char script_fen[128];
    if (!fen && tb_script_start_fen(text, len, script_fen, sizeof script_fen) == 1)
        fen = script_fen;
    if (fen && tb_chess_pos_from_fen(&start, fen, 0, &err) < 0) {
        tb_cli_error("bad FEN '%s': %s", fen, err.msg);
        free(text);
        return TB_CLI_USAGE;
    }
    if (tb_sensor_new(&cfg, &r.sensor) < 0) {
        tb_cli_error("out of memory");
        free(text);
        return TB_CLI_USAGE;
    }
    tb_sensor_reset(r.sensor, &start, 0);
    tb_script_parse_buffer(text, len, feed, &r, NULL);
    tb_sensor_flush(r.sensor);
    print_outputs(&r);
    tb_sensor_free(r.sensor);
    free(text);
    return TB_CLI_OK;
}
