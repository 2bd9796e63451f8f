/* link.c - the link core: picks the ops table for a resource and guards optional slots. What
 * the drivers share (their private state, the event queue, the buttons) is in link_driver.c, so
 * the drivers never call back into this file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_internal.h"

const struct tb_link_ops *tb_link_ops_for(enum tb_link_kind kind)
{
    switch (kind) {
    case TB_LINK_NULL:
        return &tb_link__null_ops;
    case TB_LINK_SERIAL:
    case TB_LINK_PTY:
        return &tb_link__serial_ops;
    case TB_LINK_USB:
        return &tb_link__usb_ops;
    case TB_LINK_REED:
        return &tb_link__reed_id_ops;
    case TB_LINK_SIM:
        return &tb_link__sim_ops;
    case TB_LINK_KEYS:
        return &tb_link__keys_ops;
    case TB_LINK_DGT:
        return &tb_link__dgt_ops;
    case TB_LINK_CHESSLINK:
        return &tb_link__chesslink_ops;
    case TB_LINK_CHESSNUT:
        return &tb_link__chessnut_ops;
    }
    return &tb_link__null_ops;
}

static void describe(const struct tb_link_resource *res, char *buf, size_t len)
{
    switch (res->kind) {
    case TB_LINK_USB:
        snprintf(buf, len, "usb:%04x:%04x%s%s", res->vid, res->pid, res->serial[0] ? ":" : "",
                 res->serial);
        break;
    case TB_LINK_SIM:
        snprintf(buf, len, "sim:%s%s", res->path, res->fast ? "?speed=fast" : "");
        break;
    case TB_LINK_REED:
        snprintf(buf, len, "reed:id=%lu", (unsigned long)res->board_id);
        break;
    default:
        snprintf(buf, len, "%s:%s", tb_link_kind_name(res->kind), res->path);
        break;
    }
}

int tb_link_open_with(struct tb_link **out, const struct tb_link_ops *ops,
                      const struct tb_link_resource *res, const char *name, uint64_t now_ms,
                      struct tb_error *err)
{
    if (!out || !ops || !res || !ops->caps || !ops->open || !ops->read || !ops->close)
        return tb_error_set(err, TB_ERR_ARG, "link open: missing argument or ops slot");
    *out = NULL;
    struct tb_link *l = calloc(1, sizeof *l);
    if (!l)
        return tb_error_set(err, TB_ERR_MEM, "link open: out of memory");
    l->ops = ops;
    l->res = *res;
    snprintf(l->name, sizeof l->name, "%s", name ? name : "");
    describe(res, l->resource, sizeof l->resource);
    int rc = ops->open(l, &l->res, now_ms, err);
    if (rc != TB_OK) {
        ops->close(l);
        free(l);
        return rc;
    }
    *out = l;
    return TB_OK;
}

int tb_link_open_resource(struct tb_link **out, const struct tb_link_resource *res,
                          const char *name, uint64_t now_ms, struct tb_error *err)
{
    if (!res)
        return tb_error_set(err, TB_ERR_ARG, "link open: no resource");
    return tb_link_open_with(out, tb_link_ops_for(res->kind), res, name, now_ms, err);
}

int tb_link_open(struct tb_link **out, const char *resource, const char *name, uint64_t now_ms,
                 struct tb_error *err)
{
    struct tb_link_resource res;
    if (out)
        *out = NULL;
    int rc = tb_link_resource_parse(resource, &res, err);
    if (rc != TB_OK)
        return rc;
    return tb_link_open_resource(out, &res, name, now_ms, err);
}

int tb_link_fd(const struct tb_link *link)
{
    return link && link->ops->fd ? link->ops->fd(link) : -1;
}

uint64_t tb_link_deadline(const struct tb_link *link)
{
    return link && link->ops->deadline ? link->ops->deadline(link) : TB_LINK_NO_DEADLINE;
}

int tb_link_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                 struct tb_error *err)
{
    if (!link || !ev || max <= 0)
        return tb_error_set(err, TB_ERR_ARG, "link read: bad arguments");
    int n = link->ops->read(link, now_ms, ev, max, err);
    if (n > 0)
        link->delivered += (uint32_t)n;
    return n;
}

int tb_link_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    if (!link)
        return TB_ERR_ARG;
    if (!link->ops->request_snapshot)
        return tb_error_set(err, TB_ERR_SUPP, "%s cannot be asked for a snapshot", link->resource);
    return link->ops->request_snapshot(link, err);
}

int tb_link_display(struct tb_link *link, const char *text, unsigned flags, struct tb_error *err)
{
    if (!link)
        return TB_ERR_ARG;
    if (!link->ops->display)
        return tb_error_set(err, TB_ERR_SUPP, "%s has no display", link->resource);
    return link->ops->display(link, text, flags, err);
}

int tb_link_leds(struct tb_link *link, uint64_t squares, struct tb_error *err)
{
    if (!link)
        return TB_ERR_ARG;
    if (!link->ops->leds)
        return tb_error_set(err, TB_ERR_SUPP, "%s has no lights", link->resource);
    return link->ops->leds(link, squares, err);
}

unsigned tb_link_caps(const struct tb_link *link)
{
    return link && link->ops->caps ? link->ops->caps(&link->res) : 0;
}

unsigned tb_link_resource_caps(const struct tb_link_resource *res)
{
    const struct tb_link_ops *ops = res ? tb_link_ops_for(res->kind) : NULL;
    return ops && ops->caps ? ops->caps(res) : 0;
}

void tb_link_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!link)
        return;
    st->connected = true;
    if (link->ops->stats)
        link->ops->stats(link, st);
    st->events = link->delivered;
}

const char *tb_link_name(const struct tb_link *link)
{
    return link ? link->resource : "";
}
const struct tb_link_resource *tb_link_resource(const struct tb_link *link)
{
    return link ? &link->res : NULL;
}

void tb_link_close(struct tb_link *link)
{
    if (!link)
        return;
    link->ops->close(link);
    free(link);
}

const char *tb_link_event_name(int kind)
{
    static const char *const names[] = {
        [TB_LINK_EV_LIFT] = "lift",         [TB_LINK_EV_PLACE] = "place",
        [TB_LINK_EV_BUTTON_DOWN] = "press", [TB_LINK_EV_BUTTON_UP] = "release",
        [TB_LINK_EV_CHOICE] = "choose",     [TB_LINK_EV_SNAPSHOT] = "snapshot",
        [TB_LINK_EV_INFO] = "info",         [TB_LINK_EV_FAULT] = "fault",
        [TB_LINK_EV_LOST] = "link lost",    [TB_LINK_EV_BACK] = "link back",
        [TB_LINK_EV_END] = "end of script", [TB_LINK_EV_CLOCK] = "clock",
        [TB_LINK_EV_RESIGN] = "resign",
    };
    if (kind <= 0 || kind >= (int)(sizeof names / sizeof names[0]))
        return "unknown event";
    return names[kind];
}
