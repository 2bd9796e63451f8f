/* tb_sensor.h - move recognition from one sensor board (D.2.2, D.2.3, Article 4).
 *
 * A recogniser watches ONE board: it is given the game position and that board's events (lift,
 * place, promotion choice; time in ms with each) and produces outputs the caller drains with
 * tb_sensor_poll(): moves made (D.2.3, 4.7), touches (D.2.2, 4.3) and problems (illegal
 * placement, displaced pieces, touch-move breaches ...), each with the squares involved.
 *
 * How it decides: it matches the board's occupancy against the occupancy after each legal move
 * and uses the order of events for what occupancy cannot show (capture target, first touched
 * pieces). Every event counts once it has stood for its window: a placement lifted again within
 * blip_ms never happened (a magnet carried over the board closes switches for tens of ms), a
 * lift put back within wobble_ms while no other piece is off its square never happened (a
 * piece wobbling in its hole is no touch). A move is decided the moment the occupancy matches
 * it and its last event has stood its window, unless the board may still be on its way to
 * another move (settle_ms, below).
 *
 * Every filled or empty square is explained: by the position, by a move in progress (pieces
 * in the hand, pieces placed on that move's squares), or as a stray: a piece placed where no
 * move under way puts it, with no piece of the side to move in the hand, is displaced (7.4):
 * reported at once and never taken as a square of a later move until it is lifted.
 *
 * Chess960 (Guideline II): every castling is recognised in every order; a castling whose king
 * and rook swap squares leaves the occupancy as it was and is read from the events (both
 * pieces lifted and put down again, 4.4.1); a king on its castling square by a move that is
 * also an ordinary king move, or (Chess960 only; 4.4.2 in standard chess) a rook on its
 * castling square by an ordinary rook move, waits settle_ms for the other piece.
 *
 * Pure: no I/O, no allocation after tb_sensor_new, time passed in. Not thread-safe; one
 * recogniser per board.
 */
#ifndef TB_SENSOR_H
#define TB_SENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"
#include "tb_script.h"

struct tb_sensor_config {
    uint32_t blip_ms;          /* a placement lifted again sooner is noise; default 100 */
    uint32_t promo_wait_ms;    /* 0 (default): a promotion waits for its piece until a choice
                                  comes or the move is ended (tb_sensor_end_move, 7.5.2);
                                  else the longest wait, then the queen (7.5.2) */
    uint32_t lifted_report_ms; /* pieces missing (nothing misplaced) this long = displaced;
                                  default 2000 */
    uint32_t wobble_ms;        /* D.2.2: a lift put back on its square sooner, with no other
                                  piece off its square, is a wobble in the hole: no touch;
                                  default 100 */
    uint32_t promo_prompt_ms;  /* a promotion waiting this long for its piece is reported once
                                  (promotion-waiting, a prompt to say); default 3000 */
    uint32_t settle_ms;        /* a board that may be on its way to another move (the copy's
                                  castling rook first, a Chess960 king on its castling square)
                                  must stand still this long before it is read as the move it
                                  shows; default 3000 */
    bool piece_must_fit;       /* a board that names its pieces (DGT): a placement whose piece
                                  code is not the piece a move puts on that square is not that
                                  move (WRONG_PIECE, the move waits); default off */
};

void tb_sensor_config_default(struct tb_sensor_config *cfg);

enum tb_sensor_mode {
    /* The player to move makes their own move: touch-move applies (4.3-4.5, D.2.2). */
    TB_SENSOR_PLAYING = 0,
    /* The board copies a move already made on the other board: the expected move is known,
     * touch-move does not apply, another move is a problem (D.2.9 explains the mismatch). */
    TB_SENSOR_REPLICATING = 1,
};

enum tb_sensor_out_kind {
    TB_SENSOR_OUT_MOVE = 1,
    TB_SENSOR_OUT_TOUCH,
    TB_SENSOR_OUT_PROBLEM,
};

