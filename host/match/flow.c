/* flow.c - the recognisers' outputs into one game: a move made on the board of the player to
 * move is announced and replicated on the other board (D.2.1); anything else is a mismatch
 * (D.2.9) or a report for the arbiter (4.3-4.8). */
#include "match_internal.h"

#include <stdio.h>
#include <string.h>

void tb_match__line_push(struct tb_match_line *l, tb_chess_move mv)
{
    if (l->n < TB_MATCH_MAX_EXTRA)
        l->moves[l->n++] = mv;
}

static int board_side(const tb_match *m, int b)
{
    tb_chess_pos pos;
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &pos);
    return pos.side;
}

static int owner(const tb_match *m, int b)
{
    return m->cfg.board[b].color;
}

static void on_move(tb_match *m, int b, const struct tb_sensor_out *o);

/* The copy already stands on the copier's board as the move becomes the one to copy (its
 * player copied it as it was made, before the recogniser of the other board had read it): the
 * occupancy shows it, and for a capture the square taken on was lifted and filled since the
 * board's last move. */
static bool copy_stands(const tb_match *m, int b)
{
    tb_chess_pos after = m->game.pos;
    tb_chess_undo undo;
    if (m->r.open || m->extra[b].n != 0 || m->copy_due[b] || m->cfg.board[b].typed ||
        tb_sensor_position(m->sensor[b])->key != m->game.pos.key)
        return false;
    tb_chess_make(&after, m->pending, &undo);
    return tb_sensor_occupancy(m->sensor[b]) == tb_chess_occupancy(&after) &&
           tb_match__capture_seen(m, b, &m->game.pos, m->pending);
}

static void copy_check(tb_match *m);

void tb_match__set_modes(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->lead >= 0 && b != m->lead)
            tb_sensor_set_mode(m->sensor[b], TB_SENSOR_REPLICATING, m->pending);
        else
            tb_sensor_set_mode(m->sensor[b], TB_SENSOR_PLAYING, 0);
    }
    if (m->lead < 0)
        return;
    /* the copier's board was part way through something when the move to copy became known:
     * the recogniser starts afresh, so the match watches for the copy standing there */
    int b = 1 - m->lead;
    m->recheck[b] =
        tb_sensor_occupancy(m->sensor[b]) != tb_chess_occupancy(tb_sensor_position(m->sensor[b]));
    copy_check(m);
}

/* The board's events so far are read: a new move starts from here. */
void tb_match__events_read(tb_match *m, int b)
{
    m->lifted_since[b] = m->placed_since[b] = 0;
    m->choice_since[b] = 0;
}

/* See copy_stands: the copy counts as made. */
static void copy_check(tb_match *m)
{
    int b = 1 - m->lead;
    if (m->lead >= 0 && !m->r.open && copy_stands(m, b)) {
        m->recheck[b] = false;
        struct tb_sensor_out o;
        tb_chess_pos after = m->game.pos;
        tb_chess_undo undo;
        memset(&o, 0, sizeof o);
        o.kind = TB_SENSOR_OUT_MOVE;
        o.move = m->pending;
        o.flags = TB_SENSOR_MF_REPLICATED;
        o.ms = o.event_ms = m->now;
        o.square = (uint8_t)tb_chess_move_from(o.move);
        o.square2 = (uint8_t)tb_chess_move_to(o.move);
        if (tb_chess_move_to_uci(&after, o.move, o.uci, sizeof o.uci) < 0)
            o.uci[0] = '\0';
        tb_chess_make(&after, o.move, &undo);
        tb_sensor_set_position(m->sensor[b], &after, m->now);
        tb_match__events_read(m, b);
        on_move(m, b, &o);
    }
}

static struct tb_match_announce *announce(tb_match *m, int b)
{
    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_ANNOUNCE);
    struct tb_match_announce *a = &o->u.announce;
    a->board = b;
    a->player = owner(m, b);
    a->role = m->cfg.board[b].role;
    return a;
}

void tb_match__announce_msg(tb_match *m, int b, enum tb_match_msg msg)
{
    struct tb_match_announce *a = announce(m, b);
    a->msg = msg;
    a->mismatch = m->r.open ? m->r.id : 0;
    if (m->r.open && m->r.is_mismatch)
        a->about_color = owner(m, m->r.mm.board);
    if (msg == TB_MATCH_MSG_REPLICATE) {
        a->move = m->pending;
        a->pos = m->game.pos;
        a->ply = m->game.plies + 1;
    }
}

