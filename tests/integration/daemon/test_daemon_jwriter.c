/* The journal's writer thread: a commit that stalls (a frozen or very slow disk) blocks neither
 * the control socket nor the speech nor an arbiter's command from the hall; the game waits for
 * it (nothing agreed or announced before its record is on disk) and a stall of seconds is said
 * to the players and the arbiter. A game-changing request whose own commit is the first to
 * fail is answered with an error saying it is not done and why. The disk stalls and fails on
 * demand through the journal's file operations (tb_journal_io). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_hall.h"
#include "tb_journal.h"
#include "tb_test.h"

static long mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The disk: fails every write with `error` while it is set; the next fdatasync after `stall_ms`
 * is set takes that long. Its hooks run on the daemon's writer thread. */
struct disk {
    atomic_int error;
    atomic_int stall_ms;
    atomic_bool stalling;
    atomic_int stalls;
    atomic_long stall_start, stall_end;
};

static ssize_t disk_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    struct disk *k = user;
    if (atomic_load(&k->error)) {
        errno = atomic_load(&k->error);
        return -1;
    }
    return pwrite(fd, buf, len, off);
}

static int disk_fdatasync(void *user, int fd)
{
    struct disk *k = user;
    int ms = atomic_exchange(&k->stall_ms, 0);
    if (ms > 0) {
        atomic_store(&k->stall_start, mono_ms());
        atomic_store(&k->stalling, true);
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        atomic_store(&k->stall_end, mono_ms());
        atomic_store(&k->stalls, atomic_load(&k->stalls) + 1);
        atomic_store(&k->stalling, false);
    }
    if (atomic_load(&k->error)) {
        errno = atomic_load(&k->error);
        return -1;
    }
    return fdatasync(fd);
}

static const struct tb_journal_io *disk_io(struct disk *k)
{
    static struct tb_journal_io io = {.pwrite = disk_pwrite, .fdatasync = disk_fdatasync};
    io.user = k;
    return &io;
}

/* ---- a stalled commit --------------------------------------------------------------------- */

struct watch {
    struct fx *f;
    struct disk *disk;
    void (*log)(void *arg, enum tb_config_log level, const char *line);
    int stall_after, stall_ms;
    int agreed;
    int early;    /* agreed or announced while the write that held it had not returned */
    int notice;   /* "please wait", "the arbiter has been called" during the stall */
    bool noticed; /* the log said the stall */
};

static void watch_log(void *arg, enum tb_config_log level, const char *line)
{
    struct watch *w = arg;
    w->log(w->f, level, line);
    bool stalling = atomic_load(&w->disk->stalling);
    if (strstr(line, "a write has not returned"))
        w->noticed = stalling;
    if (strstr(line, "info: agreed: ")) {
        w->early += stalling;
        if (++w->agreed == w->stall_after)
            atomic_store(&w->disk->stall_ms, w->stall_ms);
    } else if (strstr(line, "info: say to ") && stalling) {
        if (w->noticed)
            w->notice++;
        else
            w->early++;
    }
}

/* A client asking `status` over the socket while the daemon's loop runs on the main thread. */
struct asker {
    const char *socket;
    struct disk *disk;
    atomic_bool stop;
    int answers;       /* answered while the disk stalled */
    long worst_ms;     /* the slowest of them */
    bool saw_writing;  /* status said "journal: writing, N s" */
    char failure[300]; /* "connect: " and an error message whole */
};

