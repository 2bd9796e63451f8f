/* tb_table.h - the journaled game session of one table: what waits for the journal before it
 * goes into the game. Pure: no I/O, times passed in; the daemon writes the journal and asks
 * here what may go on.
 *
 * Nothing is agreed, said or done before its cause is on disk (docs/journal.md). While the
 * journal cannot be written play is stopped, and the inputs that came meanwhile (journaled in
 * memory) wait in one queue, in order, with their times; an arbiter action whose record is not
 * on disk yet waits in the same queue, at its place among them. */
#ifndef TB_TABLE_H
#define TB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_journal.h"

/* The journal as play sees it. The only transitions (tb_table_journal_to asserts each):
 *   WRITABLE -> STOPPED    a write failed (ENOSPC, EROFS, EIO ...): play stops, said once
 *   STOPPED  -> STOPPED    a retry failed too (its reason may differ)
 *   STOPPED  -> WRITABLE   a retry wrote every record kept in memory: play resumes
 * Nothing else moves it; WRITABLE -> WRITABLE is no transition and is refused. */
enum tb_table_journal { TB_TABLE_WRITABLE = 0, TB_TABLE_STOPPED };

/* Is from -> to in the list above? */
bool tb_table_journal_may(enum tb_table_journal from, enum tb_table_journal to);
/* Moves *state to to; a transition not in the list is a bug: asserted, and nothing changes. */
void tb_table_journal_to(enum tb_table_journal *state, enum tb_table_journal to);
const char *tb_table_journal_name(enum tb_table_journal state); /* "writable", "stopped" */

/* One input waiting for the journal. */
enum tb_table_held_kind {
    TB_TABLE_HELD_BOARD = 1, /* a board event, journaled already: into the game at t */
    TB_TABLE_HELD_ACTION,    /* the arbiter action whose record is seq: done once it is durable */
};
struct tb_table_held {
    enum tb_table_held_kind kind;
    uint64_t t;
    uint64_t seq;                  /* ACTION: its record */
    struct tb_journal_event board; /* BOARD */
};

/* The inputs that wait, oldest first. Zeroed is empty; tb_table_queue_free releases it. */
struct tb_table_queue {
    struct tb_table_held *v;
    size_t head, n, cap;
};
/* Appends a copy of h; TB_ERR_MEM (nothing changed) when it does not fit. */
int tb_table_queue_push(struct tb_table_queue *q, const struct tb_table_held *h);
/* The oldest into *out, taken off the queue; false when empty. The queue may grow meanwhile. */
bool tb_table_queue_pop(struct tb_table_queue *q, struct tb_table_held *out);
size_t tb_table_queue_count(const struct tb_table_queue *q);
void tb_table_queue_free(struct tb_table_queue *q);

#endif /* TB_TABLE_H */
