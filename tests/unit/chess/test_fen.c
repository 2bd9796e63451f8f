/* test_fen.c - FEN reading and writing: every problem named, nothing changed on error. */
#include "tb_chess.h"
#include "tb_test.h"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* The FEN must be refused with a parse error whose message contains needle, and pos must be
 * left exactly as it was. */
static void expect_error(const char *fen, unsigned flags, const char *needle)
{
    tb_chess_pos pos, before;
    struct tb_error err;
    tb_chess_pos_startpos(&pos);
    before = pos;
    int rc = tb_chess_pos_from_fen(&pos, fen, flags, &err);
    if (rc != TB_ERR_PARSE)
        TB_FAIL("'%s' gave %d, expected a parse error", fen, rc);
    ASSERT_EQ(err.code, TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, needle);
    ASSERT_TRUE(memcmp(&pos, &before, sizeof pos) == 0);
}

static void expect_roundtrip(const char *fen, unsigned flags)
{
    tb_chess_pos pos;
    struct tb_error err;
    char out[100];
    if (tb_chess_pos_from_fen(&pos, fen, flags, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", fen, err.msg);
    ASSERT_OK(tb_chess_pos_check(&pos));
    ASSERT_GT(tb_chess_pos_to_fen(&pos, out, sizeof out), 0);
    ASSERT_STR_EQ(out, fen);
}

TB_TEST(fen_start_position_matches_startpos)
{
    tb_chess_pos a, b;
    ASSERT_OK(tb_chess_pos_from_fen(&a, START, 0, NULL));
    tb_chess_pos_startpos(&b);
    ASSERT_TRUE(memcmp(&a, &b, sizeof a) == 0);
    expect_roundtrip(START, 0);
}

TB_TEST(fen_roundtrip_whole_perft_suite)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/perft.epd", tb_test_data_dir());
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        ASSERT_NOT_NULL(semi);
        while (semi > line && semi[-1] == ' ')
            semi--;
        *semi = 0;
        expect_roundtrip(line, 0);
        n++;
    }
    fclose(f);
    ASSERT_EQ(n, 300);
}

TB_TEST(fen_piece_letters_both_ways)
{
    ASSERT_EQ(tb_chess_piece_from_fen('N'), TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT));
    ASSERT_EQ(tb_chess_piece_from_fen('q'), TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_QUEEN));
    ASSERT_EQ(tb_chess_piece_from_fen('K'), TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KING));
    ASSERT_EQ(tb_chess_piece_from_fen('p'), TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    /* Anything else is no piece, the string's end and the gaps of the code table included. */
    static const char none[] = "\0 x1/-S";
    for (size_t i = 0; i < sizeof none - 1; i++)
        ASSERT_EQ(tb_chess_piece_from_fen(none[i]), 0);
    ASSERT_EQ(tb_chess_piece_from_fen('\0'), 0);
    for (int color = TB_CHESS_WHITE; color <= TB_CHESS_BLACK; color++)
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_KING; t++) {
            int piece = TB_CHESS_PIECE(color, t);
            char c = tb_chess_piece_to_fen(piece);
            ASSERT_NE(c, 0);
            ASSERT_EQ(tb_chess_piece_from_fen(c), piece);
        }
    ASSERT_EQ(tb_chess_piece_to_fen(0), 0);
    ASSERT_EQ(tb_chess_piece_to_fen(7), 0);
    ASSERT_EQ(tb_chess_piece_to_fen(8), 0);
    ASSERT_EQ(tb_chess_piece_to_fen(15), 0);
    ASSERT_EQ(tb_chess_piece_to_fen(-1), 0);
    ASSERT_EQ(tb_chess_piece_to_fen(99), 0);
}

TB_TEST(fen_four_fields_default_counters)
{
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K3 b - -", 0, NULL));
    ASSERT_EQ(pos.halfmove, 0);
    ASSERT_EQ(pos.fullmove, 1);
    ASSERT_EQ(tb_chess_side_to_move(&pos), TB_CHESS_BLACK);
}

TB_TEST(fen_error_field_count)
{
    expect_error("", 0, "0 fields");
    expect_error("4k3/8/8/8/8/8/8/4K3 w", 0, "2 fields");
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0", 0, "5 fields");
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", 0, "7 fields");
}