void tb_match__announce_fix(tb_match *m, int b, const struct tb_match_fix *fix, uint32_t id)
{
    struct tb_match_announce *a = announce(m, b);
    a->msg = TB_MATCH_MSG_PUT_RIGHT;
    a->mismatch = id;
    a->nlift = fix->nlift;
    a->nplace = fix->nplace;
    memcpy(a->lift, fix->lift_list, sizeof a->lift);
    memcpy(a->place, fix->place_list, sizeof a->place);
    if (m->r.open && m->r.id == id) {
        m->r.said[b] = true;
        m->r.said_lift[b] = fix->lift;
        m->r.said_fill[b] = fix->fill;
    }
}

/* The copier hears the waiting move (D.2.1); the wait for its copy starts now. */
static void tell_move(tb_match *m)
{
    struct tb_match_announce *a = announce(m, 1 - m->lead);
    a->is_move = true;
    a->move = m->pending;
    a->pos = m->game.pos;
    a->ply = m->game.plies + 1;
    a->queen_assumed = (m->pending_flags & TB_SENSOR_MF_QUEEN_ASSUMED) != 0;
    m->told = m->pending;
    m->told_ply = a->ply;
    m->copy_remind_at = m->cfg.copy_remind_ms ? m->now + m->cfg.copy_remind_ms : TB_MATCH_NOTIME;
}

/* Both boards have the move: the game moves on (the journal syncs here). */
static void agree(tb_match *m, tb_chess_move mv, unsigned flags)
{
    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_MOVE_AGREED);
    o->u.agreed.ply = m->game.plies + 1;
    o->u.agreed.move = mv;
    o->u.agreed.pos = m->game.pos;
    o->u.agreed.queen_assumed = (flags & TB_SENSOR_MF_QUEEN_ASSUMED) != 0;
    if (tb_chess_move_to_uci(&m->game.pos, mv, o->u.agreed.uci, sizeof o->u.agreed.uci) < 0)
        o->u.agreed.uci[0] = '\0';
    if (tb_chess_move_to_san(&m->game.pos, mv, TB_CHESS_LETTERS_EN, 0, o->u.agreed.san,
                             sizeof o->u.agreed.san) < 0)
        o->u.agreed.san[0] = '\0';
    tb_chess_game_push(&m->game, mv);
    m->remind_at = TB_MATCH_NOTIME;
}

/* Moves both boards hold go into the game; one move on one board, made by that board's player,
 * waits for replication and is announced when its copier has not heard it yet (a move made
 * while play was stopped is told once play goes on). Returns true when a move waits that its
 * copier heard before (not announced now). */
bool tb_match__normalize(tb_match *m)
{
    struct tb_match_line *a = &m->extra[0], *b = &m->extra[1];
    while (a->n > 0 && b->n > 0 && a->moves[0] == b->moves[0] && !m->copy_due[0] &&
           !m->copy_due[1]) {
        agree(m, a->moves[0], m->lead >= 0 && a->moves[0] == m->pending ? m->pending_flags : 0);
        memmove(a->moves, a->moves + 1, (size_t)(--a->n) * sizeof a->moves[0]);
        memmove(b->moves, b->moves + 1, (size_t)(--b->n) * sizeof b->moves[0]);
    }
    int was = m->lead;
    tb_chess_move was_pending = m->pending;
    m->lead = -1;
    m->pending = 0;
    for (int i = 0; i < TB_MATCH_BOARDS; i++) {
        const struct tb_match_line *own = &m->extra[i], *other = &m->extra[1 - i];
        /* the copier's line holds the copy (not made yet) and its own move after it */
        bool due =
            m->copy_due[1 - i] && own->n == 1 && other->n == 2 && other->moves[0] == own->moves[0];
        if (own->n == 1 && (other->n == 0 || due) && m->game.pos.side == owner(m, i)) {
            m->lead = i;
            m->pending = own->moves[0];
        }
    }
    if (m->lead < 0) {
        m->pending_flags = 0;
        m->copy_remind_at = TB_MATCH_NOTIME;
        return false;
    }
    if (m->lead != was || m->pending != was_pending) {
        if (m->pending != m->told || m->told_ply != m->game.plies + 1)
            tell_move(m);
        else
            tb_match__announce_msg(m, 1 - m->lead, TB_MATCH_MSG_REPLICATE);
        return false;
    }
    return true;
}

