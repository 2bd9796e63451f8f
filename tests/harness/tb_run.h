/* tb_run.h - helpers for tests that run programs or read files: run a shell command and capture
 * what it prints, read a whole file. Like the assertions of tb_test.h they fail the test (file,
 * line, abort) when the system does not cooperate, so a test needs no error paths of its own.
 * Link the target tb_run; it does not bring the harness's main(), so benchmarks may use it. */
#ifndef TB_RUN_H
#define TB_RUN_H

#include <stddef.h>

/* Runs the command made from fmt (printf style) through /bin/sh and puts what it writes on its
 * standard output into out (len bytes, NUL-terminated; the command may redirect 2>&1). Returns
 * its exit status. Fails when the command cannot start, does not exit normally, or prints more
 * than len - 1 bytes. */
int tb_run(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The whole file at path, NUL-terminated, in a malloc'd buffer (free it); its length in *len
 * when len is not NULL. Fails when the file cannot be read. */
char *tb_run_read_file(const char *path, size_t *len);

/* Writes text to the file at path (created or truncated). Fails when it cannot. */
void tb_run_write_file(const char *path, const char *text);

#endif
