/* Boards without sensors (keys:): an assistant types the moves made on them (D.2.10.1, D.2.11).
 * A typed move is taken at once (nobody's hand hovers over a keyboard); a move the board may not
 * make now is a typing error: refused with the reason and the move expected, and nothing opens.
 * After every arbiter decision a typed board counts as put right by its assistant. Two keys:
 * boards, and a keys: board against a simulated reed board (pty, real time). */
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_test.h"

#define OK "ok\n"

static void start_typed(struct fx *f, const char *name)
{
    fx_init(f, name);
    fx_options(f, "keys:", "keys:");
    fx_start(f);
}

static const char *state(struct fx *f)
{
    const char *st = strstr(fx_req(f, "status"), "state: ");
    ASSERT_NOT_NULL(st);
    return st;
}

/* A move typed on the board of the player to move, then its copy typed on the other. */
static void made_and_copied(struct fx *f, const char *on, const char *move, const char *copy)
{
    char line[64];
    snprintf(line, sizeof line, "move %s %s", on, move);
    ASSERT_STR_EQ(fx_req(f, line), OK);
    snprintf(line, sizeof line, "move %s %s", strcmp(on, "vi") ? "vi" : "sighted", copy);
    ASSERT_STR_EQ(fx_req(f, line), OK);
}

static void assert_no_mismatch(struct fx *f)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    ASSERT_EQ(c.mismatch, 0);
    ASSERT_NULL(strstr(fx_req(f, "status"), "MISMATCH"));
}

/* D.2.10.1: the copy and the reply typed back to back are both taken at once: no blip window
 * to wait out, no loop turn in between. */
