/* The twinboard command line: perft, pgn-check and scoresheet as a user runs them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_run.h"
#include "tb_test.h"

#define OUT_MAX (1 << 16)

/* Runs `twinboard ARGS` through the shell; fills out with what it printed (ARGS says which
 * streams) and returns the exit status. */
static int run(const char *args, char *out)
{
    return tb_run(out, OUT_MAX, "'%s' %s", TB_TWINBOARD, args);
}

static const char *last_line(char *out)
{
    size_t n = strlen(out);
    while (n && out[n - 1] == '\n')
        out[--n] = '\0';
    char *nl = strrchr(out, '\n');
    return nl ? nl + 1 : out;
}

static char out[OUT_MAX];

TB_TEST(perft_3_prints_8902_last)
{
    ASSERT_EQ(run("perft 3", out), 0);
    ASSERT_STR_EQ(last_line(out), "8902");
    ASSERT_EQ(
        run("perft 4 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'", out),
        0);
    ASSERT_STR_EQ(last_line(out), "4085603");
    /* the FEN may also come as six separate words */
    ASSERT_EQ(run("perft 2 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", out), 0);
    ASSERT_STR_EQ(last_line(out), "191");
}

TB_TEST(perft_divide_lists_each_root_move_then_the_total)
{
    ASSERT_EQ(run("perft --divide 3", out), 0);
    ASSERT_STR_CONTAINS(out, "a2a3: 380\n");
    ASSERT_STR_CONTAINS(out, "e2e4: 600\n");
    ASSERT_STR_CONTAINS(out, "g1f3: 440\n");
    int lines = 0;
    for (const char *p = out; (p = strstr(p, ": ")) != NULL; p++)
        lines++;
    ASSERT_EQ(lines, 20);
    ASSERT_STR_EQ(last_line(out), "8902");
}

TB_TEST(guideline_ii_perft_960_castles_king_takes_rook)
{
    ASSERT_EQ(run("perft --960 --divide 1 'rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1'", out), 0);
    ASSERT_STR_CONTAINS(out, "b1a1: 1\n");
    ASSERT_STR_CONTAINS(out, "b1h1: 1\n");
    ASSERT_STR_CONTAINS(out, "b1c1: 1\n");
}

TB_TEST(perft_bad_input_is_a_usage_error)
{
    ASSERT_EQ(run("perft 2 'rnbqkbnr/pppppppp/8/8 w - - 0 1' 2>&1", out), 2);
    ASSERT_STR_CONTAINS(out, "twinboard: perft: bad FEN");
    ASSERT_EQ(run("perft deep 2>&1", out), 2);
    ASSERT_STR_CONTAINS(out, "twinboard: perft: depth 'deep' is not a number from 0 to");
    ASSERT_EQ(run("perft 2>&1", out), 2);
    ASSERT_STR_CONTAINS(out, "usage: twinboard perft");
}

TB_TEST(help_lists_commands_and_unknown_command_fails)
{
    ASSERT_EQ(run("help", out), 0);
    ASSERT_STR_CONTAINS(out, "perft ");
    ASSERT_STR_CONTAINS(out, "pgn-check ");
    ASSERT_STR_CONTAINS(out, "scoresheet ");
    ASSERT_EQ(run("--help", out), 0);
    ASSERT_STR_CONTAINS(out, "pgn-check ");
    ASSERT_EQ(run("2>&1", out), 2);
    ASSERT_STR_CONTAINS(
        out, "usage: twinboard [-c FILE|--socket PATH] [--timeout S] [--pin-file F] COMMAND");
    ASSERT_EQ(run("frobnicate 2>&1", out), 2);
    ASSERT_STR_EQ(out, "twinboard: no command 'frobnicate'; 'twinboard help' lists them\n");
}

