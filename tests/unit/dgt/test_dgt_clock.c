/* Tests of BWTIME decoding, the clock-reading rules and the command pacer (docs/dgt.md). */
#include <string.h>

#include "tb_dgt.h"
#include "tb_test.h"

static void times(uint8_t p[7], uint32_t left, uint32_t right, uint8_t status)
{
    struct tb_dgt_clock_side l = {.seconds = left}, r = {.seconds = right};
    ASSERT_OK(tb_dgt_bwtime_encode_times(p, &l, &r, status));
}

TB_TEST(bwtime_times_are_bcd_right_side_first)
{
    /* right 1:30:15, left 0:59:07, running, lever high on the right */
    const uint8_t p[7] = {0x01, 0x30, 0x15, 0x00, 0x59, 0x07, 0x03};
    struct tb_dgt_bwtime b;
    ASSERT_EQ(tb_dgt_bwtime_decode(p, &b), TB_DGT_BW_TIMES);
    ASSERT_EQ(b.right.seconds, 5415);
    ASSERT_EQ(b.left.seconds, 3547);
    ASSERT_TRUE(tb_dgt_bwtime_right_runs(&b));
    uint8_t q[7];
    times(q, 3547, 5415, 0x03);
    ASSERT_TRUE(memcmp(p, q, 7) == 0);
    /* White is the left side the right way round, the right side on a rotated board */
    struct tb_dgt_clock_side w, k;
    tb_dgt_clock_by_color(&b, false, &w, &k);
    ASSERT_EQ(w.seconds, 3547);
    tb_dgt_clock_by_color(&b, true, &w, &k);
    ASSERT_EQ(w.seconds, 5415);
    ASSERT_EQ(k.seconds, 3547);
}

TB_TEST(bwtime_flag_bits_and_impossible_values)
{
    const uint8_t flag[7] = {0x10, 0x00, 0x00, 0x40 | 0x20, 0x01, 0x00, 0x01};
    struct tb_dgt_bwtime b;
    ASSERT_EQ(tb_dgt_bwtime_decode(flag, &b), TB_DGT_BW_TIMES);
    ASSERT_TRUE(b.right.flag_fell);
    ASSERT_TRUE(b.left.flag);
    ASSERT_TRUE(b.left.per_move);
    const uint8_t minutes60[7] = {0x00, 0x60, 0x00, 0x00, 0x10, 0x00, 0x01};
    ASSERT_EQ(tb_dgt_bwtime_decode(minutes60, &b), TB_DGT_BW_RANGE);
    const uint8_t not_bcd[7] = {0x00, 0x1C, 0x00, 0x00, 0x10, 0x00, 0x01};
    ASSERT_EQ(tb_dgt_bwtime_decode(not_bcd, &b), TB_DGT_BW_RANGE);
    const uint8_t hours11[7] = {0x00, 0x10, 0x00, 0x0B, 0x10, 0x00, 0x01};
    ASSERT_EQ(tb_dgt_bwtime_decode(hours11, &b), TB_DGT_BW_RANGE);
    const uint8_t zero[7] = {0};
    ASSERT_EQ(tb_dgt_bwtime_decode(zero, &b), TB_DGT_BW_EMPTY);
    const uint8_t noclock[7] = {0x00, 0x10, 0x00, 0x00, 0x10, 0x00, 0x20};
    ASSERT_EQ(tb_dgt_bwtime_decode(noclock, &b), TB_DGT_BW_NO_CLOCK);
    struct tb_dgt_clock_side over = {.seconds = 36000}, ok = {.seconds = 1};
    uint8_t q[7];
    ASSERT_EQ(tb_dgt_bwtime_encode_times(q, &over, &ok, 0), TB_ERR_ARG);
}

