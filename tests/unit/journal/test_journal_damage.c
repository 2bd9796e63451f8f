/* Damage in the middle of a real journal (a whole corpus game written through the journal API as
 * the daemon writes it) costs the damaged records only, and the loss is reported exactly: which
 * records, which bytes, after which ply. One flipped bit at a dense sample of positions, a zeroed
 * 4 KiB page at every page boundary and every 127th byte between. The exhaustive sweep
 * (every byte) is the benchmark bench_journal_damage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "damage.h"
#include "game_journal.h"
#include "tb_test.h"

#define GAME_FILE "twic0920.pgn"
#define GAME_NO   84 /* 160 plies */

static struct game_journal gj;

static void make(void)
{
    char pgn[512], path[512];
    struct tb_error err = {0};
    snprintf(pgn, sizeof pgn, "%s/games/%s", tb_test_data_dir(), GAME_FILE);
    snprintf(path, sizeof path, "%s/game.tbj", tb_test_tmp_dir());
    unlink(path); /* a fresh journal for each case */
    if (game_journal_make(&gj, pgn, GAME_NO, path, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    ASSERT_EQ(gj.plies, 160);
    ASSERT_GT(gj.records, 1000);
}

static void check(const struct damage_result *r)
{
    if (r->failure[0])
        TB_FAIL("%s", r->failure);
}

TB_TEST(one_flipped_bit_loses_only_its_record_and_says_which)
{
    make();
    struct damage_stats st;
    damage_stats_init(&st);
    uint8_t *copy = malloc(gj.len);
    ASSERT_NOT_NULL(copy);
    for (size_t at = 0; at < gj.len; at += 11) {
        memcpy(copy, gj.buf, gj.len);
        copy[at] ^= (uint8_t)(1u << (at % 8));
        struct damage_result r;
        damage_check(&gj, copy, at, at + 1, &r);
        check(&r);
        damage_stats_add(&st, &r);
    }
    ASSERT_GT(st.cases, 5000);
    ASSERT_EQ(st.excess_max, 0); /* never a record more than the damage touched */
    ASSERT_EQ(st.lost_max, 1);
    fprintf(stderr,
            "flipped bits: %ld positions of %zu bytes (%zu records, %d plies): records lost "
            "max %ld mean %.3f; moves lost max %ld; dropped as torn tail %ld\n",
            st.cases, gj.len, gj.records, gj.plies, st.lost_max, damage_stats_mean(&st),
            st.moves_max, st.torn);
    free(copy);
    game_journal_free(&gj);
}

/* Every 127th byte, and every page boundary (where a file system loses whole pages). */
static size_t next_page_offset(size_t at)
{
    size_t next = at + 127, boundary = (at / 4096 + 1) * 4096;
    return next < boundary ? next : boundary;
}

TB_TEST(a_zeroed_page_loses_only_the_records_on_it_and_says_which)
{
    make();
    struct damage_stats st;
    damage_stats_init(&st);
    uint8_t *copy = malloc(gj.len);
    ASSERT_NOT_NULL(copy);
    for (size_t at = 0; at < gj.len; at = next_page_offset(at)) {
        size_t end = at + 4096 < gj.len ? at + 4096 : gj.len;
        memcpy(copy, gj.buf, gj.len);
        memset(copy + at, 0, end - at);
        struct damage_result r;
        damage_check(&gj, copy, at, end, &r);
        check(&r);
        damage_stats_add(&st, &r);
    }
    ASSERT_GT(st.cases, 400);
    ASSERT_EQ(st.excess_max, 0);
    fprintf(stderr,
            "zeroed 4 KiB pages: %ld offsets: records lost max %ld mean %.2f (all of them "
            "on the page); moves lost max %ld; dropped as torn tail %ld\n",
            st.cases, st.lost_max, damage_stats_mean(&st), st.moves_max, st.torn);
    free(copy);
    game_journal_free(&gj);
}

/* Through the file layer: open lists the loss with the plies around it, keeps the damaged bytes,
 * and appends continue after the last record with the next sequence number. */
TB_TEST(open_lists_the_loss_and_appends_continue)
{
    make();
    size_t k = gj.records / 2; /* record seq k + 1 */
    size_t at = gj.offset[k] + 20;
    gj.buf[at] ^= 0x10;
    char path[512];
    snprintf(path, sizeof path, "%s/flipped.tbj", tb_test_tmp_dir());
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(gj.buf, 1, gj.len, f), gj.len);
    ASSERT_OK(fclose(f));
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, gj.records - 1);
    ASSERT_EQ(rec.corrupt, 1);
    ASSERT_U64_EQ(rec.lost, 1);
    ASSERT_EQ(rec.torn_bytes, 0);
    size_t n;
    const struct tb_journal_loss *l = tb_journal_losses(j, &n);
    ASSERT_EQ(n, 1);
    ASSERT_U64_EQ(l[0].first_seq, k + 1);
    ASSERT_U64_EQ(l[0].last_seq, k + 1);
    ASSERT_EQ(l[0].offset, gj.offset[k]);
    ASSERT_EQ(l[0].bytes, gj.offset[k + 1] - gj.offset[k]);
    ASSERT_GT(l[0].ply, 0);
    ASSERT_TRUE(l[0].next_ply == l[0].ply + 1 || l[0].next_ply == l[0].ply + 2);
    ASSERT_EQ(tb_journal_append(j, 999, 1, "after", 5), (int64_t)gj.records + 1);
    ASSERT_OK(tb_journal_close(j));
    struct stat st;
    ASSERT_OK(stat(path, &st));
    ASSERT_EQ((size_t)st.st_size, gj.len + TB_JOURNAL_HEADER_SIZE + 5);
    ASSERT_OK(tb_journal_open(&j, path, &rec, NULL));
    ASSERT_EQ(rec.records, gj.records);
    ASSERT_U64_EQ(rec.lost, 1);
    ASSERT_OK(tb_journal_close(j));
    game_journal_free(&gj);
}
