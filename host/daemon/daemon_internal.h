/* daemon_internal.h - twinboardd's state, shared by the files of the daemon library. */
#ifndef TB_DAEMON_INTERNAL_H
#define TB_DAEMON_INTERNAL_H

#include <poll.h>
#include <pthread.h>
#include <stdarg.h>

#include "tb_broadcast.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_daemon.h"
#include "tb_journal.h"
#include "tb_link.h"
#include "tb_match.h"
#include "tb_table.h"
#include "tb_voice.h"

#define TBD_BOARDS          2
#define TBD_MAX_CLIENTS     64    /* connections in total (docs/control-protocol.md, "Limits") */
#define TBD_MAX_CLIENTS_UID 16    /* connections of one peer uid */
#define TBD_REQUEST_MS      10000 /* a connection sends a whole request within this, or is dropped */
#define TBD_WHY_MAX         160   /* why a game ended: "the arbiter's decision: " and the reason */
#define TBD_OUT_MAX         (1u << 20) /* a client that lets this much answer pile up is dropped */
#define TBD_NOTES           256
#define TBD_NOTE_TEXT       300

struct tb_daemon__client {
    int fd;
    int timer_fd; /* due: a held PIN check or answer, or more requests already read */
    uint32_t uid; /* the peer (SO_PEERCRED) */
    int32_t pid;
    struct tb_ctl_reader reader;
    char in[4096]; /* read, not yet taken: one request per loop turn */
    size_t in_off, in_len;
    struct tb_ctl_request held; /* a PIN request waiting until its check may be made */
    bool held_on;
    char *answer;   /* a wrong PIN's answer, held back until the timer */
    uint64_t since; /* connected or last answered (monotonic ms): TBD_REQUEST_MS from here */
    bool timer_due;
    char *out;
    size_t out_len, out_cap;
    bool closing; /* close once out is written */
    /* journal writer: a game-changing request waits for the journal (nothing read meanwhile) */
    unsigned long ticket;       /* its answer comes with d->ticket of this id */
    struct tb_ctl_request wait; /* PIN checked: served once the game is no longer held */
    bool wait_on;
};

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
 * answers; replay (recovery): nothing, the decisions logged at debug level. d->fx points at one;
 * no other code asks which. */
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

/* The game the table plays: the twin game (the match and its clock: daemon_feed.c,
 * daemon_outputs.c) or doorgeefschaak (the match of two games and its clocks: daemon_bug.c).
 * d->mode points at one; the code around the game asks it, never which mode it is. */
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
    /* recovery: a TB_JOURNAL_BUG_INPUT_BIN (or _TEXT) record (a request the mode took) */
    void (*record)(struct tb_daemon *d, const struct tb_journal_record *rec, uint64_t t);
    void (*hall_state)(struct tb_daemon *d, struct tb_hall_state *st); /* the games, clocks */
};
extern const struct tb_daemon__mode tb_daemon__twin, tb_daemon__doorgeefschaak;

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
    struct tb_table_queue in; /* board inputs and an arbiter action, taken in order on resume */
    /* journal writer (daemon_writer.c): held while a commit the game waits for is under way */
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
static inline bool tb_daemon__jstopped(const struct tb_daemon__jstop *js)
{
    return js->state == TB_TABLE_STOPPED;
}

/* The journal's writer thread (daemon_writer.c): commits and flushes run off the loop, so a disk
 * that stalls never blocks the control socket or the speech. While a commit the game waits for
 * is under way the game is held as when the journal cannot be written (inputs queued); a stall
 * longer than TBD_JOURNAL_STALL_MS is said to the players and the arbiter. */
#define TBD_JOURNAL_STALL_MS 2000
enum tbd_write { TBD_WRITE_NONE = 0, TBD_WRITE_FLUSH, TBD_WRITE_COMMIT };
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
    bool stall_said;      /* this write's stall said, once (a latch reset by each new write) */
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
    char said[300]; /* the answer's text once it is on disk ("" for a bare ok) */
    uint64_t seq;   /* its record */
};

/* The VI player on their own (daemon_vi.c), per board: the promote button's choice not yet
 * taken, the buttons held down (a long press is told at its release), the review playing. */
struct tb_daemon__vi {
    int choice;         /* the piece the promote button offers now, 0 = none */
    int cycle;          /* its place in the cycle queen, rook, bishop, knight */
    uint64_t choice_at; /* when it is taken: the last press + promote_settle_ms */
    bool no_promotion;  /* the promote button went down with no promotion to make */
    bool held[TB_LINK_BUTTONS];
    uint64_t down_at[TB_LINK_BUTTONS];
    long review_id; /* the last sentence of the review playing, 0 = none */
    int told_ply;   /* the player's own move last confirmed (a reminder is not confirmed again) */
    tb_chess_move told_move;
};

