/* The clock run in script time: whole games with exact times at every move, periods, delays,
 * pauses while the boards disagree, the arbiter's adjustments, flag fall, warnings and the
 * talking clock's data. Move times come from a seeded generator, so every run is the same. */
#include "tb_clock.h"
#include "tb_test.h"

#define S(x) ((uint64_t)(x)*1000)
#define M(x) ((uint64_t)(x)*60000)
#define W    TB_CHESS_WHITE
#define B    TB_CHESS_BLACK

static tb_clock start_clock(const char *control, uint64_t t0)
{
    struct tb_clock_control ctl;
    struct tb_error err = {0};
    if (tb_clock_control_parse(&ctl, control, &err) != TB_OK)
        TB_FAIL("%s: %s", control, err.msg);
    tb_clock c;
    ASSERT_OK(tb_clock_init(&c, &ctl, &err));
    ASSERT_OK(tb_clock_start(&c, W, t0)); /* 6.6: White's clock starts the game */
    return c;
}

/* xorshift64*: a fixed seed gives the same game every run. */
struct rng {
    uint64_t s;
};
static uint64_t rnd(struct rng *r, uint64_t lo, uint64_t hi)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return lo + (r->s * 2685821657736338717ULL) % (hi - lo + 1);
}

/* A thinking time: mostly quick, sometimes long, never more than half the time left. */
static uint64_t think_time(struct rng *r, uint64_t left, uint64_t quick, uint64_t slow)
{
    uint64_t t = rnd(r, 0, 9) < 8 ? rnd(r, 200, quick) : rnd(r, quick, slow);
    return t < left / 2 ? t : left / 2;
}

static int pop_all(tb_clock *c, struct tb_clock_event *evs, int cap)
{
    int n = 0;
    struct tb_clock_event ev;
    while (tb_clock_event_pop(c, &ev)) {
        if (n < cap)
            evs[n] = ev;
        n++;
    }
    return n;
}

/* Runs a game of `moves` moves each with a Fischer increment, checking both clocks against
 * plain arithmetic halfway through every move and after every press. */
static void run_fischer_game(const char *control, uint64_t base, uint64_t inc, int moves,
                             uint64_t quick, uint64_t slow, uint64_t seed)
{
    uint64_t t = 1000000; /* the daemon's clock need not start at 0 */
    tb_clock c = start_clock(control, t);
    struct rng r = {seed};
    uint64_t left[2] = {base, base}, used[2] = {0, 0};
    char clk[32], want[32];
    for (int ply = 0; ply < 2 * moves; ply++) {
        int side = ply % 2;
        uint64_t think = think_time(&r, left[side], quick, slow);
        uint64_t mid = t + think / 2;
        ASSERT_U64_EQ(tb_clock_remaining(&c, side, mid), left[side] - think / 2);
        ASSERT_U64_EQ(tb_clock_remaining(&c, side ^ 1, mid), left[side ^ 1]);
        ASSERT_U64_EQ(tb_clock_used(&c, side, mid), used[side] + think / 2);
        ASSERT_U64_EQ(tb_clock_flag_deadline(&c), t + left[side]);
        ASSERT_OK(tb_clock_update(&c, mid));
        t += think;
        ASSERT_OK(tb_clock_press(&c, side, t));
        left[side] = left[side] - think + inc; /* 6.3: the increment comes after the move */
        used[side] += think;
        ASSERT_U64_EQ(tb_clock_remaining(&c, side, t), left[side]);
        ASSERT_U64_EQ(tb_clock_remaining(&c, side ^ 1, t), left[side ^ 1]);
        ASSERT_U64_EQ(tb_clock_used(&c, side, t), used[side]);
        ASSERT_EQ(c.side[side].moves, ply / 2 + 1);
        ASSERT_EQ(c.turn, side ^ 1); /* D.2.4: the opponent's clock runs */
        tb_clock_format_clk(tb_clock_remaining(&c, side, t), clk, sizeof clk);
        struct tb_clock_hms h = tb_clock_hms(left[side]);
        snprintf(want, sizeof want, "[%%clk %u:%02u:%02u]", (unsigned)h.hours, (unsigned)h.minutes,
                 (unsigned)h.seconds);
        ASSERT_STR_EQ(clk, want);
    }
    struct tb_clock_event ev;
    ASSERT_FALSE(tb_clock_event_pop(&c, &ev)); /* nobody's flag fell */
}

