/* hall_seen.c - which of a table's numbered states or events a viewer takes (tb_hall.h): the
 * newest of a session, a new session from its start, never a number that no restart explains
 * (a forged retained state with a huge seq would hide the table until it restarted). Pure. */
#include <stdio.h>
#include <string.h>

#include "tb_hall.h"

int tb_hall_seen_take(struct tb_hall_seen *s, const char *epoch, uint64_t seq)
{
    bool same = s->any && strcmp(s->epoch, epoch) == 0;
    /* a table without epochs that started again begins at 1 */
    bool restart = !same || (!epoch[0] && seq == 1);
    if (restart && seq > TB_HALL_SEQ_JUMP)
        return TB_ERR_PARSE; /* no start of a session comes this far at once */
    if (!restart && seq <= s->seq)
        return 0; /* sent again (a reconnect) or overtaken */
    if (!restart && seq - s->seq > TB_HALL_SEQ_JUMP)
        return TB_ERR_PARSE;
    s->any = true;
    s->seq = seq;
    snprintf(s->epoch, sizeof s->epoch, "%s", epoch);
    return 1;
}
