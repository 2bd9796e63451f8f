/* bwtime.c - the BWTIME payload: clock times (BCD) or a clock ACK. */
#include <string.h>

#include "dgt_internal.h"

/* Low nibble 0x0A in the hours byte of either side marks an ACK. */
static bool is_ack(const uint8_t p[7])
{
    return (p[0] & 0x0F) == 0x0A || (p[3] & 0x0F) == 0x0A;
}

static int bcd(uint8_t b)
{
    int hi = b >> 4, lo = b & 0x0F;
    return hi > 9 || lo > 9 ? -1 : hi * 10 + lo;
}

static bool side(const uint8_t *p, struct tb_dgt_clock_side *s)
{
    int h = p[0] & 0x0F, m = bcd(p[1]), sec = bcd(p[2]);
    if (h > 9 || m < 0 || m > 59 || sec < 0 || sec > 59)
        return false;
    s->seconds = (uint32_t)(h * 3600 + m * 60 + sec);
    s->flag_fell = (p[0] & 0x10) != 0;
    s->per_move = (p[0] & 0x20) != 0;
    s->flag = (p[0] & 0x40) != 0;
    return true;
}

enum tb_dgt_bwtime_kind tb_dgt_bwtime_decode(const uint8_t p[7], struct tb_dgt_bwtime *out)
{
    static const uint8_t zero[7];
    memset(out, 0, sizeof *out);
    out->status = p[6];
    if (memcmp(p, zero, 7) == 0) {
        out->kind = TB_DGT_BW_EMPTY; /* sent by some Bluetooth firmware: no reading */
    } else if (is_ack(p)) {
        /* The top bits of the four ACK bytes travel in bits 4 and 5 of the hours bytes. */
        out->kind = TB_DGT_BW_ACK;
        out->ack.b[0] = (uint8_t)((p[1] & 0x7F) | ((p[3] & 0x10) << 3));
        out->ack.b[1] = (uint8_t)((p[2] & 0x7F) | ((p[3] & 0x20) << 2));
        out->ack.b[2] = (uint8_t)((p[4] & 0x7F) | ((p[0] & 0x10) << 3));
        out->ack.b[3] = (uint8_t)((p[5] & 0x7F) | ((p[0] & 0x20) << 2));
    } else if (p[6] & TB_DGT_ST_NO_CLOCK) {
        out->kind = TB_DGT_BW_NO_CLOCK;
    } else if (!side(p, &out->right) || !side(p + 3, &out->left)) {
        memset(&out->left, 0, sizeof out->left);
        memset(&out->right, 0, sizeof out->right);
        out->kind = TB_DGT_BW_RANGE;
    } else {
        out->kind = TB_DGT_BW_TIMES;
    }
    return out->kind;
}

static int put_side(uint8_t *p, const struct tb_dgt_clock_side *s)
{
    if (s->seconds > 9 * 3600 + 59 * 60 + 59)
        return TB_ERR_ARG;
    uint32_t h = s->seconds / 3600, m = s->seconds / 60 % 60, sec = s->seconds % 60;
    p[0] =
        (uint8_t)(h | (s->flag_fell ? 0x10 : 0) | (s->per_move ? 0x20 : 0) | (s->flag ? 0x40 : 0));
    p[1] = (uint8_t)((m / 10) << 4 | m % 10);
    p[2] = (uint8_t)((sec / 10) << 4 | sec % 10);
    return TB_OK;
}

int tb_dgt_bwtime_encode_times(uint8_t p[7], const struct tb_dgt_clock_side *left,
                               const struct tb_dgt_clock_side *right, uint8_t status)
{
    if (!p || !left || !right || (status & 0x80))
        return TB_ERR_ARG;
    uint8_t q[7];
    if (put_side(q, right) != TB_OK || put_side(q + 3, left) != TB_OK)
        return TB_ERR_ARG;
    q[6] = status;
    memcpy(p, q, 7);
    return TB_OK;
}

int tb_dgt_bwtime_encode_ack(uint8_t p[7], const struct tb_dgt_ack *a)
{
    if (!p || !a)
        return TB_ERR_ARG;
    p[0] = (uint8_t)(0x0A | ((a->b[2] & 0x80) >> 3) | ((a->b[3] & 0x80) >> 2));
    p[1] = a->b[0] & 0x7F;
    p[2] = a->b[1] & 0x7F;
    p[3] = (uint8_t)(0x0A | ((a->b[0] & 0x80) >> 3) | ((a->b[1] & 0x80) >> 2));
    p[4] = a->b[2] & 0x7F;
    p[5] = a->b[3] & 0x7F;
    p[6] = 0;
    return TB_OK;
}

void tb_dgt_clock_by_color(const struct tb_dgt_bwtime *b, bool rotated,
                           struct tb_dgt_clock_side *white, struct tb_dgt_clock_side *black)
{
    /* The right way round White sits at the clock's left; turned round, at its right. */
    *white = rotated ? b->right : b->left;
    *black = rotated ? b->left : b->right;
}
