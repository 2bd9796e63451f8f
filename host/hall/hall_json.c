/* hall_json.c - strict JSON reading and compact writing on top of cJSON: every member typed,
 * bounded and named in errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hall_internal.h"
#include "tb_hall.h"

void tb_hall__copy(char *buf, size_t cap, const char *s)
{
    if (!cap)
        return;
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

cJSON *tb_hall__parse(const char *json, size_t len, struct tb_error *err)
{
    if (!json || len == 0) {
        tb_error_set(err, TB_ERR_PARSE, "payload: empty");
        return NULL;
    }
    if (len > TB_HALL_PAYLOAD_MAX) {
        tb_error_set(err, TB_ERR_PARSE, "payload: %zu bytes, more than %d", len,
                     TB_HALL_PAYLOAD_MAX);
        return NULL;
    }
    if (memchr(json, '\0', len)) {
        tb_error_set(err, TB_ERR_PARSE, "payload: a NUL byte");
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long off = at && at >= json && at <= json + len ? (long)(at - json) : -1;
        tb_error_set(err, TB_ERR_PARSE, "payload: not JSON (at byte %ld)", off);
        return NULL;
    }
    for (const char *p = end; p && p < json + len; p++) {
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
            cJSON_Delete(root);
            tb_error_set(err, TB_ERR_PARSE, "payload: text after the JSON value (byte %ld)",
                         (long)(p - json));
            return NULL;
        }
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        tb_error_set(err, TB_ERR_PARSE, "payload: not a JSON object");
        return NULL;
    }
    return root;
}

static int fail(struct tb_hall__rd *rd, const char *name, const char *what)
{
    return tb_error_set(rd->err, TB_ERR_PARSE, "%s%s%s: %s", rd->path, *rd->path ? "." : "", name,
                        what);
}

int tb_hall__only(struct tb_hall__rd *rd, const cJSON *obj, const char *const *names)
{
    int n = 0;
    for (const char *const *k = names; *k; k++)
        n++;
    unsigned long long seen = 0;
    for (const cJSON *it = obj->child; it; it = it->next) {
        int i = 0;
        while (i < n && strcmp(names[i], it->string) != 0)
            i++;
        if (i == n)
            return fail(rd, it->string, "unknown field");
        if (seen & (1ull << i))
            return fail(rd, it->string, "given twice");
        seen |= 1ull << i;
    }
    return TB_OK;
}

static const cJSON *member(struct tb_hall__rd *rd, const cJSON *obj, const char *name)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!it)
        fail(rd, name, "missing");
    return it;
}

/* Valid UTF-8 without control characters (but line breaks when lines). */
static bool text_ok(const unsigned char *s, bool lines)
{
    while (*s) {
        unsigned c = *s;
        int more = c < 0x80             ? 0
                   : (c & 0xE0) == 0xC0 ? 1
                   : (c & 0xF0) == 0xE0 ? 2
                   : (c & 0xF8) == 0xF0 ? 3
                                        : -1;
        if (more < 0 || (c < 0x20 && !(lines && c == '\n')) || c == 0x7F || c == 0xC0 ||
            c == 0xC1 || c > 0xF4)
            return false;
        s++;
        for (int i = 0; i < more; i++, s++)
            if ((*s & 0xC0) != 0x80)
                return false;
    }
    return true;
}

static int str(struct tb_hall__rd *rd, const cJSON *obj, const char *name, char *buf, size_t cap,
               bool lines)
{
    const cJSON *it = member(rd, obj, name);
    if (!it)
        return TB_ERR_PARSE;
    if (!cJSON_IsString(it) || !it->valuestring)
        return fail(rd, name, "not a string");
    if (strlen(it->valuestring) >= cap) {
        char what[64];
        snprintf(what, sizeof what, "longer than %zu bytes", cap - 1);
        return fail(rd, name, what);
    }
    if (!text_ok((const unsigned char *)it->valuestring, lines))
        return fail(rd, name, "not UTF-8 text (or a control character)");
    tb_hall__copy(buf, cap, it->valuestring);
    return TB_OK;
}

