/* cmd_ctl.c - the control-client commands: each sends one request to twinboardd's control socket
 * (docs/control-protocol.md) and prints the answer. --socket PATH picks the socket (default:
 * TWINBOARD_SOCKET, else as the daemon's); --pin PIN or the environment variable TB_PIN gives the
 * arbiter PIN for the requests that change the game. Exit status: 0 done, 1 the daemon refused, 2
 * usage or no daemon. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_config.h"
#include "tb_ctl.h"

struct ctl_args {
    const char *socket;
    const char *pin;
    char line[TB_CTL_LINE_MAX + 64];
};

/* Sends the request and prints what the daemon says; returns the exit status. */
static int ask(const char *socket, const char *line)
{
    static char answer[1 << 20], text[1 << 20];
    struct tb_error err = {0};
    int rc = tb_ctl_request(socket, line, answer, sizeof answer, &err);
    if (rc < 0) {
        tb_cli_error("%s%s", err.msg, rc == TB_ERR_SYS ? " (is it running? --socket PATH)" : "");
        return TB_CLI_USAGE;
    }
    if (tb_ctl_answer_text(answer, text, sizeof text) < 0) {
        tb_cli_error("twinboardd answered something that is no answer");
        return TB_CLI_USAGE;
    }
    if (rc == 1) {
        tb_cli_error("%s", text);
        return TB_CLI_FOUND;
    }
    if (text[0])
        fputs(text, stdout), fputs(text[strlen(text) - 1] == '\n' ? "" : "\n", stdout);
    return TB_CLI_OK;
}

/* Options, then the request's words. needs_pin: append pin= when a PIN is known. */
static int run(int argc, char **argv, const char *verb, int min, int max, bool needs_pin)
{
    struct ctl_args a = {.pin = getenv("TB_PIN")};
    struct tb_config defaults;
    tb_config_defaults(&defaults, getenv("XDG_RUNTIME_DIR"), getenv("XDG_STATE_HOME"), NULL);
    const char *env_socket = getenv("TWINBOARD_SOCKET");
    a.socket = env_socket && *env_socket ? env_socket : defaults.socket_path;
    size_t used = (size_t)snprintf(a.line, sizeof a.line, "%s", verb);
    int words = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--socket") && i + 1 < argc) {
            a.socket = argv[++i];
        } else if (!strcmp(argv[i], "--pin") && i + 1 < argc) {
            a.pin = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return tb_cli_usage(argv[0]);
        } else {
            words++;
            used += (size_t)snprintf(a.line + used, used < sizeof a.line ? sizeof a.line - used : 0,
                                     " %s", argv[i]);
        }
    }
    if (words < min || words > max)
        return tb_cli_usage(argv[0]);
    if (needs_pin && a.pin && *a.pin)
        used += (size_t)snprintf(a.line + used, used < sizeof a.line ? sizeof a.line - used : 0,
                                 " pin=%s", a.pin);
    if (used + 1 >= sizeof a.line) {
        tb_cli_error("the request is too long");
        return TB_CLI_USAGE;
    }
    return ask(a.socket, a.line);
}

int tb_cli_cmd_status(int argc, char **argv)
{
    return run(argc, argv, "status", 0, 0, false);
}
int tb_cli_cmd_moves(int argc, char **argv)
{
    return run(argc, argv, "moves", 0, 0, false);
}
int tb_cli_cmd_pgn(int argc, char **argv)
{
    return run(argc, argv, "pgn", 0, 0, false);
}
int tb_cli_cmd_sheet(int argc, char **argv)
{
    return run(argc, argv, "scoresheet", 0, 1, false);
}
int tb_cli_cmd_resolve(int argc, char **argv)
{
    return run(argc, argv, "resolve", 1, 1, true);
}
int tb_cli_cmd_takeback(int argc, char **argv)
{
    return run(argc, argv, "takeback", 0, 1, true);
}
int tb_cli_cmd_promote(int argc, char **argv)
{
    return run(argc, argv, "promote", 1, 2, false);
}
int tb_cli_cmd_repeat(int argc, char **argv)
{
    return run(argc, argv, "repeat", 0, 1, false);
}
int tb_cli_cmd_new_game(int argc, char **argv)
{
    return run(argc, argv, "new-game", 0, 0, true);
}
int tb_cli_cmd_move(int argc, char **argv)
{
    return run(argc, argv, "move", 2, 2, false);
}

/* The FEN's six fields are six words. */
int tb_cli_cmd_set_position(int argc, char **argv)
{
    return run(argc, argv, "set-position", 1, 6, true);
}