/* The club's standard tempo: 1h30 + 15 s a move (club rules 2.2). */
TB_TEST(law_6_3_club_game_90m_15s_exact_at_every_move)
{
    run_fischer_game("club", M(90), S(15), 60, S(120), S(900), 0x9E3779B97F4A7C15ULL);
    run_fischer_game("90m+15s", M(90), S(15), 80, S(60), S(600), 12345);
}

TB_TEST(law_6_3_fischer_5m_3s_game_exact_at_every_move)
{
    run_fischer_game("5m+3s", M(5), S(3), 70, S(6), S(30), 777);
}

/* The club's blitz (club rules 4: 7 minutes), played until a flag falls at its exact time. */
TB_TEST(law_6_1_blitz_7m_game_exact_at_every_move_until_the_flag)
{
    uint64_t t = 0;
    tb_clock c = start_clock("blitz", t);
    struct rng r = {42};
    uint64_t left[2] = {M(7), M(7)};
    int ply;
    for (ply = 0; ply < 400; ply++) {
        int side = ply % 2;
        uint64_t think = rnd(&r, 300, S(15));
        if (think >= left[side])
            break; /* this move would overstep: the flag falls first */
        ASSERT_U64_EQ(tb_clock_next_deadline(&c), t + left[side]);
        t += think;
        ASSERT_OK(tb_clock_press(&c, side, t));
        left[side] -= think; /* no increment */
        ASSERT_U64_EQ(tb_clock_remaining(&c, W, t), left[W]);
        ASSERT_U64_EQ(tb_clock_remaining(&c, B, t), left[B]);
    }
    ASSERT_LT(ply, 400); /* the generator does run a side out of time */
    int side = ply % 2;
    uint64_t flag_at = t + left[side];
    ASSERT_EQ(tb_clock_update(&c, flag_at - 1), 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, side, flag_at - 1), 1);
    ASSERT_EQ(tb_clock_update(&c, flag_at + S(3)), 1); /* noticed late, stamped exactly */
    struct tb_clock_event ev;
    ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
    ASSERT_EQ(ev.kind, TB_CLOCK_EV_FLAG);
    ASSERT_EQ(ev.side, side);
    ASSERT_U64_EQ(ev.at_ms, flag_at);
    ASSERT_TRUE(ev.first);
    ASSERT_EQ(ev.moves, ply / 2);
    ASSERT_U64_EQ(tb_clock_remaining(&c, side, flag_at + S(3)), 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, side ^ 1, flag_at + S(3)), left[side ^ 1]);
    ASSERT_EQ(tb_clock_update(&c, flag_at + S(60)), 0); /* once */
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), TB_CLOCK_NEVER);
}

TB_TEST(law_6_1_flag_falls_exactly_at_its_time_and_once)
{
    tb_clock c = start_clock("5m+2s", 0);
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), M(5));
    ASSERT_EQ(tb_clock_update(&c, M(5) - 1), 0);
    ASSERT_FALSE(c.side[W].flagged);
    ASSERT_EQ(tb_clock_update(&c, M(5)), 1); /* at the very millisecond the time is up */
    struct tb_clock_event ev;
    ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
    ASSERT_EQ(ev.kind, TB_CLOCK_EV_FLAG);
    ASSERT_U64_EQ(ev.at_ms, M(5));
    for (uint64_t t = M(5); t < M(6); t += 7919)
        ASSERT_EQ(tb_clock_update(&c, t), 0);
    /* A press after the flag completes the move but gives no increment. */
    ASSERT_OK(tb_clock_press(&c, W, M(6)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, M(6)), 0);
    ASSERT_EQ(c.side[W].moves, 1);
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, M(6)), M(5));
    /* A press exactly at the flag's time is too late. */
    tb_clock d = start_clock("1m+5s", 0);
    ASSERT_OK(tb_clock_press(&d, W, M(1)));
    ASSERT_TRUE(tb_clock_event_pop(&d, &ev));
    ASSERT_EQ(ev.kind, TB_CLOCK_EV_FLAG);
    ASSERT_U64_EQ(tb_clock_remaining(&d, W, M(1)), 0);
    /* One millisecond earlier is in time, and the increment counts. */
    tb_clock e = start_clock("1m+5s", 0);
    ASSERT_OK(tb_clock_press(&e, W, M(1) - 1));
    ASSERT_FALSE(tb_clock_event_pop(&e, &ev));
    ASSERT_U64_EQ(tb_clock_remaining(&e, W, M(1)), S(5) + 1);
}

