/* The recogniser against hand-written event scripts, one per rule (scripts/law_*.events), and
 * its API contracts. Each script's `# expect:` lines are the exact outputs, in order; touches
 * are compared only where a script expects one. */
#include <stdio.h>
#include <stdlib.h>

#include "tb_run.h"
#include "tb_script.h"
#include "tb_sensor.h"
#include "tb_test.h"

struct script {
    struct tb_script_event ev[128];
    int n;
    char fen[TB_SCRIPT_TEXT_MAX];
    bool touches;
};

static int collect(void *user, const struct tb_script_event *ev, long line)
{
    struct script *sc = user;
    (void)line;
    if (sc->n == 128)
        return 1;
    if (ev->kind == TB_SCRIPT_EXPECT && strncmp(ev->text, "touch ", 6) == 0)
        sc->touches = true;
    sc->ev[sc->n++] = *ev;
    return 0;
}

static void load(const char *name, struct script *sc)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.events", TB_SENSOR_SCRIPTS, name);
    size_t len;
    char *text = tb_run_read_file(path, &len);
    struct tb_error err;
    memset(sc, 0, sizeof *sc);
    if (tb_script_parse_buffer(text, len, collect, sc, &err) != 0)
        TB_FAIL("%s:%ld: %s", path, err.line, err.msg);
    ASSERT_GE(tb_script_start_fen(text, len, sc->fen, sizeof sc->fen), 0);
    free(text);
}

/* Runs a script (replicating `expected` when not NULL) and compares outputs with expects.
 * fen_flags: TB_CHESS_FEN_960 for a Chess960 game. */
static void check_fen(const char *name, const char *expected, unsigned fen_flags)
{
    struct script sc;
    tb_sensor *s;
    tb_chess_pos pos;
    struct tb_sensor_out o;
    char got[64][160];
    int ngot = 0;

    load(name, &sc);
    tb_chess_pos_startpos(&pos);
    if (sc.fen[0])
        ASSERT_OK(tb_chess_pos_from_fen(&pos, sc.fen, fen_flags, NULL));
    ASSERT_OK(tb_sensor_new(NULL, &s));
    tb_sensor_reset(s, &pos, 0);
    if (expected) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&pos, expected, &m));
        ASSERT_OK(tb_sensor_set_mode(s, TB_SENSOR_REPLICATING, m));
    }
    for (int i = 0; i <= sc.n; i++) {
        if (i == sc.n)
            tb_sensor_flush(s);
        else if (sc.ev[i].kind != TB_SCRIPT_EXPECT)
            ASSERT_OK(tb_sensor_feed(s, &sc.ev[i]));
        while (tb_sensor_poll(s, &o)) {
            if (o.kind == TB_SENSOR_OUT_TOUCH && !sc.touches)
                continue;
            ASSERT_LT(ngot, 64);
            ASSERT_GT(tb_sensor_out_format(&o, got[ngot], sizeof got[0]), 0);
            /* a move is decided within the blip window of the deciding event (+1 ms) */
            if (o.kind == TB_SENSOR_OUT_MOVE)
                ASSERT_LE(o.ms - o.event_ms, 101);
            ngot++;
        }
    }
    int k = 0;
    for (int i = 0; i < sc.n; i++) {
        if (sc.ev[i].kind != TB_SCRIPT_EXPECT)
            continue;
        if (k >= ngot)
            TB_FAIL("%s: expected '%s', got nothing more", name, sc.ev[i].text);
        if (strcmp(sc.ev[i].text, got[k]) != 0)
            TB_FAIL("%s: output %d: expected '%s', got '%s'", name, k + 1, sc.ev[i].text, got[k]);
        k++;
    }
    if (k < ngot)
        TB_FAIL("%s: unexpected output '%s'", name, got[k]);
    ASSERT_GT(k, 0);
    tb_sensor_free(s);
}

static void check(const char *name, const char *expected)
{
    check_fen(name, expected, 0);
}

