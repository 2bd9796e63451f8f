/* hall_http.c - the dashboard's HTTP side (libmicrohttpd, a thread per connection): the page,
 * a snapshot of every table, a Server-Sent Events stream of updates, and the arbiter's
 * commands. Input is taken strictly: anything else is answered 4xx and changes nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <microhttpd.h>

#include "dashboard.h"

#define BODY_MAX 1024 /* a command form is far smaller */

struct hall_http {
    struct MHD_Daemon *d;
    struct hall_http_config cfg;
    pthread_mutex_t mu;
    unsigned long requests; /* command request ids */
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             const char *body, size_t len, bool copy)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)body, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; script-src 'self' 'unsafe-inline'; "
                            "style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result error(struct MHD_Connection *c, unsigned status, const char *what)
{
    char body[400];
    char safe[300];
    size_t j = 0;
    for (size_t i = 0; what[i] && j + 2 < sizeof safe; i++) {
        if (what[i] == '"' || what[i] == '\\')
            safe[j++] = '\\';
        safe[j++] = (unsigned char)what[i] < 0x20 ? ' ' : what[i];
    }
    safe[j] = '\0';
    int n = snprintf(body, sizeof body, "{\"error\":\"%s\"}\n", safe);
    return reply(c, status, "application/json", body, (size_t)n, true);
}

/* ---- the live stream --------------------------------------------------------------------- */

struct viewer {
    struct hall_store *store;
    uint64_t gen; /* the last update sent */
    char *msg;    /* being sent */
    size_t len, off;
};

static ssize_t stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct viewer *v = cls;
    if (v->off == v->len) {
        free(v->msg);
        v->msg = NULL;
        v->off = v->len = 0;
        struct hall_store *s = v->store;
        pthread_mutex_lock(&s->mu);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 15;
        int rc = 0;
        while (!s->closing && v->gen == s->gen && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&s->cv, &s->mu, &until);
        if (s->closing) {
            pthread_mutex_unlock(&s->mu);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (v->gen == s->gen)
            v->msg = strdup(": still here\n\n"); /* keeps proxies and the browser patient */
        else if (v->gen > s->gen || s->gen - v->gen >= HALL_RING) {
            v->gen = s->gen; /* fell behind: the page reloads the snapshot */
            v->msg = strdup("event: reset\ndata: {}\n\n");
        } else {
            v->gen++;
            v->msg = strdup(s->ring[v->gen % HALL_RING]);
        }
        pthread_mutex_unlock(&s->mu);
        if (!v->msg)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        v->len = strlen(v->msg);
    }
    size_t n = v->len - v->off < max ? v->len - v->off : max;
    memcpy(buf, v->msg + v->off, n);
    v->off += n;
    return (ssize_t)n;
}

static void viewer_free(void *cls)
{
    struct viewer *v = cls;
    free(v->msg);
    free(v);
}

