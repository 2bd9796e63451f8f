/* match.c - the match's life cycle, its inputs, the order in which time is taken across the
 * two boards, and its output queue. */
#include <stdlib.h>
#include <string.h>

#include "bugmatch_internal.h"

#define NEVER UINT64_MAX

void tb_bugmatch_config_default(struct tb_bugmatch_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    tb_sensor_config_default(&cfg->sensor);
    (void)tb_clock_control_parse(&cfg->control, "7m", NULL); /* 6.3 */
}

/* Board b's recogniser; a DGT board's reads pieces too (dgt.c). */
static int board_new(tb_bugmatch *m, int b, struct tb_error *err)
{
    struct tb_bugmatch_config *cfg = &m->cfg;
    struct tb_sensor_config sc = cfg->sensor;
    if (cfg->kind[b] != TB_BUGMATCH_REED && cfg->kind[b] != TB_BUGMATCH_DGT)
        return tb_error_set(err, TB_ERR_ARG, "board %c: no such kind of board", 'A' + b);
    sc.piece_must_fit = cfg->kind[b] == TB_BUGMATCH_DGT;
    int rc = tb_sensor_new(&sc, &m->game[b].sensor);
    if (rc)
        return tb_error_set(err, rc, "board %c: bad recogniser configuration", 'A' + b);
    tb_sensor_set_drops(m->game[b].sensor, &tb_bugmatch_drops);
    if (cfg->kind[b] == TB_BUGMATCH_DGT && tb_bugmatch__dgt_new(m, b))
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    return TB_OK;
}

int tb_bugmatch_new(const struct tb_bugmatch_config *cfg, tb_bugmatch **out, struct tb_error *err)
{
    struct tb_bugmatch_config def;
    if (!out)
        return tb_error_set(err, TB_ERR_ARG, "no place for the match");
    *out = NULL;
    if (!cfg) {
        tb_bugmatch_config_default(&def);
        cfg = &def;
    }
    tb_bugmatch *m = calloc(1, sizeof *m);
    if (!m || !(m->rec = malloc(sizeof *m->rec))) {
        free(m);
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    }
    m->cfg = *cfg;
    tb_bug_record_init(m->rec);
    int rc = TB_OK;
    for (int b = 0; b < TB_BUGMATCH_BOARDS && !rc; b++) {
        rc = tb_clock_init(&m->game[b].clock, &cfg->control, err);
        if (!rc && cfg->typed[b] && cfg->kind[b] == TB_BUGMATCH_DGT)
            rc = tb_error_set(err, TB_ERR_ARG, "board %c: typed and DGT at once", 'A' + b);
        if (rc || cfg->typed[b] || cfg->kind[b] == TB_BUGMATCH_TYPED)
            continue;
        rc = board_new(m, b, err);
    }
    if (rc) {
        tb_bugmatch_free(m);
        return rc;
    }
    m->rec->base_ms = (int32_t)cfg->control.periods[0].time_ms;
    *out = m;
    return TB_OK;
}

void tb_bugmatch_free(tb_bugmatch *m)
{
    if (!m)
        return;
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
        tb_sensor_free(m->game[b].sensor);
        free(m->game[b].dgt);
    }
    free(m->rec);
    free(m);
}

int tb_bugmatch_set_start(tb_bugmatch *m, const tb_bug_pos start[2])
{
    if (m->started || m->rec->nplies || m->game[0].pending || m->game[1].pending)
        return TB_ERR_STATE;
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
        m->rec->start[b] = m->rec->cur[b] = start[b];
        tb_sensor *s = m->game[b].sensor;
        if (!s)
            continue;
        tb_sensor_reset(s, &start[b].chess, m->now);
        for (int c = 0; c < 2; c++)
            (void)tb_sensor_set_hand(s, c, start[b].pool[c], m->now);
        if (m->game[b].dgt)
            tb_bugmatch__dgt_reset(m, b);
    }
    return TB_OK;
}

/* ---- time: every board's decisions and clocks in time order ------------------------------ */

