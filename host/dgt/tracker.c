/* tracker.c - a dump plus field updates as a placement and square events, in an order a
 * recogniser can follow.
 *
 * A full scan of the board takes 200-250 ms, so a piece can show on its new square before its
 * old square empties, and a capture may never show the taken piece's square empty. A placement
 * of a piece that also stands elsewhere, with no such piece lifted lately, waits up to
 * reorder_ms for the lift that belongs before it; a piece replaced by another without an empty
 * reading is reported lifted first. Captured pieces (replaced, or taken en passant) do not count
 * as held. The placement is what the events so far describe: a waiting
 * placement is not in it, so it never holds two pieces on a square. */
#include <stdlib.h>
#include <string.h>

#include "dgt_internal.h"

#include "tb_chess.h"

#define OTHER     15 /* a magic piece: occupies a square, is no chess piece */
#define QUEUE_CAP 256
#define HAND_CAP  32

struct waiting {
    uint8_t square, piece;
    uint64_t since;
};

struct held {
    uint8_t piece, square;
    bool used;
    uint64_t ms;
};

struct tb_dgt_tracker {
    struct tb_dgt_tracker_config cfg;
    bool have_dump;
    enum tb_dgt_orient orient;
    uint8_t raw[64];        /* field codes (low 4 bits) as the board last said */
    uint8_t view[64];       /* per square, as the events describe it: tb_chess code or OTHER */
    uint64_t placed_ms[64]; /* when the piece on the square was placed */
    struct waiting wait[64];
    int nwait;
    struct held hand[HAND_CAP];
    int hand_next;
    struct tb_dgt_event queue[QUEUE_CAP];
    int qhead, qlen;
    uint64_t overflows;
};

void tb_dgt_tracker_config_default(struct tb_dgt_tracker_config *cfg)
{
    cfg->reorder_ms = 500;
    cfg->hand_ms = 1500;
}

tb_dgt_tracker *tb_dgt_tracker_new(const struct tb_dgt_tracker_config *cfg)
{
    struct tb_dgt_tracker_config def;
    tb_dgt_tracker_config_default(&def);
    if (cfg && (cfg->reorder_ms > 60000 || cfg->hand_ms > 3600000))
        return NULL;
    tb_dgt_tracker *t = calloc(1, sizeof *t);
    if (t)
        t->cfg = cfg ? *cfg : def;
    return t;
}

void tb_dgt_tracker_free(tb_dgt_tracker *t)
{
    free(t);
}

void tb_dgt_tracker_reset(tb_dgt_tracker *t)
{
    if (!t)
        return;
    enum tb_dgt_orient o = t->orient;
    struct tb_dgt_tracker_config cfg = t->cfg;
    uint64_t overflows = t->overflows;
    memset(t, 0, sizeof *t);
    t->orient = o;
    t->cfg = cfg;
    t->overflows = overflows;
}

enum tb_dgt_orient tb_dgt_tracker_orientation(const tb_dgt_tracker *t)
{
    return t ? t->orient : TB_DGT_ORIENT_UNKNOWN;
}

uint64_t tb_dgt_tracker_overflows(const tb_dgt_tracker *t)
{
    return t ? t->overflows : 0;
}

static uint8_t piece_of(uint8_t code)
{
    return tb_dgt_piece_is_magic(code) ? OTHER : (uint8_t)tb_dgt_piece_to_chess(code);
}

static bool is_pawn(int piece)
{
    return piece && piece != OTHER && TB_CHESS_PIECE_TYPE(piece) == TB_CHESS_PAWN;
}

/* The square a pawn passes when it takes en passant the pawn standing on sq; -1 if none. */
static int ep_behind(int sq, int victim)
{
    int behind = TB_CHESS_PIECE_COLOR(victim) == TB_CHESS_BLACK ? sq + 8 : sq - 8;
    return behind >= 0 && behind < 64 ? behind : -1;
}

/* A piece of the other colour put where a held piece stood, or a pawn put just behind a held
 * pawn of the other colour (en passant): the held one was captured. */
static void captured(tb_dgt_tracker *t, int sq, int piece)
{
    if (piece == OTHER)
        return;
    for (int i = 0; i < HAND_CAP; i++) {
        struct held *h = &t->hand[i];
        if (!h->piece || h->piece == OTHER ||
            TB_CHESS_PIECE_COLOR(h->piece) == TB_CHESS_PIECE_COLOR(piece))
            continue;
        if (h->square == sq ||
            (is_pawn(piece) && is_pawn(h->piece) && ep_behind(h->square, h->piece) == sq))
            h->used = true;
    }
}

/* A pawn lifted just after a pawn of the other colour landed behind it: taken en passant. */
static bool taken_en_passant(const tb_dgt_tracker *t, int sq, uint8_t piece, uint64_t ms)
{
    int behind = is_pawn(piece) ? ep_behind(sq, piece) : -1;
    return behind >= 0 && is_pawn(t->view[behind]) &&
           TB_CHESS_PIECE_COLOR(t->view[behind]) != TB_CHESS_PIECE_COLOR(piece) &&
           t->placed_ms[behind] + t->cfg.hand_ms >= ms;
}

