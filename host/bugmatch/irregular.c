/* irregular.c - article 7 of the club's rules on sensor boards: an illegal move completed with
 * the clock pressed (7.4), accepted (7.4, 7.5) or replaced (7.4, 7.6), the piece it passed
 * taken back from the partner's hand or, when already placed, from the partner's board (7.7),
 * and the piece touched that must still be moved (7.3, 7.4: FIDE 4, reglement 4). */
#include <string.h>

#include "bugmatch_internal.h"

#define BIT(sq) TB_CHESS_BIT(sq)

static int lowest(uint64_t b)
{
    return __builtin_ctzll(b);
}

/* The side's seats: the offender, the opponent, the partner (1.4: seat ^ 3). */
static int seat_of(int b, int color)
{
    return tb_bugmatch__seat(b, color);
}

void tb_bugmatch__irr_event(tb_bugmatch *m, int b, int square, bool lift)
{
    struct tb_bugmatch__irr *irr = &m->game[b].irr;
    if (square < 0 || square > 63)
        return;
    if (lift)
        irr->lifted |= BIT(square);
    else
        irr->last_place = square + 1;
}

/* The illegal move the board shows, read from the occupancy against the position: one piece
 * of the side to move gone from its square and put on an empty square, or on a square whose
 * enemy piece was lifted (a capture: the last piece put down went there). */
static bool read_illegal(const tb_bugmatch *m, int b, tb_bug_move *out)
{
    const struct tb_bugmatch__game *g = &m->game[b];
    const tb_chess_pos *pos = &m->rec->cur[b].chess;
    uint64_t occ = tb_sensor_occupancy(g->sensor), was = tb_chess_occupancy(pos);
    uint64_t removed = was & ~occ, added = occ & ~was;
    if (__builtin_popcountll(removed) != 1 || __builtin_popcountll(added) > 1)
        return false;
    int from = lowest(removed), to = added ? lowest(added) : g->irr.last_place - 1;
    if (!(pos->by_color[pos->side] & BIT(from)) || to < 0 || to == from)
        return false;
    if (!added && (!(pos->by_color[pos->side ^ 1] & BIT(to)) || !(g->irr.lifted & BIT(to))))
        return false;
    /* a legal move between these squares is the recogniser's to read, not an irregularity */
    tb_bug_movelist list;
    int n = tb_bug_gen_legal(&m->rec->cur[b], &list);
    for (int i = 0; i < n; i++)
        if (!tb_bug_move_is_drop(list.moves[i]) && tb_chess_move_from(list.moves[i]) == from &&
            tb_chess_move_to(list.moves[i]) == to)
            return false;
    *out = tb_chess_move_new(from, to, TB_CHESS_MK_NORMAL);
    return true;
}

/* The board's recogniser holds the position the record gives it, with the board as it is. */
static void resync(tb_bugmatch *m, int b, uint64_t t)
{
    tb_sensor *s = m->game[b].sensor;
    if (s)
        tb_sensor_reset(s, &m->rec->cur[b].chess, t);
    m->game[b].irr.lifted = 0;
    m->game[b].irr.last_place = 0;
    tb_bugmatch__sync_hands(m);
}

