/* hall_round.c - the round the hall runs (docs/broadcast.md, "The round"): each board bound to a
 * table, the round's tags sent to each table as new-game takes them, the round folder (one PGN
 * per board, games.pgn, the results list) kept up to date and handed to the lichess push, all
 * of it the broadcast delay behind the tables. The arbiter's page is never delayed.
 *
 * The broker's thread notes the tables' states (hall_round_state); a thread of the round's own
 * writes the folder when a board's public game changed, so neither the broker's thread nor the
 * web server waits for the disk. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "dashboard.h"
#include "tb_file.h"
#include "tb_round.h"

#define VERSIONS 256 /* games kept per board while the delay holds them back */
#define TICK_MS  100
#define GRACE_MS                                                                                   \
    2000 /* at the start, the tables' retained states come before anything is                      \
            published: a restarted hall never shows (or pushes) a game it had                      \
            shown with moves as the bare pairing */

struct version {
    uint64_t at; /* when the hall had it */
    char *pgn;   /* the board's public PGN then */
    char result[8];
};

struct board {
    const struct tb_round_pairing *p;
    char table[TB_HALL_NAME_MAX];
    struct version v[VERSIONS]; /* oldest first; v[0] public once the delay has passed */
    int nv;
    char *shown;           /* what the folder and the push have now */
    char *fresh[VERSIONS]; /* the public positions not handed to the push yet, oldest first */
    int nfresh;
    char result[8];
    bool dirty;
    /* the round's tags at the table */
    bool seen, sent;
    char epoch[TB_HALL_EPOCH_MAX], request[TB_HALL_NAME_MAX];
    char tags[TB_HALL_TEXT_MAX / 2];
    int plies;
};

struct hall_round {
    struct hall_round_config cfg;
    struct tb_round *r;
    struct board *b;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, started, changed;
    bool retry; /* the folder's last write failed: again at retry_at */
    uint64_t retry_at;
    unsigned long writes, write_failures, sent;
    char pin[TB_HALL_PIN_MAX + 2]; /* the configuration's, copied */
    uint64_t start_ms;
    char write_error[200];
    char trf_note[300]; /* results.trf: "written", or why not */
};

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static char *board_pgn(const struct tb_round_pairing *p, const char *table_pgn)
{
    int n = tb_round_board_pgn(p, table_pgn, NULL, 0);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        tb_round_board_pgn(p, table_pgn, s, (size_t)n + 1);
    return s;
}

/* Writes path atomically: a temporary file beside it, synced, renamed over it. */
static int write_file(const char *dir, const char *name, const char *text, char *why, size_t len)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    size_t n = strlen(text), done = 0;
    while (fd >= 0 && done < n) {
        ssize_t k = write(fd, text + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    bool ok = fd >= 0 && done == n && fsync(fd) == 0;
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlink(tmp);
        snprintf(why, len, "%.200s: %.80s", path, strerror(e));
        return -1;
    }
    return 0;
}

/* The board's file as a hall before this one left it, when it is this pairing's game: what the
 * public had, kept across a restart (the delay goes on from there). NULL otherwise. */
static char *shown_before(const char *folder, const struct tb_round_pairing *p)
{
    char path[HALL_PATH_MAX + 32], *text = NULL;
    size_t n = 0;
    struct tb_error err = {0};
    if (!folder)
        return NULL;
    snprintf(path, sizeof path, "%s/game-%d.pgn", folder, p->board);
    if (tb_read_file(path, &text, &n, &err) != TB_OK)
        return NULL;
    if (strlen(text) != n || !tb_round_pgn_is(p, text)) {
        free(text);
        return NULL;
    }
    return text;
}

static char *results(struct hall_round *h, bool csv)
{
    const char *res[TB_ROUND_MAX_BOARDS];
    for (int i = 0; i < h->r->n; i++)
        res[i] = h->b[i].result;
    int n =
        csv ? tb_round_results_csv(h->r, res, NULL, 0) : tb_round_results_text(h->r, res, NULL, 0);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && csv)
        tb_round_results_csv(h->r, res, s, (size_t)n + 1);
    else if (s)
        tb_round_results_text(h->r, res, s, (size_t)n + 1);
    return s;
}

/* results.trf (lock held): the text, or NULL with why in note (no start ranks: the CSV and the
 * text are written all the same). */
