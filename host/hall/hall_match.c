/* hall_match.c - a table's hall state taken from its match (tb_match) and its outputs. */
#include <stdio.h>
#include <string.h>

#include "hall_internal.h"
#include "tb_hall.h"

/* The board's scoresheet in SAN (the newest TB_HALL_MAX_PLIES) and the position after it. */
static void fill_sheet(struct tb_hall_board *b, const tb_match *m, int board)
{
    static const int cap = TB_CHESS_GAME_MAX_PLIES;
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    int n = tb_match_history(m, board, moves, cap);
    if (n > cap)
        n = cap;
    tb_chess_pos pos = tb_match_game(m)->start;
    int from = n > TB_HALL_MAX_PLIES ? n - TB_HALL_MAX_PLIES : 0;
    b->sheet_from = from + 1;
    b->nsheet = 0;
    for (int i = 0; i < n; i++) {
        char san[TB_HALL_SAN_MAX];
        tb_chess_undo u;
        if (!tb_chess_is_legal(&pos, moves[i]) ||
            tb_chess_move_to_san(&pos, moves[i], TB_CHESS_LETTERS_EN, 0, san, sizeof san) < 0)
            break; /* a sheet is legal from the start; a move that is not ends what is shown */
        tb_chess_make(&pos, moves[i], &u);
        if (i >= from)
            tb_hall__copy(b->sheet[b->nsheet++], TB_HALL_SAN_MAX, san);
    }
    if (tb_chess_pos_to_fen(&pos, b->fen, sizeof b->fen) < 0)
        b->fen[0] = '\0';
}

static struct tb_hall_mismatch *find(struct tb_hall_state *s, uint32_t id)
{
    for (int i = 0; i < s->nhistory; i++)
        if (s->history[i].id == id)
            return &s->history[i];
    return NULL;
}

/* A new entry at the end, the oldest given up when full. */
static struct tb_hall_mismatch *add(struct tb_hall_state *s, const struct tb_match_mismatch *mm)
{
    struct tb_hall_mismatch *h = find(s, mm->id);
    if (!h) {
        if (s->nhistory == TB_HALL_MAX_HISTORY) {
            memmove(&s->history[0], &s->history[1],
                    sizeof s->history[0] * (size_t)(s->nhistory - 1));
            s->nhistory--;
        }
        h = &s->history[s->nhistory++];
        memset(h, 0, sizeof *h);
    }
    h->id = mm->id;
    tb_hall__copy(h->kind, sizeof h->kind, tb_match_mismatch_name(mm->kind));
    h->board = mm->board;
    h->ply = mm->ply;
    h->squares = mm->squares;
    h->needs_arbiter = mm->needs_arbiter;
    h->open = true;
    tb_hall__copy(h->text, sizeof h->text, mm->text);
    tb_hall__copy(h->resolution, sizeof h->resolution, mm->resolution);
    return h;
}

void tb_hall_state_from_match(struct tb_hall_state *s, const tb_match *m)
{
    struct tb_match_status st;
    tb_match_status(m, &st);
    tb_hall__copy(s->state, sizeof s->state, tb_match_state_name(st.state));
    if (!s->result[0]) /* the match knows no result: the table's owner sets it */
        tb_hall__copy(s->result, sizeof s->result, "*");
    s->plies = st.plies;
    const tb_chess_game *g = tb_match_game(m);
    if (tb_chess_pos_to_fen(&g->pos, s->fen, sizeof s->fen) < 0)
        s->fen[0] = '\0';
    for (int b = 0; b < 2; b++) {
        fill_sheet(&s->board[b], m, b);
        s->board[b].occupancy = tb_match_occupancy(m, b);
    }
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(m);
    if (mm)
        add(s, mm);
}

int tb_hall_state_note(struct tb_hall_state *s, const struct tb_match_out *o,
                       struct tb_hall_event *ev)
{
    memset(ev, 0, sizeof *ev);
    switch (o->kind) {
    case TB_MATCH_OUT_MOVE_AGREED:
        ev->kind = TB_HALL_EV_MOVE;
        ev->ply = o->u.agreed.ply;
        tb_hall__copy(ev->san, sizeof ev->san, o->u.agreed.san);
        tb_hall__copy(ev->uci, sizeof ev->uci, o->u.agreed.uci);
        snprintf(ev->text, sizeof ev->text, "%d%s %s", (o->u.agreed.ply + 1) / 2,
                 o->u.agreed.ply % 2 ? "." : "...", o->u.agreed.san);
        return 1;
    case TB_MATCH_OUT_MISMATCH: {
        const struct tb_match_mismatch *mm = &o->u.mismatch;
        add(s, mm);
        ev->kind = TB_HALL_EV_MISMATCH;
        ev->ply = mm->ply;
        ev->mismatch = mm->id;
        tb_hall__copy(ev->text, sizeof ev->text, mm->text);
        tb_hall__copy(ev->detail, sizeof ev->detail, mm->resolution);
        return 1;
    }
    case TB_MATCH_OUT_RESOLVED: {
        struct tb_hall_mismatch *h = find(s, o->u.resolved.id);
        if (h) {
            h->open = false;
            tb_hall__copy(h->outcome, sizeof h->outcome, o->u.resolved.text);
        }
        if (o->u.resolved.by_arbiter)
            s->arbiter_call = false; /* the arbiter has come */
        ev->kind = TB_HALL_EV_RESOLVED;
        ev->mismatch = o->u.resolved.id;
        tb_hall__copy(ev->text, sizeof ev->text, o->u.resolved.text);
        return 1;
    }
    case TB_MATCH_OUT_TOUCH_REPORT:
        if (s->ntouch == TB_HALL_MAX_TOUCH) {
            memmove(s->touch[0], s->touch[1], sizeof s->touch[0] * (TB_HALL_MAX_TOUCH - 1));
            s->ntouch--;
        }
        tb_hall__copy(s->touch[s->ntouch++], sizeof s->touch[0], o->u.touch.text);
        ev->kind = TB_HALL_EV_TOUCH;
        ev->ply = o->u.touch.ply;
        tb_hall__copy(ev->text, sizeof ev->text, o->u.touch.text);
        return 1;
    default:
        return 0;
    }
}
