/* recognise.c - from confirmed board events to moves, touches and problems.
 *
 * The board's occupancy after each confirmed event is matched against the occupancy after
 * every legal move (sensor-notes 1.2); the order of lifts and places supplies what occupancy
 * cannot show: which piece a capture took, which pieces were touched first.
 */
#include "sensor_internal.h"

#include <string.h>

#define BIT(sq) TB_CHESS_BIT(sq)

/* Occupancy after m and the squares it touches, from the position before it. */
void tb_sensor__cand_fill(const tb_chess_pos *pos, tb_chess_move m, uint64_t base,
                          struct tb_sensor_cand *c)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, m, &ms);
    uint64_t post = base & ~BIT(ms.from);
    /* Guideline II.3: a castling may leave the king or the rook where it stands */
    uint64_t touched = ms.from != ms.to ? BIT(ms.from) | BIT(ms.to) : 0;
    if (ms.capture_sq != TB_CHESS_NOSQ) {
        post &= ~BIT(ms.capture_sq);
        touched |= BIT(ms.capture_sq);
    }
    if (ms.rook_from != TB_CHESS_NOSQ) {
        post &= ~BIT(ms.rook_from);
        if (ms.rook_from != ms.rook_to)
            touched |= BIT(ms.rook_from) | BIT(ms.rook_to);
    }
    post |= BIT(ms.to);
    if (ms.rook_to != TB_CHESS_NOSQ)
        post |= BIT(ms.rook_to);
    c->move = m;
    c->post = post;
    c->touched = touched & base;
    c->added = post & ~base;
    c->from = ms.from;
    c->to = ms.to;
    c->rook_from = ms.rook_from;
    c->rook_to = ms.rook_to;
    c->capture_sq = ms.capture_sq;
    c->promo = ms.promo;
    c->drop = 0;
    c->capture_on_to = ms.captured && ms.capture_sq == ms.to;
}

void tb_sensor__load_position(tb_sensor *s, const tb_chess_pos *pos)
{
    tb_chess_movelist list;
    s->pos = *pos;
    s->base = tb_chess_occupancy(pos);
    s->ncand = tb_chess_gen_legal(pos, &list);
    for (int i = 0; i < s->ncand; i++)
        tb_sensor__cand_fill(pos, list.moves[i], s->base, &s->cand[i]);
    tb_sensor__load_drops(s);
}

void tb_sensor__clear_move(tb_sensor *s)
{
    s->lifted = s->placed = 0;
    s->touch_own = s->touch_opp = s->touch_rook = -1;
    s->choice = 0;
    s->exempt_sq = -1;
    s->promo_pending = s->promo_prompted = s->choice_drop = false;
    s->settle_pending = false;
    s->missing_pending = false;
    s->reported = false;
    s->illegal = false;
}

void tb_sensor__set_uci(const tb_chess_pos *pos, tb_chess_move m, char buf[8])
{
    if (tb_chess_move_to_uci(pos, m, buf, 8) < 0)
        buf[0] = '\0';
}

/* A drop as engines write it in UCI: "N@f3", the letter upper case. */
void tb_sensor__cand_uci(const tb_sensor *s, const struct tb_sensor_cand *c, char buf[8])
{
    char sq[3];
    if (!c->drop) {
        tb_sensor__set_uci(&s->pos, c->move, buf);
        return;
    }
    buf[0] = "?PNBRQK"[c->drop];
    buf[1] = '@';
    memcpy(buf + 2, tb_chess_square_name(c->to, sq), 3);
}

struct tb_sensor_out *tb_sensor__problem(tb_sensor *s, enum tb_sensor_problem p, uint64_t t,
                                         uint64_t event_ms)
{
    struct tb_sensor_out *o = tb_sensor__emit(s, TB_SENSOR_OUT_PROBLEM, t, event_ms);
    o->problem = p;
    return o;
}

