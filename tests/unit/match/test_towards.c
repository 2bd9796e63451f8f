/* Putting right towards the game (D.2.9): the situations of docs/match.md's table, one test
 * each. A move a player made in turn on their own board stands (D.2.3) whatever the other board
 * did; only the board that deviates is put right, and only moves that no player made in turn
 * are taken back. Board 0 is the VI player's (White), board 1 the sighted player's (Black). */
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

static enum tb_match_state state(const struct fixture *f)
{
    struct tb_match_status st;
    tb_match_status(f->m, &st);
    return st.state;
}

static tb_chess_move uci_move(const char *from, const char *to)
{
    return tb_chess_move_new(tb_chess_square_parse(from), tb_chess_square_parse(to), 0);
}

static void fail_with_outputs(const struct fixture *f, const char *what)
{
    static char dump[16384];
    fx_dump(f, dump, sizeof dump);
    TB_FAIL("%s; outputs:\n%s", what, dump);
}

static const struct tb_match_mismatch *open_mismatch(const struct fixture *f)
{
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(f->m);
    if (!mm)
        fail_with_outputs(f, "no open mismatch");
    return mm;
}

/* No board was told to take back or put right anything, nobody was accused. */
static void expect_no_report(const struct fixture *f)
{
    if (fx_count(f, TB_MATCH_OUT_MISMATCH) || fx_count(f, TB_MATCH_OUT_HELD) ||
        fx_count(f, TB_MATCH_OUT_TOUCH_REPORT))
        fail_with_outputs(f, "a report where the Laws allow what was done");
}

/* 1.e4 on the VI board, copied; 1...e5 on the sighted board, copied. */
static void opening(struct fixture *f)
{
    fx_move(f, 0, "e2e4");
    fx_move(f, 1, "e2e4");
    fx_move(f, 1, "e7e5");
    fx_move(f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f->m)->plies, 2);
    fx_mark(f);
}

/* Row 1: the copier makes their own reply, then copies the announced move. */
TB_TEST(law_D_2_9_own_move_first_is_kept)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_mark(&f);
    fx_hand(&f, 1, "e7", "e5"); /* Black's reply, before copying 1.e4 */
    expect_no_report(&f);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_hand(&f, 1, "e2", "e4"); /* the copy */
    expect_no_report(&f);
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_STR_EQ(ag->u.agreed.san, "e4");
    /* the reply is Black's move: announced to the VI player, to copy */
    const struct tb_match_announce *a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("e7", "e5"));
    ASSERT_EQ(a->ply, 2);
    fx_move(&f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    expect_no_report(&f);
    fx_free(&f);
}

/* Row 1 with the VI player copying: the VI player replies first, then copies; the generator's
 * handling orders for both moves. */
TB_TEST(law_D_2_9_own_move_first_on_the_vi_board_is_kept)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    opening(&f);
    fx_move(&f, 0, "g1f3");
    fx_move(&f, 1, "g1f3");
    fx_move(&f, 1, "b8c6"); /* 2...Nc6 announced to the VI player */
    fx_mark(&f);
    fx_hand(&f, 0, "f1", "c4"); /* 3.Bc4 made before copying 2...Nc6 */
    fx_hand(&f, 0, "b8", "c6");
    expect_no_report(&f);
    ASSERT_EQ(tb_match_game(f.m)->plies, 4);
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("f1", "c4"));
    fx_move(&f, 1, "f1c4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 5);
    fx_free(&f);
}

