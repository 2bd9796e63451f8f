/* journal_bug.c - doorgeefschaak inputs (pure): the binary payload of TB_JOURNAL_BUG_INPUT_BIN
 * and the words of the older TB_JOURNAL_BUG_INPUT_TEXT decisions, read into one struct.
 *
 * Binary payload: the verb (1 byte), then the verb's fields in the order of verbs[] below: a
 * seat, board, side or piece is one byte, a move its length (1 byte, 1..100) and its bytes.
 * Text: the verb's name and the same fields as words, one space apart ("resign 0 1"). Both are
 * read strictly: anything else is refused, naming the record and where it goes wrong.
 */
#include <stdio.h>
#include <string.h>

#include "tb_journal.h"

enum field { F_SEAT, F_BOARD, F_SIDE, F_PIECE, F_MOVE };

static const struct {
    const char *name;
    uint8_t nfields;
    uint8_t field[2];
} verbs[TB_JOURNAL_BUG_VERBS] = {
    [TB_JOURNAL_BUG_TIME] = {"time", 0, {0}},
    [TB_JOURNAL_BUG_HAND] = {"hand", 1, {F_SEAT}},
    [TB_JOURNAL_BUG_RESIGN] = {"resign", 2, {F_BOARD, F_SIDE}},
    [TB_JOURNAL_BUG_CHOOSE] = {"choose", 2, {F_BOARD, F_PIECE}},
    [TB_JOURNAL_BUG_MOVE] = {"move", 2, {F_BOARD, F_MOVE}},
    [TB_JOURNAL_BUG_ACCEPT] = {"accept", 1, {F_BOARD}},
    [TB_JOURNAL_BUG_REPLACE] = {"replace", 1, {F_BOARD}},
};

/* What a field must be, for the messages. */
static const char *const wanted[] = {
    [F_SEAT] = "a seat (0 to 3)",
    [F_BOARD] = "a board (0 = A, 1 = B)",
    [F_SIDE] = "a side (0 = White, 1 = Black)",
    [F_PIECE] = "a piece (q, r, b, n or p)",
    [F_MOVE] = "a move (1 to 100 printable bytes, no space)",
};

/* A one-byte field's value in the struct. */
static uint8_t byte_get(const struct tb_journal_bug_input *in, enum field f)
{
    return f == F_SEAT    ? in->seat
           : f == F_BOARD ? in->board
           : f == F_SIDE  ? in->side
                          : (uint8_t)in->piece;
}

static void byte_set(struct tb_journal_bug_input *in, enum field f, uint8_t v)
{
    if (f == F_SEAT)
        in->seat = v;
    else if (f == F_BOARD)
        in->board = v;
    else if (f == F_SIDE)
        in->side = v;
    else
        in->piece = (char)v;
}

static bool byte_ok(enum field f, uint8_t v)
{
    switch (f) {
    case F_SEAT:
        return v < 4;
    case F_BOARD:
    case F_SIDE:
        return v < 2;
    default:
        return v && strchr("qrbnp", v);
    }
}

