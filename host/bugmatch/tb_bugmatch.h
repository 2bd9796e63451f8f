/* tb_bugmatch.h - doorgeefschaak (bughouse) on sensor boards: two games side by side, four
 * players, four clocks (Reglement Doorgeefschaak, cited by article; docs/doorgeefschaak.md).
 *
 * Board A (0) and board B (1) each carry one game; each is a reed board read by its own move
 * recogniser (tb_sensor with the drops of tb_bug), a DGT e-board (the same, with the piece it
 * names for every placement) or a board whose moves are typed. A piece put on an empty square
 * with nothing lifted is a drop from the hand of the player to move (2.2): its kind is the
 * piece a DGT board names, else the only one in hand that may go there, else the player
 * chooses it (a choose event, a typed choice or the choice button cycling through the kinds)
 * and the drop waits meanwhile; a drop no kind in hand may make is refused with its article
 * (2.2-2.5).
 *
 * A move is made when the board shows it (D.2.3) and is then announced to the opponent; it is
 * completed when its player presses the clock (FIDE 6.2.1), or when the opponent moves, or
 * at once when it ends the game. A completed move enters the record (tb_bug_record, BPGN) with
 * the mover's clock; a piece it took goes to the partner's hand (2.1, 1.4: same colour, other
 * board), who is told. Each game has its clock (tb_clock, 7 minutes a player unless set, 6.3);
 * the first press starts both (6.4). The games end by article 5: mate, resignation (5.2),
 * flag fall (5.4, 5.6), stalemate and dead positions once the other game is over (5.3).
 *
 * Seats: 0 White on A, 1 Black on A, 2 White on B, 3 Black on B (seat = 2 * board + colour);
 * partners are seats s and s ^ 3 (1.4: White on one board and Black on the other).
 *
 * Pure and deterministic: no I/O, time in ms is passed with every input (never going back),
 * outputs are data the caller drains (who hears what; the words come from the voice packs).
 * Inputs at the same millisecond are taken board A first, as the record orders them.
 */
#ifndef TB_BUGMATCH_H
#define TB_BUGMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_bug.h"
#include "tb_clock.h"
#include "tb_err.h"
#include "tb_script.h"
#include "tb_sensor.h"
#include "tb_voice.h"

#define TB_BUGMATCH_BOARDS 2
#define TB_BUGMATCH_SEATS  4

/* The drops of doorgeefschaak for a recogniser (tb_sensor_set_drops): 2.2-2.5 and FIDE 3.9 by
 * tb_bug; refusal codes are enum tb_bug_drop_verdict, moves tb_bug_move_drop. */
extern const struct tb_sensor_drops tb_bugmatch_drops;

/* What a board reports (docs/doorgeefschaak.md, "DGT boards"). */
enum tb_bugmatch_board_kind {
    TB_BUGMATCH_REED = 0, /* occupancy only: a drop's kind from the pool or the choice */
    TB_BUGMATCH_DGT,      /* a DGT e-board: the piece with every placement (the drop's kind,
                             3.1's pawn shape on the last rank, a wrong piece is no move) */
    TB_BUGMATCH_TYPED,    /* no sensors: the board's moves are typed */
};

struct tb_bugmatch_config {
    struct tb_sensor_config sensor;  /* both recognisers */
    struct tb_clock_control control; /* each player's time per game (6.3: 7 minutes) */
    bool typed[TB_BUGMATCH_BOARDS];  /* no sensors: the board's moves are typed (the same as
                                        kind TB_BUGMATCH_TYPED) */
    enum tb_bugmatch_board_kind kind[TB_BUGMATCH_BOARDS]; /* default reed; TB_ERR_ARG for DGT
                                                             with typed[] set or no such kind */
    bool auto_press; /* no clock button: a move is completed once recognised */
    /* the seat also hears the moves of its partner's board (9.1 forbids telling; default
     * off: a player hears only the opponent's moves and the pieces passed to them) */
    bool hear_other_board[TB_BUGMATCH_SEATS];
};

/* Sensor defaults, 7 minutes (6.3), both boards with sensors, players press their clocks. */
void tb_bugmatch_config_default(struct tb_bugmatch_config *cfg);

