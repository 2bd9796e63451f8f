/* tb_dgt.h - the DGT e-board serial protocol (docs/dgt.md), pure: no I/O, time passed in, no
 * allocation after the _new functions.
 *
 *   board -> PC   a message decoder fed bytes in any chunking (3-byte header: ID with bit 7 set,
 *                 two 7-bit size bytes giving the TOTAL length); resync on garbage by the bit-7
 *                 rule; lengths checked per ID; and the matching encoder, for an emulated or
 *                 virtual board.
 *   PC -> board   the command encoder (single-board mode) and the clock messages wrapped in
 *                 CLOCK_MESSAGE (DGT XL, DGT 3000, Revelation II), and a decoder of commands for
 *                 the board side.
 *   BWTIME        clock times and clock ACKs told apart; a filter applying the robustness rules
 *                 (all-zero, out-of-range BCD, times going up, no clock, lever bit).
 *   squares       piece codes to tb_chess codes, fields to squares, orientation from the start
 *                 position either way up (standard and every Chess960 start).
 *   tracker       a dump plus field updates -> a placement (64 squares with identity) and square
 *                 events (lift, place with piece) for the recogniser, with the board's
 *                 out-of-order updates put back in order.
 *   pacer         what to send next and when: board commands spaced, clock commands one at a
 *                 time behind their ACK, with retries.
 *
 * Errors follow tb_err.h: 0 ok, negative TB_ERR_*, positive counts. *_free(NULL) is a no-op.
 */
#ifndef TB_DGT_H
#define TB_DGT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_chess.h"
#include "tb_err.h"

/* ---- wire constants ---------------------------------------------------------------------- */

/* PC -> board commands (single bytes, bit 7 clear). */
enum tb_dgt_cmd {
    TB_DGT_CMD_RESET = 0x40,
    TB_DGT_CMD_SEND_CLK = 0x41,
    TB_DGT_CMD_SEND_BRD = 0x42,
    TB_DGT_CMD_SEND_UPDATE = 0x43,
    TB_DGT_CMD_SEND_UPDATE_BRD = 0x44,
    TB_DGT_CMD_RETURN_SERIALNR = 0x45,
    TB_DGT_CMD_RETURN_BUSADRES = 0x46,
    TB_DGT_CMD_SEND_TRADEMARK = 0x47,
    TB_DGT_CMD_RETURN_HW_VERSION = 0x48,
    TB_DGT_CMD_SEND_EE_MOVES = 0x49,
    TB_DGT_CMD_TO_BUSMODE = 0x4A,
    TB_DGT_CMD_SEND_UPDATE_NICE = 0x4B,
    TB_DGT_CMD_SEND_BATTERY_STATUS = 0x4C,
    TB_DGT_CMD_SEND_VERSION = 0x4D,
    TB_DGT_CMD_STARTBOOTLOADER = 0x4E, /* never sent: the encoder refuses it */
    TB_DGT_CMD_RETURN_LONG_SERIALNR = 0x55,
    TB_DGT_CMD_SET_LEDS = 0x60,      /* Revelation II only */
    TB_DGT_CMD_CLOCK_MESSAGE = 0x2B, /* wraps a clock command */
};

/* Board -> PC message IDs (bit 7 set). */
enum tb_dgt_msg_id {
    TB_DGT_MSG_BOARD_DUMP = 0x86,
    TB_DGT_MSG_BWTIME = 0x8D,
    TB_DGT_MSG_FIELD_UPDATE = 0x8E,
    TB_DGT_MSG_EE_MOVES = 0x8F,
    TB_DGT_MSG_BUSADRES = 0x90,
    TB_DGT_MSG_SERIALNR = 0x91,
    TB_DGT_MSG_TRADEMARK = 0x92,
    TB_DGT_MSG_VERSION = 0x93,
    TB_DGT_MSG_HARDWARE_VERSION = 0x96,
    TB_DGT_MSG_BATTERY_STATUS = 0xA0,
    TB_DGT_MSG_LONG_SERIALNR = 0xA2,
};

/* Clock commands inside CLOCK_MESSAGE. */
enum tb_dgt_clock_cmd {
    TB_DGT_CLK_DISPLAY = 0x01, /* DGT XL: six 7-segment characters */
    TB_DGT_CLK_ICONS = 0x02,
    TB_DGT_CLK_END = 0x03, /* the display shows the times again */
    TB_DGT_CLK_BUTTON = 0x08,
    TB_DGT_CLK_VERSION = 0x09,
    TB_DGT_CLK_SETNRUN = 0x0A, /* accepted in clock mode 23 only */
    TB_DGT_CLK_BEEP = 0x0B,
    TB_DGT_CLK_ASCII = 0x0C,      /* DGT 3000: eight characters */
    TB_DGT_CLK_REV2_ASCII = 0x0D, /* Revelation II: eleven characters */
};

