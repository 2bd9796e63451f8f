/* link_internal.h - what the link implementations share: their ops tables and an event queue. */
#ifndef LINK_INTERNAL_H
#define LINK_INTERNAL_H

#include "tb_link.h"

extern const struct tb_link_ops tb_link__null_ops;
extern const struct tb_link_ops tb_link__keys_ops;
extern const struct tb_link_ops tb_link__sim_ops;
extern const struct tb_link_ops tb_link__serial_ops; /* serial: and pty: */
extern const struct tb_link_ops tb_link__usb_ops;

/* A fixed ring of events waiting to be read. */
#define TB_LINK__QUEUE_CAP 256
struct tb_link__queue {
    struct tb_link_event ev[TB_LINK__QUEUE_CAP];
    unsigned head, count;
};

/* Adds an event; false when full (the event is dropped: the caller asks for a snapshot). */
bool tb_link__queue_push(struct tb_link__queue *q, const struct tb_link_event *ev);
/* Moves up to max events out, stamping host_ms; returns how many. */
int tb_link__queue_pop(struct tb_link__queue *q, struct tb_link_event *ev, int max,
                       uint64_t now_ms);
static inline bool tb_link__queue_full(const struct tb_link__queue *q)
{
    return q->count == TB_LINK__QUEUE_CAP;
}

/* The board name given at open ("vi", "sighted"). */
const char *tb_link__board_name(const struct tb_link *link);

#endif /* LINK_INTERNAL_H */
