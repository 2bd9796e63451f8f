/* Seeded corpora of two-board games (corpus.c), a few hundred scripts per run: the agreed game
 * is exact, lawful handling is never reported, every slip is reported once and put right by
 * following the instruction, and the other player's moves stand. The larger run is a benchmark
 * (tests/bench). */
#include <stdio.h>

#include "corpus.h"
#include "tb_test.h"

#define SCRIPTS 60
#define PLIES   30

static void run_class(enum corpus_class cls, uint64_t first_seed, struct corpus_stats *st)
{
    for (uint64_t s = 0; s < SCRIPTS; s++)
        corpus_run(cls, first_seed + s, PLIES, st);
    fprintf(stderr,
            "%s: %ld scripts, %ld plies, %ld own replies first, %ld slips, %ld mismatches, "
            "%ld put right\n",
            corpus_class_name(cls), st->scripts, st->plies, st->own_first, st->slips,
            st->mismatches, st->resolved);
    ASSERT_EQ(st->scripts, SCRIPTS);
    ASSERT_EQ(st->mismatches, st->slips);
    ASSERT_EQ(st->resolved, st->mismatches);
    ASSERT_EQ(st->arbiter, 0);
}

TB_TEST(corpus_plain_games_are_exact_with_no_report)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_PLAIN, 1000, &st);
    ASSERT_EQ(st.slips, 0);
    ASSERT_GT(st.plies, SCRIPTS * 10);
}

TB_TEST(law_d_2_9_corpus_own_move_first_is_kept_with_no_report)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_OWN_FIRST, 2000, &st);
    ASSERT_EQ(st.mismatches, 0);
    ASSERT_GT(st.own_first, SCRIPTS); /* the class was exercised, often */
}

TB_TEST(law_d_2_9_corpus_slip_on_the_other_board_move_stands)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_SLIP_OTHER, 3000, &st);
    ASSERT_GT(st.slips, SCRIPTS);
}

TB_TEST(law_d_2_9_corpus_slip_on_the_board_ahead_copy_and_reply_stand)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_SLIP_AHEAD, 4000, &st);
    ASSERT_GT(st.slips, SCRIPTS);
}

TB_TEST(law_7_4_corpus_slip_before_the_copy_put_right)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_SLIP_COPY, 5000, &st);
    ASSERT_GT(st.slips, SCRIPTS);
}
