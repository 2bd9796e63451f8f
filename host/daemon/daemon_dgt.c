/* daemon_dgt.c - a DGT clock beside a board: its readings logged (a press: the player's signal
 * that the move is made, D.2.4), and its display (a DGT 3000 or DGT XL, TB_LINK_CAP_DISPLAY):
 * play stopped by a mismatch and play going on again, and the move the board's player must
 * copy, in a few characters (docs/dgt.md, "The clock's display"). An e-board with lights
 * (TB_LINK_CAP_LEDS, a ChessLink board) shows the squares to put right while a mismatch is open
 * (docs/boards.md). Both only repeat what the players hear; nothing here changes the game (the
 * game's clock reads the readings). */
#include <stdio.h>

#include "daemon_boards.h"
#include "daemon_dgt.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_session.h"

static void show(struct tb_daemon *d, int b, const char *text, unsigned flags)
{
    struct tb_link *link = tb_daemon__board_link(d, b);
    if (!link || !(tb_daemon__board_caps(d, b) & TB_LINK_CAP_DISPLAY))
        return;
    struct tb_error err = {0};
    int rc = tb_link_display(link, text, flags, &err);
    if (rc == TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "%s board display: %s", tb_daemon__board_name(b),
                       text[0] ? text : "(the times)");
    else if (rc != TB_ERR_SUPP)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s board display: %s", tb_daemon__board_name(b),
                       err.msg);
}

/* The squares to put right lit on a board that has lights (TB_LINK_CAP_LEDS), 0 = all out. */
static void light(struct tb_daemon *d, int b, uint64_t squares)
{
    struct tb_link *link = tb_daemon__board_link(d, b);
    if (!link || !(tb_daemon__board_caps(d, b) & TB_LINK_CAP_LEDS))
        return;
    struct tb_error err = {0};
    int rc = tb_link_leds(link, squares, &err);
    if (rc != TB_OK && rc != TB_ERR_STATE)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s board lights: %s", tb_daemon__board_name(b),
                       err.msg);
}

static uint64_t move_squares(tb_chess_move m)
{
    return TB_CHESS_BIT(tb_chess_move_from(m)) | TB_CHESS_BIT(tb_chess_move_to(m));
}

void tb_daemon__eboard_show_last(struct tb_daemon *d, int b)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    if (g->plies > 0 && st.state == TB_MATCH_IN_SYNC) /* else the lights show what to do */
        light(d, b, move_squares(g->moves[g->plies - 1]));
}

/* The last agreed move in SAN, "" before the first. */
static void last_san(const struct tb_daemon *d, char *buf, size_t len)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    buf[0] = '\0';
    if (g->plies <= 0)
        return;
    tb_chess_pos pos = g->start;
    for (int i = 0; i < g->plies - 1; i++) {
        tb_chess_undo u;
        tb_chess_make(&pos, g->moves[i], &u);
    }
    tb_chess_move_to_san(&pos, g->moves[g->plies - 1], TB_CHESS_LETTERS_EN, 0, buf, len);
}

void tb_daemon__dgt_display(struct tb_daemon *d, const struct tb_match_out *o)
{
    if (!tb_daemon__fx(d)->acts)
        return; /* recovery: the display showed it then */
    char text[TB_LINK_DISPLAY_MAX + 8], san[16], sq[3];
    for (int b = 0; b < TBD_BOARDS; b++) {
        switch (o->kind) {
        case TB_MATCH_OUT_MISMATCH: { /* D.2.9: play stops; where */
            const struct tb_match_mismatch *mm = &o->u.mismatch;
            int at = mm->square < 64 ? mm->square : mm->squares ? __builtin_ctzll(mm->squares) : -1;
            snprintf(text, sizeof text, "STOP%s%s", at >= 0 ? " " : "",
                     at >= 0 ? tb_chess_square_name(at, sq) : "");
            show(d, b, text, TB_LINK_DISPLAY_BEEP);
            uint64_t sqs = mm->squares;
            if (mm->square < 64)
                sqs |= TB_CHESS_BIT(mm->square);
            if (mm->square2 < 64)
                sqs |= TB_CHESS_BIT(mm->square2);
            light(d, b, mm->boards & (1u << b) ? sqs : 0); /* only the board to put right */
            break;
        }
        case TB_MATCH_OUT_RESOLVED: /* play goes on, after the last move agreed */
            last_san(d, san, sizeof san);
            snprintf(text, sizeof text, "GO%s%s", san[0] ? " " : "", san);
            show(d, b, text, TB_LINK_DISPLAY_BRIEF);
            light(d, b, 0); /* the board is right again */
            break;
        case TB_MATCH_OUT_MOVE_AGREED: /* the move shown to copy is on both boards */
            light(d, b, 0);
            break;
        case TB_MATCH_OUT_ANNOUNCE: /* the move this board's player must copy */
            if (!o->u.announce.is_move || o->u.announce.board != b)
                break;
            light(d, b, move_squares(o->u.announce.move));
            tb_chess_move_to_san(&o->u.announce.pos, o->u.announce.move, TB_CHESS_LETTERS_EN, 0,
                                 san, sizeof san);
            show(d, b, san, TB_LINK_DISPLAY_BRIEF);
            break;
        default:
            break;
        }
    }
}

static const char *run_name(int run)
{
    return run == 1 ? "White's clock runs" : run == 2 ? "Black's clock runs" : "stopped";
}

void tb_daemon__dgt_clock(struct tb_daemon *d, int b, const struct tb_link_event *ev)
{
    int was = tb_daemon__board_clock_run(d, b); /* the previous reading */
    tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "%s board clock: White %ld ms, Black %ld ms, %s",
                   tb_daemon__board_name(b), (long)ev->clock_ms[0], (long)ev->clock_ms[1],
                   run_name(ev->clock_run));
    /* D.2.4: the player who pressed stops their clock and starts the opponent's */
    if (was && ev->clock_run && ev->clock_run != was)
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board clock: %s pressed (D.2.4); %s",
                       tb_daemon__board_name(b), was == 1 ? "White" : "Black",
                       run_name(ev->clock_run));
}
