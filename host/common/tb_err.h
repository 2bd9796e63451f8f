/* tb_err.h - the one error vocabulary of twinboard, shared by every host module and the CLI.
 *
 * Return codes: 0 (TB_OK) is success, a negative TB_ERR_* is an error, a positive value is a
 * count (bytes, moves, records) where a function says so. A function that fails changes nothing
 * the caller can see unless its comment says otherwise, and fires no callback.
 *
 *   TB_ERR_ARG     the caller broke the contract (NULL where not allowed, out-of-range value)
 *   TB_ERR_PARSE   input text or bytes are malformed (FEN, SAN, PGN, script, frame, config)
 *   TB_ERR_ILLEGAL a move or position the Laws do not allow
 *   TB_ERR_SYS     the operating system failed; errno is kept as it was
 *   TB_ERR_MEM     out of memory
 *   TB_ERR_FULL    a fixed-capacity buffer or table is full
 *   TB_ERR_STATE   the call is not valid in the object's current state
 *   TB_ERR_NOTFOUND the named thing does not exist
 *   TB_ERR_SUPP    not supported by this build, driver or device
 *   TB_ERR_AGAIN   nothing available now; try again later (non-blocking I/O)
 *   TB_ERR_CRC     a checksum did not match
 *   TB_ERR_TIMEOUT a deadline passed
 *   TB_ERR_PERM    not authorised (wrong or missing arbiter PIN)
 *
 * Libraries never print. Where a caller needs to tell a person what went wrong, functions take
 * an optional struct tb_error (NULL allowed) and fill it with one sentence naming what and where.
 */
#ifndef TB_ERR_H
#define TB_ERR_H

#include <stddef.h>

enum {
    TB_OK = 0,
    TB_ERR_ARG = -1,
    TB_ERR_PARSE = -2,
    TB_ERR_ILLEGAL = -3,
    TB_ERR_SYS = -4,
    TB_ERR_MEM = -5,
    TB_ERR_FULL = -6,
    TB_ERR_STATE = -7,
    TB_ERR_NOTFOUND = -8,
    TB_ERR_SUPP = -9,
    TB_ERR_AGAIN = -10,
    TB_ERR_CRC = -11,
    TB_ERR_TIMEOUT = -12,
    TB_ERR_PERM = -13,
};

/* A short English name for a return code ("parse error"); never NULL. */
const char *tb_strerror(int code);

/* Detail for a person: what went wrong and where. line/column are 1-based, 0 when unknown. */
struct tb_error {
    int code;
    long line;
    long column;
    char msg[256];
};

/* Fills err (when not NULL) and returns code, so a failing path can `return tb_error_set(...)`.
 * The message is printf-formatted and cut to fit. */
int tb_error_set(struct tb_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, with a line and column. */
int tb_error_set_at(struct tb_error *err, int code, long line, long column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Clears err (when not NULL). */
void tb_error_clear(struct tb_error *err);

#endif /* TB_ERR_H */
