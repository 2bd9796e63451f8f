/* link_resource.c - the resource-string parser (pure). */
#include <stdio.h>
#include <string.h>

#include "rb_proto.h"
#include "tb_link.h"

static const struct {
    const char *scheme;
    enum tb_link_kind kind;
} schemes[] = {
    {"null", TB_LINK_NULL},         {"serial", TB_LINK_SERIAL},
    {"usb", TB_LINK_USB},           {"pty", TB_LINK_PTY},
    {"sim", TB_LINK_SIM},           {"keys", TB_LINK_KEYS},
    {"dgt", TB_LINK_DGT},           {"chesslink", TB_LINK_CHESSLINK},
    {"chessnut", TB_LINK_CHESSNUT}, {"reed", TB_LINK_REED},
};

const char *tb_link_kind_name(enum tb_link_kind kind)
{
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (schemes[i].kind == kind)
            return schemes[i].scheme;
    return "unknown";
}

/* Exactly four hex digits, as lsusb prints them. */
static bool parse_hex16(const char *s, size_t len, uint16_t *out)
{
    if (len != 4)
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return false;
        v = v * 16 + (unsigned)d;
    }
    *out = (uint16_t)v;
    return true;
}

static bool printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

static int parse_usb(const char *r, const char *arg, struct tb_link_resource *res,
                     struct tb_error *err)
{
    const char *c1 = strchr(arg, ':');
    if (!c1)
        return tb_error_set(err, TB_ERR_PARSE,
                            "resource '%s': usb: needs VID:PID in hex, e.g. usb:2341:0043", r);
    const char *c2 = strchr(c1 + 1, ':');
    size_t pid_len = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
    if (!parse_hex16(arg, (size_t)(c1 - arg), &res->vid))
        return tb_error_set(err, TB_ERR_PARSE, "resource '%s': USB vendor id must be 4 hex digits",
                            r);
    if (!parse_hex16(c1 + 1, pid_len, &res->pid))
        return tb_error_set(err, TB_ERR_PARSE, "resource '%s': USB product id must be 4 hex digits",
                            r);
    if (c2) {
        const char *sn = c2 + 1;
        if (!*sn)
            return tb_error_set(err, TB_ERR_PARSE,
                                "resource '%s': empty USB serial number after ':'", r);
        if (strlen(sn) >= sizeof res->serial)
            return tb_error_set(err, TB_ERR_PARSE, "resource '%s': USB serial number too long", r);
        for (const char *p = sn; *p; p++)
            if (*p == ':' || *p == ' ' || *p == '/')
                return tb_error_set(err, TB_ERR_PARSE,
                                    "resource '%s': USB serial number may not contain '%c'", r, *p);
        strcpy(res->serial, sn);
    }
    return TB_OK;
}

static int parse_sim(const char *r, const char *arg, struct tb_link_resource *res,
                     struct tb_error *err)
{
    const char *q = strchr(arg, '?');
    size_t plen = q ? (size_t)(q - arg) : strlen(arg);
    if (plen == 0)
        return tb_error_set(err, TB_ERR_PARSE, "resource '%s': sim: needs a script file", r);
    if (plen >= sizeof res->path)
        return tb_error_set(err, TB_ERR_PARSE, "resource '%s': path too long", r);
    memcpy(res->path, arg, plen);
    res->path[plen] = '\0';
    if (q) {
        if (strcmp(q + 1, "speed=fast") == 0)
            res->fast = true;
        else if (strcmp(q + 1, "speed=realtime") != 0)
            return tb_error_set(err, TB_ERR_PARSE,
                                "resource '%s': unknown option '%s' (expected speed=realtime "
                                "or speed=fast)",
                                r, q + 1);
    }
    return TB_OK;
}

