/* PGN reading and writing: import-format variety, errors that name game, ply and text, and
 * export that reads back to the same game. */
#include <stdlib.h>
#include <string.h>

#include "game960.h"
#include "tb_chess.h"
#include "tb_test.h"

static tb_chess_pgn_game *new_game(void)
{
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_game_init(g, NULL);
    return g;
}

/* LF text to CRLF. */
static char *crlf(const char *s)
{
    char *out = malloc(strlen(s) * 2 + 1), *o = out;
    ASSERT_NOT_NULL(out);
    for (; *s; s++) {
        if (*s == '\n')
            *o++ = '\r';
        *o++ = *s;
    }
    *o = '\0';
    return out;
}

static const char *note_text(const tb_chess_pgn_game *g, int i)
{
    return g->text + g->notes[i].text;
}

static const char *move_uci(const tb_chess_pgn_game *g, int ply)
{
    static char buf[8];
    tb_chess_pos pos = g->game.start;
    for (int i = 0; i < ply; i++) {
        tb_chess_undo u;
        tb_chess_make(&pos, g->game.moves[i], &u);
    }
    ASSERT_GT(tb_chess_move_to_uci(&pos, g->game.moves[ply], buf, sizeof buf), 0);
    return buf;
}

static const char rich_pgn[] =
    "% a line the reader skips\n"
    "[Event \"Club \\\"Open\\\" 2024\"]\n"
    "[Site \"Utrecht \\\\ NED\"]\n"
    "[Date \"2024.03.01\"]\n"
    "[Round \"1\"]\n"
    "[White \"M\xc3\xbcller, Jos\xc3\xa9\"]\n"
    "[Black \"Smit, A.\"]\n"
    "[Result \"1-0\"]\n"
    "[WhiteElo \"2100\"]\n"
    "[TimeControl \"5400+30\"]\n"
    "\n"
    "{Opening comment} 1.e4 {[%clk 1:30:00]} e5 $1 2. Nf3 (2. f4 exf4 (2... d5 {inside})\n"
    "3. Nf3) 2... Nc6!? 3.Bb5 a6 ; a line comment\n"
    "4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 {A long comment that goes\n"
    "on and on for more than eighty characters, so that the writer has to wrap it over two\n"
    "lines} 9... Nb8 10. d4 Nbd7 $14 1-0\n"
    "\n"
    "[Event \"Promotion\"]\n"
    "[White \"A\"]\n"
    "[Black \"B\"]\n"
    "[SetUp \"1\"]\n"
    "[FEN \"4k3/1P6/8/8/8/8/8/4K3 b - - 0 40\"]\n"
    "\n"
    "40... Kd7 41. b8=N+ Kc7 42. Na6+ *\n"
    "\n"
    "[Event \"Chess960\"]\n"
    "[Variant \"Chess960\"]\n"
    "[FEN \"rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1\"]\n"
    "\n"
    "1. O-O O-O-O 1/2-1/2\n";

