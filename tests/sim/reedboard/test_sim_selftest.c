/* The firmware's self-test in simavr: the real ELF on the modelled board with faults wired in
 * (rb_sim_set_faults), the tester's pieces and CLOCK presses scheduled, the findings decoded from
 * the UART. A healthy board passes all 64 squares; each fault (a stuck switch, an open diode,
 * joined rank lines, swapped rank lines) is found and named. */
#include "rb_sim.h"
#include "tb_test.h"

#define MAXF        160
#define DEBOUNCE_MS 5u /* the host may shorten the window; the walk then runs quickly */
#define COVER_MS    12.0

struct run {
    struct rb_sim *sim;
    uint8_t what[MAXF];
    uint16_t detail[MAXF];
    int n;
    int squares;  /* SQUARE events: the squares as covered and uncovered */
    double at_ms; /* the tester's clock */
};

static void on_frame(void *ctx, const struct rb_sim_frame *f)
{
    struct run *r = ctx;
    const struct rb_proto_msg *m = &f->msg;
    if (m->type == RB_PROTO_SQUARE)
        r->squares++;
    if (m->type == RB_PROTO_FAULT && m->u.fault.code == RB_PROTO_FAULT_SELF_TEST && r->n < MAXF) {
        r->what[r->n] = m->u.fault.arg;
        r->detail[r->n] = m->u.fault.detail;
        r->n++;
    }
}

static void run_to(struct run *r, double ms)
{
    struct tb_error err = {0};
    if (rb_sim_run_until(r->sim, rb_sim_ms_to_cycles(r->sim, ms), &err))
        TB_FAIL("simulation stopped at %.0f ms: %s", ms, err.msg);
    r->at_ms = ms;
}

/* The firmware on a board with these faults, the host starting the self-test. */
static void start(struct run *r, const struct rb_sim_faults *faults)
{
    struct rb_sim_config cfg = {.elf = RB_FIRMWARE_ELF_PATH, .seed = 1};
    struct tb_error err = {0};
    *r = (struct run){0};
    if (rb_sim_new(&cfg, &r->sim, &err))
        TB_FAIL("rb_sim_new: %s", err.msg);
    struct rb_sim_handlers h = {.frame = on_frame, .ctx = r};
    rb_sim_set_handlers(r->sim, &h);
    rb_sim_set_faults(r->sim, faults);
    run_to(r, 50);
    struct rb_proto_msg m = {
        .type = RB_PROTO_SET_OPTIONS,
        .u.options = {DEBOUNCE_MS, 0, RB_PROTO_EV_ALL | RB_PROTO_OPT_SELF_TEST}};
    ASSERT_OK(rb_sim_request(r->sim, &m));
    run_to(r, 150);
}

static void cover(struct run *r, int sq)
{
    ASSERT_OK(rb_sim_square_at(r->sim, rb_sim_ms_to_cycles(r->sim, r->at_ms), sq, true, 0));
    ASSERT_OK(
        rb_sim_square_at(r->sim, rb_sim_ms_to_cycles(r->sim, r->at_ms + COVER_MS), sq, false, 0));
    run_to(r, r->at_ms + 2 * COVER_MS);
}

static void skip(struct run *r)
{
    uint64_t now = rb_sim_ms_to_cycles(r->sim, r->at_ms);
    ASSERT_OK(rb_sim_button_at(r->sim, now, RB_PROTO_BTN_CLOCK, true, 0));
    ASSERT_OK(rb_sim_button_at(r->sim, now + rb_sim_ms_to_cycles(r->sim, 40), RB_PROTO_BTN_CLOCK,
                               false, 0));
    run_to(r, r->at_ms + 80);
}

static int count(const struct run *r, uint8_t what)
{
    int c = 0;
    for (int i = 0; i < r->n; i++)
        c += r->what[i] == what;
    return c;
}

static uint16_t detail(const struct run *r, uint8_t what)
{
    for (int i = 0; i < r->n; i++)
        if (r->what[i] == what)
            return r->detail[i];
    TB_FAIL("no finding %u among the %d the board sent", what, r->n);
}

TB_TEST(healthy_board_passes_all_64_squares)
{
    struct run r;
    start(&r, &(struct rb_sim_faults){0});
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_STARTED), 0);
    for (int sq = 0; sq < 64; sq++)
        cover(&r, sq);
    ASSERT_EQ(count(&r, RB_PROTO_TEST_OK), 64);
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_DONE), 64);
    ASSERT_EQ(r.n, 66); /* STARTED, 64 OK, DONE: no fault named */
    ASSERT_EQ(r.squares, 128);
    rb_sim_free(r.sim);
}

TB_TEST(stuck_switch_is_found_with_the_board_cleared)
{
    struct run r;
    start(&r, &(struct rb_sim_faults){.stuck = 1ull << 19}); /* d3 welded shut */
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_STUCK), 19);
    ASSERT_EQ(count(&r, RB_PROTO_TEST_STUCK), 1);
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_STARTED), 1);
    rb_sim_free(r.sim);
}

TB_TEST(dead_diode_is_found_as_a_square_that_never_closes)
{
    struct run r;
    start(&r, &(struct rb_sim_faults){.dead = 1ull << 2}); /* c1's diode open */
    cover(&r, 0);
    cover(&r, 1);
    cover(&r, 2); /* nothing: the walk still waits for c1 */
    ASSERT_EQ(count(&r, RB_PROTO_TEST_OK), 2);
    skip(&r);
    cover(&r, 3);
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_NEVER_CLOSED), 2);
    ASSERT_EQ(count(&r, RB_PROTO_TEST_OK), 3); /* the walk went on at d1 */
    rb_sim_free(r.sim);
}

TB_TEST(bridged_rank_lines_are_found)
{
    struct run r;
    start(&r, &(struct rb_sim_faults){.rows_bridged = 0x03}); /* ranks 1 and 2 joined */
    cover(&r, 0);                                             /* a1 reads as a1 and a2 */
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_ROWS_BRIDGED), 0x03);
    ASSERT_EQ(count(&r, RB_PROTO_TEST_OK), 0);
    rb_sim_free(r.sim);
}

TB_TEST(crossed_rank_lines_are_found_as_a_wrong_square)
{
    struct run r;
    start(&r, &(struct rb_sim_faults){.rows_crossed = 0x03}); /* ranks 1 and 2 swapped */
    cover(&r, 0); /* a1 arrives on rank 2's pin: a2 is read */
    ASSERT_EQ(detail(&r, RB_PROTO_TEST_WRONG_SQUARE), 0 << 8 | 8);
    ASSERT_EQ(count(&r, RB_PROTO_TEST_OK), 0);
    rb_sim_free(r.sim);
}