TB_TEST(law_4_7_rook_first_castling)
{
    check("law_4_7_rook_first_castling", NULL);
}
TB_TEST(law_4_7_castling_king_first)
{
    check("law_4_7_castling_king_first", NULL);
}
TB_TEST(law_4_4_2_castling_rook_touched_first)
{
    check("law_4_4_2_castling_rook_touched_first", NULL);
}
TB_TEST(law_3_7_4_en_passant_victim_first)
{
    check("law_3_7_4_en_passant_victim_first", NULL);
}
TB_TEST(law_3_7_4_en_passant_pawn_first)
{
    check("law_3_7_4_en_passant_pawn_first", NULL);
}
TB_TEST(law_3_7_4_en_passant_victim_last)
{
    check("law_3_7_4_en_passant_victim_last", NULL);
}
TB_TEST(law_4_6_underpromotion_capture_victim_first)
{
    check("law_4_6_underpromotion_capture_victim_first", NULL);
}
TB_TEST(law_4_6_underpromotion_capture_pawn_first)
{
    check("law_4_6_underpromotion_capture_pawn_first", NULL);
}
TB_TEST(law_4_6_2_promotion_new_piece_before_pawn)
{
    check("law_4_6_2_promotion_new_piece_before_pawn", NULL);
}
TB_TEST(law_4_6_new_piece_first_choice_after)
{
    check("law_4_6_new_piece_first_choice_after", NULL);
}
TB_TEST(law_4_6_new_piece_first_no_choice)
{
    check("law_4_6_new_piece_first_no_choice", NULL);
}
TB_TEST(law_4_6_new_piece_first_black_underpromotion)
{
    check("law_4_6_new_piece_first_black_underpromotion", NULL);
}
TB_TEST(law_7_4_piece_on_promotion_square_left_there)
{
    check("law_7_4_piece_on_promotion_square_left_there", NULL);
}
TB_TEST(law_7_4_victim_dropped_before_the_capture_lands)
{
    check("law_7_4_victim_dropped_before_the_capture_lands", NULL);
}
TB_TEST(law_7_4_stray_right_after_a_capture)
{
    check("law_7_4_stray_right_after_a_capture", NULL);
}
TB_TEST(law_7_5_1_capturing_piece_released_on_a_wrong_square)
{
    check("law_7_5_1_capturing_piece_released_on_a_wrong_square", NULL);
}
TB_TEST(law_7_4_en_passant_victim_dropped_into_a_hole)
{
    check("law_7_4_en_passant_victim_dropped_into_a_hole", NULL);
}
TB_TEST(law_7_5_2_promotion_no_choice)
{
    check("law_7_5_2_promotion_no_choice", NULL);
}
TB_TEST(law_4_3_1_touch_move_breach)
{
    check("law_4_3_1_touch_move_breach", NULL);
}
TB_TEST(law_4_3_2_touched_not_captured)
{
    check("law_4_3_2_touched_not_captured", NULL);
}
TB_TEST(law_7_6_knocked_piece_restored)
{
    check("law_7_6_knocked_piece_restored", NULL);
}
TB_TEST(law_D_2_3_same_side_twice)
{
    check("law_D_2_3_same_side_twice", NULL);
}
TB_TEST(law_7_5_1_illegal_placement_corrected)
{
    check("law_7_5_1_illegal_placement_corrected", NULL);
}
TB_TEST(law_4_7_flyover_blip_not_released)
{
    check("law_4_7_flyover_blip_not_released", NULL);
}
TB_TEST(law_D_2_2_lift_and_put_back_is_touch)
{
    check("law_D_2_2_lift_and_put_back_is_touch", NULL);
}
TB_TEST(law_D_2_9_replicating_wrong_move)
{
    check("law_D_2_9_replicating_wrong_move", "e2e4");
}
TB_TEST(law_4_4_1_king_then_rook_must_castle)
{
    check("law_4_4_1_king_then_rook_must_castle", NULL);
}
TB_TEST(law_4_3_3_same_time_own_piece_first)
{
    check("law_4_3_3_same_time_own_piece_first", NULL);
}
TB_TEST(law_7_6_piece_held_while_moving_another)
{
    check("law_7_6_piece_held_while_moving_another", NULL);
}
TB_TEST(law_4_7_several_pieces_in_air)
{
    check("law_4_7_several_pieces_in_air", NULL);
}
TB_TEST(law_7_4_stray_piece_is_displaced_not_a_move)
{
    check("law_7_4_stray_piece_is_displaced_not_a_move", NULL);
}
TB_TEST(law_7_4_stray_lifted_during_the_move)
{
    check("law_7_4_stray_lifted_during_the_move", NULL);
}
TB_TEST(law_D_2_2_wobble_is_no_touch)
{
    check("law_D_2_2_wobble_is_no_touch", NULL);
}
TB_TEST(law_D_2_9_copy_castling_rook_first)
{
    check("law_D_2_9_copy_castling_rook_first", "e1g1");
}
TB_TEST(law_D_2_9_copy_en_passant_in_any_order)
{
    check("law_D_2_9_copy_en_passant_in_any_order", "e5d6");
}
TB_TEST(law_D_2_9_copy_capture_own_piece_first)
{
    check("law_D_2_9_copy_capture_own_piece_first", "f3e5");
}
TB_TEST(law_D_2_9_copy_rook_at_rest_is_wrong_move)
{
    check("law_D_2_9_copy_rook_at_rest_is_wrong_move", "e1g1");
}
TB_TEST(law_7_5_1_illegal_castling_one_report)
{
    check("law_7_5_1_illegal_castling_one_report", NULL);
}
TB_TEST(guideline_ii_castling_king_and_rook_swap)
{
    check_fen("guideline_ii_castling_king_and_rook_swap", NULL, TB_CHESS_FEN_960);
}
TB_TEST(guideline_ii_castling_king_first_rook_to_kings_square)
{
    check_fen("guideline_ii_castling_king_first_rook_to_kings_square", NULL, TB_CHESS_FEN_960);
}
TB_TEST(guideline_ii_castling_king_only)
{
    check_fen("guideline_ii_castling_king_only", NULL, TB_CHESS_FEN_960);
}
TB_TEST(guideline_ii_castling_rook_only)
{
    check_fen("guideline_ii_castling_rook_only", NULL, TB_CHESS_FEN_960);
}
TB_TEST(guideline_ii_castling_rook_first)
{
    check_fen("guideline_ii_castling_rook_first", NULL, TB_CHESS_FEN_960);
}
TB_TEST(guideline_ii_castling_king_off_the_board_first)
{
    check_fen("guideline_ii_castling_king_off_the_board_first", NULL, TB_CHESS_FEN_960);
}