static void check_rich(const tb_chess_pgn_game *g1, const tb_chess_pgn_game *g2,
                       const tb_chess_pgn_game *g3)
{
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g1, "Event"), "Club \"Open\" 2024");
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g1, "Site"), "Utrecht \\ NED");
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g1, "White"), "M\xc3\xbcller, Jos\xc3\xa9");
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g1, "TimeControl"), "5400+30");
    ASSERT_NULL(tb_chess_pgn_tag_get(g1, "FEN"));
    ASSERT_EQ(g1->game.plies, 20);
    ASSERT_STR_EQ(g1->result, "1-0");
    ASSERT_STR_EQ(move_uci(g1, 8), "e1g1");
    ASSERT_STR_EQ(move_uci(g1, 19), "b8d7");
    /* notes in order: comment before move 1, %clk after ply 1, $1 after ply 2, !? after ply 4,
     * line comment after ply 6, long comment after ply 17, $14 after ply 20 */
    ASSERT_EQ(g1->nnotes, 7);
    ASSERT_EQ(g1->notes[0].ply, 0);
    ASSERT_STR_EQ(note_text(g1, 0), "Opening comment");
    ASSERT_EQ(g1->notes[1].ply, 1);
    ASSERT_STR_EQ(note_text(g1, 1), "[%clk 1:30:00]");
    ASSERT_EQ(g1->notes[2].kind, TB_CHESS_PGN_NAG);
    ASSERT_EQ(g1->notes[2].ply, 2);
    ASSERT_EQ(g1->notes[2].nag, 1);
    ASSERT_EQ(g1->notes[3].ply, 4);
    ASSERT_EQ(g1->notes[3].nag, 5);
    ASSERT_NE(g1->notes[4].kind, TB_CHESS_PGN_NAG); /* a ;comment, a {comment} once written */
    ASSERT_EQ(g1->notes[4].ply, 6);
    ASSERT_STR_EQ(note_text(g1, 4), " a line comment");
    ASSERT_EQ(g1->notes[5].ply, 17);
    ASSERT_STR_EQ(note_text(g1, 5),
                  "A long comment that goes on and on for more than eighty characters, so that "
                  "the writer has to wrap it over two lines");
    ASSERT_EQ(g1->notes[6].ply, 20);
    ASSERT_EQ(g1->notes[6].nag, 14);

    ASSERT_EQ(g2->game.start.side, TB_CHESS_BLACK);
    ASSERT_EQ(g2->game.start.fullmove, 40);
    ASSERT_EQ(g2->game.plies, 4);
    ASSERT_STR_EQ(move_uci(g2, 1), "b7b8n");
    ASSERT_STR_EQ(g2->result, "*");

    ASSERT_TRUE(g3->game.start.chess960);
    ASSERT_EQ(g3->game.plies, 2);
    ASSERT_STR_EQ(move_uci(g3, 0), "b1h1");
    ASSERT_STR_EQ(move_uci(g3, 1), "b8a8");
    ASSERT_STR_EQ(g3->result, "1/2-1/2");
}

/* The first game of text, which must read. */
static tb_chess_pgn_game *read_one(const char *text)
{
    tb_chess_pgn_reader r;
    tb_chess_pgn_game *g = new_game();
    struct tb_error err = {0};
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    int rc = tb_chess_pgn_read(&r, g, &err);
    if (rc != 1)
        TB_FAIL("%d %s", rc, err.msg);
    return g;
}

static void read_three(const char *text, tb_chess_pgn_game *g[3])
{
    tb_chess_pgn_reader r;
    struct tb_error err = {0};
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    for (int i = 0; i < 3; i++) {
        int rc = tb_chess_pgn_read(&r, g[i], &err);
        if (rc != 1)
            TB_FAIL("game %d: %d %s", i + 1, rc, err.msg);
        ASSERT_EQ(g[i]->number, i + 1);
    }
    tb_chess_pgn_game *extra = new_game();
    ASSERT_EQ(tb_chess_pgn_read(&r, extra, &err), 0);
    free(extra);
}

static void same_game(const tb_chess_pgn_game *a, const tb_chess_pgn_game *b)
{
    ASSERT_EQ(a->game.plies, b->game.plies);
    ASSERT_EQ(memcmp(a->game.moves, b->game.moves, sizeof a->game.moves[0] * a->game.plies), 0);
    ASSERT_U64_EQ(a->game.start.key, b->game.start.key);
    ASSERT_STR_EQ(a->result, b->result);
    for (int i = 0; i < a->ntags; i++) {
        const char *name = a->text + a->tags[i].name;
        ASSERT_STR_EQ(tb_chess_pgn_tag_get(b, name), a->text + a->tags[i].value);
    }
    ASSERT_EQ(a->nnotes, b->nnotes);
    for (int i = 0; i < a->nnotes; i++) {
        ASSERT_EQ(a->notes[i].ply, b->notes[i].ply);
        /* a ;comment is written as a {comment} (pgn-extract reads no ;comment): the same text */
        ASSERT_EQ(a->notes[i].kind == TB_CHESS_PGN_NAG, b->notes[i].kind == TB_CHESS_PGN_NAG);
        ASSERT_EQ(a->notes[i].nag, b->notes[i].nag);
        if (a->notes[i].kind != TB_CHESS_PGN_NAG)
            ASSERT_STR_EQ(note_text(a, i), note_text(b, i));
    }
}

