/* resolve.c - D.2.9: a mismatch explained and resolved from the two boards' scoresheets.
 *
 * "If during a game different positions arise on the two boards, they must be corrected with
 * the help of the arbiter and by consulting both players' scoresheets. If the two scoresheets
 * agree, the player who wrote the correct move but played a different one must put his/her
 * position right to match the move on the scoresheets. If the scoresheets differ too, the moves
 * are taken back to the point where the two scoresheets agree, and the arbiter adjusts the
 * clock accordingly."
 */
#include "match_internal.h"

#include <stdio.h>
#include <string.h>

#define UNKNOWN_PIECE TB_MATCH_IDENT_UNKNOWN

/* A board's scoresheet: its line and, for the board that must replicate, the announced move
 * (its player has heard it and written it down). */
static void sheet(const tb_match *m, int b, struct tb_match_line *s)
{
    *s = m->extra[b];
    if (m->lead >= 0 && b != m->lead && s->n == 0) {
        s->moves[0] = m->pending;
        s->n = 1;
    }
}

static uint64_t line_occ(const tb_match *m, const struct tb_match_line *l)
{
    tb_chess_pos pos;
    tb_match__line_pos(m, l, l->n, &pos);
    return tb_chess_occupancy(&pos);
}

static int lowest(uint64_t set)
{
    return __builtin_ctzll(set);
}

static void add_action(struct tb_match_square_action *list, int *n, int sq, int piece)
{
    if (*n < TB_MATCH_MAX_SQUARES)
        list[(*n)++] = (struct tb_match_square_action){(uint8_t)sq, (uint8_t)piece};
}

/* Pairs a lift with a place where one piece clearly fits both: the only piece of its kind to
 * lift and the only square that wants it, or the last lift and the last place left. Pairs are
 * moved to the front of both lists. */
static void pair_up(struct tb_match_fix *fix)
{
    int pl[TB_MATCH_MAX_SQUARES], pp[TB_MATCH_MAX_SQUARES], np = 0;
    bool lused[TB_MATCH_MAX_SQUARES] = {false}, pused[TB_MATCH_MAX_SQUARES] = {false};

    for (int i = 0; i < fix->nlift; i++) {
        int piece = fix->lift_list[i].piece, nl = 0, np_same = 0, at = -1;
        if (!piece)
            continue;
        for (int j = 0; j < fix->nlift; j++)
            nl += fix->lift_list[j].piece == piece;
        for (int j = 0; j < fix->nplace; j++) {
            if (fix->place_list[j].piece == piece) {
                np_same++;
                at = j;
            }
        }
        if (nl == 1 && np_same == 1 && !pused[at]) {
            pl[np] = i;
            pp[np++] = at;
            lused[i] = pused[at] = true;
        }
    }
    int ul = -1, up = -1, nul = 0, nup = 0;
    for (int i = 0; i < fix->nlift; i++)
        if (!lused[i]) {
            ul = i;
            nul++;
        }
    for (int j = 0; j < fix->nplace; j++)
        if (!pused[j]) {
            up = j;
            nup++;
        }
    if (nul == 1 && nup == 1 &&
        (!fix->lift_list[ul].piece || fix->lift_list[ul].piece == fix->place_list[up].piece)) {
        fix->lift_list[ul].piece = fix->place_list[up].piece;
        pl[np] = ul;
        pp[np++] = up;
        lused[ul] = pused[up] = true;
    }

    struct tb_match_square_action lift[TB_MATCH_MAX_SQUARES], place[TB_MATCH_MAX_SQUARES];
    int nl = 0, npl = 0;
    for (int k = 0; k < np; k++) {
        lift[nl++] = fix->lift_list[pl[k]];
        place[npl++] = fix->place_list[pp[k]];
    }
    for (int i = 0; i < fix->nlift; i++)
        if (!lused[i])
            lift[nl++] = fix->lift_list[i];
    for (int j = 0; j < fix->nplace; j++)
        if (!pused[j])
            place[npl++] = fix->place_list[j];
    memcpy(fix->lift_list, lift, sizeof lift);
    memcpy(fix->place_list, place, sizeof place);
    fix->npairs = np;
}

