/* tb_journal.h - the per-game journal: every raw board event and every decision, append-only.
 *
 * A journal is a file of records; docs/journal.md has the byte layout of both formats, how a
 * reader resynchronises after damage and how the file layer reports write failures. In short, a
 * format 2 record (written by this build) is a 36-byte header and its payload:
 *
 *   offset size field
 *   0      4    sync marker "TBJ2" (the format's version is its last byte)
 *   4      2    type (enum tb_journal_type, or any value for generic records)
 *   6      2    flags (0)
 *   8      4    payload length in bytes (at most TB_JOURNAL_MAX_PAYLOAD)
 *   12     8    sequence number: 1 for a file's first record, +1 per record
 *   20     8    host time, milliseconds (the daemon's clock)
 *   28     4    CRC-32 (IEEE) of the payload
 *   32     4    CRC-32 (IEEE) of header bytes 0..31
 *
 * Format 1 records ("TBJ1", a 32-byte header with one CRC over header and payload) are still
 * read; appends to such a file continue in format 2. All integers little-endian.
 *
 * Reading never trusts a record until its CRCs match and its sequence number continues the
 * ones before it, so:
 *   - a torn tail (bytes after the last intact record holding no intact record: a write cut
 *     short by kill -9 or a power cut, a zero-filled tail) is dropped; but a last record that
 *     is whole to the end of the file with its header intact was written completely, so its
 *     damage is a loss like any other;
 *   - damage between intact records is reported as a loss (struct tb_journal_loss: the records
 *     lost by sequence number, the bytes unreadable, the last ply agreed before them) and
 *     reading resumes at the next intact record: one damaged record costs that record only.
 *
 * The format layer (iterator, encode/decode) is pure; the file layer (open/append/commit/close)
 * does I/O. A record is durable once tb_journal_commit() (or tb_journal_sync()) has returned 0;
 * a record that cannot be written stays in memory, in order, until a later commit writes it.
 */
#ifndef TB_JOURNAL_H
#define TB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tb_err.h"

#define TB_JOURNAL_HEADER_SIZE    36 /* format 2, the format written */
#define TB_JOURNAL_V1_HEADER_SIZE 32 /* format 1, still read */
#define TB_JOURNAL_FORMAT         2
#define TB_JOURNAL_MAX_PAYLOAD    65536u
/* Records appended but not yet durable are kept in memory up to this many bytes. */
#define TB_JOURNAL_PENDING_MAX (8u << 20)

/* Record types the daemon writes. Other values are allowed for generic records. */
enum tb_journal_type {
    TB_JOURNAL_GAME_START = 1,      /* decision: fen = start position, text = config summary */
    TB_JOURNAL_BOARD_EVENT = 2,     /* struct tb_journal_event: a raw event from a board link */
    TB_JOURNAL_MOVE = 3,            /* struct tb_journal_move: a move decided on a board */
    TB_JOURNAL_MISMATCH = 4,        /* decision: id, board, text = where and why (D.2.9) */
    TB_JOURNAL_RESOLUTION = 5,      /* decision: id, who, text = how it was put right (D.2.9) */
    TB_JOURNAL_ARBITER = 6,         /* decision: who, text = the arbiter's action */
    TB_JOURNAL_PROMOTION = 7,       /* decision: board, text = "q"|"r"|"b"|"n" (D.2.1) */
    TB_JOURNAL_TAKEBACK = 8,        /* decision: count = plies taken back, who */
    TB_JOURNAL_SET_POSITION = 9,    /* decision: fen, who */
    TB_JOURNAL_NEW_GAME = 10,       /* decision: fen = start position, who */
    TB_JOURNAL_TYPED_MOVE = 11,     /* decision: board, who = "assistant", text = the move in UCI
                                       as the match took it (D.2.10.1: a keys: board) */
    TB_JOURNAL_RESULT = 12,         /* decision: who, count = how (enum tb_ctl_result), id = side,
                                       fen = the arbiter's result, text = the request's words */
    TB_JOURNAL_CLOCK = 13,          /* decision: text = the game clock's: "flag white 0-1: why"
                                       (board: the flagged side's), "journal stop W B" (ms the
                                       clocks ran while the journal stood, given back) */
    TB_JOURNAL_CLOCK_SET = 14,      /* decision: who, text = the arbiter's clock-set times as
                                       given ("1:25:00 1:20:30"; D.2.9, 6.10.2) */
    TB_JOURNAL_BUG_INPUT_TEXT = 15, /* decision, only read (older journals; who, text = a
                                       doorgeefschaak input as words: "hand SEAT",
                                       "resign BOARD COLOUR", "choose BOARD PIECE", "move BOARD
                                       TEXT", "accept BOARD", "replace BOARD" or "time";
                                       tb_journal_bug_input_decode reads it */
    TB_JOURNAL_BUG_INPUT_BIN = 16,  /* struct tb_journal_bug_input: a doorgeefschaak input the
                                       match took from a request, or a mark of the time at which
                                       it decided something by itself (daemon_bug.c) */
    /* Notes only the log and the PGN need (recovery passes over them): */
    TB_JOURNAL_TOUCH = 100, /* decision: board, text = a touch-move report (4.3, 4.4) */
    TB_JOURNAL_HELD = 101,  /* decision: board, text = a move made while play was stopped */
};

