/* tb_test.c - runner for tb_test.h: all cases, one case by name, or the list. */
#include "tb_test.h"

#include <sys/stat.h>
#include <unistd.h>

const char *tb_test_data_dir(void)
{
    const char *env = getenv("TB_SHARED_DATA");
    return env && *env ? env : TB_SHARED_DATA_DIR;
}

const char *tb_test_tmp_dir(void)
{
    static char dir[256];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/tbtest.XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir))
            TB_FAIL("cannot create a scratch directory under %s", base ? base : "/tmp");
    }
    return dir;
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
    return 0;
}

int main(int argc, char **argv)
{
    return tb_test_run(argc, argv);
}
