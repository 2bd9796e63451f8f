/* Mismatches between the two boards and their D.2.9 resolutions, touch reports (4.8), the
 * arbiter's takeback and set-position, and replay determinism. Board 0 is the VI player's
 * (White), board 1 the sighted player's (Black). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

static const struct tb_match_mismatch *new_mismatch(const struct fixture *f)
{
    const struct tb_match_out *o = fx_find(f, TB_MATCH_OUT_MISMATCH);
    if (!o) {
        char dump[8192];
        fx_dump(f, dump, sizeof dump);
        TB_FAIL("no mismatch reported; outputs:\n%s", dump);
    }
    return &o->u.mismatch;
}

/* The new mismatch, of this kind, on this board, at this ply. */
static const struct tb_match_mismatch *
expect_mismatch(const struct fixture *f, enum tb_match_mismatch_kind kind, int board, int ply)
{
    const struct tb_match_mismatch *mm = new_mismatch(f);
    if (mm->kind != kind || mm->board != board || mm->ply != ply)
        TB_FAIL("mismatch %s on board %d at ply %d, expected %s on board %d at ply %d: %s",
                tb_match_mismatch_name(mm->kind), mm->board, mm->ply, tb_match_mismatch_name(kind),
                board, ply, mm->text);
    return mm;
}

static enum tb_match_state state(const struct fixture *f)
{
    struct tb_match_status st;
    tb_match_status(f->m, &st);
    return st.state;
}

static void assert_pair(const struct tb_match_fix *fix, int i, const char *from, const char *to,
                        int piece)
{
    char a[3], b[3];
    ASSERT_LT(i, fix->npairs);
    ASSERT_STR_EQ(tb_chess_square_name(fix->lift_list[i].sq, a), from);
    ASSERT_STR_EQ(tb_chess_square_name(fix->place_list[i].sq, b), to);
    ASSERT_EQ(fix->place_list[i].piece, piece);
}

/* 1.e4 made on the VI board and copied on the sighted board. */
static void play_e4(struct fixture *f)
{
    fx_move(f, 0, "e2e4");
    fx_move(f, 1, "e2e4");
    ASSERT_EQ(tb_match_game(f->m)->plies, 1);
    fx_mark(f);
}

TB_TEST(law_D_2_9_scoresheets_agree_wrong_move_replicated_put_right_by_the_player)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_mark(&f);
    fx_hand(&f, 1, "e2", "e3"); /* the sighted player copies e2e3 instead */

    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_WRONG_MOVE, 1, 1);
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_EQ(mm->agree_plies, 1);
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_EQ(mm->boards, 2u); /* only the sighted board changes */
    ASSERT_FALSE(mm->fix[0].change);
    ASSERT_EQ(mm->fix[1].ntakeback, 0);
    ASSERT_EQ(mm->fix[1].target_ply, 1); /* the position of the scoresheets: after 1.e4 */
    assert_pair(&mm->fix[1], 0, "e3", "e4", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_EQ(mm->fix[1].nlift, 1);
    ASSERT_EQ(mm->fix[1].nplace, 1);
    ASSERT_STR_CONTAINS(mm->text, "e2e3");
    ASSERT_STR_CONTAINS(mm->text, "e2e4");
    ASSERT_STR_CONTAINS(mm->resolution, "move the white pawn on e3 to e4");
    ASSERT_U64_EQ(mm->squares, fx_squares("e2 e3 e4"));
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    /* both players hear that the boards differ; the sighted player how to put it right */
    ASSERT_NOT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_MISMATCH));
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->nplace, 1);
    ASSERT_EQ(a->about_color, 0);
    ASSERT_NULL(fx_find(&f, TB_MATCH_OUT_MOVE_AGREED));

    fx_mark(&f);
    fx_hand(&f, 1, "e3", "e4");
    const struct tb_match_out *r = fx_find(&f, TB_MATCH_OUT_RESOLVED);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(r->u.resolved.id, mm->id);
    ASSERT_FALSE(r->u.resolved.by_arbiter);
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_EQ(ag->u.agreed.ply, 1);
    ASSERT_LT(r->seq, ag->seq);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);

    /* play goes on */
    fx_mark(&f);
    fx_move(&f, 1, "e7e5");
    fx_move(&f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_free(&f);
}

TB_TEST(law_D_2_9_wrong_move_taken_back_then_copied)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "g1f3");
    fx_mark(&f);
    fx_hand(&f, 1, "g1", "h3");
    const struct tb_match_mismatch *mm = new_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_WRONG_MOVE);
    assert_pair(&mm->fix[1], 0, "h3", "f3", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    /* the player takes the knight back to g1 instead: also right; the copy is still due */
    fx_mark(&f);
    fx_hand(&f, 1, "h3", "g1");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    /* reminded once the board has stood still in the position before the copy */
    ASSERT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE));
    fx_wait(&f, 2000);
    ASSERT_NOT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE));
    ASSERT_EQ(tb_match_game(f.m)->plies, 0);
    fx_move(&f, 1, "g1f3");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

