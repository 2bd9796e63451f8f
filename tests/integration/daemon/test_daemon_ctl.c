/* The control socket: mode 0660, many clients, a bounded request line; malformed, oversized and
 * unauthorised requests get a clear error and change nothing (not even the journal). And an
 * idle daemon sleeps: its poll waits for the next deadline. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_ctl.h"
#include "tb_test.h"

static int dial(struct fx *f)
{
    return fx_dial(f);
}

/* Sends bytes, then turns the daemon's loop until a whole answer has come back. */
static const char *ask(struct fx *f, int fd, const char *req, size_t len)
{
    static char got[65536];
    size_t n = 0;
    ASSERT_EQ(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
    got[0] = '\0';
    for (int i = 0; i < 1200; i++) {
        tb_daemon_step(f->d, 5);
        ssize_t r = read(fd, got + n, sizeof got - n - 1);
        if (r > 0) {
            n += (size_t)r;
            got[n] = '\0';
        }
        if (tb_ctl_answer_complete(got, n))
            return got;
    }
    TB_FAIL("no complete answer to '%.40s', got '%s'", req, got);
    return NULL;
}

static const char *ask_line(struct fx *f, int fd, const char *line)
{
    return ask(f, fd, line, strlen(line));
}

static off_t journal_size(struct fx *f)
{
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", f->journal);
    struct stat st;
    ASSERT_OK(stat(path, &st));
    return st.st_size;
}

static void start(struct fx *f, const char *name)
{
    fx_init(f, name);
    fx_script(f,
              "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n");
    fx_options(f, "script", "script");
    f->o.socket_path = f->socket;
    f->o.exit_when_done = false;
    fx_start(f);
    for (int i = 0; i < 50 && fx_plies(f) < 1; i++)
        tb_daemon_step(f->d, 5);
    ASSERT_EQ(fx_plies(f), 1);
    /* the board events read so far are written (the journal's writer thread) */
    for (int i = 0, idle = 0; i < 200 && idle < 2; i++) {
        struct tb_daemon_counters c;
        tb_daemon_step(f->d, 5);
        tb_daemon_counters(f->d, &c);
        idle = c.journal_writing ? 0 : idle + 1;
    }
}

TB_TEST(ctl_socket_mode_0660)
{
    struct fx f;
    start(&f, "mode");
    struct stat st;
    ASSERT_OK(stat(f.socket, &st));
    ASSERT_TRUE(S_ISSOCK(st.st_mode));
    ASSERT_EQ(st.st_mode & 0777, 0660);
    fx_free(&f);
    ASSERT_NE(stat(f.socket, &st), 0); /* removed when the daemon stops */
}

TB_TEST(ctl_bad_requests_change_nothing)
{
    struct fx f;
    start(&f, "bad");
    int fd = dial(&f);
    static char before[65536];
    snprintf(before, sizeof before, "%s", ask_line(&f, fd, "moves\n"));
    off_t size = journal_size(&f);

    ASSERT_STR_CONTAINS(ask_line(&f, fd, "bogus\n"), "error unknown");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "status now\n"), "error syntax");
    ASSERT_STR_CONTAINS(ask(&f, fd, "sta\0tus\n", 8), "error syntax");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "move vi \xff\xfe\n"), "error syntax");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "promote k\n"), "error syntax");
    static char big[2000];
    memset(big, 'x', sizeof big - 2);
    big[sizeof big - 2] = '\n';
    ASSERT_STR_CONTAINS(ask(&f, fd, big, sizeof big - 1), "error too-long");
    /* unauthorised: no PIN, a wrong one, a PIN where none belongs */
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "takeback 1\n"), "error denied");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "takeback 1 pin=958273\n"), "error denied");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "new-game pin=12345\n"), "error denied");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "status pin=" FX_PIN "\n"), "error syntax");
    /* authorised but impossible */
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "resolve 7 pin=" FX_PIN "\n"), "error unknown");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "set-position 8/8/8/8 w - - 0 1 pin=" FX_PIN "\n"),
                        "error");
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "move vi e5\n"), "error unsupported");
    /* the PIN is never echoed */
    ASSERT_TRUE(strstr(f.log, "pin=" FX_PIN) == NULL);

    ASSERT_STR_EQ(ask_line(&f, fd, "moves\n"), before);
    ASSERT_EQ(journal_size(&f), size);
    close(fd);
    fx_free(&f);
}

/* Every request's row says what the daemon does with it: a request the twin game takes is not
 * refused for its mode and, answered ok, comes as ok+ ... . exactly when its row says it is
 * multi-line; a doorgeefschaak request is refused in the twin game, saying so. An example of
 * each request (a row without one fails the test: a new request gets one here). */
