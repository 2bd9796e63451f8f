/* broadcast_internal.h - helpers shared by the files of tb_broadcast. */
#ifndef BROADCAST_INTERNAL_H
#define BROADCAST_INTERNAL_H

#include <pthread.h>
#include <stdio.h>

#include "tb_broadcast.h"

/* The log bytes [from, to) (clamped to what the ring still holds) into out; returns how many. */
size_t tb_broadcast__log_copy(const struct tb_broadcast_board *b, uint64_t from, uint64_t to,
                              uint8_t *out, size_t cap);
/* Appends one byte to the change log. */
void tb_broadcast__log_record(struct tb_broadcast_board *b, uint8_t byte);
/* The oldest log offset the ring still holds. */
uint64_t tb_broadcast__log_oldest(const struct tb_broadcast_board *b);

/* Writes text to path atomically: a temporary file in the same directory, fsync, rename,
 * fsync of the directory. err names the path and the step that failed. */
int tb_broadcast__write_atomic(const char *path, const char *text, size_t n, struct tb_error *err);
/* Removes the temporary files write_atomic left in dir when it was killed mid-write (this
 * user's regular files named ".<name>.pgn.XXXXXX", older than TB_BROADCAST__TEMP_AGE_S).
 * Returns how many. */
#define TB_BROADCAST__TEMP_AGE_S 60
int tb_broadcast__clean_temps(const char *dir);

/* The live PGN's writer thread (pgnwriter.c). */
struct tb_broadcast__writer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv, idle;
    bool running, stop, has_pending, busy;
    char *pending, *work; /* cap bytes each */
    size_t cap, pending_n;
    char path[2200];
    uint64_t writes, failures;
    struct tb_error error;
};
int tb_broadcast__writer_start(struct tb_broadcast__writer *w, size_t cap);
/* Stops the thread after the last text handed over is written. */
void tb_broadcast__writer_stop(struct tb_broadcast__writer *w);
void tb_broadcast__writer_put(struct tb_broadcast__writer *w, const char *path, const char *text,
                              size_t n);
void tb_broadcast__writer_flush(struct tb_broadcast__writer *w);
void tb_broadcast__writer_stats(struct tb_broadcast__writer *w, uint64_t *writes,
                                uint64_t *failures, struct tb_error *err);

/* One program reading the board: the pty, or a TCP client. */
struct tb_broadcast__reader {
    int fd; /* -1: a free slot */
    bool pty;
    bool away;         /* pty: no program holds the other end (poll says hang-up) */
    uint64_t retry_ms; /* pty: when to look for a program again */
    bool doomed;       /* TCP: close at the next flush (buffer overflow, error) */
    struct tb_broadcast_session s;
    uint8_t *out;
    size_t out_len, out_cap;
    uint64_t dropped; /* messages that did not fit, not yet counted in the stats */
};

struct tb_broadcast {
    struct tb_broadcast_config cfg;
    char pty_link[1024], pty_name[128], pgn_dir[1024];
    int listen_fd, port;
    struct tb_broadcast_board board;
    int nreaders; /* slots: [0] the pty, then TCP clients */
    struct tb_broadcast__reader *readers;
    /* The game shown. */
    bool have_game, over;
    struct tb_broadcast_tags tags;
    tb_chess_game *game;
    uint64_t *clk; /* per ply: the mover's time after it, or TB_BROADCAST_NO_CLK */
    char result[8], termination[64];
    tb_chess_pgn_game *scratch;
    char *text;
    size_t text_cap;
    char path[2200];
    uint64_t dropped, closed, temps_removed;
    struct tb_broadcast__writer writer;
};

/* io.c: the transports. */
int tb_broadcast__io_open(tb_broadcast *bc, struct tb_error *err);
void tb_broadcast__io_close(tb_broadcast *bc);
/* The board changed: field updates to every reader in an update mode, then flush. */
void tb_broadcast__io_changes(tb_broadcast *bc, const struct tb_dgt_update *ch, int n,
                              uint64_t now_ms);

#endif