TB_TEST(pgn_check_reports_a_corrupted_move_and_goes_on)
{
    char src[1024], bad[1024], cmd[2300];
    size_t len;
    snprintf(src, sizeof src, "%s/games/twic0920.pgn", tb_test_data_dir());
    char *text = tb_run_read_file(src, &len);
    /* game 2, Svidler - Navara: 4. d3 Bc5 becomes the impossible 4... Bc4 */
    char *game2 = strstr(strstr(text, "[Event ") + 1, "[Event ");
    char *move = strstr(game2, "4. d3 Bc5 5. c3");
    ASSERT_NOT_NULL(move);
    move[8] = '4';
    snprintf(bad, sizeof bad, "%s/twic_bad.pgn", tb_test_tmp_dir());
    FILE *f = fopen(bad, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(text, 1, len, f), len);
    fclose(f);
    free(text);

    snprintf(cmd, sizeof cmd, "pgn-check '%s' 2>&1", bad);
    ASSERT_EQ(run(cmd, out), 1);
    char want[4096];
    snprintf(want, sizeof want,
             "%s: game 2 (Svidler,P - Navara,D), move 4... (ply 8): 'Bc4': Bc4 is illegal: no "
             "bishop can move to c4 (line 44)\n"
             "%s: 2245 games, 182489 plies, 1 with errors\n"
             "total: 2245 games, 182489 plies, 1 with errors\n",
             bad, bad);
    ASSERT_STR_EQ(out, want);

    /* an unreadable file is an error of its own, and the others are still checked */
    snprintf(cmd, sizeof cmd, "pgn-check /nonexistent/x.pgn '%s' 2>&1 >/dev/null", src);
    ASSERT_EQ(run(cmd, out), 2);
    ASSERT_STR_EQ(out, "twinboard: cannot read /nonexistent/x.pgn: No such file or directory\n");
    snprintf(cmd, sizeof cmd, "pgn-check '%s'", src);
    ASSERT_EQ(run(cmd, out), 0);
    ASSERT_STR_CONTAINS(out, ": 2245 games, 182591 plies\ntotal: 2245 games, 182591 plies\n");
}

TB_TEST(article_8_scoresheet_command_in_three_letter_sets)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "scoresheet --letters nl --game 2024 '%s/games/twic0920.pgn'",
             tb_test_data_dir());
    ASSERT_EQ(run(cmd, out), 0);
    ASSERT_STR_CONTAINS(out, "Wit:       Bacrot,E (2695)\n");
    ASSERT_STR_CONTAINS(out, "   4.  Pc3           0-0\n");
    ASSERT_STR_CONTAINS(out, "  18.  axb6 e.p.     Dxb6\n");
    ASSERT_STR_CONTAINS(out, "  30.  Dxf8#\n\nUitslag:   1-0\n");
    snprintf(cmd, sizeof cmd, "scoresheet --game 2024 --letters en '%s/games/twic0920.pgn'",
             tb_test_data_dir());
    ASSERT_EQ(run(cmd, out), 0);
    ASSERT_STR_CONTAINS(out, "  30.  Qxf8#\n");
    snprintf(cmd, sizeof cmd, "scoresheet --letters fr '%s/games/twic0920.pgn' 2>&1",
             tb_test_data_dir());
    ASSERT_EQ(run(cmd, out), 2);
    ASSERT_STR_CONTAINS(out, "use en (KQRBN), nl (KDTLP) or de (KDTLS)");
    snprintf(cmd, sizeof cmd, "scoresheet --game 3000 '%s/games/twic0920.pgn' 2>&1",
             tb_test_data_dir());
    ASSERT_EQ(run(cmd, out), 2);
    ASSERT_STR_CONTAINS(out, "has 2245 games, no game 3000");
}

/* Chess960 (Guideline II) FENs need no flag: perft, pgn-check and scoresheet read X-FEN and
 * Shredder-FEN as they come, and a malformed 960 FEN is refused naming the letter's column. */
TB_TEST(guideline_ii_cli_reads_chess960_without_a_flag)
{
    /* array 0 in X-FEN and in Shredder-FEN: Stockfish 15.1 counts 400 and 9006 */
    ASSERT_EQ(run("perft 2 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'", out), 0);
    ASSERT_STR_EQ(last_line(out), "400");
    ASSERT_EQ(run("perft 3 bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", out), 0);
    ASSERT_STR_EQ(last_line(out), "9006");
    /* castling king-takes-rook in the divide, as the engine prints it */
    ASSERT_EQ(run("perft --divide 1 '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1'", out),
              0);
    ASSERT_STR_CONTAINS(out, "e1b1: 1\n");
    ASSERT_STR_CONTAINS(out, "e1g1: 1\n");
    ASSERT_EQ(run("perft 1 '1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GCgb - 0 1' 2>&1", out), 2);
    ASSERT_STR_CONTAINS(out, "'C' but no white rook on rank 1 on that file (column 46)");

    char path[1024], cmd[2300];
    snprintf(path, sizeof path, "%s/g960.pgn", tb_test_tmp_dir());
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    fputs("[Event \"Chess960\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n"
          "[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
          "[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n"
          "1. O-O-O O-O 2. d4 d5 *\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "pgn-check '%s'", path);
    ASSERT_EQ(run(cmd, out), 0);
    ASSERT_STR_CONTAINS(out, ": 1 game, 4 plies\n");
    snprintf(cmd, sizeof cmd, "scoresheet --letters en '%s'", path);
    ASSERT_EQ(run(cmd, out), 0);
    ASSERT_STR_CONTAINS(out, "   1.  0-0-0         0-0\n");
}
