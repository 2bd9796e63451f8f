/* hall_main.c - twinboard-hall: every table of a hall on one web page (docs/arbiter-guide.md).
 *
 * Subscribes to the tables' state and event topics on the broker (libmosquitto's own network
 * thread, reconnecting by itself), keeps every table's latest state, and serves the page, the
 * live stream and the arbiter's commands on 127.0.0.1 unless told otherwise. */
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "dashboard.h"
#include "tb_ctl.h"
#include "tb_hall_web.h"

struct hall {
    struct hall_store store;
    struct mosquitto *mosq;
    const char *tournament; /* "+" for every tournament */
    pthread_mutex_t mu;
    bool connected;
    struct hall_round *round; /* NULL without pairings */
    struct hall_push *push;   /* NULL without [lichess] round */
};

static void usage(FILE *to)
{
    fputs("usage: twinboard-hall [options]\n"
          "  --broker HOST         the MQTT broker (default 127.0.0.1)\n"
          "  --broker-port N       its port (default 1883, 8883 with --cafile)\n"
          "  --tournament NAME     show this tournament's tables only (default: every one)\n"
          "  --username NAME       broker user; the password is read from $TB_HALL_PASSWORD\n"
          "  --cafile FILE         TLS to the broker, trusting this CA\n"
          "  --listen ADDR         the web page's address (default 127.0.0.1)\n"
          "  --port N              the web page's port (default 8080)\n"
          "  --allow-host NAME     a host name the page is also served for (the browser's\n"
          "                        address bar; 127.0.0.1, localhost and --listen always)\n"
          "  --config FILE         the hall's configuration: [round] and [lichess]\n"
          "  --round FILE          the round's pairings (PGN or CSV; over [round] pairings)\n"
          "  --help, --version     this text; the version\n"
          "the arbiter logs in on the page with the PIN in $TB_HALL_PIN (none: no commands)\n",
          to);
}

static void on_connect(struct mosquitto *mosq, void *obj, int rc)
{
    struct hall *h = obj;
    if (rc != 0) {
        fprintf(stderr, "twinboard-hall: broker refused the connection: %s\n",
                mosquitto_connack_string(rc));
        return;
    }
    char topic[96];
    snprintf(topic, sizeof topic, "twinboard/%s/+/state", h->tournament);
    mosquitto_subscribe(mosq, NULL, topic, 1);
    snprintf(topic, sizeof topic, "twinboard/%s/+/event", h->tournament);
    mosquitto_subscribe(mosq, NULL, topic, 1);
    pthread_mutex_lock(&h->mu);
    h->connected = true;
    pthread_mutex_unlock(&h->mu);
    fprintf(stderr, "twinboard-hall: connected to the broker\n");
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc)
{
    (void)mosq;
    struct hall *h = obj;
    pthread_mutex_lock(&h->mu);
    h->connected = false;
    pthread_mutex_unlock(&h->mu);
    if (rc)
        fprintf(stderr, "twinboard-hall: lost the broker; reconnecting\n");
}

static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *msg)
{
    (void)mosq;
    struct hall *h = obj;
    hall_store_message(&h->store, msg->topic, msg->payload, msg->payloadlen);
}

static int send_cmd(void *user, const char *topic, const char *payload, int len)
{
    struct hall *h = user;
    pthread_mutex_lock(&h->mu);
    bool up = h->connected;
    pthread_mutex_unlock(&h->mu);
    if (!up)
        return -1;
    return mosquitto_publish(h->mosq, NULL, topic, len, payload, 1, false) == MOSQ_ERR_SUCCESS ? 0
                                                                                               : -1;
}

static int send_cmd(void *user, const char *topic, const char *payload, int len);

