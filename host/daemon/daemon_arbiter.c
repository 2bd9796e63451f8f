/* daemon_arbiter.c - requests that change the game. D.2.9 corrections are the arbiter's: each is
 * checked first (a refused request changes nothing and is not journaled), then journaled and
 * synced, then handed to the match. One table names each action's control verb (its PIN checked
 * before, by the control protocol's guard), journal record, match call and check; the control
 * handler and recovery both go through it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "daemon_boards.h"
#include "daemon_broadcast.h"
#include "daemon_clock.h"
#include "daemon_games.h"
#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_table.h"
#include "daemon_vi.h"
#include "tb_str.h"

struct action {
    enum tb_ctl_verb verb;
    uint16_t record;  /* enum tb_journal_type */
    bool starts_game; /* a new game: notes, result and time used start over */
    int (*check)(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err);
    int (*apply)(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                 struct tb_error *err);
    /* request -> journal record (text: the action in words) and back */
    void (*record_of)(const struct tb_daemon *d, const struct tb_ctl_request *req,
                      struct tb_journal_decision *dec);
    void (*request_of)(const struct tb_journal_decision *dec, struct tb_ctl_request *req);
};

/* ---- resolve <id>: the arbiter confirms the proposed D.2.9 resolution ---------------------- */

static int resolve_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                         struct tb_error *err)
{
    struct tb_match_status st;
    tb_match_status(d->session->match, &st);
    if ((st.state != TB_MATCH_BLOCKED && st.state != TB_MATCH_RESTORING) ||
        st.mismatch != req->number)
        return tb_error_set(err, TB_ERR_NOTFOUND, "no open mismatch %u%s", req->number,
                            st.state == TB_MATCH_BLOCKED ? " (see status)" : "");
    return TB_OK;
}
static int resolve_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                         struct tb_error *err)
{
    return tb_match_resolve(d->session->match, req->number, t, err);
}
static void resolve_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                           struct tb_journal_decision *dec)
{
    (void)d;
    dec->id = req->number;
    snprintf(dec->text, sizeof dec->text, "resolve %u", req->number);
}
static void resolve_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    req->number = dec->id;
}

/* ---- takeback [n]: D.2.9, the scoresheets differ ------------------------------------------ */

static int takeback_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_error *err)
{
    struct tb_match_status st;
    tb_match_status(d->session->match, &st);
    int have = st.plies + (st.state == TB_MATCH_WAITING);
    if ((int)req->number > have)
        return tb_error_set(err, TB_ERR_STATE, "cannot take back %u plies: the scoresheets hold %d",
                            req->number, have);
    return TB_OK;
}
static int takeback_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                          struct tb_error *err)
{
    return tb_match_takeback(d->session->match, (int)req->number, t, err);
}
static void takeback_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_journal_decision *dec)
{
    (void)d;
    dec->count = (uint16_t)req->number;
    snprintf(dec->text, sizeof dec->text, "takeback %u", req->number);
}
static void takeback_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    req->number = dec->count;
}

/* ---- set-position <FEN> ------------------------------------------------------------------- */

static int position_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_error *err)
{
    (void)d;
    tb_chess_pos pos;
    if (strlen(req->text) >= sizeof((struct tb_journal_decision *)0)->fen)
        return tb_error_set(err, TB_ERR_PARSE, "the FEN is too long to journal");
    return tb_chess_pos_from_fen(&pos, req->text, 0, err);
}
static int position_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                          struct tb_error *err)
{
    return tb_match_set_position(d->session->match, req->text, t, err);
}
static void position_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_journal_decision *dec)
{
    (void)d;
    memcpy(dec->fen, req->text, strlen(req->text) + 1); /* checked to fit */
    snprintf(dec->text, sizeof dec->text, "set-position");
}
static void position_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    snprintf(req->text, sizeof req->text, "%s", dec->fen);
}

/* ---- new-game: from the journal's start position ------------------------------------------ */