#define TB_DGT_HEADER_LEN      3
#define TB_DGT_MAX_LEN         16383 /* 14-bit total length */
#define TB_DGT_TRADEMARK_MAX   256   /* text bytes */
#define TB_DGT_DATA_MAX        TB_DGT_TRADEMARK_MAX
#define TB_DGT_MSG_MAX         (TB_DGT_HEADER_LEN + TB_DGT_DATA_MAX) /* largest decoded message */
#define TB_DGT_CLOCK_FRAME_MAX 18                                    /* largest clock frame */

/* DGT piece codes (the low 4 bits of a field's code). */
enum tb_dgt_piece {
    TB_DGT_EMPTY = 0,
    TB_DGT_WPAWN = 1,
    TB_DGT_WROOK = 2,
    TB_DGT_WKNIGHT = 3,
    TB_DGT_WBISHOP = 4,
    TB_DGT_WKING = 5,
    TB_DGT_WQUEEN = 6,
    TB_DGT_BPAWN = 7,
    TB_DGT_BROOK = 8,
    TB_DGT_BKNIGHT = 9,
    TB_DGT_BBISHOP = 10,
    TB_DGT_BKING = 11,
    TB_DGT_BQUEEN = 12,
    TB_DGT_DRAW = 13, /* the "magic" result pieces: occupy a field, are no chess piece */
    TB_DGT_WHITE_WINS = 14,
    TB_DGT_BLACK_WINS = 15,
};

/* ---- board -> PC messages ------------------------------------------------------------------ */

/* One decoded message. data holds the payload exactly as received (n bytes, each < 0x80), so a
 * message re-encodes to its bytes; the typed fields below are filled for the IDs they name.
 * EE_MOVES and unknown IDs are skipped: id and len are set, n is 0 and skipped is true. */
struct tb_dgt_msg {
    uint8_t id;   /* enum tb_dgt_msg_id, or an unknown ID when skipped */
    uint16_t len; /* total length, header included */
    bool skipped;
    uint16_t n;
    uint8_t data[TB_DGT_DATA_MAX];
    /* FIELD_UPDATE */
    uint8_t field; /* 0..63 */
    uint8_t code;  /* as received; the piece is code & 0x0F */
    /* VERSION, HARDWARE_VERSION */
    uint8_t major, minor;
    /* BUSADRES: 14-bit value */
    uint16_t busadres;
};

/* Totals since _new or the last reset. garbage: bytes dropped while resynchronising (stray
 * payload bytes, headers with a length wrong for their ID, messages cut by a byte with bit 7
 * set, messages with impossible content such as field 70). */
struct tb_dgt_decoder_stats {
    uint64_t messages; /* delivered, skipped ones included */
    uint64_t skipped;  /* EE_MOVES and unknown IDs passed over with their length */
    uint64_t garbage;  /* bytes */
    uint64_t bad_length;
    uint64_t cut;
    uint64_t bad_content;
    /* The last message refused for its length or content, for the link's log: its ID and the
     * total length it declared (0 when none yet). */
    uint8_t last_refused_id;
    uint16_t last_refused_len;
};

typedef struct tb_dgt_decoder tb_dgt_decoder;
typedef void (*tb_dgt_msg_fn)(void *user, const struct tb_dgt_msg *m);

/* NULL when out of memory. */
tb_dgt_decoder *tb_dgt_decoder_new(void);
void tb_dgt_decoder_free(tb_dgt_decoder *d);
/* Drops a half-read message (after a reconnect); keeps the stats. */
void tb_dgt_decoder_reset(tb_dgt_decoder *d);
/* Feeds n bytes; fn is called for each complete message, in order. Returns the number of
 * messages delivered, or TB_ERR_ARG (d or fn NULL, or buf NULL with n > 0). */
int tb_dgt_decoder_feed(tb_dgt_decoder *d, const uint8_t *buf, size_t n, tb_dgt_msg_fn fn,
                        void *user);
void tb_dgt_decoder_stats(const tb_dgt_decoder *d, struct tb_dgt_decoder_stats *out);

/* The total lengths an ID may declare: min..max (unknown IDs 3..TB_DGT_MAX_LEN). Returns false
 * for a byte without bit 7. SERIALNR is 8 or 12 (nothing between); other fixed-size IDs have
 * min == max. */