enum tb_sensor_problem {
    TB_SENSOR_P_NONE = 0,
    TB_SENSOR_P_ILLEGAL,              /* square: the lifted piece's square, square2: where placed */
    TB_SENSOR_P_DISPLACED,            /* clear/fill: squares to empty / to fill */
    TB_SENSOR_P_SAME_SIDE_TWICE,      /* move: the second move of the side that just moved */
    TB_SENSOR_P_ROOK_FIRST_CASTLING,  /* move: the rook move that was made (4.4.2, 4.7) */
    TB_SENSOR_P_TOUCH_MOVE,           /* square: first touched own piece; move: the move made */
    TB_SENSOR_P_TOUCHED_NOT_CAPTURED, /* square: the touched opponent piece; move: move made */
    TB_SENSOR_P_PROMOTION_NO_CHOICE,  /* square: promotion square; move: with the queen */
    TB_SENSOR_P_WRONG_MOVE,           /* replicating: move made, expected the expected one */
    TB_SENSOR_P_PROMOTION_WAITING,    /* square: promotion square; move: with the queen; the
                                         promotion waits for its piece (ask the player) */
    TB_SENSOR_P_DROP_WAITING,         /* square: where a piece was put from beside the board;
                                         kinds: the kinds it may be; the drop waits for the
                                         choice (ask the player) */
    TB_SENSOR_P_ILLEGAL_DROP,         /* square: where the piece was put; piece: its type when
                                         known (chosen, or the only kind in hand), else 0;
                                         kinds: the kinds in hand; reason, article: why not */
    TB_SENSOR_P_WRONG_PIECE,          /* piece_must_fit: the board shows the occupancy of move
                                         but square holds piece (code) instead of the move's;
                                         the move is not made until it does */
};

/* Flags of a move output. */
enum {
    TB_SENSOR_MF_QUEEN_ASSUMED = 1, /* promotion without a choice: queen (7.5.2) */
    TB_SENSOR_MF_REPLICATED = 2,    /* made in REPLICATING mode as expected */
};

struct tb_sensor_out {
    enum tb_sensor_out_kind kind;
    enum tb_sensor_problem problem; /* PROBLEM only */
    uint64_t ms;                    /* when decided (simulated time) */
    uint64_t event_ms;              /* the time of the event that decided it */
    tb_chess_move move;             /* see the problem list; MOVE: the move */
    tb_chess_move expected;         /* WRONG_MOVE */
    uint8_t square, square2;        /* TB_CHESS_NOSQ when unused */
    uint8_t piece;                  /* TOUCH: the piece code touched; WRONG_PIECE: the code shown */
    bool own;                       /* TOUCH: a piece of the side to move */
    unsigned flags;                 /* MOVE: TB_SENSOR_MF_* */
    uint64_t clear, fill;           /* DISPLACED: square sets */
    char uci[8];                    /* move in UCI (position before it), "" if none */
    char uci2[8];                   /* WRONG_MOVE: the expected move in UCI */
    uint8_t kinds;                  /* DROP_WAITING, ILLEGAL_DROP: bits 1 << piece type */
    int reason;                     /* ILLEGAL_DROP: the variant's refusal code */
    const char *article;            /* ILLEGAL_DROP: the article behind it ("2.5"), or "" */
};

typedef struct tb_sensor tb_sensor;

/* Creates a recogniser for the start position with the board set up to match. cfg NULL =
 * defaults. TB_ERR_ARG for blip_ms, wobble_ms or settle_ms over 10 s, promo_wait_ms or
 * promo_prompt_ms over 600 s; TB_ERR_MEM. */
int tb_sensor_new(const struct tb_sensor_config *cfg, tb_sensor **out);
void tb_sensor_free(tb_sensor *s);

/* New game position, board assumed set up to match it (occupancy = the position's). Drops
 * pending events and outputs; mode PLAYING. */
void tb_sensor_reset(tb_sensor *s, const tb_chess_pos *pos, uint64_t now_ms);