static char *write_game(const tb_chess_pgn_game *g)
{
    int n = tb_chess_pgn_write(g, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(tb_chess_pgn_write(g, buf, (size_t)n + 1), n);
    ASSERT_EQ(strlen(buf), (size_t)n);
    return buf;
}

TB_TEST(pgn_reads_comments_nags_variations_clock_escapes)
{
    tb_chess_pgn_game *g[3] = {new_game(), new_game(), new_game()};
    read_three(rich_pgn, g);
    check_rich(g[0], g[1], g[2]);
    for (int i = 0; i < 3; i++)
        free(g[i]);
}

TB_TEST(pgn_reads_crlf_the_same)
{
    char *text = crlf(rich_pgn);
    tb_chess_pgn_game *g[3] = {new_game(), new_game(), new_game()};
    read_three(text, g);
    check_rich(g[0], g[1], g[2]);
    for (int i = 0; i < 3; i++)
        free(g[i]);
    free(text);
}

TB_TEST(pgn_round_trips_through_the_writer)
{
    char *text = crlf(rich_pgn);
    tb_chess_pgn_game *a[3] = {new_game(), new_game(), new_game()};
    tb_chess_pgn_game *b[3] = {new_game(), new_game(), new_game()};
    read_three(text, a);
    size_t cap = 65536, used = 0;
    char *all = malloc(cap);
    ASSERT_NOT_NULL(all);
    for (int i = 0; i < 3; i++) {
        char *one = write_game(a[i]);
        /* export format: lines below 80 columns */
        for (const char *line = one; *line;) {
            const char *nl = strchr(line, '\n');
            ASSERT_NOT_NULL(nl);
            ASSERT_LT(nl - line, 80);
            line = nl + 1;
        }
        used += (size_t)snprintf(all + used, cap - used, "%s%s", i ? "\n" : "", one);
        free(one);
    }
    read_three(all, b);
    for (int i = 0; i < 3; i++)
        same_game(a[i], b[i]);
    check_rich(b[0], b[1], b[2]);
    /* and writing again gives the same text */
    char *w1 = write_game(a[0]), *w2 = write_game(b[0]);
    ASSERT_STR_EQ(w1, w2);
    ASSERT_STR_CONTAINS(w1, "[Event \"Club \\\"Open\\\" 2024\"]\n[Site \"Utrecht \\\\ NED\"]\n");
    ASSERT_STR_CONTAINS(
        w1, "{Opening comment} 1. e4 {[%clk 1:30:00]} 1... e5 $1 2. Nf3 Nc6 $5 3. Bb5 a6");
    ASSERT_STR_CONTAINS(w1, "a6 { a\nline comment} 4. Ba4");
    char *w3 = write_game(b[1]);
    ASSERT_STR_CONTAINS(w3, "[SetUp \"1\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 b - - 0 40\"]\n\n"
                            "40... Kd7 41. b8=N+ Kc7 42. Na6+ *\n");
    free(w1);
    free(w2);
    free(w3);
    free(all);
    free(text);
    for (int i = 0; i < 3; i++) {
        free(a[i]);
        free(b[i]);
    }
}

TB_TEST(pgn_writer_exports_a_built_game_exactly)
{
    tb_chess_pgn_game *g = new_game();
    struct tb_error err = {0};
    static const char *const moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5"};
    for (int i = 0; i < 5; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_parse(&g->game.pos, moves[i], &m, &err));
        ASSERT_OK(tb_chess_game_push(&g->game, m));
    }
    ASSERT_OK(tb_chess_pgn_tag_set(g, "White", "Jansen", &err));
    ASSERT_OK(tb_chess_pgn_tag_set(g, "Annotator", "twinboard", &err));
    ASSERT_OK(tb_chess_pgn_tag_set(g, "Event", "Blind \"simul\"", &err));
    ASSERT_OK(tb_chess_pgn_add_comment(g, 2, "boards disagreed: VI board has Nf6", &err));
    ASSERT_OK(tb_chess_pgn_add_nag(g, 3, 2, &err));
    ASSERT_OK(tb_chess_pgn_add_comment(g, 0, "D.2.9 check", &err));
    strcpy(g->result, "1-0");
    char buf[1024];
    int n = tb_chess_pgn_write(g, buf, sizeof buf);
    ASSERT_STR_EQ(buf,
                  "[Event \"Blind \\\"simul\\\"\"]\n"
                  "[Site \"?\"]\n"
                  "[Date \"????.??.??\"]\n"
                  "[Round \"?\"]\n"
                  "[White \"Jansen\"]\n"
                  "[Black \"?\"]\n"
                  "[Result \"1-0\"]\n"
                  "[Annotator \"twinboard\"]\n"
                  "\n"
                  "{D.2.9 check} 1. e4 e5 {boards disagreed: VI board has Nf6} 2. Nf3 $2 2... Nc6\n"
                  "3. Bb5 1-0\n");
    ASSERT_EQ(n, (int)strlen(buf));
    /* snprintf semantics: a short buffer gets a terminated prefix and the full length */
    char small[10];
    ASSERT_EQ(tb_chess_pgn_write(g, small, sizeof small), n);
    ASSERT_STR_EQ(small, "[Event \"B");
    /* bad input changes nothing */
    ASSERT_EQ(tb_chess_pgn_tag_set(g, "Bad Name", "x", &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_tag_set(g, "Site", "two\nlines", &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_add_comment(g, 6, "after the end", &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_add_comment(g, 1, "has } brace", &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_add_nag(g, 0, 1, &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_add_nag(g, 1, 256, &err), TB_ERR_ARG);
    ASSERT_EQ(tb_chess_pgn_write(g, buf, sizeof buf), n);
    free(g);
}

TB_TEST(pgn_move_number_styles_and_games_without_moves)
{
    static const char text[] = "[Event \"a\"]\n\n1.e4 e5 2.Nf3 Nc6 1/2-1/2\n\n"
                               "[Event \"b\"]\n\n1. e4 1... e5 2. Nf3 2...Nc6 3 Bb5 0-1\n\n"
                               "[Event \"ep\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 e.p. e6 4. dxc7 ep *\n"
                               "[Event \"forfeit\"]\n[Result \"1-0\"]\n\n1-0\n\n"
                               "[Event \"no result\"]\n[Result \"0-1\"]\n\n1. d4\n"
                               "[Event \"last\"]\n\n1. d4 d5";
    tb_chess_pgn_reader r;
    tb_chess_pgn_game *g = new_game();
    struct tb_error err = {0};
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    static const int plies[] = {4, 5, 7, 0, 1, 2};
    static const char *const results[] = {"1/2-1/2", "0-1", "*", "1-0", "0-1", "*"};
    for (int i = 0; i < 6; i++) {
        int rc = tb_chess_pgn_read(&r, g, &err);
        if (rc != 1)
            TB_FAIL("game %d: %d %s", i + 1, rc, err.msg);
        ASSERT_EQ(g->game.plies, plies[i]);
        ASSERT_STR_EQ(g->result, results[i]);
    }
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 0);
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 0);
    free(g);
}

static const char corrupt_pgn[] =
    "[Event \"ok\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
    "[Event \"illegal\"]\n[White \"Kasparov, G\"]\n[Black \"Karpov, A\"]\n\n"
    "1. e4 e5 2. Nf3 Nc6\n3. Bc4 Qxf7 4. Qh5 1-0\n\n"
    "[Event \"after\"]\n\n1. d4 d5 *\n\n"
    "[Event \"bad tag\"]\n[White \"unterminated]\n[Black \"X\"]\n\n1. c4 *\n\n"
    "[Event \"ambiguous\"]\n[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *\n\n"
    "[Event \"garbage\"]\n\n1. e4 e5 2. @@ *\n\n"
    "[Event \"last\"]\n\n1. c4 c5 1/2-1/2\n";

TB_TEST(pgn_errors_name_game_ply_text_and_line_then_continue)
{
    tb_chess_pgn_reader r;
    tb_chess_pgn_game *g = new_game();
    struct tb_error err = {0};
    tb_chess_pgn_reader_init(&r, corrupt_pgn, strlen(corrupt_pgn));
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_EQ(err.msg, "game 2 (Kasparov, G - Karpov, A), move 3... (ply 6): 'Qxf7': Qxf7 is "
                           "illegal: no queen can capture on f7");
    ASSERT_EQ(err.line, 12);
    ASSERT_EQ(err.column, 8);
    ASSERT_EQ(g->game.plies, 5); /* the game up to the error */

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g, "Event"), "after");
    ASSERT_EQ(g->number, 3);

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_PARSE);
    ASSERT_STR_EQ(err.msg, "game 4: '[White \"unterminated]': the value has no closing quote");
    ASSERT_EQ(err.line, 19);

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_ILLEGAL);
    ASSERT_STR_EQ(err.msg, "game 5, move 1. (ply 1): 'Nd2': Nd2 is ambiguous: Nb1d2, Nf3d2");

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_PARSE);
    ASSERT_STR_EQ(err.msg, "game 6, move 2. (ply 3): '@': unexpected character in the moves");

    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 1);
    ASSERT_STR_EQ(tb_chess_pgn_tag_get(g, "Event"), "last");
    ASSERT_EQ(g->number, 7);
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), 0);
    free(g);
}

