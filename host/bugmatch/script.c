/* script.c - event scripts of two boards from a record of two games: what the boards would
 * report if people played the record's moves on them, with the clock pressed when the record
 * says. */
#include <stdio.h>
#include <string.h>

#include "bugmatch_internal.h"

/* One board's events in the order made; times absolute (ms since the clocks started). */
struct board_events {
    struct tb_script_list list;
    uint64_t last; /* the time of the board's last event */
};

struct gen {
    const struct tb_bugmatch_gen_config *cfg;
    struct tb_sensor_gen sg;
    struct board_events board[TB_BUGMATCH_BOARDS];
    struct tb_script_list move; /* the move being written, times from 0 */
    uint64_t rng;
    uint8_t shape[TB_BUGMATCH_BOARDS][64]; /* DGT boards: the piece codes they show */
};

static uint64_t next_rand(struct gen *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t range(struct gen *g, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(next_rand(g) % (uint64_t)(hi - lo + 1));
}

static int collect(void *user, const struct tb_script_event *ev)
{
    struct gen *g = user;
    return ev->kind == TB_SCRIPT_EXPECT ? TB_OK : tb_script_list_push(&g->move, ev);
}

static int add(struct gen *g, enum tb_script_kind kind, int sq, char piece, uint64_t t)
{
    struct tb_script_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.ms = t;
    ev.us = t * 1000;
    ev.square = (uint8_t)sq;
    ev.piece = piece;
    return tb_script_list_push(&g->move, &ev);
}

/* A drop (2.2): the piece from beside the board onto its square, its kind chosen before or
 * after when the hand holds more than one kind (never on a board that names its pieces); with
 * noise a fly-over blip elsewhere and the piece set down and lifted again at once, and on a
 * board that names its pieces sometimes the piece of the other colour put down first and
 * taken away (a wrong piece: no move). */
static int write_drop(struct gen *g, const tb_bug_pos *pos, tb_bug_move m, bool noise, bool named)
{
    int sq = tb_chess_move_to(m), type = tb_bug_move_drop_type(m), kinds = 0, rc = 0;
    char letter = "?pnbrq"[type];
    for (int t = TB_CHESS_PAWN; t <= TB_CHESS_QUEEN; t++)
        kinds += pos->pool[pos->chess.side][t] != 0;
    int choice = kinds > 1 ? (int)range(g, 1, 2) : (int)range(g, 0, 2); /* 0 none, 1 before */
    choice = named ? 0 : choice;
    uint64_t t = 0, empty = ~tb_chess_occupancy(&pos->chess) & ~TB_CHESS_BIT(sq);
    if (noise && empty && range(g, 0, 2) == 0) { /* a blip on another empty square */
        int pick = (int)range(g, 0, (uint32_t)__builtin_popcountll(empty) - 1);
        for (; pick > 0; pick--)
            empty &= empty - 1;
        int x = __builtin_ctzll(empty);
        rc |= add(g, TB_SCRIPT_PLACE, x, 0, t);
        t += range(g, 5, g->cfg->blip_ms * 7 / 10);
        rc |= add(g, TB_SCRIPT_LIFT, x, 0, t);
        t += range(g, 100, 300);
    }
    if (choice == 1) {
        rc |= add(g, TB_SCRIPT_CHOOSE, 0, letter, t);
        t += range(g, 100, 300);
    }
    if (noise && range(g, 0, 3) == 0) { /* set down and lifted again within the blip window */
        rc |= add(g, TB_SCRIPT_PLACE, sq, 0, t);
        t += range(g, 5, g->cfg->blip_ms * 6 / 10);
        rc |= add(g, TB_SCRIPT_LIFT, sq, 0, t);
        t += range(g, 100, 300);
    }
    if (named && noise && range(g, 0, 4) == 0) { /* first the piece of the other colour */
        int wrong = TB_CHESS_PIECE(pos->chess.side ^ 1, type);
        rc |= add(g, TB_SCRIPT_PLACE, sq, tb_chess_piece_to_fen(wrong), t);
        t += range(g, g->cfg->blip_ms + 50, 600);
        rc |= add(g, TB_SCRIPT_LIFT, sq, 0, t);
        t += range(g, 100, 300);
    }
    rc |= add(g, TB_SCRIPT_PLACE, sq, 0, t);
    if (choice == 2)
        rc |= add(g, TB_SCRIPT_CHOOSE, 0, letter, t + g->cfg->blip_ms + range(g, 20, 400));
    return rc;
}

/* The piece codes a board shows for pos: a promoted pawn as a pawn (3.1). */
static void shapes_of(const tb_bug_pos *pos, uint8_t shape[64])
{
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->chess.board[sq];
        bool pawn = p && (pos->promoted & TB_CHESS_BIT(sq));
        shape[sq] = (uint8_t)(pawn ? TB_CHESS_PIECE(TB_CHESS_PIECE_COLOR(p), TB_CHESS_PAWN) : p);
    }
}

