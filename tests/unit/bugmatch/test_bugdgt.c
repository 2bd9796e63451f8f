/* Doorgeefschaak with DGT e-boards (host/bugmatch/dgt.c): a drop's kind is the piece the board
 * reports (2.2), a promoted pawn keeps the pawn's shape and moves as its piece (3.1) and goes to
 * the partner as a pawn (3.2), a wrong piece is no move, whole-board readings through the DGT
 * tracker, and random matches replayed with DGT boards to the same BPGN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outputs.h"
#include "tb_bugmatch.h"
#include "tb_dgt.h"
#include "tb_test.h"

#define SQ(name) (((name)[1] - '1') * 8 + ((name)[0] - 'a'))
#define W(type)  TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_##type)
#define B(type)  TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_##type)

/* A match with board A a DGT board, B a reed board, from the two FENs (NULL: the start). */
static tb_bugmatch *dgt_match(const char *fen_a, const char *fen_b)
{
    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[0] = TB_BUGMATCH_DGT;
    tb_bugmatch *m = bugmatch_started(&cfg, fen_a, fen_b);
    ASSERT_EQ(tb_bugmatch_board(m, 0), TB_BUGMATCH_DGT);
    ASSERT_EQ(tb_bugmatch_board(m, 1), TB_BUGMATCH_REED);
    return m;
}

/* A piece moved on board b: lifted, put down as the board names it, the clock pressed. */
static void step(tb_bugmatch *m, int b, const char *from, const char *to, int shown, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_lift(m, b, SQ(from), *t += 300));
    ASSERT_OK(tb_bugmatch_place(m, b, SQ(to), shown, *t += 300));
    ASSERT_OK(tb_bugmatch_press(m, b, *t += 500));
}

/* 2.2: the piece placed from beside the board is the drop: no choice asked although the hand
 * holds two kinds that may go there; a piece not in hand is refused with 2.2. */
TB_TEST(law_2_2_dgt_board_drop_kind_is_the_piece_placed)
{
    tb_bugmatch *m = dgt_match("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1", NULL);
    uint64_t t = 1000;
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("d4"), W(QUEEN), t));
    ASSERT_OK(tb_bugmatch_tick(m, t += 4000));
    ASSERT_STR_EQ(bugmatch_lines(m),
                  "A White: illegal drop of queen on d4: 2.2: no such piece is in hand");
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("d4"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("c4"), W(BISHOP), t += 300));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: B@c4|A White: ply 1 completed");
    uint8_t pool[6];
    tb_bugmatch_pool(m, 0, pool);
    ASSERT_EQ(pool[TB_CHESS_KNIGHT], 1);
    ASSERT_EQ(pool[TB_CHESS_BISHOP], 0);
    tb_bugmatch_free(m);
}

/* Each illegal drop a DGT board shows is refused with its article, the kind the one placed
 * (no choice asked, whatever else is in hand), and is no move; the legal one then is. */
TB_TEST(law_2_2_to_2_5_dgt_board_refuses_each_illegal_drop_with_its_article)
{
    static const struct {
        const char *sq;
        int piece;
        const char *line;
    } cases[] = {
        {"a8", W(PAWN),
         "A White: illegal drop of pawn on a8: 2.5: a pawn may not be placed on "
         "the 1st or 8th rank"},
        {"d6", W(KNIGHT), "A White: illegal drop of knight on d6: 2.4: the drop would give check"},
        {"a8", W(ROOK), "A White: illegal drop of rook on a8: 2.4: the drop would give check"},
        {"e7", W(QUEEN), "A White: illegal drop of queen on e7: 2.4: the drop would give check"},
        {"c4", W(KING),
         "A White: illegal drop of king on c4: 2.1: only a pawn, knight, bishop, "
         "rook or queen can be placed"},
    };
    tb_bugmatch *m = dgt_match("4k3/8/8/8/8/8/8/4K3[QRNP] w - - 0 1", NULL);
    uint64_t t = 1000;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ASSERT_OK(tb_bugmatch_place(m, 0, SQ(cases[i].sq), cases[i].piece, t += 500));
        ASSERT_OK(tb_bugmatch_tick(m, t += 4000));
        ASSERT_STR_EQ(bugmatch_lines(m), cases[i].line);
        ASSERT_OK(tb_bugmatch_lift(m, 0, SQ(cases[i].sq), t += 500));
        ASSERT_EQ(tb_bugmatch_record(m)->nplies, 0);
    }
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("a7"), W(ROOK), t += 500));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: R@a7|A White: ply 1 completed");
    tb_bugmatch_free(m);
}