/* The piece the move into hist took (0 if none, or if hist is no position of the target's
 * line or the agreed game): a piece that arrived on the board where none went missing is the
 * captured one dropped into a hole (7.4). When the board already shows the target's next move
 * beyond hist (its squares emptied and filled as the move does, with pieces to spare), that
 * move stands and *hist becomes the position after it: the board's player made it (a copy
 * made while play was stopped), and it is no piece to put back. */
static int move_into(const tb_match *m, const struct tb_match_line *target, uint64_t phys,
                     tb_chess_pos *hist)
{
    tb_chess_pos pos;
    tb_chess_undo undo;
    for (int j = 0; j < target->n; j++) {
        tb_match__line_pos(m, target, j, &pos);
        if (pos.key != hist->key)
            continue;
        tb_chess_make(&pos, target->moves[j], &undo);
        uint64_t before = tb_chess_occupancy(hist), after = tb_chess_occupancy(&pos);
        if ((before & ~phys) && !(after & ~phys) && !(before & ~after & phys)) {
            *hist = pos;
            return undo.captured;
        }
        break;
    }
    for (int j = target->n; j >= 1; j--) {
        tb_match__line_pos(m, target, j, &pos);
        if (pos.key != hist->key)
            continue;
        tb_match__line_pos(m, target, j - 1, &pos);
        tb_chess_make(&pos, target->moves[j - 1], &undo);
        return undo.captured;
    }
    if (hist->key == m->game.pos.key && m->game.plies > 0)
        return m->game.undo[m->game.plies - 1].captured;
    return 0;
}

/* The piece the open mismatch's instruction named on sq as one to lift (0 if none): a piece
 * that has not moved keeps its name while moves are made around it. */
static int named_before(const tb_match *m, int b, int sq)
{
    const struct tb_match_fix *f = &m->r.mm.fix[b];
    if (!m->r.open || !m->r.is_mismatch || !(m->r.fix_occ[b] & TB_CHESS_BIT(sq)))
        return 0;
    for (int i = 0; i < f->nlift; i++)
        if (f->lift_list[i].sq == sq && f->lift_list[i].piece != UNKNOWN_PIECE)
            return f->lift_list[i].piece;
    return 0;
}

void tb_match__build_fix(const tb_match *m, int b, const tb_chess_pos *hist_in,
                         const struct tb_match_line *target, int hint_from, int hint_to,
                         struct tb_match_fix *fix)
{
    tb_chess_pos own;
    uint8_t guess[64];

    memset(fix, 0, sizeof *fix);
    if (hist_in)
        own = *hist_in;
    else
        tb_match__line_pos(m, &m->extra[b], m->extra[b].n, &own);
    const tb_chess_pos *hist = &own;
    tb_match__line_pos(m, target, target->n, &fix->target);
    fix->target_ply = m->game.plies + target->n;

    /* What stands where: the scoresheet's position, with the pieces the board shows out of
     * place guessed where one piece can only have gone one way. */
    uint64_t phys = tb_sensor_occupancy(m->sensor[b]);
    int taken = move_into(m, target, phys, &own);
    uint64_t hocc = tb_chess_occupancy(hist);
    uint64_t missing = hocc & ~phys, arrived = phys & ~hocc;
    /* the one kind of piece missing, if every missing piece is of one kind (two white pawns
     * knocked over are white pawns wherever they landed) */
    int kind = missing ? hist->board[lowest(missing)] : 0;
    for (uint64_t s = missing; s; s &= s - 1)
        if (hist->board[lowest(s)] != kind)
            kind = 0;
    memcpy(guess, hist->board, sizeof guess);
    for (uint64_t s = missing; s; s &= s - 1)
        guess[lowest(s)] = 0;
    /* a board that names its pieces says what stands where: nothing to guess */
    if (tb_match__ident_board(m, b, guess))
        arrived = 0;
    for (uint64_t s = arrived; s; s &= s - 1) {
        int sq = lowest(s), named = named_before(m, b, sq);
        if (sq == hint_to && hint_from >= 0 && hint_from < 64 &&
            (missing & TB_CHESS_BIT(hint_from)))
            guess[sq] = hist->board[hint_from];
        else if (named)
            guess[sq] = (uint8_t)named; /* it lies where it lay: the same piece as told */
        else if (kind && __builtin_popcountll(arrived) <= __builtin_popcountll(missing))
            guess[sq] = (uint8_t)kind;
        else if (!missing && taken && __builtin_popcountll(arrived) == 1)
            guess[sq] = (uint8_t)taken; /* the captured piece, dropped into a hole (7.4) */
        else
            guess[sq] = UNKNOWN_PIECE;
    }

