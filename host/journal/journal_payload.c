/* journal_payload.c - typed payloads: board events, moves and decisions (pure).
 *
 * Integers little-endian; a string is its length (one byte, two for decision text) followed by
 * its bytes, no terminator. A decoder accepts exactly one well-formed payload and nothing else.
 */
#include <string.h>

#include "journal_internal.h"
#include "tb_journal.h"

#define EVENT_SIZE 27
/* The extension of a board event that names a piece, carries a clock reading or a reading with
 * the piece on every square: piece, White's and Black's clock (ms, -1 unknown), which clock
 * runs, has_pieces; then, with has_pieces, the 64 pieces as 32 bytes of two 4-bit codes. */
#define EVENT_EXT_SIZE    (EVENT_SIZE + 11)
#define EVENT_PIECES_SIZE (EVENT_EXT_SIZE + 32)

/* A payload being read: every take checks the bytes are there. */
struct reader {
    const uint8_t *p;
    size_t left;
    bool bad;
};

static const uint8_t *take(struct reader *r, size_t n)
{
    if (r->bad || r->left < n) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}

static uint8_t take8(struct reader *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}

static uint16_t take16(struct reader *r)
{
    const uint8_t *p = take(r, 2);
    return p ? tb_journal__get16(p) : 0;
}

static uint32_t take32(struct reader *r)
{
    const uint8_t *p = take(r, 4);
    return p ? tb_journal__get32(p) : 0;
}

/* A string of n bytes into dst (cap bytes with the terminator); NUL bytes are malformed. */
static void take_str(struct reader *r, size_t n, char *dst, size_t cap)
{
    const uint8_t *p = take(r, n);
    if (!p || n >= cap || memchr(p, 0, n)) {
        r->bad = true;
        dst[0] = '\0';
        return;
    }
    memcpy(dst, p, n);
    dst[n] = '\0';
}

static int finish(struct reader *r, const struct tb_journal_record *rec, const char *what,
                  struct tb_error *err)
{
    if (r->bad || r->left)
        return tb_error_set(err, TB_ERR_PARSE, "journal record %llu: malformed %s payload",
                            (unsigned long long)rec->seq, what);
    return TB_OK;
}

int tb_journal_event_encode(const struct tb_journal_event *ev, uint8_t *out, size_t cap)
{
    if (cap < EVENT_SIZE)
        return TB_ERR_FULL;
    out[0] = ev->board;
    out[1] = ev->kind;
    out[2] = ev->arg;
    tb_journal__put32(out + 3, ev->board_seq);
    tb_journal__put32(out + 7, ev->board_ms);
    tb_journal__put64(out + 11, ev->host_ms);
    tb_journal__put64(out + 19, ev->occupancy);
    bool ext = ev->piece || ev->has_pieces || ev->kind == TB_JOURNAL_KIND_CLOCK;
    if (!ext)
        return EVENT_SIZE;
    size_t size = ev->has_pieces ? EVENT_PIECES_SIZE : EVENT_EXT_SIZE;
    if (cap < size)
        return TB_ERR_FULL;
    out[27] = ev->piece;
    tb_journal__put32(out + 28, (uint32_t)ev->clock_ms[0]);
    tb_journal__put32(out + 32, (uint32_t)ev->clock_ms[1]);
    out[36] = ev->clock_run;
    out[37] = ev->has_pieces;
    for (int i = 0; ev->has_pieces && i < 32; i++)
        out[38 + i] = (uint8_t)((ev->pieces[2 * i] & 0x0F) | (ev->pieces[2 * i + 1] & 0x0F) << 4);
    return (int)size;
}

int tb_journal_event_decode(struct tb_journal_event *ev, const struct tb_journal_record *rec,
                            struct tb_error *err)
{
    if (rec->type != TB_JOURNAL_BOARD_EVENT ||
        (rec->len != EVENT_SIZE && rec->len != EVENT_EXT_SIZE && rec->len != EVENT_PIECES_SIZE) ||
        (rec->len >= EVENT_EXT_SIZE && rec->payload[37] != (rec->len == EVENT_PIECES_SIZE)) ||
        /* the extension is there exactly when the encoder writes it */
        (rec->len >= EVENT_EXT_SIZE) !=
            (rec->payload[1] == TB_JOURNAL_KIND_CLOCK ||
             (rec->len >= EVENT_EXT_SIZE && (rec->payload[27] || rec->payload[37]))))
        return tb_error_set(err, TB_ERR_PARSE, "journal record %llu is not a board event",
                            (unsigned long long)rec->seq);
    const uint8_t *p = rec->payload;
    memset(ev, 0, sizeof *ev);
    ev->clock_ms[0] = ev->clock_ms[1] = -1;
    if (rec->len >= EVENT_EXT_SIZE) {
        ev->piece = p[27];
        ev->clock_ms[0] = (int32_t)tb_journal__get32(p + 28);
        ev->clock_ms[1] = (int32_t)tb_journal__get32(p + 32);
        ev->clock_run = p[36];
        ev->has_pieces = p[37];
        for (int i = 0; ev->has_pieces && i < 32; i++) {
            ev->pieces[2 * i] = p[38 + i] & 0x0F;
            ev->pieces[2 * i + 1] = p[38 + i] >> 4;
        }
    }
    ev->board = p[0];
    ev->kind = p[1];
    ev->arg = p[2];
    ev->board_seq = tb_journal__get32(p + 3);
    ev->board_ms = tb_journal__get32(p + 7);
    ev->host_ms = tb_journal__get64(p + 11);
    ev->occupancy = tb_journal__get64(p + 19);
    return TB_OK;
}

