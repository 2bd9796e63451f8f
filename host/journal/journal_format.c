/* journal_format.c - the record format: CRC, encoding and the recovering iterator (pure). */
#include <string.h>

#include "journal_internal.h"
#include "tb_journal.h"

static const uint8_t magic[4] = {'T', 'B', 'J', '1'};

/* Half-byte table: small enough to read, fast enough for journals. */
static const uint32_t crc_nibble[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t tb_journal_crc32(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
    }
    return ~crc;
}

void tb_journal__put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void tb_journal__put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void tb_journal__put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint16_t tb_journal__get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t tb_journal__get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t tb_journal__get64(const uint8_t *p)
{
    return (uint64_t)tb_journal__get32(p) | (uint64_t)tb_journal__get32(p + 4) << 32;
}

int tb_journal_encode(uint8_t *out, size_t cap, uint16_t type, uint64_t seq, uint64_t time_ms,
                      const void *payload, size_t len)
{
    if (!out || (len && !payload) || len > TB_JOURNAL_MAX_PAYLOAD ||
        cap < TB_JOURNAL_HEADER_SIZE + len)
        return TB_ERR_ARG;
    memcpy(out, magic, 4);
    tb_journal__put16(out + 4, type);
    tb_journal__put16(out + 6, 0);
    tb_journal__put32(out + 8, (uint32_t)len);
    tb_journal__put64(out + 12, seq);
    tb_journal__put64(out + 20, time_ms);
    if (len)
        memcpy(out + TB_JOURNAL_HEADER_SIZE, payload, len);
    uint32_t crc = tb_journal_crc32(0, out, 28);
    crc = tb_journal_crc32(crc, out + TB_JOURNAL_HEADER_SIZE, len);
    tb_journal__put32(out + 28, crc);
    return (int)(TB_JOURNAL_HEADER_SIZE + len);
}

/* True when a complete record whose CRC matches starts at pos. */
static bool record_at(const uint8_t *buf, size_t len, size_t pos, struct tb_journal_record *rec)
{
    if (len - pos < TB_JOURNAL_HEADER_SIZE)
        return false;
    const uint8_t *h = buf + pos;
    if (memcmp(h, magic, 4) != 0 || tb_journal__get16(h + 6) != 0)
        return false;
    uint32_t plen = tb_journal__get32(h + 8);
    if (plen > TB_JOURNAL_MAX_PAYLOAD || len - pos - TB_JOURNAL_HEADER_SIZE < plen)
        return false;
    uint32_t crc = tb_journal_crc32(0, h, 28);
    crc = tb_journal_crc32(crc, h + TB_JOURNAL_HEADER_SIZE, plen);
    if (crc != tb_journal__get32(h + 28))
        return false;
    rec->type = tb_journal__get16(h + 4);
    rec->len = plen;
    rec->seq = tb_journal__get64(h + 12);
    rec->time_ms = tb_journal__get64(h + 20);
    rec->payload = h + TB_JOURNAL_HEADER_SIZE;
    rec->offset = pos;
    return true;
}

void tb_journal_iter_init(struct tb_journal_iter *it, const void *buf, size_t len)
{
    memset(it, 0, sizeof *it);
    it->buf = buf;
    it->len = buf ? len : 0;
}

int tb_journal_iter_next(struct tb_journal_iter *it, struct tb_journal_record *rec,
                         struct tb_error *err)
{
    if (it->pos >= it->len)
        return 0;
    if (record_at(it->buf, it->len, it->pos, rec)) {
        if (it->next_seq && rec->seq != it->next_seq) {
            uint64_t expected = it->next_seq;
            it->next_seq = rec->seq; /* report once; the next call returns this record */
            it->corrupt++;
            return tb_error_set(
                err, TB_ERR_CRC, "journal sequence jumps from %llu to %llu at offset %zu",
                (unsigned long long)expected, (unsigned long long)rec->seq, it->pos);
        }
        it->pos += TB_JOURNAL_HEADER_SIZE + rec->len;
        it->valid_end = it->pos;
        it->next_seq = rec->seq + 1;
        return 1;
    }
    /* A bad record: corruption if a valid record follows, else a torn tail. */
    struct tb_journal_record next;
    for (size_t q = it->pos + 1; q + TB_JOURNAL_HEADER_SIZE <= it->len; q++) {
        if (it->buf[q] != magic[0] || !record_at(it->buf, it->len, q, &next))
            continue;
        size_t bad = it->pos;
        it->pos = q;
        it->corrupt++;
        uint64_t lost_from = it->next_seq ? it->next_seq : 1;
        it->next_seq = next.seq;
        if (next.seq <= lost_from)
            return tb_error_set(err, TB_ERR_CRC,
                                "corrupt journal bytes at offset %zu (%zu bytes unreadable), "
                                "no record missing",
                                bad, q - bad);
        return tb_error_set(err, TB_ERR_CRC,
                            "corrupt journal record at offset %zu (%zu bytes unreadable): "
                            "records %llu to %llu lost",
                            bad, q - bad, (unsigned long long)lost_from,
                            (unsigned long long)(next.seq - 1));
    }
    it->torn = true;
    it->pos = it->len;
    return 0;
}