bool tb_dgt_msg_len_range(uint8_t id, uint16_t *min, uint16_t *max);

/* The name of a message ID ("FIELD_UPDATE"); "unknown" for others. */
const char *tb_dgt_msg_name(uint8_t id);

/* Encodes a message from its id and data[0..n) (the typed fields are not read). Returns the
 * length, TB_ERR_ARG for a length wrong for the ID, a data byte with bit 7 set or a skipped
 * message, TB_ERR_FULL if cap is too small. */
int tb_dgt_msg_encode(uint8_t *buf, size_t cap, const struct tb_dgt_msg *m);

/* Builders for the board side (emulator, virtual board): fill *m ready for tb_dgt_msg_encode.
 * TB_ERR_ARG for values the wire cannot carry. */
int tb_dgt_msg_board_dump(struct tb_dgt_msg *m, const uint8_t codes[64]);
int tb_dgt_msg_field_update(struct tb_dgt_msg *m, int field, int code);
int tb_dgt_msg_version(struct tb_dgt_msg *m, uint8_t id, int major, int minor);
int tb_dgt_msg_serialnr(struct tb_dgt_msg *m, const char *digits);      /* 5 digits */
int tb_dgt_msg_long_serialnr(struct tb_dgt_msg *m, const char *digits); /* 10 digits */
int tb_dgt_msg_trademark(struct tb_dgt_msg *m, const char *text);       /* printable ASCII */
int tb_dgt_msg_busadres(struct tb_dgt_msg *m, int value);               /* 0..16383 */
int tb_dgt_msg_bwtime_raw(struct tb_dgt_msg *m, const uint8_t payload[7]);

/* ---- BWTIME: clock times and clock ACKs ------------------------------------------------------ */

/* The two sides of the clock as the board names them: payload bytes 0..2 are the RIGHT side,
 * 3..5 the LEFT. With the board the right way round (connector on White's left) White's clock is
 * the left side; tb_dgt_clock_by_color swaps them for a rotated board. */
struct tb_dgt_clock_side {
    uint32_t seconds; /* h*3600 + m*60 + s */
    bool flag_fell;   /* bit 4: flag fell, clock blocked at 0 */
    bool per_move;    /* bit 5: time-per-move indicator (Fischer/Bronstein) */
    bool flag;        /* bit 6: flag shown, the clock may still run */
};

/* Status byte (payload[6]). */
#define TB_DGT_ST_RUNNING     0x01
#define TB_DGT_ST_LEVER_RIGHT 0x02 /* lever high on the right: the right side's clock runs */
#define TB_DGT_ST_BATTERY_LOW 0x04
#define TB_DGT_ST_RIGHT_TURN  0x08
#define TB_DGT_ST_LEFT_TURN   0x10
#define TB_DGT_ST_NO_CLOCK    0x20

enum tb_dgt_bwtime_kind {
    TB_DGT_BW_TIMES = 0, /* a valid reading */
    TB_DGT_BW_ACK,       /* a clock ACK (payload[0] or [3] low nibble 0x0A) */
    TB_DGT_BW_EMPTY,     /* all zero: ignored */
    TB_DGT_BW_NO_CLOCK,  /* status bit 5: no clock connected, the reading is invalid */
    TB_DGT_BW_RANGE,     /* hours > 9, minutes or seconds > 59, or a nibble that is no BCD */
};

/* A clock ACK: four bytes rebuilt from the 7-bit fields and bits borrowed from payload[0]/[3]. */
struct tb_dgt_ack {
    uint8_t b[4]; /* b[0]: 0x10 ok, 0x40 error; b[1]: command (bit 7: unsolicited) */
};
#define TB_DGT_ACK_OK          0x10
#define TB_DGT_ACK_ERROR       0x40
#define TB_DGT_ACK_UNSOLICITED 0x80
#define TB_DGT_ACK_READY       0x81
#define TB_DGT_ACK_BUTTON      0x88 /* b[3]: TB_DGT_BUTTON_* */
#define TB_DGT_ACK_MODE        0x8A
#define TB_DGT_ACK_NOT_MODE23  0x90
enum {
    TB_DGT_BUTTON_BACK = 0x31,
    TB_DGT_BUTTON_PLUS = 0x32,
    TB_DGT_BUTTON_RUN = 0x33,
    TB_DGT_BUTTON_MINUS = 0x34,
    TB_DGT_BUTTON_OK = 0x35,
};

