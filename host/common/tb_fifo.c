/* tb_fifo.c - the queue of fixed-size items (tb_fifo.h). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tb_err.h"
#include "tb_fifo.h"

int tb_fifo_push(struct tb_fifo *q, const void *item)
{
    assert(q->size > 0);
    if (q->max && q->n >= q->max)
        return TB_ERR_FULL;
    if (q->head + q->n == q->cap) {
        /* Move the waiting items to the front when that frees at least half the array (so each
         * item moves a bounded number of times) or the array may not grow; else grow. */
        bool at_limit = q->max && q->cap >= q->max;
        if (q->head && (q->head >= q->cap / 2 || at_limit)) {
            memmove(q->v, q->v + q->head * q->size, q->n * q->size);
            q->head = 0;
        } else {
            size_t cap = q->cap ? q->cap * 2 : 16;
            if (q->max && cap > q->max)
                cap = q->max;
            if (cap > SIZE_MAX / q->size)
                return TB_ERR_MEM;
            unsigned char *v = realloc(q->v, cap * q->size);
            if (!v)
                return TB_ERR_MEM;
            q->v = v;
            q->cap = cap;
        }
    }
    memcpy(q->v + (q->head + q->n) * q->size, item, q->size);
    q->n++;
    return TB_OK;
}

void *tb_fifo_at(const struct tb_fifo *q, size_t i)
{
    return i < q->n ? q->v + (q->head + i) * q->size : NULL;
}

bool tb_fifo_pop(struct tb_fifo *q, void *out)
{
    if (!q->n)
        return false;
    if (out)
        memcpy(out, q->v + q->head * q->size, q->size);
    q->head++;
    if (!--q->n)
        q->head = 0;
    return true;
}

size_t tb_fifo_count(const struct tb_fifo *q)
{
    return q->n;
}

void tb_fifo_free(struct tb_fifo *q)
{
    if (!q)
        return;
    free(q->v);
    q->v = NULL;
    q->head = q->n = q->cap = 0;
}
