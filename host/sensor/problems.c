/* problems.c - what the recogniser reports besides moves: touch-move breaches (4.3-4.5),
 * rook-first castling (4.4.2), the side that moved moving again, illegal placements (7.5.1)
 * and displaced pieces (7.4, 7.6). */
#include "sensor_internal.h"

#include <string.h>

#define BIT(sq) TB_CHESS_BIT(sq)

/* Guideline II.3: a Chess960 castling may move only the rook; touching it moves the castling. */
static bool moves_from(const tb_sensor *s, const struct tb_sensor_cand *c, int sq)
{
    if (c->from == sq && c->from != c->to)
        return true;
    return tb_chess_move_is_castle(c->move) && c->rook_from == sq &&
           (s->pos.chess960 || c->from == c->to);
}

static bool has_legal_from(const tb_sensor *s, int sq)
{
    for (int i = 0; i < s->ncand; i++)
        if (moves_from(s, &s->cand[i], sq))
            return true;
    return false;
}

static bool can_capture(const tb_sensor *s, int sq, int from)
{
    for (int i = 0; i < s->ncand; i++)
        if (s->cand[i].capture_sq == sq && (from < 0 || s->cand[i].from == from))
            return true;
    return false;
}

/* 4.3-4.5: was the move made the one the first touched pieces demand? */
void tb_sensor__check_touch_move(tb_sensor *s, const struct tb_sensor_cand *c, uint64_t t,
                                 uint64_t event_ms, const char *uci)
{
    int own = s->touch_own, opp = s->touch_opp;
    bool own_can = own >= 0 && has_legal_from(s, own);
    bool opp_can = opp >= 0 && can_capture(s, opp, -1);
    bool moved_own = own >= 0 && moves_from(s, c, own), took_opp = c->capture_sq == opp;
    enum tb_sensor_problem breach = TB_SENSOR_P_NONE;
    int touched = own; /* the own piece that binds the move */

    const struct tb_sensor_cand *castle = NULL;
    for (int i = 0; s->touch_rook >= 0 && i < s->ncand; i++)
        if (tb_chess_move_is_castle(s->cand[i].move) && s->cand[i].from == own &&
            s->cand[i].rook_from == s->touch_rook)
            castle = &s->cand[i];
    if (castle) {
        /* 4.4.1: king, then rook touched: castle on that side if it is legal */
        if (c != castle) {
            breach = TB_SENSOR_P_TOUCH_MOVE;
            touched = s->touch_rook;
        }
    } else if (own_can && opp_can && can_capture(s, opp, own)) {
        /* 4.3.3: capture the first touched opponent piece with the first touched own piece */
        if (!moved_own)
            breach = TB_SENSOR_P_TOUCH_MOVE;
        else if (!took_opp)
            breach = TB_SENSOR_P_TOUCHED_NOT_CAPTURED;
    } else {
        /* 4.3.1 / 4.3.2, and 4.3.3's fallback: the first touched piece that can be moved or
         * captured; 4.5: none can, any legal move. 4.3.3: if it is unclear which was first
         * (same ms), the own piece counts first */
        bool own_first = own >= 0 && (opp < 0 || s->touch_own_ms <= s->touch_opp_ms);
        if (own_can && (own_first || !opp_can)) {
            if (!moved_own)
                breach = TB_SENSOR_P_TOUCH_MOVE;
        } else if (opp_can && !took_opp) {
            breach = TB_SENSOR_P_TOUCHED_NOT_CAPTURED;
        }
    }
    if (breach == TB_SENSOR_P_NONE)
        return;
    struct tb_sensor_out *o = tb_sensor__problem(s, breach, t, event_ms);
    o->move = c->move;
    o->square = (uint8_t)(breach == TB_SENSOR_P_TOUCH_MOVE ? touched : opp);
    o->square2 = c->from;
    memcpy(o->uci, uci, sizeof o->uci);
}

/* The mover's king follows a rook move that was the rook's half of castling (4.4.2, 4.7: the
 * rook released first makes it a rook move). */
