/* daemon_boards.c - the two boards' part: what each can do (asked of its link, never its kind),
 * what they report and when it happened (into the session's one entry, or merged in script time
 * first), and typed moves. Its state (struct tb_daemon__boards) is its own: the other parts ask
 * the functions of daemon_boards.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_dgt.h"
#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_session.h"
#include "tb_fifo.h"
#include "tb_file.h"
#include "tb_script.h"

#define READ_BATCH 64
#define QUEUE_MAX  (1u << 20) /* events of one fast script held for merging */

/* Mapping a board's own clock onto the daemon's (below, "When an event happened"). */
struct board_when {
    bool known;
    int64_t offset;     /* daemon ms - board ms: the smallest delay seen, loosening slowly */
    uint64_t offset_at; /* daemon ms of the last reading */
    uint32_t last_board_ms;
    int64_t board64; /* last_board_ms, unwrapped */
    uint64_t last;   /* the last time given: a board's events never go back */
};

/* A real-time board's event read in this turn, with when it happened. */
struct timed {
    struct tb_link_event ev;
    uint64_t t;
    int board;
};

struct board {
    struct tb_link *link;
    struct board_when when;
    struct tb_link_resource res;
    unsigned caps; /* enum tb_link_cap: what the link can do */
    char resource[TB_CONFIG_PATH_MAX];
    bool fast;         /* on the script's own time (TB_LINK_CAP_SCRIPT_TIME) */
    uint32_t skip_seq; /* a link that replays: its events already in the journal (recovery) */
    struct tb_fifo q;  /* struct tb_link_event: a fast script's, waiting to be merged in its time */
    unsigned long events; /* fed to the match */
    uint8_t clock_run;    /* DGT: whose clock ran at the last reading (TB_LINK_EV_CLOCK) */
};

/* Made by tb_daemon__boards_plan (before recovery, which notes the events the journal has),
 * freed by the part's close. */
struct tb_daemon__boards {
    struct board board[TBD_BOARDS];
    struct timed *turn; /* real-time boards' events of this read, merged in time */
    size_t turn_n, turn_cap;
    uint64_t last_read; /* daemon ms of the previous read of the boards */
};

/* A board as the other parts see it: before the plan and after close, none (no link, no caps). */
static const struct board *board_at(const struct tb_daemon *d, int b)
{
    static const struct board none;
    return d->boards && b >= 0 && b < TBD_BOARDS ? &d->boards->board[b] : &none;
}

const char *tb_daemon__board_name(int board)
{
    return board == 0 ? "vi" : "sighted";
}

/* What each board is and can do, before the journal is replayed (a keys: board is typed). */
int tb_daemon__boards_plan(struct tb_daemon *d, struct tb_error *err)
{
    if (!d->boards) {
        if (!(d->boards = calloc(1, sizeof *d->boards)))
            return tb_error_set(err, TB_ERR_MEM, "out of memory");
        for (int b = 0; b < TBD_BOARDS; b++)
            d->boards->board[b].q = TB_FIFO_INIT(sizeof(struct tb_link_event), QUEUE_MAX);
    }
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct board *bd = &d->boards->board[b];
        snprintf(bd->resource, sizeof bd->resource, "%s", d->cfg->player[b].board);
        int rc = tb_link_resource_parse(bd->resource, &bd->res, err);
        if (rc != TB_OK)
            return rc;
        bd->caps = tb_link_resource_caps(&bd->res);
        /* a script (it replays from its start) plays at the speed asked on the command line */
        if (bd->caps & TB_LINK_CAP_REPLAYS && d->opt.speed != TB_DAEMON_SPEED_CONFIG) {
            bd->res.fast = d->opt.speed == TB_DAEMON_SPEED_FAST;
            bd->caps = tb_link_resource_caps(&bd->res);
        }
        bd->fast = bd->caps & TB_LINK_CAP_SCRIPT_TIME;
        d->virtual_time |= bd->fast;
    }
    /* Script time and the wall clock do not mix: one game has one clock. */
    for (int b = 0; b < TBD_BOARDS && d->virtual_time; b++)
        if (d->boards->board[b].caps & TB_LINK_CAP_REAL_TIME)
            return tb_error_set(err, TB_ERR_ARG,
                                "%s board %s: a fast script (script time) cannot be played "
                                "against a board in real time",
                                tb_daemon__board_name(b), d->boards->board[b].resource);
    return TB_OK;
}

