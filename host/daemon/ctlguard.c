/* ctlguard.c - wrong arbiter PINs are slowed down and limited (docs/control-protocol.md, "The
 * PIN"): per peer an exponential delay before its next PIN is checked and, after
 * TB_CTL_PIN_LOCKOUT_AFTER wrong ones in a row, a lockout of that peer alone; across all peers a
 * ceiling on the rate of wrong PINs (a token bucket kept as its theoretical arrival time), part of
 * whose burst only peers without wrong PINs may use. Pure: time is an argument. */
#include <string.h>

#include "tb_ctl.h"

void tb_ctl_guard_init(struct tb_ctl_guard *g)
{
    memset(g, 0, sizeof *g);
}

uint64_t tb_ctl_guard_peer_named(const char *kind, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a of "kind:name" */
    for (const char *s = kind; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    h = (h ^ ':') * 0x100000001b3ull;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h | (1ull << 63); /* never a uid */
}

static struct tb_ctl_guard_peer *find(struct tb_ctl_guard *g, uint64_t peer, uint64_t now, bool add)
{
    struct tb_ctl_guard_peer *slot = NULL;
    for (int i = 0; i < TB_CTL_GUARD_PEERS; i++) {
        struct tb_ctl_guard_peer *p = &g->peer[i];
        if (p->fails && now >= p->locked_until && now - p->last_fail >= TB_CTL_PIN_FORGET_MS)
            p->fails = 0; /* quiet for long enough: starts over */
        if (p->fails && p->peer == peer)
            return p;
        /* a free slot, else the one whose last wrong PIN is oldest */
        if (!slot || (slot->fails && (!p->fails || p->last_fail < slot->last_fail)))
            slot = p;
    }
    if (!add)
        return NULL;
    memset(slot, 0, sizeof *slot);
    slot->peer = peer;
    return slot;
}

static uint64_t doubled(uint64_t base, uint32_t n, uint64_t max)
{
    uint64_t d = base;
    for (uint32_t i = 1; i < n && d < max; i++)
        d *= 2;
    return d < max ? d : max;
}

int tb_ctl_guard_when(struct tb_ctl_guard *g, uint64_t peer, uint64_t now, uint64_t *at)
{
    struct tb_ctl_guard_peer *p = find(g, peer, now, false);
    if (p && now < p->locked_until) {
        *at = p->locked_until;
        return TB_ERR_PERM;
    }
    /* how far ahead of now the ceiling may be: the whole burst for a peer without wrong PINs */
    uint64_t burst = TB_CTL_PIN_GLOBAL_BURST - 1u - (p ? TB_CTL_PIN_GLOBAL_RESERVE : 0u);
    uint64_t ahead = burst * TB_CTL_PIN_GLOBAL_EVERY_MS;
    *at = g->tat > ahead ? g->tat - ahead : 0;
    if (p && p->next > *at)
        *at = p->next;
    return now < *at ? 1 : 0;
}

uint64_t tb_ctl_guard_result(struct tb_ctl_guard *g, uint64_t peer, bool right, uint64_t now,
                             bool *locked)
{
    *locked = false;
    if (right) {
        struct tb_ctl_guard_peer *p = find(g, peer, now, false);
        if (p)
            memset(p, 0, sizeof *p);
        return 0;
    }
    struct tb_ctl_guard_peer *p = find(g, peer, now, true);
    p->fails++;
    p->last_fail = now;
    uint64_t delay = doubled(TB_CTL_PIN_DELAY_MS, p->fails, TB_CTL_PIN_DELAY_MAX_MS);
    if (p->fails >= TB_CTL_PIN_LOCKOUT_AFTER) {
        p->locked_until = now + TB_CTL_PIN_LOCKOUT_MS;
        *locked = true;
    }
    p->next = now + delay;
    g->tat = (g->tat > now ? g->tat : now) + TB_CTL_PIN_GLOBAL_EVERY_MS;
    return delay;
}

uint32_t tb_ctl_guard_fails(struct tb_ctl_guard *g, uint64_t peer, uint64_t now)
{
    struct tb_ctl_guard_peer *p = find(g, peer, now, false);
    return p ? p->fails : 0;
}

int tb_ctl_guard_check(struct tb_ctl_guard *g, uint64_t peer, const struct tb_ctl_request *req,
                       const char *configured_pin, uint64_t now, uint64_t *delay, bool *locked)
{
    bool right = tb_ctl_authorise(req, configured_pin, NULL) == TB_OK;
    *delay = tb_ctl_guard_result(g, peer, right, now, locked);
    return right ? TB_OK : TB_ERR_PERM;
}
