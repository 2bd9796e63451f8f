/* tb_ctl.h - the control protocol (docs/control-protocol.md): request parser, line reader and
 * response formatter. Pure: no I/O, no clock, no game state.
 *
 * One request per line (UTF-8, at most TB_CTL_LINE_MAX bytes with its newline):
 *
 *     REQUEST [ARG...] [pin=NNNN]
 *
 * A word may hold spaces inside double quotes (white="Carlsen, Magnus"); the quotes are not
 * part of it.
 *
 * Responses are lines: `ok [TEXT]` (complete), `ok+ [TEXT]` followed by data lines and a line
 * holding a single `.` (data lines starting with `.` get one more `.`), or
 * `error WORD MESSAGE`.
 *
 * The parser has no state: a request it rejects has changed nothing, because parsing changes
 * nothing anywhere. It checks syntax and arity and says whether a request needs the arbiter
 * PIN; tb_ctl_authorise() checks the PIN (constant time), called by the guard alone
 * (tb_ctl_guard_check), the one place a PIN is checked. Whether a move, a FEN or a mismatch
 * id makes sense in the game is for the daemon to decide after both have passed.
 *
 * The one client (the CLI, the demo and the tests use it) is at the end: connecting to the
 * socket and the blocking request are the only I/O here; reading an answer is pure.
 */
#ifndef TB_CTL_H
#define TB_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

#define TB_CTL_LINE_MAX 512 /* bytes of one request line, newline included */
#define TB_CTL_PIN_MIN  6   /* set-pin: the new PIN's digits, as a configuration's */
#define TB_CTL_PIN_MAX  8
#define TB_CTL_TEXT_MAX 100 /* set-position FEN, typed move */

/* A request's facts (flags of a row below) */
#define TB_CTL_PIN      0x01u /* needs the arbiter PIN (pin=, checked once, by the guard) */
#define TB_CTL_MULTI    0x02u /* answered with ok+ ... . */
#define TB_CTL_CHANGES  0x04u /* changes the game: answered once its record is on disk */
#define TB_CTL_TWIN     0x08u /* the twin game takes it */
#define TB_CTL_BUG      0x10u /* doorgeefschaak ([bughouse]) takes it */
#define TB_CTL_BY_BOARD 0x20u /* its board names the mode: vi|sighted twin, a|b doorgeefschaak */
#define TB_CTL_NEW_PIN  0x40u /* its one argument is a new PIN: the CLI never takes it as a word */

/* Every request, one row each holding all its facts; the parser, the help, the daemon's
 * dispatch (handler h: tb_daemon__ctl_h) and the CLI (command name, arguments, summary; NULL:
 * no command of its own) read these rows and nothing else.
 *
 * X(ID, name, min args, max args (pin= not counted), flags, h, help line, CLI name, CLI
 *   arguments, CLI summary) */
