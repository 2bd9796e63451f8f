/* Doorgeefschaak in twinboardd ([bughouse]): random matches (tb_bug_gen) played on two simulated
 * boards (tb_bugmatch_gen_script) through the daemon end to the generator's BPGN; each of the
 * four seats hears exactly what the match tells it, in its pack (the partner's board only when
 * configured); a restart mid-match replays the journal to the same match and says nothing
 * twice; control requests of the other mode are refused; bad [bughouse] entries are named;
 * article 7 on a simulated reed board (accept, replace, the opponent's press, restarts); a DGT
 * board naming a drop's piece and its reading after a restart.
 *
 * style: real-time wait: pty boards and a daemon in real time, with timeouts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dgtpty.h"
#include "fixture.h"
#include "ptyboard.h"
#include "recorder.h"
#include "tb_bugmatch.h"
#include "tb_config.h"
#include "tb_ctl.h"
#include "tb_dgt.h"
#include "tb_journal.h"
#include "tb_run.h"
#include "tb_test.h"

#define SEATS   4
#define MATCHES 40 /* seeded random matches through the daemon */
static const char *const seat_names[SEATS] = {"White A", "Black A", "White B", "Black B"};

/* ---- a generated match and its script ---------------------------------------------------- */

static int collect(void *user, const struct tb_script_event *ev, long line)
{
    (void)line;
    return tb_script_list_push(user, ev);
}

struct game {
    tb_bug_record rec;
    struct tb_script_list script;
    uint64_t seed;
};

/* resign_permille: chance per move of a resignation, written as the script's `press resign` */
static void generate_with(struct game *g, uint64_t seed, int resign_permille)
{
    memset(g, 0, sizeof *g);
    g->seed = seed;
    struct tb_bug_gen_config gc = {
        .seed = seed, .min_think_ms = 2000, .pass_ms = 1500, .resign_permille = resign_permille};
    ASSERT_GT(tb_bug_gen_game(&gc, &g->rec), 0);
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true};
    struct tb_error err = {0};
    if (tb_bugmatch_gen_script(&g->rec, &sc, seed, collect, &g->script, &err) != TB_OK)
        TB_FAIL("seed %llu: %s", (unsigned long long)seed, err.msg);
}

static void generate(struct game *g, uint64_t seed)
{
    generate_with(g, seed, 0);
}

/* header: lines before the events ("" none) */
static void write_script_with(struct fx *f, const struct game *g, const char *header)
{
    FILE *out = fopen(f->script, "w");
    ASSERT_NOT_NULL(out);
    fputs(header, out);
    for (size_t i = 0; i < g->script.n; i++) {
        char line[256];
        ASSERT_GT(tb_script_format(&g->script.ev[i], line, sizeof line), 0);
        fprintf(out, "%s\n", line);
    }
    ASSERT_OK(fclose(out));
}

static void write_script(struct fx *f, const struct game *g)
{
    write_script_with(f, g, "");
}

static char *bpgn_of(const tb_bug_record *rec)
{
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(tb_bug_bpgn_write(rec, buf, (size_t)n + 1), n);
    return buf;
}

/* ---- what each seat should hear: the pure match fed the same script ---------------------- */

struct heard {
    char *text[SEATS]; /* one phrase a line */
    size_t len[SEATS];
    int lines[SEATS];
};

static void heard_add(struct heard *h, int s, const char *text)
{
    size_t n = strlen(text);
    h->text[s] = realloc(h->text[s], h->len[s] + n + 2);
    ASSERT_NOT_NULL(h->text[s]);
    memcpy(h->text[s] + h->len[s], text, n);
    h->len[s] += n;
    h->text[s][h->len[s]++] = '\n';
    h->text[s][h->len[s]] = '\0';
    h->lines[s]++;
}

static void heard_free(struct heard *h)
{
    for (int s = 0; s < SEATS; s++)
        free(h->text[s]);
    memset(h, 0, sizeof *h);
}

static void drain(tb_bugmatch *m, const struct tb_voice_pack *pack, struct heard *h)
{
    struct tb_bugmatch_out o;
    while (tb_bugmatch_poll(m, &o) == 1)
        for (int s = 0; s < SEATS; s++) {
            char text[512];
            if (o.hear & (1u << s) &&
                tb_bugmatch_out_say(pack, &o, TB_VOICE_LONG, text, sizeof text) > 0)
                heard_add(h, s, text);
        }
}

static void expected(const struct game *g, uint8_t hear_other, struct heard *h)
{
    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    cfg.sensor.blip_ms = cfg.sensor.wobble_ms = 100; /* the fixture's blip window */
    cfg.sensor.promo_prompt_ms = 3000;               /* the daemon's default */
    for (int s = 0; s < SEATS; s++)
        cfg.hear_other_board[s] = hear_other & (1u << s);
    tb_bugmatch *m;
    struct tb_error err = {0};
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));
    struct tb_voice_pack *pack;
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < g->script.n; i++) {
        const struct tb_script_event *ev = &g->script.ev[i];
        tb_bugmatch_tick(m, ev->ms);
        drain(m, pack, h);
        tb_bugmatch_feed_script(m, ev->board[0] == 'B', ev);
        drain(m, pack, h);
    }
    for (uint64_t dl; (dl = tb_bugmatch_deadline(m)) != UINT64_MAX;) {
        tb_bugmatch_tick(m, dl);
        drain(m, pack, h);
    }
    tb_bugmatch_free(m);
    tb_voice_pack_free(pack);
}

/* What the daemon said to each seat (level "info": live; "debug": replayed in recovery). */
static void said(const struct fx *f, const char *level, struct heard *h)
{
    memset(h, 0, sizeof *h);
    char head[64];
    snprintf(head, sizeof head, "twinboardd: %s: say to ", level);
    for (const char *l = f->log; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (!strncmp(l, head, strlen(head)))
            for (int s = 0; s < SEATS; s++) {
                size_t k = strlen(head), sn = strlen(seat_names[s]);
                if (n > k + sn + 2 && !strncmp(l + k, seat_names[s], sn) && l[k + sn] == ':') {
                    char text[600];
                    snprintf(text, sizeof text, "%.*s", (int)(n - k - sn - 2), l + k + sn + 2);
                    heard_add(h, s, text);
                }
            }
        l = nl ? nl + 1 : l + n;
    }
}

