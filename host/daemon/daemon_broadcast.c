/* daemon_broadcast.c - the agreed game for the broadcast world (docs/broadcast.md): a virtual
 * DGT board on a pty and loopback TCP, and a live PGN file per game, fed from the match's agreed
 * game only. An agreed move is shown when it is agreed, in order; a takeback, a resolution, a
 * set-position or a new game shows the game as the match then has it; a mismatch shows nothing,
 * because the agreed game does not change while the boards disagree. Moves agreed after the
 * result are not part of the game and are not shown. The board's fds are in the daemon's poll
 * loop; the PGN is written on the library's own thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_broadcast.h"
#include "daemon_clock.h"
#include "daemon_shell.h"
#include "daemon_result.h"
#include "daemon_session.h"

/* The part's state, made when it opens with [broadcast] on. */
struct tb_daemon__broadcast {
    tb_broadcast *bc;
    tb_chess_game game;               /* what the broadcast shows (the agreed game fed last) */
    struct tb_broadcast_clock clock;  /* and the clock shown with it */
    struct tb_daemon__bcdelay *delay; /* the changes [broadcast] delay holds back */
    uint64_t due;                     /* its next due time, as its pollfds found it */
    struct tb_broadcast_tags tags;    /* the game's tags shown, with the time control */
};

/* The game's clock as the broadcast shows it (the virtual board's clock, the PGN's [%clk]):
 * both times now, the running side's counting down; unknown without a clock. */
static struct tb_broadcast_clock clock_now(struct tb_daemon *d)
{
    struct tb_broadcast_clock c = {.known = false, .running = TB_BROADCAST_NO_SIDE};
    int64_t left[2];
    int running;
    if (!tb_daemon__clock_now(d, left, &running) || left[0] < 0 || left[1] < 0)
        return c;
    c.known = true;
    c.white_ms = (uint64_t)left[TB_CHESS_WHITE];
    c.black_ms = (uint64_t)left[TB_CHESS_BLACK];
    c.running = running < 0 ? TB_BROADCAST_NO_SIDE : running;
    c.at_ms = tb_daemon__clock(d);
    return c;
}

/* Whether two readings are one clock: the same side running towards the same flag instant and
 * the other side's time the same. Field by field: padding is no part of a reading. */
static bool same_clock(const struct tb_broadcast_clock *a, const struct tb_broadcast_clock *b)
{
    if (a->known != b->known || a->running != b->running)
        return false;
    if (!a->known)
        return true;
    uint64_t aw = a->white_ms, ab = a->black_ms, bw = b->white_ms, bb = b->black_ms;
    if (a->running == TB_CHESS_WHITE)
        aw += a->at_ms, bw += b->at_ms;
    else if (a->running == TB_CHESS_BLACK)
        ab += a->at_ms, bb += b->at_ms;
    return aw == bw && ab == bb;
}

/* The game's tags as shown; the time control the broadcast's PGN names: [game] time_control,
 * else the clock's. */
static const struct tb_broadcast_tags *tags_shown(struct tb_daemon *d)
{
    struct tb_broadcast_tags *t = &d->broadcast->tags;
    *t = *tb_daemon__tags(d);
    if (!t->time_control[0])
        tb_daemon__clock_control_pgn(d, t->time_control, sizeof t->time_control);
    return t;
}

