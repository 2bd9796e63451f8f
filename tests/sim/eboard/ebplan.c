/* ebplan.c - the e-board emulators' script plan (ebplan.h). */
#define _DEFAULT_SOURCE
#include "ebplan.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_chess.h"
#include "tb_file.h"
#include "tb_script.h"

static int add(struct ebplan *p, uint64_t ms, int square, int piece)
{
    if (p->n == EBPLAN_MAX) {
        snprintf(p->msg, sizeof p->msg, "more than %d events", EBPLAN_MAX);
        return 1;
    }
    p->a[p->n++] = (struct ebplan_action){ms, square, piece};
    return 0;
}

/* A lift takes the piece into the hand; a placement puts down the piece named, else the one
 * lifted last. */
static int on_event(void *user, const struct tb_script_event *ev, long line)
{
    struct ebplan *p = user;
    if (p->only && strcmp(ev->board, p->only) != 0)
        return 0;
    char sq[3];
    if (ev->kind == TB_SCRIPT_LIFT) {
        int piece = p->board[ev->square];
        if (!piece) {
            snprintf(p->msg, sizeof p->msg, "line %ld: lift from the empty square %s", line,
                     tb_chess_square_name(ev->square, sq));
            return 1;
        }
        p->board[ev->square] = 0;
        if (p->nhand < 64)
            p->hand[p->nhand++] = (uint8_t)piece;
        return add(p, ev->ms, ev->square, 0);
    }
    if (ev->kind != TB_SCRIPT_PLACE)
        return 0;
    int piece = ev->piece ? tb_chess_piece_from_fen(ev->piece) : 0;
    int h = p->nhand - 1;
    while (piece > 0 && h >= 0 && p->hand[h] != piece)
        h--;
    if (piece <= 0 && h >= 0)
        piece = p->hand[h];
    if (piece <= 0) {
        snprintf(p->msg, sizeof p->msg, "line %ld: place on %s without a piece in the hand", line,
                 tb_chess_square_name(ev->square, sq));
        return 1;
    }
    if (h >= 0) {
        memmove(&p->hand[h], &p->hand[h + 1], (size_t)(p->nhand - h - 1));
        p->nhand--;
    }
    p->board[ev->square] = (uint8_t)piece;
    return add(p, ev->ms, ev->square, piece);
}

static int cmp_action(const void *a, const void *b)
{
    const struct ebplan_action *x = a, *y = b;
    return x->ms < y->ms ? -1 : x->ms > y->ms;
}

int ebplan_script(struct ebplan *p, const char *prog, const char *script, const char *only,
                  const long *unplug_at, const long *unplug_for, int n)
{
    char *buf;
    size_t len;
    struct tb_error err;
    if (tb_read_file(script, &buf, &len, &err) != TB_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return 1;
    }
    tb_chess_pos pos;
    char fen[128];
    tb_chess_pos_startpos(&pos);
    if (tb_script_start_fen(buf, len, fen, sizeof fen) == 1 &&
        tb_chess_pos_from_fen(&pos, fen, TB_CHESS_FEN_960, &err) != TB_OK) {
        free(buf);
        fprintf(stderr, "%s: start FEN: %s\n", prog, err.msg);
        return 1;
    }
    for (int sq = 0; sq < 64; sq++)
        p->start[sq] = p->board[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    p->only = only;
    int rc = tb_script_parse_buffer(buf, len, on_event, p, &err);
    free(buf);
    for (int i = 0; rc == 0 && i < n; i++) {
        if (add(p, (uint64_t)unplug_at[i], 0, EBPLAN_UNPLUG) ||
            add(p, (uint64_t)(unplug_at[i] + unplug_for[i]), 0, EBPLAN_PLUG))
            rc = 1;
    }
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", prog, rc == TB_ERR_PARSE ? err.msg : p->msg);
        return 1;
    }
    qsort(p->a, p->n, sizeof p->a[0], cmp_action);
    return 0;
}

