/* daemon_check.c - the one check of a configuration before the daemon starts: --check-config
 * and the start itself ask tb_daemon_check, so a file that passes the one is not refused by the
 * other (docs/configuration.md, "Checking a file"). After the file reads, what it names is
 * looked at without starting anything: the sim: boards' scripts, a fast script against a board
 * in real time, the socket's and the journal's directories, every phrase pack and headset in use
 * (the two players', or the four doorgeefschaak seats'), the [broadcast] places and port, and the
 * [hall] files. Each problem is one line: the file's line, then "[section] key = value: why". */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon_audio.h"
#include "daemon_shell.h"

struct check {
    const struct tb_daemon_options *o;
    const struct tb_config *cfg;
    struct tb_config_report *rep;
};

static void add(struct check *c, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(struct check *c, long line, const char *fmt, ...)
{
    struct tb_config_report *rep = c->rep;
    if (rep->count < TB_CONFIG_MAX_PROBLEMS) {
        struct tb_config_problem *p = &rep->problem[rep->count];
        p->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->msg, sizeof p->msg, fmt, ap);
        va_end(ap);
    }
    rep->count++;
}

/* "[section] key = value: why" at the line that set the key. */
static void add_key(struct check *c, const char *section, const char *key, const char *value,
                    const char *why)
{
    add(c, tb_config_line(c->cfg, section, key), "[%s] %s = %s: %s", section, key, value, why);
}

static const char *player_section(int r)
{
    return r == TB_CONFIG_SIGHTED ? "player sighted" : "player vi";
}

/* A sim: board's script is read now, so its problems show before the game; serial, pty and USB
 * boards are not opened (they may not be plugged in yet). A fast script (script time) and a
 * board in real time cannot share one game's clock. */
static void check_boards(struct check *c)
{
    unsigned caps[2] = {0, 0};
    for (int r = 0; r < 2; r++) {
        const char *board = c->cfg->player[r].board;
        struct tb_link_resource res;
        if (tb_link_resource_parse(board, &res, NULL) != TB_OK) /* refused when read */
            continue;
        caps[r] = tb_link_resource_caps(&res);
        if (caps[r] & TB_LINK_CAP_REPLAYS && c->o->speed != TB_DAEMON_SPEED_CONFIG) {
            res.fast = c->o->speed == TB_DAEMON_SPEED_FAST; /* as the command line asks */
            caps[r] = tb_link_resource_caps(&res);
        }
        if (!(caps[r] & TB_LINK_CAP_REPLAYS))
            continue;
        struct tb_link *link = NULL;
        struct tb_error err = {0};
        if (tb_link_open(&link, board, tb_config_role_name((enum tb_config_role)r), 0, &err) !=
            TB_OK)
            add_key(c, player_section(r), "board", board, err.msg);
        tb_link_close(link);
    }
    for (int r = 0; r < 2; r++)
        if ((caps[r] & TB_LINK_CAP_SCRIPT_TIME) && (caps[1 - r] & TB_LINK_CAP_REAL_TIME))
            add_key(c, player_section(r), "board", c->cfg->player[r].board,
                    "a fast script (script time) cannot be played against a board in real time");
}

/* The socket's and the journal's directories: missing ones are made at start. */
static void check_places(struct check *c)
{
    struct tb_config cfg = *c->cfg; /* with the command line's --socket and --journal */
    if (c->o->socket_path)
        snprintf(cfg.socket_path, sizeof cfg.socket_path, "%s", c->o->socket_path);
    if (c->o->journal_dir)
        snprintf(cfg.journal_dir, sizeof cfg.journal_dir, "%s", c->o->journal_dir);
    struct tb_error err = {0};
    if (tb_config_require_paths(&cfg, &err) != TB_OK) {
        add(c, tb_config_line(c->cfg, "daemon", cfg.socket_path[0] ? "journal_dir" : "socket"),
            "[daemon] %s", err.msg);
        return;
    }
    static const char *const what[2] = {"control socket", "journal"};
    static const char *const key[2] = {"socket", "journal_dir"};
    const char *where[2] = {cfg.socket_path, cfg.journal_dir};
    long also = geteuid() == 0 ? tb_config_service_uid() : -1; /* root checks for the service */
    for (int i = 0; i < 2; i++) {
        if (i == 0 && !where[0][0]) /* --socket "": no control socket */
            continue;
        int rc = tb_config_check_dir(where[i], i == 1, what[i], also, &err);
        if (rc != TB_OK && rc != TB_ERR_NOTFOUND)
            add_key(c, "daemon", key[i], where[i], err.msg);
    }
}

static void check_pack(struct check *c, const char *section, const char *key, const char *name)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    if (tb_voice_pack_load(name, &pack, &err) != TB_OK)
        add_key(c, section, key, name, err.msg);
    tb_voice_pack_free(pack);
}

