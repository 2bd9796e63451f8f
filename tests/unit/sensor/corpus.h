/* corpus.h - event scripts from the game corpus, generated and replayed in memory (tests and
 * benchmarks share it). */
#ifndef TB_SENSOR_CORPUS_H
#define TB_SENSOR_CORPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "tb_sensor.h"

struct corpus_stats {
    long games, plies, events, outputs;
    long failures;
    long problems; /* problem lines expected and seen (displaced, illegal ...) */
    /* first mismatches by kind: a move other than the one made, a displaced report missing,
     * a touch-move report nobody deserved */
    long wrong_moves, missed_displaced, false_touch;
    uint64_t max_latency_ms; /* decision time - deciding event time, over all moves */
    char first_failure[512];
};

/* Generates the events of one game into sc (events and expect lines in order) (seed chooses the
 * handling). Returns TB_OK or an error. */
int corpus_generate(struct tb_script_list *sc, const struct tb_sensor_gen_config *cfg,
                    uint64_t seed, const tb_chess_pos *start, const tb_chess_move *moves, int n);

/* Replays a script through s (reset to start) and compares its move and problem outputs with
 * the script's expect lines; a mismatch is counted in st with a description. replicate: the
 * board copies each move (REPLICATING with the next expected move, D.2.9). */
void corpus_replay(tb_sensor *s, const struct tb_script_list *sc, const tb_chess_pos *start,
                   const char *what, bool replicate, struct corpus_stats *st);

struct corpus_opts {
    long max_games;  /* 0 = all */
    bool promo_only; /* only the games with a promotion */
    bool replicate;  /* replay as copies (corpus_replay) */
};

/* Every game of a PGN file through the generator and the recogniser. Returns TB_OK, or a read
 * error (reported in st->first_failure). */
int corpus_run_file(const char *path, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                    const struct corpus_opts *opt, struct corpus_stats *st);

/* ngames random Chess960 games (start positions seed-chosen, or all 960 in turn when ngames is
 * a multiple of 960), castling whenever a side may with high odds, through the generator and
 * the recogniser. */
void corpus_run_960(uint64_t seed, long ngames, const struct tb_sensor_gen_config *cfg,
                    bool replicate, struct corpus_stats *st);

/* Each move of a PGN file's games as its own trial: its events generated alone (the
 * generator's noise, the same scripts whatever the window) and replayed through a fresh
 * recogniser with blip and wobble windows window_ms (as the daemon sets both), from the
 * position before it. A trial is right when exactly that move is output and nothing is
 * reported; touches are not counted. */
struct trial_stats {
    long moves;
    long false_moves;   /* a move output that is not the one made (or one too many) */
    long missed;        /* the move made never output */
    long false_reports; /* a problem reported (touch-move, displaced, illegal ...) */
    char first[256];    /* the first wrong trial */
};

/* Up to max_moves trials (0: every move of the file). Returns TB_OK or a read error. */
int corpus_move_trials(const char *path, const struct tb_sensor_gen_config *cfg, uint32_t window_ms,
                       long max_moves, uint64_t seed, struct trial_stats *st);

#endif