static char *results_trf(struct hall_round *h, char *note, size_t len)
{
    const char *res[TB_ROUND_MAX_BOARDS];
    for (int i = 0; i < h->r->n; i++)
        res[i] = h->b[i].result;
    struct tb_error err = {0};
    int n = tb_round_results_trf(h->r, res, NULL, 0, &err);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && tb_round_results_trf(h->r, res, s, (size_t)n + 1, &err) >= 0) {
        snprintf(note, len, "written");
        return s;
    }
    free(s);
    snprintf(note, len, "not written: %.250s", n < 0 ? err.msg : "out of memory");
    return NULL;
}

/* games.pgn: every board's game, board order, a blank line between. */
static char *all_games(struct hall_round *h)
{
    size_t n = 1;
    for (int i = 0; i < h->r->n; i++)
        n += strlen(h->b[i].shown) + 1;
    char *s = malloc(n), *at = s;
    for (int i = 0; s && i < h->r->n; i++)
        at += sprintf(at, "%s%s", i ? "\n" : "", h->b[i].shown);
    if (s)
        *at = '\0';
    return s;
}

/* The boards whose public game changed: their files, games.pgn and the results, and the games
 * offered to the push when offer (lock held; the disk is written with it released). A folder
 * that cannot be written is tried again a second later, the push not bothered again. */
static void publish(struct hall_round *h, bool offer)
{
    char why[300] = "";
    int fails = 0, n = h->r->n;
    char **texts = calloc((size_t)n, sizeof *texts);
    bool *dirty = calloc((size_t)n, sizeof *dirty);
    char *games = all_games(h), *csv = results(h, true), *txt = results(h, false);
    char *trf = results_trf(h, h->trf_note, sizeof h->trf_note);
    char *(*fresh)[VERSIONS] = offer ? calloc((size_t)n, sizeof *fresh) : NULL;
    int *nfresh = offer ? calloc((size_t)n, sizeof *nfresh) : NULL, steps = 0;
    for (int i = 0; texts && dirty && i < n; i++) {
        dirty[i] = h->b[i].dirty;
        h->b[i].dirty = false;
        texts[i] = strdup(h->b[i].shown);
    }
    for (int i = 0; fresh && nfresh && i < n; i++) { /* the push's part taken over */
        struct board *b = &h->b[i];
        memcpy(fresh[i], b->fresh, sizeof b->fresh[0] * (size_t)b->nfresh);
        nfresh[i] = b->nfresh;
        steps = b->nfresh > steps ? b->nfresh : steps;
        b->nfresh = 0;
    }
    pthread_mutex_unlock(&h->mu);
    bool mem = texts && dirty && games && csv && txt && (!offer || (fresh && nfresh));
    for (int i = 0; mem && i < n; i++)
        mem = texts[i] != NULL;
    /* lichess first, every position in turn: the folder's fsyncs do not hold it back */
    const char **step = steps ? calloc((size_t)n, sizeof *step) : NULL;
    mem = mem && (!steps || step);
    for (int s = 0; mem && s < steps; s++) {
        for (int i = 0; i < n; i++) /* each game's s-th new position, NULL where it has none */
            step[i] = s < nfresh[i] ? fresh[i][s] : NULL;
        hall_push_offer(h->cfg.push, step, n);
    }
    free(step);
    for (int i = 0; fresh && nfresh && i < n; i++)
        for (int s = 0; s < nfresh[i]; s++)
            free(fresh[i][s]);
    free(fresh);
    free(nfresh);
    if (!mem) {
        snprintf(why, sizeof why, "out of memory");
        fails++;
    } else if (h->cfg.folder) {
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "game-%d.pgn", h->r->p[i].board);
            fails += dirty[i] && write_file(h->cfg.folder, name, texts[i], why, sizeof why);
        }
        fails += write_file(h->cfg.folder, "games.pgn", games, why, sizeof why) != 0;
        fails += write_file(h->cfg.folder, "results.csv", csv, why, sizeof why) != 0;
        fails += write_file(h->cfg.folder, "results.txt", txt, why, sizeof why) != 0;
        if (trf)
            fails += write_file(h->cfg.folder, "results.trf", trf, why, sizeof why) != 0;
    }
    for (int i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
    free(dirty);
    free(games);
    free(csv);
    free(txt);
    free(trf);
    pthread_mutex_lock(&h->mu);
    h->writes++;
    h->retry = fails > 0;
    if (fails) {
        h->write_failures++;
        snprintf(h->write_error, sizeof h->write_error, "%s", why);
        h->retry_at = mono_ms() + 1000;
        for (int i = 0; i < n; i++) /* every file again: which one failed is not kept */
            h->b[i].dirty = true;
    } else {
        h->write_error[0] = '\0';
    }
}

