/* dgtboard_sim.c - `dgtboard-sim`: an emulated DGT e-board with a DGT XL or DGT 3000 clock on a
 * pseudo-terminal, driven by an event script or a PGN game (docs/dgt.md, "The emulator").
 *
 *   dgtboard-sim --link PATH (--script FILE [--board NAME] | --pgn FILE [--game N])
 *                [--rotated] [--out-of-order] [--garbage PERMILLE] [--unplug AT:FOR]...
 *                [--clock xl|3000|none] [--time SECONDS] [--increment SECONDS]
 *                [--move-ms MS] [--speed FACTOR] [--no-wait] [--lead MS] [--linger MS]
 *                [--drop-acks N] [--ack-ms MS] [--revelation] [--display-log FILE]
 *                [--seed N] [--forever] [-v]
 *
 * Script time 0 is when the host has put the board in an update mode (or at once with
 * --no-wait), plus --lead. The program exits 0 after the last event and --linger, 1 on bad
 * arguments or input, 3 when the host sent STARTBOOTLOADER or an LED command to a plain board. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "dgtsim.h"
#include "tb_chess.h"
#include "tb_file.h"
#include "tb_script.h"

enum act { A_FIELD, A_PRESS, A_START, A_UNPLUG, A_PLUG, A_UNSEEN };

struct action {
    uint64_t ms;
    enum act kind;
    int field, code, side;
    int lifted; /* A_FIELD with code 0: the DGT code of the piece lifted */
};

struct plan {
    struct action *a;
    size_t n, cap;
};

struct opts {
    const char *link, *script, *pgn, *board, *display_log;
    long game;
    bool rotated, out_of_order, wait_host, forever, revelation;
    int verbose;
    long garbage, move_ms, lead_ms, linger_ms, drop_acks, ack_ms, seed;
    double speed;
    enum tb_dgt_clock_kind clock;
    long time_s, increment_s;
    long unplug_at[8], unplug_for[8];
    int nunplug;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* Says what went wrong (a prefix and a message) and gives the exit status for bad input. */
static int die(const char *prefix, const char *msg)
{
    fprintf(stderr, "dgtboard-sim: %s%s\n", prefix, msg);
    return 1;
}

static int add(struct plan *p, struct action a)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        struct action *na = realloc(p->a, cap * sizeof *na);
        if (!na)
            return -1;
        p->a = na;
        p->cap = cap;
    }
    p->a[p->n++] = a;
    return 0;
}

static enum tb_dgt_orient orient(const struct opts *o)
{
    return o->rotated ? TB_DGT_ORIENT_ROTATED : TB_DGT_ORIENT_NORMAL;
}

/* White sits at the clock's left with the board the right way round. */
static int side_of(const struct opts *o, int colour)
{
    bool left = (colour == TB_CHESS_WHITE) != o->rotated;
    return left ? DGTSIM_LEFT : DGTSIM_RIGHT;
}

/* ---- a PGN game as actions ---------------------------------------------------------------- */

static int plan_game(const struct opts *o, struct plan *p, uint8_t codes[64])
{
    char *buf;
    size_t len;
    struct tb_error err;
    if (tb_read_file(o->pgn, &buf, &len, &err) != TB_OK)
        return die("", err.msg);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, buf, len);
    int rc = 0;
    for (long i = 1; i <= o->game && rc >= 0; i++) {
        rc = g ? tb_chess_pgn_read(&r, g, &err) : TB_ERR_MEM;
        if (rc == 0) {
            rc = TB_ERR_NOTFOUND;
            snprintf(err.msg, sizeof err.msg, "no game %ld", o->game);
        }
    }
    free(buf);
    if (rc < 0) {
        free(g);
        return die("", err.msg);
    }
    tb_chess_pos pos = g->game.start;
    tb_dgt_codes_of_pos(&pos, orient(o), codes);
    uint64_t rng = (uint64_t)o->seed * 2654435761u + 1;
    add(p, (struct action){.ms = 0, .kind = A_START, .side = side_of(o, pos.side)});
    for (int ply = 0; ply < g->game.plies; ply++) {
        uint64_t t = (uint64_t)(ply + 1) * (uint64_t)o->move_ms;
        unsigned flags = 0;
        if (o->out_of_order) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            flags = (unsigned)(rng >> 40) % 3 + 1; /* every move out of order, one way or both */
        }
        struct tb_dgt_update u[8];
        int n = tb_dgt_move_updates(&pos, g->game.moves[ply], orient(o), flags, u, 8);
        for (int i = 0; i < n; i++)
            add(p, (struct action){.ms = t + (uint64_t)i * 80,
                                   .kind = A_FIELD,
                                   .field = u[i].field,
                                   .code = u[i].code});
        add(p, (struct action){.ms = t + (uint64_t)n * 80 + 150,
                               .kind = A_PRESS,
                               .side = side_of(o, pos.side)});
        tb_chess_undo undo;
        tb_chess_make(&pos, g->game.moves[ply], &undo);
    }
    free(g);
    return 0;
}

