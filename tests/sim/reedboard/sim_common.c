/* sim_common.c - scripts from PGN games and recorded runs of the firmware under rb_sim. */
#include "sim_common.h"

#include "tb_chess.h"
#include "tb_run.h"

enum { HELLO_MS = 100, PLY_MS = 700 };

void script_init_start(struct script *s)
{
    memset(s, 0, sizeof *s);
    s->initial_occupancy = s->final_occupancy = 0xFFFF00000000FFFFull;
}

void script_add(struct script *s, double ms, int square, int placed)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->acts = realloc(s->acts, s->cap * sizeof *s->acts);
        ASSERT_NOT_NULL(s->acts);
    }
    s->acts[s->n++] = (struct act){ms, square, placed};
    uint64_t bit = 1ull << square;
    s->final_occupancy = placed ? s->final_occupancy | bit : s->final_occupancy & ~bit;
}

void script_free(struct script *s)
{
    free(s->acts);
}

void game_script(const char *file, long number, int max_plies, struct script *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/%s", tb_test_data_dir(), file);
    size_t len;
    char *pgn = tb_run_read_file(path, &len);
    tb_chess_pgn_reader rd;
    tb_chess_pgn_reader_init(&rd, pgn, len);
    tb_chess_pgn_game *g = malloc(sizeof *g);
    ASSERT_NOT_NULL(g);
    struct tb_error err = {0};
    int rc;
    while ((rc = tb_chess_pgn_read(&rd, g, &err)) == 1 && g->number != number)
        ;
    if (rc != 1)
        TB_FAIL("%s: game %ld not read: %s", path, number, err.msg);
    script_init_start(s);
    ASSERT_U64_EQ(tb_chess_occupancy(&g->game.start), s->initial_occupancy);
    tb_chess_pos pos = g->game.start;
    int plies = max_plies && max_plies < g->game.plies ? max_plies : g->game.plies;
    for (int i = 0; i < plies; i++) {
        tb_chess_move m = g->game.moves[i];
        struct tb_chess_move_squares ms;
        tb_chess_move_squares(&pos, m, &ms);
        double t = 500.0 + (double)i * PLY_MS;
        if (ms.rook_from != TB_CHESS_NOSQ) {
            script_add(s, t, ms.from, 0);
            script_add(s, t + 200, ms.to, 1);
            script_add(s, t + 350, ms.rook_from, 0);
            script_add(s, t + 500, ms.rook_to, 1);
        } else if (ms.capture_sq != TB_CHESS_NOSQ && ms.capture_sq != ms.to) {
            /* en passant: the pawn moves, then the captured pawn is taken off */
            script_add(s, t, ms.from, 0);
            script_add(s, t + 200, ms.to, 1);
            script_add(s, t + 400, ms.capture_sq, 0);
        } else if (ms.capture_sq != TB_CHESS_NOSQ) {
            script_add(s, t, ms.capture_sq, 0);
            script_add(s, t + 150, ms.from, 0);
            script_add(s, t + 350, ms.to, 1);
        } else {
            script_add(s, t, ms.from, 0);
            script_add(s, t + 250, ms.to, 1);
        }
        tb_chess_undo u;
        tb_chess_make(&pos, m, &u);
        ASSERT_U64_EQ(tb_chess_occupancy(&pos), s->final_occupancy);
    }
    free(g);
    free(pgn);
}

/* --- recorded runs ------------------------------------------------------------------------ */

