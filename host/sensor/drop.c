/* drop.c - pieces put on the board from beside it: the drops of a variant with pieces in hand
 * (doorgeefschaak 2.2-2.5). Occupancy alone cannot tell which piece came: the one kind in hand
 * that may go there, else the player's choice, as a promotion's piece (4.6). */
#include "sensor_internal.h"

#include <string.h>

#define BIT(sq) TB_CHESS_BIT(sq)

void tb_sensor_set_drops(tb_sensor *s, const struct tb_sensor_drops *rules)
{
    s->drops = rules;
    memset(s->hand, 0, sizeof s->hand);
    tb_sensor__load_drops(s);
}

int tb_sensor_set_hand(tb_sensor *s, int color, const uint8_t hand[6], uint64_t now_ms)
{
    if (!s->drops || (color != TB_CHESS_WHITE && color != TB_CHESS_BLACK) || !hand)
        return TB_ERR_ARG;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        if (hand[t] > 16)
            return TB_ERR_ARG;
    tb_sensor_tick(s, now_ms);
    bool same = true;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++) {
        same &= s->hand[color][t] == hand[t];
        s->hand[color][t] = hand[t];
    }
    if (same || color != s->pos.side)
        return TB_OK;
    tb_sensor__load_drops(s);
    /* a drop waiting for its kind may have more kinds now; strays stay strays */
    if (tb_sensor__seen(s) != s->base)
        tb_sensor__evaluate(s, s->now, s->now);
    return TB_OK;
}

const uint8_t *tb_sensor_hand(const tb_sensor *s, int color)
{
    return s->hand[color & 1];
}

static unsigned hand_kinds(const tb_sensor *s)
{
    unsigned have = 0;
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        if (s->hand[s->pos.side][t])
            have |= 1u << t;
    return have;
}

void tb_sensor__load_drops(tb_sensor *s)
{
    memset(s->drop_kinds, 0, sizeof s->drop_kinds);
    if (s->drops && hand_kinds(s))
        s->drops->legal(&s->pos, s->hand[s->pos.side], s->drop_kinds);
}

bool tb_sensor__expected_drop(const tb_sensor *s, tb_chess_move m, int *type, int *sq)
{
    for (int q = 0; s->drops && q < 64; q++)
        for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
            if ((s->drop_kinds[q] & (1u << t)) && s->drops->move(t, q) == m) {
                *type = t;
                *sq = q;
                return true;
            }
    return false;
}

bool tb_sensor__can_drop(const tb_sensor *s, int ptype)
{
    for (int q = 0; q < 64; q++)
        if (s->drop_kinds[q] & (1u << ptype))
            return true;
    return false;
}

/* The kind the player said: a choice, the piece a board that names pieces reported, or when
 * copying the expected drop's. 0 if nobody said. */
static int wanted(const tb_sensor *s, int sq)
{
    int piece = s->place_piece[sq], type, at;
    if (s->choice)
        return s->choice;
    if (piece && (s->placed & BIT(sq)) && TB_CHESS_PIECE_COLOR(piece) == s->pos.side)
        return TB_CHESS_PIECE_TYPE(piece);
    if (s->mode == TB_SENSOR_REPLICATING && tb_sensor__expected_drop(s, s->expected, &type, &at) &&
        at == sq)
        return type;
    return 0;
}

/* The one square a board shows filled beyond the position, nothing else changed; else -1. */
static int lone_placement(const tb_sensor *s, uint64_t occ)
{
    uint64_t added = occ & ~s->base;
    if (!s->drops || (s->base & ~occ) || !added || (added & (added - 1)))
        return -1;
    return tb_sensor__lowest(added);
}

