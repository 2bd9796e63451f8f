/* board.c - the virtual board's state: fields, change log, clock (pure). */
#include <stdlib.h>
#include <string.h>

#include "broadcast_internal.h"

void tb_broadcast_identity_default(struct tb_broadcast_identity *id)
{
    memset(id, 0, sizeof *id);
    memcpy(id->serial, "01025", 6);
    memcpy(id->long_serial, "0000001025", 11);
    id->version_major = 1;
    id->version_minor = 2;
    strcpy(id->trademark, "twinboard virtual DGT board: the agreed game of two boards");
}

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
    }
    return s[n] == '\0';
}

int tb_broadcast_identity_check(const struct tb_broadcast_identity *id, struct tb_error *err)
{
    if (!id)
        return tb_error_set(err, TB_ERR_ARG, "board identity: none given");
    if (!digits(id->serial, 5))
        return tb_error_set(err, TB_ERR_ARG, "board identity: serial must be 5 digits");
    if (!digits(id->long_serial, 10))
        return tb_error_set(err, TB_ERR_ARG, "board identity: long serial must be 10 digits");
    if (id->version_major < 0 || id->version_major > 127 || id->version_minor < 0 ||
        id->version_minor > 127)
        return tb_error_set(err, TB_ERR_ARG, "board identity: version numbers are 0..127");
    for (const char *p = id->trademark; *p; p++) {
        if (*p < 0x20 || *p > 0x7E)
            return tb_error_set(err, TB_ERR_ARG,
                                "board identity: trademark has a byte that is no printable ASCII"
                                " at column %d",
                                (int)(p - id->trademark) + 1);
    }
    return TB_OK;
}

int tb_broadcast_bus_address(const struct tb_broadcast_identity *id)
{
    return atoi(id->serial) & TB_DGT_BUS_ADDR_MAX;
}

void tb_broadcast_board_init(struct tb_broadcast_board *b, const struct tb_broadcast_identity *id)
{
    memset(b, 0, sizeof *b);
    if (id)
        b->id = *id;
    else
        tb_broadcast_identity_default(&b->id);
    b->clock.running = TB_BROADCAST_NO_SIDE;
}

uint64_t tb_broadcast__log_oldest(const struct tb_broadcast_board *b)
{
    return b->log_end - b->log_kept;
}

void tb_broadcast__log_record(struct tb_broadcast_board *b, uint8_t byte)
{
    b->log[b->log_end % TB_BROADCAST_LOG_SIZE] = byte;
    b->log_end++;
    if (b->log_kept < TB_BROADCAST_LOG_SIZE)
        b->log_kept++;
}

size_t tb_broadcast__log_copy(const struct tb_broadcast_board *b, uint64_t from, uint64_t to,
                              uint8_t *out, size_t cap)
{
    uint64_t oldest = tb_broadcast__log_oldest(b);
    if (from < oldest)
        from = oldest;
    if (to > b->log_end)
        to = b->log_end;
    size_t n = 0;
    for (uint64_t i = from; i < to && n < cap; i++)
        out[n++] = b->log[i % TB_BROADCAST_LOG_SIZE];
    return n;
}

/* The quick bit: a record less than 250 ms after the one before. */
static uint8_t quick(struct tb_broadcast_board *b, uint64_t now_ms)
{
    bool q = b->have_last && now_ms >= b->last_ms && now_ms - b->last_ms < 250;
    b->have_last = true;
    b->last_ms = now_ms;
    return q ? TB_DGT_EE_QUICK : 0;
}

static void log_piece(struct tb_broadcast_board *b, int field, int code, uint64_t now_ms)
{
    tb_broadcast__log_record(b, (uint8_t)(TB_DGT_EE_PIECE | quick(b, now_ms) | code));
    tb_broadcast__log_record(b, (uint8_t)field);
}