struct tb_dgt_bwtime {
    enum tb_dgt_bwtime_kind kind;
    struct tb_dgt_clock_side left, right; /* TB_DGT_BW_TIMES */
    uint8_t status;                       /* TB_DGT_ST_* */
    struct tb_dgt_ack ack;                /* TB_DGT_BW_ACK */
};

/* Decodes a 7-byte BWTIME payload; returns out->kind. */
enum tb_dgt_bwtime_kind tb_dgt_bwtime_decode(const uint8_t payload[7], struct tb_dgt_bwtime *out);
/* The payload of a reading (kind TB_DGT_BW_TIMES: both sides up to 9:59:59) or of an ACK.
 * TB_OK or TB_ERR_ARG. */
int tb_dgt_bwtime_encode_times(uint8_t payload[7], const struct tb_dgt_clock_side *left,
                               const struct tb_dgt_clock_side *right, uint8_t status);
int tb_dgt_bwtime_encode_ack(uint8_t payload[7], const struct tb_dgt_ack *ack);
/* Is the lever saying the left (false) or right (true) side's clock runs? Only meaningful with
 * TB_DGT_ST_RUNNING; the lever bit is the truth, not the turn bits. */
static inline bool tb_dgt_bwtime_right_runs(const struct tb_dgt_bwtime *b)
{
    return (b->status & TB_DGT_ST_LEVER_RIGHT) != 0;
}
/* White's and Black's side of a reading for a board the right way round or rotated. */
void tb_dgt_clock_by_color(const struct tb_dgt_bwtime *b, bool rotated,
                           struct tb_dgt_clock_side *white, struct tb_dgt_clock_side *black);

/* The robustness rules for a stream of readings (docs/dgt.md "BWTIME rules"): a reading is
 * accepted or refused, with the reason; an accepted reading becomes the clock's state. A time
 * that goes up is accepted only as an increment (the side just stopped running, by at most
 * max_increment_s), during a set the link announced (tb_dgt_clock_filter_expect_set), or when a
 * second reading confirms it at least confirm_ms later; an unconfirmed rise of more than an
 * hour is dropped at once. */
enum tb_dgt_clock_verdict {
    TB_DGT_CLOCK_ACCEPTED = 0,
    TB_DGT_CLOCK_ACK,      /* not times: an ACK (hand it to the pacer) */
    TB_DGT_CLOCK_EMPTY,    /* all-zero reading */
    TB_DGT_CLOCK_NO_CLOCK, /* status says no clock */
    TB_DGT_CLOCK_RANGE,    /* impossible values */
    TB_DGT_CLOCK_RISE,     /* a time went up without cause: held until confirmed */
    TB_DGT_CLOCK_JUMP,     /* went up by more than an hour: dropped */
};

struct tb_dgt_clock_filter {
    uint32_t max_increment_s; /* default 300 */
    uint32_t confirm_ms;      /* default 1000 */
    uint32_t set_window_ms;   /* default 10000 */
    bool have;                /* state holds an accepted reading */
    struct tb_dgt_bwtime state;
    uint64_t state_ms;
    bool pending;
    struct tb_dgt_bwtime pending_reading;
    uint64_t pending_ms;
    uint64_t set_until_ms;
    uint64_t refused[TB_DGT_CLOCK_JUMP + 1]; /* counts by verdict */
};
void tb_dgt_clock_filter_init(struct tb_dgt_clock_filter *f);
enum tb_dgt_clock_verdict tb_dgt_clock_filter_push(struct tb_dgt_clock_filter *f,
                                                   const uint8_t payload[7], uint64_t now_ms);
/* The link set the clock (SETNRUN): rises are accepted for set_window_ms. */
void tb_dgt_clock_filter_expect_set(struct tb_dgt_clock_filter *f, uint64_t now_ms);
/* Name of a verdict ("accepted", "time went up" ...). */
const char *tb_dgt_clock_verdict_name(enum tb_dgt_clock_verdict v);

/* ---- PC -> board commands -------------------------------------------------------------------- */

enum tb_dgt_board_kind {
    TB_DGT_BOARD_UNKNOWN = 0, /* a plain e-board unless told otherwise */
    TB_DGT_BOARD_PLAIN,
    TB_DGT_BOARD_REVELATION,
};

enum tb_dgt_clock_kind {
    TB_DGT_CLOCK_NONE = 0,
    TB_DGT_CLOCK_XL,
    TB_DGT_CLOCK_3000,
    TB_DGT_CLOCK_REV2,
};

