/* tb_run.c - running a command and reading a file for tests (tb_run.h). */
#include "tb_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tb_test.h"

int tb_run(char *out, size_t len, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof cmd)
        TB_FAIL("command too long: %.80s...", cmd);
    ASSERT_GT(len, 0);
    FILE *p = popen(cmd, "r");
    if (!p)
        TB_FAIL("cannot run %s", cmd);
    size_t got = fread(out, 1, len - 1, p);
    out[got] = '\0';
    /* Read the rest, so the command is not killed by a closed pipe, and count it. */
    char rest[4096];
    size_t more = 0, r;
    while ((r = fread(rest, 1, sizeof rest, p)) > 0)
        more += r;
    int status = pclose(p);
    if (more)
        TB_FAIL("%s printed %zu bytes more than the %zu expected at most", cmd, more, len - 1);
    if (status == -1 || !WIFEXITED(status))
        TB_FAIL("%s did not exit normally (status %d)", cmd, status);
    return WEXITSTATUS(status);
}

char *tb_run_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        TB_FAIL("cannot open %s", path);
    ASSERT_OK(fseek(f, 0, SEEK_END));
    long n = ftell(f);
    ASSERT_GE(n, 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}
