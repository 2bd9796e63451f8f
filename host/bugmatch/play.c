/* play.c - moves made and completed, pieces passed to the partner, and the end of the games
 * (article 5), in the order the record keeps them. */
#include <string.h>

#include "bugmatch_internal.h"

static struct tb_bug_other other_of(const tb_bugmatch *m, int b)
{
    return (struct tb_bug_other){&m->rec->cur[b ^ 1], m->game[b ^ 1].ended};
}

void tb_bugmatch__live_pool(const tb_bugmatch *m, int b, int color, uint8_t pool[6])
{
    const struct tb_bugmatch__game *g = &m->game[b];
    memcpy(pool, m->rec->cur[b].pool[color], 6);
    /* a drop made and not yet completed has left the hand */
    if (g->pending && tb_bug_move_is_drop(g->pend_move) && m->rec->cur[b].chess.side == color)
        pool[tb_bug_move_drop_type(g->pend_move)]--;
}

/* The recognisers hold what the players hold. */
void tb_bugmatch__sync_hands(tb_bugmatch *m)
{
    uint8_t pool[6];
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++)
        for (int c = 0; m->game[b].sensor && c < 2; c++) {
            tb_bugmatch__live_pool(m, b, c, pool);
            (void)tb_sensor_set_hand(m->game[b].sensor, c, pool, m->now);
        }
}

/* Who hears the moves of board b: the opponent (D.2.1), and the players of the other board
 * who asked to. */
static uint8_t move_hearers(const tb_bugmatch *m, int b, int mover)
{
    uint8_t hear = (uint8_t)(1u << tb_bugmatch__seat(b, mover ^ 1));
    for (int c = 0; c < 2; c++)
        if (m->cfg.hear_other_board[tb_bugmatch__seat(b ^ 1, c)])
            hear |= (uint8_t)(1u << tb_bugmatch__seat(b ^ 1, c));
    return hear;
}

void tb_bugmatch__judge(tb_bugmatch *m, int b, uint64_t t)
{
    if (m->game[b].ended)
        return;
    struct tb_bug_other other = other_of(m, b);
    struct tb_bug_verdict v;
    tb_bug_judge_position(&m->rec->cur[b], &other, &v);
    if (v.result != TB_BUG_ONGOING)
        tb_bugmatch__end(m, b, &v, t);
}

void tb_bugmatch__made(tb_bugmatch *m, int b, tb_bug_move move, uint64_t t)
{
    struct tb_bugmatch__game *g = &m->game[b];
    if (g->ended)
        return;
    tb_bugmatch__complete(m, b, t); /* the opponent moved: the move before is complete */
    tb_bug_pos *pos = &m->rec->cur[b];
    if (g->ended || !tb_bug_is_legal(pos, move) || tb_bugmatch__irr_made(m, b, move, t))
        return; /* article 7 refused it (7.7) */
    int side = pos->chess.side, seat = tb_bugmatch__seat(b, side);
    struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_MOVE, b, seat, t);
    o->hear = move_hearers(m, b, side);
    o->move = move;
    o->before = pos->chess;
    (void)tb_bug_move_to_san(pos, move, TB_CHESS_LETTERS_EN, o->san, sizeof o->san);
    tb_bug_pos after = *pos;
    tb_bug_undo undo;
    tb_bug_make(&after, move, &undo);
    if (tb_bug_in_check(&after))
        o->check = tb_bug_pos_state(&after) == TB_BUG_POS_CHECKMATE ? 2 : 1;
    g->pending = true;
    g->pend_move = move;
    g->selected = 0;
    /* the move before, completed above, gave the hands back without this drop's piece */
    tb_bugmatch__sync_hands(m);
    /* 6.2.1: the move that ends the game is complete without a press */
    struct tb_bug_other other = other_of(m, b);
    struct tb_bug_verdict v;
    tb_bug_judge_position(&after, &other, &v);
    if (m->cfg.auto_press || v.result != TB_BUG_ONGOING)
        tb_bugmatch__complete(m, b, t);
}

void tb_bugmatch__complete(tb_bugmatch *m, int b, uint64_t t)
{
    struct tb_bugmatch__game *g = &m->game[b];
    if (!g->pending || g->ended)
        return;
    g->pending = false;
    tb_bug_pos *pos = &m->rec->cur[b];
    int side = pos->chess.side;
    tb_clock *clock = &g->clock;
    if (clock->state == TB_CLOCK_RUNNING && clock->turn == side)
        (void)tb_clock_press(clock, side, t); /* 6.2.1, D.2.4 */
    int32_t left = m->started ? (int32_t)tb_clock_remaining(clock, side, t) : -1;
    uint8_t before[2][6];
    memcpy(before, m->rec->cur[b ^ 1].pool, sizeof before);
    if (tb_bug_record_push(m->rec, b, g->pend_move, left) != TB_OK)
        return; /* the record is full: the move stays out of it */
    struct tb_bugmatch_out *o =
        tb_bugmatch__emit(m, TB_BUGMATCH_OUT_PLY, b, tb_bugmatch__seat(b, side), t);
    o->move = g->pend_move;
    o->ply = m->rec->nplies - 1;
    o->clock_ms = left;
    tb_bugmatch__passed(m, b, before, true, t);
}

