/* Journals written by an earlier twinboardd, kept in fixtures/journals/NAME/, recover to the very
 * game they recorded: the PGN (or BPGN) byte for byte and the same decisions and spoken lines in
 * the log (at debug level: recovery says nothing aloud). A change to the daemon that reads old
 * journals otherwise fails here.
 *
 * Each fixture holds the journal (current.tbj, current.name), the script its sim: board played
 * (script.txt, when it had one) and what recovery gave when it was written: expected.pgn (the
 * `pgn` answer, or `bpgn` in doorgeefschaak) and expected.said (the log's decision lines).
 * TB_FIXTURE_WRITE=1 plays each game again and rewrites them: only when the journal format
 * changes on purpose, and the new expected files then read as a diff. TB_FIXTURE_WRITE=NAME
 * writes that fixture alone (a new one), leaving the older journals as they are. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"
#include "tb_chess.h"
#include "tb_file.h"
#include "tb_journal.h"
#include "tb_test.h"

#ifndef TB_FIXTURE_DIR
#error "TB_FIXTURE_DIR: the fixtures' source directory"
#endif

struct game;
static bool writing(const struct game *g);

static char *slurp(const char *path, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    if (tb_read_file(path, &buf, &n, NULL) != TB_OK)
        return NULL;
    if (len)
        *len = n;
    return buf;
}

static void spill(const char *path, const char *buf, size_t len)
{
    FILE *out = fopen(path, "wb");
    ASSERT_NOT_NULL(out);
    ASSERT_EQ(fwrite(buf, 1, len, out), len);
    ASSERT_OK(fclose(out));
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *buf = slurp(from, &len);
    if (!buf)
        TB_FAIL("cannot read %s", from);
    spill(to, buf, len);
    free(buf);
}

/* What a fixture keeps of a game: the journal's files and the script. */
static const char *const kept[] = {"journal/current.tbj", "journal/current.name", "script.txt"};

/* The log's lines that say what recovery decided and what each player heard. Lines naming
 * files or counting records are left out: they are about the disk, not the game. */
static char *said_lines(const char *log)
{
    static const char *const marks[] = {"say to ",    "agreed: ",  "RESOLVED ", "MISMATCH",
                                        "bughouse: ", "game over", "FLAG: ",    "clock: ",
                                        "arbiter: ",  "promot"};
    size_t cap = strlen(log) + 1, n = 0;
    char *out = malloc(cap);
    ASSERT_NOT_NULL(out);
    for (const char *l = log; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
        bool keep = !memmem(l, len, tb_test_tmp_dir(), strlen(tb_test_tmp_dir()));
        bool marked = false;
        for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !marked; i++)
            marked = memmem(l, len, marks[i], strlen(marks[i])) != NULL;
        keep = keep && marked;
        if (keep) {
            memcpy(out + n, l, len);
            n += len;
        }
        l += len;
    }
    out[n] = '\0';
    return out;
}

/* How a fixture's game was played and is recovered: the same configuration both times. */
struct game {
    const char *name;
    void (*configure)(struct fx *f); /* f->o set for the game (boards, clock, mode) */
    void (*play)(struct fx *f);      /* TB_FIXTURE_WRITE: the game played (started here) */
    const char *export;              /* "pgn" or "bpgn" */
};

static void fixture_path(char *buf, size_t len, const struct game *g, const char *file)
{
    const char *base = strrchr(file, '/');
    snprintf(buf, len, "%s/%s/%s", TB_FIXTURE_DIR, g->name, base ? base + 1 : file);
}

static void write_fixture(const struct game *g)
{
    struct fx f;
    char dir[300], path[700], to[700];
    snprintf(dir, sizeof dir, "%s-play", g->name);
    fx_init(&f, dir);
    g->play(&f);
    fx_free(&f);
    snprintf(path, sizeof path, "%s/%s", TB_FIXTURE_DIR, g->name);
    mkdir(path, 0755);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", f.dir, kept[i]);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        fixture_path(to, sizeof to, g, kept[i]);
        copy_file(path, to);
    }
}

/* The fixture's journal recovered in a fresh directory; its export and decision lines. */
static void recover(const struct game *g, char **exported, char **said)
{
    struct fx f;
    char dir[300], from[700], to[700];
    snprintf(dir, sizeof dir, "%s-recover", g->name);
    fx_init(&f, dir);
    mkdir(f.journal, 0755);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        fixture_path(from, sizeof from, g, kept[i]);
        struct stat st;
        if (stat(from, &st) != 0)
            continue;
        snprintf(to, sizeof to, "%s/%s", f.dir, kept[i]);
        copy_file(from, to);
    }
    g->configure(&f);
    fx_start(&f);
    fx_run(&f, 10); /* a sim: board's events are all in the journal: nothing new */
    *exported = strdup(fx_req(&f, g->export));
    *said = said_lines(f.log);
    ASSERT_NOT_NULL(*exported);
    fx_free(&f);
}

