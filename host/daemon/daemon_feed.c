/* daemon_feed.c - the twin game's board inputs as the table's mode takes them (the session,
 * daemon_session.c, hands them in), and the two tables of what the game's decisions do outside
 * the daemon: live (the journal, the players' ears, the buttons' answers) and replay (nothing:
 * the journal already holds it all, the players have heard it). The code that decides never asks
 * which table is in force. */
#include <stdio.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_internal.h"

/* ---- effects ----------------------------------------------------------------------------- */

static void live_speak(struct tb_daemon *d, int board, const char *text, unsigned flags,
                       int move_number)
{
    if (!d->voice)
        return;
    long id = tb_voice_announce(d->voice, d->mcfg.board[board].color, text, flags, move_number);
    if (id < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "speech: cannot queue for %s (%ld)",
                       tb_daemon__board_name(board), id);
}

/* The buttons of a board (enum tb_link_button). The promote button's choice reaches the
 * journal as a promotion record, so a replay has it from there. */
static void live_button(struct tb_daemon *d, int b, int button)
{
    struct tb_match_status st;
    tb_match_status(d->match, &st);
    struct tb_voice_msg_args a = {.board = d->mcfg.board[b].color};
    tb_daemon__vi_press(d, b, button); /* the VI player on their own: promote, long presses */
    switch (button) {
    case TB_LINK_BUTTON_REPEAT:
        tb_daemon__repeat(d, b);
        break;
    case TB_LINK_BUTTON_CLOCK: /* D.2.6: time used by both players and moves made */
        /* the game's clock (daemon_clock.c): the time left on both */
        if (tb_daemon__clock_button(d, b))
            break;
        a.white_ms = (long)d->used_ms[TB_CHESS_WHITE];
        a.black_ms = (long)d->used_ms[TB_CHESS_BLACK];
        a.n = st.plies / 2;
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_CLOCK, &a, 0);
        break;
    case TB_LINK_BUTTON_ARBITER:
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "ARBITER called from the %s board",
                       tb_daemon__board_name(b));
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_ARBITER, &a, 0);
        tb_daemon__hall_arbiter_call(d, b); /* hall: the arbiter is called to the table */
        break;
    default: /* PROMOTE: tb_daemon__vi_press */
        break;
    }
}

static void quiet_speak(struct tb_daemon *d, int board, const char *text, unsigned flags,
                        int move_number)
{
    (void)d, (void)board, (void)text, (void)flags, (void)move_number;
}
static void quiet_button(struct tb_daemon *d, int board, int button)
{
    (void)d, (void)board, (void)button;
}
static void quiet_confirm(struct tb_daemon *d, int board, int what)
{
    (void)d, (void)board, (void)what;
}

const struct tb_daemon__effects tb_daemon__live = {
    .info = TB_CONFIG_LOG_INFO,
    .warn = TB_CONFIG_LOG_WARN,
    .stores = true,
    .acts = true,
    .store = &tb_daemon__journal_store,
    .speak = live_speak,
    .button = live_button,
    .release = tb_daemon__vi_release,
    .confirm = tb_daemon__vi_confirm,
};

/* Recovery: the log keeps the decisions at debug level; nothing is written, said or done. */
const struct tb_daemon__effects tb_daemon__replay = {
    .info = TB_CONFIG_LOG_DEBUG,
    .warn = TB_CONFIG_LOG_DEBUG,
    .store = &tb_daemon__quiet_store,
    .speak = quiet_speak,
    .button = quiet_button,
    .release = quiet_button,
    .confirm = quiet_confirm,
};

/* ---- subscribers ------------------------------------------------------------------------ */

/* Each one's contract: tb_daemon__subscriber (daemon_internal.h). The list's order is the order
 * in which the players and the hall see and hear things: a clock's display and the hall before
 * the move is said, the clock ticked before the broadcast shows it, the scoresheet after the
 * broadcast. In recovery the DGT display and the hall keep quiet (d->fx->acts), the voice's words
 * go to the effects' speak (silent), the clock runs as it did, the broadcast and braille are not
 * open yet. */
static const struct tb_daemon__subscriber dgt_sub = {
    .on_output = tb_daemon__dgt_display, /* a clock's display: STOP, the move */
};

static const struct tb_daemon__subscriber hall_sub = {
    .on_output = tb_daemon__hall_output,         /* the table's events */
    .on_bug_output = tb_daemon__hall_bug_output, /* the table's two games */
};

