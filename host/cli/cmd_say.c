/* cmd_say.c - `twinboard say`: the spoken announcement of moves (D.2.1) as text, and optionally
 * as audio in a WAV file or through a PortAudio device. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_chess.h"
#include "tb_voice.h"

#define MAX_MOVES  512
#define PHRASE_MAX 256

struct say_opts {
    const char *fen, *pack, *wav, *device;
    bool is_short, play, list_devices, phonemes;
    long rate;
    int nmoves;
    char **moves; /* argc entries */
};

static int parse_opts(int argc, char **argv, struct say_opts *o)
{
    enum { O_SHORT = 256, O_PLAY, O_LIST, O_PHONEMES, O_FEN, O_PACK, O_WAV, O_DEVICE, O_RATE };
    static const struct option longs[] = {
        {"short", no_argument, NULL, O_SHORT},       {"play", no_argument, NULL, O_PLAY},
        {"list-devices", no_argument, NULL, O_LIST}, {"phonemes", no_argument, NULL, O_PHONEMES},
        {"fen", required_argument, NULL, O_FEN},     {"pack", required_argument, NULL, O_PACK},
        {"wav", required_argument, NULL, O_WAV},     {"device", required_argument, NULL, O_DEVICE},
        {"rate", required_argument, NULL, O_RATE},   {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        switch (c) {
        case 1:
            o->moves[o->nmoves++] = optarg; /* moves and options in any order */
            break;
        case O_SHORT:
            o->is_short = true;
            break;
        case O_PLAY:
            o->play = true;
            break;
        case O_LIST:
            o->list_devices = true;
            break;
        case O_PHONEMES:
            o->phonemes = true;
            break;
        case O_FEN:
            o->fen = optarg;
            break;
        case O_PACK:
            o->pack = optarg;
            break;
        case O_WAV:
            o->wav = optarg;
            break;
        case O_DEVICE:
            o->device = optarg;
            break;
        case O_RATE:
            if (!tb_cli_parse_int(optarg, 80, 800, &o->rate)) {
                tb_cli_error("say: --rate '%s' is not a number from 80 to 800", optarg);
                return TB_CLI_USAGE;
            }
            break;
        default:
            return tb_cli_usage("say");
        }
    }
    if (o->list_devices)
        return TB_CLI_OK;
    if (o->nmoves == 0) {
        tb_cli_error("say: no moves given");
        return tb_cli_usage("say");
    }
    if (o->nmoves > MAX_MOVES) {
        tb_cli_error("say: at most %d moves", MAX_MOVES);
        return TB_CLI_USAGE;
    }
    return TB_CLI_OK;
}

/* Speaks the phrases to the configured sinks: white to the WAV file, black to the device. */
static int speak(const struct say_opts *o, const struct tb_voice_pack *pack,
                 char (*phrase)[PHRASE_MAX], int n)
{
    struct tb_voice_config cfg = {.pack = pack, .rate = (int)o->rate};
    if (o->wav)
        cfg.player[TB_CHESS_WHITE] =
            (struct tb_voice_player_config){.sink = &tb_voice_sink_wav, .target = o->wav};
    if (o->play)
        cfg.player[TB_CHESS_BLACK] =
            (struct tb_voice_player_config){.sink = &tb_voice_sink_portaudio, .target = o->device};
    struct tb_voice *voice = NULL;
    struct tb_error err = {0};
    if (tb_voice_new(&cfg, &voice, &err)) {
        tb_cli_error("say: %s", err.msg);
        return TB_CLI_USAGE;
    }
    int rc = TB_CLI_OK;
    for (int i = 0; i < n && rc == TB_CLI_OK; i++) {
        if (o->phonemes) {
            char ph[1024];
            if (tb_voice_phonemes(voice, -1, phrase[i], ph, sizeof ph) >= 0)
                printf("  [%s]\n", ph);
        }
        for (int p = 0; p < TB_VOICE_PLAYERS; p++)
            if ((p == TB_CHESS_WHITE && o->wav) || (p == TB_CHESS_BLACK && o->play)) {
                long id = tb_voice_announce(voice, p, phrase[i], TB_VOICE_MOVE, i + 1);
                if (id < 0) {
                    tb_cli_error("say: cannot queue \"%s\": %s", phrase[i], tb_strerror((int)id));
                    rc = TB_CLI_USAGE;
                }
            }
    }
    tb_voice_wait_idle(voice, -1, -1);
    struct tb_voice_event ev[16];
    int k;
    while ((k = tb_voice_events(voice, ev, 16)) > 0)
        for (int i = 0; i < k; i++)
            if (ev[i].status == TB_VOICE_FAILED) {
                tb_cli_error("say: the audio of announcement %ld failed", ev[i].id);
                rc = TB_CLI_USAGE;
            }
    tb_voice_free(voice);
    return rc;
}

static int run(struct say_opts *opts);

int tb_cli_cmd_say(int argc, char **argv)
{
    struct say_opts o = {0};
    o.moves = calloc((size_t)argc, sizeof *o.moves);
    if (!o.moves) {
        tb_cli_error("say: out of memory");
        return TB_CLI_USAGE;
    }
    int rc = parse_opts(argc, argv, &o);
    if (!rc)
        rc = run(&o);
    free(o.moves);
    return rc;
}

static int run(struct say_opts *opts)
{
    struct say_opts o = *opts;
    int rc;
    struct tb_error err = {0};
    if (o.list_devices) /* the older spelling of `twinboard devices` */
        return tb_cli_cmd_devices(1, (char *[]){"devices", NULL});
    struct tb_voice_pack *pack = NULL;
    if (tb_voice_pack_load(o.pack, &pack, &err)) {
        tb_cli_error("say: %s", err.msg);
        return TB_CLI_USAGE;
    }
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    if (o.fen && tb_chess_pos_from_fen(&pos, o.fen, 0, &err) < 0) {
        tb_cli_error("say: bad FEN '%s': %s", o.fen, err.msg);
        tb_voice_pack_free(pack);
        return TB_CLI_USAGE;
    }
    /* Every move is checked before anything is printed or spoken. */
    char(*phrase)[PHRASE_MAX] = calloc((size_t)o.nmoves, sizeof *phrase);
    rc = phrase ? TB_CLI_OK : TB_CLI_USAGE;
    for (int i = 0; i < o.nmoves && rc == TB_CLI_OK; i++) {
        tb_chess_move m;
        int n = tb_chess_move_parse(&pos, o.moves[i], &m, &err);
        if (n >= 0)
            n = tb_voice_phrase_move(pack, &pos, m, o.is_short ? TB_VOICE_SHORT : TB_VOICE_LONG,
                                     phrase[i], PHRASE_MAX);
        if (n < 0) {
            char fen[128];
            tb_chess_pos_to_fen(&pos, fen, sizeof fen);
            tb_cli_error("say: move %d '%s' is not a legal move (%s) in %s", i + 1, o.moves[i],
                         err.msg[0] ? err.msg : tb_strerror(n), fen);
            rc = TB_CLI_USAGE;
            break;
        }
        tb_chess_undo undo;
        tb_chess_make(&pos, m, &undo);
    }
    if (rc == TB_CLI_OK) {
        for (int i = 0; i < o.nmoves; i++)
            printf("%s\n", phrase[i]);
        if (o.wav || o.play || o.phonemes) {
            fflush(stdout);
            rc = speak(&o, pack, phrase, o.nmoves);
        }
    }
    free(phrase);
    tb_voice_pack_free(pack);
    return rc;
}
