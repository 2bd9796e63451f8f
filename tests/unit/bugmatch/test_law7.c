/* Article 7 of the club's rules on sensor boards (host/bugmatch irregular.c): an illegal move
 * put back before the press (7.3), completed with the clock pressed and accepted or replaced
 * (7.4-7.6), the piece an illegal capture passed taken back from the partner's hand or, once
 * placed, from the partner's board (7.7); and random matches with illegal moves inserted. */
#include <stdio.h>
#include <stdlib.h>

#include "outputs.h"
#include "tb_bugmatch.h"
#include "tb_test.h"

/* All outputs so far as lines, "|" between, touches left out. */
static const char *drain(tb_bugmatch *m)
{
    return bugmatch_lines(m);
}

#define SQ(name) (((name)[1] - '1') * 8 + ((name)[0] - 'a'))

static tb_bugmatch *match_from(const char *fen_a, const char *fen_b)
{
    return bugmatch_started(NULL, fen_a, fen_b);
}

static void lift(tb_bugmatch *m, int b, const char *sq, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_lift(m, b, SQ(sq), *t += 300));
}

static void place(tb_bugmatch *m, int b, const char *sq, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_place(m, b, SQ(sq), 0, *t += 300));
}

/* A piece moved (a capture: the target lifted first), not pressed. */
static void shift(tb_bugmatch *m, int b, const char *from, const char *to, bool capture,
                  uint64_t *t)
{
    if (capture)
        lift(m, b, to, t);
    lift(m, b, from, t);
    place(m, b, to, t);
}

static void press(tb_bugmatch *m, int b, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_press(m, b, *t += 500));
}

/* A match from the start in which White's knight went g1-g4 and the clock was pressed (7.4),
 * its outputs read. */
static tb_bugmatch *knight_to_g4(uint64_t *t)
{
    tb_bugmatch *m = match_from(NULL, NULL);
    shift(m, 0, "g1", "g4", false, t);
    press(m, 0, t);
    drain(m);
    return m;
}

/* Pieces of each colour and shape over both boards and all hands (3.1: a promoted pawn is a
 * pawn): what 7.7 must keep, no piece created or lost. */
static void census(const tb_bugmatch *m, int count[2][7])
{
    memset(count, 0, sizeof(int) * 14);
    const tb_bug_record *rec = tb_bugmatch_record(m);
    for (int b = 0; b < 2; b++) {
        const tb_bug_pos *p = &rec->cur[b];
        for (int sq = 0; sq < 64; sq++) {
            int pc = p->chess.board[sq];
            if (pc)
                count[TB_CHESS_PIECE_COLOR(pc)]
                     [p->promoted & TB_CHESS_BIT(sq) ? TB_CHESS_PAWN : TB_CHESS_PIECE_TYPE(pc)]++;
        }
        for (int c = 0; c < 2; c++)
            for (int k = TB_CHESS_PAWN; k <= TB_CHESS_QUEEN; k++)
                count[c][k] += p->pool[c][k];
    }
}

/* The BPGN of the match holds text (NULL: anything) and, read back, the same positions and
 * plies. */
static void bpgn_round_trip(const tb_bugmatch *m, const char *text)
{
    const tb_bug_record *rec = tb_bugmatch_record(m);
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_TRUE(buf != NULL);
    ASSERT_EQ(tb_bug_bpgn_write(rec, buf, (size_t)n + 1), n);
    if (text)
        ASSERT_STR_CONTAINS(buf, text);
    static tb_bug_record back;
    struct tb_error err;
    if (tb_bug_bpgn_read(&back, buf, (size_t)n, &err) != 0)
        TB_FAIL("BPGN not read back: %s\n%s", err.msg, buf);
    ASSERT_EQ(back.nplies, rec->nplies);
    for (int i = 0; i < rec->nplies; i++) {
        ASSERT_EQ(back.plies[i].move, rec->plies[i].move);
        ASSERT_EQ(back.plies[i].irregular, rec->plies[i].irregular);
    }
    for (int b = 0; b < 2; b++)
        ASSERT_TRUE(tb_bug_pos_equal(&back.cur[b], &rec->cur[b]));
    free(buf);
}

/* ---- 7.3 --------------------------------------------------------------------------------- */

/* 7.3: an illegal move shown but not pressed may be put back; it is no move and no
 * irregularity, and the knight it touched must still be moved (FIDE 4.3, reglement 4). */
TB_TEST(law_7_3_illegal_move_put_back_before_the_press_is_no_move_and_the_touched_piece_must_move)
{
    tb_bugmatch *m = match_from(NULL, NULL);
    uint64_t t = 0;
    shift(m, 0, "g1", "g4", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 500));
    ASSERT_STR_CONTAINS(drain(m), "! illegal g1 placed g4");
    shift(m, 0, "g4", "g1", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 500));
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_NONE);
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 0);
    ASSERT_EQ(tb_bugmatch_accept(m, 0, t += 10), TB_ERR_STATE);
    shift(m, 0, "e2", "e4", false, &t);
    press(m, 0, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "touch-move touched g1");
    ASSERT_STR_CONTAINS(out, "A White: e4|");
    ASSERT_STR_CONTAINS(out, "A White: ply 1 completed");
    ASSERT_TRUE(strstr(out, "illegal move") == NULL);
    ASSERT_EQ(tb_bugmatch_record(m)->plies[0].irregular, 0);
    tb_bugmatch_free(m);
}

/* ---- 7.4, 7.5 ---------------------------------------------------------------------------- */

