/* reedboard-sim - the real reedboard firmware in simavr, on a board wired from the netlist.
 *
 *   reedboard-sim --elf FILE --script FILE [--bounce-ms N] [--initial start|empty|FEN]
 *                 [--board NAME] [--tail-ms N] [--seed N] [--netlist FILE] [--serial N]
 *       runs an event script as fast as possible and prints every frame the firmware sends,
 *       one line each, with its simulated time
 *   reedboard-sim --elf FILE --pty [--link PATH] [--script FILE | --stdin] [...]
 *       puts the firmware's UART on a pseudo-terminal in real time, for host software
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "rb_proto.h"
#include "tb_file.h"

enum {
    HELLO_MS = 20, /* when the simulated host first asks the board for INFO and SNAPSHOT */
    CHUNK_MS = 50  /* script mode checks for a stop request this often (simulated time) */
};

/* Set by the signal handler: the only writable file-scope state of the program. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

void rb_simcli_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int rb_simcli_stop_requested(void)
{
    return stop_signal != 0;
}

void rb_simcli_request_stop(void)
{
    stop_signal = -1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: reedboard-sim --elf FILE --script FILE [--bounce-ms N] [--initial "
            "start|empty|FEN]\n"
            "                     [--board NAME] [--tail-ms N] [--seed N] [--netlist FILE]\n"
            "                     [--fault stuck:SQUARE|dead:SQUARE|bridge:RANKS|cross:RANKS]...\n"
            "                     [--serial N]\n"
            "       reedboard-sim --elf FILE --pty [--link PATH] [--script FILE | --stdin] [...]\n"
            "       reedboard-sim --help | --version\n");
}

static void square_name(int sq, char buf[3])
{
    buf[0] = (char)('a' + sq % 8);
    buf[1] = (char)('1' + sq / 8);
    buf[2] = '\0';
}

static const char *button_name(int b)
{
    static const char *const names[] = {"promote", "repeat", "clock", "arbiter"};
    return b >= 0 && b < 4 ? names[b] : "?";
}

void rb_simcli_print_frame(FILE *out, const struct rb_sim *sim, const struct rb_sim_frame *f)
{
    double ms = rb_sim_cycles_to_ms(sim, f->last_cycle);
    const struct rb_proto_msg *m = &f->msg;
    char sq[3];
    switch (m->type) {
    case RB_PROTO_INFO:
        fprintf(out,
                "%.1f ms info fw=%u.%u.%u proto=%u serial=%lu debounce=%ums scan=%uus "
                "snapshot=%ums features=0x%04x events=0x%02x\n",
                ms, m->u.info.fw_major, m->u.info.fw_minor, m->u.info.fw_patch,
                m->u.info.proto_version, (unsigned long)m->u.info.serial, m->u.info.debounce_ms,
                m->u.info.scan_period_us, m->u.info.snapshot_period_ms, m->u.info.features,
                m->u.info.events);
        break;
    case RB_PROTO_SNAPSHOT:
        fprintf(out, "%.1f ms snapshot seq=%u occ=%016llx buttons=%x board_ms=%lu\n", ms,
                m->u.snapshot.seq, (unsigned long long)m->u.snapshot.occupancy,
                m->u.snapshot.buttons, (unsigned long)m->u.snapshot.ms);
        break;
    case RB_PROTO_SQUARE:
        square_name(m->u.square.square, sq);
        fprintf(out, "%.1f ms event seq=%u %s %s board_ms=%lu\n", ms, m->u.square.seq,
                m->u.square.placed ? "place" : "lift", sq, (unsigned long)m->u.square.ms);
        break;
    case RB_PROTO_BUTTON:
        fprintf(out, "%.1f ms event seq=%u %s %s board_ms=%lu\n", ms, m->u.button.seq,
                m->u.button.down ? "press" : "release", button_name(m->u.button.button),
                (unsigned long)m->u.button.ms);
        break;
    case RB_PROTO_FAULT:
        fprintf(out, "%.1f ms fault seq=%u %s arg=%u detail=%u\n", ms, m->u.fault.seq,
                rb_proto_fault_name(m->u.fault.code), m->u.fault.arg, m->u.fault.detail);
        break;
    case RB_PROTO_PONG:
        fprintf(out, "%.1f ms pong token=%lu board_ms=%lu\n", ms, (unsigned long)m->u.pong.token,
                (unsigned long)m->u.pong.ms);
        break;
    default:
        fprintf(out, "%.1f ms %s\n", ms, rb_proto_type_name(m->type));
    }
}

static int parse_number(const char *opt, const char *s, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0 || v > max) {
        fprintf(stderr, "reedboard-sim: %s wants a number from 0 to %g, not '%s'\n", opt, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* --fault stuck:d3 (a switch welded shut), dead:c1 (a switch or diode that never conducts),
 * bridge:45 (rank lines 4 and 5 joined), cross:12 (rank lines 1 and 2 swapped at the MCU):
 * wires the fault into the modelled board. */