static const struct tb_daemon__subscriber voice_sub = {
    .on_announce = tb_daemon__say,
};

static void clock_time(struct tb_daemon *d, uint64_t t)
{
    tb_daemon__clock_tick(d, t); /* a flag falls on time (6.8) */
}

static const struct tb_daemon__subscriber clock_sub = {
    .on_done = tb_daemon__clock_output, /* moves press it, stopped play stops it */
    .on_time = clock_time,
    .waits_for_play = tb_daemon__clock_resumes,
    .on_play = tb_daemon__clock_resume,
};

static void broadcast_time(struct tb_daemon *d, uint64_t t)
{
    (void)t;
    tb_daemon__broadcast_clock(d); /* the clock shown as it stands */
}

static const struct tb_daemon__subscriber broadcast_sub = {
    .on_agreed = tb_daemon__broadcast_move, /* shown in order, when agreed */
    .on_time = broadcast_time,
    .on_action = tb_daemon__broadcast_sync, /* a takeback or resolution shown */
};

static void braille_agreed(struct tb_daemon *d, int ply, uint64_t t)
{
    (void)ply, (void)t;
    tb_daemon__braille_game(d); /* the scoresheet grows */
}

static const struct tb_daemon__subscriber braille_sub = {
    .on_agreed = braille_agreed,
    .on_resolved = tb_daemon__braille_game, /* nothing left to put right */
};

static const struct tb_daemon__subscriber *const subscribers[] = {
    &dgt_sub, &hall_sub, &voice_sub, &clock_sub, &broadcast_sub, &braille_sub,
};

void tb_daemon__subscribe(struct tb_daemon *d)
{
    d->subs = subscribers;
    d->nsubs = sizeof subscribers / sizeof subscribers[0];
}

#define EACH(d, s)                                                                                 \
    for (const struct tb_daemon__subscriber *const *s = (d)->subs; s < (d)->subs + (d)->nsubs; s++)

void tb_daemon__tell_output(struct tb_daemon *d, const struct tb_match_out *o)
{
    EACH(d, s)
    if ((*s)->on_output)
        (*s)->on_output(d, o);
}

void tb_daemon__tell_announce(struct tb_daemon *d, const struct tb_match_announce *a)
{
    EACH(d, s)
    if ((*s)->on_announce)
        (*s)->on_announce(d, a);
}

void tb_daemon__tell_agreed(struct tb_daemon *d, int ply, uint64_t t)
{
    EACH(d, s)
    if ((*s)->on_agreed)
        (*s)->on_agreed(d, ply, t);
}

void tb_daemon__tell_resolved(struct tb_daemon *d)
{
    EACH(d, s)
    if ((*s)->on_resolved)
        (*s)->on_resolved(d);
}

void tb_daemon__tell_done(struct tb_daemon *d, const struct tb_match_out *o)
{
    EACH(d, s)
    if ((*s)->on_done)
        (*s)->on_done(d, o);
}

void tb_daemon__tell_time(struct tb_daemon *d, uint64_t t)
{
    EACH(d, s)
    if ((*s)->on_time)
        (*s)->on_time(d, t);
}

void tb_daemon__tell_action(struct tb_daemon *d, uint64_t t)
{
    EACH(d, s)
    if ((*s)->on_action)
        (*s)->on_action(d, t);
}

bool tb_daemon__tell_waits_for_play(const struct tb_daemon *d)
{
    EACH(d, s)
    if ((*s)->waits_for_play && (*s)->waits_for_play(d))
        return true;
    return false;
}

void tb_daemon__tell_play(struct tb_daemon *d, uint64_t t)
{
    EACH(d, s)
    if ((*s)->on_play)
        (*s)->on_play(d, t);
}

void tb_daemon__tell_bug_output(struct tb_daemon *d, const struct tb_bugmatch_out *o)
{
    EACH(d, s)
    if ((*s)->on_bug_output)
        (*s)->on_bug_output(d, o);
}
#undef EACH

/* ---- the feed ---------------------------------------------------------------------------- */

static void twin_tick(struct tb_daemon *d, uint64_t t)
{
    tb_match_tick(d->match, t);
}

/* After the match's own decisions at t. */
static void twin_ticked(struct tb_daemon *d, uint64_t t)
{
    tb_daemon__tell_time(d, t); /* the clock, then the broadcast showing it */
}

