/* reply.c - the copier's own reply made before the copy, read from the board as it stands
 * (D.2.9: both are moves of the game the scoresheets describe), and pieces standing where
 * nobody may put them (7.4). The recogniser of a copying board reads only the move to copy;
 * what the copier does besides is read here from the occupancy and the board's events. */
#include "match_internal.h"

#include <stdio.h>
#include <string.h>

/* A capture shows on the switches only as its piece leaving: it is made once the square taken
 * on has been lifted and filled again since the board's last move (another capture by that
 * piece looks alike, and so does the piece still in the hand). */
bool tb_match__capture_seen(const tb_match *m, int b, const tb_chess_pos *pos, tb_chess_move mv)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    return ms.capture_sq != ms.to ||
           (m->lifted_since[b] & m->placed_since[b] & TB_CHESS_BIT(ms.to));
}

/* The squares a move empties or fills. */
static uint64_t move_set(const tb_chess_pos *pos, tb_chess_move mv)
{
    struct tb_chess_move_squares ms;
    uint64_t set = 0;
    tb_chess_move_squares(pos, mv, &ms);
    const uint8_t sq[] = {ms.from, ms.to, ms.capture_sq, ms.rook_from, ms.rook_to};
    for (size_t i = 0; i < sizeof sq; i++)
        if (sq[i] < 64)
            set |= TB_CHESS_BIT(sq[i]);
    return set;
}

/* A FEN with the other side to move and no e.p. square; false if it has no side field. */
static bool swap_side(char *fen)
{
    char *side = strchr(fen, ' ');
    if (!side || (side[1] != 'w' && side[1] != 'b') || side[2] != ' ')
        return false;
    side[1] = side[1] == 'w' ? 'b' : 'w';
    char *ep = strchr(side + 3, ' ');
    if (!ep || !ep[1])
        return false;
    char *end = strchr(ep + 1, ' ');
    char rest[64] = "";
    if (end)
        snprintf(rest, sizeof rest, "%s", end);
    snprintf(ep, 4 + strlen(rest), " -%s", rest);
    return true;
}

/* The copier made their own reply before copying the announced move: the board shows the
 * position before the announced move with the reply made. Both are moves of the game the two
 * scoresheets describe (the copier heard the one and made the other), so nothing is reported:
 * the copy is still due, and once made both count (D.2.9 puts right towards that game).
 * Accepted when the reply is legal after the announced move, shares no square with it (else the
 * board could not show it before the copy) and the copy can be read from there. */
static bool own_first(tb_match *m, int b, tb_chess_move reply)
{
    tb_chess_pos after, x;
    tb_chess_undo undo;
    struct tb_error err;
    char fen[128];
    if (m->lead < 0 || b == m->lead || m->extra[b].n != 0 || m->copy_due[b] ||
        m->cfg.board[b].typed)
        return false;
    after = m->game.pos;
    tb_chess_make(&after, m->pending, &undo);
    if (after.side != m->cfg.board[b].color || !tb_chess_is_legal(&after, reply) ||
        (move_set(&m->game.pos, m->pending) & move_set(&after, reply)))
        return false;
    /* the position before the copy with the copier to move */
    if (tb_chess_pos_to_fen(&m->game.pos, fen, sizeof fen) < 0 || !swap_side(fen) ||
        tb_chess_pos_from_fen(&x, fen, m->game.pos.chess960 ? TB_CHESS_FEN_960 : 0, &err) < 0 ||
        !tb_chess_is_legal(&x, reply))
        return false;
    tb_chess_make(&x, reply, &undo);
    if (!tb_chess_is_legal(&x, m->pending) ||
        tb_sensor_occupancy(m->sensor[b]) != tb_chess_occupancy(&x))
        return false;
    m->copy_due[b] = true;
    m->due_pos[b] = x;
    tb_match__events_read(m, b);
    m->extra[b].n = 0;
    tb_match__line_push(&m->extra[b], m->pending);
    tb_match__line_push(&m->extra[b], reply);
    tb_sensor_set_position(m->sensor[b], &x, m->now);
    tb_match__set_modes(m);
    return true;
}

/* The copier's replies to the move they are to copy, when the copier's board is one whose own
 * reply may come first: the position after the move, its legal moves, the move's squares. */
static bool copier_replies(const tb_match *m, int b, tb_chess_pos *after, tb_chess_movelist *list,
                           uint64_t *copy)
{
    tb_chess_undo undo;
    if (m->lead < 0 || b == m->lead || m->extra[b].n != 0 || m->copy_due[b] ||
        m->cfg.board[b].typed)
        return false;
    *after = m->game.pos;
    tb_chess_make(after, m->pending, &undo);
    *copy = move_set(&m->game.pos, m->pending);
    tb_chess_gen_legal(after, list);
    return true;
}

/* The copier's board, as it stands, shows their own reply made and the announced move copied
 * too, or the reply made and the copy still due: whatever order the pieces were handled in
 * (a capture's pieces may come off in any order, so the recogniser may have seen something
 * else on the way), both are the game's moves. True when taken so. */