static void push(tb_dgt_tracker *t, enum tb_dgt_event_kind kind, int sq, int piece, uint64_t ms)
{
    if (kind == TB_DGT_EV_LIFT) {
        t->view[sq] = 0;
    } else if (kind == TB_DGT_EV_PLACE) {
        t->view[sq] = (uint8_t)piece;
        t->placed_ms[sq] = ms;
        captured(t, sq, piece);
    }
    if (t->qlen == QUEUE_CAP) {
        t->overflows++;
        return;
    }
    struct tb_dgt_event *e = &t->queue[(t->qhead + t->qlen++) % QUEUE_CAP];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->square = (uint8_t)sq;
    e->piece = piece == OTHER ? 0 : (uint8_t)piece;
    e->orient = (uint8_t)t->orient;
    e->ms = ms;
}

/* The view as the raw fields say, without events (a first dump, a new orientation). */
static void view_from_raw(tb_dgt_tracker *t)
{
    memset(t->view, 0, sizeof t->view);
    t->nwait = 0;
    memset(t->hand, 0, sizeof t->hand);
    if (t->orient == TB_DGT_ORIENT_UNKNOWN)
        return;
    for (int f = 0; f < 64; f++)
        t->view[tb_dgt_field_to_square(f, t->orient)] = piece_of(t->raw[f]);
}

/* A start position either way up fixes the orientation; one the other way round changes it. */
static bool check_orientation(tb_dgt_tracker *t, uint64_t ms)
{
    enum tb_dgt_orient o = tb_dgt_find_orientation(t->raw, NULL);
    if (o == TB_DGT_ORIENT_UNKNOWN || o == t->orient)
        return false;
    t->orient = o;
    view_from_raw(t);
    push(t, TB_DGT_EV_ORIENT, 0, 0, ms);
    return true;
}

static void lifted(tb_dgt_tracker *t, int sq, uint8_t piece, uint64_t ms)
{
    struct held *h = &t->hand[t->hand_next];
    t->hand_next = (t->hand_next + 1) % HAND_CAP;
    h->piece = piece;
    h->square = (uint8_t)sq;
    h->used = false;
    h->ms = ms;
}

/* Takes the latest lift of piece from the hand, if one is recent enough. */
static bool take_from_hand(tb_dgt_tracker *t, uint8_t piece, uint64_t ms)
{
    for (int i = 1; i <= HAND_CAP; i++) {
        struct held *h = &t->hand[(t->hand_next - i + HAND_CAP) % HAND_CAP];
        if (h->piece == piece && !h->used && h->ms + t->cfg.hand_ms >= ms) {
            h->used = true;
            return true;
        }
    }
    return false;
}

static void unwait(tb_dgt_tracker *t, int i)
{
    t->wait[i] = t->wait[--t->nwait];
}

static bool elsewhere(const tb_dgt_tracker *t, int sq, uint8_t piece)
{
    for (int s = 0; s < 64; s++) {
        if (s != sq && t->view[s] == piece)
            return true;
    }
    return false;
}

static void place(tb_dgt_tracker *t, int sq, uint8_t piece, uint64_t ms)
{
    if (piece != OTHER && !take_from_hand(t, piece, ms) && elsewhere(t, sq, piece) &&
        t->cfg.reorder_ms > 0) {
        /* Maybe the same piece's old square has not been scanned yet: wait for its lift. */
        t->wait[t->nwait++] = (struct waiting){(uint8_t)sq, piece, ms};
        return;
    }
    push(t, TB_DGT_EV_PLACE, sq, piece, ms);
}

/* Is `placed` on sq what a pawn `lifted` becomes on its last rank? */
static bool promotes(uint8_t lifted, uint8_t placed, int sq)
{
    int colour = TB_CHESS_PIECE_COLOR(lifted);
    return placed != OTHER && TB_CHESS_PIECE_TYPE(lifted) == TB_CHESS_PAWN &&
           TB_CHESS_PIECE_COLOR(placed) == colour && TB_CHESS_PIECE_TYPE(placed) != TB_CHESS_PAWN &&
           TB_CHESS_PIECE_TYPE(placed) != TB_CHESS_KING &&
           TB_CHESS_RANK(sq) == (colour == TB_CHESS_WHITE ? 7 : 0);
}

/* replaced: another piece took the square at once, so this one is off the board, not held. */
static void lift(tb_dgt_tracker *t, int sq, bool replaced, uint64_t ms)
{
    uint8_t piece = t->view[sq];
    push(t, TB_DGT_EV_LIFT, sq, piece, ms);
    for (int i = 0; i < t->nwait; i++) {
        if (t->wait[i].piece == piece || promotes(piece, t->wait[i].piece, t->wait[i].square)) {
            struct waiting w = t->wait[i];
            unwait(t, i);
            push(t, TB_DGT_EV_PLACE, w.square, w.piece, ms);
            return;
        }
    }
    if (!replaced && !taken_en_passant(t, sq, piece, ms))
        lifted(t, sq, piece, ms);
}