static void on_frame(void *ctx, const struct rb_sim_frame *f)
{
    struct sim_run *r = ctx;
    const struct rb_proto_msg *m = &f->msg;
    switch (m->type) {
    case RB_PROTO_INFO:
        r->info = m->u.info;
        r->ninfo++;
        break;
    case RB_PROTO_SNAPSHOT:
        if (!r->have_baseline) {
            r->baseline_seq = m->u.snapshot.seq;
            r->have_baseline = true;
        }
        r->final_snapshot = m->u.snapshot.occupancy;
        if (m->u.snapshot.reason == RB_PROTO_SNAP_REQUESTED && r->npending > 0) {
            if (r->nchecks == r->capchecks) {
                r->capchecks = r->capchecks ? r->capchecks * 2 : 64;
                r->checks = realloc(r->checks, r->capchecks * sizeof *r->checks);
                ASSERT_NOT_NULL(r->checks);
            }
            r->checks[r->nchecks++] =
                (struct sim_check){rb_sim_cycles_to_ms(r->sim, f->last_cycle), r->pending_model[0],
                                   m->u.snapshot.occupancy};
            memmove(r->pending_model, r->pending_model + 1,
                    (size_t)--r->npending * sizeof r->pending_model[0]);
        }
        break;
    case RB_PROTO_SQUARE:
        if (!r->have_baseline || rb_proto_seq_gap(r->baseline_seq, m->u.square.seq) > 0x8000 ||
            m->u.square.seq == r->baseline_seq)
            break; /* before the script: the start position settling */
        if (r->nevents == r->capevents) {
            r->capevents = r->capevents ? r->capevents * 2 : 256;
            r->events = realloc(r->events, r->capevents * sizeof *r->events);
            ASSERT_NOT_NULL(r->events);
        }
        r->events[r->nevents++] =
            (struct sim_event){m->u.square.square, m->u.square.placed, m->u.square.seq,
                               m->u.square.ms,     f->first_cycle,     0};
        break;
    case RB_PROTO_BUTTON:
        if (r->nbuttons < 32)
            r->buttons[r->nbuttons++] = m->u.button;
        break;
    case RB_PROTO_PONG:
        r->pong = m->u.pong;
        r->npong++;
        break;
    case RB_PROTO_FAULT:
        TB_FAIL("firmware fault %s arg=%u detail=%u", rb_proto_fault_name(m->u.fault.code),
                m->u.fault.arg, m->u.fault.detail);
    default:
        break;
    }
}

static void on_change(void *ctx, const struct rb_sim_change *c)
{
    struct sim_run *r = ctx;
    if (r->nchanges == r->capchanges) {
        r->capchanges = r->capchanges ? r->capchanges * 2 : 256;
        r->changes = realloc(r->changes, r->capchanges * sizeof *r->changes);
        ASSERT_NOT_NULL(r->changes);
    }
    r->changes[r->nchanges++] = *c;
}

static void on_tx(void *ctx, uint8_t byte, uint64_t cycle)
{
    (void)byte;
    (void)cycle;
    ((struct sim_run *)ctx)->tx_bytes++;
}

struct sim_run *sim_run_new(const struct rb_sim_config *cfg, uint64_t occupancy)
{
    struct sim_run *r = calloc(1, sizeof *r);
    ASSERT_NOT_NULL(r);
    struct tb_error err = {0};
    if (rb_sim_new(cfg, &r->sim, &err))
        TB_FAIL("%s", err.msg);
    struct rb_sim_handlers h = {on_frame, on_change, on_tx, r};
    rb_sim_set_handlers(r->sim, &h);
    rb_sim_set_occupancy(r->sim, occupancy);
    return r;
}

static struct sim_run *sim_start(const struct script *s, double bounce_ms, uint32_t seed)
{
    struct rb_sim_config cfg = {.elf = RB_FIRMWARE_ELF_PATH, .seed = seed};
    struct sim_run *r = sim_run_new(&cfg, s->initial_occupancy);
    struct tb_error err = {0};
    /* the actions go through an event script, as a user's would */
    size_t cap = s->n * 40 + 64, len = 0;
    char *text = malloc(cap);
    ASSERT_NOT_NULL(text);
    len += (size_t)snprintf(text, cap, "# generated\n");
    for (size_t i = 0; i < s->n; i++)
        len += (size_t)snprintf(text + len, cap - len, "%.3f vi %s %c%c\n", s->acts[i].ms,
                                s->acts[i].placed ? "place" : "lift", 'a' + s->acts[i].square % 8,
                                '1' + s->acts[i].square / 8);
    struct rb_sim_script_result res;
    if (rb_sim_schedule_script(r->sim, text, len, "generated", "vi", 0, bounce_ms, &res, &err))
        TB_FAIL("%s", err.msg);
    ASSERT_EQ(res.actions, s->n);
    r->toggles = rb_sim_scheduled(r->sim);
    free(text);
    return r;
}