/* Hands over the changes the delay no longer holds back, saying how the library took each. */
static void hand_over_due(struct tb_daemon *d)
{
    struct tb_error err;
    int kind;
    struct tb_daemon__broadcast *b = d->broadcast;
    while ((kind = tb_daemon__bcdelay_hand_over(b->delay, b->bc, tb_daemon__clock(d),
                                                d->cfg->broadcast.delay_ms, &err)) > 0) {
        const char *path = tb_broadcast_pgn_path(b->bc);
        if (kind == TB_DAEMON__BCDELAY_NEW_GAME && !err.code)
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "broadcast: new game, live PGN %s",
                           path[0] ? path : "off");
        else if (kind == TB_DAEMON__BCDELAY_NEW_GAME)
            tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: the new game is not shown: %s",
                           err.msg);
        else if (err.code)
            tb_daemon__log(
                d, kind == TB_DAEMON__BCDELAY_RESULT ? TB_CONFIG_LOG_WARN : TB_CONFIG_LOG_INFO,
                "broadcast: %s: %s",
                kind == TB_DAEMON__BCDELAY_RESULT ? "the result is not shown" : "not shown",
                err.msg);
    }
}

/* A change kept for [broadcast] delay: shown when it has passed, at once without a delay. */
static void kept(struct tb_daemon *d, int rc)
{
    if (rc != TB_OK)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: out of memory, a change not shown");
    if (!d->cfg->broadcast.delay_ms)
        hand_over_due(d);
}

/* The agreed game g with the clock, and each ply's [%clk] as the daemon recorded it. */
static void keep_agreed(struct tb_daemon *d, const tb_chess_game *g,
                        const struct tb_broadcast_clock *clock)
{
    uint64_t *clk = malloc(((size_t)g->plies + 1) * sizeof *clk);
    for (int i = 0; clk && i < g->plies; i++)
        clk[i] = tb_daemon__clock_ply_ms(d, i + 1);
    kept(d, tb_daemon__bcdelay_agreed(d->broadcast->delay, g, clk, clock, tb_daemon__clock(d)));
    free(clk);
}

/* The game shown becomes the first n plies of g, with the clock as it stands (a clock change
 * alone is shown too: the virtual board's clock follows presses, pauses and corrections). */
static void show(struct tb_daemon *d, const tb_chess_game *g, int n)
{
    tb_chess_game *s = &d->broadcast->game;
    int common = 0;
    while (common < n && common < s->plies && s->moves[common] == g->moves[common])
        common++;
    struct tb_broadcast_clock clock = clock_now(d);
    if (common == n && s->plies == n && same_clock(&clock, &d->broadcast->clock))
        return;
    d->broadcast->clock = clock;
    while (s->plies > common)
        tb_chess_game_pop(s);
    for (int i = common; i < n; i++)
        tb_chess_game_push(s, g->moves[i]);
    keep_agreed(d, s, &clock);
}

static void new_game(struct tb_daemon *d)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    tb_chess_game_init(&d->broadcast->game, &g->start);
    const struct tb_broadcast_tags *tags = tags_shown(d);
    kept(d, tb_daemon__bcdelay_new_game(d->broadcast->delay, tags, &g->start, tb_daemon__clock(d)));
}

static bool same_start(const tb_chess_pos *a, const tb_chess_pos *b)
{
    char fa[100], fb[100];
    tb_chess_pos_to_fen(a, fa, sizeof fa);
    tb_chess_pos_to_fen(b, fb, sizeof fb);
    return strcmp(fa, fb) == 0;
}

/* Plies of g that belong to the game: all, or those up to its result. */
static int game_plies(const struct tb_daemon *d, const tb_chess_game *g)
{
    int end = tb_daemon__result_ply(d);
    return end >= 0 && end < g->plies ? end : g->plies;
}

void tb_daemon__broadcast_move(struct tb_daemon *d, int ply, uint64_t t)
{
    (void)t;
    if (!d->broadcast)
        return;
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    int n = game_plies(d, g);
    show(d, g, ply < n ? ply : n);
}

void tb_daemon__broadcast_sync(struct tb_daemon *d, uint64_t t)
{
    (void)t;
    if (!d->broadcast)
        return;
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    if (!same_start(&g->start, &d->broadcast->game.start))
        new_game(d); /* set-position: a game from another start */
    show(d, g, game_plies(d, g));
}

