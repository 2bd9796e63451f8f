/* test_bug_games.c - random legal matches on two boards (tb_bug_gen_game) and their BPGN:
 * every game replays, is written, read back and equals what was generated; the generator is
 * deterministic per seed and reaches the hard cases (drops, promotions, promoted pawns passed
 * back as pawns, flags, mates, waits in stalemate). */
#include "tb_bug.h"
#include "tb_test.h"

#define GAMES     1000
#define BPGN_SIZE (256 * 1024)

struct tally {
    long plies, drops, promotions, promoted_returned, captures;
    long reasons[TB_BUG_WAIT_STALEMATE + 1];
};

/* Replays rec, checking every ply and counting what happened. */
static void replay(const tb_bug_record *rec, struct tally *t)
{
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    for (int i = 0; i < rec->nplies; i++) {
        const struct tb_bug_ply *p = &rec->plies[i];
        tb_bug_pos *b = &pos[p->board];
        ASSERT_TRUE(tb_bug_is_legal(b, p->move));
        t->drops += tb_bug_move_is_drop(p->move);
        t->promotions += tb_chess_move_promo(p->move) != 0;
        tb_bug_undo undo;
        tb_bug_make(b, p->move, &undo);
        if (undo.passed) {
            t->captures++;
            int sq = tb_chess_move_to(p->move);
            if ((undo.promoted & TB_CHESS_BIT(sq)) && tb_chess_move_kind(p->move) == 0) {
                /* 3.2: a promoted pawn taken goes as a pawn. */
                ASSERT_EQ(TB_CHESS_PIECE_TYPE(undo.passed), TB_CHESS_PAWN);
                t->promoted_returned++;
            }
            ASSERT_OK(tb_bug_pool_add(&pos[p->board ^ 1], undo.passed));
        }
    }
    t->plies += rec->nplies;
    ASSERT_TRUE(tb_bug_pos_equal(&pos[0], &rec->cur[0]) && tb_bug_pos_equal(&pos[1], &rec->cur[1]));
}

static void same(const tb_bug_record *a, const tb_bug_record *b)
{
    ASSERT_EQ(a->nplies, b->nplies);
    for (int i = 0; i < a->nplies; i++) {
        ASSERT_EQ(a->plies[i].board, b->plies[i].board);
        ASSERT_EQ(a->plies[i].move, b->plies[i].move);
        ASSERT_EQ(a->plies[i].clock_ms, b->plies[i].clock_ms);
    }
    for (int k = 0; k < 2; k++) {
        ASSERT_EQ(a->verdict[k].result, b->verdict[k].result);
        ASSERT_EQ(a->verdict[k].reason, b->verdict[k].reason);
        ASSERT_EQ(a->verdict[k].last_move, b->verdict[k].last_move);
        ASSERT_STR_EQ(a->verdict[k].article, b->verdict[k].article);
    }
    ASSERT_EQ(a->base_ms, b->base_ms);
    for (int k = 0; k < 4; k++)
        ASSERT_STR_EQ(a->names[k], b->names[k]);
}

TB_TEST(random_matches_round_trip_through_bpgn)
{
    tb_bug_record *rec = malloc(sizeof *rec), *back = malloc(sizeof *back);
    char *text = malloc(BPGN_SIZE);
    ASSERT_TRUE(rec && back && text);
    struct tally t;
    memset(&t, 0, sizeof t);
    for (int seed = 1; seed <= GAMES; seed++) {
        struct tb_bug_gen_config cfg = {.seed = (uint64_t)seed, .resign_permille = 2};
        int n = tb_bug_gen_game(&cfg, rec);
        if (n < 0)
            TB_FAIL("seed %d: generator failed: %d", seed, n);
        snprintf(rec->names[0], TB_BUG_NAME_MAX, "Wit \"A\" %d", seed);
        replay(rec, &t);
        for (int k = 0; k < 2; k++) {
            ASSERT_NE(rec->verdict[k].result, TB_BUG_ONGOING); /* 5.1: both games end */
            t.reasons[rec->verdict[k].reason]++;
        }
        int len = tb_bug_bpgn_write(rec, text, BPGN_SIZE);
        ASSERT_GT(len, 0);
        ASSERT_LT(len, BPGN_SIZE);
        struct tb_error err;
        if (tb_bug_bpgn_read(back, text, (size_t)len, &err) != TB_OK)
            TB_FAIL("seed %d: %s\n%s", seed, err.msg, text);
        same(rec, back);
    }
    fprintf(stderr,
            "%d matches, %ld plies, %ld drops, %ld promotions, %ld captures, %ld promoted pawns "
            "passed back; mate %ld, resigned %ld, flag %ld, flag-no-mate %ld, stalemate %ld, "
            "dead %ld\n",
            GAMES, t.plies, t.drops, t.promotions, t.captures, t.promoted_returned,
            t.reasons[TB_BUG_CHECKMATE], t.reasons[TB_BUG_RESIGNED], t.reasons[TB_BUG_FLAG],
            t.reasons[TB_BUG_FLAG_NO_MATE], t.reasons[TB_BUG_STALEMATE], t.reasons[TB_BUG_DEAD]);
    /* The generator reaches the hard cases. */
    ASSERT_GT(t.drops, 1000);
    ASSERT_GT(t.promotions, 100);
    ASSERT_GT(t.promoted_returned, 10);
    ASSERT_GT(t.reasons[TB_BUG_CHECKMATE], 10);
    ASSERT_GT(t.reasons[TB_BUG_FLAG], 10);
    ASSERT_GT(t.reasons[TB_BUG_RESIGNED], 10);
    free(rec);
    free(back);
    free(text);
}

