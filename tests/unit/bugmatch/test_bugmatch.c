/* Doorgeefschaak on sensor boards (host/bugmatch): drops recognised from occupancy by the
 * club's articles, the choice a drop of several possible kinds waits for, illegal drops refused
 * with their article, pieces passed to the partner, four clocks, and random two-board matches
 * replayed through two simulated boards to the same BPGN. */
#include <stdio.h>
#include <stdlib.h>

#include "outputs.h"
#include "tb_bugmatch.h"
#include "tb_test.h"

#define SQ(name) (((name)[1] - '1') * 8 + ((name)[0] - 'a'))

/* ---- one board's recogniser with the club's drops ---------------------------------------- */

static tb_sensor *board(const char *fen, const char *white_hand, const char *black_hand)
{
    tb_bug_pos pos;
    tb_sensor *s;
    uint8_t hand[2][6] = {{0}};
    ASSERT_OK(tb_bug_pos_from_fen(&pos, fen, NULL));
    for (int c = 0; c < 2; c++)
        for (const char *p = c ? black_hand : white_hand; *p; p++)
            hand[c][TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(*p))]++;
    ASSERT_OK(tb_sensor_new(NULL, &s));
    tb_sensor_reset(s, &pos.chess, 0);
    tb_sensor_set_drops(s, &tb_bugmatch_drops);
    ASSERT_OK(tb_sensor_set_hand(s, TB_CHESS_WHITE, hand[0], 0));
    ASSERT_OK(tb_sensor_set_hand(s, TB_CHESS_BLACK, hand[1], 0));
    return s;
}

/* The next output as replay prints it, touches skipped; "" when none. */
static const char *next(tb_sensor *s)
{
    static char line[160];
    struct tb_sensor_out o;
    while (tb_sensor_poll(s, &o))
        if (o.kind != TB_SENSOR_OUT_TOUCH) {
            ASSERT_GT(tb_sensor_out_format(&o, line, sizeof line), 0);
            return line;
        }
    return "";
}

static const char *const OPEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TB_TEST(law_2_2_drop_of_the_only_kind_in_hand_is_the_move)
{
    tb_sensor *s = board(OPEN, "N", "");
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "N@e4");
    ASSERT_EQ(tb_sensor_hand(s, TB_CHESS_WHITE)[TB_CHESS_KNIGHT], 0);
    ASSERT_EQ(tb_sensor_position(s)->board[SQ("e4")], TB_CHESS_PIECE(0, TB_CHESS_KNIGHT));
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_BLACK);
    tb_sensor_free(s);
}

/* D.2.1 / D.2.3: a move is made when announced, and a drop of several possible kinds cannot
 * be announced before its kind is known: it waits for the choice as a promotion does (4.6),
 * asks for it after promo_prompt_ms, and a choice after the placement decides it. */
TB_TEST(law_2_2_ambiguous_drop_waits_for_the_choice)
{
    tb_sensor *s = board(OPEN, "NB", "");
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 2000);
    ASSERT_STR_EQ(next(s), "");
    int sq;
    unsigned kinds;
    ASSERT_EQ(tb_sensor_waiting(s, &sq, &kinds), TB_SENSOR_WAIT_DROP);
    ASSERT_EQ(sq, SQ("e4"));
    ASSERT_EQ(kinds, (1u << TB_CHESS_KNIGHT) | (1u << TB_CHESS_BISHOP));
    ASSERT_OK(tb_sensor_end_move(s, 2500)); /* no default kind: still waiting */
    ASSERT_STR_EQ(next(s), "");
    tb_sensor_tick(s, 4200);
    ASSERT_STR_EQ(next(s), "! drop-waiting e4 b n");
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_BISHOP, 5000));
    ASSERT_STR_EQ(next(s), "B@e4");
    ASSERT_EQ(tb_sensor_waiting(s, NULL, NULL), TB_SENSOR_WAIT_NONE);
    tb_sensor_free(s);
}

