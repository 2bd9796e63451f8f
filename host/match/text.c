/* text.c - the match's English: names, board labels, put-right lists, output lines. */
#include "match_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tb_match__appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

const char *tb_match__color_name(int color)
{
    return color == TB_CHESS_BLACK ? "Black" : "White";
}

const char *tb_match__piece_name(int piece)
{
    static const char *const names[] = {"piece", "pawn",  "knight", "bishop",
                                        "rook",  "queen", "king"};
    int t = TB_CHESS_PIECE_TYPE(piece);
    return piece && t >= 1 && t <= 6 ? names[t] : names[0];
}

void tb_match__board_label(const tb_match *m, int b, char *buf, size_t len)
{
    snprintf(buf, len, "%s board (%s)", m->cfg.board[b].name,
             tb_match__color_name(m->cfg.board[b].color));
}

static void piece_words(int piece, char *buf, size_t len)
{
    if (piece)
        snprintf(buf, len, "%s %s", TB_CHESS_PIECE_COLOR(piece) ? "black" : "white",
                 tb_match__piece_name(piece));
    else
        snprintf(buf, len, "piece");
}

void tb_match__fix_text(const struct tb_match_fix *fix, char *buf, size_t len)
{
    char a[3], c[3], words[24];
    const char *sep = "";
    buf[0] = '\0';
    for (int i = 0; i < fix->npairs; i++, sep = ", ") {
        piece_words(fix->place_list[i].piece, words, sizeof words);
        tb_match__appendf(buf, len, "%smove the %s on %s to %s", sep, words,
                          tb_chess_square_name(fix->lift_list[i].sq, a),
                          tb_chess_square_name(fix->place_list[i].sq, c));
    }
    for (int i = fix->npairs; i < fix->nlift; i++, sep = ", ") {
        piece_words(fix->lift_list[i].piece, words, sizeof words);
        tb_match__appendf(buf, len, "%slift the %s on %s", sep, words,
                          tb_chess_square_name(fix->lift_list[i].sq, a));
    }
    for (int i = fix->npairs; i < fix->nplace; i++, sep = ", ") {
        piece_words(fix->place_list[i].piece, words, sizeof words);
        tb_match__appendf(buf, len, "%splace a %s on %s", sep, words,
                          tb_chess_square_name(fix->place_list[i].sq, a));
    }
}

/* Each kind's short name and its words in a report. */
static const char *const mismatch_names[][2] = {
    [TB_MATCH_MM_WRONG_MOVE] = {"wrong-move", "wrong move replicated"},
    [TB_MATCH_MM_TWO_AHEAD] = {"two-ahead", "board two moves ahead"},
    [TB_MATCH_MM_OUT_OF_TURN] = {"out-of-turn", "move out of turn"},
    [TB_MATCH_MM_DISPLACED] = {"displaced", "pieces displaced (7.4, 7.6)"},
    [TB_MATCH_MM_ILLEGAL] = {"illegal", "illegal move (7.5.1)"},
    [TB_MATCH_MM_INCOMPLETE] = {"incomplete", "move not complete (D.2.3)"},
    [TB_MATCH_MM_SWAPPED] = {"swapped", "pieces not the game's"},
};

static const char *mismatch_name(enum tb_match_mismatch_kind k, int which)
{
    bool known = k >= TB_MATCH_MM_WRONG_MOVE && k <= TB_MATCH_MM_SWAPPED;
    return known ? mismatch_names[k][which] : "?";
}

const char *tb_match_mismatch_name(enum tb_match_mismatch_kind k)
{
    return mismatch_name(k, 0);
}

const char *tb_match__mismatch_words(enum tb_match_mismatch_kind k)
{
    return mismatch_name(k, 1);
}

const char *tb_match_state_name(enum tb_match_state s)
{
    switch (s) {
    case TB_MATCH_IN_SYNC:
        return "in-sync";
    case TB_MATCH_WAITING:
        return "waiting";
    case TB_MATCH_BLOCKED:
        return "blocked";
    case TB_MATCH_RESTORING:
        return "restoring";
    }
    return "?";
}

static const char *msg_name(enum tb_match_msg msg)
{
    static const char *const names[] = {"mismatch",  "illegal",   "wait",
                                        "replicate", "put-right", "arbiter"};
    if (msg == TB_MATCH_MSG_PROMOTION_ASK)
        return "promotion-ask";
    return (unsigned)msg < sizeof names / sizeof names[0] ? names[msg] : "?";
}