    for (int sq = 0; sq < 64; sq++) {
        int g = guess[sq], t = fix->target.board[sq];
        if (g == UNKNOWN_PIECE) {
            if (!t) /* a piece of unknown kind where none belongs; where one belongs, trust it */
                add_action(fix->lift_list, &fix->nlift, sq, 0);
            continue;
        }
        if (g == t)
            continue;
        if (g)
            add_action(fix->lift_list, &fix->nlift, sq, g);
        if (t)
            add_action(fix->place_list, &fix->nplace, sq, t);
    }
    pair_up(fix);
    for (int i = 0; i < fix->nlift; i++)
        fix->lift |= TB_CHESS_BIT(fix->lift_list[i].sq);
    for (int i = 0; i < fix->nplace; i++)
        fix->fill |= TB_CHESS_BIT(fix->place_list[i].sq);
    fix->change = fix->nlift || fix->nplace;
}

static void takebacks(const tb_match *m, int b, int from, struct tb_match_fix *fix)
{
    const struct tb_match_line *l = &m->extra[b];
    for (int j = l->n - 1; j >= from && fix->ntakeback < TB_MATCH_MAX_TAKEBACK; j--) {
        tb_chess_pos pos;
        struct tb_match_takeback *t = &fix->takeback[fix->ntakeback++];
        tb_match__line_pos(m, l, j, &pos);
        t->move = l->moves[j];
        t->ply = m->game.plies + j + 1;
        if (tb_chess_move_to_uci(&pos, t->move, t->uci, sizeof t->uci) < 0)
            t->uci[0] = '\0';
        if (tb_chess_move_to_san(&pos, t->move, TB_CHESS_LETTERS_EN, 0, t->san, sizeof t->san) < 0)
            t->san[0] = '\0';
    }
    if (fix->ntakeback)
        fix->change = true;
}

static void truncate_line(struct tb_match_line *l, int n)
{
    if (l->n > n)
        l->n = n;
}

static int board_of(const tb_match *m, int color)
{
    return m->cfg.board[0].color == color ? 0 : 1;
}

/* The game the two scoresheets describe beyond the agreed one: at each ply the move its
 * player made on their own board (D.2.3), whatever the other board shows there. A move on a
 * scoresheet that its player never made (the opponent's move made on this board, a move out
 * of turn) is no move of the game. k[b]: how many moves of board b's scoresheet are the game's;
 * the rest are taken back (D.2.9). */
static void game_line(const tb_match *m, const struct tb_match_line s[TB_MATCH_BOARDS],
                      struct tb_match_line *g, int k[TB_MATCH_BOARDS])
{
    g->n = 0;
    for (int j = 0; j < TB_MATCH_MAX_EXTRA; j++) {
        int o = board_of(m, m->game.pos.side ^ (j & 1));
        if (s[o].n <= j)
            break;
        bool on_line = true;
        for (int i = 0; i < j; i++)
            on_line = on_line && s[o].moves[i] == g->moves[i];
        if (!on_line)
            break;
        g->moves[g->n++] = s[o].moves[j];
    }
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        k[b] = 0;
        while (k[b] < s[b].n && k[b] < g->n && s[b].moves[k[b]] == g->moves[k[b]])
            k[b]++;
    }
}

/* The D.2.9 resolution of the present state: what each board must show and do. Each board is
 * put right towards the game the scoresheets describe: a move its player made in turn stands,
 * whatever the other board did. */