/* Nothing waits: accept and replace are refused and change nothing. */
TB_TEST(law_7_4_accept_and_replace_with_nothing_pending_are_refused)
{
    tb_bugmatch *m = match_from(NULL, NULL);
    uint64_t t = 0;
    shift(m, 0, "e2", "e4", false, &t);
    press(m, 0, &t);
    drain(m);
    ASSERT_EQ(tb_bugmatch_accept(m, 0, t += 10), TB_ERR_STATE);
    ASSERT_EQ(tb_bugmatch_replace(m, 0, t += 10), TB_ERR_STATE);
    ASSERT_EQ(tb_bugmatch_replace(m, 1, t += 10), TB_ERR_STATE);
    ASSERT_EQ(tb_bugmatch_accept(m, 2, t += 10), TB_ERR_ARG);
    ASSERT_STR_EQ(drain(m), "");
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 1);
    ASSERT_EQ(tb_bugmatch_clock(m, 0)->turn, TB_CHESS_BLACK);
    tb_bugmatch_free(m);
}

/* 7.4: pressed, the illegal move is flagged: the opponent's clock runs, the opponent hears it
 * and may accept it; the game goes on from the board and the record keeps it. */
TB_TEST(law_7_4_illegal_move_pressed_is_flagged_and_may_be_accepted)
{
    struct tb_voice_pack *de;
    struct tb_error err;
    ASSERT_OK(tb_voice_pack_load("de-fide", &de, &err));
    tb_bugmatch *m = match_from(NULL, NULL);
    uint64_t t = 0;
    shift(m, 0, "g1", "g4", false, &t);
    press(m, 0, &t);
    struct tb_bugmatch_out o;
    ASSERT_EQ(tb_bugmatch_poll(m, &o), 1);
    while (o.kind != TB_BUGMATCH_OUT_ILLEGAL_MOVE)
        ASSERT_EQ(tb_bugmatch_poll(m, &o), 1);
    char line[256];
    ASSERT_GT(tb_bugmatch_out_format(&o, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "A White: illegal move Ng1g4 (7.4): A Black may accept it or demand a "
                        "legal move");
    ASSERT_EQ(o.hear, 1u << 1); /* the opponent */
    ASSERT_GT(tb_bugmatch_out_say(de, &o, TB_VOICE_SHORT, line, sizeof line), 0);
    ASSERT_STR_EQ(line, "Regelwidriger Zug: Springer Gustav eins Gustav vier. Annehmen oder "
                        "Ersatz verlangen, Artikel 7.4");
    ASSERT_EQ(tb_bugmatch_clock(m, 0)->turn, TB_CHESS_BLACK);
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_ASKED);
    ASSERT_EQ(tb_bugmatch_accept(m, 1, t += 10), TB_ERR_STATE); /* not on board B */
    ASSERT_OK(tb_bugmatch_accept(m, 0, t += 100));
    ASSERT_STR_EQ(drain(m), "A Black accepts the illegal move g1g4 (7.4)");
    ASSERT_EQ(tb_bugmatch_accept(m, 0, t += 10), TB_ERR_STATE);
    shift(m, 0, "e7", "e5", false, &t);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A Black: e5|A Black: ply 2 completed");
    /* the knight plays on from g4 */
    shift(m, 0, "g4", "e5", true, &t);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White: Nxe5");
    const tb_bug_record *rec = tb_bugmatch_record(m);
    ASSERT_EQ(rec->nplies, 3);
    ASSERT_EQ(rec->plies[0].irregular, TB_BUG_PLY_ILLEGAL);
    bpgn_round_trip(m, "{A 7.4: illegal move} 1A. Ng1g4");
    tb_voice_pack_free(de);
    tb_bugmatch_free(m);
}

/* 7.5: the opponent who plays on from the board has accepted the illegal move and can no
 * longer demand its replacement. */
TB_TEST(law_7_5_a_move_played_on_accepts_the_illegal_move)
{
    uint64_t t = 0;
    tb_bugmatch *m = knight_to_g4(&t);
    shift(m, 0, "e7", "e5", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    ASSERT_STR_CONTAINS(drain(m),
                        "A Black accepts the illegal move g1g4 (7.5: played on)|A Black: e5");
    ASSERT_EQ(tb_bugmatch_replace(m, 0, t += 10), TB_ERR_STATE);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A Black: ply 2 completed");
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_NONE);
    tb_bugmatch_free(m);
}

/* A move the game cannot go on from (the mover's king left in check) cannot be accepted: the
 * opponent hears why and must demand a legal move; nothing enters the record. */
TB_TEST(law_7_4_move_leaving_the_king_in_check_cannot_be_accepted)
{
    tb_bugmatch *m = match_from("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", NULL);
    uint64_t t = 0;
    shift(m, 0, "e1", "e2", false, &t);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White: illegal move Ke1e2 (7.4): it cannot stand (it leaves "
                                  "the mover's king in check (3.9)); A Black may demand a legal "
                                  "move");
    ASSERT_EQ(tb_bugmatch_accept(m, 0, t += 10), TB_ERR_ILLEGAL);
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 0);
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 100));
    ASSERT_STR_CONTAINS(drain(m), "A White must take back e1e2");
    shift(m, 0, "e2", "e1", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    ASSERT_STR_CONTAINS(drain(m), "A: board put back before e1e2");
    shift(m, 0, "e1", "d2", true, &t);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White: Kxd2");
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, 1);
    tb_bugmatch_free(m);
}

/* ---- 7.6 --------------------------------------------------------------------------------- */

/* 7.4, 7.6: the opponent demands a legal move and starts the offender's clock; the board is
 * put back, the game returns to the position before, and the knight touched must move. */
TB_TEST(law_7_6_replacement_starts_the_offenders_clock_and_the_touched_piece_must_move)
{
    uint64_t t = 0;
    tb_bugmatch *m = knight_to_g4(&t);
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 800));
    ASSERT_STR_EQ(drain(m), "A White must take back g1g4 and play a legal move, the piece on g1 "
                            "touched (7.4, 7.6)");
    ASSERT_EQ(tb_bugmatch_clock(m, 0)->turn, TB_CHESS_WHITE);
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_PUT_BACK);
    ASSERT_EQ(tb_bugmatch_replace(m, 0, t += 10), TB_ERR_STATE);
    shift(m, 0, "g4", "g1", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    ASSERT_STR_CONTAINS(drain(m), "A: board put back before g1g4");
    shift(m, 0, "d2", "d4", false, &t);
    press(m, 0, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "touch-move touched g1");
    ASSERT_STR_CONTAINS(out, "A White: d4");
    const tb_bug_record *rec = tb_bugmatch_record(m);
    ASSERT_EQ(rec->nplies, 3);
    ASSERT_EQ(rec->plies[1].irregular, TB_BUG_PLY_TAKEBACK);
    ASSERT_EQ(rec->cur[0].chess.side, TB_CHESS_BLACK);
    ASSERT_EQ(rec->cur[0].chess.board[SQ("g1")], TB_CHESS_PIECE(0, TB_CHESS_KNIGHT));
    bpgn_round_trip(m, "{A 7.4: illegal move g1g4 taken back}\n1A. d4");
    tb_bugmatch_free(m);
}