/* Scripts carry the blip window their noise was made for (`# blip-window: N ms`, written by
 * events-from-pgn and bughouse-events): the recognisers use it, so a script gives the same game
 * here as in replay whatever blip_window_ms says (that is for the real boards). Two scripts must
 * agree. */
int tb_daemon__boards_blip(struct tb_daemon *d, struct tb_error *err)
{
    uint32_t window = 0;
    int from = -1;
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct board *bd = &d->boards->board[b];
        char *text;
        size_t len;
        uint32_t ms;
        if (!(bd->caps & TB_LINK_CAP_ENDS) || tb_read_file(bd->res.path, &text, &len, NULL) != 0)
            continue; /* no script, or one the link will name as unreadable when it opens */
        struct tb_error e = {0};
        int rc = tb_script_blip_window(text, len, &ms, &e);
        free(text);
        if (rc < 0)
            return tb_error_set(err, TB_ERR_PARSE, "%s board %s: %s", tb_daemon__board_name(b),
                                bd->res.path, e.msg);
        if (rc == 1 && from >= 0 && ms != window)
            return tb_error_set(err, TB_ERR_ARG,
                                "the %s board's script was made for a blip window of %u ms, the "
                                "%s board's for %u ms: one game has one window",
                                tb_daemon__board_name(b), (unsigned)ms, tb_daemon__board_name(from),
                                (unsigned)window);
        if (rc == 1)
            window = ms, from = b;
    }
    if (from < 0 || (int)window == d->cfg->blip_window_ms)
        return TB_OK;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO,
                   "blip window %u ms: the one the boards' scripts were made for (# blip-window), "
                   "not blip_window_ms = %d",
                   (unsigned)window, d->cfg->blip_window_ms);
    d->cfg->blip_window_ms = (int)window;
    return TB_OK;
}

static int boards_open(struct tb_daemon *d, struct tb_error *err)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct board *bd = &d->boards->board[b];
        if (!(bd->caps & TB_LINK_CAP_REPLAYS))
            bd->skip_seq = 0; /* only a script starts over from its first event */
        /* doorgeefschaak: the boards are A and B (a script's board names) */
        const char *name = tb_daemon__mode(d)->script_board[b] ? tb_daemon__mode(d)->script_board[b]
                                                               : tb_daemon__board_name(b);
        int rc = tb_link_open_resource(&bd->link, &bd->res, name, tb_daemon__clock(d), err);
        if (rc != TB_OK) {
            bd->link = NULL;
            return rc;
        }
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: %s%s", tb_daemon__board_name(b),
                       bd->resource, bd->fast ? " (script time)" : "");
        if (bd->skip_seq)
            tb_daemon__log(d, TB_CONFIG_LOG_INFO,
                           "%s board: its first %u script events are already in the journal",
                           tb_daemon__board_name(b), bd->skip_seq);
    }
    return TB_OK;
}

static void boards_close(struct tb_daemon *d)
{
    struct tb_daemon__boards *s = d->boards;
    if (!s)
        return;
    for (int b = 0; b < TBD_BOARDS; b++) {
        tb_link_close(s->board[b].link);
        tb_fifo_free(&s->board[b].q);
    }
    free(s->turn);
    free(s);
    d->boards = NULL;
}