/* The round of the configuration (or --round) and its lichess push; 0 when there is none. */
static int start_round(struct hall *h, const struct hall_config *c, char *why, size_t len)
{
    if (!c->pairings[0]) {
        if (c->lichess_round[0] || c->folder[0]) {
            snprintf(why, len,
                     "[round] folder and [lichess] need the round's pairings ([round] "
                     "pairings or --round)");
            return -1;
        }
        return 0;
    }
    char pin[TB_HALL_PIN_MAX + 2] = "", token[512] = "";
    if (c->pin_file[0] &&
        hall_config_secret(c->pin_file, "[round] pin_file", pin, sizeof pin, why, len))
        return -1;
    if (c->lichess_round[0]) {
        if (hall_config_secret(c->token_file, "[lichess] token_file", token, sizeof token, why,
                               len))
            return -1;
        struct hall_push_config pc = {c->lichess_url, c->lichess_round, token, c->retry_ms, 0};
        h->push = hall_push_start(&pc, why, len);
        memset(token, 0, sizeof token);
        if (!h->push)
            return -1;
    }
    const char *tables[TB_ROUND_MAX_BOARDS];
    for (int i = 0; i < c->ntables; i++)
        tables[i] = c->table[i];
    struct hall_round_config rc = {c->pairings,
                                   c->folder[0] ? c->folder : NULL,
                                   c->delay_ms,
                                   h->tournament,
                                   tables,
                                   c->ntables,
                                   pin[0] ? pin : NULL,
                                   h->push,
                                   send_cmd,
                                   h};
    h->round = hall_round_start(&rc, why, len);
    memset(pin, 0, sizeof pin);
    if (!h->round) {
        hall_push_stop(h->push);
        h->push = NULL;
        return -1;
    }
    h->store.round = h->round;
    return 0;
}

static int port_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v < 65536 ? (int)v : -1;
}

