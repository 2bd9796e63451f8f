/* daemon_games.c - games kept: every game has its own journal and PGN in the journal directory,
 * named by date, round and players ("2026-11-24_r3_Anna_Schmidt-Bert_Meier.tbj" and ".pgn"),
 * and beside the PGN the VI player's braille scoresheet (".brf", D.2.7).
 *
 * The running game's journal is JOURNAL_DIR/current.tbj, so a restart (a reboot) replays the
 * unfinished game; its name and tags are in JOURNAL_DIR/current.name, written when the game
 * starts. The PGN is written when the game ends, when a new game starts and when the daemon
 * stops (once the game has a move). new-game keeps the finished game: its journal is renamed to its
 * own name and a fresh current.tbj begins the next game. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon_games.h"
#include "daemon_export.h"
#include "daemon_bugmode.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_session.h"
#include "tb_record.h"

#define NAME_FILE "current.name"

/* The part's state: the running game's name, made of its tags (tb_daemon__tags). */
struct tb_daemon__game {
    char name[TBD_GAME_NAME]; /* "2026-11-24_r3_Anna_Schmidt-Bert_Meier": its journal's and PGN's */
};

/* A file in the journal directory; "" (which opens nothing) when the path would not fit. */
static void dir_path(const struct tb_daemon *d, const char *file, char *buf, size_t len)
{
    if (snprintf(buf, len, "%s/%s", d->cfg->journal_dir, file) >= (int)len)
        buf[0] = '\0';
}

/* The journal directory's entries are durable once it is synced. */
static void sync_dir(const struct tb_daemon *d)
{
    int fd = open(d->cfg->journal_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* text into JOURNAL_DIR/file, whole or not at all (a temporary file renamed over it). */
static int write_whole(struct tb_daemon *d, const char *file, const char *text)
{
    char path[TB_CONFIG_PATH_MAX + 200], tmp[TB_CONFIG_PATH_MAX + 210];
    dir_path(d, file, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0640);
    size_t n = strlen(text);
    bool ok = fd >= 0 && write(fd, text, n) == (ssize_t)n && fsync(fd) == 0;
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (ok && rename(tmp, path) == 0) {
        sync_dir(d);
        return TB_OK;
    }
    e = ok ? errno : e;
    unlink(tmp);
    tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "games: cannot write %s: %s", path, strerror(e));
    return TB_ERR_SYS;
}

/* A tag as a part of a file name: letters (any UTF-8), digits, '-' and '.'; anything else '_'. */
static void name_part(const char *tag, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)tag; *p && n + 1 < len; p++)
        buf[n++] = (*p >= 0x80 || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.')
                       ? (char)*p
                       : '_';
    buf[n] = '\0';
}

/* The name of the running game's journal and PGN, from its tags: date, round when one is set,
 * players. */
static void make_name(struct tb_daemon *d)
{
    const struct tb_broadcast_tags *t = tb_daemon__tags(d);
    char w[TB_BROADCAST_TAG_MAX], b[TB_BROADCAST_TAG_MAX], r[TB_BROADCAST_TAG_MAX] = "";
    char day[TB_BROADCAST_TAG_MAX]; /* the PGN's 2026.11.24 as 2026-11-24 */
    name_part(t->white, w, sizeof w);
    name_part(t->black, b, sizeof b);
    if (t->round[0] && strcmp(t->round, "-") && strcmp(t->round, "?"))
        name_part(t->round, r, sizeof r);
    name_part(t->date, day, sizeof day);
    for (char *p = day; *p; p++)
        *p = *p == '.' ? '-' : *p;
    snprintf(d->game->name, sizeof d->game->name, "%.16s%s%.40s_%.90s-%.90s", day, r[0] ? "_r" : "",
             r, w, b);
}

/* JOURNAL_DIR/current.name: the game's name, then its tags. */
static const char *const keys[] = {"name", "date", "event", "site", "round", "white", "black"};

/* Field i of current.name in the game's name or in t, the game's tags. */
static char *field(struct tb_daemon *d, struct tb_broadcast_tags *t, int i)
{
    char *f[] = {d->game->name, t->date, t->event, t->site, t->round, t->white, t->black};
    return f[i];
}

static size_t field_size(const struct tb_daemon *d, int i)
{
    return i == 0 ? sizeof d->game->name : TB_BROADCAST_TAG_MAX;
}

void tb_daemon__game_begin(struct tb_daemon *d)
{
    make_name(d);
    if (!tb_daemon__journal(d))
        return;
    char text[1600];
    size_t u = 0;
    struct tb_broadcast_tags tags = *tb_daemon__tags(d);
    for (int i = 0; i < 7 && u < sizeof text; i++)
        u += (size_t)snprintf(text + u, sizeof text - u, "%s=%s\n", keys[i], field(d, &tags, i));
    write_whole(d, NAME_FILE, text);
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "games: this game is %s (journal %s)", d->game->name,
                   d->journal_path);
}

