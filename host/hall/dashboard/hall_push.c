/* hall_push.c - the round's games pushed to a lichess broadcast round (docs/broadcast.md,
 * "lichess"): POST <url>/api/broadcast/round/<id>/push, the token as a bearer, the body the
 * games' PGN (at most 100 a request). A thread of its own, so the hall's loop never waits for
 * the network: the newest games supersede what was not sent, a failed push is tried again
 * after 1 s (the configured first delay), doubling to 60 s. The token is never written
 * anywhere (not in the log, not on the page). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "dashboard.h"

#define PUSH_MAX_GAMES 100       /* games in one request, as the API takes them */
#define PUSH_REPLY_MAX (1 << 20) /* reply bytes read at most */

struct hall_push {
    struct hall_push_config cfg;
    char *token, *url, *base;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, started;
    char **games; /* the newest games offered, and their count */
    int ngames;
    uint64_t offered, sent; /* versions */
    struct hall_push_status st;
};

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct reply {
    char *buf;
    size_t n;
};

static size_t take_reply(char *data, size_t size, size_t n, void *user)
{
    struct reply *r = user;
    size_t k = size * n;
    if (r->n + k > PUSH_REPLY_MAX)
        return 0; /* a reply that large is no push reply: the transfer fails */
    char *b = realloc(r->buf, r->n + k + 1);
    if (!b)
        return 0;
    memcpy(b + r->n, data, k);
    r->buf = b;
    r->n += k;
    r->buf[r->n] = '\0';
    return k;
}

/* The reply's per-game outcome: moves taken, or lichess's error for that game. */
static void read_reply(struct hall_push_status *st, int first, int n, const char *body)
{
    cJSON *root = body ? cJSON_Parse(body) : NULL;
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(root, "games");
    for (int i = 0; i < n && first + i < HALL_PUSH_GAMES; i++) {
        const cJSON *g = cJSON_IsArray(games) ? cJSON_GetArrayItem(games, i) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(g, "error");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(g, "moves");
        struct hall_push_game *pg = &st->game[first + i];
        pg->moves = cJSON_IsNumber(m) ? (int)m->valuedouble : -1;
        if (cJSON_IsString(e) && e->valuestring)
            snprintf(pg->error, sizeof pg->error, "%s", e->valuestring);
        else if (!g)
            snprintf(pg->error, sizeof pg->error, "not in lichess's reply");
        else
            pg->error[0] = '\0';
    }
    cJSON_Delete(root);
}

/* One request: games [first, first + n). 0 done (per-game outcomes noted), else -1 with what
 * went wrong in why. */
static int post(struct hall_push *p, char *const *games, int first, int n,
                struct hall_push_status *st, char *why, size_t len)
{
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += strlen(games[first + i]) + 1;
    char *body = malloc(total), *at = body;
    CURL *c = curl_easy_init();
    if (!body || !c) {
        free(body);
        curl_easy_cleanup(c);
        snprintf(why, len, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) /* the games one after the other, a blank line between */
        at += sprintf(at, "%s%s", i ? "\n" : "", games[first + i]);
    struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: text/plain; charset=utf-8");
    char auth[600];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", p->token);
    struct curl_slist *h2 = hdr ? curl_slist_append(hdr, auth) : NULL;
    /* the body at once: no "Expect: 100-continue" round trip (a second's wait at some servers) */
    struct curl_slist *h3 = h2 ? curl_slist_append(h2, "Expect:") : NULL;
    memset(auth, 0, sizeof auth);
    struct reply r = {NULL, 0};
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, p->url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(at - body));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h3);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "twinboard-hall/" TB_VERSION);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take_reply);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    CURLcode rc = h3 ? curl_easy_perform(c) : CURLE_OUT_OF_MEMORY;
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    int out = 0;
    if (rc != CURLE_OK) {
        snprintf(why, len, "lichess not reached: %.200s", err[0] ? err : curl_easy_strerror(rc));
        out = -1;
    } else if (code != 200) {
        cJSON *root = r.buf ? cJSON_Parse(r.buf) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
        snprintf(why, len, "lichess answered HTTP %ld%s%.200s", code, cJSON_IsString(e) ? ": " : "",
                 cJSON_IsString(e) ? e->valuestring : "");
        cJSON_Delete(root);
        out = -1;
    } else {
        read_reply(st, first, n, r.buf);
    }
    free(r.buf);
    curl_slist_free_all(h3 ? h3 : h2 ? h2 : hdr);
    curl_easy_cleanup(c);
    free(body);
    return out;
}

static void free_games(char **g, int n)
{
    for (int i = 0; g && i < n; i++)
        free(g[i]);
    free(g);
}

