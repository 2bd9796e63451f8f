/* daemon_vi.c - the VI player on their own (docs/guide-vi-player.md): the promote button's
 * choice of piece (4.6, D.2.1), the clock press that ends the move (6.2.1, 7.5.2), the game by
 * ear on the buttons and the `review` request (D.2.7), the confirmation of the player's own move,
 * the buttons' answers and the time each colour has used (D.2.6). The game's clock and the hall
 * hear a button through the table's subscribers (tb_daemon__tell_button), never by name.
 *
 * The promote button cycles the pieces (queen, rook, bishop, knight, queen ...), each press
 * saying the one it offers; the choice is taken when the player has not pressed for
 * promote_settle_ms, or at once when the player presses the clock. Taken, it goes the way of a
 * `promote` request: journaled (a PROMOTION record), then to the match, whose recogniser keeps
 * it for the promotion to come or decides the waiting one with it. A choice not yet taken lives
 * here only: a restart forgets it (the player presses again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_shell.h"
#include "daemon_session.h"
#include "daemon_mode.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

/* Each player's: the promote button's choice not yet taken, the buttons held down (a long press
 * is told at its release), the review playing, the own move last confirmed. */
struct vi_player {
    int choice;         /* the piece the promote button offers now, 0 = none */
    int cycle;          /* its place in the cycle queen, rook, bishop, knight */
    uint64_t choice_at; /* when it is taken: the last press + promote_settle_ms */
    bool no_promotion;  /* the promote button went down with no promotion to make */
    bool held[TB_LINK_BUTTONS];
    uint64_t down_at[TB_LINK_BUTTONS];
    long review_id; /* the last sentence of the review playing, 0 = none */
    int told_ply;   /* the player's own move last confirmed (a reminder is not confirmed again) */
    tb_chess_move told_move;
};

/* The vi part's state, opened before recovery: the replay confirms the moves again (quietly)
 * and measures the time used, as live play did. */
struct tb_daemon__vi {
    struct vi_player player[TBD_BOARDS];
    uint64_t turn_start, used_ms[2]; /* D.2.6: time used per colour, from the boards' moves */
};

static int vi_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!(d->vi = calloc(1, sizeof *d->vi)))
        return tb_error_set(err, TB_ERR_MEM, "the VI player's buttons: out of memory");
    return TB_OK;
}

static void vi_close(struct tb_daemon *d)
{
    free(d->vi);
    d->vi = NULL;
}

const struct tb_daemon__part tb_daemon__part_vi = {
    .name = "vi",
    .open = vi_open,
    .close = vi_close,
};

static const int cycle_piece[4] = {TB_CHESS_QUEEN, TB_CHESS_ROOK, TB_CHESS_BISHOP, TB_CHESS_KNIGHT};

static bool live(const struct tb_daemon *d)
{
    return tb_daemon__fx(d)->acts;
}

/* Can the player at board announce a promotion now (D.2.1)? Their move is due on their board
 * (nothing waits to be copied, play is not stopped) and a pawn of theirs can promote: before,
 * during or after the pawn is moved, the recogniser takes the piece. */
static bool promotion_open(struct tb_daemon *d, int b)
{
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    if (st.state != TB_MATCH_IN_SYNC || tb_daemon__jstopped(d) ||
        g->pos.side != tb_daemon__match_config(d)->board[b].color)
        return false;
    tb_chess_movelist list;
    tb_chess_gen_legal(&g->pos, &list);
    for (int i = 0; i < list.count; i++)
        if (tb_chess_move_promo(list.moves[i]))
            return true;
    return false;
}

/* Takes board b's choice at t; a choice nobody can take any more is said so. */
static void take_choice(struct tb_daemon *d, int b, uint64_t t)
{
    struct vi_player *v = &d->vi->player[b];
    int piece = v->choice;
    if (!piece || tb_daemon__jstopped(d))
        return; /* kept until the journal can be written */
    v->choice = 0;
    v->cycle = 0;
    struct tb_error err = {0};
    if (tb_daemon__promote_at(d, b, piece, t, &err) != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: the promote button's %c refused: %s",
                       tb_daemon__board_name(b), tb_chess_piece_letter(piece, TB_CHESS_LETTERS_EN),
                       err.msg);
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_PROMOTION_NONE, NULL, 0);
        return;
    }
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: the promote button chose %c",
                   tb_daemon__board_name(b), tb_chess_piece_letter(piece, TB_CHESS_LETTERS_EN));
}