/* ---- an event script as actions ----------------------------------------------------------- */

struct script_state {
    const struct opts *o;
    struct plan *p;
    uint8_t board[64]; /* tb_chess codes by square */
    uint8_t hand[64];
    int nhand;
    int last_colour;
    char msg[256];
};

static int on_event(void *user, const struct tb_script_event *ev, long line)
{
    struct script_state *s = user;
    const struct opts *o = s->o;
    if (ev->kind == TB_SCRIPT_EXPECT || (o->board && strcmp(ev->board, o->board) != 0))
        return 0;
    int field = ev->kind == TB_SCRIPT_LIFT || ev->kind == TB_SCRIPT_PLACE
                    ? tb_dgt_square_to_field(ev->square, orient(o))
                    : -1;
    char sq[3];
    if (ev->kind == TB_SCRIPT_LIFT) {
        int piece = s->board[ev->square];
        if (!piece) {
            snprintf(s->msg, sizeof s->msg, "line %ld: lift from the empty square %s", line,
                     tb_chess_square_name(ev->square, sq));
            return 1;
        }
        s->board[ev->square] = 0;
        if (s->nhand < 64)
            s->hand[s->nhand++] = (uint8_t)piece;
        return add(s->p, (struct action){.ms = ev->ms,
                                         .kind = A_FIELD,
                                         .field = field,
                                         .lifted = tb_dgt_piece_from_chess(piece)});
    }
    if (ev->kind == TB_SCRIPT_PLACE) {
        int piece = ev->piece ? tb_chess_piece_from_fen(ev->piece) : 0;
        int h = s->nhand - 1;
        while (piece && h >= 0 && s->hand[h] != piece)
            h--;
        if (!piece && h >= 0)
            piece = s->hand[h];
        if (!piece) {
            snprintf(s->msg, sizeof s->msg, "line %ld: place on %s without a piece in the hand",
                     line, tb_chess_square_name(ev->square, sq));
            return 1;
        }
        if (h >= 0) {
            memmove(&s->hand[h], &s->hand[h + 1], (size_t)(s->nhand - h - 1));
            s->nhand--;
        }
        s->board[ev->square] = (uint8_t)piece;
        s->last_colour = TB_CHESS_PIECE_COLOR(piece);
        return add(s->p, (struct action){.ms = ev->ms,
                                         .kind = A_FIELD,
                                         .field = field,
                                         .code = tb_dgt_piece_from_chess(piece)});
    }
    if (ev->kind == TB_SCRIPT_PRESS) {
        int side = strcmp(ev->button, "left") == 0    ? DGTSIM_LEFT
                   : strcmp(ev->button, "right") == 0 ? DGTSIM_RIGHT
                   : strcmp(ev->button, "white") == 0 ? side_of(o, TB_CHESS_WHITE)
                   : strcmp(ev->button, "black") == 0 ? side_of(o, TB_CHESS_BLACK)
                   : strcmp(ev->button, "clock") == 0 ? side_of(o, s->last_colour)
                                                      : 0;
        if (side)
            return add(s->p, (struct action){.ms = ev->ms, .kind = A_PRESS, .side = side});
    }
    return 0; /* release, choose and other buttons: nothing on a DGT board */
}