void tb_daemon__game_recover(struct tb_daemon *d)
{
    char path[TB_CONFIG_PATH_MAX + 200];
    dir_path(d, NAME_FILE, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) { /* a journal of an older daemon: the game is named now */
        tb_daemon__game_begin(d);
        return;
    }
    d->game->name[0] = '\0';
    struct tb_broadcast_tags tags = *tb_daemon__tags(d);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *v = strchr(line, '=');
        if (!v)
            continue;
        *v++ = '\0';
        for (int i = 0; i < 7; i++)
            if (!strcmp(line, keys[i]))
                snprintf(field(d, &tags, i), field_size(d, i), "%s", v);
    }
    fclose(f);
    tb_daemon__tags_set(d, &tags);
    if (!d->game->name[0] || strchr(d->game->name, '/'))
        make_name(d);
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "games: the unfinished game %s goes on", d->game->name);
}

/* D.2.7: the VI player's braille scoresheet (BRF, 40 x 25) beside the PGN, in the language of
 * their pack, made from the PGN just written. */
static void keep_brf(struct tb_daemon *d, const char *pgn)
{
    const char *pack = d->cfg->player[TB_CONFIG_VI].pack;
    struct tb_record_braille_opts o = {.lang = !strncmp(pack, "nl", 2)   ? TB_CHESS_LETTERS_NL
                                               : !strncmp(pack, "en", 2) ? TB_CHESS_LETTERS_EN
                                                                         : TB_CHESS_LETTERS_DE,
                                       .grade = 1};
    tb_chess_pgn_game *g = malloc(sizeof *g);
    char *brf = NULL, file[sizeof d->game->name + 8];
    size_t len = 0;
    FILE *f = g ? open_memstream(&brf, &len) : NULL;
    struct tb_error err = {0};
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, pgn, strlen(pgn));
    int rc = f && tb_chess_pgn_read(&r, g, &err) == 1 ? tb_record_braille_write(g, &o, f, &err)
                                                      : TB_ERR_MEM;
    if (f)
        fclose(f);
    snprintf(file, sizeof file, "%s.brf", d->game->name);
    if (rc > 0)
        write_whole(d, file, brf);
    else
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "games: %s cannot be made: %s", file,
                       err.msg[0] ? err.msg : tb_strerror(rc));
    free(brf);
    free(g);
}

void tb_daemon__game_keep(struct tb_daemon *d)
{
    if (!tb_daemon__journal(d) || !d->game || !d->game->name[0] || !tb_daemon__fx(d)->stores ||
        !tb_daemon__match(d) || tb_match_game(tb_daemon__match(d))->plies == 0)
        return; /* a game not begun (a refused start) leaves none */
    char *pgn = NULL, file[sizeof d->game->name + 8];
    if (tb_daemon__pgn_text(d, TB_CHESS_LETTERS_EN, false, &pgn) < 0) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "games: the PGN of %s cannot be made",
                       d->game->name);
        return;
    }
    snprintf(file, sizeof file, "%s.pgn", d->game->name);
    if (write_whole(d, file, pgn) == TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "games: %s/%s written (%s)", d->cfg->journal_dir,
                       file, tb_daemon__result(d));
    keep_brf(d, pgn);
    free(pgn);
}

/* The finished game's journal under its own name (NAME.tbj, NAME-2.tbj ... when taken). */
static int keep_journal(struct tb_daemon *d, char *kept, size_t len)
{
    for (int i = 1; i < 100; i++) {
        char file[sizeof d->game->name + 16];
        if (i == 1)
            snprintf(file, sizeof file, "%s.tbj", d->game->name);
        else
            snprintf(file, sizeof file, "%s-%d.tbj", d->game->name, i);
        dir_path(d, file, kept, len);
        if (access(kept, F_OK) == 0)
            continue;
        if (rename(d->journal_path, kept) != 0)
            return TB_ERR_SYS;
        sync_dir(d);
        return TB_OK;
    }
    errno = EEXIST;
    return TB_ERR_SYS;
}

int tb_daemon__game_next(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         struct tb_error *err)
{
    if (!tb_daemon__journal(d) || !tb_daemon__fx(d)->stores)
        return TB_OK;
    if (tb_daemon__journal_stopped(d, err))
        return TB_ERR_STATE;
    tb_daemon__game_keep(d);
    char kept[TB_CONFIG_PATH_MAX + 200];
    struct tb_error e = {0};
    tb_daemon__journal_close(d);
    int renamed = keep_journal(d, kept, sizeof kept);
    int saved = errno;
    struct tb_journal_recovery rec;
    int rc = tb_daemon__journal_reopen(d, &rec, &e);
    if (rc != TB_OK && renamed == TB_OK && rename(kept, d->journal_path) == 0) {
        renamed = TB_ERR_SYS; /* the finished game's journal back in place: it goes on */
        saved = e.code == TB_ERR_SYS ? errno : EIO;
        rc = tb_daemon__journal_reopen(d, &rec, &e);
    }
    if (rc != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "games: %s", e.msg);
        return tb_error_set(err, TB_ERR_SYS, "games: %s", e.msg);
    }
    if (renamed != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR,
                       "games: the journal of %s stays %s (it cannot be renamed: %s); the next "
                       "game goes on in it",
                       d->game->name, d->journal_path, strerror(saved));
        tb_daemon__game_tags(d, req); /* the next game's tags, then its name */
        tb_daemon__game_begin(d);
        return TB_OK;
    }
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "games: %s kept as %s", d->game->name, kept);
    tb_daemon__game_tags(d, req); /* the next game's tags, then its name */
    tb_daemon__game_begin(d);
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "daemon");
    tb_chess_pos_to_fen(tb_daemon__start(d), dec.fen, sizeof dec.fen);
    tb_config_summary(d->cfg, dec.text, sizeof dec.text);
    return tb_daemon__journal_decision(d, TB_JOURNAL_GAME_START, t, &dec, true);
}