TB_TEST(law_D_2_9_scoresheets_differ_out_of_turn_opponent_move_taken_back_by_the_arbiter)
{
    struct fixture f;
    struct tb_error err;
    fx_init(&f, NULL, false);
    /* White is to move, but White's move appears on the sighted (Black's) board, and the VI
     * board does not show it within incomplete_ms (3 s: a copy of a move heard across the
     * table is waited for) */
    fx_move(&f, 1, "d2d4");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_wait(&f, 3000);
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_OUT_OF_TURN, 1, 1);
    ASSERT_FALSE(mm->sheets_agree);
    ASSERT_EQ(mm->agree_plies, 0);
    ASSERT_TRUE(mm->needs_arbiter);
    ASSERT_EQ(mm->fix[1].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[1].takeback[0].uci, "d2d4");
    ASSERT_STR_EQ(mm->fix[1].takeback[0].san, "d4");
    ASSERT_EQ(mm->fix[1].takeback[0].ply, 1);
    ASSERT_EQ(mm->fix[0].ntakeback, 0);
    ASSERT_FALSE(mm->fix[0].change);
    assert_pair(&mm->fix[1], 0, "d4", "d2", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_STR_CONTAINS(mm->resolution, "take back 1.d4 (d2d4)");
    ASSERT_STR_CONTAINS(mm->resolution, "arbiter adjusts the clocks");
    ASSERT_NOT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_ARBITER));
    ASSERT_NOT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_ARBITER));
    uint32_t id = mm->id;

    /* moves on a scoresheet are undone by the arbiter only: putting the pawn back is not enough */
    fx_mark(&f);
    fx_hand(&f, 1, "d4", "d2");
    ASSERT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    ASSERT_EQ(tb_match_resolve(f.m, id + 1, f.t, &err), TB_ERR_NOTFOUND);
    ASSERT_OK(tb_match_resolve(f.m, id, f.t, &err));
    fx_drain(&f);
    const struct tb_match_out *arb = fx_find(&f, TB_MATCH_OUT_ARBITER);
    ASSERT_NOT_NULL(arb);
    ASSERT_EQ(arb->u.arbiter.action, TB_MATCH_ARB_RESOLVE);
    const struct tb_match_out *r = fx_find(&f, TB_MATCH_OUT_RESOLVED);
    ASSERT_NOT_NULL(r);
    ASSERT_TRUE(r->u.resolved.by_arbiter);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    tb_chess_move hist[4];
    ASSERT_EQ(tb_match_history(f.m, 1, hist, 4), 0);

    fx_mark(&f);
    fx_move(&f, 0, "e2e4");
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_move(&f, 1, "e2e4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

/* 1.2, 7.4: the player not to move makes no move: their own piece taken to a square it could
 * go to is displaced (knocked or pushed), put back by its player; nothing is recorded. */
TB_TEST(law_7_4_own_piece_moved_by_the_player_not_to_move_is_displaced)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    /* White to move; Black moves on the sighted board */
    fx_hand(&f, 1, "g8", "f6");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_DISPLACED, 1, 1);
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_FALSE(mm->needs_arbiter);
    assert_pair(&mm->fix[1], 0, "f6", "g8", TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KNIGHT));
    ASSERT_STR_CONTAINS(mm->text, "move the black knight on f6 to g8");
    ASSERT_EQ(mm->fix[1].ntakeback, 0);
    fx_mark(&f);
    fx_hand(&f, 1, "f6", "g8");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_move(&f, 0, "e2e4");
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

