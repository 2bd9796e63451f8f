/* rb_netlist_svg.c - the wiring diagram, drawn from the traced wiring and the net list.
 *
 * Left: the controller with every port pin and its net. Middle: the 74HC138 above the 8x8
 * matrix, each square drawn as diode (anode to the row line) + reed switch (to the column line).
 * Right: every other net with the pins on it, and the parts count.
 */
#include "rb_netlist_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    WIDTH = 1600,
    HEIGHT = 1160,
    GX = 380,   /* matrix left */
    GY = 230,   /* matrix top */
    CELL = 92,  /* square pitch */
    MCU_X = 30, /* controller box */
    MCU_Y = 230,
    MCU_W = 190,
    PIN_DY = 22,
    DEC_X = GX + 40, /* decoder box */
    DEC_Y = 60,
    DEC_W = 8 * CELL - 20,
    DEC_H = 110,
    SIDE_X = GX + 8 * CELL + 50, /* right-hand panel */
};

static const char ROW_COLOUR[] = "#1f5fbf";
static const char COL_COLOUR[] = "#c0392b";
static const char CTL_COLOUR[] = "#1e8449";

struct out {
    char *buf;
    size_t len, cap;
    int failed;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
    if (o->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            o->failed = 1;
            return;
        }
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        size_t cap = o->cap * 2 + (size_t)n + 1;
        char *nb = realloc(o->buf, cap);
        if (!nb) {
            o->failed = 1;
            return;
        }
        o->buf = nb;
        o->cap = cap;
    }
}

/* Text with the five XML specials escaped. */
static void put_text(struct out *o, int x, int y, const char *attrs, const char *s)
{
    put(o, "<text x=\"%d\" y=\"%d\"%s>", x, y, attrs);
    for (; *s; s++) {
        switch (*s) {
        case '<':
            put(o, "&lt;");
            break;
        case '>':
            put(o, "&gt;");
            break;
        case '&':
            put(o, "&amp;");
            break;
        case '"':
            put(o, "&quot;");
            break;
        case '\'':
            put(o, "&apos;");
            break;
        default:
            put(o, "%c", *s);
        }
    }
    put(o, "</text>\n");
}

/* Port pins of the controller, in the order drawn, and the y of each. */
static int mcu_pins(const struct rb_netlist *nl, int mcu, int *idx, int max)
{
    int n = 0;
    static const char ports[] = "DBC";
    for (int p = 0; ports[p]; p++) {
        for (int k = 0; k < nl->comps[mcu].npins && n < max; k++) {
            struct rb_netlist_pin pp;
            if (rb_netlist__port_pin(nl->comps[mcu].pins[k], &pp) == 0 && pp.port == ports[p])
                idx[n++] = k;
        }
    }
    /* Sort each port's pins by bit (insertion sort keeps port order). */
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0; j--) {
            const char *a = nl->comps[mcu].pins[idx[j - 1]], *b = nl->comps[mcu].pins[idx[j]];
            if (a[1] != b[1] || a[2] <= b[2])
                break;
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    }
    return n;
}

static int pin_y(const struct rb_netlist *nl, int mcu, const int *idx, int n,
                 struct rb_netlist_pin pin)
{
    for (int i = 0; i < n; i++) {
        struct rb_netlist_pin pp;
        rb_netlist__port_pin(nl->comps[mcu].pins[idx[i]], &pp);
        if (pp.port == pin.port && pp.bit == pin.bit)
            return MCU_Y + 40 + i * PIN_DY;
    }
    return MCU_Y;
}

static void draw_mcu(struct out *o, const struct rb_netlist *nl, int mcu, const int *idx, int n)
{
    const struct rb_netlist_comp *c = &nl->comps[mcu];
    put(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"part\"/>\n", MCU_X, MCU_Y,
        MCU_W, 50 + n * PIN_DY);
    char title[2 * RB_NETLIST_NAME_MAX + 32];
    snprintf(title, sizeof title, "%s %s", c->ref, c->value);
    put_text(o, MCU_X + 8, MCU_Y + 20, " class=\"title\"", title);
    for (int i = 0; i < n; i++) {
        int y = MCU_Y + 40 + i * PIN_DY;
        int ni = c->pin_net[idx[i]];
        char label[2 * RB_NETLIST_NAME_MAX + 8];
        snprintf(label, sizeof label, "%s  %s", c->pins[idx[i]], ni >= 0 ? nl->nets[ni].name : "-");
        put_text(o, MCU_X + 8, y + 4, "", label);
        put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"3\"/>\n", MCU_X + MCU_W, y);
    }
}

