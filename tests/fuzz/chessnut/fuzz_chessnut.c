/* fuzz_chessnut.c - fuzz target of the Chessnut protocol (host/chessnut) over arbitrary
 * reports. The input is cut into reports by its bytes (a length byte, then that many bytes),
 * as a HID device gives them one at a time.
 *
 * Decoding must never read past a report, and a report it accepts must say the same thing when
 * encoded again: a position's 64 pieces give back the report's 34 bytes (the vendor's table
 * both ways), a battery reading its four. Whatever the host may write (reports on, battery,
 * LEDs) is read back as the same command by the emulator's reader, LED squares round-trip. */
#include <string.h>

#include "tb_chessnut.h"
#include "tb_fuzz.h"

static void check_report(const uint8_t *r, size_t n)
{
    struct tb_chessnut_report rep;
    uint8_t again[TB_CHESSNUT_REPORT_MAX];
    enum tb_chessnut_kind k = tb_chessnut_decode(r, n, &rep);
    TB_FUZZ_CHECK(k == rep.kind);
    if (k == TB_CHESSNUT_POS) {
        TB_FUZZ_CHECK(tb_chessnut_position(again, sizeof again, rep.pieces) == 34);
        TB_FUZZ_CHECK(memcmp(again, r, 34) == 0);
        for (int sq = 0; sq < 64; sq++)
            TB_FUZZ_CHECK(rep.pieces[sq] == 0 || tb_chessnut_piece_code(rep.pieces[sq]) > 0);
    } else if (k == TB_CHESSNUT_BATT) {
        TB_FUZZ_CHECK(rep.percent <= 100);
        TB_FUZZ_CHECK(tb_chessnut_battery(again, sizeof again, rep.percent, rep.charging) == 4);
        TB_FUZZ_CHECK(memcmp(again, r, 4) == 0);
    }
    /* the same bytes as something the host wrote */
    uint64_t sq = 0, back = 0;
    int cmd = tb_chessnut_command(r, n, &sq);
    if (cmd == 'L') {
        int m = tb_chessnut_leds(again, sizeof again, sq);
        TB_FUZZ_CHECK(m == 10 && tb_chessnut_command(again, (size_t)m, &back) == 'L' && back == sq);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    while (at < size) {
        size_t n = data[at++] % (TB_CHESSNUT_REPORT_MAX + 1);
        if (n > size - at)
            n = size - at;
        /* a copy of exactly n bytes: the sanitizer sees any read past the report */
        uint8_t *r = malloc(n ? n : 1);
        TB_FUZZ_CHECK(r != NULL);
        memcpy(r, data + at, n);
        check_report(r, n);
        free(r);
        at += n;
    }
    return 0;
}
