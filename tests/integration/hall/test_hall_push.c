/* test_hall_push.c - the hall's lichess push (hall_push.c) against a stand-in on a local port:
 * lichess away while a game changes more often than the backlog holds, then back. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dashboard.h"
#include "tb_test.h"

#define OFFERED  (HALL_PUSH_BACKLOG + 44)
#define SEEN_MAX (OFFERED + 2)

/* The stand-in: each request read whole, the game's ply number (its only move text "N") noted
 * in order, 200 with the games' moves. */
struct stand_in {
    int fd, seen[SEEN_MAX], nseen;
    pthread_mutex_t mu;
};

static void *serve(void *arg)
{
    struct stand_in *s = arg;
    static char buf[1 << 16];
    for (;;) {
        int c = accept(s->fd, NULL, NULL);
        if (c < 0)
            return NULL;
        /* the request until its game's last line (" *" and a line break: the only one) */
        size_t have = 0;
        ssize_t n;
        while (have < sizeof buf - 1 && (n = read(c, buf + have, sizeof buf - 1 - have)) > 0) {
            have += (size_t)n;
            buf[have] = '\0';
            if (have >= 2 && !strcmp(buf + have - 2, "*\n"))
                break;
        }
        char *body = strstr(buf, "\r\n\r\n");
        const char *m = body ? strstr(body, "\n\n") : NULL;
        pthread_mutex_lock(&s->mu);
        if (m && s->nseen < SEEN_MAX)
            s->seen[s->nseen++] = atoi(m + 2);
        pthread_mutex_unlock(&s->mu);
        static const char reply[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                    "Content-Length: 23\r\nConnection: close\r\n\r\n"
                                    "{\"games\":[{\"moves\":1}]}";
        if (write(c, reply, sizeof reply - 1) < 0)
            perror("stand-in");
        close(c);
    }
}

static void status(struct hall_push *p, struct hall_push_status *st)
{
    hall_push_status(p, st);
}

/* lichess away (nothing at its port: refused at once) while one game changes OFFERED
 * times: the oldest positions past the backlog's bound give way, counted for the arbiter;
 * once lichess listens the rest goes one request a position, in order, the newest last. */
TB_TEST(positions_past_the_backlog_give_way_counted_and_the_rest_arrive_in_order)
{
    struct stand_in *s = calloc(1, sizeof *s);
    struct hall_push_status *st = malloc(sizeof *st);
    ASSERT_NOT_NULL(s);
    ASSERT_NOT_NULL(st);
    pthread_mutex_init(&s->mu, NULL);
    s->fd = socket(AF_INET, SOCK_STREAM, 0);
    union {
        struct sockaddr sa;
        struct sockaddr_in in;
    } a = {.in = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}};
    ASSERT_EQ(bind(s->fd, &a.sa, sizeof a.in), 0);
    socklen_t alen = sizeof a.in;
    ASSERT_EQ(getsockname(s->fd, &a.sa, &alen), 0);
    close(s->fd); /* the port known, nobody there until lichess is back */
    char url[64], why[200] = "";
    snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.in.sin_port));
    struct hall_push_config cfg = {
        .url = url, .round = "r1AbCd", .token = "lip_pUsHtEsT", .retry_ms = 20, .retry_max_ms = 50};
    struct hall_push *p = hall_push_start(&cfg, why, sizeof why);
    ASSERT_NOT_NULL(p);
    for (int k = 1; k <= OFFERED; k++) {
        char game[96];
        snprintf(game, sizeof game, "[Board \"1\"]\n[Result \"*\"]\n\n%d *\n", k);
        const char *one[] = {game};
        hall_push_offer(p, one, 1);
    }
    status(p, st);
    ASSERT_EQ(st->backlog, HALL_PUSH_BACKLOG);
    ASSERT_EQ((int)st->coalesced, OFFERED - HALL_PUSH_BACKLOG);
    ASSERT_EQ((int)st->game[0].coalesced, OFFERED - HALL_PUSH_BACKLOG);
    ASSERT_TRUE(st->waiting);
    s->fd = socket(AF_INET, SOCK_STREAM, 0); /* lichess back, at the same port */
    setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
    ASSERT_EQ(bind(s->fd, &a.sa, sizeof a.in), 0);
    ASSERT_EQ(listen(s->fd, 16), 0);
    pthread_t th;
    pthread_create(&th, NULL, serve, s);
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        status(p, st);
        if (!st->waiting)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000 > tb_test_ms(20000))
            TB_FAIL("still %d positions waiting after 20 s", st->backlog);
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
    hall_push_stop(p);
    shutdown(s->fd, SHUT_RDWR);
    close(s->fd);
    pthread_join(th, NULL);
    /* a request made before the oldest gave way may still arrive first: at most one, older */
    int extra = s->nseen - HALL_PUSH_BACKLOG;
    ASSERT_GE(extra, 0);
    ASSERT_LE(extra, 1);
    if (extra)
        ASSERT_LE(s->seen[0], OFFERED - HALL_PUSH_BACKLOG);
    for (int i = 0; i < HALL_PUSH_BACKLOG; i++) /* the rest each in turn, the newest last */
        ASSERT_EQ(s->seen[extra + i], OFFERED - HALL_PUSH_BACKLOG + 1 + i);
    ASSERT_EQ(st->game[0].moves, 1);
    pthread_mutex_destroy(&s->mu);
    free(st);
    free(s);
}