/* A restoration is over: each board shows its target (or its alternative). */
void tb_match__finish(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
        bool target = occ == m->r.occ_target[b] || !m->r.has_alt[b] || m->cfg.board[b].typed;
        m->extra[b] = target || m->r.alt_due[b] ? m->r.target[b] : m->r.alt[b];
        /* the board shows its own move, the copy still to make */
        m->copy_due[b] = !target && m->r.alt_due[b];
    }
    m->r.open = false;
    if (tb_match__normalize(m)) {
        /* The copier's board shows the position before the move (else the move would have
         * been agreed). A player putting the board right may pass through it on the way to
         * the move; the reminder waits until the board stands still (tb_match__remind_due). A
         * typed board is not on its way anywhere: its assistant hears it now. */
        m->remind_move = m->pending;
        m->remind_at = m->now + m->cfg.remind_ms;
        if (m->cfg.board[1 - m->lead].typed) {
            m->remind_at = TB_MATCH_NOTIME;
            tb_match__announce_msg(m, 1 - m->lead, TB_MATCH_MSG_REPLICATE);
        }
        if (m->cfg.copy_remind_ms)
            m->copy_remind_at = m->now + m->cfg.copy_remind_ms;
    }
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        tb_chess_pos pos;
        tb_match__board_pos(m, b, &pos);
        tb_match__events_read(m, b);
        if (m->cfg.board[b].typed)
            tb_sensor_reset(m->sensor[b], &pos, m->now); /* shows what its scoresheet says */
        else
            tb_sensor_set_position(m->sensor[b], &pos, m->now);
        m->incomplete_at[b] = TB_MATCH_NOTIME;
    }
    tb_match__set_modes(m);
}

static bool move_expected(const tb_match *m, int b, tb_chess_move mv)
{
    if (m->copy_due[b])
        return b != m->lead && mv == m->pending;
    if (m->extra[b].n != 0)
        return false;
    if (m->lead < 0)
        return m->extra[1 - b].n == 0 && m->game.pos.side == owner(m, b);
    return b != m->lead && mv == m->pending;
}

static void held(tb_match *m, int b, const struct tb_sensor_out *o)
{
    char label[48];
    struct tb_match_out *h = tb_match__emit(m, TB_MATCH_OUT_HELD);
    tb_match__board_label(m, b, label, sizeof label);
    h->u.held.board = b;
    h->u.held.move = o->move;
    memcpy(h->u.held.uci, o->uci, sizeof h->u.held.uci);
    snprintf(h->u.held.text, sizeof h->u.held.text,
             "%s: %s made while play is stopped (#%u): not counted; the board must show the "
             "resolved position",
             label, o->uci, (unsigned)m->r.id);
}

static void still_wrong(tb_match *m, int b);
static void act_on_problem(tb_match *m, int b, const struct tb_sensor_out *o);

/* A move made while play is stopped stands when the Laws make it a move of the game: made on a
 * board that is not in dispute (not where the mismatch arose, no move of its own to take back;
 * its recogniser read the move from the board's scoresheet position), by that board's player in
 * turn (D.2.3: placed, and announced once play goes on), or the copy of the announced move. The
 * other board's slip does not undo it (D.2.9 corrects the deviating board only). */
static bool move_stands(const tb_match *m, int b, tb_chess_move mv)
{
    const struct tb_match_restore *r = &m->r;
    tb_chess_pos pos;
    /* the board in dispute is not when its pieces are all where the game has them and its
     * player was told only to lift pieces nobody put there (7.4: strays never take part in a
     * move, so a move made around them is read as made) */
    bool disputed =
        b == r->mm.board && (r->complete || !r->said[b] || r->said_fill[b] || !r->said_lift[b]);
    if (!r->open || !r->is_mismatch || r->dirty[b] || disputed || r->mm.fix[b].ntakeback ||
        m->copy_due[b] || m->cfg.board[b].typed || m->extra[b].n >= TB_MATCH_MAX_EXTRA - 1)
        return false;
    if (m->lead >= 0 && b != m->lead && m->extra[b].n == 0)
        return mv == m->pending;
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &pos);
    return pos.side == owner(m, b) && tb_chess_is_legal(&pos, mv);
}

/* Play is stopped: a move counts when it is what the board was to do anyway and the open
 * mismatch is this board's own physical slip (illegal placement, displaced piece, wrong copy,
 * capture not removed): making the move puts the board right; or when it stands (above). */
