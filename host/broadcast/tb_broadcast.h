/* tb_broadcast.h - the agreed game shown to the broadcast world (docs/broadcast.md): a virtual
 * DGT e-board on a pseudo-terminal and on loopback TCP, and a live PGN file per game.
 *
 * Two layers:
 *
 *   pure      the virtual board (tb_broadcast_board: what the board shows, its EEPROM-style
 *             change log, the clock) and its sessions (tb_broadcast_session: one program
 *             reading the board, in single-board or bus mode): bytes from the program plus
 *             the agreed position plus the time in, whole DGT messages out through a callback.
 *             The live-PGN text builder. No I/O, time passed in.
 *   I/O       tb_broadcast: the pty (posix_openpt, a stable symbolic link), an optional TCP
 *             listener on 127.0.0.1 (each client its own session), non-blocking writes through
 *             a bounded buffer per reader, and the PGN files written atomically.
 *
 * The caller (the daemon) feeds only what both boards agree on: the agreed game after every
 * agreed move and takeback, the result when the game ends, and a new game's tags. A mismatch
 * shows nothing until it is resolved, because nothing is fed.
 *
 * Errors follow tb_err.h: 0 ok, negative TB_ERR_*, positive counts. *_free(NULL) is a no-op.
 */
#ifndef TB_BROADCAST_H
#define TB_BROADCAST_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_dgt.h"
#include "tb_err.h"

/* ---- the clock as the caller knows it ------------------------------------------------------ */

#define TB_BROADCAST_NO_SIDE (-1)

/* Both times as they stood at at_ms; the running side's time goes down from there. */
struct tb_broadcast_clock {
    bool known; /* false: no clock (BWTIME says "no clock", no [%clk]) */
    uint64_t white_ms, black_ms;
    int running; /* TB_CHESS_WHITE, TB_CHESS_BLACK or TB_BROADCAST_NO_SIDE (stopped) */
    uint64_t at_ms;
};

/* ---- the virtual board (pure) -------------------------------------------------------------- */

/* How the board names itself. Defaults (tb_broadcast_identity_default): serial "01025" (bus
 * address 1025), long serial "0000001025", version 1.2, trademark naming twinboard. */
struct tb_broadcast_identity {
    char serial[6];       /* five digits */
    char long_serial[11]; /* ten digits */
    int version_major, version_minor;
    char trademark[TB_DGT_TRADEMARK_MAX + 1];
};
void tb_broadcast_identity_default(struct tb_broadcast_identity *id);
/* TB_OK, or TB_ERR_ARG naming the bad field in err. */
int tb_broadcast_identity_check(const struct tb_broadcast_identity *id, struct tb_error *err);
/* The bus address: the serial number's value, modulo 2^14. */
int tb_broadcast_bus_address(const struct tb_broadcast_identity *id);

/* The change log kept as a real board keeps its EEPROM: a ring of this many bytes. */
#define TB_BROADCAST_LOG_SIZE 0x1F00

/* What the board shows: field codes in the canonical orientation (field 0 = a8, field 63 = h1,
 * docs/dgt.md), the change log, the clock. Plain data (about 9 kB). */
struct tb_broadcast_board {
    struct tb_broadcast_identity id;
    uint8_t codes[64];
    uint8_t log[TB_BROADCAST_LOG_SIZE];
    uint64_t log_end;  /* bytes ever logged; the ring holds [log_end - kept, log_end) */
    uint64_t log_kept; /* bytes the ring holds */
    uint64_t start_at; /* log offset of the last start record (BEGINPOS or START_TAG) */
    uint64_t last_ms;  /* time of the last record (the quick bit) */
    bool have_last;
    struct tb_broadcast_clock clock;
    uint64_t changes; /* field changes shown since init */
};

/* An empty board (every field EMPTY) with an identity (NULL: the defaults). */
void tb_broadcast_board_init(struct tb_broadcast_board *b, const struct tb_broadcast_identity *id);
/* Shows pos: the fields that change are logged and written to out (lifts first, then
 * placements, as a hand would make them), at most 64. Returns how many changed. */
int tb_broadcast_board_show(struct tb_broadcast_board *b, const tb_chess_pos *pos, uint64_t now_ms,
                            struct tb_dgt_update *out);
