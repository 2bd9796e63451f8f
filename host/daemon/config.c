/* config.c - the daemon's INI configuration: defaults, parsing with libinih, validation. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_chess.h"
#include "tb_clock.h"
#include "tb_config.h"
#include "tb_ctl.h"
#include "tb_str.h"
#include "tb_file.h"
#include "tb_link.h"
#include "tb_voice.h"

#define CONFIG_FILE_MAX ((size_t)1 << 20)

enum section {
    SEC_NONE,
    SEC_DAEMON,
    SEC_ARBITER,
    SEC_VI,
    SEC_SIGHTED,
    SEC_GAME,      /* the game's tags */
    SEC_BROADCAST, /* broadcast */
    SEC_HALL,      /* hall */
    SEC_CLOCK,     /* the game's clock */
    SEC_BUGHOUSE,  /* doorgeefschaak */
    SEC_UNKNOWN
};

_Static_assert(SEC_UNKNOWN == TB_CONFIG_SECTIONS, "tb_config keeps a line for every section");

/* clang-format off */
static const char *const section_names[] = {
    [SEC_DAEMON] = "daemon",
    [SEC_ARBITER] = "arbiter",
    [SEC_VI] = "player vi",
    [SEC_SIGHTED] = "player sighted",
    [SEC_GAME] = "game",           /* the game's tags */
    [SEC_BROADCAST] = "broadcast", /* broadcast */
    [SEC_HALL] = "hall",           /* hall */
    [SEC_CLOCK] = "clock",         /* the game's clock */
    [SEC_BUGHOUSE] = "bughouse",   /* doorgeefschaak */
};
/* clang-format on */

/* What one parse has seen: the text being fed to inih, line by line, and the problems. */
struct parse {
    struct tb_config cfg; /* a copy, given back only when no problem was found */
    struct tb_config_report *rep;
    const char *p, *end;
    long line; /* line last handed to inih */
    long section_line[SEC_UNKNOWN];
    long seen[SEC_UNKNOWN][TB_CONFIG_SECTION_KEYS]; /* line where each key was set, 0 = not set */
    long colour_line[2];
    long clock_source_line; /* [clock] source set explicitly */
};

static void problem(struct parse *ps, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(struct parse *ps, long line, const char *fmt, ...)
{
    struct tb_config_report *rep = ps->rep;
    if (rep->count < TB_CONFIG_MAX_PROBLEMS) {
        struct tb_config_problem *pr = &rep->problem[rep->count];
        pr->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pr->msg, sizeof pr->msg, fmt, ap);
        va_end(ap);
    }
    rep->count++;
}

static enum section section_of(const char *name)
{
    if (!*name)
        return SEC_NONE;
    for (int s = SEC_DAEMON; s < SEC_UNKNOWN; s++)
        if (strcmp(name, section_names[s]) == 0)
            return (enum section)s;
    return SEC_UNKNOWN;
}

/* ---- values --------------------------------------------------------------------------- */

static bool parse_int(const char *v, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < lo || n > hi || !isdigit((unsigned char)v[0]))
        return false;
    *out = (int)n;
    return true;
}

static bool printable(const char *v)
{
    for (; *v; v++)
        if ((unsigned char)*v < 0x20 || *v == 0x7f)
            return false;
    return true;
}

static bool copy(char *dst, size_t cap, const char *v)
{
    if (strlen(v) >= cap)
        return false;
    strcpy(dst, v);
    return true;
}

typedef void (*setter)(struct parse *ps, long line, const char *key, const char *v, int role);

static void set_socket(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (v[0] != '/' || !copy(ps->cfg.socket_path, 108, v)) /* sun_path holds 108 */
        problem(ps, line, "%s must be an absolute path shorter than 108 bytes", key);
}

static void set_journal_dir(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (v[0] != '/' || !copy(ps->cfg.journal_dir, sizeof ps->cfg.journal_dir, v))
        problem(ps, line, "%s must be an absolute path shorter than %d bytes", key,
                TB_CONFIG_PATH_MAX);
}

static void set_log_level(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    for (int l = TB_CONFIG_LOG_ERROR; l <= TB_CONFIG_LOG_DEBUG; l++)
        if (strcmp(v, tb_config_log_name((enum tb_config_log)l)) == 0) {
            ps->cfg.log_level = (enum tb_config_log)l;
            return;
        }
    problem(ps, line, "%s '%s' is not one of error, warn, info, debug", key, v);
}

static void set_blip(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!parse_int(v, 10, 2000, &ps->cfg.blip_window_ms))
        problem(ps, line, "%s '%s' must be a whole number of milliseconds from 10 to 2000", key, v);
}

static void set_pin(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    const char *weak = tb_ctl_pin_weakness(v); /* as set-pin asks; never echo a PIN */
    if (weak)
        problem(ps, line, "%s %s", key, weak);
    else
        strcpy(ps->cfg.arbiter_pin, v);
}

/* Where every new game starts: a FEN (Chess960 in X-FEN or Shredder-FEN) or "chess960 N", the
 * Guideline II array number N (0..959, 518 = the standard array). */
