/* link_dgt.c - dgt: a DGT e-board (docs/dgt.md) with its clock, on a serial, USB or rfcomm
 * device or an emulator's pty, 9600 8N1. A shell around host/dgt: the decoder (bit-7 resync),
 * the pacer (board commands spaced, clock commands behind their ACK), the tracker (the board's
 * out-of-order updates put in order, orientation from the start position either way up) and
 * the BWTIME filter.
 *
 * On every connect the board is reset and dumped before update mode is set, so no field update
 * comes before the state it changes. The first reading goes out as a SNAPSHOT with the piece on
 * every square; after a reconnect (or any doubt: garbage, a silent board) the board is dumped
 * again and the tracker turns the difference into lifts and placements with their pieces, so a
 * move made while the board was away reaches the recogniser whole. Clock readings the filter
 * accepts go out as CLOCK events, by colour. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <libserialport.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link_internal.h"
#include "tb_chess.h"
#include "tb_dgt.h"

#define BACKOFF_MIN_MS 250
#define BACKOFF_MAX_MS 5000
#define DUMP_WAIT_MS   1500 /* ask again for a dump that did not come */
#define PROBE_MS       1000 /* a quiet board is asked for its serial number (liveness) */
#define SILENT_MS      5000 /* a board that answers nothing this long is taken as lost */
#define READ_CHUNK     256
#define QUEUE_RESERVE  96 /* a dump can give 64 events */

struct dgt {
    char path[256]; /* "auto": looked for at each connect */
    char dev[256];  /* the device opened */
    int fd;
    struct sp_port *port;
    bool connected, lost_reported, ever, unread, dump_pending, asked, have_dump;
    uint64_t now, retry_ms, last_rx, last_probe, dump_asked;
    unsigned backoff_ms;
    tb_dgt_decoder *dec;
    tb_dgt_pacer *pacer;
    tb_dgt_tracker *tr;
    struct tb_dgt_clock_filter cf;
    struct tb_dgt_decoder_stats seen;
    enum tb_dgt_clock_kind clock;
    bool no_clock_said;
    char shown[16];       /* the text on the clock's display now, "" for the times */
    uint64_t brief_until; /* a brief text gives way to the times then (UINT64_MAX: stays) */
    struct tb_link__queue q;
    struct tb_link_stats st;
};

static void push(struct dgt *g, const struct tb_link_event *ev)
{
    (void)tb_link__queue_push(&g->q, ev); /* reads stop while the queue is near full */
}

static void info(struct dgt *g, uint8_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void info(struct dgt *g, uint8_t kind, const char *fmt, ...)
{
    struct tb_link_event ev = {.kind = kind};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev.text, sizeof ev.text, fmt, ap);
    va_end(ap);
    if (kind == TB_LINK_EV_FAULT)
        ev.fault = TB_LINK_FAULT_DECODE;
    push(g, &ev);
}

static void queue_cmd(struct dgt *g, int cmd)
{
    uint8_t b[1];
    if (tb_dgt_cmd_encode(b, sizeof b, cmd) == 1)
        tb_dgt_pacer_push(g->pacer, b, 1);
}

static void queue_clock(struct dgt *g, int clock_cmd)
{
    uint8_t b[TB_DGT_CLOCK_FRAME_MAX];
    int n = tb_dgt_clk_simple(b, sizeof b, clock_cmd);
    if (n > 0)
        tb_dgt_pacer_push(g->pacer, b, (size_t)n);
}

static void ask_dump(struct dgt *g)
{
    queue_cmd(g, TB_DGT_CMD_SEND_BRD);
    g->dump_pending = true;
    g->dump_asked = g->now;
    g->st.snapshots_requested++;
}

/* ---- opening the device -------------------------------------------------------------------- */

/* A pseudo-terminal (an emulator) is opened directly, a real device through libserialport with
 * DTR raised. */
