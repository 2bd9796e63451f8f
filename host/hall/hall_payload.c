/* hall_payload.c - the state, event and command payloads: JSON encoders and strict decoders
 * (docs/hall.md lists every field). */
#include <stdio.h>
#include <string.h>

#include "hall_internal.h"
#include "tb_hall.h"

#define JSON_INT_MAX 9007199254740991LL /* the largest integer every JSON reader keeps exact */

static const char *const event_names[] = {NULL,       "move",   "mismatch",
                                          "resolved", "touch",  "arbiter-call",
                                          "command",  "result", "irregular"};
/* "" (none) or 1..16 lowercase hex digits. */
static bool epoch_ok(const char *e)
{
    size_t n = strlen(e);
    for (size_t i = 0; i < n; i++)
        if (!((e[i] >= '0' && e[i] <= '9') || (e[i] >= 'a' && e[i] <= 'f')))
            return false;
    return n < TB_HALL_EPOCH_MAX;
}

/* The optional "epoch" of a state or event: absent leaves "". */
static int read_epoch(struct tb_hall__rd *rd, const cJSON *root, char *epoch)
{
    if (!cJSON_GetObjectItemCaseSensitive(root, "epoch"))
        return TB_OK;
    if (tb_hall__str(rd, root, "epoch", epoch, TB_HALL_EPOCH_MAX))
        return TB_ERR_PARSE;
    if (!epoch[0] || !epoch_ok(epoch))
        return tb_error_set(rd->err, TB_ERR_PARSE, "%s%sepoch: not 1 to 16 hex digits", rd->path,
                            *rd->path ? "." : "");
    return TB_OK;
}

static const char *const cmd_names[] = {NULL, "resolve", "takeback", "new-game"};
const char *const tb_hall_tag_names[TB_HALL_TAGS] = {"event", "site",  "date",
                                                     "round", "white", "black"};

const char *tb_hall_event_name(enum tb_hall_event_kind k)
{
    return k >= TB_HALL_EV_MOVE && k <= TB_HALL_EV_IRREGULAR ? event_names[k] : "?";
}

const char *tb_hall_cmd_name(enum tb_hall_cmd_action a)
{
    return a >= TB_HALL_CMD_RESOLVE && a <= TB_HALL_CMD_NEW_GAME ? cmd_names[a] : "?";
}

bool tb_hall_name_ok(const char *name)
{
    size_t n = 0;
    for (; name && name[n]; n++) {
        char c = name[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return n >= 1 && n < TB_HALL_NAME_MAX;
}

/* ---- encoding ---------------------------------------------------------------------------- */

static bool put_mismatch(cJSON *arr, const struct tb_hall_mismatch *m)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o))
        return cJSON_Delete(o), false;
    return tb_hall__put_num(o, "id", m->id) && tb_hall__put_str(o, "kind", m->kind) &&
           tb_hall__put_num(o, "board", m->board) && tb_hall__put_num(o, "ply", m->ply) &&
           tb_hall__put_squares(o, "squares", m->squares) &&
           tb_hall__put_bool(o, "needs_arbiter", m->needs_arbiter) &&
           tb_hall__put_bool(o, "open", m->open) && tb_hall__put_str(o, "text", m->text) &&
           tb_hall__put_str(o, "resolution", m->resolution) &&
           tb_hall__put_str(o, "outcome", m->outcome);
}

static bool put_board(cJSON *arr, const struct tb_hall_board *b)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o))
        return cJSON_Delete(o), false;
    bool ok = tb_hall__put_str(o, "name", b->name) && tb_hall__put_bool(o, "vi", b->vi) &&
              tb_hall__put_bool(o, "white", b->white) &&
              tb_hall__put_bool(o, "link_up", b->link_up) && tb_hall__put_str(o, "fen", b->fen) &&
              tb_hall__put_squares(o, "occupancy", b->occupancy) &&
              tb_hall__put_num(o, "clock_ms", (double)b->clock_ms) &&
              tb_hall__put_num(o, "sheet_from", b->sheet_from);
    cJSON *sheet = ok ? cJSON_AddArrayToObject(o, "sheet") : NULL;
    for (int i = 0; sheet && i < b->nsheet; i++) {
        cJSON *s = cJSON_CreateString(b->sheet[i]);
        if (!s || !cJSON_AddItemToArray(sheet, s))
            return cJSON_Delete(s), false;
    }
    return sheet != NULL;
}

/* A string array of n items; false when out of memory. */
static bool put_strs(cJSON *o, const char *name, const char *items, size_t stride, int n)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    for (int i = 0; arr && i < n; i++) {
        cJSON *s = cJSON_CreateString(items + (size_t)i * stride);
        if (!s || !cJSON_AddItemToArray(arr, s))
            return cJSON_Delete(s), false;
    }
    return arr != NULL;
}