TB_TEST(law_D_2_10_1_typed_moves_back_to_back_agreed_at_once)
{
    struct fx f;
    start_typed(&f, "typed-b2b");
    ASSERT_STR_EQ(fx_req(&f, "move vi e2e4"), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: waiting: the sighted board must replicate 1. e4");
    ASSERT_STR_EQ(fx_req(&f, "move sighted e2e4"), OK);
    ASSERT_EQ(fx_plies(&f), 1);
    ASSERT_STR_EQ(fx_req(&f, "move sighted e7e5"), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: waiting: the vi board must replicate 1... e5");
    ASSERT_STR_EQ(fx_req(&f, "move vi e5"), OK);
    ASSERT_STR_EQ(fx_req(&f, "move vi Nf3"), OK);
    ASSERT_STR_EQ(fx_req(&f, "move sighted g1f3"), OK);
    ASSERT_EQ(fx_plies(&f), 3);
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 Nf3");
    ASSERT_STR_CONTAINS(f.log, "sighted board: the assistant typed e7e5");
    fx_free(&f);
}

/* A wrong copy typed by the assistant is a typing error, not a board that deviates (D.2.9 is for
 * boards): refused naming the move expected; no mismatch opens; the right copy is taken. */
TB_TEST(law_D_2_10_1_wrong_typed_copy_refused_naming_the_move_no_mismatch)
{
    struct fx f;
    start_typed(&f, "typed-wrong");
    ASSERT_STR_EQ(fx_req(&f, "move vi e4"), OK);
    const char *a = fx_req(&f, "move sighted d2d4");
    ASSERT_STR_CONTAINS(a, "error illegal");
    ASSERT_STR_CONTAINS(a, "the move to copy on the sighted board is 1. e4 (e2e4)");
    a = fx_req(&f, "move sighted Nf6"); /* not even legal in the position before 1. e4 */
    ASSERT_STR_CONTAINS(a, "error");
    ASSERT_STR_CONTAINS(a, "the move to copy on the sighted board is 1. e4 (e2e4)");
    assert_no_mismatch(&f);
    ASSERT_EQ(fx_plies(&f), 0);
    ASSERT_STR_CONTAINS(state(&f), "state: waiting: the sighted board must replicate 1. e4");
    ASSERT_STR_EQ(fx_req(&f, "move sighted e4"), OK);
    ASSERT_EQ(fx_plies(&f), 1);
    /* refused moves are not in the journal: a restart has the same game */
    fx_stop(&f);
    fx_options(&f, "keys:", "keys:");
    fx_start(&f);
    ASSERT_EQ(fx_plies(&f), 1);
    assert_no_mismatch(&f);
    fx_free(&f);
}

/* Out of turn: the board whose player is not to move, and the board whose move is still to be
 * copied, are refused with whose turn it is; nothing changes. */
TB_TEST(law_D_2_10_1_typed_move_out_of_turn_refused)
{
    struct fx f;
    start_typed(&f, "typed-turn");
    const char *a = fx_req(&f, "move sighted e7e5");
    ASSERT_STR_CONTAINS(a, "error state");
    ASSERT_STR_CONTAINS(a, "White is to move, on the vi board");
    ASSERT_STR_EQ(fx_req(&f, "move vi e4"), OK);
    a = fx_req(&f, "move vi d4");
    ASSERT_STR_CONTAINS(a, "error state");
    ASSERT_STR_CONTAINS(a, "1. e4 (e2e4) waits to be copied on the sighted board");
    ASSERT_STR_CONTAINS(fx_req(&f, "move vi zz9"), "error");
    assert_no_mismatch(&f);
    ASSERT_STR_CONTAINS(state(&f), "state: waiting: the sighted board must replicate 1. e4");
    fx_free(&f);
}

/* After each arbiter decision (new-game, set-position, takeback) both typed boards count as put
 * right at once: the state is never left in restoring and the next typed move is taken. */
TB_TEST(law_D_2_10_1_typed_boards_put_right_after_every_arbiter_decision)
{
    struct fx f;
    start_typed(&f, "typed-arbiter");
    made_and_copied(&f, "vi", "e4", "e4");
    made_and_copied(&f, "sighted", "c5", "c5");
    ASSERT_EQ(fx_plies(&f), 2);

    ASSERT_STR_EQ(fx_req(&f, "takeback 1 pin=" FX_PIN), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");
    ASSERT_EQ(fx_plies(&f), 1);
    made_and_copied(&f, "sighted", "e5", "e5");
    ASSERT_EQ(fx_plies(&f), 2);

    ASSERT_STR_EQ(fx_req(&f, "set-position 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 pin=" FX_PIN), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");
    made_and_copied(&f, "vi", "Kd2", "e1d2");
    ASSERT_EQ(fx_plies(&f), 1);

    ASSERT_STR_EQ(fx_req(&f, "new-game pin=" FX_PIN), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");
    ASSERT_EQ(fx_plies(&f), 0);
    made_and_copied(&f, "vi", "d4", "d4");
    ASSERT_EQ(fx_plies(&f), 1);
    ASSERT_NULL(strstr(f.log, "restoring: waiting"));

    /* and the journal replays to the same game */
    fx_stop(&f);
    fx_options(&f, "keys:", "keys:");
    fx_start(&f);
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "d4");
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");
    fx_free(&f);
}

/* ---- a keys: board against a simulated reed board ------------------------------------------ */

static void square(struct ptyboard *b, const char *name, int placed)
{
    int sq = tb_chess_square_parse(name);
    ASSERT_GE(sq, 0);
    ASSERT_OK(ptyboard_square(b, sq, placed, true));
}

/* The reed board copies the typed reply wrongly: that board deviates (D.2.9), a mismatch opens;
 * the arbiter confirms, the reed board is put right, and the next typed move is taken. After a
 * takeback only the reed board must be put right: the typed one already is. */
TB_TEST(law_D_2_9_typed_board_after_resolve_and_takeback_against_a_reed_board)
{
    struct fx f;
    struct ptyboard b;
    fx_start_pty_keys(&f, &b, "typed-mixed");
    square(&b, "e2", 0);
    square(&b, "e4", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_sighted));
    ASSERT_STR_EQ(fx_req(&f, "move sighted e4"), OK);
    ASSERT_STR_EQ(fx_req(&f, "move sighted e5"), OK);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_vi));
    square(&b, "e7", 0); /* the copy of 1... e5 made as 1... e6 */
    square(&b, "e6", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_blocked));
    struct tb_daemon_counters c;
    tb_daemon_counters(f.d, &c);
    ASSERT_NE(c.mismatch, 0);
    /* play is stopped: a typed move does not count now */
    ASSERT_STR_CONTAINS(fx_req(&f, "move sighted Nf3"), "error state");
    char line[64];
    snprintf(line, sizeof line, "resolve %u pin=%s", c.mismatch, FX_PIN);
    ASSERT_STR_EQ(fx_req(&f, line), OK);
    square(&b, "e6", 0);
    square(&b, "e5", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_in_sync));
    ASSERT_EQ(fx_plies(&f), 2);
    /* 2. Nf3 on the reed board, copied by typing at once */
    square(&b, "g1", 0);
    square(&b, "f3", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_sighted));
    ASSERT_STR_EQ(fx_req(&f, "move sighted Nf3"), OK);
    ASSERT_EQ(fx_plies(&f), 3);

    ASSERT_STR_EQ(fx_req(&f, "takeback 1 pin=" FX_PIN), OK);
    ASSERT_STR_CONTAINS(state(&f), "state: restoring"); /* the reed board still shows Nf3 */
    square(&b, "f3", 0);
    square(&b, "g1", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_in_sync));
    ASSERT_EQ(fx_plies(&f), 2);
    square(&b, "d2", 0);
    square(&b, "d4", 1);
    ASSERT_TRUE(fx_run_until(&f, 3000, fx_pty_waiting_sighted));
    ASSERT_STR_EQ(fx_req(&f, "move sighted d4"), OK);
    ASSERT_EQ(fx_plies(&f), 3);
    char got[64];
    ASSERT_STR_EQ(fx_moves(&f, got, sizeof got), "e4 e5 d4");
    fx_free(&f);
    ptyboard_unplug(&b);
}