/* ---- the daemon -------------------------------------------------------------------------- */

static void bug_options(struct fx *f, const struct game *g)
{
    write_script(f, g);
    fx_options(f, "script", "script");
    f->o.cfg.bughouse.enabled = true;
}

/* The data lines of an ok+ answer. */
static const char *data_of(const char *answer, char *buf, size_t len)
{
    ASSERT_EQ(tb_ctl_answer_text(answer, buf, len), 0);
    return buf;
}

/* The daemon's BPGN against the generator's: true when they are the same. */
static bool bpgn_same(struct fx *f, const struct game *g, bool fail)
{
    static char got[65536];
    char *want = bpgn_of(&g->rec);
    data_of(fx_req(f, "bpgn"), got, sizeof got);
    size_t n = strlen(want);
    while (n && want[n - 1] == '\n')
        want[--n] = '\0';
    n = strlen(got);
    while (n && got[n - 1] == '\n')
        got[--n] = '\0';
    bool same = strcmp(want, got) == 0;
    if (!same && fail)
        TB_FAIL("seed %llu: the daemon's BPGN differs\n--- generated\n%s\n--- daemon\n%s",
                (unsigned long long)g->seed, want, got);
    free(want);
    return same;
}

static void same_bpgn(struct fx *f, const struct game *g)
{
    bpgn_same(f, g, true);
}

static void same_heard(const struct heard *want, const struct heard *got, uint64_t seed)
{
    for (int s = 0; s < SEATS; s++)
        if (strcmp(want->text[s] ? want->text[s] : "", got->text[s] ? got->text[s] : "") != 0)
            TB_FAIL(
                "seed %llu: %s heard otherwise\n--- the match says\n%s\n--- the daemon said\n%s",
                (unsigned long long)seed, seat_names[s], want->text[s], got->text[s]);
}

static struct game gm; /* large: one at a time */

/* gm played through the daemon (fixture named name): the generator's BPGN, and each seat heard
 * what the pure match fed the same script tells it. The caller frees f. */
static void play_through(struct fx *f, const char *name)
{
    fx_init(f, name);
    bug_options(f, &gm);
    fx_start(f);
    ASSERT_EQ(fx_run(f, 1000000), 0u);
    same_bpgn(f, &gm);
    struct heard want, got;
    expected(&gm, 0, &want);
    said(f, "info", &got);
    same_heard(&want, &got, gm.seed);
    heard_free(&want);
    heard_free(&got);
}

TB_TEST(random_matches_play_through_the_daemon_to_the_generators_bpgn)
{
    long plies = 0, drops = 0;
    for (uint64_t seed = 1; seed <= MATCHES; seed++) {
        generate(&gm, seed);
        struct fx f;
        char name[32];
        snprintf(name, sizeof name, "match%llu", (unsigned long long)seed);
        play_through(&f, name);
        ASSERT_STR_CONTAINS(fx_req(&f, "status"), "both games over");
        plies += gm.rec.nplies;
        for (int i = 0; i < gm.rec.nplies; i++)
            drops += tb_bug_move_is_drop(gm.rec.plies[i].move);
        fx_free(&f);
        tb_script_list_free(&gm.script);
    }
    ASSERT_GT(drops, MATCHES * 5);
    printf("%d matches, %ld plies, %ld drops\n", MATCHES, plies, drops);
}

/* 5.2: a script's `press resign` (as `twinboard bughouse-events` writes it) on a sim: board
 * resigns for the player to move there: matches with resignations end in the generator's BPGN
 * and each seat hears what the pure match fed the same script tells it. */
TB_TEST(law_5_2_a_scripts_press_resign_resigns_on_a_sim_board)
{
    int resigned = 0;
    for (uint64_t seed = 101; seed <= 112; seed++) {
        generate_with(&gm, seed, 12);
        for (int b = 0; b < 2; b++)
            resigned += gm.rec.verdict[b].reason == TB_BUG_RESIGNED;
        struct fx f;
        char name[32];
        snprintf(name, sizeof name, "resign%llu", (unsigned long long)seed);
        play_through(&f, name);
        fx_free(&f);
        tb_script_list_free(&gm.script);
    }
    ASSERT_GT(resigned, 3);
    ASSERT_LT(resigned, 24); /* games ended otherwise too */
    printf("12 matches, %d games resigned\n", resigned);
}

/* Scripts made for a blip window of 100 ms (`# blip-window: 100 ms`, as bughouse-events writes
 * it) played by a daemon whose blip_window_ms is 300: the daemon uses the scripts' window, so
 * every match ends in the generator's BPGN; without the header some do not (captures lifted
 * and placed within 300 ms are read otherwise). */
TB_TEST(a_scripts_blip_window_is_the_one_its_match_is_read_with)
{
    int differ = 0;
    for (uint64_t seed = 201; seed <= 210; seed++) {
        generate(&gm, seed);
        for (int header = 1; header >= 0; header--) {
            struct fx f;
            char name[32];
            snprintf(name, sizeof name, "window%llu-%d", (unsigned long long)seed, header);
            fx_init(&f, name);
            write_script_with(&f, &gm, header ? "# blip-window: 100 ms\n" : "");
            fx_options(&f, "script", "script");
            f.o.cfg.bughouse.enabled = true;
            f.o.cfg.blip_window_ms = 300;
            fx_start(&f);
            ASSERT_EQ(fx_run(&f, 1000000), 0u);
            if (header)
                ASSERT_STR_CONTAINS(f.log, "blip window 100 ms: the one the boards' scripts");
            differ += !bpgn_same(&f, &gm, header);
            fx_free(&f);
        }
        tb_script_list_free(&gm.script);
    }
    printf("without the header %d of 10 matches read otherwise at 300 ms\n", differ);
    ASSERT_GT(differ, 0);
}