static void set_start(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    tb_chess_pos pos;
    struct tb_error e;
    int n;
    if (strncmp(v, "chess960", 8) == 0) {
        if (v[8] != ' ' || !parse_int(v + 9, 0, 959, &n)) {
            problem(ps, line, "%s '%s': the Chess960 number must be from 0 to 959", key, v);
            return;
        }
        tb_chess_pos_960(&pos, n);
    } else if (tb_chess_pos_from_fen(&pos, v, 0, &e) != TB_OK) {
        problem(ps, line, "%s: %s", key, e.msg);
        return;
    }
    tb_chess_pos_to_fen(&pos, ps->cfg.start_fen, sizeof ps->cfg.start_fen); /* 100 suffice */
}

static void set_board(struct parse *ps, long line, const char *key, const char *v, int role)
{
    struct tb_link_resource res;
    struct tb_error e;
    if (tb_link_resource_parse(v, &res, &e) != TB_OK)
        problem(ps, line, "%s: %s", key, e.msg);
    else if (!copy(ps->cfg.player[role].board, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s is longer than %d bytes", key, TB_CONFIG_PATH_MAX - 1);
    else
        ps->cfg.player[role].board_line = line;
}

static void set_colour(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (strcmp(v, "white") == 0)
        ps->cfg.player[role].colour = TB_CONFIG_WHITE;
    else if (strcmp(v, "black") == 0)
        ps->cfg.player[role].colour = TB_CONFIG_BLACK;
    else {
        problem(ps, line, "%s '%s' is not white or black", key, v);
        return;
    }
    ps->colour_line[role] = line;
}

/* Any pack's name: a new language is a new file (docs/voice.md). Whether the file is there and
 * loads is checked by --check-config and at start-up, not here: parsing reads no other file. */
static void set_pack(struct parse *ps, long line, const char *key, const char *v, int role)
{
    size_t n = strlen(v);
    if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != n ||
        n >= sizeof ps->cfg.player[role].pack) {
        problem(ps, line, "%s '%s' is not a pack name (letters, digits, - and _, at most %zu)", key,
                v, sizeof ps->cfg.player[role].pack - 1);
        return;
    }
    strcpy(ps->cfg.player[role].pack, v);
    ps->cfg.player[role].pack_line = line;
}

/* ---- the VI player on their own: confirmation, promotion, review, braille ---------------- */

static void set_confirm(struct parse *ps, long line, const char *key, const char *v, int role)
{
    enum tb_voice_confirm_mode m;
    if (tb_voice_confirm_mode_parse(v, &m, NULL) != TB_OK)
        problem(ps, line, "%s '%s' is not off, earcon or word", key, v);
    else
        ps->cfg.player[role].confirm = (int)m;
}

static void set_settle(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (!parse_int(v, 300, 10000, &ps->cfg.player[role].promote_settle_ms))
        problem(ps, line, "%s '%s' must be a whole number of milliseconds from 300 to 10000", key,
                v);
}

static void set_hold(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (!parse_int(v, 300, 5000, &ps->cfg.player[role].review_hold_ms))
        problem(ps, line, "%s '%s' must be a whole number of milliseconds from 300 to 5000", key,
                v);
}

/* The review requests a long press can ask (the names of the `review` control request). */
static const char *const review_names[] = {"last",    "from",     "position",
                                           "to-move", "material", "scoresheet"};
_Static_assert(sizeof review_names / sizeof review_names[0] == TB_VOICE_REVIEW_WHAT_COUNT,
               "a name for every review request");

static void set_review(struct parse *ps, long line, const char *key, const char *v, int role)
{
    int *what = strcmp(key, "review_repeat_hold") == 0 ? &ps->cfg.player[role].review_repeat_hold
                                                       : &ps->cfg.player[role].review_promote_hold;
    if (strcmp(v, "off") == 0) {
        *what = -1;
        return;
    }
    for (int i = 0; i < TB_VOICE_REVIEW_WHAT_COUNT; i++)
        if (i != TB_VOICE_REVIEW_FROM && strcmp(v, review_names[i]) == 0) {
            *what = i;
            return;
        }
    problem(ps, line, "%s '%s' is not one of last, position, to-move, material, scoresheet, off",
            key, v);
}

static void set_braille(struct parse *ps, long line, const char *key, const char *v, int role)
{
    const char *host = strncmp(v, "brltty:", 7) == 0 ? v + 7 : NULL;
    if (strcmp(v, "off") == 0)
        ps->cfg.player[role].braille[0] = '\0';
    else if ((strcmp(v, "brltty") != 0 && !host) || (host && !*host) ||
             (host && strspn(host, "abcdefghijklmnopqrstuvwxyz0123456789.:-_") != strlen(host)))
        problem(ps, line,
                "%s '%s' is not off, brltty or brltty:HOST (a BrlAPI host: :1, 127.0.0.1:1)", key,
                v);
    else if (!copy(ps->cfg.player[role].braille, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s is longer than %d bytes", key, TB_CONFIG_PATH_MAX - 1);
}

static void set_braille_auth(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (strcmp(v, "none") != 0 && strncmp(v, "keyfile:/", 9) != 0)
        problem(ps, line, "%s '%s' is not none or keyfile:/PATH", key, v);
    else if (!copy(ps->cfg.player[role].braille_auth, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s is longer than %d bytes", key, TB_CONFIG_PATH_MAX - 1);
}

static void set_prompt(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!parse_int(v, 500, 60000, &ps->cfg.promotion_prompt_ms))
        problem(ps, line, "%s '%s' must be a whole number of milliseconds from 500 to 60000", key,
                v);
}

const char *tb_config_review_name(int what)
{
    return what >= 0 && what < TB_VOICE_REVIEW_WHAT_COUNT ? review_names[what] : "off";
}

static void set_voice(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_+/.") !=
            strlen(v) ||
        !copy(ps->cfg.player[role].voice, sizeof ps->cfg.player[role].voice, v))
        problem(ps, line, "%s '%s' is not an eSpeak NG voice name (letters, digits, - _ + / .)",
                key, v);
}

static void set_rate(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (!parse_int(v, 80, 800, &ps->cfg.player[role].rate)) /* as a pack's rate and say --rate */
        problem(ps, line, "%s '%s' must be words per minute from 80 to 800", key, v);
}

static void set_audio(struct parse *ps, long line, const char *key, const char *v, int role)
{
    if (strncmp(v, "wav:", 4) == 0 && !v[4])
        problem(ps, line, "%s 'wav:' needs a file path", key);
    else if (!copy(ps->cfg.player[role].audio, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s is longer than %d bytes", key, TB_CONFIG_PATH_MAX - 1);
    else
        ps->cfg.player[role].audio_line = line; /* audio devices: the probe's messages */
}

/* ---- [broadcast] (docs/broadcast.md) ------------------------------------------------------ */

static void set_bc_dgt(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (strncmp(v, "pty:/", 5) != 0 || !copy(ps->cfg.broadcast.dgt, TB_CONFIG_PATH_MAX, v + 4))
        problem(ps, line, "%s must be pty:PATH with an absolute PATH shorter than %d bytes", key,
                TB_CONFIG_PATH_MAX);
}

/* Loopback only: the virtual board is for programs on this machine, never the hall's network. */
static void set_bc_tcp(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (strncmp(v, "127.0.0.1:", 10) != 0 ||
        !parse_int(v + 10, 0, 65535, &ps->cfg.broadcast.tcp_port))
        problem(ps, line,
                "%s '%s' must be 127.0.0.1:PORT (PORT 0..65535, 0: any free port); the virtual "
                "board listens on the loopback address only",
                key, v);
}

static void set_bc_clients(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!parse_int(v, 0, 64, &ps->cfg.broadcast.max_clients))
        problem(ps, line, "%s '%s' must be a number of TCP readers from 0 to 64", key, v);
}

static void set_bc_pgn_dir(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (v[0] != '/' || !copy(ps->cfg.broadcast.pgn_dir, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s must be an absolute path shorter than %d bytes", key,
                TB_CONFIG_PATH_MAX);
}

static void set_bc_serial(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (strlen(v) != 5 || strspn(v, "0123456789") != 5)
        problem(ps, line, "%s '%s' must be five digits (the DGT serial number)", key, v);
    else
        strcpy(ps->cfg.broadcast.serial, v);
}

/* "90", "90s", "15m", "500ms" as the hall's [round] delay: at most an hour. */
static void set_bc_delay(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    long long ms = tb_str_duration_ms(v, 3600 * 1000);
    if (ms < 0)
        problem(ps, line, "%s '%s' is not a delay (0, 90s, 15m; at most 60m)", key, v);
    else
        ps->cfg.broadcast.delay_ms = (uint64_t)ms;
}

/* ---- [game]: the game's PGN tags (the broadcast's, the games kept and their names) ------- */

/* PGN's date form, YYYY.MM.DD, '?' for an unknown digit. */
static void set_game_date(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    bool ok = strlen(v) == 10 && v[4] == '.' && v[7] == '.';
    for (int i = 0; ok && i < 10; i++)
        ok = i == 4 || i == 7 || isdigit((unsigned char)v[i]) || v[i] == '?';
    if (!ok)
        problem(ps, line, "%s '%s' must be YYYY.MM.DD (PGN's form, ? for unknown digits)", key, v);
    else
        strcpy(ps->cfg.game.date, v);
}

/* The tags of the Seven Tag Roster (and TimeControl) each game starts with: what a PGN tag may
 * hold, as new-game takes them (a file name made of them has '_' for anything else). */
static void set_game_tag(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    struct tb_config_game *g = &ps->cfg.game;
    char *dst = !strcmp(key, "event")   ? g->event
                : !strcmp(key, "site")  ? g->site
                : !strcmp(key, "round") ? g->round
                : !strcmp(key, "white") ? g->white
                : !strcmp(key, "black") ? g->black
                                        : g->time_control;
    size_t cap = dst == g->time_control ? sizeof g->time_control : TB_CONFIG_TAG_MAX;
    if (strpbrk(v, "\"\\") || !copy(dst, cap, v))
        problem(ps, line, "%s must be shorter than %zu bytes, without \" or \\", key, cap);
}

/* ---- [hall] (docs/hall.md) ---------------------------------------------------------------- */

static void set_hall_broker(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:") !=
            strlen(v) ||
        !copy(ps->cfg.hall.broker, sizeof ps->cfg.hall.broker, v))
        problem(ps, line, "%s '%s' is not a host name or numeric address", key, v);
}

static void set_hall_port(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!parse_int(v, 1, 65535, &ps->cfg.hall.port))
        problem(ps, line, "%s '%s' must be a port from 1 to 65535", key, v);
}

/* MQTT topic levels: no wildcard or separator can enter a topic. */
static void set_hall_name(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    char *dst = !strcmp(key, "table") ? ps->cfg.hall.table : ps->cfg.hall.tournament;
    size_t n = strlen(v);
    if (n >= TB_CONFIG_HALL_NAME_MAX ||
        strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
        problem(ps, line, "%s '%s' must be 1 to 31 of A-Z a-z 0-9 _ -", key, v);
    else
        strcpy(dst, v);
}

static void set_hall_user(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!copy(ps->cfg.hall.username, sizeof ps->cfg.hall.username, v))
        problem(ps, line, "%s is longer than %zu bytes", key, sizeof ps->cfg.hall.username - 1);
}

static void set_hall_path(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    char *dst = !strcmp(key, "cafile") ? ps->cfg.hall.cafile : ps->cfg.hall.password_file;
    if (v[0] != '/' || !copy(dst, TB_CONFIG_PATH_MAX, v))
        problem(ps, line, "%s must be an absolute path shorter than %d bytes", key,
                TB_CONFIG_PATH_MAX);
}

/* ---- [clock] (the game's clock, daemon_clock.c) -------------------------------------------- */

/* A time control as tb_clock_control_parse reads it, into dst ([clock], [bughouse]). */
static void set_control(struct parse *ps, long line, const char *key, const char *v, char *dst,
                        size_t cap)
{
    struct tb_clock_control c;
    struct tb_error e = {0};
    if (tb_clock_control_parse(&c, v, &e) != TB_OK)
        problem(ps, line, "%s: %s", key, e.msg);
    else if (!copy(dst, cap, v))
        problem(ps, line, "%s is longer than %zu bytes", key, cap - 1);
}

static void set_clock_control(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    set_control(ps, line, key, v, ps->cfg.clock.control, sizeof ps->cfg.clock.control);
}

static void set_clock_source(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    for (int s = TB_CONFIG_CLOCK_NONE; s <= TB_CONFIG_CLOCK_BOARD; s++)
        if (strcmp(v, tb_config_clock_source_name((enum tb_config_clock_source)s)) == 0) {
            ps->cfg.clock.source = (enum tb_config_clock_source)s;
            ps->clock_source_line = line;
            return;
        }
    problem(ps, line, "%s '%s' is not one of builtin, board, none", key, v);
}

static void set_clock_warn(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    int r = strcmp(key, "warn_sighted") == 0 ? TB_CONFIG_SIGHTED : TB_CONFIG_VI;
    struct tb_error e = {0};
    int n = tb_clock_warnings_parse(ps->cfg.clock.warn_ms[r], TB_CONFIG_CLOCK_WARN_MAX, v, &e);
    if (n < 0)
        problem(ps, line, "%s: %s", key, e.msg);
    else
        ps->cfg.clock.nwarn[r] = n;
}

/* ---- [bughouse] (doorgeefschaak, daemon_bug.c) ------------------------------------------ */

const char *tb_config_seat_name(int seat)
{
    static const char *const names[TB_CONFIG_SEATS] = {"white_a", "black_a", "white_b", "black_b"};
    return seat >= 0 && seat < TB_CONFIG_SEATS ? names[seat] : NULL;
}

/* The seat a key names after its prefix ("pack_white_a": 0), or -1. */
static int seat_of(const char *key, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(key, prefix, n) != 0)
        return -1;
    for (int s = 0; s < TB_CONFIG_SEATS; s++)
        if (!strcmp(key + n, tb_config_seat_name(s)))
            return s;
    return -1;
}

static void set_bug_enabled(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
        ps->cfg.bughouse.enabled = true;
    else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
        ps->cfg.bughouse.enabled = false;
    else
        problem(ps, line, "%s '%s' is not yes or no", key, v);
}

static void set_bug_control(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role; /* 6.3: 7 minutes unless set */
    set_control(ps, line, key, v, ps->cfg.bughouse.control, sizeof ps->cfg.bughouse.control);
}

/* "none" or seats separated by commas or spaces: white_a, black_b ... */
static void set_bug_hear(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    uint8_t mask = 0;
    char buf[256];
    if (!copy(buf, sizeof buf, v)) {
        problem(ps, line, "%s is longer than %zu bytes", key, sizeof buf - 1);
        return;
    }
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        int s = seat_of(w, "");
        if (s < 0 && strcmp(w, "none") != 0) {
            problem(ps, line, "%s: '%s' is not a seat (white_a, black_a, white_b, black_b) or none",
                    key, w);
            return;
        }
        if (s >= 0)
            mask |= (uint8_t)(1u << s);
    }
    ps->cfg.bughouse.hear_other_board = mask;
}

static void set_bug_seat(struct parse *ps, long line, const char *key, const char *v, int role)
{
    (void)role;
    struct tb_config_bughouse *bh = &ps->cfg.bughouse;
    int s;
    if ((s = seat_of(key, "pack_")) >= 0) {
        if (!copy(bh->pack[s], sizeof bh->pack[s], v) || strchr(v, '/'))
            problem(ps, line, "%s '%s' is not a pack name (docs/voice.md)", key, v);
    } else if ((s = seat_of(key, "audio_")) >= 0) {
        if (!copy(bh->audio[s], sizeof bh->audio[s], v))
            problem(ps, line, "%s is longer than %zu bytes", key, sizeof bh->audio[s] - 1);
    } else if ((s = seat_of(key, "")) >= 0 && !copy(bh->name[s], sizeof bh->name[s], v)) {
        problem(ps, line, "%s is longer than %zu bytes", key, sizeof bh->name[s] - 1);
    }
}

static const struct key {
    enum section section; /* SEC_VI stands for both player sections */
    const char *name;
    setter set;
} keys[] = {
    {SEC_DAEMON, "socket", set_socket},
    {SEC_DAEMON, "journal_dir", set_journal_dir},
    {SEC_DAEMON, "log_level", set_log_level},
    {SEC_DAEMON, "blip_window_ms", set_blip},
    {SEC_ARBITER, "pin", set_pin},
    {SEC_ARBITER, "start", set_start},
    {SEC_VI, "board", set_board},
    {SEC_VI, "colour", set_colour},
    {SEC_VI, "pack", set_pack},
    {SEC_VI, "voice", set_voice},
    {SEC_VI, "rate", set_rate},
    {SEC_VI, "audio", set_audio},
    /* the VI player on their own */
    {SEC_DAEMON, "promotion_prompt_ms", set_prompt},
    {SEC_VI, "confirm", set_confirm},
    {SEC_VI, "promote_settle_ms", set_settle},
    {SEC_VI, "review_hold_ms", set_hold},
    {SEC_VI, "review_repeat_hold", set_review},
    {SEC_VI, "review_promote_hold", set_review},
    {SEC_VI, "braille", set_braille},
    {SEC_VI, "braille_auth", set_braille_auth},
    {SEC_GAME, "event", set_game_tag},
    {SEC_GAME, "site", set_game_tag},
    {SEC_GAME, "date", set_game_date},
    {SEC_GAME, "round", set_game_tag},
    {SEC_GAME, "white", set_game_tag},
    {SEC_GAME, "black", set_game_tag},
    {SEC_GAME, "time_control", set_game_tag},
    {SEC_BROADCAST, "dgt", set_bc_dgt},
    {SEC_BROADCAST, "tcp", set_bc_tcp},
    {SEC_BROADCAST, "max_clients", set_bc_clients},
    {SEC_BROADCAST, "pgn_dir", set_bc_pgn_dir},
    {SEC_BROADCAST, "serial", set_bc_serial},
    {SEC_BROADCAST, "delay", set_bc_delay},
    {SEC_HALL, "broker", set_hall_broker},
    {SEC_HALL, "port", set_hall_port},
    {SEC_HALL, "tournament", set_hall_name},
    {SEC_HALL, "table", set_hall_name},
    {SEC_HALL, "username", set_hall_user},
    {SEC_HALL, "password_file", set_hall_path},
    {SEC_HALL, "cafile", set_hall_path},
    /* the game's clock */
    {SEC_CLOCK, "control", set_clock_control},
    {SEC_CLOCK, "source", set_clock_source},
    {SEC_CLOCK, "warn_vi", set_clock_warn},
    {SEC_CLOCK, "warn_sighted", set_clock_warn},
    /* doorgeefschaak (daemon_bug.c) */
    {SEC_BUGHOUSE, "enabled", set_bug_enabled},
    {SEC_BUGHOUSE, "control", set_bug_control},
    {SEC_BUGHOUSE, "hear_other_board", set_bug_hear},
    {SEC_BUGHOUSE, "white_a", set_bug_seat},
    {SEC_BUGHOUSE, "black_a", set_bug_seat},
    {SEC_BUGHOUSE, "white_b", set_bug_seat},
    {SEC_BUGHOUSE, "black_b", set_bug_seat},
    {SEC_BUGHOUSE, "pack_white_a", set_bug_seat},
    {SEC_BUGHOUSE, "pack_black_a", set_bug_seat},
    {SEC_BUGHOUSE, "pack_white_b", set_bug_seat},
    {SEC_BUGHOUSE, "pack_black_b", set_bug_seat},
    {SEC_BUGHOUSE, "audio_white_a", set_bug_seat},
    {SEC_BUGHOUSE, "audio_black_a", set_bug_seat},
    {SEC_BUGHOUSE, "audio_white_b", set_bug_seat},
    {SEC_BUGHOUSE, "audio_black_b", set_bug_seat},
};

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct parse *ps = user;
    long line = ps->line;
    enum section sec = section_of(section);
    if (sec == SEC_UNKNOWN)
        return 1; /* reported once, at the section header */
    if (sec == SEC_NONE) {
        problem(ps, line,
                "'%s' is outside any section (expected [daemon], [arbiter], "
                "[player vi], [player sighted], [game], [broadcast], [hall] or [clock] first)",
                name);
        return 1;
    }
    enum section table_sec = sec == SEC_SIGHTED ? SEC_VI : sec;
    int slot = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (keys[i].section != table_sec)
            continue;
        if (strcmp(keys[i].name, name) != 0) {
            slot++;
            continue;
        }
        if (ps->seen[sec][slot]) {
            problem(ps, line, "%s is set twice in [%s] (first at line %ld)", name,
                    section_names[sec], ps->seen[sec][slot]);
            return 1;
        }
        ps->seen[sec][slot] = line;
        if (!*value)
            problem(ps, line, "%s has no value", name);
        else if (!printable(value))
            problem(ps, line, "%s contains control characters", name);
        else
            keys[i].set(ps, line, name, value,
                        sec == SEC_SIGHTED ? TB_CONFIG_SIGHTED : TB_CONFIG_VI);
        return 1;
    }
    problem(ps, line, "unknown key '%s' in [%s]", name, section_names[sec]);
    return 1;
}

