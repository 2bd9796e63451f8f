/* bcast_client.h - a DGT program reading a board, for the broadcast tests: single-board mode
 * through the project's decoder, bus mode through checksummed replies, a shadow of the 64
 * fields rebuilt from dumps, field updates and change records. */
#ifndef BCAST_CLIENT_H
#define BCAST_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_dgt.h"

struct bcast_client {
    bool bus;
    tb_dgt_decoder *dec;
    uint8_t pending[20000]; /* bus: bytes of a reply not yet whole */
    size_t npending;
    uint8_t shadow[64];
    int dumps, updates, bwtimes, pings, versions, bad;
    uint8_t bw[7];
    char serial[16], long_serial[16], trademark[TB_DGT_TRADEMARK_MAX + 1];
    int major, minor, busadres, address;
    int last_bus_id;
    uint8_t data[TB_DGT_MAX_LEN]; /* the last bus UPDATE or FROM_START data */
    size_t ndata;
};

void bcast_client_init(struct bcast_client *c, bool bus);
void bcast_client_free(struct bcast_client *c);
/* Bytes from the board, in any chunking. */
void bcast_client_feed(struct bcast_client *c, const uint8_t *bytes, size_t n);
/* Applies EE change records to 64 fields; -1 for a record that is none. */
int bcast_client_apply_ee(uint8_t fields[64], const uint8_t *rec, size_t n);

/* Game `number` (1-based) of a file in the shared test data's games/ (malloc'd). */
tb_chess_pgn_game *bcast_load_game(const char *file, long number);

/* A reader looping over a live PGN file on a thread of its own (bcast_loop_reader is its thread
 * function) until stop: every text it reads must be whole, i.e. parse and end with the result
 * its Result tag names. bad counts the texts that were not; why says the first. */
struct bcast_looper {
    const char *path;
    atomic_bool stop;
    long reads, bad;
    char why[320]; /* "read N bytes: " and an error message whole */
};
void *bcast_loop_reader(void *arg);

#endif
