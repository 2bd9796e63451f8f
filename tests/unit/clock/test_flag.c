/* Flag fall judged by 6.9: the player loses, unless the opponent cannot mate by any possible
 * series of legal moves; then the game is drawn. The material test (tb_chess_can_mate) is
 * checked against the boards themselves: where it says a side can never mate, no checkmate
 * position with that material exists; where it says it can, one is found. */
#include "tb_clock.h"
#include "tb_test.h"

#define S(x) ((uint64_t)(x)*1000)
#define M(x) ((uint64_t)(x)*60000)
#define W    TB_CHESS_WHITE
#define B    TB_CHESS_BLACK

static tb_chess_pos load(const char *fen)
{
    tb_chess_pos pos;
    struct tb_error err = {0};
    if (tb_chess_pos_from_fen(&pos, fen, 0, &err) != TB_OK)
        TB_FAIL("%s: %s", fen, err.msg);
    return pos;
}

static struct tb_clock_judgement judge(const char *fen, int side)
{
    tb_chess_pos pos = load(fen);
    struct tb_clock_judgement j;
    ASSERT_OK(tb_clock_judge_flag(&pos, side, &j));
    ASSERT_NOT_NULL(j.why);
    return j;
}

static void expect(const char *fen, int side, int verdict, const char *result, const char *cites)
{
    struct tb_clock_judgement j = judge(fen, side);
    if (j.verdict != verdict || strcmp(j.result, result) != 0 || !strstr(j.why, cites))
        TB_FAIL("%s, %s's flag: verdict %d \"%s\" (%s); expected %d \"%s\" citing %s", fen,
                side == W ? "White" : "Black", j.verdict, j.result, j.why, verdict, result, cites);
}

TB_TEST(law_6_9_flag_loses_while_the_opponent_can_mate)
{
    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    expect(fen, W, TB_CLOCK_LOSS, "0-1", "6.9");
    expect(fen, B, TB_CLOCK_LOSS, "1-0", "6.9");
    /* A rook against a bare king: Black's flag loses, White's draws. */
    expect("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9");
    expect("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", W, TB_CLOCK_DRAW, "1/2-1/2", "6.9");
}

