/* hall_table.c - a table for the hall tests: a real match (tb_match) on simulated boards,
 * published through tb_hall as the daemon does, with the arbiter's commands from the broker
 * checked against a PIN.
 *
 *   hall_table --port N --tournament T --table X --pin PIN [--username U --password P]
 *
 * stdin, one per line:  move BOARD UCI (a quiet move by hand: lift, place) | arbiter (the
 * ARBITER button) | quit. stdout, one line each: "ready", "state NAME PLIES", "mismatch ID",
 * "cmd ACTION accepted|refused: WHY", "stats connected=.. queued=.. dropped=..".
 * Board time is simulated (300 ms per hand event); the broker is served in real time. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tb_hall.h"

struct table {
    tb_match *m;
    tb_hall_pub *pub;
    struct tb_hall_state *st;
    const char *pin;
    uint64_t t; /* board time */
    int64_t clock[2];
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void publish(struct table *tb)
{
    struct tb_match_out o;
    struct tb_hall_event ev;
    while (tb_match_poll(tb->m, &o) == 1) {
        if (o.kind == TB_MATCH_OUT_MISMATCH)
            printf("mismatch %u\n", o.u.mismatch.id);
        if (tb_hall_state_note(tb->st, &o, &ev) == 1) {
            ev.ms = o.ms;
            tb_hall_pub_event(tb->pub, &ev, NULL);
        }
    }
    tb_hall_state_from_match(tb->st, tb->m);
    tb->st->seq++;
    tb->st->ms = tb->t;
    struct tb_hall_pub_stats ps;
    tb_hall_pub_stats(tb->pub, &ps);
    tb->st->dropped = ps.dropped;
    for (int b = 0; b < 2; b++)
        tb->st->board[b].clock_ms = tb->clock[tb->st->board[b].white ? 0 : 1];
    struct tb_error err;
    if (tb_hall_pub_state(tb->pub, tb->st, &err))
        printf("error %s\n", err.msg);
    printf("state %s %d\n", tb->st->state, tb->st->plies);
    fflush(stdout);
}

/* Board time passes: the clock of the player to move runs. */
static void pass(struct table *tb, uint64_t ms)
{
    tb->t += ms;
    tb->clock[tb_match_game(tb->m)->pos.side] -= (int64_t)ms;
    tb_match_tick(tb->m, tb->t);
}

static int square(const char *s)
{
    return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
               ? (s[1] - '1') * 8 + (s[0] - 'a')
               : -1;
}

static void hand(struct table *tb, int board, const char *uci)
{
    int from = square(uci), to = strlen(uci) >= 4 ? square(uci + 2) : -1;
    if (board < 0 || board > 1 || from < 0 || to < 0) {
        printf("error bad move %s\n", uci);
        return;
    }
    struct tb_match_event ev = {.kind = TB_MATCH_EV_LIFT, .square = (uint8_t)from};
    pass(tb, 300);
    tb_match_board_event(tb->m, board, &ev, tb->t);
    ev.kind = TB_MATCH_EV_PLACE;
    ev.square = (uint8_t)to;
    pass(tb, 300);
    tb_match_board_event(tb->m, board, &ev, tb->t);
    pass(tb, 1500); /* the blip window passes */
    publish(tb);
}

/* D.2.9 decisions come only with the arbiter's PIN; the outcome goes back as an event. */
static void command(struct table *tb, const struct tb_hall_cmd *c)
{
    struct tb_hall_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TB_HALL_EV_COMMAND;
    ev.ms = tb->t;
    ev.mismatch = c->mismatch;
    snprintf(ev.request, sizeof ev.request, "%s", c->request);
    struct tb_error err = {0};
    int rc;
    if (!tb_hall_cmd_pin_ok(c, tb->pin))
        rc = tb_error_set(&err, TB_ERR_PERM, "wrong PIN: nothing done");
    else if (c->action == TB_HALL_CMD_RESOLVE)
        rc = tb_match_resolve(tb->m, c->mismatch, tb->t, &err);
    else
        rc = tb_match_takeback(tb->m, c->n, tb->t, &err);
    ev.ok = rc == TB_OK;
    snprintf(ev.text, sizeof ev.text, "%s", ev.ok ? "done" : err.msg);
    tb_hall_pub_event(tb->pub, &ev, NULL);
    printf("cmd %s %s: %s\n", tb_hall_cmd_name(c->action), ev.ok ? "accepted" : "refused", ev.text);
    fflush(stdout);
    if (ev.ok)
        publish(tb); /* a refused command changed nothing */
}