TB_TEST(bwtime_ack_told_apart_and_rebuilt_with_high_bits)
{
    struct tb_dgt_ack a = {{TB_DGT_ACK_OK, TB_DGT_CLK_VERSION, 0x21, 0x00}}, back;
    uint8_t p[7];
    struct tb_dgt_bwtime b;
    ASSERT_OK(tb_dgt_bwtime_encode_ack(p, &a));
    ASSERT_EQ(tb_dgt_bwtime_decode(p, &b), TB_DGT_BW_ACK);
    ASSERT_TRUE(memcmp(b.ack.b, a.b, 4) == 0);
    /* unsolicited button press: ack1 has bit 7, carried in payload[3] bit 5 */
    struct tb_dgt_ack btn = {{TB_DGT_ACK_OK, TB_DGT_ACK_BUTTON, 0x80, TB_DGT_BUTTON_RUN}};
    ASSERT_OK(tb_dgt_bwtime_encode_ack(p, &btn));
    ASSERT_EQ(p[3] & 0x0F, 0x0A);
    ASSERT_EQ(tb_dgt_bwtime_decode(p, &b), TB_DGT_BW_ACK);
    back = b.ack;
    ASSERT_EQ(back.b[1], TB_DGT_ACK_BUTTON);
    ASSERT_EQ(back.b[2], 0x80);
    ASSERT_EQ(back.b[3], TB_DGT_BUTTON_RUN);
}

TB_TEST(filter_refuses_zero_noclock_range_and_passes_acks)
{
    struct tb_dgt_clock_filter f;
    tb_dgt_clock_filter_init(&f);
    const uint8_t zero[7] = {0};
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, zero, 0), TB_DGT_CLOCK_EMPTY);
    ASSERT_FALSE(f.have);
    uint8_t p[7];
    times(p, 600, 600, 0x20);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 0), TB_DGT_CLOCK_NO_CLOCK);
    const uint8_t bad[7] = {0x00, 0x75, 0x00, 0x00, 0x10, 0x00, 0x01};
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, bad, 0), TB_DGT_CLOCK_RANGE);
    ASSERT_FALSE(f.have);
    struct tb_dgt_ack a = {{TB_DGT_ACK_OK, TB_DGT_CLK_END, 0, 0}};
    tb_dgt_bwtime_encode_ack(p, &a);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 0), TB_DGT_CLOCK_ACK);
    times(p, 600, 590, 0x03);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 0), TB_DGT_CLOCK_ACCEPTED);
    ASSERT_EQ(f.state.right.seconds, 590);
    ASSERT_U64_EQ(f.refused[TB_DGT_CLOCK_EMPTY], 1);
    ASSERT_U64_EQ(f.refused[TB_DGT_CLOCK_RANGE], 1);
}

TB_TEST(filter_time_going_up_held_until_confirmed)
{
    struct tb_dgt_clock_filter f;
    tb_dgt_clock_filter_init(&f);
    uint8_t p[7];
    /* left runs (lever bit clear) */
    times(p, 600, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 0), TB_DGT_CLOCK_ACCEPTED);
    times(p, 599, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 1000), TB_DGT_CLOCK_ACCEPTED);
    /* a glitch: the running side's time goes up while it keeps running */
    times(p, 650, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 1500), TB_DGT_CLOCK_RISE);
    ASSERT_EQ(f.state.left.seconds, 599);
    times(p, 598, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 2000), TB_DGT_CLOCK_ACCEPTED);
    /* the arbiter really set 20 minutes: the next reading confirms it */
    times(p, 1200, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 3000), TB_DGT_CLOCK_RISE);
    times(p, 1199, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 4000), TB_DGT_CLOCK_ACCEPTED);
    ASSERT_EQ(f.state.left.seconds, 1199);
    /* more than an hour up: dropped */
    times(p, 1199 + 3700, 600, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 4500), TB_DGT_CLOCK_JUMP);
    ASSERT_EQ(f.state.left.seconds, 1199);
}

