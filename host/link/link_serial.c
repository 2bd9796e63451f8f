/* link_serial.c - serial: and pty: links: a reed board on a tty that stays at one path. After
 * a loss (EOF, EIO: unplugged, simulator stopped) the path is reopened on a timer with
 * backoff, and the board is re-read when it answers. */
#include <stdlib.h>

#include "link_internal.h"

static int serial_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                       struct tb_error *err)
{
    struct tb_link__reed *r = malloc(sizeof *r);
    if (!r)
        return tb_error_set(err, TB_ERR_MEM, "%s: out of memory", res->path);
    tb_link__reed_init(r, res->kind, res->path, true);
    tb_link_set_priv(link, r);
    return tb_link__reed_connect(r, now_ms, err);
}

static int serial_fd(const struct tb_link *link)
{
    const struct tb_link__reed *r = tb_link_priv(link);
    return r->fd;
}

static uint64_t serial_deadline(const struct tb_link *link)
{
    return tb_link__reed_deadline(tb_link_priv(link));
}

static int serial_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                       struct tb_error *err)
{
    (void)err;
    return tb_link__reed_read(tb_link_priv(link), now_ms, ev, max);
}

static int serial_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    return tb_link__reed_request_snapshot(tb_link_priv(link), err);
}

static void serial_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct tb_link__reed *r = tb_link_priv(link);
    tb_link__reed_stats(r, st);
}

static void serial_close(struct tb_link *link)
{
    struct tb_link__reed *r = tb_link_priv(link);
    if (r)
        tb_link__reed_disconnect(r, NULL);
    free(r);
    tb_link_set_priv(link, NULL);
}

static unsigned serial_caps(const struct tb_link_resource *res)
{
    (void)res;
    return TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE;
}

const struct tb_link_ops tb_link__serial_ops = {
    .scheme = "serial",
    .caps = serial_caps,
    .open = serial_open,
    .fd = serial_fd,
    .deadline = serial_deadline,
    .read = serial_read,
    .request_snapshot = serial_request_snapshot,
    .stats = serial_stats,
    .close = serial_close,
};
