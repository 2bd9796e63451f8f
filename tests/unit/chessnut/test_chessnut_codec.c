/* The Chessnut protocol as the vendor's description has it: the position report (two squares a
 * byte, low nibble first, h8 first), the piece table, the battery, the host's reports. */
#include <string.h>

#include "tb_chess.h"
#include "tb_chessnut.h"
#include "tb_test.h"

/* 0 empty, 1 q, 2 k, 3 b, 4 p, 5 n, 6 R, 7 P, 8 r, 9 B, A N, B Q, C K. */
TB_TEST(piece_table_is_the_vendors)
{
    static const char want[] = ".qkbpnRPrBNQK";
    for (int code = 1; code <= 12; code++)
        ASSERT_EQ(tb_chessnut_piece_of(code), tb_chess_piece_from_fen(want[code]));
    ASSERT_EQ(tb_chessnut_piece_of(0), 0);
    ASSERT_EQ(tb_chessnut_piece_of(13), -1);
    ASSERT_EQ(tb_chessnut_piece_code(tb_chess_piece_from_fen('K')), 0x0C);
    ASSERT_EQ(tb_chessnut_piece_code(tb_chess_piece_from_fen('p')), 0x04);
}

/* The first byte holds h8 (low nibble) and g8; the last b1 and a1 (high nibble). */
TB_TEST(position_report_reads_h8_first_two_squares_a_byte)
{
    uint8_t r[TB_CHESSNUT_REPORT_MAX] = {0x01, 0x3D};
    r[2] = 0x58;  /* h8 r (8), g8 n (5) */
    r[33] = 0x6A; /* b1 N (A), a1 R (6) */
    struct tb_chessnut_report rep;
    ASSERT_EQ(tb_chessnut_decode(r, 64, &rep), TB_CHESSNUT_POS);
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(7, 7)], tb_chess_piece_from_fen('r'));
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(6, 7)], tb_chess_piece_from_fen('n'));
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(1, 0)], tb_chess_piece_from_fen('N'));
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(0, 0)], tb_chess_piece_from_fen('R'));
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(4, 3)], 0);
    /* the start position both ways */
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    uint8_t pieces[64], enc[TB_CHESSNUT_REPORT_MAX];
    for (int sq = 0; sq < 64; sq++)
        pieces[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    int n = tb_chessnut_position(enc, sizeof enc, pieces);
    ASSERT_EQ(n, 34);
    ASSERT_EQ(tb_chessnut_decode(enc, (size_t)n, &rep), TB_CHESSNUT_POS);
    ASSERT_TRUE(memcmp(rep.pieces, pieces, 64) == 0);
}

/* A nibble above C, a short report, an unknown report: refused whole, nothing taken from it. */
TB_TEST(bad_reports_are_refused_whole)
{
    uint8_t r[TB_CHESSNUT_REPORT_MAX] = {0x01, 0x3D, 0x58};
    struct tb_chessnut_report rep;
    r[20] = 0xD0;
    ASSERT_EQ(tb_chessnut_decode(r, 34, &rep), TB_CHESSNUT_BAD);
    ASSERT_EQ(rep.pieces[TB_CHESS_SQ(7, 7)], 0);
    r[20] = 0;
    ASSERT_EQ(tb_chessnut_decode(r, 33, &rep), TB_CHESSNUT_BAD);
    static const uint8_t other[] = {0x41, 0x02, 0x00, 0x00};
    ASSERT_EQ(tb_chessnut_decode(other, sizeof other, &rep), TB_CHESSNUT_BAD);
    static const uint8_t batt[] = {0x2A, 0x02, 64, 1}, over[] = {0x2A, 0x02, 101, 0};
    ASSERT_EQ(tb_chessnut_decode(batt, sizeof batt, &rep), TB_CHESSNUT_BATT);
    ASSERT_EQ(rep.percent, 64);
    ASSERT_TRUE(rep.charging);
    ASSERT_EQ(tb_chessnut_decode(over, sizeof over, &rep), TB_CHESSNUT_BAD);
}

/* Reports on (21 01 00), the battery (29 01 00), the LEDs (0A 08, rank 8 first, bit 7 = a). */
TB_TEST(host_reports_switch_reports_on_and_light_squares)
{
    uint8_t b[16];
    ASSERT_EQ(tb_chessnut_enable(b, sizeof b), 3);
    ASSERT_TRUE(memcmp(b, "\x21\x01\x00", 3) == 0);
    ASSERT_EQ(tb_chessnut_battery_ask(b, sizeof b), 3);
    ASSERT_TRUE(memcmp(b, "\x29\x01\x00", 3) == 0);
    uint64_t sqs = TB_CHESS_BIT(TB_CHESS_SQ(0, 7)) | TB_CHESS_BIT(TB_CHESS_SQ(7, 0)); /* a8 h1 */
    ASSERT_EQ(tb_chessnut_leds(b, sizeof b, sqs), 10);
    ASSERT_EQ(b[2], 0x80);
    ASSERT_EQ(b[9], 0x01);
    uint64_t back = 0;
    ASSERT_EQ(tb_chessnut_command(b, 10, &back), 'L');
    ASSERT_EQ(back, sqs);
    ASSERT_EQ(tb_chessnut_leds(b, 5, sqs), TB_ERR_FULL);
}
