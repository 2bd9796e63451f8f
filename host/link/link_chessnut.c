/* link_chessnut.c - chessnut: a Chessnut board (Air, Air+, Pro, Go; docs/boards.md) over USB
 * HID. A shell around host/chessnut (reports, the vendor's piece table) and link_reading.c
 * (whole-board readings as lifts and placements with the pieces named).
 *
 * The device is reached through a small ops table at the hidapi boundary: hidapi itself for a
 * board (chessnut:auto finds the first one by its vendor ID and data interface; a /dev/hidraw
 * path opens that one), or, when the path is a Unix socket, a stand-in that carries one report
 * per packet (an emulator, tests). On every connect the board's reports are switched on, the
 * battery asked, and the LEDs lit as they were; a read or write that fails is a lost board,
 * retried every 250 ms doubling to 5 s. hidapi gives no descriptor to poll: a board read
 * through it is read every POLL_MS. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <hidapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "link_internal.h"
#include "tb_chessnut.h"

#define BACKOFF_MIN_MS 250
#define BACKOFF_MAX_MS 5000
#define POLL_MS        10 /* hidapi: how often a board is read */
#define QUEUE_RESERVE  140
#define BATTERY_MS     60000 /* the battery asked again */

/* ---- the HID boundary ---------------------------------------------------------------------- */

struct hid_dev {
    hid_device *h; /* hidapi */
    int sock;      /* the stand-in */
};

struct hid_ops {
    /* 0 or an error with err filled. */
    int (*open)(struct hid_dev *d, const char *path, struct tb_error *err);
    /* One report: its length, 0 when none waits, -1 when the device is gone. */
    int (*read)(struct hid_dev *d, uint8_t *buf, size_t cap);
    /* 0, or -1 when the device is gone. */
    int (*write)(struct hid_dev *d, const uint8_t *buf, size_t n);
    int (*fd)(const struct hid_dev *d); /* -1: read by the clock */
    void (*close)(struct hid_dev *d);
};

/* The first Chessnut board's data interface (usage page 0xFF00; its product ID varies). */
static int hidapi_open(struct hid_dev *d, const char *path, struct tb_error *err)
{
    if (hid_init() != 0)
        return tb_error_set(err, TB_ERR_SYS, "chessnut:%s: hidapi cannot start", path);
    if (strcmp(path, "auto") == 0) {
        struct hid_device_info *all = hid_enumerate(TB_CHESSNUT_VID, 0);
        for (struct hid_device_info *i = all; i && !d->h; i = i->next) {
            if (i->usage_page == TB_CHESSNUT_USAGE_PAGE)
                d->h = hid_open_path(i->path);
        }
        hid_free_enumeration(all);
        if (!d->h)
            return tb_error_set(err, TB_ERR_NOTFOUND, "chessnut:auto: no Chessnut board found");
    } else if (!(d->h = hid_open_path(path))) {
        return tb_error_set(err, TB_ERR_SYS, "chessnut:%s: cannot open the HID device", path);
    }
    hid_set_nonblocking(d->h, 1);
    return TB_OK;
}

static int hidapi_read(struct hid_dev *d, uint8_t *buf, size_t cap)
{
    return hid_read(d->h, buf, cap);
}

static int hidapi_write(struct hid_dev *d, const uint8_t *buf, size_t n)
{
    return hid_write(d->h, buf, n) < 0 ? -1 : 0;
}

static int hidapi_fd(const struct hid_dev *d)
{
    (void)d;
    return -1;
}

static void hidapi_close(struct hid_dev *d)
{
    if (d->h)
        hid_close(d->h);
    d->h = NULL;
}

static const struct hid_ops hidapi_ops = {
    .open = hidapi_open,
    .read = hidapi_read,
    .write = hidapi_write,
    .fd = hidapi_fd,
    .close = hidapi_close,
};

/* The stand-in: a SOCK_SEQPACKET socket, one report a packet, as hidraw gives them. */
static int sock_open(struct hid_dev *d, const char *path, struct tb_error *err)
{
    union {
        struct sockaddr sa;
        struct sockaddr_un un;
    } a = {.un = {.sun_family = AF_UNIX}};
    if (strlen(path) >= sizeof a.un.sun_path)
        return tb_error_set(err, TB_ERR_ARG, "chessnut:%s: path too long", path);
    memcpy(a.un.sun_path, path, strlen(path) + 1);
    d->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (d->sock < 0 || connect(d->sock, &a.sa, sizeof a.un) != 0) {
        int e = errno;
        if (d->sock >= 0)
            close(d->sock);
        d->sock = -1;
        return tb_error_set(err, TB_ERR_SYS, "chessnut:%s: %s", path, strerror(e));
    }
    return TB_OK;
}

