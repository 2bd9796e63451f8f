/* cmd_bughouse_replay.c - `twinboard bughouse-replay`: the event scripts of two boards through a
 * doorgeefschaak match (tb_bugmatch): every output for the arbiter, or what one seat hears, and
 * the BPGN of both games (docs/doorgeefschaak.md, "The command line"). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bughouse_script.h"
#include "cli.h"
#include "tb_bugmatch.h"
#include "tb_voice.h"

struct opts {
    struct tb_bugmatch_config cfg;
    struct tb_bughouse_script script;
    const char *files[2];
    int nfiles;
    const char *control, *fen[2], *bpgn, *pack;
    int seat; /* -1: the arbiter's lines */
    bool say, is_short, blip_given;
    uint32_t script_blip; /* the blip window a file named, 0 none yet */
    uint64_t until;       /* UINT64_MAX: until nothing is due */
};

struct run {
    const struct opts *o;
    tb_bugmatch *m;
    struct tb_voice_pack *pack;
    long refused;
};

static void seat_name(int seat, char buf[16])
{
    snprintf(buf, 16, "%c %s", 'A' + (seat >> 1), seat & 1 ? "Black" : "White");
}

/* Every output waiting: the arbiter's line with its time, what the seats hear after it (--say);
 * or only what --seat hears. */
static void print_outputs(struct run *r)
{
    struct tb_bugmatch_out o;
    char line[256], words[512], who[16];
    while (tb_bugmatch_poll(r->m, &o)) {
        unsigned long long ms = (unsigned long long)o.ms;
        if (r->o->seat < 0 && tb_bugmatch_out_format(&o, line, sizeof line) >= 0)
            printf("%llu %s\n", ms, line);
        for (int s = 0; r->pack && s < TB_BUGMATCH_SEATS; s++) {
            if (!(o.hear & (1u << s)) || (r->o->seat >= 0 && s != r->o->seat))
                continue;
            enum tb_voice_form form = r->o->is_short ? TB_VOICE_SHORT : TB_VOICE_LONG;
            if (tb_bugmatch_out_say(r->pack, &o, form, words, sizeof words) <= 0)
                continue; /* for the record and the arbiter only */
            seat_name(s, who);
            if (r->o->seat >= 0)
                printf("%llu %s\n", ms, words);
            else
                printf("%llu   %s hears: %s\n", ms, who, words);
        }
    }
}

static const char *refusal(int rc)
{
    switch (rc) {
    case TB_ERR_STATE:
        return "not possible now";
    case TB_ERR_ILLEGAL:
        return "not allowed here";
    case TB_ERR_ARG:
        return "not for this board";
    default:
        return "refused";
    }
}

static int feed(struct run *r, const struct tb_bughouse_item *it)
{
    struct tb_error err = {0};
    int rc;
    switch (it->kind) {
    case TB_BUGHOUSE_ITEM_MOVE:
        rc = tb_bugmatch_typed(r->m, it->board, it->text, it->ev.ms, &err);
        break;
    case TB_BUGHOUSE_ITEM_ASK:
        rc = tb_bugmatch_ask_pool(r->m, 2 * it->board + it->color, it->ev.ms);
        break;
    default:
        rc = tb_bugmatch_feed_script(r->m, it->board, &it->ev);
        /* a choice nothing waits for (the move already decided) changes nothing */
        if (rc == TB_ERR_STATE && it->ev.kind == TB_SCRIPT_CHOOSE)
            rc = TB_OK;
        break;
    }
    print_outputs(r);
    if (rc == TB_OK)
        return 0;
    r->refused++;
    printf("%llu ! %s:%ld: %s refused: %s\n", (unsigned long long)it->ev.ms, r->o->files[it->file],
           it->line, tb_bughouse_item_name(it), err.msg[0] ? err.msg : refusal(rc));
    return 0;
}

/* Time runs on after the last input: to --until, else until nothing more falls due (the flags
 * of games still going on fall, as after the record's last move). */
static void run_on(struct run *r, uint64_t from)
{
    uint64_t until = r->o->until;
    for (;;) {
        uint64_t d = tb_bugmatch_deadline(r->m);
        if (d == UINT64_MAX || d > until)
            break;
        d = d < from ? from : d;
        tb_bugmatch_tick(r->m, d);
        print_outputs(r);
    }
    if (until != UINT64_MAX && until >= from) {
        tb_bugmatch_tick(r->m, until);
        print_outputs(r);
    }
}