static void blocked_move(tb_match *m, int b, const struct tb_sensor_out *o)
{
    struct tb_match_restore *r = &m->r;
    if (!r->dirty[b] && !r->dirty[1 - b] && r->is_mismatch && !r->mm.needs_arbiter &&
        !r->confirmed && r->mm.boards == (1u << b) && move_expected(m, b, o->move)) {
        const tb_sensor *s = m->sensor[b];
        if (r->mm.kind != TB_MATCH_MM_DISPLACED || r->complete ||
            tb_sensor_occupancy(s) == tb_chess_occupancy(tb_sensor_position(s))) {
            tb_match__close(m, false, "put right on the board: the move was made");
            on_move(m, b, o);
            return;
        }
        /* D.2.3: the move is made and stands, but a piece still lies where nobody put it
         * (7.4: a captured piece dropped into a hole): the instruction now asks for that
         * alone, never to take the move back */
        tb_match__line_push(&m->extra[b], o->move);
        r->hist[b] = *tb_sensor_position(s);
        r->hint_board = -1;
        tb_match__reresolve(m);
        still_wrong(m, b);
        return;
    }
    if (move_stands(m, b, o->move)) {
        tb_match__line_push(&m->extra[b], o->move);
        tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &r->hist[b]);
        if (b == r->hint_board)
            r->hint_board = -1;
        tb_match__reresolve(m);
        return;
    }
    r->dirty[b] = true;
    /* The move stands on the board: its pieces are named where it left them. */
    r->hist[b] = *tb_sensor_position(m->sensor[b]);
    if (b == r->hint_board)
        r->hint_board = -1;
    tb_match__refresh_fix(m, b, true);
    /* a board being set up for a new position makes no moves worth a word */
    bool setting_up = !r->is_mismatch && r->action != TB_MATCH_ARB_TAKEBACK;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    if (!setting_up && occ != r->occ_target[b] && !(r->has_alt[b] && occ == r->occ_alt[b])) {
        held(m, b, o);
        still_wrong(m, b);
    }
}

/* The copier made the announced move after their own: both are on the board now. */
static void copy_made(tb_match *m, int b)
{
    tb_chess_pos pos;
    m->copy_due[b] = false;
    m->incomplete_at[b] = TB_MATCH_NOTIME;
    tb_match__events_read(m, b);
    tb_match__normalize(m);
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &pos);
    tb_sensor_set_position(m->sensor[b], &pos, m->now);
    tb_match__set_modes(m);
}

static void on_move(tb_match *m, int b, const struct tb_sensor_out *o)
{
    tb_chess_move mv = o->move;
    if (m->r.open) {
        blocked_move(m, b, o);
        return;
    }
    tb_chess_pos before;
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &before);
    m->incomplete_at[b] = TB_MATCH_NOTIME;

    if (m->copy_due[b] && b != m->lead && mv == m->pending) {
        copy_made(m, b);
        return;
    }
    if (m->lead < 0) {
        int other = 1 - b;
        if (m->early_at[other] != TB_MATCH_NOTIME && m->extra[b].n == 0) {
            /* the other board copied a move early: this is the move itself, or another */
            tb_chess_move early = m->extra[other].moves[0];
            m->early_at[other] = TB_MATCH_NOTIME;
            tb_match__line_push(&m->extra[b], mv);
            if (mv == early) {
                tb_match__normalize(m);
                tb_match__set_modes(m);
            } else {
                tb_match__raise(m, TB_MATCH_MM_OUT_OF_TURN, other, early, 0,
                                tb_chess_move_from(early), tb_chess_move_to(early), 0);
            }
            return;
        }
        bool early = m->early_at[b] != TB_MATCH_NOTIME;
        m->early_at[b] = TB_MATCH_NOTIME;
        tb_match__line_push(&m->extra[b], mv);
        if (before.side == owner(m, b) && m->extra[other].n == 0 && !early) {
            /* D.2.1: the move is announced and becomes the move expected on the other board */
            m->lead = b;
            m->pending = mv;
            m->pending_flags = o->flags;
            tell_move(m);
            tb_match__set_modes(m);
        } else if (m->extra[b].n == 1 && m->extra[other].n == 0 && m->cfg.incomplete_ms) {
            /* D.2.1: the opponent's move, copied here as the opponent announced it before
             * their own board showed it: waited for (incomplete_ms) before it is reported */
            m->early_at[b] = m->now + m->cfg.incomplete_ms;
        } else {
            /* the opponent's move on the board of the player not to move */
            tb_match__raise(m, TB_MATCH_MM_OUT_OF_TURN, b, mv, 0, o->square, o->square2, 0);
        }
        return;
    }
    if (b != m->lead) {
        if (mv == m->pending && m->extra[b].n == 0) {
            tb_match__line_push(&m->extra[b], mv);
            tb_match__normalize(m);
            tb_match__set_modes(m);
            return;
        }
        tb_match__line_push(&m->extra[b], mv);
        tb_match__raise(m, TB_MATCH_MM_WRONG_MOVE, b, mv, m->pending, o->square, o->square2, 0);
        return;
    }
    /* The opponent's reply, copied here: the copier's board may show it made before the
     * recogniser there could tell (a capture shows only as a piece missing for a while). */
    if (tb_match__reply_on_board(m, 1 - b) && m->lead != b) {
        on_move(m, b, o);
        return;
    }
    /* the board that just moved shows the opponent's reply too: two moves ahead */
    tb_match__line_push(&m->extra[b], mv);
    tb_match__raise(m, TB_MATCH_MM_TWO_AHEAD, b, mv, 0, o->square, o->square2, 0);
}