/* Row 2: own reply made, then the board stands: the copy is asked for, nobody is accused. */
TB_TEST(law_D_2_9_own_move_first_board_left_standing_hears_the_copy)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "d2d4");
    fx_mark(&f);
    fx_hand(&f, 1, "g8", "f6");
    fx_wait(&f, 19000);
    ASSERT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE));
    fx_wait(&f, 1500);
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("d2", "d4"));
    expect_no_report(&f);
    fx_hand(&f, 1, "d2", "d4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_NOT_NULL(fx_announce(&f, 0, true, 0));
    fx_move(&f, 0, "g8f6");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* Row 3: own reply made first, then the announced move copied wrongly: the scoresheets agree
 * (1.e4 e5); only the wrong copy is put right, the reply stands. */
TB_TEST(law_D_2_9_own_move_first_then_wrong_copy_puts_right_only_the_copy)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_mark(&f);
    fx_hand(&f, 1, "e7", "e5");
    fx_hand(&f, 1, "e2", "e3");
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_WRONG_MOVE);
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_EQ(mm->boards, 2u);
    ASSERT_EQ(mm->fix[1].target_ply, 2); /* 1.e4 e5 */
    ASSERT_U64_EQ(mm->fix[1].lift, fx_squares("e3"));
    ASSERT_U64_EQ(mm->fix[1].fill, fx_squares("e4"));
    ASSERT_STR_CONTAINS(mm->resolution, "move the white pawn on e3 to e4");
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->lift[0].piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    fx_mark(&f);
    fx_hand(&f, 1, "e3", "e4");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_NOT_NULL(fx_announce(&f, 0, true, 0)); /* 1...e5 to the VI player */
    fx_move(&f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* Row 3b: the wrong copy taken back instead: the board shows the reply alone again, the copy
 * is still due; the mismatch clears, nothing else is asked. */
TB_TEST(law_D_2_9_own_move_first_wrong_copy_taken_back_copy_still_due)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_hand(&f, 1, "e7", "e5");
    fx_hand(&f, 1, "e2", "e3");
    open_mismatch(&f);
    fx_mark(&f);
    fx_hand(&f, 1, "e3", "e2");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_hand(&f, 1, "e2", "e4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_move(&f, 0, "e7e5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* Row 4: a piece knocked over on the board of the player not to move; the player to move
 * makes their move meanwhile. The move stands (not held, nothing to take back); it is told to
 * the other player once that board is put right. */
TB_TEST(law_D_2_9_move_on_the_board_not_in_dispute_stands)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    opening(&f);
    fx_hand(&f, 1, "b8", "b5"); /* White to move; a black knight knocked onto b5 */
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_DISPLACED);
    ASSERT_EQ(mm->board, 1);
    fx_mark(&f);
    fx_move(&f, 0, "g1f3");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    ASSERT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT));
    mm = open_mismatch(&f);
    ASSERT_FALSE(mm->fix[0].change);
    ASSERT_EQ(mm->fix[0].target_ply, 3);
    fx_hand(&f, 1, "b5", "b8");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("g1", "f3"));
    fx_move(&f, 1, "g1f3");
    ASSERT_EQ(tb_match_game(f.m)->plies, 3);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

/* Row 4 after the arbiter's word: the arbiter confirms before the knocked piece is back; the
 * player who moved is not told to take the move back, then or later. */
TB_TEST(law_D_2_9_move_on_the_board_not_in_dispute_stands_after_resolve)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    opening(&f);
    fx_hand(&f, 1, "b8", "a6");
    uint32_t id = open_mismatch(&f)->id;
    fx_move(&f, 0, "g1f3");
    fx_mark(&f);
    ASSERT_OK(tb_match_resolve(f.m, id, f.t, NULL));
    fx_drain(&f);
    ASSERT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT));
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->lift[0].sq, tb_chess_square_parse("a6"));
    ASSERT_EQ(a->place[0].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KNIGHT));
    fx_hand(&f, 1, "a6", "b8");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    fx_move(&f, 1, "g1f3");
    ASSERT_EQ(tb_match_game(f.m)->plies, 3);
    fx_free(&f);
}

/* Row 5: the board ahead (its move waits for the copy) has a piece knocked over. The copier,
 * not in dispute, copies and replies meanwhile: both stand. */
TB_TEST(law_D_2_9_slip_on_the_board_ahead_copy_and_reply_stand)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    opening(&f);
    fx_move(&f, 0, "g1f3");
    fx_hand(&f, 0, "a2", "a4"); /* White moves again: no move of the game */
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->board, 0);
    fx_mark(&f);
    fx_move(&f, 1, "g1f3");
    fx_move(&f, 1, "b8c6");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    ASSERT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_PUT_RIGHT));
    fx_hand(&f, 0, "a4", "a2");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(tb_match_game(f.m)->plies, 3);
    const struct tb_match_announce *a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("b8", "c6"));
    fx_move(&f, 0, "b8c6");
    ASSERT_EQ(tb_match_game(f.m)->plies, 4);
    fx_free(&f);
}

