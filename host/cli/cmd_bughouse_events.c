/* cmd_bughouse_events.c - `twinboard bughouse-events`: a doorgeefschaak game of a BPGN file as
 * the event scripts its two sensor boards would report (tb_bugmatch_gen_script), to be played
 * back with `twinboard bughouse-replay` (docs/doorgeefschaak.md, "The command line"). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bughouse_script.h"
#include "cli.h"
#include "tb_bugmatch.h"

struct out {
    FILE *to[2]; /* each board's lines */
};

static int print_line(void *user, const struct tb_script_event *ev, long line)
{
    struct out *o = user;
    char text[200];
    (void)line;
    if (tb_script_format(ev, text, sizeof text) >= 0)
        fprintf(o->to[ev->board[0] == 'B'], "%s\n", text);
    return 0;
}

/* What the scripts need beyond their events, as bughouse-replay reads them: the BPGN tags, the
 * clock control and the start positions that are not the standard array. */
static void header(FILE *f, const char *path, long seed, const struct tb_bugmatch_gen_config *g,
                   const tb_bug_record *rec)
{
    struct tb_clock_control control;
    char text[TB_BUG_FEN_MAX], spec[32];
    tb_bug_pos std;
    fprintf(f, "# bughouse-events %s seed %ld%s\n", path, seed, g->noise ? " noise" : "");
    fprintf(f, "# blip-window: %u ms\n", (unsigned)g->blip_ms); /* what its noise was made for */
    snprintf(spec, sizeof spec, "%lds", (long)(rec->base_ms / 1000));
    if (tb_clock_control_parse(&control, spec, NULL) == 0 &&
        tb_clock_control_format(&control, text, sizeof text) > 0)
        fprintf(f, "# control: %s\n", text);
    const char *tags[TB_BUGHOUSE_TAGS] = {rec->event,    rec->site,     rec->date,    rec->names[0],
                                          rec->names[1], rec->names[2], rec->names[3]};
    for (int t = 0; t < TB_BUGHOUSE_TAGS; t++)
        if (strcmp(tags[t], "?") != 0 && strcmp(tags[t], "????.??.??") != 0)
            fprintf(f, "# tag %s: %s\n", tb_bughouse_tag_names[t], tags[t]);
    tb_bug_pos_startpos(&std);
    for (int b = 0; b < 2; b++)
        if (!tb_bug_pos_equal(&rec->start[b], &std) &&
            tb_bug_pos_to_fen(&rec->start[b], text, sizeof text) > 0)
            fprintf(f, "# fen %c: %s\n", 'A' + b, text);
}

/* BPGN does not say when a game ended; the script needs it for the moves that end a game (no
 * clock pressed after them) and for resignations. Mate ends the game on its move; a resignation
 * (5.2) comes a second after the board's last move, or at half the time left when that is less;
 * a flag falls when the time left of the player to move runs out (5.4); a stalemate or dead
 * position ends the game on its move when the other game was already over, else when that one
 * ends (5.3). */
static void end_times(tb_bug_record *rec)
{
    int64_t last[2] = {0, 0}, left[2] = {rec->base_ms, rec->base_ms}, end[2];
    for (int b = 0; b < 2; b++) {
        int64_t used[2] = {0, 0};
        int side = rec->start[b].chess.side;
        for (int k = 0; k < rec->nplies; k++) {
            if (rec->plies[k].board != b)
                continue;
            used[side] = rec->base_ms - rec->plies[k].clock_ms;
            side ^= 1;
        }
        last[b] = used[0] + used[1];
        left[b] = rec->base_ms - used[side];
    }
    for (int b = 0; b < 2; b++) {
        switch (rec->verdict[b].reason) {
        case TB_BUG_RESIGNED:
            end[b] = last[b] + (left[b] / 2 < 1000 ? left[b] / 2 : 1000);
            break;
        case TB_BUG_FLAG:
        case TB_BUG_FLAG_NO_MATE:
        case TB_BUG_BOTH_FLAGS:
            end[b] = last[b] + left[b];
            break;
        case TB_BUG_NONE:
            end[b] = -1;
            break;
        default:
            end[b] = last[b];
        }
    }
    for (int b = 0; b < 2; b++) {
        enum tb_bug_reason r = rec->verdict[b].reason;
        if ((r == TB_BUG_STALEMATE || r == TB_BUG_DEAD) && end[b ^ 1] > last[b])
            end[b] = end[b ^ 1];
        if (rec->end_ms[b] < 0)
            rec->end_ms[b] = end[b];
    }
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        tb_cli_error("bughouse-events: cannot write %s", path);
    return f;
}

