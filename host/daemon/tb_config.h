/* tb_config.h - the daemon's configuration: an INI file (libinih), validated as a whole.
 *
 *   [daemon]          socket, journal_dir, log_level, blip_window_ms, promotion_prompt_ms
 *   [arbiter]         pin, start
 *   [player vi]       board, colour, pack, voice, rate, audio; the player on their own:
 *                     confirm, promote_settle_ms, review_hold_ms, review_repeat_hold,
 *                     review_promote_hold, braille, braille_auth
 *   [player sighted]  the same
 *   [game]            event, site, date, round, white, black, time_control (the game's PGN
 *                     tags: the broadcast's, the games kept and their names; new-game may give
 *                     others for one game)
 *   [broadcast]       dgt, tcp, max_clients, pgn_dir, serial
 *   [hall]            broker, port, tournament, table, username, password_file, cafile
 *   [clock]           control, source, warn_vi, warn_sighted (the game's clock: daemon_clock.c)
 *   [bughouse]        enabled, control, hear_other_board, white_a, black_a, white_b, black_b,
 *                     pack_SEAT, audio_SEAT (doorgeefschaak: daemon_bug.c)
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
#include <stdint.h>

#include "tb_err.h"

enum tb_config_role { TB_CONFIG_VI = 0, TB_CONFIG_SIGHTED = 1 };
enum tb_config_colour { TB_CONFIG_WHITE = 0, TB_CONFIG_BLACK = 1 };
enum tb_config_log {
    TB_CONFIG_LOG_ERROR,
    TB_CONFIG_LOG_WARN,
    TB_CONFIG_LOG_INFO,
    TB_CONFIG_LOG_DEBUG
};

#define TB_CONFIG_PIN_MIN  6 /* and no 000000 or 123456 (tb_ctl_pin_weakness) */
#define TB_CONFIG_PIN_MAX  8
#define TB_CONFIG_PATH_MAX 256

struct tb_config_player {
    char board[TB_CONFIG_PATH_MAX]; /* resource string (tb_link.h) */
    long board_line;                /* where the file set it (for messages); 0 = default */
    enum tb_config_colour colour;
    char pack[32];  /* phrase pack this player hears: any pack file's name (docs/voice.md) */
    long pack_line; /* where the file set pack; 0 = default */
    char voice[64]; /* eSpeak NG voice; "" = the pack's own */
    int rate;       /* words per minute, 80..800 */
    char audio[TB_CONFIG_PATH_MAX]; /* "default", a PortAudio device name, wav:PATH or null */
    long audio_line;                /* where the file set audio; 0 = default (audio devices) */
    /* The VI player on their own (docs/guide-vi-player.md): */
    int confirm;           /* enum tb_voice_confirm_mode: off, earcon, word; default off */
    int promote_settle_ms; /* the promote button's choice is taken once the player has not
                              pressed it this long (or at once by the clock); default 1500 */
    int review_hold_ms;    /* a button held this long is a long press; default 1000 */
    int review_repeat_hold, review_promote_hold; /* enum tb_voice_review_what a long press of
                                                    REPEAT / PROMOTE asks; -1 = none */
    char braille[TB_CONFIG_PATH_MAX];      /* "" = none; "brltty" or "brltty:HOST" (BrlAPI host) */
    char braille_auth[TB_CONFIG_PATH_MAX]; /* BrlAPI's auth setting; "" = BrlAPI's default */
};

/* [game]: the game's PGN tags ("" = not set: the defaults of docs/configuration.md). They are the
 * tags of every game until a new-game request gives others for its game; the broadcast shows them
 * and the games kept are named by date, round and players. */
#define TB_CONFIG_TAG_MAX 64
struct tb_config_game {
    char event[TB_CONFIG_TAG_MAX], site[TB_CONFIG_TAG_MAX], date[16], round[TB_CONFIG_TAG_MAX];
    char white[TB_CONFIG_TAG_MAX], black[TB_CONFIG_TAG_MAX], time_control[32];
};

/* [broadcast] (docs/broadcast.md): the agreed game as a virtual DGT board and a live PGN file.
 * Off while dgt, tcp and pgn_dir are all unset. */
struct tb_config_broadcast {
    char dgt[TB_CONFIG_PATH_MAX];     /* the pty's stable path (from "pty:PATH"); "" = none */
    int tcp_port;                     /* 127.0.0.1:PORT; -1 = none, 0 = a port the system picks */
    int max_clients;                  /* TCP sessions at once */
    char pgn_dir[TB_CONFIG_PATH_MAX]; /* the live PGN's root; "" = none */
    char serial[6];                   /* the board's serial number, five digits */
    uint64_t delay_ms;                /* the public sees the game as it stood this long ago */
};