/* 6.2.1, D.2.4: a press completes the running side's move; nothing else may press. */
TB_TEST(law_6_2_1_only_the_running_clock_can_be_pressed)
{
    struct tb_clock_control ctl;
    ASSERT_OK(tb_clock_control_parse(&ctl, "club", NULL));
    tb_clock c;
    ASSERT_OK(tb_clock_init(&c, &ctl, NULL));
    ASSERT_EQ(tb_clock_press(&c, W, 10), TB_ERR_STATE); /* not started */
    ASSERT_EQ(tb_clock_pause(&c, 10), TB_ERR_STATE);
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), TB_CLOCK_NEVER);
    ASSERT_OK(tb_clock_start(&c, W, 100));
    ASSERT_EQ(tb_clock_start(&c, B, 100), TB_ERR_STATE);
    tb_clock before = c;
    ASSERT_EQ(tb_clock_press(&c, B, S(5)), TB_ERR_STATE); /* Black's clock is not running */
    ASSERT_EQ(tb_clock_press(&c, 2, S(5)), TB_ERR_ARG);
    ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    ASSERT_OK(tb_clock_press(&c, W, S(5)));
    ASSERT_EQ(tb_clock_press(&c, W, S(6)), TB_ERR_STATE); /* a second press changes nothing */
    before = c;
    ASSERT_EQ(tb_clock_press(&c, B, S(4)), TB_ERR_ARG); /* time never goes back */
    ASSERT_EQ(tb_clock_update(&c, S(4)), TB_ERR_ARG);
    ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(6)), M(90) - S(5) + 100 + S(15));
}

/* D.2.9: when the boards disagree play stops, so does the clock; it goes on after. */
TB_TEST(law_D_2_9_clock_paused_while_the_boards_disagree)
{
    tb_clock c = start_clock("blitz", 0);
    ASSERT_OK(tb_clock_press(&c, W, S(10)));
    ASSERT_OK(tb_clock_pause(&c, S(25))); /* Black has used 15 s; the mismatch opens */
    ASSERT_EQ(tb_clock_pause(&c, S(26)), TB_ERR_STATE);
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), TB_CLOCK_NEVER);
    /* The arbiter takes ten minutes: longer than Black's time, yet no flag falls. */
    ASSERT_EQ(tb_clock_update(&c, M(10)), 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, M(10)), M(7) - S(15));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, M(10)), M(7) - S(10));
    ASSERT_EQ(tb_clock_press(&c, B, M(10)), TB_ERR_STATE); /* no press while play is stopped */
    ASSERT_EQ(tb_clock_resume(&c, M(10) + 1), TB_OK);
    ASSERT_EQ(tb_clock_resume(&c, M(10) + 2), TB_ERR_STATE);
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), M(10) + 1 + M(7) - S(15));
    ASSERT_OK(tb_clock_press(&c, B, M(10) + 1 + S(5)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, M(11)), M(7) - S(20));
    ASSERT_U64_EQ(tb_clock_used(&c, B, M(11)), S(20));
    struct tb_clock_event ev;
    ASSERT_FALSE(tb_clock_event_pop(&c, &ev));
}

/* D.2.9 "the arbiter adjusts the clock" and 6.10.2 (clock stopped, times and move counter
 * set): after moves are taken back, the side to move changes too. */
