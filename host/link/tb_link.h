/* tb_link.h - board links: every way a board reaches the daemon, behind one ops table.
 *
 * A board is named by a resource string:
 *
 *   serial:/dev/ttyUSB0          a reed board on a serial port (libserialport), reedboard protocol
 *   usb:2341:0043[:SERIALNO]     a reed board found by USB vendor:product (hex) and, when given,
 *                                its USB serial number, in any port; hot-plugged through libusb
 *   pty:/dev/pts/5               the firmware simulator's pseudo-terminal (same protocol)
 *   sim:FILE[?speed=realtime|fast]  an event script (docs/event-script.md) played in real time
 *                                (default) or as fast as the daemon reads
 *   keys:                        no sensors: an assistant types the moves made on it into the
 *                                control interface (D.2.10.1); the match takes them directly
 *   null:                        a board that never says anything
 *   dgt:/dev/ttyACM0 | dgt:auto  a DGT e-board (docs/dgt.md) on a serial, USB or rfcomm device
 *                                or an emulator's pty, 9600 8N1; auto: the first DGT board found
 *                                (/dev/serial/by-id names, then USB 04d8:000a), hot-plugged
 *   chesslink:/dev/ttyUSB0 | chesslink:auto  a Millennium ChessLink board (docs/boards.md),
 *                                38400 7O1; auto: /dev/twinboard/chesslink or a by-id name
 *   chessnut:/dev/hidraw3 | chessnut:auto  a Chessnut board over USB HID (hidapi); auto: the
 *                                first one found by its vendor ID; a Unix socket path: an
 *                                emulator's stand-in for the HID device (one report a packet)
 *
 * The daemon owns the clock: every call that may look at time takes now_ms, a monotonic
 * millisecond count. A link never blocks and never sleeps. The daemon's loop, per link:
 *
 *   fd = tb_link_fd(l)              poll it for POLLIN when >= 0 (ask again every iteration:
 *                                   the fd changes when a board is unplugged and comes back)
 *   dl = tb_link_deadline(l)        wake up no later than this (TB_LINK_NO_DEADLINE = never);
 *                                   a deadline <= now means "read again at once"
 *   n = tb_link_read(l, now, ev, max, err)   after poll returns, whatever woke it
 *
 * Links report, never decide: a lost board is an event (TB_LINK_EV_LOST), not an error, and
 * the link keeps trying to get it back (TB_LINK_EV_BACK, followed by a full snapshot; a link
 * that names its pieces, TB_LINK_CAP_PIECES, sends instead the lifts and placements that take the
 * board from before the loss to its fresh reading, pieces named). A link
 * with snapshots (TB_LINK_CAP_SNAPSHOTS) delivers no square or button event before the first
 * reading after each connect, none the reading already holds (sequence numbers), and a reading
 * only when it is the first or differs from what its events say (then after a RESYNC fault): a
 * board's periodic report never reaches the daemon twice. Errors
 * returned by tb_link_read() are for things the daemon must act on (out of memory, a bug).
 *
 * Opening: serial: and pty: fail when the device cannot be opened at start (a wrong path is
 * a configuration error); once open, a loss is retried every 250 ms doubling to 5 s. usb:
 * opens without the board and reports it missing (TB_LINK_EV_LOST) until it is plugged in;
 * it refuses to open only where libusb or its hot-plug support is unavailable. A board whose
 * /dev name can change on replugging (ttyACM0 -> ttyACM1) is best named by usb: or by its
 * /dev/serial/by-id/ path.
 *
 * Journal: the daemon appends every event it reads to the journal (tb_journal.h,
 * struct tb_journal_event: kind = enum tb_link_event_kind, arg = square, button or choice).
 */
#ifndef TB_LINK_H
#define TB_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

#define TB_LINK_NO_DEADLINE UINT64_MAX
#define TB_LINK_TEXT_MAX    96

/* ---- resource strings ------------------------------------------------------------------ */

enum tb_link_kind {
    TB_LINK_NULL = 0,
    TB_LINK_SERIAL,
    TB_LINK_USB,
    TB_LINK_PTY,
    TB_LINK_SIM,
    TB_LINK_KEYS,
    TB_LINK_DGT,       /* a DGT e-board (host/dgt) */
    TB_LINK_CHESSLINK, /* a Millennium ChessLink board (host/chesslink) */
    TB_LINK_CHESSNUT,  /* a Chessnut board over USB HID (host/chessnut) */
    TB_LINK_REED,      /* reed:id=N: a reed board found by its identity among the candidates */
};

