/* encode.c - board -> PC messages, for an emulated or virtual board. */
#include <string.h>

#include "dgt_internal.h"

int tb_dgt_msg_encode(uint8_t *buf, size_t cap, const struct tb_dgt_msg *m)
{
    if (!buf || !m || m->skipped || m->n > TB_DGT_DATA_MAX)
        return TB_ERR_ARG;
    size_t len = (size_t)m->n + TB_DGT_HEADER_LEN;
    if (!tb_dgt__len_ok(m->id, len))
        return TB_ERR_ARG;
    for (size_t i = 0; i < m->n; i++) {
        if (m->data[i] & 0x80)
            return TB_ERR_ARG;
    }
    if (cap < len)
        return TB_ERR_FULL;
    buf[0] = m->id;
    buf[1] = (uint8_t)(len >> 7);
    buf[2] = (uint8_t)(len & 0x7F);
    memcpy(buf + TB_DGT_HEADER_LEN, m->data, m->n);
    return (int)len;
}

static void start(struct tb_dgt_msg *m, uint8_t id, uint16_t n)
{
    memset(m, 0, sizeof *m);
    m->id = id;
    m->n = n;
    m->len = (uint16_t)(n + TB_DGT_HEADER_LEN);
}

/* Fills the typed fields and refuses content the decoder would refuse. */
static int finish(struct tb_dgt_msg *m)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->data[i] & 0x80)
            return TB_ERR_ARG;
    }
    return tb_dgt__msg_parse(m) ? TB_OK : TB_ERR_ARG;
}

int tb_dgt_msg_board_dump(struct tb_dgt_msg *m, const uint8_t codes[64])
{
    if (!m || !codes)
        return TB_ERR_ARG;
    start(m, TB_DGT_MSG_BOARD_DUMP, 64);
    memcpy(m->data, codes, 64);
    return finish(m);
}

int tb_dgt_msg_field_update(struct tb_dgt_msg *m, int field, int code)
{
    if (!m || field < 0 || field > 63 || code < 0 || code > 0x7F)
        return TB_ERR_ARG;
    start(m, TB_DGT_MSG_FIELD_UPDATE, 2);
    m->data[0] = (uint8_t)field;
    m->data[1] = (uint8_t)code;
    return finish(m);
}

int tb_dgt_msg_version(struct tb_dgt_msg *m, uint8_t id, int major, int minor)
{
    if (!m || (id != TB_DGT_MSG_VERSION && id != TB_DGT_MSG_HARDWARE_VERSION) || major < 0 ||
        major > 0x7F || minor < 0 || minor > 0x7F)
        return TB_ERR_ARG;
    start(m, id, 2);
    m->data[0] = (uint8_t)major;
    m->data[1] = (uint8_t)minor;
    return finish(m);
}

static int text(struct tb_dgt_msg *m, uint8_t id, const char *s, size_t lo, size_t hi)
{
    size_t n = s ? strlen(s) : 0;
    if (!m || !s || n < lo || n > hi)
        return TB_ERR_ARG;
    start(m, id, (uint16_t)n);
    memcpy(m->data, s, n);
    return finish(m);
}

int tb_dgt_msg_serialnr(struct tb_dgt_msg *m, const char *digits)
{
    return text(m, TB_DGT_MSG_SERIALNR, digits, 5, 5);
}

int tb_dgt_msg_long_serialnr(struct tb_dgt_msg *m, const char *digits)
{
    return text(m, TB_DGT_MSG_LONG_SERIALNR, digits, 10, 10);
}

int tb_dgt_msg_trademark(struct tb_dgt_msg *m, const char *s)
{
    return text(m, TB_DGT_MSG_TRADEMARK, s, 0, TB_DGT_TRADEMARK_MAX);
}

int tb_dgt_msg_busadres(struct tb_dgt_msg *m, int value)
{
    if (!m || value < 0 || value > 0x3FFF)
        return TB_ERR_ARG;
    start(m, TB_DGT_MSG_BUSADRES, 2);
    m->data[0] = (uint8_t)(value >> 7);
    m->data[1] = (uint8_t)(value & 0x7F);
    return finish(m);
}

int tb_dgt_msg_bwtime_raw(struct tb_dgt_msg *m, const uint8_t payload[7])
{
    if (!m || !payload)
        return TB_ERR_ARG;
    start(m, TB_DGT_MSG_BWTIME, 7);
    memcpy(m->data, payload, 7);
    return finish(m);
}
