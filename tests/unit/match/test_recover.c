/* The game set from agreed moves alone (tb_match_set_game): what recovery after a damaged
 * journal uses. The boards are taken to show the position; play goes on from it; an illegal
 * list changes nothing; an open mismatch ends without an output. */
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

static tb_chess_move uci_move(const tb_chess_pos *pos, const char *uci)
{
    tb_chess_move m = 0;
    ASSERT_OK(tb_chess_move_parse(pos, uci, &m, NULL));
    return m;
}

TB_TEST(set_game_takes_the_moves_and_play_goes_on_from_them)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    const char *line[] = {"e2e4", "e7e5", "g1f3"};
    tb_chess_move moves[3];
    for (int i = 0; i < 3; i++) {
        tb_chess_undo u;
        moves[i] = uci_move(&pos, line[i]);
        tb_chess_make(&pos, moves[i], &u);
    }
    fx_mark(&f);
    ASSERT_OK(tb_match_set_game(f.m, moves, 3, f.t, NULL));
    fx_drain(&f);
    struct tb_match_status st;
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_IN_SYNC);
    ASSERT_EQ(st.plies, 3);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MOVE_AGREED), 0);
    /* Black to move on the sighted board; the VI board copies it */
    fx_move(&f, 1, "b8c6");
    fx_move(&f, 0, "b8c6");
    ASSERT_EQ(tb_match_game(f.m)->plies, 4);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_free(&f);
}

TB_TEST(set_game_with_an_illegal_move_changes_nothing)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "d2d4");
    fx_move(&f, 1, "d2d4");
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move moves[2] = {uci_move(&pos, "e2e4"), uci_move(&pos, "e2e4")};
    struct tb_error err = {0};
    ASSERT_EQ(tb_match_set_game(f.m, moves, 2, f.t, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_CONTAINS(err.msg, "ply 2");
    ASSERT_EQ(tb_match_game(f.m)->plies, 1);
    ASSERT_EQ(tb_match_game(f.m)->moves[0], uci_move(&pos, "d2d4"));
    fx_free(&f);
}

/* D.2.9: a mismatch the lost events had opened ends quietly once the moves agreed are known. */
TB_TEST(set_game_ends_an_open_mismatch_without_an_output)
{
    struct fixture f;
    fx_init(&f, NULL, false);
    fx_move(&f, 0, "e2e4");
    fx_move(&f, 1, "d2d4"); /* the wrong copy */
    fx_wait(&f, 5000);
    struct tb_match_status st;
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_BLOCKED);
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move e4 = uci_move(&pos, "e2e4");
    fx_mark(&f);
    ASSERT_OK(tb_match_set_game(f.m, &e4, 1, f.t, NULL));
    fx_drain(&f);
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_IN_SYNC);
    ASSERT_EQ(st.plies, 1);
    ASSERT_NULL(tb_match_open_mismatch(f.m));
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), 0);
    fx_free(&f);
}
