/* link_reed.c - a reed board behind a tty: the reedboard protocol (rb_proto, docs/protocol.md),
 * sequence checks, snapshots on connect and after a gap, and reconnecting after a loss.
 *
 * The host asks for INFO and a SNAPSHOT whenever it (re)connects: bytes the board sent before
 * the port was open are lost (and opening a Nano's port resets it), so the board's own boot
 * messages cannot be relied on. Until that reading is in, the board's events are dropped (the
 * reading holds them); after it, a reading the events already imply is dropped (the firmware
 * sends one every second) unless the caller asked for it, and one that differs comes after a
 * RESYNC fault. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "link_internal.h"
#include "tb_str.h"

#define BACKOFF_MIN_MS   250
#define BACKOFF_MAX_MS   5000
#define SNAPSHOT_WAIT_MS 1000 /* ask again if no snapshot came */
#define READ_CHUNK       64   /* at most 13 frames; each yields at most 2 events */
#define QUEUE_RESERVE    32

void tb_link__reed_init(struct tb_link__reed *r, enum tb_link_kind kind, const char *path,
                        bool auto_reopen)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->fd = -1;
    r->auto_reopen = auto_reopen;
    r->backoff_ms = BACKOFF_MIN_MS;
    rb_proto_decoder_init(&r->dec);
}

static void ask_snapshot(struct tb_link__reed *r);

static void push(struct tb_link__reed *r, const struct tb_link_event *ev)
{
    if (tb_link__queue_push(&r->q, ev))
        return;
    /* Dropped (reads stop well before the queue fills, so this is a bug's safety net): the
     * board's snapshot will tell the daemon what it missed. */
    if (r->connected && !r->snapshot_pending)
        ask_snapshot(r);
}

static void send_frame(struct tb_link__reed *r, const uint8_t *buf, size_t n)
{
    if (r->fd < 0)
        return;
    /* Frames are a few bytes; a short write is repaired by the snapshot timer. */
    ssize_t w;
    do
        w = write(r->fd, buf, n);
    while (w < 0 && errno == EINTR);
}

static void ask_snapshot(struct tb_link__reed *r)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    send_frame(r, buf, rb_proto_encode_get_snapshot(buf, sizeof buf));
    r->snapshot_pending = true;
    r->snapshot_asked_ms = r->now_ms;
    r->st.snapshots_requested++;
}

int tb_link__reed_connect(struct tb_link__reed *r, uint64_t now_ms, struct tb_error *err)
{
    r->now_ms = now_ms;
    int fd;
    struct sp_port *port;
    const char *scheme = r->kind == TB_LINK_SERIAL ? "serial" : "pty";
    int rc = tb_link__tty_open(scheme, r->path, 115200, r->kind == TB_LINK_SERIAL, &fd, &port, err);
    if (rc == TB_OK && (rc = tb_link__tty_lock(fd)) != TB_OK) {
        tb_link__tty_close(&fd, &port);
        return tb_error_set(err, rc, "%s:%s: another program has the board open", scheme, r->path);
    }
    if (rc == TB_OK)
        tb_link__reed_adopt(r, fd, port, now_ms);
    return rc;
}

void tb_link__reed_adopt(struct tb_link__reed *r, int fd, struct sp_port *port, uint64_t now_ms)
{
    r->now_ms = now_ms;
    r->fd = fd;
    r->port = port;
    r->connected = true;
    r->unread = true;
    r->have_seq = false;
    rb_proto_decoder_reset(&r->dec);
    r->seen = r->dec.stats;
    uint8_t buf[RB_PROTO_MAX_FRAME];
    send_frame(r, buf, rb_proto_encode_get_info(buf, sizeof buf));
    ask_snapshot(r);
    if (tb_link__say_back(&r->q, &r->lost_reported))
        r->st.reconnects++;
    r->backoff_ms = BACKOFF_MIN_MS;
}

void tb_link__reed_disconnect(struct tb_link__reed *r, const char *why)
{
    tb_link__tty_close(&r->fd, &r->port);
    bool was = r->connected;
    r->connected = false;
    r->snapshot_pending = false;
    rb_proto_decoder_reset(&r->dec);
    tb_link__say_lost(&r->q, &r->lost_reported, was, why);
    r->retry_ms = r->now_ms + r->backoff_ms;
}

/* False for an event the board already reported (seq not after the last one); on a gap, a
 * fault is queued and a snapshot asked for. */
