/* tb_clock.h - the built-in chess clock (Article 6): time controls, the two clocks, flag fall
 * and its 6.9 judgement, the talking clock's data (D.2.6, D.2.10.4) and the PGN clock texts.
 *
 * Pure: no I/O, no allocation, no writable globals; time is passed in as milliseconds on any
 * monotonic scale the caller chooses (the daemon uses its poll loop's clock, tests their script
 * time). Everything is deterministic: the same calls give the same results and events.
 *
 * Sides are TB_CHESS_WHITE (0) and TB_CHESS_BLACK (1). Errors are the codes of tb_err.h; a
 * failing call changes nothing and, where it takes a struct tb_error, says what and where.
 * docs/clock.md describes the time-control syntax, the presets and the behaviour.
 */
#ifndef TB_CLOCK_H
#define TB_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"

/* ---- time controls (6.3, Appendix A and B) ----------------------------------------------- */

#define TB_CLOCK_MAX_PERIODS 4
/* Limits the parser enforces: a period's time, a move's bonus, a period's move count. */
#define TB_CLOCK_MAX_PERIOD_MS (100ULL * 3600 * 1000)
#define TB_CLOCK_MAX_BONUS_MS  (3600ULL * 1000)
#define TB_CLOCK_MAX_MOVES     500

/* What a move earns besides the period's time (6.3). */
enum tb_clock_bonus {
    TB_CLOCK_BONUS_NONE = 0,
    TB_CLOCK_FISCHER,   /* cumulative: the increment is added after every completed move */
    TB_CLOCK_DELAY,     /* 6.3.2 non-cumulative ("US delay"): the base time does not run during
                           the first bonus_ms of each move */
    TB_CLOCK_BRONSTEIN, /* the base time runs at once; at the press the time used, up to
                           bonus_ms, is given back */
};

struct tb_clock_period {
    uint32_t moves;   /* moves to complete in this period; 0: all remaining moves */
    uint64_t time_ms; /* added to the clock when the period begins */
    uint8_t bonus;    /* enum tb_clock_bonus */
    uint64_t bonus_ms;
};

/* A control is one to TB_CLOCK_MAX_PERIODS periods. When the last period has a move count it
 * repeats: every further `moves` moves add its time again. */
struct tb_clock_control {
    int nperiods;
    struct tb_clock_period periods[TB_CLOCK_MAX_PERIODS];
};

/* Parses a time control (docs/clock.md):
 *
 *     club | blitz                         presets of the club's rules (1h30 + 15 s; 7 min)
 *     90m+15s   7m   5m+3s   1h30m+15s     time [+ increment]: units h m s, in that order
 *     5400+15   420                        PGN TimeControl form: bare numbers are seconds
 *     40/120m+30s, 30m+30s                 periods: moves/time, separated by ',' or ':'
 *     40/7200+30:1800+30                   the same as PGN writes it
 *     25m d5s                              delay (6.3.2): the first 5 s of a move are free
 *     25m b5s                              Bronstein: up to 5 s of a move are given back
 *
 * Blanks around tokens are allowed; case is ignored. On error out is unchanged and err says
 * which column (err->column, 1-based) and what was expected there. TB_ERR_ARG for NULL text or
 * out; TB_ERR_PARSE for text that is no control; TB_ERR_SUPP for PGN's "?", "-" and sandglass
 * "*N" forms (the clock needs a limit it can run down). */
int tb_clock_control_parse(struct tb_clock_control *out, const char *text, struct tb_error *err);

/* The canonical text of a control ("90m+15s", "40/120m+30s, 30m+30s", "25m d5s"): times in
 * whole minutes where possible, else minutes and seconds; parsing it gives the same control.
 * snprintf semantics: returns the full length, writes at most len bytes including the NUL;
 * TB_ERR_ARG for an invalid control. 64 bytes always suffice. */
int tb_clock_control_format(const struct tb_clock_control *c, char *buf, size_t len);

