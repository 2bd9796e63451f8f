/* can_mate.c - can a side ever checkmate (6.9: after a flag fall the game is drawn if the
 * opponent cannot mate "by any possible series of legal moves")?
 *
 * Decided on material. A pawn can promote to anything, a rook or queen mates a bare king, and
 * so do two knights, knight and bishop, or bishops on both square colours (mates exist; none
 * need be forced). What remains is a lone knight, or bishops all on one colour: they mate only
 * when the defender's own men block its king's flight squares without being able to take the
 * checking piece or step into the check. Searching every board with one defending man
 * (tests/unit/clock/test_flag.c) finds such mates against a pawn, a knight, a bishop, or a rook
 * for the knight; against a bishop of the other colour for the bishop; and none against a queen
 * (for either), a rook or a same-coloured bishop (for the bishop). Those men attack every
 * square from which the lone piece could give check, or step into its line, and more of them
 * only attack more: a search of every board with two such men (docs/clock.md) found no mate.
 *
 * Limits: material is all this looks at. Pawns that can never move again (a locked chain) are
 * still counted as pawns that may promote, so a position whose pieces cannot reach a mate is
 * called "can mate": a flag fall is judged a loss unless the draw is certain. */
#include "chess_internal.h"

bool tb_chess_can_mate(const tb_chess_pos *pos, int color)
{
    const uint64_t *t = pos->by_type;
    uint64_t own = pos->by_color[color] & ~t[TB_CHESS_KING];
    uint64_t other = pos->by_color[color ^ 1] & ~t[TB_CHESS_KING];
    if (!own)
        return false; /* a bare king never mates */
    if (own & (t[TB_CHESS_PAWN] | t[TB_CHESS_ROOK] | t[TB_CHESS_QUEEN]))
        return true;
    uint64_t knights = own & t[TB_CHESS_KNIGHT], bishops = own & t[TB_CHESS_BISHOP];
    if ((knights && bishops) || tb_many(knights))
        return true;
    uint64_t dark = bishops & TB_DARK_SQUARES;
    if (dark && dark != bishops)
        return true; /* bishops on both colours */
    /* A lone knight, or bishops on one colour: the defender's men must block its king. */
    if (other & (t[TB_CHESS_PAWN] | t[TB_CHESS_KNIGHT]))
        return true;
    if (knights)
        return (other & (t[TB_CHESS_BISHOP] | t[TB_CHESS_ROOK])) != 0;
    uint64_t other_colour = dark ? ~TB_DARK_SQUARES : TB_DARK_SQUARES;
    return (other & t[TB_CHESS_BISHOP] & other_colour) != 0;
}