bool tb_match__reply_on_board(tb_match *m, int b)
{
    tb_chess_pos after, both;
    tb_chess_movelist list;
    tb_chess_undo undo;
    uint64_t copy;
    if (!copier_replies(m, b, &after, &list, &copy))
        return false;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]), before = tb_chess_occupancy(&m->game.pos);
    tb_chess_move found = 0;
    bool made_both = false;
    for (int i = 0; i < list.count; i++) {
        tb_chess_move r = list.moves[i];
        struct tb_chess_move_squares ms;
        tb_chess_move_squares(&after, r, &ms);
        if (copy & move_set(&after, r))
            continue;
        both = after;
        tb_chess_make(&both, r, &undo);
        /* the reply's change of occupancy, on the board before the copy */
        uint64_t change = tb_chess_occupancy(&after) ^ tb_chess_occupancy(&both);
        bool first = occ == (before ^ change),
             all = occ == tb_chess_occupancy(&both) &&
                   tb_match__capture_seen(m, b, &m->game.pos, m->pending);
        if ((!first && !all) || !tb_match__capture_seen(m, b, &after, r))
            continue;
        if (found && (tb_chess_move_from(found) != ms.from || tb_chess_move_to(found) != ms.to))
            return false; /* two readings: nothing is guessed, the problem stands */
        /* a promotion: the piece chosen or placed, else a queen (7.5.2) */
        int want = m->choice_since[b]        ? m->choice_since[b]
                   : m->place_code[b][ms.to] ? TB_CHESS_PIECE_TYPE(m->place_code[b][ms.to])
                                             : TB_CHESS_QUEEN;
        if (ms.promo && ms.promo != want)
            continue;
        if (!found) {
            found = r;
            made_both = all;
        }
    }
    if (!found)
        return false;
    if (!made_both)
        return own_first(m, b, found);
    tb_match__line_push(&m->extra[b], m->pending);
    tb_match__line_push(&m->extra[b], found);
    tb_match__events_read(m, b);
    tb_match__normalize(m);
    tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &both);
    tb_sensor_set_position(m->sensor[b], &both, m->now);
    tb_match__set_modes(m);
    return true;
}

/* Squares a move fills, each with the square its piece comes from. */
static bool arrivals_explained(const tb_chess_pos *pos, tb_chess_move mv, uint64_t *added,
                               uint64_t removed)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, mv, &ms);
    const uint8_t from[] = {ms.from, ms.rook_from}, to[] = {ms.to, ms.rook_to};
    for (int i = 0; i < 2; i++) {
        if (to[i] >= 64 || !(*added & TB_CHESS_BIT(to[i])))
            continue;
        /* a piece arrived whose square of departure is still filled: none can, but the new
         * piece of a promotion, put down before the pawn leaves (4.6) */
        if (!(removed & TB_CHESS_BIT(from[i])) && from[i] != to[i] && !(i == 0 && ms.promo))
            return false;
        *added &= ~TB_CHESS_BIT(to[i]);
    }
    return true;
}

/* The copier's board differs from the position before the copy only on the squares of the
 * announced move and of one legal reply, each piece that arrived having left its square: it
 * may be part way through the reply, made first. A board that shows another complete move, or
 * a piece where neither move puts it, is not. */
bool tb_match__reply_under_way(const tb_match *m, int b)
{
    tb_chess_pos after;
    tb_chess_movelist list;
    uint64_t copy;
    if (!copier_replies(m, b, &after, &list, &copy))
        return false;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]), before = tb_chess_occupancy(&m->game.pos);
    uint64_t diff = occ ^ before, removed = before & ~occ;
    for (int i = 0; i < list.count; i++) {
        uint64_t reply = move_set(&after, list.moves[i]), added = occ & ~before;
        if ((copy & reply) || (diff & ~(copy | reply)) || !(diff & reply & ~copy))
            continue;
        if (arrivals_explained(&m->game.pos, m->pending, &added, removed) &&
            arrivals_explained(&after, list.moves[i], &added, removed) && !added)
            return true;
    }
    return false;
}

/* The board's player has nothing to do now: not to move, or their move waits for its copy. */
static bool board_idle(const tb_match *m, int b)
{
    if (m->copy_due[b] || m->cfg.board[b].typed)
        return false;
    if (m->lead >= 0)
        return b == m->lead;
    return m->extra[b].n == 0 && m->game.pos.side != m->cfg.board[b].color;
}

static uint64_t idle_occ(const tb_match *m, int b)
{
    tb_chess_pos pos;
    tb_match__board_pos(m, b, &pos);
    return tb_chess_occupancy(&pos);
}

/* 7.4: a piece stands on the copier's board where neither the move to copy nor a reply of
 * their own puts it (the recogniser, reading only the move to copy and the moves that look
 * like it under way, may wait for the rest of a move nobody is making). */
static bool stray_on_copier(const tb_match *m, int b)
{
    if (m->lead < 0 || b == m->lead || m->extra[b].n != 0 || m->copy_due[b] ||
        m->cfg.board[b].typed)
        return false;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]), before = tb_chess_occupancy(&m->game.pos);
    uint64_t added = occ & ~before;
    if (!added)
        return false;
    if (arrivals_explained(&m->game.pos, m->pending, &added, before & ~occ) && !added)
        return false;
    return !tb_match__reply_under_way(m, b);
}

/* A board shows what no one may be doing on it now: reported after lifted_report_ms. */
bool tb_match__out_of_place(const tb_match *m, int b)
{
    if (m->r.open)
        return false;
    return (board_idle(m, b) && tb_sensor_occupancy(m->sensor[b]) != idle_occ(m, b)) ||
           stray_on_copier(m, b);
}
