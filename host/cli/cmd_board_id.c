/* cmd_board_id.c - `twinboard board-id TTY [ID|new]`: who the reed board on TTY is (the identity
 * kept in its EEPROM and its firmware), and, for a board that has none, giving it one: the
 * configuration then names the board by it (board = reed:id=ID) wherever it is plugged in. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "cli.h"
#include "tb_link.h"

/* A random identity of up to eight digits: short to read out, two boards of one club unlikely
 * to share one (and `twinboard devices` would show it). */
static int random_id(uint32_t *out)
{
    uint32_t r;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
        return -1;
    *out = 1 + r % 99999999u;
    return 0;
}

int tb_cli_cmd_board_id(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        tb_cli_error("%s: %s", argv[0],
                     argc < 2 ? "which tty? e.g. /dev/ttyUSB0" : "too many arguments");
        return tb_cli_usage("board-id");
    }
    uint32_t id = 0;
    long v = 0;
    if (argc == 3 && strcmp(argv[2], "new") == 0) {
        if (random_id(&id) != 0) {
            tb_cli_error("%s: no random number from the system; give an ID", argv[0]);
            return TB_CLI_USAGE;
        }
    } else if (argc == 3) {
        if (!tb_cli_parse_int(argv[2], 1, 4294967294L, &v)) {
            tb_cli_error("%s: ID must be a number from 1 to 4294967294, or new, not '%s'", argv[0],
                         argv[2]);
            return tb_cli_usage("board-id");
        }
        id = (uint32_t)v;
    }
    struct tb_link_reed_identity who;
    struct tb_error err = {0};
    int rc = tb_link_reed_identify(argv[1], id, &who, &err);
    if (rc != TB_OK) {
        tb_cli_error("%s", err.msg);
        return rc == TB_ERR_ILLEGAL ? TB_CLI_FOUND : TB_CLI_USAGE;
    }
    if (!who.id)
        printf("%s: a reed board with no identity yet (firmware %u.%u.%u); give it one with "
               "twinboard board-id %s new\n",
               argv[1], who.fw_major, who.fw_minor, who.fw_patch, argv[1]);
    else
        printf("%s: reed board identity %lu (firmware %u.%u.%u); in the configuration: board = "
               "reed:id=%lu\n",
               argv[1], (unsigned long)who.id, who.fw_major, who.fw_minor, who.fw_patch,
               (unsigned long)who.id);
    return TB_CLI_OK;
}