/* A piece that is not the one the move puts there is no move (the knight lifted, a bishop put
 * on f3; a drop of the wrong colour): reported for the arbiter, made once the right one
 * stands. */
TB_TEST(dgt_board_wrong_piece_placed_is_not_a_move)
{
    tb_bugmatch *m = dgt_match(NULL, NULL);
    uint64_t t = 1000;
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g1"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("f3"), W(BISHOP), t += 300));
    ASSERT_OK(tb_bugmatch_tick(m, t += 1000));
    ASSERT_STR_EQ(bugmatch_lines(m), "A: ! wrong-piece f3 B for g1f3");
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 0);
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("f3"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("f3"), W(KNIGHT), t += 300));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: Nf3|A White: ply 1 completed");
    tb_bugmatch_free(m);

    m = dgt_match("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", NULL);
    t = 1000;
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("c4"), B(KNIGHT), t += 300));
    ASSERT_OK(tb_bugmatch_tick(m, t += 1000));
    ASSERT_STR_EQ(bugmatch_lines(m), "A: ! wrong-piece c4 n for N@c4");
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("c4"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("c4"), W(KNIGHT), t += 300));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: N@c4|A White: ply 1 completed");
    tb_bugmatch_free(m);
}

/* 3.1: the pawn on the last rank waits for its piece as on a reed board; afterwards the pawn
 * the board reports there moves as that piece, along the last rank too, and is no wrong
 * piece. */
TB_TEST(law_3_1_promoted_pawn_keeps_the_pawn_shape_on_a_dgt_board)
{
    tb_bugmatch *m = dgt_match("8/6P1/7k/8/8/8/8/K7 w - - 0 1", NULL);
    uint64_t t = 1000;
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g7"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), W(PAWN), t += 300));
    ASSERT_OK(tb_bugmatch_tick(m, t += 4000));
    ASSERT_STR_EQ(bugmatch_lines(m), "A White: which piece on g8? queen rook bishop knight");
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 0);
    ASSERT_OK(tb_bugmatch_choose(m, 0, TB_CHESS_QUEEN, t += 100));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: g8=Q|A White: ply 1 completed");
    step(m, 0, "h6", "h5", B(KING), &t);
    step(m, 0, "g8", "c8", W(PAWN), &t); /* the pawn shape along the last rank: the queen */
    step(m, 0, "h5", "h4", B(KING), &t);
    step(m, 0, "c8", "c4", W(PAWN), &t);
    const char *out = bugmatch_lines(m);
    ASSERT_STR_CONTAINS(out, "A White: Qc8|");
    ASSERT_STR_CONTAINS(out, "A White: Qc4+|");
    ASSERT_TRUE(strstr(out, "wrong-piece") == NULL);
    const tb_bug_record *rec = tb_bugmatch_record(m);
    ASSERT_EQ(rec->nplies, 5);
    ASSERT_TRUE(rec->cur[0].promoted & TB_CHESS_BIT(SQ("c4")));
    tb_bugmatch_free(m);
}

/* 3.1 broken: a real queen put on the promotion square is taken as the choice (the game goes
 * on; the arbiter sees the queen); 3.2: taken, it goes to the partner as a pawn either way. */
TB_TEST(law_3_2_captured_promoted_pawn_goes_to_the_partner_as_a_pawn)
{
    for (int real = 0; real < 2; real++) {
        tb_bugmatch *m = dgt_match("r7/6P1/8/8/8/7k/8/7K w - - 0 1", NULL);
        uint64_t t = 1000;
        ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g7"), t += 300));
        ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), real ? W(QUEEN) : W(PAWN), t += 300));
        if (!real)
            ASSERT_OK(tb_bugmatch_choose(m, 0, TB_CHESS_QUEEN, t += 400));
        ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
        const char *out = bugmatch_lines(m);
        ASSERT_STR_CONTAINS(out, "A White: g8=Q|A White: ply 1 completed");
        ASSERT_TRUE(strstr(out, "which piece") == NULL);
        ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g8"), t += 300));
        ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("a8"), t += 300));
        ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), B(ROOK), t += 300));
        ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
        out = bugmatch_lines(m);
        ASSERT_STR_CONTAINS(out, "A Black: Rxg8|A Black: ply 2 completed");
        ASSERT_STR_CONTAINS(out, "B White receives: pawn");
        uint8_t pool[6];
        tb_bugmatch_pool(m, 2, pool);
        ASSERT_EQ(pool[TB_CHESS_PAWN], 1);
        ASSERT_EQ(pool[TB_CHESS_QUEEN], 0);
        tb_bugmatch_free(m);
    }
}

