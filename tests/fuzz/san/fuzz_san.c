/* fuzz_san.c - fuzz target of move text: tb_chess_move_from_san in the English, Dutch and German
 * letter sets, tb_chess_move_parse (UCI or SAN) and tb_chess_move_from_uci, on fixed positions
 * with castling both ways, e.p., promotions with and without capture, four knights that need
 * full disambiguation, and a Chess960 start.
 *
 * An accepted move must be legal, and the SAN written for it must read back to it; refused
 * text must say why (a parse error or an illegal/ambiguous move) and the position must not
 * change. */
#include "fuzz_chess.h"
#include "tb_fuzz.h"

static const struct {
    const char *fen;
    unsigned flags;
} fens[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
    {"r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1", 0},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0},
    {"k7/8/8/1N3N2/8/1N3N2/8/K7 w - - 0 1", 0},
    {"8/8/8/8/8/8/1p4k1/R3K3 b Q - 0 1", 0},
    {"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", TB_CHESS_FEN_960},
};
#define NPOS (sizeof fens / sizeof fens[0])

static tb_chess_pos positions[NPOS];

static void setup(void)
{
    static int done;
    if (done)
        return;
    for (size_t i = 0; i < NPOS; i++)
        if (tb_chess_pos_from_fen(&positions[i], fens[i].fen, fens[i].flags, NULL) != TB_OK)
            tb_fuzz_fail(__FILE__, __LINE__, fens[i].fen);
    done = 1;
}

/* The SAN of m in letters reads back to m. */
static void san_round_trip(const tb_chess_pos *pos, tb_chess_move m, enum tb_chess_letters letters)
{
    static const unsigned flag_sets[] = {0, TB_CHESS_SAN_EP | TB_CHESS_SAN_ZERO, TB_CHESS_SAN_NOEQ};
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        char san[16];
        int n = tb_chess_move_to_san(pos, m, letters, flag_sets[f], san, sizeof san);
        TB_FUZZ_CHECK(n > 0 && (size_t)n == strlen(san));
        tb_chess_move back = 0;
        struct tb_error err;
        TB_FUZZ_CHECK(tb_chess_move_from_san(pos, san, letters, &back, &err) == TB_OK);
        TB_FUZZ_CHECK(back == m);
    }
    char uci[8];
    TB_FUZZ_CHECK(tb_chess_move_to_uci(pos, m, uci, sizeof uci) > 0);
    tb_chess_move back = 0;
    TB_FUZZ_CHECK(tb_chess_move_from_uci(pos, uci, &back) == TB_OK && back == m);
}

/* One result of a reader: a legal move, or an error that says why. */
static void check_result(const tb_chess_pos *pos, int rc, tb_chess_move m,
                         const struct tb_error *err, enum tb_chess_letters letters)
{
    if (rc == TB_OK) {
        TB_FUZZ_CHECK(tb_chess_is_legal(pos, m));
        san_round_trip(pos, m, letters);
        return;
    }
    TB_FUZZ_CHECK(rc == TB_ERR_PARSE || rc == TB_ERR_ILLEGAL);
    if (err)
        TB_FUZZ_CHECK_ERROR(rc, *err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    char *text = tb_fuzz_cstr(data, size);
    for (size_t i = 0; i < NPOS; i++) {
        const tb_chess_pos *pos = &positions[i];
        tb_chess_pos before = *pos;
        struct tb_error err;
        tb_chess_move m;
        for (int l = TB_CHESS_LETTERS_EN; l <= TB_CHESS_LETTERS_DE; l++) {
            memset(&err, 0, sizeof err);
            m = 0;
            int rc = tb_chess_move_from_san(pos, text, (enum tb_chess_letters)l, &m, &err);
            check_result(pos, rc, m, &err, (enum tb_chess_letters)l);
        }
        memset(&err, 0, sizeof err);
        m = 0;
        int rc = tb_chess_move_parse(pos, text, &m, &err);
        check_result(pos, rc, m, &err, TB_CHESS_LETTERS_EN);
        m = 0;
        rc = tb_chess_move_from_uci(pos, text, &m);
        check_result(pos, rc, m, NULL, TB_CHESS_LETTERS_EN);
        TB_FUZZ_CHECK(tb_fuzz_same_pos(pos, &before));
    }
    int sq = tb_chess_square_parse(text);
    TB_FUZZ_CHECK(sq >= -1 && sq < 64);
    free(text);
    return 0;
}
