/* pty_mode.c - reedboard-sim --pty: the firmware's UART on a pseudo-terminal, in real time.
 *
 * The bridge is our own (posix_openpt + poll), not simavr's uart_pty part, whose thread shutdown
 * can kill or hang the process. We keep a slave descriptor open ourselves so the master never
 * sees a hang-up between host connections; the firmware is silent until asked, so nothing piles
 * up meanwhile.
 */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tb_script.h"

enum { OUT_MAX = 65536, LINE_MAX_LEN = 256 };

struct pty_run {
    struct rb_sim *sim;
    const struct rb_simcli_opts *o;
    int master, slave;
    uint8_t out[OUT_MAX];
    size_t nout;
    unsigned long dropped;
    char line[LINE_MAX_LEN];
    size_t nline;
    struct tb_script_parser parser;
};

#define SLICE_MS 10.0 /* simulated at most between two looks at the terminal and stdin */

static double now_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) * 1000.0 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void on_frame(void *ctx, const struct rb_sim_frame *f)
{
    struct pty_run *r = ctx;
    rb_simcli_print_frame(stdout, r->sim, f);
    fflush(stdout);
}

static void on_tx(void *ctx, uint8_t byte, uint64_t cycle)
{
    (void)cycle;
    struct pty_run *r = ctx;
    if (r->nout < OUT_MAX)
        r->out[r->nout++] = byte;
    else
        r->dropped++;
}

static int open_pty(struct pty_run *r, char *name, size_t cap)
{
    r->master = posix_openpt(O_RDWR | O_NOCTTY);
    if (r->master < 0 || grantpt(r->master) || unlockpt(r->master) || !ptsname(r->master))
        return -1;
    snprintf(name, cap, "%s", ptsname(r->master));
    r->slave = open(name, O_RDWR | O_NOCTTY);
    if (r->slave < 0)
        return -1;
    /* Raw 8N1, like the board's USB-serial bridge; the host sets its own mode too. */
    struct termios t;
    if (tcgetattr(r->slave, &t) == 0) {
        t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
        t.c_oflag &= ~(tcflag_t)OPOST;
        t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
        t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
        t.c_cflag |= CS8;
        cfsetispeed(&t, B115200);
        cfsetospeed(&t, B115200);
        tcsetattr(r->slave, TCSANOW, &t);
    }
    return fcntl(r->master, F_SETFL, fcntl(r->master, F_GETFL) | O_NONBLOCK);
}

static int make_link(const char *link, const char *target)
{
    struct stat st;
    if (lstat(link, &st) == 0) {
        if (!S_ISLNK(st.st_mode)) {
            fprintf(stderr,
                    "reedboard-sim: --link %s exists and is not a symlink; not replacing it\n",
                    link);
            return -1;
        }
        unlink(link);
    }
    if (symlink(target, link) != 0) {
        fprintf(stderr, "reedboard-sim: --link %s: %s\n", link, strerror(errno));
        return -1;
    }
    return 0;
}

/* One stdin line: "lift e2", "place e4", "press 1", "release clock", or a full script line. */
static void stdin_line(struct pty_run *r, double ms)
{
    char *s = r->line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '#')
        return;
    if (strcmp(s, "quit") == 0 || strcmp(s, "exit") == 0) {
        rb_simcli_request_stop();
        return;
    }
    char full[LINE_MAX_LEN + 64];
    if (*s >= '0' && *s <= '9')
        snprintf(full, sizeof full, "%s", s);
    else
        snprintf(full, sizeof full, "%.3f %s %s", ms, r->o->board ? r->o->board : "stdin", s);
    struct tb_script_event ev;
    struct tb_error err = {0};
    if (tb_script_parse_line(&r->parser, full, strlen(full), &ev, &err)) {
        fprintf(stderr, "stdin:%ld: %s\n", r->parser.line, err.msg);
        return;
    }
    uint64_t at = rb_sim_ms_to_cycles(r->sim, (double)ev.us / 1000.0);
    int rc = 0;
    if (ev.kind == TB_SCRIPT_LIFT || ev.kind == TB_SCRIPT_PLACE) {
        rc = rb_sim_square_at(r->sim, at, ev.square, ev.kind == TB_SCRIPT_PLACE, r->o->bounce_ms);
    } else if (ev.kind == TB_SCRIPT_PRESS || ev.kind == TB_SCRIPT_RELEASE) {
        int b = rb_sim_button_parse(ev.button);
        if (b < 0) {
            fprintf(stderr,
                    "stdin:%ld: unknown button '%s' (promote, repeat, clock, arbiter or "
                    "1..4)\n",
                    r->parser.line, ev.button);
            return;
        }
        rc = rb_sim_button_at(r->sim, at, b, ev.kind == TB_SCRIPT_PRESS, r->o->bounce_ms);
    } else if (ev.kind == TB_SCRIPT_CHOOSE) {
        fprintf(stderr, "stdin:%ld: note: 'choose' ignored: the board has no choose action\n",
                r->parser.line);
    }
    if (rc)
        fprintf(stderr, "stdin:%ld: %s\n", r->parser.line, tb_strerror(rc));
}

