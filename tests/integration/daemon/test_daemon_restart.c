/* After a restart the boards are read: the VI board (a reed board on a pseudo-terminal) changed
 * while the daemon was down. A move made meanwhile is recognised as that move, a capture too;
 * a stray piece is raised as a mismatch naming the square and how to put it right (D.2.9); a
 * board that shows the recovered position goes on silently. The sighted player's assistant
 * types (keys:). Real time. */
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_test.h"

static struct ptyboard *the_board;

static void square(struct ptyboard *b, const char *name, int placed, bool send)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    ASSERT_OK(ptyboard_square(b, sq, placed, send));
}

static int want_plies;
static bool has_plies(struct fx *f)
{
    ptyboard_pump(the_board);
    return fx_plies(f) >= want_plies && strstr(fx_req(f, "status"), "state: in-sync");
}

static const char *want_said;
static bool said_it(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(f->log, want_said) != NULL;
}

static const char *want_state;
static bool in_state(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(fx_req(f, "status"), want_state) != NULL;
}

/* 1. e4 d5 played and copied: White to move, the VI board's e4 pawn can take on d5. */
static void opening(struct fx *f, struct ptyboard *b, const char *name)
{
    the_board = b;
    fx_start_pty_keys(f, b, name);
    square(b, "e2", 0, true);
    square(b, "e4", 1, true);
    want_state = "state: waiting: the sighted board";
    ASSERT_TRUE(fx_run_until(f, 3000, in_state));
    ASSERT_STR_EQ(fx_req(f, "move sighted e4"), "ok\n");
    want_plies = 1;
    ASSERT_TRUE(fx_run_until(f, 3000, has_plies));
    ASSERT_STR_EQ(fx_req(f, "move sighted d5"), "ok\n");
    square(b, "d7", 0, true);
    square(b, "d5", 1, true);
    want_plies = 2;
    ASSERT_TRUE(fx_run_until(f, 3000, has_plies));
}

/* The daemon stops (its journal holds everything); the board changes while nobody reads it;
 * the daemon starts again on the same journal and reads the board. */
static void restart(struct fx *f)
{
    fx_stop(f);
    ptyboard_unplug(the_board);
    ASSERT_OK(ptyboard_plug(the_board)); /* the reading the new daemon asks for */
    fx_start(f);
    ASSERT_EQ(fx_plies(f), 2); /* recovered */
}

/* Squares changed on the VI board while the daemon was down: "g1-" lifted, "f3+" placed. */
static void while_down(struct fx *f, struct ptyboard *b, const char *name, const char *changes)
{
    opening(f, b, name);
    for (const char *c = changes; *c; c += c[3] ? 4 : 3) {
        char sq[3] = {c[0], c[1], 0};
        square(b, sq, c[2] == '+', false);
    }
    restart(f);
}

/* Recognised as the move: the copier is asked for it, and its copy is agreed. */
static void recognised(const char *name, const char *changes, const char *move, const char *said)
{
    struct fx f;
    struct ptyboard b;
    while_down(&f, &b, name, changes);
    char want[96], copy[32];
    snprintf(want, sizeof want, "state: waiting: the sighted board must replicate 2. %s", move);
    want_state = want;
    ASSERT_TRUE(fx_run_until(&f, 8000, in_state));
    want_said = said;
    ASSERT_TRUE(fx_run_until(&f, 3000, said_it));
    snprintf(copy, sizeof copy, "move sighted %s", move);
    ASSERT_STR_EQ(fx_req(&f, copy), "ok\n");
    want_plies = 3;
    ASSERT_TRUE(fx_run_until(&f, 3000, has_plies));
    fx_free(&f);
    ptyboard_unplug(&b);
}

/* Raised as a mismatch (7.4, D.2.9): status names what to do; once done, play goes on. */
static void raised(const char *name, const char *changes, const char *fix, const char *undo)
{
    struct fx f;
    struct ptyboard b;
    while_down(&f, &b, name, changes);
    want_state = "state: blocked";
    ASSERT_TRUE(fx_run_until(&f, 8000, in_state));
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), fix);
    ASSERT_STR_CONTAINS(f.log, "MISMATCH");
    char sq[3] = {undo[0], undo[1], 0};
    square(&b, sq, undo[2] == '+', true);
    want_state = "state: in-sync";
    ASSERT_TRUE(fx_run_until(&f, 5000, in_state));
    ASSERT_EQ(fx_plies(&f), 2);
    fx_free(&f);
    ptyboard_unplug(&b);
}

/* The VI player makes 2. Nf3 while the daemon is down: recognised and announced on restart. */
TB_TEST(a_move_made_while_the_daemon_was_down_is_recognised)
{
    recognised("restart-move", "g1- f3+", "Nf3",
               "say to sighted (Black): Springer Gustav eins Felix drei");
}

/* 2. exd5 made while the daemon is down: on the switches only e4 emptied (d5 stays occupied);
 * the one legal move that leaves the board so is the capture. */
TB_TEST(a_capture_made_while_the_daemon_was_down_is_recognised)
{
    recognised("restart-capture", "d5- e4- d5+", "exd5", "say to sighted (Black): Bauer Eva vier");
}

