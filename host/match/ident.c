/* ident.c - a board that names its pieces (a DGT e-board) compared piece by piece.
 *
 * A reed board sees occupancy only; a board that names its pieces also shows a knight and a
 * bishop swapped, or a piece of the wrong colour, which occupancy cannot. Once such a board has
 * stood still for ident_ms in its position by occupancy, each piece is compared with the
 * position its scoresheet gives; another piece on a square is a mismatch (D.2.9: the board is
 * put right, the scoresheets agree). While a mismatch is open the board counts as put right only
 * when its pieces are right too (tb_match__check_progress). */
#include "match_internal.h"

#include <stdio.h>
#include <string.h>

void tb_match__ident_event(tb_match *m, int b, const struct tb_match_event *ev)
{
    switch (ev->kind) {
    case TB_MATCH_EV_SNAPSHOT:
        m->ident_on[b] = ev->has_pieces; /* a reading without pieces: occupancy only */
        for (int sq = 0; sq < 64; sq++) {
            bool occ = ev->occupancy & TB_CHESS_BIT(sq);
            int p = ev->has_pieces ? ev->pieces[sq] : 0;
            m->ident[b][sq] = !occ ? 0 : p ? (uint8_t)p : TB_MATCH_IDENT_UNKNOWN;
        }
        break;
    case TB_MATCH_EV_LIFT:
        m->ident[b][ev->square] = 0;
        break;
    case TB_MATCH_EV_PLACE:
        m->ident[b][ev->square] = ev->piece ? ev->piece : TB_MATCH_IDENT_UNKNOWN;
        break;
    default:
        return;
    }
    m->ident_at[b] = m->ident_on[b] && m->cfg.ident_ms ? m->now + m->cfg.ident_ms : TB_MATCH_NOTIME;
}

static uint64_t ident_occ(const tb_match *m, int b)
{
    uint64_t occ = 0;
    for (int sq = 0; sq < 64; sq++)
        if (m->ident[b][sq])
            occ |= TB_CHESS_BIT(sq);
    return occ;
}

bool tb_match__ident_board(const tb_match *m, int b, uint8_t out[64])
{
    if (!m->ident_on[b] || ident_occ(m, b) != tb_sensor_occupancy(m->sensor[b]))
        return false;
    memcpy(out, m->ident[b], 64);
    return true;
}

uint64_t tb_match__ident_wrong(const tb_match *m, int b, const tb_chess_pos *pos)
{
    if (!m->ident_on[b])
        return 0;
    uint64_t wrong = ident_occ(m, b) ^ tb_chess_occupancy(pos);
    for (int sq = 0; sq < 64; sq++) {
        int p = m->ident[b][sq];
        if (p && p != TB_MATCH_IDENT_UNKNOWN && pos->board[sq] && p != pos->board[sq])
            wrong |= TB_CHESS_BIT(sq);
    }
    return wrong;
}

/* A quiet board in its position by occupancy, with other pieces than the position's: pieces
 * swapped or of the wrong colour. */
static void compare(tb_match *m, int b)
{
    if (m->r.open || m->cfg.board[b].typed)
        return; /* an open mismatch is cleared by tb_match__check_progress, pieces included */
    tb_chess_pos pos;
    tb_match__board_pos(m, b, &pos);
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    if (occ != tb_chess_occupancy(&pos) || occ != ident_occ(m, b))
        return; /* a move under way, or what occupancy shows: the recogniser's business */
    uint64_t wrong = tb_match__ident_wrong(m, b, &pos);
    if (!wrong)
        return;
    int sq = __builtin_ctzll(wrong);
    uint64_t rest = wrong & (wrong - 1);
    tb_match__raise(m, TB_MATCH_MM_SWAPPED, b, 0, 0, sq, rest ? __builtin_ctzll(rest) : -1, 0);
}

void tb_match__ident_due(tb_match *m)
{
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        if (m->ident_at[b] > m->now)
            continue;
        m->ident_at[b] = TB_MATCH_NOTIME;
        compare(m, b);
    }
}

/* "on b1 a white bishop instead of the white knight, ..." */
void tb_match__ident_text(const tb_match *m, int b, const tb_chess_pos *pos, char *buf, size_t len)
{
    uint64_t wrong = tb_match__ident_wrong(m, b, pos);
    const char *sep = "";
    buf[0] = '\0';
    for (; wrong; wrong &= wrong - 1) {
        int sq = __builtin_ctzll(wrong), seen = m->ident[b][sq], want = pos->board[sq];
        if (!seen || !want || seen == TB_MATCH_IDENT_UNKNOWN)
            continue; /* only pieces standing where pieces belong */
        char name[3];
        tb_match__appendf(
            buf, len, "%son %s a %s %s instead of the %s %s", sep, tb_chess_square_name(sq, name),
            TB_CHESS_PIECE_COLOR(seen) ? "black" : "white", tb_match__piece_name(seen),
            TB_CHESS_PIECE_COLOR(want) ? "black" : "white", tb_match__piece_name(want));
        sep = ", ";
    }
}
