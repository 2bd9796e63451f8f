/* daemon_voice.c - the players' ears (D.2.1): each announcement of the match phrased in the
 * listening player's pack and queued on the speech thread for that player's sink. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_audio.h"
#include "daemon_boards.h"
#include "daemon_braille.h"
#include "daemon_dgt.h"
#include "daemon_shell.h"
#include "daemon_session.h"
#include "daemon_mode.h"
#include "daemon_vi.h"
#include "daemon_voice.h"

/* The voice part's state: allocated when it opens, after recovery (daemon_parts.c). */
struct tb_daemon__voice {
    struct tb_voice *speaker; /* the speech thread; NULL with speech off */
    struct tb_voice_pack *pack[TBD_BOARDS];
    char wav_path[TBD_BOARDS][TB_CONFIG_PATH_MAX + 32];
};

/* The match says what to tell a player in the voice's words: one message list, one square
 * action layout (announcements are handed over by cast). */
_Static_assert(TB_MATCH_MSG_MISMATCH == (int)TB_VOICE_MSG_MISMATCH &&
                   TB_MATCH_MSG_ILLEGAL == (int)TB_VOICE_MSG_ILLEGAL &&
                   TB_MATCH_MSG_WAIT == (int)TB_VOICE_MSG_WAIT &&
                   TB_MATCH_MSG_REPLICATE == (int)TB_VOICE_MSG_REPLICATE &&
                   TB_MATCH_MSG_PUT_RIGHT == (int)TB_VOICE_MSG_PUT_RIGHT &&
                   TB_MATCH_MSG_ARBITER == (int)TB_VOICE_MSG_ARBITER &&
                   TB_MATCH_MSG_PROMOTION_ASK == (int)TB_VOICE_MSG_PROMOTION_ASK,
               "enum tb_match_msg values are those of enum tb_voice_msg");
_Static_assert(sizeof(struct tb_match_square_action) == sizeof(struct tb_voice_square_action) &&
                   offsetof(struct tb_match_square_action, sq) ==
                       offsetof(struct tb_voice_square_action, sq) &&
                   offsetof(struct tb_match_square_action, piece) ==
                       offsetof(struct tb_voice_square_action, piece),
               "a put-right square of the match is one of the voice");

/* The sink of one player: an override (--audio) or the configuration's audio entry. */
static int player_sink(struct tb_daemon *d, int b, struct tb_voice_player_config *pc,
                       struct tb_error *err)
{
    const char *audio = d->opt.audio ? d->opt.audio : d->cfg->player[b].audio;
    const char *role = tb_daemon__board_name(b);
    struct tb_daemon__voice *v = d->voice;
    if (d->opt.sink) {
        pc->sink = d->opt.sink;
        pc->sink_arg = d->opt.sink_arg[tb_daemon__match_config(d)->board[b].color];
        return TB_OK;
    }
    if (!strcmp(audio, "null") || !strcmp(audio, "none")) {
        pc->sink = &tb_voice_sink_null;
    } else if (!strncmp(audio, "wav:", 4)) {
        pc->sink = &tb_voice_sink_wav;
        /* --audio wav:DIR gives one file per player; the configuration names the file */
        if (d->opt.audio)
            snprintf(v->wav_path[b], sizeof v->wav_path[b], "%s/%s.wav", audio + 4, role);
        else
            snprintf(v->wav_path[b], sizeof v->wav_path[b], "%s", audio + 4);
        pc->target = v->wav_path[b];
    } else if (tb_daemon__audio_target(audio)) {
        pc->sink = &tb_voice_sink_portaudio;
        pc->target = tb_daemon__audio_target(audio);
    } else {
        return tb_error_set(err, TB_ERR_ARG, "%s player: no audio output", role);
    }
    return TB_OK;
}

static int voice_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!(d->voice = calloc(1, sizeof *d->voice)))
        return tb_error_set(err, TB_ERR_MEM, "speech: out of memory");
    return tb_daemon__mode(d)->voice_open(d, err);
}

struct tb_voice *tb_daemon__speaker(const struct tb_daemon *d)
{
    return d->voice ? d->voice->speaker : NULL;
}

