/* corpus.c - seeded two-board games with match-level handling, as board events.
 *
 * A random legal game is played on the two boards through a match: each move made on the board
 * of its player and copied on the other, with the recogniser's generator writing the events
 * (handling orders, hesitations, blips). Now and then the script does what players do:
 * the copier replies before copying (the Laws allow it: both moves are the game's), or a piece
 * is knocked over on one board while the other board's player moves (7.4: the knocking player
 * puts it back; the other player's move stands, D.2.3). The simulated players do exactly what
 * the put-right instructions say. Checked: the agreed game is the generated one, move for
 * move; no report where the handling is lawful; one mismatch per slip, each put right by
 * following its instruction; nobody but the slipping player is asked to change anything, and
 * no move is held. */
#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "put_right.h"
#include "tb_test.h"

#define MAX_PLIES 64

struct corpus {
    struct fixture f;
    enum corpus_class cls;
    uint64_t seed, rng;
    bool blips, swap; /* fly-over blips; the VI player (board 0) plays Black */
    tb_chess_move game[MAX_PLIES];
    int plies;
    struct corpus_stats *st;
    struct phys_board phys[2]; /* what physically stands on each board, piece by piece */
    uint64_t blip_ms;          /* the recognisers' blip window */
    uint8_t taken[32];         /* pieces captured so far, beside the boards */
    int ntaken;
};

