/* dashboard.h - twinboard-hall's parts: the table store fed by the broker, the HTTP server. */
#ifndef HALL_DASHBOARD_H
#define HALL_DASHBOARD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_hall.h"
#include "tb_round.h"

#define HALL_MAX_TABLES 512
#define HALL_RING       1024 /* updates kept for live viewers that fall a little behind */
#define HALL_RECENT     32   /* events kept per table for a page opened later */

struct hall_table {
    char tournament[TB_HALL_NAME_MAX], table[TB_HALL_NAME_MAX];
    char *state;                      /* canonical JSON of the latest state, NULL until one came */
    struct tb_hall_seen seen, evseen; /* states and events taken (session and number) */
    char *recent[HALL_RECENT];        /* the newest events (canonical JSON), oldest first */
    int nrecent;
};

/* Every table's latest state and a numbered stream of updates (generation numbers from 1). */
struct hall_store {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct hall_table *tables;
    int ntables;
    char *ring[HALL_RING]; /* SSE messages, ring[gen % HALL_RING] */
    uint64_t gen;
    bool closing;
    unsigned long refused;    /* payloads that did not decode */
    struct hall_round *round; /* told every state and event taken; NULL: no round */
};

int hall_store_init(struct hall_store *s);
void hall_store_free(struct hall_store *s);
/* A message from the broker; refused (and counted) unless it decodes. */
void hall_store_message(struct hall_store *s, const char *topic, const void *payload, int len);
/* {"gen":N,"tables":[{"tournament":..,"table":..,"state":{..}|null,"events":[..]}]} */
char *hall_store_snapshot(struct hall_store *s);
/* Wakes every waiting viewer for good. */
void hall_store_close(struct hall_store *s);

/* Sends a command to a table's cmd topic; 0, or -1 when the broker is not reachable. */
typedef int (*hall_send_fn)(void *user, const char *topic, const char *payload, int len);

/* ---- the lichess push (hall_push.c) ------------------------------------------------------- */

#define HALL_PUSH_GAMES 512 /* games whose outcome is kept (a round's boards) */
/* positions queued per game while lichess is away: at a ply every 30 s, over two hours */
#define HALL_PUSH_BACKLOG 256

struct hall_push_config {
    const char *url;       /* lichess's address; NULL: https://lichess.org */
    const char *round;     /* the broadcast round's id */
    const char *token;     /* its bearer token (copied; never written anywhere) */
    uint32_t retry_ms;     /* first delay after a failed push, doubling; default 1000 */
    uint32_t retry_max_ms; /* default 60000 */
};
struct hall_push_game {
    int moves;               /* the moves lichess took, -1 unknown */
    char error[160];         /* lichess's error for the game, "" none */
    unsigned long coalesced; /* queued positions dropped at the backlog's bound */
};
struct hall_push_status {
    unsigned long pushes, failures;
    bool failing; /* the latest push failed: tried again after the back-off */
    bool waiting; /* positions queued and not pushed yet */
    int backlog;  /* the longest game queue */
    unsigned long coalesced;
    uint64_t last_ok_ms;
    char last[400]; /* "pushed", or what went wrong and when the next try is */
    int ngames;
    struct hall_push_game game[HALL_PUSH_GAMES];
};
struct hall_push;
struct hall_push *hall_push_start(const struct hall_push_config *cfg, char *why, size_t len);
/* The round's games' new public positions (board order; NULL: that game did not change): each
 * queued behind the game's earlier ones, pushed in order. Never waits. */
void hall_push_offer(struct hall_push *p, const char *const *games, int n);
void hall_push_status(struct hall_push *p, struct hall_push_status *st);
void hall_push_stop(struct hall_push *p);

/* ---- the configuration file (hall_config.c) ---------------------------------------------- */

#define HALL_PATH_MAX 1024
struct hall_config {
    char pairings[HALL_PATH_MAX], folder[HALL_PATH_MAX], pin_file[HALL_PATH_MAX];
    uint64_t delay_ms;
    char table_text[256]; /* one line of tables (libinih reads 200 bytes a line) */
    char table[TB_ROUND_MAX_BOARDS][TB_HALL_NAME_MAX];
    int ntables;
    char lichess_round[64], token_file[HALL_PATH_MAX], lichess_url[256];
    uint32_t retry_ms;
};
/* Reads the file into c (zero it first): 0, or -1 with why "FILE:LINE: [section] key: what". */
int hall_config_read(const char *path, struct hall_config *c, char *why, size_t len);
/* A file's first line (a PIN, a token): 0, or -1 with why naming what and the file. */
int hall_config_secret(const char *path, const char *what, char *out, size_t cap, char *why,
                       size_t len);

/* ---- the round (hall_round.c) ------------------------------------------------------------- */

struct hall_round_config {
    const char *pairings;      /* the pairings file (PGN or CSV) */
    const char *folder;        /* the round folder; NULL: none */
    uint64_t delay_ms;         /* the broadcast delay: the folder and the push this far behind */
    const char *tournament;    /* the tables' tournament; NULL or "+": any */
    const char *const *tables; /* board i's table (board order); ntables 0: board N is tN */
    int ntables;
    const char *pin;        /* the tables' arbiter PIN, sent with the round's tags; NULL: none */
    struct hall_push *push; /* NULL: no lichess push */
    hall_send_fn send;
    void *send_user;
};
struct hall_round;
/* Reads the pairings (a bad file: NULL, why "FILE:LINE: what"; nothing written) and writes the
 * round folder as the pairings make it. */
struct hall_round *hall_round_start(const struct hall_round_config *cfg, char *why, size_t len);
/* A table's state or event the hall took (the broker's thread). */
void hall_round_state(struct hall_round *h, const struct tb_hall_state *st);
void hall_round_event(struct hall_round *h, const char *tournament, const char *table,
                      const struct tb_hall_event *ev);
/* "json" (the page's round view), "csv" or "txt" (the results list); malloc'd, NULL: no round. */
char *hall_round_report(struct hall_round *h, const char *what);
void hall_round_stop(struct hall_round *h);

struct hall_http_config {
    const char *listen; /* address, default 127.0.0.1 */
    int port;
    struct hall_store *store;
    hall_send_fn send;
    void *send_user;
    const char *pin;          /* the hall's login PIN; NULL or "": logins (and commands) off */
    const char *const *allow; /* more host names the page is served for (besides 127.0.0.1,
                                 localhost and the listen address) */
    int nallow;
    struct hall_round *round; /* /api/round, /round/results.csv|txt; NULL: no round */
};
struct hall_http;
struct hall_http *hall_http_start(const struct hall_http_config *cfg, char *why, size_t len);
void hall_http_stop(struct hall_http *h);
/* Writes the summary of the web server's messages counted in a minute that is over; call it
 * about once a second. */
void hall_http_tick(struct hall_http *h);

/* The page (page/hall.html, embedded at build time). */
extern const unsigned char hall_page_html[];
extern const size_t hall_page_html_len;

#endif