const struct tb_sensor_cand *tb_sensor__drop_match(tb_sensor *s, uint64_t occ, bool *no_choice)
{
    int sq = lone_placement(s, occ);
    if (sq < 0 || !s->drop_kinds[sq])
        return NULL;
    unsigned kinds = s->drop_kinds[sq];
    int type = wanted(s, sq);
    if (type && !(kinds & (1u << type)))
        return NULL; /* that kind may not go there: refused by tb_sensor__illegal_drop */
    if (!type) {
        /* the only kind in hand that may go there; else the drop waits for the choice */
        type = 31 - __builtin_clz(kinds);
        *no_choice = (kinds & (kinds - 1)) != 0;
    }
    struct tb_sensor_cand *c = &s->drop_cand;
    memset(c, 0, sizeof *c);
    c->move = s->drops->move(type, sq);
    c->post = occ;
    c->added = BIT(sq);
    c->from = c->rook_from = c->rook_to = c->capture_sq = TB_CHESS_NOSQ;
    c->to = (uint8_t)sq;
    c->drop = (uint8_t)type;
    return c;
}

static void report(tb_sensor *s, int sq, int type, int reason, uint64_t t, uint64_t event_ms)
{
    struct tb_sensor_out *o = tb_sensor__problem(s, TB_SENSOR_P_ILLEGAL_DROP, t, event_ms);
    o->square = (uint8_t)sq;
    o->piece = (uint8_t)type;
    o->kinds = (uint8_t)hand_kinds(s);
    o->reason = reason;
    o->article = s->drops->article(reason);
    if (!o->article)
        o->article = "";
}

bool tb_sensor__illegal_drop(tb_sensor *s, uint64_t occ, uint64_t t, uint64_t event_ms)
{
    int sq = lone_placement(s, occ);
    unsigned have = hand_kinds(s);
    if (sq < 0 || !have)
        return false; /* nothing in hand: a stray (7.4) */
    if (s->reported && s->reported_occ == s->occ)
        return true;
    s->reported = true;
    s->reported_occ = s->occ;
    s->missing_pending = false;
    /* the kind said, else the only kind in hand; with several, the first refusal from the
     * queen down names the rule */
    int type = wanted(s, sq), reason = 0;
    if (!type && !(have & (have - 1)))
        type = __builtin_ctz(have);
    for (int k = TB_CHESS_QUEEN; !type && !reason && k >= TB_CHESS_PAWN; k--)
        if (have & (1u << k))
            reason = s->drops->refuse(&s->pos, s->hand[s->pos.side], k, sq);
    if (type)
        reason = s->drops->refuse(&s->pos, s->hand[s->pos.side], type, sq);
    /* the piece is to be taken back (7.3 of the club's rules): no move may use its square */
    s->stray |= BIT(sq);
    report(s, sq, type, reason, t, event_ms);
    return true;
}

int tb_sensor__drop_choice(tb_sensor *s, int ptype, uint64_t ms)
{
    int sq = s->choice_sq;
    if (!(s->drop_kinds[sq] & (1u << ptype))) {
        report(s, sq, ptype, s->drops->refuse(&s->pos, s->hand[s->pos.side], ptype, sq), ms, ms);
        return TB_ERR_ILLEGAL;
    }
    s->choice = ptype;
    tb_sensor__evaluate(s, ms, ms);
    return TB_OK;
}

void tb_sensor__drop_prompt(tb_sensor *s, struct tb_sensor_out *o)
{
    o->problem = TB_SENSOR_P_DROP_WAITING;
    o->square = (uint8_t)s->choice_sq;
    o->kinds = s->drop_kinds[o->square];
}

enum tb_sensor_wait tb_sensor_waiting(const tb_sensor *s, int *square, unsigned *kinds)
{
    int sq = -1;
    unsigned k = 0;
    enum tb_sensor_wait w = TB_SENSOR_WAIT_NONE;
    if (s->promo_pending && s->choice_drop) {
        w = TB_SENSOR_WAIT_DROP;
        sq = s->choice_sq;
        k = s->drop_kinds[sq];
    } else if (s->promo_pending) {
        w = TB_SENSOR_WAIT_PROMOTION;
        sq = tb_chess_move_to(s->promo_move);
        for (int t = TB_CHESS_KNIGHT; t <= TB_CHESS_QUEEN; t++)
            k |= 1u << t;
    }
    if (square)
        *square = sq;
    if (kinds)
        *kinds = k;
    return w;
}