TB_TEST(fen_error_bad_piece_letter)
{
    expect_error("4k3/8/8/8/8/8/8/4K2X w - - 0 1", 0, "bad piece letter 'X' on rank 1");
    expect_error("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", 0, "more than 8 ranks");
    expect_error("4k3/8/8/8/8/8/8/0K6 w - - 0 1", 0, "bad piece letter '0'");
}

TB_TEST(fen_error_rank_too_long)
{
    expect_error("4k4/8/8/8/8/8/8/4K3 w - - 0 1", 0, "rank 8 is too long");
    expect_error("4k3/8/8/8/8/8/8/4K3p w - - 0 1", 0, "rank 1 is too long");
}

TB_TEST(fen_error_rank_too_short)
{
    expect_error("4k3/8/8/7/8/8/8/4K3 w - - 0 1", 0, "rank 5 is too short (7 squares, column 10)");
    expect_error("4k3/8/8/8/8/8/8/4K2 w - - 0 1", 0, "rank 1 is too short");
    expect_error("4k3/8/8/8/8/8/4K3 w - - 0 1", 0, "only 7 ranks");
}

TB_TEST(fen_error_king_count_3_10)
{
    expect_error("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", 0, "White has 2 kings");
    expect_error("8/8/8/8/8/8/8/4K3 w - - 0 1", 0, "Black has 0 kings");
}

TB_TEST(fen_error_pawn_on_first_or_last_rank_3_7_5)
{
    expect_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, "White pawn on a8");
    expect_error("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", 0, "Black pawn on a1");
}

TB_TEST(fen_error_more_pieces_than_promotions_allow)
{
    expect_error("4k3/8/8/8/8/8/QQQQQQQQ/QQQQK3 w - - 0 1", 0, "promotions cannot produce");
}

TB_TEST(fen_error_side_not_to_move_in_check_3_9)
{
    expect_error("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", 0, "side not to move (Black) is in check");
    /* The side to move may be in check, however the check arose. */
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", 0, NULL));
    ASSERT_TRUE(tb_chess_in_check(&pos));
}

TB_TEST(fen_error_side_to_move_field)
{
    expect_error("4k3/8/8/8/8/8/8/4K3 x - - 0 1", 0, "neither 'w' nor 'b'");
    expect_error("4k3/8/8/8/8/8/8/4K3 white - - 0 1", 0, "neither 'w' nor 'b'");
}

TB_TEST(fen_error_castling_without_king_and_rook_3_8)
{
    expect_error("4k3/8/8/8/8/8/8/4K3 w K - 0 1", 0,
                 "no white rook on rank 1 on the king's h-side");
    expect_error("r7/4k3/8/8/8/8/8/4K3 w q - 0 1", 0, "'q' but the black king is not on rank 8");
    expect_error("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", 0,
                 "'K' gives the white king-side right again (already with the rook on h1)");
    expect_error("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", 0, "bad letter 'X'");
    expect_error("4k3/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", 0, "more than 4 letters");
    expect_error("4k3/8/8/8/8/8/8/R3K2R w C - 0 1", 0, "no white rook on rank 1 on that file");
}

/* Guideline II: castling rights that only Chess960 allows make the position Chess960, with or
 * without the flag; rights no Chess960 game can have are refused, naming the letter's column. */
TB_TEST(guideline_ii_fen_rights_off_the_standard_squares_are_chess960)
{
    static const char *const fens[] = {
        "4k3/8/8/8/8/8/8/R4K2 w Q - 0 1",  /* king on f1 */
        "4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", /* rook on b1 */
        "4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", /* the same as Shredder-FEN */
        "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1",
        "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        tb_chess_pos pos;
        struct tb_error err;
        if (tb_chess_pos_from_fen(&pos, fens[i], 0, &err) != TB_OK)
            TB_FAIL("'%s' refused: %s", fens[i], err.msg);
        ASSERT_TRUE(pos.chess960);
    }
    /* The standard rights stay standard chess; the flag makes them Chess960. */
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, START, 0, NULL));
    ASSERT_FALSE(pos.chess960);
    ASSERT_OK(tb_chess_pos_from_fen(&pos, START, TB_CHESS_FEN_960, NULL));
    ASSERT_TRUE(pos.chess960);
}

