/* hall_push.c - the round's games pushed to a lichess broadcast round (docs/broadcast.md,
 * "lichess"): POST <url>/api/broadcast/round/<id>/push, the token as a bearer, the body the
 * games' PGN (at most 100 a request). A thread of its own, so the hall's loop never waits for
 * the network. Every public position of a game is queued on its own, in order, and a request
 * carries the oldest queued position of each game that has one (lichess matches a game to its
 * chapter by its tags, so a request need not carry the games that did not change): after an
 * outage the backlog goes one position a request and lichess sees every agreed move.
 * A game's queue holds HALL_PUSH_BACKLOG positions; past that its oldest queued position is
 * dropped (the next one, a whole game, carries its moves) and counted for the arbiter. A failed
 * push is tried again after 1 s (the configured first delay), doubling to 60 s. The token is
 * never written anywhere (not in the log, not on the page). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "dashboard.h"

#define PUSH_MAX_GAMES 100       /* games in one request, as the API takes them */
#define PUSH_REPLY_MAX (1 << 20) /* reply bytes read at most */

struct queued {
    char *pgn;
    uint64_t seq; /* the offer's number: a position dropped meanwhile is not taken for it */
};

struct game_queue {
    struct queued q[HALL_PUSH_BACKLOG]; /* oldest first */
    int n;
};