static int take(uint8_t *air, int *nair, int piece)
{
    for (int i = *nair - 1; piece && i >= 0; i--)
        if (air[i] == piece) {
            memmove(air + i, air + i + 1, (size_t)(*nair - i - 1));
            (*nair)--;
            return piece;
        }
    return 0;
}

/* A board that names its pieces: each placement of the move written gets the piece a hand
 * puts there: the one the move leaves there if held, else the one just lifted from that
 * square (put back), else the last one lifted (a knocked piece, a fly-over), else the drop's
 * piece from beside the board. A placement already named is a wrong piece from beside the
 * board, put aside again when lifted. */
static void name_pieces(struct gen *g, int b, const tb_bug_pos *pos, tb_bug_move m)
{
    uint8_t *shape = g->shape[b], after[64], home[64] = {0}, air[64];
    uint64_t aside = 0;
    int nair = 0, side = pos->chess.side;
    tb_bug_pos next = *pos;
    tb_bug_undo undo;
    tb_bug_make(&next, m, &undo);
    shapes_of(&next, after);
    int dropped = tb_bug_move_is_drop(m) ? TB_CHESS_PIECE(side, tb_bug_move_drop_type(m)) : 0;
    for (size_t i = 0; i < g->move.n; i++) {
        struct tb_script_event *ev = &g->move.ev[i];
        int sq = ev->square;
        if (ev->kind == TB_SCRIPT_LIFT && (aside & TB_CHESS_BIT(sq))) {
            aside &= ~TB_CHESS_BIT(sq);
            shape[sq] = 0;
        } else if (ev->kind == TB_SCRIPT_LIFT && shape[sq] && nair < 64) {
            air[nair++] = home[sq] = shape[sq];
            shape[sq] = 0;
        } else if (ev->kind == TB_SCRIPT_PLACE && ev->piece) {
            aside |= TB_CHESS_BIT(sq);
            shape[sq] = (uint8_t)tb_chess_piece_from_fen(ev->piece);
        } else if (ev->kind == TB_SCRIPT_PLACE) {
            int p = take(air, &nair, after[sq]);
            p = p ? p : take(air, &nair, home[sq]);
            p = p ? p : nair ? air[--nair] : dropped;
            shape[sq] = (uint8_t)p;
            ev->piece = tb_chess_piece_to_fen(p);
        }
    }
    memcpy(shape, after, sizeof after);
}

/* When the last event of the move makes the recogniser decide, counted from the move's start:
 * a placement or lift counts at the end of its window, a choice at once. */
static uint64_t decision(const struct gen *g)
{
    const struct tb_script_event *last = &g->move.ev[g->move.n - 1];
    return last->ms + (last->kind == TB_SCRIPT_CHOOSE ? 0 : g->cfg->blip_ms);
}

/* Writes the events of ply m on board b so that it is decided at `at` (exactly when end_game,
 * else by `at`), none before `from`. */
static int write_ply(struct gen *g, int b, const tb_bug_pos *pos, tb_bug_move m, uint64_t from,
                     uint64_t at, bool end_game, struct tb_error *err)
{
    /* handling drawn again, with less noise, until it fits (a late choice can take 2 s) */
    for (int attempt = 0; attempt < 8; attempt++) {
        bool noise = g->cfg->noise && !end_game && attempt < 4;
        g->move.n = 0;
        g->sg.t = 0;
        g->sg.cfg.blips = g->sg.cfg.hesitations = g->sg.cfg.wobbles = noise;
        g->sg.cfg.late_choices = noise;
        g->sg.cfg.fault = noise ? TB_SENSOR_GEN_KNOCKED_PIECE : TB_SENSOR_GEN_NO_FAULT;
        int rc = tb_bug_move_is_drop(m)
                     ? write_drop(g, pos, m, noise, g->cfg->dgt[b])
                     : tb_sensor_gen_move(&g->sg, &pos->chess, m, collect, g, err);
        if (rc)
            return rc;
        uint64_t d = decision(g), margin = end_game ? 0 : attempt < 6 ? range(g, 150, 400) : 120;
        /* a drop's piece reaches the hand at most 1.5 s before the move (pass_ms) */
        uint64_t earliest = tb_bug_move_is_drop(m) && at > 1400 ? at - 1400 : from;
        earliest = earliest > from ? earliest : from;
        if (at < d + margin || at - d - margin < earliest)
            continue;
        uint64_t start = at - d - margin;
        struct board_events *be = &g->board[b];
        if (g->cfg->dgt[b])
            name_pieces(g, b, pos, m);
        for (size_t i = 0; i < g->move.n; i++) {
            struct tb_script_event ev = g->move.ev[i];
            ev.ms += start;
            ev.us = ev.ms * 1000;
            snprintf(ev.board, sizeof ev.board, "%c", 'A' + b);
            if (tb_script_list_push(&be->list, &ev))
                return TB_ERR_MEM;
            be->last = ev.ms > be->last ? ev.ms : be->last;
        }
        return TB_OK;
    }
    return tb_error_set(err, TB_ERR_STATE, "board %c: no room to handle the move before %llu ms",
                        'A' + b, (unsigned long long)at);
}

