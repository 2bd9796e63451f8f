/* say.c - what the players hear of the match's outputs, in a phrase pack's words. */
#include "bugmatch_internal.h"

/* "Brett A: Zeitüberschreitung, Schwarz gewinnt": the board, why (article 5), the result. */
static int game_over(const struct tb_voice_pack *pack, const struct tb_bugmatch_out *o, char *buf,
                     size_t len)
{
    enum tb_voice_game_end why;
    switch (o->result.reason) {
    case TB_BUG_CHECKMATE:
        why = TB_VOICE_END_MATE;
        break;
    case TB_BUG_RESIGNED:
        why = TB_VOICE_END_RESIGN;
        break;
    case TB_BUG_FLAG:
    case TB_BUG_FLAG_NO_MATE:
        why = TB_VOICE_END_FLAG;
        break;
    case TB_BUG_BOTH_FLAGS:
        why = TB_VOICE_END_FLAGS;
        break;
    case TB_BUG_STALEMATE:
        why = TB_VOICE_END_STALEMATE;
        break;
    case TB_BUG_DEAD:
        why = TB_VOICE_END_DEAD;
        break;
    case TB_BUG_AGREED:
        why = TB_VOICE_END_AGREED;
        break;
    default: /* not an end */
        buf[0] = '\0';
        return 0;
    }
    int result = o->result.result == TB_BUG_WHITE_WINS   ? 1
                 : o->result.result == TB_BUG_BLACK_WINS ? 2
                                                         : 0;
    return tb_voice_phrase_game_over(pack, 'A' + o->board, why, result, buf, len);
}

int tb_bugmatch_out_say(const struct tb_voice_pack *pack, const struct tb_bugmatch_out *o,
                        enum tb_voice_form form, char *buf, size_t len)
{
    if (!pack || !o || !buf || len == 0)
        return TB_ERR_ARG;
    switch (o->kind) {
    case TB_BUGMATCH_OUT_MOVE:
        if (tb_bug_move_is_drop(o->move)) /* 2.2; never a check (2.4) */
            return tb_voice_phrase_drop(pack, tb_bug_move_drop_type(o->move),
                                        tb_chess_move_to(o->move), buf, len);
        return tb_voice_phrase_move_check(pack, &o->before, o->move, form, o->check, buf, len);
    case TB_BUGMATCH_OUT_RECEIVED: /* 2.1 */
        return tb_voice_phrase_received(pack, o->piece, buf, len);
    case TB_BUGMATCH_OUT_POOL: /* 2.6 */
        return tb_voice_phrase_pool(pack, o->pool, buf, len);
    case TB_BUGMATCH_OUT_CHOOSE:
        return tb_voice_phrase_drop_choice(pack, o->square, o->kinds, buf, len);
    case TB_BUGMATCH_OUT_SELECTED: /* the choice button says the piece it selected */
        return tb_voice_phrase_piece(pack, o->piece, buf, len);
    case TB_BUGMATCH_OUT_ILLEGAL_DROP:
        return tb_voice_phrase_drop_refused(pack, o->article, buf, len);
    case TB_BUGMATCH_OUT_RESULT: /* 5.1: all four hear it (a FLAG before it is said with it) */
        return game_over(pack, o, buf, len);
    default:
        return tb_bugmatch__irr_say(pack, o, buf, len); /* article 7 */
    }
}
