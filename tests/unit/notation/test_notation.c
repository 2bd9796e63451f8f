/* Notation (Appendix C): piece letters, SAN and long notation out, SAN and UCI in. */
#include <string.h>

#include "tb_chess.h"
#include "tb_test.h"

static tb_chess_pos fen(const char *f)
{
    tb_chess_pos pos;
    struct tb_error err;
    if (tb_chess_pos_from_fen(&pos, f, 0, &err) != TB_OK)
        TB_FAIL("bad test FEN %s: %s", f, err.msg);
    return pos;
}

static tb_chess_pos fen960(const char *f)
{
    tb_chess_pos pos;
    struct tb_error err;
    if (tb_chess_pos_from_fen(&pos, f, TB_CHESS_FEN_960, &err) != TB_OK)
        TB_FAIL("bad test FEN %s: %s", f, err.msg);
    return pos;
}

static tb_chess_move uci(const tb_chess_pos *pos, const char *s)
{
    tb_chess_move m = 0;
    if (tb_chess_move_from_uci(pos, s, &m) != TB_OK)
        TB_FAIL("UCI %s not legal", s);
    return m;
}

/* SAN of a UCI move in a letter set with flags. */
static const char *san(const tb_chess_pos *pos, const char *u, enum tb_chess_letters l,
                       unsigned flags)
{
    static char buf[32];
    int n = tb_chess_move_to_san(pos, uci(pos, u), l, flags, buf, sizeof buf);
    if (n < 0)
        TB_FAIL("to_san %s failed: %d", u, n);
    ASSERT_EQ(n, (int)strlen(buf));
    return buf;
}

static const char *long_of(const tb_chess_pos *pos, const char *u, enum tb_chess_letters l)
{
    static char buf[32];
    int n = tb_chess_move_to_long(pos, uci(pos, u), l, buf, sizeof buf);
    if (n < 0)
        TB_FAIL("to_long %s failed: %d", u, n);
    return buf;
}

static const char *uci_of(const tb_chess_pos *pos, tb_chess_move m)
{
    static char buf[8];
    ASSERT_GT(tb_chess_move_to_uci(pos, m, buf, sizeof buf), 0);
    return buf;
}

/* from_san must give exactly the move named in UCI. */
static void san_in(const tb_chess_pos *pos, const char *text, enum tb_chess_letters l,
                   const char *want_uci)
{
    tb_chess_move m = 0;
    struct tb_error err = {0};
    int rc = tb_chess_move_from_san(pos, text, l, &m, &err);
    if (rc != TB_OK)
        TB_FAIL("'%s' not read: %d %s", text, rc, err.msg);
    ASSERT_STR_EQ(uci_of(pos, m), want_uci);
}

static void san_bad(const tb_chess_pos *pos, const char *text, enum tb_chess_letters l, int code,
                    const char *msg)
{
    tb_chess_move m = 0;
    struct tb_error err = {0};
    ASSERT_EQ(tb_chess_move_from_san(pos, text, l, &m, &err), code);
    ASSERT_EQ(err.code, code);
    ASSERT_STR_EQ(err.msg, msg);
}

#define KNIGHTS_B1_F3 "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
#define ROOKS_A1_A5   "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
#define THREE_QUEENS  "k7/8/8/8/1Q6/8/1Q1Q4/7K w - - 0 1"
#define PROMO         "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
#define EP            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
#define MATE          "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
#define CASTLE_W      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define CASTLE_B      "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
#define START         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define BISHOP_B5     "rnbqkbnr/p1pppppp/8/1p6/4P3/8/PPPP1PPP/RNBQKBNR w KQkq b6 0 2"

TB_TEST(appendix_c_piece_letters)
{
    static const char *const want[3] = {"NBRQK", "PLTDK", "SLTDK"};
    for (int l = 0; l < 3; l++) {
        ASSERT_EQ(tb_chess_piece_letter(TB_CHESS_PAWN, (enum tb_chess_letters)l), 0);
        for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_KING; t++)
            ASSERT_EQ(tb_chess_piece_letter(t, (enum tb_chess_letters)l),
                      want[l][t - TB_CHESS_KNIGHT]);
    }
    ASSERT_EQ(tb_chess_piece_letter(7, TB_CHESS_LETTERS_EN), 0);
}