#define TB_CTL_VERBS(X)                                                                            \
    X(STATUS, "status", 0, 0, TB_CTL_MULTI | TB_CTL_TWIN | TB_CTL_BUG, status,                     \
      "status  the game, both boards, open mismatches", "status", "[--socket PATH]",               \
      "the running game: state, boards, open mismatches")                                          \
    X(MOVES, "moves", 0, 0, TB_CTL_MULTI | TB_CTL_TWIN, moves, "moves  the moves so far", "moves", \
      "[--socket PATH]", "the moves both boards have agreed")                                      \
    X(PGN, "pgn", 0, 0, TB_CTL_MULTI | TB_CTL_TWIN, pgn, "pgn  the game as PGN", "pgn",            \
      "[--socket PATH]", "the running game as PGN, with the arbiter's notes")                      \
    X(SCORESHEET, "scoresheet", 0, 1, TB_CTL_MULTI | TB_CTL_TWIN, pgn,                             \
      "scoresheet [en|nl|de]  the scoresheet with that language's piece letters", "sheet",         \
      "[en|nl|de] [--socket PATH]", "the running game's scoresheet (Article 8)")                   \
    /* D.2.9: the arbiter puts mismatch id right */                                                \
    X(RESOLVE, "resolve", 1, 1, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN, arbiter,                \
      "resolve <id> pin=NNNN  mismatch <id> has been put right (D.2.9)", "resolve",                \
      "ID [--pin-file F] [--socket PATH]",                                                         \
      "arbiter: confirm the resolution of mismatch ID (D.2.9); PIN: TB_PIN, file or prompt")       \
    X(TAKEBACK, "takeback", 0, 1, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN, arbiter,              \
      "takeback [n] pin=NNNN  take back n plies, 1 if not given (D.2.9)", "takeback",              \
      "[N] [--pin-file F] [--socket PATH]",                                                        \
      "arbiter: take back N plies where the scoresheets differ (D.2.9)")                           \
    /* D.2.1: the promotion piece */                                                               \
    X(PROMOTE, "promote", 1, 2, TB_CTL_CHANGES | TB_CTL_TWIN, promote,                             \
      "promote [vi|sighted] q|r|b|n  the piece for the promotion under way (D.2.1)", "promote",    \
      "[vi|sighted] q|r|b|n [--socket PATH]", "the piece for a promotion (D.2.1)")                 \
    X(REPEAT, "repeat", 0, 1, TB_CTL_TWIN, repeat,                                                 \
      "repeat [vi|sighted]  say the last announcement again", "repeat",                            \
      "[vi|sighted] [--socket PATH]", "say the last move again to a player")                       \
    X(NEW_GAME, "new-game", 0, 6, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN | TB_CTL_BUG,          \
      new_game,                                                                                    \
      "new-game [event=|site=|date=|round=|white=|black=VALUE]... pin=NNNN  start a new game "     \
      "(tags of its PGN; \"quotes\" around a value with spaces)",                                  \
      "new-game",                                                                                  \
      "[event=|site=|date=|round=|white=|black=VALUE]... [--pin-file F] [--socket PATH]",          \
      "arbiter: start a new game with the PGN tags given (its journal and PGN named by them)")     \
    X(SET_POSITION, "set-position", 1, 6, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN, arbiter,      \
      "set-position <FEN> pin=NNNN  set up a position", "set-position",                            \
      "FEN [--pin-file F] [--socket PATH]", "arbiter: set up a position on both boards")           \
    /* D.2.10.1: a typed move for a keys: board */                                                 \
    X(MOVE, "move", 2, 2, TB_CTL_CHANGES | TB_CTL_TWIN | TB_CTL_BUG | TB_CTL_BY_BOARD, move,       \
      "move vi|sighted <SAN|UCI>  a move typed for a keys: board (D.2.10.1)", "move",              \
      "vi|sighted|a|b SAN|UCI [--socket PATH]",                                                    \
      "a move typed by the assistant for a keys: board (D.2.10.1; a|b: doorgeefschaak)")           \
    X(HELP, "help", 0, 0, TB_CTL_MULTI | TB_CTL_TWIN | TB_CTL_BUG, help, "help  this list", NULL,  \
      NULL, NULL)                                                                                  \
    /* D.2.7: the game said back to the VI player on their own */                                  \
    X(REVIEW, "review", 1, 3, TB_CTL_MULTI | TB_CTL_TWIN, review,                                  \
      "review vi|sighted [last [n]|from <n>|position|to-move|material|scoresheet]  say the game "  \
      "back to that player (D.2.7)",                                                               \
      "review",                                                                                    \
      "vi|sighted [last [N]|from N|position|to-move|material|scoresheet] [--socket PATH]",         \
      "say the game back to a player (D.2.7); prints what was said")                               \
    /* the PIN changed without a restart */                                                        \
    X(SET_PIN, "set-pin", 1, 1, TB_CTL_PIN | TB_CTL_TWIN | TB_CTL_BUG | TB_CTL_NEW_PIN, set_pin,   \
      "set-pin <new PIN> pin=NNNN  change the arbiter PIN (6 to 8 digits)", "set-pin",             \
      "[--pin-file F] [--new-pin-file F] [--socket PATH]",                                         \
      "arbiter: change the PIN (new one: TB_NEW_PIN, file or prompt)")                             \
    /* the game's result (docs/broadcast.md) */                                                    \
    X(RESULT, "result", 1, 11, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN, arbiter,                 \
      "result resign white|black | draw | flag white|black | threefold | fifty | arbiter "         \
      "1-0|0-1|1/2-1/2 [REASON] pin=NNNN  the game's result",                                      \
      "result",                                                                                    \
      "resign white|black | draw | flag white|black | threefold | fifty | arbiter "                \
      "1-0|0-1|1/2-1/2 [REASON] [--pin-file F] [--socket PATH]",                                   \
      "arbiter: the game's result (PGN, live broadcast, both players hear it)")                    \
    /* the game's clock: the time left on both (D.2.9, 6.10.2) */                                  \
    X(CLOCK_SET, "clock-set", 2, 2, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_TWIN, arbiter,            \
      "clock-set <white> <black> pin=NNNN  set the time left on both clocks, e.g. 1:25:00 "        \
      "1:20:30 (D.2.9, 6.10.2)",                                                                   \
      "clock-set", "WHITE BLACK [--pin-file F] [--socket PATH]",                                   \
      "arbiter: set the time left on both clocks, e.g. 1:25:00 1:20:30 (D.2.9, 6.10.2)")           \
    X(GAMES, "games", 0, 0, TB_CTL_MULTI | TB_CTL_TWIN | TB_CTL_BUG, games,                        \
      "games  the games kept: journal and PGN of each", "games", "[--socket PATH]",                \
      "the games kept: the running one, then each game's journal and PGN")                         \
    /* doorgeefschaak: board a|b, seat white-a|black-a|white-b|black-b or 0..3 */                  \
    X(HAND, "hand", 1, 1, TB_CTL_CHANGES | TB_CTL_BUG, hand,                                       \
      "hand white-a|black-a|white-b|black-b  what that player holds, also said to them (2.6)",     \
      "hand", "white-a|black-a|white-b|black-b [--socket PATH]",                                   \
      "doorgeefschaak: what that player holds, also said to them (2.6)")                           \
    X(BPGN, "bpgn", 0, 0, TB_CTL_MULTI | TB_CTL_BUG, bpgn,                                         \
      "bpgn  both doorgeefschaak games as BPGN", "bpgn", "[--socket PATH]",                        \
      "doorgeefschaak: both games as BPGN")                                                        \
    X(RESIGN, "resign", 2, 2, TB_CTL_PIN | TB_CTL_CHANGES | TB_CTL_BUG, bug_input,                 \
      "resign a|b white|black pin=NNNN  that player resigns (doorgeefschaak 5.2)", "resign",       \
      "a|b white|black [--pin-file F] [--socket PATH]",                                            \
      "doorgeefschaak, arbiter: that player resigns (5.2)")                                        \
    X(CHOOSE, "choose", 2, 2, TB_CTL_CHANGES | TB_CTL_BUG, bug_input,                              \
      "choose a|b q|r|b|n|p  the piece of the drop or promotion waiting on that board", "choose",  \
      "a|b q|r|b|n|p [--socket PATH]",                                                             \
      "doorgeefschaak: the piece of the drop or promotion waiting on that board")                  \
    /* doorgeefschaak, article 7: the opponent's decision on an illegal move pressed (7.4) */      \
    X(ACCEPT, "accept", 1, 1, TB_CTL_CHANGES | TB_CTL_BUG, bug_input,                              \
      "accept a|b  the illegal move pressed on that board stands (doorgeefschaak 7.4)", "accept",  \
      "a|b [--socket PATH]",                                                                       \
      "doorgeefschaak: the illegal move pressed on that board stands (7.4)")                       \
    X(REPLACE, "replace", 1, 1, TB_CTL_CHANGES | TB_CTL_BUG, bug_input,                            \
      "replace a|b  the illegal move pressed on that board is taken back and replaced "            \
      "(doorgeefschaak 7.4, 7.6)",                                                                 \
      "replace", "a|b [--socket PATH]",                                                            \
      "doorgeefschaak: the illegal move pressed on that board is replaced (7.4, 7.6)")

