/* twinboard bughouse-events and bughouse-replay as a user runs them: a BPGN game turned into
 * its two boards' event scripts and played back through the doorgeefschaak match gives the same
 * game (generated matches and a hand-written one with drops, a promotion, a resignation and a
 * flag fall); what a seat hears; bad input named by file and line with its exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_bug.h"
#include "tb_run.h"
#include "tb_test.h"

#define OUT_MAX (1 << 20)
static char out[OUT_MAX];

static char *bpgn_of(const tb_bug_record *rec)
{
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(tb_bug_bpgn_write(rec, buf, (size_t)n + 1), n);
    return buf;
}

/* bughouse-events then bughouse-replay --bpgn: the game written back. */
static char *round_trip(const char *bpgn_path, long seed, const char *events_opts)
{
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-events %s --seed %ld %s > '%s' 2>&1",
                     TB_TWINBOARD, bpgn_path, seed, events_opts, tb_test_tmp("rt.events")),
              0);
    int rc =
        tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' --bpgn '%s' 2>&1 | grep -v '^[0-9]* [AB]'",
               TB_TWINBOARD, tb_test_tmp("rt.events"), tb_test_tmp("rt.bpgn"));
    if (strcmp(out, "") != 0)
        TB_FAIL("%s seed %ld: the replay reports problems:\n%s", bpgn_path, seed, out);
    (void)rc;
    return tb_run_read_file(tb_test_tmp("rt.bpgn"), NULL);
}

TB_TEST(random_matches_round_trip_through_bughouse_events_and_bughouse_replay)
{
    static tb_bug_record rec;
    int drops = 0, promotions = 0, flags = 0, resigned = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        struct tb_bug_gen_config gc = {
            .seed = seed, .resign_permille = 4, .min_think_ms = 2000, .pass_ms = 1500};
        ASSERT_GT(tb_bug_gen_game(&gc, &rec), 0);
        char *want = bpgn_of(&rec);
        tb_run_write_file(tb_test_tmp("gen.bpgn"), want);
        char *got = round_trip(tb_test_tmp("gen.bpgn"), (long)seed, seed % 2 ? "--noise" : "");
        if (strcmp(want, got) != 0)
            TB_FAIL("seed %llu: the replayed game differs\n--- BPGN\n%s\n--- replayed\n%s",
                    (unsigned long long)seed, want, got);
        for (int k = 0; k < rec.nplies; k++) {
            drops += tb_bug_move_is_drop(rec.plies[k].move);
            promotions += tb_chess_move_promo(rec.plies[k].move) != 0;
        }
        for (int b = 0; b < 2; b++) {
            flags += rec.verdict[b].reason == TB_BUG_FLAG;
            resigned += rec.verdict[b].reason == TB_BUG_RESIGNED;
        }
        free(want);
        free(got);
    }
    ASSERT_GT(drops, 100);
    ASSERT_GT(promotions, 5);
    ASSERT_GT(flags, 0);
    ASSERT_GT(resigned, 0);
}

/* A script carries the blip window its noise was made for (`# blip-window: 250 ms`); the
 * replay reads it with that window without being told, and the game comes back whole (read
 * with the default window instead, the same script gives another match). */
TB_TEST(a_scripts_blip_window_travels_with_it)
{
    const char *bpgn = TB_CLI_DATA "/doorgeefschaak.bpgn";
    char *want = tb_run_read_file(bpgn, NULL);
    for (long seed = 1; seed <= 4; seed++) {
        char *got = round_trip(bpgn, seed, "--noise --blip-ms 250");
        char *events = tb_run_read_file(tb_test_tmp("rt.events"), NULL);
        ASSERT_STR_CONTAINS(events, "\n# blip-window: 250 ms\n");
        ASSERT_STR_EQ(got, want);
        free(events);
        free(got);
    }
    free(want);
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' --blip-ms 100 2>&1", TB_TWINBOARD,
                     tb_test_tmp("rt.events")),
              1);
    ASSERT_STR_CONTAINS(out, "refused"); /* read with another window: another match */
}

TB_TEST(law_5_4_hand_written_match_with_drops_promotion_resignation_and_flag_round_trips)
{
    char *want = tb_run_read_file(TB_CLI_DATA "/doorgeefschaak.bpgn", NULL);
    for (long seed = 1; seed <= 6; seed++) {
        char *got = round_trip(TB_CLI_DATA "/doorgeefschaak.bpgn", seed, "--noise");
        ASSERT_STR_EQ(got, want); /* the tags too, carried by the scripts' `# tag` lines */
        free(got);
    }
    /* the flag falls 402 s after Black's last move on A (5.4); B resigned a second after its
     * last move (BPGN does not say when) */
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' | tail -4", TB_TWINBOARD,
                     tb_test_tmp("rt.events")),
              0);
    ASSERT_STR_CONTAINS(out, "48000 B: 0-1 resigned (5.2)\n");
    ASSERT_STR_CONTAINS(out, "444000 A Black: flag fell\n444000 A: 1-0 flag fell (5.4)\n");
    free(want);
}

