/* hall_pub.c - the table's MQTT publisher: libmosquitto driven from the caller's poll loop
 * (mosquitto_socket + loop_read/loop_write/loop_misc; no thread), with its own queue so that a
 * broker away costs nothing but a catch-up on reconnect. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <mosquitto.h>

#include "hall_internal.h"
#include "tb_hall.h"

#define CMD_QUEUE       16
#define CONNECT_WAIT_MS 5000 /* a connection not acknowledged by then is dropped and retried */
#define MISC_EVERY_MS   1000 /* keepalive pings and libmosquitto's retries */

struct queued {
    char *payload;
    int len;
    int mid; /* while in flight */
    bool sent;
    bool acked;
};

struct tb_hall_pub {
    struct mosquitto *mosq;
    char topic_state[128], topic_event[128], topic_cmd[128];
    char *state; /* the latest encoded state */
    int state_len;
    bool state_dirty;
    struct queued *ev; /* ring of max_events */
    int cap, head, count;
    uint64_t next_seq;
    char epoch[TB_HALL_EPOCH_MAX]; /* this session's: on every event */
    struct tb_hall_cmd cmd[CMD_QUEUE];
    int cmd_head, ncmd;
    bool connected, connecting;
    uint64_t now, retry_at, connect_by;
    uint32_t retry_first, retry_cur;
    struct tb_hall_pub_stats st;
};

static struct queued *ev_at(tb_hall_pub *p, int i)
{
    return &p->ev[(p->head + i) % p->cap];
}

static void drop_head(tb_hall_pub *p)
{
    free(ev_at(p, 0)->payload);
    p->head = (p->head + 1) % p->cap;
    p->count--;
}

static void on_connect(struct mosquitto *mosq, void *obj, int rc)
{
    tb_hall_pub *p = obj;
    p->connecting = false;
    if (rc != 0)
        return; /* refused: the disconnect that follows schedules the retry */
    p->connected = true;
    p->st.connects++;
    p->retry_cur = p->retry_first;
    mosquitto_subscribe(mosq, NULL, p->topic_cmd, 1);
    /* whatever was not acknowledged goes again (a viewer drops repeats by seq) */
    for (int i = 0; i < p->count; i++)
        ev_at(p, i)->sent = false;
    if (p->state)
        p->state_dirty = true;
}

static void schedule_retry(tb_hall_pub *p)
{
    p->retry_at = p->now + p->retry_cur;
    if (p->retry_cur < p->retry_first * 8)
        p->retry_cur *= 2;
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc)
{
    (void)mosq;
    (void)rc;
    tb_hall_pub *p = obj;
    p->connected = p->connecting = false;
    schedule_retry(p);
}

static void on_publish(struct mosquitto *mosq, void *obj, int mid)
{
    (void)mosq;
    tb_hall_pub *p = obj;
    for (int i = 0; i < p->count; i++) {
        struct queued *q = ev_at(p, i);
        if (q->sent && q->mid == mid)
            q->acked = true;
    }
    while (p->count && ev_at(p, 0)->acked) {
        drop_head(p);
        p->st.events_sent++;
    }
}

static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *msg)
{
    (void)mosq;
    tb_hall_pub *p = obj;
    struct tb_hall_cmd c;
    if (strcmp(msg->topic, p->topic_cmd) != 0 || msg->payloadlen <= 0 ||
        tb_hall_cmd_decode(msg->payload, (size_t)msg->payloadlen, &c, NULL) != TB_OK ||
        p->ncmd == CMD_QUEUE) {
        p->st.cmds_refused++;
        return;
    }
    p->cmd[(p->cmd_head + p->ncmd++) % CMD_QUEUE] = c;
}

static int fail_new(tb_hall_pub *p, struct tb_error *err, int code, const char *what)
{
    tb_hall_pub_free(p);
    return tb_error_set(err, code, "hall: %s", what);
}