#define TB_CTL_VERB_ENUM(id, ...) TB_CTL_##id,
enum tb_ctl_verb { TB_CTL_NO_VERB = 0, TB_CTL_VERBS(TB_CTL_VERB_ENUM) TB_CTL_NVERBS };
#undef TB_CTL_VERB_ENUM

/* One row of TB_CTL_VERBS. */
struct tb_ctl_verb_info {
    enum tb_ctl_verb verb;
    const char *name;
    int min_args, max_args;
    unsigned flags;
    const char *usage;                        /* the help line */
    const char *cli, *cli_args, *cli_summary; /* the twinboard command; NULL: none */
};

/* result: how the game ended by the players' or the arbiter's word */
enum tb_ctl_result {
    TB_CTL_RESULT_RESIGN = 1, /* resign white|black: that side resigns (5.1.2) */
    TB_CTL_RESULT_DRAW,       /* draw: agreed (5.2.3) */
    TB_CTL_RESULT_FLAG,       /* flag white|black: that side's flag fell (6.9) */
    TB_CTL_RESULT_THREEFOLD,  /* threefold: a claim (9.2), refused unless the position allows it */
    TB_CTL_RESULT_FIFTY,      /* fifty: a claim (9.3), likewise */
    TB_CTL_RESULT_ARBITER,    /* arbiter 1-0|0-1|1/2-1/2 [REASON]: the arbiter's decision */
};