static void check_audio(struct check *c, const char *section, const char *key, const char *audio)
{
    char name[256];
    struct tb_error err = {0};
    if (tb_daemon_audio_device(audio, name, sizeof name, &err) != TB_OK)
        add_key(c, section, key, audio, err.msg);
}

/* The packs and headsets in use: the two players' in the twin game, the four seats' in
 * doorgeefschaak (a seat without a pack hears the [player vi] pack). --audio replaces every
 * headset, so then none is probed. */
static void check_ears(struct check *c)
{
    const struct tb_config *cfg = c->cfg;
    bool probe = !c->o->audio && !c->o->sink;
    for (int r = 0; r < 2; r++)
        check_pack(c, player_section(r), "pack", cfg->player[r].pack);
    if (!cfg->bughouse.enabled) {
        for (int r = 0; r < 2 && probe; r++)
            check_audio(c, player_section(r), "audio", cfg->player[r].audio);
        return;
    }
    for (int s = 0; s < TB_CONFIG_SEATS; s++) {
        char key[32];
        const char *seat = tb_config_seat_name(s);
        if (cfg->bughouse.pack[s][0]) {
            snprintf(key, sizeof key, "pack_%s", seat);
            check_pack(c, "bughouse", key, cfg->bughouse.pack[s]);
        }
        snprintf(key, sizeof key, "audio_%s", seat);
        if (probe && tb_daemon__audio_target(cfg->bughouse.audio[s]))
            check_audio(c, "bughouse", key, cfg->bughouse.audio[s]);
    }
}

/* A file's directory (or the directory itself) that the daemon makes its file in. */
static void check_dir_of(struct check *c, const char *key, const char *path, bool is_dir)
{
    char dir[TB_CONFIG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!is_dir && slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (access(dir, W_OK | X_OK) != 0)
            add_key(c, "broadcast", key, path, "the daemon may not write in that directory");
        return;
    }
    if (is_dir) { /* made at start when its parent is there */
        slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = '\0';
            if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
                return;
        }
    }
    char why[TB_CONFIG_PATH_MAX + 40];
    snprintf(why, sizeof why, "no directory %s", dir);
    add_key(c, "broadcast", key, path, why);
}

/* [broadcast]: the pty's link and the live PGN's directory can be made, the TCP port is free. */
static void check_broadcast(struct check *c)
{
    const struct tb_config_broadcast *b = &c->cfg->broadcast;
    if (b->dgt[0])
        check_dir_of(c, "dgt", b->dgt, false);
    if (b->pgn_dir[0])
        check_dir_of(c, "pgn_dir", b->pgn_dir, true);
    if (b->tcp_port > 0) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        union { /* the address as bind() takes it, with no cast between object types */
            struct sockaddr sa;
            struct sockaddr_in in;
        } a = {.in = {.sin_family = AF_INET, .sin_port = htons((uint16_t)b->tcp_port)}};
        a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int one = 1;
        if (fd >= 0)
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (fd >= 0 && bind(fd, &a.sa, sizeof a.in) != 0) {
            char value[32], why[128];
            snprintf(value, sizeof value, "127.0.0.1:%d", b->tcp_port);
            snprintf(why, sizeof why, "the port cannot be taken: %s", strerror(errno));
            add_key(c, "broadcast", "tcp", value, why);
        }
        if (fd >= 0)
            close(fd);
    }
}

/* [hall]: the password file and the CA file can be read. */
static void check_hall(struct check *c)
{
    const struct tb_config_hall *h = &c->cfg->hall;
    if (!tb_config_hall_on(c->cfg))
        return;
    static const char *const key[2] = {"password_file", "cafile"};
    const char *file[2] = {h->password_file, h->cafile};
    for (int i = 0; i < 2; i++) {
        FILE *f = file[i][0] ? fopen(file[i], "r") : NULL;
        if (file[i][0] && !f)
            add_key(c, "hall", key[i], file[i], strerror(errno));
        if (f)
            fclose(f);
    }
}

int tb_daemon_check(struct tb_daemon_options *o, const char *path, struct tb_config_report *rep,
                    struct tb_error *err)
{
    int rc = tb_config_load(&o->cfg, path, rep, err);
    if (rc != TB_OK)
        return rc;
    struct check c = {o, &o->cfg, rep};
    check_boards(&c);
    check_places(&c);
    check_ears(&c);
    check_broadcast(&c);
    check_hall(&c);
    if (!rep->count)
        return TB_OK;
    return tb_error_set(err, TB_ERR_PARSE, "%s: %d problem%s", path, rep->count,
                        rep->count == 1 ? "" : "s");
}