static int open_tty(struct dgt *g, struct tb_error *err)
{
    char real[PATH_MAX];
    bool pty = realpath(g->dev, real) && strncmp(real, "/dev/pts/", 9) == 0;
    int rc = tb_link__tty_open("dgt", g->dev, 9600, !pty, &g->fd, &g->port, err);
    if (rc == TB_OK && g->port)
        sp_set_dtr(g->port, SP_DTR_ON);
    return rc;
}

/* dgt:auto: /dev/twinboard/dgt (the package's udev rule), a /dev/serial/by-id name that says
 * DGT, else the tty of the USB identity DGT boards are known by (04d8:000a). Other serial devices
 * are never probed: the VI player's reed board may be one of them. */
static bool find_board(char *out, size_t len)
{
    static const char *const words[] = {"DGT", "DIGITAL_GAME", NULL};
    char dev[64];
    return tb_link__find_named("dgt", words, out, len) ||
           tb_link__usb_find_tty("/sys", 0x04d8, 0x000a, "", out, len, dev, sizeof dev) == TB_OK;
}

static void disconnect(struct dgt *g, const char *why)
{
    tb_link__tty_close(&g->fd, &g->port);
    bool was = g->connected;
    g->connected = false;
    g->dump_pending = false;
    tb_dgt_pacer_clear(g->pacer);
    tb_dgt_decoder_reset(g->dec);
    tb_link__say_lost(&g->q, &g->lost_reported, was, why);
    g->retry_ms = g->now + g->backoff_ms;
}

static int connect_board(struct dgt *g, struct tb_error *err)
{
    if (strcmp(g->path, "auto") == 0) {
        if (!find_board(g->dev, sizeof g->dev))
            return tb_error_set(err, TB_ERR_NOTFOUND, "dgt:auto: no DGT board found");
    } else {
        snprintf(g->dev, sizeof g->dev, "%s", g->path);
    }
    int rc = open_tty(g, err);
    if (rc != TB_OK)
        return rc;
    g->connected = true;
    g->last_rx = g->last_probe = g->now;
    tb_dgt_decoder_reset(g->dec);
    tb_dgt_decoder_stats(g->dec, &g->seen);
    tb_dgt_pacer_clear(g->pacer);
    /* the dump before update mode: no field update comes before the state it changes */
    queue_cmd(g, TB_DGT_CMD_RESET);
    ask_dump(g);
    queue_cmd(g, TB_DGT_CMD_SEND_UPDATE_NICE);
    queue_cmd(g, TB_DGT_CMD_SEND_VERSION);
    queue_cmd(g, TB_DGT_CMD_RETURN_SERIALNR);
    queue_clock(g, TB_DGT_CLK_VERSION);
    g->clock = TB_DGT_CLOCK_NONE;
    g->shown[0] = '\0';
    g->brief_until = UINT64_MAX;
    if (tb_link__say_back(&g->q, &g->lost_reported))
        g->st.reconnects++;
    g->backoff_ms = BACKOFF_MIN_MS;
    return TB_OK;
}

/* ---- what the board says ------------------------------------------------------------------- */

/* No start position seen since the link opened (a restart mid-game): the side the white pieces
 * stand on tells which way up the board is, when it says so clearly. */
static void orient_by_pieces(struct dgt *g, const uint8_t codes[64])
{
    int score = 0, pieces = 0;
    for (int f = 0; f < 64; f++) {
        int p = tb_dgt_piece_to_chess(codes[f]);
        if (!p)
            continue;
        int rank = 7 - f / 8; /* the normal reading: field 0 = a8 */
        int w = TB_CHESS_PIECE_COLOR(p) == TB_CHESS_WHITE ? 1 : -1;
        score += w * (rank < 4 ? 1 : -1);
        pieces++;
    }
    if (pieces < 4 || (score < pieces / 2 && -score < pieces / 2))
        return;
    enum tb_dgt_orient o = score > 0 ? TB_DGT_ORIENT_NORMAL : TB_DGT_ORIENT_ROTATED;
    tb_dgt_tracker_set_orientation(g->tr, o);
    info(g, TB_LINK_EV_INFO,
         "DGT board: no start position on it; taken %s from where the pieces stand",
         o == TB_DGT_ORIENT_ROTATED ? "rotated (White at the connector's right)"
                                    : "the right way round");
}