/* ---- the line reader between the text and inih ----------------------------------------- */

/* Checks a line's shape so every problem is named here, with its line, and inih only ever
 * sees lines it accepts. Returns the text to hand to inih (possibly empty). */
static const char *check_line(struct parse *ps, char *s)
{
    while (*s == ' ' || *s == '\t') /* no indented continuation lines: too easy to misread */
        s++;
    if (!*s || *s == ';' || *s == '#')
        return s;
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close) {
            problem(ps, ps->line, "section header needs a closing ']'");
            return "";
        }
        char name[64]; /* inih matches the name exactly, so this does too */
        snprintf(name, sizeof name, "%.*s", (int)(close - s - 1), s + 1);
        enum section sec = section_of(name);
        if (sec == SEC_UNKNOWN || sec == SEC_NONE)
            problem(ps, ps->line,
                    "unknown section [%s] (expected [daemon], [arbiter], [player vi], "
                    "[player sighted], [game], [broadcast], [hall] or [clock])",
                    name);
        else
            ps->section_line[sec] = ps->section_line[sec] ? ps->section_line[sec] : ps->line;
        return s;
    }
    if (!strpbrk(s, "=:")) {
        problem(ps, ps->line, "expected 'key = value'");
        return "";
    }
    if (*s == '=' || *s == ':') {
        problem(ps, ps->line, "a value without a key");
        return "";
    }
    return s;
}