/* A one-byte command. TB_ERR_ARG for STARTBOOTLOADER, SET_LEDS, CLOCK_MESSAGE (use the
 * functions below) or a byte that is no single-board command; TB_ERR_FULL if cap < 1. */
int tb_dgt_cmd_encode(uint8_t *buf, size_t cap, int cmd);
/* Revelation II LEDs: pattern 0 off, 1 on, 2 auto on fields start..end (0..63; 64 with pattern
 * 0 clears all). TB_ERR_SUPP unless board is TB_DGT_BOARD_REVELATION (an LED command froze a
 * plain board). Returns the length (6). */
int tb_dgt_cmd_leds(uint8_t *buf, size_t cap, enum tb_dgt_board_kind board, int pattern, int start,
                    int end);

/* Clock messages: `2B len 03 cmd content 00`. Each returns the frame length or TB_ERR_ARG /
 * TB_ERR_FULL (TB_DGT_CLOCK_FRAME_MAX always suffices). */
int tb_dgt_clk_simple(uint8_t *buf, size_t cap, int clock_cmd); /* END, BUTTON, VERSION */
int tb_dgt_clk_beep(uint8_t *buf, size_t cap, int n64ms);       /* 1..127 */
/* Text on the clock's display: DGT 3000 up to 8 characters (ASCII), Revelation II up to 11, DGT
 * XL up to 6 on its 7-segment digits (letters it cannot show become blanks). Shorter text is
 * padded with blanks; longer text is TB_ERR_ARG; non-printable characters are TB_ERR_ARG. */
int tb_dgt_clk_text(uint8_t *buf, size_t cap, enum tb_dgt_clock_kind clock, const char *text,
                    bool beep);
/* Set both times and run (clock mode 23). Times in seconds, at most 9:59:59; the values go as
 * binary h, m, s. mode: TB_DGT_RUN_* bits. */
#define TB_DGT_RUN_LEFT  0x01 /* left counts down */
#define TB_DGT_RUN_RIGHT 0x02 /* right counts down */
#define TB_DGT_RUN_PAUSE 0x04
#define TB_DGT_RUN_LEVER 0x08 /* toggle on the lever */
int tb_dgt_clk_setnrun(uint8_t *buf, size_t cap, uint32_t left_s, uint32_t right_s, int mode);
/* The segment byte of a character on a DGT XL (0 for one it cannot show). */
uint8_t tb_dgt_xl_segments(char c);

/* The command side, for an emulated or virtual board: decodes what a PC sends. */
struct tb_dgt_command {
    uint8_t cmd;       /* enum tb_dgt_cmd */
    uint8_t clock_cmd; /* CLOCK_MESSAGE: enum tb_dgt_clock_cmd */
    uint8_t n;         /* content bytes (CLOCK_MESSAGE after cmd; SET_LEDS after the length) */
    uint8_t content[16];
};
struct tb_dgt_cmd_decoder {
    uint8_t buf[TB_DGT_CLOCK_FRAME_MAX];
    uint8_t have;
    uint64_t garbage; /* bytes that were no command */
};
void tb_dgt_cmd_decoder_init(struct tb_dgt_cmd_decoder *d);
/* One byte in; returns 1 with *out filled when a command is complete, else 0. */
int tb_dgt_cmd_decoder_push(struct tb_dgt_cmd_decoder *d, uint8_t byte, struct tb_dgt_command *out);

/* ---- pieces, fields, squares, orientation ------------------------------------------------------
 */

/* tb_chess piece code of a DGT code (masked with 0x0F); 0 for EMPTY and the magic pieces. */
int tb_dgt_piece_to_chess(int code);
/* DGT code of a tb_chess piece; TB_DGT_EMPTY for 0 or an invalid code. */
int tb_dgt_piece_from_chess(int piece);
/* Is the code (masked) one of the magic result pieces? */
bool tb_dgt_piece_is_magic(int code);

enum tb_dgt_orient {
    TB_DGT_ORIENT_UNKNOWN = 0,
    TB_DGT_ORIENT_NORMAL,  /* field 0 = a8, field 63 = h1 (connector on White's left) */
    TB_DGT_ORIENT_ROTATED, /* turned round: field 0 = h1 */
};
/* Square (tb_chess numbering, a1 = 0) of a field; -1 for a bad field or unknown orientation. */
int tb_dgt_field_to_square(int field, enum tb_dgt_orient o);
int tb_dgt_square_to_field(int square, enum tb_dgt_orient o);
/* The orientation in which the 64 field codes show a start position (the standard array or any
 * Chess960 start, Black mirroring White, Guideline II), and its Scharnagl number (518 standard)
 * in *number when not NULL. TB_DGT_ORIENT_UNKNOWN when neither way up is a start position. */