typedef struct tb_bugmatch tb_bugmatch;

/* A match from the standard start with empty hands, clocks set up and not running, boards
 * assumed set up. TB_ERR_ARG (err says which) for a bad sensor configuration or control;
 * TB_ERR_MEM. */
int tb_bugmatch_new(const struct tb_bugmatch_config *cfg, tb_bugmatch **out, struct tb_error *err);
void tb_bugmatch_free(tb_bugmatch *m);

/* Both games start from start[] (positions and hands) instead of the standard array: before
 * the first move and the clocks' start only (TB_ERR_STATE), boards assumed set up to match. */
int tb_bugmatch_set_start(tb_bugmatch *m, const tb_bug_pos start[2]);

/* ---- inputs: each at its time (ms, never going back: TB_ERR_STATE, nothing changes) ------ */

/* 6.4: both clocks start together (the two Black players); a clock press before the start
 * does the same. TB_ERR_STATE when already started. */
int tb_bugmatch_start(tb_bugmatch *m, uint64_t ms);
/* Board events of a sensor board (TB_ERR_ARG for a typed board or a bad square). piece: on a
 * DGT board the tb_chess code of the piece placed (0 if the board did not say), on a reed
 * board 0. A DGT board's pawn put on the last rank is the promoted pawn (3.1): its piece waits
 * for the choice as on a reed board; a real piece put there is taken as the choice. Its pawn
 * there stands for the promoted piece from then on. A drop's kind is the piece placed (2.2:
 * one not in hand is refused); a piece that is not the one a move puts on its square keeps
 * the move from being made (a BOARD output with the sensor's WRONG_PIECE). A typed board
 * takes the lift of 7.7's piece handed back (tb_bugmatch_replace). */
int tb_bugmatch_lift(tb_bugmatch *m, int board, int square, uint64_t ms);
int tb_bugmatch_place(tb_bugmatch *m, int board, int square, int piece, uint64_t ms);
/* A whole reading of a DGT board: pieces[sq] the tb_chess code on each square (a1 = 0, 0
 * empty), as tb_dgt_tracker_placement and the DGT link's SNAPSHOT give it. What differs from
 * what the board's events left is taken as lifts, then placements, at ms. TB_ERR_ARG for a
 * board that is not a DGT board or a bad code. Returns the number of events taken. */
int tb_bugmatch_snapshot(tb_bugmatch *m, int board, const uint8_t pieces[64], uint64_t ms);
/* The piece for the promotion or drop under way on the board (a choose event, a typed
 * choice): TB_CHESS_PAWN (drops only) .. TB_CHESS_QUEEN. TB_ERR_ILLEGAL when a drop waits and
 * that kind may not go there (an ILLEGAL_DROP output names the article), TB_ERR_STATE when
 * nothing can take it. */
int tb_bugmatch_choose(tb_bugmatch *m, int board, int ptype, uint64_t ms);
/* The choice button: while a drop or promotion waits, each press selects the next kind it may
 * take (queen, rook, bishop, knight, pawn) and says it; the clock press makes it the move's.
 * TB_ERR_STATE when nothing waits. */
int tb_bugmatch_button(tb_bugmatch *m, int board, uint64_t ms);
/* The player whose clock runs on the board presses it (6.2.1): completes the move made. A
 * move still waiting for its piece is not complete (3.1, 4.2): the selected kind is used, else
 * the player is asked again. TB_ERR_STATE when no move was made. */
int tb_bugmatch_press(tb_bugmatch *m, int board, uint64_t ms);
/* 5.2: color resigns on the board. TB_ERR_STATE when that game is over. */
int tb_bugmatch_resign(tb_bugmatch *m, int board, int color, uint64_t ms);
/* A move typed for a typed board (SAN in English letters, drops "N@f3", or UCI). Refused with
 * err naming why (for a drop its article: "2.4: ..."), nothing changing: TB_ERR_PARSE,
 * TB_ERR_ILLEGAL; TB_ERR_ARG for a sensor board; TB_ERR_STATE when that game is over. */