static char *reader(char *str, int num, void *stream)
{
    struct parse *ps = stream;
    if (ps->p >= ps->end)
        return NULL;
    const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
    size_t len = nl ? (size_t)(nl - ps->p) : (size_t)(ps->end - ps->p);
    const char *line = ps->p;
    ps->p += len + (nl ? 1 : 0);
    ps->line++;
    if (len && line[len - 1] == '\r')
        len--;
    if (ps->line == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
        line += 3; /* a UTF-8 byte order mark */
        len -= 3;
    }
    str[0] = '\0';
    if (memchr(line, '\0', len)) {
        problem(ps, ps->line, "line contains a NUL byte");
        return str;
    }
    if (len + 3 > (size_t)num) {
        problem(ps, ps->line, "line is longer than %d characters", num - 3);
        return str;
    }
    char buf[512];
    memcpy(buf, line, len);
    buf[len] = '\0';
    snprintf(str, (size_t)num, "%s\n", check_line(ps, buf));
    return str;
}

/* ---- whole-file rules ------------------------------------------------------------------ */

static void check_whole(struct parse *ps)
{
    struct tb_config *c = &ps->cfg;
    if (c->player[0].colour == c->player[1].colour) {
        long line = ps->colour_line[1] ? ps->colour_line[1] : ps->colour_line[0];
        problem(ps, line ? line : 1, "both players have the colour %s",
                tb_config_colour_name(c->player[0].colour));
    }
    struct tb_link_resource a, b;
    if (tb_link_resource_parse(c->player[0].board, &a, NULL) == TB_OK &&
        tb_link_resource_parse(c->player[1].board, &b, NULL) == TB_OK &&
        tb_link_resource_caps(&a) & TB_LINK_CAP_DEVICE &&
        (strcmp(c->player[0].board, c->player[1].board) == 0 ||
         (a.kind == TB_LINK_REED && b.kind == TB_LINK_REED && a.board_id == b.board_id))) {
        long line = ps->seen[SEC_SIGHTED][0] ? ps->seen[SEC_SIGHTED][0] : ps->seen[SEC_VI][0];
        problem(ps, line ? line : 1, "both players' boards are %s", c->player[0].board);
    }
    /* D.2: the VI player's board holds the pegged pieces; in [bughouse] it is only board A */
    struct tb_link_resource vi;
    if (!c->bughouse.enabled &&
        tb_link_resource_parse(c->player[TB_CONFIG_VI].board, &vi, NULL) == TB_OK &&
        tb_link_resource_caps(&vi) & TB_LINK_CAP_PIECES)
        problem(ps, c->player[TB_CONFIG_VI].board_line ? c->player[TB_CONFIG_VI].board_line : 1,
                "board: %s: a%s e-board cannot be the VI player's board: it has no holes to "
                "hold the pieces (D.2) and no buttons (repeat, clock, promote, arbiter); in "
                "[bughouse] mode it may be board A",
                tb_link_kind_name(vi.kind), vi.kind == TB_LINK_DGT ? " DGT" : "n");
    /* [clock]: a control alone means the built-in clock; the built-in clock needs one */
    if (c->clock.control[0] && !ps->clock_source_line)
        c->clock.source = TB_CONFIG_CLOCK_BUILTIN;
    if (c->clock.source == TB_CONFIG_CLOCK_BUILTIN && !c->clock.control[0])
        problem(ps, ps->clock_source_line ? ps->clock_source_line : 1,
                "source builtin needs a time control: set control in [clock] (e.g. 90m+15s, "
                "club, blitz)");
    if (!c->arbiter_pin[0] && !ps->seen[SEC_ARBITER][0])
        problem(ps, ps->section_line[SEC_ARBITER] ? ps->section_line[SEC_ARBITER] : 1,
                "no arbiter PIN: the daemon does not start without one; write pin = and 6 to 8 "
                "digits of your own (no 000000, no 123456) in [arbiter] of this file "
                "(twinboard set-pin changes it once the daemon runs)");
    /* [hall]: a table publishes under its tournament and table names, both needed */
    const struct tb_config_hall *h = &c->hall;
    bool hall_keys = false; /* an empty [hall] (the packaged file's) leaves the hall off */
    for (int k = 0; k < 16; k++)
        hall_keys |= ps->seen[SEC_HALL][k] != 0;
    if (hall_keys && (!h->tournament[0] || !h->table[0]))
        problem(ps, ps->section_line[SEC_HALL],
                "[hall] needs both tournament and table (the table's topics are "
                "twinboard/<tournament>/<table>/...)");
    if (hall_keys && !h->broker[0])
        problem(ps, ps->section_line[SEC_HALL], "[hall] needs broker (the MQTT broker's address)");
}