/* A hand on a real board is faster than the scan: a placement shows before the lift of the same
 * piece, and a taken piece's square never shows empty. */
static void reorder(struct plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        struct action *a = &p->a[i];
        if (a->kind != A_FIELD || a->code != 0)
            continue;
        for (size_t j = i + 1; j < p->n && p->a[j].ms <= a->ms + 1500; j++) {
            struct action *b = &p->a[j];
            if (b->kind != A_FIELD)
                continue;
            if (b->field == a->field && b->code != 0 &&
                tb_dgt_piece_to_chess(b->code) >> 3 != tb_dgt_piece_to_chess(a->lifted) >> 3) {
                a->kind = A_UNSEEN; /* the victim's empty reading is never seen */
                break;
            }
            if (b->field == a->field)
                break;
            if (b->code == a->lifted && j == i + 1) {
                struct action t = *a; /* the new square first */
                uint64_t ams = a->ms, bms = b->ms;
                *a = *b;
                *b = t;
                a->ms = ams;
                b->ms = bms;
                i++;
                break;
            }
        }
    }
}

static int plan_script(const struct opts *o, struct plan *p, uint8_t codes[64])
{
    char *buf;
    size_t len;
    struct tb_error err;
    if (tb_read_file(o->script, &buf, &len, &err) != TB_OK)
        return die("", err.msg);
    struct script_state s = {.o = o, .p = p};
    tb_chess_pos pos;
    char fen[128];
    if (tb_script_start_fen(buf, len, fen, sizeof fen) == 1) {
        if (tb_chess_pos_from_fen(&pos, fen, TB_CHESS_FEN_960, &err) != TB_OK) {
            free(buf);
            return die("start FEN: ", err.msg);
        }
    } else {
        tb_chess_pos_startpos(&pos);
    }
    for (int sq = 0; sq < 64; sq++)
        s.board[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    tb_dgt_codes_of_pos(&pos, orient(o), codes);
    add(p, (struct action){.ms = 0, .kind = A_START, .side = side_of(o, pos.side)});
    int rc = tb_script_parse_buffer(buf, len, on_event, &s, &err);
    free(buf);
    if (rc == TB_ERR_PARSE)
        return die("", err.msg);
    if (rc != 0)
        return die("", s.msg);
    if (o->out_of_order)
        reorder(p);
    return 0;
}

/* ---- the pseudo-terminal -------------------------------------------------------------------- */

static int plug(const char *link)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0 || grantpt(fd) != 0 || unlockpt(fd) != 0) {
        perror("dgtboard-sim: pty");
        return -1;
    }
    struct termios t;
    if (tcgetattr(fd, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(fd, TCSANOW, &t);
    }
    const char *pts = ptsname(fd);
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.new", link);
    unlink(tmp);
    if (!pts || symlink(pts, tmp) != 0 || rename(tmp, link) != 0) {
        perror("dgtboard-sim: link");
        close(fd);
        return -1;
    }
    return fd;
}

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int cmp_action(const void *a, const void *b)
{
    const struct action *x = a, *y = b;
    return x->ms < y->ms ? -1 : x->ms > y->ms;
}

static void act(struct dgtsim *s, const struct action *a, int verbose)
{
    if (verbose)
        fprintf(stderr, "dgtboard-sim: %llu ms: %s field %d code %d side %d\n",
                (unsigned long long)a->ms,
                a->kind == A_FIELD    ? "field"
                : a->kind == A_PRESS  ? "press"
                : a->kind == A_START  ? "start"
                : a->kind == A_UNSEEN ? "unseen"
                                      : "plug",
                a->field, a->code, a->side);
    if (a->kind == A_FIELD)
        dgtsim_field(s, a->field, a->code);
    else if (a->kind == A_PRESS && a->side)
        dgtsim_press(s, a->side);
    else if (a->kind == A_START)
        dgtsim_start(s, a->side);
}

