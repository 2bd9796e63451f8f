/* livepgn.c - the live PGN text and the names of its files (pure). */
#include <stdio.h>
#include <string.h>

#include "broadcast_internal.h"
#include "tb_clock.h"

static bool result_ok(const char *r)
{
    return r &&
           (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2") || !strcmp(r, "*"));
}

static int tag(tb_chess_pgn_game *g, const char *name, const char *value)
{
    return tb_chess_pgn_tag_set(g, name, value[0] ? value : "?", NULL);
}

int tb_broadcast_pgn_text(const struct tb_broadcast_tags *tags, const tb_chess_game *game,
                          const uint64_t *clk_ms, const char *result, const char *termination,
                          tb_chess_pgn_game *g, char *buf, size_t len)
{
    if (!tags || !game || !g || !result_ok(result) || (!buf && len))
        return TB_ERR_ARG;
    tb_chess_pgn_game_init(g, &game->start);
    for (int i = 0; i < game->plies; i++) {
        if (tb_chess_game_push(&g->game, game->moves[i]) != TB_OK)
            return TB_ERR_STATE;
    }
    snprintf(g->result, sizeof g->result, "%s", result);
    /* The roster's order is the writer's; these set the values. */
    if (tag(g, "Event", tags->event) || tag(g, "Site", tags->site) || tag(g, "Date", tags->date) ||
        tag(g, "Round", tags->round) || tag(g, "White", tags->white) ||
        tag(g, "Black", tags->black) || tb_chess_pgn_tag_set(g, "Result", result, NULL))
        return TB_ERR_ARG;
    if (tags->time_control[0] && tb_chess_pgn_tag_set(g, "TimeControl", tags->time_control, NULL))
        return TB_ERR_ARG;
    if (termination && termination[0] && tb_chess_pgn_tag_set(g, "Termination", termination, NULL))
        return TB_ERR_ARG;
    for (int i = 0; clk_ms && i < game->plies; i++) {
        char clk[32];
        if (clk_ms[i] == TB_BROADCAST_NO_CLK)
            continue;
        tb_clock_format_clk(clk_ms[i], clk, sizeof clk);
        if (tb_chess_pgn_add_comment(g, i + 1, clk, NULL) != TB_OK)
            return TB_ERR_FULL;
    }
    return tb_chess_pgn_write(g, buf, len);
}

/* Copies s with every byte outside [A-Za-z0-9.-] as '_', at most max bytes ("unknown" for
 * nothing or "?"). */
static size_t safe(char *out, const char *s, size_t max)
{
    if (!s[0] || !strcmp(s, "?"))
        s = "unknown";
    size_t n = 0;
    for (; n < max && s[n]; n++) {
        char c = s[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '-';
        out[n] = ok ? c : '_';
    }
    out[n] = '\0';
    /* A leading dot would hide the file. */
    if (out[0] == '.')
        out[0] = '_';
    return n;
}

int tb_broadcast_pgn_name(const struct tb_broadcast_tags *tags, char *buf, size_t len)
{
    char r[41], w[41], b[41];
    safe(r, tags->round, 40);
    safe(w, tags->white, 40);
    safe(b, tags->black, 40);
    int n = snprintf(buf, len, "r%s_%s-%s.pgn", r, w, b);
    return n < 0 || (size_t)n >= len ? TB_ERR_FULL : n;
}

int tb_broadcast_day_name(const struct tb_broadcast_tags *tags, char *buf, size_t len)
{
    const char *d = tags->date;
    bool known = strlen(d) == 10 && d[4] == '.' && d[7] == '.';
    for (int i = 0; known && i < 10; i++) {
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
            known = false;
    }
    int n = known ? snprintf(buf, len, "%.4s-%.2s-%.2s", d, d + 5, d + 8)
                  : snprintf(buf, len, "undated");
    return n < 0 || (size_t)n >= len ? TB_ERR_FULL : n;
}