/* ---- the games request ------------------------------------------------------------------ */

struct kept {
    char name[256];
    bool pgn, journal;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct kept *)a)->name, ((const struct kept *)b)->name);
}

/* The [Result "..."] of a kept PGN, "?" when it cannot be read. */
static void pgn_result(const struct tb_daemon *d, const char *name, char *buf, size_t len)
{
    char path[TB_CONFIG_PATH_MAX + 220], line[256];
    snprintf(path, sizeof path, "%s/%s.pgn", d->cfg->journal_dir, name);
    snprintf(buf, len, "?");
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "[Result \"%15[^\"]\"]", buf) == 1)
            break;
    if (f)
        fclose(f);
}

void tb_daemon__games(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    struct kept *k = NULL;
    size_t n = 0, cap = 0;
    DIR *dir = opendir(d->cfg->journal_dir);
    for (struct dirent *e; dir && (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        bool pgn = len > 4 && !strcmp(e->d_name + len - 4, ".pgn");
        bool tbj = len > 4 && !strcmp(e->d_name + len - 4, ".tbj");
        if ((!pgn && !tbj) || !strcmp(e->d_name, "current.tbj") || len - 4 >= sizeof k->name)
            continue;
        size_t i = 0;
        while (i < n && (strlen(k[i].name) != len - 4 || strncmp(k[i].name, e->d_name, len - 4)))
            i++;
        if (i == n) {
            if (n == cap) {
                struct kept *k2 = realloc(k, (cap = cap ? cap * 2 : 16) * sizeof *k);
                if (!k2)
                    break;
                k = k2;
            }
            memset(&k[n], 0, sizeof k[n]);
            memcpy(k[n].name, e->d_name, len - 4);
            n++;
        }
        k[i].pgn |= pgn;
        k[i].journal |= tbj;
    }
    if (dir)
        closedir(dir);
    if (n)
        qsort(k, n, sizeof *k, by_name);
    struct tb_daemon__buf t = {0};
    char line[600];
    int plies = tb_match_game(tb_daemon__match(d))->plies;
    const char *now = tb_daemon__result(d);
    bool over = now[0] && strcmp(now, "*"); /* decided: new-game starts the next */
    snprintf(line, sizeof line, "%s  %s, %d plies, result %s, journal current.tbj\n", d->game->name,
             over ? "finished" : "running", plies, now);
    tb_daemon__buf_put(&t, line, strlen(line));
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(k[i].name, d->game->name) && !k[i].journal)
            continue; /* the running game's PGN: said on its own line above */
        char result[16];
        pgn_result(d, k[i].name, result, sizeof result);
        snprintf(line, sizeof line, "%s  result %s,%s%s\n", k[i].name, k[i].pgn ? result : "?",
                 k[i].journal ? " journal" : "", k[i].pgn ? " pgn" : "");
        tb_daemon__buf_put(&t, line, strlen(line));
    }
    char head[sizeof d->cfg->journal_dir + 32];
    snprintf(head, sizeof head, "%zu games in %s", n, d->cfg->journal_dir);
    tb_daemon__data(out, head, t.p);
    free(t.p);
    free(k);
}

/* doorgeefschaak: the match's BPGN written as the PGN is (daemon_bug.c) */
int tb_daemon__game_write(struct tb_daemon *d, const char *file, const char *text)
{
    return write_whole(d, file, text);
}

const char *tb_daemon__game_name(const struct tb_daemon *d)
{
    return d->game ? d->game->name : "";
}

/* Before the journal opens: it names the game (tb_daemon__game_begin, _recover). */
static int games_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!(d->game = calloc(1, sizeof *d->game)))
        return tb_error_set(err, TB_ERR_MEM, "games: out of memory");
    return TB_OK;
}

/* Games kept: the PGN as the game stands when the daemon stops (before the journal closes),
 * doorgeefschaak's BPGN as well (while the match has its name). */
static void games_close(struct tb_daemon *d)
{
    if (!d->game)
        return;
    if (tb_daemon__match(d))
        tb_daemon__game_keep(d);
    tb_daemon__bug_keep(d);
    free(d->game);
    d->game = NULL;
}

const struct tb_daemon__part tb_daemon__part_games = {
    .name = "games kept",
    .open = games_open,
    .close = games_close,
};
