/* daemon_inputs.c - the input table: per kind of input one row saying how the session takes it,
 * which journal records it writes and how such a record is read back into the same input, so
 * recovery replays a record by handing its input to the session as live (the columns'
 * contract: daemon_inputs.h). The arbiter's actions are one row here and their own table in
 * daemon_arbiter.c. */
#include <stdio.h>
#include <string.h>

#include "daemon_inputs.h"
#include "daemon_shell.h"
#include "daemon_session.h"
#include "daemon_table.h"

/* ---- decoding: a journal record back into its input ---------------------------------------- */

static int board_decode(struct tb_daemon *d, const struct tb_journal_record *rec,
                        struct tb_daemon__in_data *data, struct tb_daemon__input *in,
                        struct tb_error *err)
{
    (void)d;
    int rc = tb_journal_event_decode(&data->board, rec, err);
    if (rc != TB_OK)
        return rc;
    if (data->board.board >= TBD_BOARDS)
        return tb_error_set(err, TB_ERR_PARSE, "bad board %u", data->board.board);
    in->board = &data->board;
    snprintf(data->what, sizeof data->what, "board event");
    return TB_OK;
}

/* A decision record of one board: a promotion choice or a typed move. */
static int board_decision(struct tb_daemon *d, const struct tb_journal_record *rec,
                          struct tb_daemon__in_data *data, struct tb_daemon__input *in,
                          struct tb_error *err)
{
    (void)d;
    struct tb_journal_decision dec;
    int rc = tb_journal_decision_decode(&dec, rec, err);
    if (rc != TB_OK)
        return rc;
    if (dec.board >= TBD_BOARDS)
        return tb_error_set(err, TB_ERR_PARSE, "bad board %u", dec.board);
    in->which = dec.board;
    if (rec->type == TB_JOURNAL_PROMOTION) {
        int ptype = tb_daemon__promotion(dec.text[0]);
        in->arg = ptype ? ptype : TB_CHESS_QUEEN; /* a record without a piece letter: the queen */
        snprintf(data->what, sizeof data->what, "promotion %.8s", dec.text);
        return TB_OK;
    }
    memcpy(data->text, dec.text, sizeof data->text);
    in->text = data->text;
    snprintf(data->what, sizeof data->what, "typed move %.100s", data->text);
    return TB_OK;
}

static int action_decode(struct tb_daemon *d, const struct tb_journal_record *rec,
                         struct tb_daemon__in_data *data, struct tb_daemon__input *in,
                         struct tb_error *err)
{
    (void)d;
    int rc = tb_daemon__arbiter_decode(rec, &data->req, err);
    if (rc != TB_OK)
        return rc;
    data->req.needs_pin = tb_daemon__inputs[TB_DAEMON__IN_ACTION].pin; /* checked when taken */
    in->req = &data->req;
    snprintf(data->what, sizeof data->what, "arbiter action %s", tb_ctl_verb_name(data->req.verb));
    return TB_OK;
}

static int request_decode(struct tb_daemon *d, const struct tb_journal_record *rec,
                          struct tb_daemon__in_data *data, struct tb_daemon__input *in,
                          struct tb_error *err)
{
    (void)d;
    int rc = tb_journal_bug_input_decode(&data->bug, rec, err);
    if (rc != TB_OK)
        return rc;
    in->bug = &data->bug;
    tb_journal_bug_input_format(&data->bug, data->what, sizeof data->what);
    return TB_OK;
}

/* ---- the arbiter's action: its own table (daemon_arbiter.c) behind one row ------------------- */

static int action_take(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                       struct tb_error *err)
{
    return tb_daemon__arbiter_take(d, in->req, t, err);
}

static int action_apply(struct tb_daemon *d, const struct tb_daemon__input *in, uint64_t t,
                        struct tb_error *err)
{
    return tb_daemon__arbiter_apply(d, in->req, t, err);
}

/* ---- the table ---------------------------------------------------------------------------- */

