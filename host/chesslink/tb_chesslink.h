/* tb_chesslink.h - the Millennium ChessLink protocol (Exclusive, eONE, Performance boards):
 * frames, the block check, the board's status (the piece on every square), LEDs and the
 * E2ROM options. Pure C, no I/O; used by the chesslink: link, its emulator and a fuzz target.
 *
 * On the wire (38400 baud, 7 data bits, odd parity, 1 stop) every frame is printable ASCII: a
 * type character, its data and a block check of two upper-case hex digits, the XOR of every
 * character before it. The host sends upper-case commands; the board answers with the same
 * letter in lower case and, in an automatic report mode, sends status frames ('s') of its own
 * between any command and its answer:
 *
 *   S            status       -> s + 64 piece characters (a8..h8, a7..h7, ... a1..h1)
 *   L TT 81*PP   LEDs         -> l        (TT slot time in 4.096 ms, PP a pattern b7..b0)
 *   X            LEDs off     -> x
 *   T            reset        (no answer; the board starts again after 3 s)
 *   V            version      -> v HH LL
 *   W AA DD      write E2ROM  -> w AA DD
 *   R AA         read E2ROM   -> r AA DD
 *
 * Pieces: K Q R B N P white, k q r b n p black, '.' empty. The 81 LEDs stand on the corners of
 * the squares, nine columns of nine from the a-file side; LED 1 is a8's outer corner, LED 9
 * a1's, LED 73 h8's, LED 81 h1's. */
#ifndef TB_CHESSLINK_H
#define TB_CHESSLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_err.h"

#define TB_CHESSLINK_DATA_MAX  164 /* L: slot time and 81 patterns */
#define TB_CHESSLINK_FRAME_MAX (1 + TB_CHESSLINK_DATA_MAX + 2)
#define TB_CHESSLINK_LEDS      81
#define TB_CHESSLINK_BAUD      38400

/* E2ROM addresses and the automatic report modes (address 2, bits 2..0). */
enum {
    TB_CHESSLINK_E2_SERIAL = 0x00, /* b0: block check off */
    TB_CHESSLINK_E2_SCAN = 0x01,   /* scan time in 2.048 ms (15..255, default 20) */
    TB_CHESSLINK_E2_REPORT = 0x02, /* automatic reports: TB_CHESSLINK_REPORT_* */
    TB_CHESSLINK_E2_REPORT_TIME = 0x03,
    TB_CHESSLINK_E2_BRIGHTNESS = 0x04,
};
enum {
    TB_CHESSLINK_REPORT_EVERY_SCAN = 0,
    TB_CHESSLINK_REPORT_OFF = 1,
    TB_CHESSLINK_REPORT_TIMED = 2,
    TB_CHESSLINK_REPORT_CHANGE = 3,   /* on any change */
    TB_CHESSLINK_REPORT_CHANGE_2 = 4, /* on a change stable for 2 scans; 5..7: 3..5 scans */
    TB_CHESSLINK_REPORT_CHANGE_5 = 7,
};

/* Which side of the line a decoder listens to. */
enum tb_chesslink_dir {
    TB_CHESSLINK_FROM_BOARD = 0, /* s l x v w r */
    TB_CHESSLINK_TO_BOARD = 1,   /* S L X T V W R */
};

struct tb_chesslink_msg {
    char type;                            /* the frame's type character */
    uint8_t n;                            /* data characters */
    char data[TB_CHESSLINK_DATA_MAX + 1]; /* NUL-terminated */
};

struct tb_chesslink_stats {
    uint64_t messages;  /* frames accepted */
    uint64_t garbage;   /* bytes outside any frame */
    uint64_t cut;       /* frames broken off by a character that cannot stand there */
    uint64_t bad_check; /* whole frames whose block check was wrong */
};

struct tb_chesslink_decoder {
    enum tb_chesslink_dir dir;
    uint8_t buf[TB_CHESSLINK_FRAME_MAX];
    int have, need; /* need: the frame's whole length once its type is known; 0 = no frame */
    struct tb_chesslink_stats st;
};

void tb_chesslink_decoder_init(struct tb_chesslink_decoder *d, enum tb_chesslink_dir dir);
/* Drops a frame half read (a reconnect); the counters stay. */
void tb_chesslink_decoder_reset(struct tb_chesslink_decoder *d);
/* One byte in (the parity bit, bit 7, ignored); 1 with *out filled when a frame is complete
 * and its check right, else 0. Never fails: what cannot be a frame is counted and skipped. */
int tb_chesslink_decoder_push(struct tb_chesslink_decoder *d, uint8_t byte,
                              struct tb_chesslink_msg *out);

/* Data characters a frame of this type carries in direction dir; -1 for no such frame. */
int tb_chesslink_data_len(char type, enum tb_chesslink_dir dir);
/* A frame: type, the n data characters and the block check. Returns its length, TB_ERR_ARG
 * for a data length the type does not take or a character that is no printable ASCII,
 * TB_ERR_FULL when cap is too small. */
int tb_chesslink_encode(uint8_t *buf, size_t cap, char type, const char *data, size_t n);
/* The XOR of n characters, as the block check carries it. */
uint8_t tb_chesslink_check(const uint8_t *buf, size_t n);

/* ---- what frames mean ------------------------------------------------------------------- */

/* The piece character of a tb_chess piece code ('.' for 0) and back (-1 for no piece char). */
char tb_chesslink_piece_char(int piece);
int tb_chesslink_piece_of(char c);
/* A status frame's data as 64 tb_chess codes by square (a1 = 0). TB_ERR_PARSE when m is no
 * status frame or holds a character that is no piece. */
int tb_chesslink_status_pieces(const struct tb_chesslink_msg *m, uint8_t pieces[64]);
/* The status frame ('s') of 64 tb_chess codes by square. */
int tb_chesslink_status_encode(uint8_t *buf, size_t cap, const uint8_t pieces[64]);
/* The square (a1 = 0) of the i-th piece character of a status frame, and back. */
int tb_chesslink_index_square(int i);

/* The LEDs on the four corners of every square in squares (bit n = square n), each set to
 * pattern (b7 first, one bit per slot); the others 0. */
void tb_chesslink_leds_of_squares(uint64_t squares, uint8_t pattern,
                                  uint8_t leds[TB_CHESSLINK_LEDS]);
/* The L command: slot time and the 81 patterns. */
int tb_chesslink_leds_encode(uint8_t *buf, size_t cap, uint8_t slot,
                             const uint8_t leds[TB_CHESSLINK_LEDS]);
/* The patterns an L frame's data sets (81 after the slot time). TB_ERR_PARSE for no L frame. */
int tb_chesslink_leds_decode(const struct tb_chesslink_msg *m, uint8_t *slot,
                             uint8_t leds[TB_CHESSLINK_LEDS]);
/* The squares whose four corner LEDs are all on in leds (a pattern other than 0). */
uint64_t tb_chesslink_leds_squares(const uint8_t leds[TB_CHESSLINK_LEDS]);

/* Two-hex-digit fields: W AA DD, R AA, v HH LL. The bytes of a frame's data (n / 2 of them);
 * TB_ERR_PARSE for a character that is no hex digit. */
int tb_chesslink_hex_bytes(const struct tb_chesslink_msg *m, uint8_t *out, size_t cap);
/* A frame whose data is bytes, each as two upper-case hex digits (W, R, v, w, r). */
int tb_chesslink_encode_bytes(uint8_t *buf, size_t cap, char type, const uint8_t *bytes, size_t n);

#endif /* TB_CHESSLINK_H */
