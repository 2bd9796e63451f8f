/* tb_hall.h - a table seen from the arbiter's hall: payloads and the MQTT publisher.
 *
 * Each table publishes, through an MQTT broker, its state (retained: a new viewer sees it at
 * once), its events (moves, mismatches, resolutions, touch reports, arbiter calls, command
 * outcomes; a doorgeefschaak table's results and irregularities) and receives the arbiter's
 * commands (resolve, takeback) sent from the hall dashboard. Topics, per tournament and table
 * (docs/hall.md):
 *
 *     twinboard/<tournament>/<table>/state   retained, QoS 1, the whole state (JSON)
 *     twinboard/<tournament>/<table>/event   QoS 1, one event (JSON), in order
 *     twinboard/<tournament>/<table>/cmd     QoS 1, one command (JSON) for the table
 *
 * Two layers. The payload layer is pure: the state, event and command as structs, a JSON
 * encoder and a strict decoder (sizes bounded, unknown or missing fields refused, err names the
 * field). The transport layer (tb_hall_pub) runs libmosquitto inside the caller's poll loop
 * (no thread of its own): the caller polls tb_hall_pub_fd() for reading (and writing when
 * tb_hall_pub_want_write()), and calls tb_hall_pub_service() when the fd is ready or
 * tb_hall_pub_deadline() has come. No call waits for the broker: with the broker away the table
 * plays on, the latest state supersedes older state, events queue in order up to a limit
 * (dropped ones are counted), and everything queued goes out on reconnect.
 *
 * Commands reach the caller only decoded; the library executes nothing and checks no PIN: the
 * caller checks cmd.pin against the arbiter's PIN (twinboardd: in its control guard, the one
 * place it checks a PIN) and reports the outcome as a TB_HALL_EV_COMMAND event.
 */
#ifndef TB_HALL_H
#define TB_HALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"
#include "tb_match.h"

#define TB_HALL_NAME_MAX    32 /* tournament and table names: [A-Za-z0-9_-], 1..31 chars */
#define TB_HALL_EPOCH_MAX   17 /* a table's session: 1..16 hex digits */
#define TB_HALL_FEN_MAX     100
#define TB_HALL_SAN_MAX     16
#define TB_HALL_MAX_PLIES   600    /* moves kept of each scoresheet (the newest) */
#define TB_HALL_MAX_TOUCH   16     /* touch reports kept (the newest) */
#define TB_HALL_MAX_HISTORY 16     /* mismatches kept (the newest) */
#define TB_HALL_TEXT_MAX    512    /* one line of English */
#define TB_HALL_PIN_MAX     16     /* a PIN: 1..15 digits */
#define TB_HALL_PGN_MAX     32768  /* the table's PGN in its state (longer: not sent) */
#define TB_HALL_PAYLOAD_MAX 131072 /* no payload is longer; the decoder refuses longer ones */
#define TB_HALL_TAGS        6      /* new-game's tags: event, site, date, round, white, black */
#define TB_HALL_TAG_MAX     49     /* one tag's value: 1..48 bytes without '"' or '\\' */
/* doorgeefschaak (bughouse) tables */
#define TB_HALL_BUG_FEN_MAX 192 /* a bughouse FEN with the hands in brackets */
#define TB_HALL_HAND_MAX    32  /* one player's hand as piece letters ("QRBNP" order) */
#define TB_HALL_BUG_PLIES   200 /* moves kept of each game (the newest) */
#define TB_HALL_BUG_LOG     8   /* latest lines kept of each game (passes, article 7, results) */

/* ---- payloads ----------------------------------------------------------------------------- */

struct tb_hall_board {
    char name[TB_MATCH_NAME_MAX]; /* "vi", "sighted" */
    bool vi;                      /* the VI player's board */
    bool white;                   /* its player has White */
    bool link_up;                 /* the board's link is connected */
    char fen[TB_HALL_FEN_MAX];    /* the position of the board's scoresheet */
    uint64_t occupancy;           /* what its sensors see (bit = square a1..h8) */
    int64_t clock_ms;             /* its player's remaining time, -1 if no clock */
    int sheet_from;               /* ply of sheet[0] (1 = White's first move) */
    int nsheet;
    char sheet[TB_HALL_MAX_PLIES][TB_HALL_SAN_MAX]; /* the scoresheet, SAN */
};

struct tb_hall_mismatch {
    uint32_t id;
    char kind[16]; /* tb_match_mismatch_name() */
    int board;     /* where it happened */
    int ply;
    uint64_t squares; /* every square involved */
    bool needs_arbiter;
    bool open;                          /* still open (else: outcome says how it ended) */
    char text[TB_HALL_TEXT_MAX];        /* what happened */
    char resolution[TB_HALL_TEXT_MAX];  /* the proposed D.2.9 resolution */
    char outcome[TB_HALL_TEXT_MAX / 2]; /* how it ended ("" while open) */
};