static uint64_t next(struct corpus *c)
{
    uint64_t z = (c->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

const char *corpus_class_name(enum corpus_class cls)
{
    static const char *const names[] = {"plain",     "own-first",  "slip-other", "slip-ahead",
                                        "slip-copy", "stray-copy", "stray-move", "knock-turn"};
    return (unsigned)cls < CORPUS_CLASSES ? names[cls] : "?";
}

static void fail(struct corpus *c, const char *what)
{
    static char dump[65536];
    if (getenv("CORPUS_ALL")) /* the whole script's outputs, for a closer look */
        c->f.mark = 0;
    fx_dump(&c->f, dump, sizeof dump);
    TB_FAIL("%s script seed %llu: %s (boards %016llx %016llx); outputs since the last step:\n%s",
            corpus_class_name(c->cls), (unsigned long long)c->seed, what,
            (unsigned long long)tb_match_occupancy(c->f.m, 0),
            (unsigned long long)tb_match_occupancy(c->f.m, 1), dump);
}

/* The events of one move on a board, from the position it shows, then wait_ms. */
static void gen_move_then(struct corpus *c, int board, const tb_chess_pos *pos, tb_chess_move mv,
                          uint64_t wait_ms)
{
    struct tb_sensor_gen_config cfg;
    struct tb_sensor_gen gen;
    struct tb_error err = {0};
    tb_sensor_gen_config_default(&cfg);
    cfg.board = board ? "sighted" : "vi";
    cfg.blips = c->blips;
    if (tb_sensor_gen_init(&gen, &cfg, next(c)) < 0)
        fail(c, "generator");
    gen.t = c->f.t;
    struct fx_feed fd = {&c->f, board};
    int rc = tb_sensor_gen_moves(&gen, pos, &mv, 1, fx_feed_event, &fd, &err);
    if (rc == TB_ERR_ILLEGAL)
        fail(c, err.msg);
    if (rc < 0)
        fail(c, "a board event of the move was refused");
    c->f.t = gen.t;
    phys_move(&c->phys[board], pos, mv);
    if (wait_ms)
        fx_wait(&c->f, wait_ms);
}

static void gen_move(struct corpus *c, int board, const tb_chess_pos *pos, tb_chess_move mv)
{
    gen_move_then(c, board, pos, mv, 300);
}

/* The position with the other side to move (no e.p.), false if the Laws allow none. */
static bool flipped(const tb_chess_pos *pos, tb_chess_pos *out)
{
    char fen[128], place[96], castle[8], ep[4], side;
    int half, full;
    struct tb_error err;
    tb_chess_pos_to_fen(pos, fen, sizeof fen);
    if (sscanf(fen, "%95s %c %7s %3s %d %d", place, &side, castle, ep, &half, &full) != 6)
        return false;
    snprintf(fen, sizeof fen, "%s %c %s - %d %d", place, side == 'w' ? 'b' : 'w', castle, half,
             full);
    return tb_chess_pos_from_fen(out, fen, pos->chess960 ? TB_CHESS_FEN_960 : 0, &err) == 0;
}

static uint64_t squares_of(const tb_chess_pos *pos, tb_chess_move mv)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    uint64_t set = TB_CHESS_BIT(ms.from) | TB_CHESS_BIT(ms.to);
    if (ms.capture_sq < 64)
        set |= TB_CHESS_BIT(ms.capture_sq);
    if (ms.rook_from < 64)
        set |= TB_CHESS_BIT(ms.rook_from) | TB_CHESS_BIT(ms.rook_to);
    return set;
}

/* Can the copier make reply before copying mv (made in pos)? The board must be able to show
 * the reply without mv (no square in common) and the reply must be a move there (the copier's
 * side to move in the same position, mv still to come). out: the position shown then. */
static bool reply_first_possible(const tb_chess_pos *pos, tb_chess_move mv, tb_chess_move reply,
                                 tb_chess_pos *out)
{
    tb_chess_pos after = *pos;
    tb_chess_undo undo;
    tb_chess_make(&after, mv, &undo);
    if (squares_of(pos, mv) & squares_of(&after, reply))
        return false;
    if (!flipped(pos, out) || !tb_chess_is_legal(out, reply))
        return false;
    tb_chess_make(out, reply, &undo);
    return tb_chess_is_legal(out, mv);
}

/* A piece of colour knocked onto an empty neighbouring square where no legal move of either
 * side puts it (else it would be a move, not a slip). */
static bool knock(struct corpus *c, int board, const tb_chess_pos *pos, int color)
{
    static const int step[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                   {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    tb_chess_movelist own, other;
    tb_chess_pos flip;
    int from[512], to[512], n = 0;
    tb_chess_gen_legal(pos, &own);
    other.count = 0;
    if (flipped(pos, &flip))
        tb_chess_gen_legal(&flip, &other);
    uint64_t occ = tb_chess_occupancy(pos);
    for (uint64_t s = pos->by_color[color]; s; s &= s - 1) {
        int sq = __builtin_ctzll(s);
        for (int d = 0; d < 8; d++) {
            int f = sq % 8 + step[d][0], r = sq / 8 + step[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7 || (occ & TB_CHESS_BIT(r * 8 + f)))
                continue;
            bool legal = false;
            for (int i = 0; i < own.count; i++)
                legal = legal || (tb_chess_move_from(own.moves[i]) == sq &&
                                  tb_chess_move_to(own.moves[i]) == r * 8 + f);
            for (int i = 0; i < other.count; i++)
                legal = legal || (tb_chess_move_from(other.moves[i]) == sq &&
                                  tb_chess_move_to(other.moves[i]) == r * 8 + f);
            if (!legal && n < 512) {
                from[n] = sq;
                to[n++] = r * 8 + f;
            }
        }
    }
    if (n == 0)
        return false;
    int k = (int)(next(c) % (uint64_t)n);
    char a[3], b[3];
    fx_lift(&c->f, board, tb_chess_square_name(from[k], a));
    fx_place(&c->f, board, tb_chess_square_name(to[k], b));
    c->phys[board].sq[to[k]] = c->phys[board].sq[from[k]];
    c->phys[board].sq[from[k]] = 0;
    /* on the copier's board a slip that could be part of a reply is judged after incomplete_ms
     * (3 s) of stillness: the player hears of it then */
    fx_wait(&c->f, 3500);
    c->st->slips++;
    return true;
}

static const struct tb_match_announce *last_put_right(const struct fixture *f, int board)
{
    const struct tb_match_announce *a = NULL;
    for (int i = f->mark; i < f->nout; i++) {
        const struct tb_match_out *o = &f->outs[i];
        if (o->kind == TB_MATCH_OUT_ANNOUNCE && o->u.announce.board == board &&
            !o->u.announce.is_move && o->u.announce.msg == TB_MATCH_MSG_PUT_RIGHT)
            a = &o->u.announce;
    }
    return a;
}

/* The board, put right as told, shows its scoresheet's position (D.2.9), or, on the board that
 * copies a move not yet counted there, the position before that copy; never a position that
 * undoes a move its scoresheet and the other's both have. Pieces are compared by kind and
 * colour, not only by occupancy. */
static bool allowed_result(const struct corpus *c, int board)
{
    tb_chess_move sheet[TB_CHESS_GAME_MAX_PLIES];
    tb_chess_pos pos = tb_match_game(c->f.m)->start;
    tb_chess_undo undo;
    int n = tb_match_history(c->f.m, board, sheet, TB_CHESS_GAME_MAX_PLIES);
    for (int i = 0; i <= n + 1 && i <= c->plies; i++) {
        if (i >= n && phys_shows(&c->phys[board], &pos))
            return true; /* its scoresheet's position, or the game's next move made there */
        if (i < c->plies)
            tb_chess_make(&pos, c->game[i], &undo);
    }
    return false;
}

/* The slipping player does exactly what they are told, lifts first, until play goes on. The
 * other player is never told to change anything. */
static void follow(struct corpus *c, int board)
{
    struct tb_match_status st;
    char a[3];
    for (int round = 0; round < 4; round++) {
        tb_match_status(c->f.m, &st);
        if (st.state != TB_MATCH_BLOCKED && st.state != TB_MATCH_RESTORING)
            return;
        const struct tb_match_mismatch *mm = tb_match_open_mismatch(c->f.m);
        if (mm && mm->needs_arbiter) {
            c->st->arbiter++;
            if (tb_match_resolve(c->f.m, mm->id, c->f.t, NULL) < 0)
                fail(c, "resolve refused");
            fx_drain(&c->f);
        }
        if (last_put_right(&c->f, 1 - board))
            fail(c, "the player who did not slip was told to change their board");
        const struct tb_match_announce *told = last_put_right(&c->f, board);
        if (!told)
            fail(c, "the slipping player was not told how to put the board right");
        struct tb_match_announce said = *told;

        /* D.2.9: the words as heard, followed literally: every piece named is the piece there,
         * and the board ends where a scoresheet allows, never with a move both have undone */
        const char *wrong = put_right_follow(&said, &c->phys[board], &c->st->put_right);
        if (wrong)
            fail(c, wrong);
        if (!allowed_result(c, board))
            fail(c, "the instruction leads to no position the scoresheets give");
        for (int i = 0; i < said.nlift; i++)
            fx_lift(&c->f, board, tb_chess_square_name(said.lift[i].sq, a));
        for (int i = 0; i < said.nplace; i++)
            fx_place(&c->f, board, tb_chess_square_name(said.place[i].sq, a));
        fx_wait(&c->f, 500);
    }
    fail(c, "still stopped after following the instructions");
}

/* No report for lawful handling, nothing held, nobody accused of a touch. */
static void lawful_step(struct corpus *c, int mismatches)
{
    if (fx_count(&c->f, TB_MATCH_OUT_MISMATCH) != mismatches)
        fail(c, mismatches ? "not one mismatch for the slip" : "a mismatch for lawful handling");
    if (fx_count(&c->f, TB_MATCH_OUT_RESOLVED) != mismatches)
        fail(c, "a mismatch not put right");
    if (fx_count(&c->f, TB_MATCH_OUT_HELD) || fx_count(&c->f, TB_MATCH_OUT_TOUCH_REPORT))
        fail(c, "a move held or a touch reported");
    c->st->mismatches += fx_count(&c->f, TB_MATCH_OUT_MISMATCH);
    c->st->resolved += fx_count(&c->f, TB_MATCH_OUT_RESOLVED);
}

/* Board 0 is the VI player's: White, or Black when the script swaps colours. */
static int color_of(const struct corpus *c, int board)
{
    return (board == 0) == !c->swap ? TB_CHESS_WHITE : TB_CHESS_BLACK;
}

static int mover(const struct corpus *c, const tb_chess_pos *pos)
{
    return color_of(c, 0) == pos->side ? 0 : 1;
}

static void expect_plies(struct corpus *c, int n)
{
    const tb_chess_game *g = tb_match_game(c->f.m);
    if (g->plies != n)
        fail(c, "the agreed game is not as long as the moves made");
    for (int i = 0; i < n; i++)
        if (g->moves[i] != c->game[i])
            fail(c, "the agreed game differs from the moves made");
}

/* One board event dt ms after the last (fx_lift / fx_place wait 300 ms). */
static void event_in(struct corpus *c, int board, bool lift, int sq, uint64_t dt)
{
    struct tb_match_event e = {.kind = lift ? TB_MATCH_EV_LIFT : TB_MATCH_EV_PLACE};
    e.square = (uint8_t)sq;
    c->f.t += dt;
    if (tb_match_board_event(c->f.m, board, &e, c->f.t) < 0)
        fail(c, "board event refused");
    fx_drain(&c->f);
}

/* The squares legal moves of either side reach in pos. */
static uint64_t reached(const tb_chess_pos *pos)
{
    tb_chess_movelist own, other;
    tb_chess_pos flip = *pos; /* as the recogniser looks for the other side's moves */
    uint64_t set = 0;
    tb_chess_gen_legal(pos, &own);
    flip.side ^= 1;
    flip.ep = TB_CHESS_NOSQ;
    tb_chess_gen_legal(&flip, &other);
    for (int i = 0; i < own.count; i++)
        set |= TB_CHESS_BIT(tb_chess_move_to(own.moves[i]));
    for (int i = 0; i < other.count; i++)
        set |= TB_CHESS_BIT(tb_chess_move_to(other.moves[i]));
    return set;
}

/* An empty square, before and after the move, that no legal move of either side reaches in
 * either position and no pawn promotes on: a piece there can only be a stray. -1 if none. */
static int hole_for_stray(struct corpus *c, const tb_chess_pos *before, const tb_chess_pos *pos)
{
    uint64_t free = ~tb_chess_occupancy(pos) & ~tb_chess_occupancy(before);
    free &= ~reached(pos) & ~reached(before);
    free &= 0x00ffffffffffff00ULL; /* not a back rank: a pawn may promote there */
    int n = __builtin_popcountll(free);
    if (!n)
        return -1;
    for (int k = (int)(next(c) % (uint64_t)n); k > 0; k--)
        free &= free - 1;
    return __builtin_ctzll(free);
}

/* The copier copies mv (made in pos) by hand and drops a piece taken in the game into a hole
 * on the way: the victim lifted first and dropped before the copy lands, or any taken piece
 * put down after the copy. False when the script has no piece to drop. */
static bool copy_with_stray(struct corpus *c, int board, const tb_chess_pos *pos, tb_chess_move mv,
                            const tb_chess_pos *after)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    int x = hole_for_stray(c, pos, after);
    bool during = ms.captured && !ms.promo && next(c) % 2;
    /* a castling copy takes nothing: a piece taken earlier in the game (which, the board
     * cannot tell: it is "the piece") */
    bool castle = tb_chess_move_is_castle(mv);
    uint8_t piece = ms.captured ? ms.captured : castle && c->ntaken ? c->taken[c->ntaken - 1] : 0;
    if (x < 0 || !piece || ms.promo || (pos->board[x] != 0))
        return false;
    uint64_t pause = 50 + next(c) % 300;
    if (during) { /* the victim first, into the hole; then the copy itself */
        event_in(c, board, true, ms.capture_sq, 300);
        event_in(c, board, false, x, pause);
        event_in(c, board, true, ms.from, pause);
        event_in(c, board, false, ms.to, pause);
        phys_move(&c->phys[board], pos, mv);
    } else { /* the copy as players make it, the piece put down at once after it */
        gen_move_then(c, board, pos, mv, 0);
        event_in(c, board, false, x, 20 + next(c) % 70);
    }
    c->phys[board].sq[x] = piece;
    fx_wait(&c->f, 300);
    c->st->slips++;
    return true;
}

/* The player not to move takes a piece of theirs to a square it could go to were it their
 * turn (a non-capture, no castling): no move (1.2), displaced (7.4). */
static bool knock_to_a_move_square(struct corpus *c, int board, const tb_chess_pos *pos)
{
    tb_chess_pos flip;
    tb_chess_movelist list;
    if (!flipped(pos, &flip) || tb_chess_gen_legal(&flip, &list) == 0)
        return false;
    int start = (int)(next(c) % (uint64_t)list.count);
    for (int k = 0; k < list.count; k++) {
        tb_chess_move mv = list.moves[(start + k) % list.count];
        struct tb_chess_move_squares ms;
        tb_chess_move_squares(&flip, mv, &ms);
        if (tb_chess_move_kind(mv) != TB_CHESS_MK_NORMAL || ms.captured || ms.promo)
            continue;
        event_in(c, board, true, ms.from, 300);
        event_in(c, board, false, ms.to, 100 + next(c) % 300);
        c->phys[board].sq[ms.to] = c->phys[board].sq[ms.from];
        c->phys[board].sq[ms.from] = 0;
        fx_wait(&c->f, 500);
        c->st->slips++;
        return true;
    }
    return false;
}

/* The open mismatch of this step is of kind k (the first one since the mark). */
static void expect_kind(struct corpus *c, enum tb_match_mismatch_kind k)
{
    const struct tb_match_out *o = fx_find(&c->f, TB_MATCH_OUT_MISMATCH);
    if (!o || o->u.mismatch.kind != k)
        fail(c, "the slip is reported as another kind");
}

/* One ply (or two) at game position pos, index i. Returns the plies done. */
static int step(struct corpus *c, const tb_chess_pos *pos, int i, bool special)
{
    int mv_board = mover(c, pos), copier = 1 - mv_board;
    tb_chess_move mv = c->game[i];
    tb_chess_pos after = *pos, shown;
    tb_chess_undo undo;
    tb_chess_make(&after, mv, &undo);
    bool has_reply = i + 1 < c->plies;
    fx_mark(&c->f);

    if (special && c->cls == CORPUS_OWN_FIRST && has_reply &&
        reply_first_possible(pos, mv, c->game[i + 1], &shown)) {
        tb_chess_pos flip;
        flipped(pos, &flip);
        gen_move(c, mv_board, pos, mv);
        gen_move(c, copier, &flip, c->game[i + 1]); /* the reply before the copy */
        gen_move(c, copier, &shown, mv);
        gen_move(c, mv_board, &after, c->game[i + 1]);
        c->st->own_first++;
        lawful_step(c, 0);
        return 2;
    }
    if (special && c->cls == CORPUS_SLIP_OTHER && knock(c, copier, pos, color_of(c, copier))) {
        gen_move(c, mv_board, pos, mv); /* made while play is stopped: it stands */
        follow(c, copier);
        gen_move(c, copier, pos, mv);
        lawful_step(c, 1);
        return 1;
    }
    if (special && c->cls == CORPUS_SLIP_AHEAD && has_reply) {
        gen_move(c, mv_board, pos, mv);
        if (knock(c, mv_board, &after, color_of(c, mv_board))) {
            gen_move(c, copier, pos, mv);
            gen_move(c, copier, &after, c->game[i + 1]);
            follow(c, mv_board);
            gen_move(c, mv_board, &after, c->game[i + 1]);
            lawful_step(c, 1);
            return 2;
        }
        gen_move(c, copier, pos, mv);
        lawful_step(c, 0);
        return 1;
    }
    if (special && c->cls == CORPUS_SLIP_COPY) {
        gen_move(c, mv_board, pos, mv);
        if (knock(c, copier, pos, color_of(c, copier))) {
            follow(c, copier);
            if (tb_match_game(c->f.m)->plies == i) /* put back to before the copy */
                gen_move(c, copier, pos, mv);
            lawful_step(c, 1);
            return 1;
        }
        gen_move(c, copier, pos, mv);
        lawful_step(c, 0);
        return 1;
    }
    if (special && c->cls == CORPUS_STRAY_COPY) {
        gen_move(c, mv_board, pos, mv);
        if (copy_with_stray(c, copier, pos, mv, &after)) {
            if (has_reply) /* the reply, made with the stray still lying there, stands */
                gen_move(c, copier, &after, c->game[i + 1]);
            expect_kind(c, TB_MATCH_MM_DISPLACED);
            follow(c, copier);
            if (has_reply)
                gen_move(c, mv_board, &after, c->game[i + 1]);
            lawful_step(c, 1);
            return has_reply ? 2 : 1;
        }
        gen_move(c, copier, pos, mv);
        lawful_step(c, 0);
        return 1;
    }
    if (special && c->cls == CORPUS_STRAY_MOVE) {
        struct tb_chess_move_squares ms;
        tb_chess_move_squares(pos, mv, &ms);
        int x = hole_for_stray(c, pos, &after);
        if (ms.captured && !ms.promo && x >= 0) {
            gen_move_then(c, mv_board, pos, mv, 0);
            uint64_t made = c->f.t; /* the capture's last event */
            event_in(c, mv_board, false, x, 20 + next(c) % 70);
            c->phys[mv_board].sq[x] = ms.captured;
            fx_wait(&c->f, 300);
            /* D.2.1, 4.7: announced one blip window after it was made, stray or not */
            const struct tb_match_announce *a = fx_announce(&c->f, copier, true, 0);
            const struct tb_match_out *o = fx_find(&c->f, TB_MATCH_OUT_ANNOUNCE);
            if (!a || a->move != mv || !o || o->ms > made + c->blip_ms)
                fail(c, "the capture was not announced when it was made");
            c->st->slips++;
            expect_kind(c, TB_MATCH_MM_DISPLACED);
            follow(c, mv_board);
            gen_move(c, copier, pos, mv);
            lawful_step(c, 1);
            return 1;
        }
    }
    if (special && c->cls == CORPUS_KNOCK_TURN && knock_to_a_move_square(c, copier, pos)) {
        expect_kind(c, TB_MATCH_MM_DISPLACED);
        gen_move(c, mv_board, pos, mv); /* made while play is stopped: it stands */
        follow(c, copier);
        gen_move(c, copier, pos, mv);
        lawful_step(c, 1);
        return 1;
    }
    gen_move(c, mv_board, pos, mv);
    gen_move(c, copier, pos, mv);
    lawful_step(c, 0);
    return 1;
}

void corpus_run(enum corpus_class cls, uint64_t seed, int max_plies, struct corpus_stats *st)
{
    struct corpus c;
    memset(&c, 0, sizeof c);
    c.cls = cls;
    c.seed = seed;
    c.rng = seed * 0x2545F4914F6CDD1DULL + (uint64_t)cls;
    c.st = st;
    c.blips = next(&c) & 1;
    c.swap = next(&c) & 1;
    if (max_plies > MAX_PLIES)
        max_plies = MAX_PLIES;

    /* the game: random legal moves */
    tb_chess_pos pos, start;
    tb_chess_pos_startpos(&start);
    pos = start;
    while (c.plies < max_plies) {
        tb_chess_movelist list;
        if (tb_chess_gen_legal(&pos, &list) == 0)
            break;
        tb_chess_undo undo;
        c.game[c.plies] = list.moves[next(&c) % (uint64_t)list.count];
        tb_chess_make(&pos, c.game[c.plies++], &undo);
    }

    fx_init(&c.f, NULL, c.swap);
    struct tb_match_config mcfg;
    tb_match_config_default(&mcfg);
    c.blip_ms = mcfg.sensor.blip_ms;
    phys_from_pos(&c.phys[0], &start);
    phys_from_pos(&c.phys[1], &start);
    pos = start;
    for (int i = 0; i < c.plies;) {
        bool special = cls != CORPUS_PLAIN && next(&c) % 3 == 0;
        int done = step(&c, &pos, i, special);
        for (int k = 0; k < done; k++) {
            tb_chess_undo undo;
            tb_chess_make(&pos, c.game[i + k], &undo);
            if (undo.captured && c.ntaken < 32)
                c.taken[c.ntaken++] = undo.captured;
        }
        i += done;
        expect_plies(&c, i);
        /* both boards show the game, piece by piece (D.2.9) */
        if (!phys_shows(&c.phys[0], &pos) || !phys_shows(&c.phys[1], &pos))
            fail(&c, "a board does not show the game's pieces after the step");
        struct tb_match_status ms;
        tb_match_status(c.f.m, &ms);
        if (ms.state != TB_MATCH_IN_SYNC)
            fail(&c, "not in sync after the move was copied");
    }
    st->scripts++;
    st->plies += c.plies;
    fx_free(&c.f);
}