TB_TEST(law_D_2_9_two_moves_ahead_opponent_reply_made_on_own_board_arbiter_confirms)
{
    struct fixture f;
    struct tb_error err;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_mark(&f);
    /* before the sighted board copies 1.e4, the VI board shows Black's reply too */
    fx_move(&f, 0, "e7e5");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_TWO_AHEAD, 0, 2);
    ASSERT_FALSE(mm->sheets_agree);
    ASSERT_EQ(mm->agree_plies, 1); /* both scoresheets have 1.e4 */
    ASSERT_TRUE(mm->needs_arbiter);
    ASSERT_EQ(mm->fix[0].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[0].takeback[0].uci, "e7e5");
    ASSERT_STR_CONTAINS(mm->resolution, "take back 1...e5 (e7e5)");
    assert_pair(&mm->fix[0], 0, "e5", "e7", TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    ASSERT_FALSE(mm->fix[1].change); /* the sighted board still copies 1.e4 afterwards */
    ASSERT_STR_CONTAINS(mm->text, "e7e5");

    fx_mark(&f);
    ASSERT_OK(tb_match_resolve(f.m, mm->id, f.t, &err));
    fx_drain(&f);
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    const struct tb_match_announce *a = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->lift[0].sq, tb_chess_square_parse("e5"));
    ASSERT_EQ(a->place[0].sq, tb_chess_square_parse("e7"));
    fx_hand(&f, 0, "e5", "e7");
    const struct tb_match_out *r = fx_find(&f, TB_MATCH_OUT_RESOLVED);
    ASSERT_NOT_NULL(r);
    ASSERT_TRUE(r->u.resolved.by_arbiter);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING); /* 1.e4 still to copy on the sighted board */

    fx_move(&f, 1, "e2e4");
    fx_move(&f, 1, "c7c5");
    fx_move(&f, 0, "c7c5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

/* A second move of one's own that is no move of the game (it goes where the opponent's
 * announced move goes): the scoresheets agree on the announced move; the board is put right
 * to it. (A legal reply made before copying is kept: test_towards.c.) */
TB_TEST(law_D_2_9_moved_again_before_the_opponent_move_was_replicated)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "d2d4");
    fx_move(&f, 1, "d2d4");
    fx_move(&f, 1, "d7d5"); /* Black's reply, announced to the VI player */
    fx_mark(&f);
    fx_hand(&f, 0, "d4", "d5"); /* White pushes on instead of copying 1...d5 */
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_TWO_AHEAD, 0, 2);
    ASSERT_TRUE(mm->sheets_agree); /* both wrote 1...d5 */
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_EQ(mm->boards, 1u);
    ASSERT_STR_CONTAINS(mm->text, "before replicating");
    ASSERT_STR_CONTAINS(mm->resolution, "move the white pawn on d5 to d4");
    fx_mark(&f);
    fx_hand(&f, 0, "d5", "d4");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    ASSERT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_REPLICATE));
    fx_wait(&f, 2000);
    ASSERT_NOT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_REPLICATE));
    fx_move(&f, 0, "d7d5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

TB_TEST(law_7_4_displaced_piece_reported_and_put_back)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    play_e4(&f);
    /* Black to move; a white piece is knocked from b1 to b3 on the VI board */
    fx_hand(&f, 0, "b1", "b4");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_DISPLACED, 0, 2);
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_U64_EQ(mm->fix[0].lift, fx_squares("b4"));
    ASSERT_U64_EQ(mm->fix[0].fill, fx_squares("b1"));
    assert_pair(&mm->fix[0], 0, "b4", "b1", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    ASSERT_STR_CONTAINS(mm->text, "move the white knight on b4 to b1");
    const struct tb_match_announce *a = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->lift[0].piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    /* D.2.3, D.2.9: the player to move makes a legal move on the board that is not in dispute:
     * it stands (not held, nothing to take back), and is announced once play goes on */
    fx_mark(&f);
    fx_move(&f, 1, "e7e5");
    ASSERT_NULL(fx_find(&f, TB_MATCH_OUT_HELD));
    ASSERT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT));
    ASSERT_NULL(fx_announce(&f, 0, true, 0));
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    /* a second Black move on that board is no move of the game: its player hears to put it
     * back */
    fx_hand(&f, 1, "d7", "d6");
    const struct tb_match_announce *back = fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(back);
    ASSERT_EQ(back->nlift, 1);
    ASSERT_EQ(back->lift[0].sq, tb_chess_square_parse("d6"));
    ASSERT_EQ(back->place[0].sq, tb_chess_square_parse("d7"));
    ASSERT_EQ(back->place[0].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    fx_hand(&f, 1, "d6", "d7");
    fx_mark(&f);
    fx_hand(&f, 0, "b4", "b1");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    /* play goes on: 1...e5 is announced to the VI player and waits for its copy */
    const struct tb_match_announce *told = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(told);
    ASSERT_EQ(told->ply, 2);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_move(&f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

TB_TEST(law_7_5_1_illegal_placement_then_a_legal_move)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_hand(&f, 0, "e2", "e5");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_ILLEGAL, 0, 1);
    ASSERT_EQ(mm->square, tb_chess_square_parse("e2"));
    ASSERT_EQ(mm->square2, tb_chess_square_parse("e5"));
    assert_pair(&mm->fix[0], 0, "e5", "e2", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_NOT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_ILLEGAL));
    ASSERT_NOT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_MISMATCH));
    /* the player moves the pawn on to e4: the board is right again and the move counts */
    fx_mark(&f);
    fx_hand(&f, 0, "e5", "e4");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_NOT_NULL(fx_announce(&f, 1, true, 0));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

