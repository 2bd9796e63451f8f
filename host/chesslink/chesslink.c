/* chesslink.c - ChessLink frames, block check, status, LEDs (pure). */
#include <string.h>

#include "tb_chess.h"
#include "tb_chesslink.h"

static const char hexdig[] = "0123456789ABCDEF";

static int hexval(uint8_t c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int tb_chesslink_data_len(char type, enum tb_chesslink_dir dir)
{
    static const struct {
        char type;
        int len;
    } from_board[] = {{'s', 64}, {'l', 0}, {'x', 0}, {'v', 4}, {'w', 4}, {'r', 4}},
      to_board[] = {
          {'S', 0}, {'L', 2 + 2 * TB_CHESSLINK_LEDS}, {'X', 0}, {'T', 0}, {'V', 0}, {'W', 4},
          {'R', 2}};
    if (dir == TB_CHESSLINK_FROM_BOARD) {
        for (size_t i = 0; i < sizeof from_board / sizeof from_board[0]; i++)
            if (from_board[i].type == type)
                return from_board[i].len;
    } else {
        for (size_t i = 0; i < sizeof to_board / sizeof to_board[0]; i++)
            if (to_board[i].type == type)
                return to_board[i].len;
    }
    return -1;
}

uint8_t tb_chesslink_check(const uint8_t *buf, size_t n)
{
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= buf[i];
    return x;
}

int tb_chesslink_encode(uint8_t *buf, size_t cap, char type, const char *data, size_t n)
{
    int want = tb_chesslink_data_len(type, TB_CHESSLINK_FROM_BOARD);
    if (want < 0)
        want = tb_chesslink_data_len(type, TB_CHESSLINK_TO_BOARD);
    if (!buf || want < 0 || (size_t)want != n || (n && !data))
        return TB_ERR_ARG;
    for (size_t i = 0; i < n; i++)
        if (data[i] < 0x20 || data[i] > 0x7e)
            return TB_ERR_ARG;
    if (cap < n + 3)
        return TB_ERR_FULL;
    buf[0] = (uint8_t)type;
    if (n)
        memcpy(buf + 1, data, n);
    uint8_t x = tb_chesslink_check(buf, n + 1);
    buf[n + 1] = (uint8_t)hexdig[x >> 4];
    buf[n + 2] = (uint8_t)hexdig[x & 15];
    return (int)n + 3;
}

/* ---- the decoder ------------------------------------------------------------------------ */

void tb_chesslink_decoder_init(struct tb_chesslink_decoder *d, enum tb_chesslink_dir dir)
{
    memset(d, 0, sizeof *d);
    d->dir = dir;
}

void tb_chesslink_decoder_reset(struct tb_chesslink_decoder *d)
{
    d->have = d->need = 0;
}

/* Can c stand at position pos (1 = first data character) of a frame of this type? */
static bool fits(char type, int pos, int need, uint8_t c)
{
    if (pos >= need - 2)
        return hexval(c) >= 0; /* the block check */
    if (type == 's')
        return tb_chesslink_piece_of((char)c) >= 0;
    return hexval(c) >= 0; /* every other frame's data is hex */
}

static void start(struct tb_chesslink_decoder *d, uint8_t c)
{
    int len = tb_chesslink_data_len((char)c, d->dir);
    if (len < 0) {
        d->st.garbage++;
        return;
    }
    d->buf[0] = c;
    d->have = 1;
    d->need = len + 3;
}

int tb_chesslink_decoder_push(struct tb_chesslink_decoder *d, uint8_t byte,
                              struct tb_chesslink_msg *out)
{
    uint8_t c = byte & 0x7F; /* the parity bit is the serial driver's */
    if (!d->need) {
        start(d, c);
        return 0;
    }
    if (!fits((char)d->buf[0], d->have, d->need, c)) {
        d->st.cut++; /* broken off: the character may begin the next frame */
        d->have = d->need = 0;
        start(d, c);
        return 0;
    }
    d->buf[d->have++] = c;
    if (d->have < d->need)
        return 0;
    int n = d->need - 3;
    d->have = d->need = 0;
    uint8_t x = tb_chesslink_check(d->buf, (size_t)n + 1);
    if (hexval(d->buf[n + 1]) != x >> 4 || hexval(d->buf[n + 2]) != (x & 15)) {
        d->st.bad_check++;
        return 0;
    }
    d->st.messages++;
    out->type = (char)d->buf[0];
    out->n = (uint8_t)n;
    memcpy(out->data, d->buf + 1, (size_t)n);
    out->data[n] = '\0';
    return 1;
}

/* ---- pieces ----------------------------------------------------------------------------- */

static const char piece_chars[] = "PNBRQK";

char tb_chesslink_piece_char(int piece)
{
    int type = TB_CHESS_PIECE_TYPE(piece);
    if (piece <= 0 || piece > 15 || type < TB_CHESS_PAWN || type > TB_CHESS_KING)
        return '.';
    char c = piece_chars[type - TB_CHESS_PAWN];
    return TB_CHESS_PIECE_COLOR(piece) == TB_CHESS_BLACK ? (char)(c - 'A' + 'a') : c;
}

int tb_chesslink_piece_of(char c)
{
    if (c == '.')
        return 0;
    for (int i = 0; piece_chars[i]; i++) {
        if (c == piece_chars[i])
            return TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_PAWN + i);
        if (c == piece_chars[i] - 'A' + 'a')
            return TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN + i);
    }
    return -1;
}

