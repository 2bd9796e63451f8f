/* A journal that cannot be written: the daemon agrees and announces nothing that is not on disk,
 * stops play, says so once (both players, status, one log line, the arbiter), retries, and when
 * writing works again play resumes by itself with nothing lost. The disk fails on demand through
 * the journal's file operations (tb_journal_io); the game is the demo game on two sim: boards. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_chess.h"
#include "tb_journal.h"
#include "tb_test.h"

/* The disk: fails every write (and/or sync) with `error` while it is set. */
struct disk {
    int error;
    bool sync_only; /* only fdatasync fails (the writes reach the page cache) */
    unsigned failed;
    off_t synced; /* file size at the last successful fdatasync */
};

static ssize_t disk_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    struct disk *k = user;
    if (k->error && !k->sync_only) {
        k->failed++;
        errno = k->error;
        return -1;
    }
    return pwrite(fd, buf, len, off);
}

static int disk_fdatasync(void *user, int fd)
{
    struct disk *k = user;
    if (k->error) {
        k->failed++;
        errno = k->error;
        return -1;
    }
    int rc = fdatasync(fd);
    struct stat st;
    if (rc == 0 && fstat(fd, &st) == 0)
        k->synced = st.st_size;
    return rc;
}

/* What the players and the log were told, checked as it is said. */
struct watch {
    struct fx *f;
    struct disk *disk;
    void (*log)(void *arg, enum tb_config_log level, const char *line);
    int fail_after; /* plies agreed before the disk fails */
    int fail_error;
    int agreed, announced, notices;
    int not_durable; /* moves agreed or said before their records were on disk */
};

/* Agreed moves whose records are on disk (the synced part of the file). */
static int moves_on_disk(struct watch *w)
{
    char path[512];
    snprintf(path, sizeof path, "%s/current.tbj", w->f->journal);
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, in);
    fclose(in);
    if ((off_t)len > w->disk->synced)
        len = (size_t)w->disk->synced;
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    int n = 0, rc;
    while ((rc = tb_journal_iter_next(&it, &rec, NULL)) != 0)
        if (rc > 0 && rec.type == TB_JOURNAL_MOVE)
            n++;
    return n;
}

static void watch_log(void *arg, enum tb_config_log level, const char *line)
{
    struct watch *w = arg;
    w->log(w->f, level, line);
    if (!w->f->d)
        return; /* starting */
    struct tb_daemon_counters c;
    tb_daemon_counters(w->f->d, &c);
    bool durable = !c.journal_stopped && c.journal_durable_seq == c.journal_last_seq;
    if (strstr(line, "info: agreed: ")) {
        w->agreed++;
        if (!durable || moves_on_disk(w) < w->agreed)
            w->not_durable++;
        if (w->agreed == w->fail_after)
            w->disk->error = w->fail_error;
    } else if (strstr(line, "info: say to ")) {
        if (c.journal_stopped)
            w->notices++; /* the stop itself: wait, the arbiter is called */
        else if (w->announced++, !durable)
            w->not_durable++;
    }
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static bool stopped(struct fx *f)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    return c.journal_stopped;
}

/* Plays the demo game; the disk fails with error once fail_after plies are agreed, stays
 * failed for more than two retries, then works again. */
static void game_on_failing_disk(const char *name, int error, bool sync_only, const char *reason,
                                 bool realtime)
{
    struct fx f;
    fx_init(&f, name);
    tb_chess_move moves[256];
    int n = tb_daemon_demo_moves(moves, 256);
    ASSERT_GT(n, 10);
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .pause_ms = 300, .blips = true, .seed = 17};
    /* real time: both boards read by one loop; a pause longer than a stall keeps their order */
    if (realtime)
        s.pause_ms = (uint32_t)(150 * tb_test_time_multiplier());
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    fx_options(&f, "script", "script");
    if (realtime) /* the boards play on while the disk fails: their events wait in memory */
        f.o.speed = TB_DAEMON_SPEED_REALTIME;
    struct disk disk = {.sync_only = sync_only};
    struct tb_journal_io io = {.pwrite = disk_pwrite, .fdatasync = disk_fdatasync, .user = &disk};
    struct watch w = {.f = &f, .disk = &disk, .log = f.o.log, .fail_after = 5, .fail_error = error};
    f.o.journal_io = &io;
    f.o.log = watch_log;
    f.o.log_arg = &w;
    fx_start(&f);

    /* Play stops at once, said once, and the disk is tried again (about every second). */
    ASSERT_TRUE(fx_run_until(&f, 20000, stopped));
    ASSERT_EQ(w.agreed, 5);
    unsigned failed = disk.failed;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        ASSERT_EQ(tb_daemon_step(f.d, 50), 1);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 2600)
            break;
    }
    ASSERT_TRUE(stopped(&f));
    ASSERT_GE(disk.failed, failed + 2); /* retried */
    ASSERT_EQ(w.agreed, 5);             /* nothing agreed while the disk fails */
    char want[128];
    snprintf(want, sizeof want, "journal: cannot write: %s", reason);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), want);
    ASSERT_EQ(count(f.log, "play stopped, ARBITER called"), 1);
    ASSERT_EQ(count(f.log, "error:"), 1); /* no repeated error lines */
    ASSERT_STR_CONTAINS(f.log, "ARBITER called");
    ASSERT_EQ(w.notices, 4); /* both players: please wait, the arbiter has been called */
    ASSERT_STR_CONTAINS(fx_req(&f, "promote q"), "err");

    /* Writing works again: play resumes by itself, the game ends as it was played. */
    disk.error = 0;
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_TRUE(c.done);
    ASSERT_FALSE(c.journal_stopped);
    ASSERT_EQ(c.plies, n);
    ASSERT_EQ(w.agreed, n);
    ASSERT_EQ(w.not_durable, 0);
    ASSERT_GE(w.announced, n); /* every move was announced */
    ASSERT_EQ(count(f.log, "writing again"), 1);
    ASSERT_EQ(count(f.log, "error:"), 1);
    /* The journal on disk holds every agreed move once, nothing lost. */
    fx_free_whole(&f, moves, n);
}

TB_TEST(full_disk_stops_play_says_so_once_and_the_game_resumes_with_nothing_lost)
{
    game_on_failing_disk("enospc", ENOSPC, false, "No space left on device", false);
}

TB_TEST(read_only_disk_stops_play_says_so_once_and_the_game_resumes_with_nothing_lost)
{
    game_on_failing_disk("erofs", EROFS, false, "Read-only file system", false);
}

TB_TEST(disk_io_error_on_sync_stops_play_and_the_game_resumes_with_nothing_lost)
{
    game_on_failing_disk("eio", EIO, true, "Input/output error", false);
}

TB_TEST(file_too_large_stops_play_and_the_game_resumes_with_nothing_lost)
{
    game_on_failing_disk("efbig", EFBIG, false, "File too large", false);
}

TB_TEST(moves_made_while_the_disk_is_full_are_recognised_once_it_is_not)
{
    game_on_failing_disk("enospc-live", ENOSPC, false, "No space left on device", true);
}