static const char *arbiter_name(enum tb_match_arbiter_action a)
{
    switch (a) {
    case TB_MATCH_ARB_RESOLVE:
        return "resolve";
    case TB_MATCH_ARB_TAKEBACK:
        return "takeback";
    case TB_MATCH_ARB_SET_POSITION:
        return "set-position";
    case TB_MATCH_ARB_NEW_GAME:
        return "new-game";
    }
    return "?";
}

static void announce_line(const struct tb_match_announce *a, char *buf, size_t len)
{
    char uci[8], sq[3];
    snprintf(buf, len, "say to board %d: ", a->board);
    if (a->is_move || a->msg == TB_MATCH_MSG_REPLICATE) {
        if (tb_chess_move_to_uci(&a->pos, a->move, uci, sizeof uci) < 0)
            snprintf(uci, sizeof uci, "?");
        tb_match__appendf(buf, len, "%s%s (ply %d)%s", a->is_move ? "" : "replicate ", uci, a->ply,
                          a->queen_assumed ? " queen assumed (7.5.2)" : "");
        return;
    }
    tb_match__appendf(buf, len, "%s", msg_name(a->msg));
    if (a->msg != TB_MATCH_MSG_PUT_RIGHT)
        return;
    for (int i = 0; i < a->nlift; i++)
        tb_match__appendf(buf, len, " -%s", tb_chess_square_name(a->lift[i].sq, sq));
    for (int i = 0; i < a->nplace; i++)
        tb_match__appendf(buf, len, " +%s", tb_chess_square_name(a->place[i].sq, sq));
}

int tb_match_out_format(const struct tb_match_out *o, char *buf, size_t len)
{
    if (!buf || len == 0)
        return TB_ERR_ARG;
    buf[0] = '\0';
    switch (o->kind) {
    case TB_MATCH_OUT_ANNOUNCE:
        announce_line(&o->u.announce, buf, len);
        break;
    case TB_MATCH_OUT_MOVE_AGREED:
        snprintf(buf, len, "agreed %d %s (%s)%s", o->u.agreed.ply, o->u.agreed.san, o->u.agreed.uci,
                 o->u.agreed.queen_assumed ? " queen assumed (7.5.2)" : "");
        break;
    case TB_MATCH_OUT_MISMATCH:
        snprintf(buf, len, "mismatch %s %s | %s", tb_match_mismatch_name(o->u.mismatch.kind),
                 o->u.mismatch.text, o->u.mismatch.resolution);
        break;
    case TB_MATCH_OUT_RESOLVED:
        snprintf(buf, len, "resolved by %s: %s", o->u.resolved.by_arbiter ? "arbiter" : "board",
                 o->u.resolved.text);
        break;
    case TB_MATCH_OUT_TOUCH_REPORT:
        snprintf(buf, len, "touch %s", o->u.touch.text);
        break;
    case TB_MATCH_OUT_STATE:
        snprintf(buf, len, "state %s", tb_match_state_name(o->u.state.state));
        if (o->u.state.state == TB_MATCH_WAITING)
            tb_match__appendf(buf, len, " board %d", o->u.state.board);
        else if (o->u.state.state != TB_MATCH_IN_SYNC)
            tb_match__appendf(buf, len, " #%u", (unsigned)o->u.state.mismatch);
        break;
    case TB_MATCH_OUT_ARBITER:
        snprintf(buf, len, "arbiter %s #%u", arbiter_name(o->u.arbiter.action),
                 (unsigned)o->u.arbiter.id);
        if (o->u.arbiter.action == TB_MATCH_ARB_TAKEBACK)
            tb_match__appendf(buf, len, " %d plies", o->u.arbiter.n);
        else if (o->u.arbiter.action != TB_MATCH_ARB_RESOLVE)
            tb_match__appendf(buf, len, " %s", o->u.arbiter.fen);
        break;
    case TB_MATCH_OUT_HELD:
        snprintf(buf, len, "held %s", o->u.held.text);
        break;
    default:
        return TB_ERR_ARG;
    }
    size_t n = strlen(buf);
    return n + 1 >= len ? TB_ERR_FULL : (int)n;
}
