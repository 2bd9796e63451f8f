/* Every game of the corpus, turned into event scripts with random lawful handling (three seeds,
 * fly-over blips, hesitations), must be recognised exactly: every move in order, no problem. */
#include <stdio.h>

#include "corpus.h"
#include "tb_test.h"

/* Runs a file's games (max_games, 0 = all) and fails on the first misrecognised one. */
static void run_with(const char *file, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                     long max_games, struct corpus_stats *st)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    corpus_run_file(path, seed, cfg, max_games, st);
    if (st->failures)
        TB_FAIL("%ld failures in %ld games; first: %s", st->failures, st->games, st->first_failure);
    ASSERT_LE(st->max_latency_ms, cfg->blip_ms + 1);
    fprintf(stderr, "%s seed %llu: %ld games, %ld plies, %ld events\n", file,
            (unsigned long long)seed, st->games, st->plies, st->events);
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

/* 4.6: the pawn left standing on the promotion square until the choice comes (a recogniser
 * with promo_wait_ms); Korchnoi's games hold the corpus's most promotions. */
TB_TEST(korchnoi_pawn_left_standing_until_choice)
{
    struct tb_sensor_gen_config cfg;
    struct corpus_stats st = {0};
    tb_sensor_gen_config_default(&cfg);
    cfg.blips = true;
    cfg.promo_wait_ms = 3000;
    run_with("Korchnoi.pgn", 4, &cfg, 0, &st);
    ASSERT_GT(st.games, 4000);
}
