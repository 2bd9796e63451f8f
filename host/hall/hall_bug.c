/* hall_bug.c - a doorgeefschaak table's hall state taken from its match (tb_bugmatch) and its
 * outputs: both games' positions with the hands, clocks, results, moves and article 7's wait. */
#include <stdio.h>
#include <string.h>

#include "hall_internal.h"
#include "tb_bugmatch.h"
#include "tb_hall.h"

static const char *const irregular_names[] = {"none", "asked", "put-back", "blocked"};

/* A hand as piece letters, queen first ("QNPP"); cut to fit. */
static void hand_text(const uint8_t pool[6], char *buf, size_t cap)
{
    static const char letters[] = "?PNBRQ";
    size_t n = 0;
    for (int t = TB_CHESS_QUEEN; t >= TB_CHESS_PAWN; t--)
        for (int k = 0; k < pool[t] && n + 1 < cap; k++)
            buf[n++] = letters[t];
    buf[n] = '\0';
}

/* Appends san to the game's sheet, the oldest given up when full. */
static void sheet_push(struct tb_hall_game *g, const char *san)
{
    if (g->nsheet == TB_HALL_BUG_PLIES) {
        memmove(g->sheet[0], g->sheet[1], sizeof g->sheet[0] * (TB_HALL_BUG_PLIES - 1));
        g->nsheet--;
    }
    tb_hall__copy(g->sheet[g->nsheet++], sizeof g->sheet[0], san);
    g->plies++;
}

/* Both games' moves in SAN from the record: played forward from the start, each capture passed
 * to the other board (2.1); article 7's plies (an illegal move as the board showed it, its
 * takeback, a piece handed back) by the record's own replay. */
static void fill_sheets(struct tb_hall_state *s, const tb_bug_record *rec)
{
    tb_bug_pos pos[2] = {rec->start[0], rec->start[1]};
    for (int b = 0; b < 2; b++)
        s->game[b].nsheet = s->game[b].plies = 0;
    for (int i = 0; i < rec->nplies; i++) {
        const struct tb_bug_ply *p = &rec->plies[i];
        struct tb_hall_game *g = &s->game[p->board & 1];
        char san[TB_HALL_SAN_MAX];
        if (!p->irregular) {
            tb_bug_undo u;
            if (!tb_bug_is_legal(&pos[p->board], p->move) ||
                tb_bug_move_to_san(&pos[p->board], p->move, TB_CHESS_LETTERS_EN, san, sizeof san) <
                    0)
                break; /* a record plays from its start; a move that does not ends what is shown */
            sheet_push(g, san);
            tb_bug_make(&pos[p->board], p->move, &u);
            if (u.passed)
                (void)tb_bug_pool_add(&pos[p->board ^ 1], u.passed);
            continue;
        }
        if (p->irregular == TB_BUG_PLY_ILLEGAL &&
            tb_bug_illegal_san(&pos[p->board], p->move, san, sizeof san) > 0)
            sheet_push(g, san);
        else if (p->irregular == TB_BUG_PLY_TAKEBACK && g->nsheet > 0) {
            g->nsheet--; /* 7.4: the illegal move is no longer on the sheet */
            g->plies--;
        }
        if (tb_bug_record_replay(rec, i + 1, pos) != TB_OK)
            break;
    }
    for (int b = 0; b < 2; b++)
        s->game[b].sheet_from = s->game[b].plies - s->game[b].nsheet + 1;
}

void tb_hall_state_from_bugmatch(struct tb_hall_state *s, const struct tb_bugmatch *m,
                                 uint64_t now_ms)
{
    const tb_bug_record *rec = tb_bugmatch_record(m);
    s->bughouse = true;
    s->ngames = 2;
    tb_hall__copy(s->state, sizeof s->state, tb_bugmatch_over(m) ? "over" : "bughouse");
    tb_hall__copy(s->result, sizeof s->result, "*"); /* each game has its own */
    s->ending[0] = s->fen[0] = '\0';
    s->plies = rec->nplies;
    s->ntouch = s->nhistory = 0; /* D.2.9's mismatches are the twin game's */
    s->clock_running = false;
    fill_sheets(s, rec);
    for (int b = 0; b < 2; b++) {
        struct tb_hall_game *g = &s->game[b];
        struct tb_hall_board *hb = &s->board[b];
        snprintf(g->name, sizeof g->name, "%c", 'A' + b);
        char fen[TB_BUG_FEN_MAX];
        if (tb_bug_pos_to_fen(&rec->cur[b], fen, sizeof fen) < 0 || strlen(fen) >= sizeof g->fen)
            fen[0] = '\0';
        tb_hall__copy(g->fen, sizeof g->fen, fen);
        for (int c = 0; c < 2; c++) {
            uint8_t pool[6];
            tb_bugmatch_pool(m, 2 * b + c, pool); /* 2.1: what the seat holds now */
            hand_text(pool, g->hand[c], sizeof g->hand[c]);
        }
        const tb_clock *ck = tb_bugmatch_clock(m, b);
        for (int c = 0; c < 2; c++)
            g->clock_ms[c] = (int64_t)tb_clock_remaining(ck, c, now_ms);
        bool runs = ck->state == TB_CLOCK_RUNNING;
        s->clock_running |= runs;
        tb_hall__copy(g->running, sizeof g->running, !runs ? "" : ck->turn ? "black" : "white");
        const struct tb_bug_verdict *v = &rec->verdict[b];
        tb_hall__copy(g->result, sizeof g->result, tb_bug_result_text(v->result));
        if (v->result == TB_BUG_ONGOING)
            g->ending[0] = '\0';
        else
            snprintf(g->ending, sizeof g->ending, "%s%s%s%s", tb_bug_reason_text(v->reason),
                     v->article && *v->article ? " (" : "", v->article ? v->article : "",
                     v->article && *v->article ? ")" : "");
        enum tb_bugmatch_irregular irr = tb_bugmatch_irregular(m, b);
        tb_hall__copy(g->irregular, sizeof g->irregular,
                      irr >= TB_BUGMATCH_IRR_NONE && irr <= TB_BUGMATCH_IRR_BLOCKED
                          ? irregular_names[irr]
                          : "none");
        /* the twin board fields: only what a board is (name, link: the caller's) */
        hb->fen[0] = '\0';
        hb->nsheet = 0;
        hb->sheet_from = 1;
        hb->clock_ms = -1;
        const tb_sensor *sn = tb_bugmatch_sensor(m, b);
        hb->occupancy = sn ? tb_sensor_occupancy(sn) : 0;
    }
}

