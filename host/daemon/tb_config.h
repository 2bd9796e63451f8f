/* tb_config.h - the daemon's configuration: an INI file (libinih), validated as a whole.
 *
 *   [daemon]          socket, journal_dir, log_level, blip_window_ms
 *   [arbiter]         pin, start
 *   [player vi]       board, colour, pack, voice, rate, audio
 *   [player sighted]  the same
 *   [game]            event, site, round, white, black (PGN tags; games kept by them)
 *
 * docs/configuration.md describes every key. Without a file the defaults run the demo: two
 * simulated boards, no sound card. A file must set the arbiter PIN: game-changing requests
 * (resolve, takeback, set-position, new-game) are refused while none is set.
 *
 * Loading names EVERY problem with its line, not only the first, and on any problem leaves the
 * caller's configuration as it was. Pure apart from tb_config_load(), which reads the file.
 */
#ifndef TB_CONFIG_H
#define TB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "tb_err.h"

enum tb_config_role { TB_CONFIG_VI = 0, TB_CONFIG_SIGHTED = 1 };
enum tb_config_colour { TB_CONFIG_WHITE = 0, TB_CONFIG_BLACK = 1 };
enum tb_config_log {
    TB_CONFIG_LOG_ERROR,
    TB_CONFIG_LOG_WARN,
    TB_CONFIG_LOG_INFO,
    TB_CONFIG_LOG_DEBUG
};

#define TB_CONFIG_PIN_MIN  4
#define TB_CONFIG_PIN_MAX  8
#define TB_CONFIG_PATH_MAX 256

struct tb_config_player {
    char board[TB_CONFIG_PATH_MAX]; /* resource string (tb_link.h) */
    long board_line;                /* where the file set it (for messages); 0 = default */
    enum tb_config_colour colour;
    char pack[16];                  /* phrase pack this player hears: de-fide, nl, en or any
                                       other pack file's name */
    long pack_line;                 /* where the file set pack; 0 = default */
    char voice[64];                 /* eSpeak NG voice; "" = the pack's own */
    int rate;                       /* words per minute, 80..800 */
    char audio[TB_CONFIG_PATH_MAX]; /* "default", a PortAudio device name, wav:PATH or null */
    long audio_line;                /* where the file set audio; 0 = default (audio devices) */
};

/* [game]: the PGN tags of the games (new-game may give round and players for each game); ""
 * = not set. A game's journal and PGN are named by date, round and players. */
#define TB_CONFIG_TAG_MAX 64
struct tb_config_game {
    char event[TB_CONFIG_TAG_MAX], site[TB_CONFIG_TAG_MAX], round[16];
    char white[TB_CONFIG_TAG_MAX], black[TB_CONFIG_TAG_MAX];
};

struct tb_config {
    struct tb_config_player player[2]; /* indexed by enum tb_config_role */
    struct tb_config_game game;        /* games kept: the tags */
    int blip_window_ms; /* a lift and place back within this is sensor noise, not a touch */
    char arbiter_pin[TB_CONFIG_PIN_MAX + 1]; /* digits; "" = none set */
    char start_fen[100]; /* where new games start (FEN, read back as Chess960 when it is one);
                            "" = the standard position */
    char journal_dir[TB_CONFIG_PATH_MAX];
    char socket_path[TB_CONFIG_PATH_MAX];
    enum tb_config_log log_level;
};

#define TB_CONFIG_MAX_PROBLEMS 64

struct tb_config_problem {
    long line; /* 1-based */
    char msg[200];
};

struct tb_config_report {
    int count; /* problems found (may exceed the ones stored) */
    struct tb_config_problem problem[TB_CONFIG_MAX_PROBLEMS];
};

/* The demo defaults. runtime_dir ($XDG_RUNTIME_DIR) holds the socket and state_dir
 * ($XDG_STATE_HOME) the journals, each falling back to /tmp when NULL or empty; demo_script,
 * when not NULL, is played by both boards (sim:), else both boards are null:. */
void tb_config_defaults(struct tb_config *cfg, const char *runtime_dir, const char *state_dir,
                        const char *demo_script);

/* Applies an INI text (len bytes; name is used in messages only) on top of *cfg. Returns 0, or
 * TB_ERR_PARSE with every problem in rep (cfg untouched then). */
int tb_config_parse(struct tb_config *cfg, const char *text, size_t len,
                    struct tb_config_report *rep);

/* Reads path and applies it as tb_config_parse() does. TB_ERR_SYS (err filled, errno kept)
 * when the file cannot be read; TB_ERR_PARSE for a file larger than 1 MiB. */
int tb_config_load(struct tb_config *cfg, const char *path, struct tb_config_report *rep,
                   struct tb_error *err);

/* One line describing the configuration (for the log and the journal's game start);
 * returns the length snprintf would have written. */
int tb_config_summary(const struct tb_config *cfg, char *buf, size_t len);

const char *tb_config_role_name(enum tb_config_role role);       /* "vi", "sighted" */
const char *tb_config_colour_name(enum tb_config_colour colour); /* "white", "black" */
const char *tb_config_log_name(enum tb_config_log level);

#endif /* TB_CONFIG_H */
