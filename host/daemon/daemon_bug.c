/* daemon_bug.c - doorgeefschaak in the daemon ([bughouse] enabled; docs/doorgeefschaak.md,
 * "Running a match with twinboardd"). The daemon's two boards are board A ([player vi] board)
 * and board B ([player sighted] board) of one tb_bugmatch; four seats (0 White A, 1 Black A,
 * 2 White B, 3 Black B) each hear their own output in their own pack.
 *
 * The board inputs take the twin game's road (daemon_boards.c merges both boards in the order
 * they happened, daemon_feed.c journals each before it is applied) and turn off into the match
 * here; a restart replays the journal through the same road with the replay effects, so the
 * match is rebuilt and nothing is said again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_audio.h"
#include "daemon_boards.h"
#include "daemon_bug.h"
#include "daemon_games.h"
#include "daemon_mode.h"
#include "daemon_session.h"
#include "daemon_voice.h"
#include "tb_hall.h"
#include "tb_str.h"

int tb_daemon__bug_open(struct tb_daemon *d, struct tb_error *err)
{
    const struct tb_config_bughouse *bh = &d->cfg->bughouse;
    if (!bh->enabled)
        return TB_OK;
    struct tb_daemon__bug *g = calloc(1, sizeof *g);
    if (!g)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    d->bug = g;
    tb_daemon__set_mode(d, &tb_daemon__doorgeefschaak);
    tb_bugmatch_config_default(&g->mcfg);
    /* the recognisers' blip window and choice prompt: the [daemon] keys, as in the twin game */
    g->mcfg.sensor.blip_ms = tb_daemon__match_config(d)->sensor.blip_ms;
    g->mcfg.sensor.wobble_ms = tb_daemon__match_config(d)->sensor.wobble_ms;
    g->mcfg.sensor.promo_prompt_ms = tb_daemon__match_config(d)->sensor.promo_prompt_ms;
    struct tb_error e = {0};
    if (bh->control[0] && tb_clock_control_parse(&g->mcfg.control, bh->control, &e) != TB_OK)
        return tb_error_set(err, TB_ERR_ARG, "[bughouse] control: %s", e.msg);
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
        unsigned caps = tb_daemon__board_caps(d, b);
        g->mcfg.typed[b] = caps & TB_LINK_CAP_TYPED;
        if (caps & TB_LINK_CAP_PIECES) /* dgt: names the piece of every placement */
            g->mcfg.kind[b] = TB_BUGMATCH_DGT;
    }
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        g->mcfg.hear_other_board[s] = bh->hear_other_board & (1u << s);
    int rc = tb_bugmatch_new(&g->mcfg, &g->m, err);
    if (rc != TB_OK)
        return rc;
    /* the seats' packs: before recovery, which phrases (and logs) what was said */
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++) {
        const char *name = bh->pack[s][0] ? bh->pack[s] : d->cfg->player[0].pack;
        if (tb_voice_pack_load(name, &g->pack[s], &e) != TB_OK)
            return tb_error_set(err, TB_ERR_ARG, "[bughouse] pack_%s = %s: %s",
                                tb_config_seat_name(s), name, e.msg);
    }
    char hear[64] = "";
    for (int s = 0, u = 0; s < TB_BUGMATCH_SEATS; s++)
        if (bh->hear_other_board & (1u << s))
            u += snprintf(hear + u, sizeof hear - (size_t)u, "%s%s", u ? ", " : "",
                          tb_daemon__bug_seat_name(s));
    tb_daemon__log(d, TB_CONFIG_LOG_INFO,
                   "doorgeefschaak: board A %s, board B %s; the partner's board heard by %s",
                   d->cfg->player[0].board, d->cfg->player[1].board, hear[0] ? hear : "nobody");
    return TB_OK;
}

void tb_daemon__bug_free(struct tb_daemon *d)
{
    struct tb_daemon__bug *g = d->bug;
    if (!g)
        return;
    tb_daemon__bug_keep(d); /* the BPGN as the match stands */
    tb_bugmatch_free(g->m);
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        tb_voice_pack_free(g->pack[s]);
    free(g);
    d->bug = NULL;
}

/* ---- the seats' ears --------------------------------------------------------------------- */

