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

/* ---- Chess960 (Guideline II) ------------------------------------------------------------- */

/* Castling as in standard chess (the king two files, king and rook to empty squares), then
 * king moves: the script's `# fen:` line carries the start, moves come out king-takes-rook. */
static const char pgn960[] = "[Event \"Chess960\"]\n[White \"a\"]\n[Black \"b\"]\n"
                             "[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
                             "[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n"
                             "1. O-O-O O-O-O 2. d4 d5 3. Kb1 Kb8 *\n";

TB_TEST(guideline_ii_events_from_pgn_replays_a_chess960_game)
{
    char args[2400];
    const char *p = write_file("g960.pgn", pgn960);
    for (int seed = 1; seed <= 6; seed++) {
        snprintf(args, sizeof args, "events-from-pgn '%s' --seed %d --blips > '%s/g960.events'", p,
                 seed, tb_test_tmp_dir());
        ASSERT_EQ(run(args), 0);
        snprintf(args, sizeof args, "replay --events '%s/g960.events' 2>&1", tb_test_tmp_dir());
        ASSERT_EQ(run(args), 0);
        ASSERT_STR_EQ(out, "e1b1\ne8b8\nd2d4\nd7d5\nc1b1\nc8b8\n");
    }
    /* the script's start line is X-FEN; --fen in Shredder-FEN is the same position */
    snprintf(args, sizeof args, "%s/g960.events", tb_test_tmp_dir());
    char *script = tb_run_read_file(args, NULL);
    ASSERT_STR_CONTAINS(script,
                        "\n# fen: 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1\n");
    free(script);
    snprintf(args, sizeof args,
             "replay --events '%s/g960.events' --fen "
             "'1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1' 2>&1",
             tb_test_tmp_dir());
    ASSERT_EQ(run(args), 0);
    ASSERT_STR_EQ(out, "e1b1\ne8b8\nd2d4\nd7d5\nc1b1\nc8b8\n");
}

/* Every castling kind of Guideline II, in every handling order the generator makes: the rook
 * stays, king and rook swap, the king goes one file onto ... the rook lands on the king's
 * square, the king stays. */
static const char pgn960_kinds[] =
    "[Event \"the rook stays\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
    "[FEN \"r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1\"]\n\n1. O-O O-O 2. a4 a5 *\n\n"
    "[Event \"king and rook swap\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
    "[FEN \"r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAga - 0 1\"]\n\n1. O-O O-O 2. a4 a5 *\n\n"
    "[Event \"the rook onto the king's square\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
    "[FEN \"1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w HBhb - 0 1\"]\n\n"
    "1. O-O-O O-O-O 2. a4 a5 *\n\n"
    "[Event \"the king stays\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
    "[FEN \"1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w HBhb - 0 1\"]\n\n"
    "1. O-O-O O-O-O 2. a4 a5 *\n\n"
    "[Event \"the king onto the rook's square\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
    "[FEN \"r3k1r1/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w GAga - 0 1\"]\n\n1. O-O O-O 2. a4 a5 *\n";

TB_TEST(guideline_ii_events_from_pgn_every_castling_kind_replays)
{
    static const char *const want[] = {
        "e1f1\ne8f8\na2a4\na7a5\n", "f1g1\nf8g8\na2a4\na7a5\n", "d1b1\nd8b8\na2a4\na7a5\n",
        "c1b1\nc8b8\na2a4\na7a5\n", "e1g1\ne8g8\na2a4\na7a5\n",
    };
    char args[2400];
    const char *p = write_file("kinds960.pgn", pgn960_kinds);
    for (int game = 1; game <= 5; game++) {
        for (int seed = 1; seed <= 8; seed++) {
            snprintf(args, sizeof args,
                     "events-from-pgn '%s' --game %d --seed %d --blips > '%s/k960.events'", p, game,
                     seed, tb_test_tmp_dir());
            ASSERT_EQ(run(args), 0);
            snprintf(args, sizeof args, "replay --events '%s/k960.events' 2>&1", tb_test_tmp_dir());
            ASSERT_EQ(run(args), 0);
            if (strcmp(out, want[game - 1]) != 0)
                TB_FAIL("game %d seed %d: replay gives\n%sexpected\n%s", game, seed, out,
                        want[game - 1]);
        }
    }
}

/* A castling right on a file without a rook, a king outside its rooks, two rights on one side:
 * the FEN is refused naming the letter and its column, and nothing is replayed. */
TB_TEST(guideline_ii_replay_refuses_inconsistent_960_fen)
{
    char args[2400];
    const char *path = write_file("e.events", "0 vi lift e2\n300 vi place e4\n");
    snprintf(args, sizeof args,
             "replay --events '%s' --fen '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GCgb - 0 1' "
             "2>&1",
             path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, "bad FEN '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GCgb - 0 1': "
                             "FEN castling field: 'C' but no white rook on rank 1 on that file "
                             "(column 46)");
    snprintf(args, sizeof args, "replay --events '%s' --fen '4k3/8/8/8/8/8/8/R6K w Q - 0 1' 2>&1",
             path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, "'Q' but the white king on h1 is not between two rooks' files");
    /* in the script's own start line too, and nothing reaches stdout */
    path = write_file("e2.events", "# fen: 4k3/8/8/8/8/8/8/3K2RR w GH - 0 1\n0 vi lift g1\n");
    snprintf(args, sizeof args, "replay --events '%s' 2>&1", path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_CONTAINS(out, "'H' gives the white king-side right again (already with the rook "
                             "on g1)");
    snprintf(args, sizeof args, "replay --events '%s' 2>/dev/null", path);
    ASSERT_EQ(run(args), 2);
    ASSERT_STR_EQ(out, "");
}
