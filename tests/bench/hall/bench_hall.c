/* bench_hall.c - the arbiter's hall under load: TABLES tables publishing through tb_hall on one
 * Mosquitto broker, twinboard-hall serving them, one live viewer on its event stream.
 *
 *   bench_hall [TABLES [SECONDS [MOVE_MS [push]]]]   defaults 100 tables, 20 s, a move every
 *                                                    1000 ms at each table (staggered)
 *
 * With "push" the hall also runs a round of TABLES boards (a pairings CSV, the round folder) and
 * pushes it to a lichess stand-in served here (the broadcast push API: 200 and each game's
 * moves); each table's state carries its PGN (PlyCount tag: the plies), and the time from the
 * table handing a move's state to tb_hall to the first push request whose body has that board
 * at that ply is measured as well.
 *
 * Measures, for every agreed move: from the table handing it to tb_hall (event, then the new
 * state) to the viewer receiving it on the dashboard's Server-Sent Events stream (the bytes a
 * browser's EventSource gets; a browser's own rendering is not included): median, p99, max;
 * and twinboard-hall's CPU (user + system, over the run) and memory (resident, peak). Starts
 * its own broker and dashboard on free loopback ports and stops them at the end. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_hall.h"

#define MAX_TABLES 500
#define MAX_MOVES  4096

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    union { /* the address as bind() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_in in;
    } a = {.in = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof a.in;
    if (s < 0 || bind(s, &a.sa, sizeof a.in) || getsockname(s, &a.sa, &len))
        exit(1);
    close(s);
    return ntohs(a.in.sin_port);
}

/* 127.0.0.1:port as bind() and connect() take it (&a.sa): no cast between object types */
union loop_addr {
    struct sockaddr sa;
    struct sockaddr_in in;
};
static union loop_addr loopback(int port)
{
    union loop_addr a = {.in = {.sin_family = AF_INET,
                                .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}};
    return a;
}

static int dial(int port)
{
    for (int i = 0; i < 200; i++) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        union loop_addr a = loopback(port);
        if (connect(s, &a.sa, sizeof a.in) == 0)
            return s;
        close(s);
        struct timespec d = {0, 50 * 1000000};
        nanosleep(&d, NULL);
    }
    return -1;
}

static pid_t spawn(char **argv, const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stderr))
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int cmp(const void *a, const void *b);

/* sent[t][seq], received[t][seq] in µs; the viewer thread writes received, the lichess
 * stand-in pushed (board b = table b - 1). */
static uint64_t (*sent)[MAX_MOVES], (*received)[MAX_MOVES], (*pushed)[MAX_MOVES];
static int viewer_fd, lichess_fd;
static unsigned long push_requests;

/* The lichess stand-in: each request read whole, every game's Board and PlyCount noted, 200
 * with each game's moves. */
static void *lichess(void *arg)
{
    (void)arg;
    static char buf[4 << 20];
    for (;;) {
        int c = accept(lichess_fd, NULL, NULL);
        if (c < 0)
            return NULL;
        size_t have = 0;
        long want = -1;
        char *body = NULL;
        while (have < sizeof buf - 1) {
            ssize_t n = read(c, buf + have, sizeof buf - 1 - have);
            if (n <= 0)
                break;
            have += (size_t)n;
            buf[have] = '\0';
            if (!body && (body = strstr(buf, "\r\n\r\n"))) {
                body += 4;
                const char *cl = strstr(buf, "Content-Length: ");
                want = cl ? atol(cl + 16) : 0;
            }
            if (body && (long)(buf + have - body) >= want)
                break;
        }
        uint64_t at = now_us();
        int games = 0;
        /* each game from its Event tag to the next: its Board and PlyCount tags */
        for (char *g = body ? strstr(body, "[Event \"") : NULL; g;) {
            char *next = strstr(g + 1, "[Event \"");
            if (next)
                *next = '\0';
            const char *b = strstr(g, "[Board \""), *pc = strstr(g, "[PlyCount \"");
            int board = b ? atoi(b + 8) : 0;
            long k = pc ? atol(pc + 11) : 0;
            if (board >= 1 && board <= MAX_TABLES && k > 0 && k < MAX_MOVES &&
                !pushed[board - 1][k])
                pushed[board - 1][k] = at;
            games++;
            if (next)
                *next = '[';
            g = next;
        }
        push_requests++;
        static char reply[1 << 16];
        int n = snprintf(reply, sizeof reply, "{\"games\":[");
        for (int i = 0; i < games && n < (int)sizeof reply - 64; i++)
            n += snprintf(reply + n, sizeof reply - (size_t)n, "%s{\"tags\":{},\"moves\":1}",
                          i ? "," : "");
        n += snprintf(reply + n, sizeof reply - (size_t)n, "]}");
        char head[160];
        int h = snprintf(head, sizeof head,
                         "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         "%d\r\nConnection: close\r\n\r\n",
                         n);
        if (write(c, head, (size_t)h) < 0 || write(c, reply, (size_t)n) < 0)
            fprintf(stderr, "bench_hall: the stand-in's answer was not written\n");
        close(c);
    }
}