/* A move matched the board: output it (or the mismatch) and move the game on. */
static void decide(tb_sensor *s, const struct tb_sensor_cand *c, bool queen_assumed, uint64_t t,
                   uint64_t event_ms)
{
    char uci[8];
    tb_sensor__cand_uci(s, c, uci);
    s->promo_pending = false;
    s->settle_pending = false;

    if (s->mode == TB_SENSOR_REPLICATING && c->move != s->expected) {
        if (s->reported && s->reported_occ == s->occ)
            return;
        s->reported = true;
        s->reported_occ = s->occ;
        struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_WRONG_MOVE, t, event_ms);
        o->move = c->move;
        o->expected = s->expected;
        o->square = c->from;
        o->square2 = c->to;
        memcpy(o->uci, uci, sizeof o->uci);
        tb_sensor__set_uci(&s->pos, s->expected, o->uci2);
        return;
    }

    struct tb_sensor_out *o = tb_sensor__emit(s, TB_SENSOR_OUT_MOVE, t, event_ms);
    s->moves++;
    o->move = c->move;
    o->square = c->from;
    o->square2 = c->to;
    if (c->drop)
        o->piece = (uint8_t)TB_CHESS_PIECE(s->pos.side, c->drop);
    memcpy(o->uci, uci, sizeof o->uci);
    if (s->mode == TB_SENSOR_REPLICATING) {
        o->flags |= TB_SENSOR_MF_REPLICATED;
    } else {
        if (queen_assumed) {
            o->flags |= TB_SENSOR_MF_QUEEN_ASSUMED;
            /* 7.5.2: a promotion without a chosen piece gives a queen; say so */
            struct tb_sensor_out *p =
                tb_sensor__problem(s, TB_SENSOR_P_PROMOTION_NO_CHOICE, t, event_ms);
            p->move = c->move;
            p->square = c->to;
            memcpy(p->uci, uci, sizeof p->uci);
        }
        tb_sensor__check_touch_move(s, c, t, event_ms, uci);
    }

    tb_chess_undo undo;
    tb_chess_move m = c->move;
    uint8_t promo_sq = c->promo ? c->to : (uint8_t)TB_CHESS_NOSQ;
    s->prev_pos = s->pos;
    s->last_move = m;
    tb_chess_pos next = s->pos;
    int dropped = c->drop;
    if (dropped) { /* 2.2: a piece from the hand */
        s->hand[next.side][dropped]--;
        tb_chess_make_drop(&next, c->to, TB_CHESS_PIECE(next.side, dropped), &undo);
    } else {
        tb_chess_make(&next, m, &undo);
    }
    tb_sensor__load_position(s, &next);
    s->stray &= ~s->base;
    s->gone &= s->base;
    s->mode = TB_SENSOR_PLAYING; /* after the copy, the board's own player is to move */
    s->expected = 0;
    tb_sensor__clear_move(s);
    s->exempt_sq = promo_sq == TB_CHESS_NOSQ ? -1 : promo_sq;
    s->just_dropped = dropped;
}

/* Every square of set was lifted and then filled again. */
static bool refilled(const tb_sensor *s, uint64_t set)
{
    for (; set; set &= set - 1) {
        int sq = tb_sensor__lowest(set);
        if (!(s->lifted & s->placed & BIT(sq)) || s->place_seq[sq] < s->lift_seq[sq])
            return false;
    }
    return true;
}

/* Is c the move the events describe? An ordinary capture needs the capturing piece placed on
 * the victim's square after the victim was lifted (and, unless a new piece arrives as in a
 * promotion, after the capturing piece was lifted). A castling that puts one of its pieces
 * where the other stood needs that square emptied and filled again. */
