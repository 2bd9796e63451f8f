/* table_queue.c - the inputs that wait for the journal, in order. */
#include <stdlib.h>
#include <string.h>

#include "tb_err.h"
#include "tb_table.h"

int tb_table_queue_push(struct tb_table_queue *q, const struct tb_table_held *h)
{
    if (q->head && q->head == q->n) /* all taken: start over */
        q->head = q->n = 0;
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 256;
        struct tb_table_held *v = realloc(q->v, cap * sizeof *v);
        if (!v)
            return TB_ERR_MEM;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = *h;
    return TB_OK;
}

bool tb_table_queue_pop(struct tb_table_queue *q, struct tb_table_held *out)
{
    if (q->head >= q->n)
        return false;
    *out = q->v[q->head++];
    return true;
}

size_t tb_table_queue_count(const struct tb_table_queue *q)
{
    return q->n - q->head;
}

void tb_table_queue_free(struct tb_table_queue *q)
{
    if (!q)
        return;
    free(q->v);
    memset(q, 0, sizeof *q);
}
