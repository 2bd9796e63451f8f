/* daemon_table.h - the table session's own state (struct tb_daemon__session, d->session): the
 * game, its journal and the journal's writer, the request waiting for its record, what the
 * outputs carried out tell. Only the session's files include it (daemon_session.c,
 * daemon_journal.c, daemon_outputs.c, daemon_feed.c, daemon_arbiter.c, daemon_recover.c); the
 * others ask daemon_session.h. */
#ifndef TB_DAEMON_TABLE_H
#define TB_DAEMON_TABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon_session.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_fifo.h"
#include "tb_journal.h"
#include "tb_match.h"
#include "tb_table.h"

/* The journal cannot be written (ENOSPC, EROFS, EIO, EFBIG ...): play is stopped, as for a
 * mismatch, until a commit succeeds (daemon_journal.c). Meanwhile the match is frozen (no
 * input, no tick): the board inputs are journaled (kept in memory, in order) and queued here
 * with their times, the output that needed a durable journal is held; on resume they are taken
 * in order at their own times, as a replay of the journal would take them. */
#define TBD_JOURNAL_RETRY_MS 1000
struct tb_daemon__jstop {
    enum tb_table_journal state; /* STOPPED: play is stopped until a commit succeeds */
    int error;                   /* errno of the failed write */
    char reason[128];            /* strerror(error) */
    uint64_t retry_at;           /* tb_daemon__clock() of the next commit */
    unsigned long tries;         /* commits tried since play stopped */
    /* the twin game's output (out) or doorgeefschaak's taken and waiting for a durable journal;
       APPENDED: its record (MOVE_AGREED) is appended already (tb_table.h lists the moves) */
    enum tb_table_output out_state;
    struct tb_match_out out;
    struct tb_fifo in; /* struct tb_table_held: board inputs and an arbiter action, taken in
                          order on resume */
    /* journal writer (daemon_journal.c): held while a commit the game waits for is under way */
    enum tb_table_notice notice; /* the players have heard "please wait", once (tb_table) */
    bool draining; /* the session takes the inputs that waited (no second drain inside it) */
    size_t kept;   /* records in memory when the last retry started */
    /* an arbiter action whose record is not on disk yet (WAITS): queued in `in` (its time and
       record there), done once it is (DURABLE, then NONE; tb_table.h lists the moves) */
    enum tb_table_action act;
    struct tb_ctl_request act_req;
    uint64_t act_seq;
};
/* Play is stopped: the journal cannot be written. */
static inline bool tbd_stopped(const struct tb_daemon__jstop *js)
{
    return js->state == TB_TABLE_STOPPED;
}

/* The journal's writer thread (daemon_journal.c): commits and flushes run off the loop, so a disk
 * that stalls never blocks the control socket or the speech. While a commit the game waits for
 * is under way the game is held as when the journal cannot be written (inputs queued); a stall
 * longer than TBD_JOURNAL_STALL_MS is said to the players and the arbiter. */
#define TBD_JOURNAL_STALL_MS 2000
enum tbd_write { TBD_WRITE_NONE = 0, TBD_WRITE_FLUSH, TBD_WRITE_COMMIT };
/* A write under way that stalls, as the players and the arbiter have heard it: NONE -> SAID (it
 * has run TBD_JOURNAL_STALL_MS while the game waits for it: said once), SAID -> NONE (the next
 * write starts). */
enum tbd_stall { TBD_STALL_NONE = 0, TBD_STALL_SAID };
struct tb_daemon__written {
    enum tbd_write job;
    int rc, error;
    char msg[600];
};
struct tb_daemon__writer {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool inited, started;
    int efd; /* eventfd: a job has finished */
    /* under the lock: the job asked for, the last one's outcome */
    enum tbd_write job;
    bool quit, finished;
    int rc, error;
    char msg[600];
    /* the loop's own */
    enum tbd_write busy;  /* the job under way, NONE when idle */
    uint64_t since;       /* tb_daemon__clock() when it started */
    enum tbd_stall stall; /* this write's stall, said once */
    uint64_t flushed_seq; /* last record handed to a flush or commit */
};