TB_TEST(filter_increment_on_press_and_announced_set_accepted)
{
    struct tb_dgt_clock_filter f;
    tb_dgt_clock_filter_init(&f);
    uint8_t p[7];
    times(p, 5400, 5400, 0x01); /* left (White) runs */
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 0), TB_DGT_CLOCK_ACCEPTED);
    times(p, 5370, 5400, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 30000), TB_DGT_CLOCK_ACCEPTED);
    /* White presses: +15 s, now the right side runs (lever high on the right) */
    times(p, 5385, 5400, 0x03);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 30100), TB_DGT_CLOCK_ACCEPTED);
    ASSERT_EQ(f.state.left.seconds, 5385);
    /* the same rise while the left side keeps running is no increment */
    tb_dgt_clock_filter_init(&f);
    times(p, 5370, 5400, 0x01);
    tb_dgt_clock_filter_push(&f, p, 0);
    times(p, 5385, 5400, 0x01);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 100), TB_DGT_CLOCK_RISE);
    /* the link sets the clock: accepted at once */
    tb_dgt_clock_filter_expect_set(&f, 31000);
    times(p, 7200, 7200, 0x05);
    ASSERT_EQ(tb_dgt_clock_filter_push(&f, p, 31500), TB_DGT_CLOCK_ACCEPTED);
}

static int next(tb_dgt_pacer *p, uint64_t now, uint8_t *buf)
{
    return tb_dgt_pacer_next(p, now, buf, TB_DGT_CLOCK_FRAME_MAX);
}

TB_TEST(pacer_spaces_board_commands)
{
    tb_dgt_pacer *p = tb_dgt_pacer_new(NULL);
    uint8_t c[1], buf[TB_DGT_CLOCK_FRAME_MAX];
    tb_dgt_cmd_encode(c, 1, TB_DGT_CMD_RESET);
    ASSERT_OK(tb_dgt_pacer_push(p, c, 1));
    tb_dgt_cmd_encode(c, 1, TB_DGT_CMD_SEND_BRD);
    ASSERT_OK(tb_dgt_pacer_push(p, c, 1));
    ASSERT_EQ(next(p, 1000, buf), 1);
    ASSERT_EQ(buf[0], TB_DGT_CMD_RESET);
    ASSERT_EQ(next(p, 1050, buf), 0);
    ASSERT_U64_EQ(tb_dgt_pacer_due(p, 1050), 1100);
    ASSERT_EQ(next(p, 1100, buf), 1);
    ASSERT_EQ(buf[0], TB_DGT_CMD_SEND_BRD);
    ASSERT_U64_EQ(tb_dgt_pacer_due(p, 1100), UINT64_MAX);
    const uint8_t boot = TB_DGT_CMD_STARTBOOTLOADER;
    ASSERT_EQ(tb_dgt_pacer_push(p, &boot, 1), TB_ERR_ARG);
    tb_dgt_pacer_free(p);
    tb_dgt_pacer_free(NULL);
}

TB_TEST(pacer_one_clock_command_at_a_time_behind_its_ack)
{
    tb_dgt_pacer *p = tb_dgt_pacer_new(NULL);
    uint8_t f[TB_DGT_CLOCK_FRAME_MAX], buf[TB_DGT_CLOCK_FRAME_MAX];
    int n = tb_dgt_clk_text(f, sizeof f, TB_DGT_CLOCK_3000, "STOP", true);
    ASSERT_OK(tb_dgt_pacer_push(p, f, (size_t)n));
    n = tb_dgt_clk_simple(f, sizeof f, TB_DGT_CLK_END);
    ASSERT_OK(tb_dgt_pacer_push(p, f, (size_t)n));
    ASSERT_EQ(next(p, 0, buf), 14);
    ASSERT_TRUE(tb_dgt_pacer_busy(p));
    ASSERT_EQ(next(p, 500, buf), 0); /* END waits */
    /* an unsolicited button ACK does not answer it */
    struct tb_dgt_ack btn = {{TB_DGT_ACK_OK, TB_DGT_ACK_BUTTON, 0, TB_DGT_BUTTON_OK}};
    ASSERT_EQ(tb_dgt_pacer_ack(p, &btn, 600), 0);
    struct tb_dgt_ack ok = {{TB_DGT_ACK_OK, TB_DGT_CLK_ASCII, 0, 0}};
    ASSERT_EQ(tb_dgt_pacer_ack(p, &ok, 700), 1);
    ASSERT_FALSE(tb_dgt_pacer_busy(p));
    ASSERT_EQ(next(p, 800, buf), 5);
    ASSERT_EQ(buf[3], TB_DGT_CLK_END);
    struct tb_dgt_pacer_stats st;
    tb_dgt_pacer_stats(p, &st);
    ASSERT_U64_EQ(st.acked, 1);
    ASSERT_U64_EQ(st.unsolicited, 1);
    tb_dgt_pacer_free(p);
}