/* A public position for the push (lock held), taken over. In the first seconds only the newest
 * counts (the tables' retained states, not moves); at the bound the oldest gives way. */
static void to_push(struct hall_round *h, struct board *b, char *pgn, uint64_t now)
{
    if (!h->cfg.push) {
        free(pgn);
        return;
    }
    while (now < h->start_ms + GRACE_MS && b->nfresh) /* the grace: the newest replaces them */
        free(b->fresh[--b->nfresh]);
    if (b->nfresh == VERSIONS) {
        free(b->fresh[0]);
        memmove(&b->fresh[0], &b->fresh[1], sizeof b->fresh[0] * (VERSIONS - 1));
        b->nfresh--;
    }
    b->fresh[b->nfresh++] = pgn;
}

/* The delay: a board's game becomes public when it is delay_ms old (lock held); every version
 * that does goes to the push in turn, the newest to the folder. */
static void age(struct hall_round *h, uint64_t now)
{
    for (int i = 0; i < h->r->n; i++) {
        struct board *b = &h->b[i];
        int k = -1; /* the newest game old enough */
        for (int j = 0; j < b->nv; j++)
            if (b->v[j].at + h->cfg.delay_ms <= now)
                k = j;
        if (k < 0)
            continue;
        free(b->shown);
        b->shown = b->v[k].pgn;
        snprintf(b->result, sizeof b->result, "%s", b->v[k].result);
        for (int j = 0; j < k; j++)
            to_push(h, b, b->v[j].pgn, now);
        char *copy = h->cfg.push ? strdup(b->shown) : NULL;
        if (copy)
            to_push(h, b, copy, now);
        memmove(&b->v[0], &b->v[k + 1], sizeof b->v[0] * (size_t)(b->nv - k - 1));
        b->nv -= k + 1;
        b->dirty = h->changed = true;
    }
}