static void *ask_status(void *arg)
{
    struct asker *a = arg;
    struct tb_error err = {0};
    int fd = tb_ctl_client_connect(a->socket, false, &err);
    if (fd < 0) {
        snprintf(a->failure, sizeof a->failure, "connect: %s", err.msg);
        return NULL;
    }
    static char got[65536];
    while (!atomic_load(&a->stop)) {
        bool during = atomic_load(&a->disk->stalling);
        long t0 = mono_ms();
        if (send(fd, "status\n", 7, MSG_NOSIGNAL) != 7) {
            snprintf(a->failure, sizeof a->failure, "send: %s", strerror(errno));
            break;
        }
        size_t n = 0;
        while (!tb_ctl_answer_complete(got, n)) {
            ssize_t r = read(fd, got + n, sizeof got - n - 1);
            if (r <= 0) {
                snprintf(a->failure, sizeof a->failure, "read: %s", r ? strerror(errno) : "EOF");
                close(fd);
                return NULL;
            }
            n += (size_t)r;
            got[n] = '\0';
        }
        long took = mono_ms() - t0;
        if (during && atomic_load(&a->disk->stalling)) {
            a->answers++;
            if (took > a->worst_ms)
                a->worst_ms = took;
            a->saw_writing |= strstr(got, "journal: writing, ") != NULL;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    close(fd);
    return NULL;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The fsync before ply 6's announcement takes 3 s: meanwhile `status` over the socket answers
 * at once and says the journal is writing, the players hear after 2 s that play waits and the
 * arbiter is called, and ply 6 is announced only once its record is on disk. Nothing is lost. */
TB_TEST(a_stalled_commit_blocks_neither_status_nor_speech_and_the_move_waits_for_it)
{
    struct fx f;
    fx_init(&f, "stall");
    tb_chess_move moves[256];
    int n = tb_daemon_demo_moves(moves, 256);
    ASSERT_GT(n, 10);
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .pause_ms = 300, .blips = true, .seed = 5};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f.script, NULL));
    fx_options(&f, "script", "script");
    f.o.speed = TB_DAEMON_SPEED_REALTIME; /* the boards on the wall clock, as at a table */
    f.o.socket_path = f.socket;
    struct disk disk = {0};
    struct watch w = {.f = &f, .disk = &disk, .log = f.o.log, .stall_after = 5, .stall_ms = 3000};
    f.o.journal_io = disk_io(&disk);
    f.o.log = watch_log;
    f.o.log_arg = &w;
    fx_start(&f);

    struct asker a = {.socket = f.socket, .disk = &disk};
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, ask_status, &a), 0);
    for (int i = 0; i < 400000 && !atomic_load(&disk.stalls); i++)
        ASSERT_GE(tb_daemon_step(f.d, 20), 0);
    atomic_store(&a.stop, true);
    pthread_join(th, NULL);
    ASSERT_STR_EQ(a.failure, "");
    ASSERT_EQ(atomic_load(&disk.stalls), 1);
    ASSERT_GE(atomic_load(&disk.stall_end) - atomic_load(&disk.stall_start), 3000);
    ASSERT_GE(a.answers, 20);               /* asked all along the stall ... */
    ASSERT_LT(a.worst_ms, tb_test_ms(100)); /* ... and answered at once */
    ASSERT_TRUE(a.saw_writing);
    fprintf(stderr, "status during a %ld ms stall: %d answers, the slowest in %ld ms\n",
            atomic_load(&disk.stall_end) - atomic_load(&disk.stall_start), a.answers, a.worst_ms);

    ASSERT_EQ(fx_run(&f, 100000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_TRUE(c.done);
    ASSERT_EQ(w.early, 0);  /* nothing agreed or said before its record was on disk */
    ASSERT_EQ(w.notice, 4); /* both players: please wait, the arbiter has been called */
    ASSERT_EQ(count(f.log, "a write has not returned for"), 1);
    ASSERT_EQ(count(f.log, "it is on disk, play goes on"), 1);
    ASSERT_EQ(count(f.log, "error:"), 0);
    ASSERT_EQ(c.plies, n);
    /* The journal on disk holds every agreed move once, nothing lost. */
    fx_free_whole(&f, moves, n);
}

/* ---- a game-changing request whose commit is the first to fail ---------------------------- */

#define NOT_DONE "not done: the journal cannot be written (No space left on device)"

/* The request's answer says it is not done and why; status says the journal cannot be
 * written; the game is as it was. */
static void refused_by_the_disk(struct fx *f, struct disk *k, const char *req, const char *what)
{
    char before[8192], after[8192];
    fx_moves(f, before, sizeof before);
    atomic_store(&k->error, ENOSPC);
    const char *a = fx_req(f, req);
    ASSERT_STR_CONTAINS(a, "error state " NOT_DONE);
    ASSERT_STR_CONTAINS(a, what);
    ASSERT_STR_CONTAINS(a, "kept in memory");
    ASSERT_STR_CONTAINS(fx_req(f, "status"), "journal: cannot write: No space left on device");
    ASSERT_STR_EQ(fx_moves(f, after, sizeof after), before);
    ASSERT_STR_CONTAINS(f->log, "ARBITER called");
}

/* The disk works again: once the retry has written the records kept, the loop goes on. */
static void disk_back(struct fx *f, struct disk *k)
{
    atomic_store(&k->error, 0);
    for (int i = 0; i < tb_test_ms(3000) / 10; i++) {
        struct tb_daemon_counters c;
        tb_daemon_counters(f->d, &c);
        if (!c.journal_stopped && !c.journal_writing)
            break;
        tb_daemon_step(f->d, 10);
    }
    ASSERT_STR_CONTAINS(f->log, "writing again");
    ASSERT_STR_CONTAINS(fx_req(f, "status"), "journal: ok");
}

static void start_typed(struct fx *f, struct disk *k, const char *name)
{
    fx_init(f, name);
    fx_options(f, "keys:", "keys:");
    f->o.journal_io = disk_io(k);
    fx_start(f);
    ASSERT_STR_EQ(fx_req(f, "move vi e4"), "ok\n");
    ASSERT_STR_EQ(fx_req(f, "move sighted e4"), "ok\n");
    ASSERT_STR_EQ(fx_req(f, "move sighted e5"), "ok\n");
    ASSERT_STR_EQ(fx_req(f, "move vi e5"), "ok\n");
    ASSERT_EQ(fx_plies(f), 2);
}

/* The arbiter's takeback: not done, queued, done once the journal can be written. */
TB_TEST(takeback_whose_commit_fails_first_is_not_done_and_is_done_on_resume)
{
    struct fx f;
    struct disk k = {0};
    start_typed(&f, &k, "fail-takeback");
    refused_by_the_disk(&f, &k, "takeback 1 pin=" FX_PIN, "the takeback is kept in memory");
    ASSERT_EQ(fx_plies(&f), 2);
    ASSERT_STR_CONTAINS(fx_req(&f, "takeback 1 pin=" FX_PIN), "error state the journal cannot");
    disk_back(&f, &k);
    ASSERT_STR_CONTAINS(f.log, "arbiter: takeback 1");
    ASSERT_EQ(fx_plies(&f), 1);
    fx_free(&f);
}

/* An arbiter action that starts a game over, refused by the disk, then done on resume. */
static void restart_not_done(const char *name, const char *req, const char *what, const char *done)
{
    struct fx f;
    struct disk k = {0};
    start_typed(&f, &k, name);
    refused_by_the_disk(&f, &k, req, what);
    ASSERT_EQ(fx_plies(&f), 2);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: in-sync");
    disk_back(&f, &k);
    ASSERT_STR_CONTAINS(f.log, done);
    ASSERT_EQ(fx_plies(&f), 0);
    fx_free(&f);
}

TB_TEST(set_position_whose_commit_fails_first_is_not_done)
{
    restart_not_done("fail-setpos", "set-position 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 pin=" FX_PIN,
                     "the set-position is kept in memory and is done when",
                     "arbiter: set-position");
}

TB_TEST(new_game_whose_commit_fails_first_is_not_done)
{
    restart_not_done("fail-newgame", "new-game pin=" FX_PIN, "the new-game is kept in memory",
                     "arbiter: new-game");
}

/* D.2.10.1: a typed move is in force once its record is on disk; until then nothing of it is
 * said, and the assistant is told so. */
TB_TEST(typed_move_whose_commit_fails_first_is_answered_with_the_reason)
{
    struct fx f;
    struct disk k = {0};
    start_typed(&f, &k, "fail-typed");
    refused_by_the_disk(&f, &k, "move vi Nf3", "the typed move is kept in memory and takes effect");
    ASSERT_NULL(strstr(f.log, "say to sighted (Black): Springer f3"));
    disk_back(&f, &k);
    ASSERT_STR_EQ(fx_req(&f, "move sighted Nf3"), "ok\n");
    ASSERT_EQ(fx_plies(&f), 3);
    fx_free(&f);
}

/* D.2.9: the arbiter confirms a resolution while the disk is full. */
TB_TEST(resolve_whose_commit_fails_first_is_not_done)
{
    struct fx f;
    struct disk k = {0};
    fx_init(&f, "fail-resolve");
    tb_chess_move moves[64];
    int n = tb_daemon_demo_moves(moves, 64);
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .wrong_ply = 4, .hold_ms = 1500, .pause_ms = 300, .seed = 11};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f.script, NULL));
    fx_options(&f, "script", "script");
    f.o.journal_io = disk_io(&k);
    fx_start(&f);
    unsigned id = fx_run(&f, 100000);
    ASSERT_GT(id, 0u);
    char req[64];
    snprintf(req, sizeof req, "resolve %u pin=%s", id, FX_PIN);
    refused_by_the_disk(&f, &k, req, "the resolve is kept in memory");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: blocked");
    disk_back(&f, &k);
    ASSERT_STR_CONTAINS(f.log, "arbiter: resolve");
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    ASSERT_EQ(fx_plies(&f), n);
    fx_free(&f);
}