/* Writes a start record (BEGINPOS): a new game's start position is on the board. */
void tb_broadcast_board_mark_start(struct tb_broadcast_board *b, uint64_t now_ms);
/* The clock changed (a press, a pause, a set). A lever change logs both times. */
void tb_broadcast_board_set_clock(struct tb_broadcast_board *b, const struct tb_broadcast_clock *c,
                                  uint64_t now_ms);
/* The 7-byte BWTIME payload at now_ms: White on the left (the canonical orientation), the
 * running side's time counted down, times above 9:59:59 shown as 9:59:59; with no clock known
 * all zero but the "no clock" status bit. */
void tb_broadcast_board_bwtime(const struct tb_broadcast_board *b, uint64_t now_ms,
                               uint8_t payload[7]);

/* One program reading the board. Starts as a board at power-up: bus mode; any single-board
 * command switches it to single-board mode (IDLE, then the command). */
enum tb_broadcast_mode {
    TB_BROADCAST_IDLE = 0,    /* single-board, answers only */
    TB_BROADCAST_UPDATE,      /* FIELD_UPDATE on each change, BWTIME at least once a second */
    TB_BROADCAST_UPDATE_BRD,  /* FIELD_UPDATE only */
    TB_BROADCAST_UPDATE_NICE, /* FIELD_UPDATE, BWTIME when the clock's reading changes */
    TB_BROADCAST_BUS,         /* bus mode: answers to its address only */
};

struct tb_broadcast_session_stats {
    uint64_t commands;     /* commands answered or obeyed */
    uint64_t ignored;      /* well-formed commands the board does not act on (draughts, LEDs,
                              clock messages, other bus addresses) */
    uint64_t garbage;      /* bytes that were no command */
    uint64_t bad_checksum; /* bus commands dropped */
    uint64_t messages;     /* messages sent */
};

struct tb_broadcast_session {
    uint8_t mode; /* enum tb_broadcast_mode */
    struct tb_dgt_cmd_decoder cmd;
    struct tb_dgt_bus_decoder bus;
    uint64_t cursor;           /* bus: log offset SEND_CHANGES sends from */
    uint64_t rep_from, rep_to; /* bus: what the last SEND_CHANGES sent, for REPEAT_CHANGES */
    bool ignore_ping;
    uint8_t last_bw[7]; /* the last BWTIME sent by an update mode */
    bool sent_bw;
    uint64_t next_bw_ms; /* UPDATE: when the next BWTIME is due */
    struct tb_broadcast_session_stats stats;
};

/* Every message goes out whole, in one call. */
typedef void (*tb_broadcast_emit_fn)(void *user, const uint8_t *bytes, size_t n);

/* A session at power-up (bus mode) reading board b (its bus cursor at the board's log end). */
void tb_broadcast_session_init(struct tb_broadcast_session *s, const struct tb_broadcast_board *b);
/* Bytes from the program, in any chunking. Answers go out through emit. Unknown commands and
 * garbage change nothing. Returns the number of commands obeyed. */
int tb_broadcast_session_input(struct tb_broadcast_session *s, struct tb_broadcast_board *b,
                               const uint8_t *bytes, size_t n, uint64_t now_ms,
                               tb_broadcast_emit_fn emit, void *user);
/* The board changed (tb_broadcast_board_show's list): FIELD_UPDATEs in an update mode. */
void tb_broadcast_session_changes(struct tb_broadcast_session *s, const struct tb_dgt_update *ch,
                                  int n, tb_broadcast_emit_fn emit, void *user);
/* Time passed: BWTIME in UPDATE (each second) and UPDATE_NICE (when the reading changed). */
void tb_broadcast_session_tick(struct tb_broadcast_session *s, const struct tb_broadcast_board *b,
                               uint64_t now_ms, tb_broadcast_emit_fn emit, void *user);
/* When tick has something to do (UINT64_MAX: nothing). */
uint64_t tb_broadcast_session_due(const struct tb_broadcast_session *s,
                                  const struct tb_broadcast_board *b, uint64_t now_ms);

/* ---- the live PGN (pure) ------------------------------------------------------------------- */

#define TB_BROADCAST_TAG_MAX 128

/* The Seven Tag Roster as the caller fills it (empty: "?"), and the PGN TimeControl value
 * ("5400+30"; empty: no tag). Date as PGN writes it: "2026.11.24". */