TB_TEST(appendix_c_10_disambiguation_by_file)
{
    tb_chess_pos p = fen(KNIGHTS_B1_F3);
    ASSERT_STR_EQ(san(&p, "b1d2", TB_CHESS_LETTERS_EN, 0), "Nbd2");
    ASSERT_STR_EQ(san(&p, "f3d2", TB_CHESS_LETTERS_EN, 0), "Nfd2");
    ASSERT_STR_EQ(san(&p, "f3d2", TB_CHESS_LETTERS_NL, 0), "Pfd2");
    ASSERT_STR_EQ(san(&p, "f3d2", TB_CHESS_LETTERS_DE, 0), "Sfd2");
    /* Only one knight reaches c3 or e5: no departure square. */
    ASSERT_STR_EQ(san(&p, "b1c3", TB_CHESS_LETTERS_EN, 0), "Nc3");
    ASSERT_STR_EQ(san(&p, "f3e5", TB_CHESS_LETTERS_DE, 0), "Se5");
}

TB_TEST(appendix_c_10_disambiguation_by_rank)
{
    tb_chess_pos p = fen(ROOKS_A1_A5);
    ASSERT_STR_EQ(san(&p, "a1a3", TB_CHESS_LETTERS_EN, 0), "R1a3");
    ASSERT_STR_EQ(san(&p, "a5a3", TB_CHESS_LETTERS_EN, 0), "R5a3");
    ASSERT_STR_EQ(san(&p, "a5a3", TB_CHESS_LETTERS_NL, 0), "T5a3");
    ASSERT_STR_EQ(san(&p, "a1b1", TB_CHESS_LETTERS_EN, 0), "Rb1");
}

TB_TEST(appendix_c_10_disambiguation_by_both_three_queens)
{
    tb_chess_pos p = fen(THREE_QUEENS);
    ASSERT_STR_EQ(san(&p, "b2d4", TB_CHESS_LETTERS_EN, 0), "Qb2d4");
    ASSERT_STR_EQ(san(&p, "b4d4", TB_CHESS_LETTERS_EN, 0), "Q4d4");
    ASSERT_STR_EQ(san(&p, "d2d4", TB_CHESS_LETTERS_EN, 0), "Qdd4");
    ASSERT_STR_EQ(san(&p, "b2d4", TB_CHESS_LETTERS_DE, 0), "Db2d4");
    /* and back in: each form names one queen, the short one is ambiguous */
    san_in(&p, "Qb2d4", TB_CHESS_LETTERS_EN, "b2d4");
    san_in(&p, "Q4d4", TB_CHESS_LETTERS_EN, "b4d4");
    san_in(&p, "Qdd4", TB_CHESS_LETTERS_EN, "d2d4");
    san_bad(&p, "Qd4", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "Qd4 is ambiguous: Qb2d4, Qd2d4, Qb4d4");
    san_bad(&p, "Qbd4", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL, "Qbd4 is ambiguous: Qb2d4, Qb4d4");
}

TB_TEST(law_3_7_5_promotion_with_and_without_capture)
{
    tb_chess_pos p = fen(PROMO);
    ASSERT_STR_EQ(san(&p, "b7b8q", TB_CHESS_LETTERS_EN, 0), "b8=Q+");
    ASSERT_STR_EQ(san(&p, "b7a8q", TB_CHESS_LETTERS_EN, 0), "bxa8=Q+");
    ASSERT_STR_EQ(san(&p, "b7b8q", TB_CHESS_LETTERS_EN, TB_CHESS_SAN_NOEQ), "b8Q+");
    /* Appendix C: d8D style */
    ASSERT_STR_EQ(san(&p, "b7b8q", TB_CHESS_LETTERS_NL, TB_CHESS_SAN_NOEQ), "b8D+");
    ASSERT_STR_EQ(san(&p, "b7a8q", TB_CHESS_LETTERS_DE, TB_CHESS_SAN_NOEQ), "bxa8D+");
}

