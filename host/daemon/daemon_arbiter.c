/* daemon_arbiter.c - requests that change the game. D.2.9 corrections are the arbiter's: each is
 * checked first (a refused request changes nothing and is not journaled), then journaled and
 * synced, then handed to the match. Recovery calls the same functions with the journal quiet. */
#include <stdio.h>
#include <string.h>

#include "daemon_internal.h"

static int check(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err)
{
    struct tb_match_status st;
    tb_match_status(d->match, &st);
    tb_chess_pos pos;
    switch (req->verb) {
    case TB_CTL_RESOLVE:
        if ((st.state != TB_MATCH_BLOCKED && st.state != TB_MATCH_RESTORING) ||
            st.mismatch != req->number)
            return tb_error_set(err, TB_ERR_NOTFOUND, "no open mismatch %u%s", req->number,
                                st.state == TB_MATCH_BLOCKED ? " (see status)" : "");
        return TB_OK;
    case TB_CTL_TAKEBACK: {
        int have = st.plies + (st.state == TB_MATCH_WAITING);
        if ((int)req->number > have)
            return tb_error_set(err, TB_ERR_STATE,
                                "cannot take back %u plies: the scoresheets "
                                "hold %d",
                                req->number, have);
        return TB_OK;
    }
    case TB_CTL_SET_POSITION:
        if (strlen(req->text) >= sizeof((struct tb_journal_decision *)0)->fen)
            return tb_error_set(err, TB_ERR_PARSE, "the FEN is too long to journal");
        return tb_chess_pos_from_fen(&pos, req->text, 0, err);
    case TB_CTL_NEW_GAME:
        return TB_OK;
    default:
        return tb_error_set(err, TB_ERR_ARG, "not an arbiter request");
    }
}

int tb_daemon__arbiter(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err)
{
    uint64_t t = tb_daemon__match_time(d);
    tb_match_tick(d->match, t);
    tb_daemon__outputs(d);
    int rc = check(d, req, err);
    if (rc != TB_OK)
        return rc;
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "arbiter");
    uint16_t type;
    switch (req->verb) {
    case TB_CTL_RESOLVE:
        type = TB_JOURNAL_ARBITER;
        dec.id = req->number;
        snprintf(dec.text, sizeof dec.text, "resolve %u", req->number);
        break;
    case TB_CTL_TAKEBACK:
        type = TB_JOURNAL_TAKEBACK;
        dec.count = (uint16_t)req->number;
        snprintf(dec.text, sizeof dec.text, "takeback %u", req->number);
        break;
    case TB_CTL_SET_POSITION:
        type = TB_JOURNAL_SET_POSITION;
        memcpy(dec.fen, req->text, strlen(req->text) + 1); /* checked to fit */
        snprintf(dec.text, sizeof dec.text, "set-position");
        break;
    default:
        type = TB_JOURNAL_NEW_GAME;
        tb_chess_pos_to_fen(&d->start, dec.fen, sizeof dec.fen);
        snprintf(dec.text, sizeof dec.text, "new-game");
        break;
    }
    if ((rc = tb_daemon__journal_decision(d, type, t, &dec, true)) != TB_OK)
        return tb_error_set(err, rc, "the journal cannot record it; nothing was changed");
    switch (req->verb) {
    case TB_CTL_RESOLVE:
        rc = tb_match_resolve(d->match, req->number, t, err);
        break;
    case TB_CTL_TAKEBACK:
        rc = tb_match_takeback(d->match, (int)req->number, t, err);
        break;
    case TB_CTL_SET_POSITION:
        rc = tb_match_set_position(d->match, req->text, t, err);
        break;
    default:
        rc = tb_match_new_game(d->match, &d->start, t);
        break;
    }
    if (rc == TB_OK && (req->verb == TB_CTL_SET_POSITION || req->verb == TB_CTL_NEW_GAME)) {
        d->nnotes = 0;
        snprintf(d->result, sizeof d->result, "*");
        d->used_ms[0] = d->used_ms[1] = 0;
        d->turn_start = t;
    }
    tb_daemon__log(d, d->replaying ? TB_CONFIG_LOG_DEBUG : TB_CONFIG_LOG_INFO, "arbiter: %s%s%s",
                   dec.text, rc == TB_OK ? "" : " failed: ",
                   rc == TB_OK ? ""
                   : err       ? err->msg
                               : "");
    tb_daemon__outputs(d);
    return rc;
}

/* A promotion choice (D.2.1). The match is asked first, so a choice nobody is waiting for
 * changes nothing; the journal has it before any of its consequences (outputs are only
 * drained after). */
int tb_daemon__promote(struct tb_daemon *d, int board, int ptype, struct tb_error *err)
{
    uint64_t t = tb_daemon__match_time(d);
    tb_match_tick(d->match, t);
    tb_daemon__outputs(d);
    int rc = tb_match_promote(d->match, board, ptype, t);
    if (rc != TB_OK)
        return tb_error_set(err, TB_ERR_STATE, "no promotion is waiting on the %s board",
                            tb_daemon__board_name(board));
    struct tb_journal_decision dec = {.board = (uint8_t)board};
    snprintf(dec.who, sizeof dec.who, "%s", tb_daemon__board_name(board));
    dec.text[0] = "??nbrq"[ptype];
    tb_daemon__journal_decision(d, TB_JOURNAL_PROMOTION, t, &dec, true);
    tb_daemon__outputs(d);
    return TB_OK;
}
