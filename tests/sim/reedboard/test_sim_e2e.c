/* End to end: the real firmware ELF under simavr (rb_sim), driven on its modelled board, its
 * UART decoded with the shared codec. A whole game from the shared PGN data is turned into an
 * event script; what the board reports must be exactly what the hands did. */
#include "sim_common.h"

/* twic0920.pgn game 8 (Vitiugov - Prizant, 99 plies): castling and an en passant capture. */
#define GAME_FILE   "twic0920.pgn"
#define GAME_NUMBER 8

static void check_game_events(struct sim_run *r, const struct script *s)
{
    /* every change reported once, in order, with the right square and kind */
    ASSERT_EQ(r->nevents, s->n);
    for (size_t i = 0; i < s->n; i++) {
        const struct sim_event *e = &r->events[i];
        if (e->square != s->acts[i].square || e->placed != s->acts[i].placed)
            TB_FAIL("event %zu: board said %s %c%c, the script did %s %c%c at %.0f ms", i,
                    e->placed ? "place" : "lift", 'a' + e->square % 8, '1' + e->square / 8,
                    s->acts[i].placed ? "place" : "lift", 'a' + s->acts[i].square % 8,
                    '1' + s->acts[i].square / 8, s->acts[i].ms);
        /* board time of the event: after the debounce window from the moment the contact was
         * stable (the script's time plus any bounce), within one scan period of it */
        ASSERT_GT(e->stable_cycle, 0);
        double late = (double)e->board_ms - rb_sim_cycles_to_ms(r->sim, e->stable_cycle);
        ASSERT_GE(late, 0);
        ASSERT_LE(late, r->info.debounce_ms + r->info.scan_period_us / 1000.0 + 1.0);
    }
    /* sequence numbers have no gaps: nothing was lost */
    for (size_t i = 1; i < r->nevents; i++)
        ASSERT_EQ(rb_proto_seq_gap(r->events[i - 1].seq, r->events[i].seq), 1);
}

