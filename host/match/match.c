/* match.c - the match's life cycle, its inputs, its output queue and its queries. */
#include "match_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tb_match_config_default(struct tb_match_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->board[0].role = TB_MATCH_VI;
    cfg->board[0].color = TB_CHESS_WHITE;
    strcpy(cfg->board[0].name, "vi");
    cfg->board[1].role = TB_MATCH_SIGHTED;
    cfg->board[1].color = TB_CHESS_BLACK;
    strcpy(cfg->board[1].name, "sighted");
    tb_sensor_config_default(&cfg->sensor);
    cfg->incomplete_ms = 3000;
    cfg->remind_ms = 2000;
    cfg->copy_remind_ms = 20000;
    cfg->ident_ms = 1500;
}

static int check_config(const struct tb_match_config *cfg, struct tb_error *err)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        const struct tb_match_board_config *bc = &cfg->board[b];
        if (bc->role != TB_MATCH_VI && bc->role != TB_MATCH_SIGHTED)
            return tb_error_set(err, TB_ERR_ARG, "board %d: role must be vi or sighted", b);
        if (bc->color != TB_CHESS_WHITE && bc->color != TB_CHESS_BLACK)
            return tb_error_set(err, TB_ERR_ARG, "board %d: colour must be white or black", b);
        if (!memchr(bc->name, '\0', sizeof bc->name) || !tb_script_name_valid(bc->name))
            return tb_error_set(err, TB_ERR_ARG, "board %d: bad name", b);
    }
    if (cfg->board[0].color == cfg->board[1].color)
        return tb_error_set(err, TB_ERR_ARG,
                            "both boards have the %s player: one board per colour (D.1)",
                            tb_match__color_name(cfg->board[0].color));
    return TB_OK;
}

int tb_match_new(const struct tb_match_config *cfg, const tb_chess_pos *start, uint64_t now_ms,
                 tb_match **out, struct tb_error *err)
{
    struct tb_match_config def;
    tb_chess_pos std;

    if (!out)
        return tb_error_set(err, TB_ERR_ARG, "no place for the match");
    *out = NULL;
    if (!cfg) {
        tb_match_config_default(&def);
        cfg = &def;
    }
    int rc = check_config(cfg, err);
    if (rc < 0)
        return rc;
    if (!start) {
        tb_chess_pos_startpos(&std);
        start = &std;
    }
    tb_match *m = calloc(1, sizeof *m);
    if (!m)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    m->cfg = *cfg;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        rc = tb_sensor_new(&cfg->sensor, &m->sensor[b]);
        if (rc < 0) {
            tb_match_free(m);
            return tb_error_set(err, rc, "board %d: bad recogniser configuration", b);
        }
        tb_sensor_reset(m->sensor[b], start, now_ms);
        m->incomplete_at[b] = TB_MATCH_NOTIME;
        m->settle_at[b] = m->idle_at[b] = m->early_at[b] = TB_MATCH_NOTIME;
        m->read_at[b] = TB_MATCH_NOTIME;
        m->seen_occ[b] = tb_chess_occupancy(start);
        m->ident_at[b] = TB_MATCH_NOTIME;
    }
    m->now = now_ms;
    m->remind_at = TB_MATCH_NOTIME;
    m->copy_remind_at = TB_MATCH_NOTIME;
    tb_chess_game_init(&m->game, start);
    m->lead = -1;
    tb_match__sync_state(m);
    *out = m;
    return TB_OK;
}

void tb_match_free(tb_match *m)
{
    if (!m)
        return;
    for (int b = 0; b < TB_MATCH_BOARDS; b++)
        tb_sensor_free(m->sensor[b]);
    free(m);
}

/* ---- output queue ----------------------------------------------------------------------- */

