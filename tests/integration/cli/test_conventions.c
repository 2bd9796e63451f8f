/* The command-line conventions of every program (getopt_long): "--opt=value" as well as
 * "--opt value", an unknown option or a missing value a usage error (exit 2, the usage shown),
 * --version; and the control commands find the daemon's socket from its configuration
 * (-c FILE / --config=FILE), from TWINBOARD_SOCKET, or from --socket. Runs the real programs. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_run.h"
#include "tb_test.h"

#define OUT_MAX (1 << 16)
static char out[OUT_MAX];

TB_TEST(every_long_option_takes_its_value_after_an_equals_sign)
{
    /* twinboard's tools */
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' say --pack=en --short e2e4 2>&1", TB_TWINBOARD), 0);
    ASSERT_STR_EQ(out, "Eva four\n");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' say --pack en --short e2e4 2>&1", TB_TWINBOARD), 0);
    ASSERT_STR_EQ(out, "Eva four\n");
    tb_run_write_file(tb_test_tmp("e4.script"), "0 vi lift e2\n100 vi place e4\n");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' replay --events=%s --blip-ms=50 2>&1", TB_TWINBOARD,
                     tb_test_tmp("e4.script")),
              0);
    ASSERT_STR_CONTAINS(out, "e2e4");
    tb_run_write_file(tb_test_tmp("g.pgn"), "[Event \"t\"]\n\n1. e4 e5 2. Nf3 *\n");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' scoresheet --letters=de --game=1 %s 2>&1", TB_TWINBOARD,
                     tb_test_tmp("g.pgn")),
              0);
    ASSERT_STR_CONTAINS(out, "Sf3");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' events-from-pgn --seed=3 --board=vi %s 2>&1", TB_TWINBOARD,
                     tb_test_tmp("g.pgn")),
              0);
    ASSERT_STR_CONTAINS(out, "vi lift e2");
    /* the daemon */
    tb_run_write_file(tb_test_tmp("ok.ini"), "[arbiter]\npin = 371946\n");
    ASSERT_EQ(
        tb_run(out, OUT_MAX, "'%s' --check-config=%s 2>&1", TB_TWINBOARDD, tb_test_tmp("ok.ini")),
        0);
    ASSERT_STR_CONTAINS(out, ": ok");
}

TB_TEST(unknown_options_and_missing_values_are_usage_errors)
{
    static const char *const bad[] = {
        "say --bogus e4",           "say e4 --rate",       "replay --events", "perft --depth=3 1",
        "scoresheet --letters",     "status --nope",       "status --socket", "devices extra",
        "pgn-check --strict x.pgn", "demo --realtime=yes",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = tb_run(out, OUT_MAX, "'%s' %s 2>&1", TB_TWINBOARD, bad[i]);
        if (rc != 2 || !strstr(out, "usage: twinboard"))
            TB_FAIL("twinboard %s: exit %d, %s", bad[i], rc, out);
    }
    static const char *const dbad[] = {"--bogus", "--speed", "--speed=slow",
                                       "-c",      "extra",   "--audio=alsa"};
    for (size_t i = 0; i < sizeof dbad / sizeof dbad[0]; i++) {
        int rc = tb_run(out, OUT_MAX, "'%s' %s 2>&1", TB_TWINBOARDD, dbad[i]);
        if (rc != 2 || !strstr(out, "usage: twinboardd"))
            TB_FAIL("twinboardd %s: exit %d, %s", dbad[i], rc, out);
    }
    static const struct {
        const char *path, *name;
    } programs[] = {
        {TB_TWINBOARDD, "twinboardd"},         {TB_TWINBOARD, "twinboard"},
#ifdef TB_TWINBOARD_HALL
        {TB_TWINBOARD_HALL, "twinboard-hall"},
#endif
    /* the simulators of the test suite too */
#ifdef TB_REEDBOARD_SIM
        {TB_REEDBOARD_SIM, "reedboard-sim"},
#endif
#ifdef TB_DGTBOARD_SIM
        {TB_DGTBOARD_SIM, "dgtboard-sim"},
#endif
    };
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s " TB_VERSION "\n", programs[i].name);
        ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' --version", programs[i].path), 0);
        ASSERT_STR_EQ(out, want);
        snprintf(want, sizeof want, "usage: %s", programs[i].name);
        ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' --help", programs[i].path), 0);
        ASSERT_STR_CONTAINS(out, want);
    }
#ifdef TB_TWINBOARD_HALL
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' --port 2>&1", TB_TWINBOARD_HALL), 2);
    ASSERT_STR_CONTAINS(out, "usage: twinboard-hall");
#endif
}

/* ---- the socket from the configuration ---- */

