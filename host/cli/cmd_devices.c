/* cmd_devices.c - `twinboard devices`: the audio output devices, by the names to put in the
 * configuration ([player vi] audio = NAME); without a sound card it says so. Then the boards
 * plugged in, by the resources to put in it (board = RESOURCE). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tb_link.h"
#include "tb_voice.h"

static void print_device(void *arg, const char *name, int channels, double rate)
{
    int *n = arg;
    if ((*n)++ == 0)
        printf("audio output devices (put a name in the configuration: audio = NAME):\n");
    printf("  %s\t%d channel%s, %.0f Hz\n", name, channels, channels == 1 ? "" : "s", rate);
}

static void print_board(void *arg, const char *resource, const char *what)
{
    int *n = arg;
    if ((*n)++ == 0)
        printf("boards (put a resource in the configuration: board = RESOURCE):\n");
    printf("  %s\t%s\n", resource, what);
}

int tb_cli_cmd_devices(int argc, char **argv)
{
    if (argc > 1) {
        tb_cli_error("%s: unexpected argument %s", argv[0], argv[1]);
        return tb_cli_usage("devices");
    }
    struct tb_error err = {0};
    int shown = 0;
    if (tb_voice_portaudio_devices(print_device, &shown, &err) < 0) {
        tb_cli_error("devices: %s", err.msg);
        return TB_CLI_USAGE;
    }
    if (!shown)
        printf("no audio output devices: this machine has no sound card that the sound system "
               "shows.\nPlug in the headsets, or use audio = wav:FILE (a file) or audio = null "
               "(silent) in the configuration.\n");
    int boards = 0;
    tb_link_find_boards(print_board, &boards);
    if (!boards)
        printf("no boards found: no /dev/twinboard names, no DGT or ChessLink serial device, no "
               "Chessnut board.\n");
    return TB_CLI_OK;
}