struct tb_match_out *tb_match__emit(tb_match *m, enum tb_match_out_kind kind)
{
    if (m->on == TB_MATCH_OUT_CAP) {
        m->ohead = (m->ohead + 1) % TB_MATCH_OUT_CAP;
        m->on--;
        m->dropped++;
    }
    struct tb_match_out *o = &m->out[(m->ohead + m->on++) % TB_MATCH_OUT_CAP];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->ms = m->now;
    o->seq = ++m->seq;
    return o;
}

int tb_match_poll(tb_match *m, struct tb_match_out *out)
{
    if (m->on == 0)
        return 0;
    *out = m->out[m->ohead];
    m->ohead = (m->ohead + 1) % TB_MATCH_OUT_CAP;
    m->on--;
    return 1;
}

unsigned long tb_match_dropped(const tb_match *m)
{
    return m->dropped;
}

/* ---- state ------------------------------------------------------------------------------ */

void tb_match__line_pos(const tb_match *m, const struct tb_match_line *line, int n,
                        tb_chess_pos *pos)
{
    tb_chess_undo undo;
    *pos = m->game.pos;
    for (int i = 0; i < n && i < line->n; i++)
        tb_chess_make(pos, line->moves[i], &undo);
}

/* What stands on a board as far as its moves tell: its line's position, or with the copy still
 * due after its own move, the position before the copy. */
void tb_match__board_pos(const tb_match *m, int b, tb_chess_pos *pos)
{
    if (m->copy_due[b])
        *pos = m->due_pos[b];
    else
        tb_match__line_pos(m, &m->extra[b], m->extra[b].n, pos);
}

void tb_match_status(const tb_match *m, struct tb_match_status *st)
{
    memset(st, 0, sizeof *st);
    st->plies = m->game.plies;
    st->board = -1;
    if (m->r.open) {
        st->state = m->r.is_mismatch && !m->r.confirmed ? TB_MATCH_BLOCKED : TB_MATCH_RESTORING;
        st->mismatch = m->r.id;
    } else if (m->lead >= 0) {
        st->state = TB_MATCH_WAITING;
        st->board = 1 - m->lead;
        st->move = m->pending;
    } else {
        st->state = TB_MATCH_IN_SYNC;
    }
}

void tb_match__sync_state(tb_match *m)
{
    struct tb_match_status st;
    tb_match_status(m, &st);
    if (m->status_sent && st.state == m->last_status.state && st.board == m->last_status.board &&
        st.move == m->last_status.move && st.mismatch == m->last_status.mismatch &&
        st.plies == m->last_status.plies)
        return;
    /* a new agreed ply alone is told by MOVE_AGREED; IN_SYNC after IN_SYNC is no change */
    bool only_plies =
        m->status_sent && st.state == m->last_status.state && st.state == TB_MATCH_IN_SYNC;
    m->last_status = st;
    m->status_sent = true;
    if (only_plies)
        return;
    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_STATE);
    o->u.state.state = st.state;
    o->u.state.board = st.board;
    o->u.state.move = st.move;
    o->u.state.mismatch = st.mismatch;
    o->u.state.plies = st.plies;
}

/* ---- inputs ----------------------------------------------------------------------------- */

/* Everything due at time t: the recognisers' decisions, the D.2.3 watch, a restoration
 * finishing. */
static void step(tb_match *m, uint64_t t)
{
    m->now = t;
    for (int b = 0; b < TB_MATCH_BOARDS; b++)
        tb_sensor_tick(m->sensor[b], t);
    tb_match__drain(m);
    tb_match__watch(m);
    tb_match__incomplete_due(m);
    tb_match__settle_due(m);
    tb_match__idle_due(m);
    tb_match__early_due(m);
    tb_match__ident_due(m);
    tb_match__check_progress(m);
    tb_match__remind_due(m);
    tb_match__copy_remind_due(m);
    tb_match__reading_due(m);
    tb_match__sync_state(m);
}

/* Time passes to now, each decision taken at its own time (so that a timer started by one
 * runs from then, whatever the caller's tick rate). */
