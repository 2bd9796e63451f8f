/* fuzz_chesslink.c - fuzz target of the ChessLink protocol (host/chesslink) over arbitrary
 * bytes, both ways: what a board sends and what a host sends.
 *
 * The decoder must never read or write out of bounds, give the same frames whether fed byte by
 * byte or in chunks, count every byte it did not deliver, and every frame it delivers must
 * re-encode to exactly the bytes it was read from (the block check included). A status frame
 * holds 64 pieces that encode back to the same frame; an LED frame lights the squares it
 * decodes to, and those squares' LEDs light the same squares again. */
#include <string.h>

#include "tb_chess.h"
#include "tb_chesslink.h"
#include "tb_fuzz.h"

#define MAXMSG 256

struct run {
    struct tb_chesslink_msg msg[MAXMSG];
    size_t n;
};

static void check_msg(const struct tb_chesslink_msg *m, const uint8_t *in, size_t end,
                      enum tb_chesslink_dir dir)
{
    uint8_t f[TB_CHESSLINK_FRAME_MAX];
    TB_FUZZ_CHECK(tb_chesslink_data_len(m->type, dir) == m->n);
    int n = tb_chesslink_encode(f, sizeof f, m->type, m->data, m->n);
    TB_FUZZ_CHECK(n == m->n + 3 && (size_t)n <= end + 1);
    for (int i = 0; i < n; i++) /* the bytes read, parity bit aside */
        TB_FUZZ_CHECK(f[i] == (in[end + 1 - (size_t)n + (size_t)i] & 0x7F));
    if (m->type == 's') {
        uint8_t pieces[64], g[TB_CHESSLINK_FRAME_MAX];
        TB_FUZZ_CHECK(tb_chesslink_status_pieces(m, pieces) == TB_OK);
        TB_FUZZ_CHECK(tb_chesslink_status_encode(g, sizeof g, pieces) == n);
        TB_FUZZ_CHECK(memcmp(f, g, (size_t)n) == 0);
    }
    if (m->type == 'L') {
        uint8_t leds[TB_CHESSLINK_LEDS], again[TB_CHESSLINK_LEDS], slot;
        TB_FUZZ_CHECK(tb_chesslink_leds_decode(m, &slot, leds) == TB_OK);
        uint64_t lit = tb_chesslink_leds_squares(leds);
        tb_chesslink_leds_of_squares(lit, 0xFF, again);
        TB_FUZZ_CHECK(tb_chesslink_leds_squares(again) == lit);
    }
}

static void one_way(const uint8_t *data, size_t size, enum tb_chesslink_dir dir)
{
    static struct run a, b;
    struct tb_chesslink_decoder da, db;
    tb_chesslink_decoder_init(&da, dir);
    tb_chesslink_decoder_init(&db, dir);
    a.n = b.n = 0;
    uint64_t delivered = 0;
    for (size_t i = 0; i < size; i++) {
        struct tb_chesslink_msg m;
        if (tb_chesslink_decoder_push(&da, data[i], &m) == 1) {
            check_msg(&m, data, i, dir);
            delivered += m.n + 3u;
            if (a.n < MAXMSG)
                a.msg[a.n++] = m;
        }
    }
    /* In chunks whose size comes from the first byte: the same frames (the decoder keeps no
     * state between calls but its own). */
    size_t step = size ? (size_t)(data[0] % 23) + 1 : 1;
    for (size_t i = 0; i < size; i += step) {
        for (size_t j = i; j < size && j < i + step; j++) {
            struct tb_chesslink_msg m;
            if (tb_chesslink_decoder_push(&db, data[j], &m) == 1 && b.n < MAXMSG)
                b.msg[b.n++] = m;
        }
    }
    TB_FUZZ_CHECK(a.n == b.n && da.st.messages == db.st.messages);
    for (size_t i = 0; i < a.n; i++) {
        TB_FUZZ_CHECK(a.msg[i].type == b.msg[i].type && a.msg[i].n == b.msg[i].n);
        TB_FUZZ_CHECK(memcmp(a.msg[i].data, b.msg[i].data, a.msg[i].n) == 0);
    }
    /* every byte is in a frame delivered, counted as garbage, or in a frame cut, refused or
     * still being read */
    TB_FUZZ_CHECK(delivered + da.st.garbage <= size);
    TB_FUZZ_CHECK(da.st.messages + da.st.cut + da.st.bad_check <= size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one_way(data, size, TB_CHESSLINK_FROM_BOARD);
    one_way(data, size, TB_CHESSLINK_TO_BOARD);
    return 0;
}