struct tb_link_resource {
    enum tb_link_kind kind;
    char path[256];    /* serial, pty, dgt, chesslink, chessnut: device ("auto": looked for); sim:
                          script */
    uint16_t vid, pid; /* usb */
    char serial[64];   /* usb: USB serial number, "" = any device with vid:pid */
    bool fast;         /* sim: play as fast as possible instead of in real time */
    uint32_t board_id; /* reed: the board's identity (the serial in its EEPROM) */
};

/* Parses a resource string. 0, or TB_ERR_PARSE with err naming the problem; res is only
 * written on success. */
int tb_link_resource_parse(const char *s, struct tb_link_resource *res, struct tb_error *err);
/* The scheme word of a kind ("serial"). */
const char *tb_link_kind_name(enum tb_link_kind kind);

/* ---- events ---------------------------------------------------------------------------- */

enum tb_link_event_kind {
    TB_LINK_EV_LIFT = 1,    /* square: a piece left it (on the VI board, a touch: D.2.2) */
    TB_LINK_EV_PLACE,       /* square: a piece arrived on it */
    TB_LINK_EV_BUTTON_DOWN, /* button pressed (button: enum rb_proto_button_id numbering) */
    TB_LINK_EV_BUTTON_UP,   /* button released */
    TB_LINK_EV_CHOICE,      /* choice: a promotion piece 'q' 'r' 'b' 'n' (D.2.1) */
    TB_LINK_EV_SNAPSHOT,    /* occupancy: the whole board; seq: newest event it reflects */
    TB_LINK_EV_INFO,        /* text: what the board says about itself */
    TB_LINK_EV_FAULT,       /* fault, fault_arg, fault_detail, text: something is wrong */
    TB_LINK_EV_LOST,        /* text: why; the board is gone (unplugged, closed, EOF) */
    TB_LINK_EV_BACK,        /* the board is back; a SNAPSHOT follows: re-read the board */
    TB_LINK_EV_END = 12,    /* an event script has no more events (11 is not used) */
    TB_LINK_EV_CLOCK = 13,  /* clock_ms, clock_run: a clock beside the board (a DGT clock) read */
    TB_LINK_EV_RESIGN = 14, /* the player to move at this board resigns: an event script's
                               `press resign` (no board has such a button; 5.1.2, bughouse 5.2) */
};

/* Fault codes: 1..5 are the board's own (enum rb_proto_fault_code); these are the link's. */
enum tb_link_fault {
    TB_LINK_FAULT_DECODE = 100,   /* bytes on the wire were rejected; detail = how many frames */
    TB_LINK_FAULT_SEQ_GAP = 101,  /* events were lost (detail = how many); a snapshot was asked */
    TB_LINK_FAULT_OVERFLOW = 102, /* the link's queue overflowed; a snapshot was asked */
    TB_LINK_FAULT_RESYNC = 103,   /* a reading differs from what the events say: the SNAPSHOT
                                     that follows re-reads the board */
};

struct tb_link_event {
    uint8_t kind;   /* enum tb_link_event_kind */
    uint8_t square; /* 0..63, a1 = 0 */
    uint8_t button;
    char choice;
    bool has_seq;       /* seq and board_ms come from the board itself */
    uint16_t seq;       /* the board's event sequence number */
    uint32_t board_ms;  /* the board's clock, or the script's time for sim: */
    uint64_t host_ms;   /* now_ms of the read that delivered it */
    uint64_t occupancy; /* SNAPSHOT: bit n = square n occupied */
    uint8_t fault;      /* FAULT: enum rb_proto_fault_code or enum tb_link_fault */
    uint8_t fault_arg;
    uint16_t fault_detail;
    int32_t clock_ms[2]; /* CLOCK: time left of White [0] and Black [1] in ms, -1 unknown */
    uint8_t clock_run;   /* CLOCK: 0 stopped, 1 White's clock runs, 2 Black's */
    /* A board that names its pieces (TB_LINK_CAP_PIECES): PLACE: the piece put down (tb_chess
     * code, 0 when it is no chess piece); SNAPSHOT: has_pieces, and the piece on each square
     * (a1 = 0; 0 empty or no chess piece, the occupancy says which). */
    uint8_t piece;
    bool has_pieces;
    uint8_t pieces[64];
    char text[TB_LINK_TEXT_MAX];
};

/* A board's buttons (the numbering of enum rb_proto_button_id); their meaning is the host's. */
enum tb_link_button {
    TB_LINK_BUTTON_PROMOTE = 0, /* the promotion piece (3.7.5; announced per D.2.1) */
    TB_LINK_BUTTON_REPEAT = 1,  /* the last announcement again (D.2.1) */
    TB_LINK_BUTTON_CLOCK = 2,   /* time used and moves made (D.2.6, D.2.10.4) */
    TB_LINK_BUTTON_ARBITER = 3, /* call the arbiter */
    TB_LINK_BUTTONS = 4,
};
/* "promote", "repeat", "clock", "arbiter"; "unknown" for any other number. */
const char *tb_link_button_name(int button);
/* The button of a name, or -1. */
int tb_link_button_parse(const char *name);

