/* cmd_daisy.c - `twinboard daisy FILE -o DIR`: the games of a PGN file as a DAISY 2.02 talking
 * book (D.2.7), spoken by the voice in a phrase pack's words, one navigation point per move. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "record_games.h"
#include "tb_record.h"
#include "tb_voice.h"

#define MAX_GAMES 200

int tb_cli_cmd_daisy(int argc, char **argv)
{
    long game = 0, rate = 0;
    const char *path = NULL, *dir = NULL, *packname = NULL;
    enum tb_record_audio audio = TB_RECORD_AUDIO_MP3;
    enum { O_PACK = 256, O_GAME, O_RATE, O_AUDIO };
    static const struct option longs[] = {
        {"pack", required_argument, NULL, O_PACK}, {"game", required_argument, NULL, O_GAME},
        {"rate", required_argument, NULL, O_RATE}, {"audio", required_argument, NULL, O_AUDIO},
        {"output", required_argument, NULL, 'o'},  {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "o:", longs)) != -1) {
        if (c == O_PACK) {
            packname = optarg;
        } else if (c == O_GAME) {
            if (!tb_cli_parse_int(optarg, 1, 10000000, &game)) {
                tb_cli_error("daisy: game '%s' is not a number from 1 up", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == O_RATE) {
            if (!tb_cli_parse_int(optarg, 80, 800, &rate)) {
                tb_cli_error("daisy: rate '%s': use 80 to 800 words a minute", optarg);
                return TB_CLI_USAGE;
            }
        } else if (c == O_AUDIO) {
            if (strcmp(optarg, "mp3") && strcmp(optarg, "wav")) {
                tb_cli_error("daisy: audio '%s': use mp3 or wav", optarg);
                return TB_CLI_USAGE;
            }
            audio = strcmp(optarg, "wav") ? TB_RECORD_AUDIO_MP3 : TB_RECORD_AUDIO_WAV;
        } else if (c == 'o') {
            dir = optarg;
        } else if (c != 1) {
            return tb_cli_usage("daisy");
        } else if (!path) {
            path = optarg;
        } else {
            tb_cli_error("daisy: one file only ('%s' and '%s')", path, optarg);
            return tb_cli_usage("daisy");
        }
    }
    if (!path || !dir)
        return tb_cli_usage("daisy");
    struct tb_error err = {0};
    struct tb_voice_pack *pack = NULL;
    if (tb_voice_pack_load(packname, &pack, &err)) {
        tb_cli_error("daisy: %s", err.msg);
        return TB_CLI_USAGE;
    }
    tb_chess_pgn_game **games = NULL;
    int n = tb_cli_games_read("daisy", path, game, MAX_GAMES, &games);
    if (n < 0) {
        tb_voice_pack_free(pack);
        return -n;
    }
    struct tb_voice_config cfg = {.pack = pack, .rate = (int)rate};
    struct tb_voice *voice = NULL;
    int rc = TB_CLI_OK;
    if (mkdir(dir, 0777) && errno != EEXIST) {
        tb_cli_error("daisy: %s: %s", dir, strerror(errno));
        rc = TB_CLI_USAGE;
    } else if (tb_voice_new(&cfg, &voice, &err)) {
        tb_cli_error("daisy: %s", err.msg);
        rc = TB_CLI_USAGE;
    } else {
        int items = tb_record_daisy_write((const tb_chess_pgn_game *const *)games, n, voice, -1,
                                          audio, dir, &err);
        if (items < 0) {
            tb_cli_error("daisy: %s: %s", dir, err.msg);
            rc = TB_CLI_USAGE;
        } else {
            printf("%s: %d game%s, %d navigation points\n", dir, n, n == 1 ? "" : "s", items);
        }
    }
    tb_voice_free(voice);
    tb_cli_games_free(games, n);
    tb_voice_pack_free(pack);
    return rc;
}