/* The link's words for a board event as the match's: a lift, a placement, a promotion choice,
 * a whole-board reading. 0 for what the match does not take. */
static int match_event(const struct tb_journal_event *in, struct tb_match_event *ev)
{
    *ev = (struct tb_match_event){0};
    switch (in->kind) {
    case TB_LINK_EV_LIFT:
        ev->kind = TB_MATCH_EV_LIFT;
        ev->square = in->arg;
        return 1;
    case TB_LINK_EV_PLACE:
        ev->kind = TB_MATCH_EV_PLACE;
        ev->square = in->arg;
        ev->piece = in->piece; /* a board that names its pieces */
        return 1;
    case TB_LINK_EV_CHOICE:
        ev->kind = TB_MATCH_EV_CHOOSE;
        ev->piece = (uint8_t)tb_daemon__promotion((char)in->arg);
        return 1;
    case TB_LINK_EV_SNAPSHOT:
        ev->kind = TB_MATCH_EV_SNAPSHOT;
        ev->occupancy = in->occupancy;
        ev->has_pieces = in->has_pieces;
        if (in->has_pieces)
            memcpy(ev->pieces, in->pieces, sizeof ev->pieces);
        return 1;
    default:
        return 0;
    }
}

/* One board input at t (journaled already): into the match, or its button pressed; losses,
 * returns and faults of a link are journaled for the record and change nothing. */
static int twin_apply(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    struct tb_match_event ev;
    int rc = TB_OK;
    if (in->kind == TB_LINK_EV_BUTTON_DOWN) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: %s button",
                       tb_daemon__board_name(in->board), tb_link_button_name(in->arg));
        /* D.2.10: the clock press ends the player's move (6.2.1, 7.5.2) */
        if (in->arg == TB_LINK_BUTTON_CLOCK)
            tb_daemon__end_move(d, in->board, t);
    } else if (in->kind == TB_LINK_EV_CLOCK) {
        tb_daemon__clock_reading(d, in, t);     /* clock: a board's clock read */
    } else if (in->kind == TB_LINK_EV_RESIGN) { /* 5.1.2: in a twin game the arbiter records it */
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "%s board: its script resigns; a twin game's result is the arbiter's "
                       "(twinboard result): nothing changed",
                       tb_daemon__board_name(in->board));
    } else if (match_event(in, &ev)) {
        tb_daemon__board_fed(d, in->board);
        d->events++;
        rc = tb_match_board_event(d->match, in->board, &ev, t);
        if (rc != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s board: %s %u refused by the match (%d)",
                           tb_daemon__board_name(in->board), tb_link_event_name(in->kind), in->arg,
                           rc);
    }
    return rc;
}

/* A button answered once what it completed is carried out (the move and its confirmation
 * before the clock's own words); a long press is told when it ends. */
static void twin_answer(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    (void)t;
    if (in->kind == TB_LINK_EV_BUTTON_DOWN)
        d->fx->button(d, in->board, in->arg);
    else if (in->kind == TB_LINK_EV_BUTTON_UP)
        d->fx->release(d, in->board, in->arg);
}

/* ---- the twin game as the table's mode ------------------------------------------------- */

/* Both players hear "please wait" and "the arbiter has been called". */
static void twin_tell_wait(struct tb_daemon *d)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_msg_args a = {.board = d->mcfg.board[b].color};
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_WAIT, &a, 0);
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_ARBITER, &a, 0);
    }
}

/* A doorgeefschaak request's record in a twin game's journal: not the twin game's. */
static void twin_record(struct tb_daemon *d, const struct tb_journal_record *rec, uint64_t t)
{
    (void)d, (void)rec, (void)t;
}

const struct tb_daemon__mode tb_daemon__twin = {
    .one_result = true,
    .ctl_modes = TB_CTL_TWIN,
    .name = "the twin game",
    .enabled = "no",
    .requests = "",
    .tick = twin_tick,
    .ticked = twin_ticked,
    .apply = twin_apply,
    .answer = twin_answer,
    .next = tb_daemon__twin_next,
    .needs_disk = tb_daemon__twin_needs_disk,
    .carry_out = tb_daemon__twin_carry_out,
    .tell_wait = twin_tell_wait,
    .status = tb_daemon__twin_status,
    .voice_open = tb_daemon__twin_voice_open,
    .voice_event = tb_daemon__twin_voice_event,
    .record = twin_record,
    .hall_state = tb_daemon__twin_hall_state,
};
