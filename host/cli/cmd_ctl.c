/* cmd_ctl.c - the control-client commands: each sends one request to twinboardd's control socket
 * (docs/control-protocol.md) and prints the answer. The socket: --socket PATH, else the socket of
 * the configuration -c FILE, else TWINBOARD_SOCKET, else the user's daemon's when it is there,
 * else the installed configuration's (when it can be read), else the service's; never /tmp.
 * --timeout S limits the wait (default 5 s). Every long option takes --opt=VALUE too. The arbiter
 * PIN of the requests that change the game comes from the environment variable TB_PIN, a file
 * (--pin-file FILE, its first line) or a prompt on /dev/tty without echo: never from the command
 * line, which every user sees in ps; set-pin's new PIN likewise from TB_NEW_PIN, --new-pin-file
 * or the prompt (typed twice). Exit status: 0 done, 1 the daemon refused, 2 usage or no
 * daemon. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "tb_config.h"
#include "tb_ctl.h"

struct ctl_args {
    const char *socket;
    const char *pin_file, *new_pin_file;
    int timeout_ms;
    char pin[TB_CTL_PIN_MAX + 2], new_pin[TB_CTL_PIN_MAX + 2];
    char line[TB_CTL_LINE_MAX + 64];
};

/* The first line of a file, without its newline. */
static int pin_from_file(const char *opt, const char *path, char *pin, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tb_cli_error("%s %s: %s", opt, path, strerror(errno));
        return -1;
    }
    if (!fgets(pin, (int)len, f))
        pin[0] = '\0';
    fclose(f);
    pin[strcspn(pin, "\r\n")] = '\0';
    return 0;
}

