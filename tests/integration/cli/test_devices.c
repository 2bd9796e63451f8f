/* `twinboard devices` and `twinboard board-id` on one machine with every kind of board the udev
 * rules name (TWINBOARD_DEV_DIR stands for /dev/twinboard): a DGT board, a ChessLink board (a
 * local rule's name; a Chessnut board is found on USB HID only), two reed boards running
 * the real firmware in simavr (one with an identity, one without), an unrelated Arduino on the
 * same USB-serial chip (a tty that chatters its own text), and a candidate another program has
 * open. Each is shown for what it is, by the resource to put in the configuration. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tb_run.h"
#include "tb_test.h"

static char out[16384];

/* A reed board in simavr, its pty linked as path; serial 0: no identity. */
static pid_t reed_board(const char *path, unsigned serial)
{
    char s[16];
    snprintf(s, sizeof s, "%u", serial);
    int o[2];
    ASSERT_OK(pipe(o));
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        dup2(o[1], STDOUT_FILENO);
        close(o[0]);
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, STDIN_FILENO);
        if (serial)
            execl(REEDBOARD_SIM, REEDBOARD_SIM, "--elf", REEDBOARD_ELF, "--pty", "--link", path,
                  "--serial", s, (char *)NULL);
        else
            execl(REEDBOARD_SIM, REEDBOARD_SIM, "--elf", REEDBOARD_ELF, "--pty", "--link", path,
                  (char *)NULL);
        _exit(127);
    }
    close(o[1]);
    char buf[256];
    struct pollfd p = {.fd = o[0], .events = POLLIN};
    if (poll(&p, 1, tb_test_ms(10000)) <= 0 || read(o[0], buf, sizeof buf) <= 0)
        TB_FAIL("reedboard-sim did not start");
    close(o[0]);
    return pid;
}

/* A pseudo-terminal held by the test, linked as path: its master end. */
static int plain_tty(const char *path)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    ASSERT_GE(m, 0);
    ASSERT_OK(grantpt(m));
    ASSERT_OK(unlockpt(m));
    unlink(path);
    ASSERT_OK(symlink(ptsname(m), path));
    return m;
}

TB_TEST(devices_shows_each_board_for_what_it_is)
{
    char dev[400], p[700];
    snprintf(dev, sizeof dev, "%s/dev", tb_test_tmp_dir());
    mkdir(dev, 0755);
    snprintf(p, sizeof p, "%s/candidate-ttyUSB0", dev);
    pid_t with_id = reed_board(p, 40213377);
    snprintf(p, sizeof p, "%s/candidate-ttyUSB1", dev);
    pid_t without = reed_board(p, 0);
    /* an Arduino running a sketch of its own on a CH340: it writes text, never a reed frame */
    snprintf(p, sizeof p, "%s/candidate-ttyUSB2", dev);
    int arduino = plain_tty(p);
    for (int i = 0; i < 40; i++)
        ASSERT_EQ(write(arduino, "temp=21.5\r\n", 11), 11);
    /* a candidate another program holds (a running daemon's board) */
    snprintf(p, sizeof p, "%s/candidate-usb-A10KZ3Q1", dev);
    int held_master = plain_tty(p);
    int held = open(p, O_RDWR | O_NOCTTY);
    ASSERT_GE(held, 0);
    ASSERT_OK(flock(held, LOCK_EX | LOCK_NB));
    snprintf(p, sizeof p, "%s/dgt-12345", dev);
    int dgt = plain_tty(p);
    snprintf(p, sizeof p, "%s/chesslink", dev); /* a local rule's name for a ChessLink board */
    int chesslink = plain_tty(p);

    ASSERT_EQ(tb_run(out, sizeof out, "TWINBOARD_DEV_DIR=%s %s devices 2>&1", dev, TB_TWINBOARD),
              0);
    char want[2048];
    snprintf(want, sizeof want, "  dgt:%s/dgt-12345\ta DGT e-board\n", dev);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want, "  chesslink:%s/chesslink\ta Millennium ChessLink board\n", dev);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want,
             "  reed:id=40213377\ta twinboard reed board, identity 40213377, firmware 1.0.0, now "
             "on %s/candidate-ttyUSB0\n",
             dev);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want,
             "  pty:%s/candidate-ttyUSB1\ta twinboard reed board with no identity yet (firmware "
             "1.0.0): give it one with twinboard board-id %s/candidate-ttyUSB1\n",
             dev, dev);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want,
             "  %s/candidate-ttyUSB2\tnot a reed board: a device on a USB-serial chip that did "
             "not answer the reed board's protocol in 3 s\n",
             dev);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want, "  %s/candidate-usb-A10KZ3Q1\tin use by another program", dev);
    ASSERT_STR_CONTAINS(out, want);
    int reed_ids = 0; /* the board with an identity only: nothing else is taken for one */
    for (const char *q = out; (q = strstr(q, "reed:id=")); q++)
        reed_ids++;
    ASSERT_EQ(reed_ids, 1);

    /* the board without an identity is given one, keeps it, and refuses another */
    ASSERT_EQ(tb_run(out, sizeof out, "%s board-id %s/candidate-ttyUSB1 7 2>&1", TB_TWINBOARD, dev),
              0);
    ASSERT_STR_CONTAINS(out, "reed board identity 7 (firmware 1.0.0); in the configuration: "
                             "board = reed:id=7\n");
    ASSERT_EQ(tb_run(out, sizeof out, "%s board-id %s/candidate-ttyUSB1 8 2>&1", TB_TWINBOARD, dev),
              1);
    ASSERT_STR_CONTAINS(out, "keeps the identity 7 it has");
    ASSERT_EQ(tb_run(out, sizeof out, "%s board-id %s/candidate-ttyUSB1 0 2>&1", TB_TWINBOARD, dev),
              2);
    ASSERT_STR_CONTAINS(out, "ID must be a number from 1 to 4294967294, or new, not '0'");
    snprintf(p, sizeof p, "%s/candidate-ttyUSB2", dev);
    ASSERT_OK(unlink(p)); /* the Arduino unplugged: its 3 s of asking are not waited for again */
    ASSERT_EQ(tb_run(out, sizeof out, "TWINBOARD_DEV_DIR=%s %s devices 2>&1", dev, TB_TWINBOARD),
              0);
    ASSERT_STR_CONTAINS(out, "  reed:id=7\ta twinboard reed board, identity 7, firmware 1.0.0");

    kill(with_id, SIGTERM);
    kill(without, SIGTERM);
    waitpid(with_id, NULL, 0);
    waitpid(without, NULL, 0);
    close(arduino);
    close(held);
    close(held_master);
    close(dgt);
    close(chesslink);
}