/* new-game: tags of the new game (PGN's Seven Tag Roster but Result); "" = the configuration's */
enum tb_ctl_tag {
    TB_CTL_EVENT,
    TB_CTL_SITE,
    TB_CTL_DATE,
    TB_CTL_ROUND,
    TB_CTL_WHITE,
    TB_CTL_BLACK
};
#define TB_CTL_TAGS    6
#define TB_CTL_TAG_MAX 48 /* bytes of one tag value */

struct tb_ctl_request {
    enum tb_ctl_verb verb;
    bool needs_pin; /* its row's TB_CTL_PIN: tb_ctl_guard_check() must pass first */
    bool has_pin;
    char pin[TB_CTL_PIN_MAX + 1];
    unsigned number;                /* resolve: mismatch id; takeback: plies (1 when not given) */
    char lang[3];                   /* scoresheet: "en", "nl", "de", or "" for the default */
    char piece;                     /* promote: 'q', 'r', 'b' or 'n' */
    int board;                      /* repeat, move: 0 = vi, 1 = sighted; repeat without one: -1 */
    char text[TB_CTL_TEXT_MAX + 1]; /* set-position: the FEN; move: the move as typed; set-pin:
                                       the new PIN (never echoed); result arbiter: the reason;
                                       clock-set: the two times as given */
    /* review: board; text: last, from, position, to-move, material or scoresheet; number: the
     * half-moves of last (0: the default) or the move number of from */
    int how;                                   /* result: enum tb_ctl_result */
    int side;                                  /* result resign|flag: 0 = white, 1 = black */
    char result[8];                            /* result arbiter: "1-0", "0-1", "1/2-1/2" */
    char tag[TB_CTL_TAGS][TB_CTL_TAG_MAX + 1]; /* new-game: key=value words */
    /* doorgeefschaak: board is 0 = a, 1 = b (move, resign, choose, accept, replace; bug_board says
     * a board was named a or b); seat 0..3 (hand); side (resign); piece 'q' 'r' 'b' 'n' 'p'
     * (choose) */
    bool bug_board;
    int seat;
    /* clock-set: White's and Black's time left (ms), read from text; clock_ok false when they
     * are not times (the daemon says so, after what it checks first) */
    uint64_t clock_ms[2];
    bool clock_ok;
};

/* clock-set's "<white> <black>", each 1:25:00, 45:30 or a duration as a time control writes it
 * (1h25m, 90s), at most 100 hours: true and ms filled, else false. */
bool tb_ctl_clock_times(const char *text, uint64_t ms[2]);

/* The tag names new-game takes: "event", "site", "date", "round", "white", "black". */
const char *tb_ctl_tag_name(enum tb_ctl_tag t);

/* Parses one request line of len bytes (a trailing "\n" or "\r\n" is allowed; embedded NUL
 * bytes are seen and rejected). Returns 0 and fills req, or an error with err naming what and
 * where (column): TB_ERR_FULL (too long), TB_ERR_PARSE (bad bytes, syntax, arity, argument),
 * TB_ERR_NOTFOUND (unknown request). */