/* [hall] (docs/hall.md): the table published to an MQTT broker. Off while table is unset. */
#define TB_CONFIG_HALL_NAME_MAX 32
struct tb_config_hall {
    char broker[128]; /* a numeric address or a name in /etc/hosts */
    int port;         /* 0 = 1883, or 8883 with TLS */
    char tournament[TB_CONFIG_HALL_NAME_MAX], table[TB_CONFIG_HALL_NAME_MAX];
    char username[64];
    char password_file[TB_CONFIG_PATH_MAX]; /* its first line is the password */
    char cafile[TB_CONFIG_PATH_MAX];        /* TLS with this CA when set */
};

/* [clock]: the game's chess clock (Article 6; docs/clock.md, "The daemon's clock"). */
enum tb_config_clock_source {
    TB_CONFIG_CLOCK_NONE = 0, /* no clock: nothing timed, no [%clk] */
    TB_CONFIG_CLOCK_BUILTIN,  /* the daemon's own clock (tb_clock), pressed by the moves made */
    TB_CONFIG_CLOCK_BOARD,    /* the readings of a clock a board link reports (a DGT clock) */
};
#define TB_CONFIG_CLOCK_WARN_MAX 8
struct tb_config_clock {
    char control[64]; /* a time control as tb_clock_control_parse reads it ("90m+15s", "club");
                         "" = none */
    enum tb_config_clock_source source;
    int nwarn[2]; /* per enum tb_config_role: spoken warnings at these times left */
    uint64_t warn_ms[2][TB_CONFIG_CLOCK_WARN_MAX];
};

/* [bughouse] (doorgeefschaak, docs/doorgeefschaak.md): the two boards ([player vi] board A,
 * [player sighted] board B) carry two games of four players. Seats: 0 White A, 1 Black A,
 * 2 White B, 3 Black B. */
#define TB_CONFIG_SEATS 4
struct tb_config_bughouse {
    bool enabled;
    char control[64];         /* each player's time (tb_clock_control_parse); "" = 7m (6.3) */
    uint8_t hear_other_board; /* bit 1 << seat: also hears the partner's board; default none */
    char name[TB_CONFIG_SEATS][48];                  /* the BPGN's WhiteA ... BlackB; "" = "?" */
    char pack[TB_CONFIG_SEATS][32];                  /* "" = [player vi] pack */
    char audio[TB_CONFIG_SEATS][TB_CONFIG_PATH_MAX]; /* as [player] audio; "" = null */
};
/* "white_a", "black_a", "white_b", "black_b" (seat 0..3); NULL otherwise. */
const char *tb_config_seat_name(int seat);

#define TB_CONFIG_SECTIONS     10 /* the sections a file may have, and room for the keys' lines */
#define TB_CONFIG_SECTION_KEYS 16

struct tb_config {
    struct tb_config_player player[2]; /* indexed by enum tb_config_role */
    struct tb_config_game game;        /* [game]: the game's tags */
    struct tb_config_clock clock;      /* [clock] */
    int blip_window_ms;      /* a lift and place back within this is sensor noise, not a touch */
    int promotion_prompt_ms; /* a promotion waiting this long for its piece: the player is asked */
    char arbiter_pin[TB_CONFIG_PIN_MAX + 1]; /* digits; "" = none set */
    char start_fen[100]; /* where new games start (FEN, read back as Chess960 when it is one);
                            "" = the standard position */
    char journal_dir[TB_CONFIG_PATH_MAX];
    char socket_path[TB_CONFIG_PATH_MAX];
    enum tb_config_log log_level;
    struct tb_config_broadcast broadcast; /* [broadcast] */
    struct tb_config_hall hall;           /* [hall] */
    struct tb_config_bughouse bughouse;   /* [bughouse] (doorgeefschaak) */
    /* where the file set each key and section (tb_config_line); 0 = not in the file */
    long key_line[TB_CONFIG_SECTIONS][TB_CONFIG_SECTION_KEYS], section_line[TB_CONFIG_SECTIONS];
};

/* [broadcast] or [hall] is on. */
bool tb_config_broadcast_on(const struct tb_config *cfg);
bool tb_config_hall_on(const struct tb_config *cfg);

