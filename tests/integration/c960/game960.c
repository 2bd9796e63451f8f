/* game960.c - see game960.h. */
#include "game960.h"

#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int game960_castle_kind(const tb_chess_pos *pos, tb_chess_move m)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, m, &ms);
    int files = TB_CHESS_FILE(ms.to) - TB_CHESS_FILE(ms.from);
    bool special = ms.to == ms.rook_from || ms.rook_to == ms.from || files * files < 4 ||
                   ms.rook_from == ms.rook_to;
    return special ? GAME960_SPECIAL : GAME960_PLAIN;
}

/* Squares on the mover's back rank that its castlings still need empty: between king and rook
 * and the two destinations, without the king and that rook. */
static uint64_t castling_path(const tb_chess_pos *pos)
{
    int us = pos->side, k = pos->king_sq[us];
    uint64_t path = 0;
    for (int r = us * 2; r < us * 2 + 2; r++) {
        int rsq = pos->castle_rook[r];
        if (rsq == TB_CHESS_NOSQ)
            continue;
        int back = TB_CHESS_RANK(k) * 8, kto = back + ((r & 1) ? 2 : 6);
        int rto = back + ((r & 1) ? 3 : 5);
        int lo = k, hi = k;
        int sqs[3] = {rsq, kto, rto};
        for (int i = 0; i < 3; i++) {
            lo = sqs[i] < lo ? sqs[i] : lo;
            hi = sqs[i] > hi ? sqs[i] : hi;
        }
        for (int sq = lo; sq <= hi; sq++)
            if (sq != k && sq != rsq)
                path |= TB_CHESS_BIT(sq);
    }
    return path;
}

static bool keeps_rights(const tb_chess_pos *pos, tb_chess_move m)
{
    int us = pos->side, from = tb_chess_move_from(m);
    if (from == pos->king_sq[us])
        return false;
    for (int r = us * 2; r < us * 2 + 2; r++)
        if (pos->castle_rook[r] == from)
            return false;
    return true;
}

static tb_chess_move choose(const tb_chess_pos *pos, const tb_chess_movelist *list, unsigned kinds,
                            uint64_t *seed)
{
    tb_chess_move pick[TB_CHESS_MAX_MOVES];
    int n = 0;
    for (int i = 0; i < list->count; i++) /* castle if we may */
        if (tb_chess_move_is_castle(list->moves[i]) &&
            (kinds & (unsigned)game960_castle_kind(pos, list->moves[i])))
            pick[n++] = list->moves[i];
    if (!n && (next(seed) % 10) < 7) { /* clear the way */
        uint64_t path = castling_path(pos);
        for (int i = 0; i < list->count; i++) {
            tb_chess_move m = list->moves[i];
            if (!tb_chess_move_is_castle(m) && (path & TB_CHESS_BIT(tb_chess_move_from(m))) &&
                !(path & TB_CHESS_BIT(tb_chess_move_to(m))) && keeps_rights(pos, m))
                pick[n++] = m;
        }
    }
    if (!n) /* anything that keeps king and rooks at home */
        for (int i = 0; i < list->count; i++)
            if (!tb_chess_move_is_castle(list->moves[i]) && keeps_rights(pos, list->moves[i]))
                pick[n++] = list->moves[i];
    if (!n)
        for (int i = 0; i < list->count; i++)
            if (!tb_chess_move_is_castle(list->moves[i]) ||
                (kinds & (unsigned)game960_castle_kind(pos, list->moves[i])))
                pick[n++] = list->moves[i];
    return n ? pick[next(seed) % (uint64_t)n] : 0;
}

void game960_play(struct game960 *g, int number, int max_plies, unsigned kinds, uint64_t seed)
{
    tb_chess_pos pos;
    memset(g, 0, sizeof *g);
    tb_chess_pos_960(&g->start, number);
    pos = g->start;
    if (max_plies > 200)
        max_plies = 200;
    seed ^= (uint64_t)number * 0x2545F4914F6CDD1DULL;
    while (g->plies < max_plies && tb_chess_pos_state(&pos) == TB_CHESS_PLAYING) {
        tb_chess_movelist list;
        tb_chess_gen_legal(&pos, &list);
        tb_chess_move m = choose(&pos, &list, kinds, &seed);
        if (!m)
            break;
        if (tb_chess_move_is_castle(m)) {
            struct tb_chess_move_squares ms;
            tb_chess_move_squares(&pos, m, &ms);
            g->castlings++;
            g->kinds_played |= game960_castle_kind(&pos, m);
            g->rook_on_king += ms.rook_to == ms.from || ms.to == ms.rook_from;
        }
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
        g->moves[g->plies++] = m;
    }
}