TB_TEST(law_D_2_3_capture_not_removed)
{
    struct fixture f;
    /* 1...d7d5 has just been played: exd6 e.p. is legal */
    fx_init(&f, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", false);
    fx_lift(&f, 0, "e5");
    fx_place(&f, 0, "d6"); /* the black pawn on d5 is left standing */
    fx_wait(&f, 1000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0); /* a player may still be removing it */
    ASSERT_LE(tb_match_deadline(f.m), f.t + 3000);
    fx_wait(&f, 3000);
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_INCOMPLETE, 0, 1);
    ASSERT_EQ(mm->square, tb_chess_square_parse("d5"));
    ASSERT_STR_CONTAINS(mm->text, "move not complete: remove the captured piece on d5");
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_U64_EQ(mm->fix[0].lift, fx_squares("d5"));
    ASSERT_U64_EQ(mm->fix[0].fill, 0);
    ASSERT_EQ(mm->fix[0].lift_list[0].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    const struct tb_match_announce *a = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->nplace, 0);
    fx_mark(&f);
    fx_lift(&f, 0, "d5");
    fx_wait(&f, 300);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_announce *mv = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(mv);
    ASSERT_EQ(tb_chess_move_kind(mv->move), TB_CHESS_MK_EP);
    fx_lift(&f, 1, "e5");
    fx_place(&f, 1, "d6");
    fx_lift(&f, 1, "d5");
    fx_wait(&f, 300);
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

TB_TEST(law_4_8_touch_reported_not_enforced)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    /* D.2.2: the knight taken out of its hole is touched; then a pawn is moved */
    fx_lift(&f, 0, "g1");
    fx_place(&f, 0, "g1");
    fx_wait(&f, 300);
    fx_hand(&f, 0, "e2", "e4");
    const struct tb_match_out *t = fx_find(&f, TB_MATCH_OUT_TOUCH_REPORT);
    ASSERT_NOT_NULL(t);
    ASSERT_EQ(t->u.touch.board, 0);
    ASSERT_EQ(t->u.touch.ply, 1);
    ASSERT_EQ(t->u.touch.problem, TB_SENSOR_P_TOUCH_MOVE);
    ASSERT_EQ(t->u.touch.square, tb_chess_square_parse("g1"));
    ASSERT_STR_CONTAINS(t->u.touch.text, "4.8");
    /* the move stands: announced and expected on the other board */
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    ASSERT_NOT_NULL(fx_announce(&f, 1, true, 0));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

TB_TEST(arbiter_takeback_both_boards_put_right)
{
    struct fixture f;
    struct tb_error err;
    fx_init(&f, NULL, false);
    play_e4(&f);
    fx_move(&f, 1, "e7e5");
    fx_move(&f, 0, "e7e5");
    fx_mark(&f);
    ASSERT_EQ(tb_match_takeback(f.m, 3, f.t, &err), TB_ERR_ARG);
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_OK(tb_match_takeback(f.m, 2, f.t, &err));
    fx_drain(&f);
    const struct tb_match_out *arb = fx_find(&f, TB_MATCH_OUT_ARBITER);
    ASSERT_NOT_NULL(arb);
    ASSERT_EQ(arb->u.arbiter.action, TB_MATCH_ARB_TAKEBACK);
    ASSERT_EQ(arb->u.arbiter.n, 2);
    ASSERT_EQ(tb_match_game(f.m)->plies, 0);
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    for (int b = 0; b < 2; b++) {
        struct tb_match_fix fix;
        ASSERT_OK(tb_match_board_fix(f.m, b, &fix));
        ASSERT_EQ(fix.npairs, 2);
        ASSERT_NOT_NULL(fx_announce(&f, b, false, TB_MATCH_MSG_PUT_RIGHT));
    }
    fx_hand(&f, 0, "e4", "e2");
    fx_hand(&f, 0, "e5", "e7");
    fx_hand(&f, 1, "e5", "e7");
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING); /* one board still shows 1.e4 */
    fx_hand(&f, 1, "e4", "e2");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_move(&f, 0, "d2d4");
    fx_move(&f, 1, "d2d4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(tb_match_game(f.m)->moves[0],
              tb_chess_move_new(tb_chess_square_parse("d2"), tb_chess_square_parse("d4"), 0));
    fx_free(&f);
}

TB_TEST(arbiter_set_position_waits_for_both_boards_by_snapshot)
{
    struct fixture f;
    struct tb_error err;
    fx_init(&f, NULL, false);
    fx_mark(&f);
    ASSERT_EQ(tb_match_set_position(f.m, "8/8/8/8/8/8/8/8 w - - 0 1", f.t, &err), TB_ERR_PARSE);
    fx_drain(&f);
    ASSERT_EQ(f.nout, f.mark); /* nothing changed */
    const char *fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    ASSERT_OK(tb_match_set_position(f.m, fen, f.t, &err));
    fx_drain(&f);
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    uint64_t occ = fx_squares("e8 e2 e1");
    struct tb_match_event snap = {.kind = TB_MATCH_EV_SNAPSHOT, .occupancy = occ};
    f.t += 100;
    ASSERT_OK(tb_match_board_event(f.m, 0, &snap, f.t));
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    ASSERT_OK(tb_match_board_event(f.m, 1, &snap, f.t));
    fx_drain(&f);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 1, "e2e4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

/* A session with a mismatch and its resolution, as text. */
static void session(char *buf, size_t len)
{
    struct fixture f;
    struct tb_error err;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 0, "e7e5");
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(f.m);
    if (!mm)
        TB_FAIL("no mismatch");
    ASSERT_OK(tb_match_resolve(f.m, mm->id, f.t, &err));
    fx_hand(&f, 0, "e5", "e7");
    fx_move(&f, 1, "e2e4");
    f.mark = 0;
    fx_dump(&f, buf, len);
    fx_free(&f);
}

TB_TEST(same_inputs_same_outputs)
{
    static char a[65536], b[65536];
    session(a, sizeof a);
    session(b, sizeof b);
    ASSERT_GT(strlen(a), 100);
    ASSERT_STR_EQ(a, b);
    ASSERT_STR_CONTAINS(a, "mismatch two-ahead");
    ASSERT_STR_CONTAINS(a, "agreed 1 e4");
}