/* The PGN TimeControl tag value: "5400+15", "420", "40/7200+30:1800+30". PGN has no field for
 * delays; they are written with the parser's letters ("1500d5", "1500b5"), which
 * tb_clock_control_parse reads back. snprintf semantics as above. */
int tb_clock_control_pgn(const struct tb_clock_control *c, char *buf, size_t len);

/* TB_OK if c is a control the clock can run (1..TB_CLOCK_MAX_PERIODS periods, times within
 * the limits above and more than 0, only the last period without a move count), else
 * TB_ERR_ARG with the reason in err. The parser only produces valid controls. */
int tb_clock_control_check(const struct tb_clock_control *c, struct tb_error *err);

/* Appendix A.1 / B.1: blitz when the first period's time plus 60 times its bonus is 10 minutes
 * or less, rapid when more than 10 and less than 60 minutes, standard otherwise. */
enum tb_clock_category { TB_CLOCK_STANDARD = 0, TB_CLOCK_RAPID, TB_CLOCK_BLITZ };
enum tb_clock_category tb_clock_control_category(const struct tb_clock_control *c);

/* The time penalty the arbiter gives the opponent (7.5.5): two minutes in standard chess, one
 * in rapid and blitz (A.3, B.3). */
uint64_t tb_clock_penalty_ms(const struct tb_clock_control *c);

/* Parses a list of warning thresholds for tb_clock_set_warnings, as a configuration writes it:
 * "5m, 1m", "10m, 1m30s, 30s" (durations as in a control, separated by ','; a bare number
 * is seconds). Returns how many (0 for an empty text), or TB_ERR_PARSE / TB_ERR_FULL (more than
 * `cap`) with the column in err; out is unchanged on error. */
int tb_clock_warnings_parse(uint64_t *out, int cap, const char *text, struct tb_error *err);

/* ---- the clock --------------------------------------------------------------------------- */

#define TB_CLOCK_NEVER       UINT64_MAX   /* no deadline: nothing runs */
#define TB_CLOCK_MAX_TIME_MS (1ULL << 62) /* times given to the clock stay below this */
#define TB_CLOCK_MAX_WARN    8            /* warning thresholds per side */
#define TB_CLOCK_EVENT_QUEUE 32

enum tb_clock_event_kind {
    TB_CLOCK_EV_FLAG = 1, /* 6.1, 6.8: the side's time has run out */
    TB_CLOCK_EV_WARN,     /* the side's remaining time reached a warning threshold */
    TB_CLOCK_EV_PERIOD,   /* the side completed a period's moves; the next period's time added */
};

struct tb_clock_event {
    uint8_t kind;       /* enum tb_clock_event_kind */
    uint8_t side;       /* whose clock */
    bool first;         /* FLAG: this is the first flag of the game (the one that counts) */
    uint8_t period;     /* FLAG, WARN: the period running; PERIOD: the period just begun */
    uint32_t moves;     /* moves the side had completed */
    uint64_t at_ms;     /* exactly when it happened (not when it was noticed) */
    uint64_t threshold; /* WARN: the threshold reached, in ms */
};

/* Per side. The fields may be read (moves, period, flagged); they change only through the
 * functions below. */
struct tb_clock_side {
    uint64_t remaining_ms; /* at the start of the current move's timing (see tb_clock) */
    uint64_t used_ms;      /* thinking time of the completed moves */
    uint32_t moves;        /* moves completed (6.2.1: pressing completes a move) */
    uint32_t period_moves; /* of them, in the current period */
    uint8_t period;        /* index into the control's periods */
    bool flagged;
    uint64_t flag_ms;
    int nwarn;
    uint64_t warn_ms[TB_CLOCK_MAX_WARN]; /* descending */
    bool warn_armed[TB_CLOCK_MAX_WARN];
};

enum tb_clock_state {
    TB_CLOCK_READY = 0, /* set up, not started */
    TB_CLOCK_RUNNING,   /* one side's clock runs */
    TB_CLOCK_PAUSED,    /* stopped by the arbiter or a mismatch (D.2.9, 6.11); resumes */
    TB_CLOCK_STOPPED,   /* the game is over: frozen for good */
};