static int parse_fault(const char *v, struct rb_sim_faults *f)
{
    const char *colon = strchr(v, ':');
    const char *w = colon ? colon + 1 : "";
    size_t kind = colon ? (size_t)(colon - v) : 0;
    if ((kind == 5 && !strncmp(v, "stuck", 5)) || (kind == 4 && !strncmp(v, "dead", 4))) {
        if (strlen(w) == 2 && w[0] >= 'a' && w[0] <= 'h' && w[1] >= '1' && w[1] <= '8') {
            uint64_t bit = 1ull << ((w[1] - '1') * 8 + (w[0] - 'a'));
            if (kind == 5)
                f->stuck |= bit;
            else
                f->dead |= bit;
            return 0;
        }
    } else if ((kind == 6 && !strncmp(v, "bridge", 6)) || (kind == 5 && !strncmp(v, "cross", 5))) {
        uint8_t ranks = 0;
        int bad = 0;
        for (const char *c = w; *c; c++) {
            if (*c < '1' || *c > '8')
                bad = 1;
            else
                ranks |= (uint8_t)(1u << (*c - '1'));
        }
        if (!bad && kind == 6 && (ranks & (ranks - 1u))) {
            f->rows_bridged |= ranks;
            return 0;
        }
        if (!bad && kind == 5 && strlen(w) == 2 && (ranks & (ranks - 1u)) && !f->rows_crossed) {
            f->rows_crossed = ranks;
            return 0;
        }
    }
    fprintf(stderr,
            "reedboard-sim: --fault %s: give stuck:SQUARE, dead:SQUARE (a1..h8), bridge:RANKS "
            "(two or more of 1..8, e.g. bridge:45) or cross:RANKS (two, once, e.g. cross:12)\n",
            v);
    return 2;
}

