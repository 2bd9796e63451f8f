/* link_pending.c - kinds whose implementation is not in this build yet. */
#include "link_internal.h"

static int pending_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                        struct tb_error *err)
{
    (void)link, (void)now_ms;
    return tb_error_set(err, TB_ERR_SUPP, "%s: links are not available in this build",
                        tb_link_kind_name(res->kind));
}

static int pending_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                        struct tb_error *err)
{
    (void)link, (void)now_ms, (void)ev, (void)max;
    return tb_error_set(err, TB_ERR_SUPP, "link not available");
}

static void pending_close(struct tb_link *link)
{
    (void)link;
}

const struct tb_link_ops tb_link__usb_ops = {
    .scheme = "usb", .open = pending_open, .read = pending_read, .close = pending_close};