TB_TEST(law_3_7_5_underpromotion)
{
    tb_chess_pos p = fen(PROMO);
    ASSERT_STR_EQ(san(&p, "b7b8n", TB_CHESS_LETTERS_EN, 0), "b8=N");
    ASSERT_STR_EQ(san(&p, "b7b8n", TB_CHESS_LETTERS_NL, TB_CHESS_SAN_NOEQ), "b8P");
    ASSERT_STR_EQ(san(&p, "b7b8n", TB_CHESS_LETTERS_DE, TB_CHESS_SAN_NOEQ), "b8S");
    ASSERT_STR_EQ(san(&p, "b7a8r", TB_CHESS_LETTERS_EN, 0), "bxa8=R+");
    ASSERT_STR_EQ(san(&p, "b7a8b", TB_CHESS_LETTERS_NL, 0), "bxa8=L");
    ASSERT_STR_EQ(uci_of(&p, uci(&p, "b7a8b")), "b7a8b");
}

TB_TEST(law_3_7_4_en_passant_with_and_without_mark)
{
    tb_chess_pos p = fen(EP);
    tb_chess_move m = uci(&p, "e5d6");
    ASSERT_EQ(tb_chess_move_kind(m), TB_CHESS_MK_EP);
    ASSERT_STR_EQ(san(&p, "e5d6", TB_CHESS_LETTERS_EN, 0), "exd6");
    ASSERT_STR_EQ(san(&p, "e5d6", TB_CHESS_LETTERS_EN, TB_CHESS_SAN_EP), "exd6 e.p.");
    ASSERT_STR_EQ(san(&p, "e5d6", TB_CHESS_LETTERS_DE, TB_CHESS_SAN_EP), "exd6 e.p.");
    /* an ordinary pawn move gets no mark */
    ASSERT_STR_EQ(san(&p, "e5e6", TB_CHESS_LETTERS_EN, TB_CHESS_SAN_EP), "e6");
    ASSERT_STR_EQ(long_of(&p, "e5d6", TB_CHESS_LETTERS_NL), "e5xd6");
}

TB_TEST(appendix_c_check_and_mate_signs)
{
    tb_chess_pos p = fen(MATE);
    ASSERT_STR_EQ(san(&p, "h5f7", TB_CHESS_LETTERS_EN, 0), "Qxf7#");
    ASSERT_STR_EQ(san(&p, "h5f7", TB_CHESS_LETTERS_NL, 0), "Dxf7#");
    ASSERT_STR_EQ(san(&p, "c4f7", TB_CHESS_LETTERS_EN, 0), "Bxf7+");
    ASSERT_STR_EQ(san(&p, "c4f7", TB_CHESS_LETTERS_DE, 0), "Lxf7+");
    ASSERT_STR_EQ(long_of(&p, "h5f7", TB_CHESS_LETTERS_DE), "Dh5xf7#");
    ASSERT_STR_EQ(san(&p, "h5h7", TB_CHESS_LETTERS_EN, 0), "Qxh7");
}

TB_TEST(law_3_8_castling_all_flags_both_colours)
{
    tb_chess_pos w = fen(CASTLE_W), b = fen(CASTLE_B);
    for (int l = 0; l < 3; l++) {
        enum tb_chess_letters L = (enum tb_chess_letters)l;
        ASSERT_STR_EQ(san(&w, "e1g1", L, 0), "O-O");
        ASSERT_STR_EQ(san(&w, "e1c1", L, 0), "O-O-O");
        ASSERT_STR_EQ(san(&b, "e8g8", L, 0), "O-O");
        ASSERT_STR_EQ(san(&b, "e8c8", L, 0), "O-O-O");
        ASSERT_STR_EQ(san(&w, "e1g1", L, TB_CHESS_SAN_ZERO), "0-0");
        ASSERT_STR_EQ(san(&w, "e1c1", L, TB_CHESS_SAN_ZERO | TB_CHESS_SAN_EP), "0-0-0");
        ASSERT_STR_EQ(san(&b, "e8g8", L, TB_CHESS_SAN_ZERO | TB_CHESS_SAN_NOEQ), "0-0");
        ASSERT_STR_EQ(san(&b, "e8c8", L, TB_CHESS_SAN_ZERO), "0-0-0");
        ASSERT_STR_EQ(long_of(&w, "e1c1", L), "0-0-0");
    }
    /* castling is king takes rook inside; UCI shows the king's destination */
    tb_chess_move m = uci(&w, "e1g1");
    ASSERT_TRUE(tb_chess_move_is_castle(m));
    ASSERT_EQ(tb_chess_move_to(m), TB_CHESS_SQ(7, 0));
    ASSERT_STR_EQ(uci_of(&w, m), "e1g1");
    ASSERT_STR_EQ(uci_of(&w, uci(&w, "e1c1")), "e1c1");
    ASSERT_STR_EQ(uci_of(&b, uci(&b, "e8g8")), "e8g8");
    ASSERT_STR_EQ(uci_of(&b, uci(&b, "e8c8")), "e8c8");
    /* king takes rook is accepted in standard chess too */
    ASSERT_EQ(uci(&w, "e1h1"), m);
    ASSERT_EQ(uci(&b, "e8a8"), uci(&b, "e8c8"));
}

