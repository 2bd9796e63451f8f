/* The PGN the project writes, read by three independent readers (pgn_readers.sh: pgn-extract,
 * chess.js, chessops): real games with the notes the daemon and the broadcast put in them, and
 * the game the demo keeps. Every game must be read by each, alike, and by the project's own
 * reader back to the same moves. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tb_chess.h"
#include "tb_run.h"
#include "tb_test.h"

static char out[1 << 16];

static void readers(const char *file)
{
    int rc = tb_run(out, sizeof out, "bash %s/pgn_readers.sh '%s' 2>&1", TB_PGNREAD_DIR, file);
    if (rc == 77)
        TB_FAIL("a PGN reader is not installed (host/tools/dev test installs them): %s", out);
    if (rc != 0)
        TB_FAIL("%s", out);
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* The notes a game gets from the daemon and the broadcast, at random plies, several at one
 * place: a clock, a mismatch and its resolution, a NAG after them, words a reader could take
 * for an escape ("%") or a brace, an empty comment. */
static void annotate(tb_chess_pgn_game *g, uint64_t *seed)
{
    static const char *const words[] = {
        "[%clk 0:04:58]",
        "sighted board: d2d4 was to be replicated",
        "arbiter resolve #1",
        "%50 of the time",
        "a {brace opened",
        "",
        ("resolved by the arbiter: #1 resolved: both boards show the resolved position; play "
         "goes on and the text is long enough to be wrapped over two lines or more")};
    int nw = (int)(sizeof words / sizeof *words);
    ASSERT_OK(tb_chess_pgn_add_comment(g, 0, words[1], NULL));
    for (int ply = 1; ply <= g->game.plies; ply++) {
        if (next(seed) % 4)
            continue;
        int n = 1 + (int)(next(seed) % 3);
        for (int k = 0; k < n; k++)
            ASSERT_OK(tb_chess_pgn_add_comment(g, ply, words[next(seed) % (unsigned)nw], NULL));
        if (next(seed) % 3 == 0)
            ASSERT_OK(tb_chess_pgn_add_nag(g, ply, 1 + (int)(next(seed) % 6), NULL));
    }
}

TB_TEST(the_writers_pgn_of_real_games_with_their_notes_reads_alike_in_three_readers)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/games/twic0920.pgn", tb_test_data_dir());
    char *text = tb_run_read_file(path, &len);
    tb_chess_pgn_game *g = malloc(sizeof *g), *back = malloc(sizeof *back);
    ASSERT_NOT_NULL(g);
    ASSERT_NOT_NULL(back);
    size_t cap = 1 << 24, used = 0;
    char *file = malloc(cap);
    ASSERT_NOT_NULL(file);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err;
    uint64_t seed = 920;
    int games = 0;
    while (games < 300 && tb_chess_pgn_read(&r, g, &err) == 1) {
        annotate(g, &seed);
        int n = tb_chess_pgn_write(g, file + used, cap - used);
        ASSERT_GT(n, 0);
        ASSERT_LT((size_t)n + 2, cap - used);
        /* the project's reader: the same moves, one comment at a place */
        tb_chess_pgn_reader rb;
        tb_chess_pgn_reader_init(&rb, file + used, (size_t)n);
        ASSERT_EQ(tb_chess_pgn_read(&rb, back, &err), 1);
        ASSERT_EQ(back->game.plies, g->game.plies);
        ASSERT_OK(memcmp(back->game.moves, g->game.moves,
                         (size_t)g->game.plies * sizeof g->game.moves[0]));
        for (int i = 1; i < back->nnotes; i++)
            if (back->notes[i].kind != TB_CHESS_PGN_NAG &&
                back->notes[i - 1].kind != TB_CHESS_PGN_NAG)
                ASSERT_NE(back->notes[i].ply, back->notes[i - 1].ply);
        used += (size_t)n;
        file[used++] = '\n';
        games++;
    }
    ASSERT_EQ(games, 300);
    const char *pgn = tb_test_tmp("annotated.pgn");
    FILE *f = fopen(pgn, "w");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ(fwrite(file, 1, used, f), used);
    ASSERT_OK(fclose(f));
    readers(pgn);
    ASSERT_STR_CONTAINS(out, "300 game(s) read alike");
    free(file);
    free(back);
    free(g);
    free(text);
}

/* The game `twinboard demo` keeps: a replication error resolved by the arbiter, so the notes
 * of a mismatch and of its resolution stand beside each other. */
TB_TEST(the_demos_kept_game_with_a_resolved_mismatch_reads_alike_in_three_readers)
{
    const char *dir = tb_test_tmp("demo");
    int rc = tb_run(out, sizeof out, "TB_DEMO_NO_PA=1 %s demo --sim --keep '%s' --limit %d 2>&1",
                    TB_TWINBOARD, dir, tb_test_ms(120000) / 1000);
    if (rc != 0)
        TB_FAIL("demo: exit %d: %s", rc, out);
    char journal[1024], pgn[1400] = "";
    snprintf(journal, sizeof journal, "%s/journal", dir);
    DIR *d = opendir(journal);
    ASSERT_NOT_NULL(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".pgn"))
            snprintf(pgn, sizeof pgn, "%s/%s", journal, e->d_name);
    }
    closedir(d);
    ASSERT_TRUE(pgn[0]);
    size_t len;
    char *text = tb_run_read_file(pgn, &len);
    ASSERT_STR_CONTAINS(text, "arbiter resolve #1");
    ASSERT_NULL(strstr(text, "} {"));
    free(text);
    readers(pgn);
    ASSERT_STR_CONTAINS(out, "1 game(s) read alike");
}