/* 9.1: partners do not talk; the partner's board is heard only when configured. Each seat
 * hears the opponent's moves and "Du bekommst" for the pieces passed. */
TB_TEST(seats_hear_their_opponent_and_their_pieces_not_the_partners_board_unless_configured)
{
    generate(&gm, 21);
    struct heard base, with, want;
    struct fx f;
    fx_init(&f, "quiet");
    bug_options(&f, &gm);
    fx_start(&f);
    fx_run(&f, 1000000);
    said(&f, "info", &base);
    fx_free(&f);
    int received = 0;
    for (int s = 0; s < SEATS; s++) {
        ASSERT_GT(base.lines[s], 10);
        received += strstr(base.text[s], "Du bekommst: ") != NULL;
    }
    ASSERT_GT(received, 1);

    fx_init(&f, "partner");
    bug_options(&f, &gm);
    f.o.cfg.bughouse.hear_other_board = 1u << 0; /* White A also hears board B */
    fx_start(&f);
    fx_run(&f, 1000000);
    said(&f, "info", &with);
    expected(&gm, 1u << 0, &want);
    same_heard(&want, &with, gm.seed);
    ASSERT_GT(with.lines[0], base.lines[0] + 10); /* board B's moves too */
    for (int s = 1; s < SEATS; s++)
        ASSERT_STR_EQ(with.text[s], base.text[s]);

    /* 2.6: the hand asked for: answered and said to that seat alone */
    const char *a = fx_req(&f, "hand black-b");
    ASSERT_STR_CONTAINS(a, "ok Black B holds ");
    ASSERT_STR_CONTAINS(f.log, "info: say to Black B: Du ha");
    heard_free(&base);
    heard_free(&with);
    heard_free(&want);
    fx_free(&f);
    tb_script_list_free(&gm.script);
}

/* The status lines of the hands and the clocks. */
static void hands_of(const char *status, char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = '\0';
    for (const char *l = status; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "hand ", 5) || !strncmp(l, "clock ", 6))
            u += (size_t)snprintf(buf + u, u < len ? len - u : 0, "%.*s\n", (int)strcspn(l, "\n"),
                                  l);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ASSERT_NOT_NULL(fp);
    static uint8_t buf[16 << 20];
    *len = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    return buf;
}

/* Killed mid-match: the journal's prefix replayed into a fresh match reaches the same state;
 * the match goes on to the same BPGN; what was said before the cut is not said again. */
TB_TEST(restart_mid_match_replays_to_the_same_bpgn_and_says_nothing_twice)
{
    generate(&gm, 33);
    struct fx f;
    fx_init(&f, "whole");
    bug_options(&f, &gm);
    fx_start(&f);
    fx_run(&f, 1000000);
    struct heard all;
    said(&f, "info", &all);
    static char hands[2][2048];
    hands_of(fx_req(&f, "status"), hands[0], sizeof hands[0]);
    fx_stop(&f);
    char path[600];
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    size_t len;
    uint8_t *buf = read_file(path, &len);
    /* cut after half of the board events: a record boundary, as a kill between two writes */
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    int events = 0, half = 0;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1)
        events += rec.type == TB_JOURNAL_BOARD_EVENT;
    size_t cut = 0;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1)
        if (rec.type == TB_JOURNAL_BOARD_EVENT && ++half == events / 2) {
            cut = it.pos;
            break;
        }
    ASSERT_GT(cut, 0u);

    struct fx g;
    fx_init(&g, "restarted");
    mkdir(g.journal, 0755);
    snprintf(path, sizeof path, "%s/current.tbj", g.journal);
    FILE *out = fopen(path, "wb");
    ASSERT_NOT_NULL(out);
    ASSERT_EQ(fwrite(buf, 1, cut, out), cut);
    ASSERT_OK(fclose(out));
    bug_options(&g, &gm);
    fx_start(&g);
    struct heard replayed;
    said(&g, "debug", &replayed); /* recovery: logged, not said */
    fx_run(&g, 1000000);
    same_bpgn(&g, &gm);
    hands_of(fx_req(&g, "status"), hands[1], sizeof hands[1]);
    ASSERT_GT(strlen(hands[0]), 40u);
    ASSERT_STR_EQ(hands[1], hands[0]); /* the four hands and both clocks */
    struct heard after;
    said(&g, "info", &after);
    for (int s = 0; s < SEATS; s++) {
        ASSERT_GT(replayed.lines[s], 0);
        ASSERT_GT(after.lines[s], 0);
        /* the past was heard once: what is said now is exactly the rest */
        ASSERT_EQ(replayed.lines[s] + after.lines[s], all.lines[s]);
        ASSERT_EQ(replayed.len[s] + after.len[s], all.len[s]);
        ASSERT_STR_EQ(after.text[s], all.text[s] + replayed.len[s]);
    }
    heard_free(&all);
    heard_free(&replayed);
    heard_free(&after);
    fx_free(&f);
    fx_free(&g);
    tb_script_list_free(&gm.script);
}

struct ask {
    const char *request, *answer; /* the answer begins with or holds this */
};

static void ask_all(struct fx *f, const struct ask *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ASSERT_STR_CONTAINS(fx_req(f, a[i].request), a[i].answer);
}