TB_TEST(law_D_2_9_arbiter_adjusts_the_clock)
{
    tb_clock c = start_clock("40/120m+30s, 30m+30s", 0);
    uint64_t t = 0;
    for (int ply = 0; ply < 10; ply++)
        ASSERT_OK(tb_clock_press(&c, ply % 2, t += S(30)));
    ASSERT_EQ(tb_clock_set(&c, W, M(100), 3, t), TB_ERR_STATE); /* running: stop it first */
    ASSERT_OK(tb_clock_pause(&c, t += S(7)));
    /* Two moves taken back: White to move after 3 moves each, times as the arbiter says. */
    tb_clock before = c;
    ASSERT_EQ(tb_clock_set(&c, W, 0, 3, t), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_set(&c, W, M(100), 100000, t), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_set(&c, 3, M(100), 3, t), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_set_turn(&c, 5), TB_ERR_ARG);
    ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    ASSERT_OK(tb_clock_set(&c, W, M(118), 3, t));
    ASSERT_OK(tb_clock_set(&c, B, M(119), 3, t));
    ASSERT_OK(tb_clock_set_turn(&c, W));
    ASSERT_OK(tb_clock_resume(&c, t += S(60)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, t + S(10)), M(118) - S(10));
    ASSERT_OK(tb_clock_press(&c, W, t += S(10)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, t), M(118) - S(10) + S(30));
    ASSERT_EQ(c.side[W].moves, 4);
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, t), M(119));
    /* The period follows the move count: 41 moves done is the second period. */
    ASSERT_OK(tb_clock_pause(&c, t));
    ASSERT_OK(tb_clock_set(&c, B, M(20), 41, t));
    ASSERT_EQ(c.side[B].period, 1);
    ASSERT_EQ(c.side[B].period_moves, 1);
    ASSERT_OK(tb_clock_set(&c, B, M(20), 39, t));
    ASSERT_EQ(c.side[B].period, 0);
    ASSERT_OK(tb_clock_resume(&c, t));
    ASSERT_OK(tb_clock_press(&c, B, t += S(1))); /* the 40th move: the next period's time */
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, t), M(20) - S(1) + S(30) + M(30));
    /* Stopped for good at the end of the game. */
    ASSERT_OK(tb_clock_stop(&c, t += S(2)));
    ASSERT_EQ(tb_clock_stop(&c, t), TB_ERR_STATE);
    ASSERT_EQ(tb_clock_press(&c, W, t), TB_ERR_STATE);
    ASSERT_EQ(tb_clock_resume(&c, t), TB_ERR_STATE);
    ASSERT_EQ(tb_clock_set(&c, W, M(1), 5, t), TB_ERR_STATE);
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, t + M(60)), M(118) - S(10) + S(30) - S(2));
}

/* 6.3.1, 6.3.2: 40 moves in 120 minutes, then 30 minutes for the rest, 30 s a move from the
 * first; the time left from the first period carries over. */
TB_TEST(law_6_3_1_second_period_after_the_40th_move)
{
    uint64_t t = 0;
    tb_clock c = start_clock("40/120m+30s, 30m+30s", t);
    struct rng r = {2024};
    uint64_t left[2] = {M(120), M(120)};
    for (int ply = 0; ply < 2 * 50; ply++) {
        int side = ply % 2, move = ply / 2 + 1;
        uint64_t think = rnd(&r, S(20), S(200));
        t += think;
        ASSERT_OK(tb_clock_press(&c, side, t));
        left[side] = left[side] - think + S(30);
        struct tb_clock_event ev;
        if (move == 40) {
            left[side] += M(30);
            ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
            ASSERT_EQ(ev.kind, TB_CLOCK_EV_PERIOD);
            ASSERT_EQ(ev.side, side);
            ASSERT_EQ(ev.period, 1);
            ASSERT_EQ(ev.moves, 40);
            ASSERT_U64_EQ(ev.at_ms, t);
        }
        ASSERT_FALSE(tb_clock_event_pop(&c, &ev));
        ASSERT_EQ(c.side[side].period, move >= 40 ? 1 : 0);
        ASSERT_U64_EQ(tb_clock_remaining(&c, side, t), left[side]);
        ASSERT_U64_EQ(tb_clock_remaining(&c, side ^ 1, t), left[side ^ 1]);
    }
}

/* A last period with a move count repeats (40/120m, then 20/60m, 20/60m ...). */
TB_TEST(law_6_3_1_last_period_with_moves_repeats)
{
    uint64_t t = 0;
    tb_clock c = start_clock("40/120m, 20/60m", t);
    uint64_t left = M(120);
    for (int move = 1; move <= 100; move++) {
        ASSERT_OK(tb_clock_press(&c, W, t += S(50)));
        left -= S(50);
        if (move == 40 || move == 60 || move == 80 || move == 100)
            left += M(60);
        ASSERT_U64_EQ(tb_clock_remaining(&c, W, t), left);
        ASSERT_OK(tb_clock_press(&c, B, t += S(1)));
    }
    ASSERT_EQ(c.side[W].period, 1);
    ASSERT_EQ(c.side[W].moves, 100);
}

/* 6.3.2: non-cumulative (delay): the base time runs only after the delay; a press within the
 * delay leaves the base time as it was. */
