/* Nothing lost: the journal is replayed on start through the same path as live input, so a
 * daemon killed at any point (kill -9, power cut: a torn last record) comes back with every
 * completed move, every mismatch and every arbiter decision, and a game carried on from there
 * ends exactly as an uninterrupted one. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_journal.h"
#include "tb_test.h"

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ASSERT_NOT_NULL(f);
    static uint8_t buf[4 << 20];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

static void write_all(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(buf, 1, len, f), len);
    ASSERT_OK(fclose(f));
}

/* The demo game with one wrong replication the arbiter resolves (fixture.c). */
static void reference(struct fx *f)
{
    fx_demo_with_mismatch(f);
    fx_start(f);
}

static void run_to_end(struct fx *f)
{
    fx_run_resolving(f);
}

/* Moves and arbiter decisions recorded in a journal prefix. */
static int count_moves(const uint8_t *buf, size_t len)
{
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    int n = 0;
    while (tb_journal_iter_next(&it, &rec, NULL) == 1)
        n += rec.type == TB_JOURNAL_MOVE;
    return n;
}

/* Moves the inputs in a journal prefix agree at the very instant of its last input (a board
 * put right to the announced move agrees it at once): their MOVE records follow the prefix, and
 * a replay of the prefix makes them again. Counted from the records after the cut, up to the
 * next input or a later time. */
static int moves_at_cut(const uint8_t *buf, size_t len, size_t cut)
{
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, buf, len);
    uint64_t last_t = 0;
    bool have_last = false;
    int n = 0;
    while (tb_journal_iter_next(&it, &rec, NULL) == 1) {
        if (rec.offset + 1 <= cut && it.pos <= cut) {
            last_t = rec.time_ms;
            have_last = true;
            continue;
        }
        if (!have_last || rec.time_ms != last_t || rec.type == TB_JOURNAL_BOARD_EVENT)
            break;
        n += rec.type == TB_JOURNAL_MOVE;
    }
    return n;
}

/* A fresh fixture whose journal is the first cut bytes of buf: what a kill left. */
static void journal_prefix(struct fx *g, const char *name, const uint8_t *buf, size_t cut)
{
    char path[600];
    fx_init(g, name);
    mkdir(g->journal, 0755);
    snprintf(path, sizeof path, "%s/current.tbj", g->journal);
    write_all(path, buf, cut);
}

/* The reference game played to its end: its PGN, its moves and its journal's bytes. */
static uint8_t *full_run(struct fx *f, char *pgn, size_t len, char *moves, size_t mlen,
                         size_t *jlen)
{
    char path[600];
    fx_init(f, "full");
    reference(f);
    run_to_end(f);
    snprintf(pgn, len, "%s", fx_req(f, "pgn"));
    fx_moves(f, moves, mlen);
    fx_stop(f);
    snprintf(path, sizeof path, "%s/current.tbj", f->journal);
    return read_all(path, jlen);
}

/* A daemon started on the first cut bytes of buf with f's boards (its scripts): a restart. */
static void restart(struct fx *g, const char *name, const struct fx *f, const uint8_t *buf,
                    size_t cut)
{
    journal_prefix(g, name, buf, cut);
    snprintf(g->script, sizeof g->script, "%s", f->script);
    fx_options(g, "script", "script");
    fx_start(g);
}

/* Recovery from every prefix of the journal (a cut at any byte is what kill -9 or a power cut
 * leaves): every move in the prefix comes back, none is invented. */
TB_TEST(recovery_from_any_journal_prefix)
{
    static char pgn[65536], moves[2048], dir[600];
    struct fx f;
    size_t len;
    uint8_t *buf = full_run(&f, pgn, sizeof pgn, moves, sizeof moves, &len);
    ASSERT_GT(len, 1000);
    int cuts = 0;
    for (size_t cut = 0; cut <= len; cut += cut < len && len - cut < 97 ? len - cut : 97) {
        struct fx g;
        snprintf(dir, sizeof dir, "cut%zu", cut);
        journal_prefix(&g, dir, buf, cut);
        fx_options(&g, "null:", "null:");
        fx_start(&g);
        int want = count_moves(buf, cut), plies = fx_plies(&g);
        if (plies != want && plies != want + moves_at_cut(buf, len, cut))
            TB_FAIL("cut at %zu: %d plies recovered, the journal has %d", cut, plies, want);
        char got[2048];
        fx_moves(&g, got, sizeof got);
        ASSERT_EQ(strncmp(moves, got, strlen(got)), 0); /* a prefix of the whole game */
        fx_free(&g);
        cuts++;
        if (cut == len)
            break;
    }
    ASSERT_GT(cuts, 10);
    fx_free(&f);
}

/* Killed at several points and started again with the same boards: the game ends exactly as
 * the uninterrupted one, PGN notes (mismatch, arbiter, resolution) included. */
TB_TEST(recovery_then_the_game_ends_as_uninterrupted)
{
    static char pgn[65536], moves[2048], dir[600];
    struct fx f;
    size_t len;
    uint8_t *full = full_run(&f, pgn, sizeof pgn, moves, sizeof moves, &len);
    ASSERT_STR_CONTAINS(pgn, "mismatch 1");
    static uint8_t copy[4 << 20];
    memcpy(copy, full, len);
    for (int k = 1; k <= 6; k++) {
        size_t cut = len * (size_t)k / 7 + (size_t)k * 13; /* mid-record cuts too */
        struct fx g;
        snprintf(dir, sizeof dir, "again%d", k);
        restart(&g, dir, &f, copy, cut);
        run_to_end(&g);
        ASSERT_STR_EQ(fx_req(&g, "pgn"), pgn);
        fx_free(&g);
    }
    fx_free(&f);
}

