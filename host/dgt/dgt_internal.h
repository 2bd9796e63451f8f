/* dgt_internal.h - helpers shared by the files of tb_dgt. */
#ifndef DGT_INTERNAL_H
#define DGT_INTERNAL_H

#include <stdint.h>

#include "tb_dgt.h"

/* Parses the typed fields of a message whose id, len and data are set; false when the content is
 * impossible for its ID (a field beyond 63, a serial number that is no digits). */
bool tb_dgt__msg_parse(struct tb_dgt_msg *m);

#endif