int tb_chesslink_index_square(int i)
{
    return i < 0 || i > 63 ? -1 : TB_CHESS_SQ(i % 8, 7 - i / 8);
}

int tb_chesslink_status_pieces(const struct tb_chesslink_msg *m, uint8_t pieces[64])
{
    if (!m || m->type != 's' || m->n != 64)
        return TB_ERR_PARSE;
    uint8_t p[64];
    for (int i = 0; i < 64; i++) {
        int v = tb_chesslink_piece_of(m->data[i]);
        if (v < 0)
            return TB_ERR_PARSE;
        p[tb_chesslink_index_square(i)] = (uint8_t)v;
    }
    memcpy(pieces, p, sizeof p);
    return TB_OK;
}

int tb_chesslink_status_encode(uint8_t *buf, size_t cap, const uint8_t pieces[64])
{
    char data[64];
    for (int i = 0; i < 64; i++)
        data[i] = tb_chesslink_piece_char(pieces[tb_chesslink_index_square(i)]);
    return tb_chesslink_encode(buf, cap, 's', data, sizeof data);
}

/* ---- LEDs and hex fields ---------------------------------------------------------------- */

/* The LED (0-based) on column c (0 = left of the a-file), row r (0 = above rank 8). */
static int led(int c, int r)
{
    return c * 9 + r;
}

void tb_chesslink_leds_of_squares(uint64_t squares, uint8_t pattern,
                                  uint8_t leds[TB_CHESSLINK_LEDS])
{
    memset(leds, 0, TB_CHESSLINK_LEDS);
    for (int sq = 0; sq < 64; sq++) {
        if (!(squares & TB_CHESS_BIT(sq)))
            continue;
        int c = TB_CHESS_FILE(sq), r = 7 - TB_CHESS_RANK(sq);
        leds[led(c, r)] = leds[led(c + 1, r)] = leds[led(c, r + 1)] = leds[led(c + 1, r + 1)] =
            pattern;
    }
}

uint64_t tb_chesslink_leds_squares(const uint8_t leds[TB_CHESSLINK_LEDS])
{
    uint64_t sqs = 0;
    for (int sq = 0; sq < 64; sq++) {
        int c = TB_CHESS_FILE(sq), r = 7 - TB_CHESS_RANK(sq);
        if (leds[led(c, r)] && leds[led(c + 1, r)] && leds[led(c, r + 1)] &&
            leds[led(c + 1, r + 1)])
            sqs |= TB_CHESS_BIT(sq);
    }
    return sqs;
}

static void put_hex(char *out, uint8_t b)
{
    out[0] = hexdig[b >> 4];
    out[1] = hexdig[b & 15];
}

int tb_chesslink_encode_bytes(uint8_t *buf, size_t cap, char type, const uint8_t *bytes, size_t n)
{
    char data[TB_CHESSLINK_DATA_MAX];
    if (n * 2 > sizeof data || (n && !bytes))
        return TB_ERR_ARG;
    for (size_t i = 0; i < n; i++)
        put_hex(data + 2 * i, bytes[i]);
    return tb_chesslink_encode(buf, cap, type, data, n * 2);
}

int tb_chesslink_leds_encode(uint8_t *buf, size_t cap, uint8_t slot,
                             const uint8_t leds[TB_CHESSLINK_LEDS])
{
    uint8_t b[1 + TB_CHESSLINK_LEDS];
    b[0] = slot;
    memcpy(b + 1, leds, TB_CHESSLINK_LEDS);
    return tb_chesslink_encode_bytes(buf, cap, 'L', b, sizeof b);
}

int tb_chesslink_hex_bytes(const struct tb_chesslink_msg *m, uint8_t *out, size_t cap)
{
    if (!m || m->n % 2 || (size_t)m->n / 2 > cap)
        return TB_ERR_PARSE;
    for (int i = 0; i < m->n / 2; i++) {
        int hi = hexval((uint8_t)m->data[2 * i]), lo = hexval((uint8_t)m->data[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return TB_ERR_PARSE;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return m->n / 2;
}

int tb_chesslink_leds_decode(const struct tb_chesslink_msg *m, uint8_t *slot,
                             uint8_t leds[TB_CHESSLINK_LEDS])
{
    uint8_t b[1 + TB_CHESSLINK_LEDS];
    if (!m || m->type != 'L' || tb_chesslink_hex_bytes(m, b, sizeof b) != (int)sizeof b)
        return TB_ERR_PARSE;
    *slot = b[0];
    memcpy(leds, b + 1, TB_CHESSLINK_LEDS);
    return TB_OK;
}