TB_TEST(law_4_8_touched_but_not_captured_reported_not_enforced)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    play_e4(&f);
    fx_move(&f, 1, "d7d5");
    fx_move(&f, 0, "d7d5");
    fx_mark(&f);
    /* 4.3.2: the black pawn on d5, which exd5 could capture, is touched; a knight moves */
    fx_lift(&f, 0, "d5");
    fx_place(&f, 0, "d5");
    fx_wait(&f, 300);
    fx_hand(&f, 0, "g1", "f3");
    const struct tb_match_out *t = fx_find(&f, TB_MATCH_OUT_TOUCH_REPORT);
    ASSERT_NOT_NULL(t);
    ASSERT_EQ(t->u.touch.problem, TB_SENSOR_P_TOUCHED_NOT_CAPTURED);
    ASSERT_EQ(t->u.touch.square, tb_chess_square_parse("d5"));
    ASSERT_EQ(t->u.touch.ply, 3);
    ASSERT_STR_CONTAINS(t->u.touch.text, "g1f3");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

TB_TEST(law_D_2_3_copy_of_en_passant_not_complete)
{
    struct fixture f;
    fx_init(&f, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", false);
    fx_move(&f, 0, "e5d6");
    fx_mark(&f);
    /* the sighted player copies exd6 but leaves the pawn on d5 */
    fx_lift(&f, 1, "e5");
    fx_place(&f, 1, "d6");
    fx_wait(&f, 3500);
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_INCOMPLETE, 1, 1);
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_U64_EQ(mm->fix[1].lift, fx_squares("d5"));
    ASSERT_FALSE(mm->fix[0].change);
    fx_mark(&f);
    fx_lift(&f, 1, "d5");
    fx_wait(&f, 300);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_STR_EQ(ag->u.agreed.san, "exd6");
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

TB_TEST(arbiter_new_game_waits_for_both_boards)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    play_e4(&f);
    ASSERT_OK(tb_match_new_game(f.m, NULL, f.t));
    fx_drain(&f);
    const struct tb_match_out *arb = fx_find(&f, TB_MATCH_OUT_ARBITER);
    ASSERT_NOT_NULL(arb);
    ASSERT_EQ(arb->u.arbiter.action, TB_MATCH_ARB_NEW_GAME);
    ASSERT_EQ(tb_match_game(f.m)->plies, 0);
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->lift[0].sq, tb_chess_square_parse("e4"));
    ASSERT_EQ(a->place[0].sq, tb_chess_square_parse("e2"));
    fx_hand(&f, 0, "e4", "e2");
    ASSERT_EQ(state(&f), TB_MATCH_RESTORING);
    fx_hand(&f, 1, "e4", "e2");
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    fx_move(&f, 0, "d2d4");
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

TB_TEST(law_D_2_9_moved_twice_in_a_row_before_the_copy)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_mark(&f);
    fx_hand(&f, 0, "d2", "d4"); /* White moves again on the VI board */
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_TWO_AHEAD, 0, 2);
    ASSERT_TRUE(mm->sheets_agree); /* the second move is on no scoresheet */
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_EQ(mm->boards, 1u);
    assert_pair(&mm->fix[0], 0, "d4", "d2", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_STR_CONTAINS(mm->text, "before the opponent replied");
    fx_mark(&f);
    fx_hand(&f, 0, "d4", "d2");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING); /* 1.e4 is still to be copied */
    fx_move(&f, 1, "e2e4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

TB_TEST(law_D_2_1_copy_seen_by_a_snapshot)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "g1f3");
    fx_mark(&f);
    /* the sighted board's link lost the events; its snapshot shows the knight on f3 */
    struct tb_match_event snap = {.kind = TB_MATCH_EV_SNAPSHOT};
    snap.occupancy = (0xFFFF00000000FFFFULL & ~fx_squares("g1")) | fx_squares("f3");
    f.t += 500;
    ASSERT_OK(tb_match_board_event(f.m, 1, &snap, f.t));
    fx_drain(&f);
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_STR_EQ(ag->u.agreed.san, "Nf3");
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

/* One session's board events; ticked every tick_ms (0: only at events) it must give the same
 * outputs at the same times: decisions fall due at their own time, not at the caller's tick. */
static void session_ticked(uint64_t tick_ms, char *buf, size_t len)
{
    static const struct {
        int board;
        const char *what, *sq;
    } script[] = {
        /* 1.e4, copied wrongly, put right */
        {0, "lift", "e2"},
        {0, "place", "e4"},
        {1, "lift", "e2"},
        {1, "place", "e3"},
        {1, "lift", "e3"},
        {1, "place", "e4"},
        /* 1...d5, copied with the e4 pawn in hand for a moment (the copier weighing exd5:
         * no report, the board is part way through the copy and a reply) */
        {1, "lift", "d7"},
        {1, "place", "d5"},
        {0, "lift", "e4"},
        {0, "lift", "d7"},
        {0, "place", "d5"},
        {0, "place", "e4"},
        /* 2.exd5, copied */
        {0, "lift", "e4"},
        {0, "lift", "d5"},
        {0, "place", "d5"},
        {1, "lift", "d5"},
        {1, "lift", "e4"},
        {1, "place", "d5"},
    };
    struct fixture f;
    char line[1400];
    fx_init(&f, NULL, false);
    uint64_t t = f.t;
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        uint64_t at = t + 450;
        while (tick_ms && t + tick_ms < at) {
            t += tick_ms;
            ASSERT_OK(tb_match_tick(f.m, t));
        }
        t = at;
        struct tb_match_event ev = {.square = (uint8_t)tb_chess_square_parse(script[i].sq)};
        ev.kind = script[i].what[0] == 'l' ? TB_MATCH_EV_LIFT : TB_MATCH_EV_PLACE;
        ASSERT_OK(tb_match_board_event(f.m, script[i].board, &ev, t));
    }
    ASSERT_OK(tb_match_tick(f.m, t + 5000));
    fx_drain(&f);
    buf[0] = '\0';
    for (int i = 0; i < f.nout; i++) {
        tb_match_out_format(&f.outs[i], line, sizeof line);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%llu %s\n", (unsigned long long)f.outs[i].ms, line);
    }
    fx_free(&f);
}

