/* cmd_flash.c - `twinboard flash [--hex FILE] [--baud N] [PORT]`: writes the reed board's firmware
 * image to its Arduino Nano through the bootloader with avrdude (Debian's `avrdude`), so a maker
 * needs no compiler: avrdude -c arduino -p m328p -P PORT -b BAUD -D -U flash:w:FILE:i.
 *
 * The image is --hex FILE, else the one this build made (TB_FIRMWARE_HEX), else the one the
 * package installed (TB_FIRMWARE_HEX_INSTALLED). PORT defaults to /dev/ttyUSB0; BAUD is 115200
 * (the current Nano bootloader) or 57600 (the old one). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#ifndef TB_FIRMWARE_HEX
#define TB_FIRMWARE_HEX "reedboard.hex"
#endif
#ifndef TB_FIRMWARE_HEX_INSTALLED
#define TB_FIRMWARE_HEX_INSTALLED "/usr/share/twinboard/firmware/reedboard.hex"
#endif

static int options(int argc, char **argv, const char **hex, const char **port, long *baud)
{
    enum { O_HEX = 256, O_BAUD };
    static const struct option longs[] = {{"hex", required_argument, NULL, O_HEX},
                                          {"baud", required_argument, NULL, O_BAUD},
                                          {NULL, 0, NULL, 0}};
    int c, nports = 0;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        if (c == 1 && nports++ == 0) {
            *port = optarg;
        } else if (c == O_HEX) {
            *hex = optarg;
        } else if (c == O_BAUD) {
            if (!tb_cli_parse_int(optarg, 0, 1000000, baud) ||
                (*baud != 115200 && *baud != 57600)) {
                tb_cli_error("flash: --baud '%s': give 115200 (the current Nano bootloader) or "
                             "57600 (the old one)",
                             optarg);
                return TB_CLI_USAGE;
            }
        } else {
            if (c == 1)
                tb_cli_error("flash: one serial port, not '%s' as well", optarg);
            return TB_CLI_USAGE;
        }
    }
    return TB_CLI_OK;
}

int tb_cli_cmd_flash(int argc, char **argv)
{
    const char *hex = NULL, *port = "/dev/ttyUSB0";
    long baud = 115200;
    if (options(argc, argv, &hex, &port, &baud) != TB_CLI_OK)
        return tb_cli_usage("flash");
    struct stat st;
    if (!hex)
        hex = stat(TB_FIRMWARE_HEX, &st) == 0 ? TB_FIRMWARE_HEX : TB_FIRMWARE_HEX_INSTALLED;
    if (stat(hex, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        tb_cli_error("flash: no firmware image at %s: give --hex FILE, or build it (cmake --build "
                     "build --target reedboard_elf)",
                     hex);
        return TB_CLI_USAGE;
    }
    if (stat(port, &st) != 0 || !S_ISCHR(st.st_mode)) {
        tb_cli_error("flash: %s is not a serial device: is the board plugged in? (ls /dev/ttyUSB* "
                     "/dev/ttyACM*)",
                     port);
        return TB_CLI_USAGE;
    }
    char baud_s[16], write_s[4096 + 32];
    snprintf(baud_s, sizeof baud_s, "%ld", baud);
    if (snprintf(write_s, sizeof write_s, "flash:w:%s:i", hex) >= (int)sizeof write_s) {
        tb_cli_error("flash: the image's path is too long");
        return TB_CLI_USAGE;
    }
    char *const args[] = {"avrdude", "-c",   "arduino", "-p", "m328p", "-P", (char *)port,
                          "-b",      baud_s, "-D",      "-U", write_s, NULL};
    printf("writing %s to the ATmega328P on %s at %ld baud\n", hex, port, baud);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        tb_cli_error("flash: cannot start avrdude: %s", strerror(errno));
        return TB_CLI_USAGE;
    }
    if (pid == 0) {
        execvp("avrdude", args);
        fprintf(stderr,
                "twinboard: flash: avrdude is not installed (apt-get install avrdude): %s\n",
                strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("done: the board restarts with the new firmware\n");
        return TB_CLI_OK;
    }
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 127))
        tb_cli_error("flash: avrdude failed; a Nano with the other bootloader answers at %s baud: "
                     "--baud %s",
                     baud == 115200 ? "57600" : "115200", baud == 115200 ? "57600" : "115200");
    return TB_CLI_FOUND;
}
