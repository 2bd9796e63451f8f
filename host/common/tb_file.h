/* tb_file.h - a whole file into memory, for the modules and programs that read scripts,
 * configurations and game collections. */
#ifndef TB_FILE_H
#define TB_FILE_H

#include <stddef.h>

#include "tb_err.h"

/* The largest file tb_read_file takes: the biggest game collections are a few megabytes. */
#define TB_READ_FILE_MAX ((size_t)64 << 20)

/* Reads the whole file at path into a malloc'd buffer (the caller frees it) with a NUL after the
 * *len bytes read (the file itself may hold NUL bytes). Pipes and terminals are read to their end.
 * Errors, with err naming the path and the reason: TB_ERR_ARG for a NULL path, data or len;
 * TB_ERR_SYS when the file cannot be opened or read ("cannot read <path>: <strerror>"; errno is
 * kept as the failing call left it); TB_ERR_FULL for a file longer than TB_READ_FILE_MAX bytes;
 * TB_ERR_MEM. On error *data is NULL and *len 0. */
int tb_read_file(const char *path, char **data, size_t *len, struct tb_error *err);

#endif /* TB_FILE_H */
