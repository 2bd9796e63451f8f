/* rules.c - doorgeefschaak's drops for a move recogniser: the recogniser knows the chess
 * position and the hands; tb_bug knows the rules (2.2-2.5, FIDE 3.9 by 1.5). */
#include <string.h>

#include "bugmatch_internal.h"

static void as_bug(const tb_chess_pos *pos, const uint8_t hand[6], tb_bug_pos *out)
{
    memset(out, 0, sizeof *out);
    out->chess = *pos;
    memcpy(out->pool[pos->side], hand, sizeof out->pool[0]);
}

static void legal(const tb_chess_pos *pos, const uint8_t hand[6], uint8_t kinds[64])
{
    tb_bug_pos b;
    tb_bug_movelist list;
    as_bug(pos, hand, &b);
    int n = tb_bug_gen_drops(&b, &list);
    for (int i = 0; i < n; i++)
        kinds[tb_chess_move_to(list.moves[i])] |=
            (uint8_t)(1u << tb_bug_move_drop_type(list.moves[i]));
}

static int refuse(const tb_chess_pos *pos, const uint8_t hand[6], int type, int sq)
{
    tb_bug_pos b;
    as_bug(pos, hand, &b);
    return (int)tb_bug_drop_verdict(&b, type, sq);
}

static const char *article(int reason)
{
    return tb_bug_drop_article((enum tb_bug_drop_verdict)reason);
}

static tb_chess_move move(int type, int sq)
{
    return tb_bug_move_drop(type, sq);
}

const struct tb_sensor_drops tb_bugmatch_drops = {
    .legal = legal,
    .refuse = refuse,
    .article = article,
    .move = move,
};