static void touch_report(tb_match *m, int b, const struct tb_sensor_out *o)
{
    char label[48], sq[3], sq2[3];
    struct tb_match_out *t = tb_match__emit(m, TB_MATCH_OUT_TOUCH_REPORT);
    tb_match__board_label(m, b, label, sizeof label);
    t->u.touch.board = b;
    /* the move was taken already: it is the board's last one */
    t->u.touch.ply = m->game.plies + m->extra[b].n;
    t->u.touch.problem = o->problem;
    t->u.touch.square = o->square;
    t->u.touch.square2 = o->square2;
    t->u.touch.move = o->move;
    tb_chess_square_name(o->square < 64 ? o->square : 0, sq);
    tb_chess_square_name(o->square2 < 64 ? o->square2 : 0, sq2);
    const char *what;
    switch (o->problem) {
    case TB_SENSOR_P_TOUCH_MOVE:
        what = "touch-move (4.3.1): the first touched own piece, on";
        break;
    case TB_SENSOR_P_TOUCHED_NOT_CAPTURED:
        what = "touched but not captured (4.3.2): the touched opponent piece, on";
        break;
    default:
        what = "rook released first (4.4.2, 4.7): a rook move, not castling; rook from";
        break;
    }
    t->u.touch.text[0] = '\0';
    tb_match__appendf(t->u.touch.text, sizeof t->u.touch.text, "%s: ply %d: %s %s, %s %s", label,
                      t->u.touch.ply, what, sq,
                      o->problem == TB_SENSOR_P_ROOK_FIRST_CASTLING ? "to" : "but moved",
                      o->problem == TB_SENSOR_P_ROOK_FIRST_CASTLING ? sq2 : o->uci);
    tb_match__appendf(t->u.touch.text, sizeof t->u.touch.text,
                      "; reported for the opponent to claim (4.8), not enforced");
}

/* Occupancy after mv in pos, and the square of the piece it captures (NOSQ if none). */
static uint64_t move_post(const tb_chess_pos *pos, tb_chess_move mv, int *capture_sq)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    uint64_t post = tb_chess_occupancy(pos) & ~TB_CHESS_BIT(ms.from);
    if (ms.capture_sq != TB_CHESS_NOSQ)
        post &= ~TB_CHESS_BIT(ms.capture_sq);
    if (ms.rook_from != TB_CHESS_NOSQ)
        post &= ~TB_CHESS_BIT(ms.rook_from);
    post |= TB_CHESS_BIT(ms.to);
    if (ms.rook_to != TB_CHESS_NOSQ)
        post |= TB_CHESS_BIT(ms.rook_to);
    *capture_sq = ms.capture_sq;
    return post;
}

/* D.2.3: the board shows a capture whose victim still stands (the piece placed, the captured
 * piece not removed). Returns the move, or 0. Only a capture whose victim stands on another
 * square than the one the capturing piece goes to (en passant) can show this: in any other
 * capture the victim's square is the destination, so "victim standing, capturing piece off its
 * square" is the capturing piece still in the hand, a move in progress (D.2.2), not made. */
static tb_chess_move incomplete_capture(const tb_match *m, int b)
{
    tb_chess_pos pos;
    tb_chess_movelist list;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    tb_match__board_pos(m, b, &pos);
    if (occ == tb_chess_occupancy(&pos))
        return 0;
    bool replicating = m->lead >= 0 && b != m->lead && (m->extra[b].n == 0 || m->copy_due[b]);
    if (replicating) {
        list.count = 1;
        list.moves[0] = m->pending;
    } else if (pos.side == owner(m, b)) {
        tb_chess_gen_legal(&pos, &list);
    } else {
        return 0;
    }
    for (int i = 0; i < list.count; i++) {
        int cap;
        uint64_t post = move_post(&pos, list.moves[i], &cap);
        if (cap != TB_CHESS_NOSQ && cap != tb_chess_move_to(list.moves[i]) &&
            occ == (post | TB_CHESS_BIT(cap)))
            return list.moves[i];
    }
    return 0;
}