static void snapshot(struct dgt *g)
{
    struct tb_link_event ev = {.kind = TB_LINK_EV_SNAPSHOT, .has_pieces = true};
    tb_dgt_tracker_placement(g->tr, ev.pieces);
    ev.occupancy = tb_dgt_tracker_occupied(g->tr);
    ev.board_ms = (uint32_t)g->now;
    push(g, &ev);
    g->unread = false;
}

/* The tracker's events as the link's. A new orientation (a start position the other way up,
 * for the next game) is a new reading. */
static void drain_tracker(struct dgt *g)
{
    struct tb_dgt_event e;
    bool reread = false;
    while (tb_dgt_tracker_next(g->tr, &e)) {
        if (e.kind == TB_DGT_EV_ORIENT) {
            reread = true;
            info(g, TB_LINK_EV_INFO, "DGT board: start position seen, %s",
                 e.orient == TB_DGT_ORIENT_ROTATED ? "the board rotated (White at the connector's "
                                                     "right)"
                                                   : "the right way round");
            continue;
        }
        if (g->unread || reread)
            continue; /* the reading to come holds it */
        struct tb_link_event ev = {.kind = e.kind == TB_DGT_EV_LIFT ? TB_LINK_EV_LIFT
                                                                    : TB_LINK_EV_PLACE,
                                   .square = e.square,
                                   .piece = e.kind == TB_DGT_EV_PLACE ? e.piece : 0,
                                   .board_ms = (uint32_t)e.ms};
        push(g, &ev);
    }
    if ((reread || g->unread) && g->have_dump &&
        tb_dgt_tracker_orientation(g->tr) != TB_DGT_ORIENT_UNKNOWN)
        snapshot(g);
}

static void on_dump(struct dgt *g, const uint8_t codes[64])
{
    g->dump_pending = false;
    g->have_dump = true;
    if (g->asked && !g->unread) {
        g->asked = false;
        tb_dgt_tracker_dump(g->tr, codes, g->now);
        drain_tracker(g);
        snapshot(g);
        return;
    }
    tb_dgt_tracker_dump(g->tr, codes, g->now);
    if (tb_dgt_tracker_orientation(g->tr) == TB_DGT_ORIENT_UNKNOWN)
        orient_by_pieces(g, codes);
    if (tb_dgt_tracker_orientation(g->tr) == TB_DGT_ORIENT_UNKNOWN && g->unread) {
        info(g, TB_LINK_EV_INFO,
             "DGT board: no start position either way up; set one up to show which way it "
             "stands");
    }
}

/* Whose clock runs and the times, by colour: the lever is the truth, the turn bits are not. */
static void on_clock(struct dgt *g, const struct tb_dgt_bwtime *b)
{
    enum tb_dgt_orient o = tb_dgt_tracker_orientation(g->tr);
    if (o == TB_DGT_ORIENT_UNKNOWN)
        return; /* which side is White is not known yet */
    bool rotated = o == TB_DGT_ORIENT_ROTATED;
    struct tb_dgt_clock_side w, k;
    tb_dgt_clock_by_color(b, rotated, &w, &k);
    struct tb_link_event ev = {.kind = TB_LINK_EV_CLOCK, .board_ms = (uint32_t)g->now};
    ev.clock_ms[0] = (int32_t)(w.seconds * 1000u);
    ev.clock_ms[1] = (int32_t)(k.seconds * 1000u);
    if (b->status & TB_DGT_ST_RUNNING) {
        bool white_right = rotated; /* the right way round White's clock is the left side */
        bool right_runs = tb_dgt_bwtime_right_runs(b);
        ev.clock_run = right_runs == white_right ? 1 : 2;
    }
    push(g, &ev);
}

