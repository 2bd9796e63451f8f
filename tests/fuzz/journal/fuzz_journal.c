/* fuzz_journal.c - fuzz target of the journal's record iterator and typed payload decoders
 * (host/journal) over arbitrary bytes (a damaged journal file).
 *
 * The iterator must end (each call moves on, so a buffer of N bytes takes at most 2N + 2 calls),
 * hand out only records that lie inside the buffer, whose CRC matches and whose re-encoding is
 * byte for byte the record, report damage between records with a message, and never stop past
 * the end. A payload a decoder accepts must encode back to the same bytes. The same bytes are
 * also read as one payload of each type. */
#include "tb_fuzz.h"
#include "tb_journal.h"

static uint8_t scratch[TB_JOURNAL_HEADER_SIZE + TB_JOURNAL_MAX_PAYLOAD];

/* A decoder's result: accepted payloads encode (encoded bytes in scratch) back to themselves. */
static void check_decoded(int rc, const struct tb_error *err, int encoded,
                          const struct tb_journal_record *rec)
{
    if (rc != TB_OK) {
        TB_FUZZ_CHECK_ERROR(rc, *err);
        return;
    }
    TB_FUZZ_CHECK(encoded == (int)rec->len && memcmp(scratch, rec->payload, rec->len) == 0);
}

static void check_payload(const struct tb_journal_record *rec)
{
    struct tb_error err;
    memset(&err, 0, sizeof err);
    struct tb_journal_event ev;
    int rc = tb_journal_event_decode(&ev, rec, &err);
    check_decoded(rc, &err, rc ? 0 : tb_journal_event_encode(&ev, scratch, sizeof scratch), rec);

    memset(&err, 0, sizeof err);
    struct tb_journal_move mv;
    rc = tb_journal_move_decode(&mv, rec, &err);
    TB_FUZZ_CHECK(rc || memchr(mv.san, '\0', sizeof mv.san));
    check_decoded(rc, &err, rc ? 0 : tb_journal_move_encode(&mv, scratch, sizeof scratch), rec);

    memset(&err, 0, sizeof err);
    struct tb_journal_decision d;
    rc = tb_journal_decision_decode(&d, rec, &err);
    TB_FUZZ_CHECK(rc || (memchr(d.who, '\0', sizeof d.who) && memchr(d.fen, '\0', sizeof d.fen) &&
                         memchr(d.text, '\0', sizeof d.text)));
    check_decoded(rc, &err, rc ? 0 : tb_journal_decision_encode(&d, scratch, sizeof scratch), rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1); /* exactly the input: a read past it is caught */
    if (!buf)
        abort();
    memcpy(buf, data, size);

    struct tb_journal_iter it;
    tb_journal_iter_init(&it, buf, size);
    size_t records = 0, errors = 0, end = 0;
    for (size_t calls = 0;; calls++) {
        TB_FUZZ_CHECK(calls <= 2 * size + 2);
        struct tb_journal_record rec;
        struct tb_error err;
        memset(&err, 0, sizeof err);
        int rc = tb_journal_iter_next(&it, &rec, &err);
        TB_FUZZ_CHECK(it.pos <= size && it.valid_end <= size);
        if (rc == 0)
            break;
        if (rc < 0) {
            TB_FUZZ_CHECK(rc == TB_ERR_CRC);
            TB_FUZZ_CHECK_ERROR(rc, err);
            errors++;
            continue;
        }
        TB_FUZZ_CHECK(rc == 1);
        TB_FUZZ_CHECK(rec.offset >= end && rec.len <= TB_JOURNAL_MAX_PAYLOAD);
        TB_FUZZ_CHECK(rec.offset + TB_JOURNAL_HEADER_SIZE + rec.len <= size);
        TB_FUZZ_CHECK(rec.payload == buf + rec.offset + TB_JOURNAL_HEADER_SIZE);
        int n = tb_journal_encode(scratch, sizeof scratch, rec.type, rec.seq, rec.time_ms,
                                  rec.payload, rec.len);
        TB_FUZZ_CHECK(n == (int)(TB_JOURNAL_HEADER_SIZE + rec.len));
        TB_FUZZ_CHECK(memcmp(scratch, buf + rec.offset, (size_t)n) == 0);
        end = rec.offset + (size_t)n;
        records++;
        check_payload(&rec);
    }
    TB_FUZZ_CHECK(it.pos == size && errors == it.corrupt && it.valid_end == end);
    TB_FUZZ_CHECK(it.torn == (end < size)); /* bytes after the last record are a torn tail */

    /* The bytes as one payload of every type. */
    if (size <= TB_JOURNAL_MAX_PAYLOAD) {
        for (uint16_t type = TB_JOURNAL_GAME_START; type <= TB_JOURNAL_NEW_GAME; type++) {
            struct tb_journal_record rec = {
                .type = type, .seq = 7, .payload = buf, .len = (uint32_t)size};
            check_payload(&rec);
        }
    }
    free(buf);
    return 0;
}