static void raise_incomplete(tb_match *m, int b, tb_chess_move mv)
{
    tb_chess_pos pos;
    struct tb_chess_move_squares ms;
    tb_match__board_pos(m, b, &pos);
    tb_chess_move_squares(&pos, mv, &ms);
    m->incomplete_at[b] = TB_MATCH_NOTIME;
    tb_match__raise(m, TB_MATCH_MM_INCOMPLETE, b, mv, 0, ms.capture_sq, ms.to, mv);
}

void tb_match__incomplete_check(tb_match *m, int b, uint64_t t)
{
    m->incomplete_at[b] = TB_MATCH_NOTIME;
    if (m->r.open)
        return;
    if (incomplete_capture(m, b))
        m->incomplete_at[b] = t + m->cfg.incomplete_ms;
}

/* 7.4: a board whose player has nothing to do shows something else than its position, for
 * lifted_report_ms: pieces displaced, whatever move they might look part of (a pawn knocked
 * onto the square an e.p. capture would fill is no capture on the board of the player not to
 * move). */
void tb_match__idle_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->idle_at[b] > m->now)
            continue;
        m->idle_at[b] = TB_MATCH_NOTIME;
        if (tb_match__out_of_place(m, b))
            tb_match__raise(m, TB_MATCH_MM_DISPLACED, b, 0, 0, TB_CHESS_NOSQ, TB_CHESS_NOSQ, 0);
    }
}

/* A board's occupancy changed: (re)start its D.2.3 watch. */
void tb_match__watch(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
        if (occ != m->seen_occ[b]) {
            m->seen_occ[b] = occ;
            tb_match__refresh_fix(m, b, false);
            tb_match__incomplete_check(m, b, m->now);
            if (m->remind_at != TB_MATCH_NOTIME && m->lead >= 0 && b != m->lead)
                m->remind_at = m->now + m->cfg.remind_ms; /* not standing still yet */
            if (m->copy_remind_at != TB_MATCH_NOTIME && m->lead >= 0 && b != m->lead)
                m->copy_remind_at = m->now + m->cfg.copy_remind_ms;
            if (m->recheck[b] && m->lead >= 0 && b != m->lead)
                copy_check(m);
            m->idle_at[b] = tb_match__out_of_place(m, b) ? m->now + m->cfg.sensor.lifted_report_ms
                                                         : TB_MATCH_NOTIME;
            /* a board no longer part way through a reply: the recogniser judges it anew */
            if (m->settle_at[b] != TB_MATCH_NOTIME)
                m->settle_at[b] = !tb_match__reply_on_board(m, b) && tb_match__reply_under_way(m, b)
                                      ? m->now + m->cfg.incomplete_ms
                                      : TB_MATCH_NOTIME;
        }
    }
}

/* The copier's board shows the position before the copy: their own position, or their own
 * move made first with the copy still due. */
static bool copy_awaited(const tb_match *m, int b)
{
    tb_chess_pos pos;
    if ((m->extra[b].n != 0 && !m->copy_due[b]) ||
        (m->copy_due[b] && m->extra[b].moves[0] != m->pending))
        return false;
    tb_match__board_pos(m, b, &pos);
    return tb_sensor_occupancy(m->sensor[b]) == tb_chess_occupancy(&pos);
}

/* A move has waited for its copy while the copier's board stood untouched for copy_remind_ms
 * (docs/guide-vi-player.md: "if you wait too long ... you hear what to do"): the copier hears
 * the move to copy again, and again after each further copy_remind_ms while nothing changes. A
 * board with pieces in the hand is being worked on: nothing is said, the wait starts again. */
void tb_match__copy_remind_due(tb_match *m)
{
    if (m->copy_remind_at > m->now)
        return;
    m->copy_remind_at = TB_MATCH_NOTIME;
    if (m->r.open || m->lead < 0 || !m->cfg.copy_remind_ms)
        return;
    int b = 1 - m->lead;
    if (copy_awaited(m, b))
        tb_match__announce_msg(m, b, TB_MATCH_MSG_REPLICATE);
    m->copy_remind_at = m->now + m->cfg.copy_remind_ms;
}

/* The reminder finish() put off: said only when the move still waits and the copier's board
 * has shown the position before it, untouched, for remind_ms. */
void tb_match__remind_due(tb_match *m)
{
    if (m->remind_at > m->now)
        return;
    m->remind_at = TB_MATCH_NOTIME;
    if (m->r.open || m->lead < 0 || m->pending != m->remind_move)
        return;
    int b = 1 - m->lead;
    if (copy_awaited(m, b)) {
        tb_match__announce_msg(m, b, TB_MATCH_MSG_REPLICATE);
        if (m->cfg.copy_remind_ms)
            m->copy_remind_at = m->now + m->cfg.copy_remind_ms;
    }
}

