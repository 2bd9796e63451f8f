/* ctllog.c - refusals in the log at a bounded rate (docs/control-protocol.md, "The log"): a
 * flood of refused requests would otherwise fill the disk the journal shares and push real
 * errors out of the system log's rate limit. The first few refusals of each minute are told as
 * they come; the rest are counted per peer and told once the minute is over. Pure: time is an
 * argument. */
#include <string.h>

#include "tb_ctl.h"

void tb_ctl_loglimit_init(struct tb_ctl_loglimit *l, uint64_t now)
{
    memset(l, 0, sizeof *l);
    l->start = now;
}

static bool counted(const struct tb_ctl_loglimit *l)
{
    return l->npeers > 0 || l->others.refused > 0;
}

uint64_t tb_ctl_log_due(const struct tb_ctl_loglimit *l)
{
    return counted(l) ? l->start + TB_CTL_LOG_WINDOW_MS : UINT64_MAX;
}

static void add(struct tb_ctl_logcount *c, bool wrong_pin)
{
    c->refused++;
    c->wrong_pins += wrong_pin;
}

bool tb_ctl_log_refusal(struct tb_ctl_loglimit *l, uint64_t peer, bool wrong_pin, uint64_t now)
{
    if (now >= l->start + TB_CTL_LOG_WINDOW_MS && !counted(l)) {
        l->start = now; /* a quiet window: a new one starts with this refusal */
        l->told = 0;
    }
    if (l->told < TB_CTL_LOG_TELL) {
        l->told++;
        return true;
    }
    for (int i = 0; i < l->npeers; i++)
        if (l->peer[i].peer == peer) {
            add(&l->peer[i], wrong_pin);
            return false;
        }
    if (l->npeers < TB_CTL_LOG_PEERS) {
        l->peer[l->npeers] = (struct tb_ctl_logcount){.peer = peer};
        add(&l->peer[l->npeers++], wrong_pin);
    } else {
        l->others.peer = TB_CTL_LOG_OTHERS;
        add(&l->others, wrong_pin);
    }
    return false;
}

int tb_ctl_log_summary(struct tb_ctl_loglimit *l, uint64_t now, struct tb_ctl_logcount *c)
{
    if (now < l->start + TB_CTL_LOG_WINDOW_MS || !counted(l))
        return 0;
    if (l->npeers > 0) {
        *c = l->peer[--l->npeers];
        return 1;
    }
    if (l->others.refused) {
        *c = l->others;
        l->others = (struct tb_ctl_logcount){0};
        return 1;
    }
    return 0;
}