static bool put_game(cJSON *arr, const struct tb_hall_game *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o))
        return cJSON_Delete(o), false;
    return tb_hall__put_str(o, "name", g->name) && tb_hall__put_str(o, "fen", g->fen) &&
           tb_hall__put_str(o, "hand_white", g->hand[0]) &&
           tb_hall__put_str(o, "hand_black", g->hand[1]) &&
           tb_hall__put_num(o, "clock_white_ms", (double)g->clock_ms[0]) &&
           tb_hall__put_num(o, "clock_black_ms", (double)g->clock_ms[1]) &&
           tb_hall__put_str(o, "running", g->running) && tb_hall__put_str(o, "result", g->result) &&
           tb_hall__put_str(o, "ending", g->ending) &&
           tb_hall__put_str(o, "irregular", g->irregular) &&
           tb_hall__put_num(o, "plies", g->plies) &&
           tb_hall__put_num(o, "sheet_from", g->sheet_from) &&
           put_strs(o, "sheet", g->sheet[0], sizeof g->sheet[0], g->nsheet) &&
           put_strs(o, "log", g->log[0], sizeof g->log[0], g->nlog);
}

/* The results a PGN's Result tag takes, "*" while playing. */
static bool result_ok(const char *r)
{
    return !strcmp(r, "*") || !strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2");
}

static int check_state(const struct tb_hall_state *s, struct tb_error *err)
{
    if (!tb_hall_name_ok(s->tournament) || !tb_hall_name_ok(s->table))
        return tb_error_set(err, TB_ERR_ARG, "tournament/table: not a name");
    if (!result_ok(s->result))
        return tb_error_set(err, TB_ERR_ARG, "result: not *, 1-0, 0-1 or 1/2-1/2");
    if (s->ntouch < 0 || s->ntouch > TB_HALL_MAX_TOUCH || s->nhistory < 0 ||
        s->nhistory > TB_HALL_MAX_HISTORY)
        return tb_error_set(err, TB_ERR_ARG, "touch/history: count out of range");
    for (int b = 0; b < 2; b++)
        if (s->board[b].nsheet < 0 || s->board[b].nsheet > TB_HALL_MAX_PLIES)
            return tb_error_set(err, TB_ERR_ARG, "board[%d].sheet: count out of range", b);
    if (s->ngames != (s->bughouse ? 2 : 0))
        return tb_error_set(err, TB_ERR_ARG, "games: %d games in mode %s", s->ngames,
                            s->bughouse ? "bughouse" : "twin");
    for (int b = 0; b < s->ngames; b++) {
        const struct tb_hall_game *g = &s->game[b];
        if (g->nsheet < 0 || g->nsheet > TB_HALL_BUG_PLIES || g->nlog < 0 ||
            g->nlog > TB_HALL_BUG_LOG)
            return tb_error_set(err, TB_ERR_ARG, "games[%d]: sheet/log count out of range", b);
        if (!result_ok(g->result))
            return tb_error_set(err, TB_ERR_ARG, "games[%d].result: not a result", b);
    }
    if ((long long)s->seq > JSON_INT_MAX || (long long)s->ms > JSON_INT_MAX)
        return tb_error_set(err, TB_ERR_ARG, "seq/ms: too large");
    if (!epoch_ok(s->epoch))
        return tb_error_set(err, TB_ERR_ARG, "epoch: not 1 to 16 hex digits");
    return TB_OK;
}