TB_TEST(guideline_ii_chess960_fen_without_variant_tag)
{
    static const char text[] = "[Event \"x\"]\n[FEN \"rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1\"]\n\n"
                               "1. O-O-O Kc8 *\n";
    tb_chess_pgn_game *g = read_one(text);
    ASSERT_TRUE(g->game.start.chess960);
    ASSERT_STR_EQ(move_uci(g, 0), "b1a1");
    char buf[1024];
    ASSERT_GT(tb_chess_pgn_write(g, buf, sizeof buf), 0);
    ASSERT_STR_CONTAINS(buf, "[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
                             "[FEN \"rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1\"]\n\n");
    ASSERT_STR_CONTAINS(buf, "\n1. O-O-O Kc8 *\n");
    free(g);
}

/* A game from a Chess960 array is written with Variant, SetUp and FEN (Shredder-FEN when the
 * array's rights look standard, so it stays Chess960) and reads back as the same game. */
TB_TEST(guideline_ii_pgn_writer_chess960_game_reads_back)
{
    static const int arrays[] = {0, 518, 959};
    static char buf[16384];
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        tb_chess_pos start;
        ASSERT_OK(tb_chess_pos_960(&start, arrays[a]));
        tb_chess_pgn_game *g = new_game();
        tb_chess_pgn_game_init(g, &start);
        struct game960 played;
        game960_play(&played, arrays[a], 60, GAME960_PLAIN | GAME960_SPECIAL, 99);
        ASSERT_GT(played.castlings, 0);
        for (int i = 0; i < played.plies; i++)
            ASSERT_OK(tb_chess_game_push(&g->game, played.moves[i]));
        ASSERT_GT(tb_chess_pgn_write(g, buf, sizeof buf), 0);
        char fen[100], tag[160];
        tb_chess_pos_to_fen(&start, fen, sizeof fen);
        snprintf(tag, sizeof tag, "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
        ASSERT_STR_CONTAINS(buf, tag);
        if (arrays[a] == 518)
            ASSERT_STR_CONTAINS(buf, " w HAha - 0 1\"]");
        tb_chess_pgn_game *back = read_one(buf);
        ASSERT_TRUE(back->game.start.chess960);
        ASSERT_TRUE(memcmp(&back->game.start, &start, sizeof start) == 0);
        ASSERT_EQ(back->game.plies, g->game.plies);
        for (int i = 0; i < g->game.plies; i++)
            ASSERT_EQ(back->game.moves[i], g->game.moves[i]);
        free(back);
        free(g);
    }
}