/* 7.6 on a board with a clock: the opponent's press without a move is the demand. */
TB_TEST(law_7_6_the_opponents_press_demands_the_replacement)
{
    uint64_t t = 0;
    tb_bugmatch *m = knight_to_g4(&t);
    press(m, 0, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White must take back g1g4");
    ASSERT_EQ(tb_bugmatch_clock(m, 0)->turn, TB_CHESS_WHITE);
    tb_bugmatch_free(m);
}

/* A match with board A a DGT board from fen (NULL: the start). */
static tb_bugmatch *dgt_a(const char *fen)
{
    struct tb_bugmatch_config cfg;
    tb_bugmatch_config_default(&cfg);
    cfg.kind[0] = TB_BUGMATCH_DGT;
    return bugmatch_started(&cfg, fen, NULL);
}

/* On DGT board A: the piece on from lifted and put on to, named as piece, the clock pressed. */
static void dgt_move(tb_bugmatch *m, const char *from, const char *to, int piece, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ(from), *t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ(to), piece, *t += 300));
    press(m, 0, t);
}

/* 7.4, 7.6 on a DGT board: the illegal knight move is read from the pieces the board names, the
 * replacement puts the board back, and the board's pieces are the record's again: the knight
 * then moves legally and is recognised, no wrong piece. */
TB_TEST(law_7_6_replacement_on_a_dgt_board_keeps_its_pieces_in_step)
{
    tb_bugmatch *m = dgt_a(NULL);
    uint64_t t = 0;
    const int knight = TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT);
    dgt_move(m, "g1", "g4", knight, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White: illegal move Ng1g4 (7.4)");
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 800));
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("g4"), t += 300));
    ASSERT_OK(tb_bugmatch_place(m, 0, SQ("g1"), knight, t += 300));
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    ASSERT_STR_CONTAINS(drain(m), "A: board put back before g1g4");
    dgt_move(m, "g1", "f3", knight, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: Nf3");
    ASSERT_TRUE(strstr(out, "wrong-piece") == NULL);
    ASSERT_EQ(tb_bugmatch_record(m)->cur[0].chess.side, TB_CHESS_BLACK);
    tb_bugmatch_free(m);
}

/* 7.4 accepted on a DGT board: the knight that went g1-g4 stands for a knight on g4 from then
 * on, and its next move from there is recognised, no wrong piece. */
TB_TEST(law_7_4_accepted_on_a_dgt_board_the_piece_moves_on_from_where_it_stands)
{
    tb_bugmatch *m = dgt_a(NULL);
    uint64_t t = 0;
    const int knight = TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_KNIGHT);
    const int pawn = TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_PAWN);
    dgt_move(m, "g1", "g4", knight, &t);
    ASSERT_STR_CONTAINS(drain(m), "A White: illegal move Ng1g4 (7.4)");
    ASSERT_OK(tb_bugmatch_accept(m, 0, t += 800));
    dgt_move(m, "e7", "e6", pawn, &t);
    dgt_move(m, "g4", "e5", knight, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: Ne5");
    ASSERT_TRUE(strstr(out, "wrong-piece") == NULL);
    tb_bugmatch_free(m);
}

/* 7.4 accepted on a DGT board after an illegal capture: the rook stands on d5 for the board's
 * reckoning of pieces, the taken knight is off it, and the rook's next move is recognised. */
TB_TEST(law_7_4_accepted_illegal_capture_on_a_dgt_board_keeps_its_pieces_in_step)
{
    tb_bugmatch *m = dgt_a("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1");
    uint64_t t = 0;
    const int rook = TB_CHESS_PIECE(TB_CHESS_WHITE, TB_CHESS_ROOK);
    const int king = TB_CHESS_PIECE(TB_CHESS_BLACK, TB_CHESS_KING);
    ASSERT_OK(tb_bugmatch_lift(m, 0, SQ("d5"), t += 300));
    dgt_move(m, "a1", "d5", rook, &t);
    ASSERT_STR_CONTAINS(drain(m), "illegal move Ra1xd5 (7.4)");
    ASSERT_OK(tb_bugmatch_accept(m, 0, t += 800));
    dgt_move(m, "e8", "f7", king, &t);
    dgt_move(m, "d5", "d1", rook, &t);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: Rd1");
    ASSERT_TRUE(strstr(out, "wrong-piece") == NULL);
    tb_bugmatch_free(m);
}

/* ---- 7.7 --------------------------------------------------------------------------------- */

static const char *const ROOK_TAKES = "4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1";

/* White's rook on A takes the knight on d5 illegally and the clock is pressed (7.4); before:
 * the pieces counted first. */
static tb_bugmatch *rook_takes_knight(uint64_t *t, int before[2][7])
{
    tb_bugmatch *m = match_from(ROOK_TAKES, NULL);
    census(m, before);
    shift(m, 0, "a1", "d5", true, t);
    press(m, 0, t);
    return m;
}

/* The rook back on a1, the knight it took back on d5: the board as before (7.4). */
static void rook_put_back(tb_bugmatch *m, uint64_t *t)
{
    lift(m, 0, "d5", t);
    place(m, 0, "a1", t);
    place(m, 0, "d5", t);
    ASSERT_OK(tb_bugmatch_tick(m, *t += 300));
    ASSERT_STR_CONTAINS(drain(m), "A: board put back before a1d5");
}