int tb_config_parse(struct tb_config *cfg, const char *text, size_t len,
                    struct tb_config_report *rep)
{
    struct parse *ps = calloc(1, sizeof *ps);
    if (!ps)
        return TB_ERR_MEM;
    memset(rep, 0, sizeof *rep);
    ps->cfg = *cfg;
    ps->rep = rep;
    ps->p = text;
    ps->end = text + len;
    ini_parse_stream(reader, ps, handler, ps); /* every problem is already in rep */
    check_whole(ps);
    int rc = rep->count ? TB_ERR_PARSE : TB_OK;
    memcpy(ps->cfg.key_line, ps->seen, sizeof ps->cfg.key_line);
    memcpy(ps->cfg.section_line, ps->section_line, sizeof ps->cfg.section_line);
    if (rc == TB_OK)
        *cfg = ps->cfg;
    free(ps);
    return rc;
}

int tb_config_load(struct tb_config *cfg, const char *path, struct tb_config_report *rep,
                   struct tb_error *err)
{
    memset(rep, 0, sizeof *rep);
    char *buf;
    size_t len;
    int rc = tb_read_file(path, &buf, &len, err);
    if (rc != TB_OK)
        return rc;
    if (len > CONFIG_FILE_MAX) { /* a configuration is a page, not a megabyte */
        free(buf);
        return tb_error_set(err, TB_ERR_PARSE, "%s is larger than 1 MiB", path);
    }
    rc = tb_config_parse(cfg, buf, len, rep);
    free(buf);
    if (rc == TB_ERR_PARSE)
        tb_error_set(err, rc, "%s: %d problem%s", path, rep->count, rep->count == 1 ? "" : "s");
    return rc;
}

