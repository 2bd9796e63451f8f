/* Every mismatch kind through twinboardd (D.2.9): the boards disagree, the arbiter's view names
 * what, where (board, squares) and since which move, the resolution is the one the Laws give,
 * the arbiter confirms it (PIN), the board is put right and the game goes on. The scripts wait
 * for the arbiter while a mismatch is open (script time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

/* 1. e4 made on the VI board and replicated on the sighted board, 1... e5 the other way. */
#define OPENING                                                                                    \
    "1000 vi lift e2\n1300 vi place e4\n"                                                          \
    "2000 sighted lift e2\n2300 sighted place e4\n"                                                \
    "3000 sighted lift e7\n3300 sighted place e5\n"                                                \
    "4000 vi lift e7\n4300 vi place e5\n"

static void start(struct fx *f, const char *name, const char *script)
{
    fx_init(f, name);
    fx_script(f, script);
    fx_options(f, "script", "script");
    fx_start(f);
}

/* The open mismatch's view from `status`, checked line by line. */
static void expect_view(struct fx *f, unsigned id, const char *head, const char *where,
                        const char *since)
{
    const char *st = fx_req(f, "status");
    char want[128];
    snprintf(want, sizeof want, "state: blocked: mismatch %u open", id);
    ASSERT_STR_CONTAINS(st, want);
    ASSERT_STR_CONTAINS(st, head);
    ASSERT_STR_CONTAINS(st, where);
    ASSERT_STR_CONTAINS(st, since);
}

static void resolve(struct fx *f, unsigned id)
{
    char line[64];
    snprintf(line, sizeof line, "resolve %u pin=%s", id, FX_PIN);
    ASSERT_STR_EQ(fx_req(f, line), "ok\n");
}

static void finish(struct fx *f, const char *moves)
{
    ASSERT_EQ(fx_run(f, 10000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    ASSERT_TRUE(c.done);
    char got[512];
    ASSERT_STR_EQ(fx_moves(f, got, sizeof got), moves);
}

/* D.2.9 first case: both scoresheets have 1. e4 (the sighted player heard it); the sighted
 * board played e3: that board is put right. */
TB_TEST(d29_wrong_move_replicated)
{
    struct fx f;
    start(&f, "wrong",
          "1000 vi lift e2\n1300 vi place e4\n"
          "2000 sighted lift e2\n2300 sighted place e3\n"
          "3000 sighted lift e3\n3300 sighted place e4\n"
          "4000 sighted lift e7\n4300 sighted place e5\n"
          "5000 vi lift e7\n5300 vi place e5\n");
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "MISMATCH 1 (wrong-move) on the sighted board (Black)",
                "where:  sighted board, squares e2 e3 e4", "since:  move 1, White (ply 1)");
    ASSERT_STR_CONTAINS(f.answer, "vi player (White): nothing to change");
    ASSERT_STR_CONTAINS(f.answer, "sighted player (Black): move the piece on e3 to e4");
    ASSERT_STR_CONTAINS(f.answer, "the scoresheets agree");
    resolve(&f, 1);
    finish(&f, "e4 e5");
    ASSERT_STR_CONTAINS(f.log, "RESOLVED 1");
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "mismatch 1");
    ASSERT_STR_CONTAINS(pgn, "wrong-move");
    fx_free(&f);
}

/* The player not to move (Black, on the sighted board) takes a pawn of theirs forward: no
 * move (1.2), a displaced piece (7.4), put back by its player. */
TB_TEST(law_7_4_piece_moved_by_the_player_not_to_move_is_displaced)
{
    struct fx f;
    start(&f, "turn",
          "500 sighted lift e7\n700 sighted place e5\n"
          "800 sighted lift e5\n900 sighted place e7\n" OPENING);
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "MISMATCH 1 (displaced) on the sighted board (Black)", "squares e5 e7",
                "since:  move 1, White (ply 1)");
    ASSERT_STR_CONTAINS(f.answer, "sighted player (Black): move the piece on e5 to e7");
    resolve(&f, 1);
    finish(&f, "e4 e5");
    fx_free(&f);
}

/* The VI board plays 1. e4 and, before it is replicated, Black's reply too: that board is two
 * moves ahead of the game; it takes the reply back. */