/* Whole-board readings as the DGT driver delivers them: two BOARD_DUMPs through the tracker,
 * its placement into the match: the move between them, a capture included. */
TB_TEST(dgt_board_snapshots_through_the_tracker_make_the_moves)
{
    tb_bugmatch *m = dgt_match(NULL, NULL);
    tb_dgt_tracker *tr = tb_dgt_tracker_new(NULL);
    ASSERT_NOT_NULL(tr);
    tb_dgt_tracker_set_orientation(tr, TB_DGT_ORIENT_NORMAL);
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    uint8_t codes[64], pieces[64];
    const char *moves[] = {"e2e4", "d7d5", "e4d5"};
    uint64_t t = 1000;
    ASSERT_OK(tb_dgt_codes_of_pos(&pos, TB_DGT_ORIENT_NORMAL, codes));
    ASSERT_EQ(tb_dgt_tracker_dump(tr, codes, t), 0);
    for (int i = 0; i < 3; i++) {
        tb_chess_move mv;
        tb_chess_undo undo;
        ASSERT_OK(tb_chess_move_from_uci(&pos, moves[i], &mv));
        tb_chess_make(&pos, mv, &undo);
        ASSERT_OK(tb_dgt_codes_of_pos(&pos, TB_DGT_ORIENT_NORMAL, codes));
        ASSERT_GT(tb_dgt_tracker_dump(tr, codes, t += 2000), 0);
        tb_dgt_tracker_placement(tr, pieces);
        ASSERT_GT(tb_bugmatch_snapshot(m, 0, pieces, t), 0);
        ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    }
    const char *out = bugmatch_lines(m);
    ASSERT_STR_CONTAINS(out, "A White: e4|");
    ASSERT_STR_CONTAINS(out, "A Black: d5|");
    ASSERT_STR_CONTAINS(out, "A White: exd5|");
    ASSERT_STR_CONTAINS(out, "B Black receives: pawn");
    ASSERT_EQ(tb_bugmatch_snapshot(m, 1, pieces, t), TB_ERR_ARG); /* B is a reed board */
    pieces[0] = 7;                                                /* no such piece code */
    ASSERT_EQ(tb_bugmatch_snapshot(m, 0, pieces, t), TB_ERR_ARG);
    tb_dgt_tracker_free(tr);
    tb_bugmatch_free(m);
}