/* A seat's output: an override (--audio, a test's sink) or its audio_SEAT entry. */
static int seat_sink(struct tb_daemon *d, int s, struct tb_voice_player_config *pc,
                     struct tb_error *err)
{
    struct tb_daemon__bug *g = d->bug;
    const char *key = tb_config_seat_name(s);
    const char *audio = d->opt.audio ? d->opt.audio : d->cfg->bughouse.audio[s];
    if (d->opt.sink) {
        pc->sink = d->opt.sink;
        pc->sink_arg = d->opt.sink_arg[s];
    } else if (!audio[0] || !strcmp(audio, "null")) {
        pc->sink = &tb_voice_sink_null;
    } else if (!strncmp(audio, "wav:", 4)) {
        pc->sink = &tb_voice_sink_wav;
        if (d->opt.audio) /* --audio wav:DIR: one file per seat */
            snprintf(g->wav[s], sizeof g->wav[s], "%s/%s.wav", audio + 4, key);
        else
            snprintf(g->wav[s], sizeof g->wav[s], "%s", audio + 4);
        pc->target = g->wav[s];
    } else if (tb_daemon__audio_target(audio)) {
        char name[256];
        struct tb_error e = {0}; /* its own message: err's would be read while written */
        if (tb_voice_portaudio_resolve(tb_daemon__audio_target(audio), name, sizeof name, &e) !=
            TB_OK)
            return tb_error_set(err, TB_ERR_ARG, "[bughouse] audio_%s = %s: %s", key, audio, e.msg);
        pc->sink = &tb_voice_sink_portaudio;
        pc->target = tb_daemon__audio_target(audio);
    } else {
        return tb_error_set(err, TB_ERR_ARG, "[bughouse] audio_%s: no audio output", key);
    }
    return TB_OK;
}

int tb_daemon__bug_voice_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__bug *g = d->bug;
    if (d->opt.audio && !strcmp(d->opt.audio, "none")) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "speech off: announcements are only logged");
        return TB_OK;
    }
    struct tb_voice_config vc = {.pack = g->pack[0], .rate = d->cfg->player[0].rate};
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++) {
        vc.player[s].pack = g->pack[s];
        vc.player[s].rate = d->cfg->player[0].rate;
        int rc = seat_sink(d, s, &vc.player[s], err);
        if (rc != TB_OK)
            return rc;
    }
    int rc = tb_daemon__speaker_start(d, &vc, err); /* no match where a player hears nothing */
    if (rc != TB_OK)
        return rc;
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        if (g->wav[s][0])
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s hears %s", tb_daemon__bug_seat_name(s),
                           g->wav[s]);
    return TB_OK;
}

void tb_daemon__bug_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev)
{
    const char *who = tb_daemon__bug_seat_name(ev->player);
    if (ev->status == TB_VOICE_DEVICE_LOST)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR,
                       "audio: %s hears nothing: the output is lost; trying it again every second",
                       who);
    else if (ev->status == TB_VOICE_DEVICE_BACK)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "audio: %s hears speech again", who);
    else if (ev->status == TB_VOICE_FAILED)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "speech: announcement %ld for %s failed", ev->id,
                       who);
}

/* What a seat is told, in its pack; queued for its output live, only logged in a replay. */
static void say(struct tb_daemon *d, int seat, const struct tb_bugmatch_out *o)
{
    struct tb_daemon__bug *g = d->bug;
    char text[512];
    if (!g->pack[seat] ||
        tb_bugmatch_out_say(g->pack[seat], o, TB_VOICE_LONG, text, sizeof text) <= 0)
        return;
    tb_daemon__log(d, tb_daemon__fx(d)->info, "say to %s: %s", tb_daemon__bug_seat_name(seat),
                   text);
    struct tb_voice *speaker = tb_daemon__speaker(d);
    if (!speaker || !tb_daemon__fx(d)->acts) /* recovery: the seat has heard it */
        return;
    long id = tb_voice_announce(speaker, seat, text,
                                o->kind == TB_BUGMATCH_OUT_MOVE ? TB_VOICE_MOVE : 0, 0);
    if (id < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "speech: cannot queue for %s (%ld)",
                       tb_daemon__bug_seat_name(seat), id);
}

/* ---- the loop ---------------------------------------------------------------------------- */

/* A decision the match took with no input (a recognition, a flag) at a time after the journal's
 * latest record: a mark of that time goes on the record first, so a replay lets the time run as
 * far and takes the same decision quietly instead of saying it again after a restart. */
static void mark(struct tb_daemon *d, uint64_t ms)
{
    struct tb_daemon__bug *g = d->bug;
    if (ms <= g->marked_ms)
        return;
    g->marked_ms = ms;
    struct tb_journal_bug_input in = {.verb = TB_JOURNAL_BUG_TIME, .board = TB_JOURNAL_BOARD_NONE};
    tb_daemon__fx(d)->store->append_bug_input(d, ms, &in, false);
}