static void change(tb_dgt_tracker *t, int sq, uint8_t piece, uint64_t ms)
{
    for (int i = 0; i < t->nwait; i++) {
        if (t->wait[i].square == sq) {
            unwait(t, i); /* shown and gone again before anything else: never reported */
            break;
        }
    }
    if (t->view[sq] == piece)
        return;
    if (t->view[sq] != 0)
        lift(t, sq, piece != 0, ms); /* piece != 0: a capture that never showed it empty */
    if (piece != 0)
        place(t, sq, piece, ms);
}

/* Releases the waiting placements due by until_ms, oldest first. */
static int flush(tb_dgt_tracker *t, uint64_t until_ms, uint64_t ms)
{
    int before = t->qlen;
    for (;;) {
        int first = -1;
        for (int i = 0; i < t->nwait; i++) {
            if (first < 0 || t->wait[i].since < t->wait[first].since)
                first = i;
        }
        if (first < 0 || t->wait[first].since + t->cfg.reorder_ms > until_ms)
            break;
        struct waiting w = t->wait[first];
        unwait(t, first);
        /* released by its deadline: reported at that time, so times never go back */
        push(t, TB_DGT_EV_PLACE, w.square, w.piece,
             until_ms == UINT64_MAX ? ms : w.since + t->cfg.reorder_ms);
    }
    return t->qlen - before;
}

int tb_dgt_tracker_dump(tb_dgt_tracker *t, const uint8_t codes[64], uint64_t now_ms)
{
    if (!t || !codes)
        return TB_ERR_ARG;
    int before = t->qlen;
    bool first = !t->have_dump;
    for (int f = 0; f < 64; f++)
        t->raw[f] = codes[f] & 0x0F;
    t->have_dump = true;
    if (check_orientation(t, now_ms) || t->orient == TB_DGT_ORIENT_UNKNOWN)
        return t->qlen - before;
    if (first) {
        view_from_raw(t);
        return 0;
    }
    flush(t, UINT64_MAX, now_ms);
    uint8_t want[64];
    for (int f = 0; f < 64; f++)
        want[tb_dgt_field_to_square(f, t->orient)] = piece_of(t->raw[f]);
    for (int sq = 0; sq < 64; sq++) {
        if (t->view[sq] != want[sq] && t->view[sq] != 0)
            push(t, TB_DGT_EV_LIFT, sq, t->view[sq], now_ms);
    }
    for (int sq = 0; sq < 64; sq++) {
        if (t->view[sq] != want[sq])
            push(t, TB_DGT_EV_PLACE, sq, want[sq], now_ms);
    }
    return t->qlen - before;
}

int tb_dgt_tracker_update(tb_dgt_tracker *t, int field, int code, uint64_t now_ms)
{
    if (!t || field < 0 || field > 63 || code < 0)
        return TB_ERR_ARG;
    if (!t->have_dump)
        return TB_ERR_STATE;
    int before = t->qlen;
    t->raw[field] = (uint8_t)(code & 0x0F);
    if (check_orientation(t, now_ms) || t->orient == TB_DGT_ORIENT_UNKNOWN)
        return t->qlen - before;
    flush(t, now_ms, now_ms);
    change(t, tb_dgt_field_to_square(field, t->orient), piece_of(t->raw[field]), now_ms);
    return t->qlen - before;
}

int tb_dgt_tracker_tick(tb_dgt_tracker *t, uint64_t now_ms)
{
    return t ? flush(t, now_ms, now_ms) : TB_ERR_ARG;
}

uint64_t tb_dgt_tracker_due(const tb_dgt_tracker *t)
{
    uint64_t due = UINT64_MAX;
    for (int i = 0; t && i < t->nwait; i++) {
        if (t->wait[i].since + t->cfg.reorder_ms < due)
            due = t->wait[i].since + t->cfg.reorder_ms;
    }
    return due;
}

int tb_dgt_tracker_next(tb_dgt_tracker *t, struct tb_dgt_event *ev)
{
    if (!t || !ev || t->qlen == 0)
        return 0;
    *ev = t->queue[t->qhead];
    t->qhead = (t->qhead + 1) % QUEUE_CAP;
    t->qlen--;
    return 1;
}

void tb_dgt_tracker_placement(const tb_dgt_tracker *t, uint8_t out[64])
{
    for (int sq = 0; sq < 64; sq++)
        out[sq] = t && t->view[sq] != OTHER ? t->view[sq] : 0;
}

uint64_t tb_dgt_tracker_occupied(const tb_dgt_tracker *t)
{
    uint64_t occ = 0;
    for (int sq = 0; t && sq < 64; sq++) {
        if (t->view[sq])
            occ |= TB_CHESS_BIT(sq);
    }
    return occ;
}

void tb_dgt_tracker_set_orientation(tb_dgt_tracker *t, enum tb_dgt_orient o)
{
    if (!t || o == t->orient)
        return;
    t->orient = o;
    view_from_raw(t);
}
