/* sensor_internal.h - the recogniser's state, shared by its files. */
#ifndef TB_SENSOR_INTERNAL_H
#define TB_SENSOR_INTERNAL_H

#include "tb_sensor.h"

#define TB_SENSOR_QUEUE_CAP 32
#define TB_SENSOR_OUT_CAP   64
#define TB_SENSOR_NOTIME    UINT64_MAX
/* A lift reported up to this long after a placement on another square is taken as before it:
 * a piece leaves its hole before it lands elsewhere, but one scan of the board (and the
 * per-square debounce of the firmware, 20 ms) may report the two the other way round. */
#define TB_SENSOR_SCAN_SLACK_MS 30

/* A legal move of the current position as the board shows it. */
struct tb_sensor_cand {
    tb_chess_move move;
    uint64_t post;    /* occupancy after the move */
    uint64_t touched; /* occupied squares the move empties at some point (may be refilled) */
    uint64_t added;   /* squares the move fills that were empty */
    uint8_t from, to; /* the moving piece's squares (king's for castling) */
    uint8_t rook_from, rook_to; /* castling: the rook's squares, else TB_CHESS_NOSQ */
    uint8_t capture_sq;
    uint8_t promo;      /* promotion piece type or 0 */
    uint8_t drop;       /* a drop: the type put on `to` from beside the board (from: NOSQ) */
    bool capture_on_to; /* an ordinary capture: the victim's square is refilled */
};

/* An event waiting for its placement (or one before it) to outlast the blip window. */
struct tb_sensor_qev {
    bool place;
    uint8_t square;
    uint8_t piece;
    uint64_t ms;
};

struct tb_sensor {
    struct tb_sensor_config cfg;
    enum tb_sensor_mode mode;
    tb_chess_move expected;
    uint64_t now;

    tb_chess_pos pos;      /* game position */
    tb_chess_pos prev_pos; /* before the last move output, for rook-first castling */
    tb_chess_move last_move;
    unsigned long moves; /* moves output so far */
    uint64_t base;       /* occupancy of pos */
    uint64_t occ;        /* occupancy of the board after the confirmed events */
    uint64_t stray;      /* 7.4: pieces placed where no move puts them (displaced); never part of a
                            move, cleared when lifted */
    uint64_t gone;       /* squares emptied when a stray appeared (a knocked piece's home): counted
                            as filled until filled again, so other moves are still read */
    int ncand;
    struct tb_sensor_cand cand[TB_CHESS_MAX_MOVES];

    /* drops (a variant with pieces in hand): the rules, each side's hand, and the kinds the
     * side to move may place on each square */
    const struct tb_sensor_drops *drops;
    uint8_t hand[2][6];
    uint8_t drop_kinds[64];
    struct tb_sensor_cand drop_cand; /* the drop the board shows, when it shows one */

    /* the move in progress */
    uint32_t seq; /* event counter: orders lifts and places */
    uint64_t lifted, placed;
    uint32_t lift_seq[64], place_seq[64];
    uint8_t place_piece[64];  /* piece code reported with the last place, 0 if unknown */
    int touch_own, touch_opp; /* first touched squares, -1 if none */
    uint64_t touch_own_ms, touch_opp_ms;
    int touch_rook; /* 4.4.1: a rook touched after the king was touched first, -1 if none */
    int choice;     /* promotion piece type from `choose`, 0 if none */
    int exempt_sq;  /* promotion square right after a promotion: the piece swap there is no touch */
    int just_dropped; /* the type of the drop just output, until the next board event */
    bool illegal;     /* an illegal placement of this attempt was reported (one per attempt) */

    /* decisions waiting for time */
    bool promo_pending; /* 4.6: a promotion waits for its piece, or a drop for its kind */
    bool choice_drop;   /* what waits is a drop (on choice_sq): it has no default piece */
    int choice_sq;
    bool promo_prompted;
    tb_chess_move promo_move;
    uint64_t promo_since, promo_event_ms;
    bool settle_pending; /* a move that may be the start of another waits for the board to rest */
    bool settled;        /* evaluating at the end of that rest: decide */
    uint64_t settle_since, settle_event_ms;
    bool missing_pending; /* pieces missing, nothing misplaced: report when it lasts */
    uint64_t missing_since, missing_event_ms;
    bool reported; /* the unexplained occupancy reported_occ has been reported */
    uint64_t reported_occ;

    struct tb_sensor_qev q[TB_SENSOR_QUEUE_CAP];
    int qn;

    struct tb_sensor_out out[TB_SENSOR_OUT_CAP];
    int ohead, on;
    unsigned long dropped;
};

/* The occupancy moves are read from: strays left out, knocked pieces at home. */
static inline uint64_t tb_sensor__seen(const tb_sensor *s)
{
    return (s->occ & ~s->stray) | s->gone;
}

static inline int tb_sensor__lowest(uint64_t set)
{
    return __builtin_ctzll(set);
}

/* recognise.c */
void tb_sensor__cand_fill(const tb_chess_pos *pos, tb_chess_move m, uint64_t base,
                          struct tb_sensor_cand *c);
void tb_sensor__set_uci(const tb_chess_pos *pos, tb_chess_move m, char buf[8]);
void tb_sensor__cand_uci(const tb_sensor *s, const struct tb_sensor_cand *c, char buf[8]);
struct tb_sensor_out *tb_sensor__problem(tb_sensor *s, enum tb_sensor_problem p, uint64_t t,
                                         uint64_t event_ms);
int tb_sensor__wanted_promo(const tb_sensor *s, int to);
void tb_sensor__load_position(tb_sensor *s, const tb_chess_pos *pos);
void tb_sensor__clear_move(tb_sensor *s);
void tb_sensor__apply(tb_sensor *s, const struct tb_sensor_qev *ev, uint64_t t);
void tb_sensor__evaluate(tb_sensor *s, uint64_t t, uint64_t event_ms);
void tb_sensor__promo_timeout(tb_sensor *s, bool limit);
void tb_sensor__settle_timeout(tb_sensor *s, uint64_t t, uint64_t event_ms);
void tb_sensor__missing_timeout(tb_sensor *s);
bool tb_sensor__promo_end(tb_sensor *s, uint64_t t, uint64_t event_ms);
bool tb_sensor__can_promote(const tb_sensor *s);
struct tb_sensor_out *tb_sensor__emit(tb_sensor *s, enum tb_sensor_out_kind kind, uint64_t t,
                                      uint64_t event_ms);

/* drop.c */
void tb_sensor__load_drops(tb_sensor *s);
const struct tb_sensor_cand *tb_sensor__drop_match(tb_sensor *s, uint64_t occ, bool *no_choice);
bool tb_sensor__illegal_drop(tb_sensor *s, uint64_t occ, uint64_t t, uint64_t event_ms);
int tb_sensor__drop_choice(tb_sensor *s, int ptype, uint64_t ms);
bool tb_sensor__can_drop(const tb_sensor *s, int ptype);
bool tb_sensor__expected_drop(const tb_sensor *s, tb_chess_move m, int *type, int *sq);
void tb_sensor__drop_prompt(tb_sensor *s, struct tb_sensor_out *o);

/* problems.c */
void tb_sensor__check_touch_move(tb_sensor *s, const struct tb_sensor_cand *c, uint64_t t,
                                 uint64_t event_ms, const char *uci);
void tb_sensor__report_unexplained(tb_sensor *s, uint64_t t, uint64_t event_ms);

#endif /* TB_SENSOR_INTERNAL_H */
