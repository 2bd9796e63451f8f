/* judge.c - what a flag fall means (6.9): the player loses, unless the opponent cannot
 * checkmate the player's king by any possible series of legal moves; then it is a draw. */
#include <string.h>

#include "tb_clock.h"

int tb_clock_judge_flag(const tb_chess_pos *pos, int side, struct tb_clock_judgement *out)
{
    if (!pos || !out || (side != TB_CHESS_WHITE && side != TB_CHESS_BLACK))
        return TB_ERR_ARG;
    static const char *const win[2] = {"0-1", "1-0"}; /* by the side whose flag fell */
    *out = (struct tb_clock_judgement){0};
    switch (tb_chess_pos_state(pos)) {
    case TB_CHESS_CHECKMATE:
        out->verdict = TB_CLOCK_ENDED;
        out->why = "5.1.1: the game had already ended in checkmate; the flag does not count";
        return TB_OK;
    case TB_CHESS_STALEMATE:
        out->verdict = TB_CLOCK_ENDED;
        out->why = "5.2.1: the game had already ended in stalemate; the flag does not count";
        return TB_OK;
    case TB_CHESS_DEAD:
        out->verdict = TB_CLOCK_DRAW;
        memcpy(out->result, "1/2-1/2", 8);
        out->why = "5.2.2: the position is dead (no series of legal moves can mate): draw";
        return TB_OK;
    default:
        break;
    }
    if (!tb_chess_can_mate(pos, side ^ 1)) {
        out->verdict = TB_CLOCK_DRAW;
        memcpy(out->result, "1/2-1/2", 8);
        out->why = "6.9: the flag fell, but the opponent cannot mate by any series of legal "
                   "moves: draw";
        return TB_OK;
    }
    out->verdict = TB_CLOCK_LOSS;
    memcpy(out->result, win[side], 4);
    out->why = "6.9: the flag fell and the opponent can still mate: the game is lost";
    return TB_OK;
}
