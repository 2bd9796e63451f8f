/* hall_boards.c - the two reed boards of one table for the hall tests: simulated boards on
 * pseudo-terminals (the tests' ptyboard, the board's wire protocol) that a real twinboardd opens
 * as pty:DIR/vi-board and pty:DIR/sighted-board, moved by hand from stdin.
 *
 *   hall_boards DIR
 *
 * stdin, one per line: "move vi|sighted FROMTO" (a quiet move by hand: lift, then place),
 * "lift vi|sighted SQ" and "place vi|sighted SQ" (one hand at a time: a capture, a drop),
 * "arbiter vi|sighted" and "clock vi|sighted" (the button pressed and released), "quit". stdout:
 * "ready" once both boards are plugged in, "done LINE" after each line. The boards answer the
 * daemon's requests (INFO, SNAPSHOT, PING) all the time. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptyboard.h"

static struct ptyboard boards[2];

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Answers the daemon for ms milliseconds. */
static void serve(int ms)
{
    uint64_t end = now_ms() + (uint64_t)ms;
    do {
        struct pollfd p[2] = {{boards[0].master, POLLIN, 0}, {boards[1].master, POLLIN, 0}};
        poll(p, 2, 20);
        for (int b = 0; b < 2; b++)
            ptyboard_pump(&boards[b]);
    } while (now_ms() < end);
}

static int square(const char *s)
{
    return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
               ? (s[1] - '1') * 8 + (s[0] - 'a')
               : -1;
}

static int board_of(const char *name)
{
    return !strcmp(name, "vi") ? 0 : !strcmp(name, "sighted") ? 1 : -1;
}

static void button(struct ptyboard *b, int which, int down)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_button e = {
        .seq = ++b->seq, .ms = b->ms += 100, .button = (uint8_t)which, .down = (uint8_t)down};
    ptyboard_write(b, buf, rb_proto_encode_button(buf, sizeof buf, &e));
}

static void line(char *s)
{
    char word[16] = "", who[16] = "", mv[16] = "";
    sscanf(s, "%15s %15s %15s", word, who, mv);
    int b = board_of(who);
    if (!strcmp(word, "move") && b >= 0 && square(mv) >= 0 && strlen(mv) >= 4 &&
        square(mv + 2) >= 0) {
        ptyboard_square(&boards[b], square(mv), 0, true);
        serve(150); /* a hand between lift and place */
        ptyboard_square(&boards[b], square(mv + 2), 1, true);
        serve(50);
    } else if ((!strcmp(word, "lift") || !strcmp(word, "place")) && b >= 0 && square(mv) >= 0) {
        ptyboard_square(&boards[b], square(mv), !strcmp(word, "place"), true);
        serve(150); /* a hand's pace */
    } else if ((!strcmp(word, "arbiter") || !strcmp(word, "clock")) && b >= 0) {
        int which = word[0] == 'a' ? RB_PROTO_BTN_ARBITER : RB_PROTO_BTN_CLOCK;
        serve(150); /* the move is seen before its clock is pressed */
        button(&boards[b], which, 1);
        serve(100);
        button(&boards[b], which, 0);
    } else {
        printf("error %s\n", s);
        fflush(stdout);
        return;
    }
    printf("done %s\n", s);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hall_boards DIR\n");
        return 2;
    }
    static const char *const names[2] = {"vi-board", "sighted-board"};
    for (int b = 0; b < 2; b++) {
        char link[512];
        snprintf(link, sizeof link, "%s/%s", argv[1], names[b]);
        if (ptyboard_init(&boards[b], link) != 0) {
            fprintf(stderr, "hall_boards: cannot make %s\n", link);
            return 1;
        }
    }
    printf("ready\n");
    fflush(stdout);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    char buf[4096];
    size_t have = 0;
    for (;;) {
        struct pollfd p[3] = {
            {0, POLLIN, 0}, {boards[0].master, POLLIN, 0}, {boards[1].master, POLLIN, 0}};
        if (poll(p, 3, 100) < 0 && errno != EINTR)
            break;
        for (int b = 0; b < 2; b++)
            ptyboard_pump(&boards[b]);
        if (!(p[0].revents & (POLLIN | POLLHUP)))
            continue;
        ssize_t n = read(0, buf + have, sizeof buf - 1 - have);
        if (n == 0 || (n < 0 && errno != EAGAIN))
            break;
        have += n > 0 ? (size_t)n : 0;
        char *nl;
        while ((nl = memchr(buf, '\n', have))) {
            *nl = '\0';
            if (!strcmp(buf, "quit"))
                return 0;
            line(buf);
            have -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, have);
        }
    }
    return 0;
}