int tb_hall_state_encode(const struct tb_hall_state *s, char *buf, size_t cap, struct tb_error *err)
{
    int rc = check_state(s, err);
    if (rc)
        return rc;
    cJSON *o = cJSON_CreateObject();
    bool ok =
        o && tb_hall__put_str(o, "tournament", s->tournament) &&
        tb_hall__put_str(o, "table", s->table) && tb_hall__put_num(o, "seq", (double)s->seq) &&
        tb_hall__put_num(o, "ms", (double)s->ms) && tb_hall__put_str(o, "state", s->state) &&
        tb_hall__put_num(o, "plies", s->plies) && tb_hall__put_str(o, "fen", s->fen) &&
        tb_hall__put_bool(o, "clock_running", s->clock_running) &&
        tb_hall__put_bool(o, "arbiter_call", s->arbiter_call) &&
        tb_hall__put_num(o, "dropped", (double)s->dropped) &&
        tb_hall__put_str(o, "result", s->result) && tb_hall__put_str(o, "ending", s->ending) &&
        tb_hall__put_str(o, "journal", s->journal) &&
        tb_hall__put_str(o, "mode", s->bughouse ? "bughouse" : "twin") &&
        (!s->epoch[0] || tb_hall__put_str(o, "epoch", s->epoch)) &&
        (!s->pgn[0] || tb_hall__put_str(o, "pgn", s->pgn));
    cJSON *boards = ok ? cJSON_AddArrayToObject(o, "boards") : NULL;
    ok = boards && put_board(boards, &s->board[0]) && put_board(boards, &s->board[1]);
    cJSON *touch = ok ? cJSON_AddArrayToObject(o, "touch") : NULL;
    ok = touch != NULL;
    for (int i = 0; ok && i < s->ntouch; i++) {
        cJSON *t = cJSON_CreateString(s->touch[i]);
        ok = t && cJSON_AddItemToArray(touch, t);
        if (!ok)
            cJSON_Delete(t);
    }
    cJSON *hist = ok ? cJSON_AddArrayToObject(o, "mismatches") : NULL;
    ok = hist != NULL;
    for (int i = 0; ok && i < s->nhistory; i++)
        ok = put_mismatch(hist, &s->history[i]);
    cJSON *games = ok ? cJSON_AddArrayToObject(o, "games") : NULL;
    ok = games != NULL;
    for (int i = 0; ok && i < s->ngames; i++)
        ok = put_game(games, &s->game[i]);
    rc = tb_hall__print(o, ok, buf, cap);
    if (rc == TB_ERR_FULL)
        tb_error_set(err, rc, "state: more than %zu bytes", cap);
    return rc;
}

int tb_hall_event_encode(const struct tb_hall_event *e, char *buf, size_t cap, struct tb_error *err)
{
    if (e->kind < TB_HALL_EV_MOVE || e->kind > TB_HALL_EV_IRREGULAR)
        return tb_error_set(err, TB_ERR_ARG, "event.kind: %d is no event", (int)e->kind);
    if ((long long)e->seq > JSON_INT_MAX || (long long)e->ms > JSON_INT_MAX)
        return tb_error_set(err, TB_ERR_ARG, "event.seq/ms: too large");
    if (e->board[0] && (strcmp(e->board, "A") && strcmp(e->board, "B")))
        return tb_error_set(err, TB_ERR_ARG, "event.board: not A, B or empty");
    if (!epoch_ok(e->epoch))
        return tb_error_set(err, TB_ERR_ARG, "event.epoch: not 1 to 16 hex digits");
    cJSON *o = cJSON_CreateObject();
    bool ok = o && tb_hall__put_str(o, "kind", tb_hall_event_name(e->kind)) &&
              tb_hall__put_num(o, "seq", (double)e->seq) &&
              tb_hall__put_num(o, "ms", (double)e->ms) && tb_hall__put_num(o, "ply", e->ply) &&
              tb_hall__put_num(o, "mismatch", e->mismatch) && tb_hall__put_bool(o, "ok", e->ok) &&
              tb_hall__put_str(o, "request", e->request) && tb_hall__put_str(o, "san", e->san) &&
              tb_hall__put_str(o, "uci", e->uci) && tb_hall__put_str(o, "text", e->text) &&
              tb_hall__put_str(o, "detail", e->detail) && tb_hall__put_str(o, "board", e->board) &&
              (!e->epoch[0] || tb_hall__put_str(o, "epoch", e->epoch));
    int rc = tb_hall__print(o, ok, buf, cap);
    if (rc == TB_ERR_FULL)
        tb_error_set(err, rc, "event: more than %zu bytes", cap);
    return rc;
}

/* A tag as new-game takes it: 1 to 48 bytes, no quote or backslash (PGN-safe), no control. */
static bool tag_ok(const char *v)
{
    size_t n = strlen(v);
    for (size_t i = 0; i < n; i++)
        if (v[i] == '"' || v[i] == '\\' || (unsigned char)v[i] < 0x20 || v[i] == 0x7F)
            return false;
    return n >= 1 && n < TB_HALL_TAG_MAX;
}

static bool pin_text_ok(const char *pin)
{
    size_t n = strlen(pin);
    for (size_t i = 0; i < n; i++)
        if (pin[i] < '0' || pin[i] > '9')
            return false;
    return n >= 1 && n < TB_HALL_PIN_MAX;
}

