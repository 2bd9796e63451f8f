/* talk.c - the clock as the VI player hears it (D.2.6.1: the playing time and the number of
 * moves; D.2.10.4: moves made and time used by both players) and as PGN records it ([%clk]). */
#include <stdio.h>

#include "tb_clock.h"

struct tb_clock_hms tb_clock_hms(uint64_t ms)
{
    uint64_t s = ms / 1000; /* rounded down: never more time than there is */
    return (struct tb_clock_hms){.hours = (uint32_t)(s / 3600),
                                 .minutes = (uint8_t)(s / 60 % 60),
                                 .seconds = (uint8_t)(s % 60)};
}

static void side_report(const tb_clock *c, int side, uint64_t t, struct tb_clock_side_report *r)
{
    r->left_ms = tb_clock_remaining(c, side, t);
    r->used_ms = tb_clock_used(c, side, t);
    r->left = tb_clock_hms(r->left_ms);
    r->used = tb_clock_hms(r->used_ms);
    r->moves = c->side[side].moves;
    r->running = c->state == TB_CLOCK_RUNNING && c->turn == side;
    r->flagged = c->side[side].flagged;
}

int tb_clock_report(const tb_clock *c, int side, uint64_t t, struct tb_clock_report *out)
{
    if (!c || !out || (side != TB_CHESS_WHITE && side != TB_CHESS_BLACK))
        return TB_ERR_ARG;
    side_report(c, side, t, &out->own);
    side_report(c, side ^ 1, t, &out->opponent);
    out->state = c->state;
    return TB_OK;
}

int tb_clock_format_clk(uint64_t ms, char *buf, size_t len)
{
    if (!buf && len)
        return TB_ERR_ARG;
    struct tb_clock_hms h = tb_clock_hms(ms);
    return snprintf(buf, len, "[%%clk %u:%02u:%02u]", (unsigned)h.hours, (unsigned)h.minutes,
                    (unsigned)h.seconds);
}
