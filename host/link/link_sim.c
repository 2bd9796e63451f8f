/* link_sim.c - sim: a board played from an event script (docs/event-script.md).
 *
 * The script's lines for this board (its name: "vi", "sighted") are loaded at open; in real
 * time each is due at open time + its ms, with ?speed=fast all are due at once. The daemon
 * sleeps until tb_link_deadline(). Board sequence numbers count the delivered events, so the
 * daemon treats a sim board like a reed board. A snapshot request is answered from the
 * occupancy the events imply, starting from the initial position (pieces on ranks 1, 2, 7, 8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_internal.h"
#include "tb_file.h"
#include "tb_script.h"

#define START_OCCUPANCY 0xffff00000000ffffull

struct sim {
    struct tb_script_list script;
    size_t next;
    uint64_t start_ms;
    bool fast, end_sent, snapshot_wanted;
    uint16_t seq;
    uint64_t occupancy;
    const char *board;
    long bad_line; /* first line with a button this link does not know */
    char bad_button[TB_SCRIPT_NAME_MAX];
};

static int collect(void *user, const struct tb_script_event *ev, long line)
{
    struct sim *s = user;
    if (ev->kind == TB_SCRIPT_EXPECT || (s->board[0] && strcmp(ev->board, s->board) != 0))
        return 0;
    bool resign = (ev->kind == TB_SCRIPT_PRESS || ev->kind == TB_SCRIPT_RELEASE) &&
                  strcmp(ev->button, "resign") == 0;
    if (resign && ev->kind == TB_SCRIPT_RELEASE)
        return 0; /* the resignation is its press */
    if ((ev->kind == TB_SCRIPT_PRESS || ev->kind == TB_SCRIPT_RELEASE) && !resign &&
        tb_link_button_parse(ev->button) < 0 && !s->bad_line) {
        s->bad_line = line;
        snprintf(s->bad_button, sizeof s->bad_button, "%s", ev->button);
    }
    return tb_script_list_push(&s->script, ev);
}

static int sim_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                    struct tb_error *err)
{
    struct sim *s = calloc(1, sizeof *s);
    if (!s)
        return tb_error_set(err, TB_ERR_MEM, "sim: out of memory");
    tb_link_set_priv(link, s);
    s->board = tb_link__board_name(link);
    s->fast = res->fast;
    s->start_ms = now_ms;
    s->occupancy = START_OCCUPANCY;
    char *text;
    size_t len;
    struct tb_error perr = {0};
    int rc = tb_read_file(res->path, &text, &len, &perr);
    if (rc != TB_OK)
        return tb_error_set(err, rc, "sim: %s", perr.msg);
    rc = tb_script_parse_buffer(text, len, collect, s, &perr);
    free(text);
    if (rc == TB_ERR_PARSE)
        return tb_error_set_at(err, rc, perr.line, perr.column, "%s:%ld: %s", res->path, perr.line,
                               perr.msg);
    if (rc != TB_OK)
        return tb_error_set(err, rc, "sim: out of memory reading %s", res->path);
    if (s->bad_line)
        return tb_error_set_at(err, TB_ERR_PARSE, s->bad_line, 0,
                               "%s:%ld: unknown button '%s' (expected promote, repeat, clock, "
                               "arbiter or resign)",
                               res->path, s->bad_line, s->bad_button);
    return TB_OK;
}

static uint64_t due(const struct sim *s, size_t i)
{
    return s->fast ? 0 : s->start_ms + s->script.ev[i].ms;
}

static uint64_t sim_deadline(const struct tb_link *link)
{
    const struct sim *s = tb_link_priv(link);
    if (s->snapshot_wanted)
        return 0;
    if (s->next < s->script.n)
        return due(s, s->next);
    return s->end_sent ? TB_LINK_NO_DEADLINE : 0;
}

static void convert(struct sim *s, const struct tb_script_event *in, struct tb_link_event *out)
{
    memset(out, 0, sizeof *out);
    out->has_seq = true;
    out->seq = ++s->seq;
    out->board_ms = (uint32_t)in->ms;
    switch (in->kind) {
    case TB_SCRIPT_LIFT:
        out->kind = TB_LINK_EV_LIFT;
        out->square = in->square;
        s->occupancy &= ~(1ull << in->square);
        break;
    case TB_SCRIPT_PLACE:
        out->kind = TB_LINK_EV_PLACE;
        out->square = in->square;
        s->occupancy |= 1ull << in->square;
        break;
    case TB_SCRIPT_PRESS:
    case TB_SCRIPT_RELEASE:
        if (strcmp(in->button, "resign") == 0) { /* a player's resignation, not a button */
            out->kind = TB_LINK_EV_RESIGN;
            break;
        }
        out->kind = in->kind == TB_SCRIPT_PRESS ? TB_LINK_EV_BUTTON_DOWN : TB_LINK_EV_BUTTON_UP;
        out->button = (uint8_t)tb_link_button_parse(in->button);
        break;
    case TB_SCRIPT_CLOCK: /* a clock beside the board read */
        out->kind = TB_LINK_EV_CLOCK;
        out->clock_ms[0] = in->clock_ms[0];
        out->clock_ms[1] = in->clock_ms[1];
        out->clock_run = in->clock_run;
        break;
    default: /* TB_SCRIPT_CHOOSE: the only other kind collected */
        out->kind = TB_LINK_EV_CHOICE;
        out->choice = in->piece;
        break;
    }
}

static int sim_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                    struct tb_error *err)
{
    (void)err;
    struct sim *s = tb_link_priv(link);
    int n = 0;
    if (s->snapshot_wanted && n < max) {
        s->snapshot_wanted = false;
        ev[n] = (struct tb_link_event){
            .kind = TB_LINK_EV_SNAPSHOT, .has_seq = true, .seq = s->seq, .occupancy = s->occupancy};
        ev[n].board_ms = (uint32_t)(now_ms - s->start_ms);
        ev[n++].host_ms = now_ms;
    }
    while (n < max && s->next < s->script.n && due(s, s->next) <= now_ms) {
        convert(s, &s->script.ev[s->next++], &ev[n]);
        ev[n++].host_ms = now_ms;
    }
    if (n < max && s->next == s->script.n && !s->end_sent) {
        s->end_sent = true;
        ev[n] = (struct tb_link_event){.kind = TB_LINK_EV_END, .host_ms = now_ms};
        snprintf(ev[n++].text, TB_LINK_TEXT_MAX, "%zu events played", s->script.n);
    }
    return n;
}

static int sim_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    (void)err;
    struct sim *s = tb_link_priv(link);
    s->snapshot_wanted = true;
    return TB_OK;
}

static void sim_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct sim *s = tb_link_priv(link);
    st->connected = true;
    st->ended = s->end_sent;
}

static void sim_close(struct tb_link *link)
{
    struct sim *s = tb_link_priv(link);
    if (s)
        tb_script_list_free(&s->script);
    free(s);
    tb_link_set_priv(link, NULL);
}

/* A script replays from its first event when reopened; played fast it runs on its own time. */
static unsigned sim_caps(const struct tb_link_resource *res)
{
    return TB_LINK_CAP_REPLAYS | TB_LINK_CAP_ENDS |
           (res->fast ? TB_LINK_CAP_SCRIPT_TIME : TB_LINK_CAP_REAL_TIME);
}

const struct tb_link_ops tb_link__sim_ops = {
    .scheme = "sim",
    .caps = sim_caps,
    .open = sim_open,
    .deadline = sim_deadline,
    .read = sim_read,
    .request_snapshot = sim_request_snapshot,
    .stats = sim_stats,
    .close = sim_close,
};
