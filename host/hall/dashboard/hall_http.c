/* hall_http.c - the dashboard's HTTP side (libmicrohttpd, a thread per connection): the page,
 * a snapshot of every table, a Server-Sent Events stream of updates, the arbiter's login and
 * commands. Served only for the allowed host names; state-changing requests only from the
 * dashboard's own pages, in a session, with its CSRF token (tb_hall_web.h). Input is taken
 * strictly: anything else is answered 4xx and changes nothing. Connections are limited per
 * address and in all; at a limit the one without progress longest is closed for the new one, so
 * no number of idle, slow or non-reading clients keeps the arbiter out. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>

#include <arpa/inet.h>
#include <microhttpd.h>

#include "dashboard.h"
#include "tb_hall_web.h"
#include "tb_ctl.h"

#define BODY_MAX  1024 /* a command form is far smaller */
#define CONN_MAX  1024 /* libmicrohttpd's own limit: ours below close connections first */
#define PER_ADDR  32
#define ALL_CONNS 256

struct conn_rec {
    bool open, closing;
    int fd;
    struct tb_hall_web_conn c;
};

struct hall_http {
    struct MHD_Daemon *d;
    struct hall_http_config cfg;
    pthread_mutex_t mu;     /* all below */
    unsigned long requests; /* command request ids */
    struct tb_hall_web web;
    struct tb_ctl_guard guard; /* wrong login PINs per address */
    struct conn_rec conn[CONN_MAX];
    struct tb_hall_web_conn scratch[CONN_MAX]; /* admit(): the open ones */
    int scratch_idx[CONN_MAX];
    unsigned long evicted;
    struct tb_ctl_loglimit log; /* the web server's messages: a few a minute, the rest counted */
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

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
    struct hall_http *h;
    struct conn_rec *rec; /* its connection: taking bytes is progress */
    struct hall_store *store;
    uint64_t gen; /* the last update sent */
    char *msg;    /* being sent */
    size_t len, off;
};