/* Requests of the other mode are refused with what to do instead; resign is PIN-guarded. */
TB_TEST(requests_of_the_other_mode_are_refused)
{
    static const struct ask twin[] = {
        {"bpgn", "error state bpgn is for doorgeefschaak"},
        {"hand white-a", "error state hand is for doorgeefschaak"},
        {"choose a n", "error state choose is for doorgeefschaak"},
        {"move b Nf3", "error state move a|b is for doorgeefschaak"},
        {"resign a white pin=" FX_PIN, "error state resign is for doorgeefschaak"},
    };
    static const struct ask bug[] = {
        {"pgn", "error state pgn is for the twin game"},
        {"move vi e4", "error state move vi|sighted is for the twin game"},
        {"takeback pin=" FX_PIN, "error state takeback is for the twin game"},
        {"promote q", "error state promote is for the twin game"},
        {"review vi", "error state review is for the twin game"},
        {"resign a white", "error denied"}, /* 5.2: the arbiter's request */
        {"resign a white pin=958273", "error denied"},
        {"resign c white pin=" FX_PIN, "error syntax resign: board must be a or b"},
        {"hand white-c", "error syntax hand: 'white-c' is not"},
        {"move a e4", "error unsupported board A is sim:"},
        {"choose a n", "error state no drop or promotion waits"},
        {"help", "bpgn"},
        {"status", "mode: doorgeefschaak"},
    };
    struct fx f;
    fx_init(&f, "twin");
    fx_options(&f, "null:", "null:");
    fx_start(&f);
    ask_all(&f, twin, sizeof twin / sizeof twin[0]);
    fx_free(&f);

    generate(&gm, 5);
    fx_init(&f, "bug");
    bug_options(&f, &gm);
    fx_start(&f);
    ask_all(&f, bug, sizeof bug / sizeof bug[0]);
    fx_free(&f);
    tb_script_list_free(&gm.script);
}

/* 5.2 by the arbiter's request: the game on that board ends, the other plays on; journaled, so a
 * restart has the result too. Typed boards take moves and drops as `move a|b`. */
TB_TEST(law_5_2_resign_request_ends_that_game_and_survives_a_restart)
{
    struct fx f;
    fx_init(&f, "typed");
    fx_options(&f, "keys:", "keys:");
    f.o.cfg.bughouse.enabled = true;
    f.o.exit_when_done = false;
    fx_start(&f);
    static const struct ask play[] = {
        {"move a e4", "ok"},
        {"move b d4", "ok"},
        {"move a d5", "ok"},
        {"move a exd5", "ok"}, /* 2.1: the black pawn goes to Black B */
        {"hand black-b", "ok Black B holds 1 pawn"},
        {"move b P@e6", "ok"},
        {"move b Q@e5", "error"}, /* 2.2: no queen in hand */
        {"resign a black pin=" FX_PIN, "ok"},
        {"resign a black pin=" FX_PIN, "error state the game on board A is over"},
    };
    ask_all(&f, play, sizeof play / sizeof play[0]);
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "board A result: 1-0");
    ASSERT_STR_CONTAINS(st, "board B: White to move");
    fx_stop(&f);
    fx_start(&f);
    st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "board A result: 1-0");
    ASSERT_STR_CONTAINS(st, "hand Black B: nothing");
    char bpgn[8192];
    data_of(fx_req(&f, "bpgn"), bpgn, sizeof bpgn);
    ASSERT_STR_CONTAINS(bpgn, "[ResultA \"1-0\"]");
    ASSERT_STR_CONTAINS(bpgn, "P@e6");
    /* the next match: the finished one kept, a fresh one from the start, also after a restart */
    ASSERT_STR_EQ(fx_req(&f, "new-game round=2 pin=" FX_PIN), "ok\n");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "mode: doorgeefschaak (bughouse), 0 plies");
    ASSERT_STR_CONTAINS(fx_req(&f, "games"), ".tbj");
    ASSERT_STR_EQ(fx_req(&f, "move b e4"), "ok\n");
    fx_stop(&f);
    fx_start(&f);
    st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "mode: doorgeefschaak (bughouse), 1 plies");
    ASSERT_STR_CONTAINS(st, "board A: White to move");
    fx_free(&f);
}

/* Each request the match takes is journaled as a binary input record (docs/journal.md,
 * BUG_INPUT_BIN), in the order taken, with what the request said; a refused one is not. */
TB_TEST(law_2_6_requests_taken_are_journaled_as_binary_inputs_in_order)
{
    struct fx f;
    fx_init(&f, "bininput");
    fx_options(&f, "keys:", "keys:");
    f.o.cfg.bughouse.enabled = true;
    f.o.exit_when_done = false;
    fx_start(&f);
    static const struct ask play[] = {
        {"move a e4", "ok"},     {"move b d4", "ok"},    {"move a d5", "ok"},
        {"move a exd5", "ok"},   {"hand black-b", "ok"}, {"move b Q@e5", "error"},
        {"choose a n", "error"}, {"move b P@e6", "ok"},  {"resign a black pin=" FX_PIN, "ok"},
    };
    ask_all(&f, play, sizeof play / sizeof play[0]);
    fx_free(&f);
    static const char *const want[] = {"move 0 e4", "move 1 d4",   "move 0 d5", "move 0 exd5",
                                       "hand 3",    "move 1 P@e6", "resign 0 1"};
    char path[512];
    snprintf(path, sizeof path, "%s/current.tbj", f.journal);
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    size_t len, n = 0, texts = 0;
    const uint8_t *buf = tb_journal_contents(j, &len);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);
    while (tb_journal_iter_next(&it, &r, NULL) == 1) {
        texts += r.type == TB_JOURNAL_BUG_INPUT_TEXT;
        struct tb_journal_bug_input in;
        char words[TB_JOURNAL_BUG_TEXT_MAX];
        if (r.type != TB_JOURNAL_BUG_INPUT_BIN)
            continue;
        ASSERT_OK(tb_journal_bug_input_decode(&in, &r, NULL));
        if (in.verb == TB_JOURNAL_BUG_TIME)
            continue;
        ASSERT_GT(tb_journal_bug_input_format(&in, words, sizeof words), 0);
        ASSERT_LT(n, sizeof want / sizeof want[0]);
        ASSERT_STR_EQ(words, want[n]);
        n++;
    }
    ASSERT_EQ(n, sizeof want / sizeof want[0]);
    ASSERT_EQ(texts, 0);
    ASSERT_OK(tb_journal_close(j));
}

