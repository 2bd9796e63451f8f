/* daemon_mode.h - the tables the table's session runs the game through: the mode played (the
 * twin game or doorgeefschaak), the effects in force (live or replay), the stores the records go
 * to, and the subscribers what was carried out is handed to. */
#ifndef TB_DAEMON_MODE_H
#define TB_DAEMON_MODE_H

#include <stdbool.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_config.h"
#include "tb_ctl.h"
#include "tb_journal.h"
#include "tb_voice.h"

/* Where the game's records go (daemon_journal.c). The journal store: appended to the journal and
 * made durable by a commit on the writer thread; the quiet store (recovery): nothing, the journal
 * holds them already. Each append returns TB_OK once the record is appended (a write that failed
 * stops play and keeps it in memory) or a negative error (not appended, said in the log); sync:
 * the record must be on disk before anything follows from it, so its commit starts and while
 * play is stopped it is refused (TB_ERR_STATE). */
struct tb_daemon;
struct tb_daemon__store {
    int (*append_event)(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t);
    int (*append_decision)(struct tb_daemon *d, uint16_t type, uint64_t t,
                           const struct tb_journal_decision *dec, bool sync);
    /* doorgeefschaak: an input the match took (a TB_JOURNAL_BUG_INPUT_BIN record) */
    int (*append_bug_input)(struct tb_daemon *d, uint64_t t, const struct tb_journal_bug_input *in,
                            bool sync);
    /* an agreed move, with the moves before it (a lost record is bridged with them) */
    int (*append_move)(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                       const char *san);
    /* Makes every record appended so far durable (the session's only way to the disk): TB_OK,
     * TB_ERR_AGAIN while the writer thread has it (its outcome is an input), or TB_ERR_SYS when
     * the journal cannot be written (play stops, said once). The quiet store: always TB_OK. */
    int (*commit)(struct tb_daemon *d);
};
extern const struct tb_daemon__store tb_daemon__journal_store, tb_daemon__quiet_store;

/* What the game's decisions do outside the daemon. Live: journal records, speech, the buttons'
 * answers; replay (recovery): nothing, the decisions logged at debug level. tb_daemon__fx gives the
 * one in force; no other code asks which. */
struct tb_daemon;
struct tb_daemon__effects {
    enum tb_config_log info, warn; /* levels of the decision lines in the log */
    bool stores; /* files kept beside the journal are written (the games kept, the BPGN) */
    bool acts;   /* the world outside hears and sees it: speech, displays, the hall */
    const struct tb_daemon__store *store; /* the journal's, or the quiet store in recovery */
    void (*speak)(struct tb_daemon *d, int board, const char *text, unsigned flags,
                  int move_number);
    void (*button)(struct tb_daemon *d, int board, int button); /* enum tb_link_button */
    /* the VI player on their own (daemon_vi.c): a button let go, the player's own move taken */
    void (*release)(struct tb_daemon *d, int board, int button);
    void (*confirm)(struct tb_daemon *d, int board, int what); /* enum tb_voice_confirm_what */
};
extern const struct tb_daemon__effects tb_daemon__live, tb_daemon__replay;

/* The table's listeners: what the game carried out, handed by the session and the game's
 * carry-out to each subscriber in the order they were registered (tb_daemon__subscribe, when
 * the daemon is made: the DGT clocks' display, the hall, the voice, the game's clock, the
 * broadcast, the braille displays). Every slot may be NULL. None journals, commits or lets the
 * game's time run; each keeps quiet in recovery as it does today, by the effects in force. */