int tb_hall_cmd_encode(const struct tb_hall_cmd *c, char *buf, size_t cap, struct tb_error *err)
{
    if (c->action < TB_HALL_CMD_RESOLVE || c->action > TB_HALL_CMD_NEW_GAME)
        return tb_error_set(err, TB_ERR_ARG, "cmd.action: %d is no command", (int)c->action);
    for (int t = 0; t < TB_HALL_TAGS; t++)
        if (c->tags[t][0] && (c->action != TB_HALL_CMD_NEW_GAME || !tag_ok(c->tags[t])))
            return tb_error_set(err, TB_ERR_ARG, "cmd.tags.%s: %s", tb_hall_tag_names[t],
                                c->action != TB_HALL_CMD_NEW_GAME
                                    ? "only for new-game"
                                    : "1 to 48 bytes without \" or \\");
    if (!tb_hall_name_ok(c->request))
        return tb_error_set(err, TB_ERR_ARG, "cmd.request: not a name");
    if (!pin_text_ok(c->pin))
        return tb_error_set(err, TB_ERR_ARG, "cmd.pin: not 1 to %d digits", TB_HALL_PIN_MAX - 1);
    if (c->from[0] && !tb_hall_name_ok(c->from))
        return tb_error_set(err, TB_ERR_ARG, "cmd.from: not a name");
    if (c->action == TB_HALL_CMD_TAKEBACK && (c->n < 1 || c->n > TB_MATCH_MAX_TAKEBACK))
        return tb_error_set(err, TB_ERR_ARG, "cmd.n: not 1 to %d", TB_MATCH_MAX_TAKEBACK);
    cJSON *o = cJSON_CreateObject();
    bool ok = o && tb_hall__put_str(o, "action", tb_hall_cmd_name(c->action)) &&
              tb_hall__put_str(o, "request", c->request) &&
              tb_hall__put_num(o, "mismatch", c->mismatch) && tb_hall__put_num(o, "n", c->n) &&
              tb_hall__put_str(o, "pin", c->pin) &&
              (!c->from[0] || tb_hall__put_str(o, "from", c->from));
    cJSON *tags =
        ok && c->action == TB_HALL_CMD_NEW_GAME ? cJSON_AddObjectToObject(o, "tags") : NULL;
    for (int t = 0; tags && t < TB_HALL_TAGS; t++)
        if (c->tags[t][0] && !tb_hall__put_str(tags, tb_hall_tag_names[t], c->tags[t]))
            tags = NULL;
    ok = ok && (c->action != TB_HALL_CMD_NEW_GAME || tags);
    int rc = tb_hall__print(o, ok, buf, cap);
    if (rc == TB_ERR_FULL)
        tb_error_set(err, rc, "cmd: more than %zu bytes", cap);
    return rc;
}

/* ---- decoding ---------------------------------------------------------------------------- */

static int read_mismatch(struct tb_hall__rd *rd, const cJSON *o, struct tb_hall_mismatch *m)
{
    static const char *const keys[] = {"id",         "kind",          "board", "ply",
                                       "squares",    "needs_arbiter", "open",  "text",
                                       "resolution", "outcome",       NULL};
    long long id, board, ply;
    if (!cJSON_IsObject(o))
        return tb_error_set(rd->err, TB_ERR_PARSE, "%s: not an object", rd->path);
    if (tb_hall__only(rd, o, keys) || tb_hall__int(rd, o, "id", 1, UINT32_MAX, &id) ||
        tb_hall__str(rd, o, "kind", m->kind, sizeof m->kind) ||
        tb_hall__int(rd, o, "board", 0, 1, &board) ||
        tb_hall__int(rd, o, "ply", 0, TB_CHESS_GAME_MAX_PLIES, &ply) ||
        tb_hall__squares(rd, o, "squares", &m->squares) ||
        tb_hall__bool(rd, o, "needs_arbiter", &m->needs_arbiter) ||
        tb_hall__bool(rd, o, "open", &m->open) ||
        tb_hall__str(rd, o, "text", m->text, sizeof m->text) ||
        tb_hall__str(rd, o, "resolution", m->resolution, sizeof m->resolution) ||
        tb_hall__str(rd, o, "outcome", m->outcome, sizeof m->outcome))
        return TB_ERR_PARSE;
    m->id = (uint32_t)id;
    m->board = (int)board;
    m->ply = (int)ply;
    return TB_OK;
}

/* The moves of a sheet in SAN. */
#define SAN_CHARS "abcdefghKQRBNOx12345678=+#-"

/* The strings of arr into items (stride bytes each), each non-empty and of chars only (NULL:
 * any text); errors name rd->path.name[i]. */
