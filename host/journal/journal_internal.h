/* journal_internal.h - shared by the journal's files: little-endian field helpers and the open
 * journal (journal_file.c opens and recovers it, journal_write.c appends and commits). */
#ifndef JOURNAL_INTERNAL_H
#define JOURNAL_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "tb_journal.h"

void tb_journal__put16(uint8_t *p, uint16_t v);
void tb_journal__put32(uint8_t *p, uint32_t v);
void tb_journal__put64(uint8_t *p, uint64_t v);
uint16_t tb_journal__get16(const uint8_t *p);
uint32_t tb_journal__get32(const uint8_t *p);
uint64_t tb_journal__get64(const uint8_t *p);

/* The file holds durable records up to durable_end; pend[0..plen) are the records after them,
 * in order, of which the first pwritten bytes are written but not yet synced. */
struct tb_journal {
    int fd;
    char *path;
    uint8_t *image; /* valid contents read at open */
    size_t image_len;
    struct tb_journal_loss *losses; /* found at open */
    size_t nlosses, losscap;
    uint8_t *pend;
    size_t plen, pcap, pwritten, precords;
    off_t durable_end;
    uint64_t last_seq, durable_seq;
    int error; /* errno of the last failure, 0 after a success */
    unsigned failures;
    struct tb_journal_io io;
};

#endif /* JOURNAL_INTERNAL_H */
