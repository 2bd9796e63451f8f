/* text.c - the match's outputs as English lines, for logs, the arbiter and tests. */
#include <stdio.h>

#include "bugmatch_internal.h"

static const char *const piece_names[7] = {"piece", "pawn",  "knight", "bishop",
                                           "rook",  "queen", "king"};

const char *tb_bugmatch__piece_name(int type)
{
    return type >= 1 && type <= 6 ? piece_names[type] : piece_names[0];
}

/* "A White", "B Black". */
static void seat_name(int seat, char buf[16])
{
    snprintf(buf, 16, "%c %s", 'A' + ((seat >> 1) & 1), seat & 1 ? "Black" : "White");
}

/* " queen rook" for a set of kinds, queen first. */
static void kinds_text(unsigned kinds, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--)
        if (kinds & (1u << t)) {
            int w = snprintf(buf + n, len - n, " %s", tb_bugmatch__piece_name(t));
            if (w < 0 || (size_t)w >= len - n)
                return;
            n += (size_t)w;
        }
}

int tb_bugmatch_out_format(const struct tb_bugmatch_out *o, char *buf, size_t len)
{
    char who[16], sq[3], more[64], line[160];
    int n;
    if (!o || !buf || len == 0)
        return TB_ERR_ARG;
    seat_name(o->seat < 0 ? 2 * o->board : o->seat, who);
    switch (o->kind) {
    case TB_BUGMATCH_OUT_MOVE:
        n = snprintf(buf, len, "%s: %s%s", who, o->san, o->check == 2 ? " mate" : "");
        break;
    case TB_BUGMATCH_OUT_PLY:
        if (o->clock_ms >= 0)
            n = snprintf(buf, len, "%s: ply %d completed, %d.%03d s left", who, o->ply + 1,
                         o->clock_ms / 1000, o->clock_ms % 1000);
        else
            n = snprintf(buf, len, "%s: ply %d completed", who, o->ply + 1);
        break;
    case TB_BUGMATCH_OUT_RECEIVED:
        n = snprintf(buf, len, "%s receives: %s", who, tb_bugmatch__piece_name(o->piece));
        break;
    case TB_BUGMATCH_OUT_POOL: {
        size_t k = 0;
        line[0] = '\0';
        for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--)
            if (o->pool[t])
                k += (size_t)snprintf(line + k, sizeof line - k, "%s%d %s", k ? ", " : "",
                                      o->pool[t], tb_bugmatch__piece_name(t));
        n = snprintf(buf, len, "%s holds: %s", who, k ? line : "nothing");
        break;
    }
    case TB_BUGMATCH_OUT_CHOOSE:
        kinds_text(o->kinds, more, sizeof more);
        n = snprintf(buf, len, "%s: which piece on %s?%s", who,
                     o->square < 64 ? tb_chess_square_name(o->square, sq) : "-", more);
        break;
    case TB_BUGMATCH_OUT_SELECTED:
        n = snprintf(buf, len, "%s selects: %s", who, tb_bugmatch__piece_name(o->piece));
        break;
    case TB_BUGMATCH_OUT_ILLEGAL_DROP:
        n = snprintf(buf, len, "%s: illegal drop of %s on %s: %s: %s", who,
                     o->piece ? tb_bugmatch__piece_name(o->piece) : "a piece",
                     o->square < 64 ? tb_chess_square_name(o->square, sq) : "-", o->article,
                     tb_bug_drop_reason(o->verdict));
        break;
    case TB_BUGMATCH_OUT_FLAG:
        n = snprintf(buf, len, "%s: flag fell", who);
        break;
    case TB_BUGMATCH_OUT_RESULT:
        n = snprintf(buf, len, "%c: %s %s (%s)", 'A' + o->board,
                     tb_bug_result_text(o->result.result), tb_bug_reason_text(o->result.reason),
                     o->result.article ? o->result.article : "");
        break;
    case TB_BUGMATCH_OUT_BOARD:
        if (tb_sensor_out_format(&o->sensor, line, sizeof line) < 0)
            return TB_ERR_FULL;
        n = snprintf(buf, len, "%c: %s", 'A' + o->board, line);
        break;
    default:
        n = tb_bugmatch__irr_format(o, who, buf, len); /* article 7 (irregular.c) */
        if (n == TB_ERR_ARG)
            return n;
        break;
    }
    if (n < 0)
        return TB_ERR_ARG;
    return (size_t)n >= len ? TB_ERR_FULL : n;
}
