/* link_null.c - boards that never say anything: null: (demos, tests, a missing board) and
 * keys: (no sensors: an assistant types the moves made on it, D.2.10.1, D.2.11; the daemon hands
 * them to the match, which checks them against the game). */
#include "link_internal.h"

static unsigned null_caps(const struct tb_link_resource *res)
{
    (void)res;
    return 0;
}

static unsigned keys_caps(const struct tb_link_resource *res)
{
    (void)res;
    return TB_LINK_CAP_TYPED;
}

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
    .caps = null_caps,
    .open = null_open,
    .read = null_read,
    .close = null_close,
};

const struct tb_link_ops tb_link__keys_ops = {
    .scheme = "keys",
    .caps = keys_caps,
    .open = null_open,
    .read = null_read,
    .close = null_close,
};