/* A board cannot be typed and a DGT board at once, nor of a kind there is not. */
TB_TEST(dgt_board_that_is_also_typed_is_refused)
{
    struct tb_bugmatch_config cfg;
    struct tb_error err;
    tb_bugmatch *m = NULL;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[1] = TB_BUGMATCH_DGT;
    cfg.typed[1] = true;
    ASSERT_EQ(tb_bugmatch_new(&cfg, &m, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "board B: typed and DGT");
    ASSERT_NULL(m);
    cfg.typed[1] = false;
    cfg.kind[0] = (enum tb_bugmatch_board_kind)7;
    ASSERT_EQ(tb_bugmatch_new(&cfg, &m, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "board A: no such kind");
    ASSERT_NULL(m);
}

/* ---- random matches with DGT boards ------------------------------------------------------ */

/* Collects the place lines a generated script gives a board. */
struct placements {
    long named[2], bare[2];
};

static int count_places(void *user, const struct tb_script_event *ev, long line)
{
    struct placements *p = user;
    (void)line;
    if (ev->kind == TB_SCRIPT_PLACE)
        ev->piece ? p->named[ev->board[0] - 'A']++ : p->bare[ev->board[0] - 'A']++;
    return TB_OK;
}

static void replay_kinds(enum tb_bugmatch_board_kind a, enum tb_bugmatch_board_kind b, int n)
{
    static tb_bug_record gen;
    struct tb_bugmatch_config cfg;
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true};
    struct tb_error err;
    long promotions = 0;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[0] = a;
    cfg.kind[1] = b;
    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        struct tb_bug_gen_config gc = {
            .seed = seed, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
        ASSERT_GT(tb_bug_gen_game(&gc, &gen), 0);
        tb_bugmatch *m;
        if (tb_bugmatch_replay(&gen, &cfg, &sc, seed, &m, NULL, &err) != 0)
            TB_FAIL("seed %llu: %s", (unsigned long long)seed, err.msg);
        char *want = bugmatch_bpgn(&gen), *got = bugmatch_bpgn(tb_bugmatch_record(m));
        if (strcmp(want, got) != 0)
            TB_FAIL("seed %llu: the recognised match differs\n--- generated\n%s\n--- "
                    "recognised\n%s",
                    (unsigned long long)seed, want, got);
        for (int i = 0; i < gen.nplies; i++)
            promotions += tb_chess_move_promo(gen.plies[i].move) != 0;
        free(want);
        free(got);
        tb_bugmatch_free(m);
    }
    ASSERT_GT(promotions, 0);
}

TB_TEST(random_matches_on_a_dgt_and_a_reed_board_replay_to_the_same_bpgn)
{
    replay_kinds(TB_BUGMATCH_DGT, TB_BUGMATCH_REED, 300);
}

TB_TEST(random_matches_on_two_dgt_boards_replay_to_the_same_bpgn)
{
    replay_kinds(TB_BUGMATCH_DGT, TB_BUGMATCH_DGT, 300);
}

/* Fed line by line, the outputs counted: the wrong-colour pieces the generator puts down
 * first on a DGT board are reported and never taken as drops. */
struct watch {
    tb_bugmatch *m;
    long wrong, refused;
};

static int watch_feed(void *user, const struct tb_script_event *ev, long line)
{
    struct watch *w = user;
    struct tb_bugmatch_out o;
    (void)line;
    int rc = tb_bugmatch_feed_script(w->m, ev->board[0] - 'A', ev);
    w->refused += rc != 0 && !(ev->kind == TB_SCRIPT_CHOOSE && rc == TB_ERR_STATE);
    while (tb_bugmatch_poll(w->m, &o))
        w->wrong += o.kind == TB_BUGMATCH_OUT_BOARD && o.sensor.kind == TB_SENSOR_OUT_PROBLEM &&
                    o.sensor.problem == TB_SENSOR_P_WRONG_PIECE;
    return TB_OK;
}

TB_TEST(dgt_board_wrong_pieces_put_down_first_are_reported_and_never_moves)
{
    static tb_bug_record gen;
    struct tb_bugmatch_config cfg;
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true, .dgt = {true, true}};
    struct tb_error err;
    long wrong = 0;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[0] = cfg.kind[1] = TB_BUGMATCH_DGT;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct tb_bug_gen_config gc = {
            .seed = seed, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
        ASSERT_GT(tb_bug_gen_game(&gc, &gen), 0);
        struct watch w = {NULL, 0, 0};
        ASSERT_OK(tb_bugmatch_new(&cfg, &w.m, &err));
        ASSERT_OK(tb_bugmatch_gen_script(&gen, &sc, seed, watch_feed, &w, &err));
        ASSERT_OK(tb_bugmatch_tick(w.m, 24ULL * 3600 * 1000));
        ASSERT_EQ(w.refused, 0);
        char *want = bugmatch_bpgn(&gen), *got = bugmatch_bpgn(tb_bugmatch_record(w.m));
        ASSERT_STR_EQ(got, want);
        free(want);
        free(got);
        tb_bugmatch_free(w.m);
        wrong += w.wrong;
    }
    ASSERT_GT(wrong, 20);
}

/* D.2.2 on a DGT board: the promoted pawn (a queen) lifted and put straight back in pawn shape
 * wobbled: no touch; lifted for longer it is touched, and put back no move. */