struct tb_daemon__braille; /* daemon_braille.c */
/* The game's end (daemon_result.c): by the rules (after an agreed move) or by the result request;
 * kept so a broadcast opened after recovery shows it too. */
struct tb_daemon__end {
    bool by_request;           /* else by the rules */
    struct tb_ctl_request req; /* the result request (by_request) */
    char why[TBD_WHY_MAX];     /* "checkmate (5.1.1)", "White resigns (5.1.2)" ... */
    int ply;                   /* plies of the game when it ended; -1 while playing */
};

struct tb_daemon__hall; /* daemon_hall.c */

struct tb_daemon__note {
    int ply;
    char text[TBD_NOTE_TEXT];
};

/* Put-right lists (D.2.9) stay readable: at most this many squares in one spoken instruction,
 * at most TBD_FIX_STEPS_PER_LINE steps on one line of the arbiter's view. */
#define TBD_PUT_RIGHT_SQUARES  6
#define TBD_FIX_STEPS_PER_LINE 4

/* Games kept (daemon_games.c): the running game's name, made of its tags (d->tags). */
struct tb_daemon__game {
    char name[256]; /* "2026-11-24_r3_Anna_Schmidt-Bert_Meier": its journal's and PGN's name */
};

struct tb_daemon {
    struct tb_daemon_options opt;
    struct tb_config *cfg; /* &opt.cfg */
    char socket_path[TB_CONFIG_PATH_MAX];
    char journal_path[TB_CONFIG_PATH_MAX + 32];

    /* clock */
    uint64_t mono_start, base_ms;
    bool virtual_time; /* some board is a fast sim: the match runs on script time */
    uint64_t vnow;     /* virtual time: the latest time fed to the match */
    uint64_t last_mt;  /* latest time given to the match */

    tb_match *match;
    struct tb_match_config mcfg;
    tb_chess_pos start;
    struct tb_daemon__boards *boards; /* the two boards: links, events (daemon_boards.c) */

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

    struct tb_voice *voice;
    struct tb_voice_pack *pack[TBD_BOARDS];
    char wav_path[TBD_BOARDS][TB_CONFIG_PATH_MAX + 32];
    long last_say_id[TBD_BOARDS];
    uint64_t turn_start, used_ms[2]; /* D.2.6: time used per colour, from the boards' moves */

    int listen_fd;
    struct tb_daemon__client client[TBD_MAX_CLIENTS];
    int nclients;
    bool ctl_opened;                 /* lock_fd and sweep_fd are valid */
    int lock_fd;                     /* flock'd lock file beside the socket */
    int sweep_fd;                    /* timerfd: the next client's request deadline */
    struct tb_ctl_guard guard;       /* wrong PINs: delays and lockouts */
    struct tb_ctl_loglimit refusals; /* refused requests in the log (daemon_refusals.c) */
    /* set-pin: the configuration's PIN (what a kept PIN replaced), the request's peer */
    char configured_pin[TB_CONFIG_PIN_MAX + 1];
    uint32_t req_uid;
    int32_t req_pid;
    int wake_pipe[2];

    struct tb_daemon__vi vi[TBD_BOARDS];
    struct tb_daemon__braille *braille[TBD_BOARDS];

    struct tb_daemon__note note[TBD_NOTES];
    int nnotes;
    char last_view[8192]; /* the arbiter's view of the open mismatch, "" if none */
    char result[8];       /* "*" or the result once the game has ended */
    char damage[400];     /* what a damaged journal cost at start ("" if nothing), for status */
    struct tb_daemon__game game; /* games kept */

    struct tb_daemon__clk *clk; /* the game's clock (daemon_clock.c) */

    bool stop, done;
    unsigned long wakeups, events;

    /* broadcast (daemon_broadcast.c): the agreed game shown; the game's tags and its end */
    tb_broadcast *bc;
    tb_chess_game *bc_game;              /* what the broadcast shows (the agreed game fed last) */
    struct tb_broadcast_clock bc_clock;  /* and the clock shown with it */
    struct tb_daemon__bcdelay *bc_delay; /* the changes [broadcast] delay holds back */
    uint64_t bc_due;                     /* its next due time, as its pollfds found it */
    struct tb_broadcast_tags tags;       /* this game's PGN tags: configuration, then new-game */
    struct tb_daemon__end end;