static int read_strs(struct tb_hall__rd *rd, const cJSON *arr, const char *name, const char *chars,
                     char *items, size_t stride)
{
    size_t base = strlen(rd->path);
    int i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        snprintf(rd->path + base, sizeof rd->path - base, ".%s[%d]", name, i);
        if (!cJSON_IsString(it) || strlen(it->valuestring) >= stride || !*it->valuestring ||
            (chars && strspn(it->valuestring, chars) != strlen(it->valuestring)))
            return tb_error_set(rd->err, TB_ERR_PARSE, "%s: %s", rd->path,
                                chars ? "not a move in SAN" : "not a line of text");
        tb_hall__copy(items + (size_t)i * stride, stride, it->valuestring);
    }
    rd->path[base] = '\0';
    return TB_OK;
}

static int read_board(struct tb_hall__rd *rd, const cJSON *o, struct tb_hall_board *b)
{
    static const char *const keys[] = {"name",      "vi",       "white",      "link_up", "fen",
                                       "occupancy", "clock_ms", "sheet_from", "sheet",   NULL};
    long long clock, from;
    int n = 0;
    if (!cJSON_IsObject(o))
        return tb_error_set(rd->err, TB_ERR_PARSE, "%s: not an object", rd->path);
    if (tb_hall__only(rd, o, keys) || tb_hall__str(rd, o, "name", b->name, sizeof b->name) ||
        tb_hall__bool(rd, o, "vi", &b->vi) || tb_hall__bool(rd, o, "white", &b->white) ||
        tb_hall__bool(rd, o, "link_up", &b->link_up) ||
        tb_hall__str(rd, o, "fen", b->fen, sizeof b->fen) ||
        tb_hall__squares(rd, o, "occupancy", &b->occupancy) ||
        tb_hall__int(rd, o, "clock_ms", -1, JSON_INT_MAX, &clock) ||
        tb_hall__int(rd, o, "sheet_from", 1, TB_CHESS_GAME_MAX_PLIES, &from))
        return TB_ERR_PARSE;
    const cJSON *sheet = tb_hall__arr(rd, o, "sheet", TB_HALL_MAX_PLIES, &n);
    if (!sheet)
        return TB_ERR_PARSE;
    b->clock_ms = clock;
    b->sheet_from = (int)from;
    b->nsheet = n;
    return read_strs(rd, sheet, "sheet", SAN_CHARS, b->sheet[0], sizeof b->sheet[0]);
}

/* A bughouse FEN's characters: the board with "~" for promoted pawns, the hands in brackets. */
#define BUG_FEN_CHARS "pnbrqkPNBRQK12345678/[]~ wabcdefgh-0123456789"
static const char *const irregular_names[] = {"none", "asked", "put-back", "blocked", NULL};

static bool one_of(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(s, names[i]))
            return true;
    return false;
}

static int read_game(struct tb_hall__rd *rd, const cJSON *o, int index, struct tb_hall_game *g)
{
    static const char *const keys[] = {
        "name",           "fen",        "hand_white", "hand_black", "clock_white_ms",
        "clock_black_ms", "running",    "result",     "ending",     "irregular",
        "plies",          "sheet_from", "sheet",      "log",        NULL};
    static const char *const running[] = {"", "white", "black", NULL};
    long long cw, cb, plies, from;
    int n = 0, nlog = 0;
    const cJSON *sheet, *log;
    if (!cJSON_IsObject(o))
        return tb_error_set(rd->err, TB_ERR_PARSE, "%s: not an object", rd->path);
    if (tb_hall__only(rd, o, keys) || tb_hall__str(rd, o, "name", g->name, sizeof g->name) ||
        tb_hall__str(rd, o, "fen", g->fen, sizeof g->fen) ||
        tb_hall__str(rd, o, "hand_white", g->hand[0], sizeof g->hand[0]) ||
        tb_hall__str(rd, o, "hand_black", g->hand[1], sizeof g->hand[1]) ||
        tb_hall__int(rd, o, "clock_white_ms", -1, JSON_INT_MAX, &cw) ||
        tb_hall__int(rd, o, "clock_black_ms", -1, JSON_INT_MAX, &cb) ||
        tb_hall__str(rd, o, "running", g->running, sizeof g->running) ||
        tb_hall__str(rd, o, "result", g->result, sizeof g->result) ||
        tb_hall__str(rd, o, "ending", g->ending, sizeof g->ending) ||
        tb_hall__str(rd, o, "irregular", g->irregular, sizeof g->irregular) ||
        tb_hall__int(rd, o, "plies", 0, TB_CHESS_GAME_MAX_PLIES, &plies) ||
        tb_hall__int(rd, o, "sheet_from", 1, TB_CHESS_GAME_MAX_PLIES + 1, &from) ||
        !(sheet = tb_hall__arr(rd, o, "sheet", TB_HALL_BUG_PLIES, &n)) ||
        !(log = tb_hall__arr(rd, o, "log", TB_HALL_BUG_LOG, &nlog)))
        return TB_ERR_PARSE;
    const char *bad = NULL;
    if (strcmp(g->name, index ? "B" : "A"))
        bad = index ? "name: not \"B\"" : "name: not \"A\"";
    else if (strspn(g->fen, BUG_FEN_CHARS) != strlen(g->fen))
        bad = "fen: not a bughouse FEN";
    else if (strspn(g->hand[0], "QRBNP") != strlen(g->hand[0]))
        bad = "hand_white: not piece letters QRBNP";
    else if (strspn(g->hand[1], "QRBNP") != strlen(g->hand[1]))
        bad = "hand_black: not piece letters QRBNP";
    else if (!one_of(g->running, running))
        bad = "running: not \"white\", \"black\" or \"\"";
    else if (!result_ok(g->result))
        bad = "result: not *, 1-0, 0-1 or 1/2-1/2";
    else if (!one_of(g->irregular, irregular_names))
        bad = "irregular: not none, asked, put-back or blocked";
    else if (n > plies || from != plies - n + 1)
        bad = "sheet_from: does not fit plies and the sheet";
    if (bad)
        return tb_error_set(rd->err, TB_ERR_PARSE, "%s.%s", rd->path, bad);
    g->clock_ms[0] = cw;
    g->clock_ms[1] = cb;
    g->plies = (int)plies;
    g->sheet_from = (int)from;
    g->nsheet = n;
    g->nlog = nlog;
    if (read_strs(rd, sheet, "sheet", SAN_CHARS "@P", g->sheet[0], sizeof g->sheet[0]))
        return TB_ERR_PARSE;
    return read_strs(rd, log, "log", NULL, g->log[0], sizeof g->log[0]);
}

