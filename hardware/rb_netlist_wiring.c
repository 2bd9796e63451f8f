/* rb_netlist_wiring.c - derive the matrix, decoder, buttons and outputs by tracing nets. */
#include "rb_netlist_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const button_nets[RB_NETLIST_NBUTTONS] = {"BTN_PROMOTE", "BTN_REPEAT",
                                                             "BTN_CLOCK", "BTN_ARBITER"};

const char *rb_netlist_button_net(int button)
{
    return button >= 0 && button < RB_NETLIST_NBUTTONS ? button_nets[button] : NULL;
}

struct ctx {
    const struct rb_netlist *nl;
    int mcu, dec;
    struct tb_error *err;
};

static int comp_pin(const struct rb_netlist_comp *c, const char *name)
{
    for (int k = 0; k < c->npins; k++)
        if (strcmp(c->pins[k], name) == 0)
            return k;
    return -1;
}

/* MCU port pin on net ni: 1 found, 0 none, -1 several. */
static int net_mcu_pin(const struct ctx *x, int ni, struct rb_netlist_pin *out)
{
    int found = 0;
    const struct rb_netlist_net *n = &x->nl->nets[ni];
    for (int k = 0; k < n->nmembers; k++) {
        struct rb_netlist_pin pp;
        if (n->members[k].comp == x->mcu &&
            rb_netlist__port_pin(x->nl->comps[x->mcu].pins[n->members[k].pin], &pp) == 0) {
            if (found++)
                return -1;
            *out = pp;
        }
    }
    return found;
}

static int need_mcu_pin(const struct ctx *x, int ni, const char *what, struct rb_netlist_pin *out)
{
    int r = net_mcu_pin(x, ni, out);
    if (r == 1)
        return 0;
    return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s (net %s) reaches %s MCU port pin", what,
                        x->nl->nets[ni].name, r == 0 ? "no" : "more than one");
}

/* Net of pin `pin` of component ci, or -1. */
static int pin_net(const struct ctx *x, int ci, const char *pin)
{
    const struct rb_netlist_comp *c = &x->nl->comps[ci];
    int k = comp_pin(c, pin);
    return k < 0 ? -1 : c->pin_net[k];
}

/* True when net ni holds a two-pin part whose other pin is on the net called `other`. */
static int net_has_two_pin_part_to(const struct ctx *x, int ni, const char *other, int skip_comp)
{
    const struct rb_netlist_net *n = &x->nl->nets[ni];
    for (int k = 0; k < n->nmembers; k++) {
        const struct rb_netlist_comp *c = &x->nl->comps[n->members[k].comp];
        if (n->members[k].comp == skip_comp || c->npins != 2)
            continue;
        int o = c->pin_net[1 - n->members[k].pin];
        if (o >= 0 && strcmp(x->nl->nets[o].name, other) == 0)
            return 1;
    }
    return 0;
}

