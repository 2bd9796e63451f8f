/* link_internal.h - what the link implementations share: their ops tables and an event queue. */
#ifndef LINK_INTERNAL_H
#define LINK_INTERNAL_H

#include "tb_link.h"

extern const struct tb_link_ops tb_link__null_ops;
extern const struct tb_link_ops tb_link__keys_ops;
extern const struct tb_link_ops tb_link__sim_ops;
extern const struct tb_link_ops tb_link__serial_ops; /* serial: and pty: */
extern const struct tb_link_ops tb_link__usb_ops;
extern const struct tb_link_ops tb_link__dgt_ops;
extern const struct tb_link_ops tb_link__chesslink_ops;
extern const struct tb_link_ops tb_link__chessnut_ops;
extern const struct tb_link_ops tb_link__reed_id_ops;

/* A fixed ring of events waiting to be read. */
#define TB_LINK__QUEUE_CAP 256
struct tb_link__queue {
    struct tb_link_event ev[TB_LINK__QUEUE_CAP];
    unsigned head, count;
};

/* Adds an event; false when full (the event is dropped: the caller asks for a snapshot). */
bool tb_link__queue_push(struct tb_link__queue *q, const struct tb_link_event *ev);
/* Moves up to max events out, stamping host_ms; returns how many. */
int tb_link__queue_pop(struct tb_link__queue *q, struct tb_link_event *ev, int max,
                       uint64_t now_ms);
static inline bool tb_link__queue_full(const struct tb_link__queue *q)
{
    return q->count == TB_LINK__QUEUE_CAP;
}

/* A loss said once: LOST with why (NULL: nothing said) when the board was connected or no loss
 * was said yet; *said records it. */
void tb_link__say_lost(struct tb_link__queue *q, bool *said, bool was_connected, const char *why);
/* Back after a loss was said: BACK queued, *said cleared; true (a reconnect to count). */
bool tb_link__say_back(struct tb_link__queue *q, bool *said);

/* ---- a board's tty (link_tty.c) --------------------------------------------------------- */

struct sp_port;

/* Opens path raw 8N1 at baud (115200 or 9600), non-blocking, VMIN 1 (a read of 0 is a hang-up):
 * through libserialport (*port set) when serialport, else open(2) (a pty). err names it
 * "scheme:path". */
int tb_link__tty_open(const char *scheme, const char *path, int baud, bool serialport, int *fd,
                      struct sp_port **port, struct tb_error *err);
/* Same at baud 9600, 38400 or 115200, and 7 data bits with odd parity when seven_odd (a
 * ChessLink board; a pty takes the bytes as they come). */
int tb_link__tty_open_framed(const char *scheme, const char *path, int baud, bool seven_odd,
                             bool serialport, int *fd, struct sp_port **port, struct tb_error *err);
/* An e-board's device: /dev/twinboard/udev_name (the package's udev rule), else the first
 * /dev/serial/by-id name holding one of words (upper case, NULL-ended). Other serial devices
 * are never probed: the VI player's reed board may be one of them. */
bool tb_link__find_named(const char *udev_name, const char *const *words, char *out, size_t len);
/* Takes the tty for this program alone (an advisory lock, flock(2), which every reed link and
 * every probe takes): 0, or TB_ERR_STATE when another holds it. Closing the fd releases it. */
int tb_link__tty_lock(int fd);
/* Closes what tb_link__tty_open opened (*fd -1, *port NULL after). */
void tb_link__tty_close(int *fd, struct sp_port **port);

/* ---- a reed board behind a tty (serial:, pty:, usb:) ------------------------------------ */

#include "rb_proto.h"

struct tb_link__reed {
    enum tb_link_kind kind; /* TB_LINK_SERIAL opens through libserialport, else open(2) */
    char path[256];
    int fd;               /* -1 while not connected */
    struct sp_port *port; /* serial: only */
    bool auto_reopen;     /* after a loss, reopen path on a timer with backoff */
    bool connected, lost_reported, have_seq, snapshot_pending;
    bool unread;  /* connected, its first whole-board reading not in yet: events wait for it */
    bool asked;   /* the caller asked for a reading: the next one goes out whatever it says */
    uint64_t occ; /* the board as the events delivered since that reading leave it */
    uint16_t last_seq;
    uint64_t now_ms; /* of the latest read */
    uint64_t snapshot_asked_ms;
    uint64_t retry_ms; /* next reopen attempt */
    unsigned backoff_ms;
    struct rb_proto_decoder dec;
    struct rb_proto_stats seen; /* decoder counters already reported */
    struct tb_link__queue q;
    struct tb_link_stats st;
};

void tb_link__reed_init(struct tb_link__reed *r, enum tb_link_kind kind, const char *path,
                        bool auto_reopen);
