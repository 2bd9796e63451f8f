/* fuzz_journal.c - fuzz target of the journal's record iterator and typed payload decoders
 * (host/journal) over arbitrary bytes (a damaged journal file).
 *
 * The iterator must end (each call moves on, so a buffer of N bytes takes at most 2N + 2 calls),
 * hand out only records that lie inside the buffer, whose CRCs match and whose re-encoding is
 * byte for byte the record (format 2; format 1 records their CRC), with sequence numbers that
 * continue one by one or after a reported loss; report each loss with a message, bytes that
 * start where the last record ended and end where the next begins, the records between the two
 * sequence numbers and the last move's ply; stop at a newer format with a message; and never
 * stop past the end. A payload a decoder accepts must encode back to the same bytes (a
 * doorgeefschaak input of the older text form: its words formatted back to the same words). The
 * same bytes are also read as one payload of each type. */
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

/* A doorgeefschaak input, of either form; text: the decision's words when rec is one. */
static void check_bug_input(const struct tb_journal_record *rec, const char *text)
{
    struct tb_error err;
    memset(&err, 0, sizeof err);
    struct tb_journal_bug_input in;
    int rc = tb_journal_bug_input_decode(&in, rec, &err);
    TB_FUZZ_CHECK(rc || memchr(in.move, '\0', sizeof in.move));
    if (rc == TB_OK && rec->type == TB_JOURNAL_BUG_INPUT_TEXT) {
        char words[TB_JOURNAL_BUG_TEXT_MAX];
        TB_FUZZ_CHECK(text && tb_journal_bug_input_format(&in, words, sizeof words) > 0);
        TB_FUZZ_CHECK(strcmp(words, text) == 0);
        return;
    }
    check_decoded(rc, &err,
                  rc ? 0 : tb_journal_bug_input_encode(&in, scratch, sizeof scratch, NULL), rec);
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
    check_bug_input(rec, rc == TB_OK ? d.text : NULL);
}

/* An intact record as the iterator handed it out: inside the buffer, and its bytes exactly
 * what the encoder (format 2) or the format 1 layout with its CRC would write. */
static void check_record(const uint8_t *buf, size_t size, const struct tb_journal_record *rec)
{
    size_t hsize = rec->format == 1 ? TB_JOURNAL_V1_HEADER_SIZE : TB_JOURNAL_HEADER_SIZE;
    TB_FUZZ_CHECK(rec->format == 1 || rec->format == 2);
    TB_FUZZ_CHECK(rec->len <= TB_JOURNAL_MAX_PAYLOAD && rec->offset + hsize + rec->len <= size);
    TB_FUZZ_CHECK(rec->payload == buf + rec->offset + hsize);
    if (rec->format == 2) {
        int n = tb_journal_encode(scratch, sizeof scratch, rec->type, rec->seq, rec->time_ms,
                                  rec->payload, rec->len);
        TB_FUZZ_CHECK(n == (int)(hsize + rec->len));
        TB_FUZZ_CHECK(memcmp(scratch, buf + rec->offset, (size_t)n) == 0);
        return;
    }
    const uint8_t *h = buf + rec->offset;
    uint32_t crc = tb_journal_crc32(tb_journal_crc32(0, h, 28), rec->payload, rec->len);
    TB_FUZZ_CHECK(memcmp(h, "TBJ1", 4) == 0 && h[6] == 0 && h[7] == 0);
    TB_FUZZ_CHECK((uint32_t)(h[28] | h[29] << 8 | h[30] << 16 | (uint32_t)h[31] << 24) == crc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1); /* exactly the input: a read past it is caught */
    if (!buf)
        abort();
    memcpy(buf, data, size);

    struct tb_journal_iter it;
    tb_journal_iter_init(&it, buf, size);
    size_t errors = 0, end = 0;
    uint64_t seq = 0, lost = 0; /* last sequence number handed out or reported lost */
    bool newer = false;
    for (size_t calls = 0;; calls++) {
        TB_FUZZ_CHECK(calls <= 2 * size + 2);
        struct tb_journal_record rec;
        struct tb_error err;
        memset(&err, 0, sizeof err);
        int rc = tb_journal_iter_next(&it, &rec, &err);
        TB_FUZZ_CHECK(it.pos <= size && it.valid_end <= size);
        if (rc == 0)
            break;
        if (rc == TB_ERR_SUPP) { /* a newer format: said, and the iterator stops */
            TB_FUZZ_CHECK_ERROR(rc, err);
            TB_FUZZ_CHECK(!newer && it.unsupported);
            newer = true;
            continue;
        }
        if (rc < 0) {
            /* Damage: the bytes right after the last record, the records right after its
             * sequence number, and the next call hands out the record that follows. */
            TB_FUZZ_CHECK(rc == TB_ERR_CRC);
            TB_FUZZ_CHECK_ERROR(rc, err);
            const struct tb_journal_loss *l = &it.loss;
            TB_FUZZ_CHECK(l->offset == end && l->offset + l->bytes == it.pos);
            TB_FUZZ_CHECK(l->first_seq == seq + 1 && l->last_seq >= seq);
            TB_FUZZ_CHECK(l->bytes || l->last_seq > seq);
            TB_FUZZ_CHECK(l->ply == it.ply);
            lost += l->last_seq - seq;
            seq = l->last_seq;
            end = it.pos;
            errors++;
            continue;
        }
        TB_FUZZ_CHECK(rc == 1 && !newer);
        TB_FUZZ_CHECK(rec.offset == end);
        TB_FUZZ_CHECK(seq == 0 || rec.seq == seq + 1); /* the sequence continues */
        check_record(buf, size, &rec);
        end = it.pos;
        seq = rec.seq;
        check_payload(&rec);
    }
    TB_FUZZ_CHECK(it.pos == size && errors == it.corrupt && it.valid_end == end);
    TB_FUZZ_CHECK(lost == it.lost);
    TB_FUZZ_CHECK(it.torn == (!newer && end < size)); /* bytes after the last record: torn */

    /* The bytes as one payload of every type. */
    if (size <= TB_JOURNAL_MAX_PAYLOAD) {
        for (uint16_t type = TB_JOURNAL_GAME_START; type <= TB_JOURNAL_BUG_INPUT_BIN; type++) {
            struct tb_journal_record rec = {
                .type = type, .seq = 7, .payload = buf, .len = (uint32_t)size};
            check_payload(&rec);
        }
    }
    free(buf);
    return 0;
}
