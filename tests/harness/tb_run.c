/* tb_run.c - running a command and reading a file for tests (tb_run.h). */
#include "tb_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tb_file.h"
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
    char *buf;
    size_t n;
    struct tb_error err;
    if (tb_read_file(path, &buf, &n, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    if (len)
        *len = n;
    return buf;
}

void tb_run_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        TB_FAIL("cannot write %s", path);
    fputs(text, f);
    ASSERT_OK(fclose(f));
}
