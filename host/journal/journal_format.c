/* journal_format.c - the record format: CRC, encoding and the recovering iterator (pure).
 * docs/journal.md describes the layout and the resynchronisation. */
#include <stdio.h>
#include <string.h>

#include "journal_internal.h"
#include "tb_journal.h"

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
    memcpy(out, "TBJ2", 4);
    tb_journal__put16(out + 4, type);
    tb_journal__put16(out + 6, 0);
    tb_journal__put32(out + 8, (uint32_t)len);
    tb_journal__put64(out + 12, seq);
    tb_journal__put64(out + 20, time_ms);
    if (len)
        memmove(out + TB_JOURNAL_HEADER_SIZE, payload, len);
    tb_journal__put32(out + 28, tb_journal_crc32(0, out + TB_JOURNAL_HEADER_SIZE, len));
    tb_journal__put32(out + 32, tb_journal_crc32(0, out, 32));
    return (int)(TB_JOURNAL_HEADER_SIZE + len);
}

/* What lies at a position. */
enum found {
    FOUND_NOTHING,  /* no record header */
    FOUND_RECORD,   /* an intact record */
    FOUND_BODY_BAD, /* a format 2 header that is intact, its payload damaged or cut short */
    FOUND_NEWER,    /* a header of a newer format whose header CRC matches */
};

static bool is_marker(const uint8_t *h)
{
    return h[0] == 'T' && h[1] == 'B' && h[2] == 'J' && h[3] >= '1' && h[3] <= '9';
}

/* Sequence numbers start at 1 and stay below 2^63, so "the next one" never wraps. */
static bool seq_valid(uint64_t seq)
{
    return seq != 0 && seq >> 63 == 0;
}

static void fill(struct tb_journal_record *rec, const uint8_t *buf, size_t pos, size_t hsize)
{
    const uint8_t *h = buf + pos;
    rec->type = tb_journal__get16(h + 4);
    rec->len = tb_journal__get32(h + 8);
    rec->seq = tb_journal__get64(h + 12);
    rec->time_ms = tb_journal__get64(h + 20);
    rec->payload = h + hsize;
    rec->offset = pos;
    rec->format = (uint8_t)(h[3] - '0');
}

/* Format 1: one CRC over header bytes 0..27 and the payload. */
static enum found v1_at(const uint8_t *buf, size_t len, size_t pos, struct tb_journal_record *rec)
{
    const uint8_t *h = buf + pos;
    uint32_t plen = tb_journal__get32(h + 8);
    if (tb_journal__get16(h + 6) != 0 || plen > TB_JOURNAL_MAX_PAYLOAD ||
        len - pos - TB_JOURNAL_V1_HEADER_SIZE < plen)
        return FOUND_NOTHING;
    uint32_t crc = tb_journal_crc32(0, h, 28);
    crc = tb_journal_crc32(crc, h + TB_JOURNAL_V1_HEADER_SIZE, plen);
    if (crc != tb_journal__get32(h + 28) || !seq_valid(tb_journal__get64(h + 12)))
        return FOUND_NOTHING;
    fill(rec, buf, pos, TB_JOURNAL_V1_HEADER_SIZE);
    return FOUND_RECORD;
}

/* What starts at pos; rec is filled for FOUND_RECORD and FOUND_BODY_BAD (its len then tells
 * where the damaged record ends, which may lie past the buffer). */
static enum found record_at(const uint8_t *buf, size_t len, size_t pos,
                            struct tb_journal_record *rec)
{
    if (len - pos < TB_JOURNAL_V1_HEADER_SIZE || !is_marker(buf + pos))
        return FOUND_NOTHING;
    const uint8_t *h = buf + pos;
    if (h[3] == '1')
        return v1_at(buf, len, pos, rec);
    /* Format 2 and any later one keep the header CRC at 32..35 over bytes 0..31. */
    if (len - pos < TB_JOURNAL_HEADER_SIZE ||
        tb_journal_crc32(0, h, 32) != tb_journal__get32(h + 32))
        return FOUND_NOTHING;
    if (h[3] != '2')
        return FOUND_NEWER;
    uint32_t plen = tb_journal__get32(h + 8);
    if (tb_journal__get16(h + 6) != 0 || plen > TB_JOURNAL_MAX_PAYLOAD ||
        !seq_valid(tb_journal__get64(h + 12)))
        return FOUND_NOTHING;
    fill(rec, buf, pos, TB_JOURNAL_HEADER_SIZE);
    if (len - pos - TB_JOURNAL_HEADER_SIZE < plen ||
        tb_journal_crc32(0, h + TB_JOURNAL_HEADER_SIZE, plen) != tb_journal__get32(h + 28))
        return FOUND_BODY_BAD;
    return FOUND_RECORD;
}