TB_TEST(replay_gives_the_same_outputs_whatever_the_tick_rate)
{
    static char a[65536], b[65536], c[65536];
    session_ticked(0, a, sizeof a);
    session_ticked(7, b, sizeof b);
    session_ticked(1000, c, sizeof c);
    ASSERT_STR_CONTAINS(a, "mismatch wrong-move");
    ASSERT_NULL(strstr(a, "put-right +e4")); /* the pawn in hand went back by itself */
    ASSERT_NULL(strstr(a, "#2"));            /* the wrong copy was the only mismatch */
    ASSERT_STR_CONTAINS(a, "agreed 2 d5");
    ASSERT_STR_CONTAINS(a, "agreed 3 exd5");
    ASSERT_STR_EQ(a, b);
    ASSERT_STR_EQ(a, c);
}

TB_TEST(law_4_4_2_rook_released_first_is_a_rook_move)
{
    struct fixture f;
    fx_init(&f, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
    fx_hand(&f, 0, "h1", "f1"); /* 4.7: the rook released on f1 is a rook move */
    ASSERT_NOT_NULL(fx_announce(&f, 1, true, 0));
    fx_mark(&f);
    fx_hand(&f, 0, "e1", "g1"); /* the king follows as if castling */
    const struct tb_match_out *t = fx_find(&f, TB_MATCH_OUT_TOUCH_REPORT);
    ASSERT_NOT_NULL(t);
    ASSERT_EQ(t->u.touch.problem, TB_SENSOR_P_ROOK_FIRST_CASTLING);
    ASSERT_STR_CONTAINS(t->u.touch.text, "4.4.2");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_ILLEGAL, 0, 2);
    ASSERT_TRUE(mm->sheets_agree);
    assert_pair(&mm->fix[0], 0, "g1", "e1", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KING));
    ASSERT_STR_CONTAINS(mm->text, "rook released first");
    fx_mark(&f);
    fx_hand(&f, 0, "g1", "e1");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    fx_move(&f, 1, "h1f1");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

TB_TEST(law_D_2_9_vi_player_black_wrong_copy_of_white_move)
{
    struct fixture f;
    fx_init(&f, NULL, true); /* board 0: the VI player, Black; board 1: sighted, White */
    fx_move(&f, 1, "d2d4");
    const struct tb_match_announce *a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->player, TB_CHESS_BLACK);
    ASSERT_EQ(a->role, TB_MATCH_VI);
    fx_mark(&f);
    fx_hand(&f, 0, "d2", "d3");
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_WRONG_MOVE, 0, 1);
    ASSERT_TRUE(mm->sheets_agree);
    assert_pair(&mm->fix[0], 0, "d3", "d4", TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_STR_CONTAINS(mm->text, "vi board (Black)");
    const struct tb_match_announce *put = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(put);
    ASSERT_EQ(put->player, TB_CHESS_BLACK);
    ASSERT_NOT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_MISMATCH));
    ASSERT_EQ(fx_announce(&f, 1, false, TB_MATCH_MSG_MISMATCH)->about_color, TB_CHESS_BLACK);
    fx_hand(&f, 0, "d3", "d4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_move(&f, 0, "d7d5");
    ASSERT_NOT_NULL(fx_announce(&f, 1, true, 0));
    fx_free(&f);
}

TB_TEST(law_D_2_2_piece_held_while_thinking_is_no_mismatch)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    /* the rook, which cannot move, is touched (D.2.2; 4.5: any move then) and held a while */
    fx_lift(&f, 0, "a1");
    fx_wait(&f, 6000);
    fx_place(&f, 0, "a1");
    fx_wait(&f, 300);
    fx_move(&f, 0, "e2e4");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    ASSERT_NOT_NULL(fx_announce(&f, 1, true, 0));
    /* the copying player may hold a piece too */
    fx_lift(&f, 1, "h8");
    fx_wait(&f, 6000);
    fx_place(&f, 1, "h8");
    fx_wait(&f, 300);
    fx_move(&f, 1, "e2e4");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

TB_TEST(law_7_4_piece_knocked_off_the_board_of_the_player_not_to_move)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_lift(&f, 1, "b8"); /* White to move; a black knight leaves the sighted board */
    fx_wait(&f, 3000);
    const struct tb_match_mismatch *mm = expect_mismatch(&f, TB_MATCH_MM_DISPLACED, 1, 1);
    ASSERT_U64_EQ(mm->fix[1].fill, fx_squares("b8"));
    ASSERT_U64_EQ(mm->fix[1].lift, 0);
    ASSERT_EQ(mm->fix[1].place_list[0].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KNIGHT));
    fx_mark(&f);
    fx_place(&f, 1, "b8");
    fx_wait(&f, 300);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