int tb_bugmatch_typed(tb_bugmatch *m, int board, const char *text, uint64_t ms,
                      struct tb_error *err);
/* 2.6: the seat asks what it holds (a POOL output for that seat). */
int tb_bugmatch_ask_pool(tb_bugmatch *m, int seat, uint64_t ms);
/* An event-script line for a board: lift, place, choose; press of the buttons "clock",
 * "choice" (or "promote") and "resign" (the player to move resigns); other lines are ignored. */
int tb_bugmatch_feed_script(tb_bugmatch *m, int board, const struct tb_script_event *ev);

/* Lets time pass: recognitions, clock warnings and flag falls up to ms, each at its time. */
int tb_bugmatch_tick(tb_bugmatch *m, uint64_t ms);
/* When the next decision falls due without input (tick then), or UINT64_MAX. */
uint64_t tb_bugmatch_deadline(const tb_bugmatch *m);

/* ---- outputs ----------------------------------------------------------------------------- */

enum tb_bugmatch_out_kind {
    TB_BUGMATCH_OUT_MOVE = 1,     /* a move made (D.2.3): board, seat (mover), move, san, check;
                                     heard by the opponent (D.2.1) */
    TB_BUGMATCH_OUT_PLY,          /* the move completed and recorded: ply, clock_ms */
    TB_BUGMATCH_OUT_RECEIVED,     /* 2.1: seat receives piece (type) from the partner */
    TB_BUGMATCH_OUT_POOL,         /* 2.6: the seat's hand, pool[type] */
    TB_BUGMATCH_OUT_CHOOSE,       /* a drop or promotion waits for its piece: square, kinds */
    TB_BUGMATCH_OUT_SELECTED,     /* the choice button selected piece (type) */
    TB_BUGMATCH_OUT_ILLEGAL_DROP, /* square, piece (type, 0 if unknown), verdict, article */
    TB_BUGMATCH_OUT_FLAG,         /* 6.1: the seat's flag fell (before the RESULT it causes) */
    TB_BUGMATCH_OUT_RESULT,       /* the game on the board is over: result */
    TB_BUGMATCH_OUT_BOARD,        /* anything else a recogniser reports (touch, displaced...),
                                     for the arbiter: sensor */
    /* article 7 (7.3-7.7): an illegal move completed with the clock pressed, and its outcome */
    TB_BUGMATCH_OUT_ILLEGAL_MOVE, /* 7.4: seat (the mover) completed an illegal move: move, san
                                     ("Bc1xh6"), piece, captured (types), square (from),
                                     article; reason: why it cannot stand ("" if it can); heard
                                     by the opponent, who may accept it or demand replacement */
    TB_BUGMATCH_OUT_ACCEPTED,     /* seat (the opponent) accepted it: article "7.4", or "7.5"
                                     when by playing on; heard by the mover */
    TB_BUGMATCH_OUT_REPLACE,      /* 7.4, 7.6: seat (the mover) must take it back and play a
                                     legal move; square: the piece touched (4.3); heard by
                                     the mover */
    TB_BUGMATCH_OUT_RETURNED,     /* 7.7: seat (the partner) gives piece (type) back from the
                                     hand; heard by the partner */
    TB_BUGMATCH_OUT_BLOCKED,      /* 7.7: seat (the partner) no longer holds piece (type, in the
                                     partner's colour): no move on board until a piece of that
                                     kind and colour is lifted from it (square: a move refused
                                     meanwhile, else none); heard by all four */
    TB_BUGMATCH_OUT_HANDED_BACK,  /* 7.7: the piece on square of board lifted and handed back;
                                     seat (the partner) may move again; heard by all four */
    TB_BUGMATCH_OUT_PUT_BACK,     /* the board shows the position before the illegal move again
                                     (for the arbiter) */
};