enum tb_dgt_orient tb_dgt_find_orientation(const uint8_t codes[64], int *number);

/* ---- board-state tracker --------------------------------------------------------------------- */

enum tb_dgt_event_kind {
    TB_DGT_EV_LIFT = 1,
    TB_DGT_EV_PLACE,
    TB_DGT_EV_ORIENT, /* the orientation became known or changed: re-read the placement */
};
struct tb_dgt_event {
    enum tb_dgt_event_kind kind;
    uint8_t square; /* LIFT, PLACE */
    uint8_t piece;  /* PLACE: tb_chess code, 0 when the object is no chess piece; LIFT: what
                       left the square (0 if unknown) */
    uint8_t orient; /* ORIENT: enum tb_dgt_orient */
    uint64_t ms;    /* time the board reported it */
};

struct tb_dgt_tracker_config {
    uint32_t reorder_ms; /* how long a placement waits for the lift that belongs before it;
                            default 500 (a scan takes 200-250 ms, half speed over Bluetooth) */
    uint32_t hand_ms;    /* a lifted piece counts as in the hand this long; default 1500 */
};
void tb_dgt_tracker_config_default(struct tb_dgt_tracker_config *cfg);

typedef struct tb_dgt_tracker tb_dgt_tracker;
/* cfg NULL: defaults. NULL when out of memory or cfg is bad. */
tb_dgt_tracker *tb_dgt_tracker_new(const struct tb_dgt_tracker_config *cfg);
void tb_dgt_tracker_free(tb_dgt_tracker *t);
/* Fixes the orientation (the caller knows it); UNKNOWN lets the tracker find it. */
void tb_dgt_tracker_set_orientation(tb_dgt_tracker *t, enum tb_dgt_orient o);
enum tb_dgt_orient tb_dgt_tracker_orientation(const tb_dgt_tracker *t);
/* A BOARD_DUMP. The first dump (or the first after tb_dgt_tracker_reset) sets the state without
 * events; a later one emits the events that take the placement to the dump. Returns the number
 * of events queued. */
int tb_dgt_tracker_dump(tb_dgt_tracker *t, const uint8_t codes[64], uint64_t now_ms);
/* A FIELD_UPDATE. TB_ERR_ARG for a bad field; TB_ERR_STATE before the first dump (ask for one).
 * Returns the number of events queued. */
int tb_dgt_tracker_update(tb_dgt_tracker *t, int field, int code, uint64_t now_ms);
/* Releases placements whose wait has ended. Returns the number of events queued. */
int tb_dgt_tracker_tick(tb_dgt_tracker *t, uint64_t now_ms);
/* When tick has something to do (UINT64_MAX: nothing waits). */
uint64_t tb_dgt_tracker_due(const tb_dgt_tracker *t);
/* Takes the next event; 1 if one was there, else 0. */
int tb_dgt_tracker_next(tb_dgt_tracker *t, struct tb_dgt_event *ev);
/* The placement the events so far describe: 64 tb_chess codes (a1 = 0); 0 for empty and for
 * squares of a board of unknown orientation. A square holding a magic piece reads 0 here and
 * true in tb_dgt_tracker_occupied. */
void tb_dgt_tracker_placement(const tb_dgt_tracker *t, uint8_t out[64]);
uint64_t tb_dgt_tracker_occupied(const tb_dgt_tracker *t);
/* Forgets everything (reconnect): the next dump starts afresh; orientation is kept. */
void tb_dgt_tracker_reset(tb_dgt_tracker *t);
/* Events dropped because the queue was full (the caller should then re-read with a dump). */
uint64_t tb_dgt_tracker_overflows(const tb_dgt_tracker *t);

/* ---- a move as the board reports it (emulators, tests, a virtual board) ------------------------
 */

struct tb_dgt_update {
    uint8_t field, code;
};
enum {
    TB_DGT_GEN_NEW_FIRST = 1, /* the piece shows on its new square before its old one empties */
    TB_DGT_GEN_NO_EMPTY = 2,  /* a capture never shows the taken piece's square empty */
};
/* The field updates a board in orientation o sends for the legal move m in pos, as a hand
 * makes it (the captured piece off first, the king before the rook; for a promotion the new
 * piece is put on the last rank), changed by TB_DGT_GEN_* flags. Returns the number written,
 * TB_ERR_ARG for a bad orientation, TB_ERR_FULL if cap (8 always suffices) is too small. */