/* The opponent has only its king: it can never mate, whatever the flagged side has. */
TB_TEST(law_6_9_draw_when_the_opponent_has_a_bare_king)
{
    expect("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", W, TB_CLOCK_DRAW, "1/2-1/2", "6.9");
    expect("4k3/pppppppp/8/8/8/8/8/4K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "6.9");
    expect("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9");
}

/* A lone minor piece cannot mate a bare king (the position is dead as well, 5.2.2), nor can
 * bishops that all stand on squares of one colour; bishops on both colours can. */
TB_TEST(law_6_9_draw_when_the_opponent_has_king_and_bishop_against_king)
{
    expect("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "5.2.2");
    expect("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "5.2.2");
    expect("4k3/8/8/8/8/8/8/B1B1K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "5.2.2");
    expect("4k3/8/8/8/8/8/8/B2BK3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9");
    /* Not dead (Black's queen could mate), yet White's dark bishops never can. */
    expect("4k3/8/8/8/8/8/6q1/B1B1K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "6.9");
    expect("4k3/8/8/8/8/8/6q1/B1B1K3 w - - 0 1", W, TB_CLOCK_LOSS, "0-1", "6.9");
}

/* "By any possible series of legal moves": a lone knight or bishop can mate when the flagged
 * side's own men block its king (a helpmate), so the flag loses; but not when those men are
 * ones that always take the checking piece or step into the check (a queen; a rook against the
 * bishop), and then it is a draw although the position is not dead. */
TB_TEST(law_6_9_lone_minor_mates_only_with_the_right_blockers)
{
    expect("4k3/8/8/8/8/8/3r4/1N2K3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9"); /* K+N v K+R */
    expect("4k3/4p3/8/8/8/8/8/2B1K3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9"); /* K+B v K+P */
    expect("4kn2/8/8/8/8/8/8/1N2K3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9");  /* K+N v K+N */
    expect("3bk3/8/8/8/8/8/8/4KB2 b - - 0 1", B, TB_CLOCK_LOSS, "1-0",
           "6.9"); /* B v B, two colours */
    expect("4k3/8/8/3q4/8/8/8/1N2K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "6.9"); /* K+N v K+Q */
    expect("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", W, TB_CLOCK_LOSS, "0-1", "6.9");
    expect("4k3/8/8/8/8/8/3r4/2B1K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "6.9"); /* K+B v K+R */
    expect("4k3/8/8/8/8/8/2q5/2B1K3 b - - 0 1", B, TB_CLOCK_DRAW, "1/2-1/2", "6.9"); /* K+B v K+Q */
    expect("4k3/8/q2r4/8/8/8/8/1N2K3 b - - 0 1", B, TB_CLOCK_LOSS, "1-0", "6.9");    /* the rook */
}

/* 6.9's exceptions: a game already ended by checkmate (5.1.1) or stalemate (5.2.1). */
TB_TEST(law_6_9_flag_after_mate_or_stalemate_does_not_count)
{
    struct tb_clock_judgement j =
        judge("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", W);
    ASSERT_EQ(j.verdict, TB_CLOCK_ENDED);
    ASSERT_STR_EQ(j.result, "");
    ASSERT_STR_CONTAINS(j.why, "5.1.1");
    j = judge("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", B);
    ASSERT_EQ(j.verdict, TB_CLOCK_ENDED);
    ASSERT_STR_CONTAINS(j.why, "5.2.1");
    tb_chess_pos pos = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    ASSERT_EQ(tb_clock_judge_flag(&pos, 2, &j), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_judge_flag(NULL, W, &j), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_judge_flag(&pos, W, NULL), TB_ERR_ARG);
}

/* The whole path: a blitz game played on the chess core and the clock, a flag falls, the
 * position decides. */
static void play_until_flag(const char *start_fen, const char *moves, uint64_t think,
                            const char *result, int verdict)
{
    tb_chess_game *game = malloc(sizeof *game);
    ASSERT_NOT_NULL(game);
    tb_chess_pos start = load(start_fen);
    tb_chess_game_init(game, &start);
    struct tb_clock_control ctl;
    ASSERT_OK(tb_clock_control_parse(&ctl, "blitz", NULL));
    tb_clock c;
    ASSERT_OK(tb_clock_init(&c, &ctl, NULL));
    uint64_t t = 0;
    ASSERT_OK(tb_clock_start(&c, tb_chess_side_to_move(&start), t));
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_parse(&game->pos, tok, &m, NULL));
        int side = tb_chess_side_to_move(&game->pos);
        ASSERT_OK(tb_chess_game_push(game, m));
        ASSERT_OK(tb_clock_press(&c, side, t += think)); /* D.2.4: made, then pressed */
    }
    int to_move = tb_chess_side_to_move(&game->pos);
    uint64_t deadline = tb_clock_next_deadline(&c);
    ASSERT_U64_EQ(deadline, t + tb_clock_remaining(&c, to_move, t));
    ASSERT_EQ(tb_clock_update(&c, deadline), 1);
    struct tb_clock_event ev;
    ASSERT_TRUE(tb_clock_event_pop(&c, &ev));
    ASSERT_EQ(ev.kind, TB_CLOCK_EV_FLAG);
    ASSERT_EQ(ev.side, to_move);
    ASSERT_TRUE(ev.first);
    struct tb_clock_judgement j;
    ASSERT_OK(tb_clock_judge_flag(&game->pos, ev.side, &j));
    ASSERT_EQ(j.verdict, verdict);
    ASSERT_STR_EQ(j.result, result);
    free(game);
}

TB_TEST(law_6_9_blitz_flag_through_the_clock)
{
    /* Black runs out after 1. e4 e5 2. Nf3: White can mate, Black loses. */
    play_until_flag("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e4 e5 Nf3", S(20),
                    "1-0", TB_CLOCK_LOSS);
    /* White's last pawn is gone: a bare king against king and bishop, White's flag draws. */
    play_until_flag("4k3/8/8/1b6/8/3P4/8/4K3 b - - 0 1", "Bxd3 Kd2 Bb5", S(5), "1/2-1/2",
                    TB_CLOCK_DRAW);
    /* King and rook against a bare king: White's flag draws, Black's loses. */
    play_until_flag("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+ Kd7", S(100), "1/2-1/2", TB_CLOCK_DRAW);
    play_until_flag("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+ Kd7 Ra7+", S(100), "1-0",
                    TB_CLOCK_LOSS);
}

/* ---- the material test against the boards -------------------------------------------------- */

/* A FEN with the given men (piece letter, square) and side to move; 0 when two share a square
 * or the FEN reader refuses the position (kings adjacent, the side not to move in check ...). */
static bool place(tb_chess_pos *pos, const char *letters, const int *squares, int n, int side)
{
    char board[64];
    memset(board, 0, sizeof board);
    for (int i = 0; i < n; i++) {
        if (board[squares[i]])
            return false;
        board[squares[i]] = letters[i];
    }
    char fen[100];
    int k = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char ch = board[rank * 8 + file];
            if (!ch) {
                empty++;
                continue;
            }
            if (empty)
                fen[k++] = (char)('0' + empty);
            empty = 0;
            fen[k++] = ch;
        }
        if (empty)
            fen[k++] = (char)('0' + empty);
        if (rank)
            fen[k++] = '/';
    }
    snprintf(fen + k, sizeof fen - (size_t)k, " %c - - 0 1", side == W ? 'w' : 'b');
    return tb_chess_pos_from_fen(pos, fen, 0, NULL) == TB_OK;
}

/* Every board with the class's men where the lone minor piece gives check: the defending king
 * on one eighth of the board (the a1-d1-d4 triangle; the rest are mirror images with the same
 * mates), the minor piece on a square that attacks it (a mate needs a check), every square for
 * the other two men. Bishops: same = the defender's bishop on the attacker's colour. */
static long count_mates(const char *letters, int bishops, tb_chess_pos *sample)
{
    static const int jump[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    int n = (int)strlen(letters);
    long mates = 0, boards = 0;
    for (int dk = 0; dk < 64; dk++) {
        int df = TB_CHESS_FILE(dk), dr = TB_CHESS_RANK(dk);
        if (df > 3 || dr > df)
            continue;
        for (int p = 0; p < 64; p++) {
            int pf = TB_CHESS_FILE(p), pr = TB_CHESS_RANK(p);
            bool checks = false;
            if (letters[2] == 'N') {
                for (int j = 0; j < 8; j++)
                    checks |= pf + jump[j][0] == df && pr + jump[j][1] == dr;
            } else {
                checks = p != dk && (pf - df == pr - dr || pf - df == dr - pr);
            }
            if (!checks)
                continue;
            for (int wk = 0; wk < 64; wk++) {
                for (int q = 0; q < (n > 3 ? 64 : 1); q++) {
                    if (bishops && ((TB_CHESS_FILE(q) + TB_CHESS_RANK(q)) % 2 == (pf + pr) % 2) !=
                                       (bishops == 1))
                        continue;
                    int sq[4] = {dk, wk, p, q};
                    tb_chess_pos pos;
                    if (!place(&pos, letters, sq, n, B))
                        continue;
                    boards++;
                    if (tb_chess_pos_state(&pos) == TB_CHESS_CHECKMATE && mates++ == 0)
                        *sample = pos;
                }
            }
        }
    }
    ASSERT_GT(boards, 1000); /* the search did look at boards */
    return mates;
}

/* 6.9's material test checked on the boards: a checkmate with the class's men exists exactly
 * when tb_chess_can_mate says the lone minor piece can mate. */
TB_TEST(law_6_9_can_mate_agrees_with_every_board)
{
    static const struct {
        const char *letters; /* defending king, attacking king, minor piece, defender's man */
        int bishops;         /* 1: the defender's bishop on the minor's colour, 2: the other */
        bool mates;
    } classes[] = {
        {"kKN", 0, false},  {"kKB", 0, false},  {"kKNq", 0, false}, {"kKNr", 0, true},
        {"kKNb", 0, true},  {"kKNn", 0, true},  {"kKNp", 0, true},  {"kKBq", 0, false},
        {"kKBr", 0, false}, {"kKBb", 1, false}, {"kKBb", 2, true},  {"kKBn", 0, true},
        {"kKBp", 0, true},
    };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        tb_chess_pos mate;
        long mates = count_mates(classes[i].letters, classes[i].bishops, &mate);
        if ((mates > 0) != classes[i].mates)
            TB_FAIL("%s (%d): %ld mates", classes[i].letters, classes[i].bishops, mates);
        /* The same men placed anywhere else: can_mate answers for the material. */
        int sq[4] = {TB_CHESS_SQ(4, 7), TB_CHESS_SQ(4, 0), TB_CHESS_SQ(2, 0),
                     classes[i].bishops == 1 ? TB_CHESS_SQ(3, 5) : TB_CHESS_SQ(3, 4)};
        tb_chess_pos pos;
        ASSERT_TRUE(place(&pos, classes[i].letters, sq, (int)strlen(classes[i].letters), B));
        if (tb_chess_can_mate(&pos, W) != classes[i].mates)
            TB_FAIL("%s (%d): can_mate says %d", classes[i].letters, classes[i].bishops,
                    !classes[i].mates);
        if (mates) {
            ASSERT_TRUE(tb_chess_can_mate(&mate, W));
            struct tb_clock_judgement j;
            ASSERT_OK(tb_clock_judge_flag(&mate, B, &j));
            ASSERT_EQ(j.verdict, TB_CLOCK_ENDED); /* the mate itself ended the game */
        }
    }
}
