/* daemon_when.c - when a board's event happened, on the daemon's clock. A loop that stalls (a
 * slow disk, a loaded machine) reads both boards' events at once; fed at the time of the read
 * and in board order, a copy could reach the match before the move it copies, and a touch
 * before its lift. A board that stamps its events (the reed board's ms counter, a script's time)
 * tells how far apart they were: that clock is mapped onto the daemon's by its smallest seen
 * delay, and the events of both boards go into the game in the order they happened. */
#include "daemon_internal.h"

/* How fast the mapping may loosen between readings (a board's clock that runs slow): 1/200. */
#define DRIFT_DIV 200

static int64_t board_time(struct tb_daemon__when *w, uint32_t ms)
{
    if (!w->known)
        w->board64 = ms;
    else
        w->board64 += (int32_t)(ms - w->last_board_ms); /* a 32-bit counter wraps */
    w->last_board_ms = ms;
    return w->board64;
}

void tb_daemon__when_learn(struct tb_daemon__when *w, const struct tb_link_event *ev,
                           uint64_t read_ms)
{
    if (!ev->has_seq)
        return;
    int64_t obs = (int64_t)read_ms - board_time(w, ev->board_ms);
    if (!w->known || obs < w->offset + (int64_t)(read_ms - w->offset_at) / DRIFT_DIV)
        w->offset = obs;
    else
        w->offset += (int64_t)(read_ms - w->offset_at) / DRIFT_DIV;
    w->offset_at = read_ms;
    w->known = true;
}

uint64_t tb_daemon__when(struct tb_daemon__when *w, const struct tb_link_event *ev,
                         uint64_t since_ms, uint64_t read_ms)
{
    uint64_t t = read_ms;
    if (ev->has_seq && w->known) {
        int64_t back = w->board64 - (int32_t)(w->last_board_ms - ev->board_ms);
        int64_t est = back + w->offset;
        t = est < 0 ? 0 : (uint64_t)est;
    }
    /* it came after the previous read, not after this one, and never before its board's last */
    if (t < since_ms)
        t = since_ms;
    if (t < w->last)
        t = w->last;
    if (t > read_ms)
        t = read_ms;
    w->last = t;
    return t;
}