struct tb_match_out;
struct tb_match_announce;
struct tb_bugmatch_out;
struct tb_daemon__subscriber {
    /* a twin game's output, before the game's own account of it (displays, the hall) */
    void (*on_output)(struct tb_daemon *d, const struct tb_match_out *o);
    /* a move or a board to put right, for a player's ears */
    void (*on_announce)(struct tb_daemon *d, const struct tb_match_announce *a);
    /* move ply agreed at t: on disk, the game's end by the rules already decided */
    void (*on_agreed)(struct tb_daemon *d, int ply, uint64_t t);
    void (*on_resolved)(struct tb_daemon *d); /* a mismatch resolved: the boards agree */
    /* a twin game's output, after everything else carried it out (the clock: a move presses it) */
    void (*on_done)(struct tb_daemon *d, const struct tb_match_out *o);
    /* the twin game's time has run to t and its outputs are carried out */
    void (*on_time)(struct tb_daemon *d, uint64_t t);
    /* an arbiter's action (a takeback, a resolution, a new position) done at t */
    void (*on_action)(struct tb_daemon *d, uint64_t t);
    /* play stopped by the journal may go on: whether it waits for that, then resumed at t (the
       match's time run on to t first) */
    bool (*waits_for_play)(const struct tb_daemon *d);
    void (*on_play)(struct tb_daemon *d, uint64_t t);
    /* doorgeefschaak: an output of the two games carried out */
    void (*on_bug_output)(struct tb_daemon *d, const struct tb_bugmatch_out *o);
    /* a player's button (enum tb_link_button) pressed at board, live only (daemon_vi.c asks):
       true when it has answered the player itself */
    bool (*on_button)(struct tb_daemon *d, int board, int button);
};
void tb_daemon__subscribe(struct tb_daemon *d); /* the list, registered once */
/* Each hands its input to every subscriber's slot, in the list's order. */
void tb_daemon__tell_output(struct tb_daemon *d, const struct tb_match_out *o);
void tb_daemon__tell_announce(struct tb_daemon *d, const struct tb_match_announce *a);
void tb_daemon__tell_agreed(struct tb_daemon *d, int ply, uint64_t t);
void tb_daemon__tell_resolved(struct tb_daemon *d);
void tb_daemon__tell_done(struct tb_daemon *d, const struct tb_match_out *o);
void tb_daemon__tell_time(struct tb_daemon *d, uint64_t t);
void tb_daemon__tell_action(struct tb_daemon *d, uint64_t t);
bool tb_daemon__tell_waits_for_play(const struct tb_daemon *d); /* true: one waits */
void tb_daemon__tell_play(struct tb_daemon *d, uint64_t t);
void tb_daemon__tell_bug_output(struct tb_daemon *d, const struct tb_bugmatch_out *o);
bool tb_daemon__tell_button(struct tb_daemon *d, int board, int button); /* true: answered */

/* The game the table plays: the twin game (the match and its clock: daemon_feed.c,
 * its outputs there too) or doorgeefschaak (the match of two games and its clocks: daemon_bug.c).
 * tb_daemon__mode gives the one played; the code around the game asks it, never which mode it is.
 */
struct tb_daemon__buf;
struct tb_hall_state;
struct tb_daemon__mode {
    const char *script_board[2]; /* a script's name of each board; NULL: the player's board */
    /* the hall: the table has one result (else each game its own); why resolve and takeback
       from the broker are refused (NULL: taken) */
    bool one_result;
    const char *hall_refusal;
    /* the control requests it takes (their rows' TB_CTL_TWIN or TB_CTL_BUG), its name and
       [bughouse] enabled's word in a refusal, and its own requests named there ("" for none) */
    unsigned ctl_modes;
    const char *name, *enabled, *requests;
    /* new-game: a mode that starts more than the arbiter's new game (NULL: the arbiter's) */
    int (*new_match)(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err);
    /* The session (daemon_session.c) runs these; none lets time run, drains or commits. */
    void (*tick)(struct tb_daemon *d, uint64_t t);   /* the game's time to t */
    void (*ticked)(struct tb_daemon *d, uint64_t t); /* its outputs carried out: may be NULL */
    /* a board input (journaled) into the game, then (may be NULL) answered once its outputs
       are carried out */
    int (*apply)(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
    void (*answer)(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
    /* the outputs, one at a time: the next one taken and held (false: none), whether it needs
       the journal on disk first (its record appended once: *written), carried out; drained
       (may be NULL): none is left */
    bool (*next)(struct tb_daemon *d);
    bool (*needs_disk)(struct tb_daemon *d, bool *written);
    void (*carry_out)(struct tb_daemon *d);
    void (*drained)(struct tb_daemon *d);
    void (*tell_wait)(struct tb_daemon *d); /* the journal holds play: every ear told */
    void (*status)(struct tb_daemon *d, struct tb_daemon__buf *out);
    int (*voice_open)(struct tb_daemon *d, struct tb_error *err);
    void (*voice_event)(struct tb_daemon *d, const struct tb_voice_event *ev);
    void (*hall_state)(struct tb_daemon *d, struct tb_hall_state *st); /* the games, clocks */
};
extern const struct tb_daemon__mode tb_daemon__twin, tb_daemon__doorgeefschaak;
/* The twin game's parts of its mode table kept beside what they show (daemon_export.c,
 * daemon_voice.c, daemon_hall.c). */
void tb_daemon__twin_status(struct tb_daemon *d, struct tb_daemon__buf *out);
int tb_daemon__twin_voice_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__twin_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
void tb_daemon__twin_hall_state(struct tb_daemon *d, struct tb_hall_state *st);

#endif /* TB_DAEMON_MODE_H */