/* A link's event as the one board input type (the journal's board event). */
static void input_of(int b, const struct tb_link_event *ev, struct tb_journal_event *in)
{
    memset(in, 0, sizeof *in);
    in->board = (uint8_t)b;
    in->kind = ev->kind;
    in->arg = ev->kind == TB_LINK_EV_CHOICE ? (uint8_t)ev->choice
              : ev->kind == TB_LINK_EV_BUTTON_DOWN || ev->kind == TB_LINK_EV_BUTTON_UP ? ev->button
                                                                                       : ev->square;
    in->board_seq = ev->has_seq ? ev->seq : 0;
    in->board_ms = ev->board_ms;
    in->host_ms = ev->host_ms;
    in->occupancy = ev->occupancy;
    /* a board that names its pieces, a clock beside the board: kept as read */
    in->piece = ev->piece;
    in->clock_ms[0] = ev->clock_ms[0];
    in->clock_ms[1] = ev->clock_ms[1];
    in->clock_run = ev->clock_run;
    in->has_pieces = ev->has_pieces;
    if (ev->has_pieces)
        memcpy(in->pieces, ev->pieces, sizeof in->pieces);
}

/* Into the game at t, when it happened (real time), or now (script time); never before what the
 * match has had already. */
static void feed_at(struct tb_daemon *d, int b, const struct tb_link_event *ev, uint64_t t)
{
    struct tb_journal_event in;
    input_of(b, ev, &in);
    if (d->virtual_time || d->boards->board[b].fast) {
        t = tb_daemon__match_time(d);
    } else {
        if (t < d->last_mt)
            t = d->last_mt;
        d->last_mt = t;
    }
    tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_BOARD, .board = &in}, t,
                     NULL);
}

/* What a link reports. Its losses, returns and faults go on the record; a fast script's events
 * wait to be merged in script time; the rest goes into the game now. */
static void link_event(struct tb_daemon *d, int b, const struct tb_link_event *ev, uint64_t t)
{
    struct board *bd = &d->boards->board[b];
    const char *name = tb_daemon__board_name(b);
    switch (ev->kind) {
    case TB_LINK_EV_LOST:
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s board lost: %s; waiting for it to come back",
                       name, ev->text);
        feed_at(d, b, ev, t);
        return;
    case TB_LINK_EV_BACK:
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board is back: reading the whole board again",
                       name);
        feed_at(d, b, ev, t);
        return;
    case TB_LINK_EV_FAULT:
        tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s board fault %u: %s", name, ev->fault, ev->text);
        feed_at(d, b, ev, t);
        return;
    case TB_LINK_EV_INFO:
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: %s", name, ev->text);
        return;
    case TB_LINK_EV_END:
        tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s board: end of its script", name);
        return;
    case TB_LINK_EV_CLOCK: /* journaled for the record; the game's clock reads it (docs/dgt.md) */
        tb_daemon__dgt_clock(d, b, ev);
        bd->clock_run = ev->clock_run;
        break;
    default: /* BUTTON_UP too: a long press is told at its release (daemon_vi.c) */
        break;
    }
    if (bd->caps & TB_LINK_CAP_REPLAYS && ev->has_seq && ev->seq <= bd->skip_seq)
        return; /* recovered from the journal already */
    if (bd->fast) {
        if (tb_fifo_push(&bd->q, ev) != TB_OK)
            tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "%s board: too many script events queued", name);
        return;
    }
    feed_at(d, b, ev, t);
}

/* ---- When an event happened, on the daemon's clock ---------------------------------------
 * A loop that stalls (a slow disk, a loaded machine) reads both boards' events at once; fed at
 * the time of the read and in board order, a copy could reach the match before the move it
 * copies, and a touch before its lift. A board that stamps its events (the reed board's ms
 * counter, a script's time) tells how far apart they were: that clock is mapped onto the
 * daemon's by its smallest seen delay, and the events of both boards go into the game in the
 * order they happened. Every stamped event of a read is learnt first, then each is dated: after
 * since_ms (the previous read), by read_ms, never before the board's previous event. An event
 * without the board's stamp happened at read_ms. */

/* How fast the mapping may loosen between readings (a board's clock that runs slow): 1/200. */
#define DRIFT_DIV 200

static int64_t board_time(struct board_when *w, uint32_t ms)
{
    if (!w->known)
        w->board64 = ms;
    else
        w->board64 += (int32_t)(ms - w->last_board_ms); /* a 32-bit counter wraps */
    w->last_board_ms = ms;
    return w->board64;
}