/* The new outputs must be exactly these lines (tb_match_out_format), in this order. */
static void expect_outputs(struct fixture *f, const char *want)
{
    char dump[8192];
    fx_drain(f);
    fx_dump(f, dump, sizeof dump);
    ASSERT_STR_EQ(dump, want);
    fx_mark(f);
}

/* 1.d4 on the VI board, copied as d2d3 on the sighted board: the scoresheets agree, the sighted
 * board is put right to d4; with confirm the arbiter confirms first (play stays stopped until
 * the board shows it). */
static void wrong_copy_d3(struct fixture *f, bool confirm)
{
    fx_init(f, NULL, false);
    fx_move(f, 0, "d2d4");
    fx_mark(f);
    fx_hand(f, 1, "d2", "d3");
    const struct tb_match_mismatch *mm = expect_mismatch(f, TB_MATCH_MM_WRONG_MOVE, 1, 1);
    ASSERT_STR_CONTAINS(mm->resolution, "move the white pawn on d3 to d4");
    fx_mark(f);
    if (confirm) {
        ASSERT_OK(tb_match_resolve(f->m, mm->id, f->t, NULL));
        /* the instruction is repeated once with the arbiter's word */
        expect_outputs(f, "arbiter resolve #1\n"
                          "say to board 1: put-right -d3 +d4\n"
                          "state restoring #1\n");
    }
}

TB_TEST(law_D_2_9_board_put_right_to_the_announced_move_agrees_it_without_a_reminder)
{
    struct fixture f;
    wrong_copy_d3(&f, false);
    fx_hand(&f, 1, "d3", "d4");
    fx_wait(&f, 5000);
    expect_outputs(&f, "resolved by board: #1 resolved: put right on the board: the move was made\n"
                       "agreed 1 d4 (d2d4)\n"
                       "state in-sync\n");
    fx_free(&f);

    wrong_copy_d3(&f, true);
    fx_hand(&f, 1, "d3", "d4");
    fx_wait(&f, 5000);
    expect_outputs(&f, "resolved by arbiter: #1 resolved: both boards show the resolved "
                       "position; play goes on\n"
                       "agreed 1 d4 (d2d4)\n"
                       "state in-sync\n");
    fx_free(&f);
}

/* The demo's way: the pawn goes back to d2 (the position before the move: the mismatch clears
 * there) and on to d4 at once. The player is making the move; "please copy d2d4" would come
 * when the board already shows it. */
TB_TEST(law_D_2_9_board_put_right_through_the_position_before_the_move_hears_no_reminder)
{
    struct fixture f;
    for (int confirm = 0; confirm <= 1; confirm++) {
        wrong_copy_d3(&f, confirm);
        fx_hand(&f, 1, "d3", "d2");
        fx_hand(&f, 1, "d2", "d4");
        fx_wait(&f, 5000);
        expect_outputs(&f, confirm ? "resolved by arbiter: #1 resolved: both boards show the "
                                     "resolved position; play goes on\n"
                                     "state waiting board 1\n"
                                     "agreed 1 d4 (d2d4)\n"
                                     "state in-sync\n"
                                   : "resolved by board: #1 resolved: put right on the board; "
                                     "play goes on\n"
                                     "state waiting board 1\n"
                                     "agreed 1 d4 (d2d4)\n"
                                     "state in-sync\n");
        ASSERT_EQ(tb_match_game(f.m)->plies, 1);
        fx_free(&f);
    }
}

/* Put back to the position before the move and left there: the copy is still due, and the
 * player hears it once the board has stood still for remind_ms (2 s by default); once only. */
TB_TEST(law_D_2_9_board_left_before_the_move_is_reminded_once_when_it_stands_still)
{
    struct fixture f;
    wrong_copy_d3(&f, true);
    fx_hand(&f, 1, "d3", "d2"); /* placed at t, now t + 300 */
    fx_wait(&f, 1000);
    expect_outputs(&f, "resolved by arbiter: #1 resolved: both boards show the resolved position; "
                       "play goes on\n"
                       "state waiting board 1\n");
    /* a touch (lifted at t + 1600, put back at t + 1900) restarts the wait */
    fx_hand(&f, 1, "d2", "d2");
    fx_wait(&f, 1500); /* t + 3700 */
    expect_outputs(&f, "");
    fx_wait(&f, 300);
    expect_outputs(&f, "say to board 1: replicate d2d4 (ply 1)\n");
    fx_wait(&f, 10000);
    expect_outputs(&f, "");
    fx_hand(&f, 1, "d2", "d4");
    expect_outputs(&f, "agreed 1 d4 (d2d4)\n"
                       "state in-sync\n");
    fx_free(&f);
}

/* After the arbiter's confirmation the instruction was said once more; touching pieces, or
 * lifting the stray pawn and putting it back, adds nothing to it. A piece put where the
 * instruction did not ask gets a new one. */