/* Four outputs, one per seat, each in its own pack: a move is heard by its opponent alone. */
TB_TEST(each_seat_hears_on_its_own_output_in_its_own_pack)
{
    struct fx f;
    struct recorder rec[SEATS];
    fx_init(&f, "ears");
    fx_script(&f, "0 A press clock\n"
                  "1000 A lift e2\n1300 A place e4\n1600 A press clock\n"
                  "2000 B lift d2\n2300 B place d4\n2600 B press clock\n"
                  "3000 A lift d7\n3300 A place d5\n3600 A press clock\n");
    fx_options(&f, "script", "script");
    f.o.cfg.bughouse.enabled = true;
    snprintf(f.o.cfg.bughouse.pack[1], sizeof f.o.cfg.bughouse.pack[1], "en");
    f.o.audio = NULL; /* speech on, into the recorders */
    f.o.sink = &recorder_ops;
    for (int s = 0; s < SEATS; s++) {
        recorder_init(&rec[s], UINT64_MAX);
        f.o.sink_arg[s] = &rec[s];
    }
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    fx_stop(&f);
    ASSERT_STR_CONTAINS(f.log, "info: say to Black A: pawn"); /* Black A's pack: en */
    ASSERT_STR_CONTAINS(f.log, "info: say to White A: Bauer");
    ASSERT_STR_CONTAINS(f.log, "info: say to Black B: Bauer");
    /* nobody moved against White B: the ends of the games (flags, all four hear them) only */
    for (const char *p = f.log; (p = strstr(p, "say to White B")) != NULL; p++)
        ASSERT_TRUE(strncmp(p, "say to White B: Brett ", 22) == 0);
    ASSERT_STR_CONTAINS(f.log, "say to White B: Brett A: Zeitüberschreitung");
    ASSERT_GT(rec[0].frames, 0u);
    ASSERT_GT(rec[1].frames, 0u);
    ASSERT_GT(rec[3].frames, 0u);
    for (int s = 0; s < SEATS; s++)
        recorder_destroy(&rec[s]);
    fx_free(&f);
}

/* The finished match's BPGN is kept beside its journal, as the twin game's PGN is. */
TB_TEST(the_finished_match_bpgn_is_kept_beside_the_journal)
{
    static char answer[65536], kept[65536];
    generate(&gm, 7);
    struct fx f;
    fx_init(&f, "kept");
    bug_options(&f, &gm);
    snprintf(f.o.cfg.bughouse.name[0], sizeof f.o.cfg.bughouse.name[0], "Anna Schmidt");
    fx_start(&f);
    fx_run(&f, 1000000);
    data_of(fx_req(&f, "bpgn"), answer, sizeof answer);
    ASSERT_STR_CONTAINS(answer, "[WhiteA \"Anna Schmidt\"]");
    ASSERT_EQ(tb_run(kept, sizeof kept, "cat %s/*.bpgn", f.journal), 0);
    ASSERT_GT(strlen(kept), 100u);
    ASSERT_TRUE(strncmp(kept, answer, strlen(answer) - 1) == 0);
    fx_free(&f);
    tb_script_list_free(&gm.script);
}

/* A seat's pack that does not exist stops the start, naming the key. */
TB_TEST(an_unknown_seat_pack_stops_the_start_naming_the_key)
{
    struct fx f;
    fx_init(&f, "badpack");
    fx_options(&f, "null:", "null:");
    f.o.cfg.bughouse.enabled = true;
    snprintf(f.o.cfg.bughouse.pack[2], sizeof f.o.cfg.bughouse.pack[2], "xx");
    struct tb_error err = {0};
    ASSERT_NE(tb_daemon_new(&f.o, &f.d, &err), TB_OK);
    ASSERT_NULL(f.d);
    ASSERT_STR_CONTAINS(err.msg, "[bughouse] pack_white_b = xx");
    fx_free(&f);
}

/* ---- in real time: a simulated reed board (pty) as board A, a keys: board as board B -------- */

static struct ptyboard *the_board;

static bool pumped(struct fx *f, const char *want)
{
    ptyboard_pump(the_board);
    return strstr(fx_req(f, "status"), want) != NULL;
}
static bool board_read(struct fx *f)
{
    return pumped(f, "board A: pty:") && !strstr(f->answer, "NOT CONNECTED") &&
           !strstr(f->answer, "waiting for its first reading");
}
static bool black_a_told(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(f->log, "info: say to Black A: Bauer Eva zwei Eva vier") != NULL;
}
static bool white_a_told(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(f->log, "info: say to White A: Bauer Eva sieben Eva fünf") != NULL;
}
static bool knight_told(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(f->log, "info: say to Black A: Springer Gustav eins Felix drei") != NULL;
}
static bool third_ply(struct fx *f)
{
    return pumped(f, "doorgeefschaak (bughouse), 3 plies");
}
static bool second_ply(struct fx *f)
{
    /* d4 typed (complete at once), e4 completed by the reply; e5 made, not yet complete */
    return pumped(f, "doorgeefschaak (bughouse), 2 plies");
}

static void square(struct ptyboard *b, const char *name, int placed)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    ASSERT_OK(ptyboard_square(b, sq, placed, true));
}

/* The daemon in real time on boards a and b (resources), once ready(f) holds. */
static void start_live(struct fx *f, const char *a, const char *b, bool (*ready)(struct fx *f))
{
    fx_options(f, a, b);
    f->o.speed = TB_DAEMON_SPEED_CONFIG;
    f->o.exit_when_done = false;
    f->o.cfg.bughouse.enabled = true;
    fx_start(f);
    ASSERT_TRUE(fx_run_until(f, 5000, ready));
}

/* Stopped: the log of the next start begins empty. */
static void stop_and_forget(struct fx *f)
{
    fx_stop(f);
    free(f->log);
    f->log = NULL;
    f->log_len = f->log_cap = 0;
}

static void start_pty(struct fx *f, struct ptyboard *b, const char *name, bool fresh)
{
    char res[600];
    if (fresh) {
        char link[512];
        snprintf(link, sizeof link, "%s/%s-board", tb_test_tmp_dir(), name);
        ASSERT_OK(ptyboard_init(b, link));
        fx_init(f, name);
    }
    the_board = b;
    snprintf(res, sizeof res, "pty:%s", b->link);
    start_live(f, res, "keys:", board_read);
}