/* A problem on the copier's board put off while it might be their own reply under way: the
 * board has stood still since, so it is judged now (unless play stopped or moved on). */
void tb_match__settle_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->settle_at[b] > m->now)
            continue;
        m->settle_at[b] = TB_MATCH_NOTIME;
        if (m->r.open || m->lead < 0 || b == m->lead || tb_match__reply_on_board(m, b))
            continue;
        struct tb_sensor_out o = m->settled[b];
        act_on_problem(m, b, &o);
    }
}

/* A move copied early whose original has not come: the opponent's move on the board of the
 * player not to move after all. */
void tb_match__early_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->early_at[b] > m->now)
            continue;
        m->early_at[b] = TB_MATCH_NOTIME;
        if (m->r.open || m->lead >= 0 || m->extra[b].n != 1)
            continue;
        tb_chess_move mv = m->extra[b].moves[0];
        tb_match__raise(m, TB_MATCH_MM_OUT_OF_TURN, b, mv, 0, tb_chess_move_from(mv),
                        tb_chess_move_to(mv), 0);
    }
}

void tb_match__incomplete_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->incomplete_at[b] > m->now)
            continue;
        m->incomplete_at[b] = TB_MATCH_NOTIME;
        tb_chess_move mv = m->r.open ? 0 : incomplete_capture(m, b);
        if (mv)
            raise_incomplete(m, b, mv);
    }
}

/* Play is stopped and a board went wrong (again): its player hears what to change. */
static void still_wrong(tb_match *m, int b)
{
    struct tb_match_restore *r = &m->r;
    struct tb_match_fix fix;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    if (occ == r->occ_target[b] || (r->has_alt[b] && occ == r->occ_alt[b]))
        return;
    if (!r->is_mismatch && r->action != TB_MATCH_ARB_TAKEBACK)
        return; /* a board being set up: the announcement at the start said it all */
    tb_match__build_fix(m, b, &r->hist[b], &r->target[b], -1, -1, &fix);
    /* Pieces lifted since the last instruction (in the hand, or taken off as it asked) change
     * nothing it said: it is repeated only when a piece was put where it did not ask. */
    if (r->said[b] && !(fix.lift & ~r->said_lift[b]) && !(r->said_fill[b] & ~fix.fill))
        return;
    if (fix.nlift || fix.nplace)
        tb_match__announce_fix(m, b, &fix, r->id);
}

static void on_problem(tb_match *m, int b, const struct tb_sensor_out *o)
{
    if (o->problem == TB_SENSOR_P_PROMOTION_WAITING) {
        /* 4.6, D.2.1: the promotion is not complete until its piece is known: ask the player */
        if (!m->r.open)
            tb_match__announce_msg(m, b, TB_MATCH_MSG_PROMOTION_ASK);
        return;
    }
    if (m->r.open) {
        /* play is stopped: only the occupancy counts until the boards are right */
        if (o->problem != TB_SENSOR_P_TOUCH_MOVE &&
            o->problem != TB_SENSOR_P_TOUCHED_NOT_CAPTURED &&
            o->problem != TB_SENSOR_P_PROMOTION_NO_CHOICE)
            still_wrong(m, b);
        return;
    }
    bool behind = m->lead >= 0 && b != m->lead;
    if (behind && o->problem != TB_SENSOR_P_TOUCH_MOVE &&
        o->problem != TB_SENSOR_P_TOUCHED_NOT_CAPTURED) {
        m->settle_at[b] = TB_MATCH_NOTIME;
        if (tb_match__reply_on_board(m, b))
            return;
        if (tb_match__reply_under_way(m, b)) {
            /* the copier may be making their own reply first: judged once the board has stood
             * still for incomplete_ms (tb_match__settle_due) */
            m->settled[b] = *o;
            m->settle_at[b] = m->now + m->cfg.incomplete_ms;
            return;
        }
    }
    act_on_problem(m, b, o);
}