int tb_broadcast_board_show(struct tb_broadcast_board *b, const tb_chess_pos *pos, uint64_t now_ms,
                            struct tb_dgt_update *out)
{
    uint8_t codes[64];
    tb_dgt_codes_of_pos(pos, TB_DGT_ORIENT_NORMAL, codes);
    int n = 0;
    /* Lifts and swaps first, then placements on empty fields: the order a hand makes. */
    for (int pass = 0; pass < 2; pass++) {
        for (int f = 0; f < 64; f++) {
            if (codes[f] == b->codes[f] || (pass == 0) == (b->codes[f] == TB_DGT_EMPTY))
                continue;
            out[n++] = (struct tb_dgt_update){(uint8_t)f, codes[f]};
            log_piece(b, f, codes[f], now_ms);
            b->codes[f] = codes[f];
        }
    }
    b->changes += (uint64_t)n;
    return n;
}

void tb_broadcast_board_mark_start(struct tb_broadcast_board *b, uint64_t now_ms)
{
    b->start_at = b->log_end;
    tb_broadcast__log_record(b, TB_DGT_EE_BEGINPOS);
    (void)quick(b, now_ms);
}

/* The time shown for a side at now_ms, in whole seconds (rounded down, as a clock shows). */
static uint32_t shown_s(const struct tb_broadcast_clock *c, int side, uint64_t now_ms)
{
    uint64_t ms = side == TB_CHESS_WHITE ? c->white_ms : c->black_ms;
    if (c->running == side && now_ms > c->at_ms)
        ms = now_ms - c->at_ms >= ms ? 0 : ms - (now_ms - c->at_ms);
    uint64_t s = ms / 1000;
    return s > 35999 ? 35999 : (uint32_t)s;
}

static uint8_t bcd(unsigned v)
{
    return (uint8_t)((v / 10) << 4 | (v % 10));
}

static void log_clock(struct tb_broadcast_board *b, uint8_t tag, uint32_t s, uint64_t now_ms)
{
    tb_broadcast__log_record(b, (uint8_t)(tag | (s / 3600)));
    tb_broadcast__log_record(b, bcd(s / 60 % 60));
    tb_broadcast__log_record(b, bcd(s % 60));
    (void)quick(b, now_ms);
}

void tb_broadcast_board_set_clock(struct tb_broadcast_board *b, const struct tb_broadcast_clock *c,
                                  uint64_t now_ms)
{
    bool lever = c->known && (!b->clock.known || c->running != b->clock.running);
    b->clock = *c;
    if (c->running != TB_CHESS_WHITE && c->running != TB_CHESS_BLACK)
        b->clock.running = TB_BROADCAST_NO_SIDE;
    if (lever) {
        /* White is the left side of the canonical board. */
        log_clock(b, TB_DGT_EE_CLOCK_LEFT, shown_s(&b->clock, TB_CHESS_WHITE, now_ms), now_ms);
        log_clock(b, TB_DGT_EE_CLOCK_RIGHT, shown_s(&b->clock, TB_CHESS_BLACK, now_ms), now_ms);
    }
}

void tb_broadcast_board_bwtime(const struct tb_broadcast_board *b, uint64_t now_ms,
                               uint8_t payload[7])
{
    memset(payload, 0, 7);
    const struct tb_broadcast_clock *c = &b->clock;
    if (!c->known) {
        payload[6] = TB_DGT_ST_NO_CLOCK;
        return;
    }
    struct tb_dgt_clock_side left = {0}, right = {0};
    left.seconds = shown_s(c, TB_CHESS_WHITE, now_ms);
    right.seconds = shown_s(c, TB_CHESS_BLACK, now_ms);
    left.flag_fell = left.flag = left.seconds == 0;
    right.flag_fell = right.flag = right.seconds == 0;
    uint8_t st = 0;
    if (c->running == TB_CHESS_WHITE)
        st = TB_DGT_ST_RUNNING | TB_DGT_ST_LEFT_TURN;
    else if (c->running == TB_CHESS_BLACK)
        st = TB_DGT_ST_RUNNING | TB_DGT_ST_LEVER_RIGHT | TB_DGT_ST_RIGHT_TURN;
    tb_dgt_bwtime_encode_times(payload, &left, &right, st);
}