/* One game of a doorgeefschaak table (docs/doorgeefschaak.md): board A or B. */
struct tb_hall_game {
    char name[4];                      /* "A", "B" */
    char fen[TB_HALL_BUG_FEN_MAX];     /* bughouse FEN: the position and both hands */
    char hand[2][TB_HALL_HAND_MAX];    /* [colour] the pieces in hand (2.1), "QRBNP" letters */
    int64_t clock_ms[2];               /* [colour] remaining time, -1 if no clock */
    char running[8];                   /* whose clock runs: "white", "black", "" (none) */
    char result[8];                    /* "*", "1-0", "0-1", "1/2-1/2" */
    char ending[TB_HALL_TEXT_MAX / 4]; /* how it ended ("White resigns (5.2)"), "" playing */
    char irregular[16]; /* article 7 waiting: "none", "asked", "put-back", "blocked" */
    int plies;          /* moves played in this game */
    int sheet_from;     /* this game's move number of sheet[0], from 1 */
    int nsheet;
    char sheet[TB_HALL_BUG_PLIES][TB_HALL_SAN_MAX]; /* its moves, SAN with drops "N@f3" */
    int nlog;
    char log[TB_HALL_BUG_LOG][TB_HALL_TEXT_MAX / 2]; /* latest lines, oldest first */
    /* not in the payload: the move made on the board and not yet completed (D.2.3), its SAN,
     * UCI and ply in this game, for the move event when its clock is pressed */
    char made_san[TB_HALL_SAN_MAX];
    char made_uci[8];
    int made_ply;
};

/* The whole state of a table. Large (about 70 KB): allocate it. A twin table (mode "twin")
 * has no games; a doorgeefschaak table (mode "bughouse") has two, its boards[] carrying only
 * the boards' names, links and occupancy, and its twin fields (state "bughouse", fen "",
 * plies the moves of both games, result "*", mismatches and touch empty). */
struct tb_hall_state {
    char tournament[TB_HALL_NAME_MAX];
    char table[TB_HALL_NAME_MAX];
    uint64_t seq;                  /* state number, from 1: a viewer keeps the highest */
    char epoch[TB_HALL_EPOCH_MAX]; /* the table's session (made at its start; a new one is a
                                      table started again); "" from a table without one */
    uint64_t ms;                   /* the table's clock when it was taken */
    char state[16];                /* tb_match_state_name() */
    int plies;                     /* agreed plies */
    char fen[TB_HALL_FEN_MAX];     /* the agreed position */
    bool clock_running;
    bool arbiter_call;     /* the ARBITER button was pressed and nobody has answered yet */
    unsigned long dropped; /* events the publisher had to drop */
    char result[8];        /* "*" while playing, else "1-0", "0-1" or "1/2-1/2" */
    char ending[TB_HALL_TEXT_MAX / 4];  /* how it ended ("White resigns (5.1.2)"), "" playing */
    char journal[TB_HALL_TEXT_MAX / 2]; /* "ok", "" without a journal, else what stops play */
    struct tb_hall_board board[2];
    int ntouch;
    char touch[TB_HALL_MAX_TOUCH][TB_HALL_TEXT_MAX / 2]; /* touch reports, oldest first */
    int nhistory; /* mismatches, oldest first; the open one (if any) is the last */
    struct tb_hall_mismatch history[TB_HALL_MAX_HISTORY];
    bool bughouse; /* mode: "twin" (false) or "bughouse" */
    int ngames;    /* 0 (twin) or 2 (bughouse) */
    struct tb_hall_game game[2];
    char pgn[TB_HALL_PGN_MAX]; /* the game as the table's `pgn` gives it; "" for none (optional
                                  field: a table that sends none, a doorgeefschaak table) */
};

enum tb_hall_event_kind {
    TB_HALL_EV_MOVE = 1,     /* an agreed move: ply, san, uci */
    TB_HALL_EV_MISMATCH,     /* mismatch: id, text (what), detail (resolution) */
    TB_HALL_EV_RESOLVED,     /* mismatch id is over: text */
    TB_HALL_EV_TOUCH,        /* touch report: text */
    TB_HALL_EV_ARBITER_CALL, /* the ARBITER button: text */
    TB_HALL_EV_COMMAND,      /* outcome of a command: request, ok, text */
    /* doorgeefschaak: board names the game ("A", "B"; "" in a twin table's events) */
    TB_HALL_EV_RESULT,    /* a game is over: text ("A: 0-1, White resigns (5.2)") */
    TB_HALL_EV_IRREGULAR, /* article 7 or a refused drop: text */
};

