/* fuzz_round.c - fuzz target of the round (host/round) over arbitrary bytes: a pairings file
 * (PGN or CSV) and a table's PGN.
 *
 * A refusal must say where ("NAME:LINE: ..."); an accepted round has 1 to 512 boards, in board
 * order, none twice, every value NUL-terminated and as a table's new-game takes it (no quote,
 * backslash or control byte), each Round "r.b" of its board. Each board's PGN and the results
 * list are written whole (the length returned is what is written when it fits), with the same
 * bytes as the table's PGN too. */
#include <stdio.h>

#include "tb_fuzz.h"
#include "tb_round.h"

static struct tb_round round_;
static char out[1 << 16];

static void check_values(const struct tb_round_pairing *p)
{
    for (int f = 0; f < TB_ROUND_FIELDS; f++) {
        const char *v = p->v[f];
        TB_FUZZ_CHECK(memchr(v, '\0', TB_ROUND_VALUE_MAX) != NULL);
        for (const char *c = v; *c; c++)
            TB_FUZZ_CHECK(*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20);
    }
    char want[TB_ROUND_VALUE_MAX + 16];
    snprintf(want, sizeof want, "%s.%d", round_.round, p->board);
    TB_FUZZ_CHECK(strcmp(p->v[TB_ROUND_ROUND], want) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tb_error err = {0};
    int rc = tb_round_parse("f", (const char *)data, size, &round_, &err);
    if (rc) {
        TB_FUZZ_CHECK_ERROR(rc, err);
        TB_FUZZ_CHECK(strncmp(err.msg, "f:", 2) == 0);
        return 0;
    }
    TB_FUZZ_CHECK(round_.n >= 1 && round_.n <= TB_ROUND_MAX_BOARDS);
    char *table = tb_fuzz_cstr(data, size); /* the same bytes as a table's PGN */
    for (int i = 0; i < round_.n; i++) {
        const struct tb_round_pairing *p = &round_.p[i];
        TB_FUZZ_CHECK(p->board >= 1 && p->board <= TB_ROUND_MAX_BOARDS);
        TB_FUZZ_CHECK(i == 0 || round_.p[i - 1].board < p->board);
        TB_FUZZ_CHECK(tb_round_board(&round_, p->board) == p);
        check_values(p);
        int n = tb_round_board_pgn(p, table, out, sizeof out);
        TB_FUZZ_CHECK(n >= 0 && ((size_t)n >= sizeof out || strlen(out) == (size_t)n));
        n = tb_round_board_pgn(p, NULL, out, sizeof out);
        TB_FUZZ_CHECK(n > 0 && (size_t)n < sizeof out && strlen(out) == (size_t)n);
        TB_FUZZ_CHECK(tb_round_pgn_is(p, out)); /* the pairing's own PGN is its game */
    }
    int n = tb_round_results_csv(&round_, NULL, out, sizeof out);
    TB_FUZZ_CHECK(n > 0 && ((size_t)n >= sizeof out || strlen(out) == (size_t)n));
    n = tb_round_results_text(&round_, NULL, out, sizeof out);
    TB_FUZZ_CHECK(n > 0 && ((size_t)n >= sizeof out || strlen(out) == (size_t)n));
    free(table);
    return 0;
}
