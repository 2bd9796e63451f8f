/* record.c - a match of two games as a list of moves in time order. */
#include <string.h>

#include "bug_internal.h"

void tb_bug_record_init(tb_bug_record *rec)
{
    memset(rec, 0, sizeof *rec);
    for (int b = 0; b < 2; b++) {
        tb_bug_pos_startpos(&rec->start[b]);
        rec->cur[b] = rec->start[b];
        rec->verdict[b].article = "";
        rec->end_ms[b] = -1;
    }
    for (int i = 0; i < 4; i++)
        strcpy(rec->names[i], "?");
    strcpy(rec->event, "?");
    strcpy(rec->site, "?");
    strcpy(rec->date, "????.??.??");
    rec->base_ms = 7 * 60 * 1000; /* 6.3 */
}

void tb_bug__play(tb_bug_pos pos[2], int board, tb_bug_move m)
{
    tb_bug_undo undo;
    tb_bug_make(&pos[board], m, &undo);
    /* 2.1, 1.4: the piece goes in its own colour to the partner on the other board. */
    if (undo.passed)
        (void)tb_bug_pool_add(&pos[board ^ 1], undo.passed);
}

int tb_bug_record_replay(const tb_bug_record *rec, int n, tb_bug_pos pos[2])
{
    pos[0] = rec->start[0];
    pos[1] = rec->start[1];
    if (n > rec->nplies)
        n = rec->nplies;
    struct tb_bug__open st = {0};
    for (int i = 0; i < n; i++)
        if (tb_bug__step(pos, &st, &rec->plies[i])) /* article 7's plies too */
            return TB_ERR_STATE;
    return TB_OK;
}

int tb_bug_record_push(tb_bug_record *rec, int board, tb_bug_move m, int32_t clock_ms)
{
    if (!rec || board < 0 || board > 1)
        return TB_ERR_ARG;
    if (rec->nplies >= TB_BUG_RECORD_MAX_PLIES)
        return TB_ERR_FULL;
    if (!rec->nplies) {
        rec->cur[0] = rec->start[0];
        rec->cur[1] = rec->start[1];
    }
    if (!tb_bug_is_legal(&rec->cur[board], m))
        return TB_ERR_ILLEGAL;
    tb_bug__play(rec->cur, board, m);
    rec->plies[rec->nplies++] = (struct tb_bug_ply){(uint8_t)board, m, clock_ms, 0};
    return TB_OK;
}
