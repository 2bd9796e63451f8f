/* test_rules.c - make/unmake, move squares, the 9.2.2 position identity, draw rules of
 * Articles 5 and 9, and games. */
#include "tb_chess.h"
#include "tb_test.h"

static tb_chess_pos load(const char *fen)
{
    tb_chess_pos pos;
    struct tb_error err;
    if (tb_chess_pos_from_fen(&pos, fen, 0, &err) != TB_OK)
        TB_FAIL("'%s' refused: %s", fen, err.msg);
    return pos;
}

static tb_chess_move mv(const char *from, const char *to, int kind)
{
    return tb_chess_move_new(tb_chess_square_parse(from), tb_chess_square_parse(to), kind);
}

/* A game (on the heap: it is large) from fen, or from the start position when fen is NULL. */
static tb_chess_game *new_game(const char *fen)
{
    tb_chess_game *game = malloc(sizeof *game);
    ASSERT_NOT_NULL(game);
    tb_chess_pos start;
    if (fen)
        start = load(fen);
    else
        tb_chess_pos_startpos(&start);
    tb_chess_game_init(game, &start);
    return game;
}

/* Plays "e2e4 e7e5 ..." (from-to pairs, normal moves only) into game. */
static void play(tb_chess_game *game, const char *moves)
{
    for (const char *p = moves; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        tb_chess_move m = mv(p, p + 2, TB_CHESS_MK_NORMAL);
        if (tb_chess_game_push(game, m) != TB_OK)
            TB_FAIL("move %.4s is not legal", p);
        p += 4;
    }
}

/* Walks the tree to depth, checking after every make that the position is consistent and after
 * every unmake that it is byte for byte what it was. */
static void walk(tb_chess_pos *pos, int depth)
{
    tb_chess_movelist list;
    tb_chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        tb_chess_pos before = *pos;
        tb_chess_undo undo;
        tb_chess_make(pos, list.moves[i], &undo);
        ASSERT_OK(tb_chess_pos_check(pos));
        if (depth > 1)
            walk(pos, depth - 1);
        tb_chess_unmake(pos, list.moves[i], &undo);
        if (memcmp(pos, &before, sizeof before) != 0)
            TB_FAIL("unmake of move %04x did not restore the position", list.moves[i]);
    }
}

TB_TEST(make_unmake_restores_position_exactly)
{
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        tb_chess_pos pos = load(fens[i]);
        walk(&pos, 3);
    }
}

TB_TEST(make_updates_counters_and_rights)
{
    tb_chess_pos pos = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 10");
    tb_chess_undo u1, u2;
    tb_chess_make(&pos, mv("a1", "a8", TB_CHESS_MK_NORMAL), &u1);
    /* 3.8.2.1: White's a-rook moved, Black's a-rook was taken: both queen-side rights gone. */
    ASSERT_EQ(pos.castle_rook[TB_CHESS_CR_WQ], TB_CHESS_NOSQ);
    ASSERT_EQ(pos.castle_rook[TB_CHESS_CR_BQ], TB_CHESS_NOSQ);
    ASSERT_EQ(pos.castle_rook[TB_CHESS_CR_WK], tb_chess_square_parse("h1"));
    ASSERT_EQ(pos.halfmove, 0); /* 9.3: a capture */
    tb_chess_make(&pos, mv("e8", "e7", TB_CHESS_MK_NORMAL), &u2);
    ASSERT_EQ(pos.castle_rook[TB_CHESS_CR_BK], TB_CHESS_NOSQ);
    ASSERT_EQ(pos.halfmove, 1);
    ASSERT_EQ(pos.fullmove, 11);
    char fen[100];
    tb_chess_pos_to_fen(&pos, fen, sizeof fen);
    ASSERT_STR_EQ(fen, "R6r/4k3/8/8/8/8/8/4K2R w K - 1 11");
}

TB_TEST(law_3_7_4_ep_capture_squares)
{
    tb_chess_pos pos = load("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    tb_chess_move m = mv("e5", "d6", TB_CHESS_MK_EP);
    ASSERT_TRUE(tb_chess_is_legal(&pos, m));
    struct tb_chess_move_squares sq;
    tb_chess_move_squares(&pos, m, &sq);
    ASSERT_EQ(sq.capture_sq, tb_chess_square_parse("d5"));
    ASSERT_EQ(sq.captured, TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN));
    ASSERT_EQ(sq.rook_from, TB_CHESS_NOSQ);
    tb_chess_undo undo;
    tb_chess_make(&pos, m, &undo);
    ASSERT_EQ(tb_chess_piece_at(&pos, tb_chess_square_parse("d5")), 0);
    ASSERT_EQ(tb_chess_piece_at(&pos, tb_chess_square_parse("d6")), TB_CHESS_PIECE(0, 1));
}