/* 7.7: the knight an illegal capture passed is taken back from the partner's hand. */
TB_TEST(law_7_7_piece_still_in_hand_is_taken_back_from_the_partner)
{
    struct tb_voice_pack *en;
    struct tb_error err;
    ASSERT_OK(tb_voice_pack_load("en", &en, &err));
    int before[2][7], after[2][7];
    uint64_t t = 0;
    tb_bugmatch *m = rook_takes_knight(&t, before);
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: illegal move Ra1xd5 (7.4)");
    ASSERT_STR_CONTAINS(out, "B Black receives: knight"); /* handed over at the press */
    uint8_t pool[6];
    tb_bugmatch_pool(m, 3, pool);
    ASSERT_EQ(pool[TB_CHESS_KNIGHT], 1);
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 500));
    struct tb_bugmatch_out o;
    int returned = 0;
    char line[256];
    while (tb_bugmatch_poll(m, &o))
        if (o.kind == TB_BUGMATCH_OUT_RETURNED) {
            returned++;
            ASSERT_EQ(o.hear, 1u << 3);
            ASSERT_GT(tb_bugmatch_out_format(&o, line, sizeof line), 0);
            ASSERT_STR_EQ(line, "B Black gives back: knight (7.7)");
            ASSERT_GT(tb_bugmatch_out_say(en, &o, TB_VOICE_SHORT, line, sizeof line), 0);
            ASSERT_STR_EQ(line, "You give back: knight");
        }
    ASSERT_EQ(returned, 1);
    tb_bugmatch_pool(m, 3, pool);
    ASSERT_EQ(pool[TB_CHESS_KNIGHT], 0);
    rook_put_back(m, &t);
    shift(m, 0, "e1", "e2", false, &t);
    press(m, 0, &t);
    out = drain(m);
    ASSERT_STR_CONTAINS(out, "touch-move touched a1");
    ASSERT_STR_CONTAINS(out, "A White: Ke2");
    census(m, after);
    ASSERT_EQ(memcmp(before, after, sizeof before), 0);
    bpgn_round_trip(m, NULL);
    tb_voice_pack_free(en);
    tb_bugmatch_free(m);
}

/* 7.7: the partner has already placed the knight: the partner may not move until the
 * offender's opponent takes a black knight off board B (any one) and hands it over; then the
 * offender puts the board back and plays a legal move. */
TB_TEST(law_7_7_piece_already_placed_blocks_the_partner_until_one_comes_off_the_other_board)
{
    int before[2][7], after[2][7];
    uint64_t t = 0;
    tb_bugmatch *m = rook_takes_knight(&t, before);
    shift(m, 1, "e2", "e4", false, &t);
    press(m, 1, &t);
    place(m, 1, "c6", &t); /* Black on B drops the knight */
    press(m, 1, &t);
    ASSERT_STR_CONTAINS(drain(m), "B Black: N@c6");
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 500));
    const char *out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White must take back a1d5");
    ASSERT_STR_CONTAINS(out, "B Black may not move until a knight is taken off board B (7.7)");
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_BLOCKED);
    /* White on B may move; Black on B may not */
    shift(m, 1, "d2", "d4", false, &t);
    press(m, 1, &t);
    ASSERT_STR_CONTAINS(drain(m), "B White: d4");
    int plies = tb_bugmatch_record(m)->nplies;
    shift(m, 1, "g7", "g6", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    ASSERT_STR_CONTAINS(drain(m), "B Black may not move (to g6 refused) until a knight is taken "
                                  "off board B (7.7)");
    ASSERT_EQ(tb_bugmatch_record(m)->nplies, plies);
    shift(m, 1, "g6", "g7", false, &t);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    drain(m);
    /* a white knight is not the piece; a black knight is */
    lift(m, 1, "g1", &t);
    place(m, 1, "g1", &t);
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_BLOCKED);
    ASSERT_OK(tb_bugmatch_tick(m, t += 300));
    drain(m);
    lift(m, 1, "b8", &t);
    out = drain(m);
    ASSERT_STR_CONTAINS(out, "B: knight on b8 handed back, B Black may move (7.7)");
    ASSERT_EQ(tb_bugmatch_irregular(m, 0), TB_BUGMATCH_IRR_PUT_BACK);
    const tb_bug_record *rec = tb_bugmatch_record(m);
    ASSERT_EQ(rec->cur[1].chess.board[SQ("b8")], 0);
    ASSERT_EQ(rec->cur[0].chess.board[SQ("d5")], TB_CHESS_PIECE(1, TB_CHESS_KNIGHT));
    rook_put_back(m, &t); /* the knight handed over; the rook, touched, moves */
    shift(m, 0, "a1", "a2", false, &t);
    press(m, 0, &t);
    out = drain(m);
    ASSERT_STR_CONTAINS(out, "A White: Ra2");
    ASSERT_TRUE(strstr(out, "touch-move") == NULL);
    /* Black on B plays again */
    shift(m, 1, "g8", "f6", false, &t);
    press(m, 1, &t);
    ASSERT_STR_CONTAINS(drain(m), "B Black: Nf6");
    census(m, after);
    ASSERT_EQ(memcmp(before, after, sizeof before), 0);
    bpgn_round_trip(m, "{B 7.7: piece on b8 handed back}\n"
                       "{A 7.4: illegal move a1d5 taken back} 1A. Ra2");
    tb_bugmatch_free(m);
}