TB_TEST(guideline_ii_fen_inconsistent_960_rights_refused)
{
    struct tb_error err;
    tb_chess_pos pos;
    /* king not between the rooks: on the h-file */
    expect_error("r6k/8/8/8/8/8/8/4K3 w q - 0 1", 0,
                 "black king on h8 is not between two rooks' files");
    expect_error("4k3/8/8/8/8/8/8/R6K w Q - 0 1", TB_CHESS_FEN_960,
                 "white king on h1 is not between two rooks' files");
    /* two rights on one side of the king */
    expect_error("4k3/8/8/8/8/8/8/3K2RR w GH - 0 1", 0,
                 "'H' gives the white king-side right again (already with the rook on g1)");
    /* a right on a file with no rook, or on the king's own file */
    expect_error("1r1k2r1/8/8/8/8/8/8/1R1K2R1 w GBgc - 0 1", 0,
                 "'c' but no black rook on rank 8 on that file");
    expect_error("1r1k2r1/8/8/8/8/8/8/1R1K2R1 w D - 0 1", 0,
                 "'D' names the file of the white king on d1");
    /* kings or rooks of the two colours not mirrored */
    expect_error("1r2k1r1/8/8/8/8/8/8/1R1K2R1 w GBgb - 0 1", 0, "kings stand on d1 and e8");
    ASSERT_EQ(tb_chess_pos_from_fen(&pos, "r2k2r1/8/8/8/8/8/8/1R1K2R1 w GBga - 0 1", 0, &err),
              TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "queen-side castling rooks stand on b1 and a8");
    ASSERT_EQ(err.column, 33);
}

TB_TEST(fen_error_impossible_ep_3_7_4)
{
    expect_error("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", 0, "d3 is on the wrong rank");
    expect_error("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", 0, "no black pawn on d5");
    expect_error("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", 0, "d7 is occupied");
    expect_error("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", 0, "d6 is occupied");
    expect_error("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", 0, "with Black to move it must be on rank 3");
    expect_error("4k3/8/8/8/3Pp3/8/8/4K3 b - d9 0 1", 0, "not a square");
    /* The capture need not be possible; the field only says a double push just happened. */
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1", 0, NULL));
    ASSERT_EQ(pos.ep, tb_chess_square_parse("d6"));
}

TB_TEST(fen_error_counters)
{
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - x 1", 0, "halfmove clock: 'x'");
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - -1 1", 0, "halfmove clock");
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0 0", 0, "fullmove number: '0'");
    expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0 99999", 0, "fullmove number");
}

