/* gen.c - event scripts from moves: how people handle pieces, with noise and faults.
 *
 * Every handling order written here is one the Laws allow (4.6, 4.7, D.2.3) and the
 * recogniser must read as the move; faults come with the problem it must report.
 */
#include "tb_sensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define BIT(sq) TB_CHESS_BIT(sq)

void tb_sensor_gen_config_default(struct tb_sensor_gen_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->board = "vi";
    cfg->hesitations = true;
    cfg->blip_ms = 100;
}

int tb_sensor_gen_init(struct tb_sensor_gen *g, const struct tb_sensor_gen_config *cfg,
                       uint64_t seed)
{
    const char *board = cfg->board ? cfg->board : "vi";
    if (!tb_script_name_valid(board) || !(cfg->fault_rate >= 0 && cfg->fault_rate <= 1) ||
        cfg->fault < TB_SENSOR_GEN_NO_FAULT || cfg->fault > TB_SENSOR_GEN_SAME_SIDE_TWICE ||
        cfg->blip_ms < 20 || (cfg->noise_ms && (cfg->noise_ms < 20 || cfg->noise_ms > 1000)))
        return TB_ERR_ARG;
    memset(g, 0, sizeof *g);
    g->cfg = *cfg;
    snprintf(g->board, sizeof g->board, "%s", board);
    g->cfg.board = g->board;
    g->rng = seed ^ 0x9e3779b97f4a7c15ULL;
    return TB_OK;
}

