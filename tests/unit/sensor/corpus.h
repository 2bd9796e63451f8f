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
    uint64_t max_latency_ms; /* decision time - deciding event time, over all moves */
    char first_failure[512];
};

/* Generates the events of one game into sc (events and expect lines in order) (seed chooses the
 * handling). Returns TB_OK or an error. */
int corpus_generate(struct tb_script_list *sc, const struct tb_sensor_gen_config *cfg,
                    uint64_t seed, const tb_chess_pos *start, const tb_chess_move *moves, int n);

/* Replays a script through s (reset to start) and compares its move and problem outputs with
 * the script's expect lines; a mismatch is counted in st with a description. */
void corpus_replay(tb_sensor *s, const struct tb_script_list *sc, const tb_chess_pos *start,
                   const char *what, struct corpus_stats *st);

/* Every game of a PGN file through the generator and the recogniser. Returns TB_OK, or a read
 * error (reported in st->first_failure). max_games 0 = all. */
int corpus_run_file(const char *path, uint64_t seed, const struct tb_sensor_gen_config *cfg,
                    long max_games, struct corpus_stats *st);

#endif