int tb_bugmatch__irr_press(tb_bugmatch *m, int b, uint64_t t)
{
    struct tb_bugmatch__game *g = &m->game[b];
    struct tb_bugmatch__irr *irr = &g->irr;
    if (irr->state == TB_BUGMATCH_IRR_ASKED && g->clock.turn == (irr->mover ^ 1))
        return tb_bugmatch_replace(m, b, t); /* 7.6: the opponent starts the mover's clock */
    tb_bug_move mv;
    if (!g->sensor || irr->state != TB_BUGMATCH_IRR_NONE || !read_illegal(m, b, &mv))
        return TB_ERR_STATE;
    tb_bug_pos before = m->rec->cur[b];
    int us = before.chess.side, from = tb_chess_move_from(mv), to = tb_chess_move_to(mv);
    /* 7.4: the press is taken; the opponent's clock runs */
    if (g->clock.state == TB_CLOCK_RUNNING && g->clock.turn == us)
        (void)tb_clock_press(&g->clock, us, t);
    int32_t left = m->started ? (int32_t)tb_clock_remaining(&g->clock, us, t) : -1;
    const char *why = tb_bug_illegal_why(&before, mv);
    uint8_t pools[2][6];
    memcpy(pools, m->rec->cur[b ^ 1].pool, sizeof pools);
    if (!why && tb_bug_record_push_illegal(m->rec, b, mv, left) != TB_OK)
        why = "the record is full";
    *irr = (struct tb_bugmatch__irr){
        .state = TB_BUGMATCH_IRR_ASKED, .move = mv, .mover = us, .recorded = !why, .touched = from};
    struct tb_bugmatch_out *o =
        tb_bugmatch__emit(m, TB_BUGMATCH_OUT_ILLEGAL_MOVE, b, seat_of(b, us), t);
    o->hear = (uint8_t)(1u << seat_of(b, us ^ 1));
    o->move = mv;
    (void)tb_bug_illegal_san(&before, mv, o->san, sizeof o->san);
    o->piece = (uint8_t)TB_CHESS_PIECE_TYPE(before.chess.board[from]);
    o->captured = (uint8_t)TB_CHESS_PIECE_TYPE(before.chess.board[to]);
    o->square = (uint8_t)from;
    o->article = "7.4";
    o->reason = why ? why : "";
    o->before = before.chess;
    if (!irr->recorded)
        return TB_OK; /* the board shows what the game cannot go on from: it must be replaced */
    /* 2.1: a piece it took is handed to the partner at once, as players do */
    for (int c = 0; c < 2; c++)
        for (int k = TB_CHESS_PAWN; k <= TB_CHESS_QUEEN; k++)
            if (m->rec->cur[b ^ 1].pool[c][k] > pools[c][k])
                irr->passed = TB_CHESS_PIECE(c, k);
    resync(m, b, t); /* the opponent plays on from the board (7.5) */
    /* article 5 judges the board once the opponent has decided */
    tb_bugmatch__passed(m, b, (const uint8_t(*)[6])pools, false, t);
    return TB_OK;
}

/* 7.4 or 7.5: the opponent accepts; the game goes on from the board. */
static void accepted(tb_bugmatch *m, int b, const char *article, uint64_t t)
{
    struct tb_bugmatch__irr *irr = &m->game[b].irr;
    irr->state = TB_BUGMATCH_IRR_NONE;
    struct tb_bugmatch_out *o =
        tb_bugmatch__emit(m, TB_BUGMATCH_OUT_ACCEPTED, b, seat_of(b, irr->mover ^ 1), t);
    o->hear = (uint8_t)(1u << seat_of(b, irr->mover));
    o->move = irr->move;
    o->article = article;
    tb_bugmatch__judge(m, b, t);
}

int tb_bugmatch_accept(tb_bugmatch *m, int board, uint64_t ms)
{
    int rc = tb_bugmatch__begin(m, board, ms, false);
    if (rc)
        return rc;
    struct tb_bugmatch__irr *irr = &m->game[board].irr;
    if (irr->state != TB_BUGMATCH_IRR_ASKED || m->game[board].ended)
        return TB_ERR_STATE;
    if (!irr->recorded)
        return TB_ERR_ILLEGAL;
    accepted(m, board, "7.4", ms);
    return TB_OK;
}