static bool knight_announced(struct fx *f)
{
    return strstr(f->log, "say to sighted (Black): Bauer Felix sieben Felix acht Springer");
}

/* D.2.1: the promoting player's choice (announced before the move is made), given while the
 * disk is full: the answer says it takes effect once it is on disk; it does. */
TB_TEST(promotion_choice_whose_commit_fails_first_is_answered_with_the_reason)
{
    struct fx f;
    struct disk k = {0};
    fx_init(&f, "fail-promote");
    fx_script(&f, "300 vi lift f7\n600 vi place f8\n");
    fx_options(&f, "script", "script");
    snprintf(f.o.cfg.start_fen, sizeof f.o.cfg.start_fen, "7k/5P2/8/8/8/8/8/K7 w - - 0 1");
    f.o.exit_when_done = false;
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.journal_io = disk_io(&k);
    fx_start(&f);
    refused_by_the_disk(&f, &k, "promote n",
                        "the promotion choice is kept in memory and takes effect when");
    disk_back(&f, &k);
    ASSERT_TRUE(fx_run_until(&f, 5000, knight_announced));
    fx_free(&f);
}

/* ---- over the socket: a typed move's own commit stalls ------------------------------------ */

/* Reads what has come on fd into buf (at len); true once the answer is whole. */
static bool answered(int fd, char *buf, size_t cap, size_t *len)
{
    ssize_t r = read(fd, buf + *len, cap - *len - 1);
    if (r > 0) {
        *len += (size_t)r;
        buf[*len] = '\0';
    }
    return tb_ctl_answer_complete(buf, *len);
}

