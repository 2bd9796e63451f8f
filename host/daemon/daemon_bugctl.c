/* daemon_bugctl.c - the control requests of doorgeefschaak ([bughouse] enabled;
 * docs/doorgeefschaak.md, "Running a match with twinboardd"): status of both games, hand, bpgn,
 * resign, choose, accept, replace (article 7, daemon_bugirr.c) and move a|b: the handlers of their
 * rows (TB_CTL_VERBS). Which mode takes which request is the rows' to say (daemon_ctl.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_bug.h"
#include "daemon_ctl.h" /* TBD_ANSWERED, the handlers of its requests */
#include "daemon_games.h"
#include "daemon_inputs.h"
#include "daemon_mode.h"
#include "daemon_session.h"

static void reply(struct tb_daemon__buf *out, int rc, const char *text)
{
    char line[TB_CTL_LINE_MAX + 600];
    int n = rc == TB_OK ? tb_ctl_format_ok(line, sizeof line, text)
                        : tb_ctl_format_error(line, sizeof line, rc, text);
    if (n > 0)
        tb_daemon__buf_put(out, line, (size_t)n);
}

/* new-game: the finished match's BPGN and journal kept, a fresh journal, a fresh match from the
 * standard array with empty hands and clocks not started (the arbiter has set both boards up). */
int tb_daemon__bug_new_game(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err)
{
    struct tb_daemon__bug *g = d->bug;
    tb_bugmatch *fresh;
    int rc = tb_bugmatch_new(&g->mcfg, &fresh, err);
    if (rc != TB_OK)
        return rc;
    tb_daemon__bug_keep(d);
    if ((rc = tb_daemon__game_next(d, req, tb_daemon__match_time(d), err)) != TB_OK) {
        tb_bugmatch_free(fresh);
        return rc;
    }
    tb_bugmatch_free(g->m);
    g->m = fresh;
    g->kept = false;
    tb_daemon__log(d, TB_CONFIG_LOG_INFO, "doorgeefschaak: a new match (%s)",
                   tb_daemon__game_name(d));
    return TB_OK;
}

/* "1 knight, 2 pawns" or "nothing". */
static void hand_text(const uint8_t pool[6], char *buf, size_t len)
{
    static const char *const names[6][2] = {
        {"", ""},          {"pawn", "pawns"},  {"knight", "knights"}, {"bishop", "bishops"},
        {"rook", "rooks"}, {"queen", "queens"}};
    size_t u = 0;
    buf[0] = '\0';
    for (int p = TB_CHESS_QUEEN; p >= TB_CHESS_PAWN && u < len; p--)
        if (pool[p])
            u += (size_t)snprintf(buf + u, len - u, "%s%u %s", u ? ", " : "", pool[p],
                                  names[p][pool[p] > 1]);
    if (!u)
        snprintf(buf, len, "nothing");
}

/* Both games: positions, side to move, results, clocks, the four hands. */
void tb_daemon__bug_status(struct tb_daemon *d, struct tb_daemon__buf *out)
{
    tb_bugmatch *m = d->bug->m;
    const tb_bug_record *rec = tb_bugmatch_record(m);
    uint64_t now = tb_daemon__match_time(d);
    char t[4096];
    size_t u = 0;
/* appends to t, never past its end */
#define put(...) (u += (size_t)snprintf(t + u, u < sizeof t ? sizeof t - u : 0, __VA_ARGS__))
    put("mode: doorgeefschaak (bughouse), %d plies, %s\n", rec->nplies,
        tb_bugmatch_over(m) ? "both games over" : "playing");
    for (int b = 0; b < TB_BUGMATCH_BOARDS; b++) {
        char fen[TB_BUG_FEN_MAX];
        tb_bug_pos_to_fen(&rec->cur[b], fen, sizeof fen);
        const struct tb_bug_verdict *v = &rec->verdict[b];
        struct tb_link_stats ls = {0};
        if (tb_daemon__board_link(d, b))
            tb_link_stats(tb_daemon__board_link(d, b), &ls);
        put("board %c: %s, %s%s; %s\n", 'A' + b, tb_daemon__board_resource(d, b),
            !ls.connected ? "NOT CONNECTED"
            : ls.unread   ? "connected, waiting for its first reading"
                          : "connected",
            ls.ended ? ", script ended" : "", fen);
        if (v->result != TB_BUG_ONGOING)
            put("board %c result: %s (%s, %s)\n", 'A' + b, tb_bug_result_text(v->result),
                tb_bug_reason_text(v->reason), v->article);
        else
            put("board %c: %s to move\n", 'A' + b, tb_daemon__color_name(rec->cur[b].chess.side));
        char irr[300]; /* article 7 (daemon_bugirr.c) */
        tb_daemon__bug_irregular_status(d, b, irr, sizeof irr);
        if (irr[0])
            put("%s\n", irr);
        const tb_clock *c = tb_bugmatch_clock(m, b);
        char w[32], k[32];
        tb_clock_format_clk(tb_clock_remaining(c, TB_CHESS_WHITE, now), w, sizeof w);
        tb_clock_format_clk(tb_clock_remaining(c, TB_CHESS_BLACK, now), k, sizeof k);
        put("clock %c: White %s, Black %s, %s\n", 'A' + b, w, k,
            c->state == TB_CLOCK_RUNNING ? (c->turn ? "Black's runs" : "White's runs")
            : c->state == TB_CLOCK_READY ? "not started"
                                         : "stopped");
    }
    for (int s = 0; s < TB_BUGMATCH_SEATS; s++) {
        uint8_t pool[6];
        char hand[128];
        tb_bugmatch_pool(m, s, pool);
        hand_text(pool, hand, sizeof hand);
        const char *name = d->cfg->bughouse.name[s];
        put("hand %s%s%s%s: %s\n", tb_daemon__bug_seat_name(s), name[0] ? " (" : "", name,
            name[0] ? ")" : "", hand);
    }
    struct tb_error err = {0};
    put("journal: %s\n", tb_daemon__journal_stopped(d, &err) ? err.msg : "ok");
#undef put
    tb_daemon__data(out, "status", t);
}

