/* The programs as people run them: `twinboard demo` end to end, and the control commands of
 * `twinboard` against a running twinboardd. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_test.h"

static char out[1 << 20];

/* Runs a shell command; its stdout and stderr into out; returns the exit status. */
static int run(const char *cmd)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    ASSERT_NOT_NULL(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void demo(const char *mode, const char *name)
{
    char dir[600], cmd[2048], wav[700];
    snprintf(dir, sizeof dir, "%s/%s", tb_test_tmp_dir(), name);
    /* the firmware runs in real time: on a busy machine the game takes longer */
    snprintf(cmd, sizeof cmd, "TB_DEMO_NO_PA=1 %s demo %s --keep %s --limit %d", TB_TWINBOARD, mode,
             dir, tb_test_ms(200000) / 1000);
    int rc = run(cmd);
    if (rc != 0)
        TB_FAIL("demo %s: exit %d\n%s", mode, rc, out);
    ASSERT_STR_CONTAINS(out, "MISMATCH 1 (wrong-move) on the sighted board (Black)");
    ASSERT_STR_CONTAINS(out, "since:  move 4, White (ply 7)");
    ASSERT_STR_CONTAINS(out, "demo (arbiter): TB_PIN=246813 twinboard resolve 1");
    ASSERT_STR_CONTAINS(out, "demo (arbiter): ok");
    ASSERT_STR_CONTAINS(out, "RESOLVED 1");
    /* D.2.9: the board is put right as the instruction says (the pawn from d3 on to d4), so the
     * move is agreed at once and nobody is reminded to make it */
    ASSERT_STR_CONTAINS(out, "sighted player (Black): move the piece on d3 to d4");
    ASSERT_STR_CONTAINS(out, "say to sighted (Black): Bitte korrigieren: weißen Bauern von David "
                             "drei nehmen, weißen Bauern auf David vier stellen");
    ASSERT_STR_CONTAINS(strstr(out, "RESOLVED 1"), "agreed: 4. d4 (d2d4)");
    ASSERT_NULL(strstr(strstr(out, "RESOLVED 1"), "Bitte nachziehen"));
    ASSERT_STR_CONTAINS(out, "say to sighted (Black): Springer Gustav eins Felix drei");
    ASSERT_STR_CONTAINS(out, "say to vi (White): Lange Rochade");
    ASSERT_STR_CONTAINS(out, "13. Qb7# 1-0");
    ASSERT_STR_CONTAINS(out, "[Result \"1-0\"]");
    struct stat st;
    snprintf(wav, sizeof wav, "%s/vi.wav", dir);
    ASSERT_OK(stat(wav, &st));
    ASSERT_GT(st.st_size, 44);
    snprintf(wav, sizeof wav, "%s/sighted.wav", dir);
    ASSERT_OK(stat(wav, &st));
    ASSERT_GT(st.st_size, 44);
}

TB_TEST(demo_with_script_boards)
{
    demo("--sim", "demo-sim");
}

#ifdef TB_WITH_FIRMWARE
/* The README's main job: the real firmware in simavr behind pseudo-terminals. */
TB_TEST(demo_with_firmware_boards)
{
    demo("", "demo-fw");
}
#endif

TB_TEST(control_commands_against_the_daemon)
{
    char dir[600], script[700], config[700], sock[700], cmd[2048];
    snprintf(dir, sizeof dir, "%s/ctl", tb_test_tmp_dir());
    mkdir(dir, 0755);
    snprintf(script, sizeof script, "%s/game.txt", dir);
    snprintf(config, sizeof config, "%s/twinboard.ini", dir);
    snprintf(sock, sizeof sock, "%s/control", dir);
    FILE *f = fopen(script, "w");
    ASSERT_NOT_NULL(f);
    fputs("1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
          "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n",
          f);
    ASSERT_OK(fclose(f));
    f = fopen(config, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f,
            "[daemon]\nsocket = %s\njournal_dir = %s/journal\nblip_window_ms = 100\n"
            "[arbiter]\npin = 471193\n[player vi]\nboard = sim:%s?speed=fast\n"
            "[player sighted]\nboard = sim:%s?speed=fast\n",
            sock, dir, script, script);
    ASSERT_OK(fclose(f));
    pid_t pid = fork();
    if (pid == 0) {
        execl(TB_TWINBOARDD, TB_TWINBOARDD, "-c", config, "--audio", "none", "--log-level", "warn",
              (char *)NULL);
        _exit(127);
    }
    /* wait for the socket and the two moves */
    int ok = 0;
    for (int i = 0; i < tb_test_ms(250) && !ok; i++) {
        snprintf(cmd, sizeof cmd, "%s moves --socket %s", TB_TWINBOARD, sock);
        ok = run(cmd) == 0 && strstr(out, "1... e5");
        struct timespec ts = {0, 20 * 1000 * 1000};
        if (!ok)
            nanosleep(&ts, NULL);
    }
    ASSERT_TRUE(ok);
    ASSERT_STR_CONTAINS(out, "1. e4 (e2e4)\n1... e5 (e7e5)\n");
    snprintf(cmd, sizeof cmd, "%s status --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 0);
    ASSERT_STR_CONTAINS(out, "game: 2 plies agreed, White to move");
    snprintf(cmd, sizeof cmd, "%s pgn --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 0);
    ASSERT_STR_CONTAINS(out, "1. e4 e5 *");
    snprintf(cmd, sizeof cmd, "%s sheet nl --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 0);
    ASSERT_STR_CONTAINS(out, "e4");
    snprintf(cmd, sizeof cmd, "TB_PIN= %s takeback 1 --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 1);
    ASSERT_STR_CONTAINS(out, "PIN");
    snprintf(cmd, sizeof cmd, "TB_PIN=471193 %s takeback 1 --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s moves --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 0);
    ASSERT_STR_EQ(out, "1. e4 (e2e4)\n");
    snprintf(cmd, sizeof cmd, "%s promote x --socket %s", TB_TWINBOARD, sock);
    ASSERT_EQ(run(cmd), 1);
    snprintf(cmd, sizeof cmd, "%s status --socket %s/nowhere", TB_TWINBOARD, dir);
    ASSERT_EQ(run(cmd), 2);
    ASSERT_STR_CONTAINS(out, "cannot reach twinboardd");
    ASSERT_OK(kill(pid, SIGTERM));
    int st;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT_TRUE(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0);
}