/* 3.7.4 with 3.9: both pawns leave the fourth rank, which would open it to the queen. */
TB_TEST(law_3_7_4_ep_illegal_when_it_exposes_the_king_on_the_rank)
{
    tb_chess_pos pos = load("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    ASSERT_FALSE(tb_chess_is_legal(&pos, mv("e4", "d3", TB_CHESS_MK_EP)));
    ASSERT_TRUE(tb_chess_is_legal(&pos, mv("e4", "e3", TB_CHESS_MK_NORMAL)));
}

TB_TEST(law_3_7_5_promotion_to_four_pieces)
{
    tb_chess_pos pos = load("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    for (int kind = TB_CHESS_MK_PROMO_N; kind <= TB_CHESS_MK_PROMO_Q; kind++)
        ASSERT_TRUE(tb_chess_is_legal(&pos, mv("b7", "b8", kind)));
    ASSERT_FALSE(tb_chess_is_legal(&pos, mv("b7", "b8", TB_CHESS_MK_NORMAL)));
    ASSERT_EQ(tb_chess_perft(&pos, 1), 9);
}

/* 9.2.2: the e.p. square is part of the identity only when the capture is legal. */
TB_TEST(law_9_2_2_repetition_key_ep_only_when_capture_legal)
{
    tb_chess_pos with_ep = load("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    tb_chess_pos without = load("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    ASSERT_NE(tb_chess_repetition_key(&with_ep), tb_chess_repetition_key(&without));
    /* Same, but dxe3 would expose the king on a4 to the rook on h4: not a legal capture. */
    tb_chess_pos pinned_ep = load("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
    tb_chess_pos pinned_no = load("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
    ASSERT_NE(pinned_ep.key, pinned_no.key);
    ASSERT_EQ(tb_chess_repetition_key(&pinned_ep), tb_chess_repetition_key(&pinned_no));
    /* Side to move and castling rights are part of it (9.2.2). */
    tb_chess_pos white = load("4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1");
    ASSERT_NE(tb_chess_repetition_key(&white), tb_chess_repetition_key(&without));
    tb_chess_pos rights = load("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    tb_chess_pos norights = load("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    ASSERT_NE(tb_chess_repetition_key(&rights), tb_chess_repetition_key(&norights));
}

/* After e2-e4 with a legal d4xe3 e.p. available, the later positions with the same pieces are
 * not the same position (9.2.2); when d4xe3 is illegal they are. */
TB_TEST(law_9_2_2_first_position_after_double_push_differs_only_if_ep_legal)
{
    tb_chess_game *game = new_game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(game, "e2e4 e8e7 e1e2 e7e8 e2e1");
    ASSERT_EQ(tb_chess_game_repetitions(game), 1);
    play(game, "e8e7 e1e2 e7e8 e2e1 e8e7 e1e2 e7e8 e2e1");
    ASSERT_EQ(tb_chess_game_repetitions(game), 3);

    free(game);
    game = new_game("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
    play(game, "e2e4 a4a5 e1e2 a5a4 e2e1");
    ASSERT_EQ(tb_chess_game_repetitions(game), 2);
    play(game, "a4a5 e1e2 a5a4 e2e1 a4a5 e1e2 a5a4 e2e1");
    ASSERT_EQ(tb_chess_game_repetitions(game), 4);
    free(game);
}

TB_TEST(law_9_2_threefold_claim_now_and_by_declared_move)
{
    tb_chess_game *game = new_game(NULL);
    play(game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    ASSERT_EQ(tb_chess_game_repetitions(game), 2);
    /* 9.2.1.1: Black may claim by declaring f6-g8, which makes the start position appear a
     * third time. */
    ASSERT_TRUE(tb_chess_game_can_claim_threefold(game));
    play(game, "f6g8");
    ASSERT_EQ(tb_chess_game_repetitions(game), 3);
    ASSERT_TRUE(tb_chess_game_can_claim_threefold(game)); /* 9.2.1.2 */
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_PLAYING);
    /* Before the repetitions nothing can be claimed. */
    tb_chess_game_init(game, &game->start);
    play(game, "g1f3 g8f6 f3g1");
    ASSERT_FALSE(tb_chess_game_can_claim_threefold(game));
    free(game);
}

TB_TEST(law_9_6_1_fivefold_repetition_ends_the_game)
{
    tb_chess_game *game = new_game(NULL);
    for (int i = 0; i < 3; i++)
        play(game, "g1f3 g8f6 f3g1 f6g8");
    ASSERT_EQ(tb_chess_game_repetitions(game), 4);
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_PLAYING);
    play(game, "g1f3 g8f6 f3g1 f6g8");
    ASSERT_EQ(tb_chess_game_repetitions(game), 5);
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_FIVEFOLD);
    /* Taking a move back undoes it. */
    ASSERT_OK(tb_chess_game_pop(game));
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_PLAYING);
    free(game);
}

TB_TEST(law_9_3_fifty_move_claim)
{
    tb_chess_game *game = new_game("4k3/8/8/8/8/8/4P3/R3K3 w - - 98 60");
    ASSERT_FALSE(tb_chess_game_can_claim_fifty(game));
    play(game, "a1a2");
    /* 9.3.2: Black's next quiet move completes the fifty. */
    ASSERT_TRUE(tb_chess_game_can_claim_fifty(game));
    play(game, "e8d8");
    ASSERT_EQ(game->pos.halfmove, 100);
    ASSERT_TRUE(tb_chess_game_can_claim_fifty(game)); /* 9.3.1 */
    play(game, "e2e4");                               /* a pawn move starts the count again */
    ASSERT_FALSE(tb_chess_game_can_claim_fifty(game));
    /* With 99 plies and only pawn moves and captures possible, no claim by declaration. */
    tb_chess_pos pos = load("8/8/8/8/8/p7/P1k4P/K7 w - - 99 80");
    tb_chess_game_init(game, &pos);
    ASSERT_FALSE(tb_chess_game_can_claim_fifty(game));
    free(game);
}

TB_TEST(law_9_6_2_seventyfive_moves_and_mate_precedence)
{
    tb_chess_game *game = new_game("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 100");
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_PLAYING);
    play(game, "e1e2");
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_SEVENTYFIVE);
    ASSERT_OK(tb_chess_game_pop(game));
    /* 9.6.2: if the last move mates, the mate stands. */
    play(game, "a1a8");
    ASSERT_EQ(game->pos.halfmove, 150);
    ASSERT_EQ(tb_chess_game_state(game), TB_CHESS_CHECKMATE);
    free(game);
}

TB_TEST(law_5_1_1_checkmate_and_5_2_1_stalemate)
{
    tb_chess_pos mate = load("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    ASSERT_EQ(tb_chess_pos_state(&mate), TB_CHESS_CHECKMATE);
    tb_chess_pos stale = load("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    ASSERT_EQ(tb_chess_pos_state(&stale), TB_CHESS_STALEMATE);
    tb_chess_pos check = load("7k/6Q1/8/6K1/8/8/8/8 b - - 0 1");
    ASSERT_EQ(tb_chess_pos_state(&check), TB_CHESS_PLAYING);
}

TB_TEST(law_5_2_2_dead_positions)
{
    static const struct {
        const char *fen;
        bool dead;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},       /* K v K */
        {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},     /* K+B v K */
        {"4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true},     /* K+N v K */
        {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    /* bishops c1 and f8: both dark */
        {"4k3/8/8/8/8/8/B7/B3K3 w - - 0 1", false},    /* a1 dark, a2 light: mate exists */
        {"3bkb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", false}, /* bishops on both colours */
        {"3bk3/8/8/8/8/8/8/B1B1K3 w - - 0 1", true},   /* a1, c1, d8: all dark */
        {"4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false},    /* d1 light, f8 dark */
        {"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},   /* K+N+N v K: a mate exists */
        {"4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", false},   /* K+B v K+N */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},    {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_chess_pos pos = load(cases[i].fen);
        if (tb_chess_pos_is_dead(&pos) != cases[i].dead)
            TB_FAIL("%s: dead should be %d", cases[i].fen, cases[i].dead);
        if (cases[i].dead)
            ASSERT_EQ(tb_chess_pos_state(&pos), TB_CHESS_DEAD);
    }
}

TB_TEST(game_push_refuses_illegal_and_pop_restores)
{
    tb_chess_game *game = new_game(NULL);
    ASSERT_EQ(tb_chess_game_pop(game), TB_ERR_STATE);
    ASSERT_EQ(tb_chess_game_push(game, mv("e2", "e5", TB_CHESS_MK_NORMAL)), TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_chess_game_push(game, 0), TB_ERR_ILLEGAL);
    ASSERT_EQ(game->plies, 0);
    play(game, "e2e4 e7e5 g1f3");
    ASSERT_EQ(game->plies, 3);
    ASSERT_OK(tb_chess_game_pop(game));
    ASSERT_OK(tb_chess_game_pop(game));
    ASSERT_OK(tb_chess_game_pop(game));
    ASSERT_TRUE(memcmp(&game->pos, &game->start, sizeof game->start) == 0);
    free(game);
}

TB_TEST(attacks_and_check_queries)
{
    tb_chess_pos pos = load("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    ASSERT_TRUE(tb_chess_attacked(&pos, tb_chess_square_parse("a8"), TB_CHESS_WHITE));
    ASSERT_FALSE(tb_chess_attacked(&pos, tb_chess_square_parse("b8"), TB_CHESS_WHITE));
    ASSERT_FALSE(tb_chess_in_check(&pos));
    char name[3];
    ASSERT_STR_EQ(tb_chess_square_name(tb_chess_square_parse("h8"), name), "h8");
    ASSERT_EQ(tb_chess_square_parse("i1"), -1);
    ASSERT_EQ(tb_chess_square_parse("a9"), -1);
    ASSERT_EQ(tb_chess_move_king_to(mv("e1", "h1", TB_CHESS_MK_CASTLE)),
              tb_chess_square_parse("g1"));
    ASSERT_EQ(tb_chess_move_king_to(mv("e8", "a8", TB_CHESS_MK_CASTLE)),
              tb_chess_square_parse("c8"));
}

/* The most moves known in a legal position: 218, well inside the move list. */
TB_TEST(movelist_holds_218_moves)
{
    tb_chess_pos pos = load("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    tb_chess_movelist list;
    ASSERT_EQ(tb_chess_gen_legal(&pos, &list), 218);
    ASSERT_LE(list.count, TB_CHESS_MAX_MOVES);
}

TB_TEST(pos_check_finds_inconsistencies)
{
    tb_chess_pos pos, bad;
    tb_chess_pos_startpos(&pos);
    ASSERT_OK(tb_chess_pos_check(&pos));
    bad = pos;
    bad.board[tb_chess_square_parse("e4")] = TB_CHESS_PIECE(0, TB_CHESS_PAWN); /* no bitboard */
    ASSERT_EQ(tb_chess_pos_check(&bad), TB_ERR_STATE);
    bad = pos;
    bad.key ^= 1;
    ASSERT_EQ(tb_chess_pos_check(&bad), TB_ERR_STATE);
    bad = pos;
    bad.king_sq[TB_CHESS_BLACK] = 0;
    ASSERT_EQ(tb_chess_pos_check(&bad), TB_ERR_STATE);
    bad = pos;
    bad.ep = (uint8_t)tb_chess_square_parse("e3");
    ASSERT_EQ(tb_chess_pos_check(&bad), TB_ERR_STATE);
    bad = pos;
    bad.board[tb_chess_square_parse("a1")] = 7; /* not a piece code */
    ASSERT_EQ(tb_chess_pos_check(&bad), TB_ERR_STATE);
}

/* 6.9: after a flag fall the game is drawn if the opponent cannot mate by any series of legal
 * moves. */
TB_TEST(law_6_9_can_mate_by_any_series_of_moves)
{
    static const struct {
        const char *fen;
        bool white, black;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},
        {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false},   /* K+N v K */
        {"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", true, false},   /* two knights can mate */
        {"4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", false, false},  /* bishops on one colour */
        {"4k3/8/8/8/8/8/8/B2BK3 w - - 0 1", true, false},    /* bishops on both colours */
        {"4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1", true, true},    /* the pawn can block: helpmate */
        {"4k3/8/8/8/8/8/8/2B1K2b w - - 0 1", true, true},    /* c1 dark, h1 light */
        {"4k3/8/8/8/8/8/8/2B1K1b1 w - - 0 1", false, false}, /* c1, g1 dark: dead */
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false},
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", true, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_chess_pos pos = load(cases[i].fen);
        if (tb_chess_can_mate(&pos, TB_CHESS_WHITE) != cases[i].white ||
            tb_chess_can_mate(&pos, TB_CHESS_BLACK) != cases[i].black)
            TB_FAIL("%s: expected white %d black %d", cases[i].fen, cases[i].white, cases[i].black);
    }
}
