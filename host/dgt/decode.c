/* decode.c - board -> PC messages: header, length rules per ID, resync by the bit-7 rule. */
#include <stdlib.h>
#include <string.h>

#include "dgt_internal.h"

struct tb_dgt_decoder {
    uint8_t buf[TB_DGT_MSG_MAX];
    uint16_t have; /* bytes of the current message seen (stored only when not skipping) */
    uint16_t len;  /* its declared total length, once the header is complete */
    bool skipping; /* EE_MOVES or an unknown ID: counted, not stored */
    struct tb_dgt_msg msg;
    struct tb_dgt_decoder_stats stats;
};

bool tb_dgt_msg_len_range(uint8_t id, uint16_t *min, uint16_t *max)
{
    uint16_t lo = TB_DGT_HEADER_LEN, hi = TB_DGT_MAX_LEN;
    if (!(id & 0x80))
        return false;
    switch (id) {
    case TB_DGT_MSG_BOARD_DUMP:
        lo = hi = 67;
        break;
    case TB_DGT_MSG_BWTIME:
        lo = hi = 10;
        break;
    case TB_DGT_MSG_FIELD_UPDATE:
    case TB_DGT_MSG_BUSADRES:
    case TB_DGT_MSG_VERSION:
    case TB_DGT_MSG_HARDWARE_VERSION:
        lo = hi = 5;
        break;
    case TB_DGT_MSG_SERIALNR: /* 5 digits; the old header's form adds " 1.0" */
        lo = 8;
        hi = 12;
        break;
    case TB_DGT_MSG_TRADEMARK:
        hi = TB_DGT_HEADER_LEN + TB_DGT_TRADEMARK_MAX;
        break;
    case TB_DGT_MSG_BATTERY_STATUS: /* nine payload bytes, as boards send it */
        lo = hi = 12;
        break;
    case TB_DGT_MSG_LONG_SERIALNR:
        lo = hi = 13;
        break;
    default: /* EE_MOVES and unknown IDs: any length, skipped */
        break;
    }
    *min = lo;
    *max = hi;
    return true;
}

bool tb_dgt__len_ok(uint8_t id, size_t len)
{
    uint16_t lo, hi;
    if (!tb_dgt_msg_len_range(id, &lo, &hi) || len < lo || len > hi)
        return false;
    return id != TB_DGT_MSG_SERIALNR || len == 8 || len == 12; /* two forms, nothing between */
}

const char *tb_dgt_msg_name(uint8_t id)
{
    switch (id) {
    case TB_DGT_MSG_BOARD_DUMP:
        return "BOARD_DUMP";
    case TB_DGT_MSG_BWTIME:
        return "BWTIME";
    case TB_DGT_MSG_FIELD_UPDATE:
        return "FIELD_UPDATE";
    case TB_DGT_MSG_EE_MOVES:
        return "EE_MOVES";
    case TB_DGT_MSG_BUSADRES:
        return "BUSADRES";
    case TB_DGT_MSG_SERIALNR:
        return "SERIALNR";
    case TB_DGT_MSG_TRADEMARK:
        return "TRADEMARK";
    case TB_DGT_MSG_VERSION:
        return "VERSION";
    case TB_DGT_MSG_HARDWARE_VERSION:
        return "HARDWARE_VERSION";
    case TB_DGT_MSG_BATTERY_STATUS:
        return "BATTERY_STATUS";
    case TB_DGT_MSG_LONG_SERIALNR:
        return "LONG_SERIALNR";
    default:
        return "unknown";
    }
}

static bool is_skipped(uint8_t id)
{
    switch (id) {
    case TB_DGT_MSG_BOARD_DUMP:
    case TB_DGT_MSG_BWTIME:
    case TB_DGT_MSG_FIELD_UPDATE:
    case TB_DGT_MSG_BUSADRES:
    case TB_DGT_MSG_SERIALNR:
    case TB_DGT_MSG_TRADEMARK:
    case TB_DGT_MSG_VERSION:
    case TB_DGT_MSG_HARDWARE_VERSION:
    case TB_DGT_MSG_BATTERY_STATUS:
    case TB_DGT_MSG_LONG_SERIALNR:
        return false;
    default:
        return true;
    }
}

static bool digits(const uint8_t *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
    }
    return true;
}

static bool printable(const uint8_t *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (p[i] < 0x20 || p[i] > 0x7E)
            return false;
    }
    return true;
}