static int listen_on(int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    union loop_addr a = loopback(port);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (s < 0 || bind(s, &a.sa, sizeof a.in) || listen(s, 64))
        exit(1);
    return s;
}

static void percentiles(const char *what, uint64_t (*at)[MAX_MOVES], int tables, const int *seq)
{
    int moves = 0, got = 0;
    for (int t = 0; t < tables; t++)
        moves += seq[t];
    uint64_t *lat = calloc((size_t)moves + 1, sizeof *lat);
    for (int t = 0; lat && t < tables; t++)
        for (int k = 1; k <= seq[t]; k++)
            if (at[t][k] && sent[t][k])
                lat[got++] = at[t][k] - sent[t][k];
    qsort(lat, (size_t)got, sizeof *lat, cmp);
    printf("hall: %s: %d of %d moves", what, got, moves);
    if (got)
        printf(", median %.2f ms, p99 %.2f ms, max %.2f ms", (double)lat[got / 2] / 1000.0,
               (double)lat[(size_t)((double)got * 0.99)] / 1000.0, (double)lat[got - 1] / 1000.0);
    printf("\n");
    free(lat);
}

static void *viewer(void *arg)
{
    (void)arg;
    static char buf[1 << 20];
    size_t have = 0;
    for (;;) {
        ssize_t n = read(viewer_fd, buf + have, sizeof buf - 1 - have);
        if (n <= 0)
            return NULL;
        uint64_t at = now_us();
        have += (size_t)n;
        buf[have] = '\0';
        char *p = buf, *end;
        while ((end = strstr(p, "\n\n"))) {
            *end = '\0';
            static const char evkey[] = "\"event\":{\"kind\":\"move\",\"seq\":";
            static const char tbkey[] = "\"table\":\"t";
            const char *ev = strstr(p, evkey), *tb = strstr(p, tbkey);
            if (ev && tb) {
                int t = atoi(tb + sizeof tbkey - 1);
                long seq = atol(ev + sizeof evkey - 1);
                if (t >= 0 && t < MAX_TABLES && seq > 0 && seq < MAX_MOVES && !received[t][seq])
                    received[t][seq] = at;
            }
            p = end + 2;
        }
        have = (size_t)(buf + have - p);
        memmove(buf, p, have);
        if (have >= sizeof buf - 1)
            have = 0;
    }
}

static long proc_field(pid_t pid, const char *file, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    FILE *f = fopen(path, "r");
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, strlen(key)))
            v = atol(line + strlen(key));
    if (f)
        fclose(f);
    return v;
}

