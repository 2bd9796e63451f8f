/* D.2.3 (1): in a capture, a move is made only when the captured piece has been removed. A
 * capture left incomplete is reported (naming the square of the piece to remove) once the board
 * has stood still for incomplete_ms; the report stays open until that piece is off. A player
 * still busy with a capture, or a snapshot taken meanwhile, causes no report. Board 0 is the VI
 * player's (White), board 1 the sighted player's (Black). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

/* White to move; 1...d7d5 has just been played: exd5 and exd6 e.p. are legal. */
#define EP_FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
/* White to move: exd5 is legal. */
#define CAPTURE_FEN "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 2"

static enum tb_match_state state(const struct fixture *f)
{
    struct tb_match_status st;
    tb_match_status(f->m, &st);
    return st.state;
}

/* The board's own reading of its squares (occupied: names), ms after the last event. */
static void snapshot(struct fixture *f, int board, const char *occupied, uint64_t ms)
{
    struct tb_match_event ev = {.kind = TB_MATCH_EV_SNAPSHOT};
    f->t += ms;
    ev.occupancy = fx_squares(occupied);
    ASSERT_OK(tb_match_board_event(f->m, board, &ev, f->t));
    fx_drain(f);
}

/* The move announced to the sighted player. */
static const struct tb_match_announce *announced(const struct fixture *f)
{
    const struct tb_match_announce *a = fx_announce(f, 1, true, 0);
    if (!a) {
        char dump[8192];
        fx_dump(f, dump, sizeof dump);
        TB_FAIL("no move announced; outputs:\n%s", dump);
    }
    return a;
}

static void expect_no_mismatch(const struct fixture *f)
{
    if (fx_count(f, TB_MATCH_OUT_MISMATCH)) {
        char dump[8192];
        fx_dump(f, dump, sizeof dump);
        TB_FAIL("unexpected mismatch; outputs:\n%s", dump);
    }
}

/* D.2.3 (1), D.2.2: the capturing piece in the hand above the piece it will take is a move in
 * progress (the player may still be thinking), not an incomplete capture. */
TB_TEST(law_D_2_3_capturing_piece_in_the_hand_is_no_report)
{
    struct fixture f;
    fx_init(&f, CAPTURE_FEN, false);
    fx_mark(&f);
    fx_lift(&f, 0, "e4");
    fx_wait(&f, 5000);
    expect_no_mismatch(&f);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_lift(&f, 0, "d5");
    fx_place(&f, 0, "d5");
    fx_wait(&f, 300);
    expect_no_mismatch(&f);
    const struct tb_match_announce *a = announced(&f);
    ASSERT_EQ(a->move,
              tb_chess_move_new(tb_chess_square_parse("e4"), tb_chess_square_parse("d5"), 0));
    fx_free(&f);
}

/* The report names the square of the piece to remove and stays open (play stopped, no move
 * announced) until it is removed; then the move is made and announced. */
TB_TEST(law_D_2_3_incomplete_report_stays_open_until_the_piece_is_removed)
{
    struct fixture f;
    fx_init(&f, EP_FEN, false);
    fx_mark(&f);
    fx_lift(&f, 0, "e5");
    fx_place(&f, 0, "d6");
    fx_wait(&f, 3500);
    const struct tb_match_out *o = fx_find(&f, TB_MATCH_OUT_MISMATCH);
    ASSERT_NOT_NULL(o);
    ASSERT_EQ(o->u.mismatch.kind, TB_MATCH_MM_INCOMPLETE);
    ASSERT_EQ(o->u.mismatch.square, tb_chess_square_parse("d5"));
    ASSERT_U64_EQ(o->u.mismatch.fix[0].lift, fx_squares("d5"));
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), 0);
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    /* time passes, the board is touched elsewhere and a snapshot comes: still open */
    fx_wait(&f, 5000);
    snapshot(&f, 0, "e8 d5 d6 e1", 1000);
    fx_lift(&f, 0, "e1");
    fx_place(&f, 0, "e1");
    fx_wait(&f, 1000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), 0);
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    ASSERT_NULL(fx_announce(&f, 1, true, 0));
    fx_mark(&f);
    fx_lift(&f, 0, "d5");
    fx_wait(&f, 300);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(tb_chess_move_kind(a->move), TB_CHESS_MK_EP);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

/* A periodic snapshot while the e.p. capture is in progress (the pawn placed, the captured
 * pawn about to be taken off) is no report: the player has incomplete_ms from the last change. */
TB_TEST(law_D_2_3_snapshot_during_an_en_passant_capture_is_no_report)
{
    struct fixture f;
    fx_init(&f, EP_FEN, false);
    fx_mark(&f);
    fx_lift(&f, 0, "e5");
    fx_place(&f, 0, "d6");
    snapshot(&f, 0, "e8 d5 d6 e1", 50); /* inside the blip window of the placement */
    snapshot(&f, 0, "e8 d5 d6 e1", 1000);
    snapshot(&f, 0, "e8 d5 d6 e1", 1000);
    expect_no_mismatch(&f);
    fx_lift(&f, 0, "d5");
    fx_wait(&f, 300);
    expect_no_mismatch(&f);
    const struct tb_match_announce *a = announced(&f);
    ASSERT_EQ(tb_chess_move_kind(a->move), TB_CHESS_MK_EP);
    fx_free(&f);
}

/* A snapshot while an ordinary capture is in progress: the captured piece off, the capturing
 * piece in the hand; then the capturing piece in the hand with its victim still standing. */
TB_TEST(law_D_2_3_snapshot_during_a_capture_is_no_report)
{
    struct fixture f;
    fx_init(&f, CAPTURE_FEN, false);
    fx_mark(&f);
    fx_lift(&f, 0, "d5");
    snapshot(&f, 0, "e8 e4 e1", 1000);
    fx_lift(&f, 0, "e4");
    snapshot(&f, 0, "e8 e1", 1000);
    snapshot(&f, 0, "e8 e1", 1000);
    expect_no_mismatch(&f);
    fx_place(&f, 0, "d5");
    fx_wait(&f, 300);
    expect_no_mismatch(&f);
    announced(&f);

    /* the other way round: the capturing piece taken up first, a snapshot, then the victim */
    struct fixture g;
    fx_init(&g, CAPTURE_FEN, false);
    fx_mark(&g);
    fx_lift(&g, 0, "e4");
    snapshot(&g, 0, "e8 d5 e1", 50);
    snapshot(&g, 0, "e8 d5 e1", 1000);
    snapshot(&g, 0, "e8 d5 e1", 3000);
    expect_no_mismatch(&g);
    fx_lift(&g, 0, "d5");
    fx_place(&g, 0, "d5");
    fx_wait(&g, 300);
    expect_no_mismatch(&g);
    announced(&g);
    fx_free(&g);
    fx_free(&f);
}

/* The copier's board: the same rules (D.2.3 applies to the move as made on either board). */
TB_TEST(law_D_2_3_copy_with_the_capturing_piece_in_the_hand_is_no_report)
{
    struct fixture f;
    fx_init(&f, CAPTURE_FEN, false);
    fx_move(&f, 0, "e4d5");
    fx_mark(&f);
    fx_lift(&f, 1, "e4");
    snapshot(&f, 1, "e8 d5 e1", 1000);
    fx_wait(&f, 4000);
    expect_no_mismatch(&f);
    fx_lift(&f, 1, "d5");
    fx_place(&f, 1, "d5");
    fx_wait(&f, 300);
    expect_no_mismatch(&f);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_MOVE_AGREED));
    fx_free(&f);
}