/* Both games as BPGN, with the tags the scripts name (`# tag WhiteA: An`). */
static int write_bpgn(const tb_bugmatch *m, const struct tb_bughouse_script *script,
                      const char *path)
{
    tb_bug_record *rec = malloc(sizeof *rec);
    char *text = NULL;
    int n = -1;
    if (rec) {
        *rec = *tb_bugmatch_record(m);
        char *dest[TB_BUGHOUSE_TAGS] = {rec->event,    rec->site,     rec->date,    rec->names[0],
                                        rec->names[1], rec->names[2], rec->names[3]};
        size_t cap[TB_BUGHOUSE_TAGS] = {sizeof rec->event, sizeof rec->site, sizeof rec->date,
                                        TB_BUG_NAME_MAX,   TB_BUG_NAME_MAX,  TB_BUG_NAME_MAX,
                                        TB_BUG_NAME_MAX};
        for (int t = 0; t < TB_BUGHOUSE_TAGS; t++)
            if (script->tag[t][0])
                snprintf(dest[t], cap[t], "%s", script->tag[t]);
        n = tb_bug_bpgn_write(rec, NULL, 0);
        text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    }
    if (!text) {
        free(rec);
        tb_cli_error("bughouse-replay: cannot write the BPGN");
        return TB_CLI_USAGE;
    }
    tb_bug_bpgn_write(rec, text, (size_t)n + 1);
    free(rec);
    bool out = strcmp(path, "-") == 0;
    FILE *f = out ? stdout : fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && !out)
        ok = fclose(f) == 0 && ok;
    free(text);
    if (!ok) {
        tb_cli_error("bughouse-replay: cannot write %s", path);
        return TB_CLI_USAGE;
    }
    return TB_CLI_OK;
}

static int parse_seat(const char *s, long *out)
{
    return tb_cli_parse_int(s, 0, TB_BUGMATCH_SEATS - 1, out);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    enum {
        O_BOARD_A = 256,
        O_BOARD_B,
        O_CONTROL,
        O_TYPED,
        O_AUTO,
        O_HEAR,
        O_SEAT,
        O_SAY,
        O_SHORT,
        O_BPGN,
        O_BLIP,
        O_PROMPT,
        O_UNTIL,
        O_FEN_A,
        O_FEN_B,
    };
    static const struct option longs[] = {
        {"board-a", required_argument, NULL, O_BOARD_A},
        {"board-b", required_argument, NULL, O_BOARD_B},
        {"control", required_argument, NULL, O_CONTROL},
        {"typed", required_argument, NULL, O_TYPED},
        {"auto-press", no_argument, NULL, O_AUTO},
        {"hear-other-board", required_argument, NULL, O_HEAR},
        {"seat", required_argument, NULL, O_SEAT},
        {"say", required_argument, NULL, O_SAY},
        {"short", no_argument, NULL, O_SHORT},
        {"bpgn", required_argument, NULL, O_BPGN},
        {"blip-ms", required_argument, NULL, O_BLIP},
        {"prompt-ms", required_argument, NULL, O_PROMPT},
        {"until", required_argument, NULL, O_UNTIL},
        {"fen-a", required_argument, NULL, O_FEN_A},
        {"fen-b", required_argument, NULL, O_FEN_B},
        {NULL, 0, NULL, 0},
    };
    const char *typed[2] = {NULL, NULL};
    int ntyped = 0, c;
    long v;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        const char *val = optarg;
        if (c == 1 && o->nfiles < 2) {
            o->files[o->nfiles++] = val;
        } else if (c == O_BOARD_A || c == O_BOARD_B) {
            if (!tb_script_name_valid(val)) {
                tb_cli_error("bughouse-replay: bad board name '%s'", val);
                return TB_CLI_USAGE;
            }
            snprintf(o->script.name[c - O_BOARD_A], TB_SCRIPT_NAME_MAX, "%s", val);
        } else if (c == O_CONTROL) {
            o->control = val;
        } else if (c == O_TYPED && ntyped < 2) {
            typed[ntyped++] = val;
        } else if (c == O_AUTO) {
            o->cfg.auto_press = true;
        } else if (c == O_HEAR && parse_seat(val, &v)) {
            o->cfg.hear_other_board[v] = true;
        } else if (c == O_SEAT && parse_seat(val, &v)) {
            o->seat = (int)v;
        } else if (c == O_SAY) {
            o->pack = val;
            o->say = true;
        } else if (c == O_SHORT) {
            o->is_short = true;
        } else if (c == O_BPGN) {
            o->bpgn = val;
        } else if (c == O_BLIP && tb_cli_parse_int(val, 0, 10000, &v)) {
            o->cfg.sensor.blip_ms = (uint32_t)v;
            o->blip_given = true;
        } else if (c == O_PROMPT && tb_cli_parse_int(val, 0, 600000, &v)) {
            o->cfg.sensor.promo_prompt_ms = (uint32_t)v;
        } else if (c == O_UNTIL && tb_cli_parse_int(val, 0, 2147483647L, &v)) {
            o->until = (uint64_t)v;
        } else if (c == O_FEN_A || c == O_FEN_B) {
            o->fen[c - O_FEN_A] = val;
        } else {
            return tb_cli_usage(argv[0]);
        }
    }
    if (o->nfiles == 0)
        return tb_cli_usage(argv[0]);
    /* a board typed is named by its letter or by its name in the scripts */
    for (int i = 0; i < ntyped; i++) {
        int b = tb_bughouse_script_board(&o->script, typed[i]);
        if (b < 0 && (typed[i][1] || (typed[i][0] | 0x20) < 'a' || (typed[i][0] | 0x20) > 'b')) {
            tb_cli_error("bughouse-replay: --typed '%s' names no board (A, B or a board's name)",
                         typed[i]);
            return TB_CLI_USAGE;
        }
        b = b >= 0 ? b : (typed[i][0] | 0x20) - 'a';
        o->cfg.typed[b] = o->script.typed[b] = true;
    }
    return TB_CLI_OK;
}