TB_TEST(law_6_3_2_delay_base_time_runs_after_the_delay)
{
    tb_clock c = start_clock("25m d5s", 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(4)), M(25));
    ASSERT_OK(tb_clock_press(&c, W, S(3))); /* within the delay: unchanged */
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(3)), M(25));
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, S(3) + S(7)), M(25) - S(2));
    ASSERT_OK(tb_clock_press(&c, B, S(3) + S(8))); /* 8 s: 3 s from the base time */
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, S(11)), M(25) - S(3));
    /* The flag falls when the base time is gone after the delay. */
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), S(11) + S(5) + M(25));
    /* A pause keeps the part of the delay already used. */
    ASSERT_OK(tb_clock_pause(&c, S(11) + S(4)));
    ASSERT_OK(tb_clock_resume(&c, S(100)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(102)), M(25) - S(1));
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), S(100) + S(1) + M(25));
    /* With less time than the delay the flag still waits for the delay first. */
    ASSERT_OK(tb_clock_pause(&c, S(102)));
    ASSERT_OK(tb_clock_set(&c, W, S(2), 1, S(102)));
    ASSERT_OK(tb_clock_resume(&c, S(110)));
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), S(110) + S(5) + S(2));
    ASSERT_EQ(tb_clock_update(&c, S(117) - 1), 0);
    ASSERT_EQ(tb_clock_update(&c, S(117)), 1);
}

/* Bronstein: the clock runs at once and the time used, up to the delay, comes back at the
 * press. The same times after a press as the delay; the flag when the display reaches 0. */
TB_TEST(law_6_3_2_bronstein_gives_back_time_used_up_to_the_delay)
{
    tb_clock c = start_clock("25m b5s", 0);
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(3)), M(25) - S(3));
    ASSERT_OK(tb_clock_press(&c, W, S(3)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, S(3)), M(25));
    ASSERT_OK(tb_clock_press(&c, B, S(11)));
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, S(11)), M(25) - S(3));
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), S(11) + M(25));
    ASSERT_OK(tb_clock_pause(&c, S(12)));
    ASSERT_OK(tb_clock_set(&c, W, S(2), 1, S(12)));
    ASSERT_OK(tb_clock_resume(&c, S(20)));
    ASSERT_U64_EQ(tb_clock_flag_deadline(&c), S(22));
}

/* Guideline III.3.1 speaks of both flags down and no way to tell which fell first. This clock
 * always knows: the first is marked, the second is reported but does not count. */
TB_TEST(law_6_9_both_flags_the_first_one_counts)
{
    tb_clock c = start_clock("1m", 0);
    ASSERT_EQ(tb_clock_update(&c, M(1)), 1);
    ASSERT_OK(tb_clock_press(&c, W, M(1) + S(2))); /* White finishes the move anyway */
    ASSERT_EQ(tb_clock_update(&c, M(3)), 2);
    struct tb_clock_event ev[4];
    ASSERT_EQ(pop_all(&c, ev, 4), 2);
    ASSERT_EQ(ev[0].side, W);
    ASSERT_TRUE(ev[0].first);
    ASSERT_U64_EQ(ev[0].at_ms, M(1));
    ASSERT_EQ(ev[1].kind, TB_CLOCK_EV_FLAG);
    ASSERT_EQ(ev[1].side, B);
    ASSERT_FALSE(ev[1].first);
    ASSERT_U64_EQ(ev[1].at_ms, M(2) + S(2));
    /* The arbiter gives White time again (6.10.1: a defective clock): its flag is lifted. */
    ASSERT_OK(tb_clock_pause(&c, M(3)));
    ASSERT_OK(tb_clock_set(&c, W, M(1), 1, M(3)));
    ASSERT_FALSE(c.side[W].flagged);
    ASSERT_TRUE(c.side[B].flagged);
    ASSERT_U64_EQ(tb_clock_remaining(&c, W, M(3)), M(1));
    ASSERT_U64_EQ(tb_clock_remaining(&c, B, M(3)), 0);
}