/* TB_FIXTURE_WRITE: "1" every fixture, or one fixture's name. */
static bool writing(const struct game *g)
{
    const char *w = getenv("TB_FIXTURE_WRITE");
    return w && *w && (!strcmp(w, "1") || !strcmp(w, g->name));
}

static void check(const struct game *g)
{
    char path[700];
    char *exported, *said;
    if (writing(g))
        write_fixture(g);
    recover(g, &exported, &said);
    ASSERT_STR_CONTAINS(exported, "ok+");
    if (writing(g)) {
        fixture_path(path, sizeof path, g, "expected.pgn");
        spill(path, exported, strlen(exported));
        fixture_path(path, sizeof path, g, "expected.said");
        spill(path, said, strlen(said));
    }
    fixture_path(path, sizeof path, g, "expected.pgn");
    char *want = slurp(path, NULL);
    if (!want)
        TB_FAIL("cannot read %s (TB_FIXTURE_WRITE=1 writes it)", path);
    ASSERT_STR_EQ(exported, want);
    free(want);
    fixture_path(path, sizeof path, g, "expected.said");
    want = slurp(path, NULL);
    ASSERT_NOT_NULL(want);
    ASSERT_STR_EQ(said, want);
    free(want);
    free(exported);
    free(said);
}

/* ---- the games ----------------------------------------------------------------------------- */

/* The demo game with a wrong replication at ply 4 held 1.5 s (a mismatch, D.2.9), resolved by
 * the arbiter; the built-in clock at 90 minutes and 30 s a move (6.3, 6.7). */
static void twin_mismatch_configure(struct fx *f)
{
    fx_options(f, "script", "script");
    f->o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f->o.cfg.clock.control, sizeof f->o.cfg.clock.control, "90m+30s");
}

static void twin_mismatch_play(struct fx *f)
{
    fx_demo_with_mismatch(f); /* the script, then the configuration over its options */
    twin_mismatch_configure(f);
    fx_start(f);
    fx_run_resolving(f);
    ASSERT_STR_CONTAINS(f->log, "RESOLVED");
}

/* Four promotions (3.7.5), three of them under-promotions: a queen and a rook for White, a
 * knight and a bishop for Black; the built-in clock at 5 minutes. */
static const char promo_fen[] = "8/P3k2P/8/8/8/8/p3K2p/8 w - - 0 1";
static const char *const promo_moves[] = {"a8=Q", "h1=N", "h8=R", "a1=B", "Kf1", "Kd6"};

static void twin_promotions_configure(struct fx *f)
{
    fx_options(f, "script", "script");
    snprintf(f->o.cfg.start_fen, sizeof f->o.cfg.start_fen, "%s", promo_fen);
    f->o.cfg.clock.source = TB_CONFIG_CLOCK_BUILTIN;
    snprintf(f->o.cfg.clock.control, sizeof f->o.cfg.clock.control, "5m");
}

static void twin_promotions_play(struct fx *f)
{
    tb_chess_pos start, pos;
    ASSERT_OK(tb_chess_pos_from_fen(&start, promo_fen, 0, NULL));
    pos = start;
    enum { N = sizeof promo_moves / sizeof promo_moves[0] };
    tb_chess_move moves[N];
    for (int i = 0; i < N; i++) {
        tb_chess_undo u;
        ASSERT_OK(
            tb_chess_move_from_san(&pos, promo_moves[i], TB_CHESS_LETTERS_EN, &moves[i], NULL));
        tb_chess_make(&pos, moves[i], &u);
    }
    twin_promotions_configure(f);
    struct tb_daemon_demo_script s = {
        .start = &start, .moves = moves, .nmoves = N, .pause_ms = 300, .blips = true, .seed = 2};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f->script, NULL));
    fx_start(f);
    ASSERT_EQ(fx_run(f, 100000), 0u);
    ASSERT_EQ(fx_plies(f), N);
}

/* Doorgeefschaak: board A a sim: board, board B typed (keys:). White A presses the clock after
 * an illegal knight move (7.4); Black A accepts it by request; board B's moves are typed. */
static const char bug_script[] = "0 A press clock\n"
                                 "100 A release clock\n"
                                 "600 A lift g1\n"
                                 "900 A place g4\n"
                                 "1500 A press clock\n"
                                 "1600 A release clock\n";

static void bug_configure(struct fx *f)
{
    fx_options(f, "script", "keys:");
    f->o.cfg.bughouse.enabled = true;
    f->o.exit_when_done = false;           /* the requests come after the script's end */
    f->o.speed = TB_DAEMON_SPEED_REALTIME; /* a script's end leaves the clocks on the wall's time */
}

static bool illegal_told(struct fx *f)
{
    return strstr(f->log, "illegal move Ng1g4 (7.4)") != NULL;
}

static void bug_play(struct fx *f)
{
    fx_script(f, bug_script);
    bug_configure(f);
    fx_start(f);
    ASSERT_TRUE(fx_run_until(f, 5000, illegal_told));
    ASSERT_STR_EQ(fx_req(f, "move b d4"), "ok\n");
    ASSERT_STR_EQ(fx_req(f, "accept a"), "ok\n");
    ASSERT_STR_EQ(fx_req(f, "move b d5"), "ok\n");
    fx_run_until(f, 300, NULL);
}

