/* tb_chessnut.h - the Chessnut board protocol over USB HID (Air, Air+, Pro, Go): the reports
 * the board sends (the position, the battery), the reports the host writes (reports on,
 * LEDs, battery asked) and the vendor's piece table. Pure C, no I/O; used by the chessnut:
 * link, its emulator and a fuzz target.
 *
 * HID reports, the report ID first (as hidapi reads and writes them):
 *
 *   board -> host   01 3D  32 bytes of position, then bytes not used here
 *                   2A 02  battery percent, charging (0 or 1)
 *   host -> board   21 01 00          reports on: the position on every change
 *                   0A 08  8 bytes    the square LEDs, rank 8 first, bit 7 = the a-file
 *                   29 01 00          the battery asked
 *
 * The position holds two squares a byte, the low nibble first, from h8 along the rank to a8,
 * then h7 .. a7, down to a1. Each nibble is a piece by the vendor's table: 0 empty, 1 q, 2 k,
 * 3 b, 4 p, 5 n, 6 R, 7 P, 8 r, 9 B, A N, B Q, C K (lower case black); D, E and F are no
 * piece and make the report bad. */
#ifndef TB_CHESSNUT_H
#define TB_CHESSNUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

#define TB_CHESSNUT_VID        0x2D80
#define TB_CHESSNUT_USAGE_PAGE 0xFF00 /* the board's data interface (another is 0x0001) */
#define TB_CHESSNUT_REPORT_MAX 64
#define TB_CHESSNUT_POSITION   0x01
#define TB_CHESSNUT_BATTERY    0x2A

enum tb_chessnut_kind {
    TB_CHESSNUT_BAD = 0, /* not a report this protocol knows, or one with bad contents */
    TB_CHESSNUT_POS,     /* pieces: the position */
    TB_CHESSNUT_BATT,    /* percent, charging */
};

struct tb_chessnut_report {
    enum tb_chessnut_kind kind;
    uint8_t pieces[64]; /* POS: tb_chess codes by square, a1 = 0 */
    uint8_t percent;    /* BATT: 0..100 */
    bool charging;
};

/* One report as read (n bytes, the report ID first). TB_CHESSNUT_POS or _BATT with out filled,
 * or TB_CHESSNUT_BAD (out->kind too) for anything else: an unknown ID, a short report, a
 * nibble that is no piece, a battery above 100 %. */
enum tb_chessnut_kind tb_chessnut_decode(const uint8_t *buf, size_t n,
                                         struct tb_chessnut_report *out);

/* The vendor's code of a tb_chess piece (0 for none) and back (-1 for no piece code). */
int tb_chessnut_piece_code(int piece);
int tb_chessnut_piece_of(int code);

/* The reports the host writes; each returns its length or TB_ERR_FULL when cap is too small. */
int tb_chessnut_enable(uint8_t *buf, size_t cap);
int tb_chessnut_battery_ask(uint8_t *buf, size_t cap);
/* The LEDs of the squares in squares (bit n = square n) on, every other off. */
int tb_chessnut_leds(uint8_t *buf, size_t cap, uint64_t squares);

/* The reports the board sends (an emulator): a position of 64 tb_chess codes by square, padded
 * to the board's 34 bytes; a battery reading. Length or TB_ERR_FULL / TB_ERR_ARG. */
int tb_chessnut_position(uint8_t *buf, size_t cap, const uint8_t pieces[64]);
int tb_chessnut_battery(uint8_t *buf, size_t cap, int percent, bool charging);

/* What a report the host wrote asks (an emulator): 'E' reports on, 'L' LEDs (*squares set),
 * 'B' the battery; 0 for anything else. */
int tb_chessnut_command(const uint8_t *buf, size_t n, uint64_t *squares);

#endif /* TB_CHESSNUT_H */