TB_TEST(law_3_1_promoted_pawn_put_back_in_pawn_shape_is_the_same_piece)
{
    tb_bugmatch *m = dgt_match("8/6P1/7k/8/8/8/8/K7 w - - 0 1", NULL);
    uint64_t t = 1000;
    struct tb_bugmatch_out o;
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g7"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), W(PAWN), t += 300));
    ASSERT_OK(tb_bugmatch_choose(m, 0, TB_CHESS_QUEEN, t += 400));
    ASSERT_OK(tb_bugmatch_press(m, 0, t += 500));
    step(m, 0, "h6", "h5", B(KING), &t);
    (void)bugmatch_lines(m);
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g8"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), W(PAWN), t += 40));
    ASSERT_OK(tb_bugmatch_tick(m, t += 3000));
    ASSERT_EQ(tb_bugmatch_poll(m, &o), 0); /* a wobble: nothing at all */
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g8"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g8"), W(PAWN), t += 500));
    ASSERT_OK(tb_bugmatch_tick(m, t += 3000));
    ASSERT_EQ(tb_bugmatch_poll(m, &o), 1);
    ASSERT_EQ(o.kind, TB_BUGMATCH_OUT_BOARD);
    ASSERT_EQ(o.sensor.kind, TB_SENSOR_OUT_TOUCH);
    ASSERT_EQ(o.sensor.square, SQ("g8"));
    ASSERT_EQ(tb_bugmatch_poll(m, &o), 0);
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 2);
    step(m, 0, "g8", "g4", W(PAWN), &t);
    ASSERT_STR_CONTAINS(bugmatch_lines(m), "A White: Qg4+|");
    tb_bugmatch_free(m);
}

/* The piece last lifted (half the time), one of the side to move, of the other side, or
 * none. */
static int random_piece(void *user, const tb_sensor *s, int sq, bool lift, uint64_t *r)
{
    int *lifted = user;
    const tb_chess_pos *pos = tb_sensor_position(s);
    *r = *r * 6364136223846793005ULL + 1442695040888963407ULL;
    int pick = (int)((*r >> 33) % 10), type = 1 + (int)((*r >> 40) % 6);
    if (lift) {
        *lifted = pos->board[sq] ? pos->board[sq] : *lifted;
        return 0;
    }
    return pick < 5 && *lifted ? *lifted
           : pick < 8          ? TB_CHESS_PIECE(pos->side, type)
           : pick < 9          ? TB_CHESS_PIECE(pos->side ^ 1, type)
                               : 0;
}

/* Random inputs on two DGT boards, pieces named at random: every input taken or refused for
 * its state, every move legal, recognisers, hands and record in step; wrong pieces
 * reported. */
TB_TEST(random_inputs_with_named_pieces_keep_boards_hands_and_record_in_step)
{
    struct tb_bugmatch_config cfg;
    struct bugmatch_follow follow = {{false, false}, {0, 0}, 0, 0};
    int lifted = 0;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[0] = cfg.kind[1] = TB_BUGMATCH_DGT;
    for (uint64_t seed = 1; seed <= 30; seed++)
        bugmatch_random_run(&cfg, seed, random_piece, &lifted, &follow);
    printf("30 runs: %ld moves, %ld wrong pieces\n", follow.moves, follow.wrong);
    ASSERT_GT(follow.moves, 60);
    ASSERT_GT(follow.wrong, 30);
}

/* The generator names every piece put down on a DGT board and none on a reed board. */
TB_TEST(generator_names_the_pieces_on_a_dgt_board_only)
{
    static tb_bug_record gen;
    struct tb_bug_gen_config gc = {
        .seed = 7, .resign_permille = 2, .min_think_ms = 2000, .pass_ms = 1500};
    struct tb_bugmatch_gen_config sc = {.blip_ms = 100, .noise = true, .dgt = {true, false}};
    struct placements p = {{0, 0}, {0, 0}};
    struct tb_error err;
    ASSERT_GT(tb_bug_gen_game(&gc, &gen), 0);
    ASSERT_OK(tb_bugmatch_gen_script(&gen, &sc, 7, count_places, &p, &err));
    ASSERT_GT(p.named[0], 0);
    ASSERT_EQ(p.bare[0], 0);
    ASSERT_EQ(p.named[1], 0);
    ASSERT_GT(p.bare[1], 0);
}
