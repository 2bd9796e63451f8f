/* twinboardd - the twinboard daemon. For now it checks configuration files; the event loop
 * over the board links, the control socket and the journal comes with the match module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_config.h"
#include "tb_link.h"

static void usage(FILE *out)
{
    fputs("usage: twinboardd --check-config FILE   check a configuration file, name every "
          "problem\n"
          "       twinboardd --help                 this text\n"
          "\n"
          "The configuration format is described in docs/configuration.md.\n",
          out);
}

/* A sim: board's script is read and parsed now, so its problems show before the game; serial,
 * pty and USB boards are not opened: they may not be plugged in yet. */
static int check_scripts(const char *path, const struct tb_config *cfg)
{
    int bad = 0;
    for (int r = 0; r < 2; r++) {
        const struct tb_config_player *p = &cfg->player[r];
        struct tb_link_resource res;
        if (tb_link_resource_parse(p->board, &res, NULL) != TB_OK || res.kind != TB_LINK_SIM)
            continue;
        struct tb_link *link;
        struct tb_error err = {0};
        if (tb_link_open(&link, p->board, tb_config_role_name((enum tb_config_role)r), 0, &err) !=
            TB_OK) {
            printf("%s:%ld: board %s: %s\n", path, p->board_line, p->board, err.msg);
            bad = 1;
        }
        tb_link_close(link);
    }
    return bad;
}

static int check_config(const char *path)
{
    struct tb_config cfg;
    struct tb_config_report rep;
    struct tb_error err = {0};
    tb_config_defaults(&cfg, getenv("XDG_RUNTIME_DIR"), getenv("XDG_STATE_HOME"), NULL);
    int rc = tb_config_load(&cfg, path, &rep, &err);
    if (rc == TB_ERR_PARSE && rep.count) {
        int shown = rep.count < TB_CONFIG_MAX_PROBLEMS ? rep.count : TB_CONFIG_MAX_PROBLEMS;
        for (int i = 0; i < shown; i++)
            printf("%s:%ld: %s\n", path, rep.problem[i].line, rep.problem[i].msg);
        if (rep.count > shown)
            printf("%s: %d more problems not shown\n", path, rep.count - shown);
        return 1;
    }
    if (rc != TB_OK) {
        fprintf(stderr, "twinboardd: %s\n", err.msg);
        return 1;
    }
    if (check_scripts(path, &cfg) != 0)
        return 1;
    char summary[1024];
    tb_config_summary(&cfg, summary, sizeof summary);
    printf("%s: ok\n%s\n", path, summary);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--check-config") == 0)
        return check_config(argv[2]);
    usage(stderr);
    return 2;
}
