/* journal_internal.h - little-endian field helpers shared by the journal's files. */
#ifndef JOURNAL_INTERNAL_H
#define JOURNAL_INTERNAL_H

#include <stdint.h>

void tb_journal__put16(uint8_t *p, uint16_t v);
void tb_journal__put32(uint8_t *p, uint32_t v);
void tb_journal__put64(uint8_t *p, uint64_t v);
uint16_t tb_journal__get16(const uint8_t *p);
uint32_t tb_journal__get32(const uint8_t *p);
uint64_t tb_journal__get64(const uint8_t *p);

#endif /* JOURNAL_INTERNAL_H */