/* A record as read back. payload points into the buffer being iterated. */
struct tb_journal_record {
    uint16_t type;
    uint64_t seq;
    uint64_t time_ms;
    const uint8_t *payload;
    uint32_t len;
    size_t offset;  /* of the record's header in the buffer */
    uint8_t format; /* 1 or 2 */
};

/* Damage between intact records, as the iterator reports it. */
struct tb_journal_loss {
    uint64_t first_seq; /* records first_seq..last_seq are lost; */
    uint64_t last_seq;  /* last_seq = first_seq - 1 when only bytes are (no record missing) */
    size_t offset;      /* bytes offset..offset + bytes - 1 are unreadable (bytes 0: a gap in */
    size_t bytes;       /* the sequence numbers between two adjacent intact records) */
    uint16_t ply;       /* ply of the last intact MOVE record before the damage (0: none): a
                           move lost, if any, is ply + 1 or later */
    uint16_t next_ply;  /* ply of the first intact MOVE record after it (0: none or not known;
                           tb_journal_open fills it): next_ply == ply + 1 means no agreed move
                           was lost */
};

/* ---- pure format layer ---------------------------------------------------------------- */

/* CRC-32 (IEEE 802.3, reflected, as zlib), continued from crc (start with 0). */
uint32_t tb_journal_crc32(uint32_t crc, const void *data, size_t len);

/* Writes one record (header + payload) into out, which must hold TB_JOURNAL_HEADER_SIZE + len
 * bytes. Returns the number of bytes written, or TB_ERR_ARG (payload too long). */
int tb_journal_encode(uint8_t *out, size_t cap, uint16_t type, uint64_t seq, uint64_t time_ms,
                      const void *payload, size_t len);

/* Iterates the records of a buffer (a whole journal file, or a prefix of one). */
struct tb_journal_iter {
    const uint8_t *buf;
    size_t len;
    size_t pos;                  /* where the next record is looked for */
    size_t valid_end;            /* offset just past the last valid record or reported damage */
    uint64_t next_seq;           /* expected sequence number; 0 (meaning 1) at the start */
    size_t corrupt;              /* corrupt regions reported so far */
    bool torn;                   /* a torn tail was found (bytes valid_end..len are not records) */
    uint64_t lost;               /* records lost so far (sum over the losses reported) */
    uint16_t ply;                /* ply of the last intact MOVE record */
    struct tb_journal_loss loss; /* the last loss reported (after TB_ERR_CRC) */
    bool unsupported; /* a record of a newer format was found; the iterator has stopped */
};

void tb_journal_iter_init(struct tb_journal_iter *it, const void *buf, size_t len);

/* Next record. Returns 1 and fills rec; 0 at the end (a torn tail, if any, is dropped and
 * it->torn set); TB_ERR_CRC when damage lies between intact records: it->loss says which
 * records and bytes, err says it in a sentence ("records 57 to 59 lost (bytes 3400 to 3611
 * unreadable), after ply 23"), and the next call resumes at the next intact record. A jump in
 * sequence numbers between two intact records is reported the same way (0 bytes); an intact
 * record whose sequence number does not continue (an older one) is not handed out but counted
 * in the damage. TB_ERR_SUPP when a record of a newer format than TB_JOURNAL_FORMAT is found
 * (its header CRC matches): err says which, and the iterator stops. */
int tb_journal_iter_next(struct tb_journal_iter *it, struct tb_journal_record *rec,
                         struct tb_error *err);

/* ---- typed payloads ------------------------------------------------------------------- */