struct tb_broadcast_tags {
    char event[TB_BROADCAST_TAG_MAX], site[TB_BROADCAST_TAG_MAX], date[TB_BROADCAST_TAG_MAX];
    char round[TB_BROADCAST_TAG_MAX], white[TB_BROADCAST_TAG_MAX], black[TB_BROADCAST_TAG_MAX];
    char time_control[TB_BROADCAST_TAG_MAX];
};

#define TB_BROADCAST_NO_CLK UINT64_MAX

/* The PGN of a game: tags, Variant/SetUp/FEN for a Chess960 or set-up start, the moves with
 * "[%clk h:mm:ss]" after each ply whose clk_ms[ply - 1] is not TB_BROADCAST_NO_CLK (clk_ms may
 * be NULL), the result ("*" while playing) and, when given, a Termination tag. scratch is a
 * caller-owned work area. snprintf semantics (returns the full length); TB_ERR_ARG for bad tags
 * (line breaks) or result, TB_ERR_STATE when the moves do not replay. */
int tb_broadcast_pgn_text(const struct tb_broadcast_tags *tags, const tb_chess_game *game,
                          const uint64_t *clk_ms, const char *result, const char *termination,
                          tb_chess_pgn_game *scratch, char *buf, size_t len);
/* The file name of a game (docs/broadcast.md): "r<round>_<white>-<black>.pgn", every byte
 * outside [A-Za-z0-9.-] made '_', each part cut to 40 bytes; the day's directory name from the
 * Date tag: "2026-11-24" ("undated" when the Date is unknown). Return the length or
 * TB_ERR_FULL. */
int tb_broadcast_pgn_name(const struct tb_broadcast_tags *tags, char *buf, size_t len);
int tb_broadcast_day_name(const struct tb_broadcast_tags *tags, char *buf, size_t len);

/* ---- the broadcast: transports, files, the game ------------------------------------------- */

struct tb_broadcast_config {
    const char *pty_link; /* the stable path of the virtual board's pty; NULL: none */
    bool tcp;             /* listen on 127.0.0.1:tcp_port (0: a port the system picks) */
    int tcp_port;
    int max_clients;     /* TCP sessions at once; default 8 */
    size_t out_max;      /* bytes waiting per reader at most; default 65536 */
    const char *pgn_dir; /* the live PGN's root: <pgn_dir>/<day>/<game>.pgn; NULL: none */
    struct tb_broadcast_identity id;
};
void tb_broadcast_config_default(struct tb_broadcast_config *cfg);

/* How a game ends when the caller says so (a result control request). */
enum tb_broadcast_end_kind {
    TB_BROADCAST_RESIGN = 1,      /* side resigns (5.1.2) */
    TB_BROADCAST_DRAW_AGREED,     /* 5.2.3 */
    TB_BROADCAST_FLAG,            /* side's flag fell: judged by 6.9 */
    TB_BROADCAST_CLAIM_THREEFOLD, /* 9.2: refused unless the position allows the claim */
    TB_BROADCAST_CLAIM_FIFTY,     /* 9.3: likewise */
    TB_BROADCAST_ARBITER,         /* the arbiter's decision: result given */
};
struct tb_broadcast_end {
    enum tb_broadcast_end_kind kind;
    int side;           /* RESIGN, FLAG */
    const char *result; /* ARBITER: "1-0", "0-1", "1/2-1/2" */
};

struct tb_broadcast_stats {
    int readers;                /* the pty (when a program holds it) and TCP clients */
    uint64_t dropped;           /* messages dropped for a reader whose buffer was full */
    uint64_t closed;            /* TCP clients closed (EOF, error, buffer overflow) */
    uint64_t pgn_writes;        /* PGN files written (a text replaced by a newer one before it was
                                   written is not counted) */
    uint64_t pgn_failures;      /* writes that failed (the last error is kept) */
    uint64_t pgn_temps_removed; /* temporary files a killed writer left, removed at a game's
                                   start */
    struct tb_error pgn_error;
};

typedef struct tb_broadcast tb_broadcast;

/* Opens the transports the configuration names. err says what failed (a pty, a port in use, a
 * PGN directory that cannot be made). */
tb_broadcast *tb_broadcast_new(const struct tb_broadcast_config *cfg, struct tb_error *err);
void tb_broadcast_free(tb_broadcast *bc);