/* Recovery phrases what was said before the voice is open: no pack then, as with speech that
 * could not start; the words are only logged (at debug level) and nobody hears them. */
const struct tb_voice_pack *tb_daemon__pack(const struct tb_daemon *d, int board)
{
    return d->voice && board >= 0 && board < TBD_BOARDS ? d->voice->pack[board] : NULL;
}

int tb_daemon__speaker_start(struct tb_daemon *d, const struct tb_voice_config *vc,
                             struct tb_error *err)
{
    struct tb_error e = {0};
    int rc = tb_voice_new(vc, &d->voice->speaker, &e);
    if (rc != TB_OK) {
        /* No game where a player would hear nothing: the reason is the start-up error. */
        d->voice->speaker = NULL;
        return tb_error_set(err, rc, "speech: %s", e.msg);
    }
    return TB_OK;
}

int tb_daemon__twin_voice_open(struct tb_daemon *d, struct tb_error *err)
{
    struct tb_daemon__voice *v = d->voice;
    for (int b = 0; b < TBD_BOARDS; b++) {
        int rc = tb_voice_pack_load(d->cfg->player[b].pack, &v->pack[b], err);
        if (rc != TB_OK)
            return rc;
    }
    if (d->opt.audio && !strcmp(d->opt.audio, "none")) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "speech off: announcements are only logged");
        return TB_OK;
    }
    /* Each player hears their own pack, eSpeak NG voice and rate (the speech thread switches
     * voices between them); the VI player's are also the speaker's defaults. */
    int rc = tb_daemon__audio_probe(d, err); /* a wrong headset name stops start-up */
    if (rc != TB_OK)
        return rc;
    struct tb_voice_config vc = {.pack = v->pack[0]};
    if (d->cfg->player[0].voice[0])
        vc.espeak_voice = d->cfg->player[0].voice;
    vc.rate = d->cfg->player[0].rate;
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_player_config *pc = &vc.player[tb_daemon__match_config(d)->board[b].color];
        pc->pack = v->pack[b];
        pc->espeak_voice = d->cfg->player[b].voice[0] ? d->cfg->player[b].voice : NULL;
        pc->rate = d->cfg->player[b].rate;
        rc = player_sink(d, b, pc, err);
        if (rc != TB_OK)
            return rc;
    }
    if ((rc = tb_daemon__speaker_start(d, &vc, err)) != TB_OK)
        return rc;
    char what[256] = "";
    tb_voice_describe(v->speaker, what, sizeof what);
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "speech: %s", what);
    for (int b = 0; b < TBD_BOARDS; b++)
        if (v->wav_path[b][0])
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s player hears %s", tb_daemon__board_name(b),
                           v->wav_path[b]);
    return TB_OK;
}

static void voice_close(struct tb_daemon *d)
{
    struct tb_daemon__voice *v = d->voice;
    if (!v)
        return;
    tb_voice_free(v->speaker); /* the speech thread first: it reads the packs */
    for (int b = 0; b < TBD_BOARDS; b++)
        tb_voice_pack_free(v->pack[b]);
    free(v);
    d->voice = NULL;
}

static void queue(struct tb_daemon *d, int b, const char *text, unsigned flags, int move_number)
{
    int color = tb_daemon__match_config(d)->board[b].color;
    tb_daemon__log(d, tb_daemon__fx(d)->info, "say to %s (%s): %s", tb_daemon__board_name(b),
                   tb_daemon__color_name(color), text);
    tb_daemon__fx(d)->speak(d, b, text, flags, move_number);
}

/* D.2.9: how to put a board right, in parts of at most TBD_PUT_RIGHT_SQUARES squares, each a
 * whole instruction ("Bitte korrigieren: ..."), lifts before places: a whole board to set up is
 * said as several short announcements in order, never one that nobody can follow. */
