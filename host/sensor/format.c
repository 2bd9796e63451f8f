/* format.c - outputs as the lines `twinboard replay` prints (docs/replay.md). */
#include "tb_sensor.h"

#include <stdio.h>

static const char *const problem_names[] = {
    [TB_SENSOR_P_NONE] = "none",
    [TB_SENSOR_P_ILLEGAL] = "illegal",
    [TB_SENSOR_P_DISPLACED] = "displaced",
    [TB_SENSOR_P_SAME_SIDE_TWICE] = "same-side-twice",
    [TB_SENSOR_P_ROOK_FIRST_CASTLING] = "rook-first-castling",
    [TB_SENSOR_P_TOUCH_MOVE] = "touch-move",
    [TB_SENSOR_P_TOUCHED_NOT_CAPTURED] = "touched-not-captured",
    [TB_SENSOR_P_PROMOTION_NO_CHOICE] = "promotion-no-choice",
    [TB_SENSOR_P_WRONG_MOVE] = "wrong-move",
    [TB_SENSOR_P_PROMOTION_WAITING] = "promotion-waiting",
    [TB_SENSOR_P_DROP_WAITING] = "drop-waiting",
    [TB_SENSOR_P_ILLEGAL_DROP] = "illegal-drop",
    [TB_SENSOR_P_WRONG_PIECE] = "wrong-piece",
};

const char *tb_sensor_problem_name(enum tb_sensor_problem p)
{
    if ((unsigned)p >= sizeof problem_names / sizeof problem_names[0])
        return "unknown";
    return problem_names[p];
}

static const char *sq(int square, char buf[3])
{
    if (square < 0 || square > 63)
        return "-";
    buf[0] = (char)('a' + (square & 7));
    buf[1] = (char)('1' + (square >> 3));
    buf[2] = '\0';
    return buf;
}

/* " e4 d4" for a set of squares, in a1..h8 order. */
static int squares(uint64_t set, char *buf, size_t len)
{
    size_t n = 0;
    char b[3];
    buf[0] = '\0';
    for (int i = 0; i < 64; i++) {
        if (!(set & TB_CHESS_BIT(i)))
            continue;
        int w = snprintf(buf + n, len - n, " %s", sq(i, b));
        if (w < 0 || (size_t)w >= len - n)
            return TB_ERR_FULL;
        n += (size_t)w;
    }
    return (int)n;
}

int tb_sensor_out_format(const struct tb_sensor_out *o, char *buf, size_t len)
{
    char a[3], b[3], clear[200], fill[200];
    int n;

    if (!o || !buf || len == 0)
        return TB_ERR_ARG;
    switch (o->kind) {
    case TB_SENSOR_OUT_MOVE:
        n = snprintf(buf, len, "%s", o->uci);
        break;
    case TB_SENSOR_OUT_TOUCH:
        n = snprintf(buf, len, "touch %s %s", o->own ? "own" : "opponent", sq(o->square, a));
        break;
    case TB_SENSOR_OUT_PROBLEM: {
        const char *name = tb_sensor_problem_name(o->problem);
        switch (o->problem) {
        case TB_SENSOR_P_ILLEGAL:
            n = snprintf(buf, len, "! %s %s placed %s", name, sq(o->square, a), sq(o->square2, b));
            break;
        case TB_SENSOR_P_DISPLACED:
            if (squares(o->clear, clear, sizeof clear) < 0 ||
                squares(o->fill, fill, sizeof fill) < 0)
                return TB_ERR_FULL;
            n = snprintf(buf, len, "! %s%s%s%s%s", name, o->clear ? " clear" : "", clear,
                         o->fill ? " fill" : "", fill);
            break;
        case TB_SENSOR_P_TOUCH_MOVE:
            n = snprintf(buf, len, "! %s touched %s moved %s", name, sq(o->square, a),
                         sq(o->square2, b));
            break;
        case TB_SENSOR_P_TOUCHED_NOT_CAPTURED:
        case TB_SENSOR_P_PROMOTION_WAITING:
            n = snprintf(buf, len, "! %s %s", name, sq(o->square, a));
            break;
        case TB_SENSOR_P_PROMOTION_NO_CHOICE:
            n = snprintf(buf, len, "! %s %s queen assumed", name, sq(o->square, a));
            break;
        case TB_SENSOR_P_DROP_WAITING: {
            char kinds[16] = "";
            for (int t = TB_CHESS_QUEEN, k = 0; t >= TB_CHESS_PAWN; t--)
                if (o->kinds & (1u << t)) {
                    kinds[k++] = ' ';
                    kinds[k++] = "?pnbrq"[t];
                }
            n = snprintf(buf, len, "! %s %s%s", name, sq(o->square, a), kinds);
            break;
        }
        case TB_SENSOR_P_ILLEGAL_DROP:
            n = snprintf(buf, len, "! %s %s %c %s", name, sq(o->square, a),
                         o->piece ? "?pnbrqk"[TB_CHESS_PIECE_TYPE(o->piece)] : '?',
                         o->article && *o->article ? o->article : "-");
            break;
        case TB_SENSOR_P_WRONG_PIECE:
            n = snprintf(buf, len, "! %s %s %c for %s", name, sq(o->square, a),
                         o->piece ? "?PNBRQK??pnbrqk"[o->piece & 15] : '?', o->uci);
            break;
        case TB_SENSOR_P_WRONG_MOVE:
            n = snprintf(buf, len, "! %s expected %s made %s", name, o->uci2, o->uci);
            break;
        default: /* same-side-twice, rook-first-castling: the move */
            n = snprintf(buf, len, "! %s %s", name, o->uci);
            break;
        }
        break;
    }
    default:
        return TB_ERR_ARG;
    }
    if (n < 0)
        return TB_ERR_ARG;
    return (size_t)n >= len ? TB_ERR_FULL : n;
}