/* One output carried out: logged (article 7's and flags as warnings, for the arbiter), said to
 * the seats in its hear mask, the BPGN kept when both games are over. */
static void carry_out(struct tb_daemon *d, const struct tb_bugmatch_out *o)
{
    char line[256];
    tb_bugmatch_out_format(o, line, sizeof line);
    bool warn = o->kind == TB_BUGMATCH_OUT_FLAG || o->kind == TB_BUGMATCH_OUT_ILLEGAL_DROP ||
                tb_daemon__bug_irregular_out(o); /* article 7: for the arbiter */
    tb_daemon__log(d, warn ? tb_daemon__fx(d)->warn : tb_daemon__fx(d)->info, "bughouse: %s", line);
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        if (o->hear & (1u << s))
            say(d, s, o);
    tb_daemon__tell_bug_output(d, o); /* the hall: the table's two games */
    if (o->kind == TB_BUGMATCH_OUT_RESULT && tb_bugmatch_over(d->bug->m))
        tb_daemon__bug_keep(d);
}

/* Nothing is carried out before its cause is on disk (docs/journal.md): the session
 * (daemon_session.c) takes each output, holds it with the match frozen until the journal is
 * committed, then carries it out; a disk that cannot be written stops play with every output
 * still held. The output taken goes on the record as a mark of its time first. */
static bool bug_next(struct tb_daemon *d)
{
    struct tb_daemon__bug *g = d->bug;
    if (tb_bugmatch_poll(g->m, &g->out) != 1)
        return false;
    mark(d, g->out.ms);
    return true;
}

static bool bug_needs_disk(struct tb_daemon *d, bool *written)
{
    (void)d, (void)written;
    return true;
}

static void bug_carry_out(struct tb_daemon *d)
{
    carry_out(d, &d->bug->out);
}

static void bug_drained(struct tb_daemon *d)
{
    if (tb_bugmatch_dropped(d->bug->m))
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "bughouse: %lu outputs lost (queue full)",
                       tb_bugmatch_dropped(d->bug->m));
}

/* The journal cannot be written: all four seats hear "please wait" and "the arbiter has been
 * called", each in its pack (daemon_journal.c says it once). */
void tb_daemon__bug_tell_wait(struct tb_daemon *d)
{
    struct tb_daemon__bug *g = d->bug;
    static const enum tb_voice_msg msgs[] = {TB_VOICE_MSG_WAIT, TB_VOICE_MSG_ARBITER};
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
            struct tb_voice_msg_args a = {.board = s & 1};
            char text[512];
            if (!g->pack[s] || tb_voice_phrase_msg(g->pack[s], msgs[i], &a, text, sizeof text) < 0)
                continue;
            tb_daemon__log(d, tb_daemon__fx(d)->info, "say to %s: %s", tb_daemon__bug_seat_name(s),
                           text);
            if (tb_daemon__speaker(d) && tb_daemon__fx(d)->acts &&
                tb_voice_announce(tb_daemon__speaker(d), s, text, 0, 0) < 0)
                tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "speech: cannot queue for %s",
                               tb_daemon__bug_seat_name(s));
        }
}

static void bug_tick(struct tb_daemon *d, uint64_t t)
{
    tb_bugmatch_tick(d->bug->m, t);
}

uint64_t tb_daemon__bug_deadline(const struct tb_daemon *d)
{
    return d->bug ? tb_bugmatch_deadline(d->bug->m) : UINT64_MAX;
}

/* The seat whose clock runs on board b (the player to move there). */
static int seat_to_move(const struct tb_daemon *d, int b)
{
    return 2 * b + tb_bugmatch_record(d->bug->m)->cur[b].chess.side;
}

/* A piece letter of a choice ('q' ... 'n', 'p' for a dropped pawn) as a piece type, 0 if none. */
static int ptype_of(char c)
{
    int piece = tb_chess_piece_from_fen((char)(c | 0x20));
    return piece > 0 && strchr("qrbnp", c | 0x20) ? TB_CHESS_PIECE_TYPE(piece) : 0;
}