static bool events_fit(const tb_sensor *s, const struct tb_sensor_cand *c)
{
    if (tb_chess_move_is_castle(c->move))
        return refilled(s, c->touched & c->post);
    if (!c->capture_on_to)
        return true;
    uint64_t to = BIT(c->to);
    if (!(s->placed & to) || !(s->lifted & to) || s->place_seq[c->to] < s->lift_seq[c->to])
        return false;
    /* a board that names its pieces shows the capturing piece itself, whatever the order in
     * which it reported the two squares */
    return c->promo || s->place_seq[c->to] > s->lift_seq[c->from] ||
           (s->place_piece[c->to] && s->place_piece[c->to] == s->pos.board[c->from]);
}

/* The promotion piece wanted: a `choose`, a piece code reported with the placement, or in
 * replicating mode the expected move's. 0 if nobody said. */
int tb_sensor__wanted_promo(const tb_sensor *s, int to)
{
    if (s->choice)
        return s->choice;
    if (s->place_piece[to] && (s->placed & BIT(to)))
        return TB_CHESS_PIECE_TYPE(s->place_piece[to]);
    if (s->mode == TB_SENSOR_REPLICATING)
        return tb_chess_move_promo(s->expected);
    return 0;
}

/* piece_must_fit: a square c fills whose piece the board named holds the piece c puts there;
 * else *sq is the first that does not. */
static bool pieces_fit(const tb_sensor *s, const struct tb_sensor_cand *c, int *sq)
{
    int side = s->pos.side;
    int moved = c->drop    ? TB_CHESS_PIECE(side, c->drop)
                : c->promo ? TB_CHESS_PIECE(side, c->promo)
                           : s->pos.board[c->from];
    const int at[2] = {c->to, c->rook_to}, want[2] = {moved, TB_CHESS_PIECE(side, TB_CHESS_ROOK)};
    for (int i = 0; s->cfg.piece_must_fit && i < 2; i++) {
        int q = at[i];
        if (q < 64 && (s->placed & BIT(q)) && s->place_piece[q] && s->place_piece[q] != want[i]) {
            *sq = q;
            return false;
        }
    }
    return true;
}

/* The occupancy is c's and the events fit it, its promotion piece the one wanted. */
static bool shows(const tb_sensor *s, const struct tb_sensor_cand *c, uint64_t occ)
{
    if (c->post != occ || !events_fit(s, c))
        return false;
    int want = c->promo ? tb_sensor__wanted_promo(s, c->to) : 0;
    return !c->promo || c->promo == (want ? want : TB_CHESS_QUEEN);
}

/* The legal move the occupancy shows and the events fit. Several fit when pieces were touched
 * on the way: the one that moved the most of the lifted pieces, then the one whose far end
 * was filled last (captures by one piece look alike). */
static const struct tb_sensor_cand *match(tb_sensor *s, uint64_t occ, bool *no_choice)
{
    const struct tb_sensor_cand *best = NULL;
    int best_loose = 0, sq;
    *no_choice = false;
    /* a piece from beside the board: no legal move of the board's pieces leaves every square
     * filled, so the two never compete */
    const struct tb_sensor_cand *d = tb_sensor__drop_match(s, occ, no_choice);
    if (d)
        return pieces_fit(s, d, &sq) ? d : NULL;
    for (int i = 0; i < s->ncand; i++) {
        const struct tb_sensor_cand *c = &s->cand[i];
        if (!shows(s, c, occ) || !pieces_fit(s, c, &sq))
            continue;
        if (s->mode == TB_SENSOR_REPLICATING && c->move == s->expected)
            return c;
        int loose = __builtin_popcountll(s->lifted & s->base & ~c->touched);
        if (!best || loose < best_loose ||
            (loose == best_loose && s->place_seq[c->to] > s->place_seq[best->to])) {
            best = c;
            best_loose = loose;
        }
    }
    if (best && best->promo && !tb_sensor__wanted_promo(s, best->to))
        *no_choice = true;
    return best;
}

static const struct tb_sensor_cand *find(const tb_sensor *s, tb_chess_move m)
{
    for (int i = 0; i < s->ncand; i++)
        if (s->cand[i].move == m)
            return &s->cand[i];
    return NULL;
}

/* Could the board be part way through c: every piece off its square one that c moves, every
 * piece placed on a square c fills? */