TB_TEST(law_2_2_choice_before_the_placement_is_kept_for_the_drop)
{
    tb_sensor *s = board(OPEN, "NBP", "");
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_PAWN, 500));
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "P@e4");
    /* the player names it again afterwards: nothing changes */
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_PAWN, 1200));
    ASSERT_STR_EQ(next(s), "");
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_BLACK);
    tb_sensor_free(s);
}

/* 2.5: with a pawn and a knight in hand, a piece put on the 8th rank can only be the knight. */
TB_TEST(law_2_5_pawn_never_on_the_first_or_eighth_rank)
{
    tb_sensor *s = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "PN", "");
    ASSERT_OK(tb_sensor_place(s, SQ("a8"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "N@a8");
    tb_sensor_free(s);
    /* a pawn alone: refused with its article; the piece must go back (it is no move) */
    s = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "P", "");
    ASSERT_OK(tb_sensor_place(s, SQ("h1"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "! illegal-drop h1 p 2.5");
    ASSERT_EQ(tb_sensor_strays(s), TB_CHESS_BIT(SQ("h1")));
    ASSERT_OK(tb_sensor_lift(s, SQ("h1"), 2000));
    ASSERT_OK(tb_sensor_place(s, SQ("h2"), 0, 2500));
    tb_sensor_tick(s, 2600);
    ASSERT_STR_EQ(next(s), "P@h2");
    tb_sensor_free(s);
}

/* A choice of a kind that may not go where the waiting drop stands is refused with the
 * article; the drop still waits for a kind that may. */
TB_TEST(law_2_5_choice_of_a_pawn_on_the_eighth_rank_is_refused)
{
    tb_sensor *s = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "PNB", "");
    ASSERT_OK(tb_sensor_place(s, SQ("a8"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_EQ(tb_sensor_waiting(s, NULL, NULL), TB_SENSOR_WAIT_DROP);
    ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_PAWN, 1500), TB_ERR_ILLEGAL);
    ASSERT_STR_EQ(next(s), "! illegal-drop a8 p 2.5");
    ASSERT_EQ(tb_sensor_waiting(s, NULL, NULL), TB_SENSOR_WAIT_DROP);
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_KNIGHT, 1600));
    ASSERT_STR_EQ(next(s), "N@a8");
    tb_sensor_free(s);
}

/* The hand-written set: each illegal drop put on a sensor board, its kind certain (the only
 * kind in hand, or chosen before), is refused with its article and is no move. */