static int advance(tb_match *m, uint64_t now_ms)
{
    if (now_ms < m->now)
        return TB_ERR_STATE;
    for (int guard = 0; guard < 10000; guard++) {
        uint64_t due = tb_match_deadline(m);
        if (due > now_ms)
            break;
        step(m, due > m->now ? due : m->now);
    }
    step(m, now_ms);
    return TB_OK;
}

int tb_match_tick(tb_match *m, uint64_t now_ms)
{
    int rc = advance(m, now_ms);
    tb_match__sync_state(m);
    return rc;
}

uint64_t tb_match_deadline(const tb_match *m)
{
    uint64_t when = TB_MATCH_NOTIME;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        uint64_t s = tb_sensor_deadline(m->sensor[b]);
        if (s < when)
            when = s;
        if (m->incomplete_at[b] < when)
            when = m->incomplete_at[b];
        if (m->settle_at[b] < when)
            when = m->settle_at[b];
        if (m->idle_at[b] < when)
            when = m->idle_at[b];
        if (m->early_at[b] < when)
            when = m->early_at[b];
        if (m->ident_at[b] < when)
            when = m->ident_at[b];
        if (m->read_at[b] < when)
            when = m->read_at[b];
    }
    if (m->remind_at < when)
        when = m->remind_at;
    if (m->copy_remind_at < when)
        when = m->copy_remind_at;
    return when;
}

int tb_match_board_event(tb_match *m, int board, const struct tb_match_event *ev, uint64_t now_ms)
{
    if (!m || !ev || board < 0 || board >= TB_MATCH_BOARDS)
        return TB_ERR_ARG;
    if (now_ms < m->now)
        return TB_ERR_STATE;
    switch (ev->kind) {
    case TB_MATCH_EV_LIFT:
    case TB_MATCH_EV_PLACE:
        if (ev->square > 63)
            return TB_ERR_ARG;
        if (ev->kind == TB_MATCH_EV_PLACE && ev->piece &&
            (ev->piece > 14 || TB_CHESS_PIECE_TYPE(ev->piece) == 0 ||
             TB_CHESS_PIECE_TYPE(ev->piece) == 7))
            return TB_ERR_ARG;
        break;
    case TB_MATCH_EV_CHOOSE:
        if (ev->piece < TB_CHESS_KNIGHT || ev->piece > TB_CHESS_QUEEN)
            return TB_ERR_ARG;
        break;
    case TB_MATCH_EV_SNAPSHOT:
        break;
    default:
        return TB_ERR_ARG;
    }

    advance(m, now_ms);
    tb_sensor *s = m->sensor[board];
    int rc = TB_OK;
    switch (ev->kind) {
    case TB_MATCH_EV_LIFT:
        m->promoted[board] = 0;
        m->lifted_since[board] |= TB_CHESS_BIT(ev->square);
        rc = tb_sensor_lift(s, ev->square, now_ms);
        break;
    case TB_MATCH_EV_PLACE:
        m->promoted[board] = 0;
        m->placed_since[board] |= TB_CHESS_BIT(ev->square);
        m->place_code[board][ev->square] = ev->piece;
        rc = tb_sensor_place(s, ev->square, ev->piece, now_ms);
        break;
    case TB_MATCH_EV_CHOOSE:
        m->choice_since[board] = ev->piece;
        rc = tb_sensor_choose(s, ev->piece, now_ms);
        /* the copier's own reply made first may be a promotion its recogniser, copying,
         * does not look for: the choice is kept for it (reply.c, 4.6); the piece of the
         * promotion just made named after it changes nothing (the recogniser may have been
         * moved on since, the copy completing the copier's line) */
        if (rc == TB_ERR_STATE &&
            ((m->lead >= 0 && board != m->lead) || ev->piece == m->promoted[board]))
            rc = TB_OK;
        break;
    case TB_MATCH_EV_SNAPSHOT:
        tb_sensor_set_occupancy(s, ev->occupancy, now_ms);
        break;
    }
    tb_match__ident_event(m, board, ev);
    tb_match__drain(m);
    if (ev->kind == TB_MATCH_EV_SNAPSHOT)
        tb_match__reading(m, board);
    tb_match__watch(m);
    tb_match__check_progress(m);
    tb_match__sync_state(m);
    return rc;
}

