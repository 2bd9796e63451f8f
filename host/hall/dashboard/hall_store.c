/* hall_store.c - every table's latest state, fed by the broker, read by the web viewers. A
 * payload is decoded strictly and served re-encoded, so a viewer only ever sees what the
 * decoder accepted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dashboard.h"

int hall_store_init(struct hall_store *s)
{
    memset(s, 0, sizeof *s);
    s->tables = calloc(HALL_MAX_TABLES, sizeof *s->tables);
    if (!s->tables)
        return -1;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    return 0;
}

void hall_store_free(struct hall_store *s)
{
    for (int i = 0; i < s->ntables; i++) {
        free(s->tables[i].state);
        for (int j = 0; j < s->tables[i].nrecent; j++)
            free(s->tables[i].recent[j]);
    }
    for (int i = 0; i < HALL_RING; i++)
        free(s->ring[i]);
    free(s->tables);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}

static struct hall_table *table(struct hall_store *s, const char *tournament, const char *name)
{
    for (int i = 0; i < s->ntables; i++)
        if (!strcmp(s->tables[i].table, name) && !strcmp(s->tables[i].tournament, tournament))
            return &s->tables[i];
    if (s->ntables == HALL_MAX_TABLES)
        return NULL;
    struct hall_table *t = &s->tables[s->ntables++];
    snprintf(t->tournament, sizeof t->tournament, "%s", tournament);
    snprintf(t->table, sizeof t->table, "%s", name);
    return t;
}

/* Appends one SSE message to the ring and wakes the viewers (lock held). */
static void push(struct hall_store *s, const char *kind, const struct hall_table *t,
                 const char *json)
{
    size_t n = strlen(json) + 200;
    char *msg = malloc(n);
    if (!msg)
        return;
    s->gen++;
    snprintf(msg, n,
             "id: %llu\nevent: %s\ndata: {\"tournament\":\"%s\",\"table\":\"%s\",\"%s\":%s}\n\n",
             (unsigned long long)s->gen, kind, t->tournament, t->table, kind, json);
    free(s->ring[s->gen % HALL_RING]);
    s->ring[s->gen % HALL_RING] = msg;
    pthread_cond_broadcast(&s->cv);
}

/* A payload that did not decode: counted, nothing else. */
static void refuse(struct hall_store *s)
{
    pthread_mutex_lock(&s->mu);
    s->refused++;
    pthread_mutex_unlock(&s->mu);
}

static void take_state(struct hall_store *s, const char *tournament, const char *name,
                       const void *payload, int len)
{
    struct tb_hall_state *st = malloc(sizeof *st);
    char *json = malloc(TB_HALL_PAYLOAD_MAX);
    if (!st || !json || tb_hall_state_decode(payload, (size_t)len, st, NULL) != TB_OK ||
        strcmp(st->tournament, tournament) || strcmp(st->table, name) ||
        tb_hall_state_encode(st, json, TB_HALL_PAYLOAD_MAX, NULL) < 0) {
        free(st);
        free(json);
        refuse(s);
        return;
    }
    pthread_mutex_lock(&s->mu);
    struct hall_table *t = table(s, tournament, name);
    /* the newest state of the session, a new session from its start; a jump no restart
       explains is refused (a forged state would hide the table) */
    int take = t ? tb_hall_seen_take(&t->seen, st->epoch, st->seq) : 0;
    if (take == 1) {
        free(t->state);
        t->state = json;
        json = NULL;
        push(s, "state", t, t->state);
    }
    s->refused += take < 0;
    pthread_mutex_unlock(&s->mu);
    if (take == 1)
        hall_round_state(s->round, st);
    free(json);
    free(st);
}

static void take_event(struct hall_store *s, const char *tournament, const char *name,
                       const void *payload, int len)
{
    struct tb_hall_event ev;
    char json[4 * TB_HALL_TEXT_MAX];
    if (tb_hall_event_decode(payload, (size_t)len, &ev, NULL) != TB_OK ||
        tb_hall_event_encode(&ev, json, sizeof json, NULL) < 0) {
        refuse(s);
        return;
    }
    pthread_mutex_lock(&s->mu);
    struct hall_table *t = table(s, tournament, name);
    /* an event sent again after a reconnect is dropped here; one no restart explains refused */
    int take = t ? tb_hall_seen_take(&t->evseen, ev.epoch, ev.seq) : 0;
    s->refused += take < 0;
    if (take == 1) {
        if (t->nrecent == HALL_RECENT) {
            free(t->recent[0]);
            memmove(&t->recent[0], &t->recent[1], sizeof t->recent[0] * (HALL_RECENT - 1));
            t->nrecent--;
        }
        t->recent[t->nrecent] = strdup(json);
        if (t->recent[t->nrecent])
            t->nrecent++;
        push(s, "event", t, json);
    }
    pthread_mutex_unlock(&s->mu);
    if (take == 1)
        hall_round_event(s->round, tournament, name, &ev);
}

void hall_store_message(struct hall_store *s, const char *topic, const void *payload, int len)
{
    char tournament[TB_HALL_NAME_MAX], name[TB_HALL_NAME_MAX], leaf[8];
    if (len <= 0 || tb_hall_topic_parse(topic, tournament, name, leaf, sizeof leaf) != TB_OK) {
        refuse(s);
        return;
    }
    if (!strcmp(leaf, "state"))
        take_state(s, tournament, name, payload, len);
    else if (!strcmp(leaf, "event"))
        take_event(s, tournament, name, payload, len);
}

/* A growing string. */
struct buf {
    char *p;
    size_t n, cap;
    bool bad;
};

static void add(struct buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->bad)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->bad = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n + 1);
    b->n += n;
}

char *hall_store_snapshot(struct hall_store *s)
{
    struct buf b = {0};
    char head[160];
    pthread_mutex_lock(&s->mu);
    snprintf(head, sizeof head, "{\"gen\":%llu,\"refused\":%lu,\"tables\":[",
             (unsigned long long)s->gen, s->refused);
    add(&b, head);
    for (int i = 0; i < s->ntables; i++) {
        const struct hall_table *t = &s->tables[i];
        snprintf(head, sizeof head,
                 "%s{\"tournament\":\"%s\",\"table\":\"%s\",\"state\":", i ? "," : "",
                 t->tournament, t->table);
        add(&b, head);
        add(&b, t->state ? t->state : "null");
        add(&b, ",\"events\":[");
        for (int j = 0; j < t->nrecent; j++) {
            if (j)
                add(&b, ",");
            add(&b, t->recent[j]);
        }
        add(&b, "]}");
    }
    add(&b, "]}");
    pthread_mutex_unlock(&s->mu);
    if (b.bad) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

void hall_store_close(struct hall_store *s)
{
    pthread_mutex_lock(&s->mu);
    s->closing = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}