static bool line(struct table *tb, char *s)
{
    char word[16] = "", arg[16] = "";
    int board = -1;
    if (sscanf(s, "%15s %d %15s", word, &board, arg) >= 1 && !strcmp(word, "move"))
        hand(tb, board, arg);
    else if (!strcmp(word, "arbiter")) {
        struct tb_hall_event ev = {.kind = TB_HALL_EV_ARBITER_CALL, .ms = tb->t};
        snprintf(ev.text, sizeof ev.text, "the ARBITER button was pressed");
        tb->st->arbiter_call = true;
        tb_hall_pub_event(tb->pub, &ev, NULL);
        publish(tb);
    } else if (!strcmp(word, "stats")) {
        struct tb_hall_pub_stats ps;
        tb_hall_pub_stats(tb->pub, &ps);
        printf("stats connected=%d connects=%lu queued=%lu dropped=%lu\n", ps.connected,
               ps.connects, ps.queued, ps.dropped);
        fflush(stdout);
    } else if (!strcmp(word, "quit"))
        return false;
    return true;
}

int main(int argc, char **argv)
{
    struct tb_hall_config cfg = {0};
    struct table tb = {0};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port"))
            cfg.port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--tournament"))
            cfg.tournament = argv[i + 1];
        else if (!strcmp(argv[i], "--table"))
            cfg.table = argv[i + 1];
        else if (!strcmp(argv[i], "--pin"))
            tb.pin = argv[i + 1];
        else if (!strcmp(argv[i], "--username"))
            cfg.username = argv[i + 1];
        else if (!strcmp(argv[i], "--password"))
            cfg.password = argv[i + 1];
    }
    struct tb_match_config mc;
    tb_match_config_default(&mc);
    struct tb_error err;
    tb.st = calloc(1, sizeof *tb.st);
    if (!tb.st || tb_match_new(&mc, NULL, 0, &tb.m, &err) ||
        tb_hall_pub_new(&cfg, now_ms(), &tb.pub, &err)) {
        fprintf(stderr, "hall_table: %s\n", err.msg);
        return 1;
    }
    snprintf(tb.st->tournament, sizeof tb.st->tournament, "%s", cfg.tournament);
    snprintf(tb.st->table, sizeof tb.st->table, "%s", cfg.table);
    for (int b = 0; b < 2; b++) {
        snprintf(tb.st->board[b].name, sizeof tb.st->board[b].name, "%s", mc.board[b].name);
        tb.st->board[b].vi = mc.board[b].role == TB_MATCH_VI;
        tb.st->board[b].white = mc.board[b].color == TB_CHESS_WHITE;
        tb.st->board[b].link_up = true;
    }
    tb.clock[0] = tb.clock[1] = 90 * 60 * 1000;
    tb.st->clock_running = true;
    publish(&tb);
    printf("ready\n");
    fflush(stdout);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    char buf[4096];
    size_t have = 0;
    for (bool run = true; run;) {
        uint64_t now = now_ms(), due = tb_hall_pub_deadline(tb.pub);
        int fd = tb_hall_pub_fd(tb.pub);
        struct pollfd p[2] = {
            {0, POLLIN, 0},
            {fd, (short)(POLLIN | (tb_hall_pub_want_write(tb.pub) ? POLLOUT : 0)), 0}};
        int wait = due <= now ? 0 : due - now > 1000 ? 1000 : (int)(due - now);
        if (poll(p, fd >= 0 ? 2 : 1, wait) < 0 && errno != EINTR)
            break;
        tb_hall_pub_service(tb.pub, fd >= 0 && (p[1].revents & (POLLIN | POLLERR | POLLHUP)),
                            fd >= 0 && (p[1].revents & POLLOUT), now_ms());
        struct tb_hall_cmd c;
        while (tb_hall_pub_cmd(tb.pub, &c) == 1)
            command(&tb, &c);
        if (p[0].revents & (POLLIN | POLLHUP)) {
            ssize_t n = read(0, buf + have, sizeof buf - 1 - have);
            if (n <= 0 && !(n < 0 && errno == EAGAIN))
                break;
            have += n > 0 ? (size_t)n : 0;
            char *nl;
            while (run && (nl = memchr(buf, '\n', have))) {
                *nl = '\0';
                run = line(&tb, buf);
                have -= (size_t)(nl + 1 - buf);
                memmove(buf, nl + 1, have);
            }
        }
    }
    /* give the broker what is still queued, for at most two seconds */
    for (uint64_t end = now_ms() + 2000; now_ms() < end;) {
        struct tb_hall_pub_stats ps;
        tb_hall_pub_stats(tb.pub, &ps);
        if (ps.connected && !ps.queued && !tb_hall_pub_want_write(tb.pub))
            break;
        int fd = tb_hall_pub_fd(tb.pub);
        struct pollfd p = {fd, (short)(POLLIN | POLLOUT), 0};
        poll(&p, fd >= 0 ? 1 : 0, 50);
        tb_hall_pub_service(tb.pub, p.revents & POLLIN, p.revents & POLLOUT, now_ms());
    }
    tb_hall_pub_free(tb.pub);
    tb_match_free(tb.m);
    free(tb.st);
    return 0;
}