static void on_bwtime(struct dgt *g, const uint8_t payload[7])
{
    enum tb_dgt_clock_verdict v = tb_dgt_clock_filter_push(&g->cf, payload, g->now);
    struct tb_dgt_bwtime b;
    tb_dgt_bwtime_decode(payload, &b);
    if (v == TB_DGT_CLOCK_ACK) {
        tb_dgt_pacer_ack(g->pacer, &b.ack, g->now);
        if (b.ack.b[1] == TB_DGT_CLK_VERSION && b.ack.b[0] == TB_DGT_ACK_OK) {
            g->clock = b.ack.b[2] >> 4 == 2 ? TB_DGT_CLOCK_3000 : TB_DGT_CLOCK_XL;
            info(g, TB_LINK_EV_INFO, "DGT clock: %s, version %u.%u",
                 g->clock == TB_DGT_CLOCK_3000 ? "DGT 3000" : "DGT XL", b.ack.b[2] >> 4,
                 b.ack.b[2] & 0x0F);
        }
        return;
    }
    if (v == TB_DGT_CLOCK_NO_CLOCK) {
        g->clock = TB_DGT_CLOCK_NONE;
        if (!g->no_clock_said)
            info(g, TB_LINK_EV_INFO, "DGT board: no clock connected");
        g->no_clock_said = true;
        return;
    }
    if (v == TB_DGT_CLOCK_ACCEPTED)
        on_clock(g, &g->cf.state);
}

static void on_msg(void *user, const struct tb_dgt_msg *m)
{
    struct dgt *g = user;
    switch (m->id) {
    case TB_DGT_MSG_BOARD_DUMP:
        on_dump(g, m->data);
        break;
    case TB_DGT_MSG_FIELD_UPDATE:
        if (tb_dgt_tracker_update(g->tr, m->field, m->code, g->now) == TB_ERR_STATE &&
            !g->dump_pending)
            ask_dump(g); /* before the first dump: the dump will hold it */
        break;
    case TB_DGT_MSG_BWTIME:
        on_bwtime(g, m->data);
        break;
    case TB_DGT_MSG_VERSION:
        info(g, TB_LINK_EV_INFO, "DGT board version %u.%02u on %s", m->major, m->minor, g->dev);
        break;
    case TB_DGT_MSG_SERIALNR:
        if (g->ever)
            break; /* the liveness probe's answer */
        g->ever = true;
        info(g, TB_LINK_EV_INFO, "DGT board serial number %.5s", (const char *)m->data);
        break;
    default:
        break;
    }
}

/* One fault for whatever the decoder refused since the last report; after garbage the board
 * is read again (a field update may have been among it). */
static void report_decoder(struct dgt *g)
{
    struct tb_dgt_decoder_stats s;
    tb_dgt_decoder_stats(g->dec, &s);
    uint64_t bad = (s.bad_length - g->seen.bad_length) + (s.cut - g->seen.cut) +
                   (s.bad_content - g->seen.bad_content);
    uint64_t garbage = s.garbage - g->seen.garbage;
    g->st.frames += (uint32_t)(s.messages - g->seen.messages);
    g->st.bad_frames += (uint32_t)bad;
    g->st.garbage_bytes += (uint32_t)garbage;
    g->seen = s;
    if (!bad && !garbage)
        return;
    struct tb_link_event f = {.kind = TB_LINK_EV_FAULT,
                              .fault = TB_LINK_FAULT_DECODE,
                              .fault_detail = (uint16_t)(bad > 65535 ? 65535 : bad)};
    snprintf(f.text, sizeof f.text, "%lu bad messages, %lu garbage bytes (last: %s of %u bytes)",
             (unsigned long)bad, (unsigned long)garbage, tb_dgt_msg_name(s.last_refused_id),
             s.last_refused_len);
    push(g, &f);
    if (!g->dump_pending)
        ask_dump(g);
}

