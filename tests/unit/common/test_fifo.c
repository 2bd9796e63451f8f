/* Tests of the queue of fixed-size items (tb_fifo.h) that holds the inputs waiting for the
 * journal, the broadcast's delayed changes and a fast script's events. */
#include <stdint.h>
#include <stdlib.h>

#include "tb_err.h"
#include "tb_fifo.h"
#include "tb_test.h"

struct item {
    uint64_t t;
    int kind;
    char pad[20]; /* an item wider than a word: copied whole */
};

/* 1000 items with one of another kind after the 400th: taken back in that order, whole; the
 * array grows past its first allocation. */
TB_TEST(items_come_back_in_order_whole)
{
    struct tb_fifo q = TB_FIFO_INIT(sizeof(struct item), 0);
    for (int i = 0; i < 1000; i++) {
        struct item it = {.t = 100u + (uint64_t)i, .kind = 1, .pad = {(char)(i % 64)}};
        ASSERT_OK(tb_fifo_push(&q, &it));
        if (i == 399)
            ASSERT_OK(tb_fifo_push(&q, &(struct item){.t = 499, .kind = 2}));
    }
    ASSERT_EQ(tb_fifo_count(&q), 1001u);
    ASSERT_EQ(((struct item *)tb_fifo_at(&q, 400))->kind, 2);
    ASSERT_TRUE(tb_fifo_at(&q, 1001) == NULL);
    struct item it;
    for (int i = 0; i < 1001; i++) {
        ASSERT_TRUE(tb_fifo_pop(&q, &it));
        if (i == 400) {
            ASSERT_EQ(it.kind, 2);
            ASSERT_EQ(it.t, 499u);
            continue;
        }
        int e = i < 400 ? i : i - 1;
        ASSERT_EQ(it.kind, 1);
        ASSERT_EQ(it.t, 100u + (uint64_t)e);
        ASSERT_EQ(it.pad[0], (char)(e % 64));
    }
    ASSERT_FALSE(tb_fifo_pop(&q, &it));
    ASSERT_EQ(tb_fifo_count(&q), 0u);
    tb_fifo_free(&q);
    tb_fifo_free(NULL);
}

/* Pushed while others are taken (an input taken makes the game hold again): what came later
 * waits behind what was there; an emptied queue starts over at the front of its array. */
TB_TEST(items_pushed_while_draining_wait_behind_the_rest)
{
    struct tb_fifo q = TB_FIFO_INIT(sizeof(uint64_t), 0);
    uint64_t v = 1;
    ASSERT_OK(tb_fifo_push(&q, &v));
    v = 2;
    ASSERT_OK(tb_fifo_push(&q, &v));
    ASSERT_TRUE(tb_fifo_pop(&q, &v));
    ASSERT_EQ(v, 1u);
    v = 3;
    ASSERT_OK(tb_fifo_push(&q, &v));
    ASSERT_TRUE(tb_fifo_pop(&q, &v));
    ASSERT_EQ(v, 2u);
    ASSERT_TRUE(tb_fifo_pop(&q, NULL)); /* taken without a copy */
    v = 4;
    ASSERT_OK(tb_fifo_push(&q, &v));
    ASSERT_EQ(q.head, 0u);
    ASSERT_EQ(*(uint64_t *)tb_fifo_at(&q, 0), 4u);
    tb_fifo_free(&q);
    /* freed, still usable with its size */
    ASSERT_OK(tb_fifo_push(&q, &v));
    ASSERT_EQ(tb_fifo_count(&q), 1u);
    tb_fifo_free(&q);
}

/* At its limit a queue refuses the next item and changes nothing; taking one makes room, also
 * when the waiting items sit at the end of the array (they move to its front, never past the
 * limit's memory). */
TB_TEST(a_full_queue_refuses_and_keeps_what_it_holds)
{
    struct tb_fifo q = TB_FIFO_INIT(sizeof(int), 100);
    for (int i = 0; i < 100; i++)
        ASSERT_OK(tb_fifo_push(&q, &i));
    int x = 100;
    ASSERT_EQ(tb_fifo_push(&q, &x), TB_ERR_FULL);
    ASSERT_EQ(tb_fifo_count(&q), 100u);
    ASSERT_EQ(q.cap, 100u);
    int next = 0, pushed = 100;
    for (int round = 0; round < 250; round++) { /* take one, add one: at the limit throughout */
        ASSERT_TRUE(tb_fifo_pop(&q, &x));
        ASSERT_EQ(x, next++);
        ASSERT_OK(tb_fifo_push(&q, &pushed));
        pushed++;
        ASSERT_EQ(tb_fifo_push(&q, &pushed), TB_ERR_FULL);
        ASSERT_EQ(q.cap, 100u);
    }
    while (tb_fifo_pop(&q, &x))
        ASSERT_EQ(x, next++);
    ASSERT_EQ(next, pushed);
    tb_fifo_free(&q);
}

/* Random pushes and pops (bursts of each, as a journal stall and its end or a script read in
 * batches give them) against a plain array: the same items in the same order, the array never
 * more than four times the most items that waited at once (it doubles when more than half of it
 * is in use), plus its first 16. */
TB_TEST(random_pushes_and_pops_match_a_model)
{
    enum { N = 200000 };
    uint32_t *model = malloc(N * sizeof *model);
    ASSERT_TRUE(model != NULL);
    for (unsigned seed = 1; seed <= 20; seed++) {
        struct tb_fifo q = TB_FIFO_INIT(sizeof(uint32_t), seed % 2 ? 0 : 300);
        size_t in = 0, out = 0, most = 0;
        uint32_t r = seed * 2654435761u;
        while (in < N) {
            r = r * 1103515245u + 12345u;
            unsigned burst = (r >> 16) % 64;
            bool push = ((r >> 8) & 3) != 0 || in == out; /* pushes a little more often */
            for (unsigned k = 0; k < burst && in < N; k++) {
                if (push) {
                    uint32_t v = (uint32_t)in * 7u + seed;
                    int rc = tb_fifo_push(&q, &v);
                    if (q.max && in - out >= q.max) {
                        ASSERT_EQ(rc, TB_ERR_FULL);
                        break;
                    }
                    ASSERT_OK(rc);
                    model[in++] = v;
                } else {
                    uint32_t v;
                    bool got = tb_fifo_pop(&q, &v);
                    ASSERT_EQ(got, out < in);
                    if (!got)
                        break;
                    ASSERT_EQ(v, model[out++]);
                }
                ASSERT_EQ(tb_fifo_count(&q), in - out);
                if (in - out > most)
                    most = in - out;
            }
        }
        ASSERT_TRUE(q.cap <= 4 * most + 16);
        uint32_t v;
        while (tb_fifo_pop(&q, &v))
            ASSERT_EQ(v, model[out++]);
        ASSERT_EQ(out, in);
        tb_fifo_free(&q);
    }
    free(model);
}
