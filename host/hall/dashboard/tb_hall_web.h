/* tb_hall_web.h - what the dashboard's web side accepts (docs/hall.md, "The dashboard's web side"),
 * pure: no I/O, time and random bytes are arguments.
 *
 * - Host: a request is served only when its Host header names the dashboard: one of the allowed
 *   names (default 127.0.0.1 and localhost) and its port. A page of another name whose address
 *   is made 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * - Origin: a state-changing request must come from a page of an allowed name and port.
 * - Sessions: a login with the hall's PIN makes a session (a random id in an HttpOnly,
 *   SameSite=Strict cookie) with its own CSRF token, sent back in a header with every
 *   state-changing request. At most TB_HALL_WEB_SESSIONS; the one idle longest goes.
 * - Forms: application/x-www-form-urlencoded bodies taken strictly (each field once, known
 *   names only, no control character).
 * - Connections: which one gives way when an address or the whole server is at its limit. */
#ifndef TB_HALL_WEB_H
#define TB_HALL_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_HALL_WEB_HOSTS    8
#define TB_HALL_WEB_NAME_MAX 64
#define TB_HALL_WEB_SESSIONS 16
#define TB_HALL_WEB_IDLE_MS  (12u * 3600u * 1000u) /* a session unused this long is gone */
#define TB_HALL_WEB_RANDOM   32                    /* random bytes for a session */
#define TB_HALL_WEB_COOKIE   "tb_hall"

struct tb_hall_web_session {
    bool used;
    char id[33];   /* the cookie's value: 128 random bits in hex */
    char csrf[33]; /* the token of its state-changing requests */
    char tag[17];  /* a name for logs and for the tables' guard: not the id */
    uint64_t last;
};

struct tb_hall_web {
    char host[TB_HALL_WEB_HOSTS][TB_HALL_WEB_NAME_MAX];
    int nhosts;
    int port;
    struct tb_hall_web_session session[TB_HALL_WEB_SESSIONS];
};

/* port: the dashboard's; the names 127.0.0.1 and localhost are allowed. */
void tb_hall_web_init(struct tb_hall_web *w, int port);
/* Allows one more name (a host name or an IPv4 address, as a browser sends it in Host).
 * 0, or -1 when it is no such name or the list is full. */
int tb_hall_web_allow(struct tb_hall_web *w, const char *name);
/* The Host header ("name[:port]") names this dashboard. */
bool tb_hall_web_host_ok(const struct tb_hall_web *w, const char *host);
/* The Origin header ("http://name[:port]") is a page of this dashboard. */
bool tb_hall_web_origin_ok(const struct tb_hall_web *w, const char *origin);

/* A new session from TB_HALL_WEB_RANDOM random bytes at now (the one idle longest makes room). */
struct tb_hall_web_session *tb_hall_web_login(struct tb_hall_web *w, const uint8_t *rnd,
                                              uint64_t now);
/* The session the Cookie header names, used at now; NULL if none (or gone). */
struct tb_hall_web_session *tb_hall_web_session(struct tb_hall_web *w, const char *cookie,
                                                uint64_t now);
void tb_hall_web_logout(struct tb_hall_web_session *s);
/* token is the session's CSRF token (compared in constant time). */
bool tb_hall_web_csrf_ok(const struct tb_hall_web_session *s, const char *token);

/* Takes an urlencoded form of len bytes in place (body[len] must be writable): val[i] the
 * decoded value of names[i] or NULL. 0, or -1 with what naming the fault ("pin: given
 * twice"). */
int tb_hall_web_form(char *body, size_t len, const char *const *names, int n, char **val,
                     char *what, size_t what_len);

/* ---- connections ---------------------------------------------------------------------------- */

struct tb_hall_web_conn {
    uint32_t addr;     /* the client's IPv4 address */
    uint64_t progress; /* when it last completed a request or took bytes of its stream */
};

/* A new connection from addr while conn[0..n) are open: the index of the one to close first so
 * it gets in (at per_addr of its address: that address's, else at total: one of the address
 * holding the most), the one without progress longest; -1 when no limit is reached. */
int tb_hall_web_victim(const struct tb_hall_web_conn *conn, int n, uint32_t addr, int per_addr,
                       int total);

#endif