int tb_bugmatch_replace(tb_bugmatch *m, int board, uint64_t ms)
{
    int rc = tb_bugmatch__begin(m, board, ms, false);
    if (rc)
        return rc;
    struct tb_bugmatch__game *g = &m->game[board];
    struct tb_bugmatch__irr *irr = &g->irr;
    if (irr->state != TB_BUGMATCH_IRR_ASKED || g->ended)
        return TB_ERR_STATE;
    int us = irr->mover;
    /* 7.6: the opponent starts the mover's clock without moving */
    if (g->clock.state == TB_CLOCK_RUNNING && g->clock.turn == (us ^ 1))
        (void)tb_clock_press(&g->clock, us ^ 1, ms);
    struct tb_bugmatch_out *o =
        tb_bugmatch__emit(m, TB_BUGMATCH_OUT_REPLACE, board, seat_of(board, us), ms);
    o->hear = (uint8_t)(1u << seat_of(board, us));
    o->move = irr->move;
    o->square = (uint8_t)irr->touched;
    o->article = "7.4";
    irr->state = TB_BUGMATCH_IRR_PUT_BACK;
    if (!irr->recorded)
        return TB_OK;
    int partner = seat_of(board ^ 1, us ^ 1);
    rc = tb_bug_record_push_takeback(m->rec, board, irr->move);
    if (rc == TB_ERR_NOTFOUND) {
        /* 7.7: the partner has placed it: a piece of that kind and colour must come off the
         * partner's board first, and the partner may not move meanwhile */
        irr->state = TB_BUGMATCH_IRR_BLOCKED;
        o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_BLOCKED, board ^ 1, partner, ms);
        o->hear = 0xF;
        o->piece = (uint8_t)TB_CHESS_PIECE_TYPE(irr->passed);
        o->article = "7.7";
        return TB_OK;
    }
    if (rc == TB_OK && irr->passed) {
        /* 7.7: the offender takes it back from the partner's pieces in hand */
        o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_RETURNED, board ^ 1, partner, ms);
        o->hear = (uint8_t)(1u << partner);
        o->piece = (uint8_t)TB_CHESS_PIECE_TYPE(irr->passed);
        o->article = "7.7";
    }
    tb_bugmatch__sync_hands(m);
    return TB_OK;
}

bool tb_bugmatch__irr_lift(tb_bugmatch *m, int b, int square, uint64_t t)
{
    int ob = b ^ 1;
    struct tb_bugmatch__irr *irr = &m->game[ob].irr;
    if (irr->state != TB_BUGMATCH_IRR_BLOCKED || square < 0 || square > 63)
        return false;
    /* 7.7: a piece of the kind and colour taken, as it looks (3.1: a promoted pawn is a pawn) */
    const tb_bug_pos *pos = &m->rec->cur[b];
    int p = pos->chess.board[square];
    int shape = pos->promoted & BIT(square) ? TB_CHESS_PAWN : TB_CHESS_PIECE_TYPE(p);
    if (!p || TB_CHESS_PIECE_COLOR(p) != TB_CHESS_PIECE_COLOR(irr->passed) ||
        shape != TB_CHESS_PIECE_TYPE(irr->passed))
        return false;
    tb_bugmatch__complete(m, b, t); /* a move made there stands */
    if (tb_bug_record_push_removed(m->rec, b, square) != TB_OK)
        return false; /* the position would be none: an ordinary lift, the arbiter decides */
    (void)tb_bug_record_push_takeback(m->rec, ob, irr->move);
    irr->state = TB_BUGMATCH_IRR_PUT_BACK;
    struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_HANDED_BACK, b,
                                                  seat_of(b, TB_CHESS_PIECE_COLOR(irr->passed)), t);
    o->hear = 0xF;
    o->square = (uint8_t)square;
    o->piece = (uint8_t)TB_CHESS_PIECE_TYPE(irr->passed);
    o->article = "7.7";
    /* the board without the piece is the position now */
    m->game[b].irr.refused = false;
    resync(m, b, t);
    return true;
}

bool tb_bugmatch__irr_sensor_out(tb_bugmatch *m, int b, const struct tb_sensor_out *s)
{
    struct tb_bugmatch__irr *irr = &m->game[b].irr;
    if (irr->state == TB_BUGMATCH_IRR_PUT_BACK || irr->state == TB_BUGMATCH_IRR_BLOCKED ||
        irr->refused)
        return true; /* the board is being put back: nothing it shows is a move */
    if (irr->state == TB_BUGMATCH_IRR_ASKED && s->kind == TB_SENSOR_OUT_MOVE && !irr->recorded) {
        /* the mover replaced a move that could not stand before the opponent asked */
        irr->state = TB_BUGMATCH_IRR_NONE;
        irr->touch_due = true;
    }
    return false;
}

