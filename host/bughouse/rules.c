/* rules.c - the end of the games, article 5 of the club's rules, as pure judgements over one
 * board and what the other board says. */
#include <string.h>

#include "bug_internal.h"

const char *tb_bug_result_text(enum tb_bug_result r)
{
    switch (r) {
    case TB_BUG_WHITE_WINS:
        return "1-0";
    case TB_BUG_BLACK_WINS:
        return "0-1";
    case TB_BUG_DRAW:
        return "1/2-1/2";
    default:
        return "*";
    }
}

static const char *const reason_text[] = {
    [TB_BUG_NONE] = "",
    [TB_BUG_CHECKMATE] = "checkmate",
    [TB_BUG_RESIGNED] = "resigned",
    [TB_BUG_FLAG] = "flag fell",
    [TB_BUG_FLAG_NO_MATE] = "flag fell, no mate possible",
    [TB_BUG_BOTH_FLAGS] = "both flags fell",
    [TB_BUG_STALEMATE] = "stalemate",
    [TB_BUG_DEAD] = "dead position",
    [TB_BUG_AGREED] = "agreed",
    [TB_BUG_WAIT_STALEMATE] = "stalemated, waiting for a piece",
};

const char *tb_bug_reason_text(enum tb_bug_reason r)
{
    return (unsigned)r < sizeof reason_text / sizeof reason_text[0] ? reason_text[r] : "";
}

const char *tb_bug__reason_article(enum tb_bug_reason r)
{
    switch (r) {
    case TB_BUG_CHECKMATE:
        return "1.5 (FIDE 5.1.1)";
    case TB_BUG_RESIGNED:
        return "5.2";
    case TB_BUG_FLAG:
    case TB_BUG_FLAG_NO_MATE:
        return "5.4";
    case TB_BUG_BOTH_FLAGS:
        return "5.6";
    case TB_BUG_STALEMATE:
    case TB_BUG_DEAD:
    case TB_BUG_WAIT_STALEMATE:
        return "5.3";
    case TB_BUG_AGREED:
        return "5.5";
    default:
        return "";
    }
}

static void set(struct tb_bug_verdict *out, enum tb_bug_result r, enum tb_bug_reason why)
{
    out->result = r;
    out->reason = why;
    out->article = tb_bug__reason_article(why);
    out->last_move = false;
}

static enum tb_bug_result win_for(int color)
{
    return color == TB_CHESS_WHITE ? TB_BUG_WHITE_WINS : TB_BUG_BLACK_WINS;
}

static int board_pieces(const tb_bug_pos *pos, int color)
{
    return __builtin_popcountll(pos->chess.by_color[color]) - 1; /* without the king */
}

bool tb_bug_can_mate(const tb_bug_pos *pos, int color, const bool incoming[2])
{
    int them = color ^ 1;
    if (incoming[color])
        return true; /* the partner may still pass anything */
    int pool = tb_bug_pool_count(pos, color);
    bool their_help = incoming[them] || tb_bug_pool_count(pos, them) > 0;
    if (!pool && !their_help)
        return tb_chess_can_mate(&pos->chess, color); /* exact for a plain board */
    int total = board_pieces(pos, color) + pool;
    if (total == 0)
        return false;
    if (total >= 2)
        return true;
    /* One piece: a pawn, rook or queen can mate (with help); a lone knight or bishop only
     * against a king with pieces of its own to hem it in. */
    int t = 0;
    for (int k = TB_CHESS_PAWN; k <= TB_CHESS_QUEEN; k++)
        if (pos->pool[color][k] || (pos->chess.by_color[color] & pos->chess.by_type[k]))
            t = k;
    if (t == TB_CHESS_PAWN || t == TB_CHESS_ROOK || t == TB_CHESS_QUEEN)
        return true;
    return board_pieces(pos, them) > 0 || their_help;
}

/* Pieces of colour that the other game may still bring: while it goes on, whatever of that
 * colour stands on its board or lies in its pool can be taken and passed (2.1). */
static bool may_receive(const struct tb_bug_other *other, int color)
{
    if (!other || !other->pos || other->ended)
        return false;
    return board_pieces(other->pos, color) > 0 || tb_bug_pool_count(other->pos, color) > 0;
}

void tb_bug_judge_position(const tb_bug_pos *pos, const struct tb_bug_other *other,
                           struct tb_bug_verdict *out)
{
    bool other_ended = !other || !other->pos || other->ended;
    enum tb_bug_pos_state st = tb_bug_pos_state(pos);
    set(out, TB_BUG_ONGOING, TB_BUG_NONE);
    if (st == TB_BUG_POS_CHECKMATE) {
        set(out, win_for(pos->chess.side ^ 1), TB_BUG_CHECKMATE);
        return;
    }
    if (st == TB_BUG_POS_STALEMATE) {
        /* 5.3: a draw only when the other game is over; else the player waits for a piece. */
        set(out, other_ended ? TB_BUG_DRAW : TB_BUG_ONGOING,
            other_ended ? TB_BUG_STALEMATE : TB_BUG_WAIT_STALEMATE);
        return;
    }
    if (other_ended) {
        static const bool none[2] = {false, false};
        if (!tb_bug_can_mate(pos, TB_CHESS_WHITE, none) &&
            !tb_bug_can_mate(pos, TB_CHESS_BLACK, none))
            set(out, TB_BUG_DRAW, TB_BUG_DEAD); /* 5.3 */
    }
}

void tb_bug_judge_resign(const tb_bug_pos *pos, int color, struct tb_bug_verdict *out)
{
    set(out, win_for(color ^ 1), TB_BUG_RESIGNED);
    /* 5.2: resigning off move stands, but the opponent may still play a last move. */
    out->last_move = pos->chess.side != color;
}

void tb_bug_judge_flags(const tb_bug_pos *pos, const bool flag[2], const struct tb_bug_other *other,
                        struct tb_bug_verdict *out)
{
    set(out, TB_BUG_ONGOING, TB_BUG_NONE);
    if (flag[0] && flag[1]) {
        set(out, TB_BUG_DRAW, TB_BUG_BOTH_FLAGS); /* 5.6 */
        return;
    }
    if (!flag[0] && !flag[1])
        return;
    int flagged = flag[0] ? TB_CHESS_WHITE : TB_CHESS_BLACK, opp = flagged ^ 1;
    /* 5.4: the opponent's partner plays the flagged player's colour on the other board and
     * passes what they take there: pieces of the opponent's colour. */
    bool incoming[2] = {may_receive(other, TB_CHESS_WHITE), may_receive(other, TB_CHESS_BLACK)};
    if (tb_bug_can_mate(pos, opp, incoming))
        set(out, win_for(opp), TB_BUG_FLAG);
    else
        set(out, TB_BUG_DRAW, TB_BUG_FLAG_NO_MATE);
}

void tb_bug_judge_agreed(struct tb_bug_verdict *out)
{
    set(out, TB_BUG_DRAW, TB_BUG_AGREED);
}
