/* tb_match.h - two boards, one game: keeping the boards in sync (FIDE Laws Appendix D).
 *
 * A VI player and a sighted player play one game on two boards (D.1). A move made on the board
 * of the player to move is announced to the other player and becomes the move expected on the
 * other board (D.2.1); once it is replicated there, both boards agree and the game moves on.
 * The moment the boards disagree, the match reports a mismatch with what happened, where, and
 * the D.2.9 resolution built from the two boards' scoresheets.
 *
 * The match owns one move recogniser (tb_sensor) per board and sets their modes itself: the
 * board whose player is to move recognises that player's move (PLAYING, touch-move reported);
 * the other board replicates the announced move (REPLICATING). The caller feeds board events
 * with tb_match_board_event(), lets time pass with tb_match_tick(), and drains the outputs with
 * tb_match_poll(): announcements (what to say to whom, as data: the daemon phrases them with
 * the player's voice pack), agreed moves (the journal's sync points), mismatches, resolutions,
 * touch reports and state changes.
 *
 * Each board keeps its own electronic scoresheet (the moves recognised on it, in order). The
 * scoresheet of the player who must replicate also holds the announced move (the player has
 * heard it and written it down). D.2.9: if the scoresheets agree, the board that deviates is put
 * right; if they differ, the moves are taken back to where they agree.
 *
 * Pure and deterministic: no I/O, no clock (every input carries its time, non-decreasing), no
 * allocation after tb_match_new. The same inputs give the same outputs, so a journal of the
 * inputs replays to the same state. Not thread-safe.
 */
#ifndef TB_MATCH_H
#define TB_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"
#include "tb_script.h"
#include "tb_sensor.h"

#define TB_MATCH_BOARDS       2
#define TB_MATCH_NAME_MAX     16
#define TB_MATCH_MAX_TAKEBACK 4  /* moves one board can be asked to take back */
#define TB_MATCH_MAX_SQUARES  32 /* squares in one put-right list (a board holds 32 pieces) */

enum tb_match_role { TB_MATCH_VI = 0, TB_MATCH_SIGHTED = 1 };

struct tb_match_board_config {
    enum tb_match_role role;
    int color;                    /* TB_CHESS_WHITE or TB_CHESS_BLACK: the player at this board */
    char name[TB_MATCH_NAME_MAX]; /* for texts: "vi", "sighted" */
    bool typed; /* no sensors: an assistant types the moves made on it (tb_match_typed_move) and
                   keeps it right by hand; it is taken to show its scoresheet's position */
};

struct tb_match_config {
    struct tb_match_board_config board[TB_MATCH_BOARDS];
    struct tb_sensor_config sensor; /* both recognisers */
    uint32_t incomplete_ms;  /* D.2.3: a capture whose victim still stands this long after the
                                board's last event is reported; default 3000 */
    uint32_t remind_ms;      /* a move still to copy when a mismatch clears is announced again
                                once its board has stood this long untouched in the position
                                before it (a board passing through that position on its way to
                                the move hears nothing); default 2000 */
    uint32_t ident_ms;       /* a board that names its pieces (a SNAPSHOT with has_pieces),
                                standing still this long in its position by occupancy, is
                                compared piece by piece with it: pieces swapped or of the wrong
                                colour are a mismatch (TB_MATCH_MM_SWAPPED); default 1500 */
    uint32_t copy_remind_ms; /* a move waiting to be copied is announced again to its copier
                                once the copier's board has stood this long untouched without
                                it, and again after each further copy_remind_ms while it still
                                stands so; default 20000, 0: never */
};

/* Board 0: "vi", VI, White; board 1: "sighted", sighted, Black; sensor defaults. */
void tb_match_config_default(struct tb_match_config *cfg);

typedef struct tb_match tb_match;

/* A match from start (NULL: the standard position), both boards assumed set up to match it
 * (send a SNAPSHOT when a board connects). TB_ERR_ARG (err says which) for two boards of one
 * colour, a bad role or name, a bad sensor configuration; TB_ERR_MEM. */
