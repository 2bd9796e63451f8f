/* command.c - PC -> board commands and clock messages, and their decoder for the board side. */
#include <string.h>

#include "dgt_internal.h"

static bool single_byte(int cmd)
{
    if (cmd == TB_DGT_CMD_RETURN_LONG_SERIALNR)
        return true;
    /* 0x4E jumps to the boot loader and is never sent. */
    return cmd >= TB_DGT_CMD_RESET && cmd <= TB_DGT_CMD_SEND_VERSION;
}

int tb_dgt_cmd_encode(uint8_t *buf, size_t cap, int cmd)
{
    if (!buf || !single_byte(cmd))
        return TB_ERR_ARG;
    if (cap < 1)
        return TB_ERR_FULL;
    buf[0] = (uint8_t)cmd;
    return 1;
}

int tb_dgt_cmd_leds(uint8_t *buf, size_t cap, enum tb_dgt_board_kind board, int pattern, int start,
                    int end)
{
    if (!buf || pattern < 0 || pattern > 2 || start < 0 || end < start || end > 64 ||
        (start == 64 && pattern != 0))
        return TB_ERR_ARG;
    if (board != TB_DGT_BOARD_REVELATION)
        return TB_ERR_SUPP; /* an LED command has frozen a plain board */
    if (cap < 6)
        return TB_ERR_FULL;
    const uint8_t f[6] = {TB_DGT_CMD_SET_LEDS, 4, (uint8_t)pattern, (uint8_t)start,
                          (uint8_t)end,        0};
    memcpy(buf, f, sizeof f);
    return 6;
}

/* `2B len 03 cmd content 00`, len counting every byte after itself. */
static int clock_frame(uint8_t *buf, size_t cap, int cmd, const uint8_t *content, size_t n)
{
    size_t total = n + 5;
    if (!buf || total > TB_DGT_CLOCK_FRAME_MAX)
        return TB_ERR_ARG;
    if (cap < total)
        return TB_ERR_FULL;
    buf[0] = TB_DGT_CMD_CLOCK_MESSAGE;
    buf[1] = (uint8_t)(n + 3);
    buf[2] = 0x03;
    buf[3] = (uint8_t)cmd;
    if (n)
        memcpy(buf + 4, content, n);
    buf[4 + n] = 0x00;
    return (int)total;
}

int tb_dgt_clk_simple(uint8_t *buf, size_t cap, int clock_cmd)
{
    if (clock_cmd != TB_DGT_CLK_END && clock_cmd != TB_DGT_CLK_BUTTON &&
        clock_cmd != TB_DGT_CLK_VERSION)
        return TB_ERR_ARG;
    return clock_frame(buf, cap, clock_cmd, NULL, 0);
}

int tb_dgt_clk_beep(uint8_t *buf, size_t cap, int n64ms)
{
    if (n64ms < 1 || n64ms > 127)
        return TB_ERR_ARG;
    uint8_t c = (uint8_t)n64ms;
    return clock_frame(buf, cap, TB_DGT_CLK_BEEP, &c, 1);
}

uint8_t tb_dgt_xl_segments(char c)
{
    /* bits: 0x01 top, 0x02 upper right, 0x04 lower right, 0x08 bottom, 0x10 lower left,
     * 0x20 upper left, 0x40 middle */
    static const struct {
        char c;
        uint8_t seg;
    } map[] = {
        {'0', 0x3F}, {'1', 0x06}, {'2', 0x5B}, {'3', 0x4F}, {'4', 0x66}, {'5', 0x6D}, {'6', 0x7D},
        {'7', 0x07}, {'8', 0x7F}, {'9', 0x6F}, {'a', 0x77}, {'b', 0x7C}, {'c', 0x58}, {'d', 0x5E},
        {'e', 0x79}, {'f', 0x71}, {'g', 0x3D}, {'h', 0x74}, {'i', 0x04}, {'j', 0x1E}, {'l', 0x38},
        {'n', 0x54}, {'o', 0x5C}, {'p', 0x73}, {'q', 0x67}, {'r', 0x50}, {'s', 0x6D}, {'t', 0x78},
        {'u', 0x1C}, {'y', 0x6E}, {'-', 0x40}, {'_', 0x08}, {'=', 0x48}, {' ', 0x00},
    };
    char l = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (map[i].c == l)
            return map[i].seg;
    }
    return 0;
}

