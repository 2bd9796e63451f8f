/* daemon_braille.c - each player's braille display through BRLTTY (docs/braille.md): the last
 * move and what the player must do (the words they hear), the scoresheet browsed with the
 * display's keys, the clock on request. Optional: a player without `braille` in the
 * configuration has none; a BRLTTY that cannot be reached is said once in the log and tried
 * again every TBD_BRAILLE_RETRY_MS, and the game goes on meanwhile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_braille.h"
#include "daemon_shell.h"
#include "daemon_session.h"
#include "daemon_vi.h"
#include "daemon_voice.h"
#include "tb_braille.h"

#define TBD_BRAILLE_RETRY_MS 10000

/* One player's display. */
struct brl {
    bool on;                            /* the player has one (`braille` in the configuration) */
    struct tb_braille_display *display; /* NULL while BRLTTY is away */
    char host[TB_CONFIG_PATH_MAX];      /* "" = BrlAPI's default */
    char auth[TB_CONFIG_PATH_MAX];      /* "" = BrlAPI's default */
    uint64_t retry_at;
    bool said; /* "unavailable" logged since the display was last up */
    char move[512], state[TB_BRAILLE_TEXT_MAX + 1];
    bool copying; /* the state asks for the copy of the last move: it names the move itself */
};

/* The braille part's state, allocated when it opens (after recovery, daemon_parts.c). */
struct tb_daemon__braille {
    struct brl player[TBD_BOARDS];
};

/* Board b's display; NULL when the player has none or the part is not open. */
static struct brl *brl_of(const struct tb_daemon *d, int b)
{
    struct brl *br = d->braille && b >= 0 && b < TBD_BOARDS ? &d->braille->player[b] : NULL;
    return br && br->on ? br : NULL;
}

static void show(struct tb_daemon *d, int b)
{
    struct brl *br = brl_of(d, b);
    if (!br || !br->display)
        return;
    struct tb_braille_view *v = tb_braille_display_view(br->display);
    tb_braille_view_set_game(v, tb_daemon__pack(d, b), tb_match_game(tb_daemon__match(d)),
                             TB_VOICE_LONG);
    tb_braille_view_last_move(v, br->copying ? "" : br->move);
    tb_braille_view_state(v, br->state);
    tb_braille_display_update(br->display);
}

static void try_open(struct tb_daemon *d, int b)
{
    struct brl *br = brl_of(d, b);
    struct tb_error err = {0};
    int rc = tb_braille_display_open(&tb_braille_brlapi, br->host[0] ? br->host : NULL,
                                     br->auth[0] ? br->auth : NULL, &br->display, &err);
    if (rc != TB_OK) {
        br->display = NULL;
        br->retry_at = tb_daemon__clock(d) + TBD_BRAILLE_RETRY_MS;
        if (!br->said) /* once: the game goes on without braille until BRLTTY is there */
            tb_daemon__log(d, TB_CONFIG_LOG_WARN, "%s player: no braille display: %s",
                           tb_daemon__board_name(b), err.msg);
        br->said = true;
        return;
    }
    br->said = false;
    br->retry_at = 0;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "%s player: braille display through BRLTTY (%d cells)",
                   tb_daemon__board_name(b),
                   tb_braille_view_cells(tb_braille_display_view(br->display)));
    show(d, b);
}

static int braille_open(struct tb_daemon *d, struct tb_error *err)
{
    (void)err; /* optional: a display that cannot be opened is said and tried again */
    if (!(d->braille = calloc(1, sizeof *d->braille))) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "braille: out of memory");
        return TB_OK;
    }
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct tb_config_player *pc = &d->cfg->player[b];
        struct brl *br = &d->braille->player[b];
        if (!pc->braille[0])
            continue;
        const char *host = strchr(pc->braille, ':');
        snprintf(br->host, sizeof br->host, "%s", host ? host + 1 : "");
        snprintf(br->auth, sizeof br->auth, "%s", pc->braille_auth);
        br->on = true;
        try_open(d, b);
    }
    return TB_OK;
}

static void braille_close(struct tb_daemon *d)
{
    if (!d->braille)
        return;
    for (int b = 0; b < TBD_BOARDS; b++)
        tb_braille_display_free(d->braille->player[b].display);
    free(d->braille);
    d->braille = NULL;
}

