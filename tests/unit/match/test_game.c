/* The match in normal play: moves announced to the other player and replicated (D.2.1), whole
 * corpus games kept in sync on both boards, promotion choices, API contracts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_run.h"
#include "tb_test.h"
#include "tb_voice.h"

TB_TEST(law_D_2_1_move_announced_then_expected_on_the_other_board)
{
    struct fixture f;
    struct tb_match_status st;
    char uci[8];
    fx_init(&f, NULL, false);

    fx_move(&f, 0, "e2e4");
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->player, TB_CHESS_BLACK);
    ASSERT_EQ(a->role, TB_MATCH_SIGHTED);
    ASSERT_EQ(a->ply, 1);
    tb_chess_move_to_uci(&a->pos, a->move, uci, sizeof uci);
    ASSERT_STR_EQ(uci, "e2e4");
    ASSERT_NULL(fx_announce(&f, 0, true, 0)); /* the mover is not told their own move */
    ASSERT_NULL(fx_find(&f, TB_MATCH_OUT_MOVE_AGREED));
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_WAITING);
    ASSERT_EQ(st.board, 1);
    ASSERT_EQ(st.plies, 0);
    const struct tb_match_out *s = fx_find(&f, TB_MATCH_OUT_STATE);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(s->u.state.state, TB_MATCH_WAITING);

    fx_mark(&f);
    fx_move(&f, 1, "e2e4");
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_EQ(ag->u.agreed.ply, 1);
    ASSERT_STR_EQ(ag->u.agreed.san, "e4");
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0); /* a replication is not announced */
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_IN_SYNC);
    ASSERT_EQ(st.plies, 1);

    /* Black answers on the sighted board; the VI player hears it */
    fx_mark(&f);
    fx_move(&f, 1, "c7c5");
    a = fx_announce(&f, 0, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(a->ply, 2);
    ASSERT_EQ(a->role, TB_MATCH_VI);
    fx_move(&f, 0, "c7c5");
    ASSERT_EQ(tb_match_game(f.m)->plies, 2);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_MISMATCH), 0);
    fx_free(&f);
}

/* Plays a corpus game through both boards: each move on its player's board, then replicated on
 * the other, by the recogniser's event generator with blips and hesitations. */
static void play_corpus_game(const char *file, long number, bool swap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    size_t size;
    char *buf = tb_run_read_file(path, &size);

    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    struct tb_error err;
    tb_chess_pgn_reader_init(&r, buf, size);
    int rc;
    do {
        rc = tb_chess_pgn_read(&r, g, &err);
    } while (rc == 1 && g->number < number);
    ASSERT_EQ(rc, 1);
    ASSERT_EQ(g->number, number);

    struct fixture f;
    fx_init(&f, NULL, swap);
    struct tb_sensor_gen gen[2];
    struct tb_sensor_gen_config cfg;
    tb_chess_pos pos = g->game.start;
    for (int b = 0; b < 2; b++) {
        tb_sensor_gen_config_default(&cfg);
        cfg.board = b ? "sighted" : "vi";
        cfg.blips = true;
        cfg.hesitations = true;
        ASSERT_OK(tb_sensor_gen_init(&gen[b], &cfg, 1000 + (uint64_t)b));
    }
    int agreed = 0;
    for (int ply = 0; ply < g->game.plies; ply++) {
        tb_chess_move mv = g->game.moves[ply];
        int mover = (pos.side == TB_CHESS_WHITE) == !swap ? 0 : 1;
        for (int k = 0; k < 2; k++) {
            int b = k == 0 ? mover : 1 - mover;
            struct fx_feed fd = {&f, b};
            gen[b].t = f.t;
            rc = tb_sensor_gen_moves(&gen[b], &pos, &mv, 1, fx_feed_event, &fd, &err);
            if (rc < 0)
                TB_FAIL("ply %d on board %d: %d %s", ply + 1, b, rc, err.msg);
            f.t = gen[b].t;
            fx_wait(&f, 400);
        }
        agreed += fx_count(&f, TB_MATCH_OUT_MOVE_AGREED);
        if (fx_count(&f, TB_MATCH_OUT_MISMATCH) || tb_match_game(f.m)->plies != ply + 1) {
            char dump[8192];
            fx_dump(&f, dump, sizeof dump);
            TB_FAIL("%s game %ld ply %d: not agreed:\n%s", file, number, ply + 1, dump);
        }
        fx_mark(&f);
        tb_chess_undo undo;
        tb_chess_make(&pos, mv, &undo);
    }
    const tb_chess_game *mg = tb_match_game(f.m);
    ASSERT_EQ(agreed, g->game.plies);
    ASSERT_EQ(mg->plies, g->game.plies);
    for (int i = 0; i < mg->plies; i++)
        ASSERT_EQ(mg->moves[i], g->game.moves[i]);
    tb_chess_move hist[TB_CHESS_GAME_MAX_PLIES];
    for (int b = 0; b < 2; b++) {
        ASSERT_EQ(tb_match_history(f.m, b, hist, TB_CHESS_GAME_MAX_PLIES), g->game.plies);
        ASSERT_EQ(memcmp(hist, g->game.moves, (size_t)g->game.plies * sizeof hist[0]), 0);
    }
    struct tb_match_status st;
    tb_match_status(f.m, &st);
    ASSERT_EQ(st.state, TB_MATCH_IN_SYNC);
    ASSERT_U64_EQ(tb_match_dropped(f.m), 0);
    fx_free(&f);
    free(g);
    free(buf);
}