/* ---- a keys: board against a sim: board in real time ------------------------------------- */

static bool sim_waiting_vi(struct fx *f)
{
    return strstr(fx_req(f, "status"), "state: waiting: the vi board") != NULL;
}

/* The assistant types White's move; the script board copies it and replies; the assistant's
 * wrong copy is refused, the right one taken at once. A new game then waits only for the
 * script board to be set up: the typed board is put right. */
TB_TEST(law_D_2_10_1_typed_board_against_a_script_board)
{
    struct fx f;
    fx_init(&f, "typed-sim");
    int t = tb_test_ms(1500); /* the script waits for the typed move */
    char script[400];
    snprintf(script, sizeof script,
             "%d sighted lift e2\n%d sighted place e4\n%d sighted lift e7\n%d sighted place e5\n",
             t, t + 200, t + 400, t + 600);
    fx_script(&f, script);
    fx_options(&f, "keys:", "script");
    f.o.speed = TB_DAEMON_SPEED_REALTIME;
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_STR_EQ(fx_req(&f, "move vi e4"), OK);
    ASSERT_STR_CONTAINS(fx_req(&f, "move vi d4"), "waits to be copied on the sighted board");
    ASSERT_TRUE(fx_run_until(&f, 6000, sim_waiting_vi));
    ASSERT_EQ(fx_plies(&f), 1);
    const char *a = fx_req(&f, "move vi d5");
    ASSERT_STR_CONTAINS(a, "error");
    ASSERT_STR_CONTAINS(a, "the move to copy on the vi board is 1... e5 (e7e5)");
    assert_no_mismatch(&f);
    ASSERT_STR_EQ(fx_req(&f, "move vi e7e5"), OK);
    ASSERT_EQ(fx_plies(&f), 2);
    ASSERT_STR_CONTAINS(state(&f), "state: in-sync");

    ASSERT_STR_EQ(fx_req(&f, "new-game pin=" FX_PIN), OK);
    /* the script board still shows 1. e4 e5: only it is waited for */
    ASSERT_STR_CONTAINS(state(&f), "state: restoring");
    ASSERT_STR_CONTAINS(fx_req(&f, "move vi e4"), "error state play is stopped");
    fx_free(&f);
}
