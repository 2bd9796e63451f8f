/* hall_web.c - what the dashboard's web side accepts: Host and Origin against the allowed
 * names, sessions with their CSRF tokens, strict forms, and which connection gives way at a
 * limit (tb_hall_web.h). Pure: time and random bytes are arguments. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tb_hall_web.h"

void tb_hall_web_init(struct tb_hall_web *w, int port)
{
    memset(w, 0, sizeof *w);
    w->port = port;
    tb_hall_web_allow(w, "127.0.0.1");
    tb_hall_web_allow(w, "localhost");
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '.';
}

int tb_hall_web_allow(struct tb_hall_web *w, const char *name)
{
    size_t n = strlen(name);
    if (w->nhosts >= TB_HALL_WEB_HOSTS || n == 0 || n >= TB_HALL_WEB_NAME_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!name_char(name[i]))
            return -1;
    for (size_t i = 0; i < n; i++)
        w->host[w->nhosts][i] = (char)tolower((unsigned char)name[i]);
    w->host[w->nhosts++][n] = '\0';
    return 0;
}

/* "name[:port]" of len bytes: an allowed name and the dashboard's port (80 when none). */
static bool authority_ok(const struct tb_hall_web *w, const char *s, size_t len)
{
    const char *colon = memchr(s, ':', len);
    size_t nlen = colon ? (size_t)(colon - s) : len;
    long port = 80;
    if (colon) {
        size_t plen = len - nlen - 1;
        if (plen == 0 || plen > 5 || (plen > 1 && colon[1] == '0'))
            return false; /* the port as a browser writes it: no leading zero */
        port = 0;
        for (size_t i = 0; i < plen; i++) {
            if (!isdigit((unsigned char)colon[1 + i]))
                return false;
            port = port * 10 + (colon[1 + i] - '0');
        }
    }
    if (port != w->port || nlen == 0 || nlen >= TB_HALL_WEB_NAME_MAX)
        return false;
    for (int h = 0; h < w->nhosts; h++)
        if (strlen(w->host[h]) == nlen && strncasecmp(w->host[h], s, nlen) == 0)
            return true;
    return false;
}

bool tb_hall_web_host_ok(const struct tb_hall_web *w, const char *host)
{
    return host && authority_ok(w, host, strlen(host));
}

bool tb_hall_web_origin_ok(const struct tb_hall_web *w, const char *origin)
{
    return origin && strncmp(origin, "http://", 7) == 0 &&
           authority_ok(w, origin + 7, strlen(origin + 7));
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static bool same(const char *a, const char *b, size_t n)
{
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

struct tb_hall_web_session *tb_hall_web_login(struct tb_hall_web *w, const uint8_t *rnd,
                                              uint64_t now)
{
    struct tb_hall_web_session *s = &w->session[0];
    for (int i = 0; i < TB_HALL_WEB_SESSIONS; i++) { /* a free one, else the one idle longest */
        struct tb_hall_web_session *t = &w->session[i];
        if (!t->used || (s->used && t->last < s->last))
            s = t;
    }
    memset(s, 0, sizeof *s);
    s->used = true;
    hex(rnd, 16, s->id);
    hex(rnd + 16, 16, s->csrf);
    /* the tag: FNV-1a of the id, so logs and tables never see the id itself */
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 32; i++)
        h = (h ^ (unsigned char)s->id[i]) * 0x100000001b3ull;
    uint8_t t[8];
    for (int i = 0; i < 8; i++)
        t[i] = (uint8_t)(h >> (8 * i));
    hex(t, 8, s->tag);
    s->last = now;
    return s;
}

/* The value of cookie name in a Cookie header ("a=1; tb_hall=..."): [*v, *v + *n). */
static bool cookie_value(const char *header, const char *name, const char **v, size_t *n)
{
    size_t nl = strlen(name);
    for (const char *p = header; p && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            *v = p + nl + 1;
            *n = len - nl - 1;
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

struct tb_hall_web_session *tb_hall_web_session(struct tb_hall_web *w, const char *cookie,
                                                uint64_t now)
{
    const char *v;
    size_t n;
    if (!cookie || !cookie_value(cookie, TB_HALL_WEB_COOKIE, &v, &n) || n != 32)
        return NULL;
    for (int i = 0; i < TB_HALL_WEB_SESSIONS; i++) {
        struct tb_hall_web_session *s = &w->session[i];
        if (!s->used)
            continue;
        if (now - s->last >= TB_HALL_WEB_IDLE_MS && now >= s->last) {
            memset(s, 0, sizeof *s); /* idle too long: gone */
            continue;
        }
        if (same(s->id, v, 32)) {
            s->last = now > s->last ? now : s->last;
            return s;
        }
    }
    return NULL;
}

void tb_hall_web_logout(struct tb_hall_web_session *s)
{
    if (s)
        memset(s, 0, sizeof *s);
}

bool tb_hall_web_csrf_ok(const struct tb_hall_web_session *s, const char *token)
{
    return s && s->used && token && strlen(token) == 32 && same(s->csrf, token, 32);
}

static int hexval(char ch)
{
    return ch >= '0' && ch <= '9'   ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

/* Percent-decodes in place; false for a broken escape or a control character. */
static bool form_decode(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        int ch = (unsigned char)*p;
        if (*p == '+')
            ch = ' ';
        else if (*p == '%') {
            int a = hexval(p[1]), b = a < 0 ? -1 : hexval(p[2]);
            if (b < 0)
                return false;
            ch = a * 16 + b;
            p += 2;
        }
        if (ch < 0x20 || ch == 0x7F)
            return false;
        *o++ = (char)ch;
    }
    *o = '\0';
    return true;
}

int tb_hall_web_form(char *body, size_t len, const char *const *names, int n, char **val,
                     char *what, size_t what_len)
{
    for (int f = 0; f < n; f++)
        val[f] = NULL;
    if (memchr(body, '\0', len)) {
        snprintf(what, what_len, "body: a NUL byte");
        return -1;
    }
    body[len] = '\0';
    for (char *pair = body, *next; pair && *pair; pair = next) {
        next = strchr(pair, '&');
        if (next)
            *next++ = '\0';
        char *eq = strchr(pair, '=');
        if (!eq) {
            snprintf(what, what_len, "body: a field without '='");
            return -1;
        }
        *eq = '\0';
        int f = 0;
        while (f < n && strcmp(names[f], pair))
            f++;
        if (f == n || val[f] || !form_decode(eq + 1)) {
            snprintf(what, what_len, "%.40s: %s", pair,
                     f == n   ? "unknown field"
                     : val[f] ? "given twice"
                              : "not text");
            return -1;
        }
        val[f] = eq + 1;
    }
    return 0;
}

int tb_hall_web_victim(const struct tb_hall_web_conn *conn, int n, uint32_t addr, int per_addr,
                       int total)
{
    int of_addr = 0;
    for (int i = 0; i < n; i++)
        of_addr += conn[i].addr == addr;
    if (of_addr < per_addr && n < total)
        return -1;
    if (of_addr < per_addr) { /* the whole server is full: the address holding the most gives */
        int most = 0;
        for (int i = 0; i < n; i++) {
            int k = 0;
            for (int j = 0; j < n; j++)
                k += conn[j].addr == conn[i].addr;
            if (k > most)
                most = k, addr = conn[i].addr;
        }
    }
    int best = -1;
    for (int i = 0; i < n; i++)
        if (conn[i].addr == addr && (best < 0 || conn[i].progress < conn[best].progress))
            best = i;
    return best;
}
