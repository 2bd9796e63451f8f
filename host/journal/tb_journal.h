/* tb_journal.h - the per-game journal: every raw board event and every decision, append-only.
 *
 * A journal is a file of records. Each record is a 32-byte header followed by its payload:
 *
 *   offset size field
 *   0      4    magic "TBJ1"
 *   4      2    type (enum tb_journal_type, or any value for generic records)
 *   6      2    flags (0)
 *   8      4    payload length in bytes (at most TB_JOURNAL_MAX_PAYLOAD)
 *   12     8    sequence number, +1 per record
 *   20     8    host time, milliseconds (the daemon's clock)
 *   28     4    CRC-32 (IEEE) over header bytes 0..27, then the payload
 *
 * All integers little-endian. Reading never trusts a record until its CRC matches, so:
 *   - a torn last record (partial write, kill -9, power cut, zero-filled tail) is detected and
 *     dropped: a bad record with no valid record after it is a torn tail;
 *   - a damaged record with valid records after it is corruption in the middle: the iterator
 *     reports it (TB_ERR_CRC with the offset and the sequence numbers lost) and, when called
 *     again, resumes at the next valid record. It is never silently skipped.
 * (A damaged last complete record cannot be told from a torn one and is dropped as torn.)
 *
 * The format layer (iterator, encode/decode) is pure; the file layer (open/append/sync/close)
 * does I/O. Call tb_journal_sync() at every move and every arbiter action: a record is durable
 * once sync has returned 0.
 */
#ifndef TB_JOURNAL_H
#define TB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

#define TB_JOURNAL_HEADER_SIZE 32
#define TB_JOURNAL_MAX_PAYLOAD 65536u

/* Record types the daemon writes. Other values are allowed for generic records. */
enum tb_journal_type {
    TB_JOURNAL_GAME_START = 1,   /* decision: fen = start position, text = config summary */
    TB_JOURNAL_BOARD_EVENT = 2,  /* struct tb_journal_event: a raw event from a board link */
    TB_JOURNAL_MOVE = 3,         /* struct tb_journal_move: a move decided on a board */
    TB_JOURNAL_MISMATCH = 4,     /* decision: id, board, text = where and why (D.2.9) */
    TB_JOURNAL_RESOLUTION = 5,   /* decision: id, who, text = how it was put right (D.2.9) */
    TB_JOURNAL_ARBITER = 6,      /* decision: who, text = the arbiter's action */
    TB_JOURNAL_PROMOTION = 7,    /* decision: board, text = "q"|"r"|"b"|"n" (D.2.1) */
    TB_JOURNAL_TAKEBACK = 8,     /* decision: count = plies taken back, who */
    TB_JOURNAL_SET_POSITION = 9, /* decision: fen, who */
    TB_JOURNAL_NEW_GAME = 10,    /* decision: fen = start position, who */
    TB_JOURNAL_TYPED_MOVE = 11,  /* decision: board, who = "assistant", text = the move in UCI
                                    as the match took it (D.2.10.1: a keys: board) */
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
    size_t offset; /* of the record's header in the buffer */
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
    size_t pos;        /* where the next record is looked for */
    size_t valid_end;  /* offset just past the last valid record seen */
    uint64_t next_seq; /* expected sequence number; 0 before the first record */
    size_t corrupt;    /* corrupt regions reported so far */
    bool torn;         /* a torn tail was found (bytes valid_end..len are not records) */
};

void tb_journal_iter_init(struct tb_journal_iter *it, const void *buf, size_t len);

/* Next record. Returns 1 and fills rec; 0 at the end (a torn tail, if any, is dropped and
 * it->torn set); TB_ERR_CRC when a corrupt region lies between valid records: err names its
 * offset, length and the sequence numbers lost, and the next call resumes after it. A jump in
 * sequence numbers between two valid records is reported the same way. */
int tb_journal_iter_next(struct tb_journal_iter *it, struct tb_journal_record *rec,
                         struct tb_error *err);

/* ---- typed payloads ------------------------------------------------------------------- */

#define TB_JOURNAL_BOARD_NONE 0xff

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
};

struct tb_journal_move {
    uint8_t board;
    uint16_t ply;  /* 1 = White's first move */
    uint16_t move; /* tb_chess_move */
    char san[16];
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

/* ---- file layer ----------------------------------------------------------------------- */

struct tb_journal;

/* What open found in an existing file. */
struct tb_journal_recovery {
    size_t records;    /* valid records */
    size_t corrupt;    /* corrupt regions between valid records (kept in the file) */
    size_t torn_bytes; /* bytes of torn tail cut off the file */
    uint64_t last_seq; /* sequence number of the last valid record, 0 if none */
    uint64_t last_time_ms;
};

/* Opens path for appending, creating it (mode 0640) when missing, and locks it (fcntl write
 * lock: TB_ERR_STATE when another process has it open for appending). An existing file is read
 * and scanned; a torn tail is cut off (ftruncate + fdatasync) so appends continue right after
 * the last valid record, with the next sequence number. Corrupt regions in the middle are
 * counted in rec and left in place. The valid bytes stay readable via tb_journal_contents()
 * until the journal is closed. Returns 0, TB_ERR_SYS (errno kept) or TB_ERR_MEM. */
int tb_journal_open(struct tb_journal **out, const char *path, struct tb_journal_recovery *rec,
                    struct tb_error *err);

/* The file's contents as read at open (up to the end of the last valid record): iterate them
 * with tb_journal_iter_init() to rebuild the game. */
const uint8_t *tb_journal_contents(const struct tb_journal *j, size_t *len);

/* Appends a record to the write buffer (written out when the buffer is large, on flush, sync
 * and close). Returns the record's sequence number (> 0), or TB_ERR_ARG / TB_ERR_MEM (nothing
 * appended), or TB_ERR_SYS: the record was appended but writing the buffer out failed; it
 * stays buffered and the next flush or sync tries again. */
int64_t tb_journal_append(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                          const void *payload, size_t len);
/* Typed appends: encode, then append. */
int64_t tb_journal_append_event(struct tb_journal *j, uint64_t time_ms,
                                const struct tb_journal_event *ev);
int64_t tb_journal_append_move(struct tb_journal *j, uint64_t time_ms,
                               const struct tb_journal_move *mv);
int64_t tb_journal_append_decision(struct tb_journal *j, uint16_t type, uint64_t time_ms,
                                   const struct tb_journal_decision *d);

/* Writes the buffer to the file (no fdatasync). 0 or TB_ERR_SYS. After a failed write the
 * file is cut back to its last complete record, so a retry never leaves a torn record. */
int tb_journal_flush(struct tb_journal *j);
/* Flushes and fdatasyncs: every record appended so far is durable on return 0. */
int tb_journal_sync(struct tb_journal *j);
/* Sequence number of the last record appended (or recovered); 0 if none. */
uint64_t tb_journal_last_seq(const struct tb_journal *j);
/* Syncs, closes and frees. Returns the sync's result. NULL is a no-op. */
int tb_journal_close(struct tb_journal *j);

#endif /* TB_JOURNAL_H */
