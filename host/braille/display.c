/* display.c - a player's display: the view joined to a driver, and the null driver. */
#include <stdlib.h>
#include <string.h>

#include "tb_braille.h"

#define WINDOW_BYTES (4 * TB_BRAILLE_CELLS_MAX + 1)

struct tb_braille_display {
    const struct tb_braille_ops *ops;
    void *state;
    struct tb_braille_view *view;
    char shown[WINDOW_BYTES]; /* what the display shows now */
    bool fresh;               /* shown is not known yet: write at the next update */
};

static int null_open(void **state, const char *target, const char *auth, int *cells,
                     struct tb_error *err)
{
    (void)target, (void)auth, (void)err;
    *state = NULL;
    *cells = 40;
    return TB_OK;
}

static int null_write(void *state, const char *text)
{
    (void)state, (void)text;
    return TB_OK;
}

static int null_read_key(void *state, enum tb_braille_key *key)
{
    (void)state, (void)key;
    return 0;
}

static int null_fd(void *state)
{
    (void)state;
    return -1;
}

static void null_close(void *state)
{
    (void)state;
}

const struct tb_braille_ops tb_braille_null = {
    .name = "null",
    .open = null_open,
    .write = null_write,
    .read_key = null_read_key,
    .fd = null_fd,
    .close = null_close,
};

int tb_braille_display_open(const struct tb_braille_ops *ops, const char *target, const char *auth,
                            struct tb_braille_display **out, struct tb_error *err)
{
    if (!out)
        return tb_error_set(err, TB_ERR_ARG, "braille: nowhere to put the display");
    struct tb_braille_display *d = calloc(1, sizeof *d);
    if (!d)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    d->ops = ops ? ops : &tb_braille_null;
    int cells = 0;
    int rc = d->ops->open(&d->state, target, auth, &cells, err);
    if (rc) {
        free(d);
        return rc;
    }
    if ((rc = tb_braille_view_new(cells, &d->view))) {
        d->ops->close(d->state);
        free(d);
        return tb_error_set(err, rc, "braille: a display of %d cells cannot be shown", cells);
    }
    d->fresh = true;
    if ((rc = tb_braille_display_update(d))) {
        tb_error_set(err, rc, "braille (%s): the first write failed: %s", d->ops->name,
                     tb_strerror(rc));
        tb_braille_display_free(d);
        return rc;
    }
    *out = d;
    return TB_OK;
}

void tb_braille_display_free(struct tb_braille_display *d)
{
    if (!d)
        return;
    d->ops->close(d->state);
    tb_braille_view_free(d->view);
    free(d);
}

struct tb_braille_view *tb_braille_display_view(struct tb_braille_display *d)
{
    return d ? d->view : NULL;
}

int tb_braille_display_update(struct tb_braille_display *d)
{
    if (!d)
        return TB_ERR_ARG;
    char window[WINDOW_BYTES];
    int n = tb_braille_view_render(d->view, window, sizeof window);
    if (n < 0)
        return n;
    if (!d->fresh && strcmp(window, d->shown) == 0)
        return TB_OK;
    int rc = d->ops->write(d->state, window);
    if (rc)
        return rc;
    memcpy(d->shown, window, (size_t)n + 1);
    d->fresh = false;
    return TB_OK;
}

int tb_braille_display_poll(struct tb_braille_display *d)
{
    if (!d)
        return TB_ERR_ARG;
    int result = TB_OK;
    for (;;) {
        enum tb_braille_key key = TB_BRAILLE_KEY_NONE;
        int rc = d->ops->read_key(d->state, &key);
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
        if (tb_braille_view_key(d->view, key) == TB_BRAILLE_WANT_CLOCK)
            result = TB_BRAILLE_WANT_CLOCK;
    }
    int rc = tb_braille_display_update(d);
    return rc ? rc : result;
}

int tb_braille_display_fd(const struct tb_braille_display *d)
{
    return d ? d->ops->fd(d->state) : -1;
}