int tb_hall_state_decode(const char *json, size_t len, struct tb_hall_state *s,
                         struct tb_error *err)
{
    static const char *const keys[] = {
        "tournament",    "table",        "seq",     "ms",     "state",  "plies",   "fen",
        "clock_running", "arbiter_call", "dropped", "result", "ending", "journal", "boards",
        "touch",         "mismatches",   "mode",    "games",  "epoch",  "pgn",     NULL};
    cJSON *root = tb_hall__parse(json, len, err);
    if (!root)
        return TB_ERR_PARSE;
    memset(s, 0, sizeof *s);
    struct tb_hall__rd rd = {err, ""};
    long long seq, ms, plies, dropped;
    int nb = 0, rc = TB_ERR_PARSE;
    const cJSON *boards, *touch, *hist, *games;
    char mode[12];
    if (tb_hall__only(&rd, root, keys) ||
        tb_hall__str(&rd, root, "tournament", s->tournament, sizeof s->tournament) ||
        tb_hall__str(&rd, root, "table", s->table, sizeof s->table) ||
        tb_hall__int(&rd, root, "seq", 1, JSON_INT_MAX, &seq) ||
        tb_hall__int(&rd, root, "ms", 0, JSON_INT_MAX, &ms) ||
        tb_hall__str(&rd, root, "state", s->state, sizeof s->state) ||
        tb_hall__int(&rd, root, "plies", 0, TB_CHESS_GAME_MAX_PLIES, &plies) ||
        tb_hall__str(&rd, root, "fen", s->fen, sizeof s->fen) ||
        tb_hall__bool(&rd, root, "clock_running", &s->clock_running) ||
        tb_hall__bool(&rd, root, "arbiter_call", &s->arbiter_call) ||
        tb_hall__int(&rd, root, "dropped", 0, JSON_INT_MAX, &dropped) ||
        tb_hall__str(&rd, root, "result", s->result, sizeof s->result) ||
        tb_hall__str(&rd, root, "ending", s->ending, sizeof s->ending) ||
        tb_hall__str(&rd, root, "journal", s->journal, sizeof s->journal) ||
        !(boards = tb_hall__arr(&rd, root, "boards", 2, &nb)) ||
        !(touch = tb_hall__arr(&rd, root, "touch", TB_HALL_MAX_TOUCH, &s->ntouch)) ||
        !(hist = tb_hall__arr(&rd, root, "mismatches", TB_HALL_MAX_HISTORY, &s->nhistory)) ||
        tb_hall__str(&rd, root, "mode", mode, sizeof mode) ||
        !(games = tb_hall__arr(&rd, root, "games", 2, &s->ngames)) ||
        read_epoch(&rd, root, s->epoch) ||
        (cJSON_GetObjectItemCaseSensitive(root, "pgn") &&
         tb_hall__lines(&rd, root, "pgn", s->pgn, sizeof s->pgn)))
        goto out;
    if (strcmp(mode, "twin") && strcmp(mode, "bughouse")) {
        tb_error_set(err, TB_ERR_PARSE, "mode: \"%s\" is not \"twin\" or \"bughouse\"", mode);
        goto out;
    }
    s->bughouse = !strcmp(mode, "bughouse");
    if (s->ngames != (s->bughouse ? 2 : 0)) {
        tb_error_set(err, TB_ERR_PARSE, "games: %d games in mode %s, not %d", s->ngames, mode,
                     s->bughouse ? 2 : 0);
        goto out;
    }
    if (!tb_hall_name_ok(s->tournament) || !tb_hall_name_ok(s->table)) {
        tb_error_set(err, TB_ERR_PARSE, "tournament/table: not a name ([A-Za-z0-9_-], 1-31)");
        goto out;
    }
    if (!result_ok(s->result)) {
        tb_error_set(err, TB_ERR_PARSE, "result: not *, 1-0, 0-1 or 1/2-1/2");
        goto out;
    }
    if (nb != 2) {
        tb_error_set(err, TB_ERR_PARSE, "boards: %d boards, not 2", nb);
        goto out;
    }
    s->seq = (uint64_t)seq;
    s->ms = (uint64_t)ms;
    s->plies = (int)plies;
    s->dropped = (unsigned long)dropped;
    int i = 0;
    for (const cJSON *it = boards->child; it; it = it->next, i++) {
        snprintf(rd.path, sizeof rd.path, "boards[%d]", i);
        if (read_board(&rd, it, &s->board[i]))
            goto out;
    }
    i = 0;
    for (const cJSON *it = touch->child; it; it = it->next, i++) {
        if (!cJSON_IsString(it) || strlen(it->valuestring) >= sizeof s->touch[i]) {
            tb_error_set(err, TB_ERR_PARSE, "touch[%d]: not a string of at most %zu bytes", i,
                         sizeof s->touch[i] - 1);
            goto out;
        }
        tb_hall__copy(s->touch[i], sizeof s->touch[i], it->valuestring);
    }
    i = 0;
    for (const cJSON *it = hist->child; it; it = it->next, i++) {
        snprintf(rd.path, sizeof rd.path, "mismatches[%d]", i);
        if (read_mismatch(&rd, it, &s->history[i]))
            goto out;
    }
    i = 0;
    for (const cJSON *it = games->child; it; it = it->next, i++) {
        snprintf(rd.path, sizeof rd.path, "games[%d]", i);
        if (read_game(&rd, it, i, &s->game[i]))
            goto out;
    }
    rc = TB_OK;
out:
    cJSON_Delete(root);
    return rc;
}

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 1; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return 0;
}