uint64_t tb_daemon__vi_deadline(const struct tb_daemon *d)
{
    uint64_t when = UINT64_MAX;
    for (int b = 0; b < TBD_BOARDS; b++)
        if (d->vi->player[b].choice && d->vi->player[b].choice_at < when)
            when = d->vi->player[b].choice_at;
    return when;
}

int tb_daemon__vi_next(struct tb_daemon *d, uint64_t t, uint64_t *due)
{
    if (tb_daemon__jstopped(d) || (*due = tb_daemon__vi_deadline(d)) > t)
        return -1;
    /* the match first reaches the moment the player stopped pressing */
    tb_match_tick(tb_daemon__match(d), *due);
    return d->vi->player[0].choice && d->vi->player[0].choice_at == *due ? 0 : 1;
}

void tb_daemon__vi_take(struct tb_daemon *d, int b, uint64_t t)
{
    take_choice(d, b, t);
}

static void cancel_review(struct tb_daemon *d, int b)
{
    if (!d->vi->player[b].review_id || !tb_daemon__speaker(d))
        return;
    tb_voice_cancel_review(tb_daemon__speaker(d), tb_daemon__match_config(d)->board[b].color);
    d->vi->player[b].review_id = 0;
}

void tb_daemon__vi_before_input(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    if (in->kind == TB_LINK_EV_BUTTON_DOWN && in->arg == TB_LINK_BUTTON_CLOCK)
        take_choice(d, in->board, t); /* the clock ends the choosing too */
    if (live(d) && (in->kind == TB_LINK_EV_LIFT || in->kind == TB_LINK_EV_PLACE ||
                    in->kind == TB_LINK_EV_CHOICE || in->kind == TB_LINK_EV_BUTTON_DOWN))
        cancel_review(d, in->board); /* a review never stands in the way of play */
}

void tb_daemon__end_move(struct tb_daemon *d, int board, uint64_t t)
{
    int rc = tb_match_end_move(tb_daemon__match(d), board, t);
    if (rc == 1)
        tb_daemon__log(d, tb_daemon__fx(d)->info,
                       "%s board: the clock pressed completed the move (6.2.1)",
                       tb_daemon__board_name(board));
}

/* ---- the buttons --------------------------------------------------------------------------- */

static void promote_press(struct tb_daemon *d, int b, uint64_t t)
{
    struct vi_player *v = &d->vi->player[b];
    if (!promotion_open(d, b)) {
        v->no_promotion = true;
        /* said at once unless a long press may ask for a review instead (told at release) */
        if (d->cfg->player[b].review_promote_hold < 0)
            tb_daemon__say_msg(d, b, TB_VOICE_MSG_PROMOTION_NONE, NULL, 0);
        return;
    }
    v->no_promotion = false;
    v->cycle = v->choice ? (v->cycle + 1) % 4 : 0;
    v->choice = cycle_piece[v->cycle];
    v->choice_at = t + (uint64_t)d->cfg->player[b].promote_settle_ms;
    struct tb_voice_msg_args a = {.piece = v->choice};
    /* each press cuts the word of the press before: the player hears the piece now offered */
    tb_daemon__say_msg(d, b, TB_VOICE_MSG_PROMOTION_PIECE, &a, TB_VOICE_URGENT);
}

static void press(struct tb_daemon *d, int b, int button)
{
    if (button < 0 || button >= TB_LINK_BUTTONS)
        return;
    uint64_t t = tb_daemon__match_time(d);
    d->vi->player[b].held[button] = true;
    d->vi->player[b].down_at[button] = t;
    if (button == TB_LINK_BUTTON_PROMOTE)
        promote_press(d, b, t);
}

void tb_daemon__vi_release(struct tb_daemon *d, int b, int button)
{
    struct vi_player *v = &d->vi->player[b];
    if (button < 0 || button >= TB_LINK_BUTTONS || !v->held[button])
        return;
    v->held[button] = false;
    const struct tb_config_player *pc = &d->cfg->player[b];
    bool long_press = tb_daemon__match_time(d) - v->down_at[button] >= (uint64_t)pc->review_hold_ms;
    if (button == TB_LINK_BUTTON_REPEAT && long_press && pc->review_repeat_hold >= 0) {
        tb_daemon__review(d, b, pc->review_repeat_hold, 0, NULL);
    } else if (button == TB_LINK_BUTTON_PROMOTE && v->no_promotion &&
               pc->review_promote_hold >= 0) {
        v->no_promotion = false;
        if (long_press)
            tb_daemon__review(d, b, pc->review_promote_hold, 0, NULL);
        else
            tb_daemon__say_msg(d, b, TB_VOICE_MSG_PROMOTION_NONE, NULL, 0);
    }
}

