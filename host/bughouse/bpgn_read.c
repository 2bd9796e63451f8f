/* bpgn_read.c - reading one BPGN game back (the writer's form and the usual variations). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bug_internal.h"

struct in {
    const char *buf;
    size_t len, i;
    long line, col;
};

static int peek(const struct in *s)
{
    return s->i < s->len ? (unsigned char)s->buf[s->i] : -1;
}

static void next(struct in *s)
{
    if (s->i >= s->len)
        return;
    if (s->buf[s->i++] == '\n') {
        s->line++;
        s->col = 1;
    } else {
        s->col++;
    }
}

static void skip_space(struct in *s)
{
    while (peek(s) == ' ' || peek(s) == '\t' || peek(s) == '\r' || peek(s) == '\n')
        next(s);
}

static int fail(const struct in *s, int code, struct tb_error *err, const char *what)
{
    return tb_error_set_at(err, code, s->line, s->col, "BPGN line %ld, column %ld: %s", s->line,
                           s->col, what);
}

static int read_tag(struct in *s, char *name, size_t ncap, char *value, size_t vcap,
                    struct tb_error *err)
{
    size_t n = 0;
    next(s); /* '[' */
    skip_space(s);
    while (peek(s) >= 0 && (isalnum(peek(s)) || peek(s) == '_')) {
        if (n + 1 < ncap)
            name[n++] = (char)peek(s);
        next(s);
    }
    name[n] = 0;
    skip_space(s);
    if (!n || peek(s) != '"')
        return fail(s, TB_ERR_PARSE, err, "a tag needs a name and a quoted value");
    next(s);
    n = 0;
    while (peek(s) >= 0 && peek(s) != '"' && peek(s) != '\n') {
        if (peek(s) == '\\')
            next(s);
        if (peek(s) < 0 || peek(s) == '\n')
            break;
        if (n + 1 < vcap)
            value[n++] = (char)peek(s);
        next(s);
    }
    value[n] = 0;
    if (peek(s) != '"')
        return fail(s, TB_ERR_PARSE, err, "the tag value is not closed with '\"'");
    next(s);
    skip_space(s);
    if (peek(s) != ']')
        return fail(s, TB_ERR_PARSE, err, "the tag is not closed with ']'");
    next(s);
    return TB_OK;
}

static enum tb_bug_result parse_result(const char *t)
{
    if (!strcmp(t, "1-0"))
        return TB_BUG_WHITE_WINS;
    if (!strcmp(t, "0-1"))
        return TB_BUG_BLACK_WINS;
    if (!strcmp(t, "1/2-1/2"))
        return TB_BUG_DRAW;
    return TB_BUG_ONGOING;
}

static bool is_result(const char *t)
{
    return !strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2") || !strcmp(t, "*");
}

/* A tag value cut to fit cap bytes. */
static void copy_cut(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void copy_name(char *dst, const char *src)
{
    copy_cut(dst, TB_BUG_NAME_MAX, src);
}

static int apply_tag(tb_bug_record *rec, const char *name, const char *value, bool *have_ab,
                     struct in *s, struct tb_error *err)
{
    static const char *const who[4] = {"WhiteA", "BlackA", "WhiteB", "BlackB"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, who[i]))
            copy_name(rec->names[i], value);
    if (!strcmp(name, "Event"))
        copy_name(rec->event, value);
    else if (!strcmp(name, "Site"))
        copy_name(rec->site, value);
    else if (!strcmp(name, "Date"))
        copy_cut(rec->date, sizeof rec->date, value);
    else if (!strcmp(name, "TimeControl")) {
        char *end;
        double v = strtod(value, &end);
        if (end != value && v > 0 && v < 86400)
            rec->base_ms = (int32_t)(v * 1000 + 0.5);
    } else if (!strcmp(name, "ResultA") || (!strcmp(name, "Result") && !have_ab[0])) {
        rec->verdict[0].result = parse_result(value);
        have_ab[0] |= name[6] == 'A';
    } else if (!strcmp(name, "ResultB")) {
        rec->verdict[1].result = parse_result(value);
    } else if (!strcmp(name, "FEN") || !strcmp(name, "FENB")) {
        struct tb_error e;
        if (tb_bug_pos_from_fen(&rec->start[name[3] == 'B'], value, &e))
            return fail(s, TB_ERR_PARSE, err, e.msg);
    }
    return TB_OK;
}

/* "{A: 1-0 checkmate (...)}": a board's result with its reason. */
static void result_comment(tb_bug_record *rec, const char *c)
{
    if ((c[0] != 'A' && c[0] != 'B') || c[1] != ':' || c[2] != ' ')
        return;
    struct tb_bug_verdict *v = &rec->verdict[c[0] - 'A'];
    const char *sp = strchr(c + 3, ' ');
    if (!sp)
        return;
    char res[8];
    snprintf(res, sizeof res, "%.*s", (int)(sp - (c + 3)), c + 3);
    v->result = parse_result(res);
    /* The longest reason that matches: "flag fell, no mate possible" before "flag fell". */
    size_t best = 0;
    for (int r = TB_BUG_CHECKMATE; r <= TB_BUG_WAIT_STALEMATE; r++) {
        const char *t = tb_bug_reason_text((enum tb_bug_reason)r);
        size_t k = strlen(t);
        if (k > best && !strncmp(sp + 1, t, k)) {
            best = k;
            v->reason = (enum tb_bug_reason)r;
        }
    }
    v->article = tb_bug__reason_article(v->reason);
    v->last_move = strstr(c, ", last move allowed") != NULL;
}

