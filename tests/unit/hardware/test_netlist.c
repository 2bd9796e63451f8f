/* The netlist library and the board's netlist: parsing, wiring derivation, faults it must catch,
 * and the committed wiring diagram. */
#include "hw_board.h"
#include "tb_run.h"
#include "tb_test.h"

static char *netlist_text(void)
{
    size_t len;
    return tb_run_read_file(RB_SOURCE_DIR "/hardware/netlist.txt", &len);
}

/* Replaces the first occurrence of `from` in a malloc'd string. */
static char *replace(char *s, const char *from, const char *to)
{
    char *at = strstr(s, from);
    if (!at)
        TB_FAIL("'%s' not found in the netlist", from);
    size_t pre = (size_t)(at - s), fl = strlen(from), tl = strlen(to), rest = strlen(at + fl);
    char *r = malloc(pre + tl + rest + 1);
    ASSERT_NOT_NULL(r);
    memcpy(r, s, pre);
    memcpy(r + pre, to, tl);
    memcpy(r + pre + tl, at + fl, rest + 1);
    free(s);
    return r;
}

/* Parses text and derives the wiring; returns the first error code and fills err. */
static int wire(const char *text, struct rb_netlist_wiring *w, struct tb_error *err)
{
    struct rb_netlist *nl = NULL;
    int rc = rb_netlist_parse(text, strlen(text), "netlist.txt", &nl, err);
    if (rc == 0)
        rc = rb_netlist_wiring(nl, w, err);
    rb_netlist_free(nl);
    return rc;
}

TB_TEST(board_has_a_switch_and_a_diode_on_every_square)
{
    struct rb_netlist *nl = hw_load_board();
    for (int sq = 0; sq < 64; sq++) {
        char sw[8], d[8];
        snprintf(sw, sizeof sw, "SW_%c%c", 'a' + sq % 8, '1' + sq / 8);
        snprintf(d, sizeof d, "D_%c%c", 'a' + sq % 8, '1' + sq / 8);
        int si = rb_netlist_comp_find(nl, sw), di = rb_netlist_comp_find(nl, d);
        ASSERT_GE(si, 0);
        ASSERT_GE(di, 0);
        ASSERT_STR_EQ(rb_netlist_comp_value(nl, di), "1N4148");
        /* the cathode meets the switch; the anode sits on the rank's row line */
        ASSERT_STR_EQ(rb_netlist_net_of(nl, d, "K"), rb_netlist_net_of(nl, sw, "1"));
        char row[8], col[8];
        snprintf(row, sizeof row, "ROW_%d", sq / 8 + 1);
        snprintf(col, sizeof col, "COL_%c", 'a' + sq % 8);
        ASSERT_STR_EQ(rb_netlist_net_of(nl, d, "A"), row);
        ASSERT_STR_EQ(rb_netlist_net_of(nl, sw, "2"), col);
    }
    rb_netlist_free(nl);
}

TB_TEST(wiring_traces_rows_columns_buttons_and_outputs)
{
    struct rb_netlist *nl = hw_load_board();
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    if (rb_netlist_wiring(nl, &w, &err))
        TB_FAIL("%s", err.msg);
    /* Y0..Y7 drive files a..h; G1 high and /G2B low are tied, /G2A is the MCU's blanking pin */
    for (int f = 0; f < 8; f++)
        ASSERT_EQ(w.file_output[f], f);
    ASSERT_EQ(w.g1.tied, 1);
    ASSERT_EQ(w.g2b_n.tied, 0);
    ASSERT_EQ(w.g2a_n.tied, -1);
    ASSERT_EQ(w.g2a_n.pin.port, 'C');
    ASSERT_EQ(w.g2a_n.pin.bit, 5);
    ASSERT_EQ(w.row[0].port, 'D');
    ASSERT_EQ(w.row[0].bit, 5);
    ASSERT_EQ(w.row[7].port, 'B');
    ASSERT_EQ(w.row[7].bit, 4);
    ASSERT_EQ(w.button[RB_NETLIST_BTN_ARBITER].port, 'C');
    ASSERT_EQ(w.button[RB_NETLIST_BTN_ARBITER].bit, 3);
    rb_netlist_free(nl);
}

TB_TEST(wiring_rejects_a_reversed_diode)
{
    char *t = netlist_text();
    t = replace(t, "D_e2.A", "D_e2.K");
    t = replace(t, "SW_e2.1 D_e2.K", "SW_e2.1 D_e2.A");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "D_e2 is reversed");
    free(t);
}

TB_TEST(wiring_rejects_a_square_without_diode)
{
    char *t = netlist_text();
    t = replace(t, "comp D_c3 ", "comp X_c3 ");
    t = replace(t, "pins D_c3 ", "pins X_c3 ");
    t = replace(t, "D_c3.A", "X_c3.A");
    t = replace(t, "D_c3.K", "X_c3.K");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "square c3 has no D_c3");
    free(t);
}