/* Every pack with a [bughouse] section says each of article 7's outputs its players hear. */
TB_TEST(law_7_4_every_pack_says_the_irregularities)
{
    static const char *const packs[] = {"de-fide", "en", "nl"};
    static const enum tb_bugmatch_out_kind kinds[] = {
        TB_BUGMATCH_OUT_ILLEGAL_MOVE, TB_BUGMATCH_OUT_ACCEPTED, TB_BUGMATCH_OUT_REPLACE,
        TB_BUGMATCH_OUT_RETURNED,     TB_BUGMATCH_OUT_BLOCKED,  TB_BUGMATCH_OUT_HANDED_BACK};
    for (size_t i = 0; i < sizeof packs / sizeof packs[0]; i++) {
        struct tb_voice_pack *pack;
        struct tb_error err;
        ASSERT_OK(tb_voice_pack_load(packs[i], &pack, &err));
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            struct tb_bugmatch_out o = {.kind = kinds[k], .board = 1, .seat = 3, .article = "7.7"};
            o.move = tb_chess_move_new(SQ("a1"), SQ("d5"), 0);
            o.piece = TB_CHESS_KNIGHT;
            o.square = SQ("b8");
            char line[256];
            int n = tb_bugmatch_out_say(pack, &o, TB_VOICE_SHORT, line, sizeof line);
            if (n <= 0 || !strstr(line, k == 1 ? "7.7" : ""))
                TB_FAIL("%s: output %d not said (%d)", packs[i], (int)kinds[k], n);
        }
        /* for the arbiter only */
        struct tb_bugmatch_out o = {.kind = TB_BUGMATCH_OUT_PUT_BACK, .article = ""};
        char line[64];
        ASSERT_EQ(tb_bugmatch_out_say(pack, &o, TB_VOICE_SHORT, line, sizeof line), 0);
        tb_voice_pack_free(pack);
    }
}

/* 7.7 with the partner's board typed: the partner's typed move is refused with the article;
 * the lift of the piece handed back is the one board event a typed board takes. */
TB_TEST(law_7_7_typed_partner_board_is_refused_until_the_piece_is_handed_back)
{
    struct tb_bugmatch_config cfg;
    struct tb_error err;
    tb_bugmatch *m;
    tb_bugmatch_config_default(&cfg);
    cfg.typed[1] = true;
    ASSERT_OK(tb_bugmatch_new(&cfg, &m, &err));
    tb_bug_pos start[2];
    ASSERT_OK(tb_bug_pos_from_fen(&start[0], ROOK_TAKES, NULL));
    tb_bug_pos_startpos(&start[1]);
    ASSERT_OK(tb_bugmatch_set_start(m, start));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    uint64_t t = 0;
    shift(m, 0, "a1", "d5", true, &t);
    press(m, 0, &t);
    ASSERT_OK(tb_bugmatch_typed(m, 1, "e4", t += 500, &err));
    ASSERT_OK(tb_bugmatch_typed(m, 1, "N@c6", t += 500, &err));
    ASSERT_OK(tb_bugmatch_typed(m, 1, "d4", t += 500, &err));
    ASSERT_OK(tb_bugmatch_replace(m, 0, t += 500));
    ASSERT_EQ(tb_bugmatch_typed(m, 1, "Nf6", t += 500, &err), TB_ERR_STATE);
    ASSERT_STR_CONTAINS(err.msg, "7.7");
    ASSERT_EQ(tb_bugmatch_lift(m, 1, SQ("e2"), t += 100), TB_ERR_ARG); /* no other lift */
    ASSERT_OK(tb_bugmatch_lift(m, 1, SQ("c6"), t += 100));
    ASSERT_STR_CONTAINS(drain(m), "B: knight on c6 handed back");
    rook_put_back(m, &t);
    ASSERT_OK(tb_bugmatch_typed(m, 1, "Nf6", t += 500, &err));
    ASSERT_STR_CONTAINS(drain(m), "B Black: Nf6");
    bpgn_round_trip(m, NULL);
    tb_bugmatch_free(m);
}

/* ---- generated: illegal moves inserted into random matches ------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Counts the outputs of a kind since the last call (others read and left). */
static int outputs(tb_bugmatch *m, enum tb_bugmatch_out_kind kind, tb_bug_move *moves, int cap)
{
    struct tb_bugmatch_out o;
    int n = 0;
    while (tb_bugmatch_poll(m, &o))
        if (o.kind == kind) {
            if (moves && n < cap)
                moves[n] = o.move;
            n++;
        }
    return n;
}

/* Move mv, legal on board b, made as a player makes it, and the clock pressed: the match
 * announces that move and no other, and records it. */
static void play(tb_bugmatch *m, int b, tb_bug_move mv, uint64_t *t)
{
    const tb_bug_record *rec = tb_bugmatch_record(m);
    int n = rec->nplies, to = tb_chess_move_to(mv);
    if (tb_bug_move_is_drop(mv)) {
        ASSERT_OK(tb_bugmatch_choose(m, b, tb_bug_move_drop_type(mv), *t += 300));
        ASSERT_OK(tb_bugmatch_place(m, b, to, 0, *t += 300));
    } else {
        struct tb_chess_move_squares q;
        tb_chess_move_squares(&rec->cur[b].chess, mv, &q);
        if (q.captured && q.capture_sq == q.to)
            ASSERT_OK(tb_bugmatch_lift(m, b, q.to, *t += 300));
        ASSERT_OK(tb_bugmatch_lift(m, b, q.from, *t += 300));
        ASSERT_OK(tb_bugmatch_place(m, b, q.to, 0, *t += 300));
        if (q.captured && q.capture_sq != q.to)
            ASSERT_OK(tb_bugmatch_lift(m, b, q.capture_sq, *t += 300));
        if (tb_chess_move_is_castle(mv)) {
            ASSERT_OK(tb_bugmatch_lift(m, b, q.rook_from, *t += 300));
            ASSERT_OK(tb_bugmatch_place(m, b, q.rook_to, 0, *t += 300));
        }
        if (q.promo)
            ASSERT_OK(tb_bugmatch_choose(m, b, q.promo, *t += 300));
    }
    int rc = tb_bugmatch_press(m, b, *t += 500);
    /* a move that ends the game is complete without the press */
    ASSERT_TRUE(rc == TB_OK || (rc == TB_ERR_STATE && rec->verdict[b].result != TB_BUG_ONGOING));
    ASSERT_EQ(rec->nplies, n + 1);
    ASSERT_EQ(rec->plies[n].move, mv);
    tb_bug_move said[4];
    ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_MOVE, said, 4), 1);
    ASSERT_EQ(said[0], mv);
}

