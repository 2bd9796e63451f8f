/* test_bug_rules.c - the club's rules (Reglement Doorgeefschaak) by article: drops (2.2-2.5),
 * promoted pawns (3.1, 3.2), mate with pieces in hand, and the end of the games (article 5). */
#include "tb_bug.h"
#include "tb_test.h"

static tb_bug_pos load(const char *fen)
{
    tb_bug_pos pos;
    struct tb_error err;
    if (tb_bug_pos_from_fen(&pos, fen, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", fen, err.msg);
    return pos;
}

static tb_bug_move parse(const tb_bug_pos *pos, const char *san)
{
    tb_bug_move m;
    struct tb_error err;
    if (tb_bug_move_from_san(pos, san, TB_CHESS_LETTERS_EN, &m, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", san, err.msg);
    return m;
}

static const char *san_of(const tb_bug_pos *pos, const char *text)
{
    static char buf[3][32];
    static int k;
    char *out = buf[k++ % 3];
    ASSERT_GT(tb_bug_move_to_san(pos, parse(pos, text), TB_CHESS_LETTERS_EN, out, 32), 0);
    return out;
}

/* Each illegal drop, with the article that refuses it. */
struct bad_drop {
    const char *fen, *drop, *article;
};

static const struct bad_drop bad_drops[] = {
    /* 2.2: only a piece in hand */
    {"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "Q@d4", "2.2"},
    {"4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", "N@d4", "2.2"}, /* Black's knight, White to move */
    /* 2.3: only on an empty square */
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "N@e1", "2.3"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "Q@e8", "2.3"},
    {"4k3/8/3p4/8/8/8/8/4K3[QRBNP] w - - 0 1", "P@d6", "2.3"},
    /* 2.4: no drop after which the enemy king is in check */
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "Q@e7", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "R@e2", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "R@a8", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "B@a4", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "N@d6", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", "P@d7", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[qrbnp] b - - 0 1", "P@d2", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[qrbnp] b - - 0 1", "N@c2", "2.4"},
    {"4k3/8/8/8/8/8/8/4K3[qrbnp] b - - 0 1", "Q@h4", "2.4"},
    /* 2.5: no pawn on the 1st or 8th rank */
    {"4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@a8", "2.5"},
    {"4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@h1", "2.5"},
    {"4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "P@a1", "2.5"},
    {"4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "@h8", "2.5"},
    /* 1.5 (FIDE 3.9): in check, a drop must block */
    {"4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "N@d4", "1.5 (FIDE 3.9)"},
    {"4k3/8/8/8/8/5n2/8/r3K3[Q] w - - 0 1", "Q@c1", "1.5 (FIDE 3.9)"}, /* double check */
};

TB_TEST(law_2_2_to_2_5_every_illegal_drop_is_refused_with_its_article)
{
    for (size_t i = 0; i < sizeof bad_drops / sizeof bad_drops[0]; i++) {
        const struct bad_drop *b = &bad_drops[i];
        tb_bug_pos pos = load(b->fen);
        tb_bug_move m;
        struct tb_error err;
        int rc = tb_bug_move_from_san(&pos, b->drop, TB_CHESS_LETTERS_EN, &m, &err);
        if (rc != TB_ERR_ILLEGAL)
            TB_FAIL("%s in %s: expected refusal, got %d", b->drop, b->fen, rc);
        char want[32];
        snprintf(want, sizeof want, ": %s: ", b->article);
        ASSERT_STR_CONTAINS(err.msg, want);
        /* Never generated either. */
        tb_bug_movelist list;
        tb_bug_gen_legal(&pos, &list);
        const char *at = strchr(b->drop, '@');
        int type = TB_CHESS_PAWN;
        for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_QUEEN; t++)
            if (at > b->drop && at[-1] == tb_chess_piece_letter(t, TB_CHESS_LETTERS_EN))
                type = t;
        tb_bug_move bad = tb_bug_move_drop(type, tb_chess_square_parse(at + 1));
        ASSERT_FALSE(tb_bug_is_legal(&pos, bad));
        for (int k = 0; k < list.count; k++)
            if (list.moves[k] == bad)
                TB_FAIL("%s generated in %s", b->drop, b->fen);
    }
}

TB_TEST(law_2_3_2_4_2_5_legal_drops_are_accepted)
{
    tb_bug_pos pos = load("4k3/4p3/8/8/8/8/8/4K3[QRBNP] w - - 0 1");
    ASSERT_STR_EQ(san_of(&pos, "R@e4"), "R@e4"); /* the e7 pawn blocks the file: no check */
    ASSERT_STR_EQ(san_of(&pos, "P@e2"), "P@e2"); /* 2.5: the 2nd rank is fine */
    ASSERT_STR_EQ(san_of(&pos, "P@f6"), "P@f6");
    ASSERT_STR_EQ(san_of(&pos, "N@a1"), "N@a1");
    tb_bug_pos check = load("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    ASSERT_STR_EQ(san_of(&check, "N@b1"), "N@b1"); /* blocks the check */
}

TB_TEST(law_2_4_blocking_drop_that_checks_is_refused)
{
    /* White's king is in check along the first rank; Black's king on d8 would be checked by a
     * rook on d1, so only b1 and c1 block. */
    tb_bug_pos pos = load("3k4/8/8/8/8/8/8/r3K3[R] w - - 0 1");
    tb_bug_movelist list;
    int n = tb_bug_gen_legal(&pos, &list);
    int drops = 0;
    for (int i = 0; i < n; i++)
        drops += tb_bug_move_is_drop(list.moves[i]);
    ASSERT_EQ(drops, 2);
    ASSERT_EQ(tb_bug_drop_verdict(&pos, TB_CHESS_ROOK, tb_chess_square_parse("d1")),
              TB_BUG_DROP_CHECKS);
}

TB_TEST(uci_drops_read_either_case_and_write_upper_case)
{
    tb_bug_pos pos = load("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    tb_bug_move m;
    struct tb_error err;
    ASSERT_OK(tb_bug_move_from_uci(&pos, "n@f3", &m, &err));
    ASSERT_EQ(m, tb_bug_move_drop(TB_CHESS_KNIGHT, tb_chess_square_parse("f3")));
    ASSERT_OK(tb_bug_move_from_uci(&pos, "N@f3", &m, &err));
    char buf[8];
    ASSERT_EQ(tb_bug_move_to_uci(&pos, m, buf, sizeof buf), 4);
    ASSERT_STR_EQ(buf, "N@f3");
    ASSERT_EQ(tb_bug_move_from_uci(&pos, "K@f3", &m, &err), TB_ERR_PARSE);
    ASSERT_EQ(tb_bug_move_from_uci(&pos, "N@f9", &m, &err), TB_ERR_PARSE);
    ASSERT_EQ(tb_bug_move_from_uci(&pos, "N@e1", &m, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_CONTAINS(err.msg, "2.3");
    /* Dutch letters: P is the knight, a pawn has none. */
    tb_bug_pos nl = load("4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1");
    ASSERT_OK(tb_bug_move_from_san(&nl, "P@f3", TB_CHESS_LETTERS_NL, &m, &err));
    ASSERT_EQ(tb_bug_move_drop_type(m), TB_CHESS_KNIGHT);
    ASSERT_OK(tb_bug_move_from_san(&nl, "@f3", TB_CHESS_LETTERS_NL, &m, &err));
    ASSERT_EQ(tb_bug_move_drop_type(m), TB_CHESS_PAWN);
    ASSERT_EQ(tb_bug_move_to_san(&nl, m, TB_CHESS_LETTERS_NL, buf, sizeof buf), 3);
    ASSERT_STR_EQ(buf, "@f3");
}

TB_TEST(law_3_1_promoted_pawn_moves_as_its_piece_and_is_marked)
{
    tb_bug_pos pos = load("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    tb_bug_undo undo;
    tb_bug_make(&pos, parse(&pos, "b8=Q+"), &undo);
    char fen[TB_BUG_FEN_MAX];
    ASSERT_GT(tb_bug_pos_to_fen(&pos, fen, sizeof fen), 0);
    ASSERT_STR_EQ(fen, "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    /* It moves as a queen and stays a promoted pawn where it goes. */
    tb_bug_make(&pos, parse(&pos, "Kd7"), &undo);
    tb_bug_make(&pos, parse(&pos, "Qb1"), &undo);
    ASSERT_TRUE(pos.promoted & TB_CHESS_BIT(tb_chess_square_parse("b1")));
    ASSERT_FALSE(pos.promoted & TB_CHESS_BIT(tb_chess_square_parse("b8")));
}

TB_TEST(law_3_2_captured_promoted_pawn_is_passed_as_a_pawn)
{
    tb_bug_pos pos = load("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    tb_bug_undo undo;
    tb_bug_make(&pos, parse(&pos, "b8=Q+"), &undo);
    ASSERT_EQ(undo.passed, 0);
    tb_bug_make(&pos, parse(&pos, "Rxb8"), &undo);
    ASSERT_EQ(undo.passed, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    ASSERT_EQ(pos.promoted, 0);
    /* An ordinary queen goes as a queen. */
    tb_bug_pos q = load("r3k3/8/8/8/8/8/8/Q3K3 b - - 0 1");
    tb_bug_make(&q, parse(&q, "Rxa1+"), &undo);
    ASSERT_EQ(undo.passed, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_QUEEN));
    /* Unmake restores the mark. */
    tb_bug_pos p2 = load("1Q~2k3/8/8/8/8/8/1r6/4K3 b - - 0 1");
    tb_bug_pos before = p2;
    tb_bug_move m = parse(&p2, "Rxb8");
    tb_bug_make(&p2, m, &undo);
    ASSERT_EQ(undo.passed, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN));
    tb_bug_unmake(&p2, m, &undo);
    ASSERT_TRUE(tb_bug_pos_equal(&p2, &before));
}

TB_TEST(capture_passes_the_piece_to_the_partners_pool_on_the_other_board)
{
    tb_bug_record *rec = malloc(sizeof *rec);
    ASSERT_NOT_NULL(rec);
    tb_bug_record_init(rec);
    const char *moves[][2] = {{"A", "e4"}, {"A", "d5"}, {"A", "exd5"}};
    for (int i = 0; i < 3; i++) {
        int b = moves[i][0][0] - 'A';
        ASSERT_OK(tb_bug_record_push(rec, b, parse(&rec->cur[b], moves[i][1]), -1));
    }
    /* 1.4: White on A is partnered with Black on B, who receives the black pawn. */
    ASSERT_EQ(rec->cur[1].pool[TB_CHESS_BLACK][TB_CHESS_PAWN], 1);
    ASSERT_EQ(tb_bug_pool_count(&rec->cur[0], 0) + tb_bug_pool_count(&rec->cur[0], 1), 0);
    free(rec);
}

TB_TEST(law_5_1_mate_counts_interposing_drops_from_the_pool)
{
    /* After Bf6+ only a drop on g7 can block. */
    tb_bug_pos knight = load("6bk/8/7K/8/7B/8/8/8[n] w - - 0 1");
    ASSERT_STR_EQ(san_of(&knight, "Bf6"), "Bf6+");
    tb_bug_pos none = load("6bk/8/7K/8/7B/8/8/8[] w - - 0 1");
    ASSERT_STR_EQ(san_of(&none, "Bf6"), "Bf6#");
    /* White's pieces in hand do not help Black. */
    tb_bug_pos white = load("6bk/8/7K/8/7B/8/8/8[N] w - - 0 1");
    ASSERT_STR_EQ(san_of(&white, "Bf6"), "Bf6#");
}

TB_TEST(law_2_4_interposing_drop_that_would_check_does_not_save_from_mate)
{
    /* A black pawn on g7 would check White's king on h6 (2.4): mate. */
    tb_bug_pos pawn = load("6bk/8/5B1K/8/8/8/8/8[p] b - - 0 1");
    ASSERT_EQ(tb_bug_pos_state(&pawn), TB_BUG_POS_CHECKMATE);
    struct tb_bug_verdict v;
    tb_bug_judge_position(&pawn, NULL, &v);
    ASSERT_EQ(v.result, TB_BUG_WHITE_WINS);
    ASSERT_EQ(v.reason, TB_BUG_CHECKMATE);
    tb_bug_pos knight = load("6bk/8/5B1K/8/8/8/8/8[n] b - - 0 1");
    ASSERT_EQ(tb_bug_pos_state(&knight), TB_BUG_POS_PLAYING);
    /* Back rank: a pawn may not go to the 8th rank (2.5), a knight may. */
    tb_bug_pos p = load("6k1/5ppp/8/8/8/8/8/R5K1[p] w - - 0 1");
    ASSERT_STR_EQ(san_of(&p, "Ra8"), "Ra8#");
    tb_bug_pos n = load("6k1/5ppp/8/8/8/8/8/R5K1[n] w - - 0 1");
    ASSERT_STR_EQ(san_of(&n, "Ra8"), "Ra8+");
}

TB_TEST(law_5_2_resigning_on_move_and_off_move)
{
    tb_bug_pos pos;
    tb_bug_pos_startpos(&pos);
    struct tb_bug_verdict v;
    tb_bug_judge_resign(&pos, TB_CHESS_WHITE, &v);
    ASSERT_EQ(v.result, TB_BUG_BLACK_WINS);
    ASSERT_FALSE(v.last_move);
    ASSERT_STR_EQ(v.article, "5.2");
    tb_bug_judge_resign(&pos, TB_CHESS_BLACK, &v); /* off move: stands, White may move once */
    ASSERT_EQ(v.result, TB_BUG_WHITE_WINS);
    ASSERT_TRUE(v.last_move);
}

TB_TEST(law_5_3_stalemate_is_a_draw_only_when_the_other_game_has_ended)
{
    tb_bug_pos stale = load("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    tb_bug_pos other;
    tb_bug_pos_startpos(&other);
    struct tb_bug_other running = {&other, false}, ended = {&other, true};
    struct tb_bug_verdict v;
    tb_bug_judge_position(&stale, &running, &v);
    ASSERT_EQ(v.result, TB_BUG_ONGOING);
    ASSERT_EQ(v.reason, TB_BUG_WAIT_STALEMATE);
    tb_bug_judge_position(&stale, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    ASSERT_EQ(v.reason, TB_BUG_STALEMATE);
    ASSERT_STR_EQ(v.article, "5.3");
    /* A piece in hand is a move: no stalemate. */
    tb_bug_pos hand = load("7k/5Q2/6K1/8/8/8/8/8[n] b - - 0 1");
    tb_bug_judge_position(&hand, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_ONGOING);
    ASSERT_EQ(v.reason, TB_BUG_NONE);
}

TB_TEST(law_5_3_dead_position_is_a_draw_only_when_the_other_game_has_ended)
{
    tb_bug_pos kk = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    tb_bug_pos other;
    tb_bug_pos_startpos(&other);
    struct tb_bug_other running = {&other, false}, ended = {&other, true};
    struct tb_bug_verdict v;
    tb_bug_judge_position(&kk, &running, &v);
    ASSERT_EQ(v.result, TB_BUG_ONGOING);
    tb_bug_judge_position(&kk, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    ASSERT_EQ(v.reason, TB_BUG_DEAD);
    tb_bug_pos pawn = load("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    tb_bug_judge_position(&pawn, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_ONGOING);
    /* A lone knight in hand cannot mate a bare king. */
    tb_bug_pos knight = load("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    tb_bug_judge_position(&knight, &ended, &v);
    ASSERT_EQ(v.reason, TB_BUG_DEAD);
}

TB_TEST(law_5_4_flag_fall_counts_pieces_the_opponent_may_still_receive)
{
    bool white_flag[2] = {true, false};
    struct tb_bug_verdict v;
    /* Black has a bare king here, but Black's partner (White on the other board) can still take
     * black pieces there and pass them: a loss for White. */
    tb_bug_pos bare = load("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1");
    tb_bug_pos other;
    tb_bug_pos_startpos(&other);
    struct tb_bug_other running = {&other, false}, ended = {&other, true};
    tb_bug_judge_flags(&bare, white_flag, &running, &v);
    ASSERT_EQ(v.result, TB_BUG_BLACK_WINS);
    ASSERT_EQ(v.reason, TB_BUG_FLAG);
    ASSERT_STR_EQ(v.article, "5.4");
    /* The other game is over: nothing can come, Black cannot mate: a draw. */
    tb_bug_judge_flags(&bare, white_flag, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    ASSERT_EQ(v.reason, TB_BUG_FLAG_NO_MATE);
    /* Nothing of Black's colour left on the other board: still a draw while it goes on. */
    tb_bug_pos no_black = load("4k3/8/8/8/8/8/8/RNBQKBNR w - - 0 1");
    struct tb_bug_other dry = {&no_black, false};
    tb_bug_judge_flags(&bare, white_flag, &dry, &v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    /* A pawn in Black's hand can mate (with help): a loss. */
    tb_bug_pos pawn = load("4k3/8/8/8/8/8/8/4KQ2[p] w - - 0 1");
    tb_bug_judge_flags(&pawn, white_flag, &ended, &v);
    ASSERT_EQ(v.result, TB_BUG_BLACK_WINS);
}

TB_TEST(law_5_5_and_5_6_agreed_draw_and_both_flags)
{
    struct tb_bug_verdict v;
    tb_bug_judge_agreed(&v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    ASSERT_STR_EQ(v.article, "5.5");
    tb_bug_pos pos;
    tb_bug_pos_startpos(&pos);
    bool both[2] = {true, true}, none[2] = {false, false};
    tb_bug_judge_flags(&pos, both, NULL, &v);
    ASSERT_EQ(v.result, TB_BUG_DRAW);
    ASSERT_EQ(v.reason, TB_BUG_BOTH_FLAGS);
    ASSERT_STR_EQ(v.article, "5.6");
    tb_bug_judge_flags(&pos, none, NULL, &v);
    ASSERT_EQ(v.result, TB_BUG_ONGOING);
}

TB_TEST(law_7_7_a_passed_piece_is_taken_back_from_the_partners_pool)
{
    tb_bug_pos pos = load("4k3/8/8/8/8/8/8/4K3[Nb] w - - 0 1");
    ASSERT_OK(tb_bug_pool_take(&pos, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT)));
    ASSERT_EQ(tb_bug_pool_take(&pos, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT)),
              TB_ERR_NOTFOUND); /* already placed or never there */
    ASSERT_EQ(tb_bug_pool_count(&pos, TB_CHESS_WHITE), 0);
    ASSERT_EQ(tb_bug_pool_count(&pos, TB_CHESS_BLACK), 1);
    ASSERT_EQ(tb_bug_pool_add(&pos, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KING)), TB_ERR_ARG);
    ASSERT_EQ(tb_bug_pool_add(&pos, 0), TB_ERR_ARG);
    for (int i = 0; i < TB_BUG_POOL_MAX; i++)
        ASSERT_OK(tb_bug_pool_add(&pos, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN)));
    ASSERT_EQ(tb_bug_pool_add(&pos, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN)), TB_ERR_FULL);
    char fen[TB_BUG_FEN_MAX];
    ASSERT_GT(tb_bug_pos_to_fen(&pos, fen, sizeof fen), 0);
    ASSERT_STR_CONTAINS(fen, "[PPPPPPPPPPPPPPPPb]");
    pos.pool[0][TB_CHESS_PAWN] = 200; /* set by hand past the limit */
    ASSERT_EQ(tb_bug_pos_to_fen(&pos, fen, sizeof fen), TB_ERR_ARG);
}