struct tb_hall_event {
    enum tb_hall_event_kind kind;
    uint64_t seq;                  /* event number of the table, from 1 (a viewer drops repeats) */
    char epoch[TB_HALL_EPOCH_MAX]; /* the table's session, as the state's (the publisher's) */
    uint64_t ms;
    int ply;
    char board[4]; /* doorgeefschaak: the game, "A" or "B"; "" for a twin table */
    uint32_t mismatch;
    bool ok;
    char request[TB_HALL_NAME_MAX]; /* COMMAND: the command's request id */
    char san[TB_HALL_SAN_MAX];
    char uci[8];
    char text[TB_HALL_TEXT_MAX];
    char detail[TB_HALL_TEXT_MAX];
};

enum tb_hall_cmd_action { TB_HALL_CMD_RESOLVE = 1, TB_HALL_CMD_TAKEBACK, TB_HALL_CMD_NEW_GAME };

/* The names of new-game's tags, in tb_hall_cmd.tags[] order. */
extern const char *const tb_hall_tag_names[TB_HALL_TAGS];

struct tb_hall_cmd {
    enum tb_hall_cmd_action action;
    char request[TB_HALL_NAME_MAX]; /* the sender's id for the answer ([A-Za-z0-9_-]) */
    uint32_t mismatch;              /* RESOLVE: the mismatch confirmed */
    int n;                          /* TAKEBACK: plies, 1..TB_MATCH_MAX_TAKEBACK */
    char pin[TB_HALL_PIN_MAX];      /* as typed by the arbiter: the caller checks it */
    char from[TB_HALL_NAME_MAX];    /* optional: the hall's sender (a page session), the peer
                                       whose wrong PINs the table holds back; "" for none */
    char tags[TB_HALL_TAGS][TB_HALL_TAG_MAX]; /* NEW_GAME: the game's tags ("" = the table's
                                                 own), as the control socket's new-game */
};

/* Encoders: JSON into buf (NUL-terminated). Return the length or TB_ERR_FULL / TB_ERR_ARG (a
 * field out of its range, err says which). */
int tb_hall_state_encode(const struct tb_hall_state *s, char *buf, size_t cap,
                         struct tb_error *err);
int tb_hall_event_encode(const struct tb_hall_event *e, char *buf, size_t cap,
                         struct tb_error *err);
int tb_hall_cmd_encode(const struct tb_hall_cmd *c, char *buf, size_t cap, struct tb_error *err);

/* Strict decoders of len bytes (no NUL needed): every field present with its type and range,
 * no unknown field, nothing longer than TB_HALL_PAYLOAD_MAX. TB_ERR_PARSE with err naming the
 * field ("board[1].occupancy: not 16 hex digits"); out is then unspecified. */
int tb_hall_state_decode(const char *json, size_t len, struct tb_hall_state *out,
                         struct tb_error *err);
int tb_hall_event_decode(const char *json, size_t len, struct tb_hall_event *out,
                         struct tb_error *err);
int tb_hall_cmd_decode(const char *json, size_t len, struct tb_hall_cmd *out, struct tb_error *err);

/* Names: "move", "mismatch", "resolved", "touch", "arbiter-call", "command", "result",
 * "irregular"; "resolve", "takeback", "new-game". */
const char *tb_hall_event_name(enum tb_hall_event_kind k);
const char *tb_hall_cmd_name(enum tb_hall_cmd_action a);

/* What a viewer has seen of a table's states (or events): takes the newest of a session and a
 * new session (another epoch; a table without epochs: seq 1) from its start, never a number no
 * restart explains: more than TB_HALL_SEQ_JUMP past the last one, or a new session's first
 * number past it (a table publishes far fewer states in a tournament). Returns 1 take it (s
 * updated), 0 an old or repeated one (drop it), TB_ERR_PARSE refuse it (s unchanged).
 * Zero-initialise s. */
#define TB_HALL_SEQ_JUMP 1000000u
struct tb_hall_seen {
    bool any;
    char epoch[TB_HALL_EPOCH_MAX];
    uint64_t seq;
};
int tb_hall_seen_take(struct tb_hall_seen *s, const char *epoch, uint64_t seq);

/* A tournament or table name is 1..31 of [A-Za-z0-9_-]. */
bool tb_hall_name_ok(const char *name);

/* ---- the table's state from its match ---------------------------------------------------- */

/* Fills the game part of s from the match: state, agreed position, both boards' scoresheets,
 * positions and occupancy, and the open mismatch's resolution as it stands. Names, clocks,
 * links, touch reports and the mismatch history are the caller's (tb_hall_state_note). */
void tb_hall_state_from_match(struct tb_hall_state *s, const tb_match *m);

/* Notes a match output in s (mismatch history, resolutions, touch log) and, for the outputs a
 * hall shows as events, fills ev (seq and ms left to the caller's numbering: ev->seq is 0).
 * Returns 1 if ev was filled, else 0. */
