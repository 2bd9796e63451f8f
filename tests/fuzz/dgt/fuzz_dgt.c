/* fuzz_dgt.c - fuzz target of the DGT protocol layer (host/dgt) over arbitrary board bytes.
 *
 * The decoder must never read or write out of bounds, give the same messages whether fed byte
 * by byte or in chunks, and every message it delivers (other than skipped ones) must re-encode
 * to exactly the bytes it was read from. BWTIME payloads: a reading decoded as times has
 * possible values and re-encodes to its payload, an ACK re-encodes to the same ACK, and the
 * clock filter never keeps an impossible time. The tracker, fed the dumps and field updates,
 * keeps at most one piece per square and its events describe its placement: a lift only from an
 * occupied square, a placement only on an empty one. The same bytes also drive the command
 * decoder and the pacer, which must never hand out the boot-loader command. */
#include "tb_dgt.h"
#include "tb_fuzz.h"

#define MAXMSG 128

struct run {
    const uint8_t *in; /* the input, for the byte-exact re-encoding check */
    size_t at;         /* index of the byte being fed */
    struct tb_dgt_msg *msg;
    size_t n;
    tb_dgt_tracker *tracker;
    uint64_t ms;
    uint8_t shadow[64]; /* the placement as the events so far describe it (occupancy too) */
    bool occupied[64];
    struct tb_dgt_clock_filter filter;
    bool dumped; /* the tracker has had its first dump */
};

static void same_msg(const struct tb_dgt_msg *a, const struct tb_dgt_msg *b)
{
    TB_FUZZ_CHECK(a->id == b->id && a->len == b->len && a->skipped == b->skipped);
    TB_FUZZ_CHECK(a->n == b->n && memcmp(a->data, b->data, a->n) == 0);
}

static void check_bwtime(struct run *r, const uint8_t p[7])
{
    struct tb_dgt_bwtime b, again;
    uint8_t q[7];
    enum tb_dgt_bwtime_kind k = tb_dgt_bwtime_decode(p, &b);
    if (k == TB_DGT_BW_TIMES) {
        TB_FUZZ_CHECK(b.left.seconds <= 35999 && b.right.seconds <= 35999);
        TB_FUZZ_CHECK(tb_dgt_bwtime_encode_times(q, &b.left, &b.right, b.status) == TB_OK);
        TB_FUZZ_CHECK(memcmp(p, q, 7) == 0);
    } else if (k == TB_DGT_BW_ACK) {
        TB_FUZZ_CHECK(tb_dgt_bwtime_encode_ack(q, &b.ack) == TB_OK);
        TB_FUZZ_CHECK(tb_dgt_bwtime_decode(q, &again) == TB_DGT_BW_ACK);
        TB_FUZZ_CHECK(memcmp(again.ack.b, b.ack.b, 4) == 0);
    }
    enum tb_dgt_clock_verdict v = tb_dgt_clock_filter_push(&r->filter, p, r->ms);
    TB_FUZZ_CHECK(v != TB_DGT_CLOCK_ACCEPTED || k == TB_DGT_BW_TIMES);
    if (r->filter.have) {
        TB_FUZZ_CHECK(r->filter.state.kind == TB_DGT_BW_TIMES);
        TB_FUZZ_CHECK(r->filter.state.left.seconds <= 35999);
        TB_FUZZ_CHECK(r->filter.state.right.seconds <= 35999);
    }
}

/* The shadow taken from the tracker: after an orientation event or a first dump, which set the
 * placement without events. */
static void resync(struct run *r)
{
    tb_dgt_tracker_placement(r->tracker, r->shadow);
    uint64_t occ = tb_dgt_tracker_occupied(r->tracker);
    for (int s = 0; s < 64; s++)
        r->occupied[s] = (occ >> s) & 1;
}

/* Applies the tracker's events to the shadow and checks each against it. */
static void drain(struct run *r)
{
    struct tb_dgt_event e;
    while (tb_dgt_tracker_next(r->tracker, &e)) {
        if (e.kind == TB_DGT_EV_ORIENT) {
            resync(r);
            /* the last event of its call: the placement is the state to go on from */
            continue;
        }
        TB_FUZZ_CHECK(e.square < 64);
        if (e.kind == TB_DGT_EV_LIFT) {
            TB_FUZZ_CHECK(r->occupied[e.square] && r->shadow[e.square] == e.piece);
            r->occupied[e.square] = false;
            r->shadow[e.square] = 0;
        } else {
            TB_FUZZ_CHECK(e.kind == TB_DGT_EV_PLACE && !r->occupied[e.square]);
            r->occupied[e.square] = true;
            r->shadow[e.square] = e.piece;
        }
    }
}

static void check_tracker(struct run *r)
{
    uint8_t pl[64];
    tb_dgt_tracker_placement(r->tracker, pl);
    uint64_t occ = tb_dgt_tracker_occupied(r->tracker);
    if (tb_dgt_tracker_overflows(r->tracker))
        return; /* events were lost: the link re-reads with a dump, nothing to compare */
    for (int s = 0; s < 64; s++) {
        TB_FUZZ_CHECK(pl[s] == r->shadow[s]);
        TB_FUZZ_CHECK(((occ >> s) & 1) == r->occupied[s]);
        TB_FUZZ_CHECK(pl[s] == 0 || ((occ >> s) & 1));
    }
}

