/* A board that names its pieces (a DGT e-board): pieces swapped or of the wrong colour, where
 * occupancy is right, open a mismatch that names them (D.2.9); it clears only when the pieces
 * are right. Board 0 is the VI player's reed board (White), board 1 the sighted player's DGT
 * board (Black). */
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

static int piece(char c)
{
    return tb_chess_piece_from_fen(c);
}

/* One event on the DGT board 200 ms after the last: a lift, or a placement naming its piece. */
static void dgt(struct fixture *f, const char *sq, char p)
{
    f->t += 200;
    struct tb_match_event ev = {.kind = p ? TB_MATCH_EV_PLACE : TB_MATCH_EV_LIFT,
                                .square = (uint8_t)tb_chess_square_parse(sq),
                                .piece = (uint8_t)(p ? piece(p) : 0)};
    ASSERT_OK(tb_match_board_event(f->m, 1, &ev, f->t));
}

/* The DGT board's first reading: the start position, piece by piece. */
static void dgt_reading(struct fixture *f)
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    struct tb_match_event ev = {
        .kind = TB_MATCH_EV_SNAPSHOT, .occupancy = tb_chess_occupancy(&pos), .has_pieces = true};
    for (int sq = 0; sq < 64; sq++)
        ev.pieces[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    ASSERT_OK(tb_match_board_event(f->m, 1, &ev, f->t));
}

static enum tb_match_state state(const struct fixture *f)
{
    struct tb_match_status st;
    tb_match_status(f->m, &st);
    return st.state;
}

static const struct tb_match_mismatch *swapped(struct fixture *f)
{
    fx_drain(f);
    const struct tb_match_out *o = fx_find(f, TB_MATCH_OUT_MISMATCH);
    if (!o) {
        char dump[8192];
        fx_dump(f, dump, sizeof dump);
        TB_FAIL("no mismatch; outputs:\n%s", dump);
    }
    ASSERT_EQ(o->u.mismatch.kind, TB_MATCH_MM_SWAPPED);
    ASSERT_EQ(o->u.mismatch.board, 1);
    return &o->u.mismatch;
}

/* 1. e4 on the VI board, copied on the DGT board with its pieces. */
static void start(struct fixture *f)
{
    fx_init(f, NULL, false);
    dgt_reading(f);
    fx_move(f, 0, "e2e4");
    dgt(f, "e2", 0);
    dgt(f, "e4", 'P');
    fx_wait(f, 2000);
    ASSERT_EQ(tb_match_game(f->m)->plies, 1);
    fx_drain(f);
    fx_mark(f);
}

TB_TEST(law_D_2_9_knight_and_bishop_swapped_named_and_put_right)
{
    struct fixture f;
    start(&f);
    dgt(&f, "b8", 0);
    dgt(&f, "c8", 0);
    dgt(&f, "b8", 'b');
    dgt(&f, "c8", 'n');
    fx_wait(&f, 1000);
    fx_drain(&f);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0); /* not before the board is quiet */
    fx_wait(&f, 1000);
    const struct tb_match_mismatch *mm = swapped(&f);
    ASSERT_STR_CONTAINS(mm->text, "on b8 a black bishop instead of the black knight");
    ASSERT_STR_CONTAINS(mm->text, "on c8 a black knight instead of the black bishop");
    ASSERT_TRUE(mm->sheets_agree);
    ASSERT_FALSE(mm->needs_arbiter);
    ASSERT_EQ(mm->boards, 2u);
    ASSERT_EQ(mm->fix[1].npairs, 2);
    ASSERT_STR_CONTAINS(mm->resolution, "move the black bishop on b8 to c8");
    ASSERT_STR_CONTAINS(mm->resolution, "move the black knight on c8 to b8");
    ASSERT_EQ(mm->squares, fx_squares("b8 c8"));
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    /* half put right: still blocked */
    dgt(&f, "b8", 0);
    dgt(&f, "c8", 0);
    dgt(&f, "b8", 'n');
    fx_wait(&f, 500);
    if (state(&f) != TB_MATCH_BLOCKED) {
        char dump[8192];
        fx_drain(&f);
        fx_dump(&f, dump, sizeof dump);
        TB_FAIL("not blocked:\n%s", dump);
    }
    dgt(&f, "c8", 'b');
    fx_wait(&f, 500);
    ASSERT_EQ(state(&f), TB_MATCH_IN_SYNC);
    fx_drain(&f);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), 1);
    fx_free(&f);
}

/* A copy made with a piece of the wrong colour stands by occupancy; the board's player moves on
 * before the board is quiet; then it is seen. The other board's move made meanwhile stands
 * (D.2.9 corrects the deviating board only) and does not clear it: only the right piece does. */
TB_TEST(law_D_2_9_wrong_colour_copy_stays_open_until_the_piece_is_right)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    dgt_reading(&f);
    fx_move(&f, 0, "e2e4");
    dgt(&f, "e2", 0);
    dgt(&f, "e4", 'p'); /* a black pawn put for White's */
    dgt(&f, "e7", 0);
    dgt(&f, "e5", 'p');
    fx_wait(&f, 300);
    fx_move(&f, 0, "e7e5");
    fx_wait(&f, 2000);
    const struct tb_match_mismatch *mm = swapped(&f);
    ASSERT_STR_CONTAINS(mm->text, "on e4 a black pawn instead of the white pawn");
    fx_mark(&f);
    fx_move(&f, 0, "g1f3"); /* White moves on meanwhile: the move stands */
    fx_wait(&f, 2000);
    ASSERT_EQ(state(&f), TB_MATCH_BLOCKED);
    dgt(&f, "e4", 0);
    dgt(&f, "e4", 'P');
    fx_wait(&f, 2000);
    ASSERT_TRUE(state(&f) != TB_MATCH_BLOCKED);
    fx_drain(&f);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), 1);
    fx_free(&f);
}

/* A reed board (no pieces named) is never compared: its reading has no pieces. */
TB_TEST(reed_board_reading_without_pieces_is_not_compared)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 1, "e2e4");
    fx_hand(&f, 1, "b8", "b8");
    fx_wait(&f, 3000);
    fx_drain(&f);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_free(&f);
}
