/* link_null.c - null: a board that never says anything (demos, tests, a missing board). */
#include "link_internal.h"

static int null_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                     struct tb_error *err)
{
    (void)link, (void)res, (void)now_ms, (void)err;
    return TB_OK;
}

static int null_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                     struct tb_error *err)
{
    (void)link, (void)now_ms, (void)ev, (void)max, (void)err;
    return 0;
}

static void null_close(struct tb_link *link)
{
    (void)link;
}

const struct tb_link_ops tb_link__null_ops = {
    .scheme = "null",
    .open = null_open,
    .read = null_read,
    .close = null_close,
};