int tb_dgt_clk_text(uint8_t *buf, size_t cap, enum tb_dgt_clock_kind clock, const char *text,
                    bool beep)
{
    size_t width = clock == TB_DGT_CLOCK_XL     ? 6
                   : clock == TB_DGT_CLOCK_3000 ? 8
                   : clock == TB_DGT_CLOCK_REV2 ? 11
                                                : 0;
    size_t n = text ? strlen(text) : 0;
    if (!text || width == 0 || n > width)
        return TB_ERR_ARG;
    char s[12];
    memset(s, ' ', sizeof s);
    for (size_t i = 0; i < n; i++) {
        if (text[i] < 0x20 || text[i] > 0x7E)
            return TB_ERR_ARG;
        s[i] = text[i];
    }
    uint8_t c[14];
    if (clock == TB_DGT_CLOCK_XL) {
        /* Six digits sent in the order C B A F E D, then icons and the beep byte. */
        static const int order[6] = {2, 1, 0, 5, 4, 3};
        for (int i = 0; i < 6; i++)
            c[i] = tb_dgt_xl_segments(s[order[i]]);
        c[6] = 0x00;
        c[7] = beep ? 0x03 : 0x01;
        return clock_frame(buf, cap, TB_DGT_CLK_DISPLAY, c, 8);
    }
    memcpy(c, s, width);
    c[width] = beep ? 0x03 : 0x00; /* 62.5 ms + 3/16 s */
    return clock_frame(buf, cap,
                       clock == TB_DGT_CLOCK_3000 ? TB_DGT_CLK_ASCII : TB_DGT_CLK_REV2_ASCII, c,
                       width + 1);
}

int tb_dgt_clk_setnrun(uint8_t *buf, size_t cap, uint32_t left_s, uint32_t right_s, int mode)
{
    const uint32_t max = 9 * 3600 + 59 * 60 + 59;
    if (left_s > max || right_s > max || mode < 0 || mode > 0x0F)
        return TB_ERR_ARG;
    /* Binary hours, minutes, seconds (not BCD). */
    const uint8_t c[7] = {(uint8_t)(left_s / 3600),
                          (uint8_t)(left_s / 60 % 60),
                          (uint8_t)(left_s % 60),
                          (uint8_t)(right_s / 3600),
                          (uint8_t)(right_s / 60 % 60),
                          (uint8_t)(right_s % 60),
                          (uint8_t)mode};
    return clock_frame(buf, cap, TB_DGT_CLK_SETNRUN, c, sizeof c);
}

void tb_dgt_cmd_decoder_init(struct tb_dgt_cmd_decoder *d)
{
    memset(d, 0, sizeof *d);
}

/* Bytes a framed command needs in all, once its length byte is in; 0 while unknown. */
static size_t frame_total(const struct tb_dgt_cmd_decoder *d)
{
    if (d->have < 2)
        return 0;
    return (size_t)d->buf[1] + 2;
}

int tb_dgt_cmd_decoder_push(struct tb_dgt_cmd_decoder *d, uint8_t b, struct tb_dgt_command *out)
{
    if (d->have == 0) {
        if (single_byte(b)) {
            memset(out, 0, sizeof *out);
            out->cmd = b;
            return 1;
        }
        if (b == TB_DGT_CMD_CLOCK_MESSAGE || b == TB_DGT_CMD_SET_LEDS)
            d->buf[d->have++] = b;
        else
            d->garbage++;
        return 0;
    }
    d->buf[d->have++] = b;
    if (d->have == 2) {
        /* CLOCK_MESSAGE: 3..16 bytes follow; SET_LEDS: exactly 4. */
        bool ok =
            d->buf[0] == TB_DGT_CMD_SET_LEDS ? b == 4 : b >= 3 && (size_t)b + 2 <= sizeof d->buf;
        if (!ok) {
            d->garbage += d->have;
            d->have = 0;
        }
        return 0;
    }
    size_t total = frame_total(d);
    if (d->have < total)
        return 0;
    d->have = 0;
    memset(out, 0, sizeof *out);
    out->cmd = d->buf[0];
    if (out->cmd == TB_DGT_CMD_SET_LEDS) {
        out->n = 4;
        memcpy(out->content, d->buf + 2, 4);
        return 1;
    }
    if (d->buf[2] != 0x03 || d->buf[total - 1] != 0x00) {
        d->garbage += total;
        return 0;
    }
    out->clock_cmd = d->buf[3];
    out->n = (uint8_t)(total - 5);
    memcpy(out->content, d->buf + 4, out->n);
    return 1;
}