TB_TEST(every_request_is_answered_as_its_row_says)
{
    static const char *const example[TB_CTL_NVERBS] = {
        [TB_CTL_STATUS] = "status",
        [TB_CTL_MOVES] = "moves",
        [TB_CTL_PGN] = "pgn",
        [TB_CTL_SCORESHEET] = "scoresheet nl",
        [TB_CTL_RESOLVE] = "resolve 7 pin=" FX_PIN,
        [TB_CTL_PROMOTE] = "promote q",
        [TB_CTL_REPEAT] = "repeat vi",
        [TB_CTL_MOVE] = "move vi e5",
        [TB_CTL_HELP] = "help",
        [TB_CTL_REVIEW] = "review vi last",
        [TB_CTL_RESULT] = "result draw pin=" FX_PIN,
        [TB_CTL_CLOCK_SET] = "clock-set 1:00:00 1:00:00 pin=" FX_PIN,
        [TB_CTL_GAMES] = "games",
        [TB_CTL_HAND] = "hand white-a",
        [TB_CTL_BPGN] = "bpgn",
        [TB_CTL_RESIGN] = "resign a white pin=" FX_PIN,
        [TB_CTL_CHOOSE] = "choose a q",
        [TB_CTL_ACCEPT] = "accept a",
        [TB_CTL_REPLACE] = "replace a",
        /* last: they start the game over or change the PIN */
        [TB_CTL_TAKEBACK] = "takeback 1 pin=" FX_PIN,
        [TB_CTL_SET_POSITION] = "set-position 4k3/8/8/8/8/8/8/4K3 w - - 0 1 pin=" FX_PIN,
        [TB_CTL_NEW_GAME] = "new-game white=\"Doe, Jane\" pin=" FX_PIN,
        [TB_CTL_SET_PIN] = "set-pin 582914 pin=" FX_PIN,
    };
    static const enum tb_ctl_verb last[] = {TB_CTL_TAKEBACK, TB_CTL_SET_POSITION, TB_CTL_NEW_GAME,
                                            TB_CTL_SET_PIN};
    struct fx f;
    start(&f, "rows");
    int fd = dial(&f);
    int oks = 0;
    for (int i = 0; tb_ctl_verb_at(i); i++) {
        const struct tb_ctl_verb_info *v = tb_ctl_verb_at(i);
        bool late = false;
        for (size_t k = 0; k < sizeof last / sizeof last[0]; k++)
            late |= v->verb == last[k];
        if (late)
            continue;
        if (!example[v->verb])
            TB_FAIL("the request %s has no example here", v->name);
        char line[300];
        snprintf(line, sizeof line, "%s\n", example[v->verb]);
        const char *a = ask_line(&f, fd, line);
        if (!(v->flags & TB_CTL_TWIN)) {
            if (!strstr(a, "error state ") || !strstr(a, " is for doorgeefschaak"))
                TB_FAIL("%s in the twin game: '%s'", v->name, a);
            continue;
        }
        if (strstr(a, " is for "))
            TB_FAIL("%s refused for its mode: '%s'", v->name, a);
        if (!strncmp(a, "ok", 2)) {
            oks++;
            if (!strncmp(a, "ok+", 3) != !!(v->flags & TB_CTL_MULTI))
                TB_FAIL("%s: its row says %s, the daemon answered '%.60s'", v->name,
                        v->flags & TB_CTL_MULTI ? "ok+" : "ok", a);
        }
    }
    for (size_t k = 0; k < sizeof last / sizeof last[0]; k++) {
        char line[300];
        snprintf(line, sizeof line, "%s\n", example[last[k]]);
        const char *a = ask_line(&f, fd, line);
        if (strncmp(a, "ok", 2) || !strncmp(a, "ok+", 3))
            TB_FAIL("%s: '%s' (ok, one line)", tb_ctl_verb_name(last[k]), a);
    }
    ASSERT_GE(oks, 9); /* status, moves, pgn, scoresheet, repeat, help, review, result, games */
    close(fd);
    fx_free(&f);
}

/* A wrong PIN is checked once, by the guard: its peer's count of wrong PINs in a row rises by
 * one for each request (resolve, D.2.9), and the request goes no further. */
TB_TEST(a_wrong_pin_is_counted_once_per_request)
{
    struct fx f;
    start(&f, "pin-once");
    int fd = dial(&f);
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "resolve 1 pin=604127\n"),
                        "error denied wrong arbiter PIN");
    ASSERT_STR_CONTAINS(f.log, "(1 in a row)");
    ASSERT_NULL(strstr(f.log, "(2 in a row)"));
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "resolve 1 pin=604127\n"),
                        "error denied wrong arbiter PIN");
    ASSERT_STR_CONTAINS(f.log, "(2 in a row)");
    ASSERT_NULL(strstr(f.log, "(3 in a row)"));
    ASSERT_NULL(strstr(f.log, "no open mismatch")); /* never reached the action */
    close(fd);
    fx_free(&f);
}

