/* Games kept: one journal and one PGN per game in the journal directory, named by date, round
 * and players (the configuration's [game] tags, new-game's over them); the PGN is there
 * as soon as the game ends; new-game keeps the finished game's journal under its name and the
 * next game gets its own; a restart goes on with the unfinished game, under its name; the games
 * request lists them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "tb_run.h"
#include "tb_test.h"

/* 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#: each move on the mover's board, then copied */
static const char *const mate =
    "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
    "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
    "5000 vi lift f1\n5300 vi place c4\n6000 sighted lift f1\n6300 sighted place c4\n"
    "7000 sighted lift b8\n7300 sighted place c6\n8000 vi lift b8\n8300 vi place c6\n"
    "9000 vi lift d1\n9300 vi place h5\n10000 sighted lift d1\n10300 sighted place h5\n"
    "11000 sighted lift g8\n11300 sighted place f6\n12000 vi lift g8\n12300 vi place f6\n"
    "13000 vi lift f7\n13200 vi lift h5\n13500 vi place f7\n14000 sighted lift f7\n"
    "14200 sighted lift h5\n14500 sighted place f7\n";

static void today(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%d", &tm);
}

static char *read_kept(const struct fx *f, const char *name, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s%s", f->journal, name, ext);
    return tb_run_read_file(path, NULL);
}

static bool exists(const struct fx *f, const char *file)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", f->journal, file);
    return stat(path, &st) == 0;
}

static void tagged(struct fx *f)
{
    snprintf(f->o.cfg.game.event, sizeof f->o.cfg.game.event, "Club championship");
    snprintf(f->o.cfg.game.round, sizeof f->o.cfg.game.round, "3");
    snprintf(f->o.cfg.game.white, sizeof f->o.cfg.game.white, "Anna Schmidt");
    snprintf(f->o.cfg.game.black, sizeof f->o.cfg.game.black, "Bert Meier");
}

TB_TEST(pgn_kept_as_the_game_ends_named_by_date_round_and_players)
{
    struct fx f;
    fx_init(&f, "ends");
    fx_script(&f, mate);
    fx_options(&f, "script", "script");
    tagged(&f);
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    char day[16], name[128];
    today(day, sizeof day);
    snprintf(name, sizeof name, "%s_r3_Anna_Schmidt-Bert_Meier", day);
    /* before the daemon stops: written when the game ended (checkmate, 5.1.1) */
    char *pgn = read_kept(&f, name, ".pgn");
    ASSERT_NOT_NULL(pgn);
    ASSERT_STR_CONTAINS(pgn, "[Event \"Club championship\"]");
    ASSERT_STR_CONTAINS(pgn, "[Round \"3\"]");
    ASSERT_STR_CONTAINS(pgn, "[White \"Anna Schmidt\"]");
    ASSERT_STR_CONTAINS(pgn, "[Black \"Bert Meier\"]");
    ASSERT_STR_CONTAINS(pgn, "[Result \"1-0\"]");
    ASSERT_STR_CONTAINS(pgn, "4. Qxf7# 1-0");
    free(pgn);
    /* D.2.7: the VI player's braille scoresheet beside it, in their pack's language (de-fide:
     * German letters), BRF pages for the embosser. */
    char *brf = read_kept(&f, name, ".brf");
    ASSERT_STR_CONTAINS(brf, "\r\n1 E4 E5\r\n2 LC4 SC6\r\n3 DH5 SF6\r\n4 DXF7#\r\n");
    ASSERT_NOT_NULL(strchr(brf, '\f'));
    free(brf);
    ASSERT_TRUE(exists(&f, "current.tbj")); /* the finished game's journal until new-game */
    const char *games = fx_req(&f, "games");
    ASSERT_STR_CONTAINS(games, name);
    ASSERT_STR_CONTAINS(games, "finished, 7 plies, result 1-0, journal current.tbj");
    fx_free(&f);
}

static bool mated(struct fx *f)
{
    return fx_plies(f) == 7 && strstr(fx_req(f, "status"), "result 1-0");
}