/* A move made on the reed board is announced to its opponent on the wall clock; the opponent's
 * reply completes it (6.2.1 without a press); a restart goes on from the journal. */
TB_TEST(a_reed_board_in_real_time_is_board_a_of_the_match_and_survives_a_restart)
{
    struct fx f;
    struct ptyboard b;
    start_pty(&f, &b, "realtime", true);
    square(&b, "e2", 0);
    square(&b, "e4", 1);
    ASSERT_TRUE(fx_run_until(&f, 5000, black_a_told));
    ASSERT_STR_EQ(fx_req(&f, "move b d4"), "ok\n");
    square(&b, "e7", 0);
    square(&b, "e5", 1);
    ASSERT_TRUE(fx_run_until(&f, 5000, white_a_told));
    ASSERT_TRUE(fx_run_until(&f, 5000, second_ply));
    ASSERT_NULL(strstr(f.log, "say to White B")); /* Black B has not moved */
    stop_and_forget(&f);
    start_pty(&f, &b, "realtime", false);
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "doorgeefschaak (bughouse), 2 plies");
    ASSERT_STR_CONTAINS(st, "board B: Black to move");
    ASSERT_NULL(strstr(f.log, "info: say to")); /* heard before the restart */
    square(&b, "g1", 0);
    square(&b, "f3", 1);
    ASSERT_TRUE(fx_run_until(&f, 5000, knight_told));
    ASSERT_TRUE(fx_run_until(&f, 5000, third_ply)); /* e5 completed by Nf3 */
    /* e5 was recognised and said before the restart (its time marked): never said again */
    ASSERT_NULL(strstr(f.log, "info: say to White A: Bauer Eva sieben Eva fünf"));
    ASSERT_STR_CONTAINS(f.log, "debug: say to White A: Bauer Eva sieben Eva fünf");
    fx_free(&f);
}

/* ---- article 7 on the simulated reed board: the opponent's decision by request or press --- */

static const char *awaited; /* what the log must come to hold */
static bool logged(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(f->log, awaited) != NULL;
}
static void await_log(struct fx *f, const char *text)
{
    awaited = text;
    if (!fx_run_until(f, 5000, logged))
        TB_FAIL("the log never held '%s'\n%s", text, f->log);
}

static bool status_has(struct fx *f)
{
    ptyboard_pump(the_board);
    return strstr(fx_req(f, "status"), awaited) != NULL;
}

/* A button of the board pressed and let go (the board's clock, 300 ms after its last event). */
static void button(struct ptyboard *b, int id)
{
    for (int down = 1; down >= 0; down--) {
        uint8_t buf[RB_PROTO_MAX_FRAME];
        struct rb_proto_button e = {
            .seq = ++b->seq, .ms = b->ms += 300, .button = (uint8_t)id, .down = (uint8_t)down};
        ASSERT_OK(ptyboard_write(b, buf, rb_proto_encode_button(buf, sizeof buf, &e)));
    }
}

static const char illegal_said[] =
    "info: say to Black A: Regelwidriger Zug: Springer Gustav eins Gustav vier";

/* White A's knight g1 to g4 (no knight move) on board A, the clock pressed after it: the 7.4
 * irregularity, the opponent told and asked. The first press started both clocks (6.4). */
static void illegal_knight(struct fx *f, struct ptyboard *b)
{
    button(b, RB_PROTO_BTN_CLOCK);
    square(b, "g1", 0);
    square(b, "g4", 1);
    await_log(f, "bughouse: A: ! illegal g1 placed g4"); /* 7.3: seen, not yet pressed */
    ASSERT_NULL(strstr(f->log, "say to Black A: Regelwidriger"));
    button(b, RB_PROTO_BTN_CLOCK);
    await_log(f, illegal_said);
    ASSERT_STR_CONTAINS(f->log, "warn: bughouse: A White: illegal move Ng1g4 (7.4): A Black may "
                                "accept it or demand a legal move");
    ASSERT_STR_CONTAINS(fx_req(f, "status"),
                        "board A irregular: White A pressed an illegal move; Black A may accept "
                        "it or demand a legal move (accept a, replace a; 7.4)");
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* 7.4: the opponent accepts by request: the mover is told, the game goes on from the board. */
TB_TEST(law_7_4_illegal_move_pressed_on_a_reed_board_is_accepted_by_request)
{
    struct fx f;
    struct ptyboard b;
    start_pty(&f, &b, "accept7", true);
    illegal_knight(&f, &b);
    static const struct ask asks[] = {
        {"replace b", "error state no illegal move waits for the opponent's decision on board B"},
        {"accept c", "error syntax accept: board must be a or b"},
        {"accept a", "ok"},
        {"accept a", "error state no illegal move waits"},
    };
    ask_all(&f, asks, sizeof asks / sizeof asks[0]);
    /* said once its record is on disk (the journal's writer) */
    await_log(&f, "info: say to White A: Regelwidriger Zug angenommen, Artikel 7.4");
    ASSERT_STR_CONTAINS(f.log, "info: control: accept 0");
    const char *st = fx_req(&f, "status");
    ASSERT_NULL(strstr(st, "irregular"));
    ASSERT_STR_CONTAINS(st, "board A: Black to move");
    /* the game goes on from the board: Black's reply is a move */
    square(&b, "e7", 0);
    square(&b, "e5", 1);
    await_log(&f, "info: say to White A: Bauer Eva sieben Eva fünf");
    ASSERT_EQ(count_of(f.log, "say to White A: Regelwidriger Zug angenommen"), 1);
    fx_free(&f);
}

/* 7.4: the opponent demands a legal move by request; the mover puts the board back and plays a
 * legal move with the knight touched (4.3); the record keeps the illegal move taken back. */
TB_TEST(law_7_4_illegal_move_pressed_on_a_reed_board_is_replaced_by_request)
{
    struct fx f;
    struct ptyboard b;
    start_pty(&f, &b, "replace7", true);
    illegal_knight(&f, &b);
    ASSERT_STR_EQ(fx_req(&f, "replace a"), "ok\n");
    await_log(&f, "info: say to White A: Zug zurücknehmen und regelgemäß ersetzen, die Figur auf "
                  "Gustav eins ist berührt, Artikel 7.4");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"),
                        "board A irregular: White A takes the illegal move back and plays a legal "
                        "move with the piece touched (7.4)");
    ASSERT_STR_CONTAINS(fx_req(&f, "accept a"), "error state no illegal move waits");
    square(&b, "g4", 0);
    square(&b, "g1", 1);
    await_log(&f, "warn: bughouse: A: board put back before g1g4");
    square(&b, "g1", 0);
    square(&b, "f3", 1);
    await_log(&f, "info: say to Black A: Springer Gustav eins Felix drei");
    button(&b, RB_PROTO_BTN_CLOCK);
    awaited = "board A: Black to move";
    ASSERT_TRUE(fx_run_until(&f, 5000, status_has));
    ASSERT_NULL(strstr(f.answer, "irregular"));
    char bpgn[8192];
    data_of(fx_req(&f, "bpgn"), bpgn, sizeof bpgn);
    ASSERT_STR_CONTAINS(bpgn, "{A 7.4: illegal move g1g4 taken back}");
    ASSERT_STR_CONTAINS(bpgn, "1A. Nf3");
    fx_free(&f);
}