struct tb_bugmatch_out {
    enum tb_bugmatch_out_kind kind;
    uint64_t ms;
    int board;
    int seat;     /* the player concerned (the mover, the receiver, who asked) */
    uint8_t hear; /* who is told: bit 1 << seat */
    tb_bug_move move;
    char san[16];     /* MOVE: in English SAN, drops "N@f3" */
    int check;        /* MOVE: 0, 1 check, 2 mate (with the pieces in hand, 1.5) */
    int ply;          /* PLY: index in the record */
    int32_t clock_ms; /* PLY: the mover's time left; < 0 when the clocks are not running */
    uint8_t piece;    /* RECEIVED, SELECTED, ILLEGAL_DROP: a piece type */
    uint8_t square;   /* CHOOSE, ILLEGAL_DROP */
    uint8_t kinds;    /* CHOOSE: bits 1 << type */
    uint8_t pool[6];  /* POOL */
    enum tb_bug_drop_verdict verdict; /* ILLEGAL_DROP */
    const char *article;              /* ILLEGAL_DROP: "2.5" ... */
    struct tb_bug_verdict result;     /* RESULT */
    struct tb_sensor_out sensor;      /* BOARD */
    uint8_t captured;                 /* ILLEGAL_MOVE: the piece type taken, 0 if none */
    const char *reason;               /* ILLEGAL_MOVE: "" or why it cannot stand */
    tb_chess_pos before;              /* MOVE: the board before it (to phrase it) */
};

/* Takes the oldest output: 1 if one was written, 0 if none. The queue holds 256; on overflow
 * the oldest are dropped and counted (tb_bugmatch_dropped). */
int tb_bugmatch_poll(tb_bugmatch *m, struct tb_bugmatch_out *out);
unsigned long tb_bugmatch_dropped(const tb_bugmatch *m);

/* An output as one English line for logs, the arbiter and tests ("A: White e4 (e2e4)",
 * "B Black receives: knight", "A White: illegal drop P@h8: 2.5 ..."). Returns the length or
 * TB_ERR_FULL (256 bytes always suffice). */
int tb_bugmatch_out_format(const struct tb_bugmatch_out *o, char *buf, size_t len);

/* What the players hear of an output, in the words of pack (D.2.1 and [bughouse]): a move
 * ("Springer Gustav eins Felix drei", form as tb_voice_phrase_move), a drop ("Springer auf
 * Felix drei"), a piece passed ("Du bekommst: Springer"), the pieces in hand, the question a
 * drop waits on, the piece selected, a refused drop with its article, article 7's outputs (the
 * illegal move to the opponent, its acceptance, the demand to replace it, the piece given back
 * or waited for), and the end of a game ("Brett A: Zeitüberschreitung, Schwarz gewinnt", to
 * all four). 0 (nothing said) for the outputs that are for the record and the arbiter (PLY,
 * BOARD, PUT_BACK) and for FLAG (the RESULT at the same moment says it); else the length, or
 * the phrase function's error. */
int tb_bugmatch_out_say(const struct tb_voice_pack *pack, const struct tb_bugmatch_out *o,
                        enum tb_voice_form form, char *buf, size_t len);

/* ---- article 7: illegal moves (7.3-7.7; docs/doorgeefschaak.md) ------------------------- */

/* 7.3: an illegal move shown on a sensor board and put back before the press is no move (the
 * recogniser reports it; the piece touched must still be moved). 7.4: pressed, it is taken as
 * an irregularity (ILLEGAL_MOVE): the opponent's clock runs; when the move can stand it enters
 * the record as the board shows it (tb_bug_record_push_illegal) and a piece it took is passed
 * to the partner at once, as players hand it over. Then the opponent: */

/* 7.4: accepts it: the game goes on from the board. Also implied when the opponent's move from
 * there is made (7.5). TB_ERR_STATE when no illegal move waits on the board, TB_ERR_ILLEGAL
 * when it cannot stand (the ILLEGAL_MOVE output gave the reason): it must be replaced. */
int tb_bugmatch_accept(tb_bugmatch *m, int board, uint64_t ms);
/* 7.4, 7.6: demands its replacement and starts the mover's clock (a press of the clock by the
 * opponent while it waits does the same). The record takes it back; the piece it passed comes
 * back from the partner's hand (7.7, RETURNED), or, when the partner no longer holds one, the
 * partner may not move (BLOCKED) until a piece of that kind and colour is lifted from the
 * partner's board (HANDED_BACK). The mover puts the board back (PUT_BACK when it shows the
 * position before) and makes a legal move, with the piece touched (4.3) reported as the
 * recogniser reports touch-move. TB_ERR_STATE when no illegal move waits on the board. */