/* The game has moved on (or back) without this board's help: new position, the board's
 * occupancy stays what its events say. Drops the move in progress (touches, pending decision). */
void tb_sensor_set_position(tb_sensor *s, const tb_chess_pos *pos, uint64_t now_ms);

/* A full occupancy reading (firmware snapshot) replaces what the events built up; events still
 * inside their blip window are dropped (the snapshot is newer). */
void tb_sensor_set_occupancy(tb_sensor *s, uint64_t occupancy, uint64_t now_ms);

/* PLAYING, or REPLICATING with the expected move (legal in the current position, a drop
 * included). TB_ERR_ARG / TB_ERR_ILLEGAL otherwise (nothing changes). */
int tb_sensor_set_mode(tb_sensor *s, enum tb_sensor_mode mode, tb_chess_move expected);

/* Board events. piece: for boards that report identity, the piece code placed (tb_chess
 * codes), else 0. Times must not go back: TB_ERR_STATE (event ignored); TB_ERR_ARG for a bad
 * square or piece. Each event first runs tb_sensor_tick(s, ms). */
int tb_sensor_lift(tb_sensor *s, int square, uint64_t ms);
int tb_sensor_place(tb_sensor *s, int square, int piece, uint64_t ms);

/* A choice of piece: for a promotion (TB_CHESS_KNIGHT..TB_CHESS_QUEEN) or a drop (a kind in
 * hand, TB_CHESS_PAWN..TB_CHESS_QUEEN), before, during or after the placement: a move waiting
 * for its piece is decided with it at once; earlier, it is kept for the move to come. TB_OK
 * without effect when it names the piece of the promotion or drop just decided, before any
 * other event (the copier naming the piece put down). TB_ERR_ILLEGAL when a drop waits and that
 * kind may not go there (an ILLEGAL_DROP output names the article; the drop still waits).
 * TB_ERR_STATE (nothing changes) when no move can take it: the move was already decided with
 * another piece or other events came since, or the side to move has none. */
int tb_sensor_choose(tb_sensor *s, int ptype, uint64_t ms);

/* The player ended the move (pressed the clock, 6.2.1; the game goes on): a board waiting to
 * see whether a move is the start of another (settle_ms) is read as it stands, and a promotion
 * still waiting for its piece gets the queen (7.5.2, reported). Returns 1 if that decided a
 * move, else 0. */
int tb_sensor_end_move(tb_sensor *s, uint64_t now_ms);

/* Lets time pass: takes every decision due at or before now_ms. */
void tb_sensor_tick(tb_sensor *s, uint64_t now_ms);

/* Lets time pass until nothing is pending (end of a replay); the end of the events ends the
 * move (tb_sensor_end_move). */
void tb_sensor_flush(tb_sensor *s);

/* When the next decision falls due without further events (wake up then and tick), or
 * UINT64_MAX if nothing is pending. */
uint64_t tb_sensor_deadline(const tb_sensor *s);

/* Takes the oldest output: 1 if one was written to out, 0 if none. The queue holds 64; on
 * overflow the oldest are dropped and counted (tb_sensor_dropped). */
int tb_sensor_poll(tb_sensor *s, struct tb_sensor_out *out);
unsigned long tb_sensor_dropped(const tb_sensor *s);

/* The game position as the recogniser now sees it (advanced by every move it output). */
const tb_chess_pos *tb_sensor_position(const tb_sensor *s);
/* The board's occupancy as the confirmed events leave it. */
uint64_t tb_sensor_occupancy(const tb_sensor *s);
/* The squares holding pieces reported displaced (7.4) that no move can use: to be cleared. */
uint64_t tb_sensor_strays(const tb_sensor *s);

/* ---- pieces put on the board from beside it (doorgeefschaak's drops) --------------------- */