/* --display-log: each text the clock's display takes, "(times)" when it shows the times again,
 * one line with the script time. */
static void record_display(const struct opts *o, const struct dgtsim *s, uint64_t now, char *shown)
{
    if (!o->display_log || strcmp(shown, s->display) == 0)
        return;
    snprintf(shown, sizeof s->display, "%s", s->display);
    FILE *f = fopen(o->display_log, "a");
    if (!f)
        return;
    size_t n = strlen(shown);
    while (n && shown[n - 1] == ' ')
        n--;
    if (n)
        fprintf(f, "%llu %.*s\n", (unsigned long long)now, (int)n, shown);
    else
        fprintf(f, "%llu (times)\n", (unsigned long long)now);
    fclose(f);
}

static int run(const struct opts *o, struct plan *p, const uint8_t codes[64])
{
    static struct dgtsim sim;
    dgtsim_init(&sim, codes, o->clock, (uint64_t)o->time_s * 1000, (uint32_t)o->increment_s * 1000,
                (uint64_t)o->seed);
    sim.garbage_permille = (uint32_t)o->garbage;
    sim.revelation = o->revelation;
    sim.drop_acks = (uint32_t)o->drop_acks;
    sim.ack_delay_ms = (uint32_t)o->ack_ms;
    for (int i = 0; i < o->nunplug; i++) {
        add(p, (struct action){.ms = (uint64_t)o->unplug_at[i], .kind = A_UNPLUG});
        add(p,
            (struct action){.ms = (uint64_t)(o->unplug_at[i] + o->unplug_for[i]), .kind = A_PLUG});
    }
    qsort(p->a, p->n, sizeof p->a[0], cmp_action);
    int fd = plug(o->link);
    if (fd < 0)
        return 1;
    uint64_t t0 = mono_ms(), start = o->wait_host ? UINT64_MAX : (uint64_t)o->lead_ms;
    uint64_t end = UINT64_MAX;
    size_t next = 0;
    uint8_t out[4096];
    size_t nout = 0;
    char shown[sizeof sim.display] = "";
    while (!stop_requested) {
        uint64_t now = (uint64_t)((double)(mono_ms() - t0) * o->speed);
        if (start == UINT64_MAX && sim.mode != DGTSIM_IDLE && sim.mode != DGTSIM_BUS)
            start = now + (uint64_t)o->lead_ms;
        while (start != UINT64_MAX && next < p->n && start + p->a[next].ms <= now) {
            const struct action *a = &p->a[next++];
            /* the clock runs down to the action's own time, however late this loop is */
            dgtsim_tick(&sim, start + a->ms);
            if (a->kind == A_UNPLUG && fd >= 0) {
                close(fd);
                unlink(o->link);
                fd = -1;
                nout = 0;
                dgtsim_unplug(&sim);
            } else if (a->kind == A_PLUG && fd < 0) {
                fd = plug(o->link);
                if (fd < 0)
                    return 1;
            } else {
                act(&sim, a, o->verbose);
            }
        }
        if (start != UINT64_MAX && next == p->n && end == UINT64_MAX)
            end = now + (uint64_t)o->linger_ms;
        if (!o->forever && now >= end)
            break;
        dgtsim_tick(&sim, now);
        if (fd < 0)
            sim.nout = 0; /* unplugged: nothing reaches the host */
        nout += dgtsim_take(&sim, out + nout, sizeof out - nout);
        if (fd >= 0 && nout > 0) {
            ssize_t w = write(fd, out, nout);
            if (w > 0) {
                memmove(out, out + w, nout - (size_t)w);
                nout -= (size_t)w;
            }
        }
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, fd >= 0 ? 1 : 0, 10);
        if (r > 0 && (pf.revents & POLLIN)) {
            uint8_t in[256];
            ssize_t k = read(fd, in, sizeof in);
            if (k > 0) {
                if (o->verbose)
                    fprintf(stderr, "dgtboard-sim: %zd command bytes, first 0x%02x\n", k, in[0]);
                dgtsim_input(&sim, in, (size_t)k);
                record_display(o, &sim, now, shown);
            }
        } else if (r > 0 && (pf.revents & POLLHUP)) {
            struct timespec ts = {0, 10 * 1000000L}; /* no host on the line yet */
            nanosleep(&ts, NULL);
        }
    }
    if (fd >= 0)
        close(fd);
    unlink(o->link);
    fprintf(stderr,
            "dgtboard-sim: %zu events played, %llu commands, %llu clock commands, %llu ACKs, "
            "%llu garbage bytes\n",
            next, (unsigned long long)sim.commands, (unsigned long long)sim.clock_commands,
            (unsigned long long)sim.acks_sent, (unsigned long long)sim.garbage_bytes);
    if (sim.bootloader)
        return die("", "the host sent STARTBOOTLOADER"), 3;
    if (sim.frozen)
        return die("", "the host sent an LED command to a plain board; it froze"), 3;
    return 0;
}

