/* tb_err.c - names for return codes and the error-detail helpers. */
#include "tb_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *tb_strerror(int code)
{
    switch (code) {
    case TB_OK:
        return "ok";
    case TB_ERR_ARG:
        return "invalid argument";
    case TB_ERR_PARSE:
        return "parse error";
    case TB_ERR_ILLEGAL:
        return "illegal";
    case TB_ERR_SYS:
        return "system error";
    case TB_ERR_MEM:
        return "out of memory";
    case TB_ERR_FULL:
        return "full";
    case TB_ERR_STATE:
        return "invalid state";
    case TB_ERR_NOTFOUND:
        return "not found";
    case TB_ERR_SUPP:
        return "not supported";
    case TB_ERR_AGAIN:
        return "try again";
    case TB_ERR_CRC:
        return "checksum mismatch";
    case TB_ERR_TIMEOUT:
        return "timed out";
    case TB_ERR_PERM:
        return "not authorised";
    default:
        return code > 0 ? "count" : "unknown error";
    }
}

static int error_vset(struct tb_error *err, int code, long line, long column, const char *fmt,
                      va_list ap) __attribute__((format(printf, 5, 0)));

static int error_vset(struct tb_error *err, int code, long line, long column, const char *fmt,
                      va_list ap)
{
    if (err) {
        err->code = code;
        err->line = line;
        err->column = column;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    }
    return code;
}

int tb_error_set(struct tb_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, code, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

int tb_error_set_at(struct tb_error *err, int code, long line, long column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, code, line, column, fmt, ap);
    va_end(ap);
    return code;
}

void tb_error_clear(struct tb_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}
