/* pgn_read.c - reading PGN (import format, leniently) from a buffer, one game at a time. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pgn_internal.h"
#include "tb_chess.h"

#define TOKEN_MAX     32
#define TAG_VALUE_MAX 1024

enum { RESYNC_NONE = 0, RESYNC_FROM_TAGS, RESYNC_FROM_MOVES };

void tb_chess_pgn_reader_init(tb_chess_pgn_reader *r, const char *buf, size_t len)
{
    r->buf = buf;
    r->len = buf ? len : 0;
    r->pos = 0;
    r->line = 1;
    r->games = 0;
    r->resync = RESYNC_NONE;
}

static int peek(const tb_chess_pgn_reader *r)
{
    return r->pos < r->len ? (unsigned char)r->buf[r->pos] : -1;
}

static int peek_at(const tb_chess_pgn_reader *r, size_t ahead)
{
    return r->pos + ahead < r->len ? (unsigned char)r->buf[r->pos + ahead] : -1;
}

static void advance(tb_chess_pgn_reader *r)
{
    if (r->buf[r->pos] == '\n')
        r->line++;
    r->pos++;
}

static long column_of(const tb_chess_pgn_reader *r, size_t at)
{
    size_t p = at;
    while (p > 0 && r->buf[p - 1] != '\n')
        p--;
    return (long)(at - p) + 1;
}

static bool at_line_start(const tb_chess_pgn_reader *r)
{
    return r->pos == 0 || r->buf[r->pos - 1] == '\n';
}

static void skip_line(tb_chess_pgn_reader *r)
{
    while (r->pos < r->len && r->buf[r->pos] != '\n')
        r->pos++;
    if (r->pos < r->len)
        advance(r);
}

static bool is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Token delimiters in movetext besides white space. */
static bool is_delim(int c)
{
    return c < 0 || is_space(c) || (c != 0 && strchr("{}();[]$\"", c) != NULL);
}

static void skip_space(tb_chess_pgn_reader *r)
{
    while (r->pos < r->len && is_space((unsigned char)r->buf[r->pos]))
        advance(r);
}

/* After an error: on to the next line that opens a tag section after some other line. */
static void resync(tb_chess_pgn_reader *r)
{
    bool seen_other = r->resync == RESYNC_FROM_MOVES;
    r->resync = RESYNC_NONE;
    skip_line(r);
    while (r->pos < r->len) {
        size_t p = r->pos;
        while (p < r->len && (r->buf[p] == ' ' || r->buf[p] == '\t' || r->buf[p] == '\r'))
            p++;
        bool tag_line = p < r->len && r->buf[p] == '[';
        if (tag_line && seen_other)
            return;
        if (!tag_line)
            seen_other = true;
        skip_line(r);
    }
}

/* "game 12 (Kasparov - Karpov)" */
static void game_prefix(const tb_chess_pgn_game *g, char *buf, size_t len)
{
    const char *w = tb_chess_pgn_tag_get(g, "White"), *b = tb_chess_pgn_tag_get(g, "Black");
    if (w && b)
        snprintf(buf, len, "game %ld (%.32s - %.32s)", g->number, w, b);
    else
        snprintf(buf, len, "game %ld", g->number);
}

/* "game 12 (...), move 34... (ply 68)" for the ply about to be played. */
static void ply_prefix(const tb_chess_pgn_game *g, char *buf, size_t len)
{
    char game[96];
    game_prefix(g, game, sizeof game);
    int p = g->game.plies + g->game.start.side;
    int number = g->game.start.fullmove + p / 2;
    snprintf(buf, len, "%s, move %d%s (ply %d)", game, number, p % 2 ? "..." : ".",
             g->game.plies + 1);
}

/* Reports an error at byte `at` of the buffer and arranges to skip the rest of the game. */
static int fail(tb_chess_pgn_reader *r, const tb_chess_pgn_game *g, struct tb_error *err, int code,
                bool in_moves, size_t at, long line, const char *text, const char *reason)
{
    char prefix[160];
    if (in_moves)
        ply_prefix(g, prefix, sizeof prefix);
    else
        game_prefix(g, prefix, sizeof prefix);
    if (text)
        tb_error_set_at(err, code, line, column_of(r, at), "%s: '%.40s': %s", prefix, text, reason);
    else
        tb_error_set_at(err, code, line, column_of(r, at), "%s: %s", prefix, reason);
    r->resync = in_moves ? RESYNC_FROM_MOVES : RESYNC_FROM_TAGS;
    return code;
}

/* The rest of the line from `at`, for quoting a bad tag. */
static void line_text(const tb_chess_pgn_reader *r, size_t at, char *buf, size_t len)
{
    size_t n = 0;
    while (at + n < r->len && r->buf[at + n] != '\n' && r->buf[at + n] != '\r' && n + 1 < len)
        n++;
    memcpy(buf, r->buf + at, n);
    buf[n] = '\0';
}