/* 7.6: the opponent presses the clock instead of moving: the replacement is demanded. Killed
 * while the decision waits, the daemon comes back to the same state from its journal and says
 * nothing of the past again. */
TB_TEST(law_7_6_opponents_press_demands_replacement_and_a_restart_keeps_the_irregularity)
{
    struct fx f;
    struct ptyboard b;
    start_pty(&f, &b, "press7", true);
    illegal_knight(&f, &b);
    stop_and_forget(&f);
    start_pty(&f, &b, "press7", false);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"),
                        "board A irregular: White A pressed an illegal move; Black A may accept");
    ASSERT_NULL(strstr(f.log, "info: say to")); /* heard before the restart */
    ASSERT_STR_CONTAINS(f.log, "debug: say to Black A: Regelwidriger Zug: Springer");
    button(&b, RB_PROTO_BTN_CLOCK); /* Black A's press, 7.6 */
    await_log(&f, "info: say to White A: Zug zurücknehmen und regelgemäß ersetzen");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "board A irregular: White A takes the illegal move");
    ASSERT_EQ(count_of(f.log, "info: say to"), 1);
    /* and once more: the demand is on the journal too */
    stop_and_forget(&f);
    start_pty(&f, &b, "press7", false);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "board A irregular: White A takes the illegal move");
    ASSERT_NULL(strstr(f.log, "info: say to"));
    fx_free(&f);
}

/* ---- a DGT e-board (dgtboard-sim in-process) as board B, a keys: board as board A ---------- */

static struct dgtpty the_dgt;

static uint64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool dgt_logged(struct fx *f)
{
    dgtpty_pump(&the_dgt, wall_ms());
    return strstr(f->log, awaited) != NULL;
}
static void dgt_await(struct fx *f, const char *text)
{
    awaited = text;
    if (!fx_run_until(f, 5000, dgt_logged))
        TB_FAIL("the log never held '%s'\n%s", text, f->log);
}
static bool dgt_read(struct fx *f)
{
    dgtpty_pump(&the_dgt, wall_ms());
    const char *st = fx_req(f, "status");
    /* the link has read the board and asked for its field updates */
    return strstr(st, "board B: dgt:") && !strstr(st, "NOT CONNECTED") &&
           !strstr(st, "waiting for its first reading") &&
           (the_dgt.sim.mode == DGTSIM_UPDATE || the_dgt.sim.mode == DGTSIM_UPDATE_NICE ||
            the_dgt.sim.mode == DGTSIM_UPDATE_BRD);
}

/* A piece (tb_chess code, 0: lifted) on a square of the DGT board. */
static void dgt_field(const char *square, int piece)
{
    int sq = tb_chess_square_parse(square);
    ASSERT_GE(sq, 0);
    dgtsim_field(&the_dgt.sim, tb_dgt_square_to_field(sq, TB_DGT_ORIENT_NORMAL),
                 tb_dgt_piece_from_chess(piece));
    dgtpty_pump(&the_dgt, wall_ms());
}

static void start_dgt(struct fx *f, const char *name, bool fresh)
{
    char link[512], res[600];
    snprintf(link, sizeof link, "%s/%s-dgt", tb_test_tmp_dir(), name);
    if (fresh) {
        ASSERT_OK(dgtpty_init(&the_dgt, link));
        fx_init(f, name);
    }
    snprintf(res, sizeof res, "dgt:%s", link);
    start_live(f, "keys:", res, dgt_read);
}

/* 2.2 on a DGT board: Black B holds a pawn and a knight; the knight put on c6 is the drop, no
 * choice asked (a reed board would ask: both kinds may go there). Its piece is on the journal:
 * a restart replays it, and the board's whole reading then (a move made on it meanwhile) is
 * taken as its lifts and placements. */
