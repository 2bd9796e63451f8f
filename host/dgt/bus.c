/* bus.c - bus mode framing: four-byte commands and checksummed replies (docs/dgt.md). */
#include <string.h>

#include "dgt_internal.h"

uint8_t tb_dgt_bus_checksum(const uint8_t *b, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += b[i];
    return (uint8_t)(sum & 0x7F);
}

int tb_dgt_bus_cmd_encode(uint8_t *buf, size_t cap, int cmd, int address)
{
    if (!buf || cmd < 0x80 || cmd > 0xFF || address < 0 || address > TB_DGT_BUS_ADDR_MAX)
        return TB_ERR_ARG;
    if (cap < TB_DGT_BUS_CMD_LEN)
        return TB_ERR_FULL;
    buf[0] = (uint8_t)cmd;
    buf[1] = (uint8_t)(address >> 7);
    buf[2] = (uint8_t)(address & 0x7F);
    buf[3] = tb_dgt_bus_checksum(buf, 3);
    return TB_DGT_BUS_CMD_LEN;
}

int tb_dgt_bus_reply_encode(uint8_t *buf, size_t cap, uint8_t id, int address, const uint8_t *data,
                            size_t n)
{
    size_t total = n + TB_DGT_BUS_REPLY_EXTRA;
    if (!buf || !(id & 0x80) || address < 0 || address > TB_DGT_BUS_ADDR_MAX ||
        total > TB_DGT_MAX_LEN || (n && !data))
        return TB_ERR_ARG;
    for (size_t i = 0; i < n; i++) {
        if (data[i] & 0x80)
            return TB_ERR_ARG;
    }
    if (cap < total)
        return TB_ERR_FULL;
    buf[0] = id;
    buf[1] = (uint8_t)(total >> 7);
    buf[2] = (uint8_t)(total & 0x7F);
    buf[3] = (uint8_t)(address >> 7);
    buf[4] = (uint8_t)(address & 0x7F);
    if (n)
        memmove(buf + 5, data, n);
    buf[total - 1] = tb_dgt_bus_checksum(buf, total - 1);
    return (int)total;
}

void tb_dgt_bus_decoder_init(struct tb_dgt_bus_decoder *d)
{
    memset(d, 0, sizeof *d);
}

int tb_dgt_bus_decoder_push(struct tb_dgt_bus_decoder *d, uint8_t b, struct tb_dgt_bus_command *out)
{
    if (b & 0x80) {
        /* The checksum is a 7-bit sum, so a bit-7 byte always starts a command. */
        if (d->have)
            d->cut++;
        d->buf[0] = b;
        d->have = 1;
        return 0;
    }
    if (d->have == 0)
        return 2;
    d->buf[d->have++] = b;
    if (d->have < TB_DGT_BUS_CMD_LEN)
        return 0;
    d->have = 0;
    if (tb_dgt_bus_checksum(d->buf, 3) != d->buf[3]) {
        d->bad_checksum++;
        return 0;
    }
    out->cmd = d->buf[0];
    out->address = (uint16_t)((d->buf[1] << 7) | d->buf[2]);
    return 1;
}

int tb_dgt_bus_reply_parse(const uint8_t *buf, size_t n, struct tb_dgt_bus_reply *out)
{
    if (!buf || !out)
        return TB_ERR_ARG;
    if (n == 0)
        return 0;
    if (!(buf[0] & 0x80))
        return TB_ERR_PARSE;
    for (size_t i = 1; i < n && i < 5; i++) {
        if (buf[i] & 0x80)
            return TB_ERR_PARSE;
    }
    if (n < 5)
        return 0;
    size_t total = ((size_t)buf[1] << 7) | buf[2];
    if (total < TB_DGT_BUS_REPLY_EXTRA)
        return TB_ERR_PARSE;
    if (n < total)
        return 0;
    if (tb_dgt_bus_checksum(buf, total - 1) != buf[total - 1])
        return TB_ERR_CRC;
    out->id = buf[0];
    out->address = (uint16_t)((buf[3] << 7) | buf[4]);
    out->len = (uint16_t)total;
    out->data = buf + 5;
    out->n = (uint16_t)(total - TB_DGT_BUS_REPLY_EXTRA);
    return (int)total;
}
