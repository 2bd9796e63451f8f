/* Tests of the DGT message decoder and encoder and the command encoder (docs/dgt.md). */
#include <stdlib.h>
#include <string.h>

#include "tb_dgt.h"
#include "tb_test.h"

#define MAXSEEN 64

struct seen {
    struct tb_dgt_msg m[MAXSEEN];
    int n;
};

static void keep(void *user, const struct tb_dgt_msg *m)
{
    struct seen *s = user;
    if (s->n < MAXSEEN)
        s->m[s->n] = *m;
    s->n++;
}

/* Feeds the bytes in chunks of `step` (0: all at once) to a fresh decoder. */
static tb_dgt_decoder *feed(const uint8_t *b, size_t n, size_t step, struct seen *s)
{
    tb_dgt_decoder *d = tb_dgt_decoder_new();
    memset(s, 0, sizeof *s);
    if (!step)
        step = n ? n : 1;
    for (size_t i = 0; i < n; i += step)
        tb_dgt_decoder_feed(d, b + i, n - i < step ? n - i : step, keep, s);
    return d;
}

static size_t put_update(uint8_t *b, int field, int code)
{
    struct tb_dgt_msg m;
    tb_dgt_msg_field_update(&m, field, code);
    return (size_t)tb_dgt_msg_encode(b, 16, &m);
}

TB_TEST(field_update_decoded_in_any_chunking)
{
    const uint8_t wire[] = {0x8E, 0x00, 0x05, 12, 1, 0x8E, 0x00, 0x05, 63, 0x0C};
    for (size_t step = 0; step <= 3; step++) {
        struct seen s;
        tb_dgt_decoder *d = feed(wire, sizeof wire, step, &s);
        ASSERT_EQ(s.n, 2);
        ASSERT_EQ(s.m[0].id, TB_DGT_MSG_FIELD_UPDATE);
        ASSERT_EQ(s.m[0].field, 12);
        ASSERT_EQ(s.m[0].code, TB_DGT_WPAWN);
        ASSERT_EQ(s.m[1].field, 63);
        ASSERT_EQ(s.m[1].code, TB_DGT_BQUEEN);
        struct tb_dgt_decoder_stats st;
        tb_dgt_decoder_stats(d, &st);
        ASSERT_U64_EQ(st.garbage, 0);
        ASSERT_U64_EQ(st.messages, 2);
        tb_dgt_decoder_free(d);
    }
}

TB_TEST(garbage_before_and_inside_resyncs_on_bit7)
{
    /* Stray bytes, then a FIELD_UPDATE cut by a new header, then a good one. */
    const uint8_t wire[] = {0x01, 0x7F, 0x33, 0x8E, 0x00, 0x05, 0x0A, 0x8E, 0x00, 0x05, 0x10, 0x05};
    struct seen s;
    tb_dgt_decoder *d = feed(wire, sizeof wire, 1, &s);
    ASSERT_EQ(s.n, 1);
    ASSERT_EQ(s.m[0].field, 0x10);
    ASSERT_EQ(s.m[0].code, TB_DGT_WKING);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(d, &st);
    ASSERT_U64_EQ(st.garbage, 3 + 4);
    ASSERT_U64_EQ(st.cut, 1);
    tb_dgt_decoder_free(d);
}

TB_TEST(length_wrong_for_its_id_is_garbage)
{
    /* FIELD_UPDATE declaring 6 bytes, BOARD_DUMP declaring 10, BWTIME declaring 3, a huge
     * SERIALNR: each refused, and the good message after them still comes through. */
    uint8_t wire[64];
    size_t n = 0;
    const uint8_t bad[] = {0x8E, 0x00, 0x06, 0x01, 0x01, 0x01, 0x86, 0x00,
                           0x0A, 0x8D, 0x00, 0x03, 0x91, 0x7F, 0x7F};
    memcpy(wire, bad, sizeof bad);
    n = sizeof bad;
    n += put_update(wire + n, 20, TB_DGT_WQUEEN);
    struct seen s;
    tb_dgt_decoder *d = feed(wire, n, 0, &s);
    ASSERT_EQ(s.n, 1);
    ASSERT_EQ(s.m[0].field, 20);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(d, &st);
    ASSERT_U64_EQ(st.bad_length, 4);
    ASSERT_U64_EQ(st.garbage, sizeof bad);
    ASSERT_EQ(st.last_refused_id, TB_DGT_MSG_SERIALNR);
    ASSERT_EQ(st.last_refused_len, 0x3FFF);
    ASSERT_STR_EQ(tb_dgt_msg_name(st.last_refused_id), "SERIALNR");
    ASSERT_STR_EQ(tb_dgt_msg_name(0xB5), "unknown");
    tb_dgt_decoder_free(d);
}

