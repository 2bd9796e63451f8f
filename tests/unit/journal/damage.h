/* damage.h - reads a damaged copy of a game journal and checks that exactly the records the
 * damage touched are lost and reported (shared by the damage tests and the benchmark). */
#ifndef TB_JOURNAL_DAMAGE_H
#define TB_JOURNAL_DAMAGE_H

#include "game_journal.h"

struct damage_result {
    long lost;       /* records not read back */
    long excess;     /* of them, records the damage did not touch */
    long moves_lost; /* MOVE records among the lost */
    int torn;        /* the damage reached the last record: dropped as a torn tail */
    char failure[512];
};

/* buf is gj's bytes with bytes [from, to) damaged. Fills r; r->failure is empty when every
 * record outside the damage was read back intact and in order and the loss was reported with the
 * right sequence numbers, bytes and ply. */
void damage_check(const struct game_journal *gj, const uint8_t *buf, size_t from, size_t to,
                  struct damage_result *r);

struct damage_stats {
    long cases, lost_sum, lost_max, excess_max, moves_max, torn;
};
void damage_stats_init(struct damage_stats *st);
void damage_stats_add(struct damage_stats *st, const struct damage_result *r);
double damage_stats_mean(const struct damage_stats *st);

#endif
