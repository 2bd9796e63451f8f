/* main.c - `twinboard`: the command-line tool. Dispatches to the commands listed in cli.h. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_ctl.h"
#include "tb_file.h"

struct command {
    const char *name; /* NULL: a request without a command (help) */
    const char *args;
    const char *summary;
    int (*run)(int argc, char **argv);
    enum tb_ctl_verb verb; /* a control request's (run NULL) */
};

static const struct command commands[] = {
#define TB_CLI_ENTRY(fn, name, args, summary)                                                      \
    {name, args, summary, tb_cli_cmd_##fn, TB_CTL_NO_VERB},
    TB_CLI_COMMANDS(TB_CLI_ENTRY)
#undef TB_CLI_ENTRY
#define TB_CLI_CTL(id, name, min, max, flags, h, usage, cli, cli_args, cli_summary)                \
    {cli, cli_args, cli_summary, NULL, TB_CTL_##id},
        TB_CTL_VERBS(TB_CLI_CTL)
#undef TB_CLI_CTL
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

void tb_cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("twinboard: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].name && strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int tb_cli_usage(const char *name)
{
    const struct command *c = find(name);
    if (c)
        fprintf(stderr, "usage: twinboard %s %s\n", c->name, c->args);
    return TB_CLI_USAGE;
}

char *tb_cli_read_file(const char *path, size_t *len)
{
    char *text;
    struct tb_error err = {0};
    if (tb_read_file(path, &text, len, &err) != TB_OK) {
        tb_cli_error("%s", err.msg);
        return NULL;
    }
    return text;
}

int tb_cli_parse_int(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

int tb_cli_getopt(int argc, char **argv, const char *shorts, const struct option *longs)
{
    char spec[32];
    snprintf(spec, sizeof spec, "-:%s", shorts); /* operands in place, ':' for a missing value */
    opterr = 0;
    int c = getopt_long(argc, argv, spec, longs, NULL);
    if (c == '?' || c == ':') {
        const char *what = argv[optind - 1];
        if (c == '?' && optopt && !(what[0] == '-' && what[1] == '-'))
            tb_cli_error("%s: unknown option -%c", argv[0], optopt);
        else
            tb_cli_error("%s: %s %s", argv[0], c == ':' ? "missing value for" : "unknown option",
                         what);
        return '?';
    }
    return c;
}

static void list_commands(FILE *to)
{
    int w = 4; /* "help"; the summaries in one column after the longest name */
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].name && (int)strlen(commands[i].name) > w)
            w = (int)strlen(commands[i].name);
    fputs("usage: twinboard [-c FILE|--socket PATH] [--timeout S] [--pin-file F] COMMAND "
          "[ARGS...]\n\ncommands:\n",
          to);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].name)
            fprintf(to, "  %-*s %s\n", w, commands[i].name, commands[i].summary);
    fprintf(to,
            "  %-*s list the commands, or show how to use one: help COMMAND\n\n"
            "Exit status: 0 success, 1 problems found in the input, 2 usage or file error.\n",
            w, "help");
}

static int help(int argc, char **argv)
{
    if (argc < 3) {
        list_commands(stdout);
        return TB_CLI_OK;
    }
    const struct command *c = find(argv[2]);
    if (!c) {
        tb_cli_error("no command '%s'; 'twinboard help' lists them", argv[2]);
        return TB_CLI_USAGE;
    }
    printf("usage: twinboard %s %s\n  %s\n", c->name, c->args, c->summary);
    return TB_CLI_OK;
}

/* The options every control command takes, given before the command ("twinboard --socket P
 * status", "twinboard -c FILE games"): how many words the option at argv[i] takes, 0 if it is
 * none of them. */
static int global_words(const char *a)
{
    static const char *const longs[] = {"--config", "--socket", "--timeout", "--pin-file"};
    if (!strcmp(a, "-c"))
        return 2;
    if (!strncmp(a, "-c", 2) && a[2])
        return 1;
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
        size_t n = strlen(longs[i]);
        if (!strncmp(a, longs[i], n) && (!a[n] || a[n] == '='))
            return a[n] ? 1 : 2;
    }
    return 0;
}

/* Moves the global options given before the command behind it, where the command parses them
 * with its own; an option without its value is left for the command to report. */
static void globals_after_command(int argc, char **argv)
{
    int i = 1, take;
    while (i < argc && (take = global_words(argv[i])) > 0 && i + take <= argc)
        i += take;
    if (i == 1 || i >= argc)
        return;
    char *cmd = argv[i]; /* the command, then the options, then the rest */
    memmove(argv + 2, argv + 1, sizeof *argv * (size_t)(i - 1));
    argv[1] = cmd;
}

int main(int argc, char **argv)
{
    globals_after_command(argc, argv);
    if (argc < 2) {
        list_commands(stderr);
        return TB_CLI_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h"))
        return help(argc, argv);
    if (!strcmp(name, "--version")) {
        puts("twinboard " TB_VERSION);
        return TB_CLI_OK;
    }
    const struct command *c = find(name);
    if (!c) {
        tb_cli_error("no command '%s'; 'twinboard help' lists them", name);
        return TB_CLI_USAGE;
    }
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        printf("usage: twinboard %s %s\n  %s\n", c->name, c->args, c->summary);
        return TB_CLI_OK;
    }
    optind = 1; /* each command parses its own arguments from the start */
    int rc = c->run ? c->run(argc - 1, argv + 1)
                    : tb_cli_ctl(tb_ctl_verb_info(c->verb), argc - 1, argv + 1);
    if (fflush(stdout) != 0) {
        tb_cli_error("cannot write the output: %s", strerror(errno));
        return TB_CLI_USAGE;
    }
    return rc;
}
