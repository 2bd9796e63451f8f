/* say.c - what the players hear of the match's outputs, in a phrase pack's words. */
#include "bugmatch_internal.h"

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
    default:
        return tb_bugmatch__irr_say(pack, o, buf, len); /* article 7 */
    }
}
