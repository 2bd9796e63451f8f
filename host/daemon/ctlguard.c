/* ctlguard.c - wrong arbiter PINs are slowed down and limited (docs/control-protocol.md, "The
 * PIN"): per peer uid an exponential delay before the next PIN is checked and, after
 * TB_CTL_PIN_LOCKOUT_AFTER wrong ones in a row, a lockout; across all uids a smaller exponential
 * delay, so many uids do not add up to a fast guesser. Pure: time is an argument. */
#include <string.h>

#include "tb_ctl.h"

void tb_ctl_guard_init(struct tb_ctl_guard *g)
{
    memset(g, 0, sizeof *g);
}

static struct tb_ctl_guard_uid *find(struct tb_ctl_guard *g, uint32_t uid, uint64_t now, bool add)
{
    struct tb_ctl_guard_uid *slot = NULL;
    for (int i = 0; i < TB_CTL_GUARD_UIDS; i++) {
        struct tb_ctl_guard_uid *u = &g->uid[i];
        if (u->fails && now >= u->locked_until && now - u->last_fail >= TB_CTL_PIN_FORGET_MS)
            u->fails = 0; /* quiet for long enough: starts over */
        if (u->fails && u->uid == uid)
            return u;
        /* a free slot, else the one whose last wrong PIN is oldest */
        if (!slot || (slot->fails && (!u->fails || u->last_fail < slot->last_fail)))
            slot = u;
    }
    if (!add)
        return NULL;
    memset(slot, 0, sizeof *slot);
    slot->uid = uid;
    return slot;
}

static uint64_t doubled(uint64_t base, uint32_t n, uint64_t max)
{
    uint64_t d = base;
    for (uint32_t i = 1; i < n && d < max; i++)
        d *= 2;
    return d < max ? d : max;
}

int tb_ctl_guard_when(struct tb_ctl_guard *g, uint32_t uid, uint64_t now, uint64_t *at)
{
    struct tb_ctl_guard_uid *u = find(g, uid, now, false);
    *at = g->next;
    if (u && now < u->locked_until) {
        *at = u->locked_until;
        return TB_ERR_PERM;
    }
    if (u && u->next > *at)
        *at = u->next;
    return now < *at ? 1 : 0;
}

uint64_t tb_ctl_guard_result(struct tb_ctl_guard *g, uint32_t uid, bool right, uint64_t now,
                             bool *locked)
{
    *locked = false;
    if (right) {
        struct tb_ctl_guard_uid *u = find(g, uid, now, false);
        if (u)
            memset(u, 0, sizeof *u);
        return 0;
    }
    struct tb_ctl_guard_uid *u = find(g, uid, now, true);
    u->fails++;
    u->last_fail = now;
    uint64_t delay = doubled(TB_CTL_PIN_DELAY_MS, u->fails, TB_CTL_PIN_DELAY_MAX_MS);
    if (u->fails >= TB_CTL_PIN_LOCKOUT_AFTER) {
        u->locked_until = now + TB_CTL_PIN_LOCKOUT_MS;
        *locked = true;
    }
    u->next = now + delay;
    if (now - g->last_fail >= TB_CTL_PIN_FORGET_MS)
        g->fails = 0;
    g->fails++;
    g->last_fail = now;
    uint64_t gdelay = doubled(TB_CTL_PIN_GLOBAL_DELAY_MS, g->fails, TB_CTL_PIN_GLOBAL_MAX_MS);
    g->next = now + gdelay;
    return delay > gdelay ? delay : gdelay;
}

uint32_t tb_ctl_guard_fails(struct tb_ctl_guard *g, uint32_t uid, uint64_t now)
{
    struct tb_ctl_guard_uid *u = find(g, uid, now, false);
    return u ? u->fails : 0;
}