/* A move number with its board letter: "12A." "12b." (a "..." after it is allowed). */
static bool move_number(const char *t, long *num, int *board, int *color, const char **rest)
{
    char *end;
    if (!isdigit((unsigned char)t[0]))
        return false;
    *num = strtol(t, &end, 10);
    char b = *end;
    if (b != 'A' && b != 'a' && b != 'B' && b != 'b')
        return false;
    *board = b == 'B' || b == 'b';
    *color = islower((unsigned char)b) ? TB_CHESS_BLACK : TB_CHESS_WHITE;
    end++;
    if (*end != '.')
        return false;
    while (*end == '.')
        end++;
    *rest = end;
    return true;
}

static int read_moves(tb_bug_record *rec, struct in *s, struct tb_error *err)
{
    char tok[256], msg[300];
    bool illegal = false; /* "{A 7.4: illegal move}" came: the next move is one */
    for (;;) {
        skip_space(s);
        int c = peek(s);
        if (c < 0)
            return TB_OK;
        long line = s->line, col = s->col;
        if (c == '{') {
            size_t n = 0;
            next(s);
            while (peek(s) >= 0 && peek(s) != '}') {
                if (n + 1 < sizeof tok)
                    tok[n++] = peek(s) == '\n' ? ' ' : (char)peek(s);
                next(s);
            }
            tok[n] = 0;
            if (peek(s) != '}')
                return fail(s, TB_ERR_PARSE, err, "a comment is not closed with '}'");
            next(s);
            char *end;
            double v = strtod(tok, &end);
            if (end != tok && !*end && rec->nplies && v >= 0 && v < 86400) {
                rec->plies[rec->nplies - 1].clock_ms = (int32_t)(v * 1000 + 0.5);
                continue;
            }
            int rc = tb_bug__irregular_comment(rec, tok, &illegal); /* article 7 */
            if (rc < 0) {
                s->line = line, s->col = col;
                return fail(s, rc, err, "an article 7 comment that does not play here");
            }
            if (!rc)
                result_comment(rec, tok);
            continue;
        }
        size_t n = 0;
        while (peek(s) >= 0 && !isspace(peek(s)) && peek(s) != '{') {
            if (n + 1 < sizeof tok)
                tok[n++] = (char)peek(s);
            next(s);
        }
        tok[n] = 0;
        if (is_result(tok))
            return TB_OK;
        long num;
        int board, color;
        const char *san;
        if (!move_number(tok, &num, &board, &color, &san)) {
            snprintf(msg, sizeof msg, "'%.40s' is no move number like 12A. or 12b.", tok);
            s->line = line, s->col = col;
            return fail(s, TB_ERR_PARSE, err, msg);
        }
        if (!*san) {
            skip_space(s);
            line = s->line, col = s->col;
            n = 0;
            while (peek(s) >= 0 && !isspace(peek(s)) && peek(s) != '{') {
                if (n + 1 < sizeof tok)
                    tok[n++] = (char)peek(s);
                next(s);
            }
            tok[n] = 0;
            san = tok;
        }
        if (rec->nplies == 0) {
            rec->cur[0] = rec->start[0];
            rec->cur[1] = rec->start[1];
        }
        const tb_bug_pos *pos = &rec->cur[board];
        if (pos->chess.side != color || pos->chess.fullmove != num) {
            snprintf(msg, sizeof msg, "move %ld%c: on board %c it is move %u of %s", num,
                     (board ? 'B' : 'A') + (color ? 32 : 0), 'A' + board,
                     (unsigned)pos->chess.fullmove, pos->chess.side ? "Black" : "White");
            return tb_error_set_at(err, TB_ERR_PARSE, line, col, "BPGN line %ld, column %ld: %s",
                                   line, col, msg);
        }
        tb_bug_move m;
        struct tb_error e;
        if (illegal) {
            illegal = false;
            int rc = tb_bug__illegal_from_text(san, &m);
            if (!rc)
                rc = tb_bug_record_push_illegal(rec, board, m, -1);
            if (rc)
                return tb_error_set_at(err, rc, line, col,
                                       "BPGN line %ld, column %ld: illegal move %ld%c '%.24s' "
                                       "does not play here",
                                       line, col, num, (board ? 'B' : 'A') + (color ? 32 : 0), san);
            continue;
        }
        int rc = tb_bug_move_from_san(pos, san, TB_CHESS_LETTERS_EN, &m, &e);
        if (rc)
            return tb_error_set_at(err, rc, line, col,
                                   "BPGN line %ld, column %ld: move %ld%c "
                                   "'%.24s': %s",
                                   line, col, num, (board ? 'B' : 'A') + (color ? 32 : 0), san,
                                   e.msg);
        if ((rc = tb_bug_record_push(rec, board, m, -1)))
            return tb_error_set_at(err, rc, line, col, "BPGN line %ld: the record is full", line);
    }
}

int tb_bug_bpgn_read(tb_bug_record *rec, const char *buf, size_t len, struct tb_error *err)
{
    struct in s = {buf, len, 0, 1, 1};
    bool have_ab[2] = {false, false};
    if (!rec || !buf)
        return tb_error_set(err, TB_ERR_ARG, "BPGN: no text");
    tb_bug_record_init(rec);
    for (;;) {
        skip_space(&s);
        if (peek(&s) != '[')
            break;
        char name[32], value[TB_BUG_FEN_MAX];
        int rc = read_tag(&s, name, sizeof name, value, sizeof value, err);
        if (!rc)
            rc = apply_tag(rec, name, value, have_ab, &s, err);
        if (rc)
            return rc;
    }
    for (int b = 0; b < 2; b++)
        rec->verdict[b].article = tb_bug__reason_article(rec->verdict[b].reason);
    return read_moves(rec, &s, err);
}
