/* rb_queue.c - fixed ring of pending events, oldest first. The board decides what a full queue
 * means (a QUEUE_OVERRUN fault); the ring itself only refuses. */
#include "rb_core.h"

#include <string.h>

void rb_queue_init(struct rb_queue *q)
{
    memset(q, 0, sizeof *q);
}

uint8_t rb_queue_push(struct rb_queue *q, const struct rb_event *e)
{
    if (q->count >= RB_QUEUE_LEN) {
        return 0;
    }
    uint8_t tail = (uint8_t)((q->head + q->count) % RB_QUEUE_LEN);
    q->ev[tail] = *e;
    q->count++;
    return 1;
}

const struct rb_event *rb_queue_peek(const struct rb_queue *q)
{
    return q->count ? &q->ev[q->head] : NULL;
}

void rb_queue_pop(struct rb_queue *q)
{
    if (q->count) {
        q->head = (uint8_t)((q->head + 1) % RB_QUEUE_LEN);
        q->count--;
    }
}