TB_TEST(law_2_2_to_2_5_every_illegal_drop_on_a_board_is_refused_with_its_article)
{
    static const struct {
        const char *fen, *hand, *choice, *square, *want;
    } cases[] = {
        /* 2.4: a knight that would check */
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "N", "", "d6", "! illegal-drop d6 n 2.4"},
        /* 2.4: a rook on the king's file, a bishop on its diagonal, a queen next to it */
        {"4k3/8/8/8/8/8/8/K7 w - - 0 1", "R", "", "e2", "! illegal-drop e2 r 2.4"},
        {"4k3/8/8/8/8/8/8/K7 w - - 0 1", "B", "", "b5", "! illegal-drop b5 b 2.4"},
        {"4k3/8/8/8/8/8/8/K7 w - - 0 1", "Q", "", "d8", "! illegal-drop d8 q 2.4"},
        /* 2.4: a pawn that would check (Black's pawn attacks downwards) */
        {"8/8/8/8/8/8/4K3/k7 b - - 0 1", "", "p", "d3", "! illegal-drop d3 p 2.4"},
        /* 2.5: a pawn on the 1st and on the 8th rank */
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "P", "", "a1", "! illegal-drop a1 p 2.5"},
        {"4k3/8/8/8/8/8/8/K7 b - - 0 1", "", "p", "h8", "! illegal-drop h8 p 2.5"},
        /* FIDE 3.9 (1.5): in check, a drop that does not block the check */
        {"4r2k/8/8/8/8/8/8/4K3 w - - 0 1", "N", "", "a3", "! illegal-drop a3 n 1.5 (FIDE 3.9)"},
        /* the kind chosen before the placement decides the article: 2.5 for the pawn */
        {"4k3/8/8/8/8/8/8/K7 w - - 0 1", "PN", "p", "c8", "! illegal-drop c8 p 2.5"},
        /* 2.2: a kind chosen that is not in hand */
        {"4k3/8/8/8/8/8/8/K7 w - - 0 1", "PN", "q", "c4", "! illegal-drop c4 q 2.2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool black = strstr(cases[i].fen, " b ") != NULL;
        const char *hand = *cases[i].hand ? cases[i].hand : cases[i].choice;
        tb_sensor *s = board(cases[i].fen, black ? "" : hand, black ? hand : "");
        char c = *cases[i].choice;
        if (c && strchr(cases[i].hand, (char)(c - 'a' + 'A')))
            ASSERT_OK(tb_sensor_choose(s, TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(c)), 500));
        else if (c == 'q') /* not in hand: the recogniser takes no choice it cannot use */
            ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 500), TB_ERR_STATE);
        ASSERT_OK(tb_sensor_place(s, SQ(cases[i].square), 0, 1000));
        tb_sensor_tick(s, 1100);
        const char *got = next(s);
        if (c == 'q') { /* the knight would do: the kind is asked, a queen refused with 2.2 */
            ASSERT_EQ(tb_sensor_choose(s, TB_CHESS_QUEEN, 1200), TB_ERR_ILLEGAL);
            got = next(s);
        }
        if (strcmp(got, cases[i].want) != 0)
            TB_FAIL("case %zu: got \"%s\", want \"%s\"", i, got, cases[i].want);
        ASSERT_EQ(tb_sensor_position(s)->side, black ? TB_CHESS_BLACK : TB_CHESS_WHITE);
        tb_sensor_free(s);
    }
}

/* 7.4: with nothing in hand a piece put on an empty square is displaced, as in chess. */
TB_TEST(law_7_4_nothing_in_hand_a_placement_is_a_stray)
{
    tb_sensor *s = board(OPEN, "", "");
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "! displaced clear e4");
    /* a piece arriving in the hand later does not turn the stray into a drop */
    uint8_t hand[6] = {0, 0, 1, 0, 0, 0};
    ASSERT_OK(tb_sensor_set_hand(s, TB_CHESS_WHITE, hand, 1200));
    tb_sensor_tick(s, 3000);
    ASSERT_STR_EQ(next(s), "");
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_WHITE);
    tb_sensor_free(s);
}

/* A magnet carried over an empty square, a piece wobbling in its hole, a piece knocked onto
 * another square: none of them is a drop, whatever the hand holds (4.7, D.2.2, 7.4). */
TB_TEST(law_4_7_blips_wobbles_and_knocks_never_make_a_drop)
{
    tb_sensor *s = board(OPEN, "QRBNP", "");
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000)); /* fly-over: lifted within 100 ms */
    ASSERT_OK(tb_sensor_lift(s, SQ("e4"), 1060));
    ASSERT_OK(tb_sensor_lift(s, SQ("b2"), 1500)); /* wobble in the hole */
    ASSERT_OK(tb_sensor_place(s, SQ("b2"), 0, 1540));
    tb_sensor_tick(s, 3000);
    ASSERT_STR_EQ(next(s), "");
    /* Black's knight knocked from b8 to b6 and put back */
    ASSERT_OK(tb_sensor_lift(s, SQ("b8"), 4000));
    ASSERT_OK(tb_sensor_place(s, SQ("b6"), 0, 4080));
    tb_sensor_tick(s, 4500);
    ASSERT_STR_EQ(next(s), "! displaced clear b6 fill b8");
    ASSERT_OK(tb_sensor_lift(s, SQ("b6"), 5000));
    ASSERT_OK(tb_sensor_place(s, SQ("b8"), 0, 5400));
    tb_sensor_tick(s, 8000);
    ASSERT_STR_EQ(next(s), "");
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_WHITE);
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        ASSERT_EQ(tb_sensor_hand(s, TB_CHESS_WHITE)[t], 1);
    /* and then a real drop is read */
    ASSERT_OK(tb_sensor_choose(s, TB_CHESS_ROOK, 8500));
    ASSERT_OK(tb_sensor_place(s, SQ("d4"), 0, 9000));
    tb_sensor_tick(s, 9100);
    ASSERT_STR_EQ(next(s), "R@d4");
    tb_sensor_free(s);
}

