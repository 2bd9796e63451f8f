/* bench_ctl_load - how long the real `twinboard status` takes while the control socket holds 64
 * idle connections and 32 that send a byte a second without ever finishing a request
 * (docs/benchmarks.md, "Control socket under load"; the same load as test_daemon_guard's).
 *
 * The real twinboardd runs on a configuration of its own (both boards keys:, nothing to do but
 * answer); the CLI runs RUNS times without load, then RUNS times with it (fork to the answer's
 * first byte on its output), then the request alone RUNS times from this process (connect, ask,
 * read the answer: the daemon's share). As root the load comes
 * from 6 other uids (16 connections each: the per-uid limit), so the total limit is what is
 * reached; else from this uid. Usage: bench_ctl_load [RUNS] (default 50). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl_load.h"
#include "tb_ctl.h"

static void report(const char *what, double *ms, int n, int failed)
{
    double median, max;
    tb_ctl_load_stats(ms, n, &median, &max);
    printf("%-34s %4d runs  median %6.1f ms  max %6.1f ms  failed %d\n", what, n, median, max,
           failed);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 50;
    if (runs < 1 || runs > 10000) {
        fprintf(stderr, "usage: bench_ctl_load [RUNS]  (1..10000, default 50)\n");
        return 2;
    }
    const char *base = getenv("TMPDIR");
    char dir[512], cfg[600], sock[600], log[600];
    snprintf(dir, sizeof dir, "%s/bench_ctl_load.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        return 2;
    snprintf(cfg, sizeof cfg, "%s/twinboard.ini", dir);
    snprintf(sock, sizeof sock, "%s/control", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    FILE *f = fopen(cfg, "w");
    if (!f)
        return 2;
    fprintf(f,
            "[daemon]\nsocket = %s\njournal_dir = %s/journal\nlog_level = warn\n"
            "[arbiter]\npin = 20261124\n[player vi]\nboard = keys:\n[player sighted]\n"
            "board = keys:\n",
            sock, dir);
    fclose(f);
    pid_t daemon = fork();
    if (daemon == 0) {
        FILE *l = freopen(log, "w", stderr);
        (void)l;
        execl(TB_TWINBOARDD, TB_TWINBOARDD, "-c", cfg, "--audio", "none", (char *)NULL);
        _exit(127);
    }
    char answer[4096];
    struct tb_error err = {0};
    int up = 0;
    for (int i = 0; i < 500 && !up; i++) {
        up = tb_ctl_request(sock, "status", answer, sizeof answer, &err) == 0;
        if (!up)
            nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    int rc = 2;
    double *ms = calloc((size_t)runs, sizeof *ms);
    struct tb_ctl_load load = {0};
    char *cli[] = {(char *)TB_TWINBOARD, "status", "--socket", sock, NULL};
    if (!up || !ms) {
        fprintf(stderr, "bench_ctl_load: twinboardd did not answer on %s: %s\n", sock, err.msg);
        goto out;
    }
    printf("twinboard status through twinboardd's control socket (%s)\n",
           geteuid() == 0 ? "load from 6 other uids" : "load from this uid");
    tb_ctl_load_time(cli, 1, 0, ms); /* the first start reads the program from disk */
    int failed = tb_ctl_load_time(cli, runs, 50, ms);
    report("no other connection", ms, runs, failed);
    if (geteuid() == 0) /* the socket's group (root) may connect: let the other uids in */
        chmod(dir, 0750);
    if (tb_ctl_load_start(&load, sock, 64, 32, geteuid() == 0 ? 61001 : -1) != 0)
        goto out;
    failed = tb_ctl_load_time(cli, runs, 50, ms);
    report("64 idle + 32 slow connections", ms, runs, failed);
    /* the daemon's share: the same request from this process (connect, ask, read) */
    int asked_failed = 0;
    for (int i = 0; i < runs; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        asked_failed += tb_ctl_request(sock, "status", answer, sizeof answer, &err) != 0;
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms[i] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        nanosleep(&(struct timespec){0, 50000000L}, NULL);
    }
    tb_ctl_load_stop(&load);
    report("  the request alone, in-process", ms, runs, asked_failed);
    failed += asked_failed;
    rc = failed ? 1 : 0;
out:
    free(ms);
    kill(daemon, SIGTERM);
    waitpid(daemon, NULL, 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_ctl_load: %s is left\n", dir);
    return rc;
}
