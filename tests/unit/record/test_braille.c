/* test_braille.c - the braille scoresheet (D.2.7: the VI player may keep the score in braille):
 * the cells of castling, captures, checks, mate, promotion and en passant; page size and page
 * numbers; a hand-checked game per language cell by cell; 50 corpus games back-translated by
 * liblouis; refusals of bad options. */
#include <liblouis.h>
#include <stdlib.h>
#include <string.h>

#include "tb_record.h"
#include "tb_run.h"
#include "tb_test.h"

/* The cells of the move san (English SAN) in pos, in language lang, as BRF text. */
static void brf_of(const char *fen, const char *san, enum tb_chess_letters lang, char *out)
{
    tb_chess_pos pos;
    if (fen)
        ASSERT_OK(tb_chess_pos_from_fen(&pos, fen, 0, NULL));
    else
        tb_chess_pos_startpos(&pos);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_san(&pos, san, TB_CHESS_LETTERS_EN, &m, NULL));
    tb_record_cell c[16];
    int n = tb_record_braille_move(&pos, m, lang, c, 16);
    ASSERT_GT(n, 0);
    for (int i = 0; i < n; i++)
        out[i] = tb_record_brf_char(c[i]);
    out[n] = 0;
}

static tb_chess_pgn_game *read_game(const char *text, long number)
{
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, strlen(text));
    struct tb_error err = {0};
    int rc;
    while ((rc = tb_chess_pgn_read(&r, g, &err)) == 1 && r.games < number)
        ;
    if (rc != 1)
        TB_FAIL("game %ld: %s", number, err.msg);
    return g;
}

/* The hand-checked game: castling both ways, en passant, an under-promotion, checks. */
static tb_chess_pgn_game *reference_game(void)
{
    const char *dir = getenv("TB_RECORD_DATA");
    ASSERT_NOT_NULL(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/reference.pgn", dir);
    char *pgn = tb_run_read_file(path, NULL);
    tb_chess_pgn_game *g = read_game(pgn, 1);
    free(pgn);
    return g;
}

/* The scoresheet of g as BRF (or Unicode) text, malloc'd; pages into *pages. */
static char *sheet(const tb_chess_pgn_game *g, const struct tb_record_braille_opts *o, int *pages)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_NOT_NULL(f);
    struct tb_error err = {0};
    int rc = tb_record_braille_write(g, o, f, &err);
    fclose(f);
    if (rc < 1)
        TB_FAIL("braille: %d %s", rc, err.msg);
    if (pages)
        *pages = rc;
    return buf;
}

TB_TEST(law_D_2_7_castling_is_zeros_and_hyphens)
{
    char b[17];
    const char *fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    brf_of(fen, "O-O", TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "0-0");
    brf_of(fen, "O-O-O", TB_CHESS_LETTERS_EN, b);
    ASSERT_STR_EQ(b, "0-0-0");
    /* The cells themselves: lower zero (dots 3-5-6), hyphen (dots 3-6). */
    tb_chess_pos pos;
    ASSERT_OK(tb_chess_pos_from_fen(&pos, fen, 0, NULL));
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_san(&pos, "O-O", TB_CHESS_LETTERS_EN, &m, NULL));
    tb_record_cell c[16];
    ASSERT_EQ(tb_record_braille_move(&pos, m, TB_CHESS_LETTERS_NL, c, 16), 3);
    ASSERT_EQ(c[0], 4 + 16 + 32);
    ASSERT_EQ(c[1], 4 + 32);
    ASSERT_EQ(c[2], 4 + 16 + 32);
}

TB_TEST(law_D_2_7_piece_letters_per_language_and_lower_ranks)
{
    char b[17];
    brf_of(NULL, "Nf3", TB_CHESS_LETTERS_EN, b);
    ASSERT_STR_EQ(b, "SF3"); /* the braille chess code's knight is s */
    brf_of(NULL, "Nf3", TB_CHESS_LETTERS_NL, b);
    ASSERT_STR_EQ(b, "PF3");
    brf_of(NULL, "Nf3", TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "SF3");
    /* f3 as cells: f (dots 1-2-4), lower 3 (dots 2-5), no numeral sign. */
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_chess_move m;
    ASSERT_OK(tb_chess_move_from_san(&pos, "e4", TB_CHESS_LETTERS_EN, &m, NULL));
    tb_record_cell c[16];
    ASSERT_EQ(tb_record_braille_move(&pos, m, TB_CHESS_LETTERS_DE, c, 16), 2);
    ASSERT_EQ(c[0], 1 + 16);      /* e: dots 1-5 */
    ASSERT_EQ(c[1], 2 + 16 + 32); /* lower 4: dots 2-5-6 */
}