static bool seq_ok(struct tb_link__reed *r, uint16_t seq)
{
    if (r->have_seq) {
        uint16_t gap = rb_proto_seq_gap(r->last_seq, seq);
        if (gap == 0 || gap >= 0x8000)
            return false;
        if (gap > 1) {
            struct tb_link_event f = {.kind = TB_LINK_EV_FAULT,
                                      .fault = TB_LINK_FAULT_SEQ_GAP,
                                      .fault_detail = (uint16_t)(gap - 1),
                                      .has_seq = true,
                                      .seq = seq};
            snprintf(f.text, sizeof f.text, "%u board events lost before #%u; re-reading board",
                     gap - 1u, seq);
            push(r, &f);
            r->st.seq_gaps++;
            if (!r->snapshot_pending)
                ask_snapshot(r);
        }
    }
    r->last_seq = seq;
    r->have_seq = true;
    return true;
}

/* A whole-board reading: the first after a connect always goes out; later ones only when they
 * differ from what the events said (events were lost), announced by a RESYNC fault. */
static bool reading_news(struct tb_link__reed *r, uint64_t occupancy)
{
    bool first = r->unread, asked = r->asked;
    r->unread = r->asked = false;
    if (!first && occupancy == r->occ)
        return asked;
    if (!first && !asked) {
        struct tb_link_event f = {.kind = TB_LINK_EV_FAULT, .fault = TB_LINK_FAULT_RESYNC};
        snprintf(f.text, sizeof f.text, "its reading differs from its events: re-read");
        push(r, &f);
    }
    r->occ = occupancy;
    return true;
}

static void on_msg(void *ctx, const struct rb_proto_msg *m)
{
    struct tb_link__reed *r = ctx;
    struct tb_link_event ev = {.has_seq = true};
    switch (m->type) {
    case RB_PROTO_SQUARE:
        if (!seq_ok(r, m->u.square.seq) || r->unread)
            return;
        if (m->u.square.placed)
            r->occ |= 1ull << (m->u.square.square & 63);
        else
            r->occ &= ~(1ull << (m->u.square.square & 63));
        ev.kind = m->u.square.placed ? TB_LINK_EV_PLACE : TB_LINK_EV_LIFT;
        ev.square = m->u.square.square;
        ev.seq = m->u.square.seq;
        ev.board_ms = m->u.square.ms;
        break;
    case RB_PROTO_BUTTON:
        if (!seq_ok(r, m->u.button.seq) || r->unread)
            return;
        ev.kind = m->u.button.down ? TB_LINK_EV_BUTTON_DOWN : TB_LINK_EV_BUTTON_UP;
        ev.button = m->u.button.button;
        ev.seq = m->u.button.seq;
        ev.board_ms = m->u.button.ms;
        break;
    case RB_PROTO_FAULT:
        if (!seq_ok(r, m->u.fault.seq))
            return;
        ev.kind = TB_LINK_EV_FAULT;
        ev.fault = m->u.fault.code;
        ev.fault_arg = m->u.fault.arg;
        ev.fault_detail = m->u.fault.detail;
        ev.seq = m->u.fault.seq;
        ev.board_ms = m->u.fault.ms;
        snprintf(ev.text, sizeof ev.text, "board fault: %s (arg %u, detail %u)",
                 rb_proto_fault_name(m->u.fault.code), m->u.fault.arg, m->u.fault.detail);
        break;
    case RB_PROTO_SNAPSHOT:
        /* The snapshot reflects every event up to its seq: it resynchronises the count. */
        r->last_seq = m->u.snapshot.seq;
        r->have_seq = true;
        r->snapshot_pending = false;
        if (!reading_news(r, m->u.snapshot.occupancy))
            return;
        ev.kind = TB_LINK_EV_SNAPSHOT;
        ev.seq = m->u.snapshot.seq;
        ev.board_ms = m->u.snapshot.ms;
        ev.occupancy = m->u.snapshot.occupancy;
        ev.button = m->u.snapshot.buttons;
        break;
    case RB_PROTO_INFO: {
        const struct rb_proto_info *i = &m->u.info;
        ev.kind = TB_LINK_EV_INFO;
        ev.has_seq = false;
        /* the identity first, then where: the organiser reads which board is on which tty */
        const char *slash = strrchr(r->path, '/');
        snprintf(ev.text, sizeof ev.text, "reedboard id %lu firmware %u.%u.%u on %.40s",
                 (unsigned long)i->serial, i->fw_major, i->fw_minor, i->fw_patch,
                 slash ? slash + 1 : r->path);
        if (i->proto_version != RB_PROTO_VERSION) {
            ev.kind = TB_LINK_EV_FAULT;
            ev.fault = TB_LINK_FAULT_DECODE;
            snprintf(ev.text, sizeof ev.text, "board speaks protocol %u, this daemon %u",
                     i->proto_version, RB_PROTO_VERSION);
        }
        break;
    }
    default: /* PONG, and requests echoed by a confused peer: nothing for the daemon */
        return;
    }
    push(r, &ev);
}