/* Row 6: the VI player made the expected reply on their own board too (two ahead: a move on
 * the VI scoresheet that Black never made). Black then makes that very move: the scoresheets
 * agree again, nothing is taken back and the mismatch clears by itself. */
TB_TEST(law_D_2_9_reply_made_ahead_then_made_by_its_player_agrees)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 0, "e7e5");
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_TWO_AHEAD);
    ASSERT_TRUE(mm->needs_arbiter);
    fx_mark(&f);
    fx_move(&f, 1, "e2e4");
    fx_move(&f, 1, "e7e5");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    fx_free(&f);
}

/* Row 7: the same, but Black replies otherwise: the VI board takes back the move Black never
 * made (the arbiter), Black's move stands and is copied. */
TB_TEST(law_D_2_9_reply_made_ahead_other_reply_stands)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 0, "e7e5");
    uint32_t id = open_mismatch(&f)->id;
    fx_move(&f, 1, "e2e4");
    fx_move(&f, 1, "c7c5");
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_TRUE(mm->needs_arbiter);
    ASSERT_EQ(mm->fix[0].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[0].takeback[0].uci, "e7e5");
    ASSERT_FALSE(mm->fix[1].change);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    ASSERT_OK(tb_match_resolve(f.m, id, f.t, NULL));
    fx_mark(&f);
    fx_hand(&f, 0, "e5", "e7");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    const struct tb_match_announce *a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("c7", "c5"));
    fx_move(&f, 0, "c7c5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* Row 9: the sighted player copies the VI player's move before the VI board shows it (D.2.1:
 * heard as announced across the table): waited for; once the VI player's board shows that
 * move, it is agreed, nobody is accused. */
TB_TEST(law_D_2_1_copy_ahead_of_the_move_agrees_when_the_move_is_made)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_mark(&f);
    fx_hand(&f, 1, "e2", "e4");
    fx_hand(&f, 0, "e2", "e4"); /* within incomplete_ms (3 s) */
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    expect_no_report(&f);
    fx_move(&f, 1, "e7e5"); /* and play goes on */
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}

/* Row 9, the move never comes: after incomplete_ms (3 s) the early copy is reported as the
 * opponent's move on the board of the player not to move. */
TB_TEST(law_D_2_9_copy_ahead_without_the_move_is_out_of_turn)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_mark(&f);
    fx_move(&f, 1, "e2e4");
    fx_wait(&f, 2000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_wait(&f, 1500);
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_OUT_OF_TURN);
    ASSERT_EQ(mm->board, 1);
    ASSERT_EQ(mm->fix[1].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[1].takeback[0].uci, "e2e4");
    /* the VI player's move, made now, is the game's: the early copy agrees with it */
    fx_mark(&f);
    fx_move(&f, 0, "e2e4");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

/* Row 10: the early copy was of a move the VI player did not make: the VI player's own move
 * stands; the sighted board takes back the other (the arbiter) and copies the real one. */
TB_TEST(law_D_2_9_copy_ahead_of_another_move_is_taken_back)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 1, "e2e4");
    fx_mark(&f);
    fx_move(&f, 0, "d2d4");
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_OUT_OF_TURN);
    ASSERT_EQ(mm->board, 1);
    uint32_t id = mm->id;
    ASSERT_FALSE(mm->fix[0].change);
    ASSERT_EQ(mm->fix[1].ntakeback, 1);
    ASSERT_STR_EQ(mm->fix[1].takeback[0].uci, "e2e4");
    ASSERT_OK(tb_match_resolve(f.m, id, f.t, NULL));
    fx_mark(&f);
    fx_hand(&f, 1, "e4", "e2");
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_RESOLVED));
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("d2", "d4"));
    fx_move(&f, 1, "d2d4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    fx_free(&f);
}

/* docs/guide-vi-player.md: "If you wait too long ... you hear what to do." A move waiting for
 * its copy is said again to the copier once the board has stood untouched for copy_remind_ms
 * (20 s by default), then after every further 20 s while it stands so; a board being worked on
 * (a piece in the hand) hears nothing, and the wait starts again from its last change. */