/* A variant in which a move may put a piece from beside the board on an empty square (the
 * drops of doorgeefschaak, host/bughouse). The recogniser keeps each side's pieces in hand;
 * a piece placed on an empty square while nothing is lifted is a drop when the side to move
 * holds a kind that may go there: that kind when it is the only one, else the drop waits for
 * the choice (tb_sensor_choose, a piece code from the board, or the expected move when
 * copying), as a promotion waits for its piece; a DROP_WAITING output asks for it after
 * promo_prompt_ms. A placement no kind in hand may make is an ILLEGAL_DROP, with nothing in
 * hand a stray (7.4) as ever. Placements lifted within the blip window, pieces knocked from
 * one square onto another and pieces wobbling in their holes are never drops. The rules are
 * the variant's: pure functions of the position and the hand of the side to move. */
struct tb_sensor_drops {
    /* Sets kinds[sq] to the bits 1 << type of the kinds that side may place on sq as its move
     * (kinds starts all zero). */
    void (*legal)(const tb_chess_pos *pos, const uint8_t hand[6], uint8_t kinds[64]);
    /* Why placing type on sq is no legal move: a code > 0 of the variant; 0 if it is one. */
    int (*refuse)(const tb_chess_pos *pos, const uint8_t hand[6], int type, int sq);
    /* The article behind a refusal code ("2.5"), for the reports. */
    const char *(*article)(int reason);
    /* The variant's move value for the drop (MOVE outputs carry it, REPLICATING expects it). */
    tb_chess_move (*move)(int type, int sq);
};

/* Turns drops on with the variant's rules (a table that outlives the recogniser) or off
 * (NULL); the hands are emptied. */
void tb_sensor_set_drops(tb_sensor *s, const struct tb_sensor_drops *rules);
/* The pieces in hand of color: hand[TB_CHESS_PAWN..TB_CHESS_QUEEN] (hand[0] and the king's
 * ignored). A drop the recogniser outputs takes its piece from there itself; pieces passed by
 * the partner are the caller's to add. A placement already reported stays what it was
 * reported as. TB_ERR_ARG for a bad colour, more than 16 of a kind or no drops turned on. */
int tb_sensor_set_hand(tb_sensor *s, int color, const uint8_t hand[6], uint64_t now_ms);
/* The pieces in hand of color (6 counts, indexed by piece type). */
const uint8_t *tb_sensor_hand(const tb_sensor *s, int color);

/* What waits for a choice of piece (a button cycling through the kinds needs them). */
enum tb_sensor_wait { TB_SENSOR_WAIT_NONE = 0, TB_SENSOR_WAIT_PROMOTION, TB_SENSOR_WAIT_DROP };
/* The move waiting for its piece: its square (the promotion or drop square) and the kinds it
 * may take (bits 1 << type: knight to queen for a promotion, the kinds that may go there for a
 * drop). Either pointer may be NULL. */
enum tb_sensor_wait tb_sensor_waiting(const tb_sensor *s, int *square, unsigned *kinds);

/* Short name of a problem kind as `twinboard replay` prints it ("touch-move", "displaced"). */
const char *tb_sensor_problem_name(enum tb_sensor_problem p);

/* An output as one `twinboard replay` line: "e2e4" for a move, "! illegal e2 placed e5" for a
 * problem, "touch own e2" / "touch opponent d5" for a touch. Returns the length or
 * TB_ERR_FULL (160 bytes always suffice). */
int tb_sensor_out_format(const struct tb_sensor_out *o, char *buf, size_t len);

/* Feeds one event-script event: lift, place (with its piece letter if any), choose; press and
 * release are not the recogniser's business and are ignored (TB_OK). Errors as above. */
int tb_sensor_feed(tb_sensor *s, const struct tb_script_event *ev);

/* ---- event-script generator (for tests, benchmarks and `twinboard events-from-pgn`) ------ */

/* Turns moves into the events one board would report, with random but lawful handling orders
 * (captures either order, castling king first, e.p. in its three orders, promotion with the
 * new piece before or after the pawn leaves), human timing, hesitations, fly-over blips and
 * optional faults. After each move it writes `# expect: <uci>`, before each fault the problem
 * the recogniser must report (`# expect: ! illegal e2 placed e5`). Deterministic per seed. */