static void act_on_problem(tb_match *m, int b, const struct tb_sensor_out *o)
{
    bool behind = m->lead >= 0 && b != m->lead;
    switch (o->problem) {
    case TB_SENSOR_P_TOUCH_MOVE:
    case TB_SENSOR_P_TOUCHED_NOT_CAPTURED:
        if (o->square < 64 && (m->swap_live[b] & TB_CHESS_BIT(o->square)))
            break; /* a piece swapped as the put-right asked: no touch */
        touch_report(m, b, o);
        break;
    case TB_SENSOR_P_ROOK_FIRST_CASTLING:
        /* 4.4.2, 4.7: the rook released first made it a rook move; the king that followed
         * stands where no move puts it */
        touch_report(m, b, o);
        tb_match__raise(m, TB_MATCH_MM_ILLEGAL, b, 0, 0, TB_CHESS_NOSQ, TB_CHESS_NOSQ, 0);
        break;
    case TB_SENSOR_P_ILLEGAL:
        tb_match__raise(m, TB_MATCH_MM_ILLEGAL, b, 0, 0, o->square, o->square2, 0);
        break;
    case TB_SENSOR_P_DISPLACED: {
        if (incomplete_capture(m, b)) {
            /* D.2.3: reported once the board has stood still for incomplete_ms (the watch's
             * timer), not at once: the player may be taking the piece off right now */
            if (m->incomplete_at[b] == TB_MATCH_NOTIME)
                tb_match__incomplete_check(m, b, m->now);
        } else if (!o->clear && move_expected(m, b, m->pending))
            break; /* D.2.2: a piece in the hand of the player to move (or to copy) while they
                      think: whatever they do with it next is judged then */
        else
            tb_match__raise(m, TB_MATCH_MM_DISPLACED, b, 0, 0, TB_CHESS_NOSQ, TB_CHESS_NOSQ, 0);
        break;
    }
    case TB_SENSOR_P_SAME_SIDE_TWICE:
        /* the side that is not to move on this board moved. Its own player, not to move,
         * makes no move (1.2): a piece of theirs taken to another square is displaced (7.4),
         * knocked or pushed, whatever move it looks like */
        if (m->lead < 0 && board_side(m, b) != owner(m, b))
            tb_match__raise(m, TB_MATCH_MM_DISPLACED, b, 0, 0, o->square, o->square2, 0);
        else if (m->lead < 0)
            tb_match__raise(m, TB_MATCH_MM_ILLEGAL, b, o->move, 0, o->square, o->square2, 0);
        else
            tb_match__raise(m, TB_MATCH_MM_TWO_AHEAD, b, o->move, behind ? m->pending : 0,
                            o->square, o->square2, 0);
        break;
    case TB_SENSOR_P_WRONG_MOVE:
        tb_match__raise(m, TB_MATCH_MM_WRONG_MOVE, b, o->move, o->expected, o->square, o->square2,
                        0);
        break;
    default: /* PROMOTION_NO_CHOICE: the move carries the flag (7.5.2) */
        break;
    }
}

void tb_match__drain(tb_match *m)
{
    struct tb_sensor_out o;
    bool any = true;
    while (any) {
        any = false;
        for (int b = 0; b < TB_MATCH_BOARDS; b++) {
            while (tb_sensor_poll(m->sensor[b], &o)) {
                any = true;
                if (o.kind == TB_SENSOR_OUT_MOVE) {
                    m->promoted[b] = (uint8_t)tb_chess_move_promo(o.move);
                    m->swap_live[b] = m->swap_sq[b]; /* for the reports that follow the move */
                    m->swap_sq[b] = 0;
                    tb_match__events_read(m, b);
                    m->recheck[b] = false;
                    on_move(m, b, &o);
                } else if (o.kind == TB_SENSOR_OUT_PROBLEM)
                    on_problem(m, b, &o);
            }
        }
    }
}

int tb_match__typed_move_at(tb_match *m, int b, tb_chess_move mv)
{
    tb_chess_pos pos;
    tb_chess_undo undo;
    struct tb_sensor_out o;
    memset(&o, 0, sizeof o);
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &pos);
    o.kind = TB_SENSOR_OUT_MOVE;
    o.move = mv;
    o.ms = o.event_ms = m->now;
    o.square = (uint8_t)tb_chess_move_from(mv);
    o.square2 = (uint8_t)tb_chess_move_to(mv);
    if (tb_chess_move_to_uci(&pos, mv, o.uci, sizeof o.uci) < 0)
        o.uci[0] = '\0';
    if (m->lead >= 0 && b != m->lead && mv == m->pending)
        o.flags = TB_SENSOR_MF_REPLICATED;
    /* the board shows the move: its recogniser stands where its scoresheet will */
    tb_chess_make(&pos, mv, &undo);
    tb_sensor_reset(m->sensor[b], &pos, m->now);
    m->seen_occ[b] = tb_chess_occupancy(&pos);
    on_move(m, b, &o);
    return TB_OK;
}