int tb_dgt_move_updates(const tb_chess_pos *pos, tb_chess_move m, enum tb_dgt_orient o,
                        unsigned flags, struct tb_dgt_update *out, int cap);
/* The field codes of a position seen by a board in orientation o. */
int tb_dgt_codes_of_pos(const tb_chess_pos *pos, enum tb_dgt_orient o, uint8_t codes[64]);

/* ---- command pacing ----------------------------------------------------------------------- */

struct tb_dgt_pacer_config {
    uint32_t gap_ms;     /* after a board command; default 100 */
    uint32_t ack_ms;     /* resend a clock command unanswered this long; default 2000 */
    uint32_t attempts;   /* sends of one clock command at most; default 3 */
    uint32_t give_up_ms; /* abandon a clock command after this long; default 6000 */
};
void tb_dgt_pacer_config_default(struct tb_dgt_pacer_config *cfg);

struct tb_dgt_pacer_stats {
    uint64_t sent;      /* frames handed out, resends included */
    uint64_t acked;     /* clock commands answered OK */
    uint64_t refused;   /* clock commands answered with an error */
    uint64_t retries;   /* resends */
    uint64_t abandoned; /* clock commands given up */
    uint64_t unsolicited;
};

typedef struct tb_dgt_pacer tb_dgt_pacer;
#define TB_DGT_PACER_QUEUE 16
tb_dgt_pacer *tb_dgt_pacer_new(const struct tb_dgt_pacer_config *cfg);
void tb_dgt_pacer_free(tb_dgt_pacer *p);
/* Queues an encoded board command (no ACK) or clock frame (from tb_dgt_clk_*, waits for its
 * ACK). TB_ERR_FULL when TB_DGT_PACER_QUEUE frames wait; TB_ERR_ARG for a frame that is
 * neither. */
int tb_dgt_pacer_push(tb_dgt_pacer *p, const uint8_t *frame, size_t n);
/* The bytes to write now (a length > 0, written into buf) or 0 when nothing is due. A clock
 * command is handed out again after ack_ms without its ACK, until attempts or give_up_ms. */
int tb_dgt_pacer_next(tb_dgt_pacer *p, uint64_t now_ms, uint8_t *buf, size_t cap);
/* An ACK from a BWTIME. Returns 1 if it answered the clock command in flight (which is then
 * done), 0 if not (unsolicited or stale). */
int tb_dgt_pacer_ack(tb_dgt_pacer *p, const struct tb_dgt_ack *ack, uint64_t now_ms);
/* When next has something to do (UINT64_MAX: nothing). */
uint64_t tb_dgt_pacer_due(const tb_dgt_pacer *p, uint64_t now_ms);
/* Is a clock command waiting for its ACK? */
bool tb_dgt_pacer_busy(const tb_dgt_pacer *p);
/* Empties the queue (reconnect). */
void tb_dgt_pacer_clear(tb_dgt_pacer *p);
void tb_dgt_pacer_stats(const tb_dgt_pacer *p, struct tb_dgt_pacer_stats *out);

/* ---- bus mode (docs/dgt.md "Bus mode") ------------------------------------------------------
 *
 * At power-up a board is in bus mode (DGT LiveChess drives boards this way). A bus command is
 * four bytes, `cmd addrMSB addrLSB checksum`, the address 14 bits in two 7-bit bytes, the
 * checksum the 7-bit sum of the three bytes before it. A reply is `id lenMSB lenLSB addrMSB
 * addrLSB data... checksum`: the length is the total, header and checksum included, split
 * 7 + 7 bits as in single-board mode; the checksum is the 7-bit sum of every byte before it. */
enum tb_dgt_bus_cmd {
    TB_DGT_BUS_SEND_CLK = 0x81,
    TB_DGT_BUS_SEND_BRD = 0x82,
    TB_DGT_BUS_SEND_CHANGES = 0x83,
    TB_DGT_BUS_REPEAT_CHANGES = 0x84,
    TB_DGT_BUS_SET_START_GAME = 0x85,
    TB_DGT_BUS_SEND_FROM_START = 0x86,
    TB_DGT_BUS_PING = 0x87,
    TB_DGT_BUS_END_BUSMODE = 0x88,
    TB_DGT_BUS_RESET = 0x89,
    TB_DGT_BUS_IGNORE_NEXT_PING = 0x8A,
    TB_DGT_BUS_SEND_VERSION = 0x8B,
    TB_DGT_BUS_SEND_BRD_50B = 0x8C,   /* draughts */
    TB_DGT_BUS_SEND_ALL_D = 0x8D,     /* draughts */
    TB_DGT_BUS_RANDOMIZE_PING = 0x92, /* seen in the field, undocumented */
};
enum tb_dgt_bus_msg_id {
    TB_DGT_BUS_MSG_BRD_DUMP = 0x83,
    TB_DGT_BUS_MSG_BWTIME = 0x84,
    TB_DGT_BUS_MSG_UPDATE = 0x85, /* EE_MOVES records */
    TB_DGT_BUS_MSG_FROM_START = 0x86,
    TB_DGT_BUS_MSG_PING = 0x87,
    TB_DGT_BUS_MSG_START_GAME_WRITTEN = 0x88,
    TB_DGT_BUS_MSG_VERSION = 0x89,
};
#define TB_DGT_BUS_CMD_LEN     4
#define TB_DGT_BUS_REPLY_EXTRA 6 /* header 5 + checksum 1 */
#define TB_DGT_BUS_ADDR_MAX    0x3FFF

