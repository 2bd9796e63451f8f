/* test_round.c - the round's pairings, boards' PGN and results as an organiser sees them. */
#include <stdlib.h>
#include <string.h>

#include "tb_round.h"
#include "tb_test.h"

/* As a pairing program exports a round: one game per pairing, no moves. */
static const char pairings_pgn[] =
    "[Event \"Open 2026\"]\n[Site \"Leiden\"]\n[Date \"2026.11.28\"]\n[Round \"3\"]\n"
    "[Board \"2\"]\n[White \"Nakamura, Hikaru\"]\n[Black \"Carlsen, Magnus\"]\n"
    "[Result \"*\"]\n[WhiteTitle \"GM\"]\n[BlackTitle \"GM\"]\n[WhiteElo \"2802\"]\n"
    "[BlackElo \"2831\"]\n[WhiteFideId \"2016192\"]\n[BlackFideId \"1503014\"]\n\n*\n\n"
    "[Event \"Open 2026\"]\n[Site \"Leiden\"]\n[Date \"2026.11.28\"]\n[Round \"3.1\"]\n"
    "[White \"Anna Schmidt\"]\n[Black \"Bram de Vries\"]\n[Result \"*\"]\n\n*\n";

static struct tb_round *parse(const char *name, const char *text, struct tb_error *err)
{
    struct tb_round *r = calloc(1, sizeof *r);
    if (tb_round_parse(name, text, strlen(text), r, err) != TB_OK) {
        free(r);
        return NULL;
    }
    return r;
}

TB_TEST(pairings_pgn_binds_boards_in_order_with_round_dot_board)
{
    struct tb_error err;
    struct tb_round *r = parse("r3.pgn", pairings_pgn, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(r->n, 2);
    ASSERT_STR_EQ(r->round, "3");
    ASSERT_EQ(r->p[0].board, 1); /* board order, whatever the file's */
    ASSERT_STR_EQ(r->p[0].v[TB_ROUND_WHITE], "Anna Schmidt");
    ASSERT_STR_EQ(r->p[0].v[TB_ROUND_ROUND], "3.1");
    ASSERT_STR_EQ(r->p[1].v[TB_ROUND_ROUND], "3.2");
    ASSERT_STR_EQ(r->p[1].v[TB_ROUND_BLACK_FIDE], "1503014");
    ASSERT_STR_EQ(tb_round_board(r, 2)->v[TB_ROUND_WHITE_TITLE], "GM");
    ASSERT_NULL(tb_round_board(r, 3));
    free(r);
}

TB_TEST(pairings_csv_as_a_spreadsheet_saves_it)
{
    static const char csv[] = "\xEF\xBB\xBF"
                              "Board,White,Black,Round,WhiteFideId,BlackFideId,WhiteTitle\r\n"
                              "1,\"Carlsen, Magnus\",\"Nakamura, Hikaru\",5,1503014,2016192,GM\r\n"
                              "\r\n"
                              "2, Anna Schmidt ,Bram de Vries,5,,,\r\n";
    struct tb_error err;
    struct tb_round *r = parse("r5.csv", csv, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(r->n, 2);
    ASSERT_STR_EQ(r->p[0].v[TB_ROUND_WHITE], "Carlsen, Magnus");
    ASSERT_STR_EQ(r->p[0].v[TB_ROUND_ROUND], "5.1");
    ASSERT_STR_EQ(r->p[1].v[TB_ROUND_WHITE], "Anna Schmidt");
    ASSERT_STR_EQ(r->p[1].v[TB_ROUND_WHITE_FIDE], "");
    free(r);
}

/* Every bad file: refused, the message naming file, line and what is wrong. */
TB_TEST(bad_pairings_name_file_line_and_problem)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"A\"]\n\n*\n", "p:1: the pairing has no Black"},
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\n*\n\n"
         "[Round \"3\"]\n[Board \"1\"]\n[White \"C\"]\n[Black \"D\"]\n\n*\n",
         "p:8: board 1 is paired already (line 1)"},
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\n*\n\n"
         "[Round \"4\"]\n[Board \"2\"]\n[White \"C\"]\n[Black \"D\"]\n\n*\n",
         "p:8: round 4, but the file's round is 3 (line 1)"},
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"A \\\"the rook\\\"\"]\n[Black \"B\"]\n",
         "p:3: White: \"A \"the rook\"\" has a quote or backslash"},
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n",
         "p:6: a pairing has no moves"},
        {"[Round \"3\"]\n[Board \"x\"]\n", "p:2: Board: \"x\" is not a board number"},
        {"[Round \"3\"]\n[Board \"1\"]\n[WhiteElo \"27OO\"]\n",
         "p:3: WhiteElo: \"27OO\" is not a rating"},
        {"[Round \"3\"]\n[Board \"1\"]\n[White \"" /* 49 bytes */
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]\n",
         "p:3: White: longer than 48 bytes"},
        {"[Round \"3\"]\n[Round \"3\"]\n", "p:2: Round is given twice"},
        {"[Round \"3\"\n", "p:1: not a tag pair"},
        {"[White \"A\"]\n[Black \"B\"]\n[Round \"3\"]\n", "p:1: the pairing has no board"},
        {"Board,White,Black,Elo\n", "p:1: column \"Elo\" is none of"},
        {"Board,White,Black,Round\n1,A,B\n", "p:2: 3 fields, the header names 4"},
        {"Board,White,Black,Round\n1,A,B,3,x\n", "p:2: more fields than the header names"},
        {"Board,White,Black,Round\n1,\"A,B,3\n", "p:2: a quote is not closed"},
        {"Board,White,Black,Round\n", "p:1: no pairing in the file"},
        {"", "p:1: no header line and no pairing"},
    };
    struct tb_round *r = calloc(1, sizeof *r);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct tb_error err = {0};
        ASSERT_EQ(tb_round_parse("p", bad[i].text, strlen(bad[i].text), r, &err), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(err.msg, bad[i].want);
    }
    struct tb_error err = {0};
    ASSERT_EQ(tb_round_parse("p", "[Round \"3\"]\n\0x", 14, r, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "p:2: a NUL byte");
    free(r);
}