TB_TEST(pgn_malformed_input_is_reported_not_crashed)
{
    static const char *const bad[] = {
        "[Event \"x\"]\n\n1. e4 {never closed",
        "[Event \"x\"]\n\n1. e4 (1. d4 d5",
        "[Event \"x\"]\n\n1. e4 ) e5 *",
        "[Event \"x\"]\n\n1. e4 $999 *",
        "[Event \"x\"]\n\n1. e4 e5 ?!? *",
        "[Event \"x\"]\n[FEN \"8/8/8/8 w - - 0 1\"]\n\n*",
        "[Event x]\n\n*",
        "[ \"x\"]\n\n*",
        "[Event \"x\" \n\n*",
        "[Event \"x\"]\n\n1. Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3 *",
        "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *",
        "[Event \"x\"]\n\n1. e4 e5 2. \xe2\x99\x98\x66\x33 *",
    };
    static const char *const what[] = {
        "is never closed with '}'", "is never closed with ')'",
        "no variation is open",     "a NAG is $0 to $255",
        "unknown annotation",       "bad FEN tag",
        "in double quotes",         "a tag name must follow '['",
        "']' must close the tag",   "not a move",
        "Ke3 is illegal",           "move 2. (ply 3): '\\xE2': unexpected character",
    };
    tb_chess_pgn_game *g = new_game();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tb_chess_pgn_reader r;
        struct tb_error err = {0};
        tb_chess_pgn_reader_init(&r, bad[i], strlen(bad[i]));
        int rc = tb_chess_pgn_read(&r, g, &err);
        if (rc >= 0)
            TB_FAIL("case %zu read as %d", i, rc);
        ASSERT_STR_CONTAINS(err.msg, what[i]);
        ASSERT_STR_CONTAINS(err.msg, "game 1");
        ASSERT_GT(err.line, 0);
        ASSERT_GE(tb_chess_pgn_read(&r, g, &err), 0); /* the reader goes on */
    }
    free(g);
}