/* D.2.10.1: the assistant's move is answered once its record is on disk, 1.5 s later; a second
 * client's `status` is answered meanwhile, and its typed copy waits for the first. */
TB_TEST(a_typed_move_over_the_socket_is_answered_once_on_disk_and_others_are_served)
{
    struct fx f;
    struct disk k = {0};
    fx_init(&f, "stall-typed");
    fx_options(&f, "keys:", "keys:");
    f.o.socket_path = f.socket;
    f.o.exit_when_done = false;
    f.o.journal_io = disk_io(&k);
    fx_start(&f);
    int a = fx_dial(&f), b = fx_dial(&f);
    atomic_store(&k.stall_ms, 1500);
    long t0 = mono_ms();
    ASSERT_EQ(send(a, "move vi e4\n", 11, MSG_NOSIGNAL), 11);
    static char got_a[4096], got_b[4096];
    size_t na = 0, nb = 0;
    bool status_seen = false, status_answered = false, copy_sent = false;
    long a_at = 0, status_at = 0; /* ms after t0; 0 is a real time on a fast machine */
    while (mono_ms() - t0 < tb_test_ms(6000) &&
           !(a_at && copy_sent && answered(b, got_b, sizeof got_b, &nb))) {
        tb_daemon_step(f.d, 10);
        if (!a_at && answered(a, got_a, sizeof got_a, &na))
            a_at = mono_ms() - t0;
        if (!status_seen && atomic_load(&k.stalling)) {
            ASSERT_EQ(send(b, "status\n", 7, MSG_NOSIGNAL), 7);
            status_seen = true;
        }
        if (status_seen && !status_answered && answered(b, got_b, sizeof got_b, &nb)) {
            status_answered = true;
            status_at = mono_ms() - t0;
            ASSERT_STR_CONTAINS(got_b, "ok+ ");
            nb = 0;
            ASSERT_EQ(send(b, "move sighted e4\n", 16, MSG_NOSIGNAL), 16);
            copy_sent = true;
        }
    }
    ASSERT_TRUE(status_seen);
    ASSERT_TRUE(status_answered);
    ASSERT_LT(status_at, a_at ? a_at : 100000); /* status first, during the stall */
    ASSERT_GE(a_at, 1500);                      /* the move: once its record was on disk */
    ASSERT_STR_EQ(got_a, "ok\n");
    ASSERT_STR_EQ(got_b, "ok\n"); /* the copy, taken after the move */
    ASSERT_EQ(fx_plies(&f), 1);
    close(a);
    close(b);
    fx_free(&f);
}