/* The table plays the pairing's game: its PGN with the pairing's Board, titles, ratings and
 * FIDE ids added; another game at the table: the pairing alone, no moves of that game. */
TB_TEST(board_pgn_is_the_tables_game_with_the_pairings_tags)
{
    struct tb_error err;
    struct tb_round *r = parse("r3.pgn", pairings_pgn, &err);
    ASSERT_NOT_NULL(r);
    const struct tb_round_pairing *p = tb_round_board(r, 2);
    static const char table[] =
        "[Event \"Open 2026\"]\n[Site \"Leiden\"]\n[Date \"2026.11.28\"]\n[Round \"3.2\"]\n"
        "[White \"Nakamura, Hikaru\"]\n[Black \"Carlsen, Magnus\"]\n[Result \"*\"]\n"
        "[TimeControl \"5400+30\"]\n\n1. e4 {[%clk 1:30:28]} *\n";
    char buf[2048];
    ASSERT_TRUE(tb_round_pgn_is(p, table));
    int n = tb_round_board_pgn(p, table, buf, sizeof buf);
    ASSERT_EQ((size_t)n, strlen(buf));
    ASSERT_STR_CONTAINS(buf, "[TimeControl \"5400+30\"]\n[Board \"2\"]\n[WhiteTitle \"GM\"]\n");
    ASSERT_STR_CONTAINS(buf, "[BlackFideId \"1503014\"]\n\n1. e4 {[%clk 1:30:28]} *\n");
    ASSERT_TRUE(strncmp(buf, table, 200) == 0 || strstr(buf, "[White \"Nakamura, Hikaru\"]"));
    /* the previous round's game still at the table: its moves are not this board's */
    static const char old[] =
        "[Event \"Open 2026\"]\n[Round \"2.2\"]\n[White \"Nakamura, Hikaru\"]\n"
        "[Black \"X\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
    ASSERT_FALSE(tb_round_pgn_is(p, old));
    tb_round_board_pgn(p, old, buf, sizeof buf);
    ASSERT_NULL(strstr(buf, "e4"));
    ASSERT_STR_CONTAINS(buf, "[Round \"3.2\"]\n[White \"Nakamura, Hikaru\"]\n"
                             "[Black \"Carlsen, Magnus\"]\n[Result \"*\"]\n[Board \"2\"]\n");
    ASSERT_STR_CONTAINS(buf, "\n\n*\n");
    /* too small a buffer: cut, the length needed returned */
    char small[16];
    ASSERT_EQ(tb_round_board_pgn(p, table, small, sizeof small), n);
    ASSERT_EQ(strlen(small), sizeof small - 1);
    free(r);
}