/* ---- defaults and names ---------------------------------------------------------------- */

void tb_config_defaults(struct tb_config *cfg, const struct tb_config_place *place,
                        const char *demo_script)
{
    memset(cfg, 0, sizeof *cfg);
    for (int r = 0; r < 2; r++) {
        struct tb_config_player *p = &cfg->player[r];
        if (demo_script && *demo_script)
            snprintf(p->board, sizeof p->board, "sim:%s", demo_script);
        else
            strcpy(p->board, "null:");
        p->colour = r == TB_CONFIG_VI ? TB_CONFIG_WHITE : TB_CONFIG_BLACK;
        strcpy(p->pack, "de-fide"); /* D.2.1 recommends the German names */
        p->rate = 160;
        strcpy(p->audio, "null");
        p->promote_settle_ms = 1500;
        p->review_hold_ms = 1000;
        p->review_repeat_hold = TB_VOICE_REVIEW_LAST;
        p->review_promote_hold = TB_VOICE_REVIEW_POSITION;
    }
    cfg->blip_window_ms = 100; /* docs/benchmarks.md, "Blip window": no false move from 90 ms */
    cfg->promotion_prompt_ms = 3000;
    cfg->log_level = TB_CONFIG_LOG_INFO;
    cfg->broadcast.tcp_port = -1; /* [broadcast]: off until configured */
    cfg->broadcast.max_clients = 8;
    strcpy(cfg->broadcast.serial, "01025");
    if (place) /* never /tmp: "" when there is no usable place (tb_config_require_paths) */
        tb_config_default_paths(cfg, place);
}