#define BOTH (TB_CTL_TWIN | TB_CTL_BUG)

const struct tb_daemon__in_row tb_daemon__inputs[TB_DAEMON__IN_KINDS] = {
    [TB_DAEMON__IN_TIME] = {.kind = TB_DAEMON__IN_TIME,
                            .name = "time",
                            .way = TB_DAEMON__WAY_TIME,
                            .modes = BOTH},
    [TB_DAEMON__IN_DRAIN] = {.kind = TB_DAEMON__IN_DRAIN,
                             .name = "drain",
                             .way = TB_DAEMON__WAY_DRAIN,
                             .modes = BOTH},
    [TB_DAEMON__IN_BOARD] = {.kind = TB_DAEMON__IN_BOARD,
                             .name = "board event",
                             .way = TB_DAEMON__WAY_BOARD,
                             .records = {TB_JOURNAL_BOARD_EVENT},
                             .decode = board_decode,
                             .changes_game = true,
                             .modes = BOTH,
                             .quiet_refusal = true}, /* the mode says a refused event */
    [TB_DAEMON__IN_ACTION] = {.kind = TB_DAEMON__IN_ACTION,
                              .name = "arbiter action",
                              .way = TB_DAEMON__WAY_CHECKED,
                              .records = {TB_JOURNAL_ARBITER, TB_JOURNAL_TAKEBACK,
                                          TB_JOURNAL_SET_POSITION, TB_JOURNAL_NEW_GAME,
                                          TB_JOURNAL_RESULT, TB_JOURNAL_CLOCK_SET},
                              .take = action_take,
                              .apply = action_apply,
                              .decode = action_decode,
                              .changes_game = true,
                              .pin = true,
                              .modes = BOTH,
                              .past_loss = true,
                              .ticket = TBD_TICKET_ACTION},
    [TB_DAEMON__IN_PROMOTE] = {.kind = TB_DAEMON__IN_PROMOTE,
                               .name = "promotion choice",
                               .way = TB_DAEMON__WAY_CHECKED,
                               .records = {TB_JOURNAL_PROMOTION},
                               .take = tb_daemon__promote_take,
                               .decode = board_decision,
                               .changes_game = true,
                               .refused_stopped = true,
                               .modes = TB_CTL_TWIN,
                               .quiet_refusal = true, /* the button's choice, taken first */
                               .ticket = TBD_TICKET_PROMOTE},
    [TB_DAEMON__IN_TYPED] = {.kind = TB_DAEMON__IN_TYPED,
                             .name = "typed move",
                             .way = TB_DAEMON__WAY_CHECKED,
                             .records = {TB_JOURNAL_TYPED_MOVE},
                             .take = tb_daemon__typed_take,
                             .decode = board_decision,
                             .changes_game = true,
                             .refused_stopped = true,
                             .modes = TB_CTL_TWIN,
                             .ticket = TBD_TICKET_TYPED},
    /* a request's PIN (resign) is its control verb's, checked before */
    [TB_DAEMON__IN_REQUEST] = {.kind = TB_DAEMON__IN_REQUEST,
                               .name = "doorgeefschaak request",
                               .way = TB_DAEMON__WAY_CHECKED,
                               .records = {TB_JOURNAL_BUG_INPUT_BIN, TB_JOURNAL_BUG_INPUT_TEXT},
                               .take = tb_daemon__bug_request_take,
                               .decode = request_decode,
                               .changes_game = true,
                               .refused_stopped = true,
                               .drain_refused = true,
                               .modes = TB_CTL_BUG,
                               .past_loss = true,
                               .ticket = TBD_TICKET_REQUEST,
                               .client_waits = true},
    [TB_DAEMON__IN_WRITTEN] = {.kind = TB_DAEMON__IN_WRITTEN,
                               .name = "the writer's outcome",
                               .way = TB_DAEMON__WAY_WRITTEN,
                               .modes = BOTH},
};