TB_TEST(results_list_csv_and_text)
{
    struct tb_error err;
    struct tb_round *r = parse("r3.pgn", pairings_pgn, &err);
    ASSERT_NOT_NULL(r);
    const char *res[] = {"1/2-1/2", "0-1"};
    char buf[512];
    tb_round_results_csv(r, res, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "Board,White,Black,Result\n1,Anna Schmidt,Bram de Vries,1/2-1/2\n"
                       "2,\"Nakamura, Hikaru\",\"Carlsen, Magnus\",0-1\n");
    tb_round_results_text(r, res, buf, sizeof buf);
    ASSERT_STR_CONTAINS(buf, "Round 3\n");
    ASSERT_STR_CONTAINS(buf, "    2  Nakamura, Hikaru  Carlsen, Magnus  0-1\n");
    free(r);
}

/* A TRF player record read by the columns FIDE's TRF-16 documents (C.04 Annex 2): 1-3 "001",
 * 5-8 start rank, 11-13 title, 15-47 name, 49-52 rating, 58-68 FIDE id, 81-84 points, 86-89
 * rank; round R at 92 + 10 (R - 1): opponent (4), colour (+5), result (+7). */
struct trf_player {
    int rank, place, rating, opp;
    char title[4], name[34], fide[12], points[5], colour, result;
};

static void trf_field(const char *line, size_t len, int col, int width, char *out)
{
    int k = 0;
    for (int c = col; c < col + width; c++)
        if ((size_t)c <= len)
            out[k++] = line[c - 1];
    out[k] = '\0';
    while (k && out[k - 1] == ' ') /* the field's padding */
        out[--k] = '\0';
    size_t lead = strspn(out, " ");
    memmove(out, out + lead, strlen(out + lead) + 1);
}

static bool trf_read(const char *line, size_t len, int round, struct trf_player *p)
{
    char f[40];
    if (len < 8 || strncmp(line, "001", 3) != 0)
        return false;
    trf_field(line, len, 5, 4, f);
    p->rank = atoi(f);
    trf_field(line, len, 11, 3, p->title);
    trf_field(line, len, 15, 33, p->name);
    trf_field(line, len, 49, 4, f);
    p->rating = atoi(f);
    trf_field(line, len, 58, 11, p->fide);
    trf_field(line, len, 81, 4, p->points);
    trf_field(line, len, 86, 4, f);
    p->place = atoi(f);
    int c = 92 + 10 * (round - 1);
    trf_field(line, len, c, 4, f);
    p->opp = atoi(f);
    trf_field(line, len, c + 5, 1, f);
    p->colour = f[0];
    trf_field(line, len, c + 7, 1, f);
    p->result = f[0];
    return true;
}

/* The round's results as the TRF's player records, read back by their documented columns:
 * each player at their start rank, the opponent's start rank, colour and result in round 3's
 * column, this round's points and the rank they give; a game still played has no result. */