static int push_button(struct gen *g, int b, const char *button, uint64_t t)
{
    struct tb_script_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TB_SCRIPT_PRESS;
    ev.ms = t;
    ev.us = t * 1000;
    snprintf(ev.board, sizeof ev.board, "%c", 'A' + b);
    snprintf(ev.button, sizeof ev.button, "%s", button);
    g->board[b].last = t > g->board[b].last ? t : g->board[b].last;
    return tb_script_list_push(&g->board[b].list, &ev);
}

/* Both boards' events in time order; at the same millisecond board A's first. */
static int merge(struct gen *g, tb_script_event_fn fn, void *user)
{
    size_t i = 0, j = 0;
    const struct tb_script_list *a = &g->board[0].list, *bl = &g->board[1].list;
    long line = 0;
    while (i < a->n || j < bl->n) {
        bool take_a = j == bl->n || (i < a->n && a->ev[i].ms <= bl->ev[j].ms);
        int rc = fn(user, take_a ? &a->ev[i++] : &bl->ev[j++], ++line);
        if (rc)
            return rc;
    }
    return TB_OK;
}

static bool ends_on_its_move(const tb_bug_record *rec, int b, int64_t at)
{
    enum tb_bug_reason r = rec->verdict[b].reason;
    return rec->end_ms[b] == at &&
           (r == TB_BUG_CHECKMATE || r == TB_BUG_STALEMATE || r == TB_BUG_DEAD);
}

int tb_bugmatch_gen_script(const tb_bug_record *rec, const struct tb_bugmatch_gen_config *cfg,
                           uint64_t seed, tb_script_event_fn fn, void *user, struct tb_error *err)
{
    struct tb_bugmatch_gen_config def = {.blip_ms = 100, .noise = true};
    struct tb_sensor_gen_config sc;
    struct gen g;
    if (!rec || !fn)
        return tb_error_set(err, TB_ERR_ARG, "no record or no receiver");
    memset(&g, 0, sizeof g);
    g.cfg = cfg ? cfg : &def;
    g.rng = seed;
    tb_sensor_gen_config_default(&sc);
    sc.blip_ms = g.cfg->blip_ms ? g.cfg->blip_ms : 100;
    sc.fault_rate = 0.05;
    sc.pawn_stays = true; /* 3.1 */
    int rc = tb_sensor_gen_init(&g.sg, &sc, seed);
    if (rc)
        return tb_error_set(err, rc, "bad blip window");

    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    shapes_of(&pos[0], g.shape[0]);
    shapes_of(&pos[1], g.shape[1]);
    int64_t used[2][2] = {{0, 0}, {0, 0}}; /* [board][colour] time used, ms */
    rc = push_button(&g, 0, "clock", 0);   /* 6.4: the clocks start together */
    for (int k = 0; k < rec->nplies && !rc; k++) {
        const struct tb_bug_ply *p = &rec->plies[k];
        int b = p->board, side = pos[b].chess.side;
        if (!tb_bug_is_legal(&pos[b], p->move)) {
            rc = tb_error_set(err, TB_ERR_ILLEGAL, "ply %d: not legal on board %c", k + 1, 'A' + b);
            break;
        }
        /* no increments: a board's time so far is both its players' time used (6.3) */
        used[b][side] = rec->base_ms - p->clock_ms;
        uint64_t at = (uint64_t)(used[b][0] + used[b][1]);
        bool last_on_board = true;
        for (int j = k + 1; j < rec->nplies && last_on_board; j++)
            last_on_board = rec->plies[j].board != b;
        bool end_game = last_on_board && ends_on_its_move(rec, b, (int64_t)at);
        rc = write_ply(&g, b, &pos[b], p->move, g.board[b].last + 50, at, end_game, err);
        if (!rc && !end_game)
            rc = push_button(&g, b, "clock", at);
        tb_bug_undo undo;
        tb_bug_make(&pos[b], p->move, &undo);
        if (undo.passed) /* 2.1 */
            (void)tb_bug_pool_add(&pos[b ^ 1], undo.passed);
    }
    for (int b = 0; b < 2 && !rc; b++)
        if (rec->verdict[b].reason == TB_BUG_RESIGNED && rec->end_ms[b] >= 0)
            rc = push_button(&g, b, "resign", (uint64_t)rec->end_ms[b]);
    if (!rc)
        rc = merge(&g, fn, user);
    tb_script_list_free(&g.move);
    tb_script_list_free(&g.board[0].list);
    tb_script_list_free(&g.board[1].list);
    return rc;
}