static bool ongoing(const tb_bugmatch *m, int b)
{
    return tb_bugmatch_record(m)->verdict[b].result == TB_BUG_ONGOING;
}

static void random_move(tb_bugmatch *m, int b, uint64_t *r, uint64_t *t)
{
    static tb_bug_movelist list;
    int n = tb_bug_gen_legal(&tb_bugmatch_record(m)->cur[b], &list);
    if (n > 0)
        play(m, b, list.moves[rnd(r) % (unsigned)n], t);
}

/* An illegal move for the side to move on board b: a piece of its own to a square it cannot go
 * to, empty or holding an enemy piece other than the king (captures half the time). */
static bool pick_illegal(const tb_bugmatch *m, int b, uint64_t *r, int *from, int *to)
{
    const tb_bug_pos *pos = &tb_bugmatch_record(m)->cur[b];
    static tb_bug_movelist list;
    int n = tb_bug_gen_legal(pos, &list), us = pos->chess.side;
    bool capture = rnd(r) % 2;
    for (int tries = 0; tries < 4000; tries++) {
        int f = (int)(rnd(r) % 64), g = (int)(rnd(r) % 64), p = pos->chess.board[f],
            q = pos->chess.board[g];
        if (!p || TB_CHESS_PIECE_COLOR(p) != us || f == g || (q && TB_CHESS_PIECE_COLOR(q) == us) ||
            (q && TB_CHESS_PIECE_TYPE(q) == TB_CHESS_KING) || (tries < 3000 && !q == capture))
            continue;
        bool legal = false;
        for (int i = 0; i < n; i++)
            legal |= !tb_bug_move_is_drop(list.moves[i]) &&
                     tb_chess_move_from(list.moves[i]) == f && tb_chess_move_to(list.moves[i]) == g;
        if (!legal) {
            *from = f;
            *to = g;
            return true;
        }
    }
    return false;
}

/* 7.7 with the piece already placed: the partner (to move on the other board) drops it. */
static bool partner_drops(tb_bugmatch *m, int b, int piece, uint64_t *r, uint64_t *t)
{
    const tb_bug_pos *pos = &tb_bugmatch_record(m)->cur[b ^ 1];
    static tb_bug_movelist list;
    if (!ongoing(m, b ^ 1) || pos->chess.side != TB_CHESS_PIECE_COLOR(piece) ||
        pos->pool[pos->chess.side][TB_CHESS_PIECE_TYPE(piece)] != 1)
        return false;
    int n = tb_bug_gen_drops(pos, &list), k = 0;
    tb_bug_move pick[64];
    for (int i = 0; i < n && k < 64; i++)
        if (tb_bug_move_drop_type(list.moves[i]) == TB_CHESS_PIECE_TYPE(piece))
            pick[k++] = list.moves[i];
    if (!k)
        return false;
    play(m, b ^ 1, pick[rnd(r) % (unsigned)k], t);
    return true;
}

/* The square of a piece of piece's kind and colour on board b that the record lets go (a
 * position is left, and not a square of an illegal move open there). */
static int removable(const tb_bugmatch *m, int b, int piece)
{
    static tb_bug_record copy;
    const tb_bug_pos *pos = &tb_bugmatch_record(m)->cur[b];
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->chess.board[sq];
        int shape = pos->promoted & TB_CHESS_BIT(sq) ? TB_CHESS_PAWN : TB_CHESS_PIECE_TYPE(p);
        if (!p || TB_CHESS_PIECE_COLOR(p) != TB_CHESS_PIECE_COLOR(piece) ||
            shape != TB_CHESS_PIECE_TYPE(piece))
            continue;
        copy = *tb_bugmatch_record(m);
        if (tb_bug_record_push_removed(&copy, b, sq) == TB_OK)
            return sq;
    }
    return -1;
}

/* Boards, recognisers, hands, record and BPGN in step; every piece of the two sets still
 * there. */
static void in_step(tb_bugmatch *m, uint64_t seed)
{
    static const int sets[7] = {0, 16, 4, 4, 4, 2, 2};
    const tb_bug_record *rec = tb_bugmatch_record(m);
    int count[2][7];
    census(m, count);
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 7; k++)
            if (count[c][k] != sets[k])
                TB_FAIL("seed %llu: colour %d has %d of type %d", (unsigned long long)seed, c,
                        count[c][k], k);
    for (int b = 0; b < 2; b++) {
        ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_NONE);
        if (!ongoing(m, b))
            continue;
        const tb_sensor *s = tb_bugmatch_sensor(m, b);
        char a[128], c[128];
        ASSERT_GT(tb_chess_pos_to_fen(&rec->cur[b].chess, a, sizeof a), 0);
        ASSERT_GT(tb_chess_pos_to_fen(tb_sensor_position(s), c, sizeof c), 0);
        ASSERT_STR_EQ(c, a);
        ASSERT_EQ(tb_sensor_occupancy(s), tb_chess_occupancy(&rec->cur[b].chess));
        for (int color = 0; color < 2; color++)
            ASSERT_EQ(memcmp(tb_sensor_hand(s, color) + 1, rec->cur[b].pool[color] + 1, 5), 0);
    }
    tb_bug_pos pos[2];
    ASSERT_OK(tb_bug_record_replay(rec, rec->nplies, pos));
    for (int b = 0; b < 2; b++)
        ASSERT_TRUE(tb_bug_pos_equal(&pos[b], &rec->cur[b]));
    bpgn_round_trip(m, NULL);
}

enum resolution { ACCEPT, REPLACE, PRESS, PLACED, RESOLUTIONS };

/* One random match (counts[how] counted when played): the first plies of a generated game, an
 * illegal move at a random ply on a random board, resolved as asked, then random moves on both
 * boards. Returns whether the resolution could be played (7.7 with the piece placed needs the
 * partner to move). */