/* Takes what the recognisers have decided. A hand given to one board's recogniser brings it
 * to the match's time, which may decide there too: both boards are taken until neither has
 * anything left. */
static void drain_board(tb_bugmatch *m, int b)
{
    struct tb_sensor_out o;
    while (m->game[b].sensor && tb_sensor_poll(m->game[b].sensor, &o))
        tb_bugmatch__sensor_out(m, b, &o);
    tb_bugmatch__irr_watch(m, b); /* article 7: a board put back */
}

static void drain(tb_bugmatch *m, int first)
{
    struct tb_sensor_out o;
    for (int more = 1; more;) {
        drain_board(m, first);
        drain_board(m, first ^ 1);
        more = 0;
        for (int b = 0; b < TB_BUGMATCH_BOARDS; b++)
            if (m->game[b].sensor && tb_sensor_poll(m->game[b].sensor, &o)) {
                tb_bugmatch__sensor_out(m, b, &o);
                more = 1;
            }
    }
}

/* The next thing due on board b: its clock's flag or warning, or its recogniser's decision;
 * at the same millisecond the clock first (a press at the flag's millisecond is too late). */
static uint64_t board_due(const tb_bugmatch *m, int b, bool *clock)
{
    const struct tb_bugmatch__game *g = &m->game[b];
    if (g->ended)
        return NEVER;
    uint64_t c = tb_clock_next_deadline(&g->clock);
    uint64_t s = g->sensor ? tb_sensor_deadline(g->sensor) : NEVER;
    *clock = c <= s;
    return c <= s ? c : s;
}

static void clock_due(tb_bugmatch *m, int b, uint64_t t)
{
    struct tb_clock_event ev;
    tb_clock *c = &m->game[b].clock;
    tb_clock_update(c, t);
    while (tb_clock_event_pop(c, &ev))
        if (ev.kind == TB_CLOCK_EV_FLAG)
            tb_bugmatch__flag(m, b, ev.at_ms);
}

/* Takes everything due up to t; at t itself only on boards up to last (inputs at the same
 * millisecond are board A's first, then board B's, as the record orders them). */
static void advance(tb_bugmatch *m, uint64_t t, int last)
{
    for (;;) {
        drain(m, last);
        int best = -1;
        bool best_clock = false;
        uint64_t when = NEVER;
        for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
            bool clock;
            uint64_t d = board_due(m, b, &clock);
            if (d > t || (d == t && b > last) || d >= when)
                continue;
            best = b;
            when = d;
            best_clock = clock;
        }
        if (best < 0)
            break;
        if (best_clock) {
            clock_due(m, best, when);
        } else {
            tb_sensor_tick(m->game[best].sensor, when);
            drain(m, best);
        }
    }
    if (t > m->now)
        m->now = t;
}

int tb_bugmatch_tick(tb_bugmatch *m, uint64_t ms)
{
    if (ms < m->now)
        return TB_ERR_STATE;
    advance(m, ms, TB_BUGMATCH_BOARDS - 1);
    return TB_OK;
}

uint64_t tb_bugmatch_deadline(const tb_bugmatch *m)
{
    uint64_t when = NEVER;
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
        bool clock;
        uint64_t d = board_due(m, b, &clock);
        when = d < when ? d : when;
    }
    return when;
}

/* ---- inputs ------------------------------------------------------------------------------ */

/* Checks an input for board b at ms and brings the match to ms. */
static int begin(tb_bugmatch *m, int b, uint64_t ms, bool sensor)
{
    if (b < 0 || b >= TB_BUGMATCH_BOARDS || (sensor && !m->game[b].sensor))
        return TB_ERR_ARG;
    if (ms < m->now)
        return TB_ERR_STATE;
    advance(m, ms, b);
    drain(m, b);
    return TB_OK;
}

/* article 7 (irregular.c) */
int tb_bugmatch__begin(tb_bugmatch *m, int b, uint64_t ms, bool sensor)
{
    return begin(m, b, ms, sensor);
}