/* Returns 0 when parsed, 2 on a usage error (reported), 1 for --help, 3 for --version. */
static int parse_args(int argc, char **argv, struct rb_simcli_opts *o)
{
    enum {
        O_PTY = 256,
        O_STDIN,
        O_ELF,
        O_SCRIPT,
        O_LINK,
        O_BOARD,
        O_INITIAL,
        O_NETLIST,
        O_BOUNCE,
        O_TAIL,
        O_SEED,
        O_FAULT,
        O_SERIAL
    };
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"pty", no_argument, NULL, O_PTY},
        {"stdin", no_argument, NULL, O_STDIN},
        {"elf", required_argument, NULL, O_ELF},
        {"script", required_argument, NULL, O_SCRIPT},
        {"link", required_argument, NULL, O_LINK},
        {"board", required_argument, NULL, O_BOARD},
        {"initial", required_argument, NULL, O_INITIAL},
        {"netlist", required_argument, NULL, O_NETLIST},
        {"bounce-ms", required_argument, NULL, O_BOUNCE},
        {"tail-ms", required_argument, NULL, O_TAIL},
        {"seed", required_argument, NULL, O_SEED},
        {"fault", required_argument, NULL, O_FAULT},
        {"serial", required_argument, NULL, O_SERIAL},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        const char *v = optarg, *a = argv[optind - 1];
        double num = 0;
        switch (c) {
        case 'h':
            return 1;
        case 'V':
            return 3;
        case O_PTY:
            o->pty = 1;
            break;
        case O_STDIN:
            o->use_stdin = 1;
            break;
        case O_ELF:
            o->elf = v;
            break;
        case O_SCRIPT:
            o->script = v;
            break;
        case O_LINK:
            o->link = v;
            break;
        case O_BOARD:
            o->board = v;
            break;
        case O_INITIAL:
            o->initial = v;
            break;
        case O_NETLIST:
            o->netlist = v;
            break;
        case O_FAULT:
            if (parse_fault(v, &o->faults))
                return 2;
            break;
        case O_BOUNCE:
        case O_TAIL:
        case O_SEED:
            if (parse_number(c == O_BOUNCE ? "--bounce-ms"
                             : c == O_TAIL ? "--tail-ms"
                                           : "--seed",
                             v, c == O_SEED ? 4294967295.0 : 1e9, &num))
                return 2;
            if (c == O_BOUNCE)
                o->bounce_ms = num;
            else if (c == O_TAIL)
                o->tail_ms = num;
            else
                o->seed = (unsigned)num;
            break;
        case O_SERIAL: /* the board's identity, as `twinboard board-id` would have set it */
            if (parse_number("--serial", v, (double)RB_PROTO_SERIAL_MAX, &num))
                return 2;
            o->serial = (unsigned long)num;
            break;
        case ':':
            fprintf(stderr, "reedboard-sim: %s needs a value\n", a);
            return 2;
        default:
            fprintf(stderr, "reedboard-sim: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "reedboard-sim: unknown option '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (!o->elf) {
        fprintf(stderr, "reedboard-sim: --elf FILE is required\n");
        usage(stderr);
        return 2;
    }
    if (!o->pty && !o->script) {
        fprintf(stderr, "reedboard-sim: give --script FILE, or --pty\n");
        usage(stderr);
        return 2;
    }
    if (o->script && o->use_stdin) {
        fprintf(stderr, "reedboard-sim: --script and --stdin exclude each other\n");
        return 2;
    }
    if (o->link && !o->pty) {
        fprintf(stderr, "reedboard-sim: --link needs --pty\n");
        return 2;
    }
    if (o->bounce_ms > 1000) {
        fprintf(stderr, "reedboard-sim: --bounce-ms above 1000 makes no sense for a reed switch\n");
        return 2;
    }
    return 0;
}

static void on_frame(void *ctx, const struct rb_sim_frame *f)
{
    rb_simcli_print_frame(stdout, ctx, f);
}

static int request(struct rb_sim *sim, uint8_t type)
{
    struct rb_proto_msg m = {.type = type};
    return rb_sim_request(sim, &m);
}