/* One doorgeefschaak request over the socket while the commit of its record stalls stall_ms:
 * a second client's `status` is answered during the stall; the request's answer (into got)
 * comes after it. Returns when the request was answered, in ms after it was sent. */
static long bug_request_during_a_stall(struct fx *f, struct disk *k, const char *line, char *got,
                                       size_t cap)
{
    int a = fx_dial(f), b = fx_dial(f);
    atomic_store(&k->stall_ms, 1500);
    long t0 = mono_ms(), a_at = 0, status_at = 0; /* ms after t0; 0 is a real time */
    ASSERT_EQ(send(a, line, strlen(line), MSG_NOSIGNAL), (ssize_t)strlen(line));
    static char got_b[8192];
    size_t na = 0, nb = 0;
    got[0] = '\0';
    bool status_sent = false;
    while (mono_ms() - t0 < tb_test_ms(6000) && !(a_at && status_at)) {
        tb_daemon_step(f->d, 10);
        if (!a_at && answered(a, got, cap, &na))
            a_at = mono_ms() - t0;
        if (!status_sent && atomic_load(&k->stalling)) {
            ASSERT_EQ(send(b, "status\n", 7, MSG_NOSIGNAL), 7);
            status_sent = true;
        }
        if (status_sent && !status_at && answered(b, got_b, sizeof got_b, &nb))
            status_at = mono_ms() - t0;
    }
    ASSERT_TRUE(status_sent);
    ASSERT_STR_CONTAINS(got_b, "mode: doorgeefschaak");
    ASSERT_GT(a_at, 0);
    ASSERT_LT(status_at, a_at); /* status first, during the stall */
    close(a);
    close(b);
    return a_at;
}

/* Doorgeefschaak's requests are answered as the twin game's: once their record is on disk. A
 * typed move (White A's e4) and a hand asked for (2.6) each wait for their commit, stalled
 * 1.5 s; the hand's answer keeps its words; `status` is answered meanwhile. */
TB_TEST(doorgeefschaak_requests_are_answered_once_their_record_is_on_disk)
{
    struct fx f;
    struct disk k = {0};
    fx_init(&f, "stall-bug");
    fx_options(&f, "keys:", "keys:");
    f.o.cfg.bughouse.enabled = true;
    f.o.socket_path = f.socket;
    f.o.exit_when_done = false;
    f.o.journal_io = disk_io(&k);
    fx_start(&f);
    char got[4096];
    ASSERT_GE(bug_request_during_a_stall(&f, &k, "move a e4\n", got, sizeof got), 1500);
    ASSERT_STR_EQ(got, "ok\n");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "doorgeefschaak (bughouse), 1 plies");
    ASSERT_GE(bug_request_during_a_stall(&f, &k, "hand white-a\n", got, sizeof got), 1500);
    ASSERT_STR_CONTAINS(got, "ok White A holds");
    fx_free(&f);
}

/* ---- an arbiter's command from the hall's broker while the disk stalls ------------------- */

/* A Mosquitto broker of the test's own on a free loopback port; the command sent with
 * mosquitto_pub as the hall's dashboard would send it. Skipped when mosquitto is not installed. */