TB_TEST(law_D_2_7_capture_check_and_mate_signs)
{
    char b[17];
    brf_of("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "exd5",
           TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "EXD5"); /* x: dots 1-3-4-6 */
    ASSERT_EQ(tb_record_brf_cell('X'), 1 + 4 + 8 + 32);
    brf_of("rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3", "Bxf7+",
           TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "LXF7+"); /* +: dots 3-4-6 */
    ASSERT_EQ(tb_record_brf_cell('+'), 4 + 8 + 32);
    brf_of("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "Qh4#",
           TB_CHESS_LETTERS_NL, b);
    ASSERT_STR_EQ(b, "DH4#"); /* #: dots 3-4-5-6 */
    ASSERT_EQ(tb_record_brf_cell('#'), 4 + 8 + 16 + 32);
}

TB_TEST(law_3_7_5_promotion_piece_after_the_square)
{
    char b[17];
    const char *fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    brf_of(fen, "a8=Q", TB_CHESS_LETTERS_EN, b);
    ASSERT_STR_EQ(b, "A8Q");
    brf_of(fen, "a8=Q", TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "A8D");
    brf_of(fen, "axb8=N", TB_CHESS_LETTERS_NL, b);
    ASSERT_STR_EQ(b, "AXB8P");
    brf_of(fen, "axb8=R+", TB_CHESS_LETTERS_DE, b);
    ASSERT_STR_EQ(b, "AXB8T+");
}

TB_TEST(law_3_7_4_en_passant_has_no_mark)
{
    char b[17];
    brf_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6",
           TB_CHESS_LETTERS_EN, b);
    ASSERT_STR_EQ(b, "EXF6");
}

TB_TEST(law_D_2_7_reference_game_cell_by_cell_per_language)
{
    const char *dir = getenv("TB_RECORD_DATA");
    char path[1024];
    tb_chess_pgn_game *g = reference_game();
    static const char *const langs[] = {"en", "nl", "de"};
    for (int l = 0; l < 3; l++) {
        snprintf(path, sizeof path, "%s/reference-%s.brf", dir, langs[l]);
        size_t want_len;
        char *want = tb_run_read_file(path, &want_len);
        struct tb_record_braille_opts o = {.lang = (enum tb_chess_letters)l, .grade = 1};
        int pages;
        char *got = sheet(g, &o, &pages);
        ASSERT_EQ(pages, 1);
        for (size_t i = 0; i < want_len; i++)
            if (got[i] != want[i])
                TB_FAIL("%s: cell %zu differs: '%c' for '%c'", langs[l], i, got[i], want[i]);
        ASSERT_EQ(strlen(got), want_len);
        free(got);
        free(want);
    }
    free(g);
}

/* Splits BRF into pages and lines and checks the page size: every line at most cells, every
 * page lines lines ending in its number (number sign, upper digits) at the right margin. */
static int check_pages(const char *brf, int cells, int lines)
{
    int pages = 0;
    const char *p = brf;
    while (*p) {
        const char *ff = strchr(p, '\f');
        ASSERT_NOT_NULL(ff);
        int nl = 0;
        const char *last = p;
        for (const char *q = p; q < ff;) {
            const char *eol = strstr(q, "\r\n");
            ASSERT_TRUE(eol && eol < ff);
            ASSERT_LE(eol - q, cells);
            last = q;
            nl++;
            q = eol + 2;
        }
        ASSERT_EQ(nl, lines);
        pages++;
        /* The number sign, then the page's digits as upper digits (the letters a-j). */
        char digits[16], num[20] = "#";
        static const char upper[] = "JABCDEFGHI";
        int nd = snprintf(digits, sizeof digits, "%d", pages);
        for (int i = 0; i < nd; i++)
            num[1 + i] = upper[digits[i] - '0'];
        num[1 + nd] = 0;
        size_t k = strlen(num);
        ASSERT_EQ(strstr(last, "\r\n") - last, cells);
        ASSERT_TRUE(!strncmp(last + cells - k, num, k));
        p = ff + 1;
    }
    return pages;
}

