/* reading.c - a whole-board reading (a snapshot: the board was not watched for a while, after a
 * restart or a link lost and back) that the recogniser cannot read as a move: what the board's
 * events did not show. A capture leaves only its origin empty on the switches, as a piece in the
 * hand does; once the board has stood so for settle_ms, the one move of the board's player that
 * leaves it so is taken as made, and anything else is raised as displaced (7.4, D.2.9). */
#include "match_internal.h"

/* What the board's player may have done unwatched: their move in turn, or the copy. */
static int candidates(const tb_match *m, int b, uint64_t occ, tb_chess_move *found)
{
    tb_chess_pos pos;
    tb_match__board_pos(m, b, &pos);
    if (m->copy_due[b] || m->extra[b].n != 0)
        return 0;
    if (m->lead >= 0) { /* the copier: the move to copy, nothing else */
        tb_chess_undo u;
        if (b == m->lead || !tb_chess_is_legal(&pos, m->pending))
            return 0;
        tb_chess_make(&pos, m->pending, &u);
        *found = m->pending;
        return tb_chess_occupancy(&pos) == occ;
    }
    if (pos.side != m->cfg.board[b].color)
        return 0;
    tb_chess_movelist list;
    tb_chess_gen_legal(&pos, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        tb_chess_undo u;
        tb_chess_make(&pos, list.moves[i], &u);
        if (tb_chess_occupancy(&pos) == occ && n++ == 0)
            *found = list.moves[i];
        tb_chess_unmake(&pos, list.moves[i], &u);
    }
    return n;
}

void tb_match__reading(tb_match *m, int b)
{
    tb_chess_pos pos;
    tb_match__board_pos(m, b, &pos);
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    m->read_occ[b] = occ;
    m->read_at[b] = occ == tb_chess_occupancy(&pos) || m->cfg.board[b].typed
                        ? TB_MATCH_NOTIME
                        : m->now + m->cfg.sensor.settle_ms;
}

void tb_match__reading_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->read_at[b] > m->now)
            continue;
        m->read_at[b] = TB_MATCH_NOTIME;
        tb_chess_pos pos;
        tb_match__board_pos(m, b, &pos);
        uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
        /* the board changed since (its events tell), or its reading was read, or play stopped */
        if (occ != m->read_occ[b] || occ == tb_chess_occupancy(&pos) || m->r.open)
            continue;
        tb_chess_move mv = 0;
        if (candidates(m, b, occ, &mv) == 1) {
            tb_match__typed_move_at(m, b, mv);
            tb_match__drain(m);
        } else {
            tb_match__raise(m, TB_MATCH_MM_DISPLACED, b, 0, 0, TB_CHESS_NOSQ, TB_CHESS_NOSQ, 0);
        }
    }
}