static bool illegal_in_match(uint64_t seed, enum resolution how, int counts[RESOLUTIONS + 1])
{
    static tb_bug_record gen;
    struct tb_bug_gen_config gc = {.seed = seed, .min_think_ms = 2000, .pass_ms = 1500};
    ASSERT_GT(tb_bug_gen_game(&gc, &gen), 0);
    tb_bugmatch *m = match_from(NULL, NULL);
    const tb_bug_record *rec = tb_bugmatch_record(m);
    uint64_t r = seed * 7919 + (uint64_t)how, t = 0;
    int k = (int)(rnd(&r) % 40);
    for (int i = 0; i < k && i < gen.nplies && ongoing(m, gen.plies[i].board); i++)
        play(m, gen.plies[i].board, gen.plies[i].move, &t);
    int b = (int)(rnd(&r) % 2), from, to;
    if (!ongoing(m, b))
        b ^= 1;
    bool done = false;
    if (ongoing(m, b) && pick_illegal(m, b, &r, &from, &to)) {
        const tb_bug_pos before = rec->cur[b];
        int captured = before.chess.board[to], plies = rec->nplies;
        if (captured)
            ASSERT_OK(tb_bugmatch_lift(m, b, to, t += 300));
        ASSERT_OK(tb_bugmatch_lift(m, b, from, t += 300));
        ASSERT_OK(tb_bugmatch_place(m, b, to, 0, t += 300));
        ASSERT_OK(tb_bugmatch_press(m, b, t += 500));
        /* 7.4: flagged, never read as some other move */
        ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_ILLEGAL_MOVE, NULL, 0), 1);
        ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_ASKED);
        bool stands = rec->nplies == plies + 1;
        ASSERT_EQ(stands, tb_bug_illegal_why(&before, tb_chess_move_new(from, to, 0)) == NULL);
        int passed = 0;
        if (stands && captured) {
            int shape =
                before.promoted & TB_CHESS_BIT(to) ? TB_CHESS_PAWN : TB_CHESS_PIECE_TYPE(captured);
            passed = TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(captured), shape);
        }
        if (how == PLACED && !(passed && partner_drops(m, b, passed, &r, &t))) {
            tb_bugmatch_free(m);
            return false;
        }
        if (how == ACCEPT && stands) {
            ASSERT_OK(tb_bugmatch_accept(m, b, t += 500));
            ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_ACCEPTED, NULL, 0), 1);
        } else {
            if (how == ACCEPT)
                ASSERT_EQ(tb_bugmatch_accept(m, b, t += 500), TB_ERR_ILLEGAL);
            if (how == PRESS)
                ASSERT_OK(tb_bugmatch_press(m, b, t += 500)); /* 7.6 */
            else
                ASSERT_OK(tb_bugmatch_replace(m, b, t += 500));
            ASSERT_EQ(tb_bugmatch_clock(m, b)->turn, before.chess.side);
            if (how != PLACED) {
                int back = outputs(m, TB_BUGMATCH_OUT_RETURNED, NULL, 0);
                ASSERT_EQ(back, passed ? 1 : 0); /* 7.7: from the partner's hand */
                counts[RESOLUTIONS] += back;
            } else {
                ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_BLOCKED);
                ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_BLOCKED, NULL, 0), 1);
                int sq = removable(m, b ^ 1, passed);
                ASSERT_GE(sq, 0);
                ASSERT_OK(tb_bugmatch_lift(m, b ^ 1, sq, t += 300));
                ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_HANDED_BACK, NULL, 0), 1);
            }
            ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_PUT_BACK);
            ASSERT_TRUE(tb_bug_pos_equal(&rec->cur[b], &before) || how == PLACED || passed);
            /* the board put back: the piece home, the piece it took on its square again */
            ASSERT_OK(tb_bugmatch_lift(m, b, to, t += 300));
            ASSERT_OK(tb_bugmatch_place(m, b, from, 0, t += 300));
            if (captured)
                ASSERT_OK(tb_bugmatch_place(m, b, to, 0, t += 300));
            ASSERT_OK(tb_bugmatch_tick(m, t += 300));
            ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_NONE);
            ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_MOVE, NULL, 0), 0);
            ASSERT_TRUE(memcmp(rec->cur[b].chess.board, before.chess.board, 64) == 0);
        }
        done = true;
        counts[how]++;
    }
    for (int i = 0; i < 30; i++) {
        int on = (int)(rnd(&r) % 2);
        if (!ongoing(m, on))
            on ^= 1;
        if (!ongoing(m, on))
            break;
        random_move(m, on, &r, &t);
    }
    in_step(m, seed);
    tb_bugmatch_free(m);
    return done;
}

TB_TEST(law_7_4_to_7_7_generated_illegal_moves_keep_boards_hands_and_record_in_step)
{
    int counts[RESOLUTIONS + 1] = {0}; /* and pieces given back from the hand (7.7) */
    for (uint64_t seed = 1; seed <= 120; seed++)
        for (int how = 0; how < RESOLUTIONS; how++)
            (void)illegal_in_match(seed, (enum resolution)how, counts);
    printf("accepted %d, replaced %d, replaced by the press %d, 7.7 from the board %d, 7.7 from "
           "the hand %d\n",
           counts[ACCEPT], counts[REPLACE], counts[PRESS], counts[PLACED], counts[RESOLUTIONS]);
    for (int how = 0; how <= RESOLUTIONS; how++)
        ASSERT_GT(counts[how], 5);
}

/* What the test knows of a board's illegal move while it waits. */
struct pending {
    int from, to, captured, passed;
};

/* The board put back as it was before the illegal move. */
static void put_back(tb_bugmatch *m, int b, const struct pending *p, uint64_t *t)
{
    ASSERT_OK(tb_bugmatch_lift(m, b, p->to, *t += 300));
    ASSERT_OK(tb_bugmatch_place(m, b, p->from, 0, *t += 300));
    if (p->captured)
        ASSERT_OK(tb_bugmatch_place(m, b, p->to, 0, *t += 300));
    ASSERT_OK(tb_bugmatch_tick(m, *t += 300));
    ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_NONE);
}