static bool on_the_way(const tb_sensor *s, const struct tb_sensor_cand *c, uint64_t occ)
{
    uint64_t removed = s->base & ~occ, added = occ & ~s->base;
    return occ != c->post && !(removed & ~c->touched) && !(added & ~c->added);
}

static bool castling_on_the_way(const tb_sensor *s, uint64_t occ)
{
    for (int i = 0; i < s->ncand; i++)
        if (tb_chess_move_is_castle(s->cand[i].move) && on_the_way(s, &s->cand[i], occ))
            return true;
    return false;
}

/* A move the board shows that may still become another: the copy of a castling whose rook
 * came first (D.2.9: only the board at rest decides a wrong copy), a Chess960 king on its
 * castling square by an ordinary king move, or a Chess960 rook on its castling square by an
 * ordinary rook move (Guideline II.3: castling is one move of king and rook; in standard chess
 * the rook released first made a rook move, 4.4.2). */
static bool may_become_another(const tb_sensor *s, const struct tb_sensor_cand *c, uint64_t occ)
{
    if (s->settled)
        return false;
    if (s->mode == TB_SENSOR_REPLICATING) {
        const struct tb_sensor_cand *e = find(s, s->expected);
        return c->move != s->expected && e && on_the_way(s, e, occ);
    }
    if (!s->pos.chess960 || tb_chess_move_is_castle(c->move))
        return false;
    for (int i = 0; i < s->ncand; i++) {
        const struct tb_sensor_cand *k = &s->cand[i];
        if (!tb_chess_move_is_castle(k->move) || !on_the_way(s, k, occ))
            continue;
        if ((c->from == k->from && c->to == k->to) ||
            (c->from == k->rook_from && c->to == k->rook_to))
            return true;
    }
    return false;
}

/* Guideline II.3.2.2: a castling whose king and rook swap squares leaves the occupancy as it
 * was; both pieces lifted and put down again make it (4.4.1: king, then rook touched). */
static const struct tb_sensor_cand *swap_castling(const tb_sensor *s)
{
    for (int i = 0; i < s->ncand; i++) {
        const struct tb_sensor_cand *c = &s->cand[i];
        if (tb_chess_move_is_castle(c->move) && c->post == s->base && c->touched &&
            refilled(s, c->touched))
            return c;
    }
    return NULL;
}

enum progress { NO_MOVE, IN_HAND, UNSURE, UNDER_WAY };

/* A capture whose pieces are both off the board (the capturing piece in the hand, the victim
 * lifted) and one piece put down on an empty square no move fills: the victim dropped into a
 * hole (7.4) while the capture goes on, or the capturing piece released there (7.5.1). */
static bool victim_dropped(const struct tb_sensor_cand *c, uint64_t removed, uint64_t added)
{
    uint64_t both = BIT(c->from) | (c->capture_sq < 64 ? BIT(c->capture_sq) : 0);
    return c->capture_sq < 64 && c->from != c->capture_sq && (removed & both) == both &&
           !(removed & ~c->touched) && __builtin_popcountll(added) == 1 && !(added & c->added);
}

/* UNDER_WAY: the board is part way through some legal move (pieces lifted, some placed on its
 * squares). IN_HAND: it would be, but for other own pieces held in the air at the same time.
 * Pieces placed for a move none of whose pieces has left its square are on nobody's way (7.4),
 * except the new piece of a promotion put down before the pawn leaves (4.6): under way when
 * its piece is known (a choice before it). UNSURE: a placement that may be lawful or not,
 * told apart as a piece in the hand is, by what comes next or by lifted_report_ms passing:
 * the new piece of a promotion put down first without a choice (the choice may come after,
 * 4.6; else a stray), or a piece put down while a capture's two pieces are in the air (the
 * victim dropped, the capture still to land; else an illegal placement). */