#define TB_CONFIG_MAX_PROBLEMS 64

struct tb_config_problem {
    long line; /* 1-based */
    char msg[512];
};

struct tb_config_report {
    int count; /* problems found (may exceed the ones stored) */
    struct tb_config_problem problem[TB_CONFIG_MAX_PROBLEMS];
};

/* Where the defaults put the control socket and the state (paths.c): the environment and who
 * runs the daemon. */
struct tb_config_place {
    const char *runtime_dir; /* $XDG_RUNTIME_DIR */
    const char *state_home;  /* $XDG_STATE_HOME */
    const char *home;        /* $HOME */
    bool service;            /* root or the service user: /run/twinboard and /var/lib/twinboard */
};
#define TB_CONFIG_SERVICE_USER   "twinboard"
#define TB_CONFIG_SERVICE_SOCKET "/run/twinboard/control"
#define TB_CONFIG_SERVICE_STATE  "/var/lib/twinboard"

/* The demo defaults. The socket goes to $XDG_RUNTIME_DIR/twinboard/control and the state to
 * $XDG_STATE_HOME/twinboard (else ~/.local/state/twinboard) for a user, to /run/twinboard/control
 * and /var/lib/twinboard for the service; never to /tmp: where there is no usable place the path
 * is "" and tb_config_require_paths() says what to set. place NULL: both "". demo_script, when
 * not NULL, is played by both boards (sim:), else both boards are null:. */
void tb_config_defaults(struct tb_config *cfg, const struct tb_config_place *place,
                        const char *demo_script);

/* ---- where things go (paths.c: reads the environment and the file system) --------------- */

/* The place from the environment and the effective uid. */
void tb_config_place_from_env(struct tb_config_place *p);
/* Sets socket_path and journal_dir as tb_config_defaults() does. */
void tb_config_default_paths(struct tb_config *cfg, const struct tb_config_place *p);
/* 0, or TB_ERR_NOTFOUND with err saying which path has no default and what to set. */
int tb_config_require_paths(const struct tb_config *cfg, struct tb_error *err);
/* The directory that holds path (path itself when is_dir) is checked: no symbolic link, a
 * directory owned by this user, root or also_uid (-1: none; --check-config run by root checks
 * for the service user), no group or other write permission. what names it in messages
 * ("control socket", "journal"). 0, TB_ERR_NOTFOUND (missing), TB_ERR_PERM (unsafe, err says
 * why), TB_ERR_SYS. */
int tb_config_check_dir(const char *path, bool is_dir, const char *what, long also_uid,
                        struct tb_error *err);
/* The uid of TB_CONFIG_SERVICE_USER, or -1 when there is no such user. */
long tb_config_service_uid(void);
/* As tb_config_check_dir() (also_uid -1), first creating the directory with mode (missing
 * parents 0700). */
int tb_config_make_dir(const char *path, bool is_dir, unsigned mode, const char *what,
                       struct tb_error *err);

/* Applies an INI text (len bytes; name is used in messages only) on top of *cfg. Returns 0, or
 * TB_ERR_PARSE with every problem in rep (cfg untouched then). */
int tb_config_parse(struct tb_config *cfg, const char *text, size_t len,
                    struct tb_config_report *rep);

/* Reads path and applies it as tb_config_parse() does. TB_ERR_SYS (err filled, errno kept)
 * when the file cannot be read; TB_ERR_PARSE for a file larger than 1 MiB. */
int tb_config_load(struct tb_config *cfg, const char *path, struct tb_config_report *rep,
                   struct tb_error *err);

/* The line of the file that set key in [section] ("player vi", "bughouse"), else the line of the
 * section's header, else 1: where a problem found after reading the file is named. */
long tb_config_line(const struct tb_config *cfg, const char *section, const char *key);

/* One line describing the configuration (for the log and the journal's game start);
 * returns the length snprintf would have written. */
int tb_config_summary(const struct tb_config *cfg, char *buf, size_t len);

const char *tb_config_role_name(enum tb_config_role role);       /* "vi", "sighted" */
const char *tb_config_colour_name(enum tb_config_colour colour); /* "white", "black" */
const char *tb_config_log_name(enum tb_config_log level);
/* A review request's name as the configuration and the `review` request write it ("last",
 * "to-move" ...; "off" for -1). */
const char *tb_config_review_name(int what);
const char *tb_config_clock_source_name(enum tb_config_clock_source source); /* "builtin" */

#endif /* TB_CONFIG_H */