TB_TEST(impossible_field_is_refused)
{
    const uint8_t wire[] = {0x8E, 0x00, 0x05, 70, 1};
    struct seen s;
    tb_dgt_decoder *d = feed(wire, sizeof wire, 0, &s);
    ASSERT_EQ(s.n, 0);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(d, &st);
    ASSERT_U64_EQ(st.bad_content, 1);
    ASSERT_U64_EQ(st.garbage, 5);
    tb_dgt_decoder_free(d);
}

TB_TEST(board_dump_round_trips)
{
    uint8_t codes[64];
    for (int i = 0; i < 64; i++)
        codes[i] = (uint8_t)(i % 13);
    struct tb_dgt_msg m;
    ASSERT_OK(tb_dgt_msg_board_dump(&m, codes));
    uint8_t wire[80];
    ASSERT_EQ(tb_dgt_msg_encode(wire, sizeof wire, &m), 67);
    ASSERT_EQ(wire[0], 0x86);
    ASSERT_EQ(wire[1], 0);
    ASSERT_EQ(wire[2], 67);
    struct seen s;
    tb_dgt_decoder *d = feed(wire, 67, 5, &s);
    ASSERT_EQ(s.n, 1);
    ASSERT_EQ(s.m[0].n, 64);
    ASSERT_TRUE(memcmp(s.m[0].data, codes, 64) == 0);
    uint8_t again[80];
    ASSERT_EQ(tb_dgt_msg_encode(again, sizeof again, &s.m[0]), 67);
    ASSERT_TRUE(memcmp(wire, again, 67) == 0);
    tb_dgt_decoder_free(d);
}

TB_TEST(serial_numbers_both_lengths_and_long)
{
    const uint8_t wire[] = {0x91, 0,   8,   '0', '1', '0', '2', '5', 0x91, 0,    12,
                            '1',  '2', '3', '4', '5', ' ', '1', '.', '0',  0xA2, 0,
                            13,   '3', '.', '2', '5', '0', '0', '0', '0',  '1',  '2'};
    struct seen s;
    tb_dgt_decoder *d = feed(wire, sizeof wire, 2, &s);
    ASSERT_EQ(s.n, 3);
    ASSERT_EQ(s.m[0].id, TB_DGT_MSG_SERIALNR);
    ASSERT_EQ(s.m[0].n, 5);
    ASSERT_TRUE(memcmp(s.m[0].data, "01025", 5) == 0);
    ASSERT_EQ(s.m[1].n, 9);
    ASSERT_EQ(s.m[2].id, TB_DGT_MSG_LONG_SERIALNR);
    ASSERT_EQ(s.m[2].n, 10);
    tb_dgt_decoder_free(d);
    /* a length between the two forms: refused */
    const uint8_t ten[] = {0x91, 0, 10, '0', '1', '0', '2', '5', ' ', '1'};
    d = feed(ten, sizeof ten, 0, &s);
    ASSERT_EQ(s.n, 0);
    tb_dgt_decoder_free(d);
    /* letters where digits belong: refused */
    const uint8_t bad[] = {0x91, 0, 8, '0', 'x', '0', '2', '5'};
    d = feed(bad, sizeof bad, 0, &s);
    ASSERT_EQ(s.n, 0);
    tb_dgt_decoder_free(d);
}