int tb_ctl_parse(const char *line, size_t len, struct tb_ctl_request *req, struct tb_error *err);

/* 0 when req may run: it needs no PIN, or carries the configured one. TB_ERR_PERM otherwise
 * (no PIN configured, none given, or a wrong one), err saying which. configured_pin may be
 * NULL or "" (none configured). */
int tb_ctl_authorise(const struct tb_ctl_request *req, const char *configured_pin,
                     struct tb_error *err);
/* The part of tb_ctl_authorise that needs no PIN compared: TB_ERR_PERM when req needs a PIN and
 * none is configured or none given (err saying which), else 0. */
int tb_ctl_pin_missing(const struct tb_ctl_request *req, const char *configured_pin,
                       struct tb_error *err);

/* Why a PIN may not be the arbiter's: NULL when it may; else the reason (never the PIN), to
 * follow "the new PIN" or "pin": not 6 to 8 digits, one digit repeated (000000), or a run up or
 * down (123456, 987654, 890123). The configuration and set-pin ask the same. */
const char *tb_ctl_pin_weakness(const char *pin);

/* Compares two PINs in time independent of where they differ. */
bool tb_ctl_pin_equal(const char *expected, const char *given);

/* The row of a request; NULL if there is none. tb_ctl_verb_at(i): the i-th row, NULL after the
 * last. */
const struct tb_ctl_verb_info *tb_ctl_verb_info(enum tb_ctl_verb verb);
const struct tb_ctl_verb_info *tb_ctl_verb_at(int i);
const char *tb_ctl_verb_name(enum tb_ctl_verb verb);  /* "set-position"; "" if unknown */
bool tb_ctl_verb_is_multiline(enum tb_ctl_verb verb); /* answered with ok+ ... . */
/* Help text, one line per request ("resolve <id> pin=NNNN  ..."); NULL after the last. */
const char *tb_ctl_help_line(int i);
/* The table modes that take req (TB_CTL_TWIN, TB_CTL_BUG): its row's, or for a request whose
 * board names the mode (TB_CTL_BY_BOARD) that board's. */
unsigned tb_ctl_request_modes(const struct tb_ctl_request *req);

/* ---- wrong PINs: delays and lockout (ctlguard.c) ------------------------------------------ */

/* A peer is whoever sent a PIN: a uid on the control socket (its value, below 2^32), or a sender
 * named in a command from the broker (tb_ctl_guard_peer_named: 2^32 and above).
 *
 * Per peer: the n-th wrong PIN in a row holds the answer and that peer's next check back
 * TB_CTL_PIN_DELAY_MS * 2^(n-1) (at most TB_CTL_PIN_DELAY_MAX_MS); from the
 * TB_CTL_PIN_LOCKOUT_AFTER-th on, each wrong PIN locks that peer out for TB_CTL_PIN_LOCKOUT_MS
 * (no PIN of it is checked meanwhile). A right PIN clears its peer; an hour without a wrong PIN
 * clears a peer. So from one peer the first 10 wrong PINs take at least 1+2+4+...+64+64+64 =
 * 255 s and every further one 15 minutes: 10,000 take over 104 days.
 *
 * Across all peers a ceiling: wrong PINs may come at most one per TB_CTL_PIN_GLOBAL_EVERY_MS
 * with a burst of TB_CTL_PIN_GLOBAL_BURST. Peers with wrong PINs of their own may use the burst
 * only down to TB_CTL_PIN_GLOBAL_RESERVE: the rest is kept for peers without one, so another
 * peer's failures never lock out a peer with the right PIN (it waits at most one step of the
 * ceiling, unless many peers it has never seen fail at once). 10,000 wrong PINs from any number
 * of peers take at least (10,000 - 30) * 0.4 s = 3,988 s, over an hour. */
#define TB_CTL_PIN_DELAY_MS        1000u
#define TB_CTL_PIN_DELAY_MAX_MS    64000u
#define TB_CTL_PIN_LOCKOUT_AFTER   10u
#define TB_CTL_PIN_LOCKOUT_MS      (15u * 60u * 1000u)
#define TB_CTL_PIN_GLOBAL_EVERY_MS 400u
#define TB_CTL_PIN_GLOBAL_BURST    30u
#define TB_CTL_PIN_GLOBAL_RESERVE  10u
#define TB_CTL_PIN_FORGET_MS       (60u * 60u * 1000u)
#define TB_CTL_GUARD_PEERS         64

