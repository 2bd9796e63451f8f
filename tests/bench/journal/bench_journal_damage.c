/* bench_journal_damage.c - what damage in the middle of a journal costs, exhaustively: a whole
 * corpus game written through the journal API as the daemon writes it, then (1) one bit flipped
 * at every byte (bit = offset mod 8, or all 8 bits with ALL), (2) a 4 KiB page of zeros at every
 * byte offset. Each damaged copy is read back; every record the damage did not touch must come
 * back intact and in order, and the loss must be reported with its records, bytes and ply.
 * Prints records lost per case (max, mean) and fails (exit 1) at the first wrong reading.
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