bool tb_config_broadcast_on(const struct tb_config *cfg)
{
    return cfg->broadcast.dgt[0] || cfg->broadcast.tcp_port >= 0 || cfg->broadcast.pgn_dir[0];
}

bool tb_config_hall_on(const struct tb_config *cfg)
{
    return cfg->hall.table[0] != '\0';
}

const char *tb_config_role_name(enum tb_config_role role)
{
    return role == TB_CONFIG_SIGHTED ? "sighted" : "vi";
}

const char *tb_config_colour_name(enum tb_config_colour colour)
{
    return colour == TB_CONFIG_BLACK ? "black" : "white";
}

const char *tb_config_clock_source_name(enum tb_config_clock_source source)
{
    static const char *const names[] = {"none", "builtin", "board"};
    return (unsigned)source < 3 ? names[source] : "none";
}

const char *tb_config_log_name(enum tb_config_log level)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    return (unsigned)level < 4 ? names[level] : "info";
}

long tb_config_line(const struct tb_config *cfg, const char *section, const char *key)
{
    for (int sec = SEC_DAEMON; sec < SEC_UNKNOWN; sec++) {
        if (strcmp(section_names[sec], section) != 0)
            continue;
        enum section table_sec = sec == SEC_SIGHTED ? SEC_VI : (enum section)sec;
        int slot = 0;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            if (keys[i].section != table_sec)
                continue;
            if (!strcmp(keys[i].name, key) && cfg->key_line[sec][slot])
                return cfg->key_line[sec][slot];
            slot++;
        }
        return cfg->section_line[sec] ? cfg->section_line[sec] : 1;
    }
    return 1;
}