static ssize_t stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct viewer *v = cls;
    if (v->rec) { /* asked for more: what went before has left for the viewer */
        pthread_mutex_lock(&v->h->mu);
        v->rec->c.progress = now_ms();
        pthread_mutex_unlock(&v->h->mu);
    }
    if (v->off == v->len) {
        free(v->msg);
        v->msg = NULL;
        v->off = v->len = 0;
        struct hall_store *s = v->store;
        pthread_mutex_lock(&s->mu);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 5; /* a comment at least this often: within the idle timeout */
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

static struct conn_rec *rec_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
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
    v->h = h;
    v->rec = rec_of(c);
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

/* The session of a state-changing request with its CSRF token: its tag into tag; or an answer
 * already queued (*rc) and false. */
static bool in_session(struct hall_http *h, struct MHD_Connection *c, char *tag, size_t len,
                       enum MHD_Result *rc)
{
    const char *cookie = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie");
    const char *token = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-CSRF-Token");
    pthread_mutex_lock(&h->mu);
    struct tb_hall_web_session *s = tb_hall_web_session(&h->web, cookie, now_ms());
    bool ok = tb_hall_web_csrf_ok(s, token);
    if (ok)
        snprintf(tag, len, "%s", s->tag);
    pthread_mutex_unlock(&h->mu);
    if (!s)
        *rc = error(c, MHD_HTTP_UNAUTHORIZED, "log in with the hall's PIN first");
    else if (!ok)
        *rc = error(c, MHD_HTTP_FORBIDDEN, "X-CSRF-Token: not this session's");
    return ok;
}

static enum MHD_Result command(struct hall_http *h, struct MHD_Connection *c, struct upload *u)
{
    enum MHD_Result rc;
    char tag[17];
    if (!in_session(h, c, tag, sizeof tag, &rc))
        return rc;
    char *val[F_COUNT], what[96];
    if (tb_hall_web_form(u->body, u->len, fields, F_COUNT, val, what, sizeof what) != 0)
        return error(c, MHD_HTTP_BAD_REQUEST, what);
    for (int f = 0; f < F_COUNT; f++)
        if (!val[f] && f != F_MISMATCH && f != F_N) {
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
    snprintf(cmd.from, sizeof cmd.from, "%s", tag); /* the table holds back this session alone */
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

/* ---- login ------------------------------------------------------------------------------- */

static uint32_t client_addr(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    struct sockaddr_in in; /* copied: the server's sockaddr is not read as another type */
    if (!ci || !ci->client_addr || ci->client_addr->sa_family != AF_INET)
        return 0;
    memcpy(&in, ci->client_addr, sizeof in);
    return ntohl(in.sin_addr.s_addr);
}

/* The hall's PIN makes a session: its cookie (HttpOnly, SameSite=Strict) and, in the body, its
 * CSRF token. Wrong PINs are held back per address as the tables' guard holds them back. */
static enum MHD_Result login(struct hall_http *h, struct MHD_Connection *c, struct upload *u)
{
    static const char *const names[] = {"pin"};
    char *pin, what[96];
    if (tb_hall_web_form(u->body, u->len, names, 1, &pin, what, sizeof what) != 0)
        return error(c, MHD_HTTP_BAD_REQUEST, what);
    if (!pin)
        return error(c, MHD_HTTP_BAD_REQUEST, "pin: missing");
    if (!h->cfg.pin || !h->cfg.pin[0])
        return error(c, MHD_HTTP_FORBIDDEN,
                     "logins are off: twinboard-hall was started without a PIN (TB_HALL_PIN)");
    uint8_t rnd[TB_HALL_WEB_RANDOM];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no random bytes for a session");
    uint64_t now = now_ms(), at;
    uint32_t addr = client_addr(c);
    pthread_mutex_lock(&h->mu);
    int w = tb_ctl_guard_when(&h->guard, addr, now, &at);
    bool right = w == 0 && tb_ctl_pin_equal(h->cfg.pin, pin), locked;
    if (w == 0)
        tb_ctl_guard_result(&h->guard, addr, right, now, &locked);
    char cookie[128], body[80];
    if (right) {
        struct tb_hall_web_session *s = tb_hall_web_login(&h->web, rnd, now);
        snprintf(cookie, sizeof cookie, TB_HALL_WEB_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict",
                 s->id);
        snprintf(body, sizeof body, "{\"csrf\":\"%s\"}\n", s->csrf);
    }
    pthread_mutex_unlock(&h->mu);
    if (w != 0) {
        snprintf(what, sizeof what, "too many wrong PINs from this address: try again in %llu s",
                 (unsigned long long)((at - now + 999) / 1000));
        return error(c, MHD_HTTP_TOO_MANY_REQUESTS, what);
    }
    if (!right)
        return error(c, MHD_HTTP_FORBIDDEN, "wrong PIN");
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "application/json");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Set-Cookie", cookie);
    enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result logout(struct hall_http *h, struct MHD_Connection *c)
{
    enum MHD_Result rc;
    char tag[17];
    if (!in_session(h, c, tag, sizeof tag, &rc))
        return rc;
    const char *cookie = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie");
    pthread_mutex_lock(&h->mu);
    tb_hall_web_logout(tb_hall_web_session(&h->web, cookie, now_ms()));
    pthread_mutex_unlock(&h->mu);
    return reply(c, MHD_HTTP_OK, "application/json", "{}\n", 3, false);
}

/* GET /api/session: whether this browser is logged in, and its CSRF token (a page of another
 * name cannot read it: the Host check, and no CORS). */
static enum MHD_Result session_info(struct hall_http *h, struct MHD_Connection *c)
{
    const char *cookie = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie");
    char body[128];
    pthread_mutex_lock(&h->mu);
    struct tb_hall_web_session *s = tb_hall_web_session(&h->web, cookie, now_ms());
    int n = s ? snprintf(body, sizeof body, "{\"login\":true,\"csrf\":\"%s\"}\n", s->csrf)
              : snprintf(body, sizeof body, "{\"login\":false,\"pin\":%s}\n",
                         h->cfg.pin && h->cfg.pin[0] ? "true" : "false");
    pthread_mutex_unlock(&h->mu);
    return reply(c, MHD_HTTP_OK, "application/json", body, (size_t)n, true);
}

/* ---- connections ------------------------------------------------------------------------- */

/* The messages counted in a window that is over, summed up in one line. Under h->mu. */
static void tell_counted(struct hall_http *h, uint64_t now)
{
    uint64_t start = h->log.start;
    struct tb_ctl_logcount c;
    while (tb_ctl_log_summary(&h->log, now, &c) == 1)
        fprintf(stderr,
                "twinboard-hall: %u more messages of the web server in the last %llu s, not "
                "written one by one\n",
                (unsigned)c.refused, (unsigned long long)((now - start + 999) / 1000));
}

void hall_http_tick(struct hall_http *h)
{
    uint64_t now = now_ms();
    pthread_mutex_lock(&h->mu);
    if (tb_ctl_log_due(&h->log) <= now)
        tell_counted(h, now);
    pthread_mutex_unlock(&h->mu);
}

/* libmicrohttpd's messages (a connection closed early, a stream whose client is gone): each
 * connection an attacker opens may cause one, so at most a few a minute are written; the rest
 * are counted and summed up once the minute is over (hall_http_tick; docs/hall.md). */
static void server_log(void *cls, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void server_log(void *cls, const char *fmt, va_list ap)
{
    struct hall_http *h = cls;
    uint64_t now = now_ms();
    pthread_mutex_lock(&h->mu);
    tell_counted(h, now);
    bool tell = tb_ctl_log_refusal(&h->log, 0, false, now);
    pthread_mutex_unlock(&h->mu);
    if (tell) {
        fputs("twinboard-hall: ", stderr);
        vfprintf(stderr, fmt, ap);
    }
}

/* A new connection from addr: at a limit the one without progress longest is closed first. */
static enum MHD_Result admit(void *cls, const struct sockaddr *sa, socklen_t len)
{
    struct hall_http *h = cls;
    if (len < (socklen_t)sizeof(struct sockaddr_in) || sa->sa_family != AF_INET)
        return MHD_NO;
    struct sockaddr_in in; /* copied: the server's sockaddr is not read as another type */
    memcpy(&in, sa, sizeof in);
    uint32_t addr = ntohl(in.sin_addr.s_addr);
    struct tb_hall_web_conn *open = h->scratch;
    int *idx = h->scratch_idx;
    pthread_mutex_lock(&h->mu);
    int n = 0;
    for (int i = 0; i < CONN_MAX; i++)
        if (h->conn[i].open && !h->conn[i].closing) {
            open[n] = h->conn[i].c;
            idx[n++] = i;
        }
    int v = tb_hall_web_victim(open, n, addr, PER_ADDR, ALL_CONNS);
    if (v >= 0) {
        struct conn_rec *r = &h->conn[idx[v]];
        r->closing = true;
        shutdown(r->fd, SHUT_RDWR); /* its thread sees the end and closes it */
        h->evicted++;
    }
    pthread_mutex_unlock(&h->mu);
    return MHD_YES;
}

static void notify(void *cls, struct MHD_Connection *c, void **socket_context,
                   enum MHD_ConnectionNotificationCode toe)
{
    struct hall_http *h = cls;
    pthread_mutex_lock(&h->mu);
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        for (int i = 0; i < CONN_MAX && fd; i++)
            if (!h->conn[i].open) {
                h->conn[i] = (struct conn_rec){.open = true, .fd = fd->connect_fd};
                h->conn[i].c = (struct tb_hall_web_conn){client_addr(c), now_ms()};
                *socket_context = &h->conn[i];
                break;
            }
    } else if (*socket_context) {
        struct conn_rec *r = *socket_context;
        r->open = false;
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&h->mu);
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

/* A whole request came: the connection makes progress. */
static void progress(struct hall_http *h, struct MHD_Connection *c)
{
    struct conn_rec *r = rec_of(c);
    if (!r)
        return;
    pthread_mutex_lock(&h->mu);
    r->c.progress = now_ms();
    pthread_mutex_unlock(&h->mu);
}

/* The round: its boards for the page, the results list as CSV or text. */
static enum MHD_Result round_report(struct hall_http *h, struct MHD_Connection *c, const char *url)
{
    if (!h->cfg.round)
        return error(c, MHD_HTTP_NOT_FOUND, "no round: twinboard-hall was started without one");
    bool json = !strcmp(url, "/api/round"), csv = strstr(url, ".csv") != NULL;
    char *s = hall_round_report(h->cfg.round, json ? "json" : csv ? "csv" : "txt");
    if (!s)
        return error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    enum MHD_Result rc = reply(c, MHD_HTTP_OK,
                               json  ? "application/json"
                               : csv ? "text/csv; charset=utf-8"
                                     : "text/plain; charset=utf-8",
                               s, strlen(s), true);
    free(s);
    return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **ctx)
{
    (void)version;
    struct hall_http *h = cls;
    /* only for the dashboard's own names: a page of another name whose address was made this
       host's (DNS rebinding) neither reads nor sends anything */
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!tb_hall_web_host_ok(&h->web, host))
        return error(c, MHD_HTTP_MISDIRECTED_REQUEST, "Host: not a name of this dashboard");
    bool post = !strcmp(method, "POST");
    if (post &&
        (!strcmp(url, "/api/cmd") || !strcmp(url, "/api/login") || !strcmp(url, "/api/logout"))) {
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
        progress(h, c);
        const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
        const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
        if (!type || strncmp(type, "application/x-www-form-urlencoded", 33) != 0)
            return error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "send the form urlencoded");
        /* only the dashboard's own pages change anything (a browser always sends Origin) */
        if (!tb_hall_web_origin_ok(&h->web, origin))
            return error(c, MHD_HTTP_FORBIDDEN, "Origin: not this dashboard");
        if (u->too_big)
            return error(c, MHD_HTTP_CONTENT_TOO_LARGE, "body: more than 1024 bytes");
        if (!strcmp(url, "/api/login"))
            return login(h, c, u);
        if (!strcmp(url, "/api/logout"))
            return logout(h, c);
        return command(h, c, u);
    }
    if (*ctx == NULL && *size) {
        *size = 0; /* a body where none belongs is read and ignored */
        return MHD_YES;
    }
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return error(c, MHD_HTTP_METHOD_NOT_ALLOWED,
                     "only GET (and POST /api/login, /api/cmd, /api/logout)");
    progress(h, c);
    if (!strcmp(url, "/api/session"))
        return session_info(h, c);
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
    if (!strcmp(url, "/api/round") || !strcmp(url, "/round/results.csv") ||
        !strcmp(url, "/round/results.txt"))
        return round_report(h, c, url);
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
    tb_hall_web_init(&h->web, cfg->port);
    tb_ctl_guard_init(&h->guard);
    tb_ctl_loglimit_init(&h->log, now_ms());
    if (cfg->listen && strcmp(cfg->listen, "127.0.0.1") && strcmp(cfg->listen, "0.0.0.0"))
        tb_hall_web_allow(&h->web, cfg->listen);
    for (int i = 0; i < cfg->nallow; i++)
        if (tb_hall_web_allow(&h->web, cfg->allow[i]) != 0) {
            snprintf(why, len, "--allow-host %s: not a host name or address (or more than %d)",
                     cfg->allow[i], TB_HALL_WEB_HOSTS - 3);
            pthread_mutex_destroy(&h->mu);
            free(h);
            return NULL;
        }
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
        (uint16_t)cfg->port, admit, h, handle, h, MHD_OPTION_EXTERNAL_LOGGER, server_log, h,
        MHD_OPTION_SOCK_ADDR, &sa, MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_MAX,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
        MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024), MHD_OPTION_NOTIFY_COMPLETED, completed,
        h, MHD_OPTION_NOTIFY_CONNECTION, notify, h, MHD_OPTION_END);
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
