/* test_960.c - Chess960 (Guideline II): start positions by number and castling where only the
 * king, only the rook, or both (swapping places) move. Perft counts are Stockfish 15.1's
 * ("setoption name UCI_Chess960 value true", "go perft N"). */
#include "tb_chess.h"
#include "tb_test.h"

static tb_chess_pos load(const char *fen)
{
    tb_chess_pos pos;
    struct tb_error err;
    if (tb_chess_pos_from_fen(&pos, fen, TB_CHESS_FEN_960, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", fen, err.msg);
    return pos;
}

static tb_chess_move castle_move(const char *king, const char *rook)
{
    return tb_chess_move_new(tb_chess_square_parse(king), tb_chess_square_parse(rook),
                             TB_CHESS_MK_CASTLE);
}

/* Castling must be legal, end with the given board and come back exactly on unmake. */
static void expect_castle(const char *fen, const char *king, const char *rook, const char *after)
{
    tb_chess_pos pos = load(fen), before = pos;
    tb_chess_move m = castle_move(king, rook);
    if (!tb_chess_is_legal(&pos, m))
        TB_FAIL("castling %s with %s not legal in %s", king, rook, fen);
    tb_chess_undo undo;
    char out[100];
    tb_chess_make(&pos, m, &undo);
    ASSERT_OK(tb_chess_pos_check(&pos));
    ASSERT_GT(tb_chess_pos_to_fen(&pos, out, sizeof out), 0);
    ASSERT_STR_EQ(out, after);
    tb_chess_unmake(&pos, m, &undo);
    ASSERT_TRUE(memcmp(&pos, &before, sizeof pos) == 0);
}

static void expect_perft(const char *fen, const uint64_t counts[4])
{
    tb_chess_pos pos = load(fen);
    for (int d = 1; d <= 4; d++)
        if (tb_chess_perft(&pos, d) != counts[d - 1])
            TB_FAIL("%s: perft %d = %llu, expected %llu", fen, d,
                    (unsigned long long)tb_chess_perft(&pos, d), (unsigned long long)counts[d - 1]);
}

TB_TEST(c960_number_518_is_the_standard_array)
{
    tb_chess_pos a, b;
    ASSERT_OK(tb_chess_pos_960(&a, 518));
    tb_chess_pos_startpos(&b);
    ASSERT_TRUE(a.chess960);
    a.chess960 = false;
    ASSERT_TRUE(memcmp(&a, &b, sizeof a) == 0);
}

TB_TEST(c960_numbers_0_and_959_and_range)
{
    tb_chess_pos pos;
    char out[100];
    ASSERT_OK(tb_chess_pos_960(&pos, 0));
    tb_chess_pos_to_fen(&pos, out, sizeof out);
    ASSERT_STR_EQ(out, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    ASSERT_OK(tb_chess_pos_960(&pos, 959));
    tb_chess_pos_to_fen(&pos, out, sizeof out);
    ASSERT_STR_EQ(out, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
    ASSERT_EQ(tb_chess_pos_960(&pos, -1), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pos_960(&pos, 960), TB_ERR_ARG);
}

/* Guideline II: king between the rooks, bishops on squares of opposite colours, and every
 * number gives a different array. */
TB_TEST(c960_all_960_arrays_valid_and_distinct)
{
    static char seen[960][9];
    for (int n = 0; n < 960; n++) {
        tb_chess_pos pos;
        ASSERT_OK(tb_chess_pos_960(&pos, n));
        ASSERT_OK(tb_chess_pos_check(&pos));
        int k = pos.king_sq[TB_CHESS_WHITE], bishops = 0, light = 0;
        for (int f = 0; f < 8; f++) {
            int t = TB_CHESS_PIECE_TYPE(pos.board[f]);
            seen[n][f] = "-PNBRQK"[t];
            if (t == TB_CHESS_BISHOP) {
                bishops++;
                light += (f & 1);
            }
            ASSERT_EQ(pos.board[56 + f], pos.board[f] + 8);
        }
        ASSERT_EQ(bishops, 2);
        ASSERT_EQ(light, 1);
        ASSERT_LT(pos.castle_rook[TB_CHESS_CR_WQ], k);
        ASSERT_GT(pos.castle_rook[TB_CHESS_CR_WK], k);
        for (int m = 0; m < n; m++)
            ASSERT_TRUE(strcmp(seen[m], seen[n]) != 0);
    }
}

TB_TEST(c960_guideline_2_rook_only_castling)
{
    expect_castle("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1", "h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    expect_castle("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "c1", "a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

TB_TEST(c960_guideline_2_king_only_castling)
{
    expect_castle("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1", "f1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    /* The king passes over its own rook on d1 to reach c1. */
    expect_castle("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1", "d1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

TB_TEST(c960_guideline_2_king_and_rook_swap)
{
    expect_castle("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1", "g1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    expect_castle("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "d1", "c1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    expect_castle("2rk4/8/8/8/8/8/8/4K3 b c - 0 1", "d8", "c8", "2kr4/8/8/8/8/8/8/4K3 w - - 1 2");
}

/* 3.8.2: the king's destination would be attacked once the rook has left b1 (the rook on b1
 * shields c1 from the rook on a1 only before castling). */
TB_TEST(c960_castling_illegal_when_rook_shielded_destination_3_8)
{
    tb_chess_pos pos = load("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1");
    ASSERT_FALSE(tb_chess_is_legal(&pos, castle_move("d1", "b1")));
}

/* 3.8.2: a square the king crosses (e1) is attacked. */
TB_TEST(c960_castling_illegal_across_attacked_square_3_8)
{
    tb_chess_pos pos = load("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1");
    ASSERT_FALSE(tb_chess_is_legal(&pos, castle_move("b1", "h1")));
    /* A piece between the rook and its destination blocks too. */
    pos = load("4k3/8/8/8/8/8/8/R1KB4 w A - 0 1");
    ASSERT_FALSE(tb_chess_is_legal(&pos, castle_move("c1", "a1")));
}

TB_TEST(c960_perft_matches_stockfish)
{
    static const struct {
        const char *fen;
        uint64_t counts[4];
    } cases[] = {
        {"4k3/8/8/8/8/8/8/6KR w H - 0 1", {12, 53, 948, 5571}},
        {"4k3/8/8/8/8/8/8/4KR2 w F - 0 1", {14, 47, 781, 4432}},
        {"4k3/8/8/8/8/8/8/5KR1 w G - 0 1", {13, 58, 1033, 5689}},
        {"4k3/8/8/8/8/8/8/2RK4 w C - 0 1", {14, 63, 1110, 6173}},
        {"4k3/8/8/8/8/8/8/R1K5 w A - 0 1", {14, 63, 1125, 6672}},
        {"4k3/8/8/8/8/8/8/3RK3 w D - 0 1", {15, 52, 866, 4965}},
        {"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", {7, 84, 1190, 18483}},
        {"4r1k1/8/8/8/8/8/8/1K5R w H - 0 1", {17, 237, 3717, 57010}},
        {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", {20, 400, 9006, 201143}},
        {"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", {20, 400, 9006, 201143}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_perft(cases[i].fen, cases[i].counts);
}

TB_TEST(c960_castling_squares_for_the_board)
{
    tb_chess_pos pos = load("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    struct tb_chess_move_squares sq;
    tb_chess_move_squares(&pos, castle_move("f1", "g1"), &sq);
    ASSERT_EQ(sq.from, tb_chess_square_parse("f1"));
    ASSERT_EQ(sq.to, tb_chess_square_parse("g1"));
    ASSERT_EQ(sq.rook_from, tb_chess_square_parse("g1"));
    ASSERT_EQ(sq.rook_to, tb_chess_square_parse("f1"));
    ASSERT_EQ(sq.capture_sq, TB_CHESS_NOSQ);
    ASSERT_EQ(sq.piece, TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KING));
}