int tb_bugmatch_start(tb_bugmatch *m, uint64_t ms)
{
    if (m->started)
        return TB_ERR_STATE;
    int rc = begin(m, 0, ms, false);
    if (rc)
        return rc;
    /* 6.4: both games' clocks at once, the side to move's running */
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++)
        if (!m->game[b].ended)
            tb_clock_start(&m->game[b].clock, m->rec->cur[b].chess.side, ms);
    m->started = true;
    return TB_OK;
}

int tb_bugmatch_lift(tb_bugmatch *m, int board, int square, uint64_t ms)
{
    /* article 7: a typed board takes one lift, 7.7's piece handed back */
    bool hand_back = board >= 0 && board < TB_BUGMATCH_BOARDS &&
                     m->game[board ^ 1].irr.state == TB_BUGMATCH_IRR_BLOCKED;
    int rc = begin(m, board, ms, !hand_back);
    if (rc || m->game[board].ended)
        return rc;
    if (tb_bugmatch__irr_lift(m, board, square, ms))
        return TB_OK; /* 7.7: the piece handed back */
    if (!m->game[board].sensor)
        return TB_ERR_ARG;
    tb_bugmatch__irr_event(m, board, square, true);
    rc = tb_sensor_lift(m->game[board].sensor, square, ms);
    if (!rc && m->game[board].dgt)
        tb_bugmatch__dgt_lift(m, board, square);
    drain(m, board);
    return rc;
}

int tb_bugmatch_place(tb_bugmatch *m, int board, int square, int piece, uint64_t ms)
{
    int t = TB_CHESS_PIECE_TYPE(piece);
    if (square < 0 || square > 63 || (piece && (piece < 0 || piece > 14 || t == 0 || t == 7)))
        return TB_ERR_ARG;
    int rc = begin(m, board, ms, true);
    if (rc || m->game[board].ended)
        return rc;
    tb_bugmatch__irr_event(m, board, square, false);
    if (m->game[board].dgt) /* the piece it stands for (3.1) */
        piece = tb_bugmatch__dgt_place(m, board, square, piece);
    rc = tb_sensor_place(m->game[board].sensor, square, piece, ms);
    drain(m, board);
    return rc;
}

int tb_bugmatch_choose(tb_bugmatch *m, int board, int ptype, uint64_t ms)
{
    int rc = begin(m, board, ms, true);
    if (rc)
        return rc;
    struct tb_bugmatch__game *g = &m->game[board];
    if (g->ended)
        return TB_ERR_STATE;
    /* between a move and its press a choice names that move's piece again: the move stands
     * (a choice the opponent makes ahead of their own drop comes after the press) */
    if (g->pending && tb_sensor_waiting(g->sensor, NULL, NULL) == TB_SENSOR_WAIT_NONE)
        return TB_OK;
    rc = tb_sensor_choose(g->sensor, ptype, ms);
    drain(m, board);
    return rc;
}

int tb_bugmatch_button(tb_bugmatch *m, int board, uint64_t ms)
{
    static const int order[] = {TB_CHESS_QUEEN, TB_CHESS_ROOK, TB_CHESS_BISHOP, TB_CHESS_KNIGHT,
                                TB_CHESS_PAWN};
    int rc = begin(m, board, ms, true);
    if (rc)
        return rc;
    struct tb_bugmatch__game *g = &m->game[board];
    unsigned kinds;
    if (g->ended || tb_sensor_waiting(g->sensor, NULL, &kinds) == TB_SENSOR_WAIT_NONE)
        return TB_ERR_STATE;
    /* the next kind after the one selected, queen first, round again after the last */
    int at = -1;
    for (int i = 0; i < 5; i++)
        if (order[i] == g->selected)
            at = i;
    for (int i = 1; i <= 5; i++) {
        int k = order[(at + i + 5) % 5];
        if (kinds & (1u << k)) {
            g->selected = k;
            break;
        }
    }
    int side = tb_sensor_position(g->sensor)->side, seat = tb_bugmatch__seat(board, side);
    struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_SELECTED, board, seat, ms);
    o->hear = (uint8_t)(1u << seat);
    o->piece = (uint8_t)g->selected;
    return TB_OK;
}