static enum progress progress(const tb_sensor *s, uint64_t removed, uint64_t added,
                              uint64_t *in_hand)
{
    uint64_t own = s->pos.by_color[s->pos.side];
    enum progress best = NO_MOVE;
    for (int i = 0; i < s->ncand; i++) {
        const struct tb_sensor_cand *c = &s->cand[i];
        bool new_piece = c->promo && added == BIT(c->to);
        bool known = new_piece && tb_sensor__wanted_promo(s, c->to);
        if (((new_piece && !removed && !known) || victim_dropped(c, removed, added)) &&
            best < UNSURE)
            best = UNSURE;
        if (added & ~c->added)
            continue;
        if (added && !(removed & c->touched) && !known)
            continue;
        if (!(removed & ~c->touched))
            return UNDER_WAY;
        if ((removed & c->touched & own) && !(removed & ~c->touched & ~own)) {
            best = IN_HAND;
            *in_hand = removed & ~c->touched;
        }
    }
    return best;
}

/* The board shows a capture made and one piece more on a square nobody moved to: the victim
 * dropped into an empty hole (7.4). The capture is made (D.2.3, 4.7: its piece is released
 * on its square); *extra is the stray. */
static const struct tb_sensor_cand *capture_and_stray(const tb_sensor *s, uint64_t occ,
                                                      uint64_t *extra)
{
    for (int i = 0; i < s->ncand; i++) {
        const struct tb_sensor_cand *c = &s->cand[i];
        uint64_t x = occ & ~c->post;
        int sq;
        if (c->capture_sq >= 64 || c->drop || (c->post & ~occ) || __builtin_popcountll(x) != 1 ||
            (x & s->base) || !shows(s, c, c->post) || !pieces_fit(s, c, &sq) ||
            (s->mode == TB_SENSOR_REPLICATING && c->move != s->expected))
            continue;
        *extra = x;
        return c;
    }
    return NULL;
}

/* piece_must_fit: the board shows a move's occupancy with another piece on one of its squares
 * (a bishop where the knight goes, a piece of the wrong colour put down from beside the board).
 * Not that move: reported once, the move waits for the right piece. */
static bool wrong_piece(tb_sensor *s, uint64_t occ, uint64_t t, uint64_t event_ms)
{
    const struct tb_sensor_cand *c = NULL;
    bool no_choice;
    int sq = -1;
    if (!s->cfg.piece_must_fit)
        return false;
    const struct tb_sensor_cand *d = tb_sensor__drop_match(s, occ, &no_choice);
    if (d && !pieces_fit(s, d, &sq))
        c = d;
    for (int i = 0; !c && i < s->ncand; i++)
        if (shows(s, &s->cand[i], occ) && !pieces_fit(s, &s->cand[i], &sq))
            c = &s->cand[i];
    if (!c)
        return false;
    s->missing_pending = false;
    if (s->reported && s->reported_occ == s->occ)
        return true;
    s->reported = true;
    s->reported_occ = s->occ;
    struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_WRONG_PIECE, t, event_ms);
    o->move = c->move;
    o->square = (uint8_t)sq;
    o->piece = s->place_piece[sq];
    tb_sensor__cand_uci(s, c, o->uci);
    return true;
}