static int decoder_level(const struct ctx *x, const char *pin, struct rb_netlist_level *out)
{
    int ni = pin_net(x, x->dec, pin);
    if (ni < 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: 74HC138 input %s is floating", pin);
    if (strcmp(x->nl->nets[ni].name, "+5V") == 0) {
        out->tied = 1;
        return 0;
    }
    if (strcmp(x->nl->nets[ni].name, "GND") == 0) {
        out->tied = 0;
        return 0;
    }
    out->tied = -1;
    return need_mcu_pin(x, ni, pin, &out->pin);
}

/* One square: returns its row net and decoder output through *row_net / *yk. */
static int trace_square(const struct ctx *x, int file, int rank, int *row_net, int *yk)
{
    const struct rb_netlist *nl = x->nl;
    char sq[3] = {(char)('a' + file), (char)('1' + rank), 0};
    char swref[8], dref[8];
    snprintf(swref, sizeof swref, "SW_%s", sq);
    snprintf(dref, sizeof dref, "D_%s", sq);
    int sw = rb_netlist_comp_find(nl, swref), d = rb_netlist_comp_find(nl, dref);
    if (sw < 0 || d < 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: square %s has no %s", sq,
                            sw < 0 ? swref : dref);
    if (nl->comps[sw].npins != 2)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s must have two pins", swref);
    int a = pin_net(x, d, "A"), k = pin_net(x, d, "K");
    if (a < 0 || k < 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s needs both A and K connected", dref);
    /* The cathode meets the switch and nothing else; otherwise the diode is reversed or wrong. */
    const struct rb_netlist_net *kn = &nl->nets[k];
    int sw_pin = -1;
    for (int m = 0; m < kn->nmembers; m++)
        if (kn->members[m].comp == sw)
            sw_pin = kn->members[m].pin;
    if (sw_pin < 0 || kn->nmembers != 2) {
        const struct rb_netlist_net *an = &nl->nets[a];
        for (int m = 0; m < an->nmembers; m++)
            if (an->members[m].comp == sw)
                return tb_error_set(x->err, TB_ERR_PARSE,
                                    "netlist: %s is reversed: its cathode, not its anode, must "
                                    "meet %s",
                                    dref, swref);
        return tb_error_set(x->err, TB_ERR_PARSE,
                            "netlist: %s's cathode (net %s) must meet %s and nothing else", dref,
                            kn->name, swref);
    }
    int col = nl->comps[sw].pin_net[1 - sw_pin];
    if (col < 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s has a floating column side", swref);
    const struct rb_netlist_net *cn = &nl->nets[col];
    int found = -1;
    for (int m = 0; m < cn->nmembers; m++) {
        const char *p = nl->comps[cn->members[m].comp].pins[cn->members[m].pin];
        if (cn->members[m].comp == x->dec && p[0] == 'Y' && p[1] >= '0' && p[1] <= '7' && !p[2]) {
            if (found >= 0)
                return tb_error_set(x->err, TB_ERR_PARSE,
                                    "netlist: net %s joins two 74HC138 outputs", cn->name);
            found = p[1] - '0';
        }
    }
    if (found < 0)
        return tb_error_set(x->err, TB_ERR_PARSE,
                            "netlist: %s's column side (net %s) reaches no 74HC138 output", swref,
                            cn->name);
    struct rb_netlist_pin unused;
    if (net_mcu_pin(x, col, &unused) != 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: column net %s also reaches an MCU pin",
                            cn->name);
    *row_net = a;
    *yk = found;
    return 0;
}

static int trace_matrix(const struct ctx *x, struct rb_netlist_wiring *w)
{
    int rows[8], cols[8];
    for (int i = 0; i < 8; i++)
        rows[i] = cols[i] = -1;
    for (int f = 0; f < 8; f++) {
        for (int r = 0; r < 8; r++) {
            int rn = -1, yk = -1;
            int rc = trace_square(x, f, r, &rn, &yk);
            if (rc)
                return rc;
            char sq[3] = {(char)('a' + f), (char)('1' + r), 0};
            if (rows[r] >= 0 && rows[r] != rn)
                return tb_error_set(
                    x->err, TB_ERR_PARSE,
                    "netlist: %s's diode is on net %s, but rank %d's row line is %s", sq,
                    x->nl->nets[rn].name, r + 1, x->nl->nets[rows[r]].name);
            if (cols[f] >= 0 && cols[f] != yk)
                return tb_error_set(x->err, TB_ERR_PARSE,
                                    "netlist: %s's switch is on 74HC138 Y%d, but file %c is on Y%d",
                                    sq, yk, 'a' + f, cols[f]);
            rows[r] = rn;
            cols[f] = yk;
        }
    }
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < i; j++) {
            if (rows[i] == rows[j])
                return tb_error_set(x->err, TB_ERR_PARSE,
                                    "netlist: ranks %d and %d share row line %s", j + 1, i + 1,
                                    x->nl->nets[rows[i]].name);
            if (cols[i] == cols[j])
                return tb_error_set(x->err, TB_ERR_PARSE,
                                    "netlist: files %c and %c share 74HC138 output Y%d", 'a' + j,
                                    'a' + i, cols[i]);
        }
        char what[16];
        snprintf(what, sizeof what, "rank %d row", i + 1);
        int rc = need_mcu_pin(x, rows[i], what, &w->row[i]);
        if (rc)
            return rc;
        if (!net_has_two_pin_part_to(x, rows[i], "+5V", -1))
            return tb_error_set(x->err, TB_ERR_PARSE, "netlist: row line %s has no pull-up to +5V",
                                x->nl->nets[rows[i]].name);
        w->file_output[i] = cols[i];
    }
    return 0;
}

static int named_pin(const struct ctx *x, const char *net, struct rb_netlist_pin *out)
{
    int ni = rb_netlist__net_find(x->nl, net);
    if (ni < 0)
        return tb_error_set(x->err, TB_ERR_PARSE, "netlist: no net %s", net);
    return need_mcu_pin(x, ni, net, out);
}

static int trace_controls(const struct ctx *x, struct rb_netlist_wiring *w)
{
    int rc;
    if ((rc = named_pin(x, "UART_RX", &w->uart_rx)) ||
        (rc = named_pin(x, "UART_TX", &w->uart_tx)) || (rc = named_pin(x, "LED_STATUS", &w->led)) ||
        (rc = named_pin(x, "BUZZER", &w->buzzer)))
        return rc;
    for (int b = 0; b < RB_NETLIST_NBUTTONS; b++) {
        if ((rc = named_pin(x, button_nets[b], &w->button[b])))
            return rc;
        int ni = rb_netlist__net_find(x->nl, button_nets[b]);
        if (!net_has_two_pin_part_to(x, ni, "GND", x->mcu))
            return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s has no switch to GND on it",
                                button_nets[b]);
    }
    return 0;
}