int tb_bugmatch_replace(tb_bugmatch *m, int board, uint64_t ms);

enum tb_bugmatch_irregular {
    TB_BUGMATCH_IRR_NONE = 0,
    TB_BUGMATCH_IRR_ASKED,    /* an illegal move waits for the opponent's decision (7.4) */
    TB_BUGMATCH_IRR_PUT_BACK, /* replacement demanded: the board is being put back */
    TB_BUGMATCH_IRR_BLOCKED,  /* 7.7: waiting for the piece from the other board */
};
/* What the board's game waits for under article 7. */
enum tb_bugmatch_irregular tb_bugmatch_irregular(const tb_bugmatch *m, int board);

/* ---- state ------------------------------------------------------------------------------- */

/* The completed moves of both games, their results and clocks (write BPGN with
 * tb_bug_bpgn_write). */
const tb_bug_record *tb_bugmatch_record(const tb_bugmatch *m);
/* What the seat holds now (moves made but not yet completed count). */
void tb_bugmatch_pool(const tb_bugmatch *m, int seat, uint8_t pool[6]);
/* What the board is (reed, DGT, typed). */
enum tb_bugmatch_board_kind tb_bugmatch_board(const tb_bugmatch *m, int board);
/* The board's recogniser (its occupancy, strays, what waits for a choice), NULL for a typed
 * board. */
const tb_sensor *tb_bugmatch_sensor(const tb_bugmatch *m, int board);
/* The clock of the board's game. */
const tb_clock *tb_bugmatch_clock(const tb_bugmatch *m, int board);
/* Both games over (5.1). */
bool tb_bugmatch_over(const tb_bugmatch *m);

/* ---- event scripts of two boards from a record (tests, benchmarks) ----------------------- */

struct tb_bugmatch_gen_config {
    uint32_t blip_ms; /* the recognisers' blip window (default 100) */
    bool noise;       /* fly-over blips, wobbles, hesitations, knocked pieces, blips on the
                         squares a drop could use */
    bool dgt[TB_BUGMATCH_BOARDS]; /* the board names its pieces: every place line carries its
                                     piece (a promoted pawn is a pawn, 3.1), a drop no choice */
};

/* The events the two boards ("A", "B") would report for rec, in time order: each move handled
 * as people do (the handling orders of tb_sensor_gen, 3.1's promotion in place, drops with
 * their choice before or after the piece when the kind is not certain), the clock pressed at
 * the moment the record says, resignations when the record says (rec->end_ms), the first
 * press at 0 starting both clocks. The record must have been made with thinking times and
 * hand-over times that leave room to handle pieces (tb_bug_gen_config min_think_ms 2000,
 * pass_ms 1500). Deterministic per seed. TB_ERR_ILLEGAL (err says which ply) when a
 * move does not replay, TB_ERR_STATE when a move has no room for its handling. */
int tb_bugmatch_gen_script(const tb_bug_record *rec, const struct tb_bugmatch_gen_config *cfg,
                           uint64_t seed, tb_script_event_fn fn, void *user, struct tb_error *err);

/* Plays rec through two simulated boards: its event script (tb_bugmatch_gen_script with gcfg
 * and seed, gcfg's dgt[] set from cfg's DGT boards) fed into a new match of cfg (NULL:
 * defaults), time run on to the end. *out is the match (its record is what the boards showed;
 * the caller compares and frees it); *events
 * counts the events fed. An event the match refuses is TB_ERR_STATE with err naming it (a
 * choice nothing can use excepted). */
int tb_bugmatch_replay(const tb_bug_record *rec, const struct tb_bugmatch_config *cfg,
                       const struct tb_bugmatch_gen_config *gcfg, uint64_t seed, tb_bugmatch **out,
                       long *events, struct tb_error *err);

#endif /* TB_BUGMATCH_H */