static void when_learn(struct board_when *w, const struct tb_link_event *ev, uint64_t read_ms)
{
    if (!ev->has_seq)
        return;
    int64_t obs = (int64_t)read_ms - board_time(w, ev->board_ms);
    if (!w->known || obs < w->offset + (int64_t)(read_ms - w->offset_at) / DRIFT_DIV)
        w->offset = obs;
    else
        w->offset += (int64_t)(read_ms - w->offset_at) / DRIFT_DIV;
    w->offset_at = read_ms;
    w->known = true;
}

static uint64_t when_at(struct board_when *w, const struct tb_link_event *ev, uint64_t since_ms,
                        uint64_t read_ms)
{
    uint64_t t = read_ms;
    if (ev->has_seq && w->known) {
        int64_t back = w->board64 - (int32_t)(w->last_board_ms - ev->board_ms);
        int64_t est = back + w->offset;
        t = est < 0 ? 0 : (uint64_t)est;
    }
    /* it came after the previous read, not after this one, and never before its board's last */
    if (t < since_ms)
        t = since_ms;
    if (t < w->last)
        t = w->last;
    if (t > read_ms)
        t = read_ms;
    w->last = t;
    return t;
}

static int turn_push(struct tb_daemon__boards *s, int b, const struct tb_link_event *ev)
{
    if (s->turn_n == s->turn_cap) {
        size_t cap = s->turn_cap ? s->turn_cap * 2 : 64;
        struct timed *p = realloc(s->turn, cap * sizeof *p);
        if (!p)
            return TB_ERR_MEM;
        s->turn = p;
        s->turn_cap = cap;
    }
    s->turn[s->turn_n++] = (struct timed){.ev = *ev, .board = b};
    return TB_OK;
}

/* The real-time boards' events of this read, in the order they happened (read order on a tie;
 * a board's own order is kept: its times never go back). */
static void turn_feed(struct tb_daemon *d, uint64_t now)
{
    struct tb_daemon__boards *s = d->boards;
    struct timed *e = s->turn;
    size_t n = s->turn_n;
    for (size_t i = 0; i < n; i++)
        when_learn(&s->board[e[i].board].when, &e[i].ev, now);
    for (size_t i = 0; i < n; i++)
        e[i].t = when_at(&s->board[e[i].board].when, &e[i].ev, s->last_read, now);
    for (size_t i = 1; i < n; i++) { /* stable: usually a handful, already in order */
        struct timed x = e[i];
        size_t j = i;
        for (; j > 0 && e[j - 1].t > x.t; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
    for (size_t i = 0; i < n; i++)
        link_event(d, e[i].board, &e[i].ev, e[i].t);
    s->turn_n = 0;
    s->last_read = now;
}

static int boards_read(struct tb_daemon *d, uint64_t now)
{
    struct tb_link_event ev[READ_BATCH];
    int rc = TB_OK;
    d->boards->turn_n = 0;
    for (int b = 0; b < TBD_BOARDS && rc == TB_OK; b++) {
        struct board *bd = &d->boards->board[b];
        if (!bd->link)
            continue;
        for (int guard = 0; guard < 100000; guard++) {
            struct tb_error err = {0};
            int n = tb_link_read(bd->link, now, ev, READ_BATCH, &err);
            if (n < 0) {
                tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "%s board: %s", tb_daemon__board_name(b),
                               err.msg);
                rc = n;
                break;
            }
            for (int i = 0; i < n; i++) {
                if (bd->fast) {
                    link_event(d, b, &ev[i], now);
                } else if (turn_push(d->boards, b, &ev[i]) != TB_OK) {
                    turn_feed(d, now); /* no room to merge: what is read goes in now */
                    link_event(d, b, &ev[i], now);
                }
            }
            if (n < READ_BATCH && !(bd->fast && n > 0))
                break;
        }
    }
    turn_feed(d, now);
    return rc;
}

bool tb_daemon__boards_paused(const struct tb_daemon *d)
{
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    /* the scripts wait for the arbiter, or for the journal to be writable again */
    return d->virtual_time && (st.state == TB_MATCH_BLOCKED || tb_daemon__journal_held(d));
}

bool tb_daemon__boards_pending(const struct tb_daemon *d)
{
    for (int b = 0; b < TBD_BOARDS; b++)
        if (tb_fifo_count(&board_at(d, b)->q))
            return true;
    return false;
}

bool tb_daemon__boards_all_ended(const struct tb_daemon *d)
{
    int scripts = 0;
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct board *bd = board_at(d, b);
        if (!(bd->caps & TB_LINK_CAP_ENDS))
            continue;
        scripts++;
        struct tb_link_stats st;
        tb_link_stats(bd->link, &st);
        if (!st.ended)
            return false;
    }
    return scripts > 0;
}