static int sock_read(struct hid_dev *d, uint8_t *buf, size_t cap)
{
    ssize_t n;
    do
        n = recv(d->sock, buf, cap, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    return n > 0 ? (int)n : -1; /* 0: the other end closed */
}

static int sock_write(struct hid_dev *d, const uint8_t *buf, size_t n)
{
    return send(d->sock, buf, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

static int sock_fd(const struct hid_dev *d)
{
    return d->sock;
}

static void sock_close(struct hid_dev *d)
{
    if (d->sock >= 0)
        close(d->sock);
    d->sock = -1;
}

static const struct hid_ops sock_ops = {
    .open = sock_open,
    .read = sock_read,
    .write = sock_write,
    .fd = sock_fd,
    .close = sock_close,
};

/* ---- the link ------------------------------------------------------------------------------ */

struct cnut {
    char path[256];
    const struct hid_ops *hid;
    struct hid_dev dev;
    bool connected, lost_reported, battery_said;
    uint64_t now, retry_ms, next_poll, next_battery;
    unsigned backoff_ms;
    uint64_t lit;
    struct tb_link__reading rd;
    struct tb_link__queue q;
    struct tb_link_stats st;
};

static void disconnect(struct cnut *c, const char *why)
{
    c->hid->close(&c->dev);
    bool was = c->connected;
    c->connected = false;
    tb_link__say_lost(&c->q, &c->lost_reported, was, why);
    c->retry_ms = c->now + c->backoff_ms;
}

static void send_report(struct cnut *c, const uint8_t *buf, int n)
{
    if (c->connected && n > 0 && c->hid->write(&c->dev, buf, (size_t)n) != 0) {
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "chessnut:%.60s: the board is gone", c->path);
        disconnect(c, why);
    }
}

static void show_leds(struct cnut *c)
{
    uint8_t b[16];
    send_report(c, b, tb_chessnut_leds(b, sizeof b, c->lit));
}

static int connect_board(struct cnut *c, struct tb_error *err)
{
    int rc = c->hid->open(&c->dev, c->path, err);
    if (rc != TB_OK)
        return rc;
    c->connected = true;
    if (tb_link__say_back(&c->q, &c->lost_reported))
        c->st.reconnects++;
    c->backoff_ms = BACKOFF_MIN_MS;
    uint8_t b[16];
    send_report(c, b, tb_chessnut_enable(b, sizeof b));
    send_report(c, b, tb_chessnut_battery_ask(b, sizeof b));
    c->next_battery = c->now + BATTERY_MS;
    show_leds(c);
    c->st.snapshots_requested++; /* reports on: the board sends its position */
    return TB_OK;
}

static void on_report(struct cnut *c, const uint8_t *buf, int n)
{
    struct tb_chessnut_report r;
    switch (tb_chessnut_decode(buf, (size_t)n, &r)) {
    case TB_CHESSNUT_POS:
        c->st.frames++;
        tb_link__reading_put(&c->rd, &c->q, r.pieces, c->now);
        break;
    case TB_CHESSNUT_BATT:
        c->st.frames++;
        if (!c->battery_said || r.percent <= 10) {
            struct tb_link_event ev = {.kind = TB_LINK_EV_INFO};
            snprintf(ev.text, sizeof ev.text, "Chessnut board: battery %u%%%s", r.percent,
                     r.charging ? ", charging" : "");
            (void)tb_link__queue_push(&c->q, &ev);
            c->battery_said = true;
        }
        break;
    default: {
        /* a report this protocol does not know (the board sends others) or a bad one: counted;
         * a position with a nibble that is no piece is refused whole */
        c->st.bad_frames++;
        if (n >= 2 && buf[0] == TB_CHESSNUT_POSITION) {
            struct tb_link_event f = {
                .kind = TB_LINK_EV_FAULT, .fault = TB_LINK_FAULT_DECODE, .fault_detail = 1};
            snprintf(f.text, sizeof f.text, "Chessnut: a bad position report (%d bytes)", n);
            (void)tb_link__queue_push(&c->q, &f);
        }
        break;
    }
    }
}

static void read_input(struct cnut *c)
{
    while (c->connected && TB_LINK__QUEUE_CAP - c->q.count >= QUEUE_RESERVE) {
        uint8_t buf[TB_CHESSNUT_REPORT_MAX + 1];
        int n = c->hid->read(&c->dev, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            char why[TB_LINK_TEXT_MAX];
            snprintf(why, sizeof why, "chessnut:%.60s: the board is gone", c->path);
            disconnect(c, why);
            return;
        }
        on_report(c, buf, n > TB_CHESSNUT_REPORT_MAX ? TB_CHESSNUT_REPORT_MAX : n);
    }
}

static void cn_close(struct tb_link *link);

static int cn_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                   struct tb_error *err)
{
    struct cnut *c = calloc(1, sizeof *c);
    if (!c)
        return tb_error_set(err, TB_ERR_MEM, "chessnut:%s: out of memory", res->path);
    tb_link_set_priv(link, c);
    snprintf(c->path, sizeof c->path, "%s", res->path);
    struct stat st;
    c->hid = stat(c->path, &st) == 0 && S_ISSOCK(st.st_mode) ? &sock_ops : &hidapi_ops;
    c->dev.sock = -1;
    c->now = now_ms;
    c->backoff_ms = BACKOFF_MIN_MS;
    if (tb_link__reading_init(&c->rd, "Chessnut board") != TB_OK)
        return tb_error_set(err, TB_ERR_MEM, "chessnut:%s: out of memory", res->path);
    int rc = connect_board(c, err);
    if (rc != TB_OK && strcmp(c->path, "auto") == 0) {
        disconnect(c, err ? err->msg : "no Chessnut board found"); /* may come later */
        return TB_OK;
    }
    return rc;
}

static int cn_fd(const struct tb_link *link)
{
    const struct cnut *c = tb_link_priv(link);
    return c->connected ? c->hid->fd(&c->dev) : -1;
}

static uint64_t cn_deadline(const struct tb_link *link)
{
    const struct cnut *c = tb_link_priv(link);
    if (c->q.count)
        return 0;
    if (!c->connected)
        return c->retry_ms;
    uint64_t dl = tb_link__reading_due(&c->rd);
    if (c->next_battery < dl)
        dl = c->next_battery;
    if (c->hid->fd(&c->dev) < 0 && c->next_poll < dl)
        dl = c->next_poll;
    return dl;
}

static int cn_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                   struct tb_error *err)
{
    (void)err;
    struct cnut *c = tb_link_priv(link);
    c->now = now_ms;
    if (!c->connected && now_ms >= c->retry_ms && connect_board(c, NULL) != TB_OK) {
        c->backoff_ms = c->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : c->backoff_ms * 2;
        c->retry_ms = now_ms + c->backoff_ms;
    }
    read_input(c);
    c->next_poll = now_ms + POLL_MS;
    if (c->connected && now_ms >= c->next_battery) {
        uint8_t b[16];
        send_report(c, b, tb_chessnut_battery_ask(b, sizeof b));
        c->next_battery = now_ms + BATTERY_MS;
    }
    tb_link__reading_tick(&c->rd, &c->q, now_ms);
    return tb_link__queue_pop(&c->q, ev, max, now_ms);
}

