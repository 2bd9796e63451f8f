/* outputs.c - shared by the bugmatch tests: what they read back from a match, and a driver of
 * random inputs. */
#include "outputs.h"

#include <stdlib.h>
#include <string.h>

#include "tb_test.h"

tb_bugmatch *bugmatch_started(const struct tb_bugmatch_config *cfg, const char *fen_a,
                              const char *fen_b)
{
    tb_bugmatch *m;
    struct tb_error err;
    tb_bug_pos start[2];
    ASSERT_OK(tb_bugmatch_new(cfg, &m, &err));
    const char *fen[2] = {fen_a, fen_b};
    for (int b = 0; b < 2; b++) {
        if (fen[b])
            ASSERT_OK(tb_bug_pos_from_fen(&start[b], fen[b], NULL));
        else
            tb_bug_pos_startpos(&start[b]);
    }
    ASSERT_OK(tb_bugmatch_set_start(m, start));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    return m;
}

const char *bugmatch_lines(tb_bugmatch *m)
{
    static char all[8192];
    char line[256];
    struct tb_bugmatch_out o;
    all[0] = '\0';
    while (tb_bugmatch_poll(m, &o)) {
        if (o.kind == TB_BUGMATCH_OUT_BOARD && o.sensor.kind == TB_SENSOR_OUT_TOUCH)
            continue;
        ASSERT_GT(tb_bugmatch_out_format(&o, line, sizeof line), 0);
        strncat(all, all[0] ? "|" : "", sizeof all - strlen(all) - 1);
        strncat(all, line, sizeof all - strlen(all) - 1);
    }
    return all;
}

char *bugmatch_bpgn(const tb_bug_record *rec)
{
    int n = tb_bug_bpgn_write(rec, NULL, 0);
    ASSERT_GT(n, 0);
    char *buf = malloc((size_t)n + 1);
    ASSERT_NOT_NULL(buf);
    ASSERT_EQ(tb_bug_bpgn_write(rec, buf, (size_t)n + 1), n);
    return buf;
}

void bugmatch_follow(tb_bugmatch *m, struct bugmatch_follow *f)
{
    const tb_bug_record *rec = tb_bugmatch_record(m);
    struct tb_bugmatch_out o;
    while (tb_bugmatch_poll(m, &o)) {
        if (o.kind == TB_BUGMATCH_OUT_MOVE) {
            ASSERT_FALSE(f->pending[o.board]);
            f->pending[o.board] = true;
            f->pend[o.board] = o.move;
            f->moves++;
        } else if (o.kind == TB_BUGMATCH_OUT_PLY) {
            ASSERT_TRUE(f->pending[o.board]);
            ASSERT_EQ(rec->plies[o.ply].move, f->pend[o.board]);
            f->pending[o.board] = false;
        } else if (o.kind == TB_BUGMATCH_OUT_RESULT) {
            f->pending[o.board] = false;
        } else if (o.kind == TB_BUGMATCH_OUT_BOARD && o.sensor.kind == TB_SENSOR_OUT_PROBLEM) {
            f->wrong += o.sensor.problem == TB_SENSOR_P_WRONG_PIECE;
        }
    }
}

void bugmatch_in_step(tb_bugmatch *m, const struct bugmatch_follow *f, int seed, int input)
{
    const tb_bug_record *rec = tb_bugmatch_record(m);
    for (int k = 0; k < 2; k++) {
        /* article 7: a board being put back is test_law7.c's */
        if (rec->verdict[k].result != TB_BUG_ONGOING ||
            tb_bugmatch_irregular(m, k) >= TB_BUGMATCH_IRR_PUT_BACK)
            continue;
        tb_bug_pos want = rec->cur[k];
        tb_bug_undo undo;
        if (f->pending[k]) {
            ASSERT_TRUE(tb_bug_is_legal(&want, f->pend[k]));
            tb_bug_make(&want, f->pend[k], &undo);
        }
        char a[128], c[128];
        ASSERT_GT(tb_chess_pos_to_fen(&want.chess, a, sizeof a), 0);
        ASSERT_GT(tb_chess_pos_to_fen(tb_sensor_position(tb_bugmatch_sensor(m, k)), c, sizeof c),
                  0);
        ASSERT_STR_EQ(c, a);
        for (int color = 0; color < 2; color++) {
            uint8_t pool[6];
            tb_bugmatch_pool(m, 2 * k + color, pool);
            const uint8_t *hand = tb_sensor_hand(tb_bugmatch_sensor(m, k), color);
            for (int type = TB_CHESS_PAWN; type <= TB_CHESS_QUEEN; type++)
                if (hand[type] != pool[type])
                    TB_FAIL("seed %d input %d: board %c colour %d type %d: the recogniser holds "
                            "%d, the match %d",
                            seed, input, 'A' + k, color, type, hand[type], pool[type]);
        }
    }
}

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

void bugmatch_random_run(const struct tb_bugmatch_config *cfg, uint64_t seed,
                         bugmatch_piece_fn piece, void *user, struct bugmatch_follow *f)
{
    tb_bugmatch *m;
    tb_bug_pos start[2];
    struct tb_error err;
    ASSERT_OK(tb_bugmatch_new(cfg, &m, &err));
    for (int b = 0; b < 2; b++)
        ASSERT_OK(tb_bug_pos_from_fen(
            &start[b], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1",
            NULL));
    ASSERT_OK(tb_bugmatch_set_start(m, start));
    ASSERT_OK(tb_bugmatch_start(m, 0));
    uint64_t t = 0, r = seed;
    f->pending[0] = f->pending[1] = false;
    for (int i = 0; i < 3000 && !tb_bugmatch_over(m); i++) {
        int b = (int)(rnd(&r) % 2), what = (int)(rnd(&r) % 100), sq = (int)(rnd(&r) % 64);
        t += rnd(&r) % 400;
        const tb_sensor *s = tb_bugmatch_sensor(m, b);
        uint64_t occ = tb_sensor_occupancy(s);
        int rc;
        /* a lift of an occupied square, a placement on an empty one (60: a full board) */
        for (int k = 0; k < 64 && (what < 40) != !!(occ & TB_CHESS_BIT(sq)); k++)
            sq = (sq + 1) & 63;
        if (what < 40 || (what < 80 && occ == ~0ULL)) {
            if (piece)
                (void)piece(user, s, sq, true, &r);
            rc = tb_bugmatch_lift(m, b, sq, t);
        } else if (what < 80) {
            rc = tb_bugmatch_place(m, b, sq, piece ? piece(user, s, sq, false, &r) : 0, t);
        } else if (what < 88) {
            rc = tb_bugmatch_choose(m, b, 1 + (int)(rnd(&r) % 5), t);
        } else if (what < 96) {
            rc = tb_bugmatch_press(m, b, t);
        } else if (what < 99) {
            rc = tb_bugmatch_button(m, b, t);
        } else {
            rc = tb_bugmatch_ask_pool(m, (int)(rnd(&r) % 4), t);
        }
        ASSERT_TRUE(rc == TB_OK || rc == TB_ERR_STATE || rc == TB_ERR_ILLEGAL);
        bugmatch_follow(m, f);
        bugmatch_in_step(m, f, (int)seed, i);
    }
    ASSERT_OK(tb_bugmatch_tick(m, t + 3600000));
    ASSERT_TRUE(tb_bugmatch_over(m)); /* the clocks end what the moves did not */
    tb_bugmatch_free(m);
}