#define TB_JOURNAL_BOARD_NONE 0xff
#define TB_JOURNAL_EVENT_MAX  70 /* bytes of the largest board event */

/* A raw board event, as the link delivered it. kind and arg are the link's values
 * (enum tb_link_event_kind; square 0..63 a1=0, button number or promotion letter). */
struct tb_journal_event {
    uint8_t board; /* 0 = vi, 1 = sighted */
    uint8_t kind;
    uint8_t arg;
    uint32_t board_seq; /* the board's own event sequence number */
    uint32_t board_ms;  /* the board's clock */
    uint64_t host_ms;   /* when the daemon received it */
    uint64_t occupancy; /* snapshots only: bit n = square n occupied */
    /* A board that names its pieces and a clock beside a board (written only when used, so
     * other events keep their 27 bytes): */
    uint8_t piece;       /* PLACE: the piece put down (tb_chess code), 0 when not known */
    int32_t clock_ms[2]; /* CLOCK: White's and Black's time left, ms, -1 unknown */
    uint8_t clock_run;   /* CLOCK: 0 stopped, 1 White's clock runs, 2 Black's */
    bool has_pieces;     /* SNAPSHOT: pieces holds the piece on every square */
    uint8_t pieces[64];  /* tb_chess codes, a1 = 0 */
};
#define TB_JOURNAL_KIND_CLOCK 13 /* enum tb_link_event_kind's TB_LINK_EV_CLOCK */

/* Moves before a MOVE record's own that it may carry: enough to bridge the moves whose records
 * a zeroed 4 KiB page takes (docs/journal.md, "Recovery past damage"). */
#define TB_JOURNAL_MOVE_HISTORY 24

struct tb_journal_move {
    uint8_t board;
    uint16_t ply;  /* 1 = White's first move */
    uint16_t move; /* tb_chess_move */
    char san[16];
    uint8_t nhist; /* 0..TB_JOURNAL_MOVE_HISTORY, below ply: the moves of plies */
    uint16_t hist[TB_JOURNAL_MOVE_HISTORY]; /* ply - nhist .. ply - 1, in order */
};

/* Every decision that is not a move: which fields a type uses is listed at enum
 * tb_journal_type; unused strings are empty and unused numbers 0. */
struct tb_journal_decision {
    uint32_t id;    /* mismatch number */
    uint8_t board;  /* TB_JOURNAL_BOARD_NONE when none */
    uint16_t count; /* plies taken back */
    char who[32];   /* "arbiter", "vi", "sighted", "assistant", "daemon" */
    char fen[100];
    char text[400];
};

/* Encoders return the payload length written into out (at most cap), or TB_ERR_FULL.
 * Decoders return 0, or TB_ERR_PARSE when the payload is malformed (err says why). */
int tb_journal_event_encode(const struct tb_journal_event *ev, uint8_t *out, size_t cap);
int tb_journal_event_decode(struct tb_journal_event *ev, const struct tb_journal_record *rec,
                            struct tb_error *err);
int tb_journal_move_encode(const struct tb_journal_move *mv, uint8_t *out, size_t cap);
int tb_journal_move_decode(struct tb_journal_move *mv, const struct tb_journal_record *rec,
                           struct tb_error *err);
int tb_journal_decision_encode(const struct tb_journal_decision *d, uint8_t *out, size_t cap);
int tb_journal_decision_decode(struct tb_journal_decision *d, const struct tb_journal_record *rec,
                               struct tb_error *err);

/* A doorgeefschaak input (docs/doorgeefschaak.md): what a control request gave the match, or
 * a mark that the match decided something at the record's time with no input. */
enum tb_journal_bug_verb {
    TB_JOURNAL_BUG_TIME = 0,    /* a mark: the time ran this far */
    TB_JOURNAL_BUG_HAND = 1,    /* seat asks for its hand (2.6) */
    TB_JOURNAL_BUG_RESIGN = 2,  /* board, side: that side resigns there (5.2) */
    TB_JOURNAL_BUG_CHOOSE = 3,  /* board, piece: the kind of the drop or promotion waiting */
    TB_JOURNAL_BUG_MOVE = 4,    /* board, move: a move typed for a typed board */
    TB_JOURNAL_BUG_ACCEPT = 5,  /* board: the illegal move pressed there is accepted (7.4) */
    TB_JOURNAL_BUG_REPLACE = 6, /* board: its replacement is demanded (7.4) */
};
#define TB_JOURNAL_BUG_VERBS    7
#define TB_JOURNAL_BUG_MOVE_MAX 100 /* bytes of a typed move (the control protocol's limit) */
#define TB_JOURNAL_BUG_TEXT_MAX (16 + TB_JOURNAL_BUG_MOVE_MAX) /* the words of one, with NUL */