TB_TEST(pgn_limits_give_tb_err_full)
{
    /* 2080 plies: knights out and back */
    size_t cap = 64 * 1024;
    char *text = malloc(cap);
    ASSERT_NOT_NULL(text);
    size_t n = (size_t)snprintf(text, cap, "[Event \"long\"]\n\n");
    for (int i = 0; i < 520; i++)
        n += (size_t)snprintf(text + n, cap - n, "Nf3 Nf6 Ng1 Ng8 ");
    snprintf(text + n, cap - n, "*\n");
    tb_chess_pgn_reader r;
    tb_chess_pgn_game *g = new_game();
    struct tb_error err = {0};
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_FULL);
    ASSERT_STR_CONTAINS(err.msg, "(ply 2049): 'Nf3': a game can hold at most 2048 plies");
    ASSERT_EQ(g->game.plies, TB_CHESS_GAME_MAX_PLIES);
    free(text);

    /* a comment bigger than the text arena */
    cap = TB_CHESS_PGN_TEXT_SIZE + 100;
    text = malloc(cap);
    ASSERT_NOT_NULL(text);
    n = (size_t)snprintf(text, cap, "1. e4 {");
    memset(text + n, 'x', TB_CHESS_PGN_TEXT_SIZE);
    strcpy(text + n + TB_CHESS_PGN_TEXT_SIZE, "} *");
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    ASSERT_EQ(tb_chess_pgn_read(&r, g, &err), TB_ERR_FULL);
    ASSERT_STR_CONTAINS(err.msg, "exceed the text a game can hold");
    free(text);
    free(g);
}