struct tb_ctl_guard_peer {
    uint64_t peer;
    uint32_t fails;
    uint64_t last_fail, next, locked_until;
};
struct tb_ctl_guard {
    struct tb_ctl_guard_peer peer[TB_CTL_GUARD_PEERS]; /* peers with wrong PINs (oldest reused) */
    uint64_t tat; /* the ceiling: when the next wrong PIN would be on time with none before it */
};

void tb_ctl_guard_init(struct tb_ctl_guard *g);
/* The peer of a sender named by kind and name (say "hall", a session's id): 2^32 and above. */
uint64_t tb_ctl_guard_peer_named(const char *kind, const char *name);
/* May a PIN from peer be checked at now (ms, monotonic)? 0 yes; 1 not before *at (hold the
 * request until then); TB_ERR_PERM locked out until *at (refuse it without checking). */
int tb_ctl_guard_when(struct tb_ctl_guard *g, uint64_t peer, uint64_t now, uint64_t *at);
/* A PIN of peer was checked at now: right or wrong. Returns how long the answer to a wrong one
 * is held back (ms; 0 for a right one); *locked when this one locked the peer out. */
uint64_t tb_ctl_guard_result(struct tb_ctl_guard *g, uint64_t peer, bool right, uint64_t now,
                             bool *locked);
/* The one place a request's PIN is checked: once the guard lets peer's PIN be checked
 * (tb_ctl_guard_when), req's PIN against the configured one (tb_ctl_authorise), counted as
 * tb_ctl_guard_result counts it. 0 right; TB_ERR_PERM wrong (or none to check against), *delay
 * how long its answer is held back and *locked when this one locked the peer out. */
int tb_ctl_guard_check(struct tb_ctl_guard *g, uint64_t peer, const struct tb_ctl_request *req,
                       const char *configured_pin, uint64_t now, uint64_t *delay, bool *locked);
/* Wrong PINs in a row of peer. */
uint32_t tb_ctl_guard_fails(struct tb_ctl_guard *g, uint64_t peer, uint64_t now);

/* ---- refusals in the log: counted, told at a bounded rate (ctllog.c) ----------------------- */

/* In each window of TB_CTL_LOG_WINDOW_MS the first TB_CTL_LOG_TELL refusals (of any peers) are
 * told one by one; the rest are counted per peer (TB_CTL_LOG_PEERS apart, the others together)
 * and told as one line per peer when the window ends. So a flood of refused requests writes at
 * most TB_CTL_LOG_TELL + TB_CTL_LOG_PEERS + 1 lines a minute, whatever its rate. */
#define TB_CTL_LOG_WINDOW_MS 60000u
#define TB_CTL_LOG_TELL      5u
#define TB_CTL_LOG_PEERS     8

#define TB_CTL_LOG_OTHERS UINT64_MAX /* the count of the peers not counted apart */

struct tb_ctl_logcount {
    uint64_t peer;
    uint32_t refused, wrong_pins;
};
struct tb_ctl_loglimit {
    uint64_t start; /* the window's start */
    uint32_t told;  /* refusals told one by one in it */
    int npeers;
    struct tb_ctl_logcount peer[TB_CTL_LOG_PEERS];
    struct tb_ctl_logcount others;
};

void tb_ctl_loglimit_init(struct tb_ctl_loglimit *l, uint64_t now);
/* A refusal of peer at now (wrong_pin: a wrong PIN). true: tell it now, as it is; false: it is
 * counted for the window's summary. Call tb_ctl_log_summary first so a window that ended is
 * summed up before this one counts. */
bool tb_ctl_log_refusal(struct tb_ctl_loglimit *l, uint64_t peer, bool wrong_pin, uint64_t now);
/* When the current window ends and has counts to tell (UINT64_MAX: nothing to tell). */
uint64_t tb_ctl_log_due(const struct tb_ctl_loglimit *l);
/* Once the window has ended at now: takes its next count into *c (peer TB_CTL_LOG_OTHERS for the
 * peers not counted apart) and returns 1; returns 0 when none is left, and a new window starts.
 * Before the window's end: 0, nothing taken. */
