/* tb_test.c - runner for tb_test.h: all cases, one case by name, or the list. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "tb_test.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tb_test_data_dir(void)
{
    const char *env = getenv("TB_SHARED_DATA");
    return env && *env ? env : TB_SHARED_DATA_DIR;
}

static char tmp_dir[256];

const char *tb_test_tmp_dir(void)
{
    char *dir = tmp_dir;
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof tmp_dir, "%s/tbtest.XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir))
            TB_FAIL("cannot create a scratch directory under %s", base ? base : "/tmp");
    }
    return dir;
}

const char *tb_test_tmp(const char *name)
{
    static char path[8][600];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", tb_test_tmp_dir(), name);
    return p;
}

double tb_test_time_multiplier(void)
{
    const char *env = getenv("TB_TIME_MULTIPLIER");
    char *end = NULL;
    double x = env && *env ? strtod(env, &end) : 1.0;
    if (env && *env && (*end || !(x >= 1.0 && x <= 1000.0)))
        TB_FAIL("TB_TIME_MULTIPLIER=%s: give a number from 1 to 1000", env);
    return x;
}

int tb_test_ms(int ms)
{
    return (int)(ms * tb_test_time_multiplier());
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path); /* what cannot go stays; the rest still goes */
    return 0;
}

static void remove_tmp_dir(void)
{
    if (tmp_dir[0])
        nftw(tmp_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int tb_test_run(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < tb_test_ncases; i++)
            printf("%s\n", tb_test_cases[i].name);
        return 0;
    }
    int ran = 0;
    for (int i = 0; i < tb_test_ncases; i++) {
        if (argc > 1 && strcmp(argv[1], tb_test_cases[i].name) != 0)
            continue;
        fprintf(stderr, "[ RUN  ] %s\n", tb_test_cases[i].name);
        tb_test_cases[i].fn();
        fprintf(stderr, "[  OK  ] %s\n", tb_test_cases[i].name);
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "no test named '%s'\n", argc > 1 ? argv[1] : "(any)");
        return 1;
    }
    remove_tmp_dir(); /* every case passed: nothing to look at */
    return 0;
}

int main(int argc, char **argv)
{
    return tb_test_run(argc, argv);
}
