/* daemon_bugirr.c - article 7 of doorgeefschaak in the daemon (docs/doorgeefschaak.md,
 * "Irregularities in twinboardd"): the opponent's decision on an illegal move pressed, as the
 * control requests `accept a|b` and `replace a|b` (journaled as TB_JOURNAL_BUG_INPUT_BIN records
 * by daemon_bugctl.c, so a restart takes them again), a board's state in words for
 * `status`, and the outputs the arbiter is told of. The match (tb_bugmatch) judges; the same
 * decisions come from the boards too: the opponent's move accepts (7.5), the opponent's clock
 * press demands the replacement (7.6). */
#include <stdio.h>
#include <string.h>

#include "daemon_bug.h"

int tb_daemon__bug_irregular_input(struct tb_daemon *d, const char *verb, int b, uint64_t t,
                                   struct tb_error *err)
{
    tb_bugmatch *m = d->bug->m;
    bool accept = !strcmp(verb, "accept");
    int rc = accept ? tb_bugmatch_accept(m, b, t) : tb_bugmatch_replace(m, b, t);
    if (rc == TB_ERR_STATE)
        tb_error_set(err, rc, "no illegal move waits for the opponent's decision on board %c (7.4)",
                     'A' + b);
    else if (rc == TB_ERR_ILLEGAL) /* the ILLEGAL_MOVE line named why */
        tb_error_set(err, rc,
                     "the illegal move on board %c cannot stand: it must be replaced (replace %c)",
                     'A' + b, 'a' + b);
    else if (rc != TB_OK)
        tb_error_set(err, rc, "%s %c refused by the match (%d)", verb, 'a' + b, rc);
    return rc;
}

void tb_daemon__bug_irregular_status(struct tb_daemon *d, int b, char *buf, size_t len)
{
    const tb_bugmatch *m = d->bug->m;
    /* the clock says who: the opponent's runs while the decision waits (7.4), the mover's once
     * the replacement is demanded (7.6) */
    int turn = tb_bugmatch_clock(m, b)->turn;
    switch (tb_bugmatch_irregular(m, b)) {
    case TB_BUGMATCH_IRR_ASKED:
        snprintf(buf, len,
                 "board %c irregular: %s pressed an illegal move; %s may accept it or demand a "
                 "legal move (accept %c, replace %c; 7.4)",
                 'A' + b, tb_daemon__bug_seat_name(2 * b + (turn ^ 1)),
                 tb_daemon__bug_seat_name(2 * b + turn), 'a' + b, 'a' + b);
        break;
    case TB_BUGMATCH_IRR_PUT_BACK:
        snprintf(buf, len,
                 "board %c irregular: %s takes the illegal move back and plays a legal move with "
                 "the piece touched (7.4)",
                 'A' + b, tb_daemon__bug_seat_name(2 * b + turn));
        break;
    case TB_BUGMATCH_IRR_BLOCKED:
        snprintf(buf, len,
                 "board %c irregular: the piece the illegal move passed is on board %c: %s may "
                 "not move until a piece of its kind is taken off there (7.7)",
                 'A' + b, 'A' + (b ^ 1), tb_daemon__bug_seat_name((2 * b + turn) ^ 3));
        break;
    default:
        buf[0] = '\0';
    }
}

bool tb_daemon__bug_irregular_out(const struct tb_bugmatch_out *o)
{
    switch (o->kind) {
    case TB_BUGMATCH_OUT_ILLEGAL_MOVE:
    case TB_BUGMATCH_OUT_ACCEPTED:
    case TB_BUGMATCH_OUT_REPLACE:
    case TB_BUGMATCH_OUT_RETURNED:
    case TB_BUGMATCH_OUT_BLOCKED:
    case TB_BUGMATCH_OUT_HANDED_BACK:
    case TB_BUGMATCH_OUT_PUT_BACK:
        return true;
    default:
        return false;
    }
}
