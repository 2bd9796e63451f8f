/* Seeded corpora of two-board games (corpus.c), a few hundred scripts per run: the agreed game
 * is exact, lawful handling is never reported, every slip is reported once and put right by
 * following the instruction, and the other player's moves stand. The larger run is a benchmark
 * (tests/bench). */
#include <stdio.h>

#include "corpus.h"
#include "tb_test.h"

#define SCRIPTS 60
#define PLIES   30

static void run_scripts(enum corpus_class cls, uint64_t first_seed, long scripts,
                        struct corpus_stats *st)
{
    for (uint64_t s = 0; s < (uint64_t)scripts; s++)
        corpus_run(cls, first_seed + s, PLIES, st);
    fprintf(stderr,
            "%s: %ld scripts, %ld plies, %ld own replies first, %ld slips, %ld mismatches, "
            "%ld put right\n",
            corpus_class_name(cls), st->scripts, st->plies, st->own_first, st->slips,
            st->mismatches, st->resolved);
    ASSERT_EQ(st->scripts, scripts);
    ASSERT_EQ(st->mismatches, st->slips);
    ASSERT_EQ(st->resolved, st->mismatches);
    ASSERT_EQ(st->arbiter, 0);
    /* D.2.9: every mismatch was put right by following its words (corpus.c, follow) */
    ASSERT_GE(st->put_right.instructions, st->mismatches);
}

static void run_class(enum corpus_class cls, uint64_t first_seed, struct corpus_stats *st)
{
    run_scripts(cls, first_seed, SCRIPTS, st);
}

/* The classes added with the put-right check run a few hundred scripts each. */
#define MORE 200

TB_TEST(corpus_plain_games_are_exact_with_no_report)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_PLAIN, 1000, &st);
    ASSERT_EQ(st.slips, 0);
    ASSERT_GT(st.plies, SCRIPTS * 10);
}

TB_TEST(law_D_2_9_corpus_own_move_first_is_kept_with_no_report)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_OWN_FIRST, 2000, &st);
    ASSERT_EQ(st.mismatches, 0);
    ASSERT_GT(st.own_first, SCRIPTS); /* the class was exercised, often */
}

TB_TEST(law_D_2_9_corpus_slip_on_the_other_board_move_stands)
{
    struct corpus_stats st = {0};
    run_class(CORPUS_SLIP_OTHER, 3000, &st);
    ASSERT_GT(st.slips, SCRIPTS);
}

TB_TEST(law_D_2_9_corpus_slip_on_the_board_ahead_copy_and_reply_stand)
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

/* 7.4, D.2.3: a captured piece dropped into a hole on the board that copies, during the copy
 * (the victim first) or after it (capture, e.p., castling), the reply made before it is lifted:
 * the copy and the reply stand, the instruction names the stray truly and is only to lift it */
TB_TEST(law_7_4_corpus_stray_on_the_copying_board_copy_and_reply_stand)
{
    struct corpus_stats st = {0};
    run_scripts(CORPUS_STRAY_COPY, 6000, MORE, &st);
    ASSERT_GT(st.slips, MORE / 2);
}

/* 4.7, D.2.1: the captured piece dropped into a hole right after the capture: the capture is
 * announced when made, the stray put right as told */
TB_TEST(law_4_7_corpus_stray_after_a_capture_move_announced_when_made)
{
    struct corpus_stats st = {0};
    run_scripts(CORPUS_STRAY_MOVE, 7000, MORE, &st);
    ASSERT_GT(st.slips, MORE / 2);
}

/* 1.2, 7.4: the player not to move takes a piece of theirs where it could go: displaced (never
 * out-of-turn), put back as told; the mover's move stands */
TB_TEST(law_7_4_corpus_piece_moved_by_the_player_not_to_move_is_displaced)
{
    struct corpus_stats st = {0};
    run_scripts(CORPUS_KNOCK_TURN, 8000, MORE, &st);
    ASSERT_GT(st.slips, MORE);
}
