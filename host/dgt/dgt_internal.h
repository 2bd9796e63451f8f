/* dgt_internal.h - helpers shared by the files of tb_dgt. */
#ifndef DGT_INTERNAL_H
#define DGT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tb_dgt.h"

/* Parses the typed fields of a message whose id, len and data are set; false when the content is
 * impossible for its ID (a field beyond 63, a serial number that is no digits). */
bool tb_dgt__msg_parse(struct tb_dgt_msg *m);

/* Is len a total length the ID may declare (its range; SERIALNR only 8 or 12)? */
bool tb_dgt__len_ok(uint8_t id, size_t len);

#endif
