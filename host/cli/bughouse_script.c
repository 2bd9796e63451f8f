/* bughouse_script.c - reading the event scripts of two doorgeefschaak boards (bughouse_script.h).
 * Board events are the script library's lines; the `move` and `ask` lines are checked here, their
 * time and board by the same parser (as a button press), so every line keeps the script's rules
 * (times never going back, valid names). */
#include <stdlib.h>
#include <string.h>

#include "bughouse_script.h"

void tb_bughouse_script_init(struct tb_bughouse_script *s)
{
    memset(s, 0, sizeof *s);
    strcpy(s->name[0], "A");
    strcpy(s->name[1], "B");
}

void tb_bughouse_script_free(struct tb_bughouse_script *s)
{
    free(s->items);
    s->items = NULL;
    s->n = s->cap = 0;
}

int tb_bughouse_script_board(const struct tb_bughouse_script *s, const char *name)
{
    for (int b = 0; b < 2; b++)
        if (strcmp(s->name[b], name) == 0)
            return b;
    return -1;
}

static int push(struct tb_bughouse_script *s, const struct tb_bughouse_item *it)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct tb_bughouse_item *items = realloc(s->items, cap * sizeof *items);
        if (!items)
            return TB_ERR_MEM;
        s->items = items;
        s->cap = cap;
    }
    s->items[s->n] = *it;
    s->items[s->n].seq = s->n;
    s->n++;
    return TB_OK;
}

/* The n-th blank-separated field of line (len bytes): its start, its length in *flen. */
static const char *field(const char *line, size_t len, int n, size_t *flen)
{
    size_t i = 0;
    for (int k = 0;; k++) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '#')
            i++;
        if (i == start)
            return NULL;
        if (k == n) {
            *flen = i - start;
            return line + start;
        }
    }
}

static bool field_is(const char *f, size_t flen, const char *word)
{
    return f && flen == strlen(word) && memcmp(f, word, flen) == 0;
}

const char *const tb_bughouse_tag_names[TB_BUGHOUSE_TAGS] = {"Event",  "Site",   "Date",  "WhiteA",
                                                             "BlackA", "WhiteB", "BlackB"};

/* Where directive k's value goes: 0 control, 1-2 the FENs, then the tags. */
static char *directive_slot(struct tb_bughouse_script *s, int k, const char **key, size_t *cap)
{
    static const char *const keys[3 + TB_BUGHOUSE_TAGS] = {
        "# control:",  "# fen A:",      "# fen B:",      "# tag Event:",  "# tag Site:",
        "# tag Date:", "# tag WhiteA:", "# tag BlackA:", "# tag WhiteB:", "# tag BlackB:"};
    *key = keys[k];
    if (k == 0) {
        *cap = sizeof s->control;
        return s->control;
    }
    if (k <= 2) {
        *cap = sizeof s->fen[0];
        return s->fen[k - 1];
    }
    *cap = sizeof s->tag[0];
    return s->tag[k - 3];
}

/* `# control: ...`, `# fen A: ...`, `# tag WhiteA: ...`: 1 taken, 0 not a directive, < 0 an
 * error. */
static int directive(struct tb_bughouse_script *s, const char *line, size_t len, bool events,
                     struct tb_error *err)
{
    for (int k = 0; k < 3 + TB_BUGHOUSE_TAGS; k++) {
        const char *key;
        size_t cap, klen;
        char *dest = directive_slot(s, k, &key, &cap);
        klen = strlen(key);
        if (len < klen || memcmp(line, key, klen) != 0)
            continue;
        const char *v = line + klen;
        size_t vlen = len - klen;
        while (vlen && (*v == ' ' || *v == '\t'))
            v++, vlen--;
        while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t' || v[vlen - 1] == '\r'))
            vlen--;
        if (events)
            return tb_error_set(err, TB_ERR_PARSE, "'%s' after the first event", key);
        if (vlen == 0 || vlen >= cap)
            return tb_error_set(err, TB_ERR_PARSE, "'%s' needs a value (up to %zu characters)", key,
                                cap - 1);
        if (dest[0] && (strlen(dest) != vlen || memcmp(dest, v, vlen) != 0))
            return tb_error_set(err, TB_ERR_PARSE, "'%s' given twice with different values", key);
        memcpy(dest, v, vlen);
        dest[vlen] = '\0';
        return 1;
    }
    return 0;
}