/* Warnings for the talking clock: once each, at the exact time, per side. */
TB_TEST(warnings_fire_once_when_the_threshold_is_reached)
{
    tb_clock c = start_clock("7m+2s", 0);
    const uint64_t w[] = {M(1), M(5), M(1), M(9)}; /* 9 min is above the start: never armed */
    ASSERT_OK(tb_clock_set_warnings(&c, W, w, 4));
    ASSERT_EQ(c.side[W].nwarn, 3);
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), M(2));
    ASSERT_EQ(tb_clock_update(&c, M(2) - 1), 0);
    ASSERT_EQ(tb_clock_update(&c, M(2) + 10), 1);
    struct tb_clock_event ev[8];
    ASSERT_EQ(pop_all(&c, ev, 8), 1);
    ASSERT_EQ(ev[0].kind, TB_CLOCK_EV_WARN);
    ASSERT_U64_EQ(ev[0].threshold, M(5));
    ASSERT_U64_EQ(ev[0].at_ms, M(2));
    /* The increment lifts White above 5 minutes again: no second warning at 5. */
    ASSERT_OK(tb_clock_press(&c, W, M(2) + 10));
    ASSERT_OK(tb_clock_press(&c, B, M(3)));
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), M(3) + tb_clock_remaining(&c, W, M(3)) - M(1));
    /* Black set no warnings: Black's clock gives none. */
    ASSERT_OK(tb_clock_press(&c, W, M(3) + S(1)));
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), tb_clock_flag_deadline(&c));
    ASSERT_OK(tb_clock_press(&c, B, M(7)));
    uint64_t left = tb_clock_remaining(&c, W, M(7));
    ASSERT_EQ(tb_clock_update(&c, M(7) + left), 2); /* the 1-minute warning, then the flag */
    ASSERT_EQ(pop_all(&c, ev, 8), 2);
    ASSERT_EQ(ev[0].kind, TB_CLOCK_EV_WARN);
    ASSERT_U64_EQ(ev[0].threshold, M(1));
    ASSERT_U64_EQ(ev[0].at_ms, M(7) + left - M(1));
    ASSERT_EQ(ev[1].kind, TB_CLOCK_EV_FLAG);
    ASSERT_U64_EQ(ev[1].at_ms, M(7) + left);
    /* The arbiter's new time arms the warnings below it again. */
    uint64_t tf = M(7) + left;
    ASSERT_OK(tb_clock_pause(&c, tf));
    ASSERT_OK(tb_clock_set(&c, W, M(3), 3, tf));
    ASSERT_FALSE(c.side[W].flagged);
    ASSERT_OK(tb_clock_resume(&c, tf));
    ASSERT_EQ(tb_clock_update(&c, tf + M(2)), 1);
    ASSERT_EQ(pop_all(&c, ev, 8), 1);
    ASSERT_U64_EQ(ev[0].threshold, M(1));
    ASSERT_U64_EQ(ev[0].at_ms, tf + M(2));
    /* Bad lists change nothing. */
    const uint64_t zero[] = {M(1), 0};
    ASSERT_EQ(tb_clock_set_warnings(&c, B, zero, 2), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_set_warnings(&c, B, w, TB_CLOCK_MAX_WARN + 1), TB_ERR_ARG);
    ASSERT_EQ(c.side[B].nwarn, 0);
}

/* Warnings under a delay are reached after the delay, and a new period arms them again. */
TB_TEST(warnings_follow_delay_and_periods)
{
    tb_clock d = start_clock("6m d5s", 0);
    const uint64_t five = M(5);
    ASSERT_OK(tb_clock_set_warnings(&d, W, &five, 1));
    ASSERT_U64_EQ(tb_clock_next_deadline(&d), M(1) + S(5));
    tb_clock c = start_clock("2/6m, 10m", 0);
    ASSERT_OK(tb_clock_set_warnings(&c, W, &five, 1));
    ASSERT_OK(tb_clock_press(&c, W, M(2))); /* warned at 1 min */
    ASSERT_OK(tb_clock_press(&c, B, M(2)));
    ASSERT_OK(tb_clock_press(&c, W, M(2) + S(30))); /* second move: 10 minutes more */
    struct tb_clock_event ev[4];
    ASSERT_EQ(pop_all(&c, ev, 4), 2);
    ASSERT_EQ(ev[0].kind, TB_CLOCK_EV_WARN);
    ASSERT_U64_EQ(ev[0].at_ms, M(1));
    ASSERT_EQ(ev[1].kind, TB_CLOCK_EV_PERIOD);
    ASSERT_OK(tb_clock_press(&c, B, M(3)));
    ASSERT_U64_EQ(tb_clock_next_deadline(&c), M(3) + M(13) + S(30) - M(5));
}