static void read_input(struct dgt *g)
{
    while (g->connected && TB_LINK__QUEUE_CAP - g->q.count >= QUEUE_RESERVE) {
        uint8_t buf[READ_CHUNK];
        ssize_t n = read(g->fd, buf, sizeof buf);
        if (n > 0) {
            g->last_rx = g->now;
            tb_dgt_decoder_feed(g->dec, buf, (size_t)n, on_msg, g);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "dgt:%.50s: %.30s", g->dev,
                 n == 0 ? "the board closed the line" : strerror(errno));
        report_decoder(g);
        disconnect(g, why);
        g->backoff_ms = BACKOFF_MIN_MS;
        return;
    }
    report_decoder(g);
}

static void write_output(struct dgt *g)
{
    uint8_t buf[TB_DGT_CLOCK_FRAME_MAX];
    int n;
    while (g->connected && (n = tb_dgt_pacer_next(g->pacer, g->now, buf, sizeof buf)) > 0) {
        ssize_t w;
        do
            w = write(g->fd, buf, (size_t)n);
        while (w < 0 && errno == EINTR);
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            char why[TB_LINK_TEXT_MAX];
            snprintf(why, sizeof why, "dgt:%.50s: %.30s", g->dev, strerror(errno));
            disconnect(g, why);
        }
    }
}

/* The clock's display shows the times again. */
static void end_text(struct dgt *g)
{
    if (!g->shown[0])
        return;
    queue_clock(g, TB_DGT_CLK_END);
    g->shown[0] = '\0';
}

static void timers(struct dgt *g)
{
    tb_dgt_tracker_tick(g->tr, g->now);
    drain_tracker(g);
    if (!g->connected)
        return;
    if (g->dump_pending && g->now >= g->dump_asked + DUMP_WAIT_MS)
        ask_dump(g);
    if (g->now >= g->last_rx + SILENT_MS) {
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "dgt:%.50s: no answer for %d s", g->dev, SILENT_MS / 1000);
        disconnect(g, why);
        return;
    }
    if (g->now >= g->brief_until) {
        g->brief_until = UINT64_MAX;
        end_text(g);
    }
    if (g->now >= g->last_rx + PROBE_MS && g->now >= g->last_probe + PROBE_MS) {
        queue_cmd(g, TB_DGT_CMD_RETURN_SERIALNR);
        g->last_probe = g->now;
    }
}

/* ---- the ops ------------------------------------------------------------------------------- */

static void dgt_close(struct tb_link *link);

static int dgt_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                    struct tb_error *err)
{
    struct dgt *g = calloc(1, sizeof *g);
    if (!g)
        return tb_error_set(err, TB_ERR_MEM, "dgt:%s: out of memory", res->path);
    tb_link_set_priv(link, g);
    snprintf(g->path, sizeof g->path, "%s", res->path);
    g->fd = -1;
    g->now = now_ms;
    g->unread = true;
    g->backoff_ms = BACKOFF_MIN_MS;
    g->brief_until = UINT64_MAX;
    g->dec = tb_dgt_decoder_new();
    g->pacer = tb_dgt_pacer_new(NULL);
    g->tr = tb_dgt_tracker_new(NULL);
    tb_dgt_clock_filter_init(&g->cf);
    if (!g->dec || !g->pacer || !g->tr)
        return tb_error_set(err, TB_ERR_MEM, "dgt:%s: out of memory", res->path);
    int rc = connect_board(g, err);
    if (rc != TB_OK && strcmp(g->path, "auto") == 0) {
        /* dgt:auto may open before its board is plugged in */
        disconnect(g, err ? err->msg : "no DGT board found");
        return TB_OK;
    }
    return rc;
}

static int dgt_fd(const struct tb_link *link)
{
    const struct dgt *g = tb_link_priv(link);
    return g->fd;
}

static uint64_t dgt_deadline(const struct tb_link *link)
{
    const struct dgt *g = tb_link_priv(link);
    if (g->q.count)
        return 0;
    if (!g->connected)
        return g->retry_ms;
    uint64_t dl = tb_dgt_pacer_due(g->pacer, g->now);
    uint64_t t = tb_dgt_tracker_due(g->tr);
    if (t < dl)
        dl = t;
    if (g->dump_pending && g->dump_asked + DUMP_WAIT_MS < dl)
        dl = g->dump_asked + DUMP_WAIT_MS;
    if (g->brief_until < dl)
        dl = g->brief_until;
    uint64_t probe = (g->last_rx > g->last_probe ? g->last_rx : g->last_probe) + PROBE_MS;
    return probe < dl ? probe : dl;
}