TB_TEST(results_trf_player_records_at_the_documented_columns)
{
    static const char csv[] =
        "Board,White,Black,Round,WhiteStartRank,BlackStartRank,WhiteTitle,WhiteElo,WhiteFideId,"
        "Event\n"
        "1,\"Carlsen, Magnus\",\"Nakamura, Hikaru\",3,1,4,GM,2831,1503014,Open 2026\n"
        "2,\"de Vries, Bram\",\"Schmidt, Anna\",3,5,2,,,,Open 2026\n"
        "3,\"Ab, Cd\",\"Ef, Gh\",3,3,6,,,,Open 2026\n";
    struct tb_error err = {0};
    struct tb_round *r = parse("r3.csv", csv, &err);
    ASSERT_NOT_NULL(r);
    const char *res[] = {"1-0", "1/2-1/2", "*"};
    int n = tb_round_results_trf(r, res, NULL, 0, &err);
    ASSERT_TRUE(n > 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_EQ(tb_round_results_trf(r, res, buf, (size_t)n + 1, &err), n);
    ASSERT_EQ(strncmp(buf, "012 Open 2026\r\n", 15), 0);
    struct trf_player p[8];
    int np = 0;
    for (const char *line = buf; *line;) {
        const char *end = strstr(line, "\r\n");
        ASSERT_NOT_NULL(end); /* every line ends CR LF */
        if (np < 8 && trf_read(line, (size_t)(end - line), 3, &p[np]))
            np++;
        line = end + 2;
    }
    ASSERT_EQ(np, 6);
    for (int i = 0; i < np; i++)
        ASSERT_EQ(p[i].rank, i + 1); /* start-rank order */
    static const struct {
        const char *name, *points;
        int opp, place;
        char colour, result;
    } want[6] = {
        {"Carlsen, Magnus", "1.0", 4, 1, 'w', '1'},
        {"Schmidt, Anna", "0.5", 5, 2, 'b', '='}, /* start rank 2, Black on board 2 */
        {"Ab, Cd", "0.0", 6, 4, 'w', '\0'},       /* board 3 still played: no result */
        {"Nakamura, Hikaru", "0.0", 1, 4, 'b', '0'},
        {"de Vries, Bram", "0.5", 2, 2, 'w', '='},
        {"Ef, Gh", "0.0", 3, 4, 'b', '\0'},
    };
    for (int i = 0; i < np; i++) {
        ASSERT_STR_EQ(p[i].name, want[i].name);
        ASSERT_STR_EQ(p[i].points, want[i].points);
        ASSERT_EQ(p[i].opp, want[i].opp);
        ASSERT_EQ(p[i].place, want[i].place);
        ASSERT_EQ(p[i].colour, want[i].colour);
        ASSERT_EQ(p[i].result, want[i].result);
    }
    ASSERT_STR_EQ(p[0].title, "GM");
    ASSERT_EQ(p[0].rating, 2831);
    ASSERT_STR_EQ(p[0].fide, "1503014");
    free(buf);
    free(r);
}

/* Without every player's start rank no TRF: the message names the board and the player; a
 * start rank twice is refused too; a start rank that is no number is the file's error. */
TB_TEST(results_trf_needs_every_start_rank)
{
    struct tb_error err = {0};
    struct tb_round *r = parse("r3.pgn", pairings_pgn, &err);
    ASSERT_NOT_NULL(r);
    char buf[256];
    ASSERT_EQ(tb_round_results_trf(r, NULL, buf, sizeof buf, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg,
                        "board 1: Anna Schmidt (White) has no start rank (WhiteStartRank)");
    free(r);
    static const char twice[] = "Board,White,Black,Round,WhiteStartRank,BlackStartRank\n"
                                "1,A,B,3,1,2\n2,C,D,3,3,1\n";
    r = parse("t.csv", twice, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(tb_round_results_trf(r, NULL, buf, sizeof buf, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "start rank 1 is given twice (boards 1 and 2)");
    free(r);
    static const char zero[] = "Board,White,Black,Round,WhiteStartRank\n1,A,B,3,0\n";
    ASSERT_NULL(parse("z.csv", zero, &err));
    ASSERT_STR_CONTAINS(err.msg, "z.csv:2: WhiteStartRank: \"0\" is not a start rank");
}