int tb_bugmatch_press(tb_bugmatch *m, int board, uint64_t ms)
{
    int rc = begin(m, board, ms, false);
    if (rc)
        return rc;
    if (!m->started)
        return tb_bugmatch_start(m, ms); /* 6.4 */
    struct tb_bugmatch__game *g = &m->game[board];
    if (g->ended)
        return TB_ERR_STATE;
    int square;
    unsigned kinds;
    if (g->sensor && tb_sensor_waiting(g->sensor, &square, &kinds) != TB_SENSOR_WAIT_NONE) {
        /* 3.1, 4.2: not complete before the piece is known */
        if (g->selected) {
            (void)tb_sensor_choose(g->sensor, g->selected, ms);
            drain(m, board);
        } else {
            int seat = tb_bugmatch__seat(board, tb_sensor_position(g->sensor)->side);
            struct tb_bugmatch_out *o =
                tb_bugmatch__emit(m, TB_BUGMATCH_OUT_CHOOSE, board, seat, ms);
            o->hear = (uint8_t)(1u << seat);
            o->square = (uint8_t)square;
            o->kinds = (uint8_t)kinds;
            return TB_ERR_STATE;
        }
    }
    if (!g->pending)
        return tb_bugmatch__irr_press(m, board, ms); /* 7.4, 7.6 */
    tb_bugmatch__complete(m, board, ms);
    return TB_OK;
}

int tb_bugmatch_resign(tb_bugmatch *m, int board, int color, uint64_t ms)
{
    if (color != TB_CHESS_WHITE && color != TB_CHESS_BLACK)
        return TB_ERR_ARG;
    int rc = begin(m, board, ms, false);
    if (rc)
        return rc;
    if (m->game[board].ended)
        return TB_ERR_STATE;
    tb_bugmatch__complete(m, board, ms); /* a move made before it stands */
    if (m->game[board].ended)
        return TB_ERR_STATE;
    struct tb_bug_verdict v;
    tb_bug_judge_resign(&m->rec->cur[board], color, &v); /* 5.2 */
    tb_bugmatch__end(m, board, &v, ms);
    return TB_OK;
}

int tb_bugmatch_typed(tb_bugmatch *m, int board, const char *text, uint64_t ms,
                      struct tb_error *err)
{
    if (!text)
        return tb_error_set(err, TB_ERR_ARG, "no move");
    if (board < 0 || board >= TB_BUGMATCH_BOARDS || m->game[board].sensor)
        return tb_error_set(err, TB_ERR_ARG, "moves are typed only for a board without sensors");
    int rc = begin(m, board, ms, false);
    if (rc)
        return tb_error_set(err, rc, "time goes back");
    struct tb_bugmatch__game *g = &m->game[board];
    if (g->ended)
        return tb_error_set(err, TB_ERR_STATE, "the game on board %c is over", 'A' + board);
    tb_bugmatch__complete(m, board, ms); /* the opponent's move is complete now */
    if (g->ended)
        return tb_error_set(err, TB_ERR_STATE, "the game on board %c is over", 'A' + board);
    if (tb_bugmatch__irr_blocked(m, board)) /* article 7 */
        return tb_error_set(err, TB_ERR_STATE,
                            "7.7: no move on board %c until the piece is taken off it",
                            'A' + board);
    tb_bug_move mv;
    struct tb_error uci_err;
    rc = tb_bug_move_from_san(&m->rec->cur[board], text, TB_CHESS_LETTERS_EN, &mv, err);
    if (rc == TB_ERR_PARSE && tb_bug_move_from_uci(&m->rec->cur[board], text, &mv, &uci_err) == 0)
        rc = TB_OK;
    if (rc)
        return rc;
    tb_bugmatch__made(m, board, mv, ms);
    return TB_OK;
}