/* One board input (already journaled) into the match at t. */
int tb_daemon__bug_apply(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t)
{
    tb_bugmatch *m = d->bug->m;
    int b = in->board, rc = TB_OK;
    if (t > d->bug->marked_ms) /* on the record already (daemon_feed.c): no mark up to t */
        d->bug->marked_ms = t;
    switch (in->kind) {
    case TB_LINK_EV_LIFT:
        rc = tb_bugmatch_lift(m, b, in->arg, t);
        break;
    case TB_LINK_EV_PLACE:
        rc = tb_bugmatch_place(m, b, in->arg, in->piece, t);
        break;
    case TB_LINK_EV_CHOICE:
        rc = tb_bugmatch_choose(m, b, ptype_of((char)in->arg), t);
        break;
    case TB_LINK_EV_BUTTON_DOWN:
        tb_daemon__log(d, tb_daemon__fx(d)->info, "board %c: %s button", 'A' + b,
                       tb_link_button_name(in->arg));
        if (in->arg == TB_LINK_BUTTON_CLOCK) /* 6.2.1: the move is complete; 6.4: the start */
            rc = tb_bugmatch_press(m, b, t);
        else if (in->arg == TB_LINK_BUTTON_PROMOTE) /* the choice button: the next kind */
            rc = tb_bugmatch_button(m, b, t);
        else if (in->arg == TB_LINK_BUTTON_REPEAT) /* 2.6: the player to move asks the hand */
            rc = tb_bugmatch_ask_pool(m, seat_to_move(d, b), t);
        else if (in->arg == TB_LINK_BUTTON_ARBITER)
            tb_daemon__log(d, tb_daemon__fx(d)->warn, "ARBITER called from board %c", 'A' + b);
        break;
    case TB_LINK_EV_RESIGN: /* 5.2: the player to move on that board resigns (a script's) */
        rc = tb_bugmatch_resign(m, b, tb_bugmatch_record(m)->cur[b].chess.side, t);
        break;
    case TB_LINK_EV_SNAPSHOT: /* a DGT board's whole reading (a connect): what differs from its
                                 events are lifts, then placements; a reed board's is logged */
        if (in->has_pieces && tb_bugmatch_board(m, b) == TB_BUGMATCH_DGT) {
            int n = tb_bugmatch_snapshot(m, b, in->pieces, t);
            rc = n < 0 ? n : TB_OK;
            if (n > 0)
                tb_daemon__log(d, tb_daemon__fx(d)->warn,
                               "board %c: its reading differs from the match in %d squares, "
                               "taken as lifts and placements",
                               'A' + b, n);
        }
        break;
    default: /* releases; losses, returns, faults: on the record only */
        break;
    }
    if (rc != TB_OK && rc != TB_ERR_STATE)
        tb_daemon__log(d, tb_daemon__fx(d)->warn, "board %c: %s %u refused by the match (%d)",
                       'A' + b, tb_link_event_name(in->kind), in->arg, rc);
    if (rc == TB_OK && (in->kind == TB_LINK_EV_LIFT || in->kind == TB_LINK_EV_PLACE)) {
        tb_daemon__board_fed(d, b);
        d->events++;
    }
    return rc;
}

/* ---- inputs that are no board event: journaled as TB_JOURNAL_BUG_INPUT_BIN ----------------- */

int tb_daemon__bug_input(struct tb_daemon *d, const struct tb_journal_bug_input *in, uint64_t t,
                         struct tb_error *err)
{
    tb_bugmatch *m = d->bug->m;
    char text[TB_JOURNAL_BUG_TEXT_MAX];
    tb_journal_bug_input_format(in, text, sizeof text);
    if (in->verb == TB_JOURNAL_BUG_TIME) /* a mark: the time ran this far (recovery; the session) */
        return TB_OK;
    if (in->verb == TB_JOURNAL_BUG_HAND ? in->seat >= TB_BUGMATCH_SEATS
                                        : in->board >= TB_BUGMATCH_BOARDS)
        return tb_error_set(err, TB_ERR_PARSE, "'%s' is no doorgeefschaak input", text);
    if (t > d->bug->marked_ms) /* its record follows at t (daemon_bugctl.c) */
        d->bug->marked_ms = t;
    int rc, a = in->board;
    switch (in->verb) {
    case TB_JOURNAL_BUG_HAND:
        rc = tb_bugmatch_ask_pool(m, in->seat, t);
        break;
    case TB_JOURNAL_BUG_ACCEPT:
    case TB_JOURNAL_BUG_REPLACE: /* article 7 (daemon_bugirr.c) */
        rc = tb_daemon__bug_irregular_input(
            d, in->verb == TB_JOURNAL_BUG_ACCEPT ? "accept" : "replace", a, t, err);
        break;
    case TB_JOURNAL_BUG_RESIGN:
        rc = tb_bugmatch_resign(m, a, in->side ? TB_CHESS_BLACK : TB_CHESS_WHITE, t);
        if (rc == TB_ERR_STATE)
            tb_error_set(err, rc, "the game on board %c is over", 'A' + a);
        break;
    case TB_JOURNAL_BUG_CHOOSE:
        rc = tb_bugmatch_choose(m, a, ptype_of(in->piece), t);
        if (rc == TB_ERR_STATE)
            tb_error_set(err, rc, "no drop or promotion waits for its piece on board %c", 'A' + a);
        else if (rc == TB_ERR_ILLEGAL)
            tb_error_set(err, rc, "that piece may not go there (see the log for the article)");
        break;
    case TB_JOURNAL_BUG_MOVE:
        rc = tb_bugmatch_typed(m, a, in->move, t, err);
        /* D.2.10.1: a typed board has no clock button: its move is complete once typed (the
         * first one starts both clocks, 6.4) */
        if (rc == TB_OK && tb_bugmatch_clock(m, a)->state == TB_CLOCK_READY)
            (void)tb_bugmatch_start(m, t);
        if (rc == TB_OK)
            (void)tb_bugmatch_press(m, a, t);
        break;
    default:
        rc = tb_error_set(err, TB_ERR_PARSE, "'%s' is no doorgeefschaak input", text);
    }
    return rc;
}

