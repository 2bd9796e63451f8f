/* link_keys.c - keys: moves typed by an assistant arrive through the control socket
 * (D.2.10.1, D.2.11). The link only checks the text looks like a move (SAN or UCI); whether it
 * is legal in the position is the match's business. */
#include <stdlib.h>
#include <string.h>

#include "link_internal.h"

struct keys {
    struct tb_link__queue q;
};

static int keys_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                     struct tb_error *err)
{
    (void)res, (void)now_ms;
    struct keys *k = calloc(1, sizeof *k);
    if (!k)
        return tb_error_set(err, TB_ERR_MEM, "keys: out of memory");
    tb_link_set_priv(link, k);
    return TB_OK;
}

static uint64_t keys_deadline(const struct tb_link *link)
{
    const struct keys *k = tb_link_priv(link);
    return k->q.count ? 0 : TB_LINK_NO_DEADLINE; /* typed moves are due at once */
}

static int keys_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                     struct tb_error *err)
{
    (void)err;
    struct keys *k = tb_link_priv(link);
    return tb_link__queue_pop(&k->q, ev, max, now_ms);
}

/* SAN (e4, Nxf3+, exd8=Q#, O-O-O) or UCI (e2e4, e7e8q) characters, 2..10 of them. */
static bool looks_like_move(const char *t)
{
    size_t n = strlen(t);
    if (n < 2 || n > 10)
        return false;
    return strspn(t, "abcdefgh12345678KQRBNOqrbnx+#=-0") == n;
}

static int keys_write(struct tb_link *link, const char *text, struct tb_error *err)
{
    struct keys *k = tb_link_priv(link);
    if (!looks_like_move(text))
        return tb_error_set(err, TB_ERR_PARSE,
                            "'%.20s' is not a move in SAN (Nf3, O-O, exd8=Q) or UCI (g1f3)", text);
    struct tb_link_event ev = {.kind = TB_LINK_EV_TYPED_MOVE};
    strcpy(ev.text, text);
    if (!tb_link__queue_push(&k->q, &ev))
        return tb_error_set(err, TB_ERR_FULL, "too many typed moves waiting");
    return TB_OK;
}

static void keys_close(struct tb_link *link)
{
    free(tb_link_priv(link));
    tb_link_set_priv(link, NULL);
}

const struct tb_link_ops tb_link__keys_ops = {
    .scheme = "keys",
    .open = keys_open,
    .deadline = keys_deadline,
    .read = keys_read,
    .write = keys_write,
    .close = keys_close,
};