TB_TEST(law_2_2_a_dgt_board_names_the_dropped_piece_and_its_reading_after_a_restart_is_taken)
{
    struct fx f;
    start_dgt(&f, "dgt22", true);
    static const struct ask play[] = {
        {"move a Nc3", "ok"},  {"move a d5", "ok"},
        {"move a Nxd5", "ok"},                         /* a pawn to Black B */
        {"move a Nf6", "ok"},  {"move a Nxf6+", "ok"}, /* a knight to Black B */
        {"move a exf6", "ok"}, {"hand black-b", "ok Black B holds 1 knight, 1 pawn"},
    };
    ask_all(&f, play, sizeof play / sizeof play[0]);
    ASSERT_STR_CONTAINS(f.log, "doorgeefschaak: board A keys:");
    dgt_field("e2", 0); /* White B: e4 */
    dgt_field("e4", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    dgt_await(&f, "info: say to Black B: Bauer Eva zwei Eva vier");
    dgt_field("c6", TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KNIGHT)); /* Black B's drop */
    dgt_await(&f, "info: say to White B: Springer auf Cesar sechs");
    ASSERT_NULL(strstr(f.log, "say to Black B: Welche Figur")); /* the board said which */
    ASSERT_STR_CONTAINS(fx_req(&f, "hand black-b"), "ok Black B holds 1 pawn");
    stop_and_forget(&f);

    /* the journal keeps the drop's piece; White B plays d4 while the daemon is down */
    dgt_field("d2", 0);
    dgt_field("d4", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    start_dgt(&f, "dgt22", false);
    ASSERT_STR_CONTAINS(f.log, "debug: say to White B: Springer auf Cesar sechs");
    dgt_await(&f, "info: say to Black B: Bauer David zwei David vier");
    ASSERT_STR_CONTAINS(f.log, "board B: its reading differs from the match in 2 squares");
    ASSERT_NULL(strstr(f.log, "info: say to White B: Springer auf")); /* said once, before */
    char bpgn[8192];
    data_of(fx_req(&f, "bpgn"), bpgn, sizeof bpgn);
    ASSERT_STR_CONTAINS(bpgn, "N@c6");
    dgtpty_close(&the_dgt);
    fx_free(&f);
}

/* ---- a disk that cannot be written (tb_journal_io): play stops, nothing said off the record -- */

struct disk {
    struct fx *f;
    void (*log)(void *arg, enum tb_config_log level, const char *line);
    int error;       /* every write and sync fails with it while set */
    int fail_after;  /* lines said before the disk fails */
    int said;        /* lines said with the journal working */
    int notices;     /* lines said while play is stopped */
    int not_durable; /* lines said before their cause was on disk */
};

/* true (errno set) while the disk fails */
static bool fails(void *user)
{
    const struct disk *k = user;
    errno = k->error;
    return k->error != 0;
}
static ssize_t disk_pwrite(void *user, int fd, const void *buf, size_t len, off_t off)
{
    return fails(user) ? -1 : pwrite(fd, buf, len, off);
}
static int disk_fdatasync(void *user, int fd)
{
    return fails(user) ? -1 : fdatasync(fd);
}

static void disk_log(void *arg, enum tb_config_log level, const char *line)
{
    struct disk *k = arg;
    k->log(k->f, level, line);
    if (!k->f->d || !strstr(line, "info: say to "))
        return;
    struct tb_daemon_counters c;
    tb_daemon_counters(k->f->d, &c);
    if (c.journal_stopped) {
        k->notices++; /* the stop itself: please wait, the arbiter has been called */
        return;
    }
    if (c.journal_durable_seq != c.journal_last_seq)
        k->not_durable++;
    if (++k->said == k->fail_after)
        k->error = ENOSPC;
}

static bool journal_stopped(struct fx *f)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    return c.journal_stopped;
}

/* The lines of h without those holding text. */
static void without(struct heard *h, const char *text)
{
    for (int s = 0; s < SEATS; s++) {
        char *in = h->text[s] ? h->text[s] : "", *out = in;
        h->lines[s] = 0;
        for (char *l = in; *l;) {
            size_t n = strcspn(l, "\n") + 1;
            char line[600];
            snprintf(line, sizeof line, "%.*s", (int)n, l);
            if (!strstr(line, text)) {
                memmove(out, l, n);
                out += n;
                h->lines[s]++;
            }
            l += n;
        }
        *out = '\0';
        h->len[s] = (size_t)(out - in);
    }
}

/* The disk fails mid-match: play stops, all four seats hear "please wait" and "the arbiter has
 * been called" once, status says why, requests are refused; nothing is said before its cause is
 * on disk. Writing again, the match resumes by itself and ends as generated, each seat having
 * heard exactly what the match tells it. */
TB_TEST(a_disk_that_cannot_be_written_stops_the_match_and_it_resumes_with_nothing_lost)
{
    generate(&gm, 12);
    struct fx f;
    fx_init(&f, "disk");
    bug_options(&f, &gm);
    struct disk k = {.f = &f, .log = f.o.log, .fail_after = 40};
    struct tb_journal_io io = {.pwrite = disk_pwrite, .fdatasync = disk_fdatasync, .user = &k};
    f.o.journal_io = &io;
    f.o.log = disk_log;
    f.o.log_arg = &k;
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 20000, journal_stopped));
    int before = k.said;
    ASSERT_EQ(before, 40);
    ASSERT_TRUE(fx_run_until(&f, 1500, NULL)); /* retried meanwhile, still failing */
    ASSERT_TRUE(journal_stopped(&f));
    ASSERT_EQ(k.said, before); /* nothing said while the disk fails */
    ASSERT_EQ(k.notices, 2 * SEATS);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "journal: the journal cannot be written (No space");
    ASSERT_STR_CONTAINS(fx_req(&f, "hand white-a"), "error state the journal cannot be written");
    ASSERT_EQ(count_of(f.log, "play stopped, ARBITER called"), 1);
    for (int s = 0; s < SEATS; s++) {
        char want[64];
        snprintf(want, sizeof want, "info: say to %s: Bitte warten", seat_names[s]);
        ASSERT_STR_CONTAINS(f.log, want);
    }

    k.error = 0;
    fx_run(&f, 1000000);
    ASSERT_FALSE(journal_stopped(&f));
    ASSERT_STR_CONTAINS(f.log, "writing again");
    same_bpgn(&f, &gm);
    ASSERT_EQ(k.not_durable, 0);
    struct heard want, got;
    expected(&gm, 0, &want);
    said(&f, "info", &got);
    without(&got, "Bitte warten"); /* the stop's two notices */
    without(&got, "Schiedsrichter");
    same_heard(&want, &got, gm.seed);
    heard_free(&want);
    heard_free(&got);
    fx_free(&f);
    tb_script_list_free(&gm.script);
}