int tb_hall_event_decode(const char *json, size_t len, struct tb_hall_event *e,
                         struct tb_error *err)
{
    static const char *const keys[] = {"kind",   "seq",     "ms",    "ply", "mismatch",
                                       "ok",     "request", "san",   "uci", "text",
                                       "detail", "board",   "epoch", NULL};
    static const char *const boards[] = {"", "A", "B", NULL};
    cJSON *root = tb_hall__parse(json, len, err);
    if (!root)
        return TB_ERR_PARSE;
    memset(e, 0, sizeof *e);
    struct tb_hall__rd rd = {err, "event"};
    char kind[16];
    long long seq, ms, ply, mm;
    int rc = TB_ERR_PARSE;
    if (tb_hall__only(&rd, root, keys) || tb_hall__str(&rd, root, "kind", kind, sizeof kind) ||
        tb_hall__int(&rd, root, "seq", 1, JSON_INT_MAX, &seq) ||
        tb_hall__int(&rd, root, "ms", 0, JSON_INT_MAX, &ms) ||
        tb_hall__int(&rd, root, "ply", 0, TB_CHESS_GAME_MAX_PLIES, &ply) ||
        tb_hall__int(&rd, root, "mismatch", 0, UINT32_MAX, &mm) ||
        tb_hall__bool(&rd, root, "ok", &e->ok) ||
        tb_hall__str(&rd, root, "request", e->request, sizeof e->request) ||
        tb_hall__str(&rd, root, "san", e->san, sizeof e->san) ||
        tb_hall__str(&rd, root, "uci", e->uci, sizeof e->uci) ||
        tb_hall__str(&rd, root, "text", e->text, sizeof e->text) ||
        tb_hall__str(&rd, root, "detail", e->detail, sizeof e->detail) ||
        tb_hall__str(&rd, root, "board", e->board, sizeof e->board) ||
        read_epoch(&rd, root, e->epoch))
        goto out;
    e->kind = (enum tb_hall_event_kind)lookup(event_names, 9, kind);
    if (!e->kind) {
        tb_error_set(err, TB_ERR_PARSE, "event.kind: \"%s\" is no event", kind);
        goto out;
    }
    if (!one_of(e->board, boards)) {
        tb_error_set(err, TB_ERR_PARSE, "event.board: \"%s\" is not \"A\", \"B\" or \"\"",
                     e->board);
        goto out;
    }
    e->seq = (uint64_t)seq;
    e->ms = (uint64_t)ms;
    e->ply = (int)ply;
    e->mismatch = (uint32_t)mm;
    rc = TB_OK;
out:
    cJSON_Delete(root);
    return rc;
}