/* A button pressed (enum tb_link_button): the VI player's own answer, the table's other
 * listeners told (the game's clock, the hall). The promote button's choice reaches the journal
 * as a promotion record, so a replay has it from there. */
void tb_daemon__vi_button(struct tb_daemon *d, int b, int button)
{
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    struct tb_voice_msg_args a = {.board = tb_daemon__match_config(d)->board[b].color};
    press(d, b, button); /* promote, long presses */
    switch (button) {
    case TB_LINK_BUTTON_REPEAT:
        tb_daemon__repeat(d, b);
        break;
    case TB_LINK_BUTTON_CLOCK: /* D.2.6: time used by both players and moves made */
        if (tb_daemon__tell_button(d, b, button))
            break; /* the game's clock said the time left on both */
        a.white_ms = (long)d->vi->used_ms[TB_CHESS_WHITE];
        a.black_ms = (long)d->vi->used_ms[TB_CHESS_BLACK];
        a.n = st.plies / 2;
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_CLOCK, &a, 0);
        break;
    case TB_LINK_BUTTON_ARBITER:
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "ARBITER called from the %s board",
                       tb_daemon__board_name(b));
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_ARBITER, &a, 0);
        tb_daemon__tell_button(d, b, button); /* the hall: the arbiter is called to the table */
        break;
    default: /* PROMOTE: press */
        break;
    }
}

/* ---- the time used (D.2.6) ------------------------------------------------------------------ */

void tb_daemon__vi_moved(struct tb_daemon *d, int mover, uint64_t ms)
{
    struct tb_daemon__vi *vi = d->vi;
    if (ms > vi->turn_start)
        vi->used_ms[mover] += ms - vi->turn_start;
    vi->turn_start = ms;
}

void tb_daemon__vi_new_game(struct tb_daemon *d, uint64_t t)
{
    d->vi->used_ms[0] = d->vi->used_ms[1] = 0;
    d->vi->turn_start = t;
}

uint64_t tb_daemon__vi_time_used(const struct tb_daemon *d, int color)
{
    return d->vi->used_ms[color];
}

/* ---- the player's own move ------------------------------------------------------------------ */

void tb_daemon__vi_confirm(struct tb_daemon *d, int b, int what)
{
    enum tb_voice_confirm_mode mode = (enum tb_voice_confirm_mode)d->cfg->player[b].confirm;
    if (what == TB_VOICE_CONFIRM_TAKEN && mode == TB_VOICE_CONFIRM_OFF)
        return;
    if (what == TB_VOICE_CONFIRM_TAKEN && mode == TB_VOICE_CONFIRM_EARCON)
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "earcon to %s (%s): move taken",
                       tb_daemon__board_name(b),
                       tb_daemon__color_name(tb_daemon__match_config(d)->board[b].color));
    else {
        char text[TB_VOICE_TEMPLATE_MAX + 1];
        static const enum tb_voice_msg msg[] = {TB_VOICE_MSG_TAKEN, TB_VOICE_MSG_ILLEGAL,
                                                TB_VOICE_MSG_NOT_RECOGNISED};
        if (tb_voice_phrase_msg(tb_daemon__pack(d, b), msg[what], NULL, text, sizeof text) >= 0)
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "say to %s (%s): %s", tb_daemon__board_name(b),
                           tb_daemon__color_name(tb_daemon__match_config(d)->board[b].color), text);
    }
    if (tb_daemon__speaker(d))
        tb_voice_confirm(tb_daemon__speaker(d), tb_daemon__match_config(d)->board[b].color, mode,
                         (enum tb_voice_confirm_what)what);
}