    /* hall (daemon_hall.c): the table on the MQTT broker; NULL when [hall] is off */
    struct tb_daemon__hall *hall;

    /* doorgeefschaak (daemon_bug.c): the match of two games; NULL unless [bughouse] enabled */
    struct tb_daemon__bug *bug;
};

/* daemon.c */
uint64_t tb_daemon__clock(const struct tb_daemon *d);
uint64_t tb_daemon__match_time(struct tb_daemon *d);
void tb_daemon__log(struct tb_daemon *d, enum tb_config_log level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* daemon_refusals.c: a request of peer (a uid, or tb_ctl_guard_peer_named) refused: logged at
 * level as it is while few come, else counted and summed up per peer once a minute
 * (docs/control-protocol.md, "The log"). Times are CLOCK_MONOTONIC ms, as the guard's. */
uint64_t tb_daemon__mono_ms(void);
void tb_daemon__refusal(struct tb_daemon *d, uint64_t peer, bool wrong_pin,
                        enum tb_config_log level, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void tb_daemon__refusals_flush(struct tb_daemon *d); /* the summary of a minute that ended */
void tb_daemon__peer_name(uint64_t peer, char *buf, size_t len); /* "uid 1000" */

/* One part of the daemon, as a libuv handle or a BRLTTY driver: an ops table the loop asks in
 * turn (daemon.c, its parts list). A slot a part has no use for is NULL. */
struct tb_daemon__part {
    const char *name;
    /* At tb_daemon_new, in the list's opening order; err names what failed. */
    int (*open)(struct tb_daemon *d, struct tb_error *err);
    /* At tb_daemon_free, in the reverse order: idempotent, safe on a part never opened and after
     * a failed open. */
    void (*close)(struct tb_daemon *d);
    /* Fills at most max pollfds (fd -1: poll skips it) and returns how many; each turn. */
    int (*pollfds)(struct tb_daemon *d, struct pollfd *p, int max);
    /* Each turn after the poll, with the part's own slice of the revents (all 0 when the poll
     * timed out); negative: the loop stops with that error. */
    int (*handle)(struct tb_daemon *d, const struct pollfd *p, int n);
    /* Its next due time on the daemon's clock (UINT64_MAX: none), asked after its pollfds. */
    uint64_t (*deadline)(struct tb_daemon *d);
    /* Its deadline is the match's: frozen while the journal holds play, and left to the scripts'
     * own times in virtual time. */
    bool match_time;
};
extern const struct tb_daemon__part tb_daemon__part_boards, tb_daemon__part_ctl,
    tb_daemon__part_hall, tb_daemon__part_broadcast, tb_daemon__part_braille, tb_daemon__part_voice,
    tb_daemon__part_clock, tb_daemon__part_games, tb_daemon__part_writer;
/* daemon_parts.c: the same TBD_NPARTS parts in the order they are opened (closed in the reverse)
 * and in the order each turn serves them. */
enum { TBD_NPARTS = 9 };
extern const struct tb_daemon__part *const tb_daemon__parts_opened[];
extern const struct tb_daemon__part *const tb_daemon__parts_served[];

/* daemon_session.c: the one entry of every input into the game, live and in recovery: the
 * game's time runs to it, it is checked and its record appended, committed (d->fx->commit),
 * applied, and each output carried out only once its cause is on disk. */
enum tb_daemon__in_kind {
    TB_DAEMON__IN_TIME = 1, /* the game's time runs to t, its decisions carried out */
    TB_DAEMON__IN_DRAIN,    /* nothing new: what waits (held outputs, inputs) goes on if it can */
    TB_DAEMON__IN_BOARD,    /* a board event (lift, place, choice, reading, button, a link's loss,
                               return and faults for the record): journaled, then into the game */
    TB_DAEMON__IN_ACTION,   /* an arbiter action (req): done once its record is on disk */
    TB_DAEMON__IN_PROMOTE,  /* a promotion choice (take) */
    TB_DAEMON__IN_TYPED,    /* a typed move (take) */
    TB_DAEMON__IN_REQUEST,  /* a doorgeefschaak request (take): drained even when refused */
    TB_DAEMON__IN_WRITTEN,  /* the writer thread's outcome (wait: block until there is one) */
};
struct tb_daemon__input {
    enum tb_daemon__in_kind kind;
    const struct tb_journal_event *board; /* BOARD */
    const struct tb_ctl_request *req;     /* ACTION */
    /* PROMOTE, TYPED, REQUEST: the mode's part, checked, applied and its record appended (it
     * neither lets time run nor drains nor commits); refused while play is stopped if
     * check_stopped */
    int (*take)(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                struct tb_error *err);
    bool check_stopped;
    int which, arg;                         /* take's: a board or seat, a piece */
    const char *text;                       /* take's: a typed move */
    const struct tb_journal_bug_input *bug; /* take's: a doorgeefschaak request */
    const struct tb_journal_record *rec;    /* take's: a record replayed */
    bool wait;                              /* WRITTEN */
};
/* TB_OK, an error (err says why; nothing changed), or TB_ERR_AGAIN: its answer waits for the
 * journal (d->ticket). */
int tb_daemon__input(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                     struct tb_error *err);

/* daemon_outputs.c */
const char *tb_daemon__color_name(int color); /* "White", "Black" */
/* The twin game's parts of the mode table (tb_daemon__twin, daemon_feed.c). */
bool tb_daemon__twin_next(struct tb_daemon *d);
bool tb_daemon__twin_needs_disk(struct tb_daemon *d, bool *written);
void tb_daemon__twin_carry_out(struct tb_daemon *d);
void tb_daemon__twin_status(struct tb_daemon *d, struct tb_daemon__buf *out);
int tb_daemon__twin_voice_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__twin_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
void tb_daemon__twin_hall_state(struct tb_daemon *d, struct tb_hall_state *st);
void tb_daemon__note(struct tb_daemon *d, int ply, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tb_daemon__mismatch_view(const struct tb_daemon *d, const struct tb_match_mismatch *mm,
                              char *buf, size_t len);
void tb_daemon__ply_words(int ply, char *buf, size_t len);
/* The PGN notes of a mismatch, a resolution, a touch report or held move (type TOUCH, HELD). */
void tb_daemon__note_mismatch(struct tb_daemon *d, unsigned id, const char *kind, int board,
                              int ply, const char *text);
void tb_daemon__note_resolved(struct tb_daemon *d, bool by_arbiter, const char *text);
const char *tb_daemon__note_what(uint16_t type);

/* The promotion piece type of a letter ('q', 'R' ...; the chess core's FEN letters), or 0. */
static inline int tb_daemon__promotion(char c)
{
    int p = TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(c));
    return p >= TB_CHESS_KNIGHT && p <= TB_CHESS_QUEEN ? p : 0;
}

/* daemon_arbiter.c: requests that change the game; journal first, then the match. One table
 * of the arbiter's actions serves the control handler and recovery. */
int tb_daemon__arbiter(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err);
bool tb_daemon__is_arbiter_record(uint16_t type);
/* Recovery: an arbiter's action as journaled, taken again. */
int tb_daemon__arbiter_record(struct tb_daemon *d, const struct tb_journal_record *rec,
                              struct tb_error *err);
/* The session's parts (daemon_session.c): the action checked and its record appended; the
 * action itself once its record is on disk (the session carries out its outputs). */
int tb_daemon__arbiter_take(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err);
int tb_daemon__arbiter_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                             struct tb_error *err);
int tb_daemon__promote(struct tb_daemon *d, int board, int ptype, struct tb_error *err);

/* daemon_journal.c */
int tb_daemon__journal_open(struct tb_daemon *d, struct tb_error *err);
int tb_daemon__journal_event(struct tb_daemon *d, const struct tb_journal_event *je, uint64_t t);
int tb_daemon__journal_decision(struct tb_daemon *d, uint16_t type, uint64_t t,
                                const struct tb_journal_decision *dec, bool sync);
int tb_daemon__journal_move(struct tb_daemon *d, uint64_t t, int board, int ply, tb_chess_move m,
                            const char *san);
int tb_daemon__journal_bug_input(struct tb_daemon *d, uint64_t t,
                                 const struct tb_journal_bug_input *in, bool sync);
/* The journal cannot be written (errno error, the journal's words msg or NULL): play stops,
 * said once (players, log, status, the arbiter). */
void tb_daemon__journal_stop(struct tb_daemon *d, int error, const char *msg);
/* The live effects' commit (tb_daemon__live.commit): the session reaches it only through
 * d->fx->commit; a sync record starts it itself. */
int tb_daemon__store_commit(struct tb_daemon *d);
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

/* daemon_recover.c: the journal's records replayed (open found rec), past damage too. */
int tb_daemon__recover(struct tb_daemon *d, const struct tb_journal_recovery *rec,
                       struct tb_error *err);

/* daemon_writer.c: the writer thread. start: TB_ERR_AGAIN while a job runs. take: the finished
 * job's outcome (false: none yet, unless wait). */
int tb_daemon__writer_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__writer_close(struct tb_daemon *d);
int tb_daemon__writer_start(struct tb_daemon *d, enum tbd_write job, uint64_t now);
bool tb_daemon__writer_take(struct tb_daemon *d, bool wait, struct tb_daemon__written *out);
void tb_daemon__journal_free(struct tb_daemon *d);

/* daemon_voice.c */
void tb_daemon__say(struct tb_daemon *d, const struct tb_match_announce *a);
void tb_daemon__say_msg(struct tb_daemon *d, int board, enum tb_voice_msg msg,
                        const struct tb_voice_msg_args *args, unsigned flags);
void tb_daemon__repeat(struct tb_daemon *d, int board);
bool tb_daemon__voice_idle(struct tb_daemon *d);

/* daemon_vi.c: the VI player on their own (docs/guide-vi-player.md) */
/* Before a board input at t is journaled (the session has taken the choices due by t): a
 * clock press takes its board's choice at once (its record must precede the press's), and a
 * review is cut by any event of its player's board. */
void tb_daemon__vi_before_input(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
/* A promote button's choice due by t: the match ticked to *due and its board, or -1 (none, or
 * play stopped); the session carries out the outputs, then tb_daemon__vi_take takes it. */
int tb_daemon__vi_next(struct tb_daemon *d, uint64_t t, uint64_t *due);
void tb_daemon__vi_take(struct tb_daemon *d, int board, uint64_t t);
/* The earliest choice still to take, or UINT64_MAX. */
uint64_t tb_daemon__vi_deadline(const struct tb_daemon *d);
/* 6.2.1: the player at board pressed the clock: the move is ended (7.5.2); the session carries
 * out the move and its confirmation before the clock's own words. */
void tb_daemon__end_move(struct tb_daemon *d, int board, uint64_t t);
/* Live buttons: a press (every button) and the promote button's own press. */
void tb_daemon__vi_press(struct tb_daemon *d, int board, int button);
void tb_daemon__vi_release(struct tb_daemon *d, int board, int button);
void tb_daemon__vi_confirm(struct tb_daemon *d, int board, int what);
/* A move was told to the player at a->board: the mover's confirmation and braille. */
void tb_daemon__vi_told(struct tb_daemon *d, const struct tb_match_announce *a, const char *text);
/* A review request into the player's ears (logged as "review to NAME (Colour): text"); the
 * text is malloc'd into *text when text is not NULL. Returns the length or an error. */
int tb_daemon__review(struct tb_daemon *d, int board, int what, int arg, char **text);
/* The `review` control request: said to the player, the text as data lines; the scoresheet also
 * as a WAV file in the journal directory when there is speech. */
struct tb_daemon__buf;
void tb_daemon__review_request(struct tb_daemon *d, const struct tb_ctl_request *req,
                               struct tb_daemon__buf *out);
void tb_daemon__vi_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
int tb_daemon__promote_at(struct tb_daemon *d, int board, int ptype, uint64_t t,
                          struct tb_error *err);

/* daemon_braille.c: each player's braille display (docs/braille.md) */
/* What the player was told (a move to copy, their own move, a message) and the game so far,
 * onto the display. */
enum { TBD_BRAILLE_MESSAGE, TBD_BRAILLE_TO_COPY, TBD_BRAILLE_OWN_MOVE };
void tb_daemon__braille_said(struct tb_daemon *d, int board, int what, const char *text);
void tb_daemon__braille_game(struct tb_daemon *d);
/* daemon_audio.c (audio devices: probed before the game, lost and back during it) */
/* The PortAudio device an audio entry names: NULL for null, none and wav:, "" for the default. */
const char *tb_daemon__audio_target(const char *audio);
/* Each player's PortAudio device: an unknown or ambiguous name is the error (naming the player
 * and the devices there are); the devices found are logged. */
int tb_daemon__audio_probe(struct tb_daemon *d, struct tb_error *err);
/* TB_VOICE_DEVICE_LOST and _BACK: logged. */
void tb_daemon__audio_event(struct tb_daemon *d, const struct tb_voice_event *ev);
/* "audio: White ok, Black LOST for 12 s (...)" for status; "" without speech. */
void tb_daemon__audio_status(struct tb_daemon *d, char *buf, size_t len);

/* daemon_ctl.c */
/* Requests that waited for the journal: answered or served now if they can be. */
void tb_daemon__ctl_waiting(struct tb_daemon *d);
/* Runs one request line, appending the response to an output buffer. */
struct tb_daemon__buf {
    char *p;
    size_t len, cap;
    bool failed;
    unsigned long ticket; /* no answer yet: it comes with d->ticket of this id */
};
void tb_daemon__buf_put(struct tb_daemon__buf *b, const char *s, size_t n);
/* An arbiter's action from inside the daemon (the hall's broker), taken as a socket client's
 * request is and never waiting on the loop: TB_ERR_AGAIN while it waits for the journal, before
 * it is taken (*ticket 0: start it again later) or for its record (*ticket set: ask
 * tb_daemon__arbiter_outcome, TB_ERR_AGAIN until it is on disk); else its outcome. */
int tb_daemon__arbiter_start(struct tb_daemon *d, const struct tb_ctl_request *req,
                             unsigned long *ticket, struct tb_error *err);
int tb_daemon__arbiter_outcome(struct tb_daemon *d, unsigned long ticket, struct tb_error *err);
/* Runs one request, parsed and its PIN checked, appending the response to out. */
void tb_daemon__request(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out);
/* The handler of each request (its row's in TB_CTL_VERBS): answers into out itself
 * (TBD_ANSWERED), or returns TB_OK ("ok") or an error err names; TB_ERR_AGAIN with d->ticket
 * open: answered once its record is on disk. */
#define TBD_ANSWERED 1
#define TBD_CTL_HANDLER(id, name, min, max, flags, h, ...)                                         \
    int tb_daemon__ctl_##h(struct tb_daemon *d, const struct tb_ctl_request *req,                  \
                           struct tb_daemon__buf *out, struct tb_error *err);
TB_CTL_VERBS(TBD_CTL_HANDLER)
#undef TBD_CTL_HANDLER

/* daemon_paths.c: the socket's and the journal's directories made and checked (never a
 * symbolic link, a directory another user may write to, or a default in /tmp). */
int tb_daemon__paths_prepare(struct tb_daemon *d, struct tb_error *err);

/* daemon_pin.c: the arbiter PIN changed without a restart (set-pin), kept in the state
 * directory; the length warning at start. */
void tb_daemon__pin_start(struct tb_daemon *d);
int tb_daemon__set_pin(struct tb_daemon *d, const struct tb_ctl_request *req, uint32_t uid,
                       int32_t pid, char *note, size_t len, struct tb_error *err);
/* daemon_dgt.c (DGT): a match output on the boards' clock displays, live only; a clock
 * reading logged (a press, D.2.4, at info level) */
void tb_daemon__dgt_display(struct tb_daemon *d, const struct tb_match_out *o);
/* A board with lights (TB_LINK_CAP_LEDS): the last agreed move's squares lit (a repeat asked). */
void tb_daemon__eboard_show_last(struct tb_daemon *d, int board);
void tb_daemon__dgt_clock(struct tb_daemon *d, int board, const struct tb_link_event *ev);

/* daemon_export.c */
void tb_daemon__status(struct tb_daemon *d, struct tb_daemon__buf *out);
/* The journal as the arbiter is told it (status, the hall): "ok", the failed write that stopped
 * play, or the slow write play waits for; 0 (buf "") without a journal, else the length. */
#define TBD_JOURNAL_HEALTH_MAX 256
int tb_daemon__journal_health(const struct tb_daemon *d, char *buf, size_t len);
void tb_daemon__moves(struct tb_daemon *d, struct tb_daemon__buf *out);
int tb_daemon__pgn(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                   struct tb_daemon__buf *out);
/* Data lines of text (split at '\n') as ok+ ... . */
void tb_daemon__data(struct tb_daemon__buf *out, const char *head, const char *text);
/* The running game as PGN (or a scoresheet), malloc'd into *text; its length or an error. */
int tb_daemon__pgn_text(struct tb_daemon *d, enum tb_chess_letters letters, bool scoresheet,
                        char **text);

/* daemon_games.c (games kept: one journal and one PGN per game, named by date, round and
 * players) */
/* A new game's name, made of its tags (d->tags, set by tb_daemon__game_tags); the name and the
 * tags are written to JOURNAL_DIR/current.name. */
void tb_daemon__game_begin(struct tb_daemon *d);
/* The unfinished game's name and tags after a restart (current.name). */
void tb_daemon__game_recover(struct tb_daemon *d);
/* Writes the game's PGN as JOURNAL_DIR/NAME.pgn (live only). */
void tb_daemon__game_keep(struct tb_daemon *d);
/* new-game: the finished game's journal kept as NAME.tbj, a fresh current.tbj for the next
 * game (its tags from the request, as tb_daemon__game_tags takes them), its start recorded at t. */
int tb_daemon__game_next(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         struct tb_error *err);
/* The games request: the running game, then every game kept in the journal directory. */
void tb_daemon__games(struct tb_daemon *d, struct tb_daemon__buf *out);

/* daemon_broadcast.c: the agreed game as a virtual DGT board and a live PGN (docs/broadcast.md).
 * Every call is a no-op while [broadcast] is off. */
/* The tags of a new game: the configuration's, with a new-game request's over them. */
void tb_daemon__game_tags(struct tb_daemon *d, const struct tb_ctl_request *req);
/* An agreed move (ply of the match's game): shown at once, in order. */
void tb_daemon__broadcast_move(struct tb_daemon *d, int ply, uint64_t t);
/* A new game (new-game, set-position): its start and tags shown, a new PGN file. */
void tb_daemon__broadcast_new_game(struct tb_daemon *d);
/* The result request of the game (d->end), as the broadcast takes it (it judges flags and claims
 * by the same rules). */
void tb_daemon__broadcast_result(struct tb_daemon *d);
/* The agreed game, whatever changed it (takeback, resolution, set-position, new game, result). */
void tb_daemon__broadcast_sync(struct tb_daemon *d, uint64_t t);
/* The clock as it stands shown when it changed (a press, a pause, a correction, a DGT clock's
 * reading): the virtual board's clock and the next move's [%clk] follow it. */
void tb_daemon__broadcast_clock(struct tb_daemon *d);
/* daemon_bcdelay.c: [broadcast] delay, between the agreed game and the library: the changes
 * (times on the daemon's clock), each handed over once it is delay old, in order. It calls only
 * the library: the daemon's files log what it reports. TB_ERR_MEM when a change cannot be kept. */
enum { TB_DAEMON__BCDELAY_NEW_GAME = 1, TB_DAEMON__BCDELAY_AGREED, TB_DAEMON__BCDELAY_RESULT };
struct tb_daemon__bcdelay *tb_daemon__bcdelay_new(void);
void tb_daemon__bcdelay_free(struct tb_daemon__bcdelay *q);
int tb_daemon__bcdelay_new_game(struct tb_daemon__bcdelay *q, const struct tb_broadcast_tags *tags,
                                const tb_chess_pos *start, uint64_t now);
/* clk_ms: each ply's [%clk] as recorded (may be NULL), for tb_broadcast_agreed_clk. */
int tb_daemon__bcdelay_agreed(struct tb_daemon__bcdelay *q, const tb_chess_game *g,
                              const uint64_t *clk_ms, const struct tb_broadcast_clock *clock,
                              uint64_t now);
int tb_daemon__bcdelay_result(struct tb_daemon__bcdelay *q, const struct tb_broadcast_end *end,
                              uint64_t now);
/* Hands the oldest change over when it is due by now: its kind (err says how the library took
 * it), 0 when none is due. */
int tb_daemon__bcdelay_hand_over(struct tb_daemon__bcdelay *q, tb_broadcast *bc, uint64_t now,
                                 uint64_t delay, struct tb_error *err);
/* When the oldest change is due (UINT64_MAX: none waits). */
uint64_t tb_daemon__bcdelay_deadline(const struct tb_daemon__bcdelay *q, uint64_t delay);
void tb_daemon__broadcast_status(struct tb_daemon *d, struct tb_daemon__buf *out);

/* daemon_result.c: the game's end. The result request (an arbiter action of daemon_arbiter.c's
 * table) and the end by the rules after an agreed move: in the PGN, the journal, status, the
 * broadcast, and said to both players. */
int tb_daemon__result_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err);
int tb_daemon__result_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err);
void tb_daemon__result_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                              struct tb_journal_decision *dec);
void tb_daemon__result_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req);
/* After an agreed move: mate, stalemate, dead position, fivefold, 75 moves end the game. */
void tb_daemon__result_rules(struct tb_daemon *d, uint64_t t);
/* A new game: no result. */
void tb_daemon__result_clear(struct tb_daemon *d);