static void on_msg(void *user, const struct tb_dgt_msg *m)
{
    struct run *r = user;
    if (r->n < MAXMSG)
        r->msg[r->n] = *m;
    r->n++;
    TB_FUZZ_CHECK(m->len >= 3 && (size_t)m->len <= r->at + 1);
    if (!m->skipped) {
        uint8_t buf[TB_DGT_MSG_MAX];
        int len = tb_dgt_msg_encode(buf, sizeof buf, m);
        TB_FUZZ_CHECK(len == m->len);
        TB_FUZZ_CHECK(memcmp(buf, r->in + r->at + 1 - (size_t)len, (size_t)len) == 0);
    }
    r->ms += 37;
    tb_dgt_tracker_tick(r->tracker, r->ms);
    drain(r);
    if (m->id == TB_DGT_MSG_BOARD_DUMP) {
        TB_FUZZ_CHECK(tb_dgt_tracker_dump(r->tracker, m->data, r->ms) >= 0);
        if (!r->dumped)
            resync(r);
        r->dumped = true;
    } else if (m->id == TB_DGT_MSG_FIELD_UPDATE) {
        TB_FUZZ_CHECK(m->field < 64);
        int rc = tb_dgt_tracker_update(r->tracker, m->field, m->code, r->ms);
        TB_FUZZ_CHECK(rc >= 0 || rc == TB_ERR_STATE);
    } else if (m->id == TB_DGT_MSG_BWTIME) {
        check_bwtime(r, m->data);
    }
    drain(r);
    check_tracker(r);
}

static void on_msg_plain(void *user, const struct tb_dgt_msg *m)
{
    struct run *r = user;
    if (r->n < MAXMSG)
        r->msg[r->n] = *m;
    r->n++;
}

static void commands(const uint8_t *data, size_t size)
{
    struct tb_dgt_cmd_decoder d;
    tb_dgt_cmd_decoder_init(&d);
    tb_dgt_pacer *p = tb_dgt_pacer_new(NULL);
    TB_FUZZ_CHECK(p != NULL);
    uint64_t now = 0;
    uint8_t out[TB_DGT_CLOCK_FRAME_MAX];
    for (size_t i = 0; i < size; i++) {
        struct tb_dgt_command c;
        if (tb_dgt_cmd_decoder_push(&d, data[i], &c)) {
            TB_FUZZ_CHECK(c.cmd != TB_DGT_CMD_STARTBOOTLOADER && c.n <= sizeof c.content);
            uint8_t f[TB_DGT_CLOCK_FRAME_MAX];
            int n = c.cmd == TB_DGT_CMD_CLOCK_MESSAGE ? -1 : tb_dgt_cmd_encode(f, sizeof f, c.cmd);
            if (n > 0)
                tb_dgt_pacer_push(p, f, (size_t)n);
        }
        /* the raw bytes as a frame: refused unless a command */
        size_t len = size - i < 18 ? size - i : 18;
        if (tb_dgt_pacer_push(p, data + i, len) == TB_OK)
            TB_FUZZ_CHECK(data[i] != TB_DGT_CMD_STARTBOOTLOADER);
        now += data[i] * 13u;
        int n = tb_dgt_pacer_next(p, now, out, sizeof out);
        TB_FUZZ_CHECK(n >= 0 && n <= (int)sizeof out);
        TB_FUZZ_CHECK(n == 0 || out[0] != TB_DGT_CMD_STARTBOOTLOADER);
        if (i + 7 <= size) {
            struct tb_dgt_bwtime b;
            if (tb_dgt_bwtime_decode(data + i, &b) == TB_DGT_BW_ACK)
                TB_FUZZ_CHECK(tb_dgt_pacer_ack(p, &b.ack, now) >= 0);
        }
    }
    tb_dgt_pacer_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tb_dgt_msg a[MAXMSG], b[MAXMSG];
    struct run ra = {.in = data, .msg = a};
    ra.tracker = tb_dgt_tracker_new(NULL);
    tb_dgt_decoder *da = tb_dgt_decoder_new();
    TB_FUZZ_CHECK(ra.tracker && da);
    tb_dgt_clock_filter_init(&ra.filter);
    /* Half the inputs on a board whose orientation the link knows (no start position needed). */
    if (size > 0 && (data[size - 1] & 3) != 0)
        tb_dgt_tracker_set_orientation(
            ra.tracker, (data[size - 1] & 3) == 1 ? TB_DGT_ORIENT_NORMAL : TB_DGT_ORIENT_ROTATED);
    for (ra.at = 0; ra.at < size; ra.at++)
        tb_dgt_decoder_feed(da, data + ra.at, 1, on_msg, &ra);
    tb_dgt_tracker_tick(ra.tracker, UINT64_MAX - 1);
    drain(&ra);
    check_tracker(&ra);

    /* In chunks whose size comes from the first byte: the same messages. */
    struct run rb = {.in = data, .msg = b};
    tb_dgt_decoder *db = tb_dgt_decoder_new();
    TB_FUZZ_CHECK(db != NULL);
    size_t step = size ? (size_t)(data[0] % 23) + 1 : 1;
    for (size_t i = 0; i < size; i += step)
        tb_dgt_decoder_feed(db, data + i, size - i < step ? size - i : step, on_msg_plain, &rb);
    TB_FUZZ_CHECK(ra.n == rb.n);
    for (size_t i = 0; i < ra.n && i < MAXMSG; i++)
        same_msg(&a[i], &b[i]);
    struct tb_dgt_decoder_stats sa, sb;
    tb_dgt_decoder_stats(da, &sa);
    tb_dgt_decoder_stats(db, &sb);
    TB_FUZZ_CHECK(memcmp(&sa, &sb, sizeof sa) == 0 && sa.messages == ra.n);

    commands(data, size);
    tb_dgt_decoder_free(da);
    tb_dgt_decoder_free(db);
    tb_dgt_tracker_free(ra.tracker);
    return 0;
}