/* reed:id=N, N the board's identity: 1..4294967294, decimal as `twinboard devices` shows it */
static int parse_reed(const char *r, const char *arg, struct tb_link_resource *res,
                      struct tb_error *err)
{
    if (strncmp(arg, "id=", 3) != 0 || !arg[3])
        return tb_error_set(err, TB_ERR_PARSE,
                            "resource '%s': reed: needs the board's identity, e.g. reed:id=1234 "
                            "(twinboard devices shows it)",
                            r);
    unsigned long long v = 0;
    const char *p = arg + 3;
    for (; *p >= '0' && *p <= '9' && v <= 0xFFFFFFFFull; p++)
        v = v * 10 + (unsigned)(*p - '0');
    if (*p || v == 0 || v > RB_PROTO_SERIAL_MAX)
        return tb_error_set(err, TB_ERR_PARSE,
                            "resource '%s': the identity after id= is a number from 1 to "
                            "4294967294",
                            r);
    res->board_id = (uint32_t)v;
    return TB_OK;
}

int tb_link_resource_parse(const char *s, struct tb_link_resource *out, struct tb_error *err)
{
    if (!s || !out)
        return tb_error_set(err, TB_ERR_ARG, "no resource string");
    if (!printable(s))
        return tb_error_set(err, TB_ERR_PARSE, "resource string contains control characters");
    const char *colon = strchr(s, ':');
    if (!colon)
        return tb_error_set(err, TB_ERR_PARSE,
                            "resource '%s': expected KIND:ARGUMENT with KIND one of serial, "
                            "usb, pty, reed, sim, keys, dgt, chesslink, chessnut, null",
                            s);
    struct tb_link_resource res = {0};
    size_t klen = (size_t)(colon - s);
    size_t i;
    for (i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (strlen(schemes[i].scheme) == klen && strncmp(s, schemes[i].scheme, klen) == 0)
            break;
    if (i == sizeof schemes / sizeof schemes[0])
        return tb_error_set(err, TB_ERR_PARSE,
                            "resource '%s': unknown kind '%.*s' (expected serial, usb, pty, "
                            "reed, sim, keys, dgt, chesslink, chessnut or null)",
                            s, (int)klen, s);
    res.kind = schemes[i].kind;
    const char *arg = colon + 1;
    int rc = TB_OK;
    switch (res.kind) {
    case TB_LINK_NULL:
    case TB_LINK_KEYS:
        if (*arg)
            rc = tb_error_set(err, TB_ERR_PARSE, "resource '%s': %s: takes no argument", s,
                              schemes[i].scheme);
        break;
    case TB_LINK_SERIAL:
    case TB_LINK_PTY:
        if (*arg != '/')
            rc = tb_error_set(err, TB_ERR_PARSE,
                              "resource '%s': %s: needs an absolute device path, e.g. "
                              "%s:/dev/%s",
                              s, schemes[i].scheme, schemes[i].scheme,
                              res.kind == TB_LINK_PTY ? "pts/3" : "ttyUSB0");
        else if (strlen(arg) >= sizeof res.path)
            rc = tb_error_set(err, TB_ERR_PARSE, "resource '%s': path too long", s);
        else
            strcpy(res.path, arg);
        break;
    case TB_LINK_USB:
        rc = parse_usb(s, arg, &res, err);
        break;
    case TB_LINK_SIM:
        rc = parse_sim(s, arg, &res, err);
        break;
    case TB_LINK_REED:
        rc = parse_reed(s, arg, &res, err);
        break;
    case TB_LINK_DGT:
    case TB_LINK_CHESSLINK:
    case TB_LINK_CHESSNUT:
        if (*arg != '/' && strcmp(arg, "auto") != 0)
            rc = tb_error_set(err, TB_ERR_PARSE,
                              "resource '%s': %s: needs an absolute device path or auto, e.g. "
                              "%s:/dev/ttyACM0",
                              s, schemes[i].scheme, schemes[i].scheme);
        else if (strlen(arg) >= sizeof res.path)
            rc = tb_error_set(err, TB_ERR_PARSE, "resource '%s': path too long", s);
        else
            strcpy(res.path, arg);
        break;
    }
    if (rc == TB_OK)
        *out = res;
    return rc;
}