/* splitmix64: small, fast, and good enough to shuffle handling orders */
static uint64_t next_rand(struct tb_sensor_gen *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t range(struct tb_sensor_gen *g, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(next_rand(g) % (uint64_t)(hi - lo + 1));
}

static bool chance(struct tb_sensor_gen *g, double p)
{
    return (double)(next_rand(g) >> 11) * (1.0 / 9007199254740992.0) < p;
}

struct out {
    struct tb_sensor_gen *g;
    tb_sensor_gen_fn fn;
    void *user;
    int rc;
    uint64_t extra; /* squares holding a stray piece: not empty for blips */
    /* events put right after the next move's first lift: a stray taken away, a knocked
     * piece put back while the mover holds a piece that could reach its square */
    struct {
        bool place;
        uint8_t sq;
    } hook[2];
    int nhook;
    int drop_at; /* quick strays: the square the victim is dropped on before the capture lands */
};

static void emit(struct out *o, enum tb_script_kind kind, int sq, char piece, uint32_t wait)
{
    struct tb_script_event ev;
    if (o->rc)
        return;
    memset(&ev, 0, sizeof ev);
    o->g->t += wait;
    ev.kind = kind;
    ev.ms = o->g->t;
    ev.us = ev.ms * 1000;
    memcpy(ev.board, o->g->board, sizeof ev.board);
    ev.square = (uint8_t)sq;
    ev.piece = piece;
    o->rc = o->fn(o->user, &ev);
}

static void expect(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect(struct out *o, const char *fmt, ...)
{
    struct tb_script_event ev;
    va_list ap;
    if (o->rc)
        return;
    memset(&ev, 0, sizeof ev);
    ev.kind = TB_SCRIPT_EXPECT;
    va_start(ap, fmt);
    vsnprintf(ev.text, sizeof ev.text, fmt, ap);
    va_end(ap);
    o->rc = o->fn(o->user, &ev);
}

static uint32_t within(struct out *o)
{
    return range(o->g, 50, 400);
} /* within a move */

static void place(struct out *o, int sq, uint32_t wait)
{
    emit(o, TB_SCRIPT_PLACE, sq, 0, wait);
}
static void lift(struct out *o, int sq, uint32_t wait)
{
    emit(o, TB_SCRIPT_LIFT, sq, 0, wait);
    for (int i = 0; i < o->nhook; i++)
        emit(o, o->hook[i].place ? TB_SCRIPT_PLACE : TB_SCRIPT_LIFT, o->hook[i].sq, 0, within(o));
    if (o->nhook)
        o->extra = 0;
    o->nhook = 0;
}

static const char *name(int sq, char buf[3])
{
    return tb_chess_square_name(sq, buf);
}

/* A fly-over: the carried magnet closes an empty square between from and to for less than the
 * blip window. */
static void maybe_blip(struct out *o, int from, int to, uint64_t empty)
{
    struct tb_sensor_gen *g = o->g;
    int df = TB_CHESS_FILE(to) - TB_CHESS_FILE(from), dr = TB_CHESS_RANK(to) - TB_CHESS_RANK(from);
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    int sq = TB_CHESS_SQ(TB_CHESS_FILE(from) + sf, TB_CHESS_RANK(from) + sr);
    if (!g->cfg.blips || !chance(g, 0.3) || sq == to || !(empty & ~o->extra & BIT(sq)))
        return;
    place(o, sq, range(g, 40, 200));
    lift(o, sq, range(g, 5, g->cfg.blip_ms * 7 / 10));
}

/* The firmware reports a square only once it has stood changed for its debounce window. */
#define DEBOUNCE_MS 20

/* A dwell of physical noise: inside the blip window, or 5 ms to noise_ms when measuring it. */
static uint32_t noise_dwell(struct tb_sensor_gen *g, uint32_t share_of_blip)
{
    if (g->cfg.noise_ms)
        return range(g, 5, g->cfg.noise_ms);
    return range(g, 5, g->cfg.blip_ms * share_of_blip / 10);
}

/* The square the piece passes over first on its way from from to to: the next one along the
 * line, or for a knight the square one step along its longer leg. -1 if none. */
static int next_on_way(int from, int to)
{
    int df = TB_CHESS_FILE(to) - TB_CHESS_FILE(from), dr = TB_CHESS_RANK(to) - TB_CHESS_RANK(from);
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    if (adf && adr && adf != adr) /* a knight: along its longer leg */
        adf > adr ? (sr = 0) : (sf = 0);
    int sq = TB_CHESS_SQ(TB_CHESS_FILE(from) + sf, TB_CHESS_RANK(from) + sr);
    return sq == to ? -1 : sq;
}

/* The piece carried low from from to to closes each empty square on its way for a dwell of
 * 5 ms to noise_ms; the firmware reports those that last its debounce. */
static void carry(struct out *o, int from, int to, uint64_t empty)
{
    struct tb_sensor_gen *g = o->g;
    if (!g->cfg.carry)
        return;
    for (int sq = next_on_way(from, to); sq >= 0; sq = next_on_way(sq, to)) {
        uint32_t dwell = noise_dwell(g, 7), travel = range(g, 20, 120);
        if (!(empty & ~o->extra & BIT(sq)) || dwell < DEBOUNCE_MS) {
            g->t += travel + dwell;
            continue;
        }
        place(o, sq, travel);
        lift(o, sq, dwell);
    }
}

static void hesitate(struct out *o, int from)
{
    if (!o->g->cfg.hesitations || !chance(o->g, 0.08))
        return;
    /* put back and lift again: the same piece, so the touch stays with the piece moved */
    place(o, from, range(o->g, 150, 700));
    lift(o, from, range(o->g, 200, 900));
}

static char promo_letter(int ptype)
{
    return "??nbrq"[ptype];
}

/* The pawn itself put on the promotion square, the choice after it (4.6: the promotion is
 * complete when the piece is known): 0.1-0.9 s after, or 2 s after. */
static void late_choice(struct out *o, const struct tb_chess_move_squares *ms, char choice)
{
    struct tb_sensor_gen *g = o->g;
    lift(o, ms->from, 0);
    if (ms->captured)
        lift(o, ms->to, within(o));
    place(o, ms->to, range(g, ms->captured ? g->cfg.blip_ms + 20 : 50, 400));
    emit(o, TB_SCRIPT_CHOOSE, 0, choice, chance(g, 0.25) ? 2000 : range(g, 100, 900));
}

static void gen_promotion(struct out *o, const struct tb_chess_move_squares *ms)
{
    struct tb_sensor_gen *g = o->g;
    char choice = promo_letter(ms->promo);
    bool capture = ms->captured != 0;
    if (g->cfg.late_choices && chance(g, 0.5)) {
        late_choice(o, ms, choice);
        return;
    }
    uint32_t order = range(g, 0, 3);
    if (g->cfg.new_piece_first && !g->cfg.pawn_stays)
        order = 2;
    switch (order) {
    case 0: /* choose first, pawn off, new piece on (4.6.2: either order) */
        emit(o, TB_SCRIPT_CHOOSE, 0, choice, 0);
        if (capture)
            lift(o, ms->to, within(o));
        lift(o, ms->from, within(o));
        place(o, ms->to, within(o));
        break;
    case 1: /* pawn off, choice, then the piece */
        lift(o, ms->from, 0);
        if (capture)
            lift(o, ms->to, within(o));
        emit(o, TB_SCRIPT_CHOOSE, 0, choice, within(o));
        place(o, ms->to, within(o));
        break;
    case 3: /* the pawn itself put on the square; the choice comes after */
        late_choice(o, ms, choice);
        break;
    default:                     /* the new piece stands on the square before the pawn leaves */
        if (g->cfg.pawn_stays) { /* 3.1: no new piece; the choice, then the pawn across */
            emit(o, TB_SCRIPT_CHOOSE, 0, choice, 0);
            lift(o, ms->from, within(o));
            if (capture)
                lift(o, ms->to, within(o));
            place(o, ms->to, range(g, capture ? g->cfg.blip_ms + 20 : 50, 400));
            break;
        }
        /* the choice before the piece, or after the pawn has left (4.6: either) */
        bool choose_after = chance(g, 0.5);
        if (!choose_after)
            emit(o, TB_SCRIPT_CHOOSE, 0, choice, 0);
        if (capture) /* victim off, new piece on: slower than a wobble in the hole (D.2.2) */
            lift(o, ms->to, choose_after ? 0 : within(o));
        place(o, ms->to, range(g, capture ? g->cfg.blip_ms + 20 : 50, 400));
        lift(o, ms->from, range(g, g->cfg.blip_ms + 20, 500));
        if (choose_after)
            emit(o, TB_SCRIPT_CHOOSE, 0, choice, range(g, 100, 900));
        break;
    }
}

/* Castling in an order a player may use (4.4.1, Guideline II.3.5: king off the board first is
 * the recommended order in Chess960); rook first only in Chess960 or on a board that copies
 * (in standard chess the rook released first makes a rook move, 4.4.2). */
static void gen_castling(struct out *o, const tb_chess_pos *pos,
                         const struct tb_chess_move_squares *ms)
{
    struct tb_sensor_gen *g = o->g;
    int k = ms->from, kt = ms->to, r = ms->rook_from, rt = ms->rook_to;
    if (k == kt) { /* Guideline II.3.2.4: only the rook moves */
        lift(o, r, 0);
        place(o, rt, within(o));
        return;
    }
    if (r == rt) { /* II.3.2.3: only the king moves */
        lift(o, k, 0);
        place(o, kt, within(o));
        return;
    }
    bool rook_first = (pos->chess960 || g->cfg.copy) && rt != k;
    bool king_first = kt != r;
    switch (range(g, 0, 3)) {
    case 0:
        if (king_first) { /* king down on its square, then the rook (4.4.1) */
            lift(o, k, 0);
            place(o, kt, within(o));
            lift(o, r, within(o));
            place(o, rt, within(o));
            return;
        }
        break;
    case 1:
        if (rook_first) {
            lift(o, r, 0);
            place(o, rt, within(o));
            lift(o, k, within(o));
            place(o, kt, within(o));
            return;
        }
        break;
    case 2: /* both in the air, king put down first */
        lift(o, k, 0);
        lift(o, r, within(o));
        place(o, kt, within(o));
        place(o, rt, within(o));
        return;
    default:
        break;
    }
    /* king off the board, rook across, king down (II.3.5.1; a swap of squares too) */
    lift(o, k, 0);
    lift(o, r, within(o));
    place(o, rt, within(o));
    place(o, kt, within(o));
}

static void gen_move(struct out *o, const tb_chess_pos *pos, tb_chess_move m)
{
    struct tb_sensor_gen *g = o->g;
    struct tb_chess_move_squares ms;
    uint64_t empty = ~tb_chess_occupancy(pos);
    tb_chess_move_squares(pos, m, &ms);

    if (ms.promo) {
        gen_promotion(o, &ms);
    } else if (tb_chess_move_is_castle(m)) {
        gen_castling(o, pos, &ms);
    } else if (tb_chess_move_kind(m) == TB_CHESS_MK_EP) {
        switch (range(g, 0, 2)) {
        case 0:
            lift(o, ms.capture_sq, 0);
            lift(o, ms.from, within(o));
            place(o, ms.to, within(o));
            break;
        case 1:
            lift(o, ms.from, 0);
            lift(o, ms.capture_sq, within(o));
            place(o, ms.to, within(o));
            break;
        default:
            lift(o, ms.from, 0);
            place(o, ms.to, within(o));
            lift(o, ms.capture_sq, range(g, 80, 600));
            break;
        }
    } else if (ms.captured) {
        if (chance(g, 0.5)) { /* victim off first */
            lift(o, ms.to, 0);
            lift(o, ms.from, within(o));
        } else {
            lift(o, ms.from, 0);
            hesitate(o, ms.from);
            lift(o, ms.to, within(o));
        }
        if (o->drop_at >= 0) { /* the victim dropped into a hole, the capture still to land */
            place(o, o->drop_at, within(o));
            o->extra |= BIT(o->drop_at);
        }
        maybe_blip(o, ms.from, ms.to, empty);
        carry(o, ms.from, ms.to, empty);
        place(o, ms.to, within(o));
    } else {
        lift(o, ms.from, 0);
        hesitate(o, ms.from);
        maybe_blip(o, ms.from, ms.to, empty);
        carry(o, ms.from, ms.to, empty);
        place(o, ms.to, range(g, 80, 400));
    }
}

/* Can any legal move of pos capture on sq? */
static bool capturable(const tb_chess_movelist *list, const tb_chess_pos *pos, int sq)
{
    struct tb_chess_move_squares ms;
    for (int i = 0; i < list->count; i++) {
        tb_chess_move_squares(pos, list->moves[i], &ms);
        if (ms.capture_sq == sq)
            return true;
    }
    return false;
}

/* The piece is first released on a square no legal move reaches, then taken to the right one. */
static bool fault_wrong_square(struct out *o, const tb_chess_pos *pos, tb_chess_move m,
                               const tb_chess_movelist *list)
{
    struct tb_chess_move_squares ms, other;
    char a[3], b[3];
    tb_chess_move_squares(pos, m, &ms);
    if (tb_chess_move_kind(m) != TB_CHESS_MK_NORMAL || ms.captured)
        return false;
    uint64_t bad = ~tb_chess_occupancy(pos);
    for (int i = 0; i < list->count; i++) {
        tb_chess_move_squares(pos, list->moves[i], &other);
        if (other.from == ms.from || other.rook_from == ms.from) {
            bad &= ~BIT(other.to);
            if (other.rook_to != TB_CHESS_NOSQ)
                bad &= ~BIT(other.rook_to);
        }
    }
    if (!bad)
        return false;
    int pick = (int)range(o->g, 0, (uint32_t)__builtin_popcountll(bad) - 1);
    for (; pick > 0; pick--)
        bad &= bad - 1;
    int x = __builtin_ctzll(bad);
    expect(o, "! illegal %s placed %s", name(ms.from, a), name(x, b));
    lift(o, ms.from, 0);
    place(o, x, within(o));
    lift(o, x, range(o->g, 400, 1500));
    place(o, ms.to, within(o));
    return true;
}

/* A piece of the side not to move (one that cannot be captured, so the touch binds nobody)
 * knocked onto an empty neighbouring square and put back. */
static bool fault_knocked(struct out *o, const tb_chess_pos *pos, const tb_chess_movelist *list,
                          const struct tb_chess_move_squares *ms)
{
    tb_chess_movelist theirs;
    tb_chess_pos null = *pos;
    char a[3], b[3];
    if (tb_chess_in_check(pos))
        return false;
    null.side ^= 1;
    null.ep = TB_CHESS_NOSQ;
    tb_chess_gen_legal(&null, &theirs);
    uint64_t occ = tb_chess_occupancy(pos), pieces = pos->by_color[pos->side ^ 1];
    int start = (int)range(o->g, 0, 63);
    for (int k = 0; k < 64; k++) {
        int sq = (start + k) & 63;
        if (!(pieces & BIT(sq)) || TB_CHESS_PIECE_TYPE(pos->board[sq]) == TB_CHESS_KING ||
            capturable(list, pos, sq))
            continue;
        for (int d = 0; d < 8; d++) {
            static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                           {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
            int f = TB_CHESS_FILE(sq) + dirs[d][0], r = TB_CHESS_RANK(sq) + dirs[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7 || (occ & BIT(TB_CHESS_SQ(f, r))))
                continue;
            int y = TB_CHESS_SQ(f, r);
            bool legal = false;
            for (int i = 0; i < theirs.count; i++)
                legal |= tb_chess_move_from(theirs.moves[i]) == sq &&
                         tb_chess_move_to(theirs.moves[i]) == y;
            if (legal)
                continue;
            expect(o, "! displaced clear %s fill %s", name(y, a), name(sq, b));
            emit(o, TB_SCRIPT_LIFT, sq, 0, 0);
            place(o, y, range(o->g, 30, 150));
            if (chance(o->g, 0.5) && y != ms->to && y != ms->rook_to) {
                /* put back only once the mover holds a piece (7.4: y is no square of theirs) */
                o->hook[0].place = false;
                o->hook[0].sq = (uint8_t)y;
                o->hook[1].place = true;
                o->hook[1].sq = (uint8_t)sq;
                o->nhook = 2;
                o->extra |= BIT(y);
                o->g->t += range(o->g, 300, 800);
                return true;
            }
            lift(o, y, range(o->g, 500, 1200));
            place(o, sq, range(o->g, 150, 500));
            o->g->t += range(o->g, 300, 1000);
            return true;
        }
    }
    return false;
}

/* The side that has just moved moves again (a quiet move of a piece the side to move cannot
 * capture), then takes it back. */
static bool fault_twice(struct out *o, const tb_chess_pos *pos, const tb_chess_movelist *list)
{
    tb_chess_movelist theirs;
    struct tb_chess_move_squares ms;
    tb_chess_pos null = *pos;
    char uci[8];
    if (tb_chess_in_check(pos))
        return false;
    null.side ^= 1;
    null.ep = TB_CHESS_NOSQ;
    int n = tb_chess_gen_legal(&null, &theirs);
    if (n == 0)
        return false;
    int start = (int)range(o->g, 0, (uint32_t)n - 1);
    for (int k = 0; k < n; k++) {
        tb_chess_move m = theirs.moves[(start + k) % n];
        tb_chess_move_squares(&null, m, &ms);
        if (tb_chess_move_kind(m) != TB_CHESS_MK_NORMAL || ms.captured ||
            capturable(list, pos, ms.from))
            continue;
        tb_chess_move_to_uci(&null, m, uci, sizeof uci);
        expect(o, "! same-side-twice %s", uci);
        lift(o, ms.from, 0);
        place(o, ms.to, within(o));
        lift(o, ms.to, range(o->g, 500, 1500));
        place(o, ms.from, within(o));
        o->g->t += range(o->g, 300, 1000);
        return true;
    }
    return false;
}

/* A piece wobbling in its hole (lift and place within the blip window): no touch (D.2.2). */
static void wobble(struct out *o, const tb_chess_pos *pos)
{
    struct tb_sensor_gen *g = o->g;
    uint64_t occ = tb_chess_occupancy(pos);
    int n = __builtin_popcountll(occ), pick = (int)range(g, 0, (uint32_t)n - 1);
    for (; pick > 0; pick--)
        occ &= occ - 1;
    int sq = __builtin_ctzll(occ);
    uint32_t dwell = noise_dwell(g, 6);
    if (!g->cfg.noise_ms || dwell >= DEBOUNCE_MS) { /* shorter: the firmware saw nothing */
        emit(o, TB_SCRIPT_LIFT, sq, 0, 0);
        emit(o, TB_SCRIPT_PLACE, sq, 0, dwell);
    }
    g->t += range(g, 200, 800);
}

/* 7.4: after a capture the taken piece is dropped into an empty hole (one the next mover's
 * piece could reach, when there is one); it is reported at once and taken away before, during
 * or after the next move, which must be read as made. */
static int pick_stray(struct out *o, const tb_chess_pos *pos, tb_chess_move next, uint64_t avoid)
{
    struct tb_sensor_gen *g = o->g;
    struct tb_chess_move_squares ns, ms;
    tb_chess_movelist list;
    tb_chess_move_squares(pos, next, &ns);
    uint64_t empty = ~tb_chess_occupancy(pos) & ~BIT(ns.to) & ~avoid;
    if (ns.rook_to != TB_CHESS_NOSQ)
        empty &= ~BIT(ns.rook_to);
    uint64_t reach = 0;
    int n = tb_chess_gen_legal(pos, &list);
    for (int i = 0; i < n; i++) {
        tb_chess_move_squares(pos, list.moves[i], &ms);
        if (ms.from == ns.from)
            reach |= BIT(ms.to);
        /* a piece on the empty square a pawn of the mover may promote to can be the
         * promotion's new piece, put down first (4.6): not a stray until it has stood there */
        if (ms.promo && !ms.captured)
            empty &= ~BIT(ms.to);
    }
    reach &= empty;
    if (!empty)
        return -1;
    uint64_t pool = reach ? reach : empty;
    int pick = (int)range(g, 0, (uint32_t)__builtin_popcountll(pool) - 1);
    for (; pick > 0; pick--)
        pool &= pool - 1;
    return __builtin_ctzll(pool);
}

/* The stray on x is reported, then taken away before, during or after the next move. */
static void stray_lies(struct out *o, int x, int *lift_after)
{
    struct tb_sensor_gen *g = o->g;
    char a[3];
    expect(o, "! displaced clear %s", name(x, a));
    o->extra |= BIT(x);
    switch (range(g, 0, 2)) {
    case 0: /* taken away before the next move */
        lift(o, x, range(g, 500, 1500));
        o->extra = 0;
        break;
    case 1: /* while the mover holds the piece that could go there */
        o->hook[0].place = false;
        o->hook[0].sq = (uint8_t)x;
        o->nhook = 1;
        break;
    default: /* after the next move */
        *lift_after = x;
        break;
    }
}

static void stray(struct out *o, const tb_chess_pos *pos, tb_chess_move next, uint64_t avoid,
                  int *lift_after)
{
    int x = pick_stray(o, pos, next, avoid);
    if (x < 0)
        return;
    place(o, x, o->g->cfg.quick_strays ? range(o->g, 20, 90) : range(o->g, 200, 600));
    stray_lies(o, x, lift_after);
}

/* One move with its noise and faults; ply counts the moves written before it. */
static int one_move(struct out *o, const tb_chess_pos *pos, tb_chess_move m, int ply,
                    struct tb_error *err)
{
    struct tb_sensor_gen *g = o->g;
    tb_chess_movelist list;
    struct tb_chess_move_squares ms;
    char uci[8];
    tb_chess_gen_legal(pos, &list);
    if (!tb_chess_is_legal(pos, m))
        return tb_error_set(err, TB_ERR_ILLEGAL, "ply %d: move is not legal", ply + 1);
    tb_chess_move_to_uci(pos, m, uci, sizeof uci);
    tb_chess_move_squares(pos, m, &ms);
    if (g->cfg.wobbles && chance(g, 0.3))
        wobble(o, pos);
    bool faulted = false;
    if (g->cfg.fault != TB_SENSOR_GEN_NO_FAULT && !o->extra && chance(g, g->cfg.fault_rate)) {
        if (g->cfg.fault == TB_SENSOR_GEN_WRONG_SQUARE)
            faulted = fault_wrong_square(o, pos, m, &list);
        else if (g->cfg.fault == TB_SENSOR_GEN_KNOCKED_PIECE)
            faulted = fault_knocked(o, pos, &list, &ms);
        else if (ply > 0)
            faulted = fault_twice(o, pos, &list);
        g->faults += faulted;
    }
    if (!faulted || g->cfg.fault != TB_SENSOR_GEN_WRONG_SQUARE)
        gen_move(o, pos, m);
    expect(o, "%s", uci);
    return TB_OK;
}

int tb_sensor_gen_moves(struct tb_sensor_gen *g, const tb_chess_pos *start,
                        const tb_chess_move *moves, int n, tb_sensor_gen_fn fn, void *user,
                        struct tb_error *err)
{
    struct out o = {.g = g, .fn = fn, .user = user, .drop_at = -1};
    tb_chess_pos pos = *start;
    tb_chess_undo undo;
    struct tb_chess_move_squares ms;
    int lift_after = -1;

    for (int ply = 0; ply < n && !o.rc; ply++) {
        tb_chess_move_squares(&pos, moves[ply], &ms);
        g->t += range(g, 300, 3000); /* thinking */
        if (g->cfg.strays && g->cfg.quick_strays && ms.captured && ms.capture_sq == ms.to &&
            !ms.promo && ply + 1 < n && lift_after < 0 && !o.extra && chance(g, 0.5)) {
            /* not where the capturing piece could go: that would be its move, the victim
             * lifted and put back (the board cannot tell) */
            tb_chess_pos after = pos;
            tb_chess_movelist list;
            uint64_t avoid = BIT(ms.from);
            int nl = tb_chess_gen_legal(&pos, &list);
            for (int i = 0; i < nl; i++)
                if (tb_chess_move_from(list.moves[i]) == ms.from)
                    avoid |= BIT(tb_chess_move_to(list.moves[i]));
            tb_chess_make(&after, moves[ply], &undo);
            if (tb_chess_is_legal(&after, moves[ply + 1]))
                o.drop_at = pick_stray(&o, &after, moves[ply + 1], avoid);
        }
        int rc = one_move(&o, &pos, moves[ply], ply, err);
        if (rc)
            return rc;
        tb_chess_make(&pos, moves[ply], &undo);
        uint64_t just_lifted = 0; /* a stray dropped there now would be a wobble (D.2.2) */
        if (lift_after >= 0) {
            lift(&o, lift_after, range(g, 300, 1000));
            just_lifted = BIT(lift_after);
            lift_after = -1;
            o.extra = 0;
        }
        if (o.drop_at >= 0) {
            stray_lies(&o, o.drop_at, &lift_after);
            o.drop_at = -1;
            g->faults++;
        } else if (g->cfg.strays && ms.captured && ply + 1 < n &&
                   tb_chess_is_legal(&pos, moves[ply + 1]) && chance(g, 0.5)) {
            stray(&o, &pos, moves[ply + 1], just_lifted, &lift_after);
            g->faults++;
        }
    }
    return o.rc;
}

int tb_sensor_gen_move(struct tb_sensor_gen *g, const tb_chess_pos *pos, tb_chess_move m,
                       tb_sensor_gen_fn fn, void *user, struct tb_error *err)
{
    struct out o = {.g = g, .fn = fn, .user = user, .drop_at = -1};
    int rc = one_move(&o, pos, m, 1, err);
    if (rc)
        return rc;
    /* a knocked piece still off its square goes back now */
    for (int i = 0; i < o.nhook; i++) {
        uint32_t wait = within(&o); /* drawn before o is read, in the generator's order */
        emit(&o, o.hook[i].place ? TB_SCRIPT_PLACE : TB_SCRIPT_LIFT, o.hook[i].sq, 0, wait);
    }
    return o.rc;
}