static enum MHD_Result events(struct hall_http *h, struct MHD_Connection *c)
{
    const char *from = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "from");
    char *end = NULL;
    errno = 0;
    unsigned long long gen = from ? strtoull(from, &end, 10) : 0;
    if (!from || !*from || *end || errno || from[0] == '-')
        return error(c, MHD_HTTP_BAD_REQUEST, "from: the snapshot's gen, a number");
    struct viewer *v = calloc(1, sizeof *v);
    if (!v)
        return error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    v->store = h->cfg.store;
    v->gen = gen;
    v->msg = strdup("retry: 1000\n\n");
    v->len = v->msg ? strlen(v->msg) : 0;
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 8192, stream, v, viewer_free);
    if (!r) {
        viewer_free(v);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* ---- commands ---------------------------------------------------------------------------- */

struct upload {
    char body[BODY_MAX + 1];
    size_t len;
    bool too_big;
};

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

enum { F_TOURNAMENT, F_TABLE, F_ACTION, F_MISMATCH, F_N, F_PIN, F_COUNT };
static const char *const fields[F_COUNT] = {"tournament", "table", "action",
                                            "mismatch",   "n",     "pin"};

static long number(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return !*s || *end || errno || v < lo || v > hi || s[0] == '+' || s[0] == ' ' ? -1 : v;
}

static enum MHD_Result command(struct hall_http *h, struct MHD_Connection *c, struct upload *u)
{
    const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    if (!type || strncmp(type, "application/x-www-form-urlencoded", 33) != 0)
        return error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "send the form urlencoded");
    /* a page of another site may not send commands through the arbiter's browser */
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (origin && (!host || strncmp(origin, "http://", 7) || strcmp(origin + 7, host)))
        return error(c, MHD_HTTP_FORBIDDEN, "Origin: not this dashboard");
    if (u->too_big)
        return error(c, MHD_HTTP_CONTENT_TOO_LARGE, "body: more than 1024 bytes");
    u->body[u->len] = '\0';
    if (memchr(u->body, '\0', u->len))
        return error(c, MHD_HTTP_BAD_REQUEST, "body: a NUL byte");
    char *val[F_COUNT] = {0};
    char *save = NULL;
    for (char *pair = strtok_r(u->body, "&", &save); pair; pair = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(pair, '=');
        if (!eq)
            return error(c, MHD_HTTP_BAD_REQUEST, "body: a field without '='");
        *eq = '\0';
        int f = 0;
        while (f < F_COUNT && strcmp(fields[f], pair))
            f++;
        char what[96];
        snprintf(what, sizeof what, "%.40s: %s", pair,
                 f == F_COUNT ? "unknown field"
                 : val[f]     ? "given twice"
                              : "not text");
        if (f == F_COUNT || val[f] || !form_decode(eq + 1))
            return error(c, MHD_HTTP_BAD_REQUEST, what);
        val[f] = eq + 1;
    }
    for (int f = 0; f < F_COUNT; f++)
        if (!val[f] && f != F_MISMATCH && f != F_N) {
            char what[64];
            snprintf(what, sizeof what, "%s: missing", fields[f]);
            return error(c, MHD_HTTP_BAD_REQUEST, what);
        }
    struct tb_hall_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    if (!strcmp(val[F_ACTION], "resolve")) {
        cmd.action = TB_HALL_CMD_RESOLVE;
        long id = val[F_MISMATCH] ? number(val[F_MISMATCH], 1, UINT32_MAX) : -1;
        if (id < 0)
            return error(c, MHD_HTTP_BAD_REQUEST, "mismatch: the number of the open mismatch");
        cmd.mismatch = (uint32_t)id;
    } else if (!strcmp(val[F_ACTION], "takeback")) {
        cmd.action = TB_HALL_CMD_TAKEBACK;
        long n = val[F_N] ? number(val[F_N], 1, TB_MATCH_MAX_TAKEBACK) : -1;
        if (n < 0)
            return error(c, MHD_HTTP_BAD_REQUEST, "n: moves to take back, 1 to 4");
        cmd.n = (int)n;
    } else
        return error(c, MHD_HTTP_BAD_REQUEST, "action: resolve or takeback");
    if (strlen(val[F_PIN]) >= sizeof cmd.pin)
        return error(c, MHD_HTTP_BAD_REQUEST, "pin: 1 to 15 digits");
    snprintf(cmd.pin, sizeof cmd.pin, "%s", val[F_PIN]);
    pthread_mutex_lock(&h->mu);
    unsigned long req = ++h->requests;
    pthread_mutex_unlock(&h->mu);
    snprintf(cmd.request, sizeof cmd.request, "hall-%lx-%lu", (unsigned long)time(NULL), req);
    char topic[160], json[512];
    struct tb_error err;
    if (tb_hall_topic(val[F_TOURNAMENT], val[F_TABLE], "cmd", topic, sizeof topic) < 0)
        return error(c, MHD_HTTP_BAD_REQUEST, "tournament/table: not a name");
    int n = tb_hall_cmd_encode(&cmd, json, sizeof json, &err);
    if (n < 0)
        return error(c, MHD_HTTP_BAD_REQUEST, err.msg);
    if (h->cfg.send(h->cfg.send_user, topic, json, n) != 0)
        return error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the broker is not reachable");
    char body[96];
    int len = snprintf(body, sizeof body, "{\"request\":\"%s\"}\n", cmd.request);
    return reply(c, MHD_HTTP_ACCEPTED, "application/json", body, (size_t)len, true);
}