/* A new game: its tags and start (NULL: the standard position). The board shows the start;
 * the next PGN file is written at once. */
int tb_broadcast_new_game(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                          const tb_chess_pos *start, uint64_t now_ms, struct tb_error *err);
/* A game shown before a restart (the daemon's recovery), with its agreed moves: as
 * tb_broadcast_new_game then tb_broadcast_agreed, but when the newest file of this game's name
 * on its day holds the start of this game (its moves the first of game's), that file goes on, so
 * a follower keeps its address; else a new file. The text is on the disk when it returns. */
int tb_broadcast_resume_game(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                             const tb_chess_game *game, uint64_t now_ms, struct tb_error *err);
/* As tb_broadcast_resume_game for a delayed broadcast: the file goes on with only the moves it
 * already holds (what the public saw before the restart; none in a new file), with their
 * [%clk] from clk_ms as tb_broadcast_agreed_clk takes it (may be NULL), so no move of game is
 * shown sooner than the caller hands it over. Returns how many plies are shown. */
int tb_broadcast_resume_shown(tb_broadcast *bc, const struct tb_broadcast_tags *tags,
                              const tb_chess_game *game, const uint64_t *clk_ms, uint64_t now_ms,
                              struct tb_error *err);
/* The agreed game now (after an agreed move, a takeback, a clock change): moves beyond the
 * shown ones are new moves (the mover's clock is recorded for the last), a shorter or
 * different game is a takeback to the common part. The board shows game->pos; the PGN is
 * written when the moves changed. A game over by the rules (5.1.1 mate, 5.2.1 stalemate, 5.2.2
 * dead position, 9.6.1 fivefold, 9.6.2 seventy-five moves) gets its result written. clock may
 * be NULL (unchanged). TB_ERR_STATE after the result (a new game first), TB_ERR_ARG for a game
 * from another start. */
int tb_broadcast_agreed(tb_broadcast *bc, const tb_chess_game *game,
                        const struct tb_broadcast_clock *clock, uint64_t now_ms,
                        struct tb_error *err);
/* As tb_broadcast_agreed, with the [%clk] the caller recorded for each ply (clk_ms[i] after ply
 * i + 1; TB_BROADCAST_NO_CLK: the clock's reading as above): a game resumed or delayed keeps
 * its moves' times. */
int tb_broadcast_agreed_clk(tb_broadcast *bc, const tb_chess_game *game, const uint64_t *clk_ms,
                            const struct tb_broadcast_clock *clock, uint64_t now_ms,
                            struct tb_error *err);
/* The game ends by the caller's word. TB_ERR_ILLEGAL for a claim the position does not allow,
 * TB_ERR_STATE when the result is already written. */
int tb_broadcast_result(tb_broadcast *bc, const struct tb_broadcast_end *end, uint64_t now_ms,
                        struct tb_error *err);
/* The live PGN is written on a thread of its own: the calls above never wait for the disk.
 * This waits until the latest text is on the disk (tests, shutdown). */
void tb_broadcast_pgn_flush(tb_broadcast *bc);
/* The result written ("*" while playing) and the PGN file's path ("" when none). */
const char *tb_broadcast_result_text(const tb_broadcast *bc);
const char *tb_broadcast_pgn_path(const tb_broadcast *bc);

/* The poll loop: fds to poll (at most cap; 2 + max_clients always suffice) and the time by
 * which tb_broadcast_handle must run even if nothing is readable (UINT64_MAX: none). */
int tb_broadcast_pollfds(tb_broadcast *bc, struct pollfd *fds, int cap, uint64_t now_ms,
                         uint64_t *deadline_ms);
/* After poll: reads, accepts, writes what waits, sends what time makes due. Never blocks. */
int tb_broadcast_handle(tb_broadcast *bc, const struct pollfd *fds, int n, uint64_t now_ms);

/* The TCP port listened on (0 when none); the pty's device name ("" when none). */
int tb_broadcast_tcp_port(const tb_broadcast *bc);
const char *tb_broadcast_pty_name(const tb_broadcast *bc);
void tb_broadcast_stats(tb_broadcast *bc, struct tb_broadcast_stats *out);
/* The board as it is shown (for a test or the daemon's status). */
const struct tb_broadcast_board *tb_broadcast_board_of(const tb_broadcast *bc);

#endif /* TB_BROADCAST_H */