TB_TEST(generator_is_deterministic_per_seed)
{
    tb_bug_record *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ASSERT_TRUE(a && b);
    struct tb_bug_gen_config cfg = {.seed = 42};
    ASSERT_GT(tb_bug_gen_game(&cfg, a), 0);
    ASSERT_GT(tb_bug_gen_game(&cfg, b), 0);
    same(a, b);
    cfg.seed = 43;
    ASSERT_GT(tb_bug_gen_game(&cfg, b), 0);
    bool differs = a->nplies != b->nplies;
    for (int i = 0; !differs && i < a->nplies; i++)
        differs = a->plies[i].move != b->plies[i].move || a->plies[i].board != b->plies[i].board;
    ASSERT_TRUE(differs);
    free(a);
    free(b);
}

TB_TEST(bpgn_shows_board_letters_drops_clocks_and_results)
{
    tb_bug_record *rec = malloc(sizeof *rec), *back = malloc(sizeof *back);
    ASSERT_TRUE(rec && back);
    tb_bug_record_init(rec);
    const char *moves[][2] = {{"A", "e4"},  {"B", "d4"}, {"A", "d5"},  {"A", "exd5"},
                              {"B", "Nf6"}, {"B", "c4"}, {"B", "P@e5"}};
    for (int i = 0; i < 7; i++) {
        int b = moves[i][0][0] - 'A';
        tb_bug_move m;
        struct tb_error err;
        if (tb_bug_move_from_san(&rec->cur[b], moves[i][1], TB_CHESS_LETTERS_EN, &m, &err))
            TB_FAIL("%s: %s", moves[i][1], err.msg);
        ASSERT_OK(tb_bug_record_push(rec, b, m, 420000 - 1500 * (i + 1)));
    }
    tb_bug_judge_resign(&rec->cur[0], TB_CHESS_WHITE, &rec->verdict[0]); /* off move */
    char text[4096];
    int len = tb_bug_bpgn_write(rec, text, sizeof text);
    ASSERT_GT(len, 0);
    ASSERT_STR_CONTAINS(text, "[WhiteA \"?\"]");
    ASSERT_STR_CONTAINS(text, "[TimeControl \"420\"]");
    ASSERT_STR_CONTAINS(text, "[ResultA \"0-1\"]");
    ASSERT_STR_CONTAINS(text, "[ResultB \"*\"]");
    char flat[4096];
    for (int i = 0; i <= len; i++)
        flat[i] = text[i] == '\n' ? ' ' : text[i]; /* movetext lines wrap below 80 columns */
    ASSERT_STR_CONTAINS(flat, "1A. e4 {418.500} 1B. d4 {417.000} 1a. d5 {415.500} 2A. exd5 "
                              "{414.000} 1b. Nf6 {412.500} 2B. c4 {411.000} 2b. P@e5 {409.500}");
    ASSERT_STR_CONTAINS(text, "{A: 0-1 resigned, last move allowed (5.2)} 0-1\n");
    struct tb_error err;
    ASSERT_OK(tb_bug_bpgn_read(back, text, (size_t)len, &err));
    same(rec, back);
    /* Errors name the line and the move. */
    const char *bad = "[Event \"x\"]\n\n1A. e4 1a. e5 2A. N@f3 *\n";
    ASSERT_EQ(tb_bug_bpgn_read(back, bad, strlen(bad), &err), TB_ERR_ILLEGAL);
    ASSERT_STR_CONTAINS(err.msg, "line 3");
    ASSERT_STR_CONTAINS(err.msg, "2A");
    ASSERT_STR_CONTAINS(err.msg, "2.2");
    const char *order = "\n1A. e4 2A. d4 *\n";
    ASSERT_EQ(tb_bug_bpgn_read(back, order, strlen(order), &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "on board A it is move 1 of Black");
    free(rec);
    free(back);
}

TB_TEST(bpgn_keeps_start_positions_with_pools)
{
    tb_bug_record *rec = malloc(sizeof *rec), *back = malloc(sizeof *back);
    ASSERT_TRUE(rec && back);
    tb_bug_record_init(rec);
    struct tb_error err;
    ASSERT_OK(tb_bug_pos_from_fen(&rec->start[0], "4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 20", &err));
    ASSERT_OK(tb_bug_pos_from_fen(&rec->start[1], "4k3/8/8/8/8/8/8/4K3[q] b - - 0 5", &err));
    tb_bug_move m;
    ASSERT_OK(tb_bug_move_from_san(&rec->start[0], "N@c3", TB_CHESS_LETTERS_EN, &m, &err));
    ASSERT_OK(tb_bug_record_push(rec, 0, m, 1000));
    ASSERT_OK(tb_bug_move_from_san(&rec->start[1], "Q@h5", TB_CHESS_LETTERS_EN, &m, &err));
    ASSERT_OK(tb_bug_record_push(rec, 1, m, 2000));
    char text[4096];
    int len = tb_bug_bpgn_write(rec, text, sizeof text);
    ASSERT_GT(len, 0);
    ASSERT_STR_CONTAINS(text, "[FEN \"4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 20\"]");
    ASSERT_STR_CONTAINS(text, "[FENB \"4k3/8/8/8/8/8/8/4K3[q] b - - 0 5\"]");
    ASSERT_STR_CONTAINS(text, "20A. N@c3 {1.000} 5b. Q@h5 {2.000}");
    ASSERT_OK(tb_bug_bpgn_read(back, text, (size_t)len, &err));
    same(rec, back);
    ASSERT_TRUE(tb_bug_pos_equal(&back->cur[0], &rec->cur[0]));
    ASSERT_TRUE(tb_bug_pos_equal(&back->cur[1], &rec->cur[1]));
    free(rec);
    free(back);
}