/* The piece lifted again while the drop waits for its kind: no drop, nothing waits. */
TB_TEST(law_4_1_waiting_drop_taken_back_is_no_move)
{
    tb_sensor *s = board(OPEN, "NB", "");
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 1500);
    ASSERT_EQ(tb_sensor_waiting(s, NULL, NULL), TB_SENSOR_WAIT_DROP);
    ASSERT_OK(tb_sensor_lift(s, SQ("e4"), 1600));
    tb_sensor_tick(s, 6000);
    ASSERT_STR_EQ(next(s), "");
    ASSERT_EQ(tb_sensor_waiting(s, NULL, NULL), TB_SENSOR_WAIT_NONE);
    ASSERT_EQ(tb_sensor_position(s)->side, TB_CHESS_WHITE);
    tb_sensor_free(s);
}

/* Copying a drop made on the other board (REPLICATING): the expected kind is known. */
TB_TEST(law_D_2_9_copy_of_a_drop_needs_no_choice)
{
    tb_sensor *s = board(OPEN, "NB", "");
    ASSERT_OK(
        tb_sensor_set_mode(s, TB_SENSOR_REPLICATING, tb_bug_move_drop(TB_CHESS_BISHOP, SQ("e4"))));
    ASSERT_OK(tb_sensor_place(s, SQ("e4"), 0, 1000));
    tb_sensor_tick(s, 1100);
    ASSERT_STR_EQ(next(s), "B@e4");
    tb_sensor_free(s);
}

/* ---- the match of two boards ------------------------------------------------------------- */

static tb_bugmatch *new_match(void)
{
    tb_bugmatch *m;
    struct tb_error err;
    ASSERT_OK(tb_bugmatch_new(NULL, &m, &err));
    return m;
}

/* All outputs so far as lines, "|" between. */
static const char *drain(tb_bugmatch *m)
{
    return bugmatch_lines(m);
}

static void move(tb_bugmatch *m, int b, const char *from, const char *to, bool capture, uint64_t *t)
{
    if (capture)
        ASSERT_OK(tb_bugmatch_lift(m, b, SQ(to), *t += 300));
    ASSERT_OK(tb_bugmatch_lift(m, b, SQ(from), *t += 300));
    ASSERT_OK(tb_bugmatch_place(m, b, SQ(to), 0, *t += 300));
    ASSERT_OK(tb_bugmatch_press(m, b, *t += 500));
}

/* 2.1, 1.4: White on A takes a knight; it goes to Black on B (White A's partner), who is
 * told and holds it (2.6), and drops it with the only kind in hand. */