static void log_line(struct tb_hall_game *g, const char *line)
{
    if (g->nlog == TB_HALL_BUG_LOG) {
        memmove(g->log[0], g->log[1], sizeof g->log[0] * (TB_HALL_BUG_LOG - 1));
        g->nlog--;
    }
    tb_hall__copy(g->log[g->nlog++], sizeof g->log[0], line);
}

int tb_hall_state_note_bug(struct tb_hall_state *s, const struct tb_bugmatch_out *o,
                           struct tb_hall_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (o->board < 0 || o->board > 1)
        return 0;
    struct tb_hall_game *g = &s->game[o->board];
    char line[256];
    if (tb_bugmatch_out_format(o, line, sizeof line) < 0)
        line[0] = '\0';
    snprintf(ev->board, sizeof ev->board, "%c", 'A' + o->board);
    switch (o->kind) {
    case TB_BUGMATCH_OUT_MOVE: /* D.2.3: made; an event once completed (6.2.1) */
        tb_hall__copy(g->made_san, sizeof g->made_san, o->san);
        if (tb_bug_move_is_drop(o->move))
            tb_hall__copy(g->made_uci, sizeof g->made_uci, o->san); /* "N@f3" in both */
        else if (tb_chess_move_to_uci(&o->before, o->move, g->made_uci, sizeof g->made_uci) < 0)
            g->made_uci[0] = '\0';
        g->made_ply = 2 * (o->before.fullmove - 1) + o->before.side + 1;
        return 0;
    case TB_BUGMATCH_OUT_PLY:
        ev->kind = TB_HALL_EV_MOVE;
        ev->ply = g->made_ply > 0 && g->made_ply <= TB_CHESS_GAME_MAX_PLIES ? g->made_ply : 0;
        tb_hall__copy(ev->san, sizeof ev->san, g->made_san);
        tb_hall__copy(ev->uci, sizeof ev->uci, g->made_uci);
        snprintf(ev->text, sizeof ev->text, "%c: %d%s %s", 'A' + o->board, (ev->ply + 1) / 2,
                 ev->ply % 2 ? "." : "...", g->made_san);
        g->made_san[0] = g->made_uci[0] = '\0';
        return 1;
    case TB_BUGMATCH_OUT_RECEIVED: /* 2.1 */
    case TB_BUGMATCH_OUT_FLAG:     /* 6.1: its result follows */
        log_line(g, line);
        return 0;
    case TB_BUGMATCH_OUT_RESULT:
        log_line(g, line);
        ev->kind = TB_HALL_EV_RESULT;
        tb_hall__copy(ev->text, sizeof ev->text, line);
        return 1;
    case TB_BUGMATCH_OUT_ILLEGAL_DROP: /* 2.2-2.5 */
    case TB_BUGMATCH_OUT_ILLEGAL_MOVE: /* article 7 */
    case TB_BUGMATCH_OUT_ACCEPTED:
    case TB_BUGMATCH_OUT_REPLACE:
    case TB_BUGMATCH_OUT_RETURNED:
    case TB_BUGMATCH_OUT_BLOCKED:
    case TB_BUGMATCH_OUT_HANDED_BACK:
    case TB_BUGMATCH_OUT_PUT_BACK:
        log_line(g, line);
        ev->kind = TB_HALL_EV_IRREGULAR;
        tb_hall__copy(ev->text, sizeof ev->text, line);
        return 1;
    default: /* a hand asked, a choice, what a recogniser reports: the players' */
        return 0;
    }
}