/* One fault event for whatever the decoder rejected since the last report. */
static void report_decoder(struct tb_link__reed *r)
{
    const struct rb_proto_stats *s = &r->dec.stats, *o = &r->seen;
    uint32_t bad = (s->oversize - o->oversize) + (s->bad_crc - o->bad_crc) +
                   (s->bad_message - o->bad_message) + (s->truncated - o->truncated);
    uint32_t garbage = s->garbage_bytes - o->garbage_bytes;
    r->st.frames += s->frames - o->frames;
    r->st.bad_frames += bad;
    r->st.garbage_bytes += garbage;
    r->seen = *s;
    if (!bad && !garbage)
        return;
    struct tb_link_event f = {.kind = TB_LINK_EV_FAULT,
                              .fault = TB_LINK_FAULT_DECODE,
                              .fault_detail = (uint16_t)(bad > 65535 ? 65535 : bad)};
    snprintf(f.text, sizeof f.text, "%lu bad frames, %lu garbage bytes on the line (last: %s)",
             (unsigned long)bad, (unsigned long)garbage, rb_proto_reject_name(r->dec.last_reject));
    push(r, &f);
}

static void read_input(struct tb_link__reed *r)
{
    while (r->connected && TB_LINK__QUEUE_CAP - r->q.count >= QUEUE_RESERVE) {
        uint8_t buf[READ_CHUNK];
        ssize_t n = read(r->fd, buf, sizeof buf);
        if (n > 0) {
            rb_proto_decoder_feed(&r->dec, buf, (size_t)n, on_msg, r);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "%s%.50s: %.30s",
                 r->kind == TB_LINK_SERIAL ? "serial:" : "pty:", r->path,
                 n == 0 ? "the board closed the line" : strerror(errno));
        report_decoder(r);
        tb_link__reed_disconnect(r, why);
        r->backoff_ms = BACKOFF_MIN_MS;
        return;
    }
    report_decoder(r);
}

int tb_link__reed_read(struct tb_link__reed *r, uint64_t now_ms, struct tb_link_event *ev, int max)
{
    r->now_ms = now_ms;
    if (!r->connected && r->auto_reopen && now_ms >= r->retry_ms) {
        if (tb_link__reed_connect(r, now_ms, NULL) != TB_OK) {
            r->backoff_ms = r->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : r->backoff_ms * 2;
            r->retry_ms = now_ms + r->backoff_ms;
        }
    }
    if (r->connected)
        read_input(r);
    if (r->connected && r->snapshot_pending && now_ms >= r->snapshot_asked_ms + SNAPSHOT_WAIT_MS)
        ask_snapshot(r);
    return tb_link__queue_pop(&r->q, ev, max, now_ms);
}

uint64_t tb_link__reed_deadline(const struct tb_link__reed *r)
{
    if (r->q.count)
        return 0;
    if (!r->connected)
        return r->auto_reopen ? r->retry_ms : TB_LINK_NO_DEADLINE;
    if (r->snapshot_pending)
        return r->snapshot_asked_ms + SNAPSHOT_WAIT_MS;
    return TB_LINK_NO_DEADLINE;
}

void tb_link__reed_stats(const struct tb_link__reed *r, struct tb_link_stats *st)
{
    *st = r->st;
    st->connected = r->connected;
    st->unread = r->connected && r->unread;
    st->device[0] = '\0';
    if (r->connected)
        tb_str_copy(st->device, sizeof st->device, r->path);
}

int tb_link__reed_request_snapshot(struct tb_link__reed *r, struct tb_error *err)
{
    if (!r->connected)
        return tb_error_set(err, TB_ERR_STATE, "%s is not connected", r->path);
    r->asked = true;
    ask_snapshot(r);
    return TB_OK;
}