int tb_match_new(const struct tb_match_config *cfg, const tb_chess_pos *start, uint64_t now_ms,
                 tb_match **out, struct tb_error *err);
void tb_match_free(tb_match *m);

/* ---- inputs (each carries its time; times must not go back: TB_ERR_STATE, nothing changes) - */

enum tb_match_event_kind {
    TB_MATCH_EV_LIFT = 1, /* square: a piece left it (on the VI board a touch, D.2.2) */
    TB_MATCH_EV_PLACE,    /* square, piece (tb_chess code or 0 if the board cannot tell) */
    TB_MATCH_EV_CHOOSE,   /* piece: promotion piece type TB_CHESS_KNIGHT..QUEEN (D.2.1) */
    TB_MATCH_EV_SNAPSHOT, /* occupancy: the whole board as it stands now (and, from a board
                             that names its pieces, has_pieces and pieces) */
};

struct tb_match_event {
    enum tb_match_event_kind kind;
    uint8_t square;
    uint8_t piece;
    uint64_t occupancy;
    bool has_pieces;    /* SNAPSHOT: the board names its pieces (a DGT e-board) */
    uint8_t pieces[64]; /* SNAPSHOT: tb_chess code per square, a1 = 0; 0 on an occupied square:
                           no chess piece there (not compared) */
};

/* One board event at now_ms. TB_ERR_ARG for a bad board, kind, square or piece. */
int tb_match_board_event(tb_match *m, int board, const struct tb_match_event *ev, uint64_t now_ms);

/* An event-script event (lift, place, choose; press/release/expect are ignored) at ev->ms. */
int tb_match_feed_script(tb_match *m, int board, const struct tb_script_event *ev);

/* A move made on a typed board, as the assistant typed it (SAN in English letters or UCI, in
 * the board's position): its player's move in turn (announced and expected on the other board)
 * or the copy of the announced move. Nobody watches a typed board, so anything else is a typing
 * error, refused with err saying why, and nothing changes: TB_ERR_ARG for a board with sensors,
 * TB_ERR_PARSE / TB_ERR_ILLEGAL for no legal move or not the move to copy, TB_ERR_STATE when
 * the board's player is not to move or play is stopped. */
int tb_match_typed_move(tb_match *m, int board, const char *text, uint64_t now_ms,
                        struct tb_error *err);

/* Lets time pass: decisions due at or before now_ms are taken, each at its own time (outputs
 * carry it), so the outputs do not depend on how often the caller ticks. */
int tb_match_tick(tb_match *m, uint64_t now_ms);

/* When the next decision falls due without further input (tick then), or UINT64_MAX. */
uint64_t tb_match_deadline(const tb_match *m);

/* A promotion choice from a button or a `promote` request (same as a CHOOSE event). board -1:
 * the board of the player to move (a `promote` request names no board); TB_ERR_STATE if a move
 * waits for replication or play is stopped. */
int tb_match_promote(tb_match *m, int board, int ptype, uint64_t now_ms);

/* The player at board ended their move (pressed the clock, 6.2.1): its recogniser reads a board
 * waiting to settle as it stands, and a promotion still waiting for its piece gets the queen
 * (7.5.2; the move's announcement says so). Returns 1 if that decided a move, 0 if there was
 * nothing to end; TB_ERR_ARG for a bad board, TB_ERR_STATE when time went back. */
int tb_match_end_move(tb_match *m, int board, uint64_t now_ms);

/* ---- the arbiter (each decision is an ARBITER output the journal records) --------------- */

/* Confirms the proposed resolution of mismatch id. Play goes on once both boards physically
 * show the resolved position (RESOLVED output). TB_ERR_NOTFOUND if id is not the open one. */
int tb_match_resolve(tb_match *m, uint32_t id, uint64_t now_ms, struct tb_error *err);

