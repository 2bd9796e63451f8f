/* link_chesslink.c - chesslink: a Millennium ChessLink board (docs/boards.md) on a USB serial
 * device or an emulator's pty, 38400 7O1. A shell around host/chesslink (frames, block check)
 * and link_reading.c (the DGT link's board-state tracker, which turns whole-board readings into
 * lifts and placements with the pieces named).
 *
 * On every connect the board is set to report its status on any change, after its own scan
 * debounce, and asked for its version and a status. Every reading is a whole board: the first
 * after the link opens goes out as a SNAPSHOT, every later one (after a reconnect too) as the
 * lifts and placements that take the board there. A quiet board is asked for its version each
 * second; one that answers nothing for five seconds is taken as lost. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <libserialport.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link_internal.h"
#include "tb_chess.h"
#include "tb_chesslink.h"

#define BACKOFF_MIN_MS 250
#define BACKOFF_MAX_MS 5000
#define STATUS_WAIT_MS 1500 /* ask again for a status that did not come */
#define PROBE_MS       1000 /* a quiet board is asked for its version (liveness) */
#define SILENT_MS      5000 /* a board that answers nothing this long is taken as lost */
#define READ_CHUNK     256
#define QUEUE_RESERVE  140 /* a reading can give 128 events */
#define OUT_CAP        1024
#define LED_SLOT       25 /* 25 * 4.096 ms: a pattern's bit lasts about 0.1 s */

struct clink {
    char path[256]; /* "auto": looked for at each connect */
    char dev[256];  /* the device opened */
    int fd;
    struct sp_port *port;
    bool connected, lost_reported, status_pending, version_said;
    uint64_t now, retry_ms, last_rx, last_probe, status_asked;
    unsigned backoff_ms;
    struct tb_chesslink_decoder dec;
    struct tb_chesslink_stats seen;
    struct tb_link__reading rd;
    uint8_t out[OUT_CAP]; /* commands not yet written */
    size_t nout;
    uint64_t lit; /* the squares whose LEDs are on */
    struct tb_link__queue q;
    struct tb_link_stats st;
};

static void push(struct clink *c, const struct tb_link_event *ev)
{
    (void)tb_link__queue_push(&c->q, ev); /* reads stop while the queue is near full */
}

static void info(struct clink *c, const char *text)
{
    struct tb_link_event ev = {.kind = TB_LINK_EV_INFO};
    snprintf(ev.text, sizeof ev.text, "%s", text);
    push(c, &ev);
}

static void send_frame(struct clink *c, const uint8_t *frame, int n)
{
    if (n > 0 && c->nout + (size_t)n <= sizeof c->out) {
        memcpy(c->out + c->nout, frame, (size_t)n);
        c->nout += (size_t)n;
    }
}

static void send_bytes(struct clink *c, char type, const uint8_t *bytes, size_t n)
{
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    send_frame(c, f, tb_chesslink_encode_bytes(f, sizeof f, type, bytes, n));
}

static void ask_status(struct clink *c)
{
    send_bytes(c, 'S', NULL, 0);
    c->status_pending = true;
    c->status_asked = c->now;
    c->st.snapshots_requested++;
}

/* ---- opening the device -------------------------------------------------------------------- */

/* chesslink:auto: /dev/twinboard/chesslink (the package's udev rule), else a /dev/serial/by-id
 * name that says ChessLink or Millennium. Other serial devices are never probed: the VI
 * player's reed board may be one of them. */
static bool find_board(char *out, size_t len)
{
    static const char *const words[] = {"CHESSLINK", "MILLENNIUM", NULL};
    return tb_link__find_named("chesslink", words, out, len);
}

static void disconnect(struct clink *c, const char *why)
{
    tb_link__tty_close(&c->fd, &c->port);
    bool was = c->connected;
    c->connected = false;
    c->status_pending = false;
    c->nout = 0;
    tb_chesslink_decoder_reset(&c->dec);
    tb_link__say_lost(&c->q, &c->lost_reported, was, why);
    c->retry_ms = c->now + c->backoff_ms;
}

static void show_leds(struct clink *c)
{
    if (!c->lit) {
        send_bytes(c, 'X', NULL, 0);
        return;
    }
    uint8_t leds[TB_CHESSLINK_LEDS], f[TB_CHESSLINK_FRAME_MAX];
    tb_chesslink_leds_of_squares(c->lit, 0xCC, leds); /* on, on, off, off: a steady blink */
    send_frame(c, f, tb_chesslink_leds_encode(f, sizeof f, LED_SLOT, leds));
}

