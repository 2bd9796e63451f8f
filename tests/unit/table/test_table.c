/* What waits for the journal (host/table): the journal's state, a held output and an arbiter
 * action move only along their lists. (The queue the held inputs wait in is tb_fifo's, tested in
 * tests/unit/common/test_fifo.c.) */
#include "tb_table.h"
#include "tb_test.h"

/* Play stops on a failed write, stays stopped while retries fail, resumes on a good one; a
 * journal that writes cannot "resume". */
TB_TEST(journal_states_move_only_along_the_list)
{
    ASSERT_TRUE(tb_table_journal_may(TB_TABLE_WRITABLE, TB_TABLE_STOPPED));
    ASSERT_TRUE(tb_table_journal_may(TB_TABLE_STOPPED, TB_TABLE_STOPPED));
    ASSERT_TRUE(tb_table_journal_may(TB_TABLE_STOPPED, TB_TABLE_WRITABLE));
    ASSERT_FALSE(tb_table_journal_may(TB_TABLE_WRITABLE, TB_TABLE_WRITABLE));
    enum tb_table_journal st = TB_TABLE_WRITABLE;
    tb_table_journal_to(&st, TB_TABLE_STOPPED);
    ASSERT_EQ(st, TB_TABLE_STOPPED);
    ASSERT_STR_EQ(tb_table_journal_name(st), "stopped");
    tb_table_journal_to(&st, TB_TABLE_STOPPED);
    tb_table_journal_to(&st, TB_TABLE_WRITABLE);
    ASSERT_EQ(st, TB_TABLE_WRITABLE);
    ASSERT_STR_EQ(tb_table_journal_name(st), "writable");
}

/* Every pair of states of a list of n: allowed exactly when expected says so (row from, column
 * to). */
static void check_list(int n, bool (*may)(int from, int to), const bool *expected)
{
    for (int from = 0; from < n; from++)
        for (int to = 0; to < n; to++)
            if (may(from, to) != expected[from * n + to])
                TB_FAIL("%d -> %d: expected %s", from, to,
                        expected[from * n + to] ? "allowed" : "refused");
}
static bool output_may(int from, int to)
{
    return tb_table_output_may((enum tb_table_output)from, (enum tb_table_output)to);
}
static bool action_may(int from, int to)
{
    return tb_table_action_may((enum tb_table_action)from, (enum tb_table_action)to);
}

/* An output is carried out only from HELD or APPENDED (once its cause is on disk), an agreed
 * move's record is appended once, and a new output is only taken once the last is out. */
TB_TEST(held_output_moves_only_along_the_list)
{
    static const bool list[3 * 3] = {
        /* to:  NONE   HELD   APPENDED */
        false, true,  false, /* from NONE */
        true,  false, true,  /* from HELD */
        true,  false, false, /* from APPENDED */
    };
    check_list(3, output_may, list);
    enum tb_table_output o = TB_TABLE_OUT_NONE;
    tb_table_output_to(&o, TB_TABLE_OUT_HELD);
    ASSERT_TRUE(tb_table_held(TB_TABLE_WRITABLE, o, TB_TABLE_ACT_NONE));
    tb_table_output_to(&o, TB_TABLE_OUT_APPENDED);
    ASSERT_TRUE(tb_table_held(TB_TABLE_WRITABLE, o, TB_TABLE_ACT_NONE));
    tb_table_output_to(&o, TB_TABLE_OUT_NONE);
    ASSERT_EQ(o, TB_TABLE_OUT_NONE);
    ASSERT_FALSE(tb_table_held(TB_TABLE_WRITABLE, o, TB_TABLE_ACT_NONE));
}

/* An arbiter action is done only after its record is durable: WAITS holds the game, DURABLE
 * does not (it is done at its place among the inputs), and it never goes back. */
TB_TEST(arbiter_action_is_done_only_after_its_record_is_durable)
{
    static const bool list[3 * 3] = {
        /* to:  NONE   WAITS  DURABLE */
        false, true,  false, /* from NONE */
        false, false, true,  /* from WAITS */
        true,  false, false, /* from DURABLE */
    };
    check_list(3, action_may, list);
    enum tb_table_action a = TB_TABLE_ACT_NONE;
    tb_table_action_to(&a, TB_TABLE_ACT_WAITS);
    ASSERT_TRUE(tb_table_held(TB_TABLE_WRITABLE, TB_TABLE_OUT_NONE, a));
    tb_table_action_to(&a, TB_TABLE_ACT_DURABLE);
    ASSERT_FALSE(tb_table_held(TB_TABLE_WRITABLE, TB_TABLE_OUT_NONE, a));
    tb_table_action_to(&a, TB_TABLE_ACT_NONE);
    ASSERT_EQ(a, TB_TABLE_ACT_NONE);
    /* play stopped holds the game whatever else waits */
    ASSERT_TRUE(tb_table_held(TB_TABLE_STOPPED, TB_TABLE_OUT_NONE, TB_TABLE_ACT_NONE));
}

static bool notice_may(int from, int to)
{
    return tb_table_notice_may((enum tb_table_notice)from, (enum tb_table_notice)to);
}

/* The players hear "please wait" once however long play is held (a stall then a failure is one
 * notice), and only a commit that put everything on disk ends it. */
TB_TEST(players_are_told_of_held_play_once_until_it_is_on_disk)
{
    static const bool list[2 * 2] = {
        /* to:  NONE   TOLD */
        false, true, /* from NONE */
        true, false, /* from TOLD: told again is refused */
    };
    check_list(2, notice_may, list);
    enum tb_table_notice n = TB_TABLE_NOTICE_NONE;
    tb_table_notice_to(&n, TB_TABLE_NOTICE_TOLD);
    ASSERT_EQ(n, TB_TABLE_NOTICE_TOLD);
    tb_table_notice_to(&n, TB_TABLE_NOTICE_NONE);
    ASSERT_EQ(n, TB_TABLE_NOTICE_NONE);
}
