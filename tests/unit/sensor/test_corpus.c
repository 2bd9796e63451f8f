/* Every game of the corpus, turned into event scripts with random lawful handling (three seeds,
 * fly-over blips, hesitations), must be recognised exactly: every move in order, no problem. */
#include <stdio.h>

#include "corpus.h"
#include "tb_test.h"

/* Runs a file's games and fails on the first misrecognised one. */
static void run_opts(const char *file, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                     const struct corpus_opts *opt, struct corpus_stats *st)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    corpus_run_file(path, seed, cfg, opt, st);
    if (st->failures)
        TB_FAIL("%ld failures in %ld games; first: %s", st->failures, st->games, st->first_failure);
    ASSERT_LE(st->max_latency_ms, cfg->blip_ms + 1);
    fprintf(stderr, "%s seed %llu: %ld games, %ld plies, %ld events\n", file,
            (unsigned long long)seed, st->games, st->plies, st->events);
}

static void run_with(const char *file, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                     long max_games, struct corpus_stats *st)
{
    struct corpus_opts opt = {.max_games = max_games};
    run_opts(file, seed, cfg, &opt, st);
}

static void run(const char *file, uint64_t seed, bool blips)
{
    struct tb_sensor_gen_config cfg;
    struct corpus_stats st = {0};
    tb_sensor_gen_config_default(&cfg);
    cfg.blips = blips;
    run_with(file, seed, &cfg, 0, &st);
    ASSERT_GT(st.games, 2000);
}

TB_TEST(carlsen_seed1)
{
    run("Carlsen.pgn", 1, true);
}
TB_TEST(carlsen_seed2)
{
    run("Carlsen.pgn", 2, false);
}
TB_TEST(carlsen_seed3)
{
    run("Carlsen.pgn", 3, true);
}
TB_TEST(kasparov_seed1)
{
    run("Kasparov.pgn", 1, true);
}
TB_TEST(kasparov_seed2)
{
    run("Kasparov.pgn", 2, false);
}
TB_TEST(kasparov_seed3)
{
    run("Kasparov.pgn", 3, true);
}
TB_TEST(korchnoi_seed1)
{
    run("Korchnoi.pgn", 1, true);
}
TB_TEST(korchnoi_seed2)
{
    run("Korchnoi.pgn", 2, false);
}
TB_TEST(korchnoi_seed3)
{
    run("Korchnoi.pgn", 3, true);
}
TB_TEST(twic0920_seed1)
{
    run("twic0920.pgn", 1, true);
}
TB_TEST(twic0920_seed2)
{
    run("twic0920.pgn", 2, false);
}
TB_TEST(twic0920_seed3)
{
    run("twic0920.pgn", 3, true);
}

/* Faults injected at a fifth of the moves: each must give exactly the expected problem line,
 * and the game must go on to be recognised after the correction. */
static void run_fault(const char *file, enum tb_sensor_gen_fault fault, uint64_t seed)
{
    struct tb_sensor_gen_config cfg;
    struct corpus_stats st = {0};
    tb_sensor_gen_config_default(&cfg);
    cfg.blips = true;
    cfg.fault = fault;
    cfg.fault_rate = 0.2;
    run_with(file, seed, &cfg, 500, &st);
    ASSERT_EQ(st.games, 500);
    /* problems were really produced: outputs exceed the moves */
    ASSERT_GT(st.outputs, st.plies + st.plies / 10);
}

TB_TEST(faults_wrong_square)
{
    run_fault("Kasparov.pgn", TB_SENSOR_GEN_WRONG_SQUARE, 7);
}
TB_TEST(faults_knocked_piece)
{
    run_fault("Carlsen.pgn", TB_SENSOR_GEN_KNOCKED_PIECE, 8);
}
TB_TEST(faults_same_side_twice)
{
    run_fault("twic0920.pgn", TB_SENSOR_GEN_SAME_SIDE_TWICE, 9);
}

/* ---- the hard cases of everyday handling: a few hundred generated scripts per class, each
 * recognised exactly (every move, every displaced report, no false touch-move report) ------ */