static int connect_board(struct clink *c, struct tb_error *err)
{
    if (strcmp(c->path, "auto") == 0) {
        if (!find_board(c->dev, sizeof c->dev))
            return tb_error_set(err, TB_ERR_NOTFOUND, "chesslink:auto: no ChessLink board found");
    } else {
        snprintf(c->dev, sizeof c->dev, "%s", c->path);
    }
    char real[PATH_MAX];
    bool pty = realpath(c->dev, real) && strncmp(real, "/dev/pts/", 9) == 0;
    int rc = tb_link__tty_open_framed("chesslink", c->dev, TB_CHESSLINK_BAUD, true, !pty, &c->fd,
                                      &c->port, err);
    if (rc != TB_OK)
        return rc;
    c->connected = true;
    c->last_rx = c->last_probe = c->now;
    c->nout = 0;
    tb_chesslink_decoder_reset(&c->dec);
    /* reports on any change, stable for three scans: the board's own debounce */
    static const uint8_t report[2] = {TB_CHESSLINK_E2_REPORT, TB_CHESSLINK_REPORT_CHANGE_2 + 1};
    send_bytes(c, 'W', report, sizeof report);
    send_bytes(c, 'V', NULL, 0);
    ask_status(c);
    show_leds(c); /* what was lit before the loss, or all out */
    if (tb_link__say_back(&c->q, &c->lost_reported))
        c->st.reconnects++;
    c->backoff_ms = BACKOFF_MIN_MS;
    return TB_OK;
}

/* ---- what the board says ------------------------------------------------------------------- */

static void on_status(struct clink *c, const struct tb_chesslink_msg *m)
{
    uint8_t pieces[64];
    if (tb_chesslink_status_pieces(m, pieces) != TB_OK)
        return; /* the decoder lets only piece characters through */
    c->status_pending = false;
    tb_link__reading_put(&c->rd, &c->q, pieces, c->now);
}

static void on_msg(struct clink *c, const struct tb_chesslink_msg *m)
{
    char text[TB_LINK_TEXT_MAX];
    uint8_t b[2];
    switch (m->type) {
    case 's':
        on_status(c, m);
        break;
    case 'v':
        if (c->version_said || tb_chesslink_hex_bytes(m, b, sizeof b) != 2)
            break; /* the liveness probe's answer */
        c->version_said = true;
        snprintf(text, sizeof text, "ChessLink board version %u.%02u on %.50s", b[0], b[1], c->dev);
        info(c, text);
        break;
    default:
        break; /* l, x, w, r: acknowledgements */
    }
}

/* One fault for whatever the decoder refused since the last report; the board is read again
 * after it (a reading may have been among it). */
static void report_decoder(struct clink *c)
{
    struct tb_chesslink_stats s = c->dec.st;
    uint64_t bad = (s.cut - c->seen.cut) + (s.bad_check - c->seen.bad_check);
    uint64_t garbage = s.garbage - c->seen.garbage;
    c->st.frames += (uint32_t)(s.messages - c->seen.messages);
    c->st.bad_frames += (uint32_t)bad;
    c->st.garbage_bytes += (uint32_t)garbage;
    c->seen = s;
    if (!bad && !garbage)
        return;
    struct tb_link_event f = {.kind = TB_LINK_EV_FAULT,
                              .fault = TB_LINK_FAULT_DECODE,
                              .fault_detail = (uint16_t)(bad > 65535 ? 65535 : bad)};
    snprintf(f.text, sizeof f.text, "ChessLink: %lu bad frames, %lu garbage bytes",
             (unsigned long)bad, (unsigned long)garbage);
    push(c, &f);
    if (!c->status_pending)
        ask_status(c);
}

static void read_input(struct clink *c)
{
    while (c->connected && TB_LINK__QUEUE_CAP - c->q.count >= QUEUE_RESERVE) {
        uint8_t buf[READ_CHUNK];
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n > 0) {
            c->last_rx = c->now;
            for (ssize_t i = 0; i < n; i++) {
                struct tb_chesslink_msg m;
                if (tb_chesslink_decoder_push(&c->dec, buf[i], &m) == 1)
                    on_msg(c, &m);
            }
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "chesslink:%.50s: %.30s", c->dev,
                 n == 0 ? "the board closed the line" : strerror(errno));
        report_decoder(c);
        disconnect(c, why);
        return;
    }
    report_decoder(c);
}

static void write_output(struct clink *c)
{
    while (c->connected && c->nout > 0) {
        ssize_t w = write(c->fd, c->out, c->nout);
        if (w > 0) {
            memmove(c->out, c->out + w, c->nout - (size_t)w);
            c->nout -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            char why[TB_LINK_TEXT_MAX];
            snprintf(why, sizeof why, "chesslink:%.50s: %.30s", c->dev, strerror(errno));
            disconnect(c, why);
        }
        break;
    }
}