enum tb_sensor_gen_fault {
    TB_SENSOR_GEN_NO_FAULT = 0,
    TB_SENSOR_GEN_WRONG_SQUARE,    /* the piece first placed on a square it cannot go to */
    TB_SENSOR_GEN_KNOCKED_PIECE,   /* an opponent piece knocked onto a neighbouring square */
    TB_SENSOR_GEN_SAME_SIDE_TWICE, /* the side that just moved moves again, then takes it back */
};

struct tb_sensor_gen_config {
    const char *board; /* board name on every line; NULL = "vi" */
    bool blips;        /* fly-over blips on empty squares along the path */
    bool hesitations;  /* lift, put back, lift again */
    enum tb_sensor_gen_fault fault;
    double fault_rate;    /* chance per move, 0..1 */
    uint32_t blip_ms;     /* the recogniser's blip window; blips stay well inside it */
    bool wobbles;         /* pieces wobbling in their holes within the blip window: no touch */
    bool strays;          /* after a capture, the taken piece dropped into an empty hole (7.4,
                             `# expect: ! displaced clear x`) and taken away before, during or
                             after the next move */
    bool late_choices;    /* half the promotions chosen 0.1-0.9 s or 2 s after the placement */
    bool copy;            /* the board copies the moves (REPLICATING): castling rook first too */
    bool pawn_stays;      /* the pawn itself goes to the promotion square and stays (doorgeefschaak
                             3.1): no new piece is put down before the pawn leaves */
    bool new_piece_first; /* every promotion puts the new piece down before the pawn leaves
                             (4.6), the choice before or after */
    bool quick_strays;    /* strays (above) dropped 20-90 ms after the capture's last event, or
                             while both of its pieces are in the air, before it lands */
    bool carry;           /* the moving piece carried low over the squares on its way: each
                             closes for a dwell of 5 ms to noise_ms, reported by the firmware
                             only when it lasts its debounce (20 ms) */
    uint32_t noise_ms;    /* 0: blips and wobbles stay inside blip_ms; else their dwell is 5 ms
                             to noise_ms whatever the window (measuring the window, 20..1000) */
};

struct tb_sensor_gen {
    struct tb_sensor_gen_config cfg;
    char board[TB_SCRIPT_NAME_MAX];
    uint64_t rng; /* PRNG state */
    uint64_t t;   /* the script's clock, ms */
    long faults;  /* faults written so far */
};

void tb_sensor_gen_config_default(struct tb_sensor_gen_config *cfg);
/* TB_ERR_ARG for a bad board name, rate or fault. */
int tb_sensor_gen_init(struct tb_sensor_gen *g, const struct tb_sensor_gen_config *cfg,
                       uint64_t seed);

/* Receives each line; non-zero stops the generator and is returned. */
typedef int (*tb_sensor_gen_fn)(void *user, const struct tb_script_event *ev);

/* Writes the events of n legal moves from start. TB_ERR_ILLEGAL (err names the ply) if a move
 * is not legal. */
int tb_sensor_gen_moves(struct tb_sensor_gen *g, const tb_chess_pos *start,
                        const tb_chess_move *moves, int n, tb_sensor_gen_fn fn, void *user,
                        struct tb_error *err);
/* The events of one legal move m in pos from g->t on (no thinking time before it), with the
 * configured noise and faults (strays excepted: they belong to the next move); a knocked piece
 * is back on its square when it returns. g->t is then the time of the last event. For callers
 * that interleave boards or place pieces from beside the board themselves. */
int tb_sensor_gen_move(struct tb_sensor_gen *g, const tb_chess_pos *pos, tb_chess_move m,
                       tb_sensor_gen_fn fn, void *user, struct tb_error *err);

#endif /* TB_SENSOR_H */
