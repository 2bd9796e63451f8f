/* test_bug_fen.c - the bughouse FEN: pools in brackets or as a ninth rank, "~" for promoted
 * pawns (3.1), round trips, and refusals that name what and where. */
#include "tb_bug.h"
#include "tb_test.h"

static void round_trip(const char *in, const char *want)
{
    tb_bug_pos pos;
    struct tb_error err;
    if (tb_bug_pos_from_fen(&pos, in, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", in, err.msg);
    char out[TB_BUG_FEN_MAX];
    ASSERT_GT(tb_bug_pos_to_fen(&pos, out, sizeof out), 0);
    ASSERT_STR_EQ(out, want);
    tb_bug_pos again;
    ASSERT_OK(tb_bug_pos_from_fen(&again, out, &err));
    ASSERT_TRUE(tb_bug_pos_equal(&pos, &again));
}

TB_TEST(fen_pools_read_in_both_forms_and_write_in_brackets)
{
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[pQnP] w KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QPnp] w KQkq - 0 1");
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Bb w KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Bb] w KQkq - 0 1");
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    round_trip("4k3/8/8/8/8/8/8/4K3[-] b - - 3 40", "4k3/8/8/8/8/8/8/4K3[] b - - 3 40");
    /* 3.1: promoted pawns, and more knights than one set has (passed from the other board). */
    round_trip("4k2n~/2Q~5/8/8/8/8/8/NNN1K3[NP] w - - 0 30",
               "4k2n~/2Q~5/8/8/8/8/8/NNN1K3[NP] w - - 0 30");
}

static void refused(const char *fen, const char *needle)
{
    tb_bug_pos pos, before;
    memset(&pos, 0x5a, sizeof pos);
    memcpy(&before, &pos, sizeof pos);
    struct tb_error err;
    memset(&err, 0, sizeof err);
    int rc = tb_bug_pos_from_fen(&pos, fen, &err);
    if (rc == TB_OK)
        TB_FAIL("'%s' accepted", fen);
    ASSERT_EQ(rc, TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, needle);
    ASSERT_TRUE(memcmp(&pos, &before, sizeof pos) == 0);
}

TB_TEST(fen_errors_name_what_and_where)
{
    refused("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "a king");
    refused("4k3/8/8/8/8/8/8/4K3[x] w - - 0 1", "column 21");
    refused("4k3/8/8/8/8/8/8/4K3[N w - - 0 1", "not closed");
    refused("4k3/8/8/8/8/8/8/4K3[N]x w - - 0 1", "after the pool");
    refused("4k3/8/8/8/8/8/8/4K~3[] w - - 0 1", "'~' at column 19");
    refused("4k3/8/8/8/8/8/8/~4K3[] w - - 0 1", "'~' at column 17");
    refused("4k3/8/8/8/8/8/P~7/4K3[] w - - 0 1", "'~'");
    refused("4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPPPP] w - - 0 1", "more than 16");
    refused("4k3/8/8/8/8/8/8/NNN1K3[NN] w - - 0 1", "5 knights");
    refused("4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1", "3 queens");
    refused("4k3/8/PPPPPPPP/8/8/PPPPPPPP/8/4K3[P] w - - 0 1", "17 pawns");
    refused("4k3/8/8/8/8/8/8/4K3[] w - - 0", "5 fields"); /* the core's own errors come through */
    refused("4k2P/8/8/8/8/8/8/4K3[] w - - 0 1", "rank 1 or 8");
}
