/* rb_sim_board.c - the modelled board: reed matrix behind the 74HC138, buttons, and the
 * scheduled contact changes (with bounce) that drive it. */
#include "rb_sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "avr_ioport.h"
#include "sim_cycle_timers.h"

static int port_index(char port)
{
    return port - 'A';
}

static void set_input(struct rb_sim *sim, struct rb_netlist_pin pin, int level)
{
    int p = port_index(pin.port);
    uint8_t bit = (uint8_t)(1u << pin.bit);
    sim->ext_mask[p] |= bit;
    if (level)
        sim->ext_value[p] |= bit;
    else
        sim->ext_value[p] &= (uint8_t)~bit;
}

/* Hands the driven levels to simavr: the external mask/value first, so the firmware's later PORT
 * writes re-apply our levels instead of its pull-ups (simavr 1.6), then the pin IRQs. */
static void flush_inputs(struct rb_sim *sim)
{
    for (int p = 0; p < 8; p++) {
        if (!sim->ext_mask[p])
            continue;
        uint8_t changed =
            sim->ext_valid[p] ? (uint8_t)(sim->ext_value[p] ^ sim->ext_sent[p]) : sim->ext_mask[p];
        if (!changed)
            continue;
        avr_ioport_external_t ext = {.name = (unsigned long)('A' + p) & 0x7f,
                                     .mask = sim->ext_mask[p],
                                     .value = sim->ext_value[p]};
        avr_ioctl(sim->avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('A' + p), &ext);
        for (int b = 0; b < 8; b++)
            if (changed & (1u << b))
                avr_raise_irq(avr_io_getirq(sim->avr, AVR_IOCTL_IOPORT_GETIRQ('A' + p), b),
                              (sim->ext_value[p] >> b) & 1u);
        sim->ext_sent[p] = sim->ext_value[p];
        sim->ext_valid[p] = true;
    }
}

/* A row reads low when a closed switch on it sits on the one selected (low) column: the diode
 * conducts from the row's pull-up into the decoder output. Unselected outputs are high and the
 * diodes block, so there are no ghosts. */
void rb_sim__update_rows(struct rb_sim *sim)
{
    const uint8_t *lv = sim->dec_level;
    int selected = -1;
    if (lv[RB_SIM_G1] && !lv[RB_SIM_G2A_N] && !lv[RB_SIM_G2B_N])
        selected = lv[RB_SIM_A0] | lv[RB_SIM_A1] << 1 | lv[RB_SIM_A2] << 2;
    uint64_t closed = (sim->contacts | sim->faults.stuck) & ~sim->faults.dead;
    uint8_t low = 0;
    for (int r = 0; r < 8; r++)
        for (int f = 0; f < 8 && selected >= 0; f++)
            if (sim->wiring.file_output[f] == selected && (closed >> (r * 8 + f)) & 1u)
                low |= (uint8_t)(1u << r);
    if (low & sim->faults.rows_bridged)
        low |= sim->faults.rows_bridged;
    uint8_t x = sim->faults.rows_crossed;
    if (x && (low & x) && (low & x) != x)
        low ^= x; /* the one low line arrives on the other rank's pin */
    for (int r = 0; r < 8; r++)
        set_input(sim, sim->wiring.row[r], !((low >> r) & 1u));
    for (int b = 0; b < RB_NETLIST_NBUTTONS; b++)
        set_input(sim, sim->wiring.button[b], !((sim->buttons >> b) & 1u));
    flush_inputs(sim);
}

static void on_decoder_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    struct rb_sim_watch *w = param;
    uint8_t level = (uint8_t)(value & 1u);
    if (w->sim->dec_level[w->role] == level)
        return;
    w->sim->dec_level[w->role] = level;
    rb_sim__update_rows(w->sim);
}

static void watch(struct rb_sim *sim, int role, struct rb_netlist_pin pin)
{
    sim->watch[role] = (struct rb_sim_watch){sim, role};
    /* An undriven decoder input floats high (the '138 is then disabled or addresses Y7). */
    sim->dec_level[role] = 1;
    avr_irq_register_notify(avr_io_getirq(sim->avr, AVR_IOCTL_IOPORT_GETIRQ(pin.port), pin.bit),
                            on_decoder_pin, &sim->watch[role]);
}

static void level(struct rb_sim *sim, int role, const struct rb_netlist_level *l)
{
    if (l->tied >= 0)
        sim->dec_level[role] = (uint8_t)l->tied;
    else
        watch(sim, role, l->pin);
}

int rb_sim__board_init(struct rb_sim *sim, struct tb_error *err)
{
    (void)err;
    for (int i = 0; i < 3; i++)
        watch(sim, RB_SIM_A0 + i, sim->wiring.col_addr[i]);
    level(sim, RB_SIM_G1, &sim->wiring.g1);
    level(sim, RB_SIM_G2A_N, &sim->wiring.g2a_n);
    level(sim, RB_SIM_G2B_N, &sim->wiring.g2b_n);
    rb_sim__update_rows(sim);
    return 0;
}

uint64_t rb_sim_occupancy(const struct rb_sim *sim)
{
    return sim ? sim->contacts : 0;
}

void rb_sim_set_faults(struct rb_sim *sim, const struct rb_sim_faults *f)
{
    if (!sim || !f)
        return;
    sim->faults = *f;
    rb_sim__update_rows(sim);
}

void rb_sim_set_occupancy(struct rb_sim *sim, uint64_t occupancy)
{
    if (!sim)
        return;
    sim->contacts = occupancy;
    rb_sim__update_rows(sim);
}

/* --- scheduling --------------------------------------------------------------------------- */

static bool before(const struct rb_sim_action *a, const struct rb_sim_action *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->order < b->order);
}