static int new_game_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                          struct tb_error *err)
{
    (void)d, (void)req, (void)err;
    return TB_OK;
}
static int new_game_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                          struct tb_error *err)
{
    (void)err;
    int rc = tb_match_new_game(d->session->match, &d->session->start, t);
    if (rc == TB_OK)
        tb_daemon__game_tags(d, req); /* broadcast: the new game's PGN tags */
    return rc;
}
/* The tags given go into the record as lines "white=NAME" after "new-game". */
static void new_game_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_journal_decision *dec)
{
    tb_chess_pos_to_fen(&d->session->start, dec->fen, sizeof dec->fen);
    size_t n = (size_t)snprintf(dec->text, sizeof dec->text, "new-game");
    for (int i = 0; i < TB_CTL_TAGS && n < sizeof dec->text; i++)
        if (req->tag[i][0]) /* 6 tags of at most 48 bytes fit in 400 */
            n += (size_t)snprintf(dec->text + n, sizeof dec->text - n, "\n%s=%s",
                                  tb_ctl_tag_name((enum tb_ctl_tag)i), req->tag[i]);
}
static void new_game_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    for (const char *p = strchr(dec->text, '\n'); p; p = strchr(p + 1, '\n'))
        for (int i = 0; i < TB_CTL_TAGS; i++) {
            const char *name = tb_ctl_tag_name((enum tb_ctl_tag)i);
            size_t k = strlen(name);
            if (!strncmp(p + 1, name, k) && p[1 + k] == '=')
                snprintf(req->tag[i], sizeof req->tag[i], "%.*s", (int)strcspn(p + 2 + k, "\n"),
                         p + 2 + k);
        }
}

/* ---- clock-set <white> <black>: the arbiter adjusts the clock (D.2.9, 6.10.2) ------------- */

static int clock_set_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                           struct tb_error *err)
{
    return tb_daemon__clock_set(d, req, 0, false, err);
}
static int clock_set_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                           struct tb_error *err)
{
    return tb_daemon__clock_set(d, req, t, true, err);
}
static void clock_set_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                             struct tb_journal_decision *dec)
{
    (void)d;
    snprintf(dec->text, sizeof dec->text, "%s", req->text);
}
static void clock_set_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    tb_str_copy(req->text, sizeof req->text, dec->text); /* journaled from a request: it fits */
    req->clock_ok = tb_ctl_clock_times(req->text, req->clock_ms);
}

static const struct action actions[] = {
    {TB_CTL_RESOLVE, TB_JOURNAL_ARBITER, false, resolve_check, resolve_apply, resolve_record,
     resolve_request},
    {TB_CTL_TAKEBACK, TB_JOURNAL_TAKEBACK, false, takeback_check, takeback_apply, takeback_record,
     takeback_request},
    {TB_CTL_SET_POSITION, TB_JOURNAL_SET_POSITION, true, position_check, position_apply,
     position_record, position_request},
    {TB_CTL_NEW_GAME, TB_JOURNAL_NEW_GAME, true, new_game_check, new_game_apply, new_game_record,
     new_game_request},
    /* broadcast: the game's result (daemon_result.c) */
    {TB_CTL_RESULT, TB_JOURNAL_RESULT, false, tb_daemon__result_check, tb_daemon__result_apply,
     tb_daemon__result_record, tb_daemon__result_request},
    {TB_CTL_CLOCK_SET, TB_JOURNAL_CLOCK_SET, false, clock_set_check, clock_set_apply,
     clock_set_record, clock_set_request},
};
#define NACTIONS (sizeof actions / sizeof actions[0])

static const struct action *by_verb(enum tb_ctl_verb verb)
{
    for (size_t i = 0; i < NACTIONS; i++)
        if (actions[i].verb == verb)
            return &actions[i];
    return NULL;
}

static const struct action *by_record(uint16_t type)
{
    for (size_t i = 0; i < NACTIONS; i++)
        if (actions[i].record == type)
            return &actions[i];
    return NULL;
}

/* Checked, journaled, and done once its record is on disk (the session, daemon_session.c): live
 * the commit runs on the writer thread and the action waits, queued, with the request's answer;
 * if the journal fails it stays queued and is done when the journal can be written again. */
int tb_daemon__arbiter(struct tb_daemon *d, const struct tb_ctl_request *req, struct tb_error *err)
{
    if (!by_verb(req->verb))
        return tb_error_set(err, TB_ERR_ARG, "not an arbiter request");
    return tb_daemon__input(d, &(struct tb_daemon__input){.kind = TB_DAEMON__IN_ACTION, .req = req},
                            tb_daemon__match_time(d), err);
}

