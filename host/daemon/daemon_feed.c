/* daemon_feed.c - the twin game as the table's mode: its board inputs as the mode takes them and
 * its outputs, one at a time, carried out (the session, daemon_session.c, runs both); the two
 * tables of what the game's decisions do outside the daemon: live (the journal, the players'
 * ears, the buttons' answers) and replay (nothing: the journal already holds it all, the players
 * have heard it), and the subscribers what was carried out is handed to. The code that decides
 * never asks which table is in force. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_braille.h"
#include "daemon_broadcast.h"
#include "daemon_clock.h"
#include "daemon_dgt.h"
#include "daemon_hall.h"
#include "daemon_shell.h"
#include "daemon_result.h"
#include "daemon_mode.h"
#include "daemon_table.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

/* ---- effects ----------------------------------------------------------------------------- */

static void live_speak(struct tb_daemon *d, int board, const char *text, unsigned flags,
                       int move_number)
{
    struct tb_voice *speaker = tb_daemon__speaker(d);
    if (!speaker)
        return;
    long id =
        tb_voice_announce(speaker, d->session->mcfg.board[board].color, text, flags, move_number);
    if (id < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "speech: cannot queue for %s (%ld)",
                       tb_daemon__board_name(board), id);
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
    .button = tb_daemon__vi_button, /* the promote button's choice journaled: a replay has it */
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

/* Each one's contract: tb_daemon__subscriber (daemon_mode.h). The list's order is the order
 * in which the players and the hall see and hear things: a clock's display and the hall before
 * the move is said, the clock ticked before the broadcast shows it, the scoresheet after the
 * broadcast. In recovery the DGT display and the hall keep quiet (d->session->fx->acts), the
 * voice's words go to the effects' speak (silent), the clock runs as it did, the broadcast and
 * braille are not open yet. */
static const struct tb_daemon__subscriber dgt_sub = {
    .on_output = tb_daemon__dgt_display, /* a clock's display: STOP, the move */
};

static bool hall_button(struct tb_daemon *d, int board, int button)
{
    if (button == TB_LINK_BUTTON_ARBITER)
        tb_daemon__hall_arbiter_call(d, board); /* the arbiter is called to the table */
    return false;
}

static const struct tb_daemon__subscriber hall_sub = {
    .on_output = tb_daemon__hall_output,         /* the table's events */
    .on_bug_output = tb_daemon__hall_bug_output, /* the table's two games */
    .on_button = hall_button,
};

static const struct tb_daemon__subscriber voice_sub = {
    .on_announce = tb_daemon__say,
};

static void clock_time(struct tb_daemon *d, uint64_t t)
{
    tb_daemon__clock_tick(d, t); /* a flag falls on time (6.8) */
}

/* D.2.6: the game's clock says the time left on both (else the VI player hears the time used) */
static bool clock_button(struct tb_daemon *d, int board, int button)
{
    return button == TB_LINK_BUTTON_CLOCK && tb_daemon__clock_button(d, board);
}

static const struct tb_daemon__subscriber clock_sub = {
    .on_done = tb_daemon__clock_output, /* moves press it, stopped play stops it */
    .on_time = clock_time,
    .waits_for_play = tb_daemon__clock_resumes,
    .on_play = tb_daemon__clock_resume,
    .on_button = clock_button,
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
    d->session->subs = subscribers;
    d->session->nsubs = sizeof subscribers / sizeof subscribers[0];
}

#define EACH(d, s)                                                                                 \
    for (const struct tb_daemon__subscriber *const *s = (d)->session->subs;                        \
         s < (d)->session->subs + (d)->session->nsubs; s++)

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

bool tb_daemon__tell_button(struct tb_daemon *d, int board, int button)
{
    bool answered = false;
    EACH(d, s)
    if ((*s)->on_button && (*s)->on_button(d, board, button))
        answered = true;
    return answered;
}
#undef EACH

/* ---- the feed ---------------------------------------------------------------------------- */

static void twin_tick(struct tb_daemon *d, uint64_t t)
{
    tb_match_tick(d->session->match, t);
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
        rc = tb_match_board_event(d->session->match, in->board, &ev, t);
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
        d->session->fx->button(d, in->board, in->arg);
    else if (in->kind == TB_LINK_EV_BUTTON_UP)
        d->session->fx->release(d, in->board, in->arg);
}

/* ---- the twin game's outputs: what the match decided, one at a time as the session takes it,
 * carried out (speech for the players, the journal's records, the arbiter's view, the notes) --- */

/* Text cut to fit on purpose (journal and note fields are bounded). */
static void clip(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void clip(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static void agreed(struct tb_daemon *d, const struct tb_match_out *o)
{
    int ply = o->u.agreed.ply;
    d->session->agreed = ply; /* on disk: shown from now on */
    tb_daemon__log(d, d->session->fx->info, "agreed: %d.%s %s (%s)%s", (ply + 1) / 2,
                   ply % 2 ? "" : "..", o->u.agreed.san, o->u.agreed.uci,
                   o->u.agreed.queen_assumed ? ", promoted without a choice: queen (7.5.2)" : "");
    if (o->u.agreed.queen_assumed)
        tb_daemon__note(d, ply, "promoted without a choice: queen (7.5.2)");
    tb_daemon__result_rules(d, o->ms);     /* the game's end by the rules */
    tb_daemon__tell_agreed(d, ply, o->ms); /* the broadcast, then the scoresheet in braille */
}

static void mismatch(struct tb_daemon *d, const struct tb_match_out *o)
{
    const struct tb_match_mismatch *mm = &o->u.mismatch;
    tb_daemon__mismatch_view(d, mm, d->session->last_view, sizeof d->session->last_view);
    for (const char *p = d->session->last_view; *p;) { /* one log line a line: none is cut */
        int n = (int)strcspn(p, "\n");
        tb_daemon__log(d, d->session->fx->warn, "%.*s", n, p);
        p += n + (p[n] == '\n');
    }
    tb_daemon__note_mismatch(d, mm->id, tb_match_mismatch_name(mm->kind), mm->board, mm->ply,
                             mm->text);
    struct tb_journal_decision dec = {.id = mm->id, .board = (uint8_t)mm->board};
    snprintf(dec.who, sizeof dec.who, "daemon");
    clip(dec.text, sizeof dec.text, "%s: %s | %s", tb_match_mismatch_name(mm->kind), mm->text,
         mm->resolution);
    d->session->fx->store->append_decision(d, TB_JOURNAL_MISMATCH, o->ms, &dec, true);
}

static void resolved(struct tb_daemon *d, const struct tb_match_out *o)
{
    tb_daemon__log(d, d->session->fx->info, "RESOLVED %u: %s", o->u.resolved.id,
                   o->u.resolved.text);
    tb_daemon__note_resolved(d, o->u.resolved.by_arbiter, o->u.resolved.text);
    d->session->last_view[0] = '\0';
    struct tb_journal_decision dec = {.id = o->u.resolved.id, .board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "%s", o->u.resolved.by_arbiter ? "arbiter" : "player");
    clip(dec.text, sizeof dec.text, "%s", o->u.resolved.text);
    d->session->fx->store->append_decision(d, TB_JOURNAL_RESOLUTION, o->ms, &dec, true);
}

static void note_only(struct tb_daemon *d, const struct tb_match_out *o, uint16_t type, int board,
                      const char *text)
{
    const char *what = tb_daemon__note_what(type);
    tb_daemon__log(d, d->session->fx->warn, "%s, %s board: %s", what, tb_daemon__board_name(board),
                   text);
    tb_daemon__note(d, tb_daemon__plies(d), "%s (%s board): %s", what, tb_daemon__board_name(board),
                    text);
    struct tb_journal_decision dec = {.board = (uint8_t)board};
    snprintf(dec.who, sizeof dec.who, "daemon");
    clip(dec.text, sizeof dec.text, "%s", text);
    d->session->fx->store->append_decision(d, type, o->ms, &dec, false);
}

static void handle(struct tb_daemon *d, const struct tb_match_out *o)
{
    char line[200];
    tb_daemon__tell_output(d, o); /* the DGT clocks' display, the hall */
    switch (o->kind) {
    case TB_MATCH_OUT_ANNOUNCE:
        if (o->u.announce.is_move)
            tb_daemon__vi_moved(d, o->u.announce.pos.side, o->ms); /* D.2.6: time used */
        tb_daemon__tell_announce(d, &o->u.announce);
        break;
    case TB_MATCH_OUT_MOVE_AGREED:
        agreed(d, o);
        break;
    case TB_MATCH_OUT_MISMATCH:
        mismatch(d, o);
        break;
    case TB_MATCH_OUT_RESOLVED:
        resolved(d, o);
        tb_daemon__tell_resolved(d);
        break;
    case TB_MATCH_OUT_TOUCH_REPORT:
        note_only(d, o, TB_JOURNAL_TOUCH, o->u.touch.board, o->u.touch.text);
        break;
    case TB_MATCH_OUT_HELD:
        note_only(d, o, TB_JOURNAL_HELD, o->u.held.board, o->u.held.text);
        break;
    case TB_MATCH_OUT_ARBITER:
        if (d->session->agreed >
            tb_match_game(d->session->match)->plies) /* a takeback, a new game */
            d->session->agreed = tb_match_game(d->session->match)->plies;
        tb_match_out_format(o, line, sizeof line);
        /* The formatted line already opens with "arbiter" ("arbiter resolve #1"). */
        tb_daemon__log(d, d->session->fx->info, "%s", line);
        tb_daemon__note(d, tb_daemon__plies(d), "%s", line);
        break;
    case TB_MATCH_OUT_STATE:
        d->session->shown = (struct tb_match_status){.state = o->u.state.state,
                                                     .board = o->u.state.board,
                                                     .move = o->u.state.move,
                                                     .mismatch = o->u.state.mismatch,
                                                     .plies = o->u.state.plies};
        tb_match_out_format(o, line, sizeof line);
        tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "%s", line);
        break;
    }
    tb_daemon__tell_done(d, o); /* the clock: moves press it, stopped play stops it */
}

/* The match's next output, held (d->session->jstop.out) until it is carried out; false: none. */
static bool twin_next(struct tb_daemon *d)
{
    return tb_match_poll(d->session->match, &d->session->jstop.out) == 1;
}

/* What must be on disk before an output is carried out: an agreed move's record (appended here,
 * once: *written), and for anything said to a player every record before it (the board events
 * that made the move announced, D.2.1). */
static bool twin_needs_disk(struct tb_daemon *d, bool *written)
{
    const struct tb_match_out *o = &d->session->jstop.out;
    if (o->kind == TB_MATCH_OUT_MOVE_AGREED && !*written) {
        int lead = tb_daemon__board_of_color(d, o->u.agreed.pos.side);
        if (d->session->fx->store->append_move(d, o->ms, lead, o->u.agreed.ply, o->u.agreed.move,
                                               o->u.agreed.san) == TB_OK)
            *written = true; /* appended: kept in memory until a commit writes it */
    }
    return o->kind == TB_MATCH_OUT_MOVE_AGREED || o->kind == TB_MATCH_OUT_ANNOUNCE;
}

static void twin_carry_out(struct tb_daemon *d)
{
    handle(d, &d->session->jstop.out);
}

/* ---- the twin game as the table's mode ------------------------------------------------- */

/* Both players hear "please wait" and "the arbiter has been called". */
static void twin_tell_wait(struct tb_daemon *d)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_msg_args a = {.board = d->session->mcfg.board[b].color};
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_WAIT, &a, 0);
        tb_daemon__say_msg(d, b, TB_VOICE_MSG_ARBITER, &a, 0);
    }
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
    .next = twin_next,
    .needs_disk = twin_needs_disk,
    .carry_out = twin_carry_out,
    .tell_wait = twin_tell_wait,
    .status = tb_daemon__twin_status,
    .voice_open = tb_daemon__twin_voice_open,
    .voice_event = tb_daemon__twin_voice_event,
    .hall_state = tb_daemon__twin_hall_state,
};