/* Takes back n plies of the game as the scoresheets have it (the agreed moves and the move
 * waiting for replication). Both boards must then be put right. TB_ERR_ARG if n < 1 or more
 * than there are. An open mismatch is closed by it. */
int tb_match_takeback(tb_match *m, int n, uint64_t now_ms, struct tb_error *err);

/* A new game from a FEN (TB_ERR_PARSE, err says where, nothing changes) or from start (NULL:
 * the standard position; a Chess960 start: a position with chess960 set). Both boards must be
 * set up to match before play goes on. */
int tb_match_set_position(tb_match *m, const char *fen, uint64_t now_ms, struct tb_error *err);
int tb_match_new_game(tb_match *m, const tb_chess_pos *start, uint64_t now_ms);

/* Recovery (a journal whose board events were partly lost, docs/journal.md): the game becomes
 * the start position and moves[0..n), each agreed on both boards, and both boards are taken to
 * show the position after them (their recognisers start from it); nothing open, nothing waiting,
 * in sync. An open mismatch or restoration ends without an output: what the boards agreed on
 * is known, nothing was resolved. Only a STATE output. TB_ERR_ILLEGAL (err says which ply) when
 * a move is not legal in its position, TB_ERR_STATE when time goes back: nothing changes. */
int tb_match_set_game(tb_match *m, const tb_chess_move *moves, int n, uint64_t now_ms,
                      struct tb_error *err);

/* ---- outputs ---------------------------------------------------------------------------- */

enum tb_match_out_kind {
    TB_MATCH_OUT_ANNOUNCE = 1, /* say something to one player */
    TB_MATCH_OUT_MOVE_AGREED,  /* both boards have the move: the journal syncs here */
    TB_MATCH_OUT_MISMATCH,     /* the boards disagree: what, where, and the D.2.9 resolution */
    TB_MATCH_OUT_RESOLVED,     /* a mismatch or restoration is over; play goes on */
    TB_MATCH_OUT_TOUCH_REPORT, /* 4.3-4.4 breach for the arbiter: reported, never enforced */
    TB_MATCH_OUT_STATE,        /* the match's state changed */
    TB_MATCH_OUT_ARBITER,      /* an arbiter's decision, as taken */
    TB_MATCH_OUT_HELD,         /* a move made while play was stopped: not counted */
};

enum tb_match_state {
    TB_MATCH_IN_SYNC = 0, /* both boards show the agreed game */
    TB_MATCH_WAITING,     /* board `board` must replicate `move` */
    TB_MATCH_BLOCKED,     /* mismatch `mismatch` open: play stopped until it is put right */
    TB_MATCH_RESTORING,   /* the arbiter decided: waiting for the boards to show the position */
};

/* The messages a player can be told; the values are those of enum tb_voice_msg. */
enum tb_match_msg {
    TB_MATCH_MSG_MISMATCH = 0,  /* D.2.9: the boards differ; about_color: whose board */
    TB_MATCH_MSG_ILLEGAL = 1,   /* the move made is not legal */
    TB_MATCH_MSG_WAIT = 2,      /* please wait */
    TB_MATCH_MSG_REPLICATE = 3, /* please make the announced move on your board; move, pos */
    TB_MATCH_MSG_PUT_RIGHT = 4, /* how to correct the board: lift[], place[] */
    TB_MATCH_MSG_ARBITER = 5,   /* the arbiter has been called */
    /* 4.6: a promotion has waited promo_prompt_ms for its piece on this board: ask which */
    TB_MATCH_MSG_PROMOTION_ASK = 12,
};

/* One square to empty or fill; same layout as struct tb_voice_square_action. piece: a tb_chess
 * piece code, or 0 when unknown. */
struct tb_match_square_action {
    uint8_t sq;
    uint8_t piece;
};

