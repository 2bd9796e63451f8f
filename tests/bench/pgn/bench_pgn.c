/* bench_pgn.c - PGN speed over the shared corpus: reading with full replay (every SAN move
 * matched against the legal moves and played), then PGN export and scoresheet writing of every
 * game. Files are read into memory first; times are process CPU time (steady on a loaded
 * machine), the best of REPEATS runs. Fails (exit 1) if any game does not read.
 *
 * Usage: bench_pgn DATA_DIR [REPEATS]   (DATA_DIR holds games/; REPEATS defaults to 3) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_chess.h"
#include "tb_file.h"

static const char *const files[] = {"twic0920.pgn", "Korchnoi.pgn", "Carlsen.pgn", "Kasparov.pgn"};
#define NFILES (sizeof files / sizeof files[0])

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct result {
    long games, plies, errors;
    size_t bytes;
    double read_s, write_s;
};

/* One pass: read every game; with out != NULL also export it and write its scoresheet. */
static void pass(const char *text, size_t len, tb_chess_pgn_game *g, char *out, size_t cap,
                 struct result *r, double *read_s, double *write_s)
{
    tb_chess_pgn_reader rd;
    struct tb_error err;
    tb_chess_pgn_reader_init(&rd, text, len);
    r->games = r->plies = r->errors = 0;
    r->bytes = 0;
    *read_s = *write_s = 0;
    int rc;
    for (;;) {
        double t0 = now();
        rc = tb_chess_pgn_read(&rd, g, &err);
        double t1 = now();
        *read_s += t1 - t0;
        if (rc == 0)
            break;
        r->games++;
        if (rc < 0) {
            if (r->errors++ == 0)
                printf("  error: %s (line %ld)\n", err.msg, err.line);
            continue;
        }
        r->plies += g->game.plies;
        if (!out)
            continue;
        int n = tb_chess_pgn_write(g, out, cap);
        int m = tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_DE, out, cap);
        *write_s += now() - t1;
        if (n < 0 || m < 0)
            r->errors++;
        else
            r->bytes += (size_t)n;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_pgn DATA_DIR [REPEATS]\n");
        return 2;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : 3;
    if (repeats < 1)
        repeats = 1;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    size_t cap = 1 << 20;
    char *out = malloc(cap);
    if (!g || !out)
        return 2;
    struct result total = {0, 0, 0, 0, 0, 0};
    printf("%-14s %6s %8s %8s %10s %11s %9s %10s\n", "file", "games", "plies", "read s", "games/s",
           "plies/s", "write s", "games/s");
    for (size_t f = 0; f < NFILES; f++) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/games/%s", argv[1], files[f]);
        char *text;
        struct tb_error rerr;
        if (tb_read_file(path, &text, &len, &rerr) != TB_OK) {
            fprintf(stderr, "bench_pgn: %s\n", rerr.msg);
            return 2;
        }
        struct result r = {0, 0, 0, 0, 1e9, 1e9};
        for (int i = 0; i < repeats; i++) {
            double rs, ws, dummy;
            pass(text, len, g, NULL, 0, &r, &rs, &dummy);
            if (rs < r.read_s)
                r.read_s = rs;
            pass(text, len, g, out, cap, &r, &dummy, &ws);
            if (ws < r.write_s)
                r.write_s = ws;
        }
        free(text);
        printf("%-14s %6ld %8ld %8.3f %10.0f %11.0f %9.3f %10.0f\n", files[f], r.games, r.plies,
               r.read_s, r.games / r.read_s, r.plies / r.read_s, r.write_s, r.games / r.write_s);
        total.games += r.games;
        total.plies += r.plies;
        total.errors += r.errors;
        total.read_s += r.read_s;
        total.write_s += r.write_s;
    }
    printf("%-14s %6ld %8ld %8.3f %10.0f %11.0f %9.3f %10.0f\n", "total", total.games, total.plies,
           total.read_s, total.games / total.read_s, total.plies / total.read_s, total.write_s,
           total.games / total.write_s);
    printf("(CPU seconds; read = parse + replay every move; write = PGN export + German "
           "scoresheet)\n");
    free(out);
    free(g);
    return total.errors ? 1 : 0;
}
