/* Random board events and arbiter decisions on both boards: the match never breaks. Every
 * board's scoresheet stays a legal line from the start that begins with the agreed game,
 * every output can be written as text, and a board put back to the agreed position with the
 * arbiter's help always brings the match back in sync. */
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check_sheets(const struct fixture *f)
{
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    const tb_chess_game *g = tb_match_game(f->m);
    for (int b = 0; b < 2; b++) {
        int n = tb_match_history(f->m, b, moves, TB_CHESS_GAME_MAX_PLIES);
        ASSERT_GE(n, g->plies);
        ASSERT_LE(n, g->plies + 4);
        tb_chess_pos pos = g->start;
        for (int i = 0; i < n; i++) {
            if (i < g->plies)
                ASSERT_EQ(moves[i], g->moves[i]);
            if (!tb_chess_is_legal(&pos, moves[i]))
                TB_FAIL("board %d: ply %d of its scoresheet is not legal", b, i + 1);
            tb_chess_undo undo;
            tb_chess_make(&pos, moves[i], &undo);
        }
    }
}

/* The arbiter stops everything: both boards set to the agreed position by snapshot. */
static void restore(struct fixture *f)
{
    struct tb_error err;
    struct tb_match_status st;
    const struct tb_match_mismatch *mm = tb_match_open_mismatch(f->m);
    if (mm)
        ASSERT_OK(tb_match_resolve(f->m, mm->id, f->t, &err));
    tb_match_status(f->m, &st);
    if (st.state == TB_MATCH_RESTORING || st.state == TB_MATCH_BLOCKED) {
        struct tb_match_fix fix[2];
        for (int b = 0; b < 2; b++)
            ASSERT_OK(tb_match_board_fix(f->m, b, &fix[b]));
        for (int b = 0; b < 2; b++) {
            struct tb_match_event snap = {.kind = TB_MATCH_EV_SNAPSHOT};
            snap.occupancy = tb_chess_occupancy(&fix[b].target);
            f->t += 10;
            ASSERT_OK(tb_match_board_event(f->m, b, &snap, f->t));
        }
    }
    fx_wait(f, 3000);
    tb_match_status(f->m, &st);
    if (st.state == TB_MATCH_BLOCKED || st.state == TB_MATCH_RESTORING) {
        char dump[16384];
        fx_dump(f, dump, sizeof dump);
        TB_FAIL("still %s after the boards were set:\n%s", tb_match_state_name(st.state), dump);
    }
}

TB_TEST(random_events_never_break_the_match)
{
    struct fixture f;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int mismatches = 0;
    char line[1200];
    struct tb_error err;
    fx_init(&f, NULL, false);
    for (int i = 0; i < 20000; i++) {
        uint64_t r = rnd(&seed);
        int b = (int)(r & 1);
        int sq = (int)((r >> 1) & 63);
        uint64_t occ = tb_match_occupancy(f.m, b);
        struct tb_match_event ev = {.square = (uint8_t)sq};
        switch ((r >> 8) % 16) {
        case 0:
            f.t += r >> 60;
            tb_match_tick(f.m, f.t);
            break;
        case 1:
            if ((r >> 12) % 50 == 0)
                tb_match_takeback(f.m, 1 + (int)((r >> 20) % 3), f.t, &err);
            else if ((r >> 12) % 50 == 1)
                restore(&f);
            else
                tb_match_promote(f.m, b, TB_CHESS_KNIGHT + (int)((r >> 20) % 4), f.t);
            break;
        default:
            ev.kind = (occ >> sq) & 1 ? TB_MATCH_EV_LIFT : TB_MATCH_EV_PLACE;
            f.t += 50 + (r >> 40) % 400;
            ASSERT_OK(tb_match_board_event(f.m, b, &ev, f.t));
        }
        fx_drain(&f);
        if (i % 97 == 0)
            check_sheets(&f);
        if (f.nout > 1000) { /* every output can be written; then forget them */
            for (int k = 0; k < f.nout; k++)
                ASSERT_GE(tb_match_out_format(&f.outs[k], line, sizeof line), 0);
            mismatches += fx_count(&f, TB_MATCH_OUT_MISMATCH);
            f.nout = f.mark = 0;
        }
    }
    mismatches += fx_count(&f, TB_MATCH_OUT_MISMATCH);
    restore(&f);
    check_sheets(&f);
    ASSERT_GT(mismatches, 10);
    fx_free(&f);
}

/* Legal games played at random on the right boards, with a random slip now and then that the
 * player puts right at once: the game goes on in sync. */
TB_TEST(random_games_with_slips_put_right_stay_in_sync)
{
    struct fixture f;
    uint64_t seed = 12345;
    int slips = 0;
    fx_init(&f, NULL, false);
    for (int ply = 0; ply < 60; ply++) {
        tb_chess_movelist list;
        const tb_chess_game *g = tb_match_game(f.m);
        if (tb_chess_gen_legal(&g->pos, &list) == 0)
            break;
        tb_chess_move mv = list.moves[rnd(&seed) % (uint64_t)list.count];
        char uci[8];
        tb_chess_move_to_uci(&g->pos, mv, uci, sizeof uci);
        int mover = g->pos.side == TB_CHESS_WHITE ? 0 : 1;
        fx_move(&f, mover, uci);
        if (rnd(&seed) % 4 == 0) {
            /* a slip on the copying board: a piece of the mover's side knocked one file over
             * and put straight back */
            tb_chess_pos pos;
            fx_board_pos(&f, 1 - mover, &pos);
            uint64_t own = pos.by_color[pos.side ^ 1];
            for (uint64_t s = own; s; s &= s - 1) {
                int from = __builtin_ctzll(s);
                int to = from ^ 1;
                if (TB_CHESS_BIT(to) & (pos.by_color[0] | pos.by_color[1]))
                    continue;
                char a[3], c[3];
                tb_chess_square_name(from, a);
                tb_chess_square_name(to, c);
                fx_hand(&f, 1 - mover, a, c);
                fx_hand(&f, 1 - mover, c, a);
                break;
            }
        }
        fx_move(&f, 1 - mover, uci);
        struct tb_match_status st;
        tb_match_status(f.m, &st);
        if (st.state != TB_MATCH_IN_SYNC || tb_match_game(f.m)->plies != ply + 1) {
            char dump[16384];
            fx_dump(&f, dump, sizeof dump);
            TB_FAIL("ply %d %s: %s, %d plies:\n%s", ply + 1, uci, tb_match_state_name(st.state),
                    tb_match_game(f.m)->plies, dump);
        }
        slips += fx_count(&f, TB_MATCH_OUT_MISMATCH);
        ASSERT_EQ(fx_count(&f, TB_MATCH_OUT_RESOLVED), fx_count(&f, TB_MATCH_OUT_MISMATCH));
        fx_mark(&f);
    }
    ASSERT_GE(slips, 8); /* the slips were seen, and each was put right */
    fx_free(&f);
}