/* A chess clock. Plain data the caller owns (about 1.2 kB); tb_clock_init sets it up. */
typedef struct tb_clock {
    struct tb_clock_control control;
    uint8_t state;         /* enum tb_clock_state */
    uint8_t turn;          /* the side whose clock runs (or will, once started or resumed) */
    uint64_t now_ms;       /* the latest time any call was given; time never goes back */
    uint64_t run_ms;       /* when the turn side's clock last started running */
    uint64_t move_used_ms; /* time the turn side spent on its current move before run_ms */
    bool any_flag;
    struct tb_clock_side side[2];
    int ev_head, ev_count;
    uint32_t ev_lost; /* events dropped because the queue was full (flags stay in the state) */
    struct tb_clock_event events[TB_CLOCK_EVENT_QUEUE];
} tb_clock;

/* Sets the clock up for a control: each side gets the first period's time, no move made,
 * nothing running (READY). TB_ERR_ARG (err says why) for an invalid control. */
int tb_clock_init(tb_clock *c, const struct tb_clock_control *control, struct tb_error *err);

/* Starts the clock of `side` at t (6.6: White's at the start of the game; a resumed game's
 * side to move, I.9). READY only: TB_ERR_STATE otherwise. */
int tb_clock_start(tb_clock *c, int side, uint64_t t);

/* `side` presses its clock at t: this completes its move (6.2.1). Its clock stops, the
 * opponent's starts (D.2.4: only once the move is made). The side's time is charged for the
 * move, then its bonus is applied (Fischer increment after the move, 6.3; Bronstein's give-back;
 * a delay needs nothing), the move is counted, and when it was the last move of a period the
 * next period's time is added (6.3.2: time left over carries on). A side whose flag has fallen
 * gets no more time. TB_ERR_STATE when it is not running or `side`'s clock is not the one
 * running (nothing changes). */
int tb_clock_press(tb_clock *c, int side, uint64_t t);

/* Stops the running clock at t (a mismatch stops play, D.2.9; the arbiter stops the clock,
 * 6.11) / starts it again at t. The move's timing goes on where it stopped (a delay already
 * used stays used). TB_ERR_STATE when not running / not paused. */
int tb_clock_pause(tb_clock *c, uint64_t t);
int tb_clock_resume(tb_clock *c, uint64_t t);

/* The game is over at t (6.2.1: the move that ends the game is completed without a press; the
 * caller presses first if the last move's bonus should count): the clocks freeze for good. */
int tb_clock_stop(tb_clock *c, uint64_t t);

/* The arbiter adjusts a clock (D.2.9 "adjusts the clock", 6.10.2): `side` gets remaining_ms
 * and `moves` completed moves; its period follows from the move count. The clock must not be
 * running (pause it first, 6.10.2: stop the clock); READY and PAUSED are fine. The timing of
 * the current move restarts (a delay starts afresh). A flag of that side is lifted when
 * remaining_ms > 0; warnings above the new time are armed again. TB_ERR_ARG for a time beyond
 * the limits, TB_ERR_STATE while running or stopped. */
int tb_clock_set(tb_clock *c, int side, uint64_t remaining_ms, uint32_t moves, uint64_t t);

/* Which clock runs on resume (after the arbiter took moves back, D.2.9). PAUSED or READY. */
int tb_clock_set_turn(tb_clock *c, int side);

/* Warning thresholds for `side` (e.g. 5 and 1 minutes, D.2.6: the VI player's talking clock):
 * each gives one TB_CLOCK_EV_WARN when the side's time reaches it. Thresholds at or above the
 * side's current time are not armed; a new period's time or the arbiter's set arms again those
 * below the new time. n = 0 clears them. TB_ERR_ARG for n > TB_CLOCK_MAX_WARN or a threshold of
 * 0 (the flag is the flag); duplicates count once. */
int tb_clock_set_warnings(tb_clock *c, int side, const uint64_t *thresholds_ms, int n);