TB_TEST(d29_board_two_moves_ahead)
{
    struct fx f;
    start(&f, "ahead",
          "1000 vi lift e2\n1300 vi place e4\n"
          "2000 vi lift e7\n2300 vi place e5\n"
          "3000 vi lift e5\n3300 vi place e7\n"
          "4000 sighted lift e2\n4300 sighted place e4\n"
          "5000 sighted lift e7\n5300 sighted place e5\n"
          "6000 vi lift e7\n6300 vi place e5\n");
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "MISMATCH 1 (two-ahead) on the vi board (White)", "squares e5 e7",
                "(ply 2)");
    ASSERT_STR_CONTAINS(f.answer, "sighted player (Black): nothing to change");
    resolve(&f, 1);
    finish(&f, "e4 e5");
    fx_free(&f);
}

/* A piece knocked over on the VI board while Black thinks: displaced (7.4, 7.6). */
TB_TEST(d29_displaced_piece)
{
    struct fx f;
    start(&f, "displaced",
          "1000 vi lift e2\n1300 vi place e4\n"
          "2000 sighted lift e2\n2300 sighted place e4\n"
          "2600 vi lift h1\n2700 vi place h3\n"
          "6000 vi lift h3\n6300 vi place h1\n"
          "6500 sighted lift e7\n6800 sighted place e5\n"
          "7500 vi lift e7\n7800 vi place e5\n");
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "MISMATCH 1 (displaced) on the vi board (White)", "squares h1 h3",
                "since:  move 1, Black (ply 2)");
    ASSERT_STR_CONTAINS(f.answer, "vi player (White): move the piece on h3 to h1");
    resolve(&f, 1);
    finish(&f, "e4 e5");
    fx_free(&f);
}

/* The VI player puts the king's pawn on e5 from e2: not a legal move (7.5.1). */
TB_TEST(d29_illegal_move)
{
    struct fx f;
    start(&f, "illegal",
          "1000 vi lift e2\n1300 vi place e5\n"
          "2000 vi lift e5\n2300 vi place e2\n"
          "3000 vi lift e2\n3300 vi place e4\n"
          "4000 sighted lift e2\n4300 sighted place e4\n"
          "5000 sighted lift e7\n5300 sighted place e5\n"
          "6000 vi lift e7\n6300 vi place e5\n");
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "MISMATCH 1 (illegal) on the vi board (White)", "squares e2 e5",
                "since:  move 1, White (ply 1)");
    ASSERT_STR_CONTAINS(f.answer, "vi player (White): move the piece on e5 to e2");
    ASSERT_STR_CONTAINS(f.answer, "sighted player (Black): nothing to change");
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): Unzulässiger Zug");
    resolve(&f, 1);
    finish(&f, "e4 e5");
    fx_free(&f);
}

/* D.2.3 (1): a capture is made only when the captured piece is off the board. The VI player
 * takes en passant (the pawn to d6) and leaves the black pawn on d5: reported after 3 s, naming
 * d5; play stays stopped until d5 is cleared, then the move is made and copied. */
TB_TEST(d23_incomplete_capture)
{
    struct fx f;
    start(&f, "incomplete",
          "1000 vi lift e2\n1300 vi place e4\n"
          "2000 sighted lift e2\n2300 sighted place e4\n"
          "3000 sighted lift a7\n3300 sighted place a6\n"
          "4000 vi lift a7\n4300 vi place a6\n"
          "5000 vi lift e4\n5300 vi place e5\n"
          "6000 sighted lift e4\n6300 sighted place e5\n"
          "7000 sighted lift d7\n7300 sighted place d5\n"
          "8000 vi lift d7\n8300 vi place d5\n"
          "9000 vi lift e5\n9300 vi place d6\n"
          "14000 vi lift d5\n"
          "15000 sighted lift e5\n15300 sighted place d6\n15500 sighted lift d5\n");
    ASSERT_EQ(fx_run(&f, 1000), 1u);
    ASSERT_STR_CONTAINS(f.log, "MISMATCH 1 (incomplete) on the vi board (White)");
    ASSERT_STR_CONTAINS(f.log, "where:  vi board, squares d5 d6\n");
    ASSERT_STR_CONTAINS(f.log, "since:  move 3, White (ply 5)");
    ASSERT_STR_CONTAINS(f.log, "remove the captured piece on d5");
    ASSERT_STR_CONTAINS(f.log, "vi player (White): lift the piece on d5");
    /* open until the pawn is off: nothing resolved, nothing announced to the sighted player */
    ASSERT_NULL(strstr(f.log, "RESOLVED 1"));
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: blocked: mismatch 1 open");
    resolve(&f, 1);
    finish(&f, "e4 a6 e5 d5 exd6");
    ASSERT_STR_CONTAINS(f.log, "RESOLVED 1");
    fx_free(&f);
}

