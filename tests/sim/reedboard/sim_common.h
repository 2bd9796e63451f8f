/* sim_common.h - helpers of the end-to-end simulation tests: scripts (from PGN games or by
 * hand) and a recorded run of the firmware under rb_sim. */
#ifndef SIM_COMMON_H
#define SIM_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "rb_sim.h"
#include "tb_test.h"

struct act {
    double ms;
    int square;
    int placed;
};

struct script {
    struct act *acts;
    size_t n, cap;
    uint64_t initial_occupancy, final_occupancy;
};

/* The start position, no actions yet. */
void script_init_start(struct script *s);
void script_add(struct script *s, double ms, int square, int placed);
/* The physical actions of game `number` of games/<file> (first max_plies plies, 0 = all): a
 * capture lifts the victim first, castling moves king then rook, en passant removes the pawn last.
 */
void game_script(const char *file, long number, int max_plies, struct script *s);
void script_free(struct script *s);

struct sim_event {
    int square, placed;
    uint16_t seq;
    uint32_t board_ms;
    uint64_t first_cycle;  /* first byte of its frame on the UART */
    uint64_t stable_cycle; /* when the modelled contact became stable */
};

struct sim_check {
    double ms;
    uint64_t model, snapshot;
};

struct sim_run {
    struct rb_sim *sim;
    uint64_t tx_bytes;
    size_t toggles; /* scheduled contact changes, bounce included */
    struct rb_proto_info info;
    int ninfo;
    uint16_t baseline_seq; /* events up to this seq predate the script */
    bool have_baseline;
    struct sim_event *events;
    size_t nevents, capevents;
    struct rb_sim_change *changes;
    size_t nchanges, capchanges;
    struct rb_proto_button buttons[32];
    int nbuttons;
    struct rb_proto_pong pong;
    int npong;
    uint64_t final_snapshot;
    uint64_t pending_model[8]; /* model occupancy at each outstanding snapshot request */
    int npending;
    struct sim_check *checks;
    size_t nchecks, capchecks;
};

/* A simulator on the given board occupancy, every frame, change and byte recorded; square events
 * count once the first snapshot has set the baseline. */
struct sim_run *sim_run_new(const struct rb_sim_config *cfg, uint64_t occupancy);
/* Runs the script's actions (through an event-script text and rb_sim_schedule_script), the host
 * asking GET_INFO and GET_SNAPSHOT at 100 ms, to 500 ms after the last action; the final
 * snapshot is requested at the end. Square events are matched to their stable changes. */
struct sim_run *sim_run_script(const struct script *s, double bounce_ms, uint32_t seed);
/* The same, with a snapshot requested in every quiet gap between actions. */
struct sim_run *sim_run_with_snapshots(const struct script *s);
/* The script's actions with no host request at all, run to until_ms. */
struct sim_run *sim_run_silent(const struct script *s, double until_ms);
void sim_request(struct sim_run *r, uint8_t type);
void sim_run_ms(struct sim_run *r, double ms);
void sim_run_free(struct sim_run *r);

#endif /* SIM_COMMON_H */
