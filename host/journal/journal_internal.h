/* journal_internal.h - shared by the journal's files: little-endian field helpers and the open
 * journal (journal_file.c opens and recovers it, journal_write.c appends and commits). */
#ifndef JOURNAL_INTERNAL_H
#define JOURNAL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tb_journal.h"

void tb_journal__put16(uint8_t *p, uint16_t v);
void tb_journal__put32(uint8_t *p, uint32_t v);
void tb_journal__put64(uint8_t *p, uint64_t v);
uint16_t tb_journal__get16(const uint8_t *p);
uint32_t tb_journal__get32(const uint8_t *p);
uint64_t tb_journal__get64(const uint8_t *p);

/* Records not yet durable, in file order: first the batch a commit has taken (being written,
 * or left by a failed attempt; its first fwritten bytes are in the file, not synced), then the
 * records appended since. */
struct tb_journal_batch {
    uint8_t *buf;
    size_t len, cap, records;
};

/* The file holds durable records up to durable_end. The lock guards everything below it except
 * flight, which only the one commit or flush that set busy touches while busy. */
struct tb_journal {
    int fd;
    char *path;
    uint8_t *image; /* valid contents read at open */
    size_t image_len;
    struct tb_journal_loss *losses; /* found at open */
    size_t nlosses, losscap;
    pthread_mutex_t lock;
    struct tb_journal_batch flight, pend;
    size_t fwritten;
    uint64_t flight_last_seq;
    bool busy;
    off_t durable_end;
    uint64_t last_seq, durable_seq;
    int error; /* errno of the last failure, 0 after a success */
    unsigned failures;
    struct tb_journal_io io;
};

/* The write side's part of open and close (journal_write.c). */
int tb_journal__write_init(struct tb_journal *j);
void tb_journal__write_free(struct tb_journal *j);

#endif /* JOURNAL_INTERNAL_H */