/* Recovery replays the game's messages (the mismatch, the board to put right) before speech is
 * open: nobody hears them, so nothing is phrased for a player and the log gets no warning for
 * it; the whole journal comes back without a single warning line. */
TB_TEST(recovery_of_a_whole_journal_warns_of_nothing)
{
    static char pgn[65536], moves[2048];
    struct fx f;
    size_t len;
    uint8_t *full = full_run(&f, pgn, sizeof pgn, moves, sizeof moves, &len);
    ASSERT_STR_CONTAINS(pgn, "mismatch 1");
    struct fx g;
    restart(&g, "whole", &f, full, len);
    ASSERT_STR_EQ(g.warnings, "");
    run_to_end(&g);
    ASSERT_STR_EQ(fx_req(&g, "pgn"), pgn);
    fx_free(&g);
    fx_free(&f);
}

/* A torn last record (a write cut short) is dropped with a warning; the rest is recovered. */
TB_TEST(recovery_torn_tail_dropped)
{
    static char pgn[65536], moves[2048], path[600];
    struct fx f;
    size_t len;
    full_run(&f, pgn, sizeof pgn, moves, sizeof moves, &len);
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    int fd = open(path, O_WRONLY | O_APPEND);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "TBJ1\x02\x00\x00\x00\x40\x00", 10), 10); /* a header cut short */
    close(fd);
    fx_options(&f, "null:", "null:");
    fx_start(&f);
    ASSERT_STR_CONTAINS(f.log, "torn last record");
    char got[2048];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), moves);
    ASSERT_STR_EQ(fx_req(&f, "pgn"), pgn);
    fx_free(&f);
}

#ifdef TB_TWINBOARDD
static pid_t run_daemon(const char *config)
{
    return fx_spawn(TB_TWINBOARDD, config, "--exit-when-done");
}

/* The real program, killed with SIGKILL in the middle of a game played in real time, started
 * again: the game goes on from where it was and ends with every move. */
TB_TEST(kill9_real_daemon_loses_no_move)
{
    struct fx f;
    fx_init(&f, "kill9");
    tb_chess_move moves[64];
    ASSERT_GE(tb_daemon_demo_moves(moves, 64), 8);
    int n = 8; /* 1. e4 e5 2. Nf3 Nc6 3. Bb5 d6 4. d4 f6, some seconds */
    struct tb_daemon_demo_script s = {.moves = moves, .nmoves = n, .pause_ms = 100, .seed = 2};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f.script, NULL));
    char config[600];
    snprintf(config, sizeof config, "%s/twinboard.ini", f.dir);
    FILE *c = fopen(config, "w");
    ASSERT_NOT_NULL(c);
    fprintf(c,
            "[daemon]\nsocket = %s\njournal_dir = %s\nblip_window_ms = 100\n[arbiter]\npin = %s\n"
            "[player vi]\nboard = sim:%s?speed=realtime\n"
            "[player sighted]\nboard = sim:%s?speed=realtime\n",
            f.socket, f.journal, FX_PIN, f.script, f.script);
    ASSERT_OK(fclose(c));
    pid_t pid = run_daemon(config);
    /* killed once three moves are in its journal: in the middle of the game */
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    for (int i = 0; i < tb_test_ms(1000); i++) { /* 20 s */
        struct stat st;
        size_t len = 0;
        if (stat(path, &st) == 0 && st.st_size > 0) {
            const uint8_t *buf = read_all(path, &len);
            if (count_moves(buf, len) >= 3)
                break;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ASSERT_OK(kill(pid, SIGKILL));
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    /* what the journal holds now is what the killed daemon had agreed */
    fx_options(&f, "null:", "null:");
    fx_start(&f);
    int before = fx_plies(&f);
    fx_stop(&f);
    ASSERT_GT(before, 0);
    ASSERT_LT(before, n);
    pid = run_daemon(config);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    fx_start(&f);
    char got[256];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 Nf3 Nc6 Bb5 d6 d4 f6");
    fx_free(&f);
}
#endif

/* Damage in the middle of the journal (a bad disk block) and a journal of pure garbage: the
 * daemon starts, says what it skipped, and keeps what it can. */
TB_TEST(recovery_damaged_journal_does_not_stop_the_daemon)
{
    static char pgn[65536], moves[2048];
    struct fx f;
    size_t len;
    uint8_t *buf = full_run(&f, pgn, sizeof pgn, moves, sizeof moves, &len);
    static uint8_t copy[4 << 20];
    memcpy(copy, buf, len);
    for (size_t i = len / 2; i < len / 2 + 40; i++)
        copy[i] ^= 0xa5;
    struct fx g;
    journal_prefix(&g, "damaged", copy, len);
    fx_options(&g, "null:", "null:");
    fx_start(&g);
    ASSERT_STR_CONTAINS(g.log, "corrupt");
    ASSERT_GT(fx_plies(&g), 0);
    fx_free(&g);

    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < 100000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        copy[i] = (uint8_t)x;
    }
    memcpy(copy + 5000, "TBJ1", 4); /* a magic with nothing valid behind it */
    struct fx h;
    journal_prefix(&h, "garbage", copy, 100000);
    fx_options(&h, "null:", "null:");
    fx_start(&h);
    ASSERT_EQ(fx_plies(&h), 0);
    ASSERT_STR_CONTAINS(fx_req(&h, "status"), "state: in-sync");
    fx_free(&h);
    fx_free(&f);
}
