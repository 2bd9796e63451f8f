/* tb_file.c - a whole file into memory (tb_file.h). */
#include "tb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A system failure named for a person; errno stays what the failing call set. */
static int sys_error(struct tb_error *err, const char *path)
{
    int e = errno;
    tb_error_set(err, TB_ERR_SYS, "cannot read %s: %s", path, strerror(e));
    errno = e;
    return TB_ERR_SYS;
}

int tb_read_file(const char *path, char **data, size_t *len, struct tb_error *err)
{
    if (!data || !len)
        return tb_error_set(err, TB_ERR_ARG, "read file: nowhere to put the data");
    *data = NULL;
    *len = 0;
    if (!path)
        return tb_error_set(err, TB_ERR_ARG, "read file: no path");
    FILE *f = fopen(path, "rb");
    if (!f)
        return sys_error(err, path);
    /* Room for cap - 1 bytes and the NUL; the size is not asked first, so pipes work too. */
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int rc = TB_OK;
    while (buf) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break; /* the end, or an error (ferror below) */
        if (n == TB_READ_FILE_MAX) {
            if (fgetc(f) != EOF)
                rc = tb_error_set(err, TB_ERR_FULL, "cannot read %s: longer than %zu MiB", path,
                                  TB_READ_FILE_MAX >> 20);
            break;
        }
        size_t bigger = cap * 2 - 1 > TB_READ_FILE_MAX ? TB_READ_FILE_MAX + 1 : cap * 2;
        char *p = realloc(buf, bigger);
        if (!p) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = p;
        cap = bigger;
    }
    if (!buf) {
        fclose(f);
        return tb_error_set(err, TB_ERR_MEM, "cannot read %s: out of memory", path);
    }
    if (rc == TB_OK && ferror(f)) {
        int e = errno;
        fclose(f);
        free(buf);
        errno = e;
        return sys_error(err, path);
    }
    fclose(f);
    if (rc != TB_OK) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return TB_OK;
}