static int run_script_mode(struct rb_sim *sim, const struct rb_simcli_opts *o,
                           const struct rb_sim_script_result *res)
{
    struct tb_error err = {0};
    struct rb_sim_handlers h = {.frame = on_frame, .ctx = sim};
    rb_sim_set_handlers(sim, &h);
    double end_ms = (double)res->end_ms + o->tail_ms;
    if (end_ms < HELLO_MS + 100)
        end_ms = HELLO_MS + 100;
    /* The board speaks only when asked (it resets when the port opens): ask like a host does. */
    int rc = rb_sim_run_until(sim, rb_sim_ms_to_cycles(sim, HELLO_MS), &err);
    if (rc == 0)
        rc = request(sim, RB_PROTO_GET_INFO) || request(sim, RB_PROTO_GET_SNAPSHOT);
    for (double t = HELLO_MS + CHUNK_MS; rc == 0 && !rb_simcli_stop_requested(); t += CHUNK_MS) {
        rc = rb_sim_run_until(sim, rb_sim_ms_to_cycles(sim, t < end_ms ? t : end_ms), &err);
        if (t >= end_ms)
            break;
    }
    if (rb_simcli_stop_requested()) {
        fflush(stdout);
        fprintf(stderr, "reedboard-sim: stopped at %.1f ms\n",
                rb_sim_cycles_to_ms(sim, rb_sim_cycle(sim)));
        return 1;
    }
    if (rc || request(sim, RB_PROTO_GET_SNAPSHOT) ||
        rb_sim_run_until(sim, rb_sim_ms_to_cycles(sim, end_ms + 100), &err)) {
        fprintf(stderr, "reedboard-sim: %s\n", err.msg[0] ? err.msg : "cannot queue a request");
        return 1;
    }
    printf("%.1f ms model occ=%016llx\n", end_ms + 100, (unsigned long long)rb_sim_occupancy(sim));
    struct rb_proto_stats st = rb_sim_rx_stats(sim);
    if (st.garbage_bytes || st.bad_crc || st.bad_message || st.oversize) {
        fprintf(stderr,
                "reedboard-sim: the firmware sent undecodable bytes: garbage=%lu crc=%lu "
                "message=%lu oversize=%lu\n",
                (unsigned long)st.garbage_bytes, (unsigned long)st.bad_crc,
                (unsigned long)st.bad_message, (unsigned long)st.oversize);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct rb_simcli_opts o = {.tail_ms = 1500, .seed = 1};
    int rc = parse_args(argc, argv, &o);
    if (rc == 1 || rc == 3) {
        if (rc == 1)
            usage(stdout);
        else
            puts("reedboard-sim " TB_VERSION);
        return 0;
    }
    if (rc)
        return rc;

    struct tb_error err = {0};
    uint64_t occ = 0;
    if (rb_sim_occupancy_parse(o.initial ? o.initial : "start", &occ, &err)) {
        fprintf(stderr, "reedboard-sim: --initial: %s\n", err.msg);
        return 2;
    }
    char *text = NULL;
    size_t len = 0;
    if (o.script && tb_read_file(o.script, &text, &len, &err) != TB_OK) {
        fprintf(stderr, "reedboard-sim: %s\n", err.msg);
        return 1;
    }
    struct rb_sim *sim = NULL;
    struct rb_sim_config cfg = {.elf = o.elf, .netlist = o.netlist, .seed = o.seed};
    if (rb_sim_new(&cfg, &sim, &err)) {
        fprintf(stderr, "reedboard-sim: %s\n", err.msg);
        free(text);
        return 1;
    }
    rb_sim_set_occupancy(sim, occ);
    rb_sim_set_faults(sim, &o.faults);
    if (o.serial && rb_sim_set_serial(sim, (uint32_t)o.serial) != TB_OK) {
        fprintf(stderr, "reedboard-sim: --serial: simavr cannot write this MCU's EEPROM\n");
        free(text);
        rb_sim_free(sim);
        return 1;
    }
    struct rb_sim_script_result res = {0};
    if (text &&
        rb_sim_schedule_script(sim, text, len, o.script, o.board, 0, o.bounce_ms, &res, &err)) {
        fprintf(stderr, "reedboard-sim: %s\n", err.msg);
        free(text);
        rb_sim_free(sim);
        return 1;
    }
    free(text);
    if (res.ignored)
        fprintf(stderr,
                "reedboard-sim: note: %zu 'choose' or 'clock' line(s) ignored: the board has no "
                "choose action (promotion is chosen with the PROMOTE button) and no clock\n",
                res.ignored);
    if (res.skipped)
        fprintf(stderr, "reedboard-sim: note: %zu line(s) for other boards skipped\n", res.skipped);
    rb_simcli_catch_signals();
    rc = o.pty ? rb_simcli_run_pty(sim, &o) : run_script_mode(sim, &o, &res);
    rb_sim_free(sim);
    return rc;
}