static uint64_t braille_deadline(struct tb_daemon *d)
{
    uint64_t when = UINT64_MAX;
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct brl *br = brl_of(d, b);
        if (br && !br->display && br->retry_at < when)
            when = br->retry_at;
    }
    return when;
}

static void braille_retry(struct tb_daemon *d, uint64_t now)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        const struct brl *br = brl_of(d, b);
        if (br && !br->display && br->retry_at <= now)
            try_open(d, b);
    }
}

static int braille_pollfds(struct tb_daemon *d, struct pollfd *p, int max)
{
    int n = 0;
    for (int b = 0; b < TBD_BOARDS && n < max; b++) {
        const struct brl *br = brl_of(d, b);
        int fd = br && br->display ? tb_braille_display_fd(br->display) : -1;
        p[n++] = (struct pollfd){.fd = fd, .events = POLLIN}; /* -1: poll skips it */
    }
    return n;
}

/* The clock's words, as the CLOCK button says them (D.2.6). */
static void clock_text(struct tb_daemon *d, int b, char *buf, size_t len)
{
    struct tb_match_status st;
    tb_match_status(tb_daemon__match(d), &st);
    struct tb_voice_msg_args a = {.board = tb_daemon__match_config(d)->board[b].color,
                                  .white_ms = (long)tb_daemon__vi_time_used(d, TB_CHESS_WHITE),
                                  .black_ms = (long)tb_daemon__vi_time_used(d, TB_CHESS_BLACK),
                                  .n = st.plies / 2};
    if (tb_voice_phrase_msg(tb_daemon__pack(d, b), TB_VOICE_MSG_CLOCK, &a, buf, len) < 0)
        buf[0] = '\0';
}

static int braille_handle(struct tb_daemon *d, const struct pollfd *p, int n)
{
    for (int b = 0; b < TBD_BOARDS && b < n; b++) {
        struct brl *br = brl_of(d, b);
        if (!br || !br->display || p[b].fd < 0 || !p[b].revents)
            continue;
        int rc = tb_braille_display_poll(br->display);
        if (rc == TB_BRAILLE_WANT_CLOCK) {
            char text[1024];
            clock_text(d, b, text, sizeof text);
            tb_braille_view_clock(tb_braille_display_view(br->display), text);
            tb_braille_display_update(br->display);
        } else if (rc < 0) { /* BRLTTY went away: said once, tried again later */
            tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                           "%s player: the braille display is gone (BRLTTY stopped); trying "
                           "again every %d s",
                           tb_daemon__board_name(b), TBD_BRAILLE_RETRY_MS / 1000);
            br->said = true;
            tb_braille_display_free(br->display);
            br->display = NULL;
            br->retry_at = tb_daemon__clock(d) + TBD_BRAILLE_RETRY_MS;
        }
    }
    braille_retry(d, tb_daemon__clock(d)); /* a display gone: its time to try again */
    return TB_OK;
}

void tb_daemon__braille_said(struct tb_daemon *d, int b, int what, const char *text)
{
    struct brl *br = brl_of(d, b);
    if (!br)
        return;
    br->copying = false;
    if (what == TBD_BRAILLE_MESSAGE) {
        snprintf(br->state, sizeof br->state, "%s", text);
    } else { /* a new move: what the player had to do before is done */
        snprintf(br->move, sizeof br->move, "%s", text);
        br->state[0] = '\0';
    }
    struct tb_voice_msg_args a = {.move = text};
    if (what == TBD_BRAILLE_TO_COPY && /* D.2.1: waiting for the player's copy */
        tb_voice_phrase_msg(tb_daemon__pack(d, b), TB_VOICE_MSG_REPLICATE, &a, br->state,
                            sizeof br->state) > 0)
        br->copying = true;
    show(d, b);
}

void tb_daemon__braille_game(struct tb_daemon *d)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct brl *br = brl_of(d, b);
        if (!br)
            continue;
        struct tb_match_status st;
        tb_match_status(tb_daemon__match(d), &st);
        if (st.state == TB_MATCH_IN_SYNC || st.state == TB_MATCH_WAITING) {
            br->state[0] = '\0'; /* play goes on: nothing left to put right or to copy */
            br->copying = false;
        }
        show(d, b);
    }
}

const struct tb_daemon__part tb_daemon__part_braille = {
    .name = "braille",
    .open = braille_open,
    .close = braille_close,
    .pollfds = braille_pollfds,
    .handle = braille_handle,
    .deadline = braille_deadline,
};