/* D.2.6.1: the time and the number of moves, on request; D.2.10.4: moves made and time used
 * by both players. The data the voice packs phrase. */
TB_TEST(law_D_2_6_talking_clock_report)
{
    tb_clock c = start_clock("club", 0);
    ASSERT_OK(tb_clock_press(&c, W, S(75)));   /* 1:28:45 + 15 s */
    ASSERT_OK(tb_clock_press(&c, B, S(3675))); /* Black takes an hour */
    struct tb_clock_report r;
    ASSERT_OK(tb_clock_report(&c, B, S(3675) + 9500, &r));
    ASSERT_EQ(r.state, TB_CLOCK_RUNNING);
    /* Black asked: Black's own clock first. */
    ASSERT_EQ(r.own.left.hours, 0);
    ASSERT_EQ(r.own.left.minutes, 30);
    ASSERT_EQ(r.own.left.seconds, 15);
    ASSERT_EQ(r.own.moves, 1);
    ASSERT_FALSE(r.own.running);
    ASSERT_EQ(r.own.used.hours, 1);
    ASSERT_EQ(r.own.used.minutes, 0);
    ASSERT_EQ(r.opponent.left.hours, 1);
    ASSERT_EQ(r.opponent.left.minutes, 28);
    ASSERT_EQ(r.opponent.left.seconds, 50); /* 1:29:00.0 - 9.5 s, rounded down */
    ASSERT_U64_EQ(r.opponent.left_ms, M(89) - 9500);
    ASSERT_EQ(r.opponent.moves, 1);
    ASSERT_TRUE(r.opponent.running);
    ASSERT_U64_EQ(r.opponent.used_ms, S(75) + 9500);
    ASSERT_EQ(tb_clock_report(&c, 2, 0, &r), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_report(&c, W, 0, NULL), TB_ERR_ARG);
}

/* A caller that never takes its events loses the oldest, counted; flags stay in the state. */
TB_TEST(event_queue_overflow_is_counted)
{
    tb_clock c = start_clock("1/1m, 1/1m", 0);
    for (int i = 0; i < 40; i++) {
        ASSERT_OK(tb_clock_press(&c, W, (uint64_t)(2 * i + 1) * 1000));
        ASSERT_OK(tb_clock_press(&c, B, (uint64_t)(2 * i + 2) * 1000));
    }
    ASSERT_EQ(c.ev_count, TB_CLOCK_EVENT_QUEUE);
    ASSERT_EQ(c.ev_lost, 80 - TB_CLOCK_EVENT_QUEUE);
    struct tb_clock_event ev;
    ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
    ASSERT_EQ(ev.kind, TB_CLOCK_EV_PERIOD);
    ASSERT_EQ(ev.moves, 25); /* the 48 oldest are gone */
}

/* Times past the clock's range are refused like times going back. */
TB_TEST(times_out_of_range_change_nothing)
{
    tb_clock c = start_clock("7m", 5);
    tb_clock before = c;
    ASSERT_EQ(tb_clock_update(&c, TB_CLOCK_MAX_TIME_MS), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_press(&c, W, UINT64_MAX), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_pause(&c, 4), TB_ERR_ARG);
    ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    ASSERT_EQ(tb_clock_update(&c, TB_CLOCK_MAX_TIME_MS - 1), 1); /* the flag, long ago */
    struct tb_clock_event ev;
    ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
    ASSERT_U64_EQ(ev.at_ms, 5 + M(7));
}

/* Generated games: random controls (increment, delay, Bronstein; one to three periods), random
 * thinking times, and pauses in the middle of moves, against a model that works move by move:
 * what each move costs, what it earns, when the flag would fall. */
struct model_side {
    uint64_t left;
    int period;
    uint32_t in_period;
};

static uint64_t model_available(const struct tb_clock_period *p, uint64_t left)
{
    return p->bonus == TB_CLOCK_DELAY ? left + p->bonus_ms : left; /* move time until the flag */
}

static void model_press(const struct tb_clock_control *ctl, struct model_side *m, uint64_t think)
{
    const struct tb_clock_period *p = &ctl->periods[m->period];
    if (p->bonus == TB_CLOCK_DELAY)
        m->left -= think > p->bonus_ms ? think - p->bonus_ms : 0;
    else
        m->left -= think;
    if (p->bonus == TB_CLOCK_FISCHER)
        m->left += p->bonus_ms;
    if (p->bonus == TB_CLOCK_BRONSTEIN)
        m->left += think < p->bonus_ms ? think : p->bonus_ms;
    if (p->moves && ++m->in_period == p->moves) {
        m->in_period = 0;
        if (m->period + 1 < ctl->nperiods)
            m->period++;
        m->left += ctl->periods[m->period].time_ms;
    }
}