TB_TEST(fen_error_names_the_column)
{
    struct tb_error err;
    tb_chess_pos pos;
    ASSERT_EQ(tb_chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K2X w - - 0 1", 0, &err), TB_ERR_PARSE);
    ASSERT_EQ(err.column, 20);
    ASSERT_EQ(tb_chess_pos_from_fen(NULL, START, 0, &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pos_from_fen(&pos, NULL, 0, &err), TB_ERR_ARG);
}

TB_TEST(fen_shredder_and_xfen_castling_fields)
{
    tb_chess_pos a, b, c;
    ASSERT_OK(tb_chess_pos_from_fen(&a, START, 0, NULL));
    ASSERT_OK(tb_chess_pos_from_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
                                    0, NULL));
    /* Shredder-FEN is Chess960 notation: the same position (Chess960 array 518) as Chess960,
     * and a Chess960 position whose rights look standard is written that way to stay one. */
    ASSERT_TRUE(b.chess960);
    b.chess960 = false;
    ASSERT_TRUE(memcmp(&a, &b, sizeof a) == 0);
    expect_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 0);
    expect_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", TB_CHESS_FEN_960);
    ASSERT_OK(tb_chess_pos_960(&b, 518));
    char out[100];
    tb_chess_pos_to_fen(&b, out, sizeof out);
    ASSERT_STR_EQ(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    ASSERT_OK(
        tb_chess_pos_from_fen(&b, "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", TB_CHESS_FEN_960, NULL));
    tb_chess_pos_to_fen(&b, out, sizeof out);
    ASSERT_STR_EQ(out, "r3k2r/8/8/8/8/8/8/R3K2R w Ha - 0 1");
    /* Chess960: rooks on b and g, king on d. */
    ASSERT_OK(tb_chess_pos_from_fen(&c, "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1",
                                    TB_CHESS_FEN_960, NULL));
    ASSERT_EQ(c.castle_rook[TB_CHESS_CR_WK], tb_chess_square_parse("g1"));
    ASSERT_EQ(c.castle_rook[TB_CHESS_CR_WQ], tb_chess_square_parse("b1"));
    ASSERT_EQ(c.castle_rook[TB_CHESS_CR_BK], tb_chess_square_parse("g8"));
    ASSERT_EQ(c.castle_rook[TB_CHESS_CR_BQ], tb_chess_square_parse("b8"));
    expect_roundtrip("1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1", TB_CHESS_FEN_960);
    /* X-FEN: a letter for a rook that is not the outermost on its side, K/Q otherwise. */
    ASSERT_OK(
        tb_chess_pos_from_fen(&a, "rk2r3/8/8/8/8/8/8/RK1R3R w DAa - 0 1", TB_CHESS_FEN_960, NULL));
    expect_roundtrip("rk2r3/8/8/8/8/8/8/RK1R3R w DQq - 0 1", TB_CHESS_FEN_960);
    ASSERT_OK(
        tb_chess_pos_from_fen(&b, "rk2r3/8/8/8/8/8/8/RK1R3R w DQq - 0 1", TB_CHESS_FEN_960, NULL));
    ASSERT_TRUE(memcmp(&a, &b, sizeof a) == 0);
    ASSERT_EQ(a.castle_rook[TB_CHESS_CR_WK], tb_chess_square_parse("d1"));
    /* Without the Chess960 flag the same field reads the same Chess960 position. */
    ASSERT_OK(tb_chess_pos_from_fen(&b, "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1", 0,
                                    NULL));
    ASSERT_TRUE(memcmp(&b, &c, sizeof b) == 0);
}

TB_TEST(fen_write_buffer_too_small)
{
    tb_chess_pos pos;
    char small[10];
    tb_chess_pos_startpos(&pos);
    ASSERT_EQ(tb_chess_pos_to_fen(&pos, small, sizeof small), TB_ERR_FULL);
    ASSERT_STR_EQ(small, "rnbqkbnr/");
    char exact[sizeof START];
    ASSERT_EQ(tb_chess_pos_to_fen(&pos, exact, sizeof exact), (int)strlen(START));
}

/* Bad input never crashes and never half-loads: random edits of every suite FEN either give a
 * consistent position that writes back to an equal one, or a named parse error. */
TB_TEST(fen_random_edits_parse_or_fail_cleanly)
{
    static const char alphabet[] = "pnbrqkPNBRQKx0123456789/ -wbKQkqAHahce36";
    uint64_t seed = 12345;
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/perft.epd", tb_test_data_dir());
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    int accepted = 0, refused = 0;
    while (fgets(line, sizeof line, f)) {
        *strchr(line, ';') = 0;
        size_t len = strlen(line);
        for (int k = 0; k < 40; k++) {
            char fen[1024];
            memcpy(fen, line, len + 1);
            for (int e = 0; e < 1 + k % 3; e++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                fen[(seed >> 33) % len] = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            }
            tb_chess_pos pos, again;
            struct tb_error err;
            char out[100];
            if (tb_chess_pos_from_fen(&pos, fen, k & 1 ? TB_CHESS_FEN_960 : 0, &err) != TB_OK) {
                ASSERT_TRUE(err.msg[0] != 0);
                refused++;
                continue;
            }
            accepted++;
            ASSERT_OK(tb_chess_pos_check(&pos));
            ASSERT_GT(tb_chess_pos_to_fen(&pos, out, sizeof out), 0);
            ASSERT_OK(tb_chess_pos_from_fen(&again, out, k & 1 ? TB_CHESS_FEN_960 : 0, &err));
            ASSERT_TRUE(memcmp(&pos, &again, sizeof pos) == 0);
            tb_chess_perft(&pos, 2);
        }
    }
    fclose(f);
    ASSERT_GT(accepted, 100);
    ASSERT_GT(refused, 100);
}