static void *run(void *arg)
{
    struct hall_push *p = arg;
    uint64_t next = 0, backoff = 0;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        uint64_t now = mono_ms();
        if (p->offered == p->sent || now < next) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t wait = p->offered == p->sent ? 1000 : next - now;
            ts.tv_sec += (time_t)(wait / 1000);
            ts.tv_nsec += (long)(wait % 1000) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&p->cv, &p->mu, &ts);
            continue;
        }
        uint64_t version = p->offered;
        int n = p->ngames;
        char **games = calloc((size_t)n + 1, sizeof *games);
        for (int i = 0; games && i < n; i++)
            games[i] = strdup(p->games[i]);
        struct hall_push_status st = p->st;
        pthread_mutex_unlock(&p->mu);
        char why[300] = "";
        int rc = games ? 0 : -1;
        for (int i = 0; games && i < n; i++)
            rc = games[i] ? rc : -1;
        if (rc)
            snprintf(why, sizeof why, "out of memory");
        for (int first = 0; rc == 0 && first < n; first += PUSH_MAX_GAMES)
            rc = post(p, games, first, n - first < PUSH_MAX_GAMES ? n - first : PUSH_MAX_GAMES, &st,
                      why, sizeof why);
        free_games(games, n);
        pthread_mutex_lock(&p->mu);
        now = mono_ms();
        st.ngames = n < HALL_PUSH_GAMES ? n : HALL_PUSH_GAMES;
        if (rc == 0) {
            p->sent = version;
            st.pushes++;
            st.failing = false;
            st.last_ok_ms = now;
            backoff = 0;
            snprintf(st.last, sizeof st.last, "pushed");
        } else {
            st.failures++;
            st.failing = true;
            backoff = backoff ? backoff * 2 : p->cfg.retry_ms;
            if (backoff > p->cfg.retry_max_ms)
                backoff = p->cfg.retry_max_ms;
            next = now + backoff;
            snprintf(st.last, sizeof st.last, "%s; trying again in %.1f s", why,
                     (double)backoff / 1000.0);
        }
        p->st = st;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct hall_push *hall_push_start(const struct hall_push_config *cfg, char *why, size_t len)
{
    struct hall_push *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    p->cfg = *cfg;
    if (!p->cfg.retry_ms)
        p->cfg.retry_ms = 1000;
    if (!p->cfg.retry_max_ms)
        p->cfg.retry_max_ms = 60000;
    /* the round's id as lichess makes them: letters and digits only, so nothing else enters the
       path */
    bool id_ok = cfg->round && cfg->round[0];
    for (const char *c = cfg->round; id_ok && *c; c++)
        id_ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
    if (!id_ok) {
        snprintf(why, len, "[lichess] round: not a lichess round id (letters and digits)");
        free(p);
        return NULL;
    }
    const char *base = cfg->url && cfg->url[0] ? cfg->url : "https://lichess.org";
    size_t bl = strlen(base), n = bl + strlen(cfg->round) + 64;
    while (bl && base[bl - 1] == '/')
        bl--;
    p->url = malloc(n);
    p->token = strdup(cfg->token);
    if (!p->url || !p->token) {
        snprintf(why, len, "out of memory");
        hall_push_stop(p);
        return NULL;
    }
    snprintf(p->url, n, "%.*s/api/broadcast/round/%s/push", (int)bl, base, cfg->round);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->th, NULL, run, p)) {
        snprintf(why, len, "cannot start the push thread");
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p->url);
        free(p->token);
        free(p);
        return NULL;
    }
    p->started = true;
    return p;
}

void hall_push_offer(struct hall_push *p, const char *const *games, int n)
{
    if (!p)
        return;
    char **copy = calloc((size_t)n + 1, sizeof *copy);
    for (int i = 0; copy && i < n; i++)
        if (!(copy[i] = strdup(games[i]))) {
            free_games(copy, i);
            copy = NULL;
        }
    if (!copy)
        return; /* out of memory: the next offer carries the games */
    pthread_mutex_lock(&p->mu);
    free_games(p->games, p->ngames);
    p->games = copy;
    p->ngames = n;
    p->offered++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void hall_push_status(struct hall_push *p, struct hall_push_status *st)
{
    memset(st, 0, sizeof *st);
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    *st = p->st;
    st->waiting = p->offered != p->sent;
    pthread_mutex_unlock(&p->mu);
}

void hall_push_stop(struct hall_push *p)
{
    if (!p)
        return;
    if (p->started) {
        pthread_mutex_lock(&p->mu);
        p->stop = true;
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->th, NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
    }
    free_games(p->games, p->ngames);
    if (p->token)
        memset(p->token, 0, strlen(p->token));
    free(p->token);
    free(p->url);
    free(p);
}