struct pin_use {
    const char *what;
    struct rb_netlist_pin pin;
};

static void use(struct pin_use *used, int *n, const char *what, struct rb_netlist_pin pin)
{
    used[*n].what = what;
    used[*n].pin = pin;
    ++*n;
}

static int check_unique_pins(const struct ctx *x, const struct rb_netlist_wiring *w)
{
    static const char *const rank_names[8] = {"ROW_1", "ROW_2", "ROW_3", "ROW_4",
                                              "ROW_5", "ROW_6", "ROW_7", "ROW_8"};
    struct pin_use used[32];
    int n = 0;
    use(used, &n, "UART_RX", w->uart_rx);
    use(used, &n, "UART_TX", w->uart_tx);
    use(used, &n, "COL_A0", w->col_addr[0]);
    use(used, &n, "COL_A1", w->col_addr[1]);
    use(used, &n, "COL_A2", w->col_addr[2]);
    const struct rb_netlist_level *en[3] = {&w->g1, &w->g2a_n, &w->g2b_n};
    for (int i = 0; i < 3; i++)
        if (en[i]->tied < 0)
            use(used, &n, "74HC138 enable", en[i]->pin);
    for (int r = 0; r < 8; r++)
        use(used, &n, rank_names[r], w->row[r]);
    for (int b = 0; b < RB_NETLIST_NBUTTONS; b++)
        use(used, &n, button_nets[b], w->button[b]);
    use(used, &n, "LED_STATUS", w->led);
    use(used, &n, "BUZZER", w->buzzer);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (used[i].pin.port == used[j].pin.port && used[i].pin.bit == used[j].pin.bit)
                return tb_error_set(x->err, TB_ERR_PARSE, "netlist: %s and %s share MCU pin P%c%u",
                                    used[j].what, used[i].what, used[i].pin.port, used[i].pin.bit);
    return 0;
}

int rb_netlist_wiring(const struct rb_netlist *nl, struct rb_netlist_wiring *out,
                      struct tb_error *err)
{
    if (!nl || !out)
        return tb_error_set(err, TB_ERR_ARG, "netlist: missing argument");
    struct ctx x = {nl, rb_netlist__comp_by_value(nl, "ATmega328P"),
                    rb_netlist__comp_by_value(nl, "74HC138"), err};
    if (x.mcu < 0 || x.dec < 0)
        return tb_error_set(err, TB_ERR_PARSE, "netlist: needs exactly one %s component",
                            x.mcu < 0 ? "ATmega328P" : "74HC138");
    struct rb_netlist_wiring w;
    memset(&w, 0, sizeof w);
    static const char *const addr[3] = {"A0", "A1", "A2"};
    int rc;
    for (int i = 0; i < 3; i++) {
        int ni = pin_net(&x, x.dec, addr[i]);
        if (ni < 0)
            return tb_error_set(err, TB_ERR_PARSE, "netlist: 74HC138 input %s is floating",
                                addr[i]);
        if ((rc = need_mcu_pin(&x, ni, addr[i], &w.col_addr[i])))
            return rc;
    }
    if ((rc = decoder_level(&x, "G1", &w.g1)) || (rc = decoder_level(&x, "G2A_N", &w.g2a_n)) ||
        (rc = decoder_level(&x, "G2B_N", &w.g2b_n)) || (rc = trace_matrix(&x, &w)) ||
        (rc = trace_controls(&x, &w)) || (rc = check_unique_pins(&x, &w)))
        return rc;
    *out = w;
    return 0;
}
