/* fuzz_broadcast.c - fuzz target of the virtual DGT board's program side (host/broadcast).
 *
 * The first byte picks the chunking; the rest is what a program sends (garbage, unknown
 * commands, floods, bus commands with right and wrong checksums), fed in chunks while the
 * agreed game moves on and is taken back and time passes. Properties: never a crash; every
 * message out is one whole, well-formed DGT message (a single-board message the project's
 * decoder reads without garbage, or a bus reply whose checksum is right); the session state is
 * always valid; nothing a program sends changes what the board shows. What is the same for every
 * input is made once: the agreed game's positions ply by ply, and the decoder that reads each
 * single-board message out (reset before each, its counts compared before and after). */
#include <stdbool.h>

#include "tb_broadcast.h"
#include "tb_fuzz.h"

static void count_msg(void *user, const struct tb_dgt_msg *m)
{
    (void)m;
    (*(int *)user)++;
}

static void check_msg(void *user, const uint8_t *b, size_t n)
{
    (void)user;
    TB_FUZZ_CHECK(n >= TB_DGT_HEADER_LEN && (b[0] & 0x80));
    for (size_t i = 1; i < n; i++)
        TB_FUZZ_CHECK(!(b[i] & 0x80));
    struct tb_dgt_bus_reply r;
    if (tb_dgt_bus_reply_parse(b, n, &r) == (int)n)
        return; /* a bus reply, checksum right */
    /* A single-board message: its declared total is its length (EE_MOVES is passed over by
     * the decoder, so only the header is checked for it). */
    TB_FUZZ_CHECK((((size_t)b[1] << 7) | b[2]) == n);
    if (b[0] == TB_DGT_MSG_EE_MOVES) {
        TB_FUZZ_CHECK(b[n - 1] == TB_DGT_EE_EOF);
        return;
    }
    static tb_dgt_decoder *d;
    if (!d)
        d = tb_dgt_decoder_new();
    TB_FUZZ_CHECK(d != NULL);
    struct tb_dgt_decoder_stats before, after;
    tb_dgt_decoder_reset(d);
    tb_dgt_decoder_stats(d, &before);
    int got = 0;
    TB_FUZZ_CHECK(tb_dgt_decoder_feed(d, b, n, count_msg, &got) == 1 && got == 1);
    tb_dgt_decoder_stats(d, &after);
    TB_FUZZ_CHECK(after.garbage == before.garbage && after.skipped == before.skipped);
}

static void valid(const struct tb_broadcast_session *s, const struct tb_broadcast_board *b)
{
    TB_FUZZ_CHECK(s->mode <= TB_BROADCAST_BUS);
    TB_FUZZ_CHECK(s->cursor <= b->log_end && s->rep_from <= s->rep_to && s->rep_to <= b->log_end);
    TB_FUZZ_CHECK(s->bus.have < TB_DGT_BUS_CMD_LEN && s->cmd.have < sizeof s->cmd.buf);
    TB_FUZZ_CHECK(b->log_kept <= TB_BROADCAST_LOG_SIZE && b->start_at <= b->log_end);
}

static const char *const moves[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6",
                                    "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4"};
#define NMOVES ((int)(sizeof moves / sizeof moves[0]))

/* The agreed game's position after each ply, 0 to NMOVES: the same for every input. */
static const tb_chess_pos *line(void)
{
    static tb_chess_pos at[NMOVES + 1];
    static bool done;
    if (done)
        return at;
    tb_chess_game *game = malloc(sizeof *game);
    TB_FUZZ_CHECK(game != NULL);
    tb_chess_pos_startpos(&at[0]);
    tb_chess_game_init(game, &at[0]);
    for (int i = 0; i < NMOVES; i++) {
        tb_chess_move m;
        TB_FUZZ_CHECK(tb_chess_move_parse(&game->pos, moves[i], &m, NULL) == 0);
        TB_FUZZ_CHECK(tb_chess_game_push(game, m) == 0);
        at[i + 1] = game->pos;
    }
    free(game);
    done = true;
    return at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tb_broadcast_board board; /* large: not on the stack */
    struct tb_broadcast_session s;
    struct tb_dgt_update ch[64];
    if (size < 1)
        return 0;
    const tb_chess_pos *at = line();
    unsigned seed = data[0];
    tb_broadcast_board_init(&board, NULL);
    int plies = 0;
    tb_broadcast_board_show(&board, &at[0], 0, ch);
    tb_broadcast_board_mark_start(&board, 0);
    tb_broadcast_session_init(&s, &board);
    uint64_t now = 0;
    struct tb_broadcast_clock clk = {(seed & 1) != 0, 300000, 300000, TB_CHESS_WHITE, 0};
    tb_broadcast_board_set_clock(&board, &clk, 0);
    size_t pos = 1;
    int step = 0;
    while (pos < size) {
        size_t chunk = 1 + (seed * 7 + (unsigned)step * 13) % 37;
        if (chunk > size - pos)
            chunk = size - pos;
        tb_broadcast_session_input(&s, &board, data + pos, chunk, now, check_msg, NULL);
        valid(&s, &board);
        pos += chunk;
        now += 1 + (seed + (unsigned)step) % 700;
        tb_broadcast_session_tick(&s, &board, now, check_msg, NULL);
        /* The agreed game moves on, and every fifth step takes one move back. */
        if (step % 5 == 4 && plies > 0)
            plies--;
        else if (plies < NMOVES)
            plies++;
        int n = tb_broadcast_board_show(&board, &at[plies], now, ch);
        tb_broadcast_session_changes(&s, ch, n, check_msg, NULL);
        step++;
    }
    uint8_t want[64];
    tb_dgt_codes_of_pos(&at[plies], TB_DGT_ORIENT_NORMAL, want);
    TB_FUZZ_CHECK(memcmp(want, board.codes, 64) == 0);
    return 0;
}