/* Several clients at once, a request in pieces, a client gone without reading. */
TB_TEST(ctl_many_clients)
{
    struct fx f;
    start(&f, "many");
    int fd[8];
    for (int i = 0; i < 8; i++)
        fd[i] = dial(&f);
    close(fd[7]); /* gone at once */
    ASSERT_EQ(send(fd[6], "stat", 4, MSG_NOSIGNAL), 4);
    for (int i = 0; i < 6; i++)
        ASSERT_STR_CONTAINS(ask_line(&f, fd[i], "status\n"), "game: 1 plies agreed");
    ASSERT_STR_CONTAINS(ask_line(&f, fd[6], "us\n"), "ok+ ");
    ASSERT_STR_CONTAINS(ask_line(&f, fd[0], "help\n"), "resolve");
    for (int i = 0; i < 7; i++)
        close(fd[i]);
    fx_free(&f);
}

/* A client that sends without ever reading is dropped once its answers pile up; others are
 * still served. */
TB_TEST(ctl_client_not_reading_is_dropped)
{
    struct fx f;
    start(&f, "flood");
    int bad = dial(&f);
    static const char req[] = "pgn\nstatus\nmoves\nhelp\n";
    bool dropped = false;
    for (int i = 0; i < 20000 && !dropped; i++) {
        ssize_t w = send(bad, req, sizeof req - 1, MSG_NOSIGNAL);
        if (w < 0 && errno == EPIPE)
            dropped = true;
        tb_daemon_step(f.d, 0);
    }
    ASSERT_TRUE(dropped || strstr(f.log, "does not read its answers"));
    ASSERT_STR_CONTAINS(f.log, "does not read its answers: dropped");
    int good = dial(&f);
    ASSERT_STR_CONTAINS(ask_line(&f, good, "moves\n"), "1. e4 (e2e4)");
    close(good);
    close(bad);
    fx_free(&f);
}

