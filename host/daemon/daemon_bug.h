/* daemon_bug.h - doorgeefschaak in the daemon (docs/doorgeefschaak.md, "Running a match with
 * twinboardd"): the state shared by daemon_bug.c (the match, the seats' ears, the BPGN kept) and
 * daemon_bugctl.c (the control requests). Private to the daemon library. */
#ifndef TB_DAEMON_BUG_H
#define TB_DAEMON_BUG_H

#include "daemon_bugmode.h"
#include "daemon_shell.h"
#include "tb_bugmatch.h"

struct tb_daemon__bug {
    tb_bugmatch *m;
    struct tb_bugmatch_config mcfg;
    struct tb_voice_pack *pack[TB_BUGMATCH_SEATS];
    char wav[TB_BUGMATCH_SEATS][TB_CONFIG_PATH_MAX + 32];
    bool kept;                  /* the finished match's BPGN written */
    uint64_t marked_ms;         /* the journal's latest time: an input's, or a mark's */
    struct tb_bugmatch_out out; /* polled, waiting for the journal (the session's output state) */
};

/* "White A" ... "Black B": a name only, so each doorgeefschaak file has it without calling
 * another. */
static inline const char *tb_daemon__bug_seat_name(int seat)
{
    static const char *const names[TB_BUGMATCH_SEATS] = {"White A", "Black A", "White B",
                                                         "Black B"};
    return seat >= 0 && seat < TB_BUGMATCH_SEATS ? names[seat] : "nobody";
}
/* An input the match took, on the record (TB_JOURNAL_BUG_INPUT_BIN) before its outputs are
 * carried out; a TB_JOURNAL_BUG_TIME mark is the time run to t (the session lets it run). */
int tb_daemon__bug_input(struct tb_daemon *d, const struct tb_journal_bug_input *in, uint64_t t,
                         struct tb_error *err);
/* Article 7 (daemon_bugirr.c): "accept" or "replace" the illegal move pressed on board b, the
 * opponent's decision (7.4), err saying why when refused. */
int tb_daemon__bug_irregular_input(struct tb_daemon *d, const char *verb, int b, uint64_t t,
                                   struct tb_error *err);
/* The status line of board b's article 7 state ("" when nothing waits). */
void tb_daemon__bug_irregular_status(struct tb_daemon *d, int b, char *buf, size_t len);
/* Article 7's outputs are for the arbiter: logged as warnings. */
bool tb_daemon__bug_irregular_out(const struct tb_bugmatch_out *o);

/* The BPGN of both games so far, with the configured names and the game's tags; malloc'd into
 * *text. Its length or an error. */
int tb_daemon__bug_bpgn(struct tb_daemon *d, char **text);

/* The mode's parts of its table (tb_daemon__doorgeefschaak) and of its requests. */
int tb_daemon__bug_voice_open(struct tb_daemon *d, struct tb_error *err);
void tb_daemon__bug_voice_event(struct tb_daemon *d, const struct tb_voice_event *ev);
int tb_daemon__bug_apply(struct tb_daemon *d, const struct tb_journal_event *in, uint64_t t);
void tb_daemon__bug_tell_wait(struct tb_daemon *d); /* journal stopped: the four seats told */
/* status in doorgeefschaak: both games, clocks, the four hands (the status request, SIGHUP) */
void tb_daemon__bug_status(struct tb_daemon *d, struct tb_daemon__buf *out);
/* new-game in this mode: the next match of two games */
int tb_daemon__bug_new_game(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err);

#endif /* TB_DAEMON_BUG_H */