/* daemon_hall.c: the table on the hall's MQTT broker (docs/hall.md). No-ops while [hall] is off. */
/* A match output carried out: noted for the hall (events). */
void tb_daemon__hall_output(struct tb_daemon *d, const struct tb_match_out *o);
/* The ARBITER button at a board. */
void tb_daemon__hall_arbiter_call(struct tb_daemon *d, int board);
struct tb_bugmatch_out; /* hall: a doorgeefschaak output carried out (daemon_bug.c) */
void tb_daemon__hall_bug_output(struct tb_daemon *d, const struct tb_bugmatch_out *o);
/* After poll: the broker served, commands taken (PIN-checked), the state published if changed. */
void tb_daemon__hall_status(struct tb_daemon *d, struct tb_daemon__buf *out);

/* daemon_clock.c: the game's clock ([clock]; docs/clock.md, "The daemon's clock"). It follows
 * the match's outputs and the board inputs at their own times, so recovery rebuilds it. */
void tb_daemon__clock_tick(struct tb_daemon *d, uint64_t t); /* flags and warnings to t */
void tb_daemon__clock_output(struct tb_daemon *d, const struct tb_match_out *o); /* after it */
void tb_daemon__clock_journal(struct tb_daemon *d, bool stopped); /* the journal stops */
/* The journal resumed: true if the clock waits for it; then, the match's time run to t, it runs
 * again from t (its record appended). */
