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

/* The output the game holds until its cause is on disk. The only transitions
 * (tb_table_output_to asserts each):
 *   NONE     -> HELD      taken from the mode: carried out once its cause is on disk
 *   HELD     -> APPENDED  its own record (an agreed move) appended, not yet on disk
 *   HELD     -> NONE      on disk: carried out
 *   APPENDED -> NONE      on disk: carried out
 * While it is HELD or APPENDED the game is frozen (no input, no tick); play stopped keeps it. */
enum tb_table_output { TB_TABLE_OUT_NONE = 0, TB_TABLE_OUT_HELD, TB_TABLE_OUT_APPENDED };
bool tb_table_output_may(enum tb_table_output from, enum tb_table_output to);
void tb_table_output_to(enum tb_table_output *state, enum tb_table_output to);

/* The arbiter action whose record is being written (one at a time). The only transitions
 * (tb_table_action_to asserts each):
 *   NONE    -> WAITS    its record appended, its commit under way: queued with the inputs
 *   WAITS   -> DURABLE  its record is on disk: done at its place in the queue
 *   DURABLE -> NONE     done
 * While it WAITS the game is frozen; an action is never done before its record is durable. */
enum tb_table_action { TB_TABLE_ACT_NONE = 0, TB_TABLE_ACT_WAITS, TB_TABLE_ACT_DURABLE };
bool tb_table_action_may(enum tb_table_action from, enum tb_table_action to);
void tb_table_action_to(enum tb_table_action *state, enum tb_table_action to);

/* What the players and the arbiter have heard of play held for the journal ("please wait", "the
 * arbiter has been called"). The only transitions (tb_table_notice_to asserts each):
 *   NONE -> TOLD  play stopped (the journal cannot be written) or a write stalls: said once
 *   TOLD -> NONE  a commit put everything on disk: play goes on, the log says how long it took
 * A commit that nobody was told to wait for leaves it NONE (the session does not move it). */
enum tb_table_notice { TB_TABLE_NOTICE_NONE = 0, TB_TABLE_NOTICE_TOLD };
bool tb_table_notice_may(enum tb_table_notice from, enum tb_table_notice to);
void tb_table_notice_to(enum tb_table_notice *state, enum tb_table_notice to);

/* The game is held (no input, no tick; inputs queued): play stopped, an output held, or an
 * action waiting for its record. */
bool tb_table_held(enum tb_table_journal journal, enum tb_table_output out,
                   enum tb_table_action act);

/* One input waiting for the journal: the items of the session's queue (a tb_fifo, tb_fifo.h). */
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

#endif /* TB_TABLE_H */
