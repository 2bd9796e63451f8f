/* The ChessLink protocol as its published description has it: the block check, the status
 * frame's square order and pieces, the LED corners, and a decoder that keeps bad bytes out. */
#include <string.h>

#include "tb_chess.h"
#include "tb_chesslink.h"
#include "tb_test.h"

static int feed(struct tb_chesslink_decoder *d, const char *bytes, struct tb_chesslink_msg *m)
{
    int got = 0;
    for (const char *p = bytes; *p; p++)
        got += tb_chesslink_decoder_push(d, (uint8_t)*p, m);
    return got;
}

/* The check is the XOR of every character before it, as two upper-case hex digits. */
TB_TEST(block_check_is_the_xor_of_the_frame_in_hex)
{
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    ASSERT_EQ(tb_chesslink_encode(f, sizeof f, 'S', NULL, 0), 3);
    ASSERT_TRUE(memcmp(f, "S53", 3) == 0);
    static const uint8_t w[2] = {0x02, 0x05};
    ASSERT_EQ(tb_chesslink_encode_bytes(f, sizeof f, 'W', w, 2), 7);
    ASSERT_TRUE(memcmp(f, "W020550", 7) == 0);
    ASSERT_EQ(tb_chesslink_encode(f, sizeof f, 'W', "02", 2), TB_ERR_ARG); /* W takes 4 */
    ASSERT_EQ(tb_chesslink_encode(f, 4, 'v', "0105", 4), TB_ERR_FULL);
}

/* Data order a8..h8, a7..h7, ... a1..h1; K Q R B N P white, lower case black, '.' empty. */
TB_TEST(status_frame_reads_a8_first_and_names_every_piece)
{
    static const char start[] = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    ASSERT_EQ(tb_chesslink_encode(f, sizeof f, 's', start, 64), 67);
    struct tb_chesslink_decoder d;
    tb_chesslink_decoder_init(&d, TB_CHESSLINK_FROM_BOARD);
    struct tb_chesslink_msg m;
    int got = 0;
    for (int i = 0; i < 67; i++)
        got += tb_chesslink_decoder_push(&d, f[i] | 0x80, &m); /* a parity bit set: ignored */
    ASSERT_EQ(got, 1);
    uint8_t pieces[64];
    ASSERT_OK(tb_chesslink_status_pieces(&m, pieces));
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    for (int sq = 0; sq < 64; sq++)
        ASSERT_EQ(pieces[sq], tb_chess_piece_at(&pos, sq));
    ASSERT_EQ(tb_chesslink_index_square(0), TB_CHESS_SQ(0, 7));  /* a8 */
    ASSERT_EQ(tb_chesslink_index_square(63), TB_CHESS_SQ(7, 0)); /* h1 */
    uint8_t g[TB_CHESSLINK_FRAME_MAX];
    ASSERT_EQ(tb_chesslink_status_encode(g, sizeof g, pieces), 67);
    ASSERT_TRUE(memcmp(f, g, 67) == 0);
}

/* Garbage, a frame cut by the next one, a bad check: none gets through, each is counted, and
 * the good frame after them is read. */
TB_TEST(decoder_skips_garbage_cut_frames_and_bad_checks)
{
    struct tb_chesslink_decoder d;
    tb_chesslink_decoder_init(&d, TB_CHESSLINK_FROM_BOARD);
    struct tb_chesslink_msg m;
    ASSERT_EQ(feed(&d, "zz#", &m), 0);
    ASSERT_EQ(d.st.garbage, 3);
    ASSERT_EQ(feed(&d, "v01", &m), 0);     /* cut by the next frame's 'v' */
    ASSERT_EQ(feed(&d, "v010577", &m), 0); /* wrong check (72 is right) */
    ASSERT_EQ(d.st.cut, 1);
    ASSERT_EQ(d.st.bad_check, 1);
    ASSERT_EQ(feed(&d, "v010572", &m), 1);
    ASSERT_EQ(m.type, 'v');
    ASSERT_STR_EQ(m.data, "0105");
    uint8_t b[2];
    ASSERT_EQ(tb_chesslink_hex_bytes(&m, b, sizeof b), 2);
    ASSERT_EQ(b[0], 1);
    ASSERT_EQ(b[1], 5);
    /* a host's command is no board's frame */
    ASSERT_EQ(feed(&d, "S53", &m), 0);
}

/* LED 1 is in a8's corner, LED 9 in a1's, LED 73 in h8's, LED 81 in h1's: a square lights its
 * four corners. */
TB_TEST(leds_light_the_four_corners_of_a_square)
{
    uint8_t leds[TB_CHESSLINK_LEDS];
    tb_chesslink_leds_of_squares(TB_CHESS_BIT(TB_CHESS_SQ(0, 0)), 0xFF, leds); /* a1 */
    int on = 0;
    for (int i = 0; i < TB_CHESSLINK_LEDS; i++)
        on += leds[i] != 0;
    ASSERT_EQ(on, 4);
    ASSERT_EQ(leds[9 - 1], 0xFF);  /* LED 9: the a1 corner */
    ASSERT_EQ(leds[8 - 1], 0xFF);  /* LED 8: above it */
    ASSERT_EQ(leds[18 - 1], 0xFF); /* LED 18: beside it, between the a and b files */
    ASSERT_EQ(leds[17 - 1], 0xFF);
    tb_chesslink_leds_of_squares(TB_CHESS_BIT(TB_CHESS_SQ(7, 7)), 0xCC, leds); /* h8 */
    ASSERT_EQ(leds[73 - 1], 0xCC);
    uint64_t two = TB_CHESS_BIT(TB_CHESS_SQ(1, 7)) | TB_CHESS_BIT(TB_CHESS_SQ(2, 7)); /* b8 c8 */
    tb_chesslink_leds_of_squares(two, 0xCC, leds);
    ASSERT_EQ(tb_chesslink_leds_squares(leds), two);
    uint8_t f[TB_CHESSLINK_FRAME_MAX], back[TB_CHESSLINK_LEDS], slot;
    int n = tb_chesslink_leds_encode(f, sizeof f, 25, leds);
    ASSERT_EQ(n, 1 + 2 + 162 + 2);
    struct tb_chesslink_decoder d;
    tb_chesslink_decoder_init(&d, TB_CHESSLINK_TO_BOARD);
    struct tb_chesslink_msg m;
    int got = 0;
    for (int i = 0; i < n; i++)
        got += tb_chesslink_decoder_push(&d, f[i], &m);
    ASSERT_EQ(got, 1);
    ASSERT_OK(tb_chesslink_leds_decode(&m, &slot, back));
    ASSERT_EQ(slot, 25);
    ASSERT_TRUE(memcmp(back, leds, sizeof back) == 0);
}