int tb_match_feed_script(tb_match *m, int board, const struct tb_script_event *ev)
{
    struct tb_match_event e = {0};
    if (!ev)
        return TB_ERR_ARG;
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
        e.kind = TB_MATCH_EV_LIFT;
        break;
    case TB_SCRIPT_PLACE:
        e.kind = TB_MATCH_EV_PLACE;
        e.piece = (uint8_t)tb_chess_piece_from_fen(ev->piece);
        break;
    case TB_SCRIPT_CHOOSE:
        e.kind = TB_MATCH_EV_CHOOSE;
        e.piece = (uint8_t)TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(ev->piece));
        break;
    default:
        return TB_OK;
    }
    e.square = ev->square;
    return tb_match_board_event(m, board, &e, ev->ms);
}

/* The move a typed board must copy, for the assistant: "1. e4 (e2e4)". */
static void copy_words(const tb_match *m, char *buf, size_t len)
{
    char san[16], uci[8];
    if (tb_chess_move_to_san(&m->game.pos, m->pending, TB_CHESS_LETTERS_EN, 0, san, sizeof san) < 0)
        san[0] = '\0';
    if (tb_chess_move_to_uci(&m->game.pos, m->pending, uci, sizeof uci) < 0)
        uci[0] = '\0';
    snprintf(buf, len, "%d.%s %s (%s)", m->game.pos.fullmove,
             m->game.pos.side == TB_CHESS_BLACK ? ".." : "", san, uci);
}

/* Nobody watches a typed board, so what is typed must be a move the board may make now: its
 * player's move in turn, or the copy of the announced move. Anything else is a typing error the
 * assistant corrects, not a board that deviates. Whose turn it is comes first: a move typed
 * for the wrong board is named as such, not as an illegal move. */
static int typed_turn(const tb_match *m, int b, struct tb_error *err)
{
    const char *name = m->cfg.board[b].name;
    char want[40];
    if (m->r.open)
        return tb_error_set(err, TB_ERR_STATE,
                            "play is stopped (#%u) until both boards show the position: no move "
                            "counts now",
                            (unsigned)m->r.id);
    if (m->lead == b) {
        copy_words(m, want, sizeof want);
        return tb_error_set(err, TB_ERR_STATE,
                            "the %s board's move %s waits to be copied on the %s board", name, want,
                            m->cfg.board[1 - b].name);
    }
    if (m->lead < 0 && m->game.pos.side != m->cfg.board[b].color)
        return tb_error_set(err, TB_ERR_STATE, "%s is to move, on the %s board",
                            tb_match__color_name(m->game.pos.side), m->cfg.board[1 - b].name);
    return TB_OK;
}

/* The move typed (or the text's parse error) against the move to copy, if one is waiting. */
static int typed_copy(const tb_match *m, int b, int parsed, tb_chess_move mv, struct tb_error *err)
{
    if (m->lead < 0 || (parsed == TB_OK && mv == m->pending))
        return parsed;
    char want[40], why[sizeof err->msg];
    copy_words(m, want, sizeof want);
    snprintf(why, sizeof why, "%s", parsed == TB_OK ? "" : err ? err->msg : "");
    return tb_error_set(err, parsed == TB_OK ? TB_ERR_ILLEGAL : parsed,
                        "%s%sthe move to copy on the %s board is %s", why, why[0] ? "; " : "",
                        m->cfg.board[b].name, want);
}