/* ---- the API around the rules ----------------------------------------------------------- */

static tb_sensor *fresh(const struct tb_sensor_config *cfg, const char *fen)
{
    tb_sensor *s;
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    if (fen)
        ASSERT_OK(tb_chess_pos_from_fen(&pos, fen, 0, NULL));
    ASSERT_OK(tb_sensor_new(cfg, &s));
    tb_sensor_reset(s, &pos, 0);
    return s;
}

/* The next output that is not a touch, formatted; "" if none. */
static const char *next_line(tb_sensor *s, struct tb_sensor_out *o)
{
    static char line[160];
    line[0] = '\0';
    while (tb_sensor_poll(s, o))
        if (o->kind != TB_SENSOR_OUT_TOUCH) {
            tb_sensor_out_format(o, line, sizeof line);
            break;
        }
    return line;
}

TB_TEST(decision_falls_due_at_the_end_of_the_blip_window)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, NULL);
    ASSERT_EQ(tb_sensor_deadline(s), UINT64_MAX);
    ASSERT_OK(tb_sensor_lift(s, 12, 1000));
    ASSERT_OK(tb_sensor_place(s, 28, 0, 1300));
    ASSERT_U64_EQ(tb_sensor_deadline(s), 1400);
    tb_sensor_tick(s, 1399);
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_tick(s, 1400);
    ASSERT_STR_EQ(next_line(s, &o), "e2e4");
    ASSERT_U64_EQ(o.ms, 1400);
    ASSERT_U64_EQ(o.event_ms, 1300);
    ASSERT_EQ(o.square, 12);
    ASSERT_EQ(o.square2, 28);
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_BLACK);
    ASSERT_U64_EQ(tb_sensor_occupancy(s), tb_chess_occupancy(tb_sensor_position(s)));
    ASSERT_EQ(tb_sensor_deadline(s), UINT64_MAX);
    tb_sensor_free(s);
    tb_sensor_free(NULL);
}