TB_TEST(whole_game_events_match_the_script)
{
    struct script s;
    game_script(GAME_FILE, GAME_NUMBER, 0, &s);
    ASSERT_GT(s.n, 200);
    struct sim_run *r = sim_run_script(&s, 0, 1);
    check_game_events(r, &s);
    ASSERT_U64_EQ(r->final_snapshot, rb_sim_occupancy(r->sim));
    ASSERT_U64_EQ(r->final_snapshot, s.final_occupancy);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(whole_game_with_5ms_bounce_reports_each_change_once)
{
    struct script s;
    game_script(GAME_FILE, GAME_NUMBER, 0, &s);
    struct sim_run *r = sim_run_script(&s, 5.0, 7);
    /* the model really chattered: more contact toggles than changes */
    ASSERT_GT(r->toggles, s.n);
    check_game_events(r, &s);
    ASSERT_U64_EQ(r->final_snapshot, s.final_occupancy);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(latency_from_stable_change_to_first_byte_is_within_debounce_plus_2ms)
{
    /* The done-when: a stable switch change reaches the UART within debounce + 2 ms. */
    struct script s;
    game_script(GAME_FILE, GAME_NUMBER, 0, &s);
    for (int bounce = 0; bounce <= 5; bounce += 5) {
        struct sim_run *r = sim_run_script(&s, bounce, 11);
        ASSERT_EQ(r->nevents, s.n);
        double limit_ms = r->info.debounce_ms + 2.0;
        uint64_t limit = rb_sim_ms_to_cycles(r->sim, limit_ms);
        for (size_t i = 0; i < r->nevents; i++) {
            const struct sim_event *e = &r->events[i];
            ASSERT_TRUE(e->first_cycle > e->stable_cycle);
            uint64_t lat = e->first_cycle - e->stable_cycle;
            if (lat > limit)
                TB_FAIL("event %zu (%c%c): %llu cycles = %.3f ms from stable change to first byte, "
                        "limit %.1f ms",
                        i, 'a' + e->square % 8, '1' + e->square / 8, (unsigned long long)lat,
                        rb_sim_cycles_to_ms(r->sim, lat), limit_ms);
        }
        sim_run_free(r);
    }
    script_free(&s);
}

TB_TEST(burst_of_20_changes_within_50ms_loses_none)
{
    /* 16 pieces off ranks 1-2 and 4 onto rank 4, one every 2.5 ms, from the start position */
    struct script s = {0};
    script_init_start(&s);
    for (int i = 0; i < 20; i++) {
        int sq = i < 16 ? i : 24 + (i - 16);
        script_add(&s, 1000.0 + 2.5 * i, sq, i >= 16);
    }
    ASSERT_LE(s.acts[19].ms - s.acts[0].ms, 50.0);
    struct sim_run *r = sim_run_script(&s, 0, 3);
    ASSERT_EQ(r->nevents, 20);
    for (int i = 0; i < 20; i++) {
        ASSERT_EQ(r->events[i].square, s.acts[i].square);
        ASSERT_EQ(r->events[i].placed, s.acts[i].placed);
    }
    ASSERT_U64_EQ(r->final_snapshot, s.final_occupancy);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(snapshots_agree_with_the_modelled_occupancy)
{
    struct script s;
    game_script(GAME_FILE, GAME_NUMBER, 60, &s);
    struct sim_run *r = sim_run_with_snapshots(&s);
    /* one requested snapshot per quiet moment between moves, each equal to the model then */
    ASSERT_GE(r->nchecks, 50);
    for (size_t i = 0; i < r->nchecks; i++)
        if (r->checks[i].snapshot != r->checks[i].model)
            TB_FAIL("snapshot %zu at %.1f ms: board %016llx, model %016llx", i, r->checks[i].ms,
                    (unsigned long long)r->checks[i].snapshot,
                    (unsigned long long)r->checks[i].model);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(board_is_silent_until_asked)
{
    struct script s = {0};
    script_init_start(&s);
    script_add(&s, 300, 12, 0);
    script_add(&s, 600, 28, 1);
    struct sim_run *r = sim_run_silent(&s, 2000);
    ASSERT_EQ(r->tx_bytes, 0);
    /* asked, it answers */
    sim_request(r, RB_PROTO_GET_INFO);
    sim_run_ms(r, 2100);
    ASSERT_GT(r->tx_bytes, 0);
    ASSERT_EQ(r->ninfo, 1);
    ASSERT_EQ(r->info.proto_version, RB_PROTO_VERSION);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(ping_is_echoed_with_its_token)
{
    struct script s = {0};
    script_init_start(&s);
    struct sim_run *r = sim_run_silent(&s, 100);
    struct rb_proto_msg ping = {.type = RB_PROTO_PING, .u.ping_token = 0xDEADBEEFu};
    ASSERT_OK(rb_sim_request(r->sim, &ping));
    sim_run_ms(r, 130);
    ASSERT_EQ(r->npong, 1);
    ASSERT_U64_EQ(r->pong.token, 0xDEADBEEFu);
    /* the board's clock agrees with simulated time */
    ASSERT_GE(r->pong.ms, 100);
    ASSERT_LE(r->pong.ms, 130);
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(buttons_wired_from_the_netlist_report_press_and_release)
{
    struct script s = {0};
    script_init_start(&s);
    struct sim_run *r = sim_run_silent(&s, 100);
    sim_request(r, RB_PROTO_GET_INFO);
    for (int b = 0; b < 4; b++) {
        ASSERT_OK(rb_sim_button_at(r->sim, rb_sim_ms_to_cycles(r->sim, 200 + 300 * b), b, 1, 2));
        ASSERT_OK(rb_sim_button_at(r->sim, rb_sim_ms_to_cycles(r->sim, 350 + 300 * b), b, 0, 2));
    }
    sim_run_ms(r, 1600);
    ASSERT_EQ(r->nbuttons, 8);
    for (int i = 0; i < 8; i++) {
        ASSERT_EQ(r->buttons[i].button, i / 2);
        ASSERT_EQ(r->buttons[i].down, i % 2 == 0);
    }
    sim_run_free(r);
    script_free(&s);
}

TB_TEST(bad_script_line_is_named_by_file_and_line_and_schedules_nothing)
{
    struct rb_sim *sim = NULL;
    struct rb_sim_config cfg = {.elf = RB_FIRMWARE_ELF_PATH};
    struct tb_error err = {0};
    ASSERT_OK(rb_sim_new(&cfg, &sim, &err));
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"100 vi lift e2\n200 vi lift e9\n", "game.txt:2: "},
        {"100 vi lift e2\n50 vi place e4\n", "game.txt:2: "},
        {"# ok\n\n100 vi press 7\n", "game.txt:3: unknown button"},
        {"100 vi juggle e2\n", "game.txt:1: "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rb_sim_script_result res = {0};
        ASSERT_EQ(rb_sim_schedule_script(sim, bad[i].text, strlen(bad[i].text), "game.txt", NULL, 0,
                                         0, &res, &err),
                  TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(err.msg, bad[i].msg);
        ASSERT_EQ(rb_sim_scheduled(sim), 0);
    }
    /* choose lines are counted, other boards skipped */
    const char *ok = "100 vi lift e7\n200 vi place e8\n300 vi choose n\n400 sighted lift a2\n";
    struct rb_sim_script_result res = {0};
    ASSERT_OK(rb_sim_schedule_script(sim, ok, strlen(ok), "ok.txt", "vi", 0, 0, &res, &err));
    ASSERT_EQ(res.actions, 2);
    ASSERT_EQ(res.ignored, 1);
    ASSERT_EQ(res.skipped, 1);
    rb_sim_free(sim);
}

TB_TEST(missing_elf_and_bad_occupancy_are_reported)
{
    struct rb_sim *sim = NULL;
    struct rb_sim_config cfg = {.elf = "/nonexistent/reedboard.elf"};
    struct tb_error err = {0};
    ASSERT_EQ(rb_sim_new(&cfg, &sim, &err), TB_ERR_NOTFOUND);
    ASSERT_NULL(sim);
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent/reedboard.elf: cannot open the firmware ELF");
    cfg = (struct rb_sim_config){.elf = RB_FIRMWARE_ELF_PATH, .netlist = "/nonexistent/net.txt"};
    ASSERT_EQ(rb_sim_new(&cfg, &sim, &err), TB_ERR_SYS);
    ASSERT_NULL(sim);
    uint64_t occ = 0;
    ASSERT_OK(rb_sim_occupancy_parse("start", &occ, &err));
    ASSERT_U64_EQ(occ, 0xFFFF00000000FFFFull);
    ASSERT_OK(
        rb_sim_occupancy_parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b", &occ, &err));
    ASSERT_U64_EQ(occ, 0xFFFF00001000EFFFull);
    ASSERT_EQ(rb_sim_occupancy_parse("8/8/8/9/8/8/8/8", &occ, &err), TB_ERR_PARSE);
    ASSERT_EQ(rb_sim_occupancy_parse("8/8/8/8/8/8/8", &occ, &err), TB_ERR_PARSE);
    ASSERT_EQ(rb_sim_occupancy_parse("8/8/8/8/8/8/8/7x", &occ, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "unexpected 'x'");
    ASSERT_EQ(rb_sim_button_parse("Arbiter"), RB_PROTO_BTN_ARBITER);
    ASSERT_EQ(rb_sim_button_parse("1"), RB_PROTO_BTN_PROMOTE);
    ASSERT_EQ(rb_sim_button_parse("5"), -1);
}

TB_TEST(simulator_is_wired_from_the_netlist)
{
    /* Swap the decoder outputs of files g and h in a copy of the netlist: the firmware still
     * believes Y6 is file g, so a piece placed on g3 must now be reported on h3. */
    char path[1024];
    snprintf(path, sizeof path, "%s/swapped.txt", tb_test_tmp_dir());
    FILE *in = fopen(RB_SOURCE_DIR "/hardware/netlist.txt", "r"), *out = fopen(path, "w");
    ASSERT_NOT_NULL(in);
    ASSERT_NOT_NULL(out);
    char line[1024];
    int swapped = 0;
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "net COL_g U2.Y6 ", 16) == 0 ||
            strncmp(line, "net COL_h U2.Y7 ", 16) == 0) {
            line[14] = line[14] == '6' ? '7' : '6';
            swapped++;
        }
        fputs(line, out);
    }
    fclose(in);
    fclose(out);
    ASSERT_EQ(swapped, 2);
    struct rb_sim_config cfg = {.elf = RB_FIRMWARE_ELF_PATH, .netlist = path};
    struct sim_run *r = sim_run_new(&cfg, 0);
    sim_run_ms(r, 100);
    sim_request(r, RB_PROTO_GET_SNAPSHOT);
    ASSERT_OK(rb_sim_square_at(r->sim, rb_sim_ms_to_cycles(r->sim, 300), 2 * 8 + 6, 1, 0)); /* g3 */
    ASSERT_OK(rb_sim_square_at(r->sim, rb_sim_ms_to_cycles(r->sim, 500), 4 * 8 + 0, 1, 0)); /* a5 */
    sim_run_ms(r, 700);
    ASSERT_EQ(r->nevents, 2);
    ASSERT_EQ(r->events[0].square, 2 * 8 + 7); /* h3 */
    ASSERT_EQ(r->events[1].square, 4 * 8 + 0); /* a5: the other files are unchanged */
    sim_run_free(r);
}
