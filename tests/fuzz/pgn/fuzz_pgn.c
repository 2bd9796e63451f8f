/* fuzz_pgn.c - fuzz target of the PGN reader (tb_chess_pgn_read) and, for what it accepts, the
 * PGN and scoresheet writers.
 *
 * Every game of the input is read (a refused game must say why, with a message and the line it
 * is on, and the reader must go on to the next); each call must make progress, so a file of N
 * bytes takes at most N + 1 calls. An accepted game is written as PGN and read back: the same
 * start position, the same moves and the same result. Its scoresheets in the three letter sets
 * are written too (for the memory checks). */
#include "fuzz_chess.h"
#include "tb_fuzz.h"

#define OUT_SIZE (1u << 20)

struct state {
    tb_chess_pgn_game game, again;
    char out[OUT_SIZE];
};

static void check_rewrite(struct state *st)
{
    tb_chess_pgn_game *g = &st->game;
    int n = tb_chess_pgn_write(g, st->out, sizeof st->out);
    TB_FUZZ_CHECK(n > 0 && (size_t)n < sizeof st->out && (size_t)n == strlen(st->out));

    tb_chess_pgn_reader r;
    struct tb_error err;
    tb_chess_pgn_reader_init(&r, st->out, (size_t)n);
    int rc = tb_chess_pgn_read(&r, &st->again, &err);
    if (rc != 1)
        fprintf(stderr, "re-read: %s\n--\n%s--\n", err.msg, st->out);
    TB_FUZZ_CHECK(rc == 1);
    const tb_chess_game *a = &g->game, *b = &st->again.game;
    TB_FUZZ_CHECK(tb_fuzz_same_pos(&a->start, &b->start));
    TB_FUZZ_CHECK(a->plies == b->plies);
    TB_FUZZ_CHECK(memcmp(a->moves, b->moves, (size_t)a->plies * sizeof a->moves[0]) == 0);
    TB_FUZZ_CHECK(strcmp(g->result, st->again.result) == 0);
    TB_FUZZ_CHECK(tb_chess_pgn_read(&r, &st->again, &err) == 0);

    for (int l = TB_CHESS_LETTERS_EN; l <= TB_CHESS_LETTERS_DE; l++) {
        n = tb_chess_scoresheet_write(g, (enum tb_chess_letters)l, st->out, sizeof st->out);
        TB_FUZZ_CHECK(n > 0 && (size_t)n < sizeof st->out && (size_t)n == strlen(st->out));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct state *st;
    if (!st && !(st = malloc(sizeof *st)))
        abort();
    char *buf = malloc(size ? size : 1); /* exactly the input: a read past it is caught */
    if (!buf)
        abort();
    memcpy(buf, data, size);

    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, buf, size);
    for (size_t calls = 0;; calls++) {
        TB_FUZZ_CHECK(calls <= size + 1);
        struct tb_error err;
        memset(&err, 0, sizeof err);
        int rc = tb_chess_pgn_read(&r, &st->game, &err);
        TB_FUZZ_CHECK(r.pos <= r.len);
        if (rc == 0)
            break;
        if (rc == 1) {
            check_rewrite(st);
            continue;
        }
        TB_FUZZ_CHECK(rc == TB_ERR_PARSE || rc == TB_ERR_ILLEGAL || rc == TB_ERR_FULL);
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(err.line >= 1 && err.line <= r.line);
    }
    free(buf);
    return 0;
}