void tb_daemon__broadcast_clock(struct tb_daemon *d)
{
    if (!d->broadcast || !tb_daemon__match(d))
        return;
    struct tb_broadcast_clock clock = clock_now(d);
    if (same_clock(&clock, &d->broadcast->clock))
        return; /* every turn of the loop comes here: nothing more unless the clock changed */
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    if (same_start(&g->start, &d->broadcast->game.start))
        show(d, g, game_plies(d, g));
}

void tb_daemon__broadcast_new_game(struct tb_daemon *d)
{
    if (d->broadcast)
        new_game(d);
}

void tb_daemon__broadcast_result(struct tb_daemon *d)
{
    static const enum tb_broadcast_end_kind kinds[] = {
        [TB_CTL_RESULT_RESIGN] = TB_BROADCAST_RESIGN,
        [TB_CTL_RESULT_DRAW] = TB_BROADCAST_DRAW_AGREED,
        [TB_CTL_RESULT_FLAG] = TB_BROADCAST_FLAG,
        [TB_CTL_RESULT_THREEFOLD] = TB_BROADCAST_CLAIM_THREEFOLD,
        [TB_CTL_RESULT_FIFTY] = TB_BROADCAST_CLAIM_FIFTY,
        [TB_CTL_RESULT_ARBITER] = TB_BROADCAST_ARBITER,
    };
    const struct tb_ctl_request *req = tb_daemon__result_by_request(d);
    if (!d->broadcast || !req)
        return; /* the rules' end the library finds itself */
    struct tb_broadcast_end end = {.kind = kinds[req->how],
                                   .side = req->side ? TB_CHESS_BLACK : TB_CHESS_WHITE,
                                   .result = req->result};
    kept(d, tb_daemon__bcdelay_result(d->broadcast->delay, &end, tb_daemon__clock(d)));
}

static int broadcast_open(struct tb_daemon *d, struct tb_error *err)
{
    const struct tb_config_broadcast *c = &d->cfg->broadcast;
    if (!tb_config_broadcast_on(d->cfg))
        return TB_OK;
    struct tb_broadcast_config bcfg;
    tb_broadcast_config_default(&bcfg);
    bcfg.pty_link = c->dgt[0] ? c->dgt : NULL;
    bcfg.tcp = c->tcp_port >= 0;
    bcfg.tcp_port = c->tcp_port > 0 ? c->tcp_port : 0;
    bcfg.max_clients = c->max_clients;
    bcfg.pgn_dir = c->pgn_dir[0] ? c->pgn_dir : NULL;
    memcpy(bcfg.id.serial, c->serial, sizeof bcfg.id.serial);
    snprintf(bcfg.id.long_serial, sizeof bcfg.id.long_serial, "00000%s", c->serial);
    struct tb_daemon__broadcast *b = calloc(1, sizeof *b);
    struct tb_error e = {0};
    if (!b || !(b->delay = tb_daemon__bcdelay_new())) {
        free(b);
        return tb_error_set(err, TB_ERR_MEM, "broadcast: out of memory");
    }
    if (!(b->bc = tb_broadcast_new(&bcfg, &e))) {
        tb_daemon__bcdelay_free(b->delay);
        free(b);
        return tb_error_set(err, e.code ? e.code : TB_ERR_SYS, "%s", e.msg);
    }
    d->broadcast = b;
    /* The game as recovery left it: its start, its agreed moves, its result; in the file it was
     * shown in before the restart, when that file is there, so followers keep its address. */
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    tb_chess_game_init(&b->game, &g->start);
    for (int i = 0; i < game_plies(d, g); i++)
        tb_chess_game_push(&b->game, g->moves[i]);
    /* The file keeps the moves the public had (with their [%clk] as recorded); the game then
     * goes to the broadcast as agreed now: at once without a delay, else when the delay has
     * passed (the moves' own times are not kept), so none is shown younger than the delay. */
    uint64_t *clk = malloc(((size_t)b->game.plies + 1) * sizeof *clk);
    for (int i = 0; clk && i < b->game.plies; i++)
        clk[i] = tb_daemon__clock_ply_ms(d, i + 1);
    const struct tb_broadcast_tags *tags = tags_shown(d);
    if (tb_broadcast_resume_shown(b->bc, tags, &b->game, clk, tb_daemon__clock(d), &e) < 0)
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "broadcast: the game is not shown: %s", e.msg);
    free(clk);
    b->clock = clock_now(d);
    keep_agreed(d, &b->game, &b->clock);
    tb_daemon__broadcast_result(d);
    char tcp[32] = "off";
    if (tb_broadcast_tcp_port(b->bc))
        snprintf(tcp, sizeof tcp, "127.0.0.1:%d", tb_broadcast_tcp_port(b->bc));
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "broadcast: virtual DGT board %s (pty %s), tcp %s",
                   c->dgt[0] ? c->dgt : "-",
                   tb_broadcast_pty_name(b->bc)[0] ? tb_broadcast_pty_name(b->bc) : "none", tcp);
    return TB_OK;
}