/* The request's part in the session: taken by the match, its record appended (a refused one
 * changes nothing and is not journaled). */
int tb_daemon__bug_request_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                                struct tb_error *err)
{
    const struct tb_journal_bug_input *bin = in->bug;
    char text[TB_JOURNAL_BUG_TEXT_MAX];
    tb_journal_bug_input_format(bin, text, sizeof text);
    int rc = tb_daemon__bug_input(d, bin, t, err);
    if (rc == TB_OK) {
        tb_daemon__fx(d)->store->append_bug_input(d, t, bin, true);
        tb_daemon__log(d, tb_daemon__fx(d)->info, "control: %s", text); /* recovery: at debug */
    }
    return rc;
}

/* An input from a request: on the journal before its outputs are carried out, answered once its
 * record is on disk (the session, daemon_session.c). */
static void take(struct tb_daemon *d, const struct tb_journal_bug_input *bin,
                 struct tb_daemon__buf *out, const char *answer)
{
    struct tb_error err = {0};
    char text[TB_JOURNAL_BUG_TEXT_MAX];
    tb_journal_bug_input_format(bin, text, sizeof text);
    struct tb_daemon__input in = {.kind = TB_DAEMON__IN_REQUEST, .bug = bin};
    int rc = tb_daemon__input(d, &in, tb_daemon__match_time(d), &err);
    if (rc == TB_ERR_AGAIN && tb_daemon__ticket_id(d)) {
        tb_daemon__ticket_say(d, answer);
        out->ticket = tb_daemon__ticket_id(d);
        return;
    }
    if (rc != TB_OK && rc != TB_ERR_AGAIN) {
        if (rc != TB_ERR_STATE || !tb_daemon__jstopped(d))
            tb_daemon__log(d, TB_CONFIG_LOG_INFO, "control: %s refused: %s", text, err.msg);
        reply(out, rc, err.msg[0] ? err.msg : "not possible now");
        return;
    }
    reply(out, TB_OK, answer);
}

/* 2.6: what the seat holds, answered here and said to the seat */
int tb_daemon__ctl_hand(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)err;
    uint8_t pool[6];
    char hand[128], answer[200];
    tb_bugmatch_pool(d->bug->m, req->seat, pool);
    hand_text(pool, hand, sizeof hand);
    snprintf(answer, sizeof answer, "%s holds %s", tb_daemon__bug_seat_name(req->seat), hand);
    struct tb_journal_bug_input in = {
        .verb = TB_JOURNAL_BUG_HAND, .board = TB_JOURNAL_BOARD_NONE, .seat = (uint8_t)req->seat};
    take(d, &in, out, answer);
    return TBD_ANSWERED;
}

int tb_daemon__ctl_bpgn(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)req;
    char *bpgn = NULL;
    int rc = tb_daemon__bug_bpgn(d, &bpgn);
    if (rc >= 0)
        tb_daemon__data(out, "bpgn", bpgn);
    free(bpgn);
    return rc < 0 ? tb_error_set(err, TB_ERR_STATE, "the BPGN cannot be written") : TBD_ANSWERED;
}

/* resign (5.2), choose, and article 7's accept and replace (7.4): an input of a board */
int tb_daemon__ctl_bug_input(struct tb_daemon *d, const struct tb_ctl_request *req,
                             struct tb_daemon__buf *out, struct tb_error *err)
{
    (void)err;
    struct tb_journal_bug_input in = {.board = (uint8_t)req->board};
    if (req->verb == TB_CTL_RESIGN) {
        in.verb = TB_JOURNAL_BUG_RESIGN;
        in.side = (uint8_t)req->side;
    } else if (req->verb == TB_CTL_CHOOSE) {
        in.verb = TB_JOURNAL_BUG_CHOOSE;
        in.piece = req->piece;
    } else {
        in.verb = req->verb == TB_CTL_ACCEPT ? TB_JOURNAL_BUG_ACCEPT : TB_JOURNAL_BUG_REPLACE;
    }
    take(d, &in, out, NULL);
    return TBD_ANSWERED;
}

int tb_daemon__bug_move(struct tb_daemon *d, const struct tb_ctl_request *req,
                        struct tb_daemon__buf *out, struct tb_error *err)
{
    if (!(tb_daemon__board_caps(d, req->board) & TB_LINK_CAP_TYPED))
        return tb_error_set(err, TB_ERR_SUPP,
                            "board %c is %s, it has sensors: only a keys: board takes typed moves",
                            'A' + req->board, tb_daemon__board_resource(d, req->board));
    struct tb_journal_bug_input in = {.verb = TB_JOURNAL_BUG_MOVE, .board = (uint8_t)req->board};
    snprintf(in.move, sizeof in.move, "%s", req->text);
    take(d, &in, out, NULL);
    return TBD_ANSWERED;
}