/* Nothing to do: one poll for the whole wait, no timer before it. */
TB_TEST(idle_daemon_sleeps)
{
    struct fx f;
    fx_init(&f, "idle");
    fx_options(&f, "null:", "keys:");
    f.o.socket_path = f.socket;
    fx_start(&f);
    struct tb_daemon_counters c0, c1;
    tb_daemon_counters(f.d, &c0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ASSERT_EQ(tb_daemon_step(f.d, 1500), 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tb_daemon_counters(f.d, &c1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    ASSERT_GE(ms, 1400);                     /* it slept the whole wait ... */
    ASSERT_EQ(c1.wakeups - c0.wakeups, 1ul); /* ... in one poll */
    fx_free(&f);
}

/* How many descriptors and threads the process has (the directory read itself counted alike). */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ASSERT_TRUE(d != NULL);
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* The control socket is the last part opened: when it cannot be opened the start fails naming
 * it, and every part opened before it (the journal and its writer thread, the boards, voice,
 * braille, broadcast, hall) is closed again: no descriptor or thread is left, and the journal
 * is free for the next start. */
TB_TEST(failed_part_closes_the_parts_opened_before_it)
{
    struct fx f;
    fx_init(&f, "failpart");
    fx_options(&f, "null:", "keys:");
    f.o.socket_path = f.socket;
    FILE *planted = fopen(f.socket, "w"); /* something that is no socket at the path */
    ASSERT_TRUE(planted != NULL);
    fclose(planted);
    int fds0 = count_entries("/proc/self/fd"), threads0 = count_entries("/proc/self/task");
    struct tb_error err = {0};
    struct tb_daemon *d = NULL;
    ASSERT_TRUE(tb_daemon_new(&f.o, &d, &err) < 0);
    ASSERT_TRUE(d == NULL);
    ASSERT_STR_CONTAINS(err.msg, "control socket");
    ASSERT_STR_CONTAINS(err.msg, "something that is no socket is there");
    ASSERT_EQ(count_entries("/proc/self/fd"), fds0);
    ASSERT_EQ(count_entries("/proc/self/task"), threads0); /* the journal's writer joined */
    ASSERT_OK(unlink(f.socket));
    fx_start(&f); /* the same journal and socket: a start as any */
    ASSERT_TRUE(tb_daemon_step(f.d, 0) >= 0);
    fx_free(&f);
}

/* Thousands of random lines (any bytes, any length) on the socket: each gets an answer, the
 * daemon stays up and the game is untouched. */
TB_TEST(ctl_random_requests_change_nothing)
{
    struct fx f;
    start(&f, "random");
    int fd = dial(&f);
    static char before[65536];
    snprintf(before, sizeof before, "%s", ask_line(&f, fd, "moves\n"));
    off_t size = journal_size(&f);
    uint64_t x = 88172645463325252ull;
    static const char words[][16] = {
        "resolve ",      "takeback ", "pin=",    "move vi ",   "promote ",
        "set-position ", "new-game",  "repeat ", "scoresheet "};
    for (int i = 0; i < 3000; i++) {
        char line[700];
        size_t n = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (x % 3 == 0)
            n = (size_t)snprintf(line, sizeof line, "%s", words[(x >> 8) % 9]);
        size_t len = (x >> 20) % (x % 5 == 0 ? 600 : 40);
        for (size_t k = 0; k < len && n < sizeof line - 2; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            char c = (char)(x & 0xff);
            line[n++] = c == '\n' ? ' ' : c;
        }
        line[n++] = '\n';
        const char *a = ask(&f, fd, line, n);
        ASSERT_TRUE(!strncmp(a, "ok", 2) || !strncmp(a, "error ", 6));
    }
    ASSERT_STR_EQ(ask_line(&f, fd, "moves\n"), before);
    ASSERT_EQ(journal_size(&f), size);
    close(fd);
    fx_free(&f);
}

/* One game has one clock: a fast script against a board in real time is refused at start. */
TB_TEST(fast_script_with_real_time_board_refused)
{
    struct fx f;
    fx_init(&f, "clocks");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n");
    fx_options(&f, "script", "null:");
    snprintf(f.o.cfg.player[1].board, sizeof f.o.cfg.player[1].board, "sim:%s?speed=realtime",
             "/dev/null");
    f.o.speed = TB_DAEMON_SPEED_CONFIG;
    snprintf(f.o.cfg.player[0].board, sizeof f.o.cfg.player[0].board, "sim:/dev/null?speed=fast");
    struct tb_error err = {0};
    ASSERT_EQ(tb_daemon_new(&f.o, &f.d, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "cannot be played against a board in real time");
    fx_free(&f);
}

/* D.2.1: a promotion's piece is the promoting player's to announce, once, while the promotion
 * waits for it. After f8=Q+ is made and copied, `promote n` is refused and the game keeps its
 * queen; a request naming a piece for a board with no promotion is no answer `ok`. */
TB_TEST(promote_after_the_promotion_is_refused_and_changes_nothing)
{
    struct fx f;
    fx_init(&f, "promote-late");
    fx_script(&f, "1000 vi lift f7\n1100 vi choose q\n1300 vi place f8\n"
                  "2000 sighted lift f7\n2300 sighted place f8\n");
    fx_options(&f, "script", "script");
    snprintf(f.o.cfg.start_fen, sizeof f.o.cfg.start_fen, "7k/5P2/8/8/8/8/8/K7 w - - 0 1");
    f.o.socket_path = f.socket;
    f.o.exit_when_done = false;
    f.o.speed = TB_DAEMON_SPEED_REALTIME; /* the script in real time: each state is seen */
    fx_start(&f);
    /* the board whose player does not promote has nothing to announce */
    ASSERT_STR_CONTAINS(fx_req(&f, "promote sighted n"), "error state White is to move, on the vi");
    /* at every turn of the loop once the vi player has promoted (with the queen chosen): while
     * the move waits to be copied, while the copier's pawn is in the hand, after the copy */
    bool waited = false;
    for (int i = 0; i < tb_test_ms(4000) / 5 && !waited; i++) {
        waited = strstr(fx_req(&f, "status"), "ok+ waiting") != NULL;
        tb_daemon_step(f.d, 5);
    }
    ASSERT_TRUE(waited);
    for (int i = 0; i < tb_test_ms(4000) / 5 && fx_plies(&f) < 1; i++) {
        ASSERT_STR_CONTAINS(fx_req(&f, "promote n"), "error state");
        tb_daemon_step(f.d, 5);
    }
    ASSERT_EQ(fx_plies(&f), 1);
    char before[256], after[256];
    fx_moves(&f, before, sizeof before);
    ASSERT_STR_CONTAINS(before, "f8=Q+");
    int fd = dial(&f);
    ASSERT_STR_CONTAINS(ask_line(&f, fd, "promote n\n"), "error state");
    close(fd);
    for (int i = 0; i < 20; i++)
        tb_daemon_step(f.d, 5);
    fx_moves(&f, after, sizeof after);
    ASSERT_STR_EQ(after, before);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "f8=Q+");
    fx_stop(&f);
    fx_free(&f);
}