TB_TEST(bad_input_is_refused_and_changes_nothing)
{
    struct tb_sensor_out o;
    struct tb_sensor_config cfg;
    tb_sensor *s = fresh(NULL, NULL);
    ASSERT_OK(tb_sensor_lift(s, 12, 1000));
    ASSERT_EQ(tb_sensor_lift(s, 13, 999), TB_ERR_STATE); /* time goes back */
    ASSERT_EQ(tb_sensor_place(s, 64, 0, 1000), TB_ERR_ARG);
    ASSERT_EQ(tb_sensor_lift(s, -1, 1000), TB_ERR_ARG);
    ASSERT_EQ(tb_sensor_place(s, 28, 7, 1000), TB_ERR_ARG); /* no piece code 7 */
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_KING, 1000), TB_ERR_ARG);
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 10), TB_ERR_STATE);
    ASSERT_EQ(tb_sensor_set_mode(s, TB_SENSOR_REPLICATING, tb_chess_move_new(12, 36, 0)),
              TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_sensor_set_mode(s, (enum tb_sensor_mode)7, 0), TB_ERR_ARG);
    ASSERT_OK(tb_sensor_place(s, 28, 0, 1200));
    tb_sensor_flush(s);
    ASSERT_STR_EQ(next_line(s, &o), "e2e4");
    tb_sensor_free(s);
    tb_sensor_config_default(&cfg);
    cfg.blip_ms = 20000;
    ASSERT_EQ(tb_sensor_new(&cfg, &s), TB_ERR_ARG);
    ASSERT_EQ(tb_sensor_new(NULL, NULL), TB_ERR_ARG);
}

/* 4.6, 4.4.4: with promo_wait_ms set, the pawn may stand on the promotion square until the
 * choice arrives (a button after the move); without one the queen comes when the wait ends. */
TB_TEST(law_4_6_pawn_left_standing_until_choice)
{
    struct tb_sensor_out o;
    struct tb_sensor_config cfg;
    tb_sensor_config_default(&cfg);
    cfg.promo_wait_ms = 3000;
    tb_sensor *s = fresh(&cfg, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, 0, 1300));
    tb_sensor_tick(s, 4000);
    ASSERT_STR_EQ(next_line(s, &o), "");
    ASSERT_U64_EQ(tb_sensor_deadline(s), 1400 + 3000);
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_KNIGHT, 4100));
    ASSERT_STR_EQ(next_line(s, &o), "b7b8n");
    ASSERT_EQ(o.flags & TB_SENSOR_MF_QUEEN_ASSUMED, 0);
    ASSERT_U64_EQ(o.event_ms, 4100);
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);

    s = fresh(&cfg, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, 0, 1300));
    tb_sensor_tick(s, 4400);
    ASSERT_STR_EQ(next_line(s, &o), "b7b8q");
    ASSERT_TRUE(o.flags & TB_SENSOR_MF_QUEEN_ASSUMED);
    ASSERT_U64_EQ(o.ms, 4400);
    ASSERT_STR_EQ(next_line(s, &o), "! promotion-no-choice b8 queen assumed");
    tb_sensor_free(s);
}

/* 4.6, 13: by default a promotion waits for its piece with no time limit: after
 * promo_prompt_ms it is reported once (a prompt to say), a choice then decides it, and a choice
 * after the decision is refused (TB_ERR_STATE), never taken silently. */
TB_TEST(law_4_6_promotion_waits_for_the_piece)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 500) == TB_OK, true); /* a pawn can promote */
    tb_sensor_free(s);
    s = fresh(NULL, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, 0, 1300));
    tb_sensor_tick(s, 4399);
    ASSERT_STR_EQ(next_line(s, &o), "");
    ASSERT_U64_EQ(tb_sensor_deadline(s), 1400 + 3000);
    tb_sensor_tick(s, 4400);
    ASSERT_STR_EQ(next_line(s, &o), "! promotion-waiting b8");
    ASSERT_U64_EQ(o.ms, 4400);
    tb_sensor_tick(s, 60000); /* no queen after any time */
    ASSERT_STR_EQ(next_line(s, &o), "");
    ASSERT_U64_EQ(tb_sensor_deadline(s), UINT64_MAX);
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_ROOK, 61000));
    ASSERT_STR_EQ(next_line(s, &o), "b7b8r");
    ASSERT_EQ(o.flags & TB_SENSOR_MF_QUEEN_ASSUMED, 0);
    ASSERT_U64_EQ(o.event_ms, 61000);
    /* too late: Black is to move and has no promotion; nothing changes */
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_KNIGHT, 61500), TB_ERR_STATE);
    ASSERT_EQ(tb_sensor_position(s)->board[57], TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_ROOK));
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

