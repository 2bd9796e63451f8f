/* test_perft.c - every line of the shared perft suite (perft.epd) against the move generator.
 *
 * Each line is run at every listed depth whose expected count is at most NODE_BUDGET leaves, so
 * the suite stays quick under the sanitizer Debug build; the deepest depths run in the
 * benchmark verification (tests/bench/run BUILD perft-full). Seven lines list only one deep count;
 * for them the shallow counts below, taken from Stockfish 15.1 "go perft", run instead (the deep
 * count itself is checked by the verification). Split into line ranges so ctest can run them in
 * parallel; every line must check at least one depth. */
#include <inttypes.h>
#include <stdlib.h>

#include "tb_chess.h"
#include "tb_test.h"

#define NODE_BUDGET 2000000ULL

/* Shallow counts (depth 1..5) for the perft.epd lines whose listed depths are all deep. */
static const struct {
    int line;
    uint64_t counts[5];
} shallow[] = {
    {132, {31, 570, 17546, 351806, 11139762}}, {147, {11, 133, 1442, 19174, 266199}},
    {148, {11, 133, 1442, 19174, 266199}},     {164, {5, 39, 237, 2002, 14062}},
    {165, {17, 341, 6666, 150072, 3186478}},   {166, {9, 85, 795, 7658, 72120}},
    {167, {29, 953, 27990, 909807, 26957954}},
};

static int check_shallow(tb_chess_pos *pos, int ln, const char *fen)
{
    int checked = 0;
    for (size_t i = 0; i < sizeof shallow / sizeof shallow[0]; i++) {
        if (shallow[i].line != ln)
            continue;
        for (int d = 1; d <= 5 && shallow[i].counts[d - 1] <= NODE_BUDGET; d++) {
            uint64_t got = tb_chess_perft(pos, d);
            if (got != shallow[i].counts[d - 1])
                TB_FAIL("perft.epd line %d: perft %d = %" PRIu64 ", Stockfish %" PRIu64 " (%s)", ln,
                        d, got, shallow[i].counts[d - 1], fen);
            checked++;
        }
    }
    return checked;
}

static FILE *open_data(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tb_test_data_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f)
        TB_FAIL("cannot open %s", path);
    return f;
}

/* Runs lines first..last (1-based) of an EPD file; returns how many depths were checked. */
static int run_lines(const char *file, int first, int last)
{
    FILE *f = open_data(file);
    char line[1024];
    int ln = 0, checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (++ln < first || ln > last)
            continue;
        char *semi = strchr(line, ';');
        ASSERT_NOT_NULL(semi);
        *semi = 0;
        tb_chess_pos pos;
        struct tb_error err;
        if (tb_chess_pos_from_fen(&pos, line, 0, &err) != TB_OK)
            TB_FAIL("%s line %d: FEN rejected: %s", file, ln, err.msg);
        int depth, ran = 0;
        unsigned long long expected;
        for (char *p = semi + 1; p; p = strchr(p + 1, ';')) {
            if (*p == ';')
                p++;
            if (sscanf(p, "D%d %llu", &depth, &expected) != 2)
                TB_FAIL("%s line %d: bad depth field '%s'", file, ln, p);
            if (expected > NODE_BUDGET)
                continue;
            uint64_t got = tb_chess_perft(&pos, depth);
            if (got != expected)
                TB_FAIL("%s line %d: perft %d = %" PRIu64 ", expected %llu (%s)", file, ln, depth,
                        got, expected, line);
            ran++;
        }
        if (!ran)
            ran = check_shallow(&pos, ln, line);
        checked += ran;
        if (!ran)
            TB_FAIL("%s line %d: no depth within the node budget", file, ln);
    }
    fclose(f);
    ASSERT_GE(ln, last);
    return checked;
}

TB_TEST(perft_lines_001_030)
{
    ASSERT_GT(run_lines("perft.epd", 1, 30), 30);
}
TB_TEST(perft_lines_031_060)
{
    ASSERT_GT(run_lines("perft.epd", 31, 60), 30);
}
TB_TEST(perft_lines_061_090)
{
    ASSERT_GT(run_lines("perft.epd", 61, 90), 30);
}
TB_TEST(perft_lines_091_120)
{
    ASSERT_GT(run_lines("perft.epd", 91, 120), 30);
}
TB_TEST(perft_lines_121_150)
{
    ASSERT_GT(run_lines("perft.epd", 121, 150), 30);
}
TB_TEST(perft_lines_151_180)
{
    ASSERT_GT(run_lines("perft.epd", 151, 180), 30);
}
TB_TEST(perft_lines_181_210)
{
    ASSERT_GT(run_lines("perft.epd", 181, 210), 30);
}
TB_TEST(perft_lines_211_240)
{
    ASSERT_GT(run_lines("perft.epd", 211, 240), 30);
}
TB_TEST(perft_lines_241_270)
{
    ASSERT_GT(run_lines("perft.epd", 241, 270), 30);
}
TB_TEST(perft_lines_271_300)
{
    ASSERT_GT(run_lines("perft.epd", 271, 300), 30);
}

/* A position that cannot arise in a game: White is in check from f2 and an e.p. capture is on
 * the board. The generator is strict (3.9: after d5xc6 the king is still in check), so only
 * the two king moves count: 2 / 92 / 2528 (Stockfish, which assumes reachable positions, says
 * 3 / 142). */
TB_TEST(perft_unreachable_ep_is_no_evasion_3_9)
{
    ASSERT_EQ(run_lines("perft-unreachable.epd", 1, 1), 3);
}

TB_TEST(perft_divide_sums_to_perft)
{
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(
        &pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0, NULL));
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    uint64_t counts[TB_CHESS_MAX_MOVES], sum = 0;
    int n = tb_chess_perft_divide(&pos, 3, moves, counts, TB_CHESS_MAX_MOVES);
    ASSERT_EQ(n, 48);
    for (int i = 0; i < n; i++)
        sum += counts[i];
    ASSERT_U64_EQ(sum, 97862);
    ASSERT_EQ(tb_chess_perft_divide(&pos, 3, moves, counts, 10), TB_ERR_FULL);
    ASSERT_EQ(tb_chess_perft_divide(&pos, 0, moves, counts, TB_CHESS_MAX_MOVES), TB_ERR_ARG);
    ASSERT_U64_EQ(tb_chess_perft(&pos, 0), 1);
}