TB_TEST(article_8_scoresheet_in_german_letters)
{
    static const char text[] =
        "[Event \"Vereinsmeisterschaft\"]\n[Site \"Berlin\"]\n[Date \"2024.05.04\"]\n"
        "[Round \"3\"]\n[White \"Schmidt, Anna\"]\n[Black \"Weber, Eva\"]\n[Result \"1-0\"]\n"
        "[WhiteElo \"1850\"]\n\n"
        "1. e4 Nf6 2. e5 d5 3. exd6 cxd6 4. Nf3 g6 5. Bc4 Bg7 6. O-O O-O 7. Qe2 Nc6 "
        "8. c3 Qc7 9. d4 Bf5 10. Re1 Rae8 1-0\n";
    tb_chess_pgn_game *g = read_one(text);
    char buf[2048];
    int n = tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_DE, buf, sizeof buf);
    ASSERT_EQ(n, (int)strlen(buf));
    ASSERT_STR_EQ(buf, "Turnier:   Vereinsmeisterschaft\n"
                       "Ort:       Berlin\n"
                       "Datum:     2024.05.04\n"
                       "Runde:     3\n"
                       "Wei\xc3\x9f:      Schmidt, Anna (1850)\n"
                       "Schwarz:   Weber, Eva\n"
                       "Ergebnis:  1-0\n"
                       "\n"
                       "       Wei\xc3\x9f          Schwarz\n"
                       "   1.  e4            Sf6\n"
                       "   2.  e5            d5\n"
                       "   3.  exd6 e.p.     cxd6\n"
                       "   4.  Sf3           g6\n"
                       "   5.  Lc4           Lg7\n"
                       "   6.  0-0           0-0\n"
                       "   7.  De2           Sc6\n"
                       "   8.  c3            Dc7\n"
                       "   9.  d4            Lf5\n"
                       "  10.  Te1           Tae8\n"
                       "\n"
                       "Ergebnis:  1-0\n"
                       "\n"
                       "Unterschrift Wei\xc3\x9f:     ______________________________\n"
                       "\n"
                       "Unterschrift Schwarz:  ______________________________\n");
    n = tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_NL, buf, sizeof buf);
    ASSERT_STR_CONTAINS(buf, "Wit:       Schmidt, Anna (1850)\n");
    ASSERT_STR_CONTAINS(buf, "   4.  Pf3           g6\n");
    ASSERT_STR_CONTAINS(buf, "  10.  Te1           Tae8\n");
    n = tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_EN, buf, sizeof buf);
    ASSERT_STR_CONTAINS(buf, "   6.  0-0           0-0\n");
    ASSERT_STR_CONTAINS(buf, "   7.  Qe2           Nc6\n");
    free(g);
}

TB_TEST(article_8_scoresheet_promotion_and_black_first)
{
    static const char text[] = "[Event \"x\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 b - - 0 40\"]\n\n"
                               "40... Kd7 41. b8=Q Kc6 42. Qb5+ 1-0\n";
    tb_chess_pgn_game *g = read_one(text);
    char buf[1024];
    tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_NL, buf, sizeof buf);
    ASSERT_STR_CONTAINS(buf, "  40.  ...           Kd7\n"
                             "  41.  b8D           Kc6\n"
                             "  42.  Db5+\n"
                             "\n"
                             "Uitslag:   1-0\n");
    tb_chess_scoresheet_write(g, TB_CHESS_LETTERS_EN, buf, sizeof buf);
    ASSERT_STR_CONTAINS(buf, "  41.  b8=Q          Kc6\n");
    free(g);
}
