/* recover.c - the game set from the agreed moves alone (recovery after a damaged journal). */
#include "match_internal.h"

#include <string.h>

int tb_match_set_game(tb_match *m, const tb_chess_move *moves, int n, uint64_t now_ms,
                      struct tb_error *err)
{
    if (!m || n < 0 || (n > 0 && !moves) || n > TB_CHESS_GAME_MAX_PLIES)
        return tb_error_set(err, TB_ERR_ARG, "no moves");
    if (now_ms < m->now)
        return tb_error_set(err, TB_ERR_STATE, "time went back");
    tb_chess_pos pos = m->game.start;
    for (int i = 0; i < n; i++) { /* all legal from the start, or nothing changes */
        tb_chess_undo u;
        if (!tb_chess_is_legal(&pos, moves[i]))
            return tb_error_set(err, TB_ERR_ILLEGAL, "ply %d is not a legal move there", i + 1);
        tb_chess_make(&pos, moves[i], &u);
    }
    tb_chess_pos start = m->game.start;
    tb_chess_game_init(&m->game, &start);
    for (int i = 0; i < n; i++)
        tb_chess_game_push(&m->game, moves[i]);
    /* Nothing open, nothing waiting: both boards agreed every one of these moves. A restoration
     * or mismatch of the lost part ends without an output (nothing was resolved). */
    uint32_t next_id = m->next_id;
    memset(&m->r, 0, sizeof m->r);
    m->next_id = next_id;
    m->now = now_ms;
    m->lead = -1;
    m->pending = 0;
    m->pending_flags = 0;
    m->told = 0;
    m->told_ply = 0;
    m->remind_at = m->copy_remind_at = TB_MATCH_NOTIME;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        m->extra[b].n = 0;
        m->copy_due[b] = false;
        m->incomplete_at[b] = m->settle_at[b] = m->idle_at[b] = m->early_at[b] = TB_MATCH_NOTIME;
        m->recheck[b] = false;
        m->read_at[b] = TB_MATCH_NOTIME;
        m->swap_sq[b] = m->swap_live[b] = 0;
        memset(m->place_code[b], 0, sizeof m->place_code[b]);
        tb_match__events_read(m, b);
        tb_sensor_reset(m->sensor[b], &m->game.pos, now_ms);
        m->seen_occ[b] = tb_sensor_occupancy(m->sensor[b]);
    }
    tb_match__set_modes(m);
    tb_match__sync_state(m);
    return TB_OK;
}