int tb_match_typed_move(tb_match *m, int board, const char *text, uint64_t now_ms,
                        struct tb_error *err)
{
    tb_chess_pos pos;
    tb_chess_move mv = 0;
    if (board < 0 || board >= TB_MATCH_BOARDS || !text)
        return tb_error_set(err, TB_ERR_ARG, "no such board %d", board);
    if (!m->cfg.board[board].typed)
        return tb_error_set(err, TB_ERR_ARG, "the %s board reads its moves from its sensors",
                            m->cfg.board[board].name);
    if (now_ms < m->now)
        return tb_error_set(err, TB_ERR_STATE, "time went back");
    /* decisions due before the move come first: the other board may have moved or gone wrong */
    advance(m, now_ms);
    int rc = typed_turn(m, board, err);
    if (rc == TB_OK) {
        tb_match__line_pos(m, &m->extra[board], m->extra[board].n, &pos);
        /* parse first, then compare: one call reading mv while another writes it would
         * leave the order to the compiler */
        int parsed = tb_chess_move_parse(&pos, text, &mv, err);
        rc = typed_copy(m, board, parsed, mv, err);
    }
    if (rc == TB_OK) {
        tb_match__typed_move_at(m, board, mv);
        tb_match__drain(m);
    }
    tb_match__sync_state(m);
    return rc;
}

int tb_match_promote(tb_match *m, int board, int ptype, uint64_t now_ms)
{
    struct tb_match_event e = {.kind = TB_MATCH_EV_CHOOSE, .piece = (uint8_t)ptype};
    if (ptype < TB_CHESS_KNIGHT || ptype > TB_CHESS_QUEEN)
        return TB_ERR_ARG;
    if (board < 0) {
        if (m->lead >= 0 || m->r.open)
            return TB_ERR_STATE;
        board = m->cfg.board[0].color == m->game.pos.side ? 0 : 1;
    }
    return tb_match_board_event(m, board, &e, now_ms);
}

int tb_match_end_move(tb_match *m, int board, uint64_t now_ms)
{
    if (board < 0 || board >= TB_MATCH_BOARDS)
        return TB_ERR_ARG;
    if (now_ms < m->now)
        return TB_ERR_STATE;
    advance(m, now_ms);
    /* 6.2.1: the clock pressed completes the move as the board shows it; 7.5.2 */
    int rc = tb_sensor_end_move(m->sensor[board], now_ms);
    tb_match__drain(m);
    tb_match__watch(m);
    tb_match__check_progress(m);
    tb_match__sync_state(m);
    return rc;
}

/* ---- the arbiter ------------------------------------------------------------------------ */

int tb_match_resolve(tb_match *m, uint32_t id, uint64_t now_ms, struct tb_error *err)
{
    if (now_ms < m->now)
        return tb_error_set(err, TB_ERR_STATE, "time went back");
    if (!m->r.open || !m->r.is_mismatch || m->r.id != id)
        return tb_error_set(err, TB_ERR_NOTFOUND, "no open mismatch #%u", (unsigned)id);
    advance(m, now_ms);
    if (!m->r.open || m->r.id != id) { /* put right on the board at this very moment */
        tb_match__sync_state(m);
        return TB_OK;
    }
    if (m->r.confirmed)
        return TB_OK;
    m->r.confirmed = true;
    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_ARBITER);
    o->u.arbiter.action = TB_MATCH_ARB_RESOLVE;
    o->u.arbiter.id = id;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        struct tb_match_fix fix;
        tb_match__build_fix(m, b, &m->r.hist[b], &m->r.target[b], -1, -1, &fix);
        if (fix.nlift || fix.nplace)
            tb_match__announce_fix(m, b, &fix, id);
    }
    tb_match__check_progress(m);
    tb_match__sync_state(m);
    return TB_OK;
}

/* What each board's scoresheet says stands on it (to name the pieces to move). */
static void board_positions(const tb_match *m, tb_chess_pos hist[TB_MATCH_BOARDS])
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++)
        tb_match__board_pos(m, b, &hist[b]);
}