static void draw_decoder(struct out *o, const struct rb_netlist *nl, int dec,
                         const struct rb_netlist_wiring *w)
{
    const struct rb_netlist_comp *c = &nl->comps[dec];
    put(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"part\"/>\n", DEC_X, DEC_Y,
        DEC_W, DEC_H);
    char title[2 * RB_NETLIST_NAME_MAX + 32];
    snprintf(title, sizeof title, "%s %s (Y0..Y7 active low)", c->ref, c->value);
    put_text(o, DEC_X + 200, DEC_Y + 20, " class=\"title\"", title);
    static const char *const in[6] = {"A0", "A1", "A2", "G1", "G2A_N", "G2B_N"};
    const struct rb_netlist_level *lv[3] = {&w->g1, &w->g2a_n, &w->g2b_n};
    for (int i = 0; i < 6; i++) {
        int y = DEC_Y + 16 + i * 16;
        put_text(o, DEC_X + 6, y + 4, "", in[i]);
        put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"3\"/>\n", DEC_X, y);
        if (i >= 3 && lv[i - 3]->tied >= 0) {
            put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\"/>\n", DEC_X - 30,
                y, DEC_X, y);
            put_text(o, DEC_X - 70, y + 4, "", lv[i - 3]->tied ? "+5V" : "GND");
        }
    }
    for (int k = 0; k < 8; k++) {
        int x = GX + k * CELL + 70;
        char y[4] = {'Y', (char)('0' + k), 0};
        put_text(o, x - 8, DEC_Y + DEC_H - 8, "", y);
        put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"3\"/>\n", x, DEC_Y + DEC_H);
    }
}

/* A routed wire from the controller's pin at y0 to (x1, y1) through lane x. */
static void route(struct out *o, int y0, int lane, int x1, int y1, const char *colour)
{
    put(o, "<polyline points=\"%d,%d %d,%d %d,%d %d,%d\" class=\"wire\" stroke=\"%s\"/>\n",
        MCU_X + MCU_W, y0, lane, y0, lane, y1, x1, y1, colour);
}

static void draw_matrix(struct out *o, const struct rb_netlist_wiring *w)
{
    int right = GX + 8 * CELL;
    for (int f = 0; f < 8; f++) {
        int x = GX + f * CELL + 70;
        int yk = GX + w->file_output[f] * CELL + 70;
        put(o, "<polyline points=\"%d,%d %d,%d %d,%d\" class=\"wire\" stroke=\"%s\"/>\n", yk,
            DEC_Y + DEC_H, x, GY - 30, x, GY + 8 * CELL - 8, COL_COLOUR);
        char label[8];
        snprintf(label, sizeof label, "COL_%c", 'a' + f);
        put_text(o, x - 18, GY - 36, " class=\"small\"", label);
        char file[2] = {(char)('a' + f), 0};
        put_text(o, GX + f * CELL + 40, GY + 8 * CELL + 24, " class=\"title\"", file);
    }
    for (int r = 0; r < 8; r++) {
        int y = GY + (7 - r) * CELL + 14;
        put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\" stroke=\"%s\"/>\n",
            GX - 14, y, right, y, ROW_COLOUR);
        char rank[2] = {(char)('1' + r), 0};
        put_text(o, right + 10, y + 40, " class=\"title\"", rank);
        for (int f = 0; f < 8; f++) {
            int cx = GX + f * CELL, xd = cx + 26, xc = cx + 70;
            const char *shade = ((f + r) % 2 == 0) ? "dark" : "light";
            put(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"%s\"/>\n", cx,
                y - 14, CELL, CELL, shade);
            /* diode: anode at the row line, triangle pointing down to the cathode bar */
            put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\"/>\n", xd, y, xd,
                y + 14);
            put(o, "<polygon points=\"%d,%d %d,%d %d,%d\" class=\"diode\"/>\n", xd - 7, y + 14,
                xd + 7, y + 14, xd, y + 26);
            put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\"/>\n", xd - 7,
                y + 26, xd + 7, y + 26);
            /* normally-open reed contact, then across to the column line */
            put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\"/>\n", xd, y + 26,
                xd, y + 40);
            put(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"wire\"/>\n", xd, y + 40,
                xd + 12, y + 54);
            put(o, "<polyline points=\"%d,%d %d,%d %d,%d\" class=\"wire\"/>\n", xd, y + 56, xd,
                y + 64, xc, y + 64);
            put(o, "<circle cx=\"%d\" cy=\"%d\" r=\"2.5\"/>\n", xc, y + 64);
            char sq[3] = {(char)('a' + f), (char)('1' + r), 0};
            put_text(o, cx + 38, y + 36, " class=\"small\"", sq);
        }
    }
}

static int is_matrix_net(const struct rb_netlist *nl, int ni)
{
    for (int k = 0; k < nl->nets[ni].nmembers; k++) {
        const char *ref = nl->comps[nl->nets[ni].members[k].comp].ref;
        if ((strncmp(ref, "SW_", 3) == 0 || strncmp(ref, "D_", 2) == 0) &&
            strlen(ref) == (ref[0] == 'S' ? 5u : 4u))
            return 1;
    }
    return 0;
}