static void broadcast_close(struct tb_daemon *d)
{
    struct tb_daemon__broadcast *b = d->broadcast;
    if (!b)
        return;
    tb_broadcast_free(b->bc); /* the last PGN written, the pty's link removed */
    /* changes not yet due are never shown: recovery brings them back */
    tb_daemon__bcdelay_free(b->delay);
    free(b);
    d->broadcast = NULL;
}

static int broadcast_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    struct tb_daemon__broadcast *b = d->broadcast;
    if (!b)
        return 0;
    b->due = UINT64_MAX;
    int n = tb_broadcast_pollfds(b->bc, p, max, tb_daemon__clock(d), &b->due);
    uint64_t due = tb_daemon__bcdelay_deadline(b->delay, d->cfg->broadcast.delay_ms);
    if (due < b->due) /* a delayed change to show */
        b->due = due;
    return n;
}

static uint64_t broadcast_deadline(struct tb_daemon *d)
{
    return d->broadcast ? d->broadcast->due : UINT64_MAX;
}

static int broadcast_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    if (!d->broadcast)
        return TB_OK;
    hand_over_due(d);
    tb_broadcast_handle(d->broadcast->bc, p, n, tb_daemon__clock(d));
    return TB_OK;
}

static void broadcast_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    char line[1200];
    int n;
    const struct tb_daemon__broadcast *b = d->broadcast;
    if (!b) {
        n = snprintf(line, sizeof line, "broadcast: off\n");
    } else {
        struct tb_broadcast_stats st;
        tb_broadcast_stats(b->bc, &st);
        char tcp[32] = "";
        if (tb_broadcast_tcp_port(b->bc))
            snprintf(tcp, sizeof tcp, ", tcp 127.0.0.1:%d", tb_broadcast_tcp_port(b->bc));
        const char *pgn = tb_broadcast_pgn_path(b->bc);
        n = snprintf(line, sizeof line,
                     "broadcast: dgt %s%s, %d readers, %llu dropped; live PGN %s (%llu "
                     "written, %llu failed%s%s)\n",
                     d->cfg->broadcast.dgt[0] ? d->cfg->broadcast.dgt : "(no pty)", tcp, st.readers,
                     (unsigned long long)st.dropped, pgn[0] ? pgn : "off",
                     (unsigned long long)st.pgn_writes, (unsigned long long)st.pgn_failures,
                     st.pgn_failures ? ": " : "", st.pgn_failures ? st.pgn_error.msg : "");
    }
    tb_daemon__buf_put(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

const struct tb_daemon__part tb_daemon__part_broadcast = {
    .name = "broadcast",
    .open = broadcast_open,
    .close = broadcast_close,
    .pollfds = broadcast_pollfds,
    .handle = broadcast_handle,
    .deadline = broadcast_deadline,
    .status = broadcast_status,
};