/* Asks on the terminal with echo off; "" when there is no terminal. */
static void pin_from_prompt(const char *prompt, char *pin, size_t len)
{
    pin[0] = '\0';
    int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct termios old, quiet;
    bool echo_off = tcgetattr(fd, &old) == 0;
    if (echo_off) {
        quiet = old;
        quiet.c_lflag &= (tcflag_t) ~(ECHO | ECHONL);
        tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    ssize_t w = write(fd, prompt, strlen(prompt));
    size_t n = 0;
    char c;
    while (n + 1 < len && read(fd, &c, 1) == 1 && c != '\n')
        pin[n++] = c;
    pin[n] = '\0';
    if (echo_off)
        tcsetattr(fd, TCSAFLUSH, &old);
    w = write(fd, "\n", 1); /* the newline the user typed was not echoed */
    (void)w;
    close(fd);
}

/* Sends the request and prints what the daemon says; returns the exit status. */
static int ask(const char *socket, const char *line, int timeout_ms)
{
    static char answer[1 << 20], text[1 << 20];
    struct tb_error err = {0};
    int rc = tb_ctl_request_within(socket, line, timeout_ms, answer, sizeof answer, &err);
    if (rc < 0) {
        tb_cli_error("%s%s", err.msg,
                     rc == TB_ERR_SYS       ? " (is it running? --socket PATH)"
                     : rc == TB_ERR_TIMEOUT ? " (--timeout S waits longer)"
                                            : "");
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

/* set-pin's new PIN: TB_NEW_PIN, else --new-pin-file, else the prompt, typed twice. */
static int new_pin(struct ctl_args *a)
{
    const char *env = getenv("TB_NEW_PIN");
    if (a->new_pin_file) {
        if (pin_from_file("--new-pin-file", a->new_pin_file, a->new_pin, sizeof a->new_pin) != 0)
            return -1;
    } else if (env) {
        snprintf(a->new_pin, sizeof a->new_pin, "%s", env);
    } else {
        char again[sizeof a->new_pin];
        pin_from_prompt("new arbiter PIN: ", a->new_pin, sizeof a->new_pin);
        pin_from_prompt("the new PIN again: ", again, sizeof again);
        if (strcmp(a->new_pin, again) != 0) {
            tb_cli_error("set-pin: the two new PINs typed differ: nothing changed");
            return -1;
        }
    }
    const char *weak = tb_ctl_pin_weakness(a->new_pin);
    if (weak) {
        tb_cli_error("set-pin: the new PIN (%s) %s",
                     a->new_pin_file ? a->new_pin_file
                     : env           ? "TB_NEW_PIN"
                                     : "typed; without a terminal use TB_NEW_PIN or --new-pin-file",
                     weak);
        return -1;
    }
    return 0;
}

/* The socket of a configuration file; explicit: every problem is reported (else a file that
 * does not load is passed over). */
static int config_socket(const char *path, bool explicit, char *socket, size_t len)
{
    struct tb_config cfg;
    struct tb_config_report rep;
    struct tb_config_place place;
    struct tb_error err = {0};
    tb_config_place_from_env(&place);
    tb_config_defaults(&cfg, &place, NULL);
    int rc = tb_config_load(&cfg, path, &rep, &err);
    if (rc != TB_OK) {
        if (!explicit)
            return -1;
        for (int i = 0; i < rep.count && i < TB_CONFIG_MAX_PROBLEMS; i++)
            fprintf(stderr, "%s:%ld: %s\n", path, rep.problem[i].line, rep.problem[i].msg);
        tb_cli_error("-c %s: %s", path, err.msg);
        return -1;
    }
    snprintf(socket, len, "%s", cfg.socket_path);
    return 0;
}

/* Without --socket and -c: TWINBOARD_SOCKET, else the user's daemon's socket when it is there,
 * else the installed configuration's, else the service's; never /tmp. */
static const char *default_socket(char *buf, size_t len)
{
    const char *env = getenv("TWINBOARD_SOCKET");
    if (env && *env)
        return env;
    struct tb_config_place place;
    struct tb_config cfg;
    struct stat st;
    tb_config_place_from_env(&place);
    tb_config_defaults(&cfg, &place, NULL);
    if (cfg.socket_path[0] && lstat(cfg.socket_path, &st) == 0)
        snprintf(buf, len, "%s", cfg.socket_path);
    else if (config_socket(TB_CLI_SYSTEM_CONFIG, false, buf, len) != 0)
        snprintf(buf, len, "%s", TB_CONFIG_SERVICE_SOCKET);
    return buf;
}

/* Options, then the request's words, as the request's row says: its name, how many words
 * (TB_CTL_NEW_PIN: its one word, set-pin's new PIN, never from the command line but from
 * TB_NEW_PIN, a file or the prompt), and whether pin= goes last (TB_CTL_PIN) when a PIN is
 * known. */
int tb_cli_ctl(const struct tb_ctl_verb_info *v, int argc, char **argv)
{
    static char socket[TB_CONFIG_PATH_MAX];
    struct ctl_args a = {0};
    unsigned flags = v->flags;
    bool needs_pin = flags & TB_CTL_PIN;
    int typed = flags & TB_CTL_NEW_PIN ? 1 : 0; /* words not from the command line */
    int min = v->min_args - typed, max = v->max_args - typed;
    const char *opt_socket = NULL, *config = NULL;
    size_t used = (size_t)snprintf(a.line, sizeof a.line, "%s", v->name);
    int words = 0;
    enum { O_SOCKET = 256, O_PIN_FILE, O_TIMEOUT, O_PIN, O_NEW_PIN_FILE, O_NEW_PIN };
    static const struct option longs[] = {
        {"socket", required_argument, NULL, O_SOCKET},
        {"config", required_argument, NULL, 'c'},
        {"pin-file", required_argument, NULL, O_PIN_FILE},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"pin", optional_argument, NULL, O_PIN},
        {"new-pin-file", required_argument, NULL, O_NEW_PIN_FILE}, /* set-pin only */
        {"new-pin", optional_argument, NULL, O_NEW_PIN},           /* set-pin only: refused */
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "c:", longs)) != -1) {
        if ((c == O_NEW_PIN_FILE || c == O_NEW_PIN) && !(flags & TB_CTL_NEW_PIN)) {
            tb_cli_error("%s: unknown option %s", argv[0], argv[optind - 1]);
            return TB_CLI_USAGE;
        } else if (c == 1 && !strncmp(optarg, "pin=", 4)) {
            tb_cli_error("%s: no pin= here: a PIN on the command line is seen by every user (ps); "
                         "use TB_PIN, --pin-file FILE or the prompt",
                         argv[0]);
            return TB_CLI_USAGE;
        } else if (c == 1) { /* a word of the request, in its place among the options */
            words++;
            /* a word with blanks (a tag value, a reason) goes in double quotes */
            const char *q = strpbrk(optarg, " \t") ? "\"" : "";
            used += (size_t)snprintf(a.line + used, used < sizeof a.line ? sizeof a.line - used : 0,
                                     " %s%s%s", q, optarg, q);
        } else if (c == O_SOCKET) {
            opt_socket = optarg;
        } else if (c == 'c') {
            config = optarg;
        } else if (c == O_PIN_FILE) {
            a.pin_file = optarg;
        } else if (c == O_NEW_PIN_FILE) {
            a.new_pin_file = optarg;
        } else if (c == O_TIMEOUT) {
            char *end;
            double sec = strtod(optarg, &end);
            if (*end || !(sec > 0 && sec <= 3600)) {
                tb_cli_error("--timeout %s: seconds, more than 0 and at most 3600", optarg);
                return TB_CLI_USAGE;
            }
            a.timeout_ms = (int)(sec * 1000 + 0.5);
        } else if (c == O_NEW_PIN) {
            tb_cli_error("--new-pin: a PIN on the command line is seen by every user (ps); use "
                         "TB_NEW_PIN, --new-pin-file FILE or the prompt");
            return TB_CLI_USAGE;
        } else if (c == O_PIN) {
            tb_cli_error("--pin is gone: a PIN on the command line is seen by every user (ps); "
                         "use TB_PIN, --pin-file FILE or the prompt");
            return TB_CLI_USAGE;
        } else {
            return tb_cli_usage(argv[0]);
        }
    }
    if (opt_socket) {
        a.socket = opt_socket;
    } else if (config) {
        if (config_socket(config, true, socket, sizeof socket) != 0)
            return TB_CLI_USAGE;
        a.socket = socket;
    } else {
        a.socket = default_socket(socket, sizeof socket);
    }
    if (words < min || words > max)
        return tb_cli_usage(argv[0]);
    if ((flags & TB_CTL_NEW_PIN) && new_pin(&a) != 0)
        return TB_CLI_USAGE;
    if (flags & TB_CTL_NEW_PIN) /* on the socket only, never on the command line */
        used += (size_t)snprintf(a.line + used, used < sizeof a.line ? sizeof a.line - used : 0,
                                 " %s", a.new_pin);
    if (needs_pin) { /* TB_PIN (set, even empty: no prompt), else --pin-file, else the prompt */
        const char *env = getenv("TB_PIN");
        if (a.pin_file) {
            if (pin_from_file("--pin-file", a.pin_file, a.pin, sizeof a.pin) != 0)
                return TB_CLI_USAGE;
        } else if (env) {
            snprintf(a.pin, sizeof a.pin, "%s", env);
        } else {
            pin_from_prompt("arbiter PIN: ", a.pin, sizeof a.pin);
        }
        if (a.pin[0])
            used += (size_t)snprintf(a.line + used, used < sizeof a.line ? sizeof a.line - used : 0,
                                     " pin=%s", a.pin);
    }
    if (used + 1 >= sizeof a.line) {
        tb_cli_error("the request is too long");
        return TB_CLI_USAGE;
    }
    return ask(a.socket, a.line, a.timeout_ms);
}