/* A short English name of an event kind ("lift"); never NULL. */
const char *tb_link_event_name(int kind);

/* Counters for the status request. They only grow. */
#define TB_LINK_DEVICE_MAX 128
struct tb_link_stats {
    uint32_t events;     /* events delivered */
    uint32_t frames;     /* protocol frames decoded */
    uint32_t bad_frames; /* frames rejected: garbage runs, bad CRC, bad length, bad fields */
    uint32_t garbage_bytes;
    uint32_t seq_gaps; /* times events were lost between two frames */
    uint32_t snapshots_requested;
    uint32_t reconnects; /* times the board came back */
    bool connected;
    bool unread; /* connected, but its first whole-board reading is not in yet */
    bool ended;  /* a script: every event has been delivered */
    char device[TB_LINK_DEVICE_MAX]; /* a reed board's tty while connected (for reed:id= and
                                        usb: the one found); else empty */
};

/* ---- capabilities: what a link can do, asked instead of its kind ------------------------ */

enum tb_link_cap {
    TB_LINK_CAP_REAL_TIME = 1u << 0,   /* its events happen on the wall clock */
    TB_LINK_CAP_SCRIPT_TIME = 1u << 1, /* its events carry their own time and may be read ahead
                                          (a fast script): the daemon runs on that time */
    TB_LINK_CAP_SNAPSHOTS = 1u << 2,   /* it reports whole-board readings; its square events
                                          count only after the first one (after each connect) */
    TB_LINK_CAP_REPLAYS = 1u << 3,     /* reopened, it plays again from its first event: events
                                          already journaled are skipped by sequence number */
    TB_LINK_CAP_ENDS = 1u << 4,        /* it has an end (TB_LINK_EV_END): a script */
    TB_LINK_CAP_TYPED = 1u << 5,       /* no sensors: an assistant types its moves (D.2.10.1) */
    TB_LINK_CAP_HOTPLUG = 1u << 6,     /* it may open before its board is there */
    TB_LINK_CAP_DEVICE = 1u << 7,      /* a physical board behind a device: one player's alone */
    TB_LINK_CAP_PIECES = 1u << 8,      /* it names the pieces (a DGT e-board): PLACE carries the
                                          piece, SNAPSHOT the piece on every square */
    TB_LINK_CAP_DISPLAY = 1u << 9,     /* it can show short text (a DGT clock's display) */
    TB_LINK_CAP_LEDS = 1u << 10,       /* it can light squares (a ChessLink board's corners) */
};

/* ---- the ops table --------------------------------------------------------------------- */

struct tb_link;

/* One per kind of link, const, with designated initialisers. The core checks optional slots
 * for NULL before calling them; a link's private state hangs off tb_link_priv(). */
struct tb_link_ops {
    const char *scheme;
    /* Required. What a link of this kind opened on res can do (enum tb_link_cap bits). */
    unsigned (*caps)(const struct tb_link_resource *res);
    /* Required. Opens the board (or starts waiting for it). Return 0, or an error with err
     * filled; on error close is still called, so it must cope with a half-opened link. */
    int (*open)(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                struct tb_error *err);
    /* Optional (NULL = never anything to poll). The fd to poll for input, or -1 now. */
    int (*fd)(const struct tb_link *link);
    /* Optional (NULL = no timers). When read must be called even without input. */
    uint64_t (*deadline)(const struct tb_link *link);
    /* Required. Does what is due at now_ms (reading input, timers, reconnecting) and delivers
     * up to max events. Returns the number delivered (0 = none) or a negative TB_ERR_*. */
    int (*read)(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                struct tb_error *err);
    /* Optional (NULL = the board cannot be asked). Asks for a full snapshot; the answer is a
     * TB_LINK_EV_SNAPSHOT event. */
    int (*request_snapshot)(struct tb_link *link, struct tb_error *err);
    /* Optional (NULL = nothing to show text on). Shows text on the board's display (a DGT
     * clock): up to TB_LINK_DISPLAY_MAX printable characters, cut to what the display holds;
     * NULL or "" gives the display back to what it shows by itself (the times). flags:
     * TB_LINK_DISPLAY_*. TB_ERR_SUPP when there is no display now (no clock attached). */
    int (*display)(struct tb_link *link, const char *text, unsigned flags, struct tb_error *err);
    /* Optional (NULL = no lights). Lights the squares in squares (bit n = square n, a1 = 0),
     * every other off; 0 puts them all out. TB_ERR_STATE when the board is away (it is lit
     * again when it comes back). */
    int (*leds)(struct tb_link *link, uint64_t squares, struct tb_error *err);
    /* Optional. Fills the counters the link keeps (the core zeroes st first). */
    void (*stats)(const struct tb_link *link, struct tb_link_stats *st);
    /* Required. Releases everything open acquired; must accept a half-opened link. */
    void (*close)(struct tb_link *link);
};