bool tb_bugmatch__irr_blocked(const tb_bugmatch *m, int b)
{
    const struct tb_bugmatch__irr *other = &m->game[b ^ 1].irr;
    return other->state == TB_BUGMATCH_IRR_BLOCKED &&
           m->rec->cur[b].chess.side == TB_CHESS_PIECE_COLOR(other->passed);
}

bool tb_bugmatch__irr_made(tb_bugmatch *m, int b, tb_bug_move move, uint64_t t)
{
    struct tb_bugmatch__irr *irr = &m->game[b].irr;
    const tb_bug_pos *pos = &m->rec->cur[b];
    int side = pos->chess.side;
    /* 7.7: the offender's partner may not move until the piece is off this board */
    const struct tb_bugmatch__irr *other = &m->game[b ^ 1].irr;
    if (tb_bugmatch__irr_blocked(m, b)) {
        struct tb_bugmatch_out *o =
            tb_bugmatch__emit(m, TB_BUGMATCH_OUT_BLOCKED, b, seat_of(b, side), t);
        o->hear = 0xF;
        o->piece = (uint8_t)TB_CHESS_PIECE_TYPE(other->passed);
        o->square = (uint8_t)tb_chess_move_to(move);
        o->move = move;
        o->article = "7.7";
        irr->refused = m->game[b].sensor != NULL; /* to be put back before the next move */
        return true;
    }
    irr->lifted = 0;
    irr->last_place = 0;
    /* 7.5: the opponent's move from the board accepts the illegal move */
    if (irr->state == TB_BUGMATCH_IRR_ASKED && irr->recorded && side == (irr->mover ^ 1))
        accepted(m, b, "7.5", t);
    /* 4.3 (7.3, 7.4): the piece the illegal move touched must be moved if it can */
    if (irr->touch_due && side == irr->mover) {
        irr->touch_due = false;
        int from = tb_bug_move_is_drop(move) ? -1 : tb_chess_move_from(move);
        tb_bug_movelist list;
        int n = from == irr->touched ? 0 : tb_bug_gen_legal(pos, &list);
        for (int i = 0; i < n; i++) {
            if (tb_bug_move_is_drop(list.moves[i]) ||
                tb_chess_move_from(list.moves[i]) != irr->touched)
                continue;
            struct tb_bugmatch_out *o =
                tb_bugmatch__emit(m, TB_BUGMATCH_OUT_BOARD, b, seat_of(b, side), t);
            o->sensor =
                (struct tb_sensor_out){.kind = TB_SENSOR_OUT_PROBLEM,
                                       .problem = TB_SENSOR_P_TOUCH_MOVE,
                                       .ms = t,
                                       .event_ms = t,
                                       .move = move,
                                       .square = (uint8_t)irr->touched,
                                       .square2 = (uint8_t)(from < 0 ? TB_CHESS_NOSQ : from),
                                       .article = ""};
            (void)tb_bug_move_to_uci(pos, move, o->sensor.uci, sizeof o->sensor.uci);
            break;
        }
    }
    return false;
}

void tb_bugmatch__irr_watch(tb_bugmatch *m, int b)
{
    struct tb_bugmatch__game *g = &m->game[b];
    struct tb_bugmatch__irr *irr = &g->irr;
    if ((irr->state != TB_BUGMATCH_IRR_PUT_BACK && !irr->refused) || !g->sensor)
        return;
    const tb_chess_pos *pos = &m->rec->cur[b].chess;
    if (tb_sensor_occupancy(g->sensor) != tb_chess_occupancy(pos))
        return;
    if (irr->refused) {
        irr->refused = false; /* the refused move put back: the game goes on */
        resync(m, b, m->now);
        return;
    }
    /* the board shows the position before the illegal move: the mover plays again, and the
     * piece touched must move (4.3) */
    irr->state = TB_BUGMATCH_IRR_NONE;
    irr->touch_due = true;
    resync(m, b, m->now);
    struct tb_bugmatch_out *o =
        tb_bugmatch__emit(m, TB_BUGMATCH_OUT_PUT_BACK, b, seat_of(b, irr->mover), m->now);
    o->move = irr->move;
}

enum tb_bugmatch_irregular tb_bugmatch_irregular(const tb_bugmatch *m, int board)
{
    return m->game[board & 1].irr.state;
}