/* Reads what stdin has; returns 1 at end of input. */
static int read_stdin(struct pty_run *r, double ms)
{
    char buf[512];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0)
        return n == 0 || (errno != EINTR && errno != EAGAIN);
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            r->line[r->nline] = '\0';
            stdin_line(r, ms);
            r->nline = 0;
        } else if (r->nline + 1 < sizeof r->line) {
            r->line[r->nline++] = buf[i] == '\r' ? ' ' : buf[i];
        }
    }
    return 0;
}

static void flush_out(struct pty_run *r)
{
    if (!r->nout)
        return;
    ssize_t n = write(r->master, r->out, r->nout);
    if (n > 0) {
        memmove(r->out, r->out + n, r->nout - (size_t)n);
        r->nout -= (size_t)n;
    }
}

int rb_simcli_run_pty(struct rb_sim *sim, const struct rb_simcli_opts *o)
{
    struct pty_run *r = calloc(1, sizeof *r);
    if (!r)
        return 1;
    r->sim = sim;
    r->o = o;
    r->master = r->slave = -1;
    tb_script_parser_init(&r->parser);
    char name[128];
    int status = 0;
    if (open_pty(r, name, sizeof name) != 0) {
        fprintf(stderr, "reedboard-sim: cannot create a pseudo-terminal: %s\n", strerror(errno));
        status = 1;
    } else if (o->link && make_link(o->link, name) != 0) {
        status = 1;
    }
    if (status == 0) {
        printf("reedboard-sim: board on %s%s%s\n", name, o->link ? ", linked from " : "",
               o->link ? o->link : "");
        fflush(stdout);
        struct rb_sim_handlers h = {.frame = on_frame, .tx_byte = on_tx, .ctx = r};
        rb_sim_set_handlers(sim, &h);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int stdin_open = o->use_stdin;
        double board_ms = 0; /* the board's present: behind the wall clock on a busy machine */
        while (!rb_simcli_stop_requested()) {
            /* Catch up in slices of at most SLICE_MS: on a machine too busy to simulate in real
             * time the board's time falls behind the wall clock, instead of each catch-up
             * growing longer than the one before with the frames held back until it ends. */
            double ms = now_ms(&t0);
            double until = ms < board_ms + SLICE_MS ? ms : board_ms + SLICE_MS;
            struct tb_error err = {0};
            if (until > board_ms && rb_sim_run_until(sim, rb_sim_ms_to_cycles(sim, until), &err)) {
                fprintf(stderr, "reedboard-sim: %s\n", err.msg);
                status = 1;
                break;
            }
            if (until > board_ms)
                board_ms = until;
            flush_out(r);
            struct pollfd fds[2] = {{r->master, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
            if (poll(fds, stdin_open ? 2 : 1, board_ms < ms ? 0 : 1) < 0 && errno != EINTR)
                break;
            if (fds[0].revents & POLLIN) {
                uint8_t buf[256];
                ssize_t n = read(r->master, buf, sizeof buf);
                if (n > 0 && rb_sim_send(sim, buf, (size_t)n) != 0)
                    break;
            }
            /* a hand on the board acts at the board's present */
            if (stdin_open && (fds[1].revents & (POLLIN | POLLHUP)) && read_stdin(r, board_ms)) {
                stdin_open = 0;
                break; /* end of input ends the session */
            }
        }
        if (r->dropped)
            fprintf(stderr, "reedboard-sim: %lu byte(s) dropped: nobody read the terminal\n",
                    r->dropped);
    }
    rb_sim_set_handlers(sim, NULL);
    if (o->link && status == 0)
        unlink(o->link);
    if (r->slave >= 0)
        close(r->slave);
    if (r->master >= 0)
        close(r->master);
    free(r);
    return status;
}