TB_TEST(law_6_3_generated_games_match_a_move_by_move_model)
{
    static const char *const controls[] = {
        "3m+2s",
        "5m d3s",
        "4m b5s",
        "10/2m+1s, 1m+1s",
        "5/1m d2s, 2m d2s",
        "3/30s, 2/20s b2s",
        "1m",
        "8/3m, 4/1m, 1m+5s",
        "90m+15s",
        "40/120m+30s, 30m+30s",
    };
    struct rng r = {0xC10C};
    long plies = 0, pauses = 0, flags_in_pause = 0;
    for (int game = 0; game < 200; game++) {
        const char *text = controls[game % (int)(sizeof controls / sizeof controls[0])];
        struct tb_clock_control ctl;
        ASSERT_OK(tb_clock_control_parse(&ctl, text, NULL));
        uint64_t t = rnd(&r, 0, S(1000));
        tb_clock c;
        ASSERT_OK(tb_clock_init(&c, &ctl, NULL));
        ASSERT_OK(tb_clock_start(&c, W, t));
        struct model_side m[2] = {{ctl.periods[0].time_ms, 0, 0}, {ctl.periods[0].time_ms, 0, 0}};
        uint64_t scale = ctl.periods[0].time_ms / 20 + 1;
        for (int ply = 0;; ply++) {
            int side = ply % 2;
            const struct tb_clock_period *p = &ctl.periods[m[side].period];
            uint64_t avail = model_available(p, m[side].left);
            uint64_t think = rnd(&r, 0, scale + (uint64_t)ply * scale / 8); /* time trouble */
            /* A pause somewhere in the move: time stands still for the clock. */
            uint64_t split = rnd(&r, 0, think), pause = rnd(&r, 0, 3) ? 0 : rnd(&r, 1, S(600));
            if (think >= avail) {
                /* This move oversteps: the flag falls when its time is used up. */
                uint64_t flag_at = t + avail + (split < avail ? pause : 0);
                if (pause && split < avail) {
                    flags_in_pause++;
                    ASSERT_OK(tb_clock_pause(&c, t + split));
                    ASSERT_OK(tb_clock_resume(&c, t + split + pause));
                }
                ASSERT_U64_EQ(tb_clock_flag_deadline(&c), flag_at);
                ASSERT_EQ(tb_clock_update(&c, flag_at - 1), 0);
                ASSERT_EQ(tb_clock_update(&c, flag_at), 1);
                struct tb_clock_event ev;
                ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
                ASSERT_EQ(ev.kind, TB_CLOCK_EV_FLAG);
                ASSERT_EQ(ev.side, side);
                ASSERT_U64_EQ(ev.at_ms, flag_at);
                ASSERT_EQ(ev.moves, ply / 2);
                break;
            }
            plies++;
            if (pause) {
                pauses++;
                ASSERT_OK(tb_clock_pause(&c, t + split));
                ASSERT_U64_EQ(tb_clock_remaining(&c, side, t + split + pause),
                              tb_clock_remaining(&c, side, t + split));
                ASSERT_OK(tb_clock_resume(&c, t + split + pause));
            }
            t += think + pause;
            ASSERT_OK(tb_clock_press(&c, side, t));
            model_press(&ctl, &m[side], think);
            struct tb_clock_event ev;
            while (tb_clock_event_pop(&c, &ev))
                ASSERT_EQ(ev.kind, TB_CLOCK_EV_PERIOD);
            for (int s = 0; s < 2; s++) {
                if (tb_clock_remaining(&c, s, t) != m[s].left)
                    TB_FAIL("%s, game %d, ply %d: side %d has %llu ms, the model %llu", text, game,
                            ply, s, (unsigned long long)tb_clock_remaining(&c, s, t),
                            (unsigned long long)m[s].left);
                ASSERT_EQ(c.side[s].period, m[s].period);
            }
        }
    }
    ASSERT_GT(plies, 5000); /* the games were long enough to cross periods */
    ASSERT_GT(pauses, 1000);
    ASSERT_GT(flags_in_pause, 10);
}