/* 4.6: a choice 0.1-0.9 s after the placement (the move still undecided) is the piece. */
TB_TEST(law_4_6_choice_after_the_placement_is_used)
{
    struct tb_sensor_out o;
    for (uint64_t after = 100; after <= 2000; after += 100) {
        tb_sensor *s = fresh(NULL, "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        ASSERT_OK(tb_sensor_lift(s, 49, 1000));
        ASSERT_OK(tb_sensor_lift(s, 58, 1200)); /* underpromotion with capture on c8 */
        ASSERT_OK(tb_sensor_place(s, 58, 0, 1500));
        ASSERT_OK(tb_sensor_choose(s, TB_CHESS_KNIGHT, 1500 + after));
        tb_sensor_flush(s);
        ASSERT_STR_EQ(next_line(s, &o), "b7c8n");
        ASSERT_STR_EQ(next_line(s, &o), "");
        tb_sensor_free(s);
    }
}

/* 7.5.2: the queen only when the player ends the move without a choice (clock pressed). */
TB_TEST(law_7_5_2_queen_when_the_move_is_ended_without_a_choice)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_EQ(tb_sensor_end_move(s, 500), 0); /* nothing waits */
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, 0, 1300));
    ASSERT_EQ(tb_sensor_end_move(s, 2500), 1);
    ASSERT_STR_EQ(next_line(s, &o), "b7b8q");
    ASSERT_TRUE(o.flags & TB_SENSOR_MF_QUEEN_ASSUMED);
    ASSERT_U64_EQ(o.ms, 2500);
    ASSERT_STR_EQ(next_line(s, &o), "! promotion-no-choice b8 queen assumed");
    ASSERT_EQ(tb_sensor_end_move(s, 2600), 0);
    ASSERT_EQ(tb_sensor_end_move(s, 100), TB_ERR_STATE);
    tb_sensor_free(s);
}

/* D.2.2: the wobble threshold is wobble_ms; a longer lift is a touch. A lift put back while
 * another piece is in the hand is no wobble (a capture's victim swapped at once). */
TB_TEST(law_D_2_2_wobble_threshold_is_configurable)
{
    struct tb_sensor_out o;
    struct tb_sensor_config cfg;
    tb_sensor_config_default(&cfg);
    ASSERT_EQ(cfg.wobble_ms, 100);
    cfg.wobble_ms = 30;
    tb_sensor *s = fresh(&cfg, NULL);
    ASSERT_OK(tb_sensor_lift(s, 1, 1000));
    ASSERT_OK(tb_sensor_place(s, 1, 0, 1020)); /* 20 ms: a wobble */
    ASSERT_OK(tb_sensor_lift(s, 1, 2000));
    ASSERT_OK(tb_sensor_place(s, 1, 0, 2040)); /* 40 ms: a touch */
    tb_sensor_flush(s);
    ASSERT_EQ(tb_sensor_poll(s, &o), 1);
    ASSERT_EQ(o.kind, TB_SENSOR_OUT_TOUCH);
    ASSERT_U64_EQ(o.event_ms, 2000);
    ASSERT_EQ(tb_sensor_poll(s, &o), 0);
    tb_sensor_free(s);
    cfg.wobble_ms = 20000;
    ASSERT_EQ(tb_sensor_new(&cfg, &s), TB_ERR_ARG);
    tb_sensor_config_default(&cfg);
    cfg.settle_ms = 10001;
    ASSERT_EQ(tb_sensor_new(&cfg, &s), TB_ERR_ARG);
}

/* 7.4: a stray stays named (tb_sensor_strays) until it is lifted; a choice with no promotion
 * possible is refused. */