/* A game-changing control request whose journal record is being written: answered once it is
 * on disk (an arbiter action: once it is done), or once the journal has failed. One at a time:
 * further game-changing requests wait while one is open or the game is held. */
enum tbd_ticket { TBD_TICKET_ACTION = 0, TBD_TICKET_PROMOTE, TBD_TICKET_TYPED, TBD_TICKET_REQUEST };
struct tb_daemon__ticket {
    unsigned long id; /* 0: none */
    enum tbd_ticket kind;
    bool answered;
    int rc;
    char msg[600];
    char said[TBD_TICKET_SAID]; /* the answer's text once it is on disk ("" for a bare ok) */
    uint64_t seq;               /* its record */
};

struct tb_daemon__subscriber;
struct tb_daemon__session {
    tb_match *match;
    struct tb_match_config mcfg;
    tb_chess_pos start;
    struct tb_journal *journal;
    struct tb_daemon__jstop jstop;
    struct tb_daemon__writer writer; /* the journal's writer thread */
    struct tb_daemon__ticket ticket; /* a game-changing request waiting for its record */
    unsigned long tickets;
    bool ticket_wanted; /* a control request runs: it waits for its record's answer */
    int agreed;         /* plies whose agreement is carried out (on disk): what clients are shown */
    struct tb_match_status shown;        /* the match's state as its outputs carried out tell it */
    const struct tb_daemon__effects *fx; /* &tb_daemon__live, or &tb_daemon__replay */
    const struct tb_daemon__mode *mode;  /* the twin game or doorgeefschaak */
    const struct tb_daemon__subscriber *const *subs; /* tb_daemon__subscribe */
    size_t nsubs;
    struct tb_daemon__note note[TBD_NOTES];
    int nnotes;
    char last_view[TBD_VIEW_MAX]; /* the arbiter's view of the open mismatch, "" if none */
    char result[8];               /* "*" or the result once the game has ended */
    char damage[400]; /* what a damaged journal cost at start ("" if nothing), for status */
};

/* daemon_journal.c */
int tb_daemon__journal_event(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t);
int tb_daemon__journal_move(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                            const char *san);
int tb_daemon__journal_bug_input(struct tb_daemon *d, uint64_t t,
                                 const struct tb_journal_bug_input *in, bool sync);
/* The journal cannot be written (errno error, the journal's words msg or NULL): play stops,
 * said once (players, log, status, the arbiter). */
void tb_daemon__journal_stop(struct tb_daemon *d, int error, const char *msg);
/* The live effects' commit (tb_daemon__live.commit): the session reaches it only through
 * the effects' store; a sync record starts it itself. */
int tb_daemon__store_commit(struct tb_daemon *d);

/* daemon_recover.c: the journal's records replayed (open found rec), past damage too. */
int tb_daemon__recover(struct tb_daemon *d, const struct tb_journal_recovery *rec,
                       struct tb_error *err);

/* The writer thread's finished job's outcome (false: none yet, unless wait). */
bool tb_daemon__writer_take(struct tb_daemon *d, bool wait, struct tb_daemon__written *out);
void tb_daemon__journal_free(struct tb_daemon *d);

/* daemon_outputs.c: the notes and their words */
int tb_daemon__plies(const struct tb_daemon *d); /* the match's game: plies agreed */
void tb_daemon__ply_words(int ply, char *buf, size_t len);
/* The PGN notes of a mismatch, a resolution, a touch report or held move (type TOUCH, HELD). */
void tb_daemon__note_mismatch(struct tb_daemon *d, unsigned id, const char *kind, int board,
                              int ply, const char *text);
void tb_daemon__note_resolved(struct tb_daemon *d, bool by_arbiter, const char *text);
const char *tb_daemon__note_what(uint16_t type);

/* daemon_arbiter.c: an arbiter's action as journaled (recovery) and as the session takes it */
/* The session's parts (daemon_session.c): the action checked and its record appended; the
 * action itself once its record is on disk (the session carries out its outputs). */
int tb_daemon__arbiter_take(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err);
int tb_daemon__arbiter_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                             struct tb_error *err);

#endif /* TB_DAEMON_TABLE_H */
