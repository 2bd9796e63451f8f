/* fuzz_script.c - fuzz target of the event-script parser (host/script) and of the move
 * recogniser (host/sensor) fed with what it accepts.
 *
 * The parser: the buffer parser and the line parser must agree (the same events, the same first
 * error); a refused line must name its line and a column on it, and leave the parser's time as
 * it was; every accepted event must write back (tb_script_format) to a line that parses to the
 * same event.
 *
 * The recogniser: starting from the script's `# fen:` (or the standard position), every event
 * the line parser accepts is fed in time order, with time ticked through every deadline on the
 * way; the recogniser must accept each event, take every decision due when ticked, and every
 * move it outputs must be legal in the game as its outputs have left it (and, when it was told
 * to copy a move, be that move). At the end its position must be the game its moves made.
 * `press` events steer it, as the daemon would: a button starting with `r` asks it to copy a
 * legal move (chosen by the button name's length), `p` returns to playing, `s` re-sets the
 * position. */
#include "fuzz_chess.h"
#include "tb_fuzz.h"
#include "tb_script.h"
#include "tb_sensor.h"

#define MAX_EVENTS 4096

struct run {
    struct tb_script_event ev[MAX_EVENTS];
    int n;
};

static int collect(void *user, const struct tb_script_event *ev, long line)
{
    struct run *r = user;
    (void)line;
    if (r->n < MAX_EVENTS)
        r->ev[r->n] = *ev;
    r->n++;
    return 0;
}

static bool same_event(const struct tb_script_event *a, const struct tb_script_event *b)
{
    return a->kind == b->kind && a->us == b->us && a->ms == b->ms &&
           strcmp(a->board, b->board) == 0 && a->square == b->square && a->piece == b->piece &&
           strcmp(a->button, b->button) == 0 && strcmp(a->text, b->text) == 0 &&
           a->clock_ms[0] == b->clock_ms[0] && a->clock_ms[1] == b->clock_ms[1] &&
           a->clock_run == b->clock_run;
}

/* An accepted action writes back to a line that parses to the same event. */
static void check_format(const struct tb_script_event *ev)
{
    if (ev->kind == TB_SCRIPT_EXPECT)
        return; /* free text, cut to fit: not always a fixed point */
    char line[200];
    int n = tb_script_format(ev, line, sizeof line);
    TB_FUZZ_CHECK(n > 0 && (size_t)n == strlen(line));
    struct tb_script_parser p;
    struct tb_script_event back;
    struct tb_error err;
    tb_script_parser_init(&p);
    TB_FUZZ_CHECK(tb_script_parse_line(&p, line, (size_t)n, &back, &err) == TB_OK);
    TB_FUZZ_CHECK(same_event(ev, &back));
}

/* The recogniser and the game its moves have made. */
struct game {
    tb_sensor *s;
    tb_chess_pos pos;
    tb_chess_move expected; /* when copying a move */
    bool trace;             /* TB_FUZZ_TRACE set: print what happens (to replay a failure) */
};

static void drain(struct game *g)
{
    struct tb_sensor_out o;
    while (tb_sensor_poll(g->s, &o)) {
        char line[160];
        TB_FUZZ_CHECK(tb_sensor_out_format(&o, line, sizeof line) > 0);
        if (g->trace)
            fprintf(stderr, "  -> %s\n", line);
        if (o.kind != TB_SENSOR_OUT_MOVE)
            continue;
        TB_FUZZ_CHECK(tb_chess_is_legal(&g->pos, o.move));
        char uci[8];
        TB_FUZZ_CHECK(tb_chess_move_to_uci(&g->pos, o.move, uci, sizeof uci) > 0);
        TB_FUZZ_CHECK(strcmp(uci, o.uci) == 0);
        if (g->expected)
            TB_FUZZ_CHECK(o.move == g->expected && (o.flags & TB_SENSOR_MF_REPLICATED));
        g->expected = 0;
        tb_chess_undo undo;
        tb_chess_make(&g->pos, o.move, &undo);
    }
}

/* Lets time run to ms, taking each decision as it falls due. */
static void run_to(struct game *g, uint64_t ms)
{
    for (int guard = 0;; guard++) {
        uint64_t due = tb_sensor_deadline(g->s);
        if (due > ms)
            break;
        TB_FUZZ_CHECK(guard < 10000);
        tb_sensor_tick(g->s, due);
        drain(g);
        TB_FUZZ_CHECK(tb_sensor_deadline(g->s) > due);
    }
}

static void steer(struct game *g, const struct tb_script_event *ev)
{
    drain(g); /* as the daemon does: the game is what the outputs so far have made it */
    if (ev->button[0] == 'r') {
        tb_chess_movelist list;
        if (tb_chess_gen_legal(&g->pos, &list) == 0)
            return;
        tb_chess_move m = list.moves[strlen(ev->button) % (size_t)list.count];
        TB_FUZZ_CHECK(tb_sensor_set_mode(g->s, TB_SENSOR_REPLICATING, m) == TB_OK);
        g->expected = m;
    } else if (ev->button[0] == 'p') {
        TB_FUZZ_CHECK(tb_sensor_set_mode(g->s, TB_SENSOR_PLAYING, 0) == TB_OK);
        g->expected = 0;
    } else if (ev->button[0] == 's') {
        tb_sensor_set_position(g->s, &g->pos, ev->ms);
        g->expected = 0;
    }
}