static bool move_ok(const char *s, size_t n)
{
    if (n < 1 || n > TB_JOURNAL_BUG_MOVE_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~')
            return false;
    return true;
}

static void clear(struct tb_journal_bug_input *in, uint8_t verb)
{
    memset(in, 0, sizeof *in);
    in->verb = verb;
    in->board = TB_JOURNAL_BOARD_NONE;
}

/* ---- binary -----------------------------------------------------------------------------------
 */

int tb_journal_bug_input_encode(const struct tb_journal_bug_input *in, uint8_t *out, size_t cap,
                                struct tb_error *err)
{
    if (in->verb >= TB_JOURNAL_BUG_VERBS)
        return tb_error_set(err, TB_ERR_ARG, "doorgeefschaak input: verb %u is none of 0 to %d",
                            in->verb, TB_JOURNAL_BUG_VERBS - 1);
    size_t pos = 0;
    if (cap < 1)
        return TB_ERR_FULL;
    out[pos++] = in->verb;
    for (int i = 0; i < verbs[in->verb].nfields; i++) {
        enum field f = verbs[in->verb].field[i];
        if (f == F_MOVE) {
            size_t n = strnlen(in->move, sizeof in->move);
            if (!move_ok(in->move, n))
                return tb_error_set(err, TB_ERR_ARG, "doorgeefschaak input %s: '%.*s' is not %s",
                                    verbs[in->verb].name, (int)n, in->move, wanted[f]);
            if (cap < pos + 1 + n)
                return TB_ERR_FULL;
            out[pos++] = (uint8_t)n;
            memcpy(out + pos, in->move, n);
            pos += n;
            continue;
        }
        uint8_t v = byte_get(in, f);
        if (!byte_ok(f, v))
            return tb_error_set(err, TB_ERR_ARG, "doorgeefschaak input %s: %u is not %s",
                                verbs[in->verb].name, v, wanted[f]);
        if (cap < pos + 1)
            return TB_ERR_FULL;
        out[pos++] = v;
    }
    return (int)pos;
}

static int binary_decode(struct tb_journal_bug_input *in, const struct tb_journal_record *rec,
                         struct tb_error *err)
{
    unsigned long long seq = (unsigned long long)rec->seq;
    const uint8_t *p = rec->payload;
    if (rec->len < 1 || p[0] >= TB_JOURNAL_BUG_VERBS)
        return tb_error_set(err, TB_ERR_PARSE,
                            "journal record %llu: doorgeefschaak input: %s at byte 0", seq,
                            rec->len < 1 ? "no verb" : "unknown verb");
    clear(in, p[0]);
    size_t pos = 1;
    for (int i = 0; i < verbs[in->verb].nfields; i++) {
        enum field f = verbs[in->verb].field[i];
        size_t n = f == F_MOVE && pos < rec->len ? p[pos] : 0;
        if (pos + (f == F_MOVE ? 1 + n : 1) > rec->len)
            return tb_error_set(err, TB_ERR_PARSE,
                                "journal record %llu: doorgeefschaak input %s ends at byte %zu, "
                                "before %s",
                                seq, verbs[in->verb].name, (size_t)rec->len, wanted[f]);
        if (f == F_MOVE) {
            if (!move_ok((const char *)p + pos + 1, n))
                return tb_error_set(err, TB_ERR_PARSE,
                                    "journal record %llu: doorgeefschaak input move: bytes %zu to "
                                    "%zu are not %s",
                                    seq, pos, pos + n, wanted[f]);
            memcpy(in->move, p + pos + 1, n);
            pos += 1 + n;
        } else {
            if (!byte_ok(f, p[pos]))
                return tb_error_set(err, TB_ERR_PARSE,
                                    "journal record %llu: doorgeefschaak input %s: byte %zu (%u) "
                                    "is not %s",
                                    seq, verbs[in->verb].name, pos, p[pos], wanted[f]);
            byte_set(in, f, p[pos++]);
        }
    }
    if (pos != rec->len)
        return tb_error_set(err, TB_ERR_PARSE,
                            "journal record %llu: doorgeefschaak input %s: %zu bytes after its "
                            "end at byte %zu",
                            seq, verbs[in->verb].name, (size_t)rec->len - pos, pos);
    return TB_OK;
}

/* ---- the older text form ----------------------------------------------------------------------
 */

/* "verb a b": at most three words, one space apart. */
static int text_decode(struct tb_journal_bug_input *in, const char *text, unsigned long long seq,
                       struct tb_error *err)
{
    const char *word[4];
    size_t wlen[4], nw = 0;
    for (const char *s = text; nw < 4;) {
        const char *sp = strchr(s, ' ');
        word[nw] = s;
        wlen[nw++] = sp ? (size_t)(sp - s) : strlen(s);
        if (!sp)
            break;
        s = sp + 1;
    }
    for (size_t i = 0; i < nw; i++)
        if (!wlen[i])
            return tb_error_set(err, TB_ERR_PARSE,
                                "journal record %llu: doorgeefschaak input '%.40s': word %zu is "
                                "empty",
                                seq, text, i + 1);
    int verb = -1;
    for (int v = 0; v < TB_JOURNAL_BUG_VERBS && verb < 0; v++)
        if (strlen(verbs[v].name) == wlen[0] && !memcmp(word[0], verbs[v].name, wlen[0]))
            verb = v;
    if (verb < 0)
        return tb_error_set(err, TB_ERR_PARSE,
                            "journal record %llu: doorgeefschaak input '%.40s': '%.*s' is no "
                            "verb",
                            seq, text, (int)(wlen[0] < 16 ? wlen[0] : 16), word[0]);
    if (nw != 1u + verbs[verb].nfields)
        return tb_error_set(err, TB_ERR_PARSE,
                            "journal record %llu: doorgeefschaak input '%.40s': %s takes %d "
                            "words after it, not %zu",
                            seq, text, verbs[verb].name, verbs[verb].nfields, nw - 1);
    clear(in, (uint8_t)verb);
    for (int i = 0; i < verbs[verb].nfields; i++) {
        enum field f = verbs[verb].field[i];
        const char *w = word[i + 1];
        size_t n = wlen[i + 1];
        bool ok;
        if (f == F_MOVE) {
            if ((ok = move_ok(w, n)))
                memcpy(in->move, w, n);
        } else {
            uint8_t v = (uint8_t)(f == F_PIECE ? w[0] : w[0] - '0');
            ok = n == 1 && (f == F_PIECE || (w[0] >= '0' && w[0] <= '9')) && byte_ok(f, v);
            if (ok)
                byte_set(in, f, v);
        }
        if (!ok)
            return tb_error_set(err, TB_ERR_PARSE,
                                "journal record %llu: doorgeefschaak input '%.40s': word %d "
                                "'%.*s' is not %s",
                                seq, text, i + 2, (int)(n < 20 ? n : 20), w, wanted[f]);
    }
    return TB_OK;
}

int tb_journal_bug_input_decode(struct tb_journal_bug_input *in,
                                const struct tb_journal_record *rec, struct tb_error *err)
{
    clear(in, TB_JOURNAL_BUG_TIME);
    if (rec->type == TB_JOURNAL_BUG_INPUT_BIN)
        return binary_decode(in, rec, err);
    if (rec->type != TB_JOURNAL_BUG_INPUT_TEXT)
        return tb_error_set(err, TB_ERR_PARSE,
                            "journal record %llu (type %u) is no doorgeefschaak input",
                            (unsigned long long)rec->seq, rec->type);
    struct tb_journal_decision dec;
    int rc = tb_journal_decision_decode(&dec, rec, err);
    if (rc != TB_OK)
        return rc;
    return text_decode(in, dec.text, (unsigned long long)rec->seq, err);
}

int tb_journal_bug_input_format(const struct tb_journal_bug_input *in, char *buf, size_t len)
{
    if (in->verb >= TB_JOURNAL_BUG_VERBS || len == 0)
        return TB_ERR_ARG;
    int n = snprintf(buf, len, "%s", verbs[in->verb].name);
    for (int i = 0; i < verbs[in->verb].nfields && n >= 0; i++) {
        enum field f = verbs[in->verb].field[i];
        size_t u = (size_t)n < len ? (size_t)n : len;
        if (f == F_MOVE)
            n += snprintf(buf + u, len - u, " %.*s", TB_JOURNAL_BUG_MOVE_MAX, in->move);
        else if (f == F_PIECE)
            n += snprintf(buf + u, len - u, " %c", in->piece);
        else
            n += snprintf(buf + u, len - u, " %u", byte_get(in, f));
    }
    return n < 0 ? TB_ERR_ARG : (n < (int)len ? n : (int)len - 1);
}
