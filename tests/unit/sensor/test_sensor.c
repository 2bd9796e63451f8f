/* The recogniser against hand-written event scripts, one per rule (scripts/law_*.events), and
 * its API contracts. Each script's `# expect:` lines are the exact outputs, in order; touches
 * are compared only where a script expects one. */
#include <stdio.h>
#include <stdlib.h>

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
    if (ev->kind == TB_SCRIPT_FEN) {
        snprintf(sc->fen, sizeof sc->fen, "%s", ev->text);
        return 0;
    }
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
    FILE *f = fopen(path, "rb");
    if (!f)
        TB_FAIL("cannot open %s", path);
    static char text[16384];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    struct tb_error err;
    memset(sc, 0, sizeof *sc);
    if (tb_script_parse_buffer(text, len, collect, sc, &err) != 0)
        TB_FAIL("%s:%ld: %s", path, err.line, err.msg);
}

/* Runs a script (replicating `expected` when not NULL) and compares outputs with expects. */
static void check(const char *name, const char *expected)
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
        ASSERT_OK(tb_chess_pos_from_fen(&pos, sc.fen, 0, NULL));
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
            /* decided within the blip window of the deciding event (+1 ms) */
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
TB_TEST(law_4_7_several_pieces_in_air)
{
    check("law_4_7_several_pieces_in_air", NULL);
}