static void timers(struct clink *c)
{
    tb_link__reading_tick(&c->rd, &c->q, c->now);
    if (!c->connected)
        return;
    if (c->status_pending && c->now >= c->status_asked + STATUS_WAIT_MS)
        ask_status(c);
    if (c->now >= c->last_rx + SILENT_MS) {
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "chesslink:%.50s: no answer for %d s", c->dev, SILENT_MS / 1000);
        disconnect(c, why);
        return;
    }
    if (c->now >= c->last_rx + PROBE_MS && c->now >= c->last_probe + PROBE_MS) {
        send_bytes(c, 'V', NULL, 0);
        c->last_probe = c->now;
    }
}

/* ---- the ops ------------------------------------------------------------------------------- */

static int cl_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                   struct tb_error *err)
{
    struct clink *c = calloc(1, sizeof *c);
    if (!c)
        return tb_error_set(err, TB_ERR_MEM, "chesslink:%s: out of memory", res->path);
    tb_link_set_priv(link, c);
    snprintf(c->path, sizeof c->path, "%s", res->path);
    c->fd = -1;
    c->now = now_ms;
    c->backoff_ms = BACKOFF_MIN_MS;
    tb_chesslink_decoder_init(&c->dec, TB_CHESSLINK_FROM_BOARD);
    if (tb_link__reading_init(&c->rd, "ChessLink board") != TB_OK)
        return tb_error_set(err, TB_ERR_MEM, "chesslink:%s: out of memory", res->path);
    int rc = connect_board(c, err);
    if (rc != TB_OK && strcmp(c->path, "auto") == 0) {
        disconnect(c, err ? err->msg : "no ChessLink board found"); /* may come later */
        return TB_OK;
    }
    return rc;
}

static int cl_fd(const struct tb_link *link)
{
    const struct clink *c = tb_link_priv(link);
    return c->fd;
}

static uint64_t cl_deadline(const struct tb_link *link)
{
    const struct clink *c = tb_link_priv(link);
    if (c->q.count || (c->connected && c->nout))
        return 0;
    if (!c->connected)
        return c->retry_ms;
    uint64_t dl = tb_link__reading_due(&c->rd);
    if (c->status_pending && c->status_asked + STATUS_WAIT_MS < dl)
        dl = c->status_asked + STATUS_WAIT_MS;
    uint64_t probe = (c->last_rx > c->last_probe ? c->last_rx : c->last_probe) + PROBE_MS;
    return probe < dl ? probe : dl;
}

static int cl_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                   struct tb_error *err)
{
    (void)err;
    struct clink *c = tb_link_priv(link);
    c->now = now_ms;
    if (!c->connected && now_ms >= c->retry_ms && connect_board(c, NULL) != TB_OK) {
        c->backoff_ms = c->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : c->backoff_ms * 2;
        c->retry_ms = now_ms + c->backoff_ms;
    }
    write_output(c);
    if (c->connected)
        read_input(c);
    timers(c);
    write_output(c);
    return tb_link__queue_pop(&c->q, ev, max, now_ms);
}

static int cl_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    struct clink *c = tb_link_priv(link);
    if (!c->connected)
        return tb_error_set(err, TB_ERR_STATE, "chesslink:%s is not connected", c->path);
    c->rd.asked = true;
    ask_status(c);
    write_output(c);
    return TB_OK;
}

static int cl_leds(struct tb_link *link, uint64_t squares, struct tb_error *err)
{
    struct clink *c = tb_link_priv(link);
    if (squares == c->lit)
        return TB_OK;
    c->lit = squares; /* shown again on every connect */
    if (!c->connected)
        return tb_error_set(err, TB_ERR_STATE, "chesslink:%s is not connected", c->path);
    show_leds(c);
    write_output(c);
    return TB_OK;
}

static void cl_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct clink *c = tb_link_priv(link);
    *st = c->st;
    st->connected = c->connected;
    st->unread = c->connected && c->rd.unread;
}

static void cl_close(struct tb_link *link)
{
    struct clink *c = tb_link_priv(link);
    if (!c)
        return;
    disconnect(c, NULL);
    tb_link__reading_free(&c->rd);
    free(c);
    tb_link_set_priv(link, NULL);
}

static unsigned cl_caps(const struct tb_link_resource *res)
{
    unsigned caps = TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE |
                    TB_LINK_CAP_PIECES | TB_LINK_CAP_LEDS;
    if (strcmp(res->path, "auto") == 0)
        caps |= TB_LINK_CAP_HOTPLUG;
    return caps;
}

const struct tb_link_ops tb_link__chesslink_ops = {
    .scheme = "chesslink",
    .caps = cl_caps,
    .open = cl_open,
    .fd = cl_fd,
    .deadline = cl_deadline,
    .read = cl_read,
    .request_snapshot = cl_request_snapshot,
    .leds = cl_leds,
    .stats = cl_stats,
    .close = cl_close,
};