/* snprintf at buf + *used, never past len; *used counts what would have been written. */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*used < len ? buf + *used : NULL, *used < len ? len - *used : 0, fmt, ap);
    va_end(ap);
    *used += n > 0 ? (size_t)n : 0;
}

/* The game's parts beyond the players: the mode's own, then [clock], [broadcast], [hall]. */
static void summary_parts(const struct tb_config *cfg, char *buf, size_t len, size_t *u)
{
    const struct tb_config_clock *k = &cfg->clock;
    if (cfg->bughouse.enabled)
        put(buf, len, u, "; clock: each player %s", /* 6.3: 7 minutes unless set */
            cfg->bughouse.control[0] ? cfg->bughouse.control : "7m");
    else
        put(buf, len, u, "; clock: %s%s%s", tb_config_clock_source_name(k->source),
            k->control[0] ? " " : "", k->control);
    const struct tb_config_broadcast *b = &cfg->broadcast;
    put(buf, len, u, "; broadcast:%s", tb_config_broadcast_on(cfg) ? "" : " off");
    if (b->dgt[0])
        put(buf, len, u, " dgt=pty:%s", b->dgt);
    if (b->tcp_port >= 0)
        put(buf, len, u, " tcp=127.0.0.1:%d", b->tcp_port);
    if (b->pgn_dir[0])
        put(buf, len, u, " pgn_dir=%s", b->pgn_dir);
    if (b->delay_ms)
        put(buf, len, u,
            b->delay_ms % 60000 == 0  ? " delay=%llum"
            : b->delay_ms % 1000 == 0 ? " delay=%llus"
                                      : " delay=%llums",
            (unsigned long long)(b->delay_ms % 60000 == 0  ? b->delay_ms / 60000
                                 : b->delay_ms % 1000 == 0 ? b->delay_ms / 1000
                                                           : b->delay_ms));
    const struct tb_config_hall *h = &cfg->hall;
    if (tb_config_hall_on(cfg))
        put(buf, len, u, "; hall: %s/%s on %s%s", h->tournament, h->table, h->broker,
            h->cafile[0] ? " (TLS)" : "");
    else
        put(buf, len, u, "; hall: off");
}

int tb_config_summary(const struct tb_config *cfg, char *buf, size_t len)
{
    size_t u = 0;
    if (len)
        buf[0] = '\0';
    if (cfg->bughouse.enabled) { /* doorgeefschaak: two boards, four seats (D.2 is not played) */
        const struct tb_config_bughouse *bh = &cfg->bughouse;
        put(buf, len, &u, "doorgeefschaak: board A %s, board B %s", cfg->player[0].board,
            cfg->player[1].board);
        for (int s = 0; s < TB_CONFIG_SEATS; s++)
            put(buf, len, &u, "; %s: %s pack=%s audio=%s", tb_config_seat_name(s),
                bh->name[s][0] ? bh->name[s] : "?",
                bh->pack[s][0] ? bh->pack[s] : cfg->player[0].pack,
                bh->audio[s][0] ? bh->audio[s] : "null");
    } else {
        const struct tb_config_player *v = &cfg->player[0], *s = &cfg->player[1];
        put(buf, len, &u,
            "vi: %s %s pack=%s voice=%s rate=%d audio=%s; sighted: %s %s pack=%s voice=%s "
            "rate=%d audio=%s",
            v->board, tb_config_colour_name(v->colour), v->pack, v->voice[0] ? v->voice : "(pack)",
            v->rate, v->audio, s->board, tb_config_colour_name(s->colour), s->pack,
            s->voice[0] ? s->voice : "(pack)", s->rate, s->audio);
    }
    summary_parts(cfg, buf, len, &u);
    put(buf, len, &u, "; blip=%dms pin=%s journal=%s socket=%s", cfg->blip_window_ms,
        cfg->arbiter_pin[0] ? "set" : "none", cfg->journal_dir, cfg->socket_path);
    return (int)u;
}