bool tb_dgt__msg_parse(struct tb_dgt_msg *m)
{
    m->field = m->code = m->major = m->minor = 0;
    m->busadres = 0;
    switch (m->id) {
    case TB_DGT_MSG_FIELD_UPDATE:
        if (m->data[0] > 63)
            return false;
        m->field = m->data[0];
        m->code = m->data[1];
        return true;
    case TB_DGT_MSG_VERSION:
    case TB_DGT_MSG_HARDWARE_VERSION:
        m->major = m->data[0];
        m->minor = m->data[1];
        return true;
    case TB_DGT_MSG_BUSADRES:
        m->busadres = (uint16_t)(m->data[0] << 7 | m->data[1]);
        return true;
    case TB_DGT_MSG_SERIALNR:
        return digits(m->data, 5) && printable(m->data + 5, m->n - 5);
    case TB_DGT_MSG_LONG_SERIALNR:
        return printable(m->data, m->n);
    default:
        return true;
    }
}

tb_dgt_decoder *tb_dgt_decoder_new(void)
{
    return calloc(1, sizeof(tb_dgt_decoder));
}

void tb_dgt_decoder_free(tb_dgt_decoder *d)
{
    free(d);
}

void tb_dgt_decoder_reset(tb_dgt_decoder *d)
{
    if (d) {
        d->have = 0;
        d->skipping = false;
    }
}

void tb_dgt_decoder_stats(const tb_dgt_decoder *d, struct tb_dgt_decoder_stats *out)
{
    if (d && out)
        *out = d->stats;
}

/* Drops what was read of the current message as garbage. */
static void drop(tb_dgt_decoder *d)
{
    d->stats.garbage += d->have;
    d->have = 0;
    d->skipping = false;
}

static int deliver(tb_dgt_decoder *d, tb_dgt_msg_fn fn, void *user)
{
    struct tb_dgt_msg *m = &d->msg;
    m->id = d->buf[0];
    m->len = d->len;
    m->skipped = d->skipping;
    m->n = d->skipping ? 0 : (uint16_t)(d->len - TB_DGT_HEADER_LEN);
    if (!d->skipping)
        memcpy(m->data, d->buf + TB_DGT_HEADER_LEN, m->n);
    if (!d->skipping && !tb_dgt__msg_parse(m)) {
        d->stats.bad_content++;
        d->stats.last_refused_id = m->id;
        d->stats.last_refused_len = m->len;
        drop(d);
        return 0;
    }
    if (d->skipping)
        d->stats.skipped++;
    d->stats.messages++;
    d->have = 0;
    d->skipping = false;
    fn(user, m);
    return 1;
}

/* The header is complete: check the declared length against the ID. */
static int header_done(tb_dgt_decoder *d, tb_dgt_msg_fn fn, void *user)
{
    d->len = (uint16_t)(d->buf[1] << 7 | d->buf[2]);
    if (!tb_dgt__len_ok(d->buf[0], d->len)) {
        d->stats.bad_length++;
        d->stats.last_refused_id = d->buf[0];
        d->stats.last_refused_len = d->len;
        drop(d);
        return 0;
    }
    d->skipping = is_skipped(d->buf[0]);
    return d->len == TB_DGT_HEADER_LEN ? deliver(d, fn, user) : 0;
}

int tb_dgt_decoder_feed(tb_dgt_decoder *d, const uint8_t *buf, size_t n, tb_dgt_msg_fn fn,
                        void *user)
{
    int delivered = 0;
    if (!d || !fn || (!buf && n > 0))
        return TB_ERR_ARG;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = buf[i];
        if (b & 0x80) {
            /* Only an ID byte has bit 7: whatever was half read is cut off here. */
            if (d->have > 0) {
                d->stats.cut++;
                drop(d);
            }
            d->buf[0] = b;
            d->have = 1;
            continue;
        }
        if (d->have == 0) {
            d->stats.garbage++;
            continue;
        }
        if (d->have < TB_DGT_HEADER_LEN) {
            d->buf[d->have++] = b;
            if (d->have == TB_DGT_HEADER_LEN)
                delivered += header_done(d, fn, user);
            continue;
        }
        if (!d->skipping)
            d->buf[d->have] = b;
        d->have++;
        if (d->have == d->len)
            delivered += deliver(d, fn, user);
    }
    return delivered;
}
