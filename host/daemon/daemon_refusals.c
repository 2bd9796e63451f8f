/* daemon_refusals.c - refused requests in the log at a bounded rate (docs/control-protocol.md,
 * "The log"): a peer that sends refused requests as fast as it can (wrong PINs during its
 * lockout, garbage, connections past the limit) would otherwise write megabytes a minute. The
 * first few refusals of a minute are logged as they are; the rest are summed up per peer when
 * the minute is over (tb_ctl_loglimit, ctllog.c). */
#include <stdarg.h>
#include <stdio.h>

#include "daemon_ctl.h"
#include "daemon_shell.h"

void tb_daemon__peer_name(uint64_t peer, char *buf, size_t len)
{
    if (peer == TB_CTL_LOG_OTHERS)
        snprintf(buf, len, "other peers");
    else if (peer <= UINT32_MAX)
        snprintf(buf, len, "uid %u", (unsigned)peer);
    else /* a sender named in the hall's commands: its tag, as the hall's lines give it */
        snprintf(buf, len, "hall sender %06llx", (unsigned long long)(peer & 0xffffffu));
}

void tb_daemon__refusals_flush(struct tb_daemon *d)
{
    struct tb_ctl_loglimit *lim = d->ctl ? &d->ctl->refusals : NULL;
    if (!lim)
        return;
    uint64_t now = tb_daemon__mono_ms(), start = lim->start;
    struct tb_ctl_logcount c;
    while (tb_ctl_log_summary(lim, now, &c) == 1) {
        char who[48];
        tb_daemon__peer_name(c.peer, who, sizeof who);
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "control: %u requests refused from %s (%u with a wrong arbiter PIN) in the "
                       "last %llu s, not logged one by one",
                       (unsigned)c.refused, who, (unsigned)c.wrong_pins,
                       (unsigned long long)((now - start + 999) / 1000));
    }
}

void tb_daemon__refusal(struct tb_daemon *d, uint64_t peer, bool wrong_pin,
                        enum tb_config_log level, const char *fmt, ...)
{
    if (level > d->cfg->log_level)
        return; /* not logged at this level: it takes no line from the others */
    tb_daemon__refusals_flush(d);
    struct tb_ctl_loglimit *lim = d->ctl ? &d->ctl->refusals : NULL; /* none: logged as it is */
    if (lim && !tb_ctl_log_refusal(lim, peer, wrong_pin, tb_daemon__mono_ms()))
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    tb_daemon__log(d, level, "%s", line);
}