TB_TEST(version_busadres_hardware_battery_trademark)
{
    uint8_t wire[512];
    size_t n = 0;
    struct tb_dgt_msg m;
    ASSERT_OK(tb_dgt_msg_version(&m, TB_DGT_MSG_VERSION, 1, 2));
    n += (size_t)tb_dgt_msg_encode(wire + n, sizeof wire - n, &m);
    ASSERT_OK(tb_dgt_msg_busadres(&m, 0x0401));
    n += (size_t)tb_dgt_msg_encode(wire + n, sizeof wire - n, &m);
    ASSERT_OK(tb_dgt_msg_version(&m, TB_DGT_MSG_HARDWARE_VERSION, 1, 0));
    n += (size_t)tb_dgt_msg_encode(wire + n, sizeof wire - n, &m);
    const uint8_t battery[] = {0xA0, 0, 12, 87, 5, 30, 0x7F, 0x7F, 1, 0, 0, 0, 2};
    memcpy(wire + n, battery, sizeof battery);
    n += sizeof battery;
    ASSERT_OK(tb_dgt_msg_trademark(&m, "Digital Game Technology"));
    n += (size_t)tb_dgt_msg_encode(wire + n, sizeof wire - n, &m);
    struct seen s;
    tb_dgt_decoder *d = feed(wire, n, 3, &s);
    ASSERT_EQ(s.n, 5);
    ASSERT_EQ(s.m[0].major, 1);
    ASSERT_EQ(s.m[0].minor, 2);
    ASSERT_EQ(s.m[1].busadres, 0x0401);
    ASSERT_EQ(s.m[2].id, TB_DGT_MSG_HARDWARE_VERSION);
    ASSERT_EQ(s.m[3].id, TB_DGT_MSG_BATTERY_STATUS);
    ASSERT_EQ(s.m[3].data[0], 87);
    ASSERT_EQ(s.m[4].n, 23);
    tb_dgt_decoder_free(d);
    ASSERT_EQ(tb_dgt_msg_busadres(&m, 0x4000), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_msg_serialnr(&m, "1234"), TB_ERR_ARG);
}

TB_TEST(ee_moves_and_unknown_ids_skipped_with_their_length)
{
    /* An 8 kB EEPROM dump, an unknown ID 0xB5 of 6 bytes, then a field update. */
    size_t ee = 0x2000 - 0x100 + 3;
    uint8_t *wire = calloc(ee + 32, 1);
    wire[0] = 0x8F;
    wire[1] = (uint8_t)(ee >> 7);
    wire[2] = (uint8_t)(ee & 0x7F);
    for (size_t i = 3; i < ee; i++)
        wire[i] = (uint8_t)(0x40 + i % 0x3F);
    size_t n = ee;
    const uint8_t unk[] = {0xB5, 0, 6, 1, 2, 3};
    memcpy(wire + n, unk, sizeof unk);
    n += sizeof unk;
    n += put_update(wire + n, 7, TB_DGT_BKING);
    struct seen s;
    tb_dgt_decoder *d = feed(wire, n, 100, &s);
    ASSERT_EQ(s.n, 3);
    ASSERT_TRUE(s.m[0].skipped);
    ASSERT_EQ(s.m[0].id, TB_DGT_MSG_EE_MOVES);
    ASSERT_EQ(s.m[0].len, (int)ee);
    ASSERT_TRUE(s.m[1].skipped);
    ASSERT_EQ(s.m[1].id, 0xB5);
    ASSERT_EQ(s.m[2].field, 7);
    struct tb_dgt_decoder_stats st;
    tb_dgt_decoder_stats(d, &st);
    ASSERT_U64_EQ(st.skipped, 2);
    ASSERT_U64_EQ(st.garbage, 0);
    tb_dgt_decoder_free(d);
    free(wire);
}

TB_TEST(truncated_message_then_reconnect_reset)
{
    const uint8_t half[] = {0x86, 0, 67, 1, 2, 3};
    struct seen s;
    tb_dgt_decoder *d = feed(half, sizeof half, 0, &s);
    tb_dgt_decoder_reset(d);
    uint8_t wire[8];
    size_t n = put_update(wire, 1, 2);
    tb_dgt_decoder_feed(d, wire, n, keep, &s);
    ASSERT_EQ(s.n, 1);
    ASSERT_EQ(s.m[0].field, 1);
    tb_dgt_decoder_free(d);
    tb_dgt_decoder_free(NULL);
    ASSERT_EQ(tb_dgt_decoder_feed(NULL, wire, 1, keep, &s), TB_ERR_ARG);
}