/* Opens the tty, 115200 8N1 raw, non-blocking, and asks for INFO and a SNAPSHOT. */
int tb_link__reed_connect(struct tb_link__reed *r, uint64_t now_ms, struct tb_error *err);
/* Takes an open, locked tty (a probe found the board on it) as connect would have opened it. */
void tb_link__reed_adopt(struct tb_link__reed *r, int fd, struct sp_port *port, uint64_t now_ms);
/* Closes the tty; queues TB_LINK_EV_LOST with why when why is not NULL. */
void tb_link__reed_disconnect(struct tb_link__reed *r, const char *why);
/* Reads and decodes what is there, runs the timers, delivers up to max events. */
int tb_link__reed_read(struct tb_link__reed *r, uint64_t now_ms, struct tb_link_event *ev, int max);
uint64_t tb_link__reed_deadline(const struct tb_link__reed *r);
int tb_link__reed_request_snapshot(struct tb_link__reed *r, struct tb_error *err);
/* The counters, the connection and, while connected, the tty it is on. */
void tb_link__reed_stats(const struct tb_link__reed *r, struct tb_link_stats *st);

/* Finds the tty of a USB device by vendor, product and (when not empty) serial number under
 * sysfs_root (normally "/sys"): fills tty ("/dev/ttyACM0") and dev (the sysfs device name,
 * "1-1.4"). Returns 0, TB_ERR_NOTFOUND (no such device), or TB_ERR_AGAIN (the device is there
 * but its tty is not yet). */
int tb_link__usb_find_tty(const char *sysfs_root, uint16_t vid, uint16_t pid, const char *serial,
                          char *tty, size_t tty_len, char *dev, size_t dev_len);

/* ---- asking reed-board candidates who they are (link_probe.c) -------------------------- */

#include <sys/types.h>

#define TB_LINK__PATH_MAX 256
#define TB_LINK__PROBE_MS 3000 /* a board answers by then, its boot loader's wait included */

/* The candidates (tb_link_dev_dir()/candidate-*) in name order, at most max; how many. */
int tb_link__candidates(char (*out)[TB_LINK__PATH_MAX], int max);

/* One plugging-in of a device node: a node made anew has another. */
struct tb_link__plug {
    dev_t rdev;
    ino_t ino;
    long long ctime_s, ctime_ns;
};
bool tb_link__plug_of(const char *path, struct tb_link__plug *out);
bool tb_link__plug_same(const struct tb_link__plug *a, const struct tb_link__plug *b);

struct tb_link__probe {
    int fd; /* -1: none under way */
    struct sp_port *port;
    bool pty;
    char path[TB_LINK__PATH_MAX];
    uint64_t until_ms, next_ask_ms;
    struct rb_proto_decoder dec;
    struct rb_proto_info info; /* the answer */
};
/* Opens and takes path and asks it: 0, TB_ERR_STATE (another holds it) or the open's error. */
int tb_link__probe_start(struct tb_link__probe *p, const char *path, uint64_t now_ms);
/* Reads what came: 1 answered (p->info), 0 still waiting, TB_ERR_TIMEOUT no answer in
 * TB_LINK__PROBE_MS, TB_ERR_SYS hung up. */
int tb_link__probe_step(struct tb_link__probe *p, uint64_t now_ms);
/* When step must be called again without input. */
uint64_t tb_link__probe_due(const struct tb_link__probe *p);
/* Closes the tty unless it was handed on (fd set to -1 by the taker). */
void tb_link__probe_end(struct tb_link__probe *p);

/* ---- whole-board readings with pieces named (link_reading.c) ---------------------------- */

typedef struct tb_dgt_tracker tb_dgt_tracker;
struct tb_link__reading {
    tb_dgt_tracker *tr;
    bool unread;       /* no reading out yet: the first goes out as a SNAPSHOT */
    bool have;         /* a reading has come since the link opened */
    bool asked;        /* the caller asked for a reading: the next one goes out as a SNAPSHOT too */
    const char *board; /* "ChessLink board": what the info texts call it */
};
int tb_link__reading_init(struct tb_link__reading *r, const char *board);
void tb_link__reading_free(struct tb_link__reading *r);
/* A reading: 64 tb_chess codes by square (a1 = 0). Its events go to q. */
void tb_link__reading_put(struct tb_link__reading *r, struct tb_link__queue *q,
                          const uint8_t pieces[64], uint64_t now_ms);
/* Placements whose wait has ended; when that is next. */
void tb_link__reading_tick(struct tb_link__reading *r, struct tb_link__queue *q, uint64_t now_ms);
uint64_t tb_link__reading_due(const struct tb_link__reading *r);

/* The board name given at open ("vi", "sighted"). */
const char *tb_link__board_name(const struct tb_link *link);

/* An open link (link.c opens it; the drivers read its name and keep their state in priv). */
struct tb_link {
    const struct tb_link_ops *ops;
    struct tb_link_resource res;
    char name[16];
    char resource[300];
    void *priv;
    uint32_t delivered;
};

#endif /* LINK_INTERNAL_H */