struct tb_match_announce {
    int board;  /* the board whose player hears it */
    int player; /* that player's colour (the speaker's player index) */
    enum tb_match_role role;
    bool is_move;          /* say `move` (a move made on the other board) */
    enum tb_match_msg msg; /* else say this message */
    tb_chess_move move;    /* is_move, REPLICATE: the move ... */
    tb_chess_pos pos;      /* ... and the position before it, for phrasing */
    int ply;               /* the move's ply (1 = White's first move) */
    int about_color;       /* MISMATCH: colour of the player whose board deviates */
    bool queen_assumed;    /* is_move: a promotion given the queen without a choice (7.5.2) */
    uint32_t mismatch;     /* the mismatch it belongs to, 0 if none */
    int nlift, nplace;     /* PUT_RIGHT */
    struct tb_match_square_action lift[TB_MATCH_MAX_SQUARES];
    struct tb_match_square_action place[TB_MATCH_MAX_SQUARES];
};

enum tb_match_mismatch_kind {
    TB_MATCH_MM_WRONG_MOVE = 1, /* a different move replicated than the one announced */
    TB_MATCH_MM_TWO_AHEAD,      /* a board ran a move ahead of its turn (moved again) */
    TB_MATCH_MM_OUT_OF_TURN,    /* a move on the board of the player not to move */
    TB_MATCH_MM_DISPLACED,      /* pieces displaced (7.4, 7.6) */
    TB_MATCH_MM_ILLEGAL,        /* an illegal move (7.5.1) */
    TB_MATCH_MM_INCOMPLETE,     /* D.2.3: piece placed, the captured piece not removed */
    TB_MATCH_MM_SWAPPED,        /* a board that names its pieces shows other pieces than the
                                   game on the right squares (swapped, wrong colour) */
};

/* One move to take back on a board (D.2.9), in UCI and SAN (in its position). */
struct tb_match_takeback {
    tb_chess_move move;
    int ply;
    char uci[8];
    char san[16];
};

/* What one board must do. */
struct tb_match_fix {
    bool change;   /* the board must change (takebacks or squares) */
    int ntakeback; /* newest first */
    struct tb_match_takeback takeback[TB_MATCH_MAX_TAKEBACK];
    int target_ply; /* the position the board must show: after this many plies ... */
    tb_chess_pos target;
    uint64_t lift, fill; /* squares to empty and to fill, from the board as it stood */
    int npairs;          /* "move the piece on from to to": the first npairs of lift/place */
    int nlift, nplace;
    struct tb_match_square_action lift_list[TB_MATCH_MAX_SQUARES];
    struct tb_match_square_action place_list[TB_MATCH_MAX_SQUARES];
};

struct tb_match_mismatch {
    uint32_t id;
    enum tb_match_mismatch_kind kind;
    int board;               /* where it happened */
    unsigned boards;         /* bit b: board b must change */
    int ply;                 /* the ply concerned (1 = White's first move) */
    uint8_t square, square2; /* the main squares (TB_CHESS_NOSQ if unused) */
    uint64_t squares;        /* every square involved */
    tb_chess_move move;      /* the move made, if any */
    tb_chess_move expected;  /* the move expected, if any */
    bool sheets_agree;       /* D.2.9 first case: put a board right; else take back */
    int agree_plies;         /* the scoresheets agree up to and including this ply */
    bool needs_arbiter;      /* moves are taken back: only the arbiter does that; otherwise the
                                mismatch clears itself once the board is put right */
    struct tb_match_fix fix[TB_MATCH_BOARDS];
    char text[256];       /* what happened, one line of English for the arbiter's log */
    char resolution[512]; /* the proposed D.2.9 resolution, one line of English */
};

enum tb_match_arbiter_action {
    TB_MATCH_ARB_RESOLVE = 1,
    TB_MATCH_ARB_TAKEBACK,
    TB_MATCH_ARB_SET_POSITION,
    TB_MATCH_ARB_NEW_GAME,
};

