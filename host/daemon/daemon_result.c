/* daemon_result.c - the game's tags and its end, their one owner (daemon_result.h says who reads
 * them). The tags: [game] of the configuration, a new-game request's over them. The end: by the
 * rules after an agreed move (5.1.1 mate, 5.2.1 stalemate, 5.2.2 dead position, 9.6.1 fivefold,
 * 9.6.2 seventy-five moves) or by the `result` request (the arbiter's word, PIN-checked:
 * resignation 5.1.2, agreed draw 5.2.3, a flag 6.9, a claim 9.2/9.3, the arbiter's decision). The
 * request is an arbiter action of daemon_arbiter.c's table: checked, journaled, then applied, so
 * recovery takes it again. The end goes to status, the PGN (result and a note), the broadcast,
 * and both players hear it. Moves agreed after it are not part of the game (a new game first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon_broadcast.h"
#include "daemon_games.h"
#include "daemon_boards.h"
#include "daemon_shell.h"
#include "daemon_mode.h"
#include "daemon_result.h"
#include "daemon_session.h"
#include "daemon_voice.h"
#include "tb_str.h"
#include "tb_clock.h"

/* The game's end: by the rules (after an agreed move) or by the result request; kept so a
 * broadcast opened after recovery shows it too. */
struct tb_daemon__end {
    bool by_request;           /* else by the rules */
    struct tb_ctl_request req; /* the result request (by_request) */
    char why[TBD_WHY_MAX];     /* "checkmate (5.1.1)", "White resigns (5.1.2)" ... */
    int ply;                   /* plies of the game when it ended; -1 while playing */
};

/* The game's tags and its end: one game's, from its start to the next new game. */
struct tb_daemon__result {
    struct tb_broadcast_tags tags; /* this game's PGN tags: configuration, then new-game */
    struct tb_daemon__end end;
};

int tb_daemon__result_open(struct tb_daemon *d, struct tb_error *err)
{
    if (!(d->res = calloc(1, sizeof *d->res)))
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    tb_daemon__game_tags(d, NULL); /* the first game's tags */
    tb_daemon__result_clear(d);
    return TB_OK;
}

void tb_daemon__result_free(struct tb_daemon *d)
{
    free(d->res);
    d->res = NULL;
}

static void set(char *dst, const char *v, const char *fallback)
{
    snprintf(dst, TB_BROADCAST_TAG_MAX, "%s", v && v[0] ? v : fallback);
}

/* The game's tags: [game] of the configuration, a new-game request's over them; the defaults
 * for the unset ones. */
void tb_daemon__game_tags(struct tb_daemon *d, const struct tb_ctl_request *req)
{
    const struct tb_config_game *c = &d->cfg->game;
    struct tb_broadcast_tags *t = &d->res->tags;
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    int white = tb_daemon__board_of_color(d, TB_CHESS_WHITE);
    const char *const player[2] = {"VI player", "sighted player"};
    set(t->event, c->event, "twinboard game (FIDE Appendix D)");
    set(t->site, c->site, "?");
    set(t->date, c->date, date);
    set(t->round, c->round, "-");
    set(t->white, c->white, player[white]);
    set(t->black, c->black, player[!white]);
    set(t->time_control, c->time_control, "");
    if (!req)
        return;
    char *const by_tag[TB_CTL_TAGS] = {
        [TB_CTL_EVENT] = t->event, [TB_CTL_SITE] = t->site,   [TB_CTL_DATE] = t->date,
        [TB_CTL_ROUND] = t->round, [TB_CTL_WHITE] = t->white, [TB_CTL_BLACK] = t->black};
    for (int i = 0; i < TB_CTL_TAGS; i++)
        if (req->tag[i][0])
            set(by_tag[i], req->tag[i], "");
}

const struct tb_broadcast_tags *tb_daemon__tags(const struct tb_daemon *d)
{
    return &d->res->tags;
}

void tb_daemon__tags_set(struct tb_daemon *d, const struct tb_broadcast_tags *tags)
{
    d->res->tags = *tags;
}

int tb_daemon__result_ply(const struct tb_daemon *d)
{
    return d->res ? d->res->end.ply : -1;
}