TB_TEST(guideline_ii_chess960_uci_castling)
{
    /* the same position played as Chess960: UCI is king takes rook */
    tb_chess_pos w = fen960(CASTLE_W);
    ASSERT_STR_EQ(uci_of(&w, uci(&w, "e1h1")), "e1h1");
    ASSERT_STR_EQ(uci_of(&w, uci(&w, "e1a1")), "e1a1");
    /* king on b1, rooks a1 and h1: b1a1 castles long, b1c1 is an ordinary king move */
    tb_chess_pos p = fen960("rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1");
    tb_chess_move ooo = uci(&p, "b1a1"), oo = uci(&p, "b1h1"), step = uci(&p, "b1c1");
    ASSERT_TRUE(tb_chess_move_is_castle(ooo));
    ASSERT_TRUE(tb_chess_move_is_castle(oo));
    ASSERT_FALSE(tb_chess_move_is_castle(step));
    ASSERT_EQ(tb_chess_move_king_to(ooo), TB_CHESS_SQ(2, 0));
    ASSERT_STR_EQ(uci_of(&p, ooo), "b1a1");
    ASSERT_STR_EQ(san(&p, "b1a1", TB_CHESS_LETTERS_EN, 0), "O-O-O");
    ASSERT_STR_EQ(san(&p, "b1h1", TB_CHESS_LETTERS_DE, TB_CHESS_SAN_ZERO), "0-0");
    san_in(&p, "O-O-O", TB_CHESS_LETTERS_EN, "b1a1");
    san_in(&p, "0-0", TB_CHESS_LETTERS_NL, "b1h1");
    san_in(&p, "Kc1", TB_CHESS_LETTERS_EN, "b1c1");
}

TB_TEST(uci_in_and_out)
{
    tb_chess_pos p = fen(START);
    tb_chess_move m = 0;
    ASSERT_STR_EQ(uci_of(&p, uci(&p, "g1f3")), "g1f3");
    ASSERT_EQ(tb_chess_move_from_uci(&p, "e2e5", &m), TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_chess_move_from_uci(&p, "e2", &m), TB_ERR_PARSE);
    ASSERT_EQ(tb_chess_move_from_uci(&p, "i2e4", &m), TB_ERR_PARSE);
    ASSERT_EQ(tb_chess_move_from_uci(&p, "e2e4x", &m), TB_ERR_PARSE);
    ASSERT_EQ(tb_chess_move_from_uci(&p, "0000", &m), TB_ERR_PARSE);
    tb_chess_pos q = fen(PROMO);
    ASSERT_STR_EQ(uci_of(&q, uci(&q, "b7a8q")), "b7a8q");
    ASSERT_STR_EQ(uci_of(&q, uci(&q, "b7b8N")), "b7b8n");
    ASSERT_EQ(tb_chess_move_from_uci(&q, "b7b8", &m), TB_ERR_ILLEGAL);
    char small[5];
    ASSERT_EQ(tb_chess_move_to_uci(&q, uci(&q, "b7a8q"), small, sizeof small), TB_ERR_FULL);
}