struct tb_match_out {
    enum tb_match_out_kind kind;
    uint64_t ms;  /* when */
    uint32_t seq; /* output number, from 1 */
    union {
        struct tb_match_announce announce;
        struct { /* MOVE_AGREED */
            int ply;
            tb_chess_move move;
            tb_chess_pos pos; /* before the move */
            char uci[8], san[16];
            bool queen_assumed; /* 7.5.2: promoted without a choice */
        } agreed;
        struct tb_match_mismatch mismatch;
        struct { /* RESOLVED */
            uint32_t id;
            bool by_arbiter; /* false: the board was put right by its player */
            char text[160];
        } resolved;
        struct { /* TOUCH_REPORT (4.3, 4.4, 4.8: the opponent may claim; nothing enforced) */
            int board;
            int ply;
            enum tb_sensor_problem problem;
            uint8_t square, square2;
            tb_chess_move move;
            char text[256];
        } touch;
        struct { /* STATE */
            enum tb_match_state state;
            int board;          /* WAITING: the board that must replicate */
            tb_chess_move move; /* WAITING: the move */
            uint32_t mismatch;  /* BLOCKED, RESTORING */
            int plies;          /* agreed plies */
        } state;
        struct { /* ARBITER */
            enum tb_match_arbiter_action action;
            uint32_t id; /* RESOLVE: the mismatch; others: the restoration's id */
            int n;       /* TAKEBACK */
            char fen[100];
        } arbiter;
        struct { /* HELD */
            int board;
            tb_chess_move move;
            char uci[8];
            char text[160];
        } held;
    } u;
};

/* Takes the oldest output: 1 if one was written, 0 if none. The queue holds 256; on overflow
 * the oldest are dropped and counted. */
int tb_match_poll(tb_match *m, struct tb_match_out *out);
unsigned long tb_match_dropped(const tb_match *m);

/* An output as one line of English ("agreed 3 Nf3 (g1f3)", "mismatch wrong-move #2 ..."), for
 * logs and replays. Returns the length or TB_ERR_FULL (1024 bytes always suffice). */
int tb_match_out_format(const struct tb_match_out *o, char *buf, size_t len);

/* ---- queries ---------------------------------------------------------------------------- */

struct tb_match_status {
    enum tb_match_state state;
    int board;          /* WAITING: the board that must replicate */
    tb_chess_move move; /* WAITING: the move */
    uint32_t mismatch;  /* BLOCKED / RESTORING: the open mismatch or restoration */
    int plies;          /* agreed plies */
};
void tb_match_status(const tb_match *m, struct tb_match_status *st);

/* The agreed game (moves both boards have). */
const tb_chess_game *tb_match_game(const tb_match *m);

/* A board's scoresheet: the moves recognised on it, from the start. Returns the count (moves
 * written up to cap). */
int tb_match_history(const tb_match *m, int board, tb_chess_move *moves, int cap);

/* The open mismatch, or NULL. Its fix[] lists follow the boards while it is open: what each
 * board must still do from what stands on it now (moves held meanwhile included); the MISMATCH
 * output keeps them as they were when it opened. */
const struct tb_match_mismatch *tb_match_open_mismatch(const tb_match *m);

/* What a board must still do to reach the position the open mismatch or restoration wants,
 * from its occupancy now (lift/fill lists and pairs). TB_ERR_NOTFOUND if nothing is open. */
int tb_match_board_fix(const tb_match *m, int board, struct tb_match_fix *fix);

/* A board's occupancy as its events leave it. */
uint64_t tb_match_occupancy(const tb_match *m, int board);

/* Names: "wrong-move", "two-ahead", "out-of-turn", "displaced", "illegal", "incomplete",
 * "swapped";
 * "in-sync", "waiting", "blocked", "restoring". */
const char *tb_match_mismatch_name(enum tb_match_mismatch_kind k);
const char *tb_match_state_name(enum tb_match_state s);

#endif /* TB_MATCH_H */