const char *tb_daemon__result_why(const struct tb_daemon *d)
{
    return d->res && d->res->end.ply >= 0 ? d->res->end.why : "";
}

const struct tb_ctl_request *tb_daemon__result_by_request(const struct tb_daemon *d)
{
    const struct tb_daemon__end *e = d->res ? &d->res->end : NULL;
    return e && e->ply >= 0 && e->by_request ? &e->req : NULL;
}

void tb_daemon__result_clear(struct tb_daemon *d)
{
    memset(&d->res->end, 0, sizeof d->res->end);
    d->res->end.ply = -1;
    tb_daemon__set_result(d, "*");
}

static const char *side_name(int side)
{
    return tb_daemon__color_name(side ? TB_CHESS_BLACK : TB_CHESS_WHITE);
}

/* Both players hear the result, each in their own pack. */
static void say_result(struct tb_daemon *d, const char *result)
{
    for (int b = 0; b < TBD_BOARDS; b++) {
        struct tb_voice_msg_args a = {.board =
                                          !strcmp(result, "0-1") ? TB_CHESS_BLACK : TB_CHESS_WHITE};
        tb_daemon__say_msg(d, b, strcmp(result, "1/2-1/2") ? TB_VOICE_MSG_WINS : TB_VOICE_MSG_DRAW,
                           &a, TB_VOICE_URGENT);
    }
}

static void end_game(struct tb_daemon *d, const char *result, const char *why)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    tb_daemon__set_result(d, result);
    snprintf(d->res->end.why, sizeof d->res->end.why, "%s", why);
    d->res->end.ply = g->plies;
    tb_daemon__log(d, tb_daemon__fx(d)->info, "game over: %s, %s", result, why);
    if (d->res->end.by_request) /* the rules' end is the last move itself: no note needed */
        tb_daemon__note(d, g->plies, "result %s: %s", result, why);
    say_result(d, result);
    tb_daemon__game_keep(d); /* games kept: the PGN as soon as the game ends */
}

void tb_daemon__result_rules(struct tb_daemon *d, uint64_t t)
{
    (void)t;
    if (d->res->end.ply >= 0)
        return; /* over already: what follows is not part of the game */
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    const char *res = "1/2-1/2", *why;
    switch (tb_chess_game_state(g)) {
    case TB_CHESS_CHECKMATE:
        res = g->pos.side == TB_CHESS_WHITE ? "0-1" : "1-0";
        why = "checkmate (5.1.1)";
        break;
    case TB_CHESS_STALEMATE:
        why = "stalemate (5.2.1)";
        break;
    case TB_CHESS_DEAD:
        why = "dead position (5.2.2)";
        break;
    case TB_CHESS_FIVEFOLD:
        why = "fivefold repetition (9.6.1)";
        break;
    case TB_CHESS_SEVENTYFIVE:
        why = "75 moves (9.6.2)";
        break;
    default:
        return;
    }
    d->res->end.by_request = false;
    end_game(d, res, why);
}

