/* Pieces dropped into empty holes (7.4) while moves are made and copied: the move made stands
 * and is announced when it is made (D.2.3, 4.7); the put-right names the stray as the piece it
 * is and never asks to undo a move both scoresheets have. Board 0 is the VI player's (White),
 * board 1 the sighted player's (Black). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

#define WP TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN)

/* One board event dt ms after the last. */
static void ev(struct fixture *f, int board, bool lift, const char *sq, uint64_t dt)
{
    struct tb_match_event e = {.kind = lift ? TB_MATCH_EV_LIFT : TB_MATCH_EV_PLACE};
    e.square = (uint8_t)tb_chess_square_parse(sq);
    f->t += dt;
    ASSERT_OK(tb_match_board_event(f->m, board, &e, f->t));
    fx_drain(f);
}

/* 1.e4 d5 2.Nc3, and Black's 2...dxe4 made on the sighted board: the VI board must copy it. */
static void black_takes_on_e4(struct fixture *f)
{
    fx_init(f, NULL, false);
    fx_move(f, 0, "e2e4");
    fx_move(f, 1, "e2e4");
    fx_move(f, 1, "d7d5");
    fx_move(f, 0, "d7d5");
    fx_move(f, 0, "b1c3");
    fx_move(f, 1, "b1c3");
    fx_move(f, 1, "d5e4");
    fx_mark(f);
}

/* The last put-right said to board 0 since the mark, NULL if none. */
static const struct tb_match_announce *last_put_right(const struct fixture *f)
{
    const struct tb_match_announce *a = NULL;
    for (int i = f->mark; i < f->nout; i++)
        if (f->outs[i].kind == TB_MATCH_OUT_ANNOUNCE && f->outs[i].u.announce.board == 0 &&
            !f->outs[i].u.announce.is_move && f->outs[i].u.announce.msg == TB_MATCH_MSG_PUT_RIGHT)
            a = &f->outs[i].u.announce;
    return a;
}

/* Only "lift the white pawn on e6": nothing to fill, so nothing of the copy is undone. */
static void expect_lift_white_pawn_e6(const struct fixture *f)
{
    const struct tb_match_announce *a = last_put_right(f);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->nlift, 1);
    ASSERT_EQ(a->nplace, 0);
    ASSERT_EQ(a->lift[0].sq, tb_chess_square_parse("e6"));
    ASSERT_EQ(a->lift[0].piece, WP);
}

/* The stray lifted: play goes on with the copy and the reply agreed / announced. */
static void stray_lifted_reply_announced(struct fixture *f)
{
    fx_mark(f);
    ev(f, 0, true, "e6", 300);
    fx_wait(f, 500);
    ASSERT_NOT_NULL(fx_find(f, TB_MATCH_OUT_RESOLVED));
    ASSERT_EQ(fx_count(f, TB_MATCH_OUT_HELD), 0);
    ASSERT_EQ(tb_match_game(f->m)->plies, 4); /* 2...dxe4 agreed */
    const struct tb_match_announce *a = fx_announce(f, 1, true, 0);
    ASSERT_NOT_NULL(a); /* 3.Nxe4 is told to the sighted player */
    char uci[8];
    ASSERT_GT(tb_chess_move_to_uci(&a->pos, a->move, uci, sizeof uci), 0);
    ASSERT_STR_EQ(uci, "c3e4");
}

/* 7.4, D.2.3: the copier lifts the taken white pawn, drops it into the hole e6, completes the
 * copy and replies 3.Nxe4. The stray is reported; once the copy stands the instruction is
 * only to lift the white pawn on e6; the reply stands and is announced when the stray is
 * gone. */
TB_TEST(law_7_4_stray_dropped_during_a_copy_copy_and_reply_stand)
{
    struct fixture f;
    black_takes_on_e4(&f);
    ev(&f, 0, true, "e4", 300);
    ev(&f, 0, false, "e6", 300); /* the white pawn dropped into a hole */
    fx_wait(&f, 200);
    ASSERT_NOT_NULL(fx_find(&f, TB_MATCH_OUT_MISMATCH));
    ASSERT_EQ(fx_find(&f, TB_MATCH_OUT_MISMATCH)->u.mismatch.kind, TB_MATCH_MM_DISPLACED);
    ev(&f, 0, true, "d5", 300);
    ev(&f, 0, false, "e4", 300);
    fx_wait(&f, 500);
    expect_lift_white_pawn_e6(&f); /* the copy stands */
    fx_mark(&f);
    ev(&f, 0, true, "e4", 300);
    ev(&f, 0, true, "c3", 300);
    ev(&f, 0, false, "e4", 300);
    fx_wait(&f, 1000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_HELD), 0);
    ASSERT_NULL(last_put_right(&f)); /* nothing new to say: the reply changed nothing of it */
    stray_lifted_reply_announced(&f);
    fx_free(&f);
}