TB_TEST(encoder_refuses_what_the_wire_cannot_carry)
{
    struct tb_dgt_msg m;
    uint8_t b[80];
    ASSERT_EQ(tb_dgt_msg_field_update(&m, 64, 1), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_msg_field_update(&m, 0, 0x80), TB_ERR_ARG);
    ASSERT_OK(tb_dgt_msg_field_update(&m, 0, 1));
    m.data[1] = 0x81;
    ASSERT_EQ(tb_dgt_msg_encode(b, sizeof b, &m), TB_ERR_ARG);
    m.data[1] = 1;
    m.n = 3;
    ASSERT_EQ(tb_dgt_msg_encode(b, sizeof b, &m), TB_ERR_ARG);
    m.n = 2;
    ASSERT_EQ(tb_dgt_msg_encode(b, 4, &m), TB_ERR_FULL);
    ASSERT_EQ(tb_dgt_msg_encode(b, 5, &m), 5);
}

TB_TEST(single_board_commands_never_the_bootloader)
{
    uint8_t b[8];
    ASSERT_EQ(tb_dgt_cmd_encode(b, sizeof b, TB_DGT_CMD_SEND_UPDATE_NICE), 1);
    ASSERT_EQ(b[0], 0x4B);
    ASSERT_EQ(tb_dgt_cmd_encode(b, sizeof b, TB_DGT_CMD_RETURN_LONG_SERIALNR), 1);
    ASSERT_EQ(tb_dgt_cmd_encode(b, sizeof b, TB_DGT_CMD_STARTBOOTLOADER), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_cmd_encode(b, sizeof b, TB_DGT_CMD_SET_LEDS), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_cmd_encode(b, sizeof b, 0x8D), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_cmd_encode(b, 0, TB_DGT_CMD_RESET), TB_ERR_FULL);
}

TB_TEST(leds_only_to_a_revelation)
{
    uint8_t b[8];
    ASSERT_EQ(tb_dgt_cmd_leds(b, sizeof b, TB_DGT_BOARD_UNKNOWN, 1, 12, 12), TB_ERR_SUPP);
    ASSERT_EQ(tb_dgt_cmd_leds(b, sizeof b, TB_DGT_BOARD_PLAIN, 0, 64, 64), TB_ERR_SUPP);
    ASSERT_EQ(tb_dgt_cmd_leds(b, sizeof b, TB_DGT_BOARD_REVELATION, 0, 64, 64), 6);
    const uint8_t clear[] = {0x60, 0x04, 0x00, 0x40, 0x40, 0x00};
    ASSERT_TRUE(memcmp(b, clear, 6) == 0);
    ASSERT_EQ(tb_dgt_cmd_leds(b, sizeof b, TB_DGT_BOARD_REVELATION, 1, 64, 64), TB_ERR_ARG);
}