/* A stray piece on e3 stood on the board while the daemon was down: raised, lift it. */
TB_TEST(a_stray_piece_put_while_the_daemon_was_down_is_raised)
{
    raised("restart-stray", "e3+", "vi player (White): lift the piece on e3", "e3-");
}

/* The knight on b1 went off the board while the daemon was down: no move of White's leaves
 * the board so (none takes on a square from b1), so it is raised: put the knight back. */
TB_TEST(a_piece_gone_while_the_daemon_was_down_is_raised)
{
    raised("restart-gone", "b1-", "vi player (White): put a White N on b1", "b1+");
}

/* Nothing changed while the daemon was down: play goes on, nothing said, nothing raised. */
TB_TEST(a_board_that_shows_the_recovered_position_goes_on_silently)
{
    struct fx f;
    struct ptyboard b;
    opening(&f, &b, "restart-same");
    restart(&f);
    size_t said = strlen(f.log);
    fx_run_until(&f, 1500, NULL);
    ptyboard_pump(&b);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: in-sync");
    ASSERT_NULL(strstr(f.log + said, "say to"));
    ASSERT_NULL(strstr(f.log + said, "MISMATCH"));
    square(&b, "g1", 0, true);
    square(&b, "f3", 1, true);
    want_state = "state: waiting: the sighted board must replicate 2. Nf3";
    ASSERT_TRUE(fx_run_until(&f, 3000, in_state));
    fx_free(&f);
    ptyboard_unplug(&b);
}

#ifdef TB_TWINBOARDD
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_ctl.h"

static pid_t run_daemon(const char *config)
{
    return fx_spawn(TB_TWINBOARDD, config, NULL);
}

/* One request to the real daemon over its socket ("" when it is not there yet). */
static const char *ask(const char *socket, const char *line)
{
    static char got[8192];
    got[0] = '\0';
    int fd = tb_ctl_client_connect(socket, false, NULL);
    if (fd < 0)
        return got;
    size_t n = 0;
    if (send(fd, line, strlen(line), MSG_NOSIGNAL) == (ssize_t)strlen(line)) {
        while (!tb_ctl_answer_complete(got, n)) {
            ssize_t r = read(fd, got + n, sizeof got - n - 1);
            if (r <= 0)
                break;
            n += (size_t)r;
            got[n] = '\0';
        }
    }
    close(fd);
    return got;
}

/* Asks status (the board answering the daemon meanwhile) until it contains want. */
static bool status_shows(struct ptyboard *b, const char *socket, const char *want, int ms)
{
    for (int i = 0; i < tb_test_ms(ms) / 20; i++) {
        ptyboard_pump(b);
        if (strstr(ask(socket, "status\n"), want))
            return true;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return false;
}

/* The real program, killed with SIGKILL after 1. e4 d5; 2. exd5 made on the reed board while it
 * is down; started again on its journal: the capture is recognised and copied. */
TB_TEST(kill9_then_a_capture_made_while_down_is_recognised_by_the_real_daemon)
{
    struct fx f;
    struct ptyboard b;
    fx_init(&f, "restart-kill9");
    char link[600], config[600];
    snprintf(link, sizeof link, "%s/board", f.dir);
    ASSERT_OK(ptyboard_init(&b, link));
    snprintf(config, sizeof config, "%s/twinboard.ini", f.dir);
    FILE *c = fopen(config, "w");
    ASSERT_NOT_NULL(c);
    fprintf(c,
            "[daemon]\nsocket = %s\njournal_dir = %s\nblip_window_ms = 100\n[arbiter]\npin = %s\n"
            "[player vi]\nboard = pty:%s\n[player sighted]\nboard = keys:\n",
            f.socket, f.journal, FX_PIN, link);
    ASSERT_OK(fclose(c));
    pid_t pid = run_daemon(config);
    ASSERT_TRUE(status_shows(&b, f.socket, "vi: White, pty:", 10000));
    ASSERT_TRUE(status_shows(&b, f.socket, "connected, 0 events", 5000));
    square(&b, "e2", 0, true);
    square(&b, "e4", 1, true);
    ASSERT_TRUE(status_shows(&b, f.socket, "must replicate 1. e4", 5000));
    ASSERT_STR_EQ(ask(f.socket, "move sighted e4\n"), "ok\n");
    ASSERT_STR_EQ(ask(f.socket, "move sighted d5\n"), "ok\n");
    square(&b, "d7", 0, true);
    square(&b, "d5", 1, true);
    ASSERT_TRUE(status_shows(&b, f.socket, "game: 2 plies agreed", 5000));
    ASSERT_OK(kill(pid, SIGKILL));
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));

    square(&b, "d5", 0, false); /* 2. exd5 while nobody reads the board */
    square(&b, "e4", 0, false);
    square(&b, "d5", 1, false);
    ptyboard_unplug(&b);
    ASSERT_OK(ptyboard_plug(&b));
    pid = run_daemon(config);
    ASSERT_TRUE(status_shows(&b, f.socket, "must replicate 2. exd5", 15000));
    ASSERT_STR_EQ(ask(f.socket, "move sighted exd5\n"), "ok\n");
    ASSERT_TRUE(status_shows(&b, f.socket, "game: 3 plies agreed", 5000));
    ASSERT_OK(kill(pid, SIGTERM));
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ptyboard_unplug(&b);
    fx_free(&f);
}
#endif