int tb_journal_move_encode(const struct tb_journal_move *mv, uint8_t *out, size_t cap)
{
    size_t san = strnlen(mv->san, sizeof mv->san - 1);
    size_t nhist = mv->nhist < TB_JOURNAL_MOVE_HISTORY ? mv->nhist : TB_JOURNAL_MOVE_HISTORY;
    size_t len = 6 + san + (nhist ? 1 + 2 * nhist : 0);
    if (cap < len)
        return TB_ERR_FULL;
    out[0] = mv->board;
    tb_journal__put16(out + 1, mv->ply);
    tb_journal__put16(out + 3, mv->move);
    out[5] = (uint8_t)san;
    memcpy(out + 6, mv->san, san);
    if (nhist) { /* the moves before it: recovery bridges lost move records with them */
        uint8_t *h = out + 6 + san;
        h[0] = (uint8_t)nhist;
        for (size_t i = 0; i < nhist; i++)
            tb_journal__put16(h + 1 + 2 * i, mv->hist[i]);
    }
    return (int)len;
}

int tb_journal_move_decode(struct tb_journal_move *mv, const struct tb_journal_record *rec,
                           struct tb_error *err)
{
    if (rec->type != TB_JOURNAL_MOVE)
        return tb_error_set(err, TB_ERR_PARSE, "journal record %llu is not a move",
                            (unsigned long long)rec->seq);
    struct reader r = {rec->payload, rec->len, false};
    mv->board = take8(&r);
    mv->ply = take16(&r);
    mv->move = take16(&r);
    take_str(&r, take8(&r), mv->san, sizeof mv->san);
    mv->nhist = 0;
    if (!r.bad && r.left) { /* the history is optional (records without it are read too) */
        mv->nhist = take8(&r);
        if (mv->nhist < 1 || mv->nhist > TB_JOURNAL_MOVE_HISTORY || mv->nhist >= mv->ply)
            r.bad = true;
        for (int i = 0; i < mv->nhist && !r.bad; i++)
            mv->hist[i] = take16(&r);
    }
    return finish(&r, rec, "move", err);
}

/* Writes a string with a length prefix of lenbytes (1 or 2); returns bytes used or 0. */
static size_t put_str(uint8_t *out, size_t cap, const char *s, size_t max, int lenbytes)
{
    size_t n = strnlen(s, max);
    if (cap < (size_t)lenbytes + n)
        return 0;
    if (lenbytes == 1)
        out[0] = (uint8_t)n;
    else
        tb_journal__put16(out, (uint16_t)n);
    memcpy(out + lenbytes, s, n);
    return (size_t)lenbytes + n;
}

int tb_journal_decision_encode(const struct tb_journal_decision *d, uint8_t *out, size_t cap)
{
    if (cap < 7)
        return TB_ERR_FULL;
    tb_journal__put32(out, d->id);
    out[4] = d->board;
    tb_journal__put16(out + 5, d->count);
    size_t pos = 7, n;
    if (!(n = put_str(out + pos, cap - pos, d->who, sizeof d->who - 1, 1)))
        return TB_ERR_FULL;
    pos += n;
    if (!(n = put_str(out + pos, cap - pos, d->fen, sizeof d->fen - 1, 1)))
        return TB_ERR_FULL;
    pos += n;
    if (!(n = put_str(out + pos, cap - pos, d->text, sizeof d->text - 1, 2)))
        return TB_ERR_FULL;
    return (int)(pos + n);
}

int tb_journal_decision_decode(struct tb_journal_decision *d, const struct tb_journal_record *rec,
                               struct tb_error *err)
{
    struct reader r = {rec->payload, rec->len, false};
    memset(d, 0, sizeof *d);
    d->id = take32(&r);
    d->board = take8(&r);
    d->count = take16(&r);
    take_str(&r, take8(&r), d->who, sizeof d->who);
    take_str(&r, take8(&r), d->fen, sizeof d->fen);
    take_str(&r, take16(&r), d->text, sizeof d->text);
    return finish(&r, rec, "decision", err);
}