TB_TEST(law_D_2_7_pages_at_the_configured_size)
{
    tb_chess_pgn_game *g = reference_game();
    int pages;
    struct tb_record_braille_opts o = {.lang = TB_CHESS_LETTERS_DE, .cells = 20, .lines = 6};
    char *brf = sheet(g, &o, &pages);
    /* 4 header lines, a blank, 13 move lines, the result: 19 lines, 5 on a page. */
    ASSERT_EQ(pages, 4);
    ASSERT_EQ(check_pages(brf, 20, 6), 4);
    /* Page 2 begins where page 1's five lines end: the first move after the blank. */
    ASSERT_STR_CONTAINS(brf, "\f1 E4 F5\r\n2 E5 D5\r\n");
    free(brf);
    /* The blank line after the header never opens a page: with 5 lines a page, the header
     * fills page 1 and the moves begin page 2. */
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_DE, .cells = 20, .lines = 5};
    brf = sheet(g, &o, &pages);
    ASSERT_EQ(check_pages(brf, 20, 5), pages);
    ASSERT_STR_CONTAINS(brf, "#A\r\n\f1 E4 F5\r\n");
    free(brf);
    /* Defaults: 40 cells, 25 lines, one page. */
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_DE};
    brf = sheet(g, &o, &pages);
    ASSERT_EQ(check_pages(brf, 40, 25), 1);
    free(brf);
    /* A pair too wide for the line: Black's move on a line of its own after dots 3-6. */
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_DE, .cells = 16, .lines = 40};
    brf = sheet(g, &o, &pages);
    ASSERT_STR_CONTAINS(brf, "\r\n10 D4 LXH2+\r\n11 KXH2 SG4+\r\n");
    free(brf);
    free(g);
}

TB_TEST(law_D_2_7_a_game_from_a_position_with_black_to_move)
{
    /* The first line is Black's half alone: the move number, then dots 3-6 (print's "40..."). */
    tb_chess_pgn_game *g = read_game("[White \"C\"]\n[Black \"D\"]\n[SetUp \"1\"]\n"
                                     "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n"
                                     "40... Kd7 41. e4 Ke6 *\n",
                                     1);
    struct tb_record_braille_opts o = {.lang = TB_CHESS_LETTERS_DE};
    char *brf = sheet(g, &o, NULL);
    ASSERT_STR_CONTAINS(brf, "\r\n40 -KD7\r\n41 E4 KE6\r\n");
    free(brf);
    free(g);
}

TB_TEST(law_D_2_7_unicode_for_a_display)
{
    tb_chess_pgn_game *g = reference_game();
    struct tb_record_braille_opts o = {.lang = TB_CHESS_LETTERS_EN, .unicode = true};
    char *u = sheet(g, &o, NULL);
    ASSERT_STR_CONTAINS(u, "\n⠶⠀⠃⠃⠢⠀⠴⠤⠴\n"); /* 7 Bb5 0-0 */
    ASSERT_NULL(strchr(u, '\f'));
    ASSERT_NULL(strchr(u, '\r'));
    free(u);
    free(g);
}

/* The moves of a BRF scoresheet back-translated by liblouis's North American computer braille
 * table: each move line "N white black" gives the moves as written. */
static void back_translate(const char *brf, char *out, size_t len)
{
    widechar in[8192], res[8192];
    int n = 0;
    for (const char *p = brf; *p && n < 8191; p++) {
        if (*p == '\r' || *p == '\f')
            continue;
        if (*p == '\n') {
            in[n++] = 0x8000; /* a line ends: an empty cell */
            continue;
        }
        int c = tb_record_brf_cell(*p);
        ASSERT_GE(c, 0);
        in[n++] = 0x8000 | (widechar)c; /* liblouis dots */
    }
    int outlen = 8192;
    ASSERT_TRUE(
        lou_backTranslateString("en-us-comp6.ctb", in, &n, res, &outlen, NULL, NULL, dotsIO));
    size_t k = 0;
    for (int i = 0; i < outlen && k + 1 < len; i++)
        out[k++] = res[i] < 128 ? (char)res[i] : '?';
    out[k] = 0;
}