int tb_match_takeback(tb_match *m, int n, uint64_t now_ms, struct tb_error *err)
{
    if (now_ms < m->now)
        return tb_error_set(err, TB_ERR_STATE, "time went back");
    int total = m->game.plies + (m->lead >= 0 ? 1 : 0);
    if (n < 1 || n > total)
        return tb_error_set(err, TB_ERR_ARG, "cannot take back %d plies: the game has %d", n,
                            total);
    advance(m, now_ms);
    total = m->game.plies + (m->lead >= 0 ? 1 : 0);
    if (n > total)
        n = total;
    int keep = total - n;
    tb_chess_pos hist[TB_MATCH_BOARDS];
    board_positions(m, hist);
    while (m->game.plies > keep)
        tb_chess_game_pop(&m->game);
    tb_match__restore_start(m, TB_MATCH_ARB_TAKEBACK, n, hist);
    tb_match__sync_state(m);
    return TB_OK;
}

static void new_game(tb_match *m, const tb_chess_pos *start, enum tb_match_arbiter_action action)
{
    tb_chess_pos hist[TB_MATCH_BOARDS];
    board_positions(m, hist);
    tb_chess_game_init(&m->game, start);
    tb_match__restore_start(m, action, 0, hist);
}

int tb_match_set_position(tb_match *m, const char *fen, uint64_t now_ms, struct tb_error *err)
{
    tb_chess_pos pos;
    if (now_ms < m->now)
        return tb_error_set(err, TB_ERR_STATE, "time went back");
    if (!fen)
        return tb_match_new_game(m, NULL, now_ms);
    int rc = tb_chess_pos_from_fen(&pos, fen, 0, err);
    if (rc < 0)
        return rc;
    advance(m, now_ms);
    new_game(m, &pos, TB_MATCH_ARB_SET_POSITION);
    tb_match__sync_state(m);
    return TB_OK;
}

int tb_match_new_game(tb_match *m, const tb_chess_pos *start, uint64_t now_ms)
{
    tb_chess_pos std;
    if (now_ms < m->now)
        return TB_ERR_STATE;
    if (!start) {
        tb_chess_pos_startpos(&std);
        start = &std;
    }
    advance(m, now_ms);
    new_game(m, start, TB_MATCH_ARB_NEW_GAME);
    tb_match__sync_state(m);
    return TB_OK;
}

/* ---- queries ---------------------------------------------------------------------------- */

const tb_chess_game *tb_match_game(const tb_match *m)
{
    return &m->game;
}

int tb_match_history(const tb_match *m, int board, tb_chess_move *moves, int cap)
{
    if (board < 0 || board >= TB_MATCH_BOARDS)
        return TB_ERR_ARG;
    int n = 0;
    for (int i = 0; i < m->game.plies; i++, n++)
        if (n < cap)
            moves[n] = m->game.moves[i];
    for (int i = 0; i < m->extra[board].n; i++, n++)
        if (n < cap)
            moves[n] = m->extra[board].moves[i];
    return n;
}

const struct tb_match_mismatch *tb_match_open_mismatch(const tb_match *m)
{
    return m->r.open && m->r.is_mismatch ? &m->r.mm : NULL;
}

int tb_match_board_fix(const tb_match *m, int board, struct tb_match_fix *fix)
{
    if (board < 0 || board >= TB_MATCH_BOARDS)
        return TB_ERR_ARG;
    if (!m->r.open)
        return TB_ERR_NOTFOUND;
    tb_match__build_fix(m, board, &m->r.hist[board], &m->r.target[board], -1, -1, fix);
    return TB_OK;
}

uint64_t tb_match_occupancy(const tb_match *m, int board)
{
    if (board < 0 || board >= TB_MATCH_BOARDS)
        return 0;
    return tb_sensor_occupancy(m->sensor[board]);
}