/* The ops table for a kind (never NULL for a valid kind). */
const struct tb_link_ops *tb_link_ops_for(enum tb_link_kind kind);

/* Opens the board named by resource for the board called name ("vi" or "sighted"; sim:
 * plays the script lines of that board). Returns 0 and *out, or an error with err naming
 * the resource and the problem. */
int tb_link_open(struct tb_link **out, const char *resource, const char *name, uint64_t now_ms,
                 struct tb_error *err);
/* Same, with an already parsed (and perhaps adjusted: res->fast) resource. */
int tb_link_open_resource(struct tb_link **out, const struct tb_link_resource *res,
                          const char *name, uint64_t now_ms, struct tb_error *err);
/* Same, with an already parsed resource and an explicit ops table (tests, new drivers). */
int tb_link_open_with(struct tb_link **out, const struct tb_link_ops *ops,
                      const struct tb_link_resource *res, const char *name, uint64_t now_ms,
                      struct tb_error *err);

int tb_link_fd(const struct tb_link *link);
uint64_t tb_link_deadline(const struct tb_link *link);
int tb_link_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                 struct tb_error *err);
int tb_link_request_snapshot(struct tb_link *link, struct tb_error *err);
/* Text on the board's display (TB_LINK_CAP_DISPLAY); TB_ERR_SUPP for a link without one. */
#define TB_LINK_DISPLAY_MAX      11
#define TB_LINK_DISPLAY_BEEP     1u /* with a short beep */
#define TB_LINK_DISPLAY_BRIEF    2u /* the display shows its own again after a while (3 s) */
#define TB_LINK_DISPLAY_BRIEF_MS 3000
int tb_link_display(struct tb_link *link, const char *text, unsigned flags, struct tb_error *err);
/* Squares lit on the board (TB_LINK_CAP_LEDS); TB_ERR_SUPP for a link without lights. */
int tb_link_leds(struct tb_link *link, uint64_t squares, struct tb_error *err);
/* The capabilities of an open link, or of a resource not yet opened (enum tb_link_cap). */
unsigned tb_link_caps(const struct tb_link *link);
unsigned tb_link_resource_caps(const struct tb_link_resource *res);
void tb_link_stats(const struct tb_link *link, struct tb_link_stats *st);
const char *tb_link_name(const struct tb_link *link);
const struct tb_link_resource *tb_link_resource(const struct tb_link *link);
/* For ops implementations: the link's private state slot. */
void *tb_link_priv(const struct tb_link *link);
void tb_link_set_priv(struct tb_link *link, void *priv);
/* Closes and frees; NULL is a no-op. */
void tb_link_close(struct tb_link *link);

/* The boards this machine shows: for each, fn gets the resource to name it by and what it is
 * (the package's /dev/twinboard names, serial devices whose by-id names say DGT or ChessLink,
 * Chessnut boards on USB HID). The udev rules' reed-board candidates are asked who they are
 * (a few seconds each at most; one another program holds is said to be in use): a reed board
 * is named by its identity (reed:id=N), anything else is said not to be one. Returns how many. */
typedef void (*tb_link_board_fn)(void *arg, const char *resource, const char *what);
int tb_link_find_boards(tb_link_board_fn fn, void *arg);

/* Who a reed board is: the identity kept in its EEPROM (0: none yet) and its firmware. */
struct tb_link_reed_identity {
    uint32_t id;
    uint8_t fw_major, fw_minor, fw_patch, proto;
    bool pty; /* the tty is a pseudo-terminal (a simulator) */
};
/* Asks the reed board on the tty at path who it is, waiting a few seconds at most (an Arduino
 * restarts when its port opens). With set_id (1..4294967294), a board that has no identity is
 * given that one first, which it keeps in its EEPROM; a board that has another keeps it. Returns
 * 0 and *out; TB_ERR_TIMEOUT: no reed board answered; TB_ERR_STATE: another program has the tty
 * open; TB_ERR_ILLEGAL: the board has another identity (out filled); else the open's error. */
int tb_link_reed_identify(const char *path, uint32_t set_id, struct tb_link_reed_identity *out,
                          struct tb_error *err);

/* Where the package's udev rules name the boards: $TWINBOARD_DEV_DIR, else /dev/twinboard. The
 * reed-board candidates are its entries whose names begin with TB_LINK_CANDIDATE_PREFIX. */
const char *tb_link_dev_dir(void);
#define TB_LINK_CANDIDATE_PREFIX "candidate-"

#endif /* TB_LINK_H */