TB_TEST(law_D_2_1_whole_game_in_sync_with_en_passant_and_promotion)
{
    /* Khalifman - Popov: castling, en passant and a promotion; the VI player has White */
    play_corpus_game("twic0920.pgn", 197, false);
}

TB_TEST(law_D_2_1_whole_game_in_sync_vi_player_black_underpromotion)
{
    /* Korchenkova - Rassokhina ends with a promotion to a knight (3.7.5); the VI player has Black
     */
    play_corpus_game("twic0920.pgn", 311, true);
}

TB_TEST(law_D_2_1_promotion_choice_from_a_button)
{
    struct fixture f;
    fx_init(&f, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", false);
    fx_lift(&f, 0, "b7");
    f.t += 200;
    /* a `promote n` request names no board: the board of the player to move takes it */
    ASSERT_OK(tb_match_promote(f.m, -1, TB_CHESS_KNIGHT, f.t));
    fx_place(&f, 0, "b8");
    fx_wait(&f, 300);
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(tb_chess_move_promo(a->move), TB_CHESS_KNIGHT);
    fx_hand(&f, 1, "b7", "b8"); /* the copy: the expected piece is known */
    const struct tb_match_out *ag = fx_find(&f, TB_MATCH_OUT_MOVE_AGREED);
    ASSERT_NOT_NULL(ag);
    ASSERT_STR_EQ(ag->u.agreed.uci, "b7b8n");
    ASSERT_FALSE(ag->u.agreed.queen_assumed);
    ASSERT_EQ(tb_match_promote(f.m, 0, TB_CHESS_KING, f.t), TB_ERR_ARG);
    fx_move(&f, 1, "e8e7");
    ASSERT_EQ(tb_match_promote(f.m, -1, TB_CHESS_QUEEN, f.t), TB_ERR_STATE); /* copy pending */
    fx_free(&f);
}

/* 4.6: a promotion without its piece makes no move; after promo_prompt_ms the player is asked
 * (once); 6.2.1, 7.5.2: the clock pressed without a choice gives the queen, flagged in the
 * announcement so the player can be told. */
TB_TEST(law_7_5_2_promotion_waits_asks_and_the_clock_gives_the_queen)
{
    struct fixture f;
    fx_init(&f, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", false);
    fx_mark(&f);
    fx_hand(&f, 0, "b7", "b8");
    fx_wait(&f, 2000);
    ASSERT_NULL(fx_announce(&f, 1, true, 0)); /* no piece, no move */
    ASSERT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_PROMOTION_ASK));
    fx_wait(&f, 1500); /* promo_prompt_ms (3 s) after the placement */
    const struct tb_match_announce *ask = fx_announce(&f, 0, false, TB_MATCH_MSG_PROMOTION_ASK);
    ASSERT_NOT_NULL(ask);
    ASSERT_NULL(fx_announce(&f, 1, false, TB_MATCH_MSG_PROMOTION_ASK)); /* the promoter only */
    fx_mark(&f);
    fx_wait(&f, 10000);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0); /* asked once; still waiting */
    ASSERT_EQ(tb_match_end_move(f.m, 0, f.t), 1);
    fx_drain(&f);
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(tb_chess_move_promo(a->move), TB_CHESS_QUEEN);
    ASSERT_TRUE(a->queen_assumed);
    ASSERT_EQ(tb_match_end_move(f.m, 0, f.t), 0); /* nothing left to end */
    ASSERT_EQ(tb_match_end_move(f.m, 2, f.t), TB_ERR_ARG);
    ASSERT_EQ(tb_match_end_move(f.m, 0, f.t - 1), TB_ERR_STATE);
    fx_free(&f);
}

