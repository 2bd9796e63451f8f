/* feed.c - event-script events into a recogniser. */
#include "tb_sensor.h"

static int piece_code(char letter)
{
    static const char letters[] = "PNBRQK";
    for (int i = 0; i < 6; i++) {
        if (letter == letters[i])
            return TB_CHESS_PIECE(TB_CHESS_WHITE, i + 1);
        if (letter == letters[i] + ('a' - 'A'))
            return TB_CHESS_PIECE(TB_CHESS_BLACK, i + 1);
    }
    return 0;
}

int tb_sensor_feed(tb_sensor *s, const struct tb_script_event *ev)
{
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
        return tb_sensor_lift(s, ev->square, ev->ms);
    case TB_SCRIPT_PLACE:
        return tb_sensor_place(s, ev->square, piece_code(ev->piece), ev->ms);
    case TB_SCRIPT_CHOOSE:
        return tb_sensor_choose(s, TB_CHESS_PIECE_TYPE(piece_code(ev->piece)), ev->ms);
    default:
        return TB_OK;
    }
}
