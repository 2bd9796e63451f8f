/* round_trf.c - the round's results as FIDE's Tournament Report File (TRF-16, FIDE Handbook
 * C.04 Annex 2): player records (001) at the documented columns, this round's column only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "round_internal.h"

#define TRF_ROUND_MAX 150  /* rounds a line can hold here (column 92 + 10 a round) */
#define TRF_LINE      1600 /* 92 + 10 * TRF_ROUND_MAX, and room */

struct player {
    int rank;   /* start rank */
    int i;      /* the pairing */
    bool white; /* which side of it */
    int half;   /* this round's points, in halves; -1 while playing */
    char res;   /* the TRF result: '1', '=', '0', ' ' */
};

/* text at 1-based columns [col, col + width), right-aligned when right; cut to the width (at a
 * UTF-8 character's start, so no character is split). */
static void at(char *line, int col, int width, bool right, const char *text)
{
    int n = (int)strlen(text);
    if (n > width) {
        n = width;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(line + col - 1 + (right ? width - n : 0), text, (size_t)n);
}

static int by_rank(const void *a, const void *b)
{
    const struct player *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

int tb_round_results_trf(const struct tb_round *r, const char *const *results, char *buf,
                         size_t cap, struct tb_error *err)
{
    int round = atoi(r->round);
    if (round < 1 || round > TRF_ROUND_MAX)
        return tb_error_set(err, TB_ERR_ARG, "round %s: a TRF line holds rounds 1 to %d", r->round,
                            TRF_ROUND_MAX);
    struct player *pl = calloc((size_t)r->n * 2 + 1, sizeof *pl);
    if (!pl)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        const struct tb_round_pairing *p = &r->p[i];
        const char *res = results && results[i] ? results[i] : "*";
        for (int side = 0; side < 2; side++) {
            const char *rank = p->v[side ? TB_ROUND_BLACK_RANK : TB_ROUND_WHITE_RANK];
            if (!rank[0]) {
                free(pl);
                return tb_error_set(
                    err, TB_ERR_ARG,
                    "board %d: %s (%s) has no start rank (%s): a TRF names "
                    "players by it",
                    p->board, p->v[side ? TB_ROUND_BLACK : TB_ROUND_WHITE],
                    side ? "Black" : "White",
                    tb_round_field_name(side ? TB_ROUND_BLACK_RANK : TB_ROUND_WHITE_RANK));
            }
            struct player *x = &pl[n++];
            x->rank = atoi(rank);
            x->i = i;
            x->white = side == 0;
            /* 1-0: White's win; the colours of a result read from the side's view */
            bool won = !strcmp(res, side ? "0-1" : "1-0"),
                 lost = !strcmp(res, side ? "1-0" : "0-1");
            bool drawn = !strcmp(res, "1/2-1/2");
            x->half = won ? 2 : drawn ? 1 : lost ? 0 : -1;
            x->res = won ? '1' : drawn ? '=' : lost ? '0' : ' ';
        }
    }
    qsort(pl, (size_t)n, sizeof *pl, by_rank);
    for (int k = 1; k < n; k++)
        if (pl[k].rank == pl[k - 1].rank) {
            int rank = pl[k].rank, b1 = r->p[pl[k - 1].i].board, b2 = r->p[pl[k].i].board;
            free(pl);
            return tb_error_set(err, TB_ERR_ARG, "start rank %d is given twice (boards %d and %d)",
                                rank, b1, b2);
        }
    struct tb_round__out o = {buf, cap, 0};
    if (cap)
        buf[0] = '\0';
    if (n && r->p[0].v[TB_ROUND_EVENT][0])
        tb_round__put(&o, "012 %s\r\n", r->p[0].v[TB_ROUND_EVENT]);
    for (int k = 0; k < n; k++) {
        const struct player *x = &pl[k];
        const struct tb_round_pairing *p = &r->p[x->i];
        int better = 0; /* 86-89: the rank this round's points give (ties share it) */
        for (int j = 0; j < n; j++)
            better += pl[j].half > (x->half > 0 ? x->half : 0);
        int opp = 0;
        for (int j = 0; j < n; j++)
            if (pl[j].i == x->i && j != k)
                opp = pl[j].rank;
        char line[TRF_LINE], num[16];
        int end = 92 + (round - 1) * 10 + 8;
        memset(line, ' ', sizeof line);
        at(line, 1, 3, false, "001");
        snprintf(num, sizeof num, "%d", x->rank);
        at(line, 5, 4, true, num);
        at(line, 11, 3, true, p->v[x->white ? TB_ROUND_WHITE_TITLE : TB_ROUND_BLACK_TITLE]);
        at(line, 15, 33, false, p->v[x->white ? TB_ROUND_WHITE : TB_ROUND_BLACK]);
        at(line, 49, 4, true, p->v[x->white ? TB_ROUND_WHITE_ELO : TB_ROUND_BLACK_ELO]);
        at(line, 58, 11, true, p->v[x->white ? TB_ROUND_WHITE_FIDE : TB_ROUND_BLACK_FIDE]);
        snprintf(num, sizeof num, "%d.%d", (x->half > 0 ? x->half : 0) / 2,
                 (x->half > 0 ? x->half : 0) % 2 ? 5 : 0);
        at(line, 81, 4, true, num);
        snprintf(num, sizeof num, "%d", better + 1);
        at(line, 86, 4, true, num);
        int c = 92 + (round - 1) * 10; /* this round's column: opponent, colour, result */
        snprintf(num, sizeof num, "%4d", opp);
        at(line, c, 4, true, num);
        line[c + 5 - 1] = x->white ? 'w' : 'b';
        line[c + 7 - 1] = x->res;
        while (end > 0 && line[end - 1] == ' ')
            end--;
        tb_round__put(&o, "%.*s\r\n", end, line);
    }
    free(pl);
    return tb_round__done(&o);
}
