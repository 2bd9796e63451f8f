/* Article 7 in the two-board record (host/bughouse irregular.c): which illegal moves can stand
 * (7.4), their taking back and 7.7's piece from the other board, each refusal changing
 * nothing, and the BPGN comments that carry them. */
#include <stdio.h>
#include <string.h>

#include "tb_bug.h"
#include "tb_test.h"

#define SQ(name) (((name)[1] - '1') * 8 + ((name)[0] - 'a'))
#define MV(a, b) tb_chess_move_new(SQ(a), SQ(b), TB_CHESS_MK_NORMAL)

static void record_from(tb_bug_record *rec, const char *fen_a, const char *fen_b)
{
    tb_bug_record_init(rec);
    if (fen_a)
        ASSERT_OK(tb_bug_pos_from_fen(&rec->start[0], fen_a, NULL));
    if (fen_b)
        ASSERT_OK(tb_bug_pos_from_fen(&rec->start[1], fen_b, NULL));
    rec->cur[0] = rec->start[0];
    rec->cur[1] = rec->start[1];
}

/* 7.4: what the game can go on from, and what it cannot, with the reason. */
TB_TEST(law_7_4_which_illegal_moves_can_stand)
{
    static const struct {
        const char *fen, *from, *to, *why; /* why: NULL = it can stand */
    } cases[] = {
        {"4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1", "a1", "d5", NULL},       /* a rook jumping to take */
        {"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1", "g4", NULL},        /* a knight off its pattern */
        {"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1", "e2", "check"},     /* 3.9 */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2", "e8", "king"},      /* takes nothing, a king */
        {"3k4/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2", "e8", "promotion"}, /* 3.1 */
        {"4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2", "e4", "jump"},    /* over a piece */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2", "e3", "legal"},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e1", "e2", "mover's"}, /* own piece there */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "d4", "d5", "no piece"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_bug_pos pos;
        ASSERT_OK(tb_bug_pos_from_fen(&pos, cases[i].fen, NULL));
        const char *why = tb_bug_illegal_why(&pos, MV(cases[i].from, cases[i].to));
        if (!cases[i].why) {
            if (why)
                TB_FAIL("case %zu: refused: %s", i, why);
        } else {
            ASSERT_TRUE(why != NULL);
            ASSERT_STR_CONTAINS(why, cases[i].why);
        }
    }
}

/* 7.4, 7.7: an illegal capture passes its piece; its takeback takes it from the partner's hand;
 * once dropped, the takeback waits for 7.7's piece off the other board. Each refusal changes
 * nothing. */
TB_TEST(law_7_7_takeback_takes_the_piece_from_the_hand_or_after_its_removal)
{
    static tb_bug_record rec, copy;
    record_from(&rec, "4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1", NULL);
    ASSERT_EQ(tb_bug_record_push_takeback(&rec, 0, MV("a1", "d5")), TB_ERR_STATE); /* none open */
    ASSERT_EQ(tb_bug_record_push_illegal(&rec, 0, MV("e1", "e2"), -1), TB_ERR_ILLEGAL); /* legal */
    ASSERT_EQ(rec.nplies, 0);
    ASSERT_OK(tb_bug_record_push_illegal(&rec, 0, MV("a1", "d5"), 1000));
    ASSERT_EQ(rec.cur[1].pool[TB_CHESS_BLACK][TB_CHESS_KNIGHT], 1); /* 2.1: passed */
    ASSERT_OK(tb_bug_record_push(&rec, 1, MV("e2", "e4"), -1));
    ASSERT_OK(tb_bug_record_push(&rec, 1, tb_bug_move_drop(TB_CHESS_KNIGHT, SQ("c6")), -1));
    copy = rec;
    ASSERT_EQ(tb_bug_record_push_takeback(&rec, 0, MV("a1", "d5")), TB_ERR_NOTFOUND);
    ASSERT_EQ(tb_bug_record_push_takeback(&rec, 0, MV("a1", "d6")), TB_ERR_STATE);
    ASSERT_EQ(tb_bug_record_push_removed(&rec, 1, SQ("e4")), TB_OK); /* any piece may go */
    rec = copy;
    ASSERT_EQ(tb_bug_record_push_removed(&rec, 1, SQ("e8")), TB_ERR_ILLEGAL); /* a king: no */
    ASSERT_EQ(tb_bug_record_push_removed(&rec, 1, SQ("e5")), TB_ERR_ILLEGAL); /* empty */
    ASSERT_EQ(memcmp(&rec, &copy, sizeof rec), 0);
    ASSERT_OK(tb_bug_record_push_removed(&rec, 1, SQ("c6")));
    ASSERT_EQ(rec.cur[1].pool[TB_CHESS_BLACK][TB_CHESS_KNIGHT], 1);
    ASSERT_EQ(rec.cur[1].chess.side, TB_CHESS_WHITE); /* no move: the side stays */
    ASSERT_OK(tb_bug_record_push_takeback(&rec, 0, MV("a1", "d5")));
    ASSERT_EQ(rec.cur[1].pool[TB_CHESS_BLACK][TB_CHESS_KNIGHT], 0);
    ASSERT_TRUE(tb_bug_pos_equal(&rec.cur[0], &rec.start[0]));
    ASSERT_EQ(tb_bug_record_push_takeback(&rec, 0, MV("a1", "d5")), TB_ERR_STATE); /* once */
    /* BPGN out and back */
    char buf[2048];
    ASSERT_GT(tb_bug_bpgn_write(&rec, buf, sizeof buf), 0);
    ASSERT_STR_CONTAINS(buf, "{A 7.4: illegal move} 1A. Ra1xd5 {1.000}");
    ASSERT_STR_CONTAINS(buf, "{B 7.7: piece on c6 handed back}");
    ASSERT_STR_CONTAINS(buf, "{A 7.4: illegal move a1d5 taken back}");
    struct tb_error err;
    ASSERT_OK(tb_bug_bpgn_read(&copy, buf, strlen(buf), &err));
    ASSERT_EQ(copy.nplies, rec.nplies);
    for (int b = 0; b < 2; b++)
        ASSERT_TRUE(tb_bug_pos_equal(&copy.cur[b], &rec.cur[b]));
}