/* 4.6: the choice after the placement (no prompt yet) decides at once; no queen flag. */
TB_TEST(law_4_6_choice_after_the_placement_decides_at_once)
{
    struct fixture f;
    fx_init(&f, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false);
    fx_mark(&f);
    fx_lift(&f, 0, "b8"); /* axb8: the captured rook off first */
    fx_lift(&f, 0, "a7");
    fx_place(&f, 0, "b8");
    fx_wait(&f, 1000);
    ASSERT_NULL(fx_announce(&f, 1, true, 0));
    ASSERT_OK(tb_match_promote(f.m, 0, TB_CHESS_BISHOP, f.t));
    fx_drain(&f);
    const struct tb_match_announce *a = fx_announce(&f, 1, true, 0);
    ASSERT_NOT_NULL(a);
    ASSERT_EQ(tb_chess_move_promo(a->move), TB_CHESS_BISHOP);
    ASSERT_FALSE(a->queen_assumed);
    ASSERT_NULL(fx_announce(&f, 0, false, TB_MATCH_MSG_PROMOTION_ASK));
    fx_free(&f);
}

TB_TEST(messages_have_the_voice_values)
{
    ASSERT_EQ((int)TB_MATCH_MSG_MISMATCH, (int)TB_VOICE_MSG_MISMATCH);
    ASSERT_EQ((int)TB_MATCH_MSG_ILLEGAL, (int)TB_VOICE_MSG_ILLEGAL);
    ASSERT_EQ((int)TB_MATCH_MSG_WAIT, (int)TB_VOICE_MSG_WAIT);
    ASSERT_EQ((int)TB_MATCH_MSG_REPLICATE, (int)TB_VOICE_MSG_REPLICATE);
    ASSERT_EQ((int)TB_MATCH_MSG_PUT_RIGHT, (int)TB_VOICE_MSG_PUT_RIGHT);
    ASSERT_EQ((int)TB_MATCH_MSG_ARBITER, (int)TB_VOICE_MSG_ARBITER);
    ASSERT_EQ((int)TB_MATCH_MSG_PROMOTION_ASK, (int)TB_VOICE_MSG_PROMOTION_ASK);
    ASSERT_EQ(sizeof(struct tb_match_square_action), sizeof(struct tb_voice_square_action));
}

TB_TEST(bad_configuration_and_inputs_are_refused)
{
    struct tb_match_config cfg;
    struct tb_error err;
    tb_match *m = NULL;
    tb_match_config_default(&cfg);
    cfg.board[1].color = TB_CHESS_WHITE;
    ASSERT_EQ(tb_match_new(&cfg, NULL, 0, &m, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "White");
    ASSERT_NULL(m);
    tb_match_config_default(&cfg);
    strcpy(cfg.board[0].name, "bad name");
    ASSERT_EQ(tb_match_new(&cfg, NULL, 0, &m, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "board 0");
    tb_match_free(NULL);

    struct fixture f;
    fx_init(&f, NULL, false);
    struct tb_match_event ev = {.kind = TB_MATCH_EV_LIFT, .square = 12};
    ASSERT_EQ(tb_match_board_event(f.m, 2, &ev, f.t), TB_ERR_ARG);
    ev.square = 64;
    ASSERT_EQ(tb_match_board_event(f.m, 0, &ev, f.t), TB_ERR_ARG);
    ev.square = 12;
    ASSERT_EQ(tb_match_board_event(f.m, 0, &ev, f.t - 1), TB_ERR_STATE);
    ev.kind = (enum tb_match_event_kind)99;
    ASSERT_EQ(tb_match_board_event(f.m, 0, &ev, f.t), TB_ERR_ARG);
    ASSERT_EQ(tb_match_tick(f.m, f.t - 1), TB_ERR_STATE);
    /* nothing happened */
    fx_drain(&f);
    ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_ANNOUNCE), 0);
    ASSERT_U64_EQ(tb_match_occupancy(f.m, 0), 0xFFFF00000000FFFFULL);
    ASSERT_EQ(tb_match_resolve(f.m, 1, f.t, &err), TB_ERR_NOTFOUND);
    ASSERT_EQ(tb_match_takeback(f.m, 1, f.t, &err), TB_ERR_ARG);
    fx_free(&f);
}

