/* Every game of the shared corpus (11,773 real games) reads and replays with no illegal move,
 * and matches the independently made INDEX.tsv in plies and result. One case per file so that
 * they run in parallel. */
#include <stdlib.h>
#include <string.h>

#include "tb_chess.h"
#include "tb_run.h"
#include "tb_test.h"

struct expect {
    int plies;
    char result[8];
};

/* The INDEX.tsv rows of one file: columns file, game, white, black, date, result, plies ... */
static struct expect *load_index(const char *file, int *count)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/games/INDEX.tsv", tb_test_data_dir());
    char *text = tb_run_read_file(path, &len);
    int cap = 8192, n = 0;
    struct expect *e = calloc((size_t)cap, sizeof *e);
    ASSERT_NOT_NULL(e);
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *col[8];
        int c = 0;
        for (char *p = line; c < 8; c++) {
            col[c] = p;
            p = strchr(p, '\t');
            if (!p)
                break;
            *p++ = '\0';
        }
        if (c >= 7 && strcmp(col[0], file) == 0) {
            int game = atoi(col[1]);
            ASSERT_EQ(game, n + 1);
            ASSERT_LT(n, cap);
            e[n].plies = atoi(col[6]);
            snprintf(e[n].result, sizeof e[n].result, "%s", col[5]);
            n++;
        }
        line = next;
    }
    free(text);
    *count = n;
    return e;
}

static void replay_file(const char *file, int want_games)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    char *text = tb_run_read_file(path, &len);
    int nexp;
    struct expect *exp = load_index(file, &nexp);
    ASSERT_EQ(nexp, want_games);

    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    int games = 0, rc;
    long plies = 0;
    while ((rc = tb_chess_pgn_read(&r, g, &err)) != 0) {
        if (rc < 0)
            TB_FAIL("%s: %s (line %ld)", file, err.msg, err.line);
        ASSERT_LT(games, nexp);
        if (g->game.plies != exp[games].plies || strcmp(g->result, exp[games].result) != 0)
            TB_FAIL("%s game %d: %d plies %s, INDEX.tsv says %d plies %s", file, games + 1,
                    g->game.plies, g->result, exp[games].plies, exp[games].result);
        plies += g->game.plies;
        games++;
    }
    ASSERT_EQ(games, want_games);
    ASSERT_GT(plies, (long)games * 40);
    free(g);
    free(exp);
    free(text);
}

TB_TEST(corpus_twic0920_replays)
{
    replay_file("twic0920.pgn", 2245);
}

TB_TEST(corpus_korchnoi_replays)
{
    replay_file("Korchnoi.pgn", 4567);
}

TB_TEST(corpus_carlsen_replays)
{
    replay_file("Carlsen.pgn", 2851);
}

TB_TEST(corpus_kasparov_replays)
{
    replay_file("Kasparov.pgn", 2110);
}

/* Every twic0920 game written as PGN reads back to the same moves, and every move written in
 * Dutch and German scoresheet notation (0-0, e.p., d8D) reads back to the same move. */
TB_TEST(corpus_twic0920_round_trips_through_writer_and_letter_sets)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/games/twic0920.pgn", tb_test_data_dir());
    char *text = tb_run_read_file(path, &len);
    tb_chess_pgn_game *g = malloc(sizeof *g), *back = malloc(sizeof *back);
    size_t cap = 1 << 16;
    char *out = malloc(cap);
    ASSERT_TRUE(g && back && out);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    int rc, games = 0;
    long moves = 0;
    static const unsigned sheet = TB_CHESS_SAN_ZERO | TB_CHESS_SAN_EP | TB_CHESS_SAN_NOEQ;
    while ((rc = tb_chess_pgn_read(&r, g, &err)) != 0) {
        ASSERT_EQ(rc, 1);
        games++;
        int n = tb_chess_pgn_write(g, out, cap);
        ASSERT_GT(n, 0);
        ASSERT_LT(n, (int)cap);
        tb_chess_pgn_reader r2;
        tb_chess_pgn_reader_init(&r2, out, (size_t)n);
        if (tb_chess_pgn_read(&r2, back, &err) != 1)
            TB_FAIL("game %d does not read back: %s\n%s", games, err.msg, out);
        ASSERT_EQ(back->game.plies, g->game.plies);
        ASSERT_EQ(memcmp(back->game.moves, g->game.moves, sizeof g->game.moves[0] * g->game.plies),
                  0);
        ASSERT_STR_EQ(back->result, g->result);
        tb_chess_pos pos = g->game.start;
        for (int i = 0; i < g->game.plies; i++) {
            tb_chess_move m = g->game.moves[i];
            for (int l = TB_CHESS_LETTERS_NL; l <= TB_CHESS_LETTERS_DE; l++) {
                char san[24];
                tb_chess_move got = 0;
                enum tb_chess_letters L = (enum tb_chess_letters)l;
                ASSERT_GT(tb_chess_move_to_san(&pos, m, L, sheet, san, sizeof san), 0);
                if (tb_chess_move_from_san(&pos, san, L, &got, &err) != TB_OK || got != m)
                    TB_FAIL("game %d ply %d: '%s' does not read back: %s", games, i + 1, san,
                            err.msg);
            }
            tb_chess_undo u;
            tb_chess_make(&pos, m, &u);
            moves++;
        }
    }
    ASSERT_EQ(games, 2245);
    ASSERT_EQ(moves, 182591);
    free(out);
    free(back);
    free(g);
    free(text);
}