TB_TEST(law_2_1_taken_piece_goes_to_the_partner_who_is_told)
{
    tb_bugmatch *m = new_match();
    uint64_t t = 0;
    ASSERT_OK(tb_bugmatch_press(m, 0, t)); /* 6.4: both clocks start */
    ASSERT_EQ(tb_bugmatch_clock(m, 0)->state, TB_CLOCK_RUNNING);
    ASSERT_EQ(tb_bugmatch_clock(m, 1)->state, TB_CLOCK_RUNNING);
    move(m, 0, "e2", "e4", false, &t);
    move(m, 0, "g8", "f6", false, &t);
    move(m, 0, "b1", "c3", false, &t);
    move(m, 0, "f6", "e4", true, &t);
    ASSERT_STR_CONTAINS(drain(m), "A Black: Nxe4|A Black: ply 4 completed");
    move(m, 0, "c3", "e4", true, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: Nxe4|A White: ply 5 completed");
    ASSERT_STR_CONTAINS(out, "B Black receives: knight");
    uint8_t pool[6];
    tb_bugmatch_pool(m, 3, pool);
    ASSERT_EQ(pool[TB_CHESS_KNIGHT], 1);
    ASSERT_OK(tb_bugmatch_ask_pool(m, 3, t += 10));
    ASSERT_STR_EQ(drain(m), "B Black holds: 1 knight");
    /* board B: White plays, Black drops the knight */
    move(m, 1, "d2", "d4", false, &t);
    ASSERT_OK(tb_bugmatch_place(m, 1, SQ("c6"), 0, t += 500));
    ASSERT_OK(tb_bugmatch_press(m, 1, t += 500));
    out = drain(m);
    ASSERT_STR_CONTAINS(out, "B Black: N@c6");
    const tb_bug_record *rec = tb_bugmatch_record(m);
    ASSERT_EQ(rec->nplies, 7);
    ASSERT_EQ(rec->plies[6].move, tb_bug_move_drop(TB_CHESS_KNIGHT, SQ("c6")));
    ASSERT_GT(rec->plies[6].clock_ms, 0);
    ASSERT_LT(rec->plies[6].clock_ms, 7 * 60 * 1000);
    tb_bugmatch_free(m);
}

/* What each player hears (D.2.1 and [bughouse] of the packs): the opponent's moves and drops,
 * the piece the partner passes, the pieces in hand on request, the question a drop waits on
 * and a refused drop with its article; the partner's board is not said (9.1). */
TB_TEST(law_2_1_the_partner_hears_du_bekommst_springer)
{
    struct tb_voice_pack *de, *en;
    struct tb_error err;
    ASSERT_OK(tb_voice_pack_load("de-fide", &de, &err));
    ASSERT_OK(tb_voice_pack_load("en", &en, &err));
    tb_bugmatch *m = new_match();
    uint64_t t = 0;
    ASSERT_OK(tb_bugmatch_start(m, 0));
    move(m, 0, "e2", "e4", false, &t);
    move(m, 0, "g8", "f6", false, &t);
    move(m, 0, "b1", "c3", false, &t);
    move(m, 0, "f6", "e4", true, &t);
    move(m, 0, "c3", "e4", true, &t);
    move(m, 1, "d2", "d4", false, &t);
    ASSERT_OK(tb_bugmatch_ask_pool(m, 3, t += 100));
    ASSERT_OK(tb_bugmatch_place(m, 1, SQ("c6"), 0, t += 500));
    ASSERT_OK(tb_bugmatch_press(m, 1, t += 500));
    char heard[4][1024] = {"", "", "", ""}, line[256];
    struct tb_bugmatch_out o;
    while (tb_bugmatch_poll(m, &o)) {
        int n = tb_bugmatch_out_say(de, &o, TB_VOICE_SHORT, line, sizeof line);
        ASSERT_GE(n, 0);
        for (int seat = 0; n > 0 && seat < 4; seat++)
            if (o.hear & (1u << seat)) {
                size_t h = strlen(heard[seat]);
                ASSERT_LT(
                    snprintf(heard[seat] + h, sizeof heard[0] - h, "%s%s", h ? "|" : "", line),
                    (int)(sizeof heard[0] - h));
            }
    }
    ASSERT_STR_EQ(heard[0], "Springer Felix sechs|Springer schlägt Eva vier");
    ASSERT_STR_EQ(heard[1], "Eva vier|Springer Cesar drei|Springer schlägt Eva vier");
    ASSERT_STR_EQ(heard[2], "Du bekommst: Bauer|Springer auf Cesar sechs");
    ASSERT_STR_EQ(heard[3], "Du bekommst: Springer|David vier|Du hast: 1 Springer");
    /* the question a drop waits on, the piece selected and a refused drop, in English too */
    o.kind = TB_BUGMATCH_OUT_CHOOSE;
    o.square = SQ("e4");
    o.kinds = (1u << TB_CHESS_KNIGHT) | (1u << TB_CHESS_BISHOP) | (1u << TB_CHESS_PAWN);
    ASSERT_GT(tb_bugmatch_out_say(de, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "Welche Figur auf Eva vier? Läufer, Springer oder Bauer");
    ASSERT_GT(tb_bugmatch_out_say(en, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "Which piece on Eva four? bishop, knight or pawn");
    o.kind = TB_BUGMATCH_OUT_SELECTED;
    o.piece = TB_CHESS_BISHOP;
    ASSERT_GT(tb_bugmatch_out_say(de, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "Läufer");
    o.kind = TB_BUGMATCH_OUT_ILLEGAL_DROP;
    o.article = "2.5";
    ASSERT_GT(tb_bugmatch_out_say(de, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "Einsetzen nicht erlaubt, Artikel 2.5");
    o.kind = TB_BUGMATCH_OUT_POOL;
    memset(o.pool, 0, sizeof o.pool);
    ASSERT_GT(tb_bugmatch_out_say(en, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "You hold nothing");
    o.pool[TB_CHESS_PAWN] = 2;
    o.pool[TB_CHESS_QUEEN] = 1;
    ASSERT_GT(tb_bugmatch_out_say(en, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "You hold: 1 queen, 2 pawns");
    tb_voice_pack_free(de);
    tb_voice_pack_free(en);
    tb_bugmatch_free(m);
}

/* The choice button cycles through the kinds the waiting drop may be; the press completes
 * the drop with the one selected (4.2: complete once the piece is known). */
TB_TEST(law_4_2_choice_button_selects_the_kind_and_the_press_completes)
{
    tb_bugmatch *m = new_match();
    tb_bug_pos start[2];
    ASSERT_OK(tb_bug_pos_from_fen(&start[0], "4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1", NULL));
    tb_bug_pos_startpos(&start[1]);
    ASSERT_OK(tb_bugmatch_set_start(m, start));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("c4"), 0, 1000));
    ASSERT_OK(tb_bugmatch_tick(m, 5000));
    ASSERT_STR_EQ(drain(m), "A White: which piece on c4? bishop knight");
    ASSERT_EQ(tb_bugmatch_press(m, 0, 5100), TB_ERR_STATE); /* not complete: asked again */
    ASSERT_STR_EQ(drain(m), "A White: which piece on c4? bishop knight");
    ASSERT_OK(tb_bugmatch_button(m, 0, 5200));
    ASSERT_OK(tb_bugmatch_button(m, 0, 5300));
    ASSERT_OK(tb_bugmatch_button(m, 0, 5400));
    ASSERT_STR_EQ(drain(m), "A White selects: bishop|A White selects: knight|A White selects: "
                            "bishop");
    ASSERT_OK(tb_bugmatch_press(m, 0, 5500));
    ASSERT_STR_EQ(drain(m), "A White: B@c4|A White: ply 1 completed, 414.500 s left");
    tb_bugmatch_free(m);
}

/* Typed boards: every illegal drop typed is refused with its article, nothing changing. */
TB_TEST(law_2_2_to_2_5_typed_illegal_drops_are_refused_with_their_article)
{
    static const struct {
        const char *fen, *move, *article;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "B@c4", "2.2"},
        {"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "N@e1", "2.3"},
        {"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "N@d6", "2.4"},
        {"4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@a8", "2.5"},
        {"4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "@h1", "2.5"},
        {"4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1", "N@a3", "3.9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tb_bugmatch_config cfg;
        tb_bugmatch *m;
        struct tb_error err;
        tb_bugmatch_config_default(&cfg);
        cfg.typed[0] = cfg.typed[1] = true;
        ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));
        tb_bug_pos start[2];
        ASSERT_OK(tb_bug_pos_from_fen(&start[0], cases[i].fen, NULL));
        tb_bug_pos_startpos(&start[1]);
        ASSERT_OK(tb_bugmatch_set_start(m, start));
        ASSERT_EQ(tb_bugmatch_typed(m, 0, cases[i].move, 100, &err), TB_ERR_ILLEGAL);
        ASSERT_STR_CONTAINS(err.msg, cases[i].article);
        ASSERT_STR_EQ(drain(m), "");
        ASSERT_OK(tb_bugmatch_typed(m, 0, "Kd2", 200, &err)); /* and a legal move is taken */
        ASSERT_STR_CONTAINS(drain(m), "A White: Kd2");
        tb_bugmatch_free(m);
    }
}

/* 5.4: White's flag falls on board A while Black could still mate: a loss; the record names
 * it and board B plays on. */
TB_TEST(law_5_4_flag_fall_ends_that_game_only)
{
    struct tb_bugmatch_config cfg;
    tb_bugmatch *m;
    struct tb_error err;
    tb_bugmatch_config_default(&cfg);
    ASSERT_OK(tb_clock_control_parse(&cfg.control, "1m", NULL));
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    uint64_t t = 0;
    move(m, 1, "e2", "e4", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, 60000));
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: flag fell|A: 0-1 flag fell (5.4)");
    ASSERT_EQ(tb_bugmatch_record(m)->end_ms[0], 60000);
    ASSERT_FALSE(tb_bugmatch_over(m));
    /* B: Black's clock started at White's press and runs out 60 s later */
    ASSERT_OK(tb_bugmatch_tick(m, t + 60000));
    ASSERT_STR_CONTAINS(drain(m), "B Black: flag fell|B: 1-0 flag fell (5.4)");
    ASSERT_TRUE(tb_bugmatch_over(m));
    tb_bugmatch_free(m);
}

/* Random board events, choices, presses and button presses on both boards, from hands holding
 * every kind: every input is taken or refused for its state (never a bad argument), every move
 * announced is legal where it stands, and each recogniser holds what the record and the move
 * made since say: the same position, the same hands. */
TB_TEST(random_inputs_keep_boards_hands_and_record_in_step)
{
    struct bugmatch_follow follow = {{false, false}, {0, 0}, 0, 0};
    for (uint64_t seed = 1; seed <= 30; seed++)
        bugmatch_random_run(NULL, seed, NULL, NULL, &follow);
}

/* ---- random matches through two simulated boards ----------------------------------------- */

static char *bpgn(const tb_bug_record *rec)
{
    return bugmatch_bpgn(rec);
}

/* One seeded match: generated, turned into two boards' events, recognised. */
static void replay(uint64_t seed, long *events, long *drops)
{
    static tb_bug_record gen;
    struct tb_bug_gen_config gc = {
        .seed = seed, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
    struct tb_error err;
    ASSERT_GT(tb_bug_gen_game(&gc, &gen), 0);
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true};
    tb_bugmatch *m;
    long n = 0;
    if (tb_bugmatch_replay(&gen, NULL, &sc, seed, &m, &n, &err) != 0)
        TB_FAIL("seed %llu: %s", (unsigned long long)seed, err.msg);
    char *want = bpgn(&gen), *got = bpgn(tb_bugmatch_record(m));
    if (strcmp(want, got) != 0)
        TB_FAIL("seed %llu: the recognised match differs\n--- generated\n%s\n--- recognised\n%s",
                (unsigned long long)seed, want, got);
    ASSERT_TRUE(tb_bugmatch_over(m));
    for (int i = 0; i < gen.nplies; i++)
        *drops += tb_bug_move_is_drop(gen.plies[i].move);
    *events += n;
    free(want);
    free(got);
    tb_bugmatch_free(m);
}

TB_TEST(random_matches_replay_through_two_boards_to_the_same_bpgn)
{
    long events = 0, drops = 0;
    for (uint64_t seed = 1; seed <= 300; seed++)
        replay(seed, &events, &drops);
    ASSERT_GT(drops, 300 * 10);
    printf("300 matches, %ld events, %ld drops\n", events, drops);
}