struct hall_push {
    struct hall_push_config cfg;
    char *token, *url, *base;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, started;
    struct game_queue *g; /* the round's games, board order */
    int ngames;
    uint64_t seq;
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

/* The reply's per-game outcome: moves taken, or lichess's error for that game (game[i] is the
 * request's i-th). */
static void read_reply(struct hall_push_status *st, const int *game, int n, const char *body)
{
    cJSON *root = body ? cJSON_Parse(body) : NULL;
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(root, "games");
    for (int i = 0; i < n; i++) {
        if (game[i] >= HALL_PUSH_GAMES)
            continue;
        const cJSON *g = cJSON_IsArray(games) ? cJSON_GetArrayItem(games, i) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(g, "error");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(g, "moves");
        struct hall_push_game *pg = &st->game[game[i]];
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

/* One request: the n texts, the round's games game[0..n). 0 done (per-game outcomes noted),
 * else -1 with what went wrong in why. */
static int post(struct hall_push *p, char *const *games, const int *game, int n,
                struct hall_push_status *st, char *why, size_t len)
{
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += strlen(games[i]) + 1;
    char *body = malloc(total), *at = body;
    CURL *c = curl_easy_init();
    if (!body || !c) {
        free(body);
        curl_easy_cleanup(c);
        snprintf(why, len, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++) /* the games one after the other, a blank line between */
        at += sprintf(at, "%s%s", i ? "\n" : "", games[i]);
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
        read_reply(st, game, n, r.buf);
    }
    free(r.buf);
    curl_slist_free_all(h3 ? h3 : h2 ? h2 : hdr);
    curl_easy_cleanup(c);
    free(body);
    return out;
}

static void free_texts(char **t, int n)
{
    for (int i = 0; i < n; i++) {
        free(t[i]);
        t[i] = NULL;
    }
}

/* The next request (lock held): the first hundred games with a position queued, each at its
 * oldest, with the games' numbers and the positions' seq. 0 nothing queued, n games, -1 out of
 * memory. */
static int next_request(struct hall_push *p, char **text, int *game, uint64_t *seq)
{
    int n = 0;
    for (int i = 0; i < p->ngames && n < PUSH_MAX_GAMES; i++) {
        const struct game_queue *q = &p->g[i];
        if (!q->n)
            continue;
        if (!(text[n] = strdup(q->q[0].pgn))) {
            free_texts(text, n);
            return -1;
        }
        game[n] = i;
        seq[n++] = q->q[0].seq;
    }
    return n;
}

/* After a request lichess took (lock held): each position sent leaves its queue (unless it was
 * dropped meanwhile). */
static void taken(struct hall_push *p, char **text, const int *game, const uint64_t *seq, int n)
{
    for (int i = 0; i < n; i++) {
        struct game_queue *q = &p->g[game[i]];
        if (q->n && q->q[0].seq == seq[i]) {
            free(q->q[0].pgn);
            memmove(&q->q[0], &q->q[1], sizeof q->q[0] * (size_t)(q->n - 1));
            q->n--;
        }
    }
    free_texts(text, n);
}

static bool queued(const struct hall_push *p)
{
    for (int i = 0; i < p->ngames; i++)
        if (p->g[i].n)
            return true;
    return false;
}

static void *run(void *arg)
{
    struct hall_push *p = arg;
    uint64_t next = 0, backoff = 0;
    char *text[PUSH_MAX_GAMES] = {NULL};
    int game[PUSH_MAX_GAMES];
    uint64_t seq[PUSH_MAX_GAMES];
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        uint64_t now = mono_ms();
        bool waiting = queued(p);
        if (!waiting || now < next) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t wait = !waiting ? 1000 : next - now;
            ts.tv_sec += (time_t)(wait / 1000);
            ts.tv_nsec += (long)(wait % 1000) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&p->cv, &p->mu, &ts);
            continue;
        }
        int n = next_request(p, text, game, seq);
        struct hall_push_status st = p->st;
        pthread_mutex_unlock(&p->mu);
        char why[300] = "";
        int rc = n < 0 ? -1 : 0;
        if (rc)
            snprintf(why, sizeof why, "out of memory");
        else
            rc = post(p, text, game, n, &st, why, sizeof why);
        pthread_mutex_lock(&p->mu);
        now = mono_ms();
        st.ngames = p->ngames < HALL_PUSH_GAMES ? p->ngames : HALL_PUSH_GAMES;
        for (int i = 0; i < st.ngames; i++) /* counted by the offers meanwhile */
            st.game[i].coalesced = p->st.game[i].coalesced;
        st.coalesced = p->st.coalesced;
        if (rc == 0) {
            taken(p, text, game, seq, n);
            st.pushes++;
            st.failing = false;
            st.last_ok_ms = now;
            backoff = 0;
            snprintf(st.last, sizeof st.last, "pushed");
        } else {
            free_texts(text, n > 0 ? n : 0);
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
    if (!p || n <= 0)
        return;
    char **copy = calloc((size_t)n, sizeof *copy);
    for (int i = 0; copy && i < n; i++)
        if (games[i] && !(copy[i] = strdup(games[i]))) {
            free_texts(copy, i);
            free(copy);
            copy = NULL;
        }
    if (!copy)
        return; /* out of memory: the game's next position carries its moves */
    pthread_mutex_lock(&p->mu);
    if (n > p->ngames) {
        struct game_queue *g = realloc(p->g, sizeof *g * (size_t)n);
        if (g) {
            memset(g + p->ngames, 0, sizeof *g * (size_t)(n - p->ngames));
            p->g = g;
            p->ngames = n;
        }
    }
    for (int i = 0; i < n && i < p->ngames; i++) {
        struct game_queue *q = &p->g[i];
        if (!copy[i])
            continue;
        if (q->n == HALL_PUSH_BACKLOG) { /* the oldest queued position gives way: counted */
            free(q->q[0].pgn);
            memmove(&q->q[0], &q->q[1], sizeof q->q[0] * (size_t)(q->n - 1));
            q->n--;
            p->st.coalesced++;
            if (i < HALL_PUSH_GAMES)
                p->st.game[i].coalesced++;
        }
        q->q[q->n].pgn = copy[i];
        q->q[q->n++].seq = ++p->seq;
        copy[i] = NULL;
    }
    free_texts(copy, n);
    free(copy);
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
    st->waiting = false;
    for (int i = 0; i < p->ngames; i++) {
        st->waiting = st->waiting || p->g[i].n > 0;
        st->backlog = p->g[i].n > st->backlog ? p->g[i].n : st->backlog;
    }
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
    for (int i = 0; i < p->ngames; i++)
        for (int j = 0; j < p->g[i].n; j++)
            free(p->g[i].q[j].pgn);
    free(p->g);
    if (p->token)
        memset(p->token, 0, strlen(p->token));
    free(p->token);
    free(p->url);
    free(p);
}
