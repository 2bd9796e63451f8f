/* `twinboard replay` and `twinboard events-from-pgn` from the outside (docs/replay.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_run.h"
#include "tb_test.h"

#define OUT_MAX (1 << 20)

static char out[OUT_MAX];

/* Runs `twinboard ARGS` (ARGS may redirect streams); returns the exit status. */
static int run(const char *args)
{
    return tb_run(out, OUT_MAX, "'%s' %s", TB_TWINBOARD, args);
}

static const char *write_file(const char *name, const char *text)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", tb_test_tmp_dir(), name);
    FILE *f = fopen(p, "wb");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static const char two_boards[] = "# two boards in one script; the first named is vi\n"
                                 "0 vi lift g1\n"
                                 "10 sighted lift e2\n"
                                 "500 vi place g1\n"
                                 "900 vi lift b1\n"
                                 "1200 vi place c3\n"
                                 "1300 sighted place e4\n"
                                 "2000 vi lift e7\n"
                                 "2300 vi place e5\n"
                                 "3000 vi lift g1\n"
                                 "3300 vi place f3\n"
                                 "3400 vi lift f3\n" /* g1f3 stood 100 ms: made */
                                 "3500 vi place e4\n";

TB_TEST(replay_prints_moves_and_problems_exactly)
{
    char args[1200];
    snprintf(args, sizeof args, "replay --events '%s' 2>&1", write_file("two.events", two_boards));
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "b1c3\n"
                       "! touch-move touched g1 moved b1\n"
                       "e7e5\n"
                       "g1f3\n"
                       "! displaced clear e4 fill f3\n");
}

TB_TEST(replay_board_option_and_touches)
{
    char args[1200];
    const char *path = write_file("two.events", two_boards);
    snprintf(args, sizeof args, "replay --events '%s' --board sighted --touches 2>&1", path);
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "touch own e2\ne2e4\n");
}

TB_TEST(replay_fen_from_option_or_script_and_blip_window)
{
    const char *script = "# fen: 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\n"
                         "0 vi lift b7\n"
                         "300 vi place b8\n"
                         "350 vi lift b8\n"
                         "400 vi place b8\n";
    char args[1200];
    const char *path = write_file("promo.events", script);
    snprintf(args, sizeof args, "replay --events '%s' 2>&1", path);
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "b7b8q\n! promotion-no-choice b8 queen assumed\n");
    /* a 40 ms window: the placement at 300 stood 50 ms and counts; the lift at 350 is then
     * the promoted piece swapped (no touch), the move is the same */
    snprintf(args, sizeof args, "replay --events '%s' --blip-ms 40 2>&1", path);
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "b7b8q\n! promotion-no-choice b8 queen assumed\n");
    /* --fen wins over the script's line: with Black to move, White's promotion is the same
     * side moving twice */
    snprintf(args, sizeof args, "replay --events '%s' --fen '4k3/1P6/8/8/8/8/8/4K3 b - - 0 1' 2>&1",
             path);
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "! same-side-twice b7b8q\n");
}

TB_TEST(replay_malformed_line_names_file_and_line)
{
    const char *path = write_file("bad.events", "# ok\n0 vi lift e2\n300 vi place e9\n");
    char args[1200], want[1200];
    snprintf(args, sizeof args, "replay --events '%s' 2>&1", path);
    ASSERT_EQ(run(args), 2);
    snprintf(want, sizeof want, "%s:3: bad square (a1..h8): 'e9'\n", path);
    ASSERT_STR_EQ(out, want);

    path = write_file("back.events", "500 vi lift e2\n300 vi place e4\n");
    snprintf(args, sizeof args, "replay --events '%s' 2>&1", path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, ":2: time 300 goes back");
    /* nothing printed on stdout before the error */
    snprintf(args, sizeof args, "replay --events '%s' 2>/dev/null", path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_EQ(out, "");
}

TB_TEST(replay_unreadable_file_and_usage)
{
    ASSERT_EQ(run("replay --events /nonexistent/x.events 2>&1"), 2);
    ASSERT_STR_CONTAINS(out, "cannot read /nonexistent/x.events: No such file or directory");
    ASSERT_EQ(run("replay 2>&1"), 2);
    ASSERT_STR_CONTAINS(out, "usage: twinboard replay --events FILE");
    ASSERT_EQ(run("replay --events x --blip-ms lots 2>&1"), 2);
}

static const char pgn[] = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n"
                          "1. e4 d5 2. exd5 c5 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=N Qc7 6. Nc3 e5 "
                          "7. Nf3 Bd6 8. Bc4 O-O 9. O-O *\n";

TB_TEST(events_from_pgn_replays_to_the_game)
{
    char args[2400];
    const char *p = write_file("g.pgn", pgn);
    snprintf(args, sizeof args, "events-from-pgn '%s' --seed 5 --blips > '%s/g.events'", p,
             tb_test_tmp_dir());
    ASSERT_EQ(run(args), 0);
    snprintf(args, sizeof args, "replay --events '%s/g.events'", tb_test_tmp_dir());
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "e2e4\nd7d5\ne4d5\nc7c5\nd5c6\ng8f6\nc6b7\nb8d7\nb7a8n\nd8c7\nb1c3\n"
                       "e7e5\ng1f3\nf8d6\nf1c4\ne8g8\ne1g1\n");
}

TB_TEST(events_from_pgn_faults_come_with_their_expect_lines)
{
    char args[2400];
    const char *p = write_file("g.pgn", pgn);
    snprintf(args, sizeof args,
             "events-from-pgn '%s' --seed 2 --fault wrong-square --fault-rate 1 --board sighted",
             p);
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_CONTAINS(out, "# expect: ! illegal e2 placed ");
    ASSERT_STR_CONTAINS(out, " sighted lift e2\n");
    ASSERT_EQ(run("events-from-pgn /nonexistent.pgn 2>&1"), 2);
    snprintf(args, sizeof args, "events-from-pgn '%s' --game 2 2>&1", p);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, "no game 2");
    snprintf(args, sizeof args, "events-from-pgn '%s' --fault sneeze 2>&1", p);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, "unknown fault 'sneeze'");
}