/* new-game's tags: an object of the six names, each a tag new-game takes. */
static int read_tags(struct tb_hall__rd *rd, const cJSON *tags, struct tb_hall_cmd *c)
{
    static const char *const keys[] = {"event", "site", "date", "round", "white", "black", NULL};
    struct tb_hall__rd in = {rd->err, "cmd.tags"};
    if (!cJSON_IsObject(tags))
        return tb_error_set(rd->err, TB_ERR_PARSE, "cmd.tags: not an object");
    if (tb_hall__only(&in, tags, keys))
        return TB_ERR_PARSE;
    for (int t = 0; t < TB_HALL_TAGS; t++) {
        if (!cJSON_GetObjectItemCaseSensitive(tags, keys[t]))
            continue;
        if (tb_hall__str(&in, tags, keys[t], c->tags[t], sizeof c->tags[t]))
            return TB_ERR_PARSE;
        if (!tag_ok(c->tags[t]))
            return tb_error_set(rd->err, TB_ERR_PARSE,
                                "cmd.tags.%s: 1 to 48 bytes without \" or \\", keys[t]);
    }
    return TB_OK;
}

int tb_hall_cmd_decode(const char *json, size_t len, struct tb_hall_cmd *c, struct tb_error *err)
{
    static const char *const keys[] = {"action", "request", "mismatch", "n",
                                       "pin",    "from",    "tags",     NULL};
    cJSON *root = tb_hall__parse(json, len, err);
    if (!root)
        return TB_ERR_PARSE;
    memset(c, 0, sizeof *c);
    struct tb_hall__rd rd = {err, "cmd"};
    char action[16];
    long long mm, n;
    int rc = TB_ERR_PARSE;
    if (tb_hall__only(&rd, root, keys) ||
        tb_hall__str(&rd, root, "action", action, sizeof action) ||
        tb_hall__str(&rd, root, "request", c->request, sizeof c->request) ||
        tb_hall__int(&rd, root, "mismatch", 0, UINT32_MAX, &mm) ||
        tb_hall__int(&rd, root, "n", 0, TB_MATCH_MAX_TAKEBACK, &n) ||
        tb_hall__str(&rd, root, "pin", c->pin, sizeof c->pin) ||
        (cJSON_GetObjectItemCaseSensitive(root, "from") &&
         tb_hall__str(&rd, root, "from", c->from, sizeof c->from)))
        goto out;
    c->action = (enum tb_hall_cmd_action)lookup(cmd_names, 4, action);
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(root, "tags");
    if (tags && read_tags(&rd, tags, c))
        goto out;
    c->mismatch = (uint32_t)mm;
    c->n = (int)n;
    if (!c->action)
        tb_error_set(err, TB_ERR_PARSE, "cmd.action: \"%s\" is no command", action);
    else if (!tb_hall_name_ok(c->request))
        tb_error_set(err, TB_ERR_PARSE, "cmd.request: not a name ([A-Za-z0-9_-], 1-31)");
    else if (!pin_text_ok(c->pin))
        tb_error_set(err, TB_ERR_PARSE, "cmd.pin: not 1 to %d digits", TB_HALL_PIN_MAX - 1);
    else if (cJSON_GetObjectItemCaseSensitive(root, "from") && !tb_hall_name_ok(c->from))
        tb_error_set(err, TB_ERR_PARSE, "cmd.from: not a name ([A-Za-z0-9_-], 1-31)");
    else if (c->action == TB_HALL_CMD_RESOLVE && c->mismatch == 0)
        tb_error_set(err, TB_ERR_PARSE, "cmd.mismatch: resolve names no mismatch");
    else if (c->action == TB_HALL_CMD_TAKEBACK && c->n < 1)
        tb_error_set(err, TB_ERR_PARSE, "cmd.n: takeback of no move");
    else if ((c->action == TB_HALL_CMD_NEW_GAME) != (tags != NULL))
        tb_error_set(err, TB_ERR_PARSE, "cmd.tags: %s", tags ? "only for new-game" : "missing");
    else
        rc = TB_OK;
out:
    cJSON_Delete(root);
    return rc;
}