static int read_tag(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err)
{
    size_t start = r->pos;
    long line = r->line;
    char quoted[48], value[TAG_VALUE_MAX];
    const char *why = NULL;
    line_text(r, start, quoted, sizeof quoted);

    advance(r); /* '[' */
    while (peek(r) == ' ' || peek(r) == '\t')
        advance(r);
    size_t name_at = r->pos;
    while (peek(r) >= 0 && !is_space(peek(r)) && peek(r) != '"' && peek(r) != ']')
        advance(r);
    size_t name_len = r->pos - name_at, n = 0;
    if (name_len == 0)
        why = "a tag name must follow '['";
    else if (!tb_chess__pgn_tag_name_ok(r->buf + name_at, name_len))
        why = "a tag name has only letters, digits and '_'";
    while (!why && (peek(r) == ' ' || peek(r) == '\t'))
        advance(r);
    if (!why && peek(r) != '"')
        why = "the value must be in double quotes";
    if (!why)
        advance(r);
    while (!why) {
        int c = peek(r);
        if (c < 0 || c == '\n' || c == '\r') {
            why = "the value has no closing quote";
            break;
        }
        advance(r);
        if (c == '"')
            break;
        if (c == '\\' && (peek(r) == '"' || peek(r) == '\\')) {
            c = peek(r);
            advance(r);
        }
        if (n + 1 >= sizeof value) {
            why = "the value is longer than 1023 bytes";
            break;
        }
        value[n++] = (char)c;
    }
    while (!why && (peek(r) == ' ' || peek(r) == '\t'))
        advance(r);
    if (!why && peek(r) != ']')
        why = "']' must close the tag";
    if (why)
        return fail(r, g, err, TB_ERR_PARSE, false, start, line, quoted, why);
    advance(r);
    struct tb_error e;
    int rc = tb_chess__pgn_tag_put(g, r->buf + name_at, name_len, value, n, &e);
    if (rc < 0)
        return fail(r, g, err, rc, false, start, line, quoted, e.msg);
    return TB_OK;
}

static bool contains_ci(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == word[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* The start position from [FEN] (and [Variant] for Chess960). */
static int setup_start(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err)
{
    const char *fen = tb_chess_pgn_tag_get(g, "FEN");
    const char *variant = tb_chess_pgn_tag_get(g, "Variant");
    bool c960 = variant && (contains_ci(variant, "960") || contains_ci(variant, "fischer"));
    tb_chess_pos start;
    if (fen) {
        struct tb_error e;
        /* Without a Variant tag a start whose castling rights only Chess960 allows still
         * reads as one (the FEN reader sees it). */
        int rc = tb_chess_pos_from_fen(&start, fen, c960 ? TB_CHESS_FEN_960 : 0, &e);
        if (rc < 0) {
            char why[300];
            snprintf(why, sizeof why, "bad FEN tag: %s", e.msg);
            return fail(r, g, err, TB_ERR_PARSE, false, r->pos, r->line, NULL, why);
        }
    } else if (c960) {
        tb_chess_pos_960(&start, 518);
    } else {
        return TB_OK;
    }
    tb_chess_game_init(&g->game, &start);
    return TB_OK;
}

/* Copies a {comment} into the text arena; line breaks read as one space. */
static int read_brace_comment(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, bool keep,
                              struct tb_error *err)
{
    size_t start = r->pos;
    long line = r->line;
    uint32_t off = g->text_used;
    advance(r); /* '{' */
    for (;;) {
        int c = peek(r);
        if (c < 0)
            return fail(r, g, err, TB_ERR_PARSE, true, start, line, "{",
                        "the comment is never closed with '}'");
        advance(r);
        if (c == '}')
            break;
        if (!keep)
            continue;
        if (c == '\r' && peek(r) == '\n')
            continue;
        if (c == '\r' || c == '\n')
            c = ' ';
        if (g->text_used + 1 >= TB_CHESS_PGN_TEXT_SIZE)
            return fail(r, g, err, TB_ERR_FULL, true, start, line, "{",
                        "comments and tags exceed the text a game can hold");
        g->text[g->text_used++] = (char)c;
    }
    if (!keep)
        return TB_OK;
    g->text[g->text_used++] = '\0';
    struct tb_chess_pgn_note note = {
        .ply = (uint16_t)g->game.plies, .kind = TB_CHESS_PGN_COMMENT, .text = off};
    struct tb_error e;
    if (tb_chess__pgn_note_add(g, &note, &e) < 0)
        return fail(r, g, err, TB_ERR_FULL, true, start, line, "{", e.msg);
    return TB_OK;
}

static int read_line_comment(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, bool keep,
                             struct tb_error *err)
{
    size_t start = r->pos;
    long line = r->line;
    advance(r); /* ';' */
    size_t from = r->pos;
    while (r->pos < r->len && r->buf[r->pos] != '\n')
        r->pos++;
    size_t n = r->pos - from;
    if (n && r->buf[from + n - 1] == '\r')
        n--;
    if (!keep)
        return TB_OK;
    struct tb_chess_pgn_note note = {.ply = (uint16_t)g->game.plies,
                                     .kind = TB_CHESS_PGN_LINE_COMMENT};
    struct tb_error e;
    if (tb_chess__pgn_text_add(g, r->buf + from, n, &note.text, &e) < 0 ||
        tb_chess__pgn_note_add(g, &note, &e) < 0)
        return fail(r, g, err, TB_ERR_FULL, true, start, line, ";", e.msg);
    return TB_OK;
}

static int add_nag(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, int nag, size_t at, long line,
                   const char *text, struct tb_error *err)
{
    struct tb_chess_pgn_note note = {
        .ply = (uint16_t)g->game.plies, .kind = TB_CHESS_PGN_NAG, .nag = (uint8_t)nag};
    struct tb_error e;
    if (tb_chess__pgn_note_add(g, &note, &e) < 0)
        return fail(r, g, err, TB_ERR_FULL, true, at, line, text, e.msg);
    return TB_OK;
}

/* "!" "?" "!!" "??" "!?" "?!" as NAGs 1..6; 0 for anything else. */
static int suffix_nag(const char *s)
{
    static const char *const marks[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int i = 0; i < 6; i++)
        if (strcmp(s, marks[i]) == 0)
            return i + 1;
    return 0;
}

/* A game termination marker at the current position, or NULL. */
static const char *result_here(const tb_chess_pgn_reader *r)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(results[i]);
        if (r->pos + n <= r->len && memcmp(r->buf + r->pos, results[i], n) == 0 &&
            (r->pos + n == r->len || is_delim((unsigned char)r->buf[r->pos + n])))
            return results[i];
    }
    return NULL;
}