static void report(const char *what, const struct corpus_stats *st, uint64_t max_latency)
{
    if (st->failures)
        TB_FAIL("%s: %ld failures in %ld games; first: %s", what, st->failures, st->games,
                st->first_failure);
    ASSERT_LE(st->max_latency_ms, max_latency);
    fprintf(stderr, "%s: %ld games, %ld plies, %ld events, %ld problems reported as expected\n",
            what, st->games, st->plies, st->events, st->problems);
}

/* One class: the generator's config changed by the caller, the file's first opt games. */
static struct corpus_stats run_class(const char *what, const char *file, uint64_t seed,
                                     struct tb_sensor_gen_config cfg, struct corpus_opts opt)
{
    struct corpus_stats st = {0};
    cfg.blips = true;
    run_opts(file, seed, &cfg, &opt, &st);
    report(what, &st, cfg.blip_ms + 1);
    return st;
}

static struct tb_sensor_gen_config hard_cfg(void)
{
    struct tb_sensor_gen_config cfg;
    tb_sensor_gen_config_default(&cfg);
    cfg.blips = true;
    return cfg;
}

/* 7.4: after a capture the taken piece dropped into an empty hole the next mover could reach;
 * it is displaced at once and never the far end of the next move */
TB_TEST(law_7_4_stray_piece_is_displaced_never_a_move)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.strays = true;
    struct corpus_stats st =
        run_class("strays", "Carlsen.pgn", 21, cfg, (struct corpus_opts){.max_games = 300});
    ASSERT_GT(st.problems, 1000);
}

/* 7.6: an opponent piece knocked onto an empty square, put back before or while the mover
 * holds a piece that could go there */
TB_TEST(law_7_6_knocked_piece_put_back_during_the_move)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.fault = TB_SENSOR_GEN_KNOCKED_PIECE;
    cfg.fault_rate = 0.2;
    struct corpus_stats st =
        run_class("knocks", "Kasparov.pgn", 22, cfg, (struct corpus_opts){.max_games = 300});
    ASSERT_GT(st.problems, 1000);
}

/* D.2.2: a piece wobbling in its hole for less than the window is no touch: no touch-move */
TB_TEST(law_D_2_2_wobble_is_no_touch)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.wobbles = true;
    struct corpus_stats st =
        run_class("wobbles", "twic0920.pgn", 23, cfg, (struct corpus_opts){.max_games = 300});
    ASSERT_EQ(st.problems, 0);
}

/* 4.6, 7.5.2: the choice before, during, 0.1-0.9 s after or 2 s after the placement is the
 * piece; no queen is assumed while the promotion waits */
TB_TEST(law_4_6_late_promotion_choice_is_used)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.late_choices = true;
    struct corpus_stats st = run_class("late choices", "Korchnoi.pgn", 24, cfg,
                                       (struct corpus_opts){.max_games = 300, .promo_only = true});
    ASSERT_GT(st.games, 200); /* all of Korchnoi's games with a promotion */
}

/* D.2.9: the copier may copy in any order (castling rook first, capture with the own piece
 * first, e.p. in its three orders): only the board at rest decides */
TB_TEST(law_D_2_9_copy_in_any_order)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.copy = true;
    struct corpus_stats st = run_class("copies", "twic0920.pgn", 25, cfg,
                                       (struct corpus_opts){.max_games = 300, .replicate = true});
    ASSERT_EQ(st.problems, 0);
}

/* Guideline II.3: random Chess960 games castling in every order (king only, rook only, king
 * and rook swapping, king first onto its square, rook first, king off the board first) */
TB_TEST(guideline_ii_chess960_castling_in_every_order)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    struct corpus_stats st = {0};
    struct tb_sensor_config scfg;
    tb_sensor_config_default(&scfg);
    corpus_run_960(26, 300, &cfg, false, &st);
    /* a king move onto its castling square waits for the rook (settle_ms) */
    report("Chess960", &st, scfg.settle_ms + cfg.blip_ms + 1);
    ASSERT_EQ(st.problems, 0);
}

TB_TEST(guideline_ii_chess960_copies_in_every_order)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    struct corpus_stats st = {0};
    cfg.copy = true;
    corpus_run_960(27, 300, &cfg, true, &st);
    report("Chess960 copies", &st, cfg.blip_ms + 1);
    ASSERT_EQ(st.problems, 0);
}

/* 4.6: the pawn left standing on the promotion square and the choice after it (half the
 * promotions), over all of Korchnoi's games (the corpus's most promotions). */