void tb_sensor__evaluate(tb_sensor *s, uint64_t t, uint64_t event_ms)
{
    bool no_choice, was_waiting = s->promo_pending;
    tb_chess_move was_move = s->promo_move;
    uint64_t occ = tb_sensor__seen(s);
    s->promo_pending = false;
    s->settle_pending = false;
    if (occ == s->base) {
        const struct tb_sensor_cand *c = swap_castling(s);
        if (c) {
            decide(s, c, false, t, event_ms);
            return;
        }
        s->missing_pending = false;
        s->reported = false;
        s->illegal = false;
        return;
    }
    uint64_t extra;
    const struct tb_sensor_cand *c = match(s, occ, &no_choice);
    if (c && s->mode == TB_SENSOR_REPLICATING && c->move != s->expected &&
        capture_and_stray(s, occ, &extra))
        c = NULL; /* the copy, its victim dropped into a hole, explains the board (D.2.9) */
    if (c) {
        s->missing_pending = false;
        if (no_choice) {
            /* 4.6: the promotion is not complete until its piece is known; wait for it. A drop
             * whose kind several pieces in hand could be waits likewise (D.2.1: the move is
             * announced with its piece). */
            s->promo_pending = true;
            s->choice_drop = c->drop != 0;
            s->choice_sq = c->to;
            s->promo_move = c->move;
            if (!was_waiting || was_move != c->move) {
                s->promo_since = t;
                s->promo_event_ms = event_ms;
            }
            return;
        }
        if (may_become_another(s, c, occ)) {
            s->settle_pending = true;
            s->settle_since = t;
            s->settle_event_ms = event_ms;
            return;
        }
        decide(s, c, false, t, event_ms);
        return;
    }
    if (wrong_piece(s, occ, t, event_ms))
        return;
    if ((c = capture_and_stray(s, occ, &extra)) != NULL && !c->promo) {
        /* the move first, then the stray it left (7.4): each square explained */
        s->stray |= extra;
        decide(s, c, false, t, event_ms);
        s->reported = true;
        s->reported_occ = s->occ;
        tb_sensor__problem(s, TB_SENSOR_P_DISPLACED, t, event_ms)->clear = s->stray;
        return;
    }
    uint64_t removed = s->base & ~occ, added = occ & ~s->base, in_hand = 0;
    enum progress p = progress(s, removed, added, &in_hand);
    if (p == UNDER_WAY) {
        s->missing_pending = false;
        s->reported = false;
        s->illegal = false;
        return;
    }
    if (tb_sensor__illegal_drop(s, occ, t, event_ms))
        return;
    if (!added || p == IN_HAND || p == UNSURE) {
        /* pieces missing (in a hand, or knocked off) with nothing misplaced, or a promotion's
         * new piece put down first (4.6): report if it lasts */
        if (!s->missing_pending) {
            s->missing_pending = true;
            s->missing_since = t;
            s->missing_event_ms = event_ms;
        }
        return;
    }
    tb_sensor__report_unexplained(s, t, event_ms);
}

/* The promotion that waits for its piece, decided with the queen (7.5.2). */
bool tb_sensor__promo_end(tb_sensor *s, uint64_t t, uint64_t event_ms)
{
    bool no_choice;
    if (!s->promo_pending || s->choice_drop)
        return false; /* a drop has no default piece: it waits for its kind */
    s->promo_pending = false;
    const struct tb_sensor_cand *c = match(s, tb_sensor__seen(s), &no_choice);
    if (!c)
        return false;
    decide(s, c, no_choice, t, event_ms);
    return true;
}

void tb_sensor__promo_timeout(tb_sensor *s, bool limit)
{
    if (limit) {
        tb_sensor__promo_end(s, s->promo_since + s->cfg.promo_wait_ms, s->promo_event_ms);
        return;
    }
    /* ask for the piece once (13: the daemon says it as a prompt) */
    s->promo_prompted = true;
    struct tb_sensor_out *o =
        tb_sensor__problem(s, TB_SENSOR_P_PROMOTION_WAITING,
                           s->promo_since + s->cfg.promo_prompt_ms, s->promo_event_ms);
    o->move = s->promo_move;
    if (s->choice_drop) {
        tb_sensor__drop_prompt(s, o);
        return;
    }
    o->square = (uint8_t)tb_chess_move_to(s->promo_move);
    tb_sensor__set_uci(&s->pos, s->promo_move, o->uci);
}

void tb_sensor__settle_timeout(tb_sensor *s, uint64_t t, uint64_t event_ms)
{
    s->settled = true;
    tb_sensor__evaluate(s, t, event_ms);
    s->settled = false;
}

bool tb_sensor__can_promote(const tb_sensor *s)
{
    for (int i = 0; i < s->ncand; i++)
        if (s->cand[i].promo)
            return true;
    return false;
}

