/* What waits for the journal (host/table): the journal's state moves only along its list, and
 * the inputs held while play is stopped come back in the order they came, board events and an
 * arbiter action among them, however many wait; a held output and an arbiter action move only
 * along their lists. */
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

/* 1000 board events with an arbiter action after the 400th: taken back in that order with
 * their times, the action with its record; the queue grows past its first allocation. */
TB_TEST(held_inputs_come_back_in_order_with_the_action_in_its_place)
{
    struct tb_table_queue q = {0};
    for (int i = 0; i < 1000; i++) {
        struct tb_table_held h = {.kind = TB_TABLE_HELD_BOARD, .t = 100u + (uint64_t)i};
        h.board.kind = 1;
        h.board.arg = (uint8_t)(i % 64);
        ASSERT_OK(tb_table_queue_push(&q, &h));
        if (i == 399) {
            struct tb_table_held a = {.kind = TB_TABLE_HELD_ACTION, .t = 499, .seq = 77};
            ASSERT_OK(tb_table_queue_push(&q, &a));
        }
    }
    ASSERT_EQ(tb_table_queue_count(&q), 1001u);
    struct tb_table_held h;
    for (int i = 0; i < 1001; i++) {
        ASSERT_TRUE(tb_table_queue_pop(&q, &h));
        if (i == 400) {
            ASSERT_EQ(h.kind, TB_TABLE_HELD_ACTION);
            ASSERT_EQ(h.seq, 77u);
            ASSERT_EQ(h.t, 499u);
            continue;
        }
        int e = i < 400 ? i : i - 1;
        ASSERT_EQ(h.kind, TB_TABLE_HELD_BOARD);
        ASSERT_EQ(h.t, 100u + (uint64_t)e);
        ASSERT_EQ(h.board.arg, (unsigned)(e % 64));
    }
    ASSERT_FALSE(tb_table_queue_pop(&q, &h));
    ASSERT_EQ(tb_table_queue_count(&q), 0u);
    tb_table_queue_free(&q);
    tb_table_queue_free(NULL);
}

/* Taken while more come (an input taken makes the game hold again): what came later waits
 * behind what was there; an empty queue starts over in place. */
TB_TEST(inputs_pushed_while_draining_wait_behind_the_rest)
{
    struct tb_table_queue q = {0};
    struct tb_table_held h = {.kind = TB_TABLE_HELD_BOARD, .t = 1};
    ASSERT_OK(tb_table_queue_push(&q, &h));
    h.t = 2;
    ASSERT_OK(tb_table_queue_push(&q, &h));
    ASSERT_TRUE(tb_table_queue_pop(&q, &h));
    ASSERT_EQ(h.t, 1u);
    h.t = 3;
    ASSERT_OK(tb_table_queue_push(&q, &h));
    ASSERT_TRUE(tb_table_queue_pop(&q, &h));
    ASSERT_EQ(h.t, 2u);
    ASSERT_TRUE(tb_table_queue_pop(&q, &h));
    ASSERT_EQ(h.t, 3u);
    h.t = 4;
    ASSERT_OK(tb_table_queue_push(&q, &h));
    ASSERT_EQ(q.head, 0u); /* emptied: started over */
    ASSERT_EQ(tb_table_queue_count(&q), 1u);
    tb_table_queue_free(&q);
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