TB_TEST(law_D_2_1_copy_reminder_after_a_long_wait)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4"); /* announced at about f.t */
    fx_mark(&f);
    fx_wait(&f, 19000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    fx_wait(&f, 1500);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 1);
    const struct tb_match_announce *a = fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("e2", "e4"));
    ASSERT_EQ(a->ply, 1);
    fx_mark(&f);
    fx_wait(&f, 20000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 1); /* again, 20 s later */
    fx_mark(&f);
    fx_lift(&f, 1, "e2"); /* the copier takes the pawn and holds it */
    fx_wait(&f, 45000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    fx_place(&f, 1, "e2"); /* put back: the wait starts again */
    fx_wait(&f, 19000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    fx_wait(&f, 1500);
    ASSERT_NOT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_REPLICATE));
    fx_mark(&f);
    fx_move(&f, 1, "e2e4");
    fx_wait(&f, 60000); /* agreed: nothing more to remind */
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_free(&f);
}

TB_TEST(copy_reminder_off_when_configured_zero)
{
    struct tb_match_config cfg;
    struct tb_match_out o;
    tb_match *m;
    tb_match_config_default(&cfg);
    ASSERT_EQ(cfg.copy_remind_ms, 20000u);
    cfg.copy_remind_ms = 0;
    ASSERT_OK(tb_match_new(&cfg, NULL, 0, &m, NULL));
    struct tb_match_event lift = {.kind = TB_MATCH_EV_LIFT, .square = 12};
    struct tb_match_event place = {.kind = TB_MATCH_EV_PLACE, .square = 28};
    ASSERT_OK(tb_match_board_event(m, 0, &lift, 100));
    ASSERT_OK(tb_match_board_event(m, 0, &place, 400));
    ASSERT_OK(tb_match_tick(m, 1000));
    while (tb_match_poll(m, &o))
        ;
    ASSERT_U64_EQ(tb_match_deadline(m), UINT64_MAX);
    ASSERT_OK(tb_match_tick(m, 600000));
    int says = 0;
    while (tb_match_poll(m, &o))
        says += o.kind == TB_MATCH_OUT_ANNOUNCE;
    ASSERT_EQ(says, 0);
    tb_match_free(m);
}

/* 7.4 put right: two black pawns knocked over land on other squares; each is named with its
 * colour wherever it lies (the pieces missing are all black pawns). */