static pid_t daemon_pid;

static void stop_daemon(void)
{
    if (daemon_pid > 0) {
        kill(daemon_pid, SIGTERM);
        waitpid(daemon_pid, NULL, 0);
        daemon_pid = 0;
    }
}

/* twinboardd -c INI in the background; returns once its socket exists. */
static void start_daemon(const char *ini, const char *socket)
{
    daemon_pid = fork();
    ASSERT_GE(daemon_pid, 0);
    if (daemon_pid == 0) {
        if (!freopen(tb_test_tmp("daemon.log"), "w", stderr))
            _exit(126);
        execl(TB_TWINBOARDD, TB_TWINBOARDD, "-c", ini, (char *)NULL);
        _exit(127);
    }
    struct stat st;
    for (int i = 0; i < tb_test_ms(10000) / 20; i++) {
        if (stat(socket, &st) == 0)
            return;
        struct timespec t = {0, 20000000L};
        nanosleep(&t, NULL);
    }
    stop_daemon();
    TB_FAIL("twinboardd did not make its socket %s", socket);
}

TB_TEST(control_commands_take_the_socket_from_the_configuration)
{
    char ini_text[2048];
    const char *socket = tb_test_tmp("ctl.sock"), *ini = tb_test_tmp("daemon.ini");
    snprintf(ini_text, sizeof ini_text,
             "[daemon]\nsocket = %s\njournal_dir = %s\n[arbiter]\npin = 371946\n"
             "[player vi]\nboard = null:\naudio = null\n[player sighted]\nboard = null:\n"
             "audio = null\n",
             socket, tb_test_tmp("journal"));
    tb_run_write_file(ini, ini_text);
    start_daemon(ini, socket);
    /* nothing else names a socket: the configuration's is used */
    int rc =
        tb_run(out, OUT_MAX, "env -u TWINBOARD_SOCKET '%s' -c %s status 2>&1", TB_TWINBOARD, ini);
    int rc2 = rc == 0 ? tb_run(out, OUT_MAX, "env -u TWINBOARD_SOCKET '%s' status --config=%s 2>&1",
                               TB_TWINBOARD, ini)
                      : rc;
    /* TWINBOARD_SOCKET still works; --socket wins over the configuration */
    int rc3 = tb_run(out, OUT_MAX, "TWINBOARD_SOCKET=%s '%s' moves 2>&1", socket, TB_TWINBOARD);
    int rc4 = tb_run(out, OUT_MAX, "'%s' status -c %s --socket=%s 2>&1", TB_TWINBOARD, ini,
                     tb_test_tmp("no-such.sock"));
    char wrong[OUT_MAX];
    snprintf(wrong, sizeof wrong, "%s", out);
    /* twinboard(1): the control commands' options before the command too */
    static const char *const before[] = {"--socket S status", "--socket=S status",
                                         "--timeout 3 --socket S moves", "status --socket S"};
    int rcs[4];
    char said[4][256];
    for (int i = 0; i < 4; i++) {
        char cmd[512];
        size_t at = strcspn(before[i], "S"); /* S: the socket */
        snprintf(cmd, sizeof cmd, "%.*s%s%s", (int)at, before[i], socket, before[i] + at + 1);
        rcs[i] = tb_run(out, OUT_MAX, "env -u TWINBOARD_SOCKET '%s' %s 2>&1", TB_TWINBOARD, cmd);
        snprintf(said[i], sizeof said[i], "%.*s", (int)sizeof said[i] - 1, out); /* the start */
    }
    stop_daemon();
    ASSERT_EQ(rc, 0);
    ASSERT_EQ(rc2, 0);
    ASSERT_EQ(rc3, 0);
    ASSERT_EQ(rc4, 2);
    ASSERT_STR_CONTAINS(wrong, "no-such.sock");
    for (int i = 0; i < 4; i++)
        if (rcs[i] != 0 || strstr(said[i], "no command") || strstr(said[i], "usage:"))
            TB_FAIL("twinboard %s: exit %d, %s", before[i], rcs[i], said[i]);
    ASSERT_STR_CONTAINS(said[0], "state: ");
}

TB_TEST(a_bad_configuration_for_the_socket_is_named)
{
    tb_run_write_file(tb_test_tmp("bad.ini"), "[daemon]\nsocket = relative\n");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' status -c %s 2>&1", TB_TWINBOARD, tb_test_tmp("bad.ini")),
              2);
    ASSERT_STR_CONTAINS(out, "bad.ini:2: socket must be an absolute path");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' status -c %s 2>&1", TB_TWINBOARD, tb_test_tmp("none.ini")),
              2);
    ASSERT_STR_CONTAINS(out, "none.ini");
}
