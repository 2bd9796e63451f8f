/* daemon_session.h - the table's session (daemon_session.c and the files of its state: the
 * journal, the outputs, the arbiter's actions, recovery): what the rest of the daemon asks of it.
 * Its state, struct tb_daemon__session (d->session), is its own (daemon_table.h): the other
 * files read the game through the functions here. */
#ifndef TB_DAEMON_SESSION_H
#define TB_DAEMON_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_journal.h"
#include "tb_match.h"

struct tb_daemon;
struct tb_daemon__effects;
struct tb_daemon__mode;

/* The session's state, made first in tb_daemon_new (nothing is read before it; the live
 * effects, the twin game, no result) and freed last in tb_daemon_free (the journal closed, the
 * match freed). */
int tb_daemon__session_new(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__session_free(struct tb_daemon *d);

/* ---- what the game is, for the other files ---- */
tb_match *tb_daemon__match(const struct tb_daemon *d); /* the twin game's match (NULL: none yet) */
const struct tb_match_config *tb_daemon__match_config(const struct tb_daemon *d);
void tb_daemon__set_match_config(struct tb_daemon *d, const struct tb_match_config *mcfg);
const tb_chess_pos *tb_daemon__start(const struct tb_daemon *d); /* the configured start */
/* The effects in force (tb_daemon__live, or tb_daemon__replay in recovery) and the mode played
 * (daemon_mode.h); doorgeefschaak sets its mode when [bughouse] opens it. */
const struct tb_daemon__effects *tb_daemon__fx(const struct tb_daemon *d);
const struct tb_daemon__mode *tb_daemon__mode(const struct tb_daemon *d);
void tb_daemon__set_mode(struct tb_daemon *d, const struct tb_daemon__mode *mode);
/* Plies whose agreement is carried out (on disk): what clients are shown. */
int tb_daemon__agreed(const struct tb_daemon *d);
/* The match's state as the outputs carried out tell it (the match may be a write ahead). */
const struct tb_match_status *tb_daemon__shown(const struct tb_daemon *d);
/* "*" or the game's result once it has ended (daemon_result.c, the clock's flag). */
const char *tb_daemon__result(const struct tb_daemon *d);
void tb_daemon__set_result(struct tb_daemon *d, const char *result);
/* What a damaged journal cost at start ("" if nothing), for status. */
const char *tb_daemon__damage(const struct tb_daemon *d);
/* The arbiter's view of a mismatch (tb_daemon__mismatch_view) fits in this. */
#define TBD_VIEW_MAX 8192

/* The game's notes for the PGN and status (touch reports, held moves, mismatches, the arbiter's
 * decisions), oldest first: the count, *notes the first. */
#define TBD_NOTES     256
#define TBD_NOTE_TEXT 300
struct tb_daemon__note {
    int ply;
    char text[TBD_NOTE_TEXT];
};
int tb_daemon__notes(const struct tb_daemon *d, const struct tb_daemon__note **notes);

/* ---- the journal, as the other files see it ---- */
struct tb_journal *tb_daemon__journal(const struct tb_daemon *d); /* NULL: none (yet) */
/* The journal closed (said in the log when that fails), and one opened at d->journal_path (its
 * I/O the options'; rec: what it holds): at start and for new-game. On failure there is none, e
 * says why. */
void tb_daemon__journal_close(struct tb_daemon *d);
int tb_daemon__journal_reopen(struct tb_daemon *d, struct tb_journal_recovery *rec,
                              struct tb_error *e);
/* Play is stopped: the journal cannot be written. */
bool tb_daemon__jstopped(const struct tb_daemon *d);
/* A commit or flush is under way on the writer thread. */
bool tb_daemon__writing(const struct tb_daemon *d);
/* The journal as the arbiter is told it (status, the hall): "ok", the failed write that stopped
 * play, or the slow write play waits for; 0 (buf "") without a journal, else the length. */
#define TBD_JOURNAL_HEALTH_MAX 256
int tb_daemon__journal_health(const struct tb_daemon *d, char *buf, size_t len);
/* true (err says why) while play is stopped because the journal cannot be written: requests
 * that would change the game are refused, nothing changes. */
bool tb_daemon__journal_stopped(struct tb_daemon *d, struct tb_error *err);
/* The loop's timer: retries the commit when due (on the writer thread) and says a write that
 * stalls. Returns when it is next due, or UINT64_MAX. */
uint64_t tb_daemon__journal_retry(struct tb_daemon *d, uint64_t now);
/* daemon_session.c: the game is held: the journal cannot be written, or an output or an arbiter
 * action waits for its record to be on disk. The match gets no input and no tick; board inputs
 * wait (journaled) in order and are taken at their own times once it is not. */
bool tb_daemon__journal_held(const struct tb_daemon *d);
/* daemon_session.c: blocks until nothing waits for the writer (in-process requests: answered as
 * over the socket). */
void tb_daemon__journal_settle(struct tb_daemon *d);
/* Board events appended and not yet written go to the writer (no sync), when it is idle. */
void tb_daemon__journal_flush(struct tb_daemon *d);
/* A decision's record appended (new-game: the next game's start, sync: on disk before play). */
int tb_daemon__journal_decision(struct tb_daemon *d, uint16_t type, uint64_t t,
                                const struct tb_journal_decision *dec, bool sync);

/* ---- a game-changing control request's answer (daemon_ctl.c, daemon_bugctl.c) ---- */
/* The request running now waits for its record's answer (a ticket is opened when it is
 * appended). */
void tb_daemon__ticket_want(struct tb_daemon *d, bool wanted);
/* The open ticket's id (0: none), and whether it still waits for its answer. */
unsigned long tb_daemon__ticket_id(const struct tb_daemon *d);
bool tb_daemon__ticket_waits(const struct tb_daemon *d);
/* The answer's text once it is on disk ("" for a bare ok): read, or set by the request. */
#define TBD_TICKET_SAID 300
const char *tb_daemon__ticket_said(const struct tb_daemon *d);
void tb_daemon__ticket_say(struct tb_daemon *d, const char *said);
/* The outcome of ticket id, once there is one (the ticket is closed): TB_OK, or an error err
 * names. TB_ERR_AGAIN: not yet. */
int tb_daemon__ticket_outcome(struct tb_daemon *d, unsigned long id, struct tb_error *err);

/* daemon_session.c: the one entry of every input, tb_daemon__input: daemon_inputs.h */

/* daemon_outputs.c */
const char *tb_daemon__color_name(int color); /* "White", "Black" */
void tb_daemon__note(struct tb_daemon *d, int ply, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tb_daemon__mismatch_view(const struct tb_daemon *d, const struct tb_match_mismatch *mm,
                              char *buf, size_t len);

/* The promotion piece type of a letter ('q', 'R' ...; the chess core's FEN letters), or 0. */
static inline int tb_daemon__promotion(char c)
{
    int p = TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(c));
    return p >= TB_CHESS_KNIGHT && p <= TB_CHESS_QUEEN ? p : 0;
}

/* daemon_arbiter.c: requests that change the game; journal first, then the match. One table
 * of the arbiter's actions serves the control handler and recovery. */
int tb_daemon__arbiter(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err);
int tb_daemon__promote(struct tb_daemon *d, int board, int ptype, struct tb_error *err);

/* daemon_arbiter.c: a promotion choice taken at t (the promote button's, daemon_vi.c) */
int tb_daemon__promote_at(struct tb_daemon *d, int board, int ptype, uint64_t t,
                          struct tb_error *err);

#endif /* TB_DAEMON_SESSION_H */