bool tb_daemon__clock_resumes(const struct tb_daemon *d);
void tb_daemon__clock_resume(struct tb_daemon *d, uint64_t t);
void tb_daemon__clock_record(struct tb_daemon *d, const struct tb_journal_record *rec);
/* A board's clock reading (TB_LINK_EV_CLOCK, journaled as a board event), taken in. */
void tb_daemon__clock_reading(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
bool tb_daemon__clock_button(struct tb_daemon *d, int board); /* false: no clock to tell */
int tb_daemon__clock_status(struct tb_daemon *d, char *buf, size_t len); /* 0: no line */
/* The clocks now, for other outputs (a broadcast): time left of White and Black in ms (-1
 * unknown) and which runs (-1 none, else the colour). false when the game has no clock. */
/* The time control in PGN's TimeControl form ("40/5400+30:1800+30"); 0 when there is none. */
int tb_daemon__clock_control_pgn(struct tb_daemon *d, char *buf, size_t len);
bool tb_daemon__clock_now(struct tb_daemon *d, int64_t left[2], int *running);
/* The arbiter's clock-set, its times as the parser read them (req->clock_ms); with apply, both
 * clocks get those times at t (the move counters stay). Refused (err says why, nothing changes)
 * for a bad time or when the game has no built-in clock or is over. */
int tb_daemon__clock_set(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         bool apply, struct tb_error *err);
void tb_daemon__clock_pgn(struct tb_daemon *d, tb_chess_pgn_game *pg);
/* The [%clk] recorded after ply (1 = the first) in ms; TB_BROADCAST_NO_CLK when none. */
uint64_t tb_daemon__clock_ply_ms(const struct tb_daemon *d, int ply);

/* daemon_bug.c, daemon_bugctl.c: doorgeefschaak ([bughouse]; docs/doorgeefschaak.md). While
 * d->bug is set the board inputs, the deadlines, the ears and the control requests are the
 * match's of two games; the twin game (d->match) stands idle. */
struct tb_daemon__bug;
int tb_daemon__bug_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__bug_free(struct tb_daemon *d);
int tb_daemon__bug_voice_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__bug_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
int tb_daemon__bug_apply(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
void tb_daemon__bug_tell_wait(struct tb_daemon *d); /* journal stopped: the four seats told */
uint64_t tb_daemon__bug_deadline(const struct tb_daemon *d); /* UINT64_MAX: none (or no match) */
void tb_daemon__bug_record(struct tb_daemon *d, const struct tb_journal_record *rec, uint64_t t);
void tb_daemon__bug_keep(struct tb_daemon *d); /* NAME.bpgn beside the journal */
/* status in doorgeefschaak: both games, clocks, the four hands (the status request, SIGHUP) */
void tb_daemon__bug_status(struct tb_daemon *d, struct tb_daemon__buf *out);
/* doorgeefschaak's move a|b and new-game (the handlers tb_daemon__ctl_move, _new_game in this
 * mode); hand, bpgn, resign, choose, accept, replace are its own (TB_CTL_VERBS). */
int tb_daemon__bug_move(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err);
int tb_daemon__bug_new_game(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err);
/* daemon_games.c: text written whole as JOURNAL_DIR/file (a temporary file renamed, synced). */
int tb_daemon__game_write(struct tb_daemon *d, const char *file, const char *text);

#endif /* TB_DAEMON_INTERNAL_H */