/* The request's result and its words; TB_ERR_ILLEGAL for a claim the position does not allow. */
static int judge(struct tb_daemon *d, const struct tb_ctl_request *req, char *result, char *why,
                 size_t len, struct tb_error *err)
{
    const tb_chess_game *g = tb_match_game(tb_daemon__match(d));
    struct tb_clock_judgement j;
    strcpy(result, "1/2-1/2");
    switch (req->how) {
    case TB_CTL_RESULT_RESIGN: /* 5.1.2 */
        strcpy(result, req->side ? "1-0" : "0-1");
        snprintf(why, len, "%s resigns (5.1.2)", side_name(req->side));
        return TB_OK;
    case TB_CTL_RESULT_DRAW:
        snprintf(why, len, "draw agreed (5.2.3)");
        return TB_OK;
    case TB_CTL_RESULT_FLAG: /* 6.9: a loss, or a draw when the opponent cannot mate */
        if (tb_clock_judge_flag(&g->pos, req->side ? TB_CHESS_BLACK : TB_CHESS_WHITE, &j) !=
                TB_OK ||
            !j.result[0])
            return tb_error_set(err, TB_ERR_STATE, "the flag cannot be judged in this position");
        snprintf(result, 8, "%s", j.result);
        snprintf(why, len, "%s's flag fell (6.9)%s", side_name(req->side),
                 strcmp(j.result, "1/2-1/2") ? "" : ", the opponent cannot checkmate: a draw");
        return TB_OK;
    case TB_CTL_RESULT_THREEFOLD:
        if (!tb_chess_game_can_claim_threefold(g))
            return tb_error_set(err, TB_ERR_ILLEGAL,
                                "no threefold repetition to claim (9.2): the position has not "
                                "stood three times with the same player to move");
        snprintf(why, len, "draw claimed: threefold repetition (9.2)");
        return TB_OK;
    case TB_CTL_RESULT_FIFTY:
        if (!tb_chess_game_can_claim_fifty(g))
            return tb_error_set(err, TB_ERR_ILLEGAL,
                                "no fifty-move claim (9.3): a capture or a pawn move came within "
                                "the last fifty moves of each player");
        snprintf(why, len, "draw claimed: fifty moves (9.3)");
        return TB_OK;
    case TB_CTL_RESULT_ARBITER:
        tb_str_copy(result, 8, req->result);
        snprintf(why, len, "the arbiter's decision%s%s", req->text[0] ? ": " : "", req->text);
        return TB_OK;
    default:
        return tb_error_set(err, TB_ERR_ARG, "no such result");
    }
}

int tb_daemon__result_check(struct tb_daemon *d, const struct tb_ctl_request *req,
                            struct tb_error *err)
{
    char result[8], why[TBD_WHY_MAX];
    if (d->res->end.ply >= 0)
        return tb_error_set(err, TB_ERR_STATE, "the game is over already: %s, %s; new-game first",
                            tb_daemon__result(d), d->res->end.why);
    return judge(d, req, result, why, sizeof why, err);
}

int tb_daemon__result_apply(struct tb_daemon *d, const struct tb_ctl_request *req, uint64_t t,
                            struct tb_error *err)
{
    char result[8], why[TBD_WHY_MAX];
    int rc = judge(d, req, result, why, sizeof why, err);
    if (rc != TB_OK)
        return rc;
    d->res->end.by_request = true;
    d->res->end.req = *req;
    end_game(d, result, why);
    tb_daemon__broadcast_sync(d, t); /* the game shown up to its end, then the end */
    tb_daemon__broadcast_result(d);
    return TB_OK;
}

/* Journaled as the request's own words: "result resign black", "result arbiter 1-0 REASON". */
void tb_daemon__result_record(const struct tb_daemon *d, const struct tb_ctl_request *req,
                              struct tb_journal_decision *dec)
{
    (void)d;
    static const char *const how[] = {"",          "resign", "draw",   "flag",
                                      "threefold", "fifty",  "arbiter"};
    dec->count = (uint16_t)req->how;
    dec->id = (uint32_t)req->side;
    snprintf(dec->fen, sizeof dec->fen, "%s", req->result);
    snprintf(dec->text, sizeof dec->text, "result %s%s%s%s%s", how[req->how],
             req->how == TB_CTL_RESULT_RESIGN || req->how == TB_CTL_RESULT_FLAG
                 ? (req->side ? " black" : " white")
                 : "",
             req->result[0] ? " " : "", req->result, req->text[0] ? " " : "");
    size_t n = strlen(dec->text);
    snprintf(dec->text + n, sizeof dec->text - n, "%s", req->text);
}

void tb_daemon__result_request(const struct tb_journal_decision *dec, struct tb_ctl_request *req)
{
    req->how = dec->count;
    req->side = dec->id ? 1 : 0;
    tb_str_copy(req->result, sizeof req->result, dec->fen);
    /* the reason: what follows "result arbiter RESULT " */
    const char *r = req->how == TB_CTL_RESULT_ARBITER ? strstr(dec->text, req->result) : NULL;
    if (r && r[strlen(req->result)] == ' ')
        snprintf(req->text, sizeof req->text, "%s", r + strlen(req->result) + 1);
}
