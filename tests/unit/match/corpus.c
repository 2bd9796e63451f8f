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
    static const char *const names[] = {"plain", "own-first", "slip-other", "slip-ahead",
                                        "slip-copy"};
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

/* The events of one move on a board, from the position it shows. */
static void gen_move(struct corpus *c, int board, const tb_chess_pos *pos, tb_chess_move mv)
{
    struct tb_sensor_gen_config cfg;
    struct tb_sensor_gen gen;
    struct tb_error err;
    tb_sensor_gen_config_default(&cfg);
    cfg.board = board ? "sighted" : "vi";
    cfg.blips = c->blips;
    if (tb_sensor_gen_init(&gen, &cfg, next(c)) < 0)
        fail(c, "generator");
    gen.t = c->f.t;
    struct fx_feed fd = {&c->f, board};
    if (tb_sensor_gen_moves(&gen, pos, &mv, 1, fx_feed_event, &fd, &err) < 0)
        fail(c, err.msg);
    c->f.t = gen.t;
    fx_wait(&c->f, 300);
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
    pos = start;
    for (int i = 0; i < c.plies;) {
        bool special = cls != CORPUS_PLAIN && next(&c) % 3 == 0;
        int done = step(&c, &pos, i, special);
        for (int k = 0; k < done; k++) {
            tb_chess_undo undo;
            tb_chess_make(&pos, c.game[i + k], &undo);
        }
        i += done;
        expect_plies(&c, i);
        struct tb_match_status ms;
        tb_match_status(c.f.m, &ms);
        if (ms.state != TB_MATCH_IN_SYNC)
            fail(&c, "not in sync after the move was copied");
    }
    st->scripts++;
    st->plies += c.plies;
    fx_free(&c.f);
}
