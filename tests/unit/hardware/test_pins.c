/* The firmware's pin map (firmware/avr/rb_pins.h) against the netlist: the same net on the same
 * MCU pin, in both directions, and no MCU pin used twice. */
#include <ctype.h>

#include "hw_board.h"
#include "tb_test.h"

struct pin_def {
    char net[40];
    char port;
    int bit;
    int line;
};

/* Reads every "#define RB_NET_<NET> <PORT>, <BIT>" line; fails on a malformed one. */
static int read_pins(const char *path, struct pin_def *defs, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        TB_FAIL("cannot open %s", path);
    char line[512];
    int n = 0, ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (strncmp(line, "#define RB_NET_", 15) != 0)
            continue;
        ASSERT_LT(n, max);
        struct pin_def *d = &defs[n];
        const char *p = line + 15;
        size_t k = 0;
        while ((isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_') &&
               k + 1 < sizeof d->net)
            d->net[k++] = *p++;
        d->net[k] = '\0';
        while (*p == ' ')
            p++;
        if (k == 0 || !strchr("BCD", *p) || p[1] != ',')
            TB_FAIL("%s:%d: malformed pin line: %s", path, ln, line);
        d->port = *p;
        p += 2;
        while (*p == ' ')
            p++;
        if (*p < '0' || *p > '7' || isalnum((unsigned char)p[1]))
            TB_FAIL("%s:%d: malformed bit: %s", path, ln, line);
        d->bit = *p - '0';
        d->line = ln;
        n++;
    }
    fclose(f);
    return n;
}

TB_TEST(firmware_pins_match_the_netlist)
{
    struct pin_def defs[64];
    int n = read_pins(RB_SOURCE_DIR "/firmware/avr/rb_pins.h", defs, 64);
    ASSERT_GE(n, 20); /* UART 2, decoder 4, rows 8, buttons 4, LED, buzzer */
    struct rb_netlist *nl = hw_load_board();
    for (int i = 0; i < n; i++) {
        struct rb_netlist_pin pin;
        struct tb_error err = {0};
        if (rb_netlist_mcu_pin(nl, defs[i].net, &pin, &err))
            TB_FAIL("rb_pins.h:%d: RB_NET_%s: %s", defs[i].line, defs[i].net, err.msg);
        if (pin.port != defs[i].port || pin.bit != defs[i].bit)
            TB_FAIL("rb_pins.h:%d: net %s is on P%c%d in the firmware but on P%c%u in the netlist",
                    defs[i].line, defs[i].net, defs[i].port, defs[i].bit, pin.port, pin.bit);
        for (int j = 0; j < i; j++)
            if (defs[j].port == defs[i].port && defs[j].bit == defs[i].bit)
                TB_FAIL("rb_pins.h:%d: %s and %s share P%c%d", defs[i].line, defs[j].net,
                        defs[i].net, defs[i].port, defs[i].bit);
    }
    rb_netlist_free(nl);
}

TB_TEST(every_netlist_mcu_net_is_in_the_firmware_pin_map)
{
    struct pin_def defs[64];
    int n = read_pins(RB_SOURCE_DIR "/firmware/avr/rb_pins.h", defs, 64);
    struct rb_netlist *nl = hw_load_board();
    int mcu_nets = 0;
    for (int i = 0; i < rb_netlist_nnets(nl); i++) {
        const char *name = rb_netlist_net_name(nl, i);
        struct rb_netlist_pin pin;
        if (rb_netlist_mcu_pin(nl, name, &pin, NULL) != 0)
            continue;
        mcu_nets++;
        int found = 0;
        for (int k = 0; k < n; k++)
            found |= strcmp(defs[k].net, name) == 0;
        if (!found)
            TB_FAIL("netlist net %s (P%c%u) has no RB_NET_%s in firmware/avr/rb_pins.h", name,
                    pin.port, pin.bit, name);
    }
    ASSERT_EQ(mcu_nets, n);
    rb_netlist_free(nl);
}

TB_TEST(firmware_matrix_nets_are_the_traced_rows_and_decoder_pins)
{
    /* The names in rb_pins.h are trusted only as far as the copper agrees: rank r's row line and
     * the decoder's address pins as traced through each square's diode and switch. */
    struct pin_def defs[64];
    int n = read_pins(RB_SOURCE_DIR "/firmware/avr/rb_pins.h", defs, 64);
    struct rb_netlist *nl = hw_load_board();
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    if (rb_netlist_wiring(nl, &w, &err))
        TB_FAIL("%s", err.msg);
    for (int k = 0; k < n; k++) {
        struct rb_netlist_pin want = {0, 0};
        int rank, a;
        if (sscanf(defs[k].net, "ROW_%d", &rank) == 1 && rank >= 1 && rank <= 8)
            want = w.row[rank - 1];
        else if (sscanf(defs[k].net, "COL_A%d", &a) == 1 && a >= 0 && a <= 2)
            want = w.col_addr[a];
        else if (strcmp(defs[k].net, "COL_EN_N") == 0)
            want = w.g2a_n.pin;
        else
            continue;
        if (want.port != defs[k].port || want.bit != defs[k].bit)
            TB_FAIL("rb_pins.h:%d: %s is P%c%d, the traced wiring puts it on P%c%u", defs[k].line,
                    defs[k].net, defs[k].port, defs[k].bit, want.port, want.bit);
    }
    rb_netlist_free(nl);
}