TB_TEST(law_D_2_10_assistant_types_the_moves_of_a_board_without_sensors)
{
    struct tb_match_config cfg;
    struct tb_error err;
    struct tb_match_status st;
    struct tb_match_out o;
    tb_match *m;
    tb_match_config_default(&cfg);
    cfg.board[1].typed = true; /* the sighted player's ordinary board; an assistant types */
    ASSERT_OK(tb_match_new(&cfg, NULL, 0, &m, &err));
    struct tb_match_event ev = {.kind = TB_MATCH_EV_LIFT, .square = 12};
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 100));
    ev.kind = TB_MATCH_EV_PLACE;
    ev.square = 28;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 400));
    ASSERT_OK(tb_match_tick(m, 600));
    tb_match_status(m, &st);
    ASSERT_EQ(st.state, TB_MATCH_WAITING);
    ASSERT_EQ(st.board, 1);

    ASSERT_EQ(tb_match_typed_move(m, 0, "e4", 700, &err), TB_ERR_ARG); /* has sensors */
    ASSERT_EQ(tb_match_typed_move(m, 1, "Ke2", 700, &err), TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_match_typed_move(m, 1, "xyz", 700, &err), TB_ERR_PARSE);
    ASSERT_EQ(tb_match_game(m)->plies, 0);
    ASSERT_OK(tb_match_typed_move(m, 1, "e4", 800, &err)); /* the copy */
    ASSERT_EQ(tb_match_game(m)->plies, 1);
    ASSERT_OK(tb_match_typed_move(m, 1, "Nf6", 900, &err)); /* Black's reply, typed */
    bool heard = false;
    while (tb_match_poll(m, &o))
        if (o.kind == TB_MATCH_OUT_ANNOUNCE && o.u.announce.board == 0 && o.u.announce.is_move)
            heard = o.u.announce.move == tb_chess_move_new(62, 45, 0);
    ASSERT_TRUE(heard);
    tb_match_status(m, &st);
    ASSERT_EQ(st.state, TB_MATCH_WAITING);
    ASSERT_EQ(st.board, 0);

    /* a move out of turn and a wrong copy are typing errors: refused, nothing changes */
    ASSERT_EQ(tb_match_typed_move(m, 1, "d4", 950, &err), TB_ERR_STATE);
    ASSERT_STR_CONTAINS(err.msg, "copied");
    ev.kind = TB_MATCH_EV_LIFT;
    ev.square = 62;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 1000));
    ev.kind = TB_MATCH_EV_PLACE;
    ev.square = 45;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 1300));
    ASSERT_OK(tb_match_tick(m, 1500));
    ASSERT_EQ(tb_match_game(m)->plies, 2);
    ASSERT_EQ(tb_match_typed_move(m, 1, "d4", 1550, &err), TB_ERR_STATE);
    ASSERT_STR_CONTAINS(err.msg, "White is to move");
    ev.kind = TB_MATCH_EV_LIFT;
    ev.square = 11;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 1600));
    ev.kind = TB_MATCH_EV_PLACE;
    ev.square = 27;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 1900));
    ASSERT_OK(tb_match_tick(m, 2100));
    ASSERT_EQ(tb_match_typed_move(m, 1, "d3", 2200, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_CONTAINS(err.msg, "d2d4");
    ASSERT_NULL(tb_match_open_mismatch(m));
    ASSERT_OK(tb_match_typed_move(m, 1, "d4", 2300, &err));
    ASSERT_EQ(tb_match_game(m)->plies, 3);
    tb_chess_move hist[8];
    ASSERT_EQ(tb_match_history(m, 1, hist, 8), 3);

    /* the arbiter takes a move back: the typed board is put right by hand */
    ASSERT_OK(tb_match_takeback(m, 1, 2400, &err));
    ev.kind = TB_MATCH_EV_LIFT;
    ev.square = 27;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 2500));
    ev.kind = TB_MATCH_EV_PLACE;
    ev.square = 11;
    ASSERT_OK(tb_match_board_event(m, 0, &ev, 2800));
    ASSERT_OK(tb_match_tick(m, 3000));
    tb_match_status(m, &st);
    ASSERT_EQ(st.state, TB_MATCH_IN_SYNC);
    ASSERT_EQ(tb_match_history(m, 1, hist, 8), 2);
    tb_match_free(m);
}
