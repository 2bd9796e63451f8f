/* rb_netlist.h - the reedboard netlist (hardware/netlist.txt): parse it, query it, derive the
 * board's wiring from it and draw it.
 *
 * The netlist is the single source of truth for the board's electrical design. The pin test
 * compares it with the firmware's pin map, the simulator wires its virtual switches and buttons
 * from it, and the wiring diagram is generated from it. Format (see hardware/README.md):
 *
 *   comp <ref> <value> <footprint> <description...>
 *   pins <ref> <pin>...
 *   net  <NAME> <ref>.<pin>...
 *
 * Errors follow tb_err.h: 0 ok, negative TB_ERR_*; a struct tb_error (may be NULL) receives one
 * sentence naming the file, line and problem. The library never prints.
 */
#ifndef RB_NETLIST_H
#define RB_NETLIST_H

#include <stddef.h>

#include "tb_err.h"

struct rb_netlist;

/* Parses netlist text; `source` names it in error messages. *out is set only on success. */
int rb_netlist_parse(const char *text, size_t len, const char *source, struct rb_netlist **out,
                     struct tb_error *err);
/* Reads and parses a file. */
int rb_netlist_load(const char *path, struct rb_netlist **out, struct tb_error *err);
void rb_netlist_free(struct rb_netlist *nl);

/* Components, in file order. Index out of range gives NULL. */
int rb_netlist_ncomps(const struct rb_netlist *nl);
const char *rb_netlist_comp_ref(const struct rb_netlist *nl, int i);
const char *rb_netlist_comp_value(const struct rb_netlist *nl, int i);
const char *rb_netlist_comp_footprint(const struct rb_netlist *nl, int i);
const char *rb_netlist_comp_desc(const struct rb_netlist *nl, int i);
/* Index of the component with this reference, or TB_ERR_NOTFOUND. */
int rb_netlist_comp_find(const struct rb_netlist *nl, const char *ref);

/* Nets, in order of first mention. */
int rb_netlist_nnets(const struct rb_netlist *nl);
const char *rb_netlist_net_name(const struct rb_netlist *nl, int i);
int rb_netlist_net_npins(const struct rb_netlist *nl, int i);
/* The k-th pin of net i: returns its component's reference and sets *pin to the pin name. */
const char *rb_netlist_net_pin(const struct rb_netlist *nl, int i, int k, const char **pin);
/* Name of the net a component pin is on, or NULL when it is unconnected or does not exist. */
const char *rb_netlist_net_of(const struct rb_netlist *nl, const char *ref, const char *pin);

/* A port pin of the MCU, e.g. PD5 = {'D', 5}. */
struct rb_netlist_pin {
    char port;
    unsigned char bit;
};

/* The MCU port pin on the named net. TB_ERR_NOTFOUND when the net does not exist or reaches no
 * MCU port pin, TB_ERR_STATE when it reaches more than one. */
int rb_netlist_mcu_pin(const struct rb_netlist *nl, const char *net, struct rb_netlist_pin *out,
                       struct tb_error *err);

/* How a decoder enable input is held. */
struct rb_netlist_level {
    int tied; /* 1 = tied to +5V, 0 = tied to GND, -1 = driven by the MCU pin `pin` */
    struct rb_netlist_pin pin;
};

enum {
    RB_NETLIST_BTN_PROMOTE,
    RB_NETLIST_BTN_REPEAT,
    RB_NETLIST_BTN_CLOCK,
    RB_NETLIST_BTN_ARBITER,
    RB_NETLIST_NBUTTONS
};

/* The board as the firmware sees it, derived by tracing nets (not by trusting net names where
 * the copper decides): each square's switch SW_<sq> and diode D_<sq> are followed to the row
 * line (an MCU input with a pull-up resistor to +5V) and to a 74HC138 output. */
struct rb_netlist_wiring {
    struct rb_netlist_pin uart_rx, uart_tx;
    struct rb_netlist_pin col_addr[3];        /* MCU pins on the decoder's A0, A1, A2 */
    struct rb_netlist_level g1, g2a_n, g2b_n; /* decoder enables */
    struct rb_netlist_pin row[8];             /* row line of rank 1..8 (index 0..7) */
    int file_output[8];                       /* decoder output Yk of file a..h (index 0..7) */
    struct rb_netlist_pin button[RB_NETLIST_NBUTTONS];
    struct rb_netlist_pin led, buzzer;
};

/* Derives the wiring and checks it: every square has a switch and a diode, the diode's anode is
 * on its rank's row line and its cathode meets the switch alone, the switch's other side is on
 * its file's decoder output, one row line per rank and one decoder output per file, every row
 * line has a pull-up to +5V, every button switches its MCU pin to GND, and no MCU pin serves two
 * functions. TB_ERR_PARSE with a message naming the part on the first fault. */
int rb_netlist_wiring(const struct rb_netlist *nl, struct rb_netlist_wiring *out,
                      struct tb_error *err);

/* Net names of the buttons, in RB_NETLIST_BTN_* order ("BTN_PROMOTE", ...). */
const char *rb_netlist_button_net(int button);

/* Draws the wiring diagram as SVG into a malloc'd, NUL-terminated buffer (*out, length *len;
 * the caller frees it). Deterministic: the same netlist always gives the same bytes. */
int rb_netlist_svg(const struct rb_netlist *nl, char **out, size_t *len, struct tb_error *err);

#endif /* RB_NETLIST_H */