TB_TEST(clock_frames_have_their_lengths)
{
    uint8_t b[TB_DGT_CLOCK_FRAME_MAX];
    ASSERT_EQ(tb_dgt_clk_simple(b, sizeof b, TB_DGT_CLK_END), 5);
    const uint8_t end[] = {0x2B, 0x03, 0x03, 0x03, 0x00};
    ASSERT_TRUE(memcmp(b, end, 5) == 0);
    ASSERT_EQ(tb_dgt_clk_simple(b, sizeof b, TB_DGT_CLK_VERSION), 5);
    ASSERT_EQ(b[3], 0x09);
    ASSERT_EQ(tb_dgt_clk_beep(b, sizeof b, 4), 6);
    ASSERT_EQ(b[1], 0x04);
    /* DGT 3000: eight characters and a beep byte, len 0x0C */
    ASSERT_EQ(tb_dgt_clk_text(b, sizeof b, TB_DGT_CLOCK_3000, "STOP e4", true), 14);
    ASSERT_EQ(b[1], 0x0C);
    ASSERT_EQ(b[3], TB_DGT_CLK_ASCII);
    ASSERT_TRUE(memcmp(b + 4, "STOP e4 ", 8) == 0);
    ASSERT_EQ(b[13], 0x00);
    ASSERT_EQ(tb_dgt_clk_text(b, sizeof b, TB_DGT_CLOCK_3000, "TOO LONG!", false), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_clk_text(b, sizeof b, TB_DGT_CLOCK_3000, "a\tb", false), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_clk_text(b, sizeof b, TB_DGT_CLOCK_NONE, "x", false), TB_ERR_ARG);
    /* DGT XL: six segment bytes in the order C B A F E D, icons, beep; len 0x0B */
    ASSERT_EQ(tb_dgt_clk_text(b, sizeof b, TB_DGT_CLOCK_XL, "123456", false), 13);
    ASSERT_EQ(b[1], 0x0B);
    ASSERT_EQ(b[3], TB_DGT_CLK_DISPLAY);
    ASSERT_EQ(b[4], tb_dgt_xl_segments('3'));
    ASSERT_EQ(b[6], tb_dgt_xl_segments('1'));
    ASSERT_EQ(b[7], tb_dgt_xl_segments('6'));
    ASSERT_EQ(b[9], tb_dgt_xl_segments('4'));
    ASSERT_EQ(b[11], 0x01);
    ASSERT_EQ(tb_dgt_xl_segments('0'), 0x3F);
    ASSERT_EQ(tb_dgt_xl_segments('1'), 0x06);
    ASSERT_EQ(tb_dgt_xl_segments('-'), 0x40);
    /* SETNRUN: binary h m s, len 0x0A */
    ASSERT_EQ(tb_dgt_clk_setnrun(b, sizeof b, 5400 + 15, 61, TB_DGT_RUN_LEFT), 12);
    const uint8_t run[] = {0x2B, 0x0A, 0x03, 0x0A, 1, 30, 15, 0, 1, 1, 0x01, 0x00};
    ASSERT_TRUE(memcmp(b, run, sizeof run) == 0);
    ASSERT_EQ(tb_dgt_clk_setnrun(b, sizeof b, 36000, 0, 0), TB_ERR_ARG);
    ASSERT_EQ(tb_dgt_clk_setnrun(b, 11, 60, 60, 0), TB_ERR_FULL);
}

TB_TEST(command_decoder_reads_what_the_encoder_writes)
{
    uint8_t wire[64];
    int n = 0;
    n += tb_dgt_cmd_encode(wire + n, 1, TB_DGT_CMD_SEND_UPDATE_NICE);
    wire[n++] = 0x7E; /* no command */
    n += tb_dgt_clk_text(wire + n, 20, TB_DGT_CLOCK_3000, "HELLO", false);
    n += tb_dgt_clk_setnrun(wire + n, 20, 600, 300, TB_DGT_RUN_RIGHT);
    n += tb_dgt_cmd_leds(wire + n, 8, TB_DGT_BOARD_REVELATION, 1, 0, 7);
    n += tb_dgt_cmd_encode(wire + n, 1, TB_DGT_CMD_SEND_BRD);
    struct tb_dgt_cmd_decoder d;
    tb_dgt_cmd_decoder_init(&d);
    struct tb_dgt_command c[8];
    int k = 0;
    for (int i = 0; i < n; i++)
        k += tb_dgt_cmd_decoder_push(&d, wire[i], &c[k]);
    ASSERT_EQ(k, 5);
    ASSERT_EQ(c[0].cmd, TB_DGT_CMD_SEND_UPDATE_NICE);
    ASSERT_EQ(c[1].clock_cmd, TB_DGT_CLK_ASCII);
    ASSERT_TRUE(memcmp(c[1].content, "HELLO   ", 8) == 0);
    ASSERT_EQ(c[2].clock_cmd, TB_DGT_CLK_SETNRUN);
    ASSERT_EQ(c[2].content[1], 10);
    ASSERT_EQ(c[2].content[4], 5);
    ASSERT_EQ(c[3].cmd, TB_DGT_CMD_SET_LEDS);
    ASSERT_EQ(c[3].content[2], 7);
    ASSERT_EQ(c[4].cmd, TB_DGT_CMD_SEND_BRD);
    ASSERT_U64_EQ(d.garbage, 1);
}