TB_TEST(law_7_4_stray_is_named_until_cleared)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, NULL);
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 100), TB_ERR_STATE);
    ASSERT_OK(tb_sensor_place(s, 36, 0, 1000)); /* a piece from nowhere on e5 */
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next_line(s, &o), "! displaced clear e5");
    ASSERT_U64_EQ(tb_sensor_strays(s), TB_CHESS_BIT(36));
    ASSERT_OK(tb_sensor_lift(s, 12, 2000)); /* e2 lifted: e2-e4 under way, e5 not its square */
    ASSERT_OK(tb_sensor_place(s, 28, 0, 2300));
    tb_sensor_tick(s, 2400);
    ASSERT_STR_EQ(next_line(s, &o), "e2e4");
    ASSERT_U64_EQ(tb_sensor_strays(s), TB_CHESS_BIT(36));
    ASSERT_OK(tb_sensor_lift(s, 36, 3000));
    tb_sensor_flush(s);
    ASSERT_U64_EQ(tb_sensor_strays(s), 0);
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

/* One scan of the board may report a move's placement before its lift (same ms, or within
 * the firmware's debounce): the piece left first, so it is the move, not a stray (7.4). */
TB_TEST(law_4_7_placement_reported_before_the_lift_in_one_scan)
{
    struct tb_sensor_out o;
    for (uint64_t d = 0; d <= 30; d += 15) {
        tb_sensor *s = fresh(NULL, NULL);
        ASSERT_OK(tb_sensor_place(s, 28, 0, 1000));
        ASSERT_OK(tb_sensor_lift(s, 12, 1000 + d));
        tb_sensor_flush(s);
        ASSERT_STR_EQ(next_line(s, &o), "e2e4");
        ASSERT_STR_EQ(next_line(s, &o), "");
        ASSERT_U64_EQ(tb_sensor_strays(s), 0);
        tb_sensor_free(s);
    }
    /* a capture, victim first, whose capturing pawn's lift comes in the scan that sees the
     * pawn land: no wobble on c6, the capture */
    tb_sensor *s = fresh(NULL, "4k3/8/2p5/1P6/8/8/8/4K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 42, 1000));
    ASSERT_OK(tb_sensor_place(s, 42, 0, 1060));
    ASSERT_OK(tb_sensor_lift(s, 33, 1060));
    tb_sensor_flush(s);
    ASSERT_STR_EQ(next_line(s, &o), "b5c6");
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

/* A board that reports piece identity (DGT) gives the promotion piece with the placement. */
TB_TEST(law_4_6_piece_code_names_the_promotion_piece)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_ROOK), 1300));
    tb_sensor_flush(s);
    ASSERT_STR_EQ(next_line(s, &o), "b7b8r");
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

/* Guideline II: a Chess960 rook moved onto its castling square may be the first half of a
 * castling and waits settle_ms for the king; the clock pressed (6.2.1) completes the move as
 * the board shows it, at once. */
TB_TEST(law_6_2_1_clock_press_completes_a_chess960_rook_move)
{
    struct tb_sensor_out o;
    tb_chess_pos pos;
    tb_sensor *s;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1",
                                    TB_CHESS_FEN_960, NULL));
    ASSERT_OK(tb_sensor_new(NULL, &s));
    tb_sensor_reset(s, &pos, 0);
    ASSERT_OK(tb_sensor_lift(s, 7, 1000));     /* h1 */
    ASSERT_OK(tb_sensor_place(s, 5, 0, 1300)); /* f1 */
    tb_sensor_tick(s, 2000);
    ASSERT_STR_EQ(next_line(s, &o), ""); /* the king may still come */
    ASSERT_EQ(tb_sensor_end_move(s, 2000), 1);
    ASSERT_STR_EQ(next_line(s, &o), "h1f1");
    ASSERT_EQ(o.ms, 2000);
    ASSERT_EQ(tb_sensor_end_move(s, 2100), 0);
    tb_sensor_free(s);
}

/* A board that names its pieces (DGT) may show a capture as the victim's square changing piece
 * before the capturing piece's square empties: another piece down at once is no wobble (D.2.2
 * applies to the same piece back in its hole). */