/* ---- the record -------------------------------------------------------------------------- */

int tb_daemon__bug_bpgn(struct tb_daemon *d, char **text)
{
    tb_bug_record *rec = malloc(sizeof *rec);
    if (!rec)
        return TB_ERR_MEM;
    *rec = *tb_bugmatch_record(d->bug->m);
    const struct tb_config_game *gm = &d->cfg->game;
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++)
        if (d->cfg->bughouse.name[s][0])
            tb_str_copy(rec->names[s], sizeof rec->names[s], d->cfg->bughouse.name[s]);
    if (gm->event[0])
        tb_str_copy(rec->event, sizeof rec->event, gm->event);
    if (gm->site[0])
        tb_str_copy(rec->site, sizeof rec->site, gm->site);
    if (gm->date[0])
        snprintf(rec->date, sizeof rec->date, "%s", gm->date);
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf)
        n = tb_bug_bpgn_write(rec, buf, (size_t)n + 1);
    free(rec);
    if (!buf)
        return n < 0 ? n : TB_ERR_MEM;
    *text = buf;
    return n;
}

/* The match's BPGN kept beside its journal (NAME.bpgn, as the twin game's NAME.pgn), live only. */
void tb_daemon__bug_keep(struct tb_daemon *d)
{
    struct tb_daemon__bug *g = d->bug;
    const char *name = tb_daemon__game_name(d);
    if (!g || !tb_daemon__journal(d) || !name[0] || !tb_daemon__fx(d)->stores || g->kept ||
        tb_bugmatch_record(g->m)->nplies == 0)
        return;
    char *text = NULL, file[TBD_GAME_NAME + 8];
    if (tb_daemon__bug_bpgn(d, &text) < 0) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "games: the BPGN of %s cannot be made", name);
        return;
    }
    snprintf(file, sizeof file, "%s.bpgn", name);
    if (tb_daemon__game_write(d, file, text) == TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "games: %s/%s written", d->cfg->journal_dir, file);
        g->kept = tb_bugmatch_over(g->m);
    }
    free(text);
}

/* ---- doorgeefschaak as the table's mode ------------------------------------------------- */

/* The hall: the two games, not the (idle) twin match; each seat's clock is in the games. */
static void hall_state(struct tb_daemon *d, struct tb_hall_state *st)
{
    tb_hall_state_from_bugmatch(st, d->bug->m, st->ms);
}

const struct tb_daemon__mode tb_daemon__doorgeefschaak = {
    .script_board = {"A", "B"}, /* a script's board names */
    .hall_refusal = "not for a doorgeefschaak table: resolve and takeback are the twin game's; "
                    "the arbiter acts at the table (twinboard resign, choose, move)",
    .ctl_modes = TB_CTL_BUG,
    .name = "doorgeefschaak",
    .enabled = "yes",
    .requests = "; its requests: status, hand, bpgn, resign, choose, accept, replace, move a|b",
    .new_match = tb_daemon__bug_new_game,
    .tick = bug_tick,
    .apply = tb_daemon__bug_apply,
    .next = bug_next,
    .needs_disk = bug_needs_disk,
    .carry_out = bug_carry_out,
    .drained = bug_drained,
    .tell_wait = tb_daemon__bug_tell_wait,
    .status = tb_daemon__bug_status,
    .voice_open = tb_daemon__bug_voice_open,
    .voice_event = tb_daemon__bug_voice_event,
    .hall_state = hall_state,
};