/* ---- arguments ------------------------------------------------------------------------------ */

static bool num(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int usage_to(FILE *to)
{
    fprintf(to,
            "usage: dgtboard-sim --link PATH (--script FILE [--board NAME] | --pgn FILE "
            "[--game N])\n"
            "       [--rotated] [--out-of-order] [--garbage PERMILLE] [--unplug AT_MS:FOR_MS]...\n"
            "       [--clock xl|3000|none] [--time S] [--increment S] [--move-ms MS]\n"
            "       [--speed F] [--no-wait] [--lead MS] [--linger MS] [--drop-acks N]\n"
            "       [--ack-ms MS] [--revelation] [--display-log FILE] [--seed N] [--forever]\n"
            "       [-v]\n"
            "       dgtboard-sim --help | --version\n");
    return 1;
}

static int usage(void)
{
    return usage_to(stderr);
}

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.game = 1,
                       .wait_host = true,
                       .move_ms = 1500,
                       .lead_ms = 300,
                       .linger_ms = 2000,
                       .ack_ms = 150,
                       .seed = 1,
                       .speed = 1.0,
                       .clock = TB_DGT_CLOCK_3000,
                       .time_s = 5400,
                       .increment_s = 15};
    static const struct option longs[] = {
        {"rotated", no_argument, NULL, 0},
        {"out-of-order", no_argument, NULL, 0},
        {"no-wait", no_argument, NULL, 0},
        {"forever", no_argument, NULL, 0},
        {"revelation", no_argument, NULL, 0},
        {"link", required_argument, NULL, 0},
        {"script", required_argument, NULL, 0},
        {"pgn", required_argument, NULL, 0},
        {"board", required_argument, NULL, 0},
        {"game", required_argument, NULL, 0},
        {"garbage", required_argument, NULL, 0},
        {"move-ms", required_argument, NULL, 0},
        {"lead", required_argument, NULL, 0},
        {"linger", required_argument, NULL, 0},
        {"drop-acks", required_argument, NULL, 0},
        {"ack-ms", required_argument, NULL, 0},
        {"seed", required_argument, NULL, 0},
        {"time", required_argument, NULL, 0},
        {"increment", required_argument, NULL, 0},
        {"speed", required_argument, NULL, 0},
        {"clock", required_argument, NULL, 0},
        {"unplug", required_argument, NULL, 0},
        {"display-log", required_argument, NULL, 0}, /* the clock's display */
        {"help", no_argument, NULL, 0},
        {"version", no_argument, NULL, 0},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c, idx;
    while ((c = getopt_long(argc, argv, ":v", longs, &idx)) != -1) {
        char a[32]; /* the option's name: "--opt value" and "--opt=value" alike */
        const char *v = optarg;
        long x;
        if (c == '?' || c == ':') {
            fprintf(stderr, "dgtboard-sim: %s: %s\n", argv[optind - 1],
                    c == ':' ? "value missing" : "unknown option");
            return usage();
        }
        if (c == 'v')
            snprintf(a, sizeof a, "-v");
        else
            snprintf(a, sizeof a, "--%s", longs[idx].name);
        if (strcmp(a, "--help") == 0) { /* parse's 2: nothing more to do */
            usage_to(stdout);
            return 2;
        } else if (strcmp(a, "--version") == 0) {
            puts("dgtboard-sim " TB_VERSION);
            return 2;
        } else if (strcmp(a, "--rotated") == 0) {
            o->rotated = true;
        } else if (strcmp(a, "--out-of-order") == 0) {
            o->out_of_order = true;
        } else if (strcmp(a, "--no-wait") == 0) {
            o->wait_host = false;
        } else if (strcmp(a, "--forever") == 0) {
            o->forever = true;
        } else if (strcmp(a, "--revelation") == 0) {
            o->revelation = true;
        } else if (strcmp(a, "-v") == 0) {
            o->verbose++;
        } else if (strcmp(a, "--link") == 0) {
            o->link = v;
        } else if (strcmp(a, "--script") == 0) {
            o->script = v;
        } else if (strcmp(a, "--pgn") == 0) {
            o->pgn = v;
        } else if (strcmp(a, "--board") == 0) {
            o->board = v;
        } else if (strcmp(a, "--display-log") == 0) {
            o->display_log = v;
        } else if (strcmp(a, "--game") == 0 && num(v, 1, 100000000L, &x)) {
            o->game = x;
        } else if (strcmp(a, "--garbage") == 0 && num(v, 0, 1000, &x)) {
            o->garbage = x;
        } else if (strcmp(a, "--move-ms") == 0 && num(v, 100, 3600000L, &x)) {
            o->move_ms = x;
        } else if (strcmp(a, "--lead") == 0 && num(v, 0, 600000L, &x)) {
            o->lead_ms = x;
        } else if (strcmp(a, "--linger") == 0 && num(v, 0, 3600000L, &x)) {
            o->linger_ms = x;
        } else if (strcmp(a, "--drop-acks") == 0 && num(v, 0, 1000, &x)) {
            o->drop_acks = x;
        } else if (strcmp(a, "--ack-ms") == 0 && num(v, 0, 60000, &x)) {
            o->ack_ms = x;
        } else if (strcmp(a, "--seed") == 0 && num(v, 0, 2147483647L, &x)) {
            o->seed = x;
        } else if (strcmp(a, "--time") == 0 && num(v, 1, 35999, &x)) {
            o->time_s = x;
        } else if (strcmp(a, "--increment") == 0 && num(v, 0, 3600, &x)) {
            o->increment_s = x;
        } else if (strcmp(a, "--speed") == 0 && (o->speed = strtod(v, NULL)) >= 0.01 &&
                   o->speed <= 1000) {
        } else if (strcmp(a, "--clock") == 0 &&
                   (strcmp(v, "xl") == 0 || strcmp(v, "3000") == 0 || strcmp(v, "none") == 0)) {
            o->clock = v[0] == 'x'   ? TB_DGT_CLOCK_XL
                       : v[0] == '3' ? TB_DGT_CLOCK_3000
                                     : TB_DGT_CLOCK_NONE;
        } else if (strcmp(a, "--unplug") == 0 && o->nunplug < 8 &&
                   sscanf(v, "%ld:%ld", &o->unplug_at[o->nunplug], &o->unplug_for[o->nunplug]) ==
                       2 &&
                   o->unplug_at[o->nunplug] >= 0 && o->unplug_for[o->nunplug] > 0) {
            o->nunplug++;
        } else {
            fprintf(stderr, "dgtboard-sim: bad option or value: %s %s\n", a, v);
            return usage();
        }
    }
    if (optind < argc || !o->link || (!o->script == !o->pgn))
        return usage();
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    int parsed = parse(argc, argv, &o);
    if (parsed != 0)
        return parsed == 2 ? 0 : 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct plan p = {0};
    uint8_t codes[64];
    int rc = o.pgn ? plan_game(&o, &p, codes) : plan_script(&o, &p, codes);
    if (rc == 0)
        rc = run(&o, &p, codes);
    free(p.a);
    return rc;
}