int tb_hall_pub_new(const struct tb_hall_config *cfg, uint64_t now_ms, tb_hall_pub **out,
                    struct tb_error *err)
{
    *out = NULL;
    if (!cfg->tournament || !tb_hall_name_ok(cfg->tournament))
        return tb_error_set(err, TB_ERR_ARG, "hall: tournament: not a name ([A-Za-z0-9_-])");
    if (!cfg->table || !tb_hall_name_ok(cfg->table))
        return tb_error_set(err, TB_ERR_ARG, "hall: table: not a name ([A-Za-z0-9_-])");
    int port = cfg->port ? cfg->port : (cfg->cafile || cfg->capath) ? 8883 : 1883;
    if (port < 1 || port > 65535)
        return tb_error_set(err, TB_ERR_ARG, "hall: port %d out of range", port);
    if (cfg->max_events < 0 || cfg->keepalive_s < 0)
        return tb_error_set(err, TB_ERR_ARG, "hall: max_events/keepalive negative");
    tb_hall_pub *p = calloc(1, sizeof *p);
    if (!p)
        return tb_error_set(err, TB_ERR_MEM, "hall: out of memory");
    mosquitto_lib_init();
    p->cap = cfg->max_events ? cfg->max_events : 1024;
    p->ev = calloc((size_t)p->cap, sizeof *p->ev);
    p->retry_first = p->retry_cur = cfg->retry_ms ? cfg->retry_ms : 500;
    p->next_seq = 1;
    p->now = now_ms;
    /* the session: a viewer takes its numbers from 1 again, and a forged state's cannot hide
       this table's for good */
    uint8_t r[8];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        memcpy(r, &now_ms, sizeof r);
    for (int i = 0; i < 8; i++)
        snprintf(p->epoch + 2 * i, 3, "%02x", r[i]);
    tb_hall_topic(cfg->tournament, cfg->table, "state", p->topic_state, sizeof p->topic_state);
    tb_hall_topic(cfg->tournament, cfg->table, "event", p->topic_event, sizeof p->topic_event);
    tb_hall_topic(cfg->tournament, cfg->table, "cmd", p->topic_cmd, sizeof p->topic_cmd);
    char id[80];
    snprintf(id, sizeof id, "twinboardd-%s-%s", cfg->tournament, cfg->table);
    p->mosq = p->ev ? mosquitto_new(id, true, p) : NULL;
    if (!p->mosq)
        return fail_new(p, err, TB_ERR_MEM, "out of memory");
    mosquitto_connect_callback_set(p->mosq, on_connect);
    mosquitto_disconnect_callback_set(p->mosq, on_disconnect);
    mosquitto_publish_callback_set(p->mosq, on_publish);
    mosquitto_message_callback_set(p->mosq, on_message);
    if (cfg->username && mosquitto_username_pw_set(p->mosq, cfg->username, cfg->password))
        return fail_new(p, err, TB_ERR_ARG, "username/password refused");
    if ((cfg->cafile || cfg->capath) &&
        mosquitto_tls_set(p->mosq, cfg->cafile, cfg->capath, cfg->certfile, cfg->keyfile, NULL))
        return fail_new(p, err, TB_ERR_SUPP, "TLS options refused (files readable?)");
    /* the first attempt is made now; a refusal only schedules the next */
    p->connecting =
        mosquitto_connect_async(p->mosq, cfg->host ? cfg->host : "127.0.0.1", port,
                                cfg->keepalive_s ? cfg->keepalive_s : 30) == MOSQ_ERR_SUCCESS;
    if (p->connecting)
        p->connect_by = now_ms + CONNECT_WAIT_MS;
    else
        schedule_retry(p);
    *out = p;
    return TB_OK;
}

void tb_hall_pub_free(tb_hall_pub *p)
{
    if (!p)
        return;
    if (p->mosq) {
        mosquitto_disconnect(p->mosq);
        mosquitto_destroy(p->mosq);
    }
    while (p->ev && p->count)
        drop_head(p);
    free(p->ev);
    free(p->state);
    free(p);
    mosquitto_lib_cleanup();
}

/* Hands the broker what waits: the state first (it is what a new viewer needs), then the
 * events in order. */
static void flush(tb_hall_pub *p)
{
    if (!p->connected)
        return;
    if (p->state_dirty && mosquitto_publish(p->mosq, NULL, p->topic_state, p->state_len, p->state,
                                            1, true) == MOSQ_ERR_SUCCESS) {
        p->state_dirty = false;
        p->st.states_sent++;
    }
    for (int i = 0; i < p->count; i++) {
        struct queued *q = ev_at(p, i);
        if (q->sent)
            continue;
        if (mosquitto_publish(p->mosq, &q->mid, p->topic_event, q->len, q->payload, 1, false) !=
            MOSQ_ERR_SUCCESS)
            break;
        q->sent = true;
    }
}