/* 7.4: the copy completed, then the taken pawn dropped into e6: the stray is the white pawn
 * the copy took (not "a piece"), and the reply made meanwhile stands. */
TB_TEST(law_7_4_stray_dropped_after_a_copy_is_named_as_the_piece_taken)
{
    struct fixture f;
    black_takes_on_e4(&f);
    ev(&f, 0, true, "e4", 300);
    ev(&f, 0, true, "d5", 300);
    ev(&f, 0, false, "e4", 300);
    ev(&f, 0, false, "e6", 300);
    fx_wait(&f, 500);
    ASSERT_EQ(fx_find(&f, TB_MATCH_OUT_MISMATCH)->u.mismatch.kind, TB_MATCH_MM_DISPLACED);
    expect_lift_white_pawn_e6(&f);
    ev(&f, 0, true, "e4", 300);
    ev(&f, 0, true, "c3", 300);
    ev(&f, 0, false, "e4", 300);
    fx_wait(&f, 1000);
    stray_lifted_reply_announced(&f);
    fx_free(&f);
}

/* 4.7, D.2.1: 2.exd5 made with both pawns in the air and the taken pawn dropped into d3
 * before the capturing pawn lands: the capture is announced one blip window after it lands,
 * not when the stray is taken away; the stray is reported as the black pawn. */
TB_TEST(law_4_7_capture_announced_when_made_though_a_stray_lies_on_the_board)
{
    struct fixture f;
    struct tb_match_config cfg;
    tb_match_config_default(&cfg);
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 1, "e2e4");
    fx_move(&f, 1, "d7d5");
    fx_move(&f, 0, "d7d5");
    fx_mark(&f);
    ev(&f, 0, true, "e4", 300);
    ev(&f, 0, true, "d5", 300);
    ev(&f, 0, false, "d3", 300);
    ev(&f, 0, false, "d5", 50);
    uint64_t landed = f.t;
    fx_wait(&f, cfg.sensor.blip_ms + 1);
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->move, tb_chess_move_new(tb_chess_square_parse("e4"), tb_chess_square_parse("d5"),
                                         TB_CHESS_MK_NORMAL));
    const struct tb_match_out *o = fx_find(&f, TB_MATCH_OUT_ANNOUNCE);
    ASSERT_LE(o->ms, landed + cfg.sensor.blip_ms);
    const struct tb_match_out *mm = fx_find(&f, TB_MATCH_OUT_MISMATCH);
    ASSERT_NOT_NULL(mm);
    ASSERT_EQ(mm->u.mismatch.kind, TB_MATCH_MM_DISPLACED);
    ASSERT_EQ(mm->u.mismatch.fix[0].nlift, 1);
    ASSERT_EQ(mm->u.mismatch.fix[0].lift_list[0].piece,
              TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    ASSERT_EQ(mm->u.mismatch.fix[0].nplace, 0);
    fx_free(&f);
}

/* 4.6, D.2.9: the copier replies first (1...g1=N announced, 2.Kb1 made on the VI board), then
 * copies the promotion putting the knight down first and naming it after the pawn left: the
 * choice names the piece of the promotion just made and is taken, not refused, though the copy
 * completed the board's line and moved its recogniser on. */
TB_TEST(law_4_6_copier_names_the_piece_after_copying_the_promotion_behind_their_own_reply)
{
    struct fixture f;
    fx_init(&f, "4k3/8/8/8/8/8/6p1/K7 b - - 0 1", false);
    fx_move(&f, 1, "g2g1n");
    ev(&f, 0, true, "a1", 300); /* the reply before the copy */
    ev(&f, 0, false, "b1", 300);
    fx_wait(&f, 500);
    ev(&f, 0, false, "g1", 300);
    ev(&f, 0, true, "g2", 300);
    fx_wait(&f, 200);
    struct tb_match_event e = {.kind = TB_MATCH_EV_CHOOSE, .piece = TB_CHESS_KNIGHT};
    f.t += 200;
    ASSERT_OK(tb_match_board_event(f.m, 0, &e, f.t));
    fx_wait(&f, 500);
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(tb_chess_move_promo(tb_match_game(f.m)->moves[0]), TB_CHESS_KNIGHT);
    fx_free(&f);
}