int tb_hall__str(struct tb_hall__rd *rd, const cJSON *obj, const char *name, char *buf, size_t cap)
{
    return str(rd, obj, name, buf, cap, false);
}

int tb_hall__lines(struct tb_hall__rd *rd, const cJSON *obj, const char *name, char *buf,
                   size_t cap)
{
    return str(rd, obj, name, buf, cap, true);
}

int tb_hall__int(struct tb_hall__rd *rd, const cJSON *obj, const char *name, long long lo,
                 long long hi, long long *out)
{
    const cJSON *it = member(rd, obj, name);
    if (!it)
        return TB_ERR_PARSE;
    if (!cJSON_IsNumber(it))
        return fail(rd, name, "not a number");
    double v = it->valuedouble;
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi) {
        char what[96];
        snprintf(what, sizeof what, "not a whole number from %lld to %lld", lo, hi);
        return fail(rd, name, what);
    }
    *out = (long long)v;
    return TB_OK;
}

int tb_hall__bool(struct tb_hall__rd *rd, const cJSON *obj, const char *name, bool *out)
{
    const cJSON *it = member(rd, obj, name);
    if (!it)
        return TB_ERR_PARSE;
    if (!cJSON_IsBool(it))
        return fail(rd, name, "not true or false");
    *out = cJSON_IsTrue(it);
    return TB_OK;
}

int tb_hall__squares(struct tb_hall__rd *rd, const cJSON *obj, const char *name, uint64_t *out)
{
    char hex[17];
    if (tb_hall__str(rd, obj, name, hex, sizeof hex))
        return TB_ERR_PARSE;
    uint64_t v = 0;
    int n = 0;
    for (; hex[n]; n++) {
        char c = hex[n];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            break;
        v = v << 4 | (uint64_t)d;
    }
    if (n != 16 || hex[n])
        return fail(rd, name, "not 16 lower-case hex digits");
    *out = v;
    return TB_OK;
}

const cJSON *tb_hall__obj(struct tb_hall__rd *rd, const cJSON *obj, const char *name)
{
    const cJSON *it = member(rd, obj, name);
    if (it && !cJSON_IsObject(it)) {
        fail(rd, name, "not an object");
        return NULL;
    }
    return it;
}

const cJSON *tb_hall__arr(struct tb_hall__rd *rd, const cJSON *obj, const char *name, int max,
                          int *n)
{
    const cJSON *it = member(rd, obj, name);
    if (!it)
        return NULL;
    if (!cJSON_IsArray(it)) {
        fail(rd, name, "not an array");
        return NULL;
    }
    int count = cJSON_GetArraySize(it);
    if (count > max) {
        char what[64];
        snprintf(what, sizeof what, "more than %d items", max);
        fail(rd, name, what);
        return NULL;
    }
    *n = count;
    return it;
}

bool tb_hall__put_str(cJSON *obj, const char *name, const char *s)
{
    return cJSON_AddStringToObject(obj, name, s) != NULL;
}

bool tb_hall__put_num(cJSON *obj, const char *name, double v)
{
    return cJSON_AddNumberToObject(obj, name, v) != NULL;
}

bool tb_hall__put_bool(cJSON *obj, const char *name, bool v)
{
    return cJSON_AddBoolToObject(obj, name, v) != NULL;
}

bool tb_hall__put_squares(cJSON *obj, const char *name, uint64_t v)
{
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)v);
    return tb_hall__put_str(obj, name, hex);
}

int tb_hall__print(cJSON *obj, bool ok, char *buf, size_t cap)
{
    int rc = TB_ERR_MEM;
    if (obj && ok) {
        rc = TB_ERR_FULL;
        if (cap <= INT32_MAX && cJSON_PrintPreallocated(obj, buf, (int)cap, 0))
            rc = (int)strlen(buf);
    }
    cJSON_Delete(obj);
    return rc;
}