static int free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    union { /* the address as bind() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_in in;
    } a = {.in = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof a.in;
    ASSERT_GE(s, 0);
    ASSERT_OK(bind(s, &a.sa, sizeof a.in));
    ASSERT_OK(getsockname(s, &a.sa, &len));
    close(s);
    return ntohs(a.in.sin_port);
}

static pid_t spawn(char *const argv[])
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", 1);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    return pid;
}

static bool have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

/* One `status` over the socket, the loop turned until it is answered: how long it took (ms). */
static long status_over_the_socket(struct fx *f, int fd)
{
    static char got[16384];
    size_t n = 0;
    long t0 = mono_ms();
    ASSERT_EQ(send(fd, "status\n", 7, MSG_NOSIGNAL), 7);
    while (!tb_ctl_answer_complete(got, n) && mono_ms() - t0 < tb_test_ms(5000)) {
        tb_daemon_step(f->d, 5);
        ssize_t r = read(fd, got + n, sizeof got - n - 1);
        if (r > 0)
            n += (size_t)r;
    }
    got[n] = '\0';
    ASSERT_STR_CONTAINS(got, "\njournal: ");
    return mono_ms() - t0;
}

static bool broker_connected(struct fx *f)
{
    return strstr(fx_req(f, "status"), "broker connected") != NULL;
}

static const char *done_line;
static bool command_done(struct fx *f)
{
    return strstr(f->log, done_line) != NULL;
}

/* A broker for the table (its pid), named in f's options (after fx_options). */
static pid_t hall_broker(struct fx *f, char *port_text, size_t len)
{
    char conf[600];
    int port = free_port();
    snprintf(port_text, len, "%d", port);
    snprintf(conf, sizeof conf, "%s/mosquitto.conf", f->dir);
    FILE *c = fopen(conf, "w");
    ASSERT_NOT_NULL(c);
    fprintf(c, "listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n", port);
    ASSERT_OK(fclose(c));
    char *broker_argv[] = {"mosquitto", "-c", conf, NULL};
    pid_t broker = spawn(broker_argv);
    snprintf(f->o.cfg.hall.broker, sizeof f->o.cfg.hall.broker, "127.0.0.1");
    f->o.cfg.hall.port = port;
    snprintf(f->o.cfg.hall.tournament, sizeof f->o.cfg.hall.tournament, "stall");
    snprintf(f->o.cfg.hall.table, sizeof f->o.cfg.hall.table, "t1");
    return broker;
}

/* The hall's command cmd published while the next commit stalls 3 s: `status` is asked over
 * the socket throughout; each answer must come within 100 ms while the disk stalls, and the
 * command is done only once its record is on disk. Stops the broker. */
static void hall_command_while_the_disk_stalls(struct fx *f, struct disk *k, pid_t broker,
                                               const char *port_text, struct tb_hall_cmd *cmd)
{
    static char json[TB_HALL_PAYLOAD_MAX], line[128];
    snprintf(cmd->request, sizeof cmd->request, "r1");
    snprintf(cmd->pin, sizeof cmd->pin, "%s", FX_PIN);
    snprintf(line, sizeof line, "hall: %s (request r1) done", tb_hall_cmd_name(cmd->action));
    done_line = line;
    ASSERT_GT(tb_hall_cmd_encode(cmd, json, sizeof json, NULL), 0);
    atomic_store(&k->stall_ms, 3000);
    char *pub_argv[] = {"mosquitto_pub",          "-h", "127.0.0.1", "-p",
                        (char *)port_text,        "-q", "1",         "-t",
                        "twinboard/stall/t1/cmd", "-m", json,        NULL};
    pid_t pub = spawn(pub_argv);
    int fd = fx_dial(f);
    long t0 = mono_ms(), slowest = 0, done_at = 0;
    int answers = 0, during = 0;
    while (mono_ms() - t0 < tb_test_ms(10000) && !done_at) {
        bool stalling = atomic_load(&k->stalling);
        long ms = status_over_the_socket(f, fd);
        answers++;
        if (stalling) {
            during++;
            slowest = ms > slowest ? ms : slowest;
        }
        if (command_done(f))
            done_at = mono_ms();
        nanosleep(&(struct timespec){0, 20000000L}, NULL);
    }
    close(fd);
    waitpid(pub, NULL, 0);
    kill(broker, SIGTERM);
    waitpid(broker, NULL, 0);
    printf("%d status answers, %d during the stall, the slowest %ld ms\n", answers, during,
           slowest);
    ASSERT_GT(done_at, 0);
    ASSERT_GT(during, 20);               /* the loop answered through the 3 s stall */
    ASSERT_LT(slowest, tb_test_ms(100)); /* each within 100 ms */
    long end = atomic_load(&k->stall_end);
    ASSERT_GT(end, 0);
    ASSERT_GE(done_at, end); /* answered once the record is on disk */
}

/* D.2.9: the arbiter takes a move back from the hall while the commit of its record stalls 3 s
 * (the one table of the arbiter's actions, answered by ticket). */
TB_TEST(law_D_2_9_a_hall_command_while_the_disk_stalls_never_stalls_the_loop)
{
    if (!have("mosquitto") || !have("mosquitto_pub")) {
        printf("mosquitto not installed: skipped (host/tools/dev deps installs it)\n");
        return;
    }
    struct fx f;
    fx_init(&f, "hallstall");
    char port_text[16];
    fx_options(&f, "keys:", "keys:");
    pid_t broker = hall_broker(&f, port_text, sizeof port_text);
    struct disk k = {0};
    f.o.socket_path = f.socket;
    f.o.exit_when_done = false;
    f.o.journal_io = disk_io(&k);
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 10000, broker_connected));
    ASSERT_STR_EQ(fx_req(&f, "move vi e4"), "ok\n");
    ASSERT_STR_EQ(fx_req(&f, "move sighted e4"), "ok\n");
    ASSERT_EQ(fx_plies(&f), 1);
    struct tb_hall_cmd cmd = {.action = TB_HALL_CMD_TAKEBACK, .n = 1};
    hall_command_while_the_disk_stalls(&f, &k, broker, port_text, &cmd);
    ASSERT_EQ(fx_plies(&f), 0);
    fx_free(&f);
}

