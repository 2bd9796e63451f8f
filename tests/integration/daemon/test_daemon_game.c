/* Whole games through twinboardd: two boards playing a real game of the shared corpus, each
 * move made on one board and replicated on the other (D.2.1); the daemon's game must be the
 * source game move for move, its PGN and scoresheet must say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_chess.h"
#include "tb_test.h"

static tb_chess_pgn_game *load_game(const char *file, long number)
{
    char path[512];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    FILE *f = fopen(path, "rb");
    if (!f)
        TB_FAIL("cannot open %s", path);
    static char text[8 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    for (long i = 1; i <= number; i++)
        if (tb_chess_pgn_read(&r, g, NULL) != 1)
            TB_FAIL("%s: game %ld not found", file, number);
    return g;
}

static void san_list(const tb_chess_game *g, char *buf, size_t len)
{
    tb_chess_pos pos = g->start;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->plies; i++) {
        char san[16];
        tb_chess_move_to_san(&pos, g->moves[i], TB_CHESS_LETTERS_EN, 0, san, sizeof san);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", san);
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i], &u);
    }
}

static void play(const char *file, long number, int vi_color, uint64_t seed)
{
    tb_chess_pgn_game *g = load_game(file, number);
    struct fx f;
    fx_init(&f, "game");
    struct tb_daemon_demo_script s = {.moves = g->game.moves,
                                      .nmoves = g->game.plies,
                                      .vi_color = vi_color,
                                      .pause_ms = 300,
                                      .blips = true,
                                      .seed = seed};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, f.script, &err) != TB_OK)
        TB_FAIL("script: %s", err.msg);
    fx_options(&f, "script", "script");
    f.o.cfg.player[0].colour = vi_color ? TB_CONFIG_BLACK : TB_CONFIG_WHITE;
    f.o.cfg.player[1].colour = vi_color ? TB_CONFIG_WHITE : TB_CONFIG_BLACK;
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 10000), 0u); /* no mismatch on the way */
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_TRUE(c.done);
    ASSERT_EQ(c.plies, g->game.plies);

    static char want[16384], got[16384];
    san_list(&g->game, want, sizeof want);
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), want);
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "ok+ pgn");
    ASSERT_STR_CONTAINS(pgn, vi_color ? "[White \"sighted player\"]" : "[White \"VI player\"]");
    const char *sheet = fx_req(&f, "scoresheet de");
    ASSERT_STR_CONTAINS(sheet, "ok+ scoresheet");
    ASSERT_TRUE(strstr(f.log, "MISMATCH") == NULL);
    fx_free(&f);
    free(g);
}

/* Kasparov - Polgar 2000: en passant (3.7.4) and a promotion (3.7.5), 53 plies. */
TB_TEST(game_in_sync_promotion_and_en_passant)
{
    play("Kasparov.pgn", 1608, TB_CHESS_WHITE, 3);
}

/* Gheorghiu - Kortschnoj 1984: both castlings (3.8) and en passant; the VI player has Black. */
TB_TEST(game_in_sync_vi_player_black_castling)
{
    play("Korchnoi.pgn", 1913, TB_CHESS_BLACK, 5);
}

/* Kasparov - Cid 1991, mate on move 13: the result is the daemon's own (5.1.1). */
TB_TEST(game_in_sync_mate_gives_the_result)
{
    tb_chess_move moves[64];
    int n = tb_daemon_demo_moves(moves, 64);
    ASSERT_EQ(n, 25);
    struct fx f;
    fx_init(&f, "mate");
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .pause_ms = 300, .blips = true, .seed = 9};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f.script, NULL));
    fx_options(&f, "script", "script");
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 10000), 0u);
    ASSERT_EQ(fx_plies(&f), 25);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Result \"1-0\"]");
    ASSERT_STR_CONTAINS(f.answer, "13. Qb7# 1-0");
    ASSERT_STR_CONTAINS(f.log, "game over: 1-0, checkmate (5.1.1)");
    fx_free(&f);
}