static int heap_push(struct rb_sim *sim, struct rb_sim_action a)
{
    if (sim->nheap == sim->capheap) {
        size_t cap = sim->capheap ? sim->capheap * 2 : 256;
        struct rb_sim_action *h = realloc(sim->heap, cap * sizeof *h);
        if (!h)
            return TB_ERR_MEM;
        sim->heap = h;
        sim->capheap = cap;
    }
    a.order = sim->next_order++;
    size_t i = sim->nheap++;
    while (i > 0 && before(&a, &sim->heap[(i - 1) / 2])) {
        sim->heap[i] = sim->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    sim->heap[i] = a;
    return 0;
}

static struct rb_sim_action heap_pop(struct rb_sim *sim)
{
    struct rb_sim_action top = sim->heap[0], last = sim->heap[--sim->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= sim->nheap)
            break;
        if (c + 1 < sim->nheap && before(&sim->heap[c + 1], &sim->heap[c]))
            c++;
        if (!before(&sim->heap[c], &last))
            break;
        sim->heap[i] = sim->heap[c];
        i = c;
    }
    if (sim->nheap)
        sim->heap[i] = last;
    return top;
}

size_t rb_sim_scheduled(const struct rb_sim *sim)
{
    return sim ? sim->nheap : 0;
}

static void apply(struct rb_sim *sim, const struct rb_sim_action *a)
{
    if (a->square >= 0) {
        uint64_t bit = 1ull << a->square;
        sim->contacts = a->on ? sim->contacts | bit : sim->contacts & ~bit;
    } else {
        uint8_t bit = (uint8_t)(1u << a->button);
        sim->buttons = a->on ? (uint8_t)(sim->buttons | bit) : (uint8_t)(sim->buttons & ~bit);
    }
}

static avr_cycle_count_t on_timer(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    struct rb_sim *sim = param;
    struct rb_sim_change done[16];
    size_t ndone = 0;
    sim->in_timer = true;
    while (sim->nheap && sim->heap[0].cycle <= sim->avr->cycle) {
        struct rb_sim_action a = heap_pop(sim);
        apply(sim, &a);
        if (a.final && ndone < sizeof done / sizeof done[0])
            done[ndone++] =
                (struct rb_sim_change){a.square, a.button, a.on, a.start_cycle, a.cycle};
    }
    rb_sim__update_rows(sim);
    /* Report after the inputs changed, so a handler sees the board as the firmware does. */
    for (size_t i = 0; i < ndone; i++)
        if (sim->h.change)
            sim->h.change(sim->h.ctx, &done[i]);
    /* Actions scheduled by a handler are picked up here, not by re-registering. */
    sim->in_timer = false;
    if (!sim->nheap) {
        sim->timer_armed = false;
        return 0;
    }
    /* simavr drops a timer whose next time is not after `when` */
    sim->timer_cycle = sim->heap[0].cycle > when ? sim->heap[0].cycle : when + 1;
    return sim->timer_cycle;
}

void rb_sim__arm_timer(struct rb_sim *sim)
{
    if (sim->in_timer || !sim->nheap ||
        (sim->timer_armed && sim->timer_cycle <= sim->heap[0].cycle))
        return;
    avr_cycle_timer_cancel(sim->avr, on_timer, sim);
    uint64_t now = sim->avr->cycle, at = sim->heap[0].cycle;
    avr_cycle_timer_register(sim->avr, at > now ? at - now : 1, on_timer, sim);
    sim->timer_armed = true;
    sim->timer_cycle = at > now ? at : now + 1;
}

static uint32_t next_random(struct rb_sim *sim)
{
    /* xorshift32: reproducible bounce from the configured seed */
    uint32_t x = sim->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    sim->rng = x;
    return x;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The change itself at `cycle`, then an even number of random toggles within bounce_ms, so the
 * contact ends in the new state; the last one is the moment it becomes stable. */
static int schedule(struct rb_sim *sim, uint64_t cycle, int square, int button, bool on,
                    double bounce_ms)
{
    uint64_t now = sim->avr->cycle;
    if (cycle < now)
        cycle = now;
    uint64_t span = bounce_ms > 0 ? rb_sim_ms_to_cycles(sim, bounce_ms) : 0;
    uint64_t t[8];
    int n = 0;
    if (span > 0) {
        n = 2 * (int)(1 + next_random(sim) % 4);
        for (int i = 0; i < n; i++)
            t[i] = cycle + 1 + next_random(sim) % span;
        qsort(t, (size_t)n, sizeof t[0], cmp_u64);
    }
    struct rb_sim_action a = {cycle, 0, cycle, (int8_t)square, (int8_t)button, on, n == 0};
    int rc = heap_push(sim, a);
    for (int i = 0; i < n && rc == 0; i++) {
        a.cycle = t[i];
        a.on = (i % 2 == 0) ? !on : on;
        a.final = i == n - 1;
        rc = heap_push(sim, a);
    }
    if (rc == 0)
        rb_sim__arm_timer(sim);
    return rc;
}

int rb_sim_square_at(struct rb_sim *sim, uint64_t cycle, int square, bool occupied,
                     double bounce_ms)
{
    if (!sim || square < 0 || square > 63 || bounce_ms < 0)
        return TB_ERR_ARG;
    return schedule(sim, cycle, square, -1, occupied, bounce_ms);
}

int rb_sim_button_at(struct rb_sim *sim, uint64_t cycle, int button, bool down, double bounce_ms)
{
    if (!sim || button < 0 || button >= RB_NETLIST_NBUTTONS || bounce_ms < 0)
        return TB_ERR_ARG;
    return schedule(sim, cycle, -1, button, down, bounce_ms);
}
