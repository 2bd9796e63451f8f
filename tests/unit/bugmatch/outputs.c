/* outputs.c - what the bugmatch tests read back from a match. */
#include "outputs.h"

#include <stdlib.h>
#include <string.h>

#include "tb_test.h"

const char *bugmatch_lines(tb_bugmatch *m)
{
    static char all[4096];
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
        if (rec->verdict[k].result != TB_BUG_ONGOING)
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
