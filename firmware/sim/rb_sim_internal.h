/* rb_sim_internal.h - the simulator's state, shared by the library's files only. */
#ifndef RB_SIM_INTERNAL_H
#define RB_SIM_INTERNAL_H

#include "rb_netlist.h"
#include "rb_sim.h"

#include "sim_avr.h"
#include "sim_irq.h"

/* A scheduled contact change. `final` marks the last toggle of a change: it is then reported. */
struct rb_sim_action {
    uint64_t cycle;
    uint64_t order; /* ties keep scheduling order */
    uint64_t start_cycle;
    int8_t square, button;
    uint8_t on, final;
};

/* Decoder inputs whose level the model follows: A0, A1, A2, G1, /G2A, /G2B. */
enum { RB_SIM_A0, RB_SIM_A1, RB_SIM_A2, RB_SIM_G1, RB_SIM_G2A_N, RB_SIM_G2B_N, RB_SIM_NDEC };

struct rb_sim_watch {
    struct rb_sim *sim;
    int role;
};

struct rb_sim {
    avr_t *avr;
    struct rb_netlist_wiring wiring;
    struct rb_sim_handlers h;

    /* the board */
    uint64_t contacts; /* closed reed switches */
    struct rb_sim_faults faults;
    uint8_t buttons; /* pressed buttons, bit = RB_PROTO_BTN_* */
    uint8_t dec_level[RB_SIM_NDEC];
    struct rb_sim_watch watch[RB_SIM_NDEC];
    uint8_t ext_mask[8], ext_value[8], ext_sent[8]; /* per port A..H */
    bool ext_valid[8];

    /* scheduled actions: a binary heap on (cycle, order) */
    struct rb_sim_action *heap;
    size_t nheap, capheap;
    uint64_t next_order;
    bool timer_armed, in_timer;
    uint64_t timer_cycle;
    uint32_t rng;

    /* UART */
    avr_irq_t *uart_in;
    uint8_t *rx;
    size_t rx_head, rx_len, rx_cap;
    bool rx_full;
    struct rb_proto_decoder dec;
    uint64_t frame_first_cycle;
};

/* rb_sim_board.c */
int rb_sim__board_init(struct rb_sim *sim, struct tb_error *err);
void rb_sim__update_rows(struct rb_sim *sim);
void rb_sim__arm_timer(struct rb_sim *sim);

#endif /* RB_SIM_INTERNAL_H */