static void build_resolution(tb_match *m, int origin, int hint_from, int hint_to,
                             tb_chess_move complete)
{
    struct tb_match_restore *r = &m->r;
    struct tb_match_mismatch *mm = &r->mm;
    struct tb_match_line s[TB_MATCH_BOARDS], g;
    int k[TB_MATCH_BOARDS];

    for (int b = 0; b < TB_MATCH_BOARDS; b++)
        sheet(m, b, &s[b]);
    int d = 0;
    while (d < s[0].n && d < s[1].n && s[0].moves[d] == s[1].moves[d])
        d++;
    game_line(m, s, &g, k);
    mm->sheets_agree = k[0] >= m->extra[0].n && k[1] >= m->extra[1].n;
    mm->agree_plies = m->game.plies + d;
    mm->boards = 0;
    mm->needs_arbiter = false;

    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        struct tb_match_line a = m->extra[b], sh = s[b];
        uint64_t phys = tb_sensor_occupancy(m->sensor[b]);
        truncate_line(&a, k[b]);
        truncate_line(&sh, k[b]);
        r->has_alt[b] = r->alt_due[b] = false;
        if (m->copy_due[b] && a.n == m->extra[b].n) {
            /* own move made first: the copy completes the board; without it the board shows
             * its own move and the copy is still due */
            r->target[b] = a;
            r->alt[b] = a;
            r->has_alt[b] = r->alt_due[b] = true;
        } else if (complete && b == origin && a.n < TB_MATCH_MAX_EXTRA) {
            /* D.2.3: finish the move (remove the captured piece), or take it back */
            r->alt[b] = a;
            r->has_alt[b] = true;
            a.moves[a.n++] = complete;
            r->target[b] = a;
        } else if (sh.n > a.n) {
            /* the announced move may be made or not yet: the nearer position is asked for, the
             * scoresheet's on a tie */
            int da = __builtin_popcountll(phys ^ line_occ(m, &a));
            int ds = __builtin_popcountll(phys ^ line_occ(m, &sh));
            r->target[b] = ds <= da ? sh : a;
            r->alt[b] = ds <= da ? a : sh;
            r->has_alt[b] = true;
        } else {
            r->target[b] = a;
        }
        r->occ_target[b] = line_occ(m, &r->target[b]);
        r->occ_alt[b] = r->has_alt[b] ? line_occ(m, &r->alt[b]) : r->occ_target[b];
        if (r->alt_due[b])
            r->occ_alt[b] = tb_chess_occupancy(&m->due_pos[b]);

        struct tb_match_fix *fix = &mm->fix[b];
        tb_match__build_fix(m, b, &r->hist[b], &r->target[b], b == origin ? hint_from : -1,
                            b == origin ? hint_to : -1, fix);
        r->fix_occ[b] = phys;
        if (r->alt_due[b] && phys == r->occ_alt[b]) {
            fix->change = false; /* the copy is due, nothing is wrong */
            fix->nlift = fix->nplace = fix->npairs = 0;
            fix->lift = fix->fill = 0;
        }
        if (k[b] < m->extra[b].n)
            takebacks(m, b, k[b], fix);
        if (fix->change)
            mm->boards |= 1u << b;
        if (fix->ntakeback)
            mm->needs_arbiter = true;
    }
}

static void move_text(const tb_match *m, int b, tb_chess_move mv, bool appended, char *buf,
                      size_t len)
{
    tb_chess_pos pos;
    int n = m->extra[b].n - (appended ? 1 : 0);
    tb_match__line_pos(m, &m->extra[b], n, &pos);
    if (!mv || tb_chess_move_to_uci(&pos, mv, buf, len) < 0) {
        char a[3], c[3];
        if (mv)
            snprintf(buf, len, "%s%s", tb_chess_square_name(tb_chess_move_from(mv), a),
                     tb_chess_square_name(tb_chess_move_to(mv), c));
        else
            snprintf(buf, len, "-");
    }
}