TB_TEST(wiring_rejects_a_diode_on_the_wrong_rank)
{
    char *t = netlist_text();
    t = replace(t, " D_b1.A", " D_b2.A");
    t = replace(t, " R_ROW2.1 D_a2.A D_b2.A", " R_ROW2.1 D_a2.A D_b1.A");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "b1's diode is on net ROW_2");
    free(t);
}

TB_TEST(wiring_rejects_two_files_on_one_decoder_output)
{
    char *t = netlist_text();
    t = replace(t, "net COL_h U2.Y7", "net COL_h U2.Y6");
    t = replace(t, "net COL_g U2.Y6", "net COL_g U2.Y7");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    /* swapped outputs are a legal board (the simulator follows them) */
    ASSERT_OK(wire(t, &w, &err));
    ASSERT_EQ(w.file_output[6], 7);
    ASSERT_EQ(w.file_output[7], 6);
    free(t);
    /* file h's switches joined to file g's column line */
    t = netlist_text();
    t = replace(t, "net COL_h U2.Y7", "net COL_g");
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "files g and h share 74HC138 output Y6");
    free(t);
}

TB_TEST(wiring_rejects_a_net_on_two_mcu_pins)
{
    char *t = netlist_text();
    t = replace(t, "net BTN_ARBITER U1.PC3", "net BUZZER U1.PC3");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "BUZZER");
    ASSERT_STR_CONTAINS(err.msg, "more than one MCU port pin");
    free(t);
}

TB_TEST(wiring_rejects_a_row_without_pull_up)
{
    char *t = netlist_text();
    t = replace(t, " R_ROW5.1", "");
    struct rb_netlist_wiring w;
    struct tb_error err = {0};
    ASSERT_EQ(wire(t, &w, &err), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(err.msg, "ROW_5 has no pull-up");
    free(t);
}

TB_TEST(parse_rejects_a_pin_on_two_nets_naming_the_line)
{
    const char *t = "comp U1 ATmega328P Nano x\npins U1 PD5 PD6\nnet ROW_1 U1.PD5\n"
                    "# comment\nnet OTHER U1.PD6 U1.PD5\n";
    struct rb_netlist *nl = NULL;
    struct tb_error err = {0};
    ASSERT_EQ(rb_netlist_parse(t, strlen(t), "x.txt", &nl, &err), TB_ERR_PARSE);
    ASSERT_NULL(nl);
    ASSERT_EQ(err.line, 5);
    ASSERT_STR_CONTAINS(err.msg, "x.txt:5: pin U1.PD5 is on both net ROW_1 and net OTHER");
}

TB_TEST(parse_rejects_malformed_lines)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"wire a b\n", "x:1: unknown statement 'wire'"},
        {"comp U1 X\n", "x:1: 'comp' needs"},
        {"comp U1 X Y d\ncomp U1 X Y d\n", "x:2: component U1 is declared twice"},
        {"comp U1 X Y d\npins U1 1\nnet N U1.2\n", "x:3: net N names U1.2, but U1 has no pin 2"},
        {"comp U1 X Y d\npins U1 1\nnet N U1\n", "x:3: 'U1' is not <ref>.<pin>"},
        {"pins U9 1\n", "x:1: pins of undeclared component U9"},
        {"comp U1 X Y d\n", "component U1 has no 'pins' line"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct rb_netlist *nl = NULL;
        struct tb_error err = {0};
        ASSERT_EQ(rb_netlist_parse(bad[i].text, strlen(bad[i].text), "x", &nl, &err), TB_ERR_PARSE);
        ASSERT_NULL(nl);
        ASSERT_STR_CONTAINS(err.msg, bad[i].msg);
    }
    rb_netlist_free(NULL);
}

TB_TEST(svg_committed_copy_matches_the_netlist)
{
    struct rb_netlist *nl = hw_load_board();
    char *svg = NULL;
    size_t len = 0;
    struct tb_error err = {0};
    if (rb_netlist_svg(nl, &svg, &len, &err))
        TB_FAIL("%s", err.msg);
    size_t clen;
    char *committed = tb_run_read_file(RB_SOURCE_DIR "/hardware/wiring.svg", &clen);
    if (clen != len || memcmp(svg, committed, len) != 0)
        TB_FAIL("hardware/wiring.svg is out of date: regenerate it with "
                "build/hardware/netlist2svg hardware/netlist.txt hardware/wiring.svg");
    /* every square is drawn and labelled */
    for (int sq = 0; sq < 64; sq++) {
        char label[8];
        snprintf(label, sizeof label, ">%c%c<", 'a' + sq % 8, '1' + sq / 8);
        ASSERT_STR_CONTAINS(svg, label);
    }
    free(committed);
    free(svg);
    rb_netlist_free(nl);
}
