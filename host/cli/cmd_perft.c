/* cmd_perft.c - `twinboard perft [--divide] [--960] DEPTH [FEN]`: leaf nodes of the legal move
 * tree; the count is the last line of the output. */
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tb_chess.h"

#define MAX_DEPTH 12
#define FEN_MAX   256

struct root {
    char uci[8];
    uint64_t nodes;
};

static int by_uci(const void *a, const void *b)
{
    return strcmp(((const struct root *)a)->uci, ((const struct root *)b)->uci);
}

int tb_cli_cmd_perft(int argc, char **argv)
{
    int divide = 0, c960 = 0, npos = 0;
    long depth = -1;
    char fen[FEN_MAX] = "";
    enum { O_DIVIDE = 256, O_960 };
    static const struct option longs[] = {
        {"divide", no_argument, NULL, O_DIVIDE},
        {"960", no_argument, NULL, O_960},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        if (c == O_DIVIDE) {
            divide = 1;
        } else if (c == O_960) {
            c960 = 1;
        } else if (c != 1) {
            return tb_cli_usage("perft");
        } else if (npos++ == 0) {
            if (!tb_cli_parse_int(optarg, 0, MAX_DEPTH, &depth)) {
                tb_cli_error("perft: depth '%s' is not a number from 0 to %d", optarg, MAX_DEPTH);
                return TB_CLI_USAGE;
            }
        } else {
            /* The FEN may come quoted as one argument or as its six fields. */
            size_t used = strlen(fen);
            if (used + strlen(optarg) + 2 > sizeof fen) {
                tb_cli_error("perft: the FEN is too long");
                return TB_CLI_USAGE;
            }
            snprintf(fen + used, sizeof fen - used, "%s%s", used ? " " : "", optarg);
        }
    }
    if (depth < 0)
        return tb_cli_usage("perft");

    tb_chess_pos pos;
    if (fen[0]) {
        struct tb_error err = {0};
        if (tb_chess_pos_from_fen(&pos, fen, c960 ? TB_CHESS_FEN_960 : 0, &err) < 0) {
            tb_cli_error("perft: bad FEN '%s': %s", fen, err.msg);
            return TB_CLI_USAGE;
        }
    } else if (c960) {
        tb_chess_pos_960(&pos, 518);
    } else {
        tb_chess_pos_startpos(&pos);
    }

    if (!divide || depth < 1) {
        printf("%llu\n", (unsigned long long)tb_chess_perft(&pos, (int)depth));
        return TB_CLI_OK;
    }
    tb_chess_move moves[TB_CHESS_MAX_MOVES];
    uint64_t counts[TB_CHESS_MAX_MOVES], total = 0;
    struct root roots[TB_CHESS_MAX_MOVES] = {0};
    int n = tb_chess_perft_divide(&pos, (int)depth, moves, counts, TB_CHESS_MAX_MOVES);
    if (n < 0) {
        tb_cli_error("perft: divide failed: %s", tb_strerror(n));
        return TB_CLI_USAGE;
    }
    for (int i = 0; i < n; i++) {
        tb_chess_move_to_uci(&pos, moves[i], roots[i].uci, sizeof roots[i].uci);
        roots[i].nodes = counts[i];
        total += counts[i];
    }
    qsort(roots, (size_t)n, sizeof roots[0], by_uci);
    for (int i = 0; i < n; i++)
        printf("%s: %llu\n", roots[i].uci, (unsigned long long)roots[i].nodes);
    printf("\n%llu\n", (unsigned long long)total);
    return TB_CLI_OK;
}