static void recognise(struct game *g, const struct tb_script_event *ev, int n)
{
    for (int i = 0; i < n; i++) {
        if (ev[i].kind == TB_SCRIPT_EXPECT)
            continue;
        run_to(g, ev[i].ms);
        if (g->trace) {
            char line[200];
            tb_script_format(&ev[i], line, sizeof line);
            fprintf(stderr, "%s\n", line);
        }
        if (ev[i].kind == TB_SCRIPT_PRESS) {
            steer(g, &ev[i]);
            drain(g);
            continue;
        }
        int rc = tb_sensor_feed(g->s, &ev[i]);
        /* a choice no promotion can take is refused, and changes nothing */
        TB_FUZZ_CHECK(rc == TB_OK || (ev[i].kind == TB_SCRIPT_CHOOSE && rc == TB_ERR_STATE));
        drain(g);
    }
    tb_sensor_flush(g->s);
    drain(g);
    TB_FUZZ_CHECK(tb_sensor_dropped(g->s) == 0);
    TB_FUZZ_CHECK(tb_fuzz_same_pos(tb_sensor_position(g->s), &g->pos));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct run *whole, *lines;
    static tb_sensor *sensor;
    if (!whole && (!(whole = malloc(sizeof *whole)) || !(lines = malloc(sizeof *lines)) ||
                   tb_sensor_new(NULL, &sensor) != TB_OK))
        abort();
    const char *buf = (const char *)data;

    /* The whole buffer at once. */
    struct tb_error werr;
    memset(&werr, 0, sizeof werr);
    whole->n = 0;
    int wrc = tb_script_parse_buffer(buf, size, collect, whole, &werr);
    if (wrc != TB_OK)
        TB_FUZZ_CHECK_ERROR(wrc, werr);

    /* Line by line, going on after errors as a live reader does. */
    struct tb_script_parser p;
    tb_script_parser_init(&p);
    lines->n = 0;
    int first_error = TB_OK;
    long first_error_line = 0;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(buf + pos, '\n', size - pos);
        size_t end = nl ? (size_t)(nl - buf) : size;
        struct tb_script_event ev;
        struct tb_error err;
        uint64_t last = p.last_us;
        int rc = tb_script_parse_line(&p, buf + pos, end - pos, &ev, &err);
        if (rc != TB_OK) {
            TB_FUZZ_CHECK_ERROR(rc, err);
            TB_FUZZ_CHECK(err.line == p.line);
            TB_FUZZ_CHECK(err.column >= 0 && (size_t)err.column <= end - pos + 1);
            TB_FUZZ_CHECK(p.last_us == last);
            if (first_error == TB_OK) {
                first_error = rc;
                first_error_line = err.line;
                TB_FUZZ_CHECK(strcmp(err.msg, werr.msg) == 0);
                /* The buffer parser delivered exactly the events before this line. */
                TB_FUZZ_CHECK(whole->n == lines->n);
            }
        } else if (ev.kind != TB_SCRIPT_NONE) {
            TB_FUZZ_CHECK(ev.kind == TB_SCRIPT_EXPECT || ev.us >= last);
            check_format(&ev);
            if (first_error == TB_OK && lines->n < MAX_EVENTS)
                TB_FUZZ_CHECK(same_event(&ev, &whole->ev[lines->n]));
            collect(lines, &ev, p.line);
        }
        pos = nl ? end + 1 : size;
    }
    TB_FUZZ_CHECK(wrc == first_error && werr.line == first_error_line);
    if (first_error == TB_OK)
        TB_FUZZ_CHECK(whole->n == lines->n);

    /* The blip window the script names: in the daemon's range, or refused with a reason. */
    uint32_t window = 0;
    struct tb_error berr;
    memset(&berr, 0, sizeof berr);
    int brc = tb_script_blip_window(buf, size, &window, &berr);
    if (brc < 0)
        TB_FUZZ_CHECK_ERROR(brc, berr);
    else
        TB_FUZZ_CHECK(brc == 0
                          ? window == 0
                          : window >= TB_SCRIPT_BLIP_MIN_MS && window <= TB_SCRIPT_BLIP_MAX_MS);

    /* The recogniser, from the script's start position. */
    struct game g = {.s = sensor, .trace = getenv("TB_FUZZ_TRACE") != NULL};
    char fen[128];
    if (tb_script_start_fen(buf, size, fen, sizeof fen) != 1 ||
        (tb_chess_pos_from_fen(&g.pos, fen, 0, NULL) != TB_OK &&
         tb_chess_pos_from_fen(&g.pos, fen, TB_CHESS_FEN_960, NULL) != TB_OK))
        tb_chess_pos_startpos(&g.pos);
    tb_sensor_reset(sensor, &g.pos, 0);
    recognise(&g, lines->ev, lines->n < MAX_EVENTS ? lines->n : MAX_EVENTS);
    return 0;
}
