/* tb_fifo.h - a queue of fixed-size items, oldest first, in one array that grows by doubling up
 * to a limit: the inputs held for the journal, the broadcast's delayed changes, a fast script's
 * events waiting to be merged. Items are copied in and out; a pointer from tb_fifo_at is good
 * until the next push. */
#ifndef TB_FIFO_H
#define TB_FIFO_H

#include <stdbool.h>
#include <stddef.h>

struct tb_fifo {
    unsigned char *v;
    size_t size;         /* bytes per item, > 0 */
    size_t max;          /* most items held at once; 0: as many as memory allows */
    size_t head, n, cap; /* items wait in v[head .. head + n); head is 0 when n is */
};

/* An empty queue of items of `item_size` bytes, at most `max_items` (0: no limit). */
#define TB_FIFO_INIT(item_size, max_items)                                                         \
    ((struct tb_fifo){.size = (item_size), .max = (max_items)})

/* Appends a copy of the item. TB_OK; TB_ERR_FULL when max items wait; TB_ERR_MEM when the array
 * cannot grow. On an error nothing changed. */
int tb_fifo_push(struct tb_fifo *q, const void *item);
/* The i-th oldest item (0: the oldest) in place, NULL past the last. */
void *tb_fifo_at(const struct tb_fifo *q, size_t i);
/* Takes the oldest off the queue, copied to *out unless out is NULL; false when empty. */
bool tb_fifo_pop(struct tb_fifo *q, void *out);
size_t tb_fifo_count(const struct tb_fifo *q);
/* Releases the array; the queue stays usable, empty, with its item size and limit. NULL: no-op.
 * Items owning memory are the caller's to release first (tb_fifo_at). */
void tb_fifo_free(struct tb_fifo *q);

#endif /* TB_FIFO_H */
