/* irregular_text.c - article 7's outputs as English lines for the arbiter and as the words the
 * players hear. */
#include <stdio.h>

#include "bugmatch_internal.h"

/* "c1h6" */
static const char *squares(tb_bug_move m, char buf[5])
{
    char a[3], b[3];
    snprintf(buf, 5, "%s%s", tb_chess_square_name(tb_chess_move_from(m), a),
             tb_chess_square_name(tb_chess_move_to(m), b));
    return buf;
}

int tb_bugmatch__irr_format(const struct tb_bugmatch_out *o, const char *who, char *buf, size_t len)
{
    char mv[5], sq[3], opp[16];
    int board = 'A' + o->board;
    snprintf(opp, sizeof opp, "%c %s", board, o->seat & 1 ? "White" : "Black");
    switch (o->kind) {
    case TB_BUGMATCH_OUT_ILLEGAL_MOVE:
        if (o->reason && o->reason[0])
            return snprintf(buf, len,
                            "%s: illegal move %s (%s): it cannot stand (%s); %s may "
                            "demand a legal move",
                            who, o->san, o->article, o->reason, opp);
        return snprintf(buf, len,
                        "%s: illegal move %s (%s): %s may accept it or demand a legal "
                        "move",
                        who, o->san, o->article, opp);
    case TB_BUGMATCH_OUT_ACCEPTED:
        return snprintf(buf, len, "%s accepts the illegal move %s (%s%s)", who,
                        squares(o->move, mv), o->article,
                        o->article[2] == '5' ? ": played on" : "");
    case TB_BUGMATCH_OUT_REPLACE:
        return snprintf(buf, len,
                        "%s must take back %s and play a legal move, the piece on %s "
                        "touched (%s, 7.6)",
                        who, squares(o->move, mv), tb_chess_square_name(o->square, sq), o->article);
    case TB_BUGMATCH_OUT_RETURNED:
        return snprintf(buf, len, "%s gives back: %s (%s)", who, tb_bugmatch__piece_name(o->piece),
                        o->article);
    case TB_BUGMATCH_OUT_BLOCKED:
        if (o->square < 64)
            return snprintf(buf, len,
                            "%s may not move (to %s refused) until a %s is taken off "
                            "board %c (%s)",
                            who, tb_chess_square_name(o->square, sq),
                            tb_bugmatch__piece_name(o->piece), board, o->article);
        return snprintf(buf, len, "%s may not move until a %s is taken off board %c (%s)", who,
                        tb_bugmatch__piece_name(o->piece), board, o->article);
    case TB_BUGMATCH_OUT_HANDED_BACK:
        return snprintf(buf, len, "%c: %s on %s handed back, %s may move (%s)", board,
                        tb_bugmatch__piece_name(o->piece), tb_chess_square_name(o->square, sq), who,
                        o->article);
    case TB_BUGMATCH_OUT_PUT_BACK:
        return snprintf(buf, len, "%c: board put back before %s", board, squares(o->move, mv));
    default:
        return TB_ERR_ARG;
    }
}

int tb_bugmatch__irr_say(const struct tb_voice_pack *pack, const struct tb_bugmatch_out *o,
                         char *buf, size_t len)
{
    switch (o->kind) {
    case TB_BUGMATCH_OUT_ILLEGAL_MOVE: /* 7.4: to the opponent */
        return tb_voice_phrase_illegal(pack, o->piece, tb_chess_move_from(o->move),
                                       tb_chess_move_to(o->move), o->article, buf, len);
    case TB_BUGMATCH_OUT_ACCEPTED:
        return tb_voice_phrase_irregular(pack, TB_VOICE_IRR_ACCEPTED, 0, 0, 0, o->article, buf,
                                         len);
    case TB_BUGMATCH_OUT_REPLACE:
        return tb_voice_phrase_irregular(pack, TB_VOICE_IRR_REPLACE, 0, o->square, 0, o->article,
                                         buf, len);
    case TB_BUGMATCH_OUT_RETURNED:
        return tb_voice_phrase_irregular(pack, TB_VOICE_IRR_RETURNED, o->piece, 0, 0, o->article,
                                         buf, len);
    case TB_BUGMATCH_OUT_BLOCKED:
        return tb_voice_phrase_irregular(pack, TB_VOICE_IRR_BLOCKED, o->piece, 0, 'A' + o->board,
                                         o->article, buf, len);
    case TB_BUGMATCH_OUT_HANDED_BACK:
        return tb_voice_phrase_irregular(pack, TB_VOICE_IRR_HANDED_BACK, o->piece, o->square, 0,
                                         o->article, buf, len);
    default:
        buf[0] = '\0';
        return 0;
    }
}
