/* link_reading.c - whole-board readings with pieces named (a ChessLink or Chessnut board) as
 * a link's events, through the DGT link's board-state tracker (host/dgt): the first reading
 * after the link opens is a SNAPSHOT, every later one (after a reconnect too) the lifts and
 * placements that take the board there. */
#include <stdio.h>

#include "link_internal.h"
#include "tb_chess.h"
#include "tb_dgt.h"

int tb_link__reading_init(struct tb_link__reading *r, const char *board)
{
    *r = (struct tb_link__reading){.unread = true, .board = board};
    r->tr = tb_dgt_tracker_new(NULL);
    if (!r->tr)
        return TB_ERR_MEM;
    /* the boards' own order is from White's side; a start position turned round says
     * otherwise */
    tb_dgt_tracker_set_orientation(r->tr, TB_DGT_ORIENT_NORMAL);
    return TB_OK;
}

void tb_link__reading_free(struct tb_link__reading *r)
{
    tb_dgt_tracker_free(r->tr);
    r->tr = NULL;
}

static void snapshot(struct tb_link__reading *r, struct tb_link__queue *q, uint64_t now_ms)
{
    struct tb_link_event ev = {.kind = TB_LINK_EV_SNAPSHOT, .has_pieces = true};
    tb_dgt_tracker_placement(r->tr, ev.pieces);
    ev.occupancy = tb_dgt_tracker_occupied(r->tr);
    ev.board_ms = (uint32_t)now_ms;
    (void)tb_link__queue_push(q, &ev);
    r->unread = false;
}

static void push_event(struct tb_link__queue *q, const struct tb_dgt_event *e)
{
    struct tb_link_event ev = {.kind =
                                   e->kind == TB_DGT_EV_LIFT ? TB_LINK_EV_LIFT : TB_LINK_EV_PLACE,
                               .square = e->square,
                               .piece = e->kind == TB_DGT_EV_PLACE ? e->piece : 0,
                               .board_ms = (uint32_t)e->ms};
    (void)tb_link__queue_push(q, &ev);
}

static bool king_lift(const struct tb_dgt_event *e)
{
    return e->kind == TB_DGT_EV_LIFT && e->piece && TB_CHESS_PIECE_TYPE(e->piece) == TB_CHESS_KING;
}

/* The tracker's events as the link's; a start position the other way up is a new reading. One
 * reading says nothing of the order its changes were made in: a king's lift goes first (4.4.2:
 * castling is begun with the king), the rest in the tracker's order. */
static void drain(struct tb_link__reading *r, struct tb_link__queue *q, uint64_t now_ms)
{
    struct tb_dgt_event e[160];
    int n = 0;
    bool reread = false;
    while (n < (int)(sizeof e / sizeof e[0]) && tb_dgt_tracker_next(r->tr, &e[n])) {
        if (e[n].kind != TB_DGT_EV_ORIENT) {
            n++;
            continue;
        }
        reread = true;
        struct tb_link_event ev = {.kind = TB_LINK_EV_INFO};
        snprintf(ev.text, sizeof ev.text, "%s: start position seen, %s", r->board,
                 e[n].orient == TB_DGT_ORIENT_ROTATED ? "the board turned round"
                                                      : "the right way round");
        (void)tb_link__queue_push(q, &ev);
    }
    if (!r->unread && !reread) { /* else the reading to come holds them */
        for (int i = 0; i < n; i++)
            if (king_lift(&e[i]))
                push_event(q, &e[i]);
        for (int i = 0; i < n; i++)
            if (!king_lift(&e[i]))
                push_event(q, &e[i]);
    }
    if ((reread || r->unread) && r->have)
        snapshot(r, q, now_ms);
}

void tb_link__reading_put(struct tb_link__reading *r, struct tb_link__queue *q,
                          const uint8_t pieces[64], uint64_t now_ms)
{
    uint8_t codes[64];
    for (int f = 0; f < 64; f++) /* the tracker's field order: a8 .. h1 */
        codes[f] = (uint8_t)tb_dgt_piece_from_chess(
            pieces[tb_dgt_field_to_square(f, TB_DGT_ORIENT_NORMAL)]);
    r->have = true;
    tb_dgt_tracker_dump(r->tr, codes, now_ms);
    drain(r, q, now_ms);
    if (r->asked) {
        r->asked = false;
        if (!r->unread)
            snapshot(r, q, now_ms);
    }
}

void tb_link__reading_tick(struct tb_link__reading *r, struct tb_link__queue *q, uint64_t now_ms)
{
    tb_dgt_tracker_tick(r->tr, now_ms);
    drain(r, q, now_ms);
}

uint64_t tb_link__reading_due(const struct tb_link__reading *r)
{
    return tb_dgt_tracker_due(r->tr);
}
