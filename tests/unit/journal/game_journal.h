/* game_journal.h - a whole game of the corpus written through the journal API as the daemon
 * writes it (game start, every board event of both boards, a move record and a commit per
 * ply), for the damage tests and the damage benchmark. */
#ifndef TB_GAME_JOURNAL_H
#define TB_GAME_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tb_journal.h"

#define GAME_JOURNAL_MAX_RECORDS 8192

struct game_journal {
    uint8_t *buf; /* the file's bytes (malloc'd) */
    size_t len;
    int plies;
    size_t records;
    size_t offset[GAME_JOURNAL_MAX_RECORDS + 1]; /* of record seq s at [s - 1]; [records] = len */
};

/* Writes game `game` (1-based) of the PGN file `pgn` into a journal at path (which must not
 * exist) and reads the file back into gj. Returns TB_OK or an error (err says which). */
int game_journal_make(struct game_journal *gj, const char *pgn, long game, const char *path,
                      struct tb_error *err);
void game_journal_free(struct game_journal *gj);

/* The records (sequence numbers first..last, 1-based) that bytes [from, to) touch; returns
 * their count (0 when the bytes lie past the last record). */
size_t game_journal_touched(const struct game_journal *gj, size_t from, size_t to, uint64_t *first,
                            uint64_t *last);

#endif