TB_TEST(pacer_resends_then_gives_up)
{
    tb_dgt_pacer *p = tb_dgt_pacer_new(NULL);
    uint8_t f[TB_DGT_CLOCK_FRAME_MAX], buf[TB_DGT_CLOCK_FRAME_MAX];
    int n = tb_dgt_clk_simple(f, sizeof f, TB_DGT_CLK_VERSION);
    ASSERT_OK(tb_dgt_pacer_push(p, f, (size_t)n));
    ASSERT_EQ(next(p, 0, buf), 5);
    ASSERT_U64_EQ(tb_dgt_pacer_due(p, 0), 2000);
    ASSERT_EQ(next(p, 1999, buf), 0);
    ASSERT_EQ(next(p, 2000, buf), 5);
    ASSERT_EQ(next(p, 4000, buf), 5);
    ASSERT_EQ(next(p, 6000, buf), 0); /* three sends, then given up */
    ASSERT_FALSE(tb_dgt_pacer_busy(p));
    struct tb_dgt_pacer_stats st;
    tb_dgt_pacer_stats(p, &st);
    ASSERT_U64_EQ(st.sent, 3);
    ASSERT_U64_EQ(st.retries, 2);
    ASSERT_U64_EQ(st.abandoned, 1);
    /* a late ACK for it answers nothing */
    struct tb_dgt_ack ok = {{TB_DGT_ACK_OK, TB_DGT_CLK_VERSION, 0x21, 0}};
    ASSERT_EQ(tb_dgt_pacer_ack(p, &ok, 6100), 0);
    tb_dgt_pacer_free(p);
}

TB_TEST(pacer_board_command_overtakes_a_waiting_clock_command)
{
    tb_dgt_pacer *p = tb_dgt_pacer_new(NULL);
    uint8_t f[TB_DGT_CLOCK_FRAME_MAX], buf[TB_DGT_CLOCK_FRAME_MAX];
    int n = tb_dgt_clk_beep(f, sizeof f, 2);
    ASSERT_OK(tb_dgt_pacer_push(p, f, (size_t)n));
    n = tb_dgt_clk_simple(f, sizeof f, TB_DGT_CLK_END);
    ASSERT_OK(tb_dgt_pacer_push(p, f, (size_t)n));
    uint8_t brd = TB_DGT_CMD_SEND_BRD;
    ASSERT_OK(tb_dgt_pacer_push(p, &brd, 1));
    ASSERT_EQ(next(p, 0, buf), 6);
    ASSERT_U64_EQ(tb_dgt_pacer_due(p, 0), 100);
    ASSERT_EQ(next(p, 100, buf), 1);
    ASSERT_EQ(buf[0], TB_DGT_CMD_SEND_BRD);
    ASSERT_EQ(next(p, 300, buf), 0); /* END still behind the BEEP */
    struct tb_dgt_ack err = {{TB_DGT_ACK_ERROR, TB_DGT_CLK_BEEP, 0, 0}};
    ASSERT_EQ(tb_dgt_pacer_ack(p, &err, 400), 1);
    ASSERT_EQ(next(p, 400, buf), 5);
    struct tb_dgt_pacer_stats st;
    tb_dgt_pacer_stats(p, &st);
    ASSERT_U64_EQ(st.refused, 1);
    for (int i = 0; i < TB_DGT_PACER_QUEUE - 1; i++)
        ASSERT_OK(tb_dgt_pacer_push(p, &brd, 1));
    ASSERT_EQ(tb_dgt_pacer_push(p, &brd, 1), TB_ERR_FULL);
    tb_dgt_pacer_free(p);
}