TB_TEST(law_7_4_put_right_names_a_pawn_with_its_colour)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    opening(&f);
    fx_lift(&f, 0, "a7");
    fx_lift(&f, 0, "b7");
    fx_place(&f, 0, "a5");
    fx_place(&f, 0, "b5");
    fx_wait(&f, 3000);
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_DISPLACED);
    const struct tb_match_fix *fix = &mm->fix[0];
    ASSERT_EQ(fix->nlift, 2);
    ASSERT_EQ(fix->nplace, 2);
    for (int i = 0; i < fix->nlift; i++)
        ASSERT_EQ(fix->lift_list[i].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    for (int i = 0; i < fix->nplace; i++)
        ASSERT_EQ(fix->place_list[i].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    ASSERT_STR_CONTAINS(mm->text, "lift the black pawn on a5");
    ASSERT_STR_CONTAINS(mm->text, "place a black pawn on a7");
    ASSERT_NULL(strstr(mm->resolution, "the piece"));
    const struct tb_match_announce *a = fx_announce(&f, 0, false, TB_MATCH_MSG_PUT_RIGHT);
    ASSERT_NOT_NULL(a);
    for (int i = 0; i < a->nlift; i++)
        ASSERT_EQ(a->lift[i].piece, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    fx_free(&f);
}

/* Row 1 with a capture: the copier's own capture made first, its pieces in either order, then
 * the copy; the capture shows only as a piece missing until then. */
TB_TEST(law_D_2_9_own_capture_first_then_copy_counts_both)
{
    struct fixture f;
    fx_init(&f, "4k3/8/8/3p4/4P3/8/8/4K2R w - - 0 1", false);
    fx_move(&f, 0, "h1h2");
    fx_mark(&f);
    fx_lift(&f, 1, "e4"); /* dxe4 before copying Rh2: the piece taken first ... */
    fx_lift(&f, 1, "d5");
    fx_place(&f, 1, "e4"); /* ... and the pawn placed on its square */
    fx_wait(&f, 300);
    fx_hand(&f, 1, "h1", "h2");
    fx_wait(&f, 3000);
    expect_no_report(&f);
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    const struct tb_match_announce *a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, uci_move("d5", "e4"));
    fx_move(&f, 0, "d5e4");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* 7.4: on the board of the player not to move a pawn knocked back onto the square an e.p.
 * capture would fill is no capture under way: reported after lifted_report_ms (2 s). */
TB_TEST(law_7_4_knock_looking_like_en_passant_on_the_idle_board_is_displaced)
{
    struct fixture f;
    fx_init(&f, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 1, "e2e4"); /* Black to move: d4xe3 e.p. is legal */
    fx_mark(&f);
    fx_hand(&f, 0, "e4", "e3"); /* the white pawn knocked back on the VI board */
    fx_wait(&f, 1000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_wait(&f, 1500);
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_DISPLACED);
    ASSERT_EQ(mm->board, 0);
    ASSERT_U64_EQ(mm->fix[0].lift, fx_squares("e3"));
    ASSERT_U64_EQ(mm->fix[0].fill, fx_squares("e4"));
    ASSERT_EQ(mm->fix[0].place_list[0].piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    fx_hand(&f, 0, "e3", "e4");
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_free(&f);
}

/* 7.4: on the copier's board a pawn knocked onto the e.p. square of the move to copy's side:
 * neither the copy nor a reply puts it there; reported after lifted_report_ms. */
TB_TEST(law_7_4_stray_on_the_copier_board_is_displaced)
{
    struct fixture f;
    fx_init(&f, "4k3/2p5/8/3P4/8/8/8/4K2R b - - 0 1", false);
    fx_move(&f, 1, "c7c5");
    fx_move(&f, 0, "c7c5"); /* White to move: d5xc6 e.p. is legal */
    fx_move(&f, 0, "h1h2");
    fx_mark(&f);
    fx_hand(&f, 1, "c5", "c6"); /* the copier knocks the black pawn back */
    fx_wait(&f, 2500);
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_DISPLACED);
    ASSERT_EQ(mm->board, 1);
    ASSERT_U64_EQ(mm->fix[1].lift & fx_squares("c6"), fx_squares("c6"));
    fx_hand(&f, 1, "c6", "c5");
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_move(&f, 1, "h1h2");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_free(&f);
}

/* 4.2, D.2.2: the put-right asks to swap pieces on one square (a black pawn knocked onto the
 * square the white pawn's e.p. capture goes to): the switches read the board right before the
 * swap is done; lifting the black pawn off afterwards, as told, is no touch of the next move. */
TB_TEST(law_4_2_swap_done_as_the_put_right_asks_is_no_touch)
{
    struct fixture f;
    fx_init(&f, "4kb2/3p4/8/2P5/8/8/8/4K3 b - - 0 1", false); /* Bf8 eyes d6 */
    fx_move(&f, 1, "d7d5");
    fx_move(&f, 0, "d7d5");
    fx_move(&f, 0, "c5d6"); /* exd6 e.p. on the VI board, to copy */
    fx_mark(&f);
    fx_hand(&f, 1, "d5", "d6"); /* the copier knocks the black pawn back onto d6 */
    fx_wait(&f, 2500);
    const struct tb_match_mismatch *mm = open_mismatch(&f);
    ASSERT_EQ(mm->kind, TB_MATCH_MM_DISPLACED);
    ASSERT_U64_EQ(mm->fix[1].lift & mm->fix[1].fill, fx_squares("d6"));
    fx_lift(&f, 1, "c5");  /* as told: the white pawn off c5 ... */
    fx_lift(&f, 1, "d6");  /* ... the black pawn off d6 ... */
    fx_place(&f, 1, "d6"); /* ... and the white pawn on d6 */
    fx_wait(&f, 300);
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    fx_move(&f, 1, "e8f7");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_TOUCH_REPORT), 0);
    ASSERT_EQ(state(&f), TB_MATCH_WAITING);
    fx_free(&f);
}