static uint64_t boards_deadline(struct tb_daemon *d)
{
    uint64_t dl = TB_LINK_NO_DEADLINE;
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct tb_link *link = board_at(d, b)->link;
        if (!link)
            continue;
        uint64_t x = tb_link_deadline(link);
        if (x < dl)
            dl = x;
    }
    return dl;
}

/* Merges the fast scripts' events in script time (board order on a tie) into the match. */
int tb_daemon__boards_feed(struct tb_daemon *d)
{
    int fed = 0;
    while (!tb_daemon__boards_paused(d)) {
        int best = -1;
        for (int b = 0; b < TBD_BOARDS; b++) {
            struct board *bd = &d->boards->board[b];
            if (!bd->fast)
                continue;
            const struct tb_link_event *next = tb_fifo_at(&bd->q, 0);
            if (!next) {
                struct tb_link_stats st;
                tb_link_stats(bd->link, &st);
                if (!st.ended)
                    return fed; /* its next event could come first */
                continue;
            }
            const struct tb_link_event *first =
                best < 0 ? NULL : tb_fifo_at(&d->boards->board[best].q, 0);
            if (!first || next->board_ms < first->board_ms)
                best = b;
        }
        if (best < 0)
            return fed;
        struct tb_fifo *q = &d->boards->board[best].q;
        struct tb_link_event ev = *(const struct tb_link_event *)tb_fifo_at(q, 0);
        if (ev.board_ms > d->vnow)
            d->vnow = ev.board_ms;
        /* Decisions due before this event come first; one may stop play (a mismatch). */
        tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_TIME},
                         tb_daemon__match_time(d), NULL);
        if (tb_daemon__boards_paused(d))
            break;
        tb_fifo_pop(q, NULL);
        feed_at(d, best, &ev, 0);
        fed++;
    }
    return fed;
}

/* The position on a board's own scoresheet after its first plies moves. */
static void board_position(const struct tb_daemon *d, int b, int plies, tb_chess_pos *pos)
{
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    int n = tb_match_history(tb_daemon__match(d), b, moves, TB_CHESS_GAME_MAX_PLIES);
    *pos = tb_match_game(tb_daemon__match(d))->start;
    for (int i = 0; i < n && i < plies && i < TB_CHESS_GAME_MAX_PLIES; i++) {
        tb_chess_undo u;
        if (!tb_chess_is_legal(pos, moves[i]))
            break;
        tb_chess_make(pos, moves[i], &u);
    }
}

/* D.2.10.1: a move typed for a keys: board goes to the match's typed path, which takes it at
 * once or refuses it (a typing error: nothing changes, nothing is journaled). The match is asked
 * first; the journal has the move before any of its consequences (the session drains after). */
int tb_daemon__typed_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                          struct tb_error *err)
{
    int b = in->which;
    const char *text = in->text;
    int before = tb_match_history(tb_daemon__match(d), b, NULL, 0);
    int rc = tb_match_typed_move(tb_daemon__match(d), b, text, t, err);
    if (rc != TB_OK)
        return rc;
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    int n = tb_match_history(tb_daemon__match(d), b, moves, TB_CHESS_GAME_MAX_PLIES);
    struct tb_journal_decision dec = {.board = (uint8_t)b};
    snprintf(dec.who, sizeof dec.who, "assistant");
    if (n > before && n <= TB_CHESS_GAME_MAX_PLIES) {
        tb_chess_pos pos;
        board_position(d, b, n - 1, &pos);
        tb_chess_move_to_uci(&pos, moves[n - 1], dec.text, sizeof dec.text);
    }
    tb_daemon__log(d, tb_daemon__fx(d)->info, "%s board: the assistant typed %s (%s)",
                   tb_daemon__board_name(b), text, dec.text);
    tb_daemon__fx(d)->store->append_decision(d, TB_JOURNAL_TYPED_MOVE, t, &dec, true);
    return TB_OK;
}