TB_TEST(korchnoi_pawn_left_standing_until_choice)
{
    struct tb_sensor_gen_config cfg;
    struct corpus_stats st = {0};
    tb_sensor_gen_config_default(&cfg);
    cfg.blips = true;
    cfg.late_choices = true;
    run_with("Korchnoi.pgn", 4, &cfg, 0, &st);
    ASSERT_GT(st.games, 4000);
}

/* 4.6: every promotion with the new piece put down before the pawn leaves (with and without
 * capture, both colours, under-promotions as played), the choice before or after: played and
 * copied */
TB_TEST(law_4_6_new_piece_first_in_every_promotion)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.new_piece_first = true;
    struct corpus_stats st = run_class("new piece first", "Korchnoi.pgn", 31, cfg,
                                       (struct corpus_opts){.max_games = 80, .promo_only = true});
    ASSERT_EQ(st.games, 80);
    cfg.copy = true;
    run_class("new piece first, copied", "Korchnoi.pgn", 32, cfg,
              (struct corpus_opts){.max_games = 80, .promo_only = true, .replicate = true});
}

/* 7.4, 4.7: the taken piece dropped into a hole 20-90 ms after the capture, or while both of
 * its pieces are in the air: the capture is output when made, then the stray; played and
 * copied */
TB_TEST(law_7_4_stray_at_once_after_or_during_a_capture)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.strays = cfg.quick_strays = true;
    struct corpus_stats st =
        run_class("strays at once", "Carlsen.pgn", 33, cfg, (struct corpus_opts){.max_games = 300});
    ASSERT_GT(st.problems, 1000);
    cfg.copy = true;
    st = run_class("strays on copies", "Kasparov.pgn", 34, cfg,
                   (struct corpus_opts){.max_games = 300, .replicate = true});
    ASSERT_GT(st.problems, 1000);
}

/* 4.7: a piece carried low over the holes on its way closes each for 5-80 ms (reported when it
 * lasts the firmware's 20 ms debounce): never a move, never a report, at the default window */
TB_TEST(law_4_7_piece_carried_over_holes_is_not_released_there)
{
    struct tb_sensor_gen_config cfg = hard_cfg();
    cfg.carry = true;
    cfg.noise_ms = 80;
    struct corpus_stats st =
        run_class("carried", "twic0920.pgn", 35, cfg, (struct corpus_opts){.max_games = 300});
    ASSERT_EQ(st.problems, 0);
    ASSERT_GT(st.events, st.plies * 3); /* the carries were reported: more than lift and place */
}

/* 4.7, D.2.2: the blip window against physical noise, each move a trial of its own on the same
 * scripts: pieces carried over holes and pegs wobbling for 5-80 ms give no false move, missed
 * move or report at the default window, and do at 50 ms (the measurement has teeth). The full
 * table, 50-300 ms, is tests/bench/sensor/bench_blip. */
TB_TEST(law_4_7_default_blip_window_outlasts_pieces_carried_and_wobbling)
{
    struct tb_sensor_config def;
    tb_sensor_config_default(&def);
    char path[1024];
    snprintf(path, sizeof path, "%s/games/Carlsen.pgn", tb_test_data_dir());
    for (int c = 0; c < 2; c++) {
        struct tb_sensor_gen_config cfg;
        tb_sensor_gen_config_default(&cfg);
        cfg.carry = c == 0;
        cfg.wobbles = c == 1;
        cfg.noise_ms = 80;
        struct trial_stats at_default = {0}, short_window = {0};
        ASSERT_OK(corpus_move_trials(path, &cfg, def.blip_ms, 1500, 40 + (uint64_t)c, &at_default));
        ASSERT_OK(corpus_move_trials(path, &cfg, 50, 1500, 40 + (uint64_t)c, &short_window));
        if (at_default.false_moves || at_default.missed || at_default.false_reports)
            TB_FAIL("%s at %u ms: %ld false moves, %ld missed, %ld reports; first: %s",
                    c ? "wobbles" : "carried", def.blip_ms, at_default.false_moves,
                    at_default.missed, at_default.false_reports, at_default.first);
        ASSERT_EQ(at_default.moves, 1500);
        ASSERT_GT(short_window.false_moves + short_window.false_reports, 10);
    }
}