TB_TEST(law_D_2_2_another_piece_down_at_once_is_no_wobble)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, "n3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    ASSERT_OK(tb_sensor_lift(s, 56, 1000));
    ASSERT_OK(tb_sensor_place(s, 56, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_ROOK), 1000));
    ASSERT_OK(tb_sensor_lift(s, 0, 1200));
    tb_sensor_flush(s);
    ASSERT_STR_EQ(next_line(s, &o), "a1a8");
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

/* D.2.1: the copier may name the promotion piece after putting it down; the same piece again
 * changes nothing and is no error, another one comes too late (4.4.4: the choice is final once
 * the new piece has touched the square). */
TB_TEST(law_4_4_4_copier_names_the_piece_after_placing_it)
{
    struct tb_sensor_out o;
    tb_chess_pos pos;
    tb_chess_move m;
    tb_sensor *s;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 0, NULL));
    ASSERT_OK(tb_sensor_new(NULL, &s));
    tb_sensor_reset(s, &pos, 0);
    ASSERT_OK(tb_chess_move_from_uci(&pos, "b7b8r", &m));
    ASSERT_OK(tb_sensor_set_mode(s, TB_SENSOR_REPLICATING, m));
    ASSERT_OK(tb_sensor_lift(s, 49, 1000));
    ASSERT_OK(tb_sensor_place(s, 57, 0, 1300));
    tb_sensor_tick(s, 1500);
    ASSERT_STR_EQ(next_line(s, &o), "b7b8r");
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_ROOK, 1600));
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 1700), TB_ERR_STATE);
    ASSERT_STR_EQ(next_line(s, &o), "");
    tb_sensor_free(s);
}

TB_TEST(snapshot_and_new_position)
{
    struct tb_sensor_out o;
    tb_chess_pos pos;
    tb_chess_move m;
    tb_sensor *s = fresh(NULL, NULL);
    /* a snapshot showing e2 empty and e5 filled: displaced, squares named */
    uint64_t occ = tb_sensor_occupancy(s);
    tb_sensor_set_occupancy(s, (occ & ~TB_CHESS_BIT(12)) | TB_CHESS_BIT(36), 500);
    ASSERT_STR_EQ(next_line(s, &o), "! illegal e2 placed e5");
    tb_sensor_set_occupancy(s, occ, 600);
    /* the game moved on elsewhere (1. e4 on the other board): the board still shows e2 */
    tb_chess_pos_startpos(&pos);
    ASSERT_OK(tb_chess_move_from_uci(&pos, "e2e4", &m));
    tb_chess_undo undo;
    tb_chess_make(&pos, m, &undo);
    tb_sensor_set_position(s, &pos, 700);
    ASSERT_STR_EQ(next_line(s, &o), "! displaced clear e2 fill e4");
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_BLACK);
    tb_sensor_free(s);
}

TB_TEST(output_queue_keeps_the_newest_and_counts_the_dropped)
{
    struct tb_sensor_out o;
    tb_sensor *s = fresh(NULL, NULL);
    uint64_t t = 0;
    /* 40 moves of the knights back and forth: 80 outputs without polling */
    for (int i = 0; i < 40; i++) {
        int from = (i / 2) % 2 == 0 ? (i % 2 ? 62 : 6) : (i % 2 ? 45 : 21);
        int to = (i / 2) % 2 == 0 ? (i % 2 ? 45 : 21) : (i % 2 ? 62 : 6);
        ASSERT_OK(tb_sensor_lift(s, from, t += 500));
        ASSERT_OK(tb_sensor_place(s, to, 0, t += 300));
    }
    tb_sensor_flush(s);
    int n = 0;
    while (tb_sensor_poll(s, &o))
        n++;
    ASSERT_EQ(n, 64);
    ASSERT_EQ(tb_sensor_dropped(s), 40 * 2 - 64);
    ASSERT_EQ(tb_sensor_position(s)->fullmove, 21);
    tb_sensor_free(s);
}