TB_TEST(san_input_piece_moves_all_forms)
{
    tb_chess_pos p = fen(START);
    static const char *const forms[] = {"Nf3",    "N1f3",     "Ngf3",  "Ng1f3", "Ng1-f3",
                                        "Nf3+",   "Nf3!",     "Nf3?!", " Nf3 ", "Nf3!!",
                                        "Nf3(=)", "Nf3+ (=)", "Nf3++"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        san_in(&p, forms[i], TB_CHESS_LETTERS_EN, "g1f3");
    san_in(&p, "Pf3", TB_CHESS_LETTERS_NL, "g1f3");
    san_in(&p, "Pg1f3", TB_CHESS_LETTERS_NL, "g1f3");
    san_in(&p, "Sf3", TB_CHESS_LETTERS_DE, "g1f3");
    san_in(&p, "Sg1-f3", TB_CHESS_LETTERS_DE, "g1f3");
    san_in(&p, "e4", TB_CHESS_LETTERS_EN, "e2e4");
    san_in(&p, "e2e4", TB_CHESS_LETTERS_EN, "e2e4");
    san_in(&p, "e2-e4", TB_CHESS_LETTERS_DE, "e2e4");
    tb_chess_pos b5 = fen(BISHOP_B5);
    san_in(&b5, "Bxb5", TB_CHESS_LETTERS_EN, "f1b5");
    san_in(&b5, "Lxb5+", TB_CHESS_LETTERS_NL, "f1b5");
    san_in(&b5, "Lf1xb5", TB_CHESS_LETTERS_NL, "f1b5");
    san_in(&b5, "L:b5", TB_CHESS_LETTERS_DE, "f1b5");
    /* a capture written without x is still found */
    san_in(&b5, "Bb5", TB_CHESS_LETTERS_EN, "f1b5");
    /* Dutch queen letter D is also a file: Dd1-e2 is the queen, not a promotion */
    san_in(&b5, "Dd1e2", TB_CHESS_LETTERS_NL, "d1e2");
}

TB_TEST(appendix_c_13_long_notation)
{
    tb_chess_pos p = fen(START);
    ASSERT_STR_EQ(long_of(&p, "g1f3", TB_CHESS_LETTERS_NL), "Pg1f3");
    ASSERT_STR_EQ(long_of(&p, "g1f3", TB_CHESS_LETTERS_EN), "Ng1f3");
    ASSERT_STR_EQ(long_of(&p, "e2e4", TB_CHESS_LETTERS_DE), "e2e4");
    tb_chess_pos b5 = fen(BISHOP_B5);
    ASSERT_STR_EQ(long_of(&b5, "f1b5", TB_CHESS_LETTERS_NL), "Lf1xb5");
    ASSERT_STR_EQ(long_of(&b5, "f1b5", TB_CHESS_LETTERS_EN), "Bf1xb5");
    tb_chess_pos q = fen(PROMO);
    ASSERT_STR_EQ(long_of(&q, "b7a8q", TB_CHESS_LETTERS_NL), "b7xa8D+");
}

TB_TEST(san_input_castling_forms)
{
    tb_chess_pos w = fen(CASTLE_W), b = fen(CASTLE_B);
    static const char *const short_forms[] = {"O-O", "0-0", "OO", "o-o", "O-O+", "0-0!"};
    static const char *const long_forms[] = {"O-O-O", "0-0-0", "OOO", "0-0-0#"};
    for (size_t i = 0; i < 6; i++) {
        san_in(&w, short_forms[i], TB_CHESS_LETTERS_EN, "e1g1");
        san_in(&b, short_forms[i], TB_CHESS_LETTERS_DE, "e8g8");
    }
    for (size_t i = 0; i < 4; i++) {
        san_in(&w, long_forms[i], TB_CHESS_LETTERS_NL, "e1c1");
        san_in(&b, long_forms[i], TB_CHESS_LETTERS_EN, "e8c8");
    }
    tb_chess_pos start = fen(START);
    san_bad(&start, "O-O", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "O-O is illegal: castling king side is not possible here");
}

TB_TEST(san_input_promotion_forms)
{
    tb_chess_pos p = fen(PROMO);
    static const char *const queen[] = {"b8=Q", "b8Q", "b8/Q", "b8(Q)", "b8q", "b8=Q+", "b7b8Q"};
    for (size_t i = 0; i < sizeof queen / sizeof queen[0]; i++)
        san_in(&p, queen[i], TB_CHESS_LETTERS_EN, "b7b8q");
    san_in(&p, "b8D", TB_CHESS_LETTERS_NL, "b7b8q");
    san_in(&p, "b8=D", TB_CHESS_LETTERS_DE, "b7b8q");
    san_in(&p, "b8P", TB_CHESS_LETTERS_NL, "b7b8n");
    san_in(&p, "b8S", TB_CHESS_LETTERS_DE, "b7b8n");
    san_in(&p, "b8=N", TB_CHESS_LETTERS_EN, "b7b8n");
    san_in(&p, "bxa8=R", TB_CHESS_LETTERS_EN, "b7a8r");
    san_in(&p, "bxa8T+", TB_CHESS_LETTERS_NL, "b7a8r");
    san_in(&p, "ba8L", TB_CHESS_LETTERS_DE, "b7a8b");
    san_bad(&p, "b8", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "b8 is incomplete: a pawn reaching b8 must be promoted (=Q, =R, =B or =N)");
    san_bad(&p, "b8=K", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "'b8=K' is not a move");
    /* a knight does not promote */
    san_bad(&p, "Nb8=Q", TB_CHESS_LETTERS_EN, TB_ERR_PARSE,
            "'Nb8=Q' is not a move: only pawns promote");
}

TB_TEST(law_3_7_4_san_input_en_passant_forms)
{
    tb_chess_pos p = fen(EP);
    static const char *const forms[] = {"exd6", "exd6 e.p.", "exd6ep", "exd6e.p.",  "exd6 ep",
                                        "ed6",  "e5d6",      "e:d6",   "exd6 e.p.+"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        san_in(&p, forms[i], TB_CHESS_LETTERS_EN, "e5d6");
}

TB_TEST(san_input_errors_name_the_problem)
{
    tb_chess_pos p = fen(KNIGHTS_B1_F3);
    san_bad(&p, "Nd2", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL, "Nd2 is ambiguous: Nb1d2, Nf3d2");
    san_bad(&p, "Pd2", TB_CHESS_LETTERS_NL, TB_ERR_ILLEGAL, "Pd2 is ambiguous: Pb1d2, Pf3d2");
    san_bad(&p, "Sd2+", TB_CHESS_LETTERS_DE, TB_ERR_ILLEGAL, "Sd2+ is ambiguous: Sb1d2, Sf3d2");
    tb_chess_pos s = fen(START);
    san_bad(&s, "Nd4", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "Nd4 is illegal: no knight can move to d4");
    san_bad(&s, "e5", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL, "e5 is illegal: no pawn can move to e5");
    san_bad(&s, "Nxf3", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "Nxf3 is illegal: no knight can capture on f3");
    san_bad(&s, "Nbd2", TB_CHESS_LETTERS_EN, TB_ERR_ILLEGAL,
            "Nbd2 is illegal: no knight from there can move to d2");
    san_bad(&s, "xyz", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "'xyz' is not a move");
    san_bad(&s, "Zf3", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "'Zf3' is not a move");
    san_bad(&s, "Sf3", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "'Sf3' is not a move");
    san_bad(&s, "Nf9", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "'Nf9' is not a move");
    san_bad(&s, "", TB_CHESS_LETTERS_EN, TB_ERR_PARSE, "empty move");
    san_bad(&s, "Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3", TB_CHESS_LETTERS_EN, TB_ERR_PARSE,
            "'Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3...' is not a move: too long");
    /* nothing is written on failure */
    tb_chess_move m = 12345;
    ASSERT_LT(tb_chess_move_from_san(&s, "Ke2", TB_CHESS_LETTERS_EN, &m, NULL), 0);
    ASSERT_EQ(m, 12345);
}

TB_TEST(move_parse_takes_uci_or_english_san)
{
    tb_chess_pos s = fen(START), w = fen(CASTLE_W);
    tb_chess_move m = 0;
    struct tb_error err = {0};
    ASSERT_OK(tb_chess_move_parse(&s, "e2e4", &m, &err));
    ASSERT_STR_EQ(uci_of(&s, m), "e2e4");
    ASSERT_OK(tb_chess_move_parse(&s, "Nc3", &m, &err));
    ASSERT_STR_EQ(uci_of(&s, m), "b1c3");
    ASSERT_OK(tb_chess_move_parse(&w, "e1g1", &m, &err));
    ASSERT_TRUE(tb_chess_move_is_castle(m));
    ASSERT_OK(tb_chess_move_parse(&w, "O-O-O", &m, &err));
    ASSERT_STR_EQ(uci_of(&w, m), "e1c1");
    ASSERT_EQ(tb_chess_move_parse(&s, "e2e5", &m, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_EQ(err.msg, "e2e5 is illegal here");
    ASSERT_EQ(tb_chess_move_parse(&s, "Sf3", &m, &err), TB_ERR_PARSE);
}

/* Every refusal of tb_chess_move_parse says why in err, whichever reader refused the text. */
TB_TEST(move_parse_refusals_fill_err)
{
    tb_chess_pos s = fen(START);
    static const char *const bad[] = {"",     "e2",    "e2e9", "E2E4", "e2e4x", "e7e8k",
                                      "e2e5", "e2e4q", "a1a1", "Ke2",  "Sf3",   "e2e4e4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tb_chess_move m = 0;
        struct tb_error err = {0};
        int rc = tb_chess_move_parse(&s, bad[i], &m, &err);
        if (rc >= 0 || err.code != rc || !err.msg[0])
            TB_FAIL("\"%s\": rc %d, err %d \"%s\"", bad[i], rc, err.code, err.msg);
    }
}

TB_TEST(to_san_refuses_illegal_and_short_buffers)
{
    tb_chess_pos s = fen(START);
    char buf[16];
    tb_chess_move bad = tb_chess_move_new(TB_CHESS_SQ(4, 1), TB_CHESS_SQ(4, 4), 0);
    ASSERT_EQ(tb_chess_move_to_san(&s, bad, TB_CHESS_LETTERS_EN, 0, buf, sizeof buf),
              TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_chess_move_to_long(&s, bad, TB_CHESS_LETTERS_EN, buf, sizeof buf), TB_ERR_ILLEGAL);
    tb_chess_pos e = fen(EP);
    ASSERT_EQ(
        tb_chess_move_to_san(&e, uci(&e, "e5d6"), TB_CHESS_LETTERS_EN, TB_CHESS_SAN_EP, buf, 5),
        TB_ERR_FULL);
    ASSERT_STR_EQ(buf, "exd6");
}

/* Every legal move of a set of positions reads back from its own SAN in every letter set and
 * with every output flag. */
TB_TEST(san_round_trip_every_move)
{
    static const char *const fens[] = {
        START,
        KNIGHTS_B1_F3,
        ROOKS_A1_A5,
        THREE_QUEENS,
        PROMO,
        EP,
        MATE,
        CASTLE_W,
        CASTLE_B,
        BISHOP_B5,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"};
    int checked = 0;
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        tb_chess_pos p = fen(fens[f]);
        tb_chess_movelist list;
        tb_chess_gen_legal(&p, &list);
        for (int i = 0; i < list.count; i++)
            for (int l = 0; l < 3; l++)
                for (unsigned flags = 0; flags < 8; flags++) {
                    char buf[32];
                    tb_chess_move m = 0;
                    struct tb_error err = {0};
                    enum tb_chess_letters L = (enum tb_chess_letters)l;
                    ASSERT_GT(tb_chess_move_to_san(&p, list.moves[i], L, flags, buf, sizeof buf),
                              0);
                    if (tb_chess_move_from_san(&p, buf, L, &m, &err) != TB_OK)
                        TB_FAIL("%s: '%s' does not read back: %s", fens[f], buf, err.msg);
                    ASSERT_EQ(m, list.moves[i]);
                    ASSERT_GT(tb_chess_move_to_long(&p, list.moves[i], L, buf, sizeof buf), 0);
                    ASSERT_OK(tb_chess_move_from_san(&p, buf, L, &m, &err));
                    ASSERT_EQ(m, list.moves[i]);
                    checked++;
                }
    }
    ASSERT_GT(checked, 1000);
}