int tb_ctl_log_summary(struct tb_ctl_loglimit *l, uint64_t now, struct tb_ctl_logcount *c);

/* ---- reading lines from a connection ---------------------------------------------------- */

struct tb_ctl_reader {
    char buf[TB_CTL_LINE_MAX];
    size_t len;
    bool discarding; /* inside a line that was too long: drop through its newline */
};

void tb_ctl_reader_init(struct tb_ctl_reader *r);

/* Takes bytes from data[0..n). *used says how many were consumed. Returns 1 when a complete
 * line (newline included) is in *line and *line_len (valid until the next call), 0 when all bytes
 * were consumed without completing one, TB_ERR_FULL once for each line that grew past
 * TB_CTL_LINE_MAX (the rest of it, through its newline, is dropped without another error). */
int tb_ctl_reader_take(struct tb_ctl_reader *r, const char *data, size_t n, size_t *used,
                       const char **line, size_t *line_len);

/* ---- formatting responses ---------------------------------------------------------------- */

/* Each writes one line with its newline into buf and returns its length, or TB_ERR_FULL (buf
 * is then "" ). Control characters in text are replaced by '?', so one call = one line. */
int tb_ctl_format_ok(char *buf, size_t len, const char *text);         /* "ok TEXT" or "ok" */
int tb_ctl_format_data_begin(char *buf, size_t len, const char *text); /* "ok+ TEXT" */
int tb_ctl_format_data(char *buf, size_t len, const char *text); /* a data line, dot-stuffed */
int tb_ctl_format_end(char *buf, size_t len);                    /* "." */
/* "error WORD MESSAGE" with WORD from tb_ctl_error_word(code). */
int tb_ctl_format_error(char *buf, size_t len, int code, const char *msg);
/* The error word of a code: too-long, syntax, unknown, denied, illegal, state, not-found ... */
const char *tb_ctl_error_word(int code);

/* ---- the client -------------------------------------------------------------------------- */

/* Connects to the daemon's control socket (non-blocking when nonblock). Returns the descriptor,
 * or TB_ERR_ARG (path too long) / TB_ERR_SYS with err naming the socket and why. */
int tb_ctl_client_connect(const char *path, bool nonblock, struct tb_error *err);

/* True once buf[0..n) holds a whole answer: an ok or error line, or ok+ through its "." line. */
bool tb_ctl_answer_complete(const char *buf, size_t n);

/* What an answer says: the text of "ok TEXT", the data lines of "ok+" (unstuffed, one per line),
 * or the message of "error WORD MESSAGE", into out. Returns 0 for ok, 1 for error,
 * TB_ERR_PARSE for something that is no answer. */
int tb_ctl_answer_text(const char *answer, char *out, size_t len);

#define TB_CTL_SERVICE_USER "twinboard"

/* The client's default limit for connecting and for each wait for the answer's next bytes. */
#define TB_CTL_TIMEOUT_MS 5000

/* One request on a fresh connection: the line (a newline is added) is sent and the whole
 * answer, framing included, read into out (NUL-terminated; TB_ERR_FULL if it does not fit).
 * Connecting and each wait for more of the answer give up after timeout_ms (0: the default). A
 * line with pin= is only sent where the socket file and the daemon (SO_PEERCRED) are of this user,
 * root or TB_CTL_SERVICE_USER (the packaged service runs as that user). Returns 0
 * when the daemon said ok, 1 when it said error, or TB_ERR_SYS / TB_ERR_ARG / TB_ERR_TIMEOUT /
 * TB_ERR_PERM with err saying why the daemon could not be asked. */
int tb_ctl_request_within(const char *socket_path, const char *line, int timeout_ms, char *out,
                          size_t len, struct tb_error *err);
/* tb_ctl_request_within with the default timeout. */
int tb_ctl_request(const char *socket_path, const char *line, char *out, size_t len,
                   struct tb_error *err);

#endif /* TB_CTL_H */