static void explain(tb_match *m, bool appended)
{
    struct tb_match_mismatch *mm = &m->r.mm;
    char label[48], made[16], exp[16], sq[3], sq2[3];
    int b = mm->board;
    tb_match__board_label(m, b, label, sizeof label);
    move_text(m, b, mm->move, appended, made, sizeof made);
    snprintf(exp, sizeof exp, "-");
    if (mm->expected) {
        tb_chess_pos pos = m->game.pos;
        if (tb_chess_move_to_uci(&pos, mm->expected, exp, sizeof exp) < 0)
            snprintf(exp, sizeof exp, "?");
    }
    tb_chess_square_name(mm->square < 64 ? mm->square : 0, sq);
    tb_chess_square_name(mm->square2 < 64 ? mm->square2 : 0, sq2);
    char *t = mm->text;
    size_t n = sizeof mm->text;
    snprintf(t, n, "#%u %s: %s, ply %d: ", (unsigned)mm->id, tb_match__mismatch_words(mm->kind),
             label, mm->ply);
    switch (mm->kind) {
    case TB_MATCH_MM_WRONG_MOVE:
        tb_match__appendf(t, n, "%s was made where the announced %s was to be replicated", made,
                          exp);
        break;
    case TB_MATCH_MM_TWO_AHEAD:
        if (appended)
            tb_match__appendf(t, n,
                              "the opponent's next move %s was made here before the %s board "
                              "replicated this board's move",
                              made, m->cfg.board[1 - b].name);
        else if (mm->expected)
            tb_match__appendf(t, n, "%s moved again (%s) before replicating the announced %s",
                              tb_match__color_name(m->cfg.board[b].color), made, exp);
        else
            tb_match__appendf(t, n, "%s moved again (%s) before the opponent replied",
                              tb_match__color_name(m->cfg.board[b].color), made);
        break;
    case TB_MATCH_MM_OUT_OF_TURN:
        tb_match__appendf(t, n,
                          "%s made on the board of the player not to move (%s is to move, "
                          "on the %s board)",
                          made, tb_match__color_name(m->game.pos.side), m->cfg.board[1 - b].name);
        break;
    case TB_MATCH_MM_DISPLACED: {
        const struct tb_match_fix *f = &mm->fix[b];
        char list[160] = "";
        tb_match__fix_text(f, list, sizeof list);
        tb_match__appendf(t, n, "the board does not show the game: %s", list);
        break;
    }
    case TB_MATCH_MM_ILLEGAL:
        if (mm->move)
            tb_match__appendf(t, n, "%s is no legal move here (the other side's move)", made);
        else if (mm->square < 64 && mm->square2 < 64)
            tb_match__appendf(t, n,
                              "the piece from %s was placed on %s, where no legal move puts "
                              "it",
                              sq, sq2);
        else
            tb_match__appendf(t, n,
                              "the king followed a rook released first (4.4.2): the rook "
                              "move stands, the king goes back");
        break;
    case TB_MATCH_MM_INCOMPLETE:
        tb_match__appendf(t, n, "move not complete: remove the captured piece on %s (%s)", sq,
                          made);
        break;
    case TB_MATCH_MM_SWAPPED: {
        char list[200];
        tb_match__ident_text(m, b, &m->r.hist[b], list, sizeof list);
        tb_match__appendf(t, n, "the pieces are not the game's: %s", list);
        break;
    }
    }
}

static void propose(tb_match *m)
{
    struct tb_match_mismatch *mm = &m->r.mm;
    char *t = mm->resolution;
    size_t n = sizeof mm->resolution;
    if (mm->sheets_agree)
        snprintf(t, n, "D.2.9: the scoresheets agree (up to ply %d)", mm->agree_plies);
    else
        snprintf(t, n,
                 "D.2.9: the scoresheets agree up to ply %d and differ after it: take back "
                 "to there",
                 mm->agree_plies);
    bool any = false;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        const struct tb_match_fix *f = &mm->fix[b];
        char label[48], list[200] = "";
        if (!f->change)
            continue;
        any = true;
        tb_match__board_label(m, b, label, sizeof label);
        tb_match__appendf(t, n, "; %s", label);
        if (f->ntakeback) {
            tb_match__appendf(t, n, ": take back");
            for (int i = 0; i < f->ntakeback; i++)
                tb_match__appendf(t, n, " %d.%s%s (%s)", (f->takeback[i].ply + 1) / 2,
                                  f->takeback[i].ply % 2 ? "" : "..", f->takeback[i].san,
                                  f->takeback[i].uci);
        } else {
            tb_match__appendf(t, n, ": put the position right");
        }
        tb_match__fix_text(f, list, sizeof list);
        if (list[0])
            tb_match__appendf(t, n, ": %s", list);
    }
    if (!any)
        tb_match__appendf(t, n, "; nothing to change");
    if (!mm->sheets_agree)
        tb_match__appendf(t, n, "; the arbiter adjusts the clocks");
    tb_match__appendf(t, n,
                      mm->needs_arbiter ? "; confirm with resolve %u"
                                        : "; clears when the board is put right",
                      (unsigned)mm->id);
}