/* 4.3.1: the VI player takes the knight out of its hole (D.2.2: touched), puts it back and
 * moves a pawn: reported for the arbiter and the PGN, never enforced. */
TB_TEST(law_4_3_touch_move_reported)
{
    struct fx f;
    start(&f, "touch",
          "1000 vi lift g1\n1400 vi place g1\n"
          "2000 vi lift e2\n2300 vi place e4\n"
          "3000 sighted lift e2\n3300 sighted place e4\n");
    ASSERT_EQ(fx_run(&f, 1000), 0u);
    ASSERT_STR_CONTAINS(f.log, "touch-move report");
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "touch-move report");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "note after ply 0: touch-move report");
    fx_free(&f);
}

/* D.2.9 second case: the arbiter takes the moves back to where the scoresheets agree; the
 * decision is journaled and survives a restart. */
TB_TEST(d29_takeback_by_the_arbiter)
{
    struct fx f;
    start(&f, "takeback",
          OPENING "5000 vi lift g1\n5300 vi place f3\n"
                  "6000 sighted lift g1\n6300 sighted place f3\n");
    ASSERT_EQ(fx_run(&f, 200), 0u);
    ASSERT_EQ(fx_plies(&f), 3);
    ASSERT_STR_CONTAINS(fx_req(&f, "takeback 1"), "error denied");
    ASSERT_STR_CONTAINS(fx_req(&f, "takeback 1 pin=958273"), "error denied");
    ASSERT_STR_CONTAINS(fx_req(&f, "takeback 9 pin=" FX_PIN), "error state");
    ASSERT_EQ(fx_plies(&f), 3);
    ASSERT_STR_EQ(fx_req(&f, "takeback 1 pin=" FX_PIN), "ok\n");
    ASSERT_EQ(fx_plies(&f), 2);
    const char *st = fx_req(&f, "status");
    ASSERT_STR_CONTAINS(st, "state: restoring");
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "arbiter");
    fx_stop(&f);
    /* the same journal, boards that say nothing: the takeback is there */
    fx_options(&f, "null:", "null:");
    fx_start(&f);
    ASSERT_EQ(fx_plies(&f), 2);
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "state: restoring");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "arbiter");
    fx_free(&f);
}

/* D.2.9 second case: both boards play Black's second move at once, each a different one: the
 * scoresheets differ, the moves are taken back to where they agree; the arbiter confirms. */
TB_TEST(d29_scoresheets_differ_take_back)
{
    struct fx f;
    start(&f, "differ",
          OPENING "5000 vi lift g1\n5300 vi place f3\n"
                  "6000 sighted lift g1\n6300 sighted place f3\n"
                  "7000 vi lift b8\n7010 sighted lift d7\n7050 vi place c6\n7060 sighted place d6\n"
                  "9000 vi lift c6\n9300 vi place b8\n"
                  "11000 vi lift d7\n11300 vi place d6\n");
    unsigned id = fx_run(&f, 1000);
    ASSERT_EQ(id, 1u);
    expect_view(&f, 1, "on the vi board (White)", "squares c6 b8", "since:  move 2, Black (ply 4)");
    ASSERT_STR_CONTAINS(f.answer, "the scoresheets agree up to ply 3 and differ after it: take "
                                  "back to there");
    ASSERT_STR_CONTAINS(f.answer, "vi player (White): take back Nc6 (b8c6)");
    ASSERT_STR_CONTAINS(f.answer, "arbiter: take the moves back");
    /* D.2.3, D.2.9: d6, Black's own move on Black's board, stands; it is not taken back */
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "sighted player (Black): nothing to change");
    resolve(&f, 1);
    finish(&f, "e4 e5 Nf3 d6");
    ASSERT_STR_CONTAINS(f.log, "RESOLVED 1");
    fx_free(&f);
}