TB_TEST(law_D_2_7_fifty_corpus_games_back_translate_to_their_moves)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/twic0920.pgn", tb_test_data_dir());
    size_t len;
    char *pgn = tb_run_read_file(path, &len);
    /* Games 1-46, two mates (82, 350), two under-promotions (311 to a knight, 568 to a rook). */
    long numbers[50];
    for (int i = 0; i < 46; i++)
        numbers[i] = i + 1;
    numbers[46] = 82, numbers[47] = 350, numbers[48] = 311, numbers[49] = 568;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, pgn, len);
    int seen[5] = {0}; /* castling, e.p., under-promotion, check, mate */
    int done = 0;
    while (done < 50 && tb_chess_pgn_read(&r, g, NULL) == 1) {
        int want = 0;
        for (int i = 0; i < 50; i++)
            want |= numbers[i] == r.games;
        if (!want)
            continue;
        done++;
        enum tb_chess_letters lang = (enum tb_chess_letters)(done % 3);
        struct tb_record_braille_opts o = {.lang = lang, .cells = 32, .lines = 20};
        int pages;
        char *brf = sheet(g, &o, &pages);
        ASSERT_EQ(check_pages(brf, 32, 20), pages);
        static char text[40000];
        back_translate(brf, text, sizeof text);
        /* Every move, in order, as the notation writes it (lower case, knight s or p). */
        tb_chess_pos pos = g->game.start;
        const char *at = text;
        for (int ply = 0; ply < g->game.plies; ply++) {
            char san[16], word[20];
            tb_chess_move m = g->game.moves[ply];
            ASSERT_GT(tb_chess_move_to_san(&pos, m, lang, TB_CHESS_SAN_NOEQ | TB_CHESS_SAN_ZERO,
                                           san, sizeof san),
                      0);
            int k = 0;
            for (const char *s = san; *s; s++)
                word[k++] = (char)(lang == TB_CHESS_LETTERS_EN && *s == 'N' ? 's'
                                   : *s >= 'A' && *s <= 'Z'                 ? *s + 32
                                                                            : *s);
            word[k] = 0;
            seen[0] |= san[0] == '0';
            seen[1] |= tb_chess_move_kind(m) == TB_CHESS_MK_EP;
            seen[2] |= tb_chess_move_promo(m) && tb_chess_move_promo(m) != TB_CHESS_QUEEN;
            seen[3] |= strchr(san, '+') != NULL;
            seen[4] |= strchr(san, '#') != NULL;
            /* The next whole word that is the move (a header may hold "#d4ad"). */
            const char *hit = at;
            while ((hit = strstr(hit, word)) && ((hit > text && hit[-1] != ' ' && hit[-1] != '-') ||
                                                 (hit[k] != ' ' && hit[k] != 0)))
                hit++;
            if (!hit)
                TB_FAIL("game %ld ply %d: '%s' not found in order", r.games, ply + 1, word);
            at = hit + k;
            tb_chess_undo u;
            tb_chess_make(&pos, m, &u);
        }
        free(brf);
    }
    ASSERT_EQ(done, 50);
    for (int i = 0; i < 5; i++)
        if (!seen[i])
            TB_FAIL("the 50 games lack feature %d", i);
    free(g);
    free(pgn);
}

TB_TEST(law_D_2_7_refuses_bad_options)
{
    tb_chess_pgn_game *g = reference_game();
    struct tb_error err = {0};
    char buf[64];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    struct tb_record_braille_opts o = {.lang = TB_CHESS_LETTERS_DE, .cells = 10};
    ASSERT_EQ(tb_record_braille_write(g, &o, f, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "cells 10");
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_DE, .lines = 2};
    ASSERT_EQ(tb_record_braille_write(g, &o, f, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "lines 2");
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_NL, .grade = 2};
    ASSERT_EQ(tb_record_braille_write(g, &o, f, &err), TB_ERR_SUPP);
    ASSERT_STR_CONTAINS(err.msg, "Dutch braille has no contracted grade");
    ASSERT_EQ(ftell(f), 0); /* nothing written */
    fclose(f);
    /* Contracted German and English exist and differ from grade 1. */
    o = (struct tb_record_braille_opts){.lang = TB_CHESS_LETTERS_EN, .grade = 2};
    char *g2 = sheet(g, &o, NULL);
    o.grade = 1;
    char *g1 = sheet(g, &o, NULL);
    ASSERT_TRUE(strcmp(g1, g2) != 0);
    free(g1);
    free(g2);
    free(g);
}