void tb_daemon__vi_told(struct tb_daemon *d, const struct tb_match_announce *a)
{
    int mover = 1 - a->board;
    struct vi_player *v = &d->vi->player[mover];
    if (a->ply == v->told_ply && a->move == v->told_move)
        return; /* told again (a reminder): the mover heard already */
    v->told_ply = a->ply;
    v->told_move = a->move;
    tb_daemon__fx(d)->confirm(d, mover, TB_VOICE_CONFIRM_TAKEN);
    if (a->queen_assumed) { /* 7.5.2: the move was ended without a piece chosen */
        struct tb_voice_msg_args m = {.piece = TB_CHESS_QUEEN};
        tb_daemon__say_msg(d, mover, TB_VOICE_MSG_PROMOTION_QUEEN, &m, 0);
    }
}

/* ---- the game by ear ------------------------------------------------------------------------ */

/* The game as the player knows it: the agreed moves and the move waiting for its copy. */
static tb_chess_game *known_game(struct tb_daemon *d)
{
    tb_chess_game *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    *g = *tb_match_game(tb_daemon__match(d));
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    if (st.state == TB_MATCH_WAITING && st.move)
        tb_chess_game_push(g, st.move);
    return g;
}

int tb_daemon__review(struct tb_daemon *d, int b, int what, int arg, char **out)
{
    tb_chess_game *g = known_game(d);
    if (!g)
        return TB_ERR_MEM;
    char *text = NULL;
    int n = tb_voice_review_text(tb_daemon__pack(d, b), g, (enum tb_voice_review_what)what, arg,
                                 tb_daemon__result(d), TB_VOICE_LONG, &text);
    free(g);
    if (n < 0)
        return n;
    int color = tb_daemon__match_config(d)->board[b].color;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "review to %s (%s): %s", tb_daemon__board_name(b),
                   tb_daemon__color_name(color), text);
    if (tb_daemon__speaker(d)) {
        long id = tb_voice_review(tb_daemon__speaker(d), color, text);
        d->vi->player[b].review_id = id > 0 ? id : 0;
    }
    if (out)
        *out = text;
    else
        free(text);
    return n;
}

void tb_daemon__vi_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev)
{
    for (int b = 0; b < TBD_BOARDS; b++)
        if (d->vi->player[b].review_id && d->vi->player[b].review_id == ev->id)
            d->vi->player[b].review_id = 0; /* the review is over */
}

static void review_error(struct tb_daemon__buf *out, int code, const char *msg)
{
    char line[600];
    int n = tb_ctl_format_error(line, sizeof line, code, msg);
    if (n > 0)
        tb_daemon__buf_put(out, line, (size_t)n);
}

void tb_daemon__review_request(struct tb_daemon *d, const struct tb_ctl_request *req,
                               struct tb_daemon__buf *out)
{
    int what = 0;
    while (what < TB_VOICE_REVIEW_WHAT_COUNT && strcmp(tb_config_review_name(what), req->text))
        what++;
    int b = req->board, arg = (int)req->number;
    char *text = NULL, head[TB_CONFIG_PATH_MAX + 160];
    int n = tb_daemon__review(d, b, what, arg, &text);
    if (n < 0) {
        review_error(out, n,
                     n == TB_ERR_ARG ? "no such move in the game (see moves)"
                                     : "the review cannot be phrased");
        return;
    }
    snprintf(head, sizeof head, "said to %s", tb_daemon__board_name(b));
    if (what == TB_VOICE_REVIEW_SCORESHEET &&
        tb_daemon__speaker(d)) { /* D.2.7: the sound file to keep */
        char path[TB_CONFIG_PATH_MAX + 32];
        struct tb_error err = {0};
        tb_chess_game *g = known_game(d);
        snprintf(path, sizeof path, "%s/scoresheet-%s.wav", d->cfg->journal_dir,
                 tb_daemon__board_name(b));
        long frames = g ? tb_voice_scoresheet_wav(tb_daemon__speaker(d),
                                                  tb_daemon__match_config(d)->board[b].color, g,
                                                  tb_daemon__result(d), TB_VOICE_LONG, path, &err)
                        : TB_ERR_MEM;
        free(g);
        if (frames >= 0)
            snprintf(head, sizeof head, "said to %s; scoresheet %s", tb_daemon__board_name(b),
                     path);
        else
            tb_daemon__log(d, TB_CONFIG_LOG_WARN, "scoresheet sound file: %s",
                           err.msg[0] ? err.msg : "out of memory");
    }
    for (char *p = text; (p = strstr(p, ". ")); p++)
        p[1] = '\n'; /* a sentence a data line */
    tb_daemon__data(out, head, text);
    free(text);
}