TB_TEST(law_2_1_seat_0_hears_in_german_what_the_match_tells_them)
{
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-events %s --seed 2 > '%s'", TB_TWINBOARD,
                     TB_CLI_DATA "/doorgeefschaak.bpgn", tb_test_tmp("h.events")),
              0);
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' --seat 0 --say de-fide 2>&1",
                     TB_TWINBOARD, tb_test_tmp("h.events")),
              0);
    /* Black's moves on A, the pawn from Black on B (2.1), Black's drop (2.2); nothing of B's
     * moves, nothing of their own */
    const char *want[] = {"Bauer Anna sieben Anna fünf\n", "20000 Du bekommst: Bauer\n",
                          "Turm Anna acht Anna sechs\n", "Bauer auf Bella vier\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ASSERT_STR_CONTAINS(out, want[i]);
    ASSERT_TRUE(strstr(out, "David sieben") == NULL); /* 1b. d5 on B */
    ASSERT_TRUE(strstr(out, "Eva zwei Eva vier") == NULL);
    int lines = 0;
    for (const char *p = out; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    ASSERT_EQ(lines, 6); /* three moves of Black on A, one piece passed, both games' ends */
    ASSERT_STR_CONTAINS(out, "48000 Brett B: Aufgabe, Schwarz gewinnt\n"); /* 0-1 resigned (5.2) */
    ASSERT_STR_CONTAINS(out, "444000 Brett A: Zeitüberschreitung, Weiß gewinnt\n");
    /* hear-other-board: board B's moves too */
    ASSERT_EQ(tb_run(out, OUT_MAX,
                     "'%s' bughouse-replay '%s' --seat 0 --say de-fide --hear-other-board 0 2>&1",
                     TB_TWINBOARD, tb_test_tmp("h.events")),
              0);
    ASSERT_STR_CONTAINS(out, "Bauer David sieben David fünf");
    ASSERT_STR_CONTAINS(out, "Springer auf David vier");
}

TB_TEST(two_files_one_board_each_replay_as_one)
{
    ASSERT_EQ(tb_run(out, OUT_MAX,
                     "'%s' bughouse-events %s --seed 4 --noise --out-a '%s' --out-b '%s'",
                     TB_TWINBOARD, TB_CLI_DATA "/doorgeefschaak.bpgn", tb_test_tmp("a.events"),
                     tb_test_tmp("b.events")),
              0);
    ASSERT_STR_EQ(out, "");
    ASSERT_EQ(tb_run(out, OUT_MAX, "grep -c ' B ' '%s'; grep -c ' A ' '%s'",
                     tb_test_tmp("a.events"), tb_test_tmp("b.events")),
              1);
    ASSERT_STR_EQ(out, "0\n0\n");
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' '%s' --bpgn - | tail -3",
                     TB_TWINBOARD, tb_test_tmp("b.events"), tb_test_tmp("a.events")),
              0);
    ASSERT_STR_CONTAINS(out, "4A. axb8=Q {396.000} 4b. N@d4 {392.000} {A: 1-0 flag fell (5.4)}");
}

/* Writes the file name holding text (unless NULL), runs `twinboard CMD FILE OPTS`; its status
 * and what it printed must be status and contain message. */
static void answer(const char *cmd, const char *name, const char *text, const char *opts,
                   int status, const char *message)
{
    if (text)
        tb_run_write_file(tb_test_tmp(name), text);
    int rc =
        tb_run(out, OUT_MAX, "'%s' %s '%s' %s 2>&1", TB_TWINBOARD, cmd, tb_test_tmp(name), opts);
    if (rc != status || !strstr(out, message))
        TB_FAIL("%s %s %s: exit %d, expected %d with '%s':\n%s", cmd, name, opts, rc, status,
                message, out);
}