/* Brings the clock to t: flag falls and warnings up to t become events, each stamped with its
 * exact time. Every call above that takes t does this first, and every one of them refuses
 * (TB_ERR_ARG, nothing changes) a t earlier than a time already given or not below
 * TB_CLOCK_MAX_TIME_MS. Returns the number of events now queued. */
int tb_clock_update(tb_clock *c, uint64_t t);

/* Takes the oldest queued event; false when there is none. */
bool tb_clock_event_pop(tb_clock *c, struct tb_clock_event *ev);

/* When the daemon must next call tb_clock_update: the running side's next warning or flag
 * fall, TB_CLOCK_NEVER when nothing runs or its flag has fallen. */
uint64_t tb_clock_next_deadline(const tb_clock *c);
/* When the running side's flag falls if it does not press (TB_CLOCK_NEVER as above). */
uint64_t tb_clock_flag_deadline(const tb_clock *c);

/* The time `side` has left at t (0 once its flag has fallen). For t earlier than the clock's
 * latest time the latest time is used. */
uint64_t tb_clock_remaining(const tb_clock *c, int side, uint64_t t);
/* The thinking time `side` has used at t, the current move included. */
uint64_t tb_clock_used(const tb_clock *c, int side, uint64_t t);

/* ---- flag fall: 6.9 ---------------------------------------------------------------------- */

enum tb_clock_verdict {
    TB_CLOCK_LOSS = 1, /* 6.9: the side that ran out of time loses */
    TB_CLOCK_DRAW,     /* 6.9: its opponent cannot mate by any series of legal moves */
    TB_CLOCK_ENDED,    /* the position had already ended the game (5.1.1 mate, 5.2.1
                          stalemate): the flag does not count */
};

struct tb_clock_judgement {
    uint8_t verdict; /* enum tb_clock_verdict */
    char result[8];  /* "1-0", "0-1" or "1/2-1/2"; "" for ENDED */
    const char *why; /* one English sentence citing the article, for the log and the arbiter */
};

/* Judges a flag fall of `side` in pos (the position on the board when the flag fell) by 6.9,
 * using tb_chess_can_mate for "can the opponent mate by any series of legal moves". A second
 * flag (ev->first false) is judged the same way but does not change a result already given by
 * the first: electronic clocks always know which flag fell first, so Guideline III.3.1's "it is
 * impossible to establish which flag fell first" never arises. TB_ERR_ARG for a bad side. */
int tb_clock_judge_flag(const tb_chess_pos *pos, int side, struct tb_clock_judgement *out);

/* ---- the talking clock (D.2.6, D.2.10.4) and the PGN clock -------------------------------- */

struct tb_clock_hms {
    uint32_t hours;
    uint8_t minutes, seconds; /* whole seconds, rounded down: a clock never claims more time */
};

/* Splits ms into hours, minutes and whole seconds (rounded down). */
struct tb_clock_hms tb_clock_hms(uint64_t ms);

struct tb_clock_side_report {
    struct tb_clock_hms left; /* time left */
    struct tb_clock_hms used; /* thinking time used */
    uint64_t left_ms, used_ms;
    uint32_t moves; /* moves completed */
    bool running;   /* this side's clock runs now */
    bool flagged;
};

/* What the talking clock says to `side` (D.2.6.1: the playing time and the number of moves;
 * D.2.10.4: moves made and time used by both players): its own clock first, then the
 * opponent's, as data for the voice packs to phrase. */
struct tb_clock_report {
    struct tb_clock_side_report own, opponent;
    uint8_t state; /* enum tb_clock_state */
};
int tb_clock_report(const tb_clock *c, int side, uint64_t t, struct tb_clock_report *out);

/* The PGN clock comment for a remaining time: "[%clk 1:29:45]" (h:mm:ss, seconds rounded
 * down). snprintf semantics; 32 bytes always suffice. */
int tb_clock_format_clk(uint64_t ms, char *buf, size_t len);

#endif /* TB_CLOCK_H */