/* The action checked and its record appended (with its commit started). */
int tb_daemon__arbiter_take(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err)
{
    const struct action *a = by_verb(req->verb);
    if (!a)
        return tb_error_set(err, TB_ERR_ARG, "not an arbiter request");
    int rc = a->check(d, req, err);
    if (rc != TB_OK)
        return rc;
    /* Games kept: the game that ends keeps its PGN and journal; the next one begins in its own
     * journal, which records this request first. */
    if (req->verb == TB_CTL_NEW_GAME && (rc = tb_daemon__game_next(d, req, t, err)) != TB_OK)
        return rc;
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    snprintf(dec.who, sizeof dec.who, "arbiter");
    a->record_of(d, req, &dec);
    if ((rc = d->session->fx->store->append_decision(d, a->record, t, &dec, true)) != TB_OK)
        return tb_error_set(err, rc, "the journal cannot record it; nothing was changed");
    return TB_OK;
}

int tb_daemon__arbiter_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                             struct tb_error *err)
{
    const struct action *a = by_verb(req->verb);
    if (!a)
        return tb_error_set(err, TB_ERR_ARG, "not an arbiter request");
    int rc = a->apply(d, req, t, err);
    if (rc == TB_OK && a->starts_game) {
        d->session->nnotes = 0;
        tb_daemon__result_clear(d);       /* result "*" */
        tb_daemon__vi_new_game(d, t);     /* D.2.6: no time used yet */
        tb_daemon__broadcast_new_game(d); /* broadcast: a new PGN file */
    }
    struct tb_journal_decision dec = {.board = TB_JOURNAL_BOARD_NONE};
    a->record_of(d, req, &dec);
    tb_daemon__log(d, d->session->fx->info, "arbiter: %s%s%s", dec.text,
                   rc == TB_OK ? "" : " failed: ",
                   rc == TB_OK ? ""
                   : err       ? err->msg
                               : "");
    return rc;
}

/* Recovery: an action's record back into its request (the input table's decode). */
int tb_daemon__arbiter_decode(const struct tb_journal_record *rec, struct tb_ctl_request *req,
                              struct tb_error *err)
{
    const struct action *a = by_record(rec->type);
    struct tb_journal_decision dec;
    if (!a)
        return tb_error_set(err, TB_ERR_ARG, "record type %u is no arbiter action", rec->type);
    int rc = tb_journal_decision_decode(&dec, rec, err);
    if (rc != TB_OK)
        return rc;
    memset(req, 0, sizeof *req);
    req->verb = a->verb;
    a->request_of(&dec, req);
    return TB_OK;
}

/* A promotion choice (D.2.1). The match is asked first, so a choice nobody is waiting for
 * changes nothing; the journal has it before any of its consequences (outputs are only
 * drained after). */
int tb_daemon__promote(struct tb_daemon *d, int board, int ptype, struct tb_error *err)
{
    return tb_daemon__promote_at(d, board, ptype, tb_daemon__match_time(d), err);
}

/* At t: the promote button's choice is taken when the player stopped pressing. */
int tb_daemon__promote_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                            struct tb_error *err)
{
    int board = in->which, ptype = in->arg;
    int rc = tb_match_promote(d->session->match, board, ptype, t);
    if (rc != TB_OK)
        return tb_error_set(err, TB_ERR_STATE, "no promotion is waiting on the %s board",
                            tb_daemon__board_name(board));
    struct tb_journal_decision dec = {.board = (uint8_t)board};
    snprintf(dec.who, sizeof dec.who, "%s", tb_daemon__board_name(board));
    dec.text[0] = (char)tolower(tb_chess_piece_letter(ptype, TB_CHESS_LETTERS_EN)); /* "q" */
    d->session->fx->store->append_decision(d, TB_JOURNAL_PROMOTION, t, &dec, true);
    return TB_OK;
}

/* In force at once, but nothing of it is said before its record is on disk (the session). */
int tb_daemon__promote_at(struct tb_daemon *d, int board, int ptype, uint64_t t,
                          struct tb_error *err)
{
    struct tb_daemon__input in = {.kind = TB_DAEMON__IN_PROMOTE, .which = board, .arg = ptype};
    return tb_daemon__input(d, &in, t, err);
}