/* EE_MOVES record codes (bus UPDATE / FROM_START data and the EE_MOVES dump). A piece change
 * is two bytes: TB_DGT_EE_PIECE | (quick ? 0x10 : 0) | code, then the field. */
#define TB_DGT_EE_PIECE        0x40
#define TB_DGT_EE_QUICK        0x10 /* less than ~250 ms after the previous record */
#define TB_DGT_EE_CLOCK_RIGHT  0x60 /* | hours, then BCD minutes, BCD seconds */
#define TB_DGT_EE_CLOCK_LEFT   0x70
#define TB_DGT_EE_POWERUP      0x6A
#define TB_DGT_EE_EOF          0x6B
#define TB_DGT_EE_BEGINPOS     0x6F
#define TB_DGT_EE_BEGINPOS_ROT 0x7A
#define TB_DGT_EE_START_TAG    0x7B
#define TB_DGT_EE_NOP          0x7F

/* The 7-bit sum of n bytes. */
uint8_t tb_dgt_bus_checksum(const uint8_t *b, size_t n);
/* A bus command for the board at address (0: every board, for PING). Returns 4, TB_ERR_ARG for
 * a byte that is no bus command or an address beyond 14 bits, TB_ERR_FULL if cap < 4. */
int tb_dgt_bus_cmd_encode(uint8_t *buf, size_t cap, int cmd, int address);
/* A reply with n data bytes (each < 0x80). Returns the total length, TB_ERR_ARG for a bad id,
 * address or data byte, or a total beyond TB_DGT_MAX_LEN; TB_ERR_FULL if cap is too small. */
int tb_dgt_bus_reply_encode(uint8_t *buf, size_t cap, uint8_t id, int address, const uint8_t *data,
                            size_t n);

struct tb_dgt_bus_command {
    uint8_t cmd;      /* enum tb_dgt_bus_cmd or another byte with bit 7 set */
    uint16_t address; /* 0..16383 */
};
/* The board side: bytes from the PC in bus mode. A byte with bit 7 set starts a command (and
 * cuts one half read); a command whose checksum is wrong is dropped and counted. A byte
 * without bit 7 outside a command is handed back to the caller (a single-board command
 * switches the board to single-board mode). */
struct tb_dgt_bus_decoder {
    uint8_t buf[TB_DGT_BUS_CMD_LEN];
    uint8_t have;
    uint64_t bad_checksum; /* commands dropped */
    uint64_t cut;          /* commands cut by a new bit-7 byte */
};
void tb_dgt_bus_decoder_init(struct tb_dgt_bus_decoder *d);
/* One byte in. Returns 1 with *out filled when a command is complete and its checksum right;
 * 2 when the byte is no part of a bus command (bit 7 clear, nothing half read): the caller
 * decides; 0 otherwise. */
int tb_dgt_bus_decoder_push(struct tb_dgt_bus_decoder *d, uint8_t byte,
                            struct tb_dgt_bus_command *out);
/* The PC side: one reply at the start of buf[0..n). Returns its total length with *out
 * pointing into buf (data, n, address), 0 when more bytes are needed, TB_ERR_PARSE when buf
 * does not start with a reply header (skip a byte and try again), TB_ERR_CRC for a wrong
 * checksum (skip the reply's length). */
struct tb_dgt_bus_reply {
    uint8_t id;
    uint16_t address;
    uint16_t len; /* total */
    const uint8_t *data;
    uint16_t n;
};
int tb_dgt_bus_reply_parse(const uint8_t *buf, size_t n, struct tb_dgt_bus_reply *out);

#endif /* TB_DGT_H */