/* Doorgeefschaak with every request the match takes written as a binary input record: board A
 * a sim: board, board B typed. White A presses an illegal Ng1-g4 (7.4) and Black A demands its
 * replacement; board B's moves pass a pawn and a knight to Black A (2.1), who asks for the hand
 * (2.6), drops on e6 and chooses the knight (2.2); then White A resigns (5.2). */
static const char bug_inputs_script[] = "0 A press clock\n"
                                        "100 A release clock\n"
                                        "600 A lift g1\n"
                                        "900 A place g4\n"
                                        "1500 A press clock\n"
                                        "1600 A release clock\n"
                                        "4000 A lift g4\n"
                                        "4300 A place g1\n"
                                        "4600 A lift g1\n"
                                        "4900 A place f3\n"
                                        "5500 A press clock\n"
                                        "5600 A release clock\n"
                                        "7000 A place e6\n"
                                        "8500 A press clock\n"
                                        "8600 A release clock\n"
                                        "10000 A press clock\n"
                                        "10100 A release clock\n";

static const char *awaited; /* what the log is waited for to say */

static bool logged(struct fx *f)
{
    return strstr(f->log, awaited) != NULL;
}

static void await_log(struct fx *f, const char *text)
{
    awaited = text;
    if (!fx_run_until(f, 8000, logged))
        TB_FAIL("the log never held '%s'\n%s", text, f->log);
}

static void bug_inputs_play(struct fx *f)
{
    fx_script(f, bug_inputs_script);
    bug_configure(f);
    fx_start(f);
    await_log(f, "illegal move Ng1g4 (7.4)");
    ASSERT_STR_EQ(fx_req(f, "replace a"), "ok\n");
    static const char *const b_moves[] = {"e4", "d5", "exd5", "Nf6", "Nc3", "Nxd5", "Nxd5"};
    for (size_t i = 0; i < sizeof b_moves / sizeof b_moves[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "move b %s", b_moves[i]);
        ASSERT_STR_EQ(fx_req(f, line), "ok\n");
    }
    ASSERT_STR_CONTAINS(fx_req(f, "hand black-a"), "ok Black A holds 1 knight, 1 pawn");
    await_log(f, "which piece on e6");
    ASSERT_STR_EQ(fx_req(f, "choose a n"), "ok\n");
    await_log(f, "A Black: ply 11 completed");
    ASSERT_STR_EQ(fx_req(f, "resign a white pin=" FX_PIN), "ok\n");
    fx_run_until(f, 300, NULL);
}

static const struct game games[] = {
    {"twin-mismatch-clock", twin_mismatch_configure, twin_mismatch_play, "pgn"},
    {"twin-promotions", twin_promotions_configure, twin_promotions_play, "pgn"},
    {"bug-article7", bug_configure, bug_play, "bpgn"},
    {"bug-binary-inputs", bug_configure, bug_inputs_play, "bpgn"},
};

/* D.2.9: a mismatch raised and resolved by the arbiter, on the built-in clock (6.3). */
TB_TEST(law_D_2_9_old_journal_with_a_resolved_mismatch_recovers_to_the_same_game)
{
    check(&games[0]);
}

/* 3.7.5: promotions to each piece, under-promotions too, recovered with their choices. */
TB_TEST(law_3_7_5_old_journal_with_under_promotions_recovers_to_the_same_game)
{
    check(&games[1]);
}

/* How many records of type the fixture's journal holds. */
static int records_of(const struct game *g, uint16_t type)
{
    char path[700];
    size_t len;
    fixture_path(path, sizeof path, g, "current.tbj");
    char *buf = slurp(path, &len);
    ASSERT_NOT_NULL(buf);
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    int n = 0;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1)
        n += rec.type == type;
    free(buf);
    return n;
}

/* Doorgeefschaak 7.4: an illegal move pressed and accepted, typed moves on board B; its inputs
 * in the text form of older journals. */
TB_TEST(law_7_4_old_doorgeefschaak_journal_recovers_to_the_same_bpgn)
{
    ASSERT_GT(records_of(&games[2], TB_JOURNAL_BUG_INPUT_TEXT), 3);
    ASSERT_EQ(records_of(&games[2], TB_JOURNAL_BUG_INPUT_BIN), 0);
    check(&games[2]);
}

/* Doorgeefschaak 7.4, 2.1, 2.2, 2.6, 5.2 in the journal's binary input records: replace, hand,
 * choose, typed moves and drops, resign, the marks of time. */
TB_TEST(law_7_4_doorgeefschaak_journal_of_binary_inputs_recovers_to_the_same_bpgn)
{
    check(&games[3]);
    ASSERT_GT(records_of(&games[3], TB_JOURNAL_BUG_INPUT_BIN), 10);
    ASSERT_EQ(records_of(&games[3], TB_JOURNAL_BUG_INPUT_TEXT), 0);
}
