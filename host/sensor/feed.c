/* feed.c - event-script events into a recogniser. */
#include "tb_sensor.h"

int tb_sensor_feed(tb_sensor *s, const struct tb_script_event *ev)
{
    switch (ev->kind) {
    case TB_SCRIPT_LIFT:
        return tb_sensor_lift(s, ev->square, ev->ms);
    case TB_SCRIPT_PLACE:
        return tb_sensor_place(s, ev->square, tb_chess_piece_from_fen(ev->piece), ev->ms);
    case TB_SCRIPT_CHOOSE:
        return tb_sensor_choose(s, TB_CHESS_PIECE_TYPE(tb_chess_piece_from_fen(ev->piece)), ev->ms);
    default:
        return TB_OK;
    }
}
