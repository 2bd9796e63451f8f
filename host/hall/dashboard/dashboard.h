/* dashboard.h - twinboard-hall's parts: the table store fed by the broker, the HTTP server. */
#ifndef HALL_DASHBOARD_H
#define HALL_DASHBOARD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_hall.h"

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
    unsigned long refused; /* payloads that did not decode */
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