/* Fields a verb does not use are 0 (board TB_JOURNAL_BOARD_NONE, move ""). */
struct tb_journal_bug_input {
    uint8_t verb;                           /* enum tb_journal_bug_verb */
    uint8_t board;                          /* 0 = A, 1 = B */
    uint8_t seat;                           /* hand: 0 White A, 1 Black A, 2 White B, 3 Black B */
    uint8_t side;                           /* resign: 0 White, 1 Black */
    char piece;                             /* choose: 'q', 'r', 'b', 'n' or 'p' */
    char move[TB_JOURNAL_BUG_MOVE_MAX + 1]; /* move: as typed, printable, no space */
};

/* The payload of a TB_JOURNAL_BUG_INPUT_BIN record; TB_ERR_ARG (err says which field) when in
 * is not an input a decoder would give back, TB_ERR_FULL when cap is too small. */
int tb_journal_bug_input_encode(const struct tb_journal_bug_input *in, uint8_t *out, size_t cap,
                                struct tb_error *err);
/* One decoder for both forms: a TB_JOURNAL_BUG_INPUT_BIN record, or the words of a
 * TB_JOURNAL_BUG_INPUT_TEXT decision (older journals). TB_ERR_PARSE when the record is neither
 * or is malformed: err names the record and what is wrong where (a byte offset, or a word). */
int tb_journal_bug_input_decode(struct tb_journal_bug_input *in,
                                const struct tb_journal_record *rec, struct tb_error *err);
/* The input in the words of the text form ("hand 2", "move 0 N@f3", "time"): for logs, and what
 * older journals hold. Returns the length (cut to fit len) or TB_ERR_ARG. */
int tb_journal_bug_input_format(const struct tb_journal_bug_input *in, char *buf, size_t len);

/* ---- file layer ----------------------------------------------------------------------- */

struct tb_journal;

/* What open found in an existing file. */
struct tb_journal_recovery {
    size_t records;    /* valid records */
    size_t corrupt;    /* corrupt regions between valid records (kept in the file) */
    size_t torn_bytes; /* bytes of torn tail cut off the file */
    uint64_t last_seq; /* sequence number of the last valid record, 0 if none */
    uint64_t last_time_ms;
    uint64_t lost;     /* records lost in the corrupt regions (tb_journal_losses lists them) */
    size_t v1_records; /* records of format 1 among them */
};

/* Opens path for appending, creating it (mode 0640, O_EXCL) when missing, and locks it (fcntl
 * write lock: TB_ERR_STATE when another process has it open for appending).
 *
 * Refused with TB_ERR_PERM and nothing changed: path is a symbolic link (O_NOFOLLOW), not a
 * regular file, has more than one hard link, belongs to another user than the effective one,
 * or is writable by group or others; or its directory is a symbolic link, belongs to another
 * user than this one or root, or is writable by group or others without the sticky bit.
 *
 * An existing file is read and scanned; a torn tail is cut off (ftruncate + fdatasync) so
 * appends continue right after the last valid record, with the next sequence number (after the last
 * one read or reported lost). Damage in the middle is counted in rec, listed by tb_journal_losses()
 * and left in place. More bytes after the last record than a crash can leave (one record and a
 * page) are not cut either: they are damage (or the file is no journal), kept, reported as one more
 * corrupt region (a loss whose record count is unknown: last_seq = first_seq - 1), and appends
 * follow them. Refused with TB_ERR_SUPP, nothing changed, when the file holds a record of a newer
 * format. The bytes up to the end of the last record (or of the kept damage) stay readable via
 * tb_journal_contents() until the journal is closed. Returns 0, TB_ERR_PERM, TB_ERR_SUPP,
 * TB_ERR_STATE, TB_ERR_SYS (errno kept) or TB_ERR_MEM. */
int tb_journal_open(struct tb_journal **out, const char *path, struct tb_journal_recovery *rec,
                    struct tb_error *err);

/* The file's contents as read at open (up to the end of the last valid record): iterate them
 * with tb_journal_iter_init() to rebuild the game. */
const uint8_t *tb_journal_contents(const struct tb_journal *j, size_t *len);

/* The losses open found (the same ones the iterator reports over tb_journal_contents, with
 * next_ply filled in), in file order; *n = 0 and NULL when none. Valid until close. */
