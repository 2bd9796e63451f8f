/* bench_broadcast - latency from an agreed move to its field updates readable on the virtual
 * board's pty, as a DGT program in UPDATE_BRD mode reads them (docs/benchmarks.md,
 * "Broadcast"); with a live PGN, the time the call takes (the text handed to the writer thread)
 * and the time until the file is on the disk (fsync included).
 *
 *   bench_broadcast DATA_DIR [GAMES]     games of DATA_DIR/games/twic0920.pgn (default 20)
 */
#define _DEFAULT_SOURCE /* cfmakeraw */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tb_broadcast.h"
#include "tb_file.h"

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    printf("%-44s n=%zu  median %.1f us  p99 %.1f us  max %.1f us\n", what, n,
           (double)v[n / 2] / 1e3, (double)v[n * 99 / 100] / 1e3, (double)v[n - 1] / 1e3);
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_broadcast: %s\n", what);
    exit(1);
}

/* One turn of the daemon's loop without waiting. */
static void service(tb_broadcast *bc)
{
    struct pollfd fds[8];
    uint64_t deadline;
    int k = tb_broadcast_pollfds(bc, fds, 8, now_ns() / 1000000, &deadline);
    poll(fds, (nfds_t)k, 0);
    tb_broadcast_handle(bc, fds, k, now_ns() / 1000000);
}

/* Reads until want bytes came from the board (5 s at most). */
static void read_bytes(int fd, size_t want)
{
    uint8_t buf[4096];
    size_t got = 0;
    while (got < want) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 5000) != 1)
            fail("no field update within 5 s");
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0)
            got += (size_t)n;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2)
        fail("usage: bench_broadcast DATA_DIR [GAMES]");
    int games = argc > 2 ? atoi(argv[2]) : 20;
    char path[1024], tmp[] = "/tmp/tb-bench-bcast.XXXXXX";
    snprintf(path, sizeof path, "%s/games/twic0920.pgn", argv[1]);
    char *text;
    size_t len;
    if (tb_read_file(path, &text, &len, NULL) != TB_OK || !mkdtemp(tmp))
        fail("cannot read the games or make a directory");
    char link[256], pgn[256];
    snprintf(link, sizeof link, "%s/dgt", tmp);
    snprintf(pgn, sizeof pgn, "%s/pgn", tmp);

    struct tb_broadcast_config cfg;
    tb_broadcast_config_default(&cfg);
    cfg.pty_link = link;
    tb_broadcast *bc = tb_broadcast_new(&cfg, NULL);
    cfg.pty_link = NULL;
    cfg.pgn_dir = pgn;
    tb_broadcast *files = tb_broadcast_new(&cfg, NULL);
    if (!bc || !files)
        fail("cannot open the broadcast");
    int fd = open(link, O_RDWR | O_NOCTTY);
    struct termios t;
    if (fd < 0 || tcgetattr(fd, &t) != 0)
        fail("cannot open the pty");
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
    uint8_t cmd = TB_DGT_CMD_SEND_UPDATE_BRD;
    if (write(fd, &cmd, 1) != 1)
        fail("cannot write to the pty");
    for (uint64_t end = now_ns() + 200000000u; now_ns() < end;)
        service(bc);

    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_game *game = malloc(sizeof *game);
    uint64_t *lat = malloc(sizeof(uint64_t) * 200000), *call = malloc(sizeof(uint64_t) * 200000),
             *disk = malloc(sizeof(uint64_t) * 200000);
    size_t n = 0, nc = 0;
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_broadcast_tags tags;
    memset(&tags, 0, sizeof tags);
    strcpy(tags.date, "2026.11.24");
    for (int k = 0; k < games && tb_chess_pgn_read(&r, g, NULL) == 1; k++) {
        snprintf(tags.white, sizeof tags.white, "%s", tb_chess_pgn_tag_get(g, "White"));
        snprintf(tags.round, sizeof tags.round, "%d", k + 1);
        if (tb_broadcast_new_game(bc, &tags, &g->game.start, now_ns() / 1000000, NULL) ||
            tb_broadcast_new_game(files, &tags, &g->game.start, now_ns() / 1000000, NULL))
            fail("new game refused");
        for (uint64_t end = now_ns() + 20000000u; now_ns() < end;)
            service(bc);
        tcflush(fd, TCIFLUSH);
        tb_chess_game_init(game, &g->game.start);
        for (int i = 0; i < g->game.plies && n < 200000; i++) {
            tb_chess_game_push(game, g->game.moves[i]);
            uint64_t before = tb_broadcast_board_of(bc)->changes;
            uint64_t t0 = now_ns();
            if (tb_broadcast_agreed(bc, game, NULL, t0 / 1000000, NULL) != TB_OK)
                fail("agreed move refused");
            read_bytes(fd, 5 * (size_t)(tb_broadcast_board_of(bc)->changes - before));
            lat[n++] = now_ns() - t0;
            t0 = now_ns();
            tb_broadcast_agreed(files, game, NULL, t0 / 1000000, NULL);
            call[nc] = now_ns() - t0;
            tb_broadcast_pgn_flush(files);
            disk[nc++] = now_ns() - t0;
            service(bc);
        }
    }
    report("agreed move -> field updates read on the pty", lat, n);
    report("agreed move with a live PGN (the call)", call, nc);
    report("agreed move -> live PGN on the disk", disk, nc);
    close(fd);
    tb_broadcast_free(bc);
    tb_broadcast_free(files);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
    if (system(rm) != 0)
        fail("cannot clean up");
    free(g);
    free(game);
    free(lat);
    free(call);
    free(disk);
    free(text);
    return 0;
}