static void draw_side(struct out *o, const struct rb_netlist *nl)
{
    int y = 60;
    put_text(o, SIDE_X, y, " class=\"title\"", "Other nets (pins on each)");
    y += 24;
    for (int i = 0; i < nl->nnets; i++) {
        if (is_matrix_net(nl, i))
            continue;
        char line[80];
        size_t len = (size_t)snprintf(line, sizeof line, "%s:", nl->nets[i].name);
        for (int k = 0; k < nl->nets[i].nmembers; k++) {
            const struct rb_netlist_member *m = &nl->nets[i].members[k];
            char pin[2 * RB_NETLIST_NAME_MAX + 2];
            snprintf(pin, sizeof pin, " %s.%s", nl->comps[m->comp].ref,
                     nl->comps[m->comp].pins[m->pin]);
            if (len + strlen(pin) >= 58) {
                put_text(o, SIDE_X, y, " class=\"small\"", line);
                y += 16;
                len = (size_t)snprintf(line, sizeof line, "   ");
            }
            memcpy(line + len, pin, strlen(pin) + 1);
            len += strlen(pin);
        }
        put_text(o, SIDE_X, y, " class=\"small\"", line);
        y += 18;
    }
    y += 20;
    put_text(o, SIDE_X, y, " class=\"title\"", "Parts (value x count)");
    y += 22;
    for (int i = 0; i < nl->ncomps; i++) {
        int seen = 0, count = 0;
        for (int j = 0; j < nl->ncomps; j++) {
            if (strcmp(nl->comps[j].value, nl->comps[i].value) != 0)
                continue;
            if (j < i)
                seen = 1;
            count++;
        }
        if (seen)
            continue;
        char line[128];
        snprintf(line, sizeof line, "%s x %d  (%s)", nl->comps[i].value, count,
                 nl->comps[i].footprint);
        put_text(o, SIDE_X, y, " class=\"small\"", line);
        y += 16;
    }
}

int rb_netlist_svg(const struct rb_netlist *nl, char **out, size_t *len, struct tb_error *err)
{
    if (!nl || !out || !len)
        return tb_error_set(err, TB_ERR_ARG, "netlist svg: missing argument");
    struct rb_netlist_wiring w;
    int rc = rb_netlist_wiring(nl, &w, err);
    if (rc)
        return rc;
    int mcu = rb_netlist__comp_by_value(nl, "ATmega328P");
    int dec = rb_netlist__comp_by_value(nl, "74HC138");
    int idx[24];
    int n = mcu_pins(nl, mcu, idx, 24);

    struct out o = {malloc(65536), 0, 65536, 0};
    if (!o.buf)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    put(&o,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- generated from hardware/netlist.txt by hardware/tools/netlist2svg; do not edit -->\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
        "%d\">\n"
        "<style>text{font-family:sans-serif;font-size:12px}.title{font-size:15px;font-weight:bold}"
        ".small{font-size:11px}.part{fill:#fff;stroke:#000;stroke-width:2}"
        ".wire{fill:none;stroke:#000;stroke-width:1.4}.diode{fill:#000}"
        ".dark{fill:#d9d9d9;stroke:none}.light{fill:#fafafa;stroke:none}</style>\n"
        "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
        WIDTH, HEIGHT, WIDTH, HEIGHT);
    put_text(
        &o, 30, 30, " class=\"title\"",
        "reedboard wiring: 64 reed switches, one diode each, 74HC138 columns, rows to the MCU");
    draw_mcu(&o, nl, mcu, idx, n);
    draw_decoder(&o, nl, dec, &w);
    draw_matrix(&o, &w);
    for (int r = 0; r < 8; r++)
        route(&o, pin_y(nl, mcu, idx, n, w.row[r]), MCU_X + MCU_W + 12 + r * 8, GX - 14,
              GY + (7 - r) * CELL + 14, ROW_COLOUR);
    const struct rb_netlist_pin *ctl[4] = {&w.col_addr[0], &w.col_addr[1], &w.col_addr[2],
                                           w.g2a_n.tied < 0 ? &w.g2a_n.pin : NULL};
    for (int i = 0; i < 4; i++)
        if (ctl[i])
            route(&o, pin_y(nl, mcu, idx, n, *ctl[i]), MCU_X + MCU_W + 80 + i * 10, DEC_X,
                  DEC_Y + 16 + (i == 3 ? 4 : i) * 16, CTL_COLOUR);
    draw_side(&o, nl);
    put_text(&o, 30, HEIGHT - 20, " class=\"small\"",
             "Blue: row lines (inputs with 10k pull-ups). Red: column lines (74HC138 outputs). "
             "Green: decoder address and enable. A closed switch on the selected column pulls its "
             "row low.");
    put(&o, "</svg>\n");
    if (o.failed) {
        free(o.buf);
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    }
    *out = o.buf;
    *len = o.len;
    return 0;
}
