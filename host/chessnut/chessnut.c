/* chessnut.c - Chessnut HID reports and the vendor's piece table (pure). */
#include <string.h>

#include "tb_chess.h"
#include "tb_chessnut.h"

#define POS_LEN 34 /* ID, length byte, 32 bytes of squares */

/* The vendor's table: code -> FEN letter ('.' empty). */
static const char table[] = ".qkbpnRPrBNQK";

int tb_chessnut_piece_of(int code)
{
    if (code < 0 || code >= (int)sizeof table - 1)
        return -1;
    return code == 0 ? 0 : tb_chess_piece_from_fen(table[code]);
}

int tb_chessnut_piece_code(int piece)
{
    char c = piece > 0 ? tb_chess_piece_to_fen(piece) : '.';
    const char *p = memchr(table, c, sizeof table - 1);
    return p && piece > 0 ? (int)(p - table) : 0;
}

/* The square of the n-th nibble: h8 first along the rank, ranks downwards. */
static int nibble_square(int n)
{
    return TB_CHESS_SQ(7 - n % 8, 7 - n / 8);
}

enum tb_chessnut_kind tb_chessnut_decode(const uint8_t *buf, size_t n,
                                         struct tb_chessnut_report *out)
{
    struct tb_chessnut_report r = {.kind = TB_CHESSNUT_BAD};
    if (buf && n >= POS_LEN && buf[0] == TB_CHESSNUT_POSITION && buf[1] == 0x3D) {
        r.kind = TB_CHESSNUT_POS;
        for (int i = 0; i < 64 && r.kind == TB_CHESSNUT_POS; i++) {
            int code = i % 2 ? buf[2 + i / 2] >> 4 : buf[2 + i / 2] & 0x0F;
            int piece = tb_chessnut_piece_of(code);
            if (piece < 0)
                r.kind = TB_CHESSNUT_BAD;
            else
                r.pieces[nibble_square(i)] = (uint8_t)piece;
        }
    } else if (buf && n >= 4 && buf[0] == TB_CHESSNUT_BATTERY && buf[1] == 0x02 && buf[2] <= 100 &&
               buf[3] <= 1) {
        r.kind = TB_CHESSNUT_BATT;
        r.percent = buf[2];
        r.charging = buf[3] == 1;
    }
    if (r.kind == TB_CHESSNUT_BAD)
        memset(r.pieces, 0, sizeof r.pieces);
    if (out)
        *out = r;
    return r.kind;
}

static int put(uint8_t *buf, size_t cap, const uint8_t *b, size_t n)
{
    if (!buf || cap < n)
        return TB_ERR_FULL;
    memcpy(buf, b, n);
    return (int)n;
}

int tb_chessnut_enable(uint8_t *buf, size_t cap)
{
    static const uint8_t b[] = {0x21, 0x01, 0x00};
    return put(buf, cap, b, sizeof b);
}

int tb_chessnut_battery_ask(uint8_t *buf, size_t cap)
{
    static const uint8_t b[] = {0x29, 0x01, 0x00};
    return put(buf, cap, b, sizeof b);
}

int tb_chessnut_leds(uint8_t *buf, size_t cap, uint64_t squares)
{
    uint8_t b[10] = {0x0A, 0x08};
    for (int sq = 0; sq < 64; sq++) {
        if (squares & TB_CHESS_BIT(sq))
            b[2 + 7 - TB_CHESS_RANK(sq)] |= (uint8_t)(0x80 >> TB_CHESS_FILE(sq));
    }
    return put(buf, cap, b, sizeof b);
}

int tb_chessnut_position(uint8_t *buf, size_t cap, const uint8_t pieces[64])
{
    uint8_t b[POS_LEN] = {TB_CHESSNUT_POSITION, 0x3D};
    for (int i = 0; i < 64; i++) {
        int code = tb_chessnut_piece_code(pieces[nibble_square(i)]);
        b[2 + i / 2] |= (uint8_t)(i % 2 ? code << 4 : code);
    }
    return put(buf, cap, b, sizeof b);
}

int tb_chessnut_battery(uint8_t *buf, size_t cap, int percent, bool charging)
{
    if (percent < 0 || percent > 100)
        return TB_ERR_ARG;
    uint8_t b[4] = {TB_CHESSNUT_BATTERY, 0x02, (uint8_t)percent, charging ? 1 : 0};
    return put(buf, cap, b, sizeof b);
}

int tb_chessnut_command(const uint8_t *buf, size_t n, uint64_t *squares)
{
    if (!buf || n < 3)
        return 0;
    if (buf[0] == 0x21 && buf[1] == 0x01 && buf[2] == 0x00)
        return 'E';
    if (buf[0] == 0x29 && buf[1] == 0x01 && buf[2] == 0x00)
        return 'B';
    if (buf[0] != 0x0A || buf[1] != 0x08 || n < 10)
        return 0;
    uint64_t s = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (buf[2 + 7 - TB_CHESS_RANK(sq)] & (0x80 >> TB_CHESS_FILE(sq)))
            s |= TB_CHESS_BIT(sq);
    }
    if (squares)
        *squares = s;
    return 'L';
}
