/* fuzz_ctl.c - fuzz target of the control protocol (host/daemon/ctlproto.c): the line reader and
 * the request parser, and the response formatters on what they read.
 *
 * The reader must deliver the same lines whether the bytes come one at a time or in chunks (the
 * chunk size comes from the first byte), each ending in its newline and no longer than
 * TB_CTL_LINE_MAX, consume every byte, and say "too long" once per over-long line. Every line
 * (and the whole input as one line) goes to the parser: a refused request must leave the
 * caller's request struct as it was and say why; an accepted one must be well-formed (a known
 * request, NUL-terminated texts, numbers in range). Formatting any text must give one line. */
#include "tb_ctl.h"
#include "tb_fuzz.h"

#define MAX_LINES 512

struct lines {
    size_t n, too_long;
    uint32_t hash[MAX_LINES]; /* of each line, to compare two readings */
};

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h ^ (uint32_t)n;
}

static void check_one_line(const char *buf, int n, size_t cap)
{
    if (n < 0) {
        TB_FUZZ_CHECK(n == TB_ERR_FULL);
        return;
    }
    TB_FUZZ_CHECK((size_t)n < cap && (size_t)n == strlen(buf) && n >= 1 && buf[n - 1] == '\n');
    for (int i = 0; i < n - 1; i++)
        TB_FUZZ_CHECK((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7f);
}

static void check_formatters(const char *text)
{
    char out[TB_CTL_LINE_MAX * 2];
    check_one_line(out, tb_ctl_format_ok(out, sizeof out, text), sizeof out);
    check_one_line(out, tb_ctl_format_data_begin(out, sizeof out, text), sizeof out);
    int n = tb_ctl_format_data(out, sizeof out, text);
    check_one_line(out, n, sizeof out);
    TB_FUZZ_CHECK(n < 0 || strcmp(out, ".\n") != 0); /* a data line never ends the data */
    check_one_line(out, tb_ctl_format_error(out, sizeof out, TB_ERR_PARSE, text), sizeof out);
    char small[8];
    check_one_line(small, tb_ctl_format_ok(small, sizeof small, text), sizeof small);
}

static void check_parse(const char *line, size_t len)
{
    struct tb_ctl_request req, before;
    memset(&req, 0x5a, sizeof req);
    memcpy(&before, &req, sizeof req);
    struct tb_error err;
    memset(&err, 0, sizeof err);
    int rc = tb_ctl_parse(line, len, &req, &err);
    if (rc != TB_OK) {
        TB_FUZZ_CHECK(rc == TB_ERR_FULL || rc == TB_ERR_PARSE || rc == TB_ERR_NOTFOUND);
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(memcmp(&req, &before, sizeof req) == 0);
        char out[TB_CTL_LINE_MAX];
        check_one_line(out, tb_ctl_format_error(out, sizeof out, rc, err.msg), sizeof out);
        return;
    }
    TB_FUZZ_CHECK(tb_ctl_verb_name(req.verb)[0] != '\0');
    TB_FUZZ_CHECK(memchr(req.pin, '\0', sizeof req.pin) && memchr(req.lang, '\0', sizeof req.lang));
    TB_FUZZ_CHECK(memchr(req.text, '\0', sizeof req.text));
    TB_FUZZ_CHECK(!req.has_pin || req.needs_pin);
    /* what was parsed is its row's: the PIN as the row says, a table mode that takes it */
    const struct tb_ctl_verb_info *row = tb_ctl_verb_info(req.verb);
    TB_FUZZ_CHECK(row && row->verb == req.verb);
    TB_FUZZ_CHECK(req.needs_pin == !!(row->flags & TB_CTL_PIN));
    unsigned modes = tb_ctl_request_modes(&req);
    TB_FUZZ_CHECK(modes && !(modes & ~row->flags & (TB_CTL_TWIN | TB_CTL_BUG)));
    if (req.verb == TB_CTL_CLOCK_SET && req.clock_ok) /* read once: at most 100 hours each */
        TB_FUZZ_CHECK(req.clock_ms[0] <= 360000000u && req.clock_ms[1] <= 360000000u);
    if (req.verb == TB_CTL_RESOLVE)
        TB_FUZZ_CHECK(req.number >= 1 && req.number <= 999999);
    if (req.verb == TB_CTL_TAKEBACK)
        TB_FUZZ_CHECK(req.number >= 1 && req.number <= 999);
    if (req.verb == TB_CTL_MOVE)
        TB_FUZZ_CHECK(req.board == 0 || req.board == 1);
    if (req.verb == TB_CTL_PROMOTE)
        TB_FUZZ_CHECK(req.piece && strchr("qrbn", req.piece));
    struct tb_error aerr;
    int arc = tb_ctl_authorise(&req, "371946", &aerr);
    TB_FUZZ_CHECK(arc == TB_OK || arc == TB_ERR_PERM);
    if (arc == TB_OK && req.needs_pin)
        TB_FUZZ_CHECK(req.has_pin && strcmp(req.pin, "371946") == 0);
    TB_FUZZ_CHECK(tb_ctl_authorise(&req, "", &aerr) == (req.needs_pin ? TB_ERR_PERM : TB_OK));
    check_formatters(req.text);
}

/* Reads all lines of data in chunks of step bytes, parsing each. */
static void read_lines(const char *data, size_t size, size_t step, struct lines *out)
{
    static struct tb_ctl_reader r;
    tb_ctl_reader_init(&r);
    memset(out, 0, sizeof *out);
    for (size_t at = 0; at < size;) {
        size_t chunk = size - at < step ? size - at : step;
        size_t used = 0;
        const char *line = NULL;
        size_t line_len = 0;
        int rc = tb_ctl_reader_take(&r, data + at, chunk, &used, &line, &line_len);
        TB_FUZZ_CHECK(used <= chunk);
        TB_FUZZ_CHECK(rc == 0 || rc == 1 || rc == TB_ERR_FULL);
        TB_FUZZ_CHECK(rc != 0 || used == chunk);
        if (rc == 1) {
            TB_FUZZ_CHECK(line_len >= 1 && line_len <= TB_CTL_LINE_MAX);
            TB_FUZZ_CHECK(line[line_len - 1] == '\n' && !memchr(line, '\n', line_len - 1));
            if (out->n < MAX_LINES)
                out->hash[out->n] = hash(line, line_len);
            out->n++;
            check_parse(line, line_len);
        } else if (rc == TB_ERR_FULL) {
            out->too_long++;
        }
        at += used;
        TB_FUZZ_CHECK(used > 0 || chunk == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct lines a, b;
    const char *text = (const char *)data;
    read_lines(text, size, 1, &a);
    read_lines(text, size, size ? (size_t)(data[0] % 97) + 2 : 1, &b);
    TB_FUZZ_CHECK(a.n == b.n && a.too_long == b.too_long);
    size_t n = a.n < MAX_LINES ? a.n : MAX_LINES;
    TB_FUZZ_CHECK(memcmp(a.hash, b.hash, n * sizeof a.hash[0]) == 0);

    /* The whole input as one request, as a caller with its own framing would pass it. */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    check_parse(copy, size);
    free(copy);
    char *s = tb_fuzz_cstr(data, size);
    check_formatters(s);
    free(s);
    return 0;
}