static bool valid_result(const char *s)
{
    return s &&
           (!strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2") || !strcmp(s, "*"));
}

static int play(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, const char *san, size_t at, long line,
                struct tb_error *err)
{
    struct tb_error e;
    tb_chess_move m;
    int rc = tb_chess_move_from_san(&g->game.pos, san, TB_CHESS_LETTERS_EN, &m, &e);
    if (rc < 0)
        return fail(r, g, err, rc, true, at, line, san, e.msg);
    rc = tb_chess_game_push(&g->game, m);
    if (rc == TB_ERR_FULL) {
        char why[96];
        snprintf(why, sizeof why, "a game can hold at most %d plies", TB_CHESS_GAME_MAX_PLIES);
        return fail(r, g, err, rc, true, at, line, san, why);
    }
    if (rc < 0)
        return fail(r, g, err, rc, true, at, line, san, "the move cannot be played");
    return TB_OK;
}

/* A symbol: a move with optional !? suffix, a lone !? mark, or an "e.p." mark to skip. */
static int read_symbol(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err)
{
    size_t at = r->pos;
    long line = r->line;
    while (!is_delim(peek(r)))
        advance(r);
    size_t n = r->pos - at;
    char tok[TOKEN_MAX];
    if (n >= TOKEN_MAX) {
        char text[TOKEN_MAX];
        snprintf(text, sizeof text, "%.*s...", TOKEN_MAX - 8, r->buf + at);
        return fail(r, g, err, TB_ERR_PARSE, true, at, line, text, "not a move");
    }
    memcpy(tok, r->buf + at, n);
    tok[n] = '\0';
    if (!strcmp(tok, "e.p.") || !strcmp(tok, "e.p") || !strcmp(tok, "ep") || strspn(tok, "+#") == n)
        return TB_OK;
    size_t body = n;
    while (body > 0 && (tok[body - 1] == '!' || tok[body - 1] == '?'))
        body--;
    int nag = 0;
    if (body < n) {
        nag = suffix_nag(tok + body);
        if (!nag)
            return fail(r, g, err, TB_ERR_PARSE, true, at, line, tok,
                        "unknown annotation (use ! ? !! ?? !? ?!)");
    }
    if (body > 0) {
        tok[body] = '\0';
        int rc = play(r, g, tok, at, line, err);
        if (rc < 0)
            return rc;
    }
    return nag ? add_nag(r, g, nag, at, line, tok + body, err) : TB_OK;
}

static int read_nag(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, bool keep, struct tb_error *err)
{
    size_t at = r->pos;
    long line = r->line;
    advance(r); /* '$' */
    int nag = 0, digits = 0;
    while (peek(r) >= '0' && peek(r) <= '9' && digits < 4) {
        nag = nag * 10 + peek(r) - '0';
        digits++;
        advance(r);
    }
    if (!digits || nag > 255 || !is_delim(peek(r))) {
        char text[16];
        snprintf(text, sizeof text, "%.*s", (int)(r->pos - at + 1), r->buf + at);
        return fail(r, g, err, TB_ERR_PARSE, true, at, line, text, "a NAG is $0 to $255");
    }
    return keep ? add_nag(r, g, nag, at, line, "$", err) : TB_OK;
}

/* Movetext up to and including the termination marker. */
static int read_moves(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err)
{
    int depth = 0, rc = TB_OK;
    size_t open_at = 0;
    long open_line = 0;
    for (;;) {
        skip_space(r);
        int c = peek(r);
        if (c < 0 || (c == '[' && depth == 0)) {
            if (depth > 0)
                return fail(r, g, err, TB_ERR_PARSE, true, open_at, open_line, "(",
                            "the variation is never closed with ')'");
            const char *tag = tb_chess_pgn_tag_get(g, "Result");
            strcpy(g->result, valid_result(tag) ? tag : "*");
            return TB_OK;
        }
        bool keep = depth == 0;
        if (c == '{') {
            rc = read_brace_comment(r, g, keep, err);
        } else if (c == ';') {
            rc = read_line_comment(r, g, keep, err);
        } else if (c == '%' && at_line_start(r)) {
            skip_line(r);
        } else if (c == '(') {
            if (depth++ == 0) {
                open_at = r->pos;
                open_line = r->line;
            }
            advance(r);
        } else if (c == ')') {
            if (depth == 0)
                return fail(r, g, err, TB_ERR_PARSE, true, r->pos, r->line, ")",
                            "no variation is open");
            depth--;
            advance(r);
        } else if (c == '$') {
            rc = read_nag(r, g, keep, err);
        } else if (depth > 0) {
            /* Variations are skipped, not checked. */
            do
                advance(r);
            while (!is_delim(peek(r)));
        } else if (result_here(r)) {
            const char *res = result_here(r);
            strcpy(g->result, res);
            r->pos += strlen(res);
            return TB_OK;
        } else if (c >= '0' && c <= '9') {
            size_t at = r->pos;
            while (peek(r) >= '0' && peek(r) <= '9')
                advance(r);
            if (peek(r) == '.') {
                while (peek(r) == '.')
                    advance(r); /* move number indication: "12." or "12..." */
            } else if (!is_delim(peek(r))) {
                r->pos = at; /* "0-0" */
                rc = read_symbol(r, g, err);
            }
        } else if (c == '.') {
            advance(r);
        } else if (isalpha(c) || c == '!' || c == '?' || c == '-' || c == '+' || c == '#') {
            rc = read_symbol(r, g, err);
        } else {
            char text[8];
            snprintf(text, sizeof text, c < 0x80 ? "%c" : "\\x%02X", c);
            return fail(r, g, err, TB_ERR_PARSE, true, r->pos, r->line, text,
                        "unexpected character in the moves");
        }
        if (rc < 0)
            return rc;
    }
}

/* White space, "%" lines and comments between games. */
static void skip_between(tb_chess_pgn_reader *r)
{
    for (;;) {
        skip_space(r);
        int c = peek(r);
        if ((c == '%' && at_line_start(r)) || c == ';') {
            skip_line(r);
        } else if (c == '{') {
            while (r->pos < r->len && r->buf[r->pos] != '}')
                advance(r);
            if (r->pos < r->len)
                advance(r);
        } else if (c == 0xEF && peek_at(r, 1) == 0xBB && peek_at(r, 2) == 0xBF) {
            r->pos += 3; /* UTF-8 byte order mark */
        } else {
            return;
        }
    }
}

int tb_chess_pgn_read(tb_chess_pgn_reader *r, tb_chess_pgn_game *g, struct tb_error *err)
{
    if (!r || !g)
        return tb_error_set(err, TB_ERR_ARG, "no reader or game");
    if (r->resync)
        resync(r);
    tb_chess_pgn_game_init(g, NULL);
    skip_between(r);
    if (r->pos >= r->len)
        return 0;
    g->number = ++r->games;
    g->line = r->line;
    for (;;) {
        skip_space(r);
        if (peek(r) != '[')
            break;
        int rc = read_tag(r, g, err);
        if (rc < 0)
            return rc;
    }
    int rc = setup_start(r, g, err);
    if (rc < 0)
        return rc;
    rc = read_moves(r, g, err);
    return rc < 0 ? rc : 1;
}