static size_t record_size(const struct tb_journal_record *rec)
{
    return (rec->format == 1 ? TB_JOURNAL_V1_HEADER_SIZE : TB_JOURNAL_HEADER_SIZE) + rec->len;
}

void tb_journal_iter_init(struct tb_journal_iter *it, const void *buf, size_t len)
{
    memset(it, 0, sizeof *it);
    it->buf = buf;
    it->len = buf ? len : 0;
}

/* Hands out the intact record rec at it->pos. */
static int deliver(struct tb_journal_iter *it, const struct tb_journal_record *rec)
{
    it->pos += record_size(rec);
    it->valid_end = it->pos;
    it->next_seq = rec->seq + 1;
    if (rec->type == TB_JOURNAL_MOVE && rec->len >= 3) /* struct tb_journal_move: ply at 1 */
        it->ply = tb_journal__get16(rec->payload + 1);
    return 1;
}

/* Reports damage: bytes it->pos..to-1 unreadable, records first..last lost; reading goes on at
 * `to`, where an intact record with sequence number last + 1 starts. */
static int report(struct tb_journal_iter *it, size_t to, uint64_t first, uint64_t last,
                  struct tb_error *err)
{
    struct tb_journal_loss *l = &it->loss;
    *l = (struct tb_journal_loss){.first_seq = first,
                                  .last_seq = last,
                                  .offset = it->pos,
                                  .bytes = to - it->pos,
                                  .ply = it->ply};
    it->pos = to;
    it->valid_end = to; /* the damage is kept: it is no torn tail */
    it->next_seq = last + 1;
    it->corrupt++;
    char bytes[96] = "no bytes unreadable";
    if (l->bytes)
        snprintf(bytes, sizeof bytes, "bytes %zu to %zu unreadable", l->offset, to - 1);
    if (last < first)
        return tb_error_set(err, TB_ERR_CRC, "journal damaged (%s), no record missing", bytes);
    it->lost += last - first + 1;
    return tb_error_set(err, TB_ERR_CRC, "journal records %llu to %llu lost (%s), after ply %u",
                        (unsigned long long)first, (unsigned long long)last, bytes,
                        (unsigned)l->ply);
}

static int newer(struct tb_journal_iter *it, size_t at, struct tb_error *err)
{
    it->unsupported = true;
    int v = it->buf[at + 3] - '0';
    it->pos = it->len;
    return tb_error_set(err, TB_ERR_SUPP,
                        "journal record at offset %zu is format %d; this build reads formats 1 "
                        "to %d",
                        at, v, TB_JOURNAL_FORMAT);
}

int tb_journal_iter_next(struct tb_journal_iter *it, struct tb_journal_record *rec,
                         struct tb_error *err)
{
    if (it->pos >= it->len || it->unsupported)
        return 0;
    uint64_t expect = it->next_seq ? it->next_seq : 1;
    enum found f = record_at(it->buf, it->len, it->pos, rec);
    if (f == FOUND_NEWER)
        return newer(it, it->pos, err);
    if (f == FOUND_RECORD && rec->seq == expect) /* a file's first record is number 1 */
        return deliver(it, rec);
    if (f == FOUND_RECORD && rec->seq > expect) /* reported once; the next call delivers it */
        return report(it, it->pos, expect, rec->seq - 1, err);
    /* Damage. An intact format 2 header tells where its record ends: look there first, so a
     * damaged payload costs exactly its record. Otherwise every later byte is a candidate. */
    size_t from = it->pos + 1;
    if (f == FOUND_BODY_BAD && rec->seq >= expect && record_size(rec) <= it->len - it->pos)
        from = it->pos + record_size(rec);
    struct tb_journal_record next;
    for (size_t q = from; q + TB_JOURNAL_V1_HEADER_SIZE <= it->len; q++) {
        if (it->buf[q] != 'T')
            continue;
        enum found g = record_at(it->buf, it->len, q, &next);
        if (g == FOUND_NEWER)
            return newer(it, q, err);
        /* Only a record that continues the sequence: an older one is stale or a copy. */
        if (g == FOUND_RECORD && next.seq >= expect)
            return report(it, q, expect, next.seq - 1, err);
    }
    /* No intact record follows. The last record, whole to the end of the buffer, its header
     * intact: a complete write damaged afterwards (a cut-short write ends early), so a loss. */
    if (f == FOUND_BODY_BAD && rec->seq >= expect && record_size(rec) == it->len - it->pos)
        return report(it, it->len, expect, rec->seq, err);
    it->torn = true;
    it->pos = it->len;
    return 0;
}
