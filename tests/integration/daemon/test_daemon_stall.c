/* test_daemon_stall.c - a loop that stalls (a slow disk, a loaded machine) reads both boards'
 * events at once: they must still go into the game in the order they were made, so a copy is
 * never taken before the move it copies and no one is accused of a mismatch (D.2.9). */
#include <string.h>
#include <time.h>

#include "fixture.h"
#include "tb_test.h"

static void stall(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Both boards in real time, moves copied 150 ms after they are made; the loop is turned only
 * every stall_ms, so each read holds several moves and copies of both boards. */
static void game_read_in_stalls(const char *name, int stall_ms, int vi_color)
{
    struct fx f;
    fx_init(&f, name);
    tb_chess_move moves[256];
    int n = tb_daemon_demo_moves(moves, 256);
    ASSERT_GT(n, 20);
    n = 20;
    struct tb_daemon_demo_script s = {.moves = moves,
                                      .nmoves = n,
                                      .vi_color = vi_color,
                                      .pause_ms = 150,
                                      .blips = true,
                                      .seed = 5};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    fx_options(&f, "script", "script");
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.cfg.player[0].colour = vi_color ? TB_CONFIG_BLACK : TB_CONFIG_WHITE;
    f.o.cfg.player[1].colour = vi_color ? TB_CONFIG_WHITE : TB_CONFIG_BLACK;
    fx_start(&f);
    struct tb_daemon_counters c = {0};
    for (int turn = 0; turn < 400; turn++) {
        tb_daemon_counters(f.d, &c);
        if (c.done || c.mismatch)
            break;
        if (tb_daemon_step(f.d, 0) <= 0)
            break;
        stall(stall_ms);
    }
    /* the scripts have ended: what remains is taken without stalls */
    ASSERT_EQ(fx_run(&f, 20000), 0u);
    tb_daemon_counters(f.d, &c);
    ASSERT_TRUE(c.done);
    ASSERT_EQ(c.plies, n);
    static char got[4096], source[4096];
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    fx_san_list(&start, moves, n, source, sizeof source);
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), source);
    ASSERT_TRUE(strstr(f.log, "mismatch") == NULL);
    fx_free(&f);
}

TB_TEST(law_D_2_9_a_stalled_loop_takes_both_boards_in_the_order_played_vi_white)
{
    game_read_in_stalls("stall-white", 700, TB_CHESS_WHITE);
}

TB_TEST(law_D_2_9_a_stalled_loop_takes_both_boards_in_the_order_played_vi_black)
{
    game_read_in_stalls("stall-black", 700, TB_CHESS_BLACK);
}