/* 7.7's piece taken off a board whose own illegal move is open: gone from the board before
 * that move too, so that move's takeback does not bring it back; that move's squares are
 * refused. */
TB_TEST(law_7_7_removal_on_a_board_with_an_open_illegal_move_stays_removed)
{
    static tb_bug_record rec;
    record_from(&rec, NULL, "4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1");
    ASSERT_OK(tb_bug_record_push_illegal(&rec, 1, MV("a1", "b3"), -1)); /* a rook askew */
    ASSERT_EQ(tb_bug_record_push_removed(&rec, 1, SQ("b3")), TB_ERR_ILLEGAL);
    ASSERT_OK(tb_bug_record_push_removed(&rec, 1, SQ("d5")));
    ASSERT_OK(tb_bug_record_push_takeback(&rec, 1, MV("a1", "b3")));
    ASSERT_EQ(rec.cur[1].chess.board[SQ("d5")], 0);
    ASSERT_EQ(rec.cur[1].chess.board[SQ("a1")], TB_CHESS_PIECE(0, TB_CHESS_ROOK));
    ASSERT_EQ(rec.cur[1].pool[TB_CHESS_BLACK][TB_CHESS_KNIGHT], 1);
    tb_bug_pos pos[2];
    ASSERT_OK(tb_bug_record_replay(&rec, rec.nplies, pos));
    ASSERT_TRUE(tb_bug_pos_equal(&pos[1], &rec.cur[1]));
}

/* 3.2: a promoted pawn taken off the board goes to the hand as a pawn; the e.p. square of a
 * pawn removed is gone with it. */
TB_TEST(law_7_7_promoted_pawn_off_the_board_is_a_pawn_in_hand)
{
    tb_bug_pos pos;
    ASSERT_OK(tb_bug_pos_from_fen(&pos, "4k3/8/8/8/3Q~4/8/8/4K3 b - - 0 1", NULL));
    ASSERT_OK(tb_bug_pos_remove(&pos, SQ("d4")));
    ASSERT_EQ(pos.pool[TB_CHESS_WHITE][TB_CHESS_PAWN], 1);
    ASSERT_EQ(pos.pool[TB_CHESS_WHITE][TB_CHESS_QUEEN], 0);
    ASSERT_EQ(pos.promoted, 0);
    ASSERT_OK(tb_bug_pos_from_fen(&pos, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", NULL));
    ASSERT_OK(tb_bug_pos_remove(&pos, SQ("e4")));
    ASSERT_EQ(pos.chess.ep, TB_CHESS_NOSQ);
    /* the side not to move left in check: no position, nothing changes */
    ASSERT_OK(tb_bug_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/r2nK3 b - - 0 1", NULL));
    tb_bug_pos before = pos;
    ASSERT_EQ(tb_bug_pos_remove(&pos, SQ("d1")), TB_ERR_ILLEGAL);
    ASSERT_TRUE(tb_bug_pos_equal(&pos, &before));
    ASSERT_EQ(tb_bug_pos_remove(&pos, SQ("e1")), TB_ERR_ARG);
    ASSERT_EQ(tb_bug_pos_remove(&pos, SQ("e4")), TB_ERR_ARG);
}

/* The reader refuses article 7 comments that do not play, naming the line and column. */
TB_TEST(law_7_4_bpgn_article_7_comments_that_do_not_play_are_refused)
{
    static tb_bug_record rec;
    struct tb_error err;
    static const char *const bad[] = {
        "{A 7.4: illegal move} 1A. e2e4 *",               /* legal: no illegal move */
        "{A 7.4: illegal move} 1A. Nonsense *",           /* no squares */
        "1A. e4 {A 7.4: illegal move e2e4 taken back} *", /* nothing open */
        "{B 7.7: piece on e8 handed back} *",             /* a king */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = tb_bug_bpgn_read(&rec, bad[i], strlen(bad[i]), &err);
        if (rc >= 0)
            TB_FAIL("case %zu read", i);
        ASSERT_STR_CONTAINS(err.msg, "BPGN line 1");
    }
}