static void put_right(struct tb_daemon *d, int b, const struct tb_voice_msg_args *all)
{
    char text[4096];
    int total = all->nlift + all->nplace;
    if (total == 0) /* this board needs no change */
        return;
    for (int from = 0; from < total; from += TBD_PUT_RIGHT_SQUARES) {
        int to = from + TBD_PUT_RIGHT_SQUARES < total ? from + TBD_PUT_RIGHT_SQUARES : total;
        struct tb_voice_msg_args part = *all;
        int lift_from = from < all->nlift ? from : all->nlift;
        int lift_to = to < all->nlift ? to : all->nlift;
        part.lift = all->lift + lift_from;
        part.nlift = lift_to - lift_from;
        int place_from = from - all->nlift > 0 ? from - all->nlift : 0;
        part.place = all->place + place_from;
        part.nplace = to - all->nlift - place_from > 0 ? to - all->nlift - place_from : 0;
        int n = tb_voice_phrase_msg(tb_daemon__pack(d, b), TB_VOICE_MSG_PUT_RIGHT, &part, text,
                                    sizeof text);
        if (n < 0) {
            /* in recovery no pack is open yet: nobody is to hear it, no warning */
            tb_daemon__log(d, tb_daemon__fx(d)->warn,
                           "speech: put-right part cannot be phrased (%d)", n);
            return;
        }
        queue(d, b, text, 0, 0);
    }
}

/* Braille: the move to copy (text, as said to the player at a->board), and the mover's own move
 * in the mover's words. */
static void told_move(struct tb_daemon *d, const struct tb_match_announce *a, const char *text)
{
    int mover = 1 - a->board;
    char own[256];
    tb_daemon__braille_said(d, a->board, TBD_BRAILLE_TO_COPY, text);
    if (tb_voice_phrase_move(tb_daemon__pack(d, mover), &a->pos, a->move, TB_VOICE_LONG, own,
                             sizeof own) > 0)
        tb_daemon__braille_said(d, mover, TBD_BRAILLE_OWN_MOVE, own); /* the last move */
}

void tb_daemon__say(struct tb_daemon *d, const struct tb_match_announce *a)
{
    int b = a->board >= 0 && a->board < TBD_BOARDS ? a->board : 0;
    const struct tb_voice_pack *pack = tb_daemon__pack(d, b);
    char move[256] = "", text[4096];
    if (a->move &&
        tb_voice_phrase_move(pack, &a->pos, a->move, TB_VOICE_LONG, move, sizeof move) < 0)
        tb_chess_move_to_uci(&a->pos, a->move, move, sizeof move);
    if (a->is_move) {
        queue(d, b, move, TB_VOICE_MOVE, (a->ply + 1) / 2);
        told_move(d, a, move);
        tb_daemon__vi_told(d, a); /* the mover's confirmation */
        return;
    }
    /* the match's squares copied into the voice's own type: one struct is not read as another */
    struct tb_voice_square_action lift[TB_MATCH_MAX_SQUARES], place[TB_MATCH_MAX_SQUARES];
    int nlift = a->nlift < TB_MATCH_MAX_SQUARES ? a->nlift : TB_MATCH_MAX_SQUARES;
    int nplace = a->nplace < TB_MATCH_MAX_SQUARES ? a->nplace : TB_MATCH_MAX_SQUARES;
    for (int i = 0; i < nlift; i++)
        lift[i] = (struct tb_voice_square_action){a->lift[i].sq, a->lift[i].piece};
    for (int i = 0; i < nplace; i++)
        place[i] = (struct tb_voice_square_action){a->place[i].sq, a->place[i].piece};
    struct tb_voice_msg_args args = {
        .board = a->about_color,
        .move = move,
        .n = (a->ply + 1) / 2,
        .lift = lift,
        .nlift = nlift,
        .place = place,
        .nplace = nplace,
    };
    if (a->msg == TB_MATCH_MSG_PUT_RIGHT) {
        put_right(d, b, &args);
        return;
    }
    int n = tb_voice_phrase_msg(pack, (enum tb_voice_msg)a->msg, &args, text, sizeof text);
    if (n < 0) {
        tb_daemon__log(d, tb_daemon__fx(d)->warn, "speech: message %d cannot be phrased (%d)",
                       a->msg, n);
        return;
    }
    queue(d, b, text, a->msg == TB_MATCH_MSG_MISMATCH ? TB_VOICE_URGENT : 0, 0);
    if (a->msg == TB_MATCH_MSG_REPLICATE) /* braille: the move to copy, said again */
        tb_daemon__braille_said(d, b, TBD_BRAILLE_TO_COPY, move);
    else
        tb_daemon__braille_said(d, b, TBD_BRAILLE_MESSAGE, text);
}