int tb_daemon__typed_move(struct tb_daemon *d, int b, const char *text, struct tb_error *err)
{
    struct tb_daemon__input in = {.kind = TB_DAEMON__IN_TYPED, .which = b, .text = text};
    return tb_daemon__input(d, &in, tb_daemon__match_time(d), err); /* answered once on disk */
}

/* ---- What the other parts ask of a board (daemon_boards.h) ------------------------------- */

struct tb_link *tb_daemon__board_link(const struct tb_daemon *d, int board)
{
    return board_at(d, board)->link;
}

unsigned tb_daemon__board_caps(const struct tb_daemon *d, int board)
{
    return board_at(d, board)->caps;
}

const char *tb_daemon__board_resource(const struct tb_daemon *d, int board)
{
    return board_at(d, board)->resource;
}

unsigned long tb_daemon__board_events(const struct tb_daemon *d, int board)
{
    return board_at(d, board)->events;
}

uint8_t tb_daemon__board_clock_run(const struct tb_daemon *d, int board)
{
    return board_at(d, board)->clock_run;
}

/* The configuration's colours, as the match has them (they do not change while it runs). */
int tb_daemon__board_of_color(const struct tb_daemon *d, int color)
{
    return (int)d->cfg->player[1].colour == color ? 1 : 0;
}

void tb_daemon__board_fed(struct tb_daemon *d, int board)
{
    if (d->boards && board >= 0 && board < TBD_BOARDS)
        d->boards->board[board].events++;
}

void tb_daemon__board_recovered(struct tb_daemon *d, int board, uint32_t seq)
{
    if (d->boards && board >= 0 && board < TBD_BOARDS && seq > d->boards->board[board].skip_seq)
        d->boards->board[board].skip_seq = seq;
}

/* The links' fds wake the loop; each turn reads every link (a script's or a reconnect's time
 * has no fd), so the slice itself is not looked at. */
static int boards_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    int n = 0;
    for (int b = 0; b < TBD_BOARDS && n < max; b++) {
        const struct tb_link *link = board_at(d, b)->link;
        int fd = link ? tb_link_fd(link) : -1;
        if (fd >= 0)
            p[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    return n;
}

static int boards_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    (void)p;
    (void)n;
    return boards_read(d, tb_daemon__clock(d));
}

/* status: one line per board (its colour, resource, link, events, bad frames, reconnects). */
static void boards_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct board *bd = &d->boards->board[b];
        struct tb_link_stats ls = {0};
        if (bd->link)
            tb_link_stats(bd->link, &ls);
        /* reed:id= and usb: find their tty: the organiser sees which one */
        bool on = ls.device[0] && !strstr(bd->resource, ls.device);
        char line[TB_CONFIG_PATH_MAX + TB_LINK_DEVICE_MAX + 200];
        int n = snprintf(
            line, sizeof line, "%s: %s, %s, %s%s%s%s, %lu events, %u bad frames, %u reconnects\n",
            tb_daemon__board_name(b),
            tb_daemon__color_name(tb_daemon__match_config(d)->board[b].color), bd->resource,
            !ls.connected ? "NOT CONNECTED"
            : ls.unread   ? "connected, waiting for its first reading"
                          : "connected",
            on ? " on " : "", on ? ls.device : "", ls.ended ? ", script ended" : "", bd->events,
            ls.bad_frames, ls.reconnects);
        if (n > 0)
            tb_daemon__buf_put(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    }
}

const struct tb_daemon__part tb_daemon__part_boards = {
    .name = "boards",
    .open = boards_open,
    .close = boards_close,
    .pollfds = boards_pollfds,
    .handle = boards_handle,
    .deadline = boards_deadline,
    .status = boards_status,
};