/* Random steps on both boards: legal moves, illegal moves pressed (both boards may wait at
 * once), accepts, replacements by request and by the press, boards put back, 7.7's piece
 * lifted, and accepts or replacements where nothing waits (refused, nothing changing). */
TB_TEST(law_7_4_to_7_7_random_irregularities_on_both_boards_keep_every_piece)
{
    long illegal = 0, blocked = 0, settled = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        tb_bugmatch *m = match_from(NULL, NULL);
        const tb_bug_record *rec = tb_bugmatch_record(m);
        uint64_t t = 0, r = seed * 104729;
        struct pending p[2];
        for (int step = 0; step < 150 && !tb_bugmatch_over(m); step++) {
            int b = (int)(rnd(&r) % 2), what = (int)(rnd(&r) % 10);
            enum tb_bugmatch_irregular st = tb_bugmatch_irregular(m, b);
            /* 7.7: the side to move here is the partner waiting for the piece */
            bool partner_blocked = tb_bugmatch_irregular(m, b ^ 1) == TB_BUGMATCH_IRR_BLOCKED &&
                                   rec->cur[b].chess.side == TB_CHESS_PIECE_COLOR(p[b ^ 1].passed);
            if (!ongoing(m, b))
                continue;
            if (st == TB_BUGMATCH_IRR_NONE && what < 2) {
                int from, to;
                if (partner_blocked || !pick_illegal(m, b, &r, &from, &to))
                    continue;
                int plies = rec->nplies, q = rec->cur[b].chess.board[to];
                bool promoted = rec->cur[b].promoted & TB_CHESS_BIT(to);
                p[b] = (struct pending){
                    from, to, q,
                    q ? TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(q),
                                       promoted ? TB_CHESS_PAWN : TB_CHESS_PIECE_TYPE(q))
                      : 0};
                bool stands = !tb_bug_illegal_why(&rec->cur[b], tb_chess_move_new(from, to, 0));
                if (p[b].captured)
                    ASSERT_OK(tb_bugmatch_lift(m, b, to, t += 300));
                ASSERT_OK(tb_bugmatch_lift(m, b, from, t += 300));
                ASSERT_OK(tb_bugmatch_place(m, b, to, 0, t += 300));
                ASSERT_OK(tb_bugmatch_press(m, b, t += 500));
                ASSERT_EQ(outputs(m, TB_BUGMATCH_OUT_ILLEGAL_MOVE, NULL, 0), 1);
                ASSERT_EQ(rec->nplies, plies + stands);
                illegal++;
            } else if (st == TB_BUGMATCH_IRR_NONE) {
                int before = rec->nplies; /* nothing waits here: refused, nothing changes */
                ASSERT_EQ(tb_bugmatch_accept(m, b, t += 100), TB_ERR_STATE);
                ASSERT_EQ(rec->nplies, before);
                if (!partner_blocked)
                    random_move(m, b, &r, &t);
            } else if (st == TB_BUGMATCH_IRR_ASKED) {
                int rc = what < 4   ? tb_bugmatch_accept(m, b, t += 300)
                         : what < 7 ? tb_bugmatch_replace(m, b, t += 300)
                                    : tb_bugmatch_press(m, b, t += 300);
                ASSERT_TRUE(rc == TB_OK || rc == TB_ERR_ILLEGAL);
                (void)outputs(m, TB_BUGMATCH_OUT_MOVE, NULL, 0);
            } else if (st == TB_BUGMATCH_IRR_PUT_BACK) {
                put_back(m, b, &p[b], &t);
            } else {
                /* 7.7: the opponent takes a piece of that kind off the partner's board */
                int sq = removable(m, b ^ 1, p[b].passed);
                ASSERT_GE(sq, 0);
                ASSERT_OK(tb_bugmatch_lift(m, b ^ 1, sq, t += 300));
                ASSERT_EQ(tb_bugmatch_irregular(m, b), TB_BUGMATCH_IRR_PUT_BACK);
                blocked++;
            }
            (void)outputs(m, TB_BUGMATCH_OUT_MOVE, NULL, 0);
            int count[2][7];
            census(m, count);
            for (int c = 0; c < 2; c++)
                if (count[c][TB_CHESS_PAWN] + count[c][TB_CHESS_KNIGHT] +
                        count[c][TB_CHESS_BISHOP] + count[c][TB_CHESS_ROOK] +
                        count[c][TB_CHESS_QUEEN] + count[c][TB_CHESS_KING] !=
                    32) {
                    char buf[8192];
                    tb_bug_bpgn_write(rec, buf, sizeof buf);
                    TB_FAIL("seed %llu step %d board %d state %d what %d: colour %d\n%s",
                            (unsigned long long)seed, step, b, st, what, c, buf);
                }
        }
        /* everything resolved and put back, then the same checks as above */
        for (int b = 0; b < 2; b++) {
            if (tb_bugmatch_irregular(m, b) == TB_BUGMATCH_IRR_ASKED && ongoing(m, b))
                (void)tb_bugmatch_replace(m, b, t += 300);
            if (tb_bugmatch_irregular(m, b) == TB_BUGMATCH_IRR_BLOCKED && ongoing(m, b))
                ASSERT_OK(tb_bugmatch_lift(m, b ^ 1, removable(m, b ^ 1, p[b].passed), t += 300));
            if (tb_bugmatch_irregular(m, b) == TB_BUGMATCH_IRR_PUT_BACK && ongoing(m, b))
                put_back(m, b, &p[b], &t);
        }
        if (!tb_bugmatch_irregular(m, 0) && !tb_bugmatch_irregular(m, 1)) {
            in_step(m, seed);
            settled++;
        }
        tb_bugmatch_free(m);
    }
    printf("%ld illegal moves pressed, %ld pieces taken off the other board (7.7), %ld of 100 "
           "matches settled and checked\n",
           illegal, blocked, settled);
    ASSERT_GT(illegal, 500);
    ASSERT_GT(blocked, 10);
    ASSERT_GT(settled, 50);
}