static void *run(void *arg)
{
    struct hall_round *h = arg;
    pthread_mutex_lock(&h->mu);
    while (!h->stop) {
        uint64_t now = mono_ms();
        age(h, now);
        if (h->changed && now >= h->start_ms + GRACE_MS) {
            h->changed = false;
            publish(h, true);
            continue;
        }
        if (h->retry && now >= h->retry_at) {
            publish(h, false);
            continue;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += TICK_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&h->cv, &h->mu, &ts);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static struct board *board_of(struct hall_round *h, const char *tournament, const char *table)
{
    if (h->cfg.tournament && strcmp(h->cfg.tournament, "+") &&
        strcmp(h->cfg.tournament, tournament))
        return NULL;
    for (int i = 0; i < h->r->n; i++)
        if (!strcmp(h->b[i].table, table))
            return &h->b[i];
    return NULL;
}

/* The round's tags to the table, once for each of its sessions: only when its game has not
 * begun or is over, never over a game being played. */
static void send_tags(struct hall_round *h, struct board *b, const struct tb_hall_state *st)
{
    if (st->bughouse || tb_round_pgn_is(b->p, st->pgn))
        return;
    if (b->sent && !strcmp(b->epoch, st->epoch))
        return;
    if (st->plies > 0 && !strcmp(st->result, "*")) {
        snprintf(b->tags, sizeof b->tags,
                 "the table plays another game (%d plies): the round's tags wait for its end",
                 st->plies);
        return;
    }
    if (!h->cfg.pin || !h->cfg.pin[0]) {
        snprintf(b->tags, sizeof b->tags, "not sent: no [round] pin_file (the tables' PIN)");
        return;
    }
    struct tb_hall_cmd c;
    memset(&c, 0, sizeof c);
    c.action = TB_HALL_CMD_NEW_GAME;
    snprintf(c.request, sizeof c.request, "round-%d-%lu", b->p->board, ++h->sent);
    snprintf(c.pin, sizeof c.pin, "%s", h->cfg.pin);
    snprintf(c.from, sizeof c.from, "round");
    static const enum tb_round_field tag_of[TB_HALL_TAGS] = {TB_ROUND_EVENT, TB_ROUND_SITE,
                                                             TB_ROUND_DATE,  TB_ROUND_ROUND,
                                                             TB_ROUND_WHITE, TB_ROUND_BLACK};
    for (int t = 0; t < TB_HALL_TAGS; t++)
        snprintf(c.tags[t], sizeof c.tags[t], "%s", b->p->v[tag_of[t]]);
    char json[1024], topic[128];
    struct tb_error err = {0};
    int n = tb_hall_cmd_encode(&c, json, sizeof json, &err);
    if (n < 0 || tb_hall_topic(st->tournament, st->table, "cmd", topic, sizeof topic) < 0) {
        snprintf(b->tags, sizeof b->tags, "not sent: %.200s", err.msg);
        return;
    }
    if (h->cfg.send(h->cfg.send_user, topic, json, n) != 0) {
        snprintf(b->tags, sizeof b->tags, "not sent: the broker is away (sent when it is back)");
        return;
    }
    b->sent = true;
    snprintf(b->epoch, sizeof b->epoch, "%s", st->epoch);
    snprintf(b->request, sizeof b->request, "%s", c.request);
    snprintf(b->tags, sizeof b->tags, "sent (new-game, request %s)", c.request);
}

void hall_round_state(struct hall_round *h, const struct tb_hall_state *st)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    struct board *b = board_of(h, st->tournament, st->table);
    if (b) {
        b->seen = true;
        b->plies = st->plies;
        send_tags(h, b, st);
        if (tb_round_pgn_is(b->p, st->pgn))
            snprintf(b->tags, sizeof b->tags, "the table plays this pairing");
        char *pgn = board_pgn(b->p, st->pgn);
        const char *last = b->nv ? b->v[b->nv - 1].pgn : b->shown;
        if (pgn && strcmp(pgn, last)) {
            if (b->nv == VERSIONS) /* the delay holds too many: the newest is replaced */
                free(b->v[--b->nv].pgn);
            struct version *v = &b->v[b->nv++];
            v->at = mono_ms();
            v->pgn = pgn;
            pgn = NULL;
            snprintf(v->result, sizeof v->result, "%s",
                     tb_round_pgn_is(b->p, st->pgn) ? st->result : "*");
            pthread_cond_signal(&h->cv);
        }
        free(pgn);
    }
    pthread_mutex_unlock(&h->mu);
}

void hall_round_event(struct hall_round *h, const char *tournament, const char *table,
                      const struct tb_hall_event *ev)
{
    if (!h || ev->kind != TB_HALL_EV_COMMAND)
        return;
    pthread_mutex_lock(&h->mu);
    struct board *b = board_of(h, tournament, table);
    if (b && b->request[0] && !strcmp(ev->request, b->request))
        snprintf(b->tags, sizeof b->tags, "%s: %.200s", ev->ok ? "taken" : "refused", ev->text);
    pthread_mutex_unlock(&h->mu);
}

static char *report_json(struct hall_round *h)
{
    struct hall_push_status *pst = malloc(sizeof *pst); /* large: not on a web thread's stack */
    if (!pst)
        return NULL;
    hall_push_status(h->cfg.push, pst);
    cJSON *o = cJSON_CreateObject(), *boards = cJSON_AddArrayToObject(o, "boards");
    pthread_mutex_lock(&h->mu);
    cJSON_AddStringToObject(o, "round", h->r->round);
    cJSON_AddNumberToObject(o, "delay_s", (double)h->cfg.delay_ms / 1000.0);
    cJSON_AddStringToObject(o, "folder", h->cfg.folder ? h->cfg.folder : "");
    cJSON_AddStringToObject(o, "folder_error", h->write_error);
    cJSON_AddStringToObject(o, "results_trf", h->trf_note);
    for (int i = 0; boards && i < h->r->n; i++) {
        const struct board *b = &h->b[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "board", b->p->board);
        cJSON_AddStringToObject(x, "table", b->table);
        cJSON_AddStringToObject(x, "white", b->p->v[TB_ROUND_WHITE]);
        cJSON_AddStringToObject(x, "black", b->p->v[TB_ROUND_BLACK]);
        cJSON_AddStringToObject(x, "result", b->result);
        cJSON_AddBoolToObject(x, "seen", b->seen);
        cJSON_AddNumberToObject(x, "plies", b->plies);
        cJSON_AddStringToObject(x, "tags", b->tags);
        bool pushed = h->cfg.push && i < pst->ngames;
        cJSON_AddNumberToObject(x, "push_moves", pushed ? pst->game[i].moves : -1);
        cJSON_AddStringToObject(x, "push_error", pushed ? pst->game[i].error : "");
        cJSON_AddNumberToObject(x, "push_coalesced", pushed ? (double)pst->game[i].coalesced : 0);
        cJSON_AddItemToArray(boards, x);
    }
    pthread_mutex_unlock(&h->mu);
    cJSON *p = cJSON_AddObjectToObject(o, "push");
    cJSON_AddBoolToObject(p, "on", h->cfg.push != NULL);
    cJSON_AddNumberToObject(p, "pushes", (double)pst->pushes);
    cJSON_AddNumberToObject(p, "failures", (double)pst->failures);
    cJSON_AddBoolToObject(p, "failing", pst->failing);
    cJSON_AddBoolToObject(p, "waiting", pst->waiting);
    cJSON_AddNumberToObject(p, "backlog", pst->backlog);
    cJSON_AddNumberToObject(p, "coalesced", (double)pst->coalesced);
    cJSON_AddStringToObject(p, "last", pst->last);
    free(pst);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

char *hall_round_report(struct hall_round *h, const char *what)
{
    if (!h)
        return NULL;
    if (!strcmp(what, "json"))
        return report_json(h);
    pthread_mutex_lock(&h->mu);
    char *s = results(h, !strcmp(what, "csv"));
    pthread_mutex_unlock(&h->mu);
    return s;
}

struct hall_round *hall_round_start(const struct hall_round_config *cfg, char *why, size_t len)
{
    struct hall_round *h = calloc(1, sizeof *h);
    char *text = NULL;
    size_t n = 0;
    struct tb_error err = {0};
    if (!h || !(h->r = malloc(sizeof *h->r))) {
        snprintf(why, len, "out of memory");
        free(h);
        return NULL;
    }
    h->cfg = *cfg;
    snprintf(h->pin, sizeof h->pin, "%s", cfg->pin ? cfg->pin : "");
    h->cfg.pin = h->pin;
    h->cfg.tables = NULL; /* read here only */
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    if (tb_read_file(cfg->pairings, &text, &n, &err) != TB_OK ||
        tb_round_parse(cfg->pairings, text, n, h->r, &err) != TB_OK) {
        snprintf(why, len, "%s", err.msg);
        free(text);
        hall_round_stop(h);
        return NULL;
    }
    free(text);
    if (cfg->ntables && cfg->ntables != h->r->n) {
        snprintf(why, len, "[round] tables names %d tables, %s pairs %d boards", cfg->ntables,
                 cfg->pairings, h->r->n);
        hall_round_stop(h);
        return NULL;
    }
    if (cfg->folder && mkdir(cfg->folder, 0755) != 0 && errno != EEXIST) {
        snprintf(why, len, "[round] folder %s: %s", cfg->folder, strerror(errno));
        hall_round_stop(h);
        return NULL;
    }
    h->b = calloc((size_t)h->r->n, sizeof *h->b);
    bool mem = h->b != NULL;
    for (int i = 0; h->b && i < h->r->n; i++) {
        struct board *b = &h->b[i];
        b->p = &h->r->p[i];
        if (cfg->ntables)
            snprintf(b->table, sizeof b->table, "%s", cfg->tables[i]); /* board order */
        else
            snprintf(b->table, sizeof b->table, "t%d", b->p->board);
        b->shown = shown_before(cfg->folder, b->p);
        if (!b->shown)
            b->shown = board_pgn(b->p, NULL);
        if (b->shown && !tb_round_pgn_tag(b->shown, "Result", b->result, sizeof b->result))
            snprintf(b->result, sizeof b->result, "*");
        snprintf(b->tags, sizeof b->tags, "table %s not seen yet", b->table);
        b->dirty = true;
        mem = mem && b->shown;
        if (b->shown && cfg->push) /* lichess gets the round as it stands first */
            mem = mem && (b->fresh[b->nfresh++] = strdup(b->shown)) != NULL;
    }
    if (!mem) {
        snprintf(why, len, "out of memory");
        hall_round_stop(h);
        return NULL;
    }
    h->changed = true; /* the folder as it stands, once the tables' states had their time */
    h->start_ms = mono_ms();
    if (pthread_create(&h->th, NULL, run, h)) {
        snprintf(why, len, "cannot start the round's thread");
        hall_round_stop(h);
        return NULL;
    }
    h->started = true;
    return h;
}

void hall_round_stop(struct hall_round *h)
{
    if (!h)
        return;
    if (h->started) {
        pthread_mutex_lock(&h->mu);
        h->stop = true;
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->th, NULL);
    }
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    for (int i = 0; h->b && i < h->r->n; i++) {
        free(h->b[i].shown);
        for (int j = 0; j < h->b[i].nv; j++)
            free(h->b[i].v[j].pgn);
        for (int j = 0; j < h->b[i].nfresh; j++)
            free(h->b[i].fresh[j]);
    }
    free(h->b);
    free(h->r);
    free(h);
}