static int dgt_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                    struct tb_error *err)
{
    (void)err;
    struct dgt *g = tb_link_priv(link);
    g->now = now_ms;
    if (!g->connected && now_ms >= g->retry_ms && connect_board(g, NULL) != TB_OK) {
        g->backoff_ms = g->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : g->backoff_ms * 2;
        g->retry_ms = now_ms + g->backoff_ms;
    }
    write_output(g);
    if (g->connected)
        read_input(g);
    timers(g);
    write_output(g);
    return tb_link__queue_pop(&g->q, ev, max, now_ms);
}

static int dgt_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    struct dgt *g = tb_link_priv(link);
    if (!g->connected)
        return tb_error_set(err, TB_ERR_STATE, "dgt:%s is not connected", g->path);
    g->asked = true;
    ask_dump(g);
    return TB_OK;
}

/* The text cut to the display: DGT 3000 eight characters, XL six, Revelation II eleven. */
static int dgt_display(struct tb_link *link, const char *text, unsigned flags, struct tb_error *err)
{
    struct dgt *g = tb_link_priv(link);
    g->brief_until = UINT64_MAX;
    if (!g->connected || g->clock == TB_DGT_CLOCK_NONE)
        return tb_error_set(err, TB_ERR_SUPP, "dgt:%s: no clock display", g->path);
    if (!text || !*text) {
        end_text(g);
        write_output(g);
        return TB_OK;
    }
    size_t cap = g->clock == TB_DGT_CLOCK_3000 ? 8 : g->clock == TB_DGT_CLOCK_XL ? 6 : 11;
    char cut[16];
    snprintf(cut, sizeof cut, "%.*s", (int)cap, text);
    uint8_t b[TB_DGT_CLOCK_FRAME_MAX];
    int n = tb_dgt_clk_text(b, sizeof b, g->clock, cut, flags & TB_LINK_DISPLAY_BEEP);
    if (n < 0)
        return tb_error_set(err, n, "dgt:%s: '%s' cannot be shown", g->path, cut);
    int rc = tb_dgt_pacer_push(g->pacer, b, (size_t)n);
    if (rc < 0)
        return tb_error_set(err, rc, "dgt:%s: too many commands waiting", g->path);
    snprintf(g->shown, sizeof g->shown, "%s", cut);
    if (flags & TB_LINK_DISPLAY_BRIEF)
        g->brief_until = g->now + TB_LINK_DISPLAY_BRIEF_MS;
    write_output(g);
    return TB_OK;
}

static void dgt_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct dgt *g = tb_link_priv(link);
    *st = g->st;
    st->connected = g->connected;
    st->unread = g->connected && g->unread;
}

static void dgt_close(struct tb_link *link)
{
    struct dgt *g = tb_link_priv(link);
    if (!g)
        return;
    disconnect(g, NULL);
    tb_dgt_decoder_free(g->dec);
    tb_dgt_pacer_free(g->pacer);
    tb_dgt_tracker_free(g->tr);
    free(g);
    tb_link_set_priv(link, NULL);
}

static unsigned dgt_caps(const struct tb_link_resource *res)
{
    unsigned caps = TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE |
                    TB_LINK_CAP_PIECES | TB_LINK_CAP_DISPLAY;
    if (strcmp(res->path, "auto") == 0)
        caps |= TB_LINK_CAP_HOTPLUG;
    return caps;
}

const struct tb_link_ops tb_link__dgt_ops = {
    .scheme = "dgt",
    .caps = dgt_caps,
    .open = dgt_open,
    .fd = dgt_fd,
    .deadline = dgt_deadline,
    .read = dgt_read,
    .request_snapshot = dgt_request_snapshot,
    .display = dgt_display,
    .stats = dgt_stats,
    .close = dgt_close,
};