uint64_t ebplan_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void ebplan_log_leds(const char *path, uint64_t ms, uint64_t lit)
{
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%llu", (unsigned long long)ms);
    for (int sq = 0; sq < 64; sq++) {
        char name[3];
        if (lit & TB_CHESS_BIT(sq))
            fprintf(f, " %s", tb_chess_square_name(sq, name));
    }
    fprintf(f, "%s\n", lit ? "" : " off");
    fclose(f);
}

bool ebplan_parse_unplug(const char *v, long *at, long *for_ms, int *n)
{
    if (*n >= EBPLAN_UNPLUGS || sscanf(v, "%ld:%ld", &at[*n], &for_ms[*n]) != 2 || at[*n] < 0 ||
        for_ms[*n] <= 0)
        return false;
    (*n)++;
    return true;
}

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

static int usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s --link PATH --script FILE [--board NAME] [--no-wait]\n"
            "       [--lead MS] [--linger MS] [--forever] [--unplug AT_MS:FOR_MS]...\n"
            "       [--garbage PERMILLE] [--torn PERMILLE] [--seed N] [--led-log FILE] [-v]\n",
            prog);
    return 1;
}

int ebplan_parse(int argc, char **argv, const char *prog, struct ebplan_opts *o)
{
    *o = (struct ebplan_opts){.wait_host = true, .lead_ms = 300, .linger_ms = 2000, .seed = 1};
    static const struct option longs[] = {
        {"no-wait", no_argument, NULL, 'W'},
        {"forever", no_argument, NULL, 'F'},
        {"link", required_argument, NULL, 'l'},
        {"script", required_argument, NULL, 's'},
        {"board", required_argument, NULL, 'b'},
        {"lead", required_argument, NULL, 'L'},
        {"linger", required_argument, NULL, 'g'},
        {"unplug", required_argument, NULL, 'u'},
        {"garbage", required_argument, NULL, 'G'},
        {"seed", required_argument, NULL, 'S'},
        {"led-log", required_argument, NULL, 'E'},
        {"torn", required_argument, NULL, 'T'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":v", longs, NULL)) != -1) {
        const char *v = optarg;
        bool ok = true;
        switch (c) {
        case 'W':
            o->wait_host = false;
            break;
        case 'F':
            o->forever = true;
            break;
        case 'v':
            o->verbose++;
            break;
        case 'l':
            o->link = v;
            break;
        case 's':
            o->script = v;
            break;
        case 'b':
            o->board = v;
            break;
        case 'E':
            o->led_log = v;
            break;
        case 'L':
            ok = num(v, 0, 600000L, &o->lead_ms);
            break;
        case 'g':
            ok = num(v, 0, 3600000L, &o->linger_ms);
            break;
        case 'G':
            ok = num(v, 0, 1000, &o->garbage);
            break;
        case 'S':
            ok = num(v, 0, 2147483647L, &o->seed);
            break;
        case 'T':
            ok = num(v, 0, 1000, &o->torn);
            break;
        case 'u':
            ok = o->nunplug < 8 &&
                 sscanf(v, "%ld:%ld", &o->unplug_at[o->nunplug], &o->unplug_for[o->nunplug]) == 2 &&
                 o->unplug_at[o->nunplug] >= 0 && o->unplug_for[o->nunplug] > 0;
            o->nunplug += ok;
            break;
        default:
            ok = false;
            break;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad option or value: %s\n", prog, argv[optind - 1]);
            return usage(prog);
        }
    }
    if (optind < argc || !o->link || !o->script)
        return usage(prog);
    return 0;
}

bool ebplan_tear(uint8_t reading[64], const uint8_t before[64], const uint8_t now[64], uint32_t rnd)
{
    int lo = -1, hi = -1;
    for (int sq = 0; sq < 64; sq++)
        if (before[sq] != now[sq]) {
            lo = lo < 0 ? sq : lo;
            hi = sq;
        }
    int split = lo < hi ? lo + 1 + (int)(rnd % (uint32_t)(hi - lo)) : 0;
    for (int sq = 0; sq < 64; sq++)
        reading[sq] = sq < split ? before[sq] : now[sq];
    return split > 0;
}