TB_TEST(bad_input_is_named_by_file_and_line_and_changes_nothing)
{
    const char *r = "bughouse-replay";
    char opts[700];
    snprintf(opts, sizeof opts, "--bpgn '%s'", tb_test_tmp("none.bpgn"));
    answer(r, "bad.events", "0 A press clock\n100 A lift e2\n50 A place e4\n", opts, 2,
           "bad.events:3: time 50 goes back");
    ASSERT_EQ(tb_run(out, OUT_MAX, "test -e '%s'", tb_test_tmp("none.bpgn")), 1);
    answer(r, "board.events", "0 A press clock\n100 C lift e2\n", "", 2,
           "board.events:2: board 'C' is neither board A");
    answer(r, "board.events", NULL, "--typed B", 2, "board.events:2:");
    answer(r, "typed.events", "0 A press clock\n# a comment\n1000 A move e4\n", "", 2,
           "typed.events:3: board A has sensors");
    answer(r, "typed.events", NULL, "--typed A --board-a vi", 2,
           "typed.events:1: board 'A' is neither board A ('vi')");
    answer(r, "ask.events", "0 A press clock\n500 B ask grey\n", "", 2,
           "ask.events:2: ask: 'grey' is not white or black");
    answer(r, "late.events", "0 A press clock\n# control: 5m\n", "", 2,
           "late.events:2: '# control:' after the first event");
    answer(r, "missing.events", NULL, "", 2, "missing.events");
    answer(r, "ok.events", "0 A press clock\n", "--seat 4", 2, "usage: twinboard bughouse-replay");
    answer(r, "ok.events", NULL, "--control 7x", 2, "bad clock control '7x'");
    answer(r, "ok.events", NULL, "--fen-b '8/8 w'", 2, "bad FEN of board B");
    answer(r, "ok.events", NULL, "--typed C", 2, "--typed 'C' names no board");
    answer(r, "ok.events", NULL, "--say xx", 2, "no phrase pack \"xx\"");
    answer(r, "ok.events", NULL, "--frob", 2, "unknown option --frob");
    /* a typed move the rules refuse, a press with nothing to complete: problems, exit 1 */
    answer(r, "refused.events",
           "0 A press clock\n1000 B move e5\n1100 B move e4\n1200 B press clock\n"
           "1300 B press clock\n",
           "--typed B --until 2000", 1, "1000 ! ");
    ASSERT_STR_CONTAINS(out, "refused.events:2: move refused:");
    ASSERT_STR_CONTAINS(out, "1100 B White: e4\n");
    ASSERT_STR_CONTAINS(out, "1300 ! ");
    ASSERT_STR_CONTAINS(out, "refused.events:5: press clock refused");
    /* bughouse-events: an unreadable BPGN, one without clocks, a bad option */
    answer("bughouse-events", "bad.bpgn", "[Event \"x\"]\n\n1A. e4 {419.000} 1a. e4 {418.000} *\n",
           "", 2, "bad.bpgn");
    answer("bughouse-events", "noclock.bpgn", "[Event \"x\"]\n\n1A. e4 1a. e5 *\n", "", 1,
           "ply 1 has no clock");
    answer("bughouse-events", "noclock.bpgn", NULL, "--seed -1", 2, "usage: twinboard");
    answer("bughouse-events", "none.bpgn", NULL, "", 2, "none.bpgn");
}

/* A replay script damaged at random (lines dropped, doubled or swapped, squares, pieces and
 * kinds changed): every run ends with 0, 1 (inputs refused, each named) or 2 (the line named),
 * never a crash. */
TB_TEST(damaged_scripts_are_refused_or_replayed_never_a_crash)
{
    ASSERT_EQ(tb_run(out, OUT_MAX, "'%s' bughouse-events %s --seed 9 --noise", TB_TWINBOARD,
                     TB_CLI_DATA "/doorgeefschaak.bpgn"),
              0);
    char *lines[512];
    int n = 0;
    for (char *p = strtok(out, "\n"); p && n < 512; p = strtok(NULL, "\n"))
        lines[n++] = strdup(p);
    uint64_t s = 12345;
    int status[3] = {0, 0, 0};
    for (int run = 0; run < 40; run++) {
        FILE *f = fopen(tb_test_tmp("damaged.events"), "w");
        ASSERT_NOT_NULL(f);
        for (int i = 0; i < n; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            unsigned r = (unsigned)(s >> 33) % 100;
            char line[256];
            snprintf(line, sizeof line, "%s", lines[i]);
            char *sq = strstr(line, " lift ")    ? strstr(line, " lift ") + 6
                       : strstr(line, " place ") ? strstr(line, " place ") + 7
                                                 : NULL;
            if (r < 2)
                continue; /* a line lost */
            if (r < 4 && sq) {
                sq[0] = (char)('a' + (s >> 40) % 9); /* 'i': no square */
                sq[1] = (char)('1' + (s >> 44) % 8);
            } else if (r < 5 && strstr(line, " choose ")) {
                strcpy(strstr(line, " choose ") + 8, (s >> 40) % 2 ? "k" : "q");
            } else if (r < 6) {
                fprintf(f, "%s\n", line); /* doubled */
            } else if (r < 7 && i + 1 < n) {
                fprintf(f, "%s\n", lines[i + 1]); /* swapped with the next */
            } else if (r < 8) {
                strcat(line, " x"); /* text after the line */
            }
            fprintf(f, "%s\n", line);
        }
        ASSERT_OK(fclose(f));
        int rc = tb_run(out, OUT_MAX, "'%s' bughouse-replay '%s' --seat 0 2>&1", TB_TWINBOARD,
                        tb_test_tmp("damaged.events"));
        if (rc < 0 || rc > 2)
            TB_FAIL("run %d: exit %d\n%s", run, rc, out);
        if (rc == 2)
            ASSERT_STR_CONTAINS(out, "damaged.events:");
        status[rc]++;
    }
    for (int i = 0; i < n; i++)
        free(lines[i]);
    ASSERT_GT(status[2], 0);
    ASSERT_GT(status[0] + status[1], 0);
}
