/* clsim.c - the emulated ChessLink board (clsim.h). */
#include "clsim.h"
#include "ebplan.h"

#include <string.h>

#include "tb_chess.h"

static void emit(struct clsim *s, const uint8_t *f, int n)
{
    if (n > 0 && s->nout + (size_t)n <= sizeof s->out) {
        memcpy(s->out + s->nout, f, (size_t)n);
        s->nout += (size_t)n;
    }
}

static void emit_bytes(struct clsim *s, char type, const uint8_t *b, size_t n)
{
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    emit(s, f, tb_chesslink_encode_bytes(f, sizeof f, type, b, n));
}

static void emit_status(struct clsim *s)
{
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    emit(s, f, tb_chesslink_status_encode(f, sizeof f, s->scanned));
}

void clsim_init(struct clsim *s, const uint8_t board[64], uint64_t now_ms)
{
    memset(s, 0, sizeof *s);
    memcpy(s->board, board, 64);
    memcpy(s->scanned, board, 64);
    memcpy(s->stood, board, 64);
    memcpy(s->reported, board, 64);
    s->e2[TB_CHESSLINK_E2_SCAN] = 20;
    s->e2[TB_CHESSLINK_E2_REPORT] = TB_CHESSLINK_REPORT_EVERY_SCAN;
    s->e2[TB_CHESSLINK_E2_REPORT_TIME] = 50;
    s->next_scan = now_ms;
    tb_chesslink_decoder_init(&s->dec, TB_CHESSLINK_TO_BOARD);
}

static uint64_t scan_ms(const struct clsim *s)
{
    unsigned t = s->e2[TB_CHESSLINK_E2_SCAN] < 15 ? 20 : s->e2[TB_CHESSLINK_E2_SCAN];
    return (t * 2048u + 999u) / 1000u;
}

static void command(struct clsim *s, const struct tb_chesslink_msg *m, uint64_t now_ms)
{
    uint8_t b[2 + TB_CHESSLINK_LEDS], slot;
    s->commands++;
    switch (m->type) {
    case 'S':
        emit_status(s);
        break;
    case 'V':
        b[0] = 1;
        b[1] = 5;
        emit_bytes(s, 'v', b, 2);
        break;
    case 'X':
        memset(s->leds, 0, sizeof s->leds);
        s->leds_changes++;
        emit_bytes(s, 'x', NULL, 0);
        break;
    case 'L':
        if (tb_chesslink_leds_decode(m, &slot, s->leds) == TB_OK) {
            s->leds_changes++;
            emit_bytes(s, 'l', NULL, 0);
        }
        break;
    case 'W':
        if (tb_chesslink_hex_bytes(m, b, 2) == 2) {
            s->e2[b[0]] = b[1];
            s->report_set = s->report_set || b[0] == TB_CHESSLINK_E2_REPORT;
            emit_bytes(s, 'w', b, 2);
        }
        break;
    case 'R':
        if (tb_chesslink_hex_bytes(m, b, 1) == 1) {
            b[1] = s->e2[b[0]];
            emit_bytes(s, 'r', b, 2);
        }
        break;
    case 'T': /* a hardware reset: LEDs and status cleared, three seconds of nothing */
        memset(s->leds, 0, sizeof s->leds);
        s->nout = 0;
        s->asleep_until = now_ms + 3000;
        break;
    default:
        break;
    }
}

void clsim_input(struct clsim *s, const uint8_t *buf, size_t n, uint64_t now_ms)
{
    for (size_t i = 0; i < n; i++) {
        struct tb_chesslink_msg m;
        if (tb_chesslink_decoder_push(&s->dec, buf[i], &m) == 1 && now_ms >= s->asleep_until)
            command(s, &m, now_ms); /* a frame with a bad check is not actioned */
    }
}

static uint32_t next_rand(struct clsim *s)
{
    s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(s->rng >> 33);
}

static void scan(struct clsim *s, uint64_t at)
{
    uint8_t reading[64];
    memcpy(reading, s->board, 64);
    /* a piece lifted mid-read: part of the scan before the change, part after */
    if (s->torn && memcmp(s->stood, s->board, 64) != 0 && (long)(next_rand(s) % 1000) < s->torn)
        s->torn_scans += ebplan_tear(reading, s->stood, s->board, next_rand(s));
    memcpy(s->stood, s->board, 64);
    if (memcmp(s->scanned, reading, 64) != 0) {
        memcpy(s->scanned, reading, 64);
        s->stable = 1;
    } else if (s->stable < 1000) {
        s->stable++;
    }
    int mode = s->e2[TB_CHESSLINK_E2_REPORT] & 7;
    bool send = false;
    if (mode == TB_CHESSLINK_REPORT_EVERY_SCAN) {
        send = true;
    } else if (mode == TB_CHESSLINK_REPORT_TIMED) {
        if (at >= s->next_timed) {
            send = true;
            s->next_timed = at + s->e2[TB_CHESSLINK_E2_REPORT_TIME] * 4096u / 1000u + 1;
        }
    } else if (mode != TB_CHESSLINK_REPORT_OFF) {
        int debounce = mode == TB_CHESSLINK_REPORT_CHANGE ? 1 : mode - 2;
        send = s->stable >= debounce && memcmp(s->scanned, s->reported, 64) != 0;
    }
    if (send) {
        memcpy(s->reported, s->scanned, 64);
        s->reports++;
        emit_status(s);
    }
}

void clsim_tick(struct clsim *s, uint64_t now_ms)
{
    if (now_ms < s->asleep_until) {
        s->next_scan = s->asleep_until;
        return;
    }
    int n = 0;
    while (s->next_scan <= now_ms && n++ < 1000) {
        scan(s, s->next_scan);
        s->next_scan += scan_ms(s);
    }
    if (s->next_scan <= now_ms)
        s->next_scan = now_ms + scan_ms(s); /* a long pause: no catching up */
}

void clsim_set(struct clsim *s, int sq, int piece)
{
    if (sq >= 0 && sq < 64)
        s->board[sq] = (uint8_t)piece;
}

size_t clsim_take(struct clsim *s, uint8_t *out, size_t cap)
{
    size_t n = s->nout < cap ? s->nout : cap;
    memcpy(out, s->out, n);
    memmove(s->out, s->out + n, s->nout - n);
    s->nout -= n;
    return n;
}

void clsim_unplug(struct clsim *s)
{
    s->nout = 0;
    tb_chesslink_decoder_reset(&s->dec);
}

uint64_t clsim_lit(const struct clsim *s)
{
    return tb_chesslink_leds_squares(s->leds);
}