void tb_match__raise(tb_match *m, enum tb_match_mismatch_kind kind, int b, tb_chess_move move,
                     tb_chess_move expected, int sq, int sq2, tb_chess_move complete)
{
    struct tb_match_restore *r = &m->r;
    memset(r, 0, sizeof *r);
    r->open = true;
    r->is_mismatch = true;
    r->id = ++m->next_id;
    struct tb_match_mismatch *mm = &r->mm;
    const struct tb_match_line *l = &m->extra[b];
    bool appended = move && l->n > 0 && l->moves[l->n - 1] == move;
    mm->id = r->id;
    mm->kind = kind;
    mm->board = b;
    mm->ply = m->game.plies + l->n + (appended ? 0 : 1);
    mm->move = move;
    mm->expected = expected;
    mm->square = (uint8_t)(sq >= 0 && sq < 64 ? sq : TB_CHESS_NOSQ);
    mm->square2 = (uint8_t)(sq2 >= 0 && sq2 < 64 ? sq2 : TB_CHESS_NOSQ);
    for (int i = 0; i < TB_MATCH_BOARDS; i++)
        tb_match__board_pos(m, i, &r->hist[i]);
    r->hint_board = b;
    r->hint_from = sq;
    r->hint_to = sq2;
    r->complete = complete;
    build_resolution(m, b, sq, sq2, complete);
    if (mm->square < 64)
        mm->squares |= TB_CHESS_BIT(mm->square);
    if (mm->square2 < 64)
        mm->squares |= TB_CHESS_BIT(mm->square2);
    mm->squares |= mm->fix[b].lift | mm->fix[b].fill;
    explain(m, appended);
    propose(m);
    for (int i = 0; i < TB_MATCH_BOARDS; i++)
        m->incomplete_at[i] = m->settle_at[i] = m->idle_at[i] = m->early_at[i] = TB_MATCH_NOTIME;
    m->remind_at = TB_MATCH_NOTIME;
    m->copy_remind_at = TB_MATCH_NOTIME;

    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_MISMATCH);
    o->u.mismatch = *mm;
    for (int i = 0; i < TB_MATCH_BOARDS; i++) {
        tb_match__announce_msg(m, i,
                               kind == TB_MATCH_MM_ILLEGAL && i == b ? TB_MATCH_MSG_ILLEGAL
                                                                     : TB_MATCH_MSG_MISMATCH);
        if (mm->needs_arbiter)
            tb_match__announce_msg(m, i, TB_MATCH_MSG_ARBITER);
        else if (mm->fix[i].nlift || mm->fix[i].nplace)
            tb_match__announce_fix(m, i, &mm->fix[i], mm->id);
    }
}

void tb_match__close(tb_match *m, bool by_arbiter, const char *why)
{
    if (!m->r.open)
        return;
    /* A square the last instruction asked to empty and fill (a piece swapped on one square:
     * the switches cannot see it done) may still be handled after the board reads right:
     * that is putting right, no touch (4.2, D.2.2). */
    for (int b = 0; b < TB_MATCH_BOARDS; b++)
        m->swap_sq[b] = m->r.said[b] ? m->r.said_lift[b] & m->r.said_fill[b] : 0;
    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_RESOLVED);
    o->u.resolved.id = m->r.id;
    o->u.resolved.by_arbiter = by_arbiter;
    snprintf(o->u.resolved.text, sizeof o->u.resolved.text, "#%u resolved: %s", (unsigned)m->r.id,
             why);
    m->r.open = false;
}

/* A move stood while play was stopped (flow.c, move_stands): the resolution is built again
 * from the scoresheets as they are now. It may need nothing any more (the other board's early
 * copy was this very move): then it clears as soon as both boards show their positions. */