static struct ptyboard *reed;
static bool broker_connected_pumped(struct fx *f)
{
    ptyboard_pump(reed);
    return broker_connected(f);
}
static void square(const char *name, int placed)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    ASSERT_OK(ptyboard_square(reed, sq, placed, true));
}

/* D.2.9: the arbiter confirms a mismatch from the hall (resolve) while the commit of its record
 * stalls 3 s: the loop answers `status` throughout, the resolve is done once on disk, and the
 * board put right then plays on. */
TB_TEST(law_D_2_9_a_hall_resolve_while_the_disk_stalls_never_stalls_the_loop)
{
    if (!have("mosquitto") || !have("mosquitto_pub")) {
        printf("mosquitto not installed: skipped (host/tools/dev deps installs it)\n");
        return;
    }
    struct fx f;
    struct ptyboard b;
    reed = &b;
    fx_pty_keys_options(&f, &b, "hallresolve");
    char port_text[16];
    pid_t broker = hall_broker(&f, port_text, sizeof port_text);
    struct disk k = {0};
    f.o.socket_path = f.socket;
    f.o.exit_when_done = false;
    f.o.journal_io = disk_io(&k);
    fx_start_pty(&f);
    ASSERT_TRUE(fx_run_until(&f, 10000, broker_connected_pumped));
    square("e2", 0); /* 1. e4 on the reed board, copied by typing */
    square("e4", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_sighted));
    ASSERT_STR_EQ(fx_req(&f, "move sighted e4"), "ok\n");
    ASSERT_STR_EQ(fx_req(&f, "move sighted e5"), "ok\n");
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_vi));
    square("e7", 0); /* the copy of 1... e5 made as 1... e6 */
    square("e6", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_blocked));
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_NE(c.mismatch, 0);
    struct tb_hall_cmd cmd = {.action = TB_HALL_CMD_RESOLVE, .mismatch = c.mismatch};
    hall_command_while_the_disk_stalls(&f, &k, broker, port_text, &cmd);
    square("e6", 0);
    square("e5", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_in_sync));
    ASSERT_EQ(fx_plies(&f), 2);
    fx_free(&f);
    ptyboard_unplug(&b);
}