/* ---- routing ----------------------------------------------------------------------------- */

static bool table_path(const char *url)
{
    char a[TB_HALL_NAME_MAX], b[TB_HALL_NAME_MAX], leaf[4];
    char topic[128];
    if (strncmp(url, "/table/", 7) || strlen(url) > 100)
        return false;
    snprintf(topic, sizeof topic, "twinboard/%s/x", url + 7);
    return tb_hall_topic_parse(topic, a, b, leaf, sizeof leaf) == TB_OK;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **ctx)
{
    (void)version;
    struct hall_http *h = cls;
    bool post = !strcmp(method, "POST");
    if (post && !strcmp(url, "/api/cmd")) {
        struct upload *u = *ctx;
        if (!u) {
            u = calloc(1, sizeof *u);
            if (!u)
                return MHD_NO;
            *ctx = u;
            return MHD_YES;
        }
        if (*size) {
            if (u->len + *size > BODY_MAX)
                u->too_big = true;
            else {
                memcpy(u->body + u->len, data, *size);
                u->len += *size;
            }
            *size = 0;
            return MHD_YES;
        }
        return command(h, c, u);
    }
    if (*ctx == NULL && *size) {
        *size = 0; /* a body where none belongs is read and ignored */
        return MHD_YES;
    }
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET (and POST /api/cmd)");
    if (!strcmp(url, "/") || table_path(url))
        return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", (const char *)hall_page_html,
                     hall_page_html_len, false);
    if (!strcmp(url, "/api/state")) {
        char *snap = hall_store_snapshot(h->cfg.store);
        if (!snap)
            return error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
        enum MHD_Result rc = reply(c, MHD_HTTP_OK, "application/json", snap, strlen(snap), true);
        free(snap);
        return rc;
    }
    if (!strcmp(url, "/events"))
        return events(h, c);
    return error(c, MHD_HTTP_NOT_FOUND, "no such page");
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx,
                      enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    free(*ctx);
    *ctx = NULL;
}

struct hall_http *hall_http_start(const struct hall_http_config *cfg, char *why, size_t len)
{
    struct hall_http *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    h->cfg = *cfg;
    pthread_mutex_init(&h->mu, NULL);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, cfg->listen ? cfg->listen : "127.0.0.1", &sa.sin_addr) != 1) {
        snprintf(why, len, "listen: %s is not an IPv4 address", cfg->listen);
        free(h);
        return NULL;
    }
    h->d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG,
        (uint16_t)cfg->port, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, &sa,
        MHD_OPTION_CONNECTION_LIMIT, 128u, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 64u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384, MHD_OPTION_CONNECTION_TIMEOUT, 60u,
        MHD_OPTION_NOTIFY_COMPLETED, completed, h, MHD_OPTION_END);
    if (!h->d) {
        snprintf(why, len, "cannot listen on %s:%d: %s", cfg->listen ? cfg->listen : "127.0.0.1",
                 cfg->port, strerror(errno));
        pthread_mutex_destroy(&h->mu);
        free(h);
        return NULL;
    }
    return h;
}

void hall_http_stop(struct hall_http *h)
{
    if (!h)
        return;
    hall_store_close(h->cfg.store);
    MHD_stop_daemon(h->d);
    pthread_mutex_destroy(&h->mu);
    free(h);
}