void tb_daemon__say_msg(struct tb_daemon *d, int board, enum tb_voice_msg msg,
                        const struct tb_voice_msg_args *args, unsigned flags)
{
    char text[4096];
    if (tb_voice_phrase_msg(tb_daemon__pack(d, board), msg, args, text, sizeof text) >= 0)
        queue(d, board, text, flags, 0);
}

void tb_daemon__repeat(struct tb_daemon *d, int board)
{
    tb_daemon__eboard_show_last(d, board); /* and shown, on a board with lights */
    struct tb_voice *speaker = tb_daemon__speaker(d);
    if (!speaker)
        return;
    long id = tb_voice_repeat(speaker, tb_daemon__match_config(d)->board[board].color);
    if (id == TB_ERR_NOTFOUND) {
        struct tb_voice_msg_args a = {.board = tb_daemon__match_config(d)->board[board].color};
        tb_daemon__say_msg(d, board, TB_VOICE_MSG_NO_MOVE, &a, 0);
    } else if (id > 0) {
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "say to %s: the last move again",
                       tb_daemon__board_name(board));
    }
}

/* One event of the speech thread in the twin game: the VI player's review and confirmations,
 * the audio devices, the log. */
void tb_daemon__twin_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev)
{
    tb_daemon__vi_voice_event(d, ev);
    if (ev->status == TB_VOICE_DEVICE_LOST || ev->status == TB_VOICE_DEVICE_BACK)
        tb_daemon__audio_event(d, ev);
    else if (ev->status == TB_VOICE_FAILED)
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "speech: announcement %ld for %s failed", ev->id,
                       tb_daemon__color_name(ev->player));
    else
        tb_daemon__log(d, TB_CONFIG_LOG_DEBUG, "speech: announcement %ld %s", ev->id,
                       ev->status == TB_VOICE_CUT ? "cut" : "spoken");
}

static int voice_handle(struct tb_daemon *d, const struct pollfd *p, int np)
{
    if (np < 1 || !(p[0].revents & POLLIN)) /* the speech thread's completions */
        return TB_OK;
    struct tb_voice *speaker = tb_daemon__speaker(d);
    struct tb_voice_event ev[16];
    int n;
    while (speaker && (n = tb_voice_events(speaker, ev, 16)) > 0) {
        for (int i = 0; i < n; i++)
            tb_daemon__mode(d)->voice_event(d, &ev[i]);
        if (n < 16)
            break;
    }
    return TB_OK;
}

bool tb_daemon__voice_idle(struct tb_daemon *d)
{
    struct tb_voice *speaker = tb_daemon__speaker(d);
    return !speaker || tb_voice_wait_idle(speaker, -1, 0) == TB_OK;
}

static int voice_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    struct tb_voice *speaker = tb_daemon__speaker(d);
    if (!speaker || max < 1)
        return 0;
    p[0] = (struct pollfd){.fd = tb_voice_fd(speaker), .events = POLLIN};
    return 1;
}

/* status: the speech (off, idle or speaking), then each player's headset while it is on. */
static void voice_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    const char *speech = !tb_daemon__speaker(d)     ? "speech: off\n"
                         : tb_daemon__voice_idle(d) ? "speech: idle\n"
                                                    : "speech: speaking\n";
    tb_daemon__buf_put(out, speech, strlen(speech));
    char audio[1024]; /* a lost headset shows here */
    tb_daemon__audio_status(d, audio, sizeof audio);
    if (audio[0]) {
        tb_daemon__buf_put(out, audio, strlen(audio));
        tb_daemon__buf_put(out, "\n", 1);
    }
}

const struct tb_daemon__part tb_daemon__part_voice = {
    .name = "voice",
    .open = voice_open,
    .close = voice_close,
    .pollfds = voice_pollfds,
    .handle = voice_handle,
    .status = voice_status,
};