void tb_sensor__missing_timeout(tb_sensor *s)
{
    uint64_t t = s->missing_since + s->cfg.lifted_report_ms;
    uint64_t occ = tb_sensor__seen(s);
    uint64_t removed = s->base & ~occ, added = occ & ~s->base, in_hand = 0;
    s->missing_pending = false;
    if (progress(s, removed, added, &in_hand) == IN_HAND) {
        /* a move under way, other own pieces still off their squares: those are displaced */
        if (s->reported && s->reported_occ == s->occ)
            return;
        s->reported = true;
        s->reported_occ = s->occ;
        tb_sensor__problem(s, TB_SENSOR_P_DISPLACED, t, s->missing_event_ms)->fill = in_hand;
        return;
    }
    tb_sensor__report_unexplained(s, t, s->missing_event_ms);
}

void tb_sensor__apply(tb_sensor *s, const struct tb_sensor_qev *ev, uint64_t t)
{
    int sq = ev->square;
    uint64_t bit = BIT(sq);

    /* A lift that ends a move that waits: the opponent taking a piece of theirs ends a
     * promotion without a choice (the queen, 7.5.2); a lift that leads away from the castling
     * a king or rook move might have become lets that move stand. The lift then belongs to the
     * next move. */
    if (!ev->place && s->mode == TB_SENSOR_PLAYING && (s->base & bit)) {
        if (s->promo_pending && TB_CHESS_PIECE_COLOR(s->pos.board[sq]) != s->pos.side &&
            sq != tb_chess_move_to(s->promo_move))
            tb_sensor__promo_end(s, t, ev->ms);
        else if (s->settle_pending && !castling_on_the_way(s, tb_sensor__seen(s) & ~bit))
            tb_sensor__settle_timeout(s, t, ev->ms);
    }

    /* 4.6: right after a promotion, the pawn left standing on the promotion square may be
     * swapped for the new piece: that lift is no touch, and lift + place there leave no trace */
    bool exempt = sq == s->exempt_sq;
    if (!exempt || ev->place)
        s->exempt_sq = -1;
    s->just_dropped = 0;
    s->seq++;
    if (!ev->place) {
        /* D.2.2: on the VI board a lift is a touch; count the first own and opponent piece
         * that still stands where the move began (4.3) */
        if (s->mode == TB_SENSOR_PLAYING && !exempt && (s->base & bit) && (s->occ & bit) &&
            !((s->lifted | s->placed) & bit)) {
            int piece = s->pos.board[sq];
            bool own = TB_CHESS_PIECE_COLOR(piece) == s->pos.side;
            int *slot = own ? &s->touch_own : &s->touch_opp;
            if (*slot < 0) {
                *slot = sq;
                *(own ? &s->touch_own_ms : &s->touch_opp_ms) = ev->ms;
                struct tb_sensor_out *o = tb_sensor__emit(s, TB_SENSOR_OUT_TOUCH, t, ev->ms);
                o->square = (uint8_t)sq;
                o->piece = (uint8_t)piece;
                o->own = own;
            } else if (own && s->touch_rook < 0 && TB_CHESS_PIECE_TYPE(piece) == TB_CHESS_ROOK &&
                       s->touch_own == s->pos.king_sq[s->pos.side]) {
                s->touch_rook = sq;
            }
        }
        s->lifted |= bit;
        s->lift_seq[sq] = s->seq;
        s->occ &= ~bit;
        s->stray &= ~bit; /* a stray lifted is gone from the board */
    } else {
        s->placed |= bit;
        s->place_seq[sq] = s->seq;
        s->place_piece[sq] = ev->piece;
        s->occ |= bit;
        s->gone &= ~bit;
        if (exempt && s->occ == s->base) {
            s->lifted &= ~bit;
            s->placed &= ~bit;
        }
    }
    tb_sensor__evaluate(s, t, ev->ms);
}
