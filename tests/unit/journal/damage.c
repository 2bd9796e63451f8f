/* damage.c - checking what a reader makes of a damaged game journal (damage.h). */
#include "damage.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 2, 3))) static void fail(struct damage_result *r, const char *fmt,
                                                       ...)
{
    if (r->failure[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->failure, sizeof r->failure, fmt, ap);
    va_end(ap);
}

/* The ply of the last MOVE record before record seq (as the intact journal has it). */
static uint16_t ply_before(const struct game_journal *gj, uint64_t seq)
{
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    tb_journal_iter_init(&it, gj->buf, gj->offset[seq - 1]);
    while (tb_journal_iter_next(&it, &rec, NULL) == 1) {
    }
    return it.ply;
}

static bool is_move(const struct game_journal *gj, uint64_t seq)
{
    const uint8_t *h = gj->buf + gj->offset[seq - 1];
    return h[4] == TB_JOURNAL_MOVE && h[5] == 0;
}

void damage_check(const struct game_journal *gj, const uint8_t *buf, size_t from, size_t to,
                  struct damage_result *r)
{
    memset(r, 0, sizeof *r);
    uint64_t first = 0, last = 0;
    size_t touched = game_journal_touched(gj, from, to, &first, &last);
    /* A record whose bytes the damage left as they were (zeros over zeros) is intact. */
    while (touched && memcmp(buf + gj->offset[first - 1], gj->buf + gj->offset[first - 1],
                             gj->offset[first] - gj->offset[first - 1]) == 0) {
        first++;
        touched--;
    }
    while (touched && memcmp(buf + gj->offset[last - 1], gj->buf + gj->offset[last - 1],
                             gj->offset[last] - gj->offset[last - 1]) == 0) {
        last--;
        touched--;
    }
    /* Damage reaching the last record is a torn tail, unless it left the last record's header
     * intact: then that record is whole and known, and its loss is reported. */
    bool last_header_intact =
        touched && memcmp(buf + gj->offset[last - 1], gj->buf + gj->offset[last - 1],
                          TB_JOURNAL_HEADER_SIZE) == 0;
    r->torn = touched && last == gj->records && !(first == last && last_header_intact);
    struct tb_journal_iter it;
    struct tb_journal_record rec;
    struct tb_error err;
    tb_journal_iter_init(&it, buf, gj->len);
    uint64_t want = 1;
    int rc, losses = 0;
    long delivered = 0;
    while ((rc = tb_journal_iter_next(&it, &rec, &err)) != 0) {
        if (rc < 0) {
            losses++;
            const struct tb_journal_loss *l = &it.loss;
            if (rc != TB_ERR_CRC || r->torn || l->first_seq != first || l->last_seq != last ||
                l->offset != gj->offset[first - 1] ||
                l->bytes != gj->offset[last] - gj->offset[first - 1])
                fail(r, "damage at %zu..%zu (records %llu..%llu): reported %s", from, to - 1,
                     (unsigned long long)first, (unsigned long long)last, err.msg);
            else if (l->ply != ply_before(gj, first))
                fail(r, "damage at %zu: reported after ply %u, the last move before is ply %u",
                     from, l->ply, ply_before(gj, first));
            want = l->last_seq + 1;
            continue;
        }
        if (rec.seq != want || rec.offset != gj->offset[want - 1] ||
            memcmp(buf + rec.offset, gj->buf + rec.offset,
                   gj->offset[want] - gj->offset[want - 1]) != 0)
            fail(r, "damage at %zu: record %llu read where record %llu was expected", from,
                 (unsigned long long)rec.seq, (unsigned long long)want);
        want++;
        delivered++;
    }
    r->lost = (long)gj->records - delivered;
    r->excess = r->lost - (long)touched;
    if (want != (r->torn ? first : gj->records + 1))
        fail(r, "damage at %zu: reading stopped before record %llu", from,
             (unsigned long long)want);
    if (losses != (touched && !r->torn) || it.torn != r->torn)
        fail(r, "damage at %zu: %d losses reported, torn tail %d (expected %d, %d)", from, losses,
             it.torn, touched && !r->torn, r->torn);
    for (uint64_t s = first; touched && s <= last; s++)
        r->moves_lost += is_move(gj, s);
}

void damage_stats_init(struct damage_stats *st)
{
    memset(st, 0, sizeof *st);
}

void damage_stats_add(struct damage_stats *st, const struct damage_result *r)
{
    st->cases++;
    st->lost_sum += r->lost;
    if (r->lost > st->lost_max)
        st->lost_max = r->lost;
    if (r->excess > st->excess_max)
        st->excess_max = r->excess;
    if (r->moves_lost > st->moves_max)
        st->moves_max = r->moves_lost;
    st->torn += r->torn;
}

double damage_stats_mean(const struct damage_stats *st)
{
    return st->cases ? (double)st->lost_sum / (double)st->cases : 0;
}
