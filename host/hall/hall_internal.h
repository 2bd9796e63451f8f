/* hall_internal.h - helpers shared by the files of host/hall (not part of the public API). */
#ifndef HALL_INTERNAL_H
#define HALL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "tb_err.h"

/* Decoding context: the path of the field being read, for error messages. */
struct tb_hall__rd {
    struct tb_error *err;
    char path[96];
};

/* Parses exactly len bytes as one JSON object (trailing white space allowed). NULL and err
 * filled (TB_ERR_PARSE) when it is not. */
cJSON *tb_hall__parse(const char *json, size_t len, struct tb_error *err);

/* Refuses members not in names (NULL-terminated) and repeated members. */
int tb_hall__only(struct tb_hall__rd *rd, const cJSON *obj, const char *const *names);
/* Typed members: TB_ERR_PARSE naming rd->path.name when missing, of the wrong type or out of
 * range. Strings must be valid UTF-8 without control characters and shorter than cap. */
int tb_hall__str(struct tb_hall__rd *rd, const cJSON *obj, const char *name, char *buf, size_t cap);
/* As tb_hall__str, line breaks allowed (a PGN text). */
int tb_hall__lines(struct tb_hall__rd *rd, const cJSON *obj, const char *name, char *buf,
                   size_t cap);
int tb_hall__int(struct tb_hall__rd *rd, const cJSON *obj, const char *name, long long lo,
                 long long hi, long long *out);
int tb_hall__bool(struct tb_hall__rd *rd, const cJSON *obj, const char *name, bool *out);
/* A square set as 16 hex digits. */
int tb_hall__squares(struct tb_hall__rd *rd, const cJSON *obj, const char *name, uint64_t *out);
/* A member that must be an object / array (n items at most). */
const cJSON *tb_hall__obj(struct tb_hall__rd *rd, const cJSON *obj, const char *name);
const cJSON *tb_hall__arr(struct tb_hall__rd *rd, const cJSON *obj, const char *name, int max,
                          int *n);

/* Encoding: adds members; false when out of memory. */
bool tb_hall__put_str(cJSON *obj, const char *name, const char *s);
bool tb_hall__put_num(cJSON *obj, const char *name, double v);
bool tb_hall__put_bool(cJSON *obj, const char *name, bool v);
bool tb_hall__put_squares(cJSON *obj, const char *name, uint64_t v);
/* Prints obj into buf and frees it: the length, TB_ERR_FULL or TB_ERR_MEM (ok false). */
int tb_hall__print(cJSON *obj, bool ok, char *buf, size_t cap);

/* Copies s into buf (cap bytes), cut to fit. */
void tb_hall__copy(char *buf, size_t cap, const char *s);

#endif