TB_TEST(format_names_every_problem_and_refuses_small_buffers)
{
    struct tb_sensor_out o;
    char buf[8];
    memset(&o, 0, sizeof o);
    o.kind = TB_SENSOR_OUT_PROBLEM;
    o.problem = TB_SENSOR_P_DISPLACED;
    o.clear = TB_CHESS_BIT(28) | TB_CHESS_BIT(27);
    o.fill = TB_CHESS_BIT(12);
    char line[160];
    ASSERT_GT(tb_sensor_out_format(&o, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "! displaced clear d4 e4 fill e2");
    ASSERT_EQ(tb_sensor_out_format(&o, buf, sizeof buf), TB_ERR_FULL);
    ASSERT_STR_EQ(tb_sensor_problem_name(TB_SENSOR_P_SAME_SIDE_TWICE), "same-side-twice");
    ASSERT_STR_EQ(tb_sensor_problem_name(TB_SENSOR_P_WRONG_MOVE), "wrong-move");
    ASSERT_STR_EQ(tb_sensor_problem_name((enum tb_sensor_problem)99), "unknown");
}

/* Whatever a board sends (a random stream of lifts, places and choices at random intervals,
 * noise on occupied and empty squares alike), the recogniser keeps a valid position and only
 * outputs legal moves. */
TB_TEST(random_event_streams_keep_a_valid_game)
{
    uint64_t x = 0x2545f4914f6cdd1dULL;
    int moves = 0;
    for (int game = 0; game < 20; game++) {
        tb_sensor *s = fresh(NULL, NULL);
        tb_chess_pos before = *tb_sensor_position(s);
        uint64_t t = 0;
        for (int i = 0; i < 20000; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t += x % 300;
            int sq = (int)((x >> 20) % 64);
            uint64_t occ = tb_sensor_occupancy(s);
            if (i % 200 == 199) {
                /* a snapshot of the set-up board, then a clean legal move */
                tb_chess_movelist list;
                const tb_chess_pos *p = tb_sensor_position(s);
                int n = tb_chess_gen_legal(p, &list);
                tb_sensor_set_occupancy(s, tb_chess_occupancy(p), t);
                if (n > 0) {
                    struct tb_chess_move_squares ms;
                    tb_chess_move_squares(p, list.moves[x % (uint64_t)n], &ms);
                    ASSERT_OK(tb_sensor_lift(s, ms.from, t += 200));
                    if (ms.capture_sq != TB_CHESS_NOSQ)
                        ASSERT_OK(tb_sensor_lift(s, ms.capture_sq, t += 200));
                    if (ms.rook_from != TB_CHESS_NOSQ && ms.rook_from != ms.from)
                        ASSERT_OK(tb_sensor_lift(s, ms.rook_from, t += 200));
                    ASSERT_OK(tb_sensor_place(s, ms.to, 0, t += 200));
                    if (ms.rook_to != TB_CHESS_NOSQ && ms.rook_to != ms.to)
                        ASSERT_OK(tb_sensor_place(s, ms.rook_to, 0, t += 200));
                    t += 200;
                }
            } else if ((x >> 40) % 50 == 0) {
                /* refused (nothing changes) when no promotion can take it */
                int rc = tb_sensor_choose(s, 2 + (int)((x >> 8) % 4), t);
                ASSERT_TRUE(rc == TB_OK || rc == TB_ERR_STATE);
            } else if ((occ & TB_CHESS_BIT(sq)) ? (x >> 30) % 8 != 0 : (x >> 30) % 8 == 0)
                ASSERT_OK(tb_sensor_lift(s, sq, t));
            else
                ASSERT_OK(tb_sensor_place(s, sq, 0, t));
            struct tb_sensor_out o;
            while (tb_sensor_poll(s, &o)) {
                ASSERT_GE(o.ms, o.event_ms);
                if (o.kind != TB_SENSOR_OUT_MOVE)
                    continue;
                ASSERT_TRUE(tb_chess_is_legal(&before, o.move));
                tb_chess_undo undo;
                tb_chess_make(&before, o.move, &undo);
                moves++;
            }
            ASSERT_OK(tb_chess_pos_check(tb_sensor_position(s)));
        }
        ASSERT_U64_EQ(before.key, tb_sensor_position(s)->key);
        tb_sensor_free(s);
    }
    /* nearly every clean move after a snapshot was recognised (a few games end early) */
    ASSERT_GT(moves, 1900);
}