static double cpu_seconds(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    unsigned long ut = 0, st = 0;
    if (f) {
        if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
            ut = st = 0;
        fclose(f);
    }
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int cmp(const void *a, const void *b)
{ /* ascending µs */
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static const char *const sans[] = {"Nf3", "Nf6", "Ng1", "Ng8"};

int main(int argc, char **argv)
{
    int tables = argc > 1 ? atoi(argv[1]) : 100;
    int seconds = argc > 2 ? atoi(argv[2]) : 20;
    int move_ms = argc > 3 ? atoi(argv[3]) : 1000;
    bool push = argc > 4 && !strcmp(argv[4], "push");
    if (tables < 1 || tables > MAX_TABLES || seconds < 1 || move_ms < 10 || (argc > 4 && !push)) {
        fprintf(stderr, "usage: bench_hall [TABLES (1-%d) [SECONDS [MOVE_MS [push]]]]\n",
                MAX_TABLES);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    sent = calloc(MAX_TABLES, sizeof *sent);
    received = calloc(MAX_TABLES, sizeof *received);
    pushed = calloc(MAX_TABLES, sizeof *pushed);
    char dir[] = "/tmp/bench_hall.XXXXXX", conf[64], mport[16], hport[16], user[64];
    if (!sent || !received || !pushed || !mkdtemp(dir))
        return 1;
    int mqtt = free_port(), http = free_port();
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", dir);
    FILE *f = fopen(conf, "w");
    snprintf(user, sizeof user, "%s", getenv("USER") ? getenv("USER") : "root");
    fprintf(f,
            "listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages "
            "100000\nuser %s\n",
            mqtt, user);
    fclose(f);
    snprintf(mport, sizeof mport, "%d", mqtt);
    snprintf(hport, sizeof hport, "%d", http);
    char *mosq_argv[] = {"mosquitto", "-c", conf, NULL};
    char hconf[64];
    snprintf(hconf, sizeof hconf, "%s/hall.ini", dir);
    char *hall_argv[] = {TB_HALL_BIN, "--broker-port",          mport, "--port",
                         hport,       push ? "--config" : NULL, hconf, NULL};
    if (push) { /* the round: board b at table t(b-1); lichess served here */
        int lport = free_port();
        lichess_fd = listen_on(lport);
        pthread_t lt;
        pthread_create(&lt, NULL, lichess, NULL);
        pthread_detach(lt);
        char path[96];
        snprintf(path, sizeof path, "%s/pairings.csv", dir);
        FILE *pf = fopen(path, "w");
        fprintf(pf, "Board,White,Black,Round\n");
        for (int t = 0; t < tables; t++)
            fprintf(pf, "%d,White %d,Black %d,1\n", t + 1, t + 1, t + 1);
        fclose(pf);
        snprintf(path, sizeof path, "%s/token", dir);
        pf = fopen(path, "w");
        fprintf(pf, "bench-token\n");
        fclose(pf);
        pf = fopen(hconf, "w");
        fprintf(pf, "[round]\npairings = %s/pairings.csv\nfolder = %s/round\ntables =", dir, dir);
        for (int t = 0; t < tables; t++) /* ten a line: a line holds 200 bytes */
            fprintf(pf, "%s t%d", t && t % 10 == 0 ? "\ntables =" : "", t);
        fprintf(pf,
                "\n[lichess]\nround = bench\ntoken_file = %s\nurl = http://127.0.0.1:%d\n"
                "retry = 100ms\n",
                path, lport);
        fclose(pf);
    }
    char mlog[64], hlog[64];
    snprintf(mlog, sizeof mlog, "%s/mosquitto.log", dir);
    snprintf(hlog, sizeof hlog, "%s/hall.log", dir);
    pid_t broker = spawn(mosq_argv, mlog);
    int s = dial(mqtt);
    if (s < 0) {
        fprintf(stderr, "bench_hall: mosquitto did not start (is it installed?)\n");
        return 1;
    }
    close(s);
    pid_t hall = spawn(hall_argv, hlog);
    uint64_t hall_start = now_us();
    viewer_fd = dial(http);
    if (viewer_fd < 0) {
        fprintf(stderr, "bench_hall: twinboard-hall did not start\n");
        kill(broker, SIGTERM);
        return 1;
    }
    char req[96]; /* the Host the dashboard serves: its address and port */
    snprintf(req, sizeof req, "GET /events?from=0 HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n\r\n", http);
    if (write(viewer_fd, req, strlen(req)) < 0)
        return 1;
    pthread_t th;
    pthread_create(&th, NULL, viewer, NULL);

    tb_hall_pub **pub = calloc((size_t)tables, sizeof *pub);
    struct tb_hall_state *st = calloc((size_t)tables, sizeof *st);
    char names[MAX_TABLES][16];
    for (int t = 0; t < tables; t++) {
        snprintf(names[t], sizeof names[t], "t%d", t);
        struct tb_hall_config cfg = {.port = mqtt, .tournament = "bench", .table = names[t]};
        struct tb_error err;
        if (tb_hall_pub_new(&cfg, now_us() / 1000, &pub[t], &err)) {
            fprintf(stderr, "bench_hall: %s\n", err.msg);
            return 1;
        }
        snprintf(st[t].tournament, sizeof st[t].tournament, "bench");
        snprintf(st[t].table, sizeof st[t].table, "t%d", t);
        snprintf(st[t].state, sizeof st[t].state, "in-sync");
        snprintf(st[t].result, sizeof st[t].result, "*");
        st[t].board[0].vi = st[t].board[0].white = true;
        for (int b = 0; b < 2; b++) {
            st[t].board[b].occupancy = 0xffff00000000ffffull;
            st[t].board[b].clock_ms = 5400000;
            st[t].board[b].sheet_from = 1;
            snprintf(st[t].board[b].fen, sizeof st[t].board[b].fen,
                     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        }
    }
    struct pollfd *pfd = calloc((size_t)tables, sizeof *pfd);
    uint64_t start = now_us(), end = start + (uint64_t)seconds * 1000000u, settle = 0;
    int moves = 0, seq[MAX_TABLES] = {0};
    double cpu0 = -1;
    uint64_t run_start = 0;
    for (;;) {
        uint64_t now = now_us();
        int connected = 0;
        for (int t = 0; t < tables; t++) {
            struct tb_hall_pub_stats ps;
            tb_hall_pub_stats(pub[t], &ps);
            connected += ps.connected;
        }
        /* every table connected, and a round's hall past its first seconds (it publishes
           nothing while the tables' retained states come in): the run starts */
        if (cpu0 < 0 && connected == tables && (!push || now > hall_start + 2500000u)) {
            cpu0 = cpu_seconds(hall);
            run_start = now;
            end = now + (uint64_t)seconds * 1000000u;
        }
        if (cpu0 < 0 && now - start > 20000000u) {
            fprintf(stderr, "bench_hall: only %d of %d tables connected\n", connected, tables);
            return 1;
        }
        for (int t = 0; cpu0 >= 0 && now < end && t < tables; t++) {
            /* table t moves at run_start + t * move_ms / tables + k * move_ms */
            uint64_t due = run_start + (uint64_t)t * (uint64_t)move_ms * 1000u / (uint64_t)tables +
                           (uint64_t)seq[t] * (uint64_t)move_ms * 1000u;
            if (now < due || seq[t] + 1 >= MAX_MOVES)
                continue;
            int k = seq[t]++;
            struct tb_hall_event ev = {
                .kind = TB_HALL_EV_MOVE, .seq = (uint64_t)k + 1, .ply = k + 1};
            snprintf(ev.san, sizeof ev.san, "%s", sans[k % 4]);
            snprintf(ev.text, sizeof ev.text, "%d. %s", k / 2 + 1, ev.san);
            for (int b = 0; b < 2; b++)
                if (st[t].board[b].nsheet < TB_HALL_MAX_PLIES)
                    snprintf(st[t].board[b].sheet[st[t].board[b].nsheet++], TB_HALL_SAN_MAX, "%s",
                             ev.san);
            st[t].plies = k + 1;
            st[t].seq = (uint64_t)k + 1;
            if (push) { /* the table's PGN: the pairing's names and round, the plies so far */
                int n = snprintf(st[t].pgn, sizeof st[t].pgn,
                                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1.%d\"]\n"
                                 "[White \"White %d\"]\n[Black \"Black %d\"]\n[Result \"*\"]\n"
                                 "[PlyCount \"%d\"]\n\n",
                                 t + 1, t + 1, t + 1, k + 1);
                for (int i = 0; i <= k && n < (int)sizeof st[t].pgn - 32; i++) {
                    if (i % 2 == 0)
                        n += snprintf(st[t].pgn + n, sizeof st[t].pgn - (size_t)n, "%d. ",
                                      i / 2 + 1);
                    n += snprintf(st[t].pgn + n, sizeof st[t].pgn - (size_t)n, "%s ", sans[i % 4]);
                }
                snprintf(st[t].pgn + n, sizeof st[t].pgn - (size_t)n, "*\n");
            }
            sent[t][k + 1] = now_us();
            tb_hall_pub_event(pub[t], &ev, NULL);
            tb_hall_pub_state(pub[t], &st[t], NULL);
            if (moves == 0) { /* a state the hall refuses measures nothing: said at once */
                static char json[TB_HALL_PAYLOAD_MAX];
                static struct tb_hall_state back;
                struct tb_error err = {0};
                int n = tb_hall_state_encode(&st[t], json, sizeof json, &err);
                if (n < 0 || tb_hall_state_decode(json, (size_t)n, &back, &err) != TB_OK)
                    fprintf(stderr, "bench_hall: the tables' state is refused: %s\n", err.msg);
            }
            moves++;
        }
        if (cpu0 >= 0 && now >= end && !settle)
            settle = now + 3000000u;
        if (settle && now >= settle)
            break;
        int n = 0;
        for (int t = 0; t < tables; t++) {
            pfd[t].fd = tb_hall_pub_fd(pub[t]);
            pfd[t].events = (short)(POLLIN | (tb_hall_pub_want_write(pub[t]) ? POLLOUT : 0));
            pfd[t].revents = 0;
            n++;
        }
        poll(pfd, (nfds_t)n, 2);
        uint64_t ms = now_us() / 1000;
        for (int t = 0; t < tables; t++)
            tb_hall_pub_service(pub[t], pfd[t].revents & (POLLIN | POLLERR | POLLHUP),
                                pfd[t].revents & POLLOUT, ms);
    }
    double cpu = cpu_seconds(hall) - cpu0;
    double wall = (double)(end - run_start) / 1e6;
    long rss = proc_field(hall, "status", "VmRSS:"), hwm = proc_field(hall, "status", "VmHWM:");
    uint64_t *lat = calloc((size_t)moves + 1, sizeof *lat);
    int got = 0;
    for (int t = 0; t < tables; t++)
        for (int k = 1; k <= seq[t]; k++)
            if (received[t][k] && sent[t][k])
                lat[got++] = received[t][k] - sent[t][k];
    qsort(lat, (size_t)got, sizeof *lat, cmp);
    printf("hall: %d tables, a move every %d ms at each, %d s: %d moves, %d received by the viewer "
           "(%d missing)\n",
           tables, move_ms, seconds, moves, got, moves - got);
    if (got)
        printf("hall: move -> SSE viewer: median %.2f ms, p99 %.2f ms, max %.2f ms\n",
               (double)lat[got / 2] / 1000.0, (double)lat[(size_t)((double)got * 0.99)] / 1000.0,
               (double)lat[got - 1] / 1000.0);
    printf("hall: twinboard-hall CPU %.1f%% of one core (%.2f s over %.1f s), resident %ld KiB, "
           "peak %ld KiB\n",
           100.0 * cpu / wall, cpu, wall, rss, hwm);
    unsigned long acked = 0, dropped = 0;
    for (int t = 0; t < tables; t++) {
        struct tb_hall_pub_stats ps;
        tb_hall_pub_stats(pub[t], &ps);
        acked += ps.events_sent;
        dropped += ps.dropped;
        tb_hall_pub_free(pub[t]);
    }
    printf("hall: the broker acknowledged %lu events; %lu dropped by the tables\n", acked, dropped);
    if (push) {
        /* the moves pushed at their own ply (the hall queues every position), then: a move is
           pushed by the first request holding its board at its ply or later */
        int own = 0, all = 0;
        for (int t = 0; t < tables; t++)
            for (int k = 1; k <= seq[t] && k < MAX_MOVES; k++, all++)
                own += pushed[t][k] != 0;
        printf("hall: %d of %d moves pushed at their own ply\n", own, all);
        for (int t = 0; t < tables; t++)
            for (int k = seq[t] - 1; k >= 1; k--)
                if (!pushed[t][k] || (pushed[t][k + 1] && pushed[t][k + 1] < pushed[t][k]))
                    pushed[t][k] = pushed[t][k + 1];
        percentiles("move -> lichess push request", pushed, tables, seq);
        for (int t = 0; getenv("TB_BENCH_KEEP") && t < tables; t++)
            for (int k = 1; k <= seq[t]; k++)
                if (!pushed[t][k])
                    fprintf(stderr, "not pushed: t%d ply %d\n", t, k);
        printf("hall: %lu push requests\n", push_requests);
    }
    kill(hall, SIGTERM);
    kill(broker, SIGTERM);
    waitpid(hall, NULL, 0);
    waitpid(broker, NULL, 0);
    shutdown(viewer_fd, SHUT_RDWR);
    pthread_join(th, NULL);
    close(viewer_fd);
    if (got != moves || getenv("TB_BENCH_KEEP"))
        fprintf(stderr, "bench_hall: logs kept in %s\n", dir);
    else {
        unlink(conf);
        unlink(mlog);
        unlink(hlog);
    }
    rmdir(dir);
    free(lat);
    free(pfd);
    free(st);
    free(pub);
    free(sent);
    free(received);
    return got == moves ? 0 : 1;
}