int tb_hall_pub_state(tb_hall_pub *p, const struct tb_hall_state *s, struct tb_error *err)
{
    char *buf = malloc(TB_HALL_PAYLOAD_MAX);
    if (!buf)
        return tb_error_set(err, TB_ERR_MEM, "hall: out of memory");
    int n = tb_hall_state_encode(s, buf, TB_HALL_PAYLOAD_MAX, err);
    if (n < 0) {
        free(buf);
        return n;
    }
    free(p->state);
    p->state = buf;
    p->state_len = n;
    p->state_dirty = true; /* an older state not yet sent is superseded */
    flush(p);
    return TB_OK;
}

int tb_hall_pub_event(tb_hall_pub *p, const struct tb_hall_event *e, struct tb_error *err)
{
    struct tb_hall_event copy = *e;
    snprintf(copy.epoch, sizeof copy.epoch, "%s", p->epoch);
    if (!copy.seq)
        copy.seq = p->next_seq;
    char buf[4 * TB_HALL_TEXT_MAX];
    int n = tb_hall_event_encode(&copy, buf, sizeof buf, err);
    if (n < 0)
        return n;
    char *payload = malloc((size_t)n + 1);
    if (!payload)
        return tb_error_set(err, TB_ERR_MEM, "hall: out of memory");
    memcpy(payload, buf, (size_t)n + 1);
    if (p->count == p->cap) {
        drop_head(p);
        p->st.dropped++;
    }
    *ev_at(p, p->count++) = (struct queued){payload, n, 0, false, false};
    p->next_seq = copy.seq + 1;
    flush(p);
    return TB_OK;
}

const char *tb_hall_pub_epoch(const tb_hall_pub *p)
{
    return p->epoch;
}

int tb_hall_pub_fd(const tb_hall_pub *p)
{
    return mosquitto_socket(p->mosq);
}

bool tb_hall_pub_want_write(const tb_hall_pub *p)
{
    return mosquitto_socket(p->mosq) >= 0 && (p->connecting || mosquitto_want_write(p->mosq));
}

uint64_t tb_hall_pub_deadline(const tb_hall_pub *p)
{
    if (p->connecting)
        return p->connect_by < p->now + MISC_EVERY_MS ? p->connect_by : p->now + MISC_EVERY_MS;
    if (!p->connected)
        return p->retry_at;
    return p->now + MISC_EVERY_MS;
}

static void lost(tb_hall_pub *p)
{
    if (mosquitto_socket(p->mosq) >= 0)
        mosquitto_disconnect(p->mosq); /* fires on_disconnect */
    if (p->connected || p->connecting) {
        p->connected = p->connecting = false;
        schedule_retry(p);
    }
}

void tb_hall_pub_service(tb_hall_pub *p, bool readable, bool writable, uint64_t now_ms)
{
    if (now_ms > p->now)
        p->now = now_ms;
    if (!p->connected && !p->connecting) {
        if (now_ms < p->retry_at)
            return;
        /* closes what is left of the last socket and starts a non-blocking connect */
        if (mosquitto_reconnect_async(p->mosq) != MOSQ_ERR_SUCCESS) {
            schedule_retry(p);
            return;
        }
        p->connecting = true;
        p->connect_by = now_ms + CONNECT_WAIT_MS;
    }
    if (mosquitto_socket(p->mosq) < 0) {
        lost(p);
        return;
    }
    int rc = MOSQ_ERR_SUCCESS;
    if (readable)
        rc = mosquitto_loop_read(p->mosq, 1);
    if (rc == MOSQ_ERR_SUCCESS && (writable || mosquitto_want_write(p->mosq)))
        rc = mosquitto_loop_write(p->mosq, 1);
    if (rc == MOSQ_ERR_SUCCESS)
        rc = mosquitto_loop_misc(p->mosq);
    if (rc != MOSQ_ERR_SUCCESS) {
        lost(p);
        return;
    }
    if (p->connecting && now_ms >= p->connect_by) {
        lost(p);
        return;
    }
    flush(p);
    if (p->connected && mosquitto_want_write(p->mosq) &&
        mosquitto_loop_write(p->mosq, 1) != MOSQ_ERR_SUCCESS)
        lost(p);
}

int tb_hall_pub_cmd(tb_hall_pub *p, struct tb_hall_cmd *c)
{
    if (!p->ncmd)
        return 0;
    *c = p->cmd[p->cmd_head];
    p->cmd_head = (p->cmd_head + 1) % CMD_QUEUE;
    p->ncmd--;
    return 1;
}

void tb_hall_pub_stats(const tb_hall_pub *p, struct tb_hall_pub_stats *st)
{
    *st = p->st;
    st->connected = p->connected;
    st->queued = (unsigned long)p->count;
}