const struct tb_journal_loss *tb_journal_losses(const struct tb_journal *j, size_t *n);

/* Appends a record to the pending records in memory (written out when they pass 64 KiB, on
 * flush, commit, sync and close). Returns the record's sequence number (> 0), or TB_ERR_ARG /
 * TB_ERR_MEM / TB_ERR_FULL (TB_JOURNAL_PENDING_MAX bytes pending: nothing appended), or
 * TB_ERR_SYS: the record was appended but writing the pending records out failed; they stay in
 * memory and the next flush or commit tries again. While a write has failed and no commit has
 * succeeded since, append does no I/O at all: retrying is the caller's decision. */
int64_t tb_journal_append(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                          const void *payload, size_t len);
/* Typed appends: encode, then append. */
int64_t tb_journal_append_event(struct tb_journal *j, uint64_t time_ms,
                                const struct tb_journal_event *ev);
int64_t tb_journal_append_move(struct tb_journal *j, uint64_t time_ms,
                               const struct tb_journal_move *mv);
int64_t tb_journal_append_decision(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                                   const struct tb_journal_decision *d);
/* A TB_JOURNAL_BUG_INPUT_BIN record; TB_ERR_ARG when in is no valid input. */
int64_t tb_journal_append_bug_input(struct tb_journal *j, uint64_t time_ms,
                                    const struct tb_journal_bug_input *in);

/* Writes the pending records to the file (no fdatasync). 0, TB_ERR_AGAIN (a commit is writing
 * on another thread) or TB_ERR_SYS (errno kept). A
 * failed or short write is cut back (ftruncate) to the last complete record; should that fail
 * too, the next write still starts at that record boundary and overwrites the partial bytes,
 * and open drops them as a torn tail: a record never follows a half record. */
int tb_journal_flush(struct tb_journal *j);

/* Writes every pending record, in order, and fdatasyncs: on 0 every record appended so far is
 * durable. On TB_ERR_SYS (errno kept: ENOSPC, EROFS, EIO, EFBIG, EDQUOT, ...) nothing pending is
 * lost: the records stay in memory in order, err names the file, the records and the reason,
 * and a later commit writes them (the retry). A failed fdatasync makes the records it covered
 * pending again (their pages may be dropped), so the retry writes them anew. A write that would
 * pass RLIMIT_FSIZE fails with EFBIG before any byte is written (no SIGXFSZ; the daemon ignores
 * that signal too). Blocks while the disk does, so it may run on a writer thread: meanwhile
 * other threads may append (those records wait for the next commit) and read the state; a
 * second commit or flush at the same time gets TB_ERR_AGAIN. On 0, every record appended before
 * the call is durable. */
int tb_journal_commit(struct tb_journal *j, struct tb_error *err);
/* tb_journal_commit without the message. */
int tb_journal_sync(struct tb_journal *j);

/* Where the journal stands: what the caller needs to stop play and resume it. */
struct tb_journal_state {
    uint64_t last_seq;      /* last record appended */
    uint64_t durable_seq;   /* last record on disk and synced: all up to it survive a crash */
    size_t pending_records; /* appended, not yet durable (durable_seq + 1 .. last_seq) */
    size_t pending_bytes;
    int error;         /* errno of the last failed write or sync, 0 once a commit succeeded */
    unsigned failures; /* failed attempts since the last success */
    bool committing;   /* a commit or flush is writing (on another thread) */
};
void tb_journal_state(const struct tb_journal *j, struct tb_journal_state *st);

/* The file operations the journal uses, replaceable to inject failures in tests (a full disk,
 * EIO, a read-only file system). A hook behaves as the system call it stands for: -1 with errno
 * set on failure. NULL entries (or io NULL) mean the real call. */
struct tb_journal_io {
    ssize_t (*pwrite)(void *user, int fd, const void *buf, size_t len, off_t off);
    int (*fdatasync)(void *user, int fd);
    int (*ftruncate)(void *user, int fd, off_t len);
    void *user;
};
void tb_journal_set_io(struct tb_journal *j, const struct tb_journal_io *io);
/* Sequence number of the last record appended (or recovered); 0 if none. */
uint64_t tb_journal_last_seq(const struct tb_journal *j);
/* Syncs, closes and frees. Returns the sync's result. NULL is a no-op. */
int tb_journal_close(struct tb_journal *j);

#endif /* TB_JOURNAL_H */