int main(int argc, char **argv)
{
    const char *broker = "127.0.0.1", *listen = "127.0.0.1", *username = NULL, *cafile = NULL;
    int broker_port = 0, port = 8080;
    struct hall h;
    memset(&h, 0, sizeof h);
    h.tournament = "+";
    enum {
        O_BROKER = 256,
        O_BROKER_PORT,
        O_PORT,
        O_LISTEN,
        O_TOURNAMENT,
        O_USERNAME,
        O_CAFILE,
        O_ALLOW,
        O_CONFIG,
        O_ROUND
    };
    const char *config = NULL, *round = NULL;
    const char *allow[TB_HALL_WEB_HOSTS];
    int nallow = 0;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"broker", required_argument, NULL, O_BROKER},
        {"broker-port", required_argument, NULL, O_BROKER_PORT},
        {"port", required_argument, NULL, O_PORT},
        {"listen", required_argument, NULL, O_LISTEN},
        {"tournament", required_argument, NULL, O_TOURNAMENT},
        {"username", required_argument, NULL, O_USERNAME},
        {"cafile", required_argument, NULL, O_CAFILE},
        {"allow-host", required_argument, NULL, O_ALLOW},
        {"config", required_argument, NULL, O_CONFIG},
        {"round", required_argument, NULL, O_ROUND},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        const char *v = optarg;
        if (c == 'h') {
            usage(stdout);
            return 0;
        } else if (c == 'V') {
            puts("twinboard-hall " TB_VERSION);
            return 0;
        } else if (c == O_BROKER) {
            broker = v;
        } else if (c == O_BROKER_PORT && (broker_port = port_arg(v)) > 0) {
        } else if (c == O_PORT && (port = port_arg(v)) > 0) {
        } else if (c == O_LISTEN) {
            listen = v;
        } else if (c == O_TOURNAMENT && tb_hall_name_ok(v)) {
            h.tournament = v;
        } else if (c == O_USERNAME) {
            username = v;
        } else if (c == O_CAFILE) {
            cafile = v;
        } else if (c == O_ALLOW && nallow < TB_HALL_WEB_HOSTS) {
            allow[nallow++] = v;
        } else if (c == O_CONFIG) {
            config = v;
        } else if (c == O_ROUND) {
            round = v;
        } else {
            const char *a = argv[optind - 1];
            if (c == '?' || c == ':')
                fprintf(stderr, "twinboard-hall: %s: %s\n", a,
                        c == ':' ? "value missing" : "unknown option");
            else
                fprintf(stderr, "twinboard-hall: %s: not a good value for %s\n", v, a);
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "twinboard-hall: %s: unexpected argument\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (!broker_port)
        broker_port = cafile ? 8883 : 1883;
    /* The login PIN opens every table's arbiter commands (D.2.9): held to the tables' own rule. */
    const char *pin = getenv("TB_HALL_PIN");
    const char *weak = pin && pin[0] ? tb_ctl_pin_weakness(pin) : NULL;
    if (weak) {
        fprintf(stderr,
                "twinboard-hall: TB_HALL_PIN %s; choose 6 to 8 digits that are not one digit "
                "repeated or a run, or leave it unset (no commands from the page)\n",
                weak);
        return 2;
    }
    /* the round and its push, before anything starts: a bad file changes nothing */
    struct hall_config *cfg = calloc(1, sizeof *cfg);
    char why[300];
    if (!cfg || (config && hall_config_read(config, cfg, why, sizeof why))) {
        fprintf(stderr, "twinboard-hall: %s\n", cfg ? why : "out of memory");
        free(cfg);
        return 2;
    }
    if (round)
        snprintf(cfg->pairings, sizeof cfg->pairings, "%s", round);

    signal(SIGPIPE, SIG_IGN);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* every thread started below inherits it */

    if (hall_store_init(&h.store)) {
        fprintf(stderr, "twinboard-hall: out of memory\n");
        return 1;
    }
    if (start_round(&h, cfg, why, sizeof why)) {
        fprintf(stderr, "twinboard-hall: %s\n", why);
        free(cfg);
        hall_store_free(&h.store);
        return 2;
    }
    pthread_mutex_init(&h.mu, NULL);
    mosquitto_lib_init();
    char id[48];
    snprintf(id, sizeof id, "twinboard-hall-%ld", (long)getpid());
    h.mosq = mosquitto_new(id, true, &h);
    if (!h.mosq) {
        fprintf(stderr, "twinboard-hall: out of memory\n");
        return 1;
    }
    mosquitto_connect_callback_set(h.mosq, on_connect);
    mosquitto_disconnect_callback_set(h.mosq, on_disconnect);
    mosquitto_message_callback_set(h.mosq, on_message);
    mosquitto_reconnect_delay_set(h.mosq, 1, 2, false);
    const char *password = getenv("TB_HALL_PASSWORD");
    if (username && mosquitto_username_pw_set(h.mosq, username, password)) {
        fprintf(stderr, "twinboard-hall: username refused\n");
        return 2;
    }
    if (cafile && mosquitto_tls_set(h.mosq, cafile, NULL, NULL, NULL, NULL)) {
        fprintf(stderr, "twinboard-hall: %s: not a usable CA file\n", cafile);
        return 2;
    }
    int rc = mosquitto_connect_async(h.mosq, broker, broker_port, 30);
    if (rc != MOSQ_ERR_SUCCESS)
        fprintf(stderr, "twinboard-hall: broker %s:%d: %s; retrying\n", broker, broker_port,
                rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
    if (mosquitto_loop_start(h.mosq) != MOSQ_ERR_SUCCESS) {
        fprintf(stderr, "twinboard-hall: cannot start the network thread\n");
        return 1;
    }
    struct hall_http_config hc = {listen, port,  &h.store, send_cmd, &h,
                                  pin,    allow, nallow,   h.round};
    struct hall_http *http = hall_http_start(&hc, why, sizeof why);
    if (!http) {
        fprintf(stderr, "twinboard-hall: %s\n", why);
        mosquitto_loop_stop(h.mosq, true);
        return 1;
    }
    fprintf(stderr, "twinboard-hall: serving http://%s:%d/ (broker %s:%d)\n", listen, port, broker,
            broker_port);
    const struct timespec second = {1, 0};
    while (sigtimedwait(&stop, NULL, &second) < 0)
        hall_http_tick(http); /* the log's summary of a minute is written when it is over */
    fprintf(stderr, "twinboard-hall: stopping\n");
    hall_http_stop(http);
    mosquitto_disconnect(h.mosq);
    mosquitto_loop_stop(h.mosq, false);
    mosquitto_destroy(h.mosq);
    mosquitto_lib_cleanup();
    hall_round_stop(h.round); /* the folder as it stands stays */
    hall_push_stop(h.push);
    free(cfg);
    hall_store_free(&h.store);
    pthread_mutex_destroy(&h.mu);
    return 0;
}