void sim_run_ms(struct sim_run *r, double ms)
{
    struct tb_error err = {0};
    if (rb_sim_run_until(r->sim, rb_sim_ms_to_cycles(r->sim, ms), &err))
        TB_FAIL("%s", err.msg);
}

void sim_request(struct sim_run *r, uint8_t type)
{
    struct rb_proto_msg m = {.type = type};
    ASSERT_OK(rb_sim_request(r->sim, &m));
}

static void request_snapshot(struct sim_run *r)
{
    ASSERT_LT(r->npending, 8);
    r->pending_model[r->npending++] = rb_sim_occupancy(r->sim);
    sim_request(r, RB_PROTO_GET_SNAPSHOT);
}

/* Pairs each square event with the first unmatched stable change of that square and kind. */
static void match_changes(struct sim_run *r)
{
    bool *used = calloc(r->nchanges + 1, sizeof *used);
    ASSERT_NOT_NULL(used);
    for (size_t i = 0; i < r->nevents; i++) {
        struct sim_event *e = &r->events[i];
        for (size_t k = 0; k < r->nchanges; k++) {
            const struct rb_sim_change *c = &r->changes[k];
            if (!used[k] && c->square == e->square && c->on == (e->placed != 0)) {
                used[k] = true;
                e->stable_cycle = c->stable_cycle;
                break;
            }
        }
    }
    free(used);
}

static double last_ms(const struct script *s)
{
    return s->n ? s->acts[s->n - 1].ms : 0;
}

static void finish(struct sim_run *r, const struct script *s)
{
    sim_run_ms(r, last_ms(s) + 500);
    request_snapshot(r);
    sim_run_ms(r, last_ms(s) + 600);
    ASSERT_EQ(r->npending, 0);
    match_changes(r);
    struct rb_proto_stats st = rb_sim_rx_stats(r->sim);
    ASSERT_EQ(st.garbage_bytes + st.bad_crc + st.bad_message + st.oversize, 0);
}

struct sim_run *sim_run_script(const struct script *s, double bounce_ms, uint32_t seed)
{
    struct sim_run *r = sim_start(s, bounce_ms, seed);
    sim_run_ms(r, HELLO_MS);
    sim_request(r, RB_PROTO_GET_INFO);
    request_snapshot(r);
    finish(r, s);
    ASSERT_EQ(r->ninfo, 1);
    return r;
}

struct sim_run *sim_run_with_snapshots(const struct script *s)
{
    struct sim_run *r = sim_start(s, 0, 5);
    sim_run_ms(r, HELLO_MS);
    sim_request(r, RB_PROTO_GET_INFO);
    request_snapshot(r);
    for (size_t i = 0; i + 1 < s->n; i++) {
        /* a quiet moment: the debounce window of this change is over, the next is far */
        double t = s->acts[i].ms + 60;
        if (s->acts[i + 1].ms - t < 40)
            continue;
        sim_run_ms(r, t);
        request_snapshot(r);
    }
    finish(r, s);
    return r;
}

struct sim_run *sim_run_silent(const struct script *s, double until_ms)
{
    struct sim_run *r = sim_start(s, 0, 9);
    sim_run_ms(r, until_ms);
    return r;
}

void sim_run_free(struct sim_run *r)
{
    if (!r)
        return;
    rb_sim_free(r->sim);
    free(r->events);
    free(r->changes);
    free(r->checks);
    free(r);
}
