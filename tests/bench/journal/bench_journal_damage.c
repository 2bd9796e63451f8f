/* bench_journal_damage.c - what damage in the middle of a journal costs, exhaustively: a whole
 * corpus game written through the journal API as the daemon writes it, then (1) one bit flipped
 * at every byte (bit = offset mod 8, or all 8 bits with ALL), (2) a 4 KiB page of zeros at every
 * byte offset. Each damaged copy is read back; every record the damage did not touch must come
 * back intact and in order, and the loss must be reported with its records, bytes and ply.
 * Prints records lost per case (max, mean) and fails (exit 1) at the first wrong reading. Also
 * times what durability costs: 500 move records, each appended and committed (fdatasync) in a
 * journal under /tmp.
 *
 * Usage: bench_journal_damage DATA_DIR [ALL]   (DATA_DIR holds games/) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "damage.h"
#include "game_journal.h"

#define GAME_FILE "twic0920.pgn"
#define GAME_NO   84

static struct game_journal gj;

static int report(const char *what, const struct damage_stats *st, double secs)
{
    printf("%-34s %8ld cases  records lost max %3ld mean %7.3f  moves lost max %2ld  "
           "beyond the damage %ld  torn tail %ld  (%.1f s)\n",
           what, st->cases, st->lost_max, damage_stats_mean(st), st->moves_max, st->excess_max,
           st->torn, secs);
    return st->excess_max ? 1 : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* What durability costs per move: append a move record and commit (write + fdatasync), as the
 * daemon does for every agreed move, n times in a journal at path. */
static int commit_latency(const char *path, int n)
{
    struct tb_journal *j;
    struct tb_error err = {0};
    if (tb_journal_open(&j, path, NULL, &err) != TB_OK) {
        fprintf(stderr, "bench_journal_damage: %s\n", err.msg);
        return 1;
    }
    double *ms = malloc((size_t)n * sizeof *ms);
    struct tb_journal_move mv = {.board = 0, .move = 0x1234};
    snprintf(mv.san, sizeof mv.san, "Nf3");
    int rc = ms ? TB_OK : TB_ERR_MEM;
    for (int i = 0; i < n && rc == TB_OK; i++) {
        mv.ply = (uint16_t)(i + 1);
        double t0 = now();
        if (tb_journal_append_move(j, (uint64_t)i, &mv) < 0 || tb_journal_commit(j, &err) != 0)
            rc = TB_ERR_SYS;
        ms[i] = (now() - t0) * 1000;
    }
    tb_journal_close(j);
    unlink(path);
    if (rc == TB_OK) {
        qsort(ms, (size_t)n, sizeof *ms, cmp_double);
        printf("append + commit of a move record   %8d moves  median %.3f ms  99th %.3f ms  "
               "max %.3f ms\n",
               n, ms[n / 2], ms[n * 99 / 100], ms[n - 1]);
    } else {
        fprintf(stderr, "bench_journal_damage: %s\n", err.msg);
    }
    free(ms);
    return rc == TB_OK ? 0 : 1;
}

/* Damages copy at [at, at + n) (n 1: flip bit; else zeros), checks, counts. */
static int one(uint8_t *copy, size_t at, size_t n, int bit, struct damage_stats *st)
{
    memcpy(copy + at, gj.buf + at, n);
    if (n == 1)
        copy[at] ^= (uint8_t)(1u << bit);
    else
        memset(copy + at, 0, n);
    struct damage_result r;
    damage_check(&gj, copy, at, at + n, &r);
    memcpy(copy + at, gj.buf + at, n);
    if (r.failure[0]) {
        fprintf(stderr, "bench_journal_damage: %s\n", r.failure);
        return 1;
    }
    damage_stats_add(st, &r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_journal_damage DATA_DIR [ALL]\n");
        return 2;
    }
    bool all_bits = argc > 2 && strcmp(argv[2], "ALL") == 0;
    char pgn[1024], dir[] = "/tmp/tbjournal.XXXXXX", path[64];
    snprintf(pgn, sizeof pgn, "%s/games/%s", argv[1], GAME_FILE);
    if (!mkdtemp(dir))
        return 2;
    snprintf(path, sizeof path, "%s/game.tbj", dir);
    struct tb_error err = {0};
    int rc = game_journal_make(&gj, pgn, GAME_NO, path, &err);
    unlink(path);
    if (rc == TB_OK && commit_latency(path, 500) != 0)
        rc = TB_ERR_SYS;
    rmdir(dir);
    if (rc != TB_OK) {
        fprintf(stderr, "bench_journal_damage: %s\n", err.msg);
        return 1;
    }
    printf("journal of %s game %d: %d plies, %zu records, %zu bytes\n", GAME_FILE, GAME_NO,
           gj.plies, gj.records, gj.len);
    uint8_t *copy = malloc(gj.len);
    if (!copy)
        return 2;
    memcpy(copy, gj.buf, gj.len);
    int fails = 0;

    struct damage_stats st;
    damage_stats_init(&st);
    double t0 = now();
    for (size_t at = 0; at < gj.len && !fails; at++) {
        for (int bit = all_bits ? 0 : (int)(at % 8); bit < (all_bits ? 8 : (int)(at % 8) + 1);
             bit++)
            fails |= one(copy, at, 1, bit, &st);
    }
    fails |= report(all_bits ? "one bit flipped (every bit)" : "one bit flipped (every byte)", &st,
                    now() - t0);

    damage_stats_init(&st);
    t0 = now();
    for (size_t at = 0; at < gj.len && !fails; at++)
        fails |= one(copy, at, at + 4096 <= gj.len ? 4096 : gj.len - at, 0, &st);
    fails |= report("4 KiB zeroed (every byte offset)", &st, now() - t0);

    damage_stats_init(&st);
    t0 = now();
    for (size_t at = 0; at < gj.len && !fails; at += 4096)
        fails |= one(copy, at, at + 4096 <= gj.len ? 4096 : gj.len - at, 0, &st);
    fails |= report("4 KiB zeroed (page boundaries)", &st, now() - t0);

    free(copy);
    game_journal_free(&gj);
    return fails ? 1 : 0;
}
