/* Tests of the sim: link: an event script played against an injected clock. */
#include <stdio.h>

#include "tb_link.h"
#include "tb_test.h"

static const char script[] = "# 1. e4 on both boards\n"
                             "0 vi lift e2\n"
                             "400 vi place e4\n"
                             "900 sighted lift e2\n"
                             "1300 sighted place e4\n"
                             "1500 vi press promote\n"
                             "1600 vi release promote\n"
                             "# expect: vi move e4\n"
                             "1700 vi choose q\n";

static void write_script(char *path, size_t len, const char *name, const char *text)
{
    snprintf(path, len, "%s/%s", tb_test_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

static struct tb_link *open_sim(const char *text, const char *opt, const char *board, uint64_t now)
{
    char path[512], res[600];
    write_script(path, sizeof path, "game.script", text);
    snprintf(res, sizeof res, "sim:%s%s", path, opt);
    struct tb_link *l;
    struct tb_error e = {0};
    if (tb_link_open(&l, res, board, now, &e) != TB_OK)
        TB_FAIL("open %s: %s", res, e.msg);
    return l;
}

TB_TEST(realtime_sim_emits_each_event_at_its_time)
{
    struct tb_link *l = open_sim(script, "", "vi", 10000);
    struct tb_link_event ev[8];
    ASSERT_EQ(tb_link_fd(l), -1);
    ASSERT_U64_EQ(tb_link_deadline(l), 10000);
    ASSERT_EQ(tb_link_read(l, 10000, ev, 8, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_LIFT);
    ASSERT_EQ(ev[0].square, 12); /* e2 */
    ASSERT_EQ(ev[0].board_ms, 0);
    ASSERT_EQ(ev[0].seq, 1);
    ASSERT_U64_EQ(tb_link_deadline(l), 10400);
    ASSERT_EQ(tb_link_read(l, 10399, ev, 8, NULL), 0); /* not yet */
    ASSERT_EQ(tb_link_read(l, 10400, ev, 8, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_PLACE);
    ASSERT_EQ(ev[0].square, 28); /* e4 */
    ASSERT_EQ(ev[0].board_ms, 400);
    ASSERT_U64_EQ(ev[0].host_ms, 10400);
    /* The sighted board's lines are not this board's. */
    ASSERT_U64_EQ(tb_link_deadline(l), 11500);
    ASSERT_EQ(tb_link_read(l, 20000, ev, 8, NULL), 4); /* late: everything due, in order */
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_BUTTON_DOWN);
    ASSERT_EQ(ev[0].button, 0); /* promote */
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_BUTTON_UP);
    ASSERT_EQ(ev[2].kind, TB_LINK_EV_CHOICE);
    ASSERT_EQ(ev[2].choice, 'q');
    ASSERT_EQ(ev[2].seq, 5);
    ASSERT_EQ(ev[3].kind, TB_LINK_EV_END);
    ASSERT_U64_EQ(tb_link_deadline(l), TB_LINK_NO_DEADLINE);
    ASSERT_EQ(tb_link_read(l, 30000, ev, 8, NULL), 0);
    tb_link_close(l);
}

TB_TEST(fast_sim_has_everything_due_at_once_in_batches)
{
    struct tb_link *l = open_sim(script, "?speed=fast", "sighted", 0);
    struct tb_link_event ev[8];
    ASSERT_U64_EQ(tb_link_deadline(l), 0);
    ASSERT_EQ(tb_link_read(l, 0, ev, 1, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_LIFT);
    ASSERT_EQ(ev[0].board_ms, 900);
    ASSERT_U64_EQ(tb_link_deadline(l), 0);
    ASSERT_EQ(tb_link_read(l, 0, ev, 8, NULL), 2);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_PLACE);
    ASSERT_EQ(ev[1].kind, TB_LINK_EV_END);
    tb_link_close(l);
}

TB_TEST(sim_snapshot_reflects_the_events_played)
{
    struct tb_link *l = open_sim(script, "?speed=fast", "vi", 0);
    struct tb_link_event ev[8];
    ASSERT_EQ(tb_link_read(l, 0, ev, 1, NULL), 1); /* lift e2 */
    ASSERT_OK(tb_link_request_snapshot(l, NULL));
    ASSERT_U64_EQ(tb_link_deadline(l), 0);
    ASSERT_EQ(tb_link_read(l, 5, ev, 1, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_SNAPSHOT);
    ASSERT_U64_EQ(ev[0].occupancy, 0xffff00000000ffffull & ~(1ull << 12));
    ASSERT_EQ(ev[0].seq, 1);
    tb_link_close(l);
}

TB_TEST(sim_open_names_the_bad_script_line)
{
    char path[512], res[600];
    write_script(path, sizeof path, "bad.script", "0 vi lift e2\n100 vi lift z9\n");
    snprintf(res, sizeof res, "sim:%s", path);
    struct tb_link *l;
    struct tb_error e;
    ASSERT_EQ(tb_link_open(&l, res, "vi", 0, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "bad.script:2:");
    ASSERT_EQ(e.line, 2);
    write_script(path, sizeof path, "button.script", "0 vi press launch\n");
    snprintf(res, sizeof res, "sim:%s", path);
    ASSERT_EQ(tb_link_open(&l, res, "vi", 0, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "button.script:1: unknown button 'launch'");
    ASSERT_EQ(tb_link_open(&l, "sim:/nonexistent.script", "vi", 0, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "cannot read /nonexistent.script");
}

TB_TEST(sim_with_no_lines_for_the_board_just_ends)
{
    struct tb_link *l = open_sim(script, "", "dgt", 0);
    struct tb_link_event ev[2];
    ASSERT_U64_EQ(tb_link_deadline(l), 0);
    ASSERT_EQ(tb_link_read(l, 0, ev, 2, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_END);
    tb_link_close(l);
}