int tb_bugmatch_ask_pool(tb_bugmatch *m, int seat, uint64_t ms)
{
    if (seat < 0 || seat >= TB_BUGMATCH_SEATS)
        return TB_ERR_ARG;
    int rc = begin(m, seat / 2, ms, false);
    if (rc)
        return rc;
    struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_POOL, seat / 2, seat, ms);
    o->hear = (uint8_t)(1u << seat);
    tb_bugmatch__live_pool(m, seat / 2, seat & 1, o->pool);
    return TB_OK;
}

int tb_bugmatch_feed_script(tb_bugmatch *m, int board, const struct tb_script_event *ev)
{
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
        return tb_bugmatch_lift(m, board, ev->square, ev->ms);
    case TB_SCRIPT_PLACE:
        return tb_bugmatch_place(m, board, ev->square, tb_chess_piece_from_fen(ev->piece), ev->ms);
    case TB_SCRIPT_CHOOSE:
        return tb_bugmatch_choose(m, board, TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(ev->piece)),
                                  ev->ms);
    case TB_SCRIPT_PRESS:
        if (strcmp(ev->button, "clock") == 0)
            return tb_bugmatch_press(m, board, ev->ms);
        if (strcmp(ev->button, "choice") == 0 || strcmp(ev->button, "promote") == 0)
            return tb_bugmatch_button(m, board, ev->ms);
        if (strcmp(ev->button, "resign") == 0 && board >= 0 && board < TB_BUGMATCH_BOARDS)
            return tb_bugmatch_resign(m, board, m->rec->cur[board].chess.side, ev->ms);
        return TB_OK;
    default:
        return TB_OK;
    }
}

/* ---- outputs and state ------------------------------------------------------------------- */

struct tb_bugmatch_out *tb_bugmatch__emit(tb_bugmatch *m, enum tb_bugmatch_out_kind kind, int board,
                                          int seat, uint64_t ms)
{
    if (m->on == TB_BUGMATCH_OUT_CAP) {
        m->ohead = (m->ohead + 1) % TB_BUGMATCH_OUT_CAP;
        m->on--;
        m->dropped++;
    }
    struct tb_bugmatch_out *o = &m->out[(m->ohead + m->on++) % TB_BUGMATCH_OUT_CAP];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->ms = ms;
    o->board = board;
    o->seat = seat;
    o->article = "";
    o->square = TB_CHESS_NOSQ;
    return o;
}

int tb_bugmatch_poll(tb_bugmatch *m, struct tb_bugmatch_out *out)
{
    if (m->on == 0)
        return 0;
    *out = m->out[m->ohead];
    m->ohead = (m->ohead + 1) % TB_BUGMATCH_OUT_CAP;
    m->on--;
    return 1;
}

unsigned long tb_bugmatch_dropped(const tb_bugmatch *m)
{
    return m->dropped;
}

const tb_bug_record *tb_bugmatch_record(const tb_bugmatch *m)
{
    return m->rec;
}

void tb_bugmatch_pool(const tb_bugmatch *m, int seat, uint8_t pool[6])
{
    tb_bugmatch__live_pool(m, (seat >> 1) & 1, seat & 1, pool);
}

enum tb_bugmatch_board_kind tb_bugmatch_board(const tb_bugmatch *m, int board)
{
    const struct tb_bugmatch__game *g = &m->game[board & 1];
    return !g->sensor ? TB_BUGMATCH_TYPED : g->dgt ? TB_BUGMATCH_DGT : TB_BUGMATCH_REED;
}

const tb_sensor *tb_bugmatch_sensor(const tb_bugmatch *m, int board)
{
    return m->game[board & 1].sensor;
}

const tb_clock *tb_bugmatch_clock(const tb_bugmatch *m, int board)
{
    return &m->game[board & 1].clock;
}

bool tb_bugmatch_over(const tb_bugmatch *m)
{
    return m->game[0].ended && m->game[1].ended;
}