int tb_cli_cmd_bughouse_events(int argc, char **argv)
{
    struct tb_bugmatch_gen_config gcfg = {.blip_ms = 100, .noise = false};
    const char *path = NULL, *outs[2] = {NULL, NULL};
    long seed = 1, v;
    struct tb_error err = {0};

    enum { O_SEED = 256, O_NOISE, O_BLIP, O_OUT_A, O_OUT_B };
    static const struct option longs[] = {
        {"seed", required_argument, NULL, O_SEED},    {"noise", no_argument, NULL, O_NOISE},
        {"blip-ms", required_argument, NULL, O_BLIP}, {"out-a", required_argument, NULL, O_OUT_A},
        {"out-b", required_argument, NULL, O_OUT_B},  {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        const char *val = optarg;
        bool ok = true;
        if (c == 1 && !path)
            path = val;
        else if (c == O_SEED)
            ok = tb_cli_parse_int(val, 0, 2147483647L, &seed);
        else if (c == O_NOISE)
            gcfg.noise = true;
        else if (c == O_BLIP && (ok = tb_cli_parse_int(val, 1, 10000, &v)))
            gcfg.blip_ms = (uint32_t)v;
        else if (c == O_OUT_A || c == O_OUT_B)
            outs[c - O_OUT_A] = val;
        else
            ok = false;
        if (!ok)
            return tb_cli_usage(argv[0]);
    }
    if (!path)
        return tb_cli_usage(argv[0]);
    size_t len;
    char *text = tb_cli_read_file(path, &len);
    tb_bug_record *rec = malloc(sizeof *rec);
    if (!text || !rec) {
        free(text);
        free(rec);
        return TB_CLI_USAGE;
    }
    int status = TB_CLI_OK;
    if (tb_bug_bpgn_read(rec, text, len, &err) < 0) {
        tb_cli_error("bughouse-events: %s: %s", path, err.msg);
        status = TB_CLI_USAGE;
    }
    free(text);
    for (int k = 0; k < rec->nplies && status == TB_CLI_OK; k++)
        if (rec->plies[k].clock_ms < 0) {
            tb_cli_error("bughouse-events: %s: ply %d has no clock {seconds}: the boards' "
                         "events are timed by the clocks",
                         path, k + 1);
            status = TB_CLI_FOUND;
        }
    struct out o = {{stdout, stdout}};
    for (int b = 0; b < 2 && status == TB_CLI_OK; b++)
        if (outs[b] && !(o.to[b] = open_out(outs[b])))
            status = TB_CLI_USAGE;
    if (status == TB_CLI_OK) {
        end_times(rec);
        for (int b = 0; b < 2; b++)
            if (b == 0 || o.to[1] != o.to[0])
                header(o.to[b], path, seed, &gcfg, rec);
        /* a game whose clocks leave no room to handle its pieces is a problem of the input */
        if (tb_bugmatch_gen_script(rec, &gcfg, (uint64_t)seed, print_line, &o, &err) < 0) {
            tb_cli_error("bughouse-events: %s: %s", path, err.msg);
            status = TB_CLI_FOUND;
        }
    }
    for (int b = 0; b < 2; b++)
        if (o.to[b] && o.to[b] != stdout && fclose(o.to[b]) != 0) {
            tb_cli_error("bughouse-events: cannot write %s", outs[b]);
            status = TB_CLI_USAGE;
        }
    free(rec);
    return status;
}