void tb_bugmatch__passed(tb_bugmatch *m, int b, const uint8_t before[2][6], bool judge_board,
                         uint64_t t)
{
    /* 2.1, 1.4: a piece taken goes, in its colour, to the partner on the other board */
    bool passed = false;
    for (int c = 0; c < 2; c++)
        for (int k = TB_CHESS_PAWN; k <= TB_CHESS_QUEEN; k++) {
            if (m->rec->cur[b ^ 1].pool[c][k] <= before[c][k])
                continue;
            int seat = tb_bugmatch__seat(b ^ 1, c);
            struct tb_bugmatch_out *o =
                tb_bugmatch__emit(m, TB_BUGMATCH_OUT_RECEIVED, b ^ 1, seat, t);
            o->hear = (uint8_t)(1u << seat);
            o->piece = (uint8_t)k;
            passed = true;
        }
    tb_bugmatch__sync_hands(m);
    /* article 5 after the move, then the other board when this game ended or its hand grew */
    if (judge_board)
        tb_bugmatch__judge(m, b, t);
    if (m->game[b].ended || passed)
        tb_bugmatch__judge(m, b ^ 1, t);
}

void tb_bugmatch__end(tb_bugmatch *m, int b, const struct tb_bug_verdict *v, uint64_t t)
{
    struct tb_bugmatch__game *g = &m->game[b];
    if (g->ended)
        return;
    g->ended = true;
    g->pending = false;
    m->rec->verdict[b] = *v;
    m->rec->end_ms[b] = (int64_t)t;
    if (g->clock.state == TB_CLOCK_RUNNING || g->clock.state == TB_CLOCK_PAUSED)
        (void)tb_clock_stop(&g->clock, t);
    struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_RESULT, b, -1, t);
    o->hear = 0xF; /* everyone: 9.1 ends the partners' silence too */
    o->result = *v;
    /* 5.3: a stalemate or dead position on the other board is a draw now */
    tb_bugmatch__judge(m, b ^ 1, t);
}

void tb_bugmatch__flag(tb_bugmatch *m, int b, uint64_t t)
{
    struct tb_bugmatch__game *g = &m->game[b];
    if (g->ended)
        return;
    bool flag[2] = {g->clock.side[0].flagged, g->clock.side[1].flagged};
    for (int c = 0; c < 2; c++) {
        if (!flag[c])
            continue;
        int seat = tb_bugmatch__seat(b, c);
        struct tb_bugmatch_out *o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_FLAG, b, seat, t);
        o->hear = (uint8_t)(3u << (2 * b));
    }
    struct tb_bug_other other = other_of(m, b);
    struct tb_bug_verdict v;
    tb_bug_judge_flags(&m->rec->cur[b], flag, &other, &v); /* 5.4, 5.6 */
    tb_bugmatch__end(m, b, &v, t);
}

void tb_bugmatch__sensor_out(tb_bugmatch *m, int b, const struct tb_sensor_out *s)
{
    struct tb_bugmatch__game *g = &m->game[b];
    int side = tb_sensor_position(g->sensor)->side, seat = tb_bugmatch__seat(b, side);
    struct tb_bugmatch_out *o;
    if (tb_bugmatch__irr_sensor_out(m, b, s))
        return; /* article 7: a board being put back */
    if (s->kind == TB_SENSOR_OUT_MOVE) {
        if (g->dgt)
            tb_bugmatch__dgt_moved(m, b, s->move);
        tb_bugmatch__made(m, b, s->move, s->ms);
        return;
    }
    if (s->kind == TB_SENSOR_OUT_PROBLEM &&
        (s->problem == TB_SENSOR_P_DROP_WAITING || s->problem == TB_SENSOR_P_PROMOTION_WAITING)) {
        unsigned kinds;
        tb_sensor_waiting(g->sensor, NULL, &kinds);
        o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_CHOOSE, b, seat, s->ms);
        o->hear = (uint8_t)(1u << seat);
        o->square = s->square;
        o->kinds = (uint8_t)kinds;
        return;
    }
    if (s->kind == TB_SENSOR_OUT_PROBLEM && s->problem == TB_SENSOR_P_ILLEGAL_DROP) {
        o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_ILLEGAL_DROP, b, seat, s->ms);
        o->hear = (uint8_t)(1u << seat);
        o->square = s->square;
        o->piece = s->piece;
        o->kinds = s->kinds;
        o->verdict = (enum tb_bug_drop_verdict)s->reason;
        o->article = s->article ? s->article : "";
        return;
    }
    o = tb_bugmatch__emit(m, TB_BUGMATCH_OUT_BOARD, b, seat, s->ms);
    o->sensor = *s;
}
