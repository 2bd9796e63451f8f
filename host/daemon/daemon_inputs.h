/* daemon_inputs.h - the table session's inputs (daemon_session.c): what a caller hands in (a
 * kind and its data) and the one table that says, per kind, how it is taken, which journal
 * records it writes, and how recovery reads such a record back into the same input. Private to
 * the daemon library. */
#ifndef TB_DAEMON_INPUTS_H
#define TB_DAEMON_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_ctl.h"
#include "tb_journal.h"

struct tb_daemon;
struct tb_error;

/* The one entry of every input into the game, live and in recovery: the game's time runs to it,
 * it is checked and its record appended, committed (the store's commit), applied, and each output
 * carried out only once its cause is on disk. */
enum tb_daemon__in_kind {
    TB_DAEMON__IN_TIME = 1, /* the game's time runs to t, its decisions carried out */
    TB_DAEMON__IN_DRAIN,    /* nothing new: what waits (held outputs, inputs) goes on if it can */
    TB_DAEMON__IN_BOARD,    /* a board event (lift, place, choice, reading, button, a link's loss,
                               return and faults for the record): journaled, then into the game */
    TB_DAEMON__IN_ACTION,   /* an arbiter action (req): done once its record is on disk */
    TB_DAEMON__IN_PROMOTE,  /* a promotion choice (which: the board, arg: the piece type) */
    TB_DAEMON__IN_TYPED,    /* a typed move (which: the board, text) */
    TB_DAEMON__IN_REQUEST,  /* a doorgeefschaak request (bug): drained even when refused */
    TB_DAEMON__IN_WRITTEN,  /* the writer thread's outcome (wait: block until there is one) */
    TB_DAEMON__IN_KINDS
};
struct tb_daemon__input {
    enum tb_daemon__in_kind kind;
    const struct tb_journal_event *board;   /* BOARD */
    const struct tb_ctl_request *req;       /* ACTION */
    int which, arg;                         /* PROMOTE, TYPED: a board, a piece */
    const char *text;                       /* TYPED */
    const struct tb_journal_bug_input *bug; /* REQUEST */
    bool wait;                              /* WRITTEN */
};
/* TB_OK, an error (err says why; nothing changed), or TB_ERR_AGAIN: its answer waits for the
 * journal (the session's ticket). */
int tb_daemon__input(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                     struct tb_error *err);

/* How the session takes a kind (daemon_session.c). */
enum tb_daemon__in_way {
    TB_DAEMON__WAY_TIME,    /* the game's time runs to t */
    TB_DAEMON__WAY_DRAIN,   /* the held outputs and the inputs that waited go on */
    TB_DAEMON__WAY_WRITTEN, /* the writer's outcome */
    TB_DAEMON__WAY_BOARD,   /* journaled, then into the game; waits while the game is held */
    TB_DAEMON__WAY_CHECKED, /* the time runs to t, take, commit: in force or done, answered */
};

/* Where a record's decode puts what the input points to. */
struct tb_daemon__in_data {
    struct tb_journal_event board;
    struct tb_ctl_request req;
    struct tb_journal_bug_input bug;
    char text[400]; /* a typed move, as journaled */
    char what[160]; /* the input in words, for recovery's log ("typed move e2e4") */
};

/* One row per kind (tb_daemon__inputs, daemon_inputs.c), indexed by kind. The columns:
 *  name     the input in words (the log, the table's test)
 *  way      how the session takes it
 *  records  the journal record types it writes; recovery replays each through this row (0 ends)
 *  take     CHECKED: checked, in force when apply is NULL, its record appended; lets no time run,
 *           drains nothing, commits nothing; refused (rc < 0): nothing changed, not journaled
 *  apply    CHECKED: done once its record is on disk, queued while the game is held (NULL: in
 *           force when taken)
 *  decode   a record of one of its types back into the input (data holds what it points to);
 *           TB_OK, or an error naming what is wrong (the record is skipped, nothing changes)
 *  changes_game  it changes the game and is journaled (false: the session's own: time, drain,
 *           the writer's outcome)
 *  refused_stopped  refused while the journal cannot be written (an action instead waits)
 *  drain_refused    a refusal still carries out what the match decided meanwhile
 *  pin      its control request needs the arbiter PIN (recovery gives it as checked)
 *  modes    the modes that take it (TB_CTL_TWIN, TB_CTL_BUG): recovery replays its records only
 *           in a journal of such a mode
 *  past_loss  recovery feeds it past a loss, before the next intact move record (false: its
 *           move record has it)
 *  quiet_refusal  refused again in recovery without a word here (the mode says a board event's;
 *           a promotion the button took first)
 *  ticket   enum tbd_ticket: the answer's kind while its record is written
 *  client_waits  a ticket is opened whoever hands it in (others: only for a control request
 *           that waits for its answer) */
struct tb_daemon__in_row {
    enum tb_daemon__in_kind kind;
    const char *name;
    enum tb_daemon__in_way way;
    uint16_t records[8];
    int (*take)(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                struct tb_error *err);
    int (*apply)(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                 struct tb_error *err);
    int (*decode)(struct tb_daemon *d, const struct tb_journal_record *rec,
                  struct tb_daemon__in_data *data, struct tb_daemon__input *in,
                  struct tb_error *err);
    bool changes_game, refused_stopped, drain_refused, pin;
    unsigned modes;
    bool past_loss, quiet_refusal;
    int ticket;
    bool client_waits;
};
extern const struct tb_daemon__in_row tb_daemon__inputs[TB_DAEMON__IN_KINDS];

/* The rows' parts in their own files: the take of a promotion choice (daemon_arbiter.c), of a
 * typed move (daemon_boards.c), of a doorgeefschaak request (daemon_bugctl.c); an arbiter
 * action's record back into its request (daemon_arbiter.c). */
int tb_daemon__promote_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                            struct tb_error *err);
int tb_daemon__typed_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                          struct tb_error *err);
int tb_daemon__bug_request_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                                struct tb_error *err);
int tb_daemon__arbiter_decode(const struct tb_journal_record *rec, struct tb_ctl_request *req,
                              struct tb_error *err);

/* The row of kind (NULL: none). The table comes through d->inputs, so the session and recovery
 * call nothing of daemon_inputs.c (it calls their parts' take and apply). */
static inline const struct tb_daemon__in_row *tb_daemon__in_row(const struct tb_daemon__in_row *tab,
                                                                int kind)
{
    return kind > 0 && kind < TB_DAEMON__IN_KINDS && (int)tab[kind].kind == kind ? &tab[kind]
                                                                                 : NULL;
}

/* The row that owns a journal record type (NULL: no input's record). */
static inline const struct tb_daemon__in_row *
tb_daemon__in_row_of_record(const struct tb_daemon__in_row *tab, uint16_t type)
{
    for (int k = 1; k < TB_DAEMON__IN_KINDS; k++)
        for (size_t i = 0;
             i < sizeof tab[k].records / sizeof tab[k].records[0] && tab[k].records[i]; i++)
            if ((int)tab[k].kind == k && tab[k].records[i] == type)
                return &tab[k];
    return NULL;
}

/* daemon_recover.c: how many of the input table's rows and recovery's own record rows own a
 * record type: 1 for each type recovery must replay (the input table's test). */
int tb_daemon__record_owners(const struct tb_daemon__in_row *inputs, uint16_t type);

#endif