TB_TEST(new_game_keeps_the_finished_game_and_names_the_next)
{
    struct fx f;
    fx_init(&f, "next");
    fx_script(&f, mate);
    fx_options(&f, "script", "script");
    f.o.exit_when_done = false;
    tagged(&f);
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 20000, mated));
    char day[16], first[128], second[128];
    today(day, sizeof day);
    snprintf(first, sizeof first, "%s_r3_Anna_Schmidt-Bert_Meier", day);
    snprintf(second, sizeof second, "%s_r4_Bert_Meier-Anna_Schmidt", day);
    const char *a = fx_req(&f, "new-game round=4 white=\"Bert Meier\" black=\"Anna Schmidt\" "
                               "event=\"Club final\" pin=" FX_PIN);
    ASSERT_STR_CONTAINS(a, "ok");
    /* the finished game: its journal under its own name, with every move; its PGN */
    char file[256];
    snprintf(file, sizeof file, "%s.tbj", first);
    ASSERT_TRUE(exists(&f, file));
    snprintf(file, sizeof file, "%s.pgn", first);
    ASSERT_TRUE(exists(&f, file));
    /* the next game: a fresh journal, its tags in the PGN */
    ASSERT_EQ(fx_plies(&f), 0);
    const char *pgn = fx_req(&f, "pgn");
    ASSERT_STR_CONTAINS(pgn, "[Round \"4\"]");
    ASSERT_STR_CONTAINS(pgn, "[White \"Bert Meier\"]");
    ASSERT_STR_CONTAINS(pgn, "[Black \"Anna Schmidt\"]");
    ASSERT_STR_CONTAINS(pgn, "[Event \"Club final\"]");
    const char *games = fx_req(&f, "games");
    char want[300];
    snprintf(want, sizeof want, "%s  running, 0 plies, result *, journal current.tbj", second);
    ASSERT_STR_CONTAINS(games, want);
    snprintf(want, sizeof want, "%s  result 1-0, journal pgn", first);
    ASSERT_STR_CONTAINS(games, want);
    fx_stop(&f);
    /* the kept journal is a whole journal of its game: replayed alone it gives the mate */
    struct fx g;
    fx_init(&g, "replay-kept");
    fx_script(&g, "");
    fx_options(&g, "null:", "null:");
    char cmd[2048], out[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s/%s.tbj' '%s/current.tbj'", g.journal,
             f.journal, first, g.journal);
    ASSERT_EQ(tb_run(out, sizeof out, "%s", cmd), 0);
    fx_start(&g);
    ASSERT_EQ(fx_plies(&g), 7);
    fx_free(&g);
    fx_free(&f);
}

/* A reboot mid-game: the restarted daemon goes on with the unfinished game, under its name. */
TB_TEST(restart_goes_on_with_the_unfinished_game)
{
    struct fx f;
    fx_init(&f, "restart");
    /* the first four plies only: the game is unfinished when the daemon stops */
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
                  "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
                  "5000 vi lift f1\n5300 vi place c4\n6000 sighted lift f1\n6300 sighted place c4\n"
                  "7000 sighted lift b8\n7300 sighted place c6\n8000 vi lift b8\n8300 vi place "
                  "c6\n");
    fx_options(&f, "script", "script");
    tagged(&f);
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    ASSERT_EQ(fx_plies(&f), 4);
    fx_stop(&f); /* as at a shutdown: the PGN so far is kept too */
    char day[16], name[128];
    today(day, sizeof day);
    snprintf(name, sizeof name, "%s_r3_Anna_Schmidt-Bert_Meier", day);
    char *pgn = read_kept(&f, name, ".pgn");
    ASSERT_NOT_NULL(pgn);
    ASSERT_STR_CONTAINS(pgn, "[Result \"*\"]");
    free(pgn);

    /* the next morning the configuration names another round: the running game keeps its own */
    snprintf(f.o.cfg.game.round, sizeof f.o.cfg.game.round, "4");
    free(f.log);
    f.log = NULL;
    f.log_len = f.log_cap = 0;
    fx_start(&f);
    ASSERT_EQ(fx_plies(&f), 4);
    char want[300];
    snprintf(want, sizeof want, "games: the unfinished game %s goes on", name);
    ASSERT_STR_CONTAINS(f.log, want);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "[Round \"3\"]");
    snprintf(want, sizeof want, "%s  running, 4 plies", name);
    ASSERT_STR_CONTAINS(fx_req(&f, "games"), want);
    fx_free(&f);
}

/* Without tags the names say who played: the VI player and the sighted player. */
TB_TEST(untagged_games_are_named_by_the_players_roles)
{
    struct fx f;
    fx_init(&f, "untagged");
    fx_script(&f, mate);
    fx_options(&f, "script", "script");
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    char day[16], name[128];
    today(day, sizeof day);
    snprintf(name, sizeof name, "%s_VI_player-sighted_player", day);
    char *pgn = read_kept(&f, name, ".pgn");
    ASSERT_NOT_NULL(pgn);
    ASSERT_STR_CONTAINS(pgn, "[Round \"-\"]");
    free(pgn);
    fx_free(&f);
}