TB_TEST(law_D_2_9_put_right_instruction_not_repeated_on_every_event)
{
    struct fixture f;
    wrong_copy_d3(&f, true);
    fx_hand(&f, 1, "e2", "e2");
    fx_hand(&f, 1, "d3", "d3");
    fx_hand(&f, 1, "g1", "g1");
    fx_lift(&f, 1, "d3");
    fx_wait(&f, 3000); /* the pawn held in the hand */
    fx_place(&f, 1, "d3");
    fx_wait(&f, 3000);
    expect_outputs(&f, "");
    fx_hand(&f, 1, "d3", "d5");
    expect_outputs(&f, "say to board 1: put-right -d5 +d4\n");
    fx_hand(&f, 1, "b1", "b1");
    expect_outputs(&f, "");
    fx_hand(&f, 1, "d5", "d4");
    expect_outputs(&f, "resolved by arbiter: #1 resolved: both boards show the resolved position; "
                       "play goes on\n"
                       "agreed 1 d4 (d2d4)\n"
                       "state in-sync\n");
    fx_free(&f);
}

/* The put-right list of a board that made a move while play was stopped (held, not counted)
 * names the pieces as they stand after that move: a capture made while held leaves the
 * capturing piece on the captured piece's square. */
TB_TEST(law_D_2_9_put_right_after_a_held_capture_names_the_pieces_as_they_stand)
{
    struct fixture f;
    struct tb_match_fix fix;
    /* Black to move; the white knight on c6 can take the pawn on e7 */
    fx_init(&f, "4k3/4p3/2N5/8/8/8/8/4K3 b - - 0 1", false);
    fx_mark(&f);
    fx_move(&f, 0, "e8f8"); /* Black's move made on the VI (White) board ... */
    fx_wait(&f, 3000);      /* ... and not on the sighted board: play stops */
    expect_mismatch(&f, TB_MATCH_MM_OUT_OF_TURN, 0, 1);
    fx_mark(&f);
    fx_move(&f, 0, "c6e7"); /* the VI player captures on that board while play is stopped */
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_HELD));
    /* the board shows the black king on f8, a white knight on e7, nothing on c6: the king goes
     * back, the knight goes back, a black pawn is put on e7 */
    const struct tb_match_announce *a = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 2);
    ASSERT_EQ(a->nplace, 3);
    ASSERT_OK(tb_match_board_fix(f.m, 0, &fix));
    ASSERT_EQ(fix.npairs, 2);
    ASSERT_U64_EQ(fix.lift, fx_squares("f8 e7"));
    ASSERT_U64_EQ(fix.fill, fx_squares("e8 c6 e7"));
    for (int i = 0; i < fix.nplace; i++) {
        int sq = fix.place_list[i].sq, piece = fix.place_list[i].piece;
        if (sq == tb_chess_square_parse("e7"))
            ASSERT_EQ(piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
        if (sq == tb_chess_square_parse("c6"))
            ASSERT_EQ(piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    }
    /* the open mismatch's own lists (the arbiter's view) follow the board too */
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(f.m);
    ASSERT_NOT_NULL(mm);
    ASSERT_U64_EQ(mm->fix[0].lift, fx_squares("f8 e7"));
    ASSERT_U64_EQ(mm->fix[0].fill, fx_squares("e8 c6 e7"));
    ASSERT_EQ(mm->fix[0].ntakeback, 1);
    fx_free(&f);
}

/* D.2.3, D.2.9: the player to move had a piece in the hand when Black's move appeared on the
 * VI board (out of turn: the VI player moved for the opponent). The sighted player's own move,
 * completed while play is stopped, is the game's move: it stands; only the move the VI player
 * made for the opponent is taken back, and then copied as announced. */
TB_TEST(law_D_2_9_move_in_hand_when_play_stopped_stands)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    play_e4(&f);
    fx_lift(&f, 1, "d7");   /* the sighted player takes the d-pawn up ... */
    fx_move(&f, 0, "g8f6"); /* ... as Black's move is made on the VI board ... */
    fx_wait(&f, 3000);      /* ... and not on the sighted board: play stops */
    const struct tb_match_mismatch *first = expect_mismatch(&f, TB_MATCH_MM_OUT_OF_TURN, 0, 2);
    uint32_t id = first->id;
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(f.m);
    ASSERT_NOT_NULL(mm);
    ASSERT_U64_EQ(mm->fix[1].fill, fx_squares("d7")); /* the pawn is in the hand */
    fx_mark(&f);
    fx_place(&f, 1, "d6"); /* ... and put on d6: Black's move */
    fx_wait(&f, 300);
    ASSERT_NULL(fx_find(&f, TB_MATCH_OUT_HELD));
    mm = tb_match_open_mismatch(f.m);
    ASSERT_NOT_NULL(mm);
    ASSERT_FALSE(mm->fix[1].change);
    ASSERT_EQ(mm->fix[0].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[0].takeback[0].uci, "g8f6");
    ASSERT_OK(tb_match_resolve(f.m, id, f.t, NULL));
    fx_hand(&f, 0, "f6", "g8");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_announce *told = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(told);
    ASSERT_EQ(told->move,
              tb_chess_move_new(tb_chess_square_parse("d7"), tb_chess_square_parse("d6"), 0));
    fx_move(&f, 0, "d7d6");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}