/* The match of the options: clock control (--control, else the scripts' `# control:`, else
 * 7 minutes, 6.3) and start positions (--fen-a/-b, else the scripts' `# fen A:`/`# fen B:`). */
/* The blip window file i was made for (`# blip-window:`), unless --blip-ms says otherwise: the
 * recognisers' window and wobble, as the daemon's. Two files must agree. */
static int script_blip(struct opts *o, int i, const char *text, size_t len)
{
    uint32_t ms;
    struct tb_error err = {0};
    int rc = tb_script_blip_window(text, len, &ms, &err);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", o->files[i], err.msg);
        return TB_ERR_PARSE;
    }
    if (rc == 1 && o->script_blip && ms != o->script_blip) {
        tb_cli_error("bughouse-replay: %s was made for a blip window of %u ms, the other file for "
                     "%u ms: give one with --blip-ms",
                     o->files[i], (unsigned)ms, (unsigned)o->script_blip);
        return TB_ERR_PARSE;
    }
    if (rc == 1)
        o->cfg.sensor.blip_ms = o->cfg.sensor.wobble_ms = o->script_blip = ms;
    return TB_OK;
}

static int new_match(struct opts *o, tb_bugmatch **m)
{
    struct tb_error err = {0};
    const char *control = o->control ? o->control : o->script.control[0] ? o->script.control : NULL;
    if (control && tb_clock_control_parse(&o->cfg.control, control, &err) < 0) {
        tb_cli_error("bughouse-replay: bad clock control '%s': %s", control, err.msg);
        return TB_CLI_USAGE;
    }
    tb_bug_pos start[2];
    bool set = false;
    for (int b = 0; b < 2; b++) {
        const char *fen = o->fen[b] ? o->fen[b] : o->script.fen[b][0] ? o->script.fen[b] : NULL;
        tb_bug_pos_startpos(&start[b]);
        if (fen && tb_bug_pos_from_fen(&start[b], fen, &err) < 0) {
            tb_cli_error("bughouse-replay: bad FEN of board %c '%s': %s", 'A' + b, fen, err.msg);
            return TB_CLI_USAGE;
        }
        set = set || fen;
    }
    if (tb_bugmatch_new(&o->cfg, m, &err) < 0) {
        tb_cli_error("bughouse-replay: %s", err.msg);
        return TB_CLI_USAGE;
    }
    if (set)
        (void)tb_bugmatch_set_start(*m, start);
    return TB_CLI_OK;
}

int tb_cli_cmd_bughouse_replay(int argc, char **argv)
{
    struct opts o = {.seat = -1, .until = UINT64_MAX};
    struct run r = {.o = &o};
    struct tb_error err = {0};
    tb_bugmatch_config_default(&o.cfg);
    tb_bughouse_script_init(&o.script);
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc;
    if (o.seat >= 0 || o.say) {
        if (tb_voice_pack_load(o.pack, &r.pack, &err)) {
            tb_cli_error("bughouse-replay: %s", err.msg);
            return TB_CLI_USAGE;
        }
    }
    /* every line of every file is checked before anything is replayed */
    for (int i = 0; i < o.nfiles && rc == TB_CLI_OK; i++) {
        size_t len;
        char *text = tb_cli_read_file(o.files[i], &len);
        if (!text) {
            rc = TB_CLI_USAGE;
        } else if (tb_bughouse_script_read(&o.script, i, text, len, &err) < 0) {
            fprintf(stderr, "%s:%ld: %s\n", o.files[i], err.line, err.msg);
            rc = TB_CLI_USAGE;
        } else if (!o.blip_given && script_blip(&o, i, text, len) != TB_OK) {
            rc = TB_CLI_USAGE;
        }
        free(text);
    }
    if (rc == TB_CLI_OK)
        rc = new_match(&o, &r.m);
    if (rc == TB_CLI_OK) {
        tb_bughouse_script_sort(&o.script);
        uint64_t last = 0;
        for (size_t i = 0; i < o.script.n; i++) {
            feed(&r, &o.script.items[i]);
            last = o.script.items[i].ev.ms;
        }
        run_on(&r, last);
        if (tb_bugmatch_dropped(r.m))
            printf("! %lu outputs lost (too many at once)\n", tb_bugmatch_dropped(r.m));
        if (o.bpgn)
            rc = write_bpgn(r.m, &o.script, o.bpgn);
        if (rc == TB_CLI_OK && r.refused)
            rc = TB_CLI_FOUND;
    }
    tb_bugmatch_free(r.m);
    tb_voice_pack_free(r.pack);
    tb_bughouse_script_free(&o.script);
    return rc;
}
