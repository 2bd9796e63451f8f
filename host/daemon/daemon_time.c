/* daemon_time.c - the daemon's clock and its log: what every part reads and writes, so they
 * call nothing back (the loop's own file stays out of its parts' calls). */
#include <stdio.h>
#include <time.h>

#include "daemon_shell.h"

uint64_t tb_daemon__mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

uint64_t tb_daemon__clock(const struct tb_daemon *d)
{
    return d->base_ms + (tb_daemon__mono_ms() - d->mono_start);
}

uint64_t tb_daemon_now(const struct tb_daemon *d)
{
    return tb_daemon__clock(d);
}

/* The time given to the match for something happening now: the clock in real time, the
 * latest script time in virtual time. Never goes back. */
uint64_t tb_daemon__match_time(struct tb_daemon *d)
{
    uint64_t t = d->virtual_time ? d->vnow : tb_daemon__clock(d);
    if (t < d->last_mt)
        t = d->last_mt;
    d->last_mt = t;
    return t;
}

static const char *const level_names[] = {"error", "warn", "info", "debug"};

void tb_daemon__log(struct tb_daemon *d, enum tb_config_log level, const char *fmt, ...)
{
    if (level > d->cfg->log_level)
        return;
    char line[2048];
    int n = snprintf(line, sizeof line, "twinboardd: %s: ", level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (d->opt.log)
        d->opt.log(d->opt.log_arg, level, line);
    else
        fprintf(stderr, "%s\n", line);
}