/* The board sends its position when its reports are switched on: switching them on again
 * asks for one. */
static int cn_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    struct cnut *c = tb_link_priv(link);
    if (!c->connected)
        return tb_error_set(err, TB_ERR_STATE, "chessnut:%s is not connected", c->path);
    c->rd.asked = true;
    uint8_t b[16];
    send_report(c, b, tb_chessnut_enable(b, sizeof b));
    c->st.snapshots_requested++;
    return TB_OK;
}

static int cn_leds(struct tb_link *link, uint64_t squares, struct tb_error *err)
{
    struct cnut *c = tb_link_priv(link);
    if (squares == c->lit)
        return TB_OK;
    c->lit = squares; /* lit again on every connect */
    if (!c->connected)
        return tb_error_set(err, TB_ERR_STATE, "chessnut:%s is not connected", c->path);
    show_leds(c);
    return TB_OK;
}

static void cn_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct cnut *c = tb_link_priv(link);
    *st = c->st;
    st->connected = c->connected;
    st->unread = c->connected && c->rd.unread;
}

static void cn_close(struct tb_link *link)
{
    struct cnut *c = tb_link_priv(link);
    if (!c)
        return;
    if (c->connected)
        c->hid->close(&c->dev);
    tb_link__reading_free(&c->rd);
    free(c);
    tb_link_set_priv(link, NULL);
}

static unsigned cn_caps(const struct tb_link_resource *res)
{
    unsigned caps = TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE |
                    TB_LINK_CAP_PIECES | TB_LINK_CAP_LEDS;
    if (strcmp(res->path, "auto") == 0)
        caps |= TB_LINK_CAP_HOTPLUG;
    return caps;
}

const struct tb_link_ops tb_link__chessnut_ops = {
    .scheme = "chessnut",
    .caps = cn_caps,
    .open = cn_open,
    .fd = cn_fd,
    .deadline = cn_deadline,
    .read = cn_read,
    .request_snapshot = cn_request_snapshot,
    .leds = cn_leds,
    .stats = cn_stats,
    .close = cn_close,
};