/* A `move` or `ask` line: its time and board checked as a press would be. */
static int own_line(struct tb_script_parser *p, const char *line, size_t len,
                    struct tb_bughouse_item *it, struct tb_error *err)
{
    size_t l0, l1, l2, l3, l4;
    const char *t = field(line, len, 0, &l0), *b = field(line, len, 1, &l1);
    const char *kw = field(line, len, 2, &l2), *arg = field(line, len, 3, &l3);
    bool move = field_is(kw, l2, "move");
    if (!arg)
        return tb_error_set(err, TB_ERR_PARSE, "'%s' needs %s", move ? "move" : "ask",
                            move ? "a move (SAN or UCI)" : "white or black");
    if (field(line, len, 4, &l4))
        return tb_error_set(err, TB_ERR_PARSE, "text after the %s", move ? "move" : "colour");
    char probe[96];
    if (l0 + l1 + 16 > sizeof probe)
        return tb_error_set(err, TB_ERR_PARSE, "time or board name too long");
    memcpy(probe, t, l0);
    probe[l0] = ' ';
    memcpy(probe + l0 + 1, b, l1);
    strcpy(probe + l0 + 1 + l1, " press x");
    int rc = tb_script_parse_line(p, probe, strlen(probe), &it->ev, err);
    if (rc < 0)
        return rc;
    if (move) {
        if (l3 >= sizeof it->text)
            return tb_error_set(err, TB_ERR_PARSE, "move '%.*s' too long", (int)l3, arg);
        it->kind = TB_BUGHOUSE_ITEM_MOVE;
        memcpy(it->text, arg, l3);
        it->text[l3] = '\0';
    } else {
        it->kind = TB_BUGHOUSE_ITEM_ASK;
        it->color = field_is(arg, l3, "white") ? 0 : field_is(arg, l3, "black") ? 1 : -1;
        if (it->color < 0)
            return tb_error_set(err, TB_ERR_PARSE, "ask: '%.*s' is not white or black", (int)l3,
                                arg);
    }
    it->ev.kind = TB_SCRIPT_NONE;
    it->ev.button[0] = '\0';
    return TB_OK;
}

static int one_line(struct tb_bughouse_script *s, struct tb_script_parser *p, int file, long lineno,
                    const char *line, size_t len, bool *events, struct tb_error *err)
{
    struct tb_bughouse_item it;
    memset(&it, 0, sizeof it);
    it.file = file;
    it.line = lineno;
    int rc = directive(s, line, len, *events, err);
    if (rc)
        return rc < 0 ? rc : TB_OK;
    size_t l2;
    const char *kw = field(line, len, 2, &l2);
    if (field_is(kw, l2, "move") || field_is(kw, l2, "ask"))
        rc = own_line(p, line, len, &it, err);
    else
        rc = tb_script_parse_line(p, line, len, &it.ev, err);
    if (rc < 0)
        return rc;
    enum tb_script_kind k = it.ev.kind;
    if (it.kind == TB_BUGHOUSE_ITEM_EVENT && k != TB_SCRIPT_LIFT && k != TB_SCRIPT_PLACE &&
        k != TB_SCRIPT_CHOOSE && k != TB_SCRIPT_PRESS)
        return TB_OK; /* comments, expectations, releases and clock readings: nothing to do */
    *events = true;
    it.board = tb_bughouse_script_board(s, it.ev.board);
    if (it.board < 0)
        return tb_error_set(err, TB_ERR_PARSE,
                            "board '%s' is neither board A ('%s') nor board B ('%s'): "
                            "--board-a, --board-b name them",
                            it.ev.board, s->name[0], s->name[1]);
    bool typed = s->typed[it.board], sensor_event = k == TB_SCRIPT_LIFT || k == TB_SCRIPT_PLACE;
    if (typed && sensor_event)
        return tb_error_set(err, TB_ERR_PARSE, "board %s is typed: no %s", it.ev.board,
                            tb_script_kind_name(k));
    if (!typed && it.kind == TB_BUGHOUSE_ITEM_MOVE)
        return tb_error_set(err, TB_ERR_PARSE, "board %s has sensors: its moves are not typed",
                            it.ev.board);
    return push(s, &it) ? tb_error_set(err, TB_ERR_MEM, "out of memory") : TB_OK;
}

int tb_bughouse_script_read(struct tb_bughouse_script *s, int file, const char *buf, size_t len,
                            struct tb_error *err)
{
    struct tb_script_parser p;
    tb_script_parser_init(&p);
    bool events = false;
    long lineno = 0;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && buf[end] != '\n')
            end++;
        int rc = one_line(s, &p, file, ++lineno, buf + i, end - i, &events, err);
        if (rc < 0) {
            if (err)
                err->line = lineno;
            return rc;
        }
        i = end + 1;
    }
    return TB_OK;
}

static int by_time(const void *a, const void *b)
{
    const struct tb_bughouse_item *x = a, *y = b;
    if (x->ev.ms != y->ev.ms)
        return x->ev.ms < y->ev.ms ? -1 : 1;
    if (x->board != y->board)
        return x->board - y->board;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void tb_bughouse_script_sort(struct tb_bughouse_script *s)
{
    if (s->n)
        qsort(s->items, s->n, sizeof *s->items, by_time);
}

const char *tb_bughouse_item_name(const struct tb_bughouse_item *it)
{
    if (it->kind == TB_BUGHOUSE_ITEM_MOVE)
        return "move";
    if (it->kind == TB_BUGHOUSE_ITEM_ASK)
        return "ask";
    if (it->ev.kind == TB_SCRIPT_PRESS)
        return strcmp(it->ev.button, "clock") == 0    ? "press clock"
               : strcmp(it->ev.button, "resign") == 0 ? "press resign"
                                                      : "press";
    return tb_script_kind_name(it->ev.kind);
}