int tb_hall_state_note(struct tb_hall_state *s, const struct tb_match_out *o,
                       struct tb_hall_event *ev);

/* ---- a doorgeefschaak table's state from its match (hall_bug.c) ------------------------- */

struct tb_bugmatch;
/* Makes s a bughouse state (mode, two games) and fills both games from the match: positions,
 * hands, clocks at now_ms, results, moves, article 7's wait. Names, links, the logs are kept. */
void tb_hall_state_from_bugmatch(struct tb_hall_state *s, const struct tb_bugmatch *m,
                                 uint64_t now_ms);
struct tb_bugmatch_out;
/* Notes a match output in its game's log and, for a completed move (PLY, with the MOVE before
 * it remembered in s), a result or an irregularity, fills ev (seq and ms left to the caller).
 * Returns 1 if ev was filled, else 0. */
int tb_hall_state_note_bug(struct tb_hall_state *s, const struct tb_bugmatch_out *o,
                           struct tb_hall_event *ev);

/* ---- topics ------------------------------------------------------------------------------ */

/* "twinboard/<tournament>/<table>/<leaf>" into buf. TB_ERR_ARG for a bad name, TB_ERR_FULL. */
int tb_hall_topic(const char *tournament, const char *table, const char *leaf, char *buf,
                  size_t cap);
/* Splits a topic of that form: tournament, table (TB_HALL_NAME_MAX each) and leaf ("state",
 * "event", "cmd"). TB_ERR_PARSE for any other topic. */
int tb_hall_topic_parse(const char *topic, char *tournament, char *table, char *leaf,
                        size_t leaf_cap);

/* ---- the publisher (libmosquitto, in the caller's poll loop) ----------------------------- */

struct tb_hall_config {
    const char *host; /* the broker: a numeric address or a name in /etc/hosts (a name that
                         needs DNS may hold up the first connect); default "127.0.0.1" */
    int port;         /* default 1883 (8883 with TLS) */
    const char *tournament, *table;  /* required */
    const char *username, *password; /* NULL: none */
    const char *cafile;              /* TLS when set (or capath) */
    const char *capath;
    const char *certfile, *keyfile; /* client certificate, optional */
    int keepalive_s;                /* default 30 */
    int max_events;                 /* events queued while the broker is away; default 1024 */
    uint32_t retry_ms;              /* first reconnect delay, doubling up to 8x; default 500 */
};

typedef struct tb_hall_pub tb_hall_pub;

struct tb_hall_pub_stats {
    bool connected;
    unsigned long connects;     /* successful connections */
    unsigned long queued;       /* events not yet acknowledged by the broker */
    unsigned long dropped;      /* events dropped because the queue was full */
    unsigned long states_sent;  /* state payloads handed to the broker */
    unsigned long events_sent;  /* events acknowledged */
    unsigned long cmds_refused; /* command payloads that did not decode */
};

/* A publisher; the first connection is started at once and completes in service calls.
 * TB_ERR_ARG (err says which field), TB_ERR_MEM, TB_ERR_SUPP (TLS options refused). */
int tb_hall_pub_new(const struct tb_hall_config *cfg, uint64_t now_ms, tb_hall_pub **out,
                    struct tb_error *err);
void tb_hall_pub_free(tb_hall_pub *p);

/* The state changed: s is encoded now and replaces any state not yet sent (retained). */
int tb_hall_pub_state(tb_hall_pub *p, const struct tb_hall_state *s, struct tb_error *err);
/* An event happened: queued in order (its seq numbered by the publisher if 0). When the queue
 * is full the oldest is dropped and counted. */
int tb_hall_pub_event(tb_hall_pub *p, const struct tb_hall_event *e, struct tb_error *err);

/* For the poll loop: the socket (-1 while not connected), whether to poll it for writing too,
 * and when to call tb_hall_pub_service() at the latest (UINT64_MAX: no hurry). */
int tb_hall_pub_fd(const tb_hall_pub *p);
bool tb_hall_pub_want_write(const tb_hall_pub *p);
uint64_t tb_hall_pub_deadline(const tb_hall_pub *p);
/* Reads and writes what the socket allows (readable/writable from poll), keeps the connection
 * alive, reconnects when due, and sends what is queued. Never waits. */
void tb_hall_pub_service(tb_hall_pub *p, bool readable, bool writable, uint64_t now_ms);

/* A command received and decoded: 1 and *c filled, 0 if none waits. The caller checks the PIN. */
int tb_hall_pub_cmd(tb_hall_pub *p, struct tb_hall_cmd *c);
/* This session's epoch (16 hex digits, random at tb_hall_pub_new): every event carries it; the
 * caller puts it in its states. */
const char *tb_hall_pub_epoch(const tb_hall_pub *p);

void tb_hall_pub_stats(const tb_hall_pub *p, struct tb_hall_pub_stats *st);

#endif /* TB_HALL_H */