void tb_match__reresolve(tb_match *m)
{
    struct tb_match_restore *r = &m->r;
    if (!r->open || !r->is_mismatch)
        return;
    bool hint = r->hint_board >= 0; /* it still names what stands on the origin board */
    build_resolution(m, r->mm.board, hint ? r->hint_from : -1, hint ? r->hint_to : -1, r->complete);
    propose(m);
}

/* The open mismatch's lists follow the board: rebuilt from what stands on it now (force: what
 * stands there changed by a move held while play is stopped), its takebacks kept. */
void tb_match__refresh_fix(tb_match *m, int b, bool force)
{
    struct tb_match_restore *r = &m->r;
    if (!r->open || !r->is_mismatch)
        return;
    uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
    if (!force && occ == r->fix_occ[b])
        return;
    struct tb_match_fix *old = &r->mm.fix[b], now;
    bool origin = b == r->hint_board;
    tb_match__build_fix(m, b, &r->hist[b], &r->target[b], origin ? r->hint_from : -1,
                        origin ? r->hint_to : -1, &now);
    now.ntakeback = old->ntakeback;
    memcpy(now.takeback, old->takeback, sizeof now.takeback);
    now.change = now.change || now.ntakeback > 0;
    *old = now;
    r->fix_occ[b] = occ;
}

void tb_match__check_progress(tb_match *m)
{
    struct tb_match_restore *r = &m->r;
    if (!r->open)
        return;
    if (r->is_mismatch && r->mm.needs_arbiter && !r->confirmed)
        return;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        uint64_t occ = tb_sensor_occupancy(m->sensor[b]);
        if (m->cfg.board[b].typed) /* its assistant puts it right by hand */
            continue;
        if (occ != r->occ_target[b] && !(r->has_alt[b] && occ == r->occ_alt[b]))
            return;
        /* a board that names its pieces is right when its pieces are */
        tb_chess_pos want;
        if (occ == r->occ_target[b])
            tb_match__line_pos(m, &r->target[b], r->target[b].n, &want);
        else if (r->alt_due[b])
            want = m->due_pos[b];
        else
            tb_match__line_pos(m, &r->alt[b], r->alt[b].n, &want);
        if (tb_match__ident_wrong(m, b, &want))
            return;
    }
    tb_match__close(m, r->confirmed,
                    r->confirmed ? "both boards show the resolved position; play goes on"
                                 : "put right on the board; play goes on");
    tb_match__finish(m);
}

void tb_match__restore_start(tb_match *m, enum tb_match_arbiter_action action, int n,
                             const tb_chess_pos hist[TB_MATCH_BOARDS])
{
    struct tb_match_restore *r = &m->r;
    tb_match__close(m, true, "superseded by the arbiter's decision");
    memset(r, 0, sizeof *r);
    r->open = true;
    r->confirmed = true;
    r->hint_board = -1;
    r->action = action;
    r->id = ++m->next_id;
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        r->hist[b] = hist[b];
        m->extra[b].n = 0;
        m->copy_due[b] = false;
        m->settle_at[b] = m->idle_at[b] = m->early_at[b] = TB_MATCH_NOTIME;
        r->occ_target[b] = r->occ_alt[b] = tb_chess_occupancy(&m->game.pos);
        r->dirty[b] = true;
        m->incomplete_at[b] = TB_MATCH_NOTIME;
    }
    m->lead = -1;
    m->pending = 0;
    m->pending_flags = 0;
    m->remind_at = TB_MATCH_NOTIME;
    m->copy_remind_at = TB_MATCH_NOTIME;

    struct tb_match_out *o = tb_match__emit(m, TB_MATCH_OUT_ARBITER);
    o->u.arbiter.action = action;
    o->u.arbiter.id = r->id;
    o->u.arbiter.n = n;
    tb_chess_pos_to_fen(&m->game.pos, o->u.arbiter.fen, sizeof o->u.arbiter.fen);
    for (int b = 0; b < TB_MATCH_BOARDS; b++) {
        struct tb_match_fix fix;
        tb_match__build_fix(m, b, &r->hist[b], &r->target[b], -1, -1, &fix);
        if (fix.nlift || fix.nplace)
            tb_match__announce_fix(m, b, &fix, r->id);
    }
    tb_match__check_progress(m);
}
