/* Chess960 (Guideline II) through twinboardd: the start array set in the configuration
 * ([arbiter] start), random games from it on two boards, each move made on one board and
 * replicated on the other; the daemon's game must be the game move for move, its PGN must
 * carry Variant, SetUp and FEN so that it reads back as the same game, and a daemon recovering
 * from the journal must have the same game. The arbiter's
 * set-position takes X-FEN and Shredder-FEN and refuses an inconsistent Chess960 FEN with an
 * error naming what and where, changing nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "game960.h"
#include "tb_chess.h"
#include "tb_test.h"

/* The PGN the daemon answers (after the "ok+ pgn" line, dot-stuffed lines) reads back to the
 * game: same start (as Chess960) and the same moves. */
static void expect_pgn_reads_back(const char *answer, const struct game960 *g)
{
    const char *pgn = strchr(answer, '\n');
    ASSERT_NOT_NULL(pgn);
    tb_chess_pgn_game *pg = malloc(sizeof *pg);
    ASSERT_NOT_NULL(pg);
    tb_chess_pgn_reader r;
    struct tb_error err;
    tb_chess_pgn_reader_init(&r, pgn + 1, strlen(pgn + 1));
    if (tb_chess_pgn_read(&r, pg, &err) != 1)
        TB_FAIL("the daemon's PGN does not read back: %s\n%s", err.msg, pgn + 1);
    ASSERT_TRUE(pg->game.start.chess960);
    ASSERT_TRUE(memcmp(&pg->game.start, &g->start, sizeof g->start) == 0);
    ASSERT_EQ(pg->game.plies, g->plies);
    for (int i = 0; i < g->plies; i++)
        ASSERT_EQ(pg->game.moves[i], g->moves[i]);
    free(pg);
}

/* Plays array `number` (kinds: castling kinds of game960.h) through the daemon. */
static void play(int number, unsigned kinds, uint64_t seed)
{
    struct game960 g;
    game960_play(&g, number, 40, kinds, seed);
    struct fx f;
    char name[32], fen[100];
    snprintf(name, sizeof name, "c960-%d", number);
    fx_init(&f, name);
    struct tb_daemon_demo_script s = {.start = &g.start,
                                      .moves = g.moves,
                                      .nmoves = g.plies,
                                      .pause_ms = 300,
                                      .blips = true,
                                      .seed = seed};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    fx_options(&f, "script", "script");
    tb_chess_pos_to_fen(&g.start, fen, sizeof fen);
    snprintf(f.o.cfg.start_fen, sizeof f.o.cfg.start_fen, "%s", fen);
    fx_start(&f);
    unsigned mm = fx_run(&f, 20000);
    if (mm)
        TB_FAIL("array %d (%s): mismatch #%u:\n%s", number, fen, mm, fx_req(&f, "status"));
    static char want[8192], got[8192];
    fx_san_list(&g.start, g.moves, g.plies, want, sizeof want);
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), want);
    ASSERT_EQ(fx_plies(&f), g.plies);
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[Variant \"Chess960\"]");
    ASSERT_STR_CONTAINS(pgn, "[SetUp \"1\"]");
    char tag[140];
    snprintf(tag, sizeof tag, "[FEN \"%s\"]", fen);
    ASSERT_STR_CONTAINS(pgn, tag);
    expect_pgn_reads_back(pgn, &g);
    ASSERT_TRUE(strstr(f.log, "MISMATCH") == NULL);

    /* Recovery: a daemon started on the journal, with no start in its configuration, has the
     * same Chess960 game. */
    fx_stop(&f);
    fx_options(&f, "null:", "null:");
    fx_start(&f);
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), want);
    pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[Variant \"Chess960\"]");
    ASSERT_STR_CONTAINS(pgn, tag);
    expect_pgn_reads_back(pgn, &g);
    fx_free(&f);
}

/* Arrays whose games castle the way standard chess does (the king two or more files). */
TB_TEST(guideline_ii_chess960_games_in_sync_plain_castling)
{
    static const int arrays[] = {0, 105, 283, 518, 709, 959};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        play(arrays[i], GAME960_PLAIN, 7 + i);
}

/* Every castling kind of Guideline II: the king one file or none, the rook none, king and rook
 * swapping or landing on each other's square. */
TB_TEST(guideline_ii_chess960_games_in_sync_every_castling_kind)
{
    static const int arrays[] = {3, 7, 11, 226, 441, 640, 868, 943};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        play(arrays[i], GAME960_PLAIN | GAME960_SPECIAL, 11 + i);
}

TB_TEST(guideline_ii_set_position_takes_x_fen_and_shredder_fen)
{
    struct fx f;
    fx_init(&f, "c960-set");
    fx_script(&f, "");
    fx_options(&f, "script", "script");
    f.o.exit_when_done = false;
    fx_start(&f);
    /* X-FEN (rooks off the corners) and Shredder-FEN (file letters) */
    ASSERT_STR_CONTAINS(
        fx_req(&f, "set-position nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1 "
                   "pin=" FX_PIN),
        "ok");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Variant \"Chess960\"]");
    ASSERT_STR_CONTAINS(f.answer,
                        "[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]");
    ASSERT_STR_CONTAINS(
        fx_req(&f, "set-position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1 "
                   "pin=" FX_PIN),
        "ok");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Variant \"Chess960\"]");
    ASSERT_STR_CONTAINS(f.answer,
                        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]");
    fx_free(&f);
}

/* A castling right on a file without a rook, a king outside its rooks: refused, named, and
 * the game stays as it was. */
TB_TEST(guideline_ii_set_position_refuses_inconsistent_960_fen)
{
    struct fx f;
    fx_init(&f, "c960-bad");
    fx_script(&f, "");
    fx_options(&f, "script", "script");
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_STR_CONTAINS(
        fx_req(&f, "set-position nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1 "
                   "pin=" FX_PIN),
        "ok");
    static char before[65536];
    snprintf(before, sizeof before, "%s", fx_req(&f, "pgn"));
    fx_req(&f, "set-position nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GCgb - 0 1 pin=" FX_PIN);
    ASSERT_STR_CONTAINS(f.answer, "error");
    ASSERT_STR_CONTAINS(f.answer, "'C' but no white rook on rank 1 on that file (column 48)");
    fx_req(&f, "set-position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhb - 0 1 pin=" FX_PIN);
    ASSERT_STR_CONTAINS(f.answer, "'b' but no black rook on rank 8 on that file");
    fx_req(&f, "set-position 4k3/8/8/8/8/8/8/R6K w A - 0 1 pin=" FX_PIN);
    ASSERT_STR_CONTAINS(f.answer, "white king on h1 is not between two rooks' files");
    ASSERT_STR_EQ(fx_req(&f, "pgn"), before);
    fx_free(&f);
}