static bool rook_first_castling(tb_sensor *s, uint64_t removed, uint64_t added, uint64_t t,
                                uint64_t event_ms)
{
    tb_chess_movelist list;
    struct tb_chess_move_squares ms, last;
    if (!s->last_move || tb_chess_move_kind(s->last_move) != TB_CHESS_MK_NORMAL)
        return false;
    tb_chess_move_squares(&s->prev_pos, s->last_move, &last);
    if (TB_CHESS_PIECE_TYPE(last.piece) != TB_CHESS_ROOK || last.captured)
        return false;
    int n = tb_chess_gen_legal(&s->prev_pos, &list);
    for (int i = 0; i < n; i++) {
        if (!tb_chess_move_is_castle(list.moves[i]))
            continue;
        tb_chess_move_squares(&s->prev_pos, list.moves[i], &ms);
        if (ms.rook_from != last.from || ms.rook_to != last.to)
            continue;
        if (removed == BIT(ms.from) && added == BIT(ms.to)) {
            struct tb_sensor_out *o =
                tb_sensor__problem(s, TB_SENSOR_P_ROOK_FIRST_CASTLING, t, event_ms);
            o->move = s->last_move;
            o->square = last.from;
            o->square2 = last.to;
            tb_sensor__set_uci(&s->prev_pos, s->last_move, o->uci);
            return true;
        }
    }
    return false;
}

/* The side that just moved moved again: the board shows one of its moves. */
static bool same_side_twice(tb_sensor *s, uint64_t occ, uint64_t t, uint64_t event_ms)
{
    tb_chess_movelist list;
    struct tb_sensor_cand c;
    tb_chess_pos other = s->pos;
    other.side ^= 1;
    other.ep = TB_CHESS_NOSQ;
    int n = tb_chess_gen_legal(&other, &list);
    for (int i = 0; i < n; i++) {
        tb_sensor__cand_fill(&other, list.moves[i], s->base, &c);
        if (c.post != occ || (c.promo && c.promo != TB_CHESS_QUEEN))
            continue;
        struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_SAME_SIDE_TWICE, t, event_ms);
        o->move = c.move;
        o->square = c.from;
        o->square2 = c.to;
        tb_sensor__set_uci(&other, c.move, o->uci);
        return true;
    }
    return false;
}

/* The squares a capture may empty (in REPLICATING mode the expected one's): a piece lifted
 * there and dropped elsewhere is a victim taken off the board, not a knocked piece whose home
 * still counts as filled (an e.p. victim's square is never filled again by the capture). */
static uint64_t victims(const tb_sensor *s)
{
    uint64_t set = 0;
    for (int i = 0; i < s->ncand; i++)
        if (s->cand[i].capture_sq < 64 &&
            (s->mode != TB_SENSOR_REPLICATING || s->cand[i].move == s->expected))
            set |= BIT(s->cand[i].capture_sq);
    return set;
}

/* The board shows neither the game position, nor a legal move, nor a move under way. */
void tb_sensor__report_unexplained(tb_sensor *s, uint64_t t, uint64_t event_ms)
{
    uint64_t occ = tb_sensor__seen(s);
    uint64_t removed = s->base & ~occ, added = occ & ~s->base;
    if (s->reported && s->reported_occ == s->occ)
        return;
    s->reported = true;
    s->reported_occ = s->occ;
    s->missing_pending = false;

    if (rook_first_castling(s, removed, added, t, event_ms) || same_side_twice(s, occ, t, event_ms))
        return;
    uint64_t own = removed & s->pos.by_color[s->pos.side];
    if (added && own) {
        /* 7.5.1: a piece released where no legal move puts it; one report per attempt,
         * naming the piece first touched and the square it was first released on */
        if (s->illegal)
            return;
        s->illegal = true;
        struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_ILLEGAL, t, event_ms);
        int from =
            s->touch_own >= 0 && (own & BIT(s->touch_own)) ? s->touch_own : tb_sensor__lowest(own);
        int to = tb_sensor__lowest(added);
        for (uint64_t a = added; a; a &= a - 1)
            if (s->place_seq[tb_sensor__lowest(a)] > s->place_seq[to])
                to = tb_sensor__lowest(a);
        o->square = (uint8_t)from;
        o->square2 = (uint8_t)to;
        return;
    }
    /* 7.4, 7.6: pieces displaced; what to clear and what to fill. A piece placed with no
     * piece of the side to move in the hand is a stray: no move may use its square. */
    s->stray |= added;
    if (added)
        s->gone |= removed & ~victims(s);
    struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_DISPLACED, t, event_ms);
    o->clear = s->stray;
    o->fill = removed | s->gone;
}
