/* fixture.h - twinboardd in-process for the integration tests: a daemon from a configuration
 * built here, its log captured, its loop turned until something happens. */
#ifndef TB_DAEMON_FIXTURE_H
#define TB_DAEMON_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "tb_chess.h"
#include "tb_daemon.h"

#define FX_PIN "371946"

struct fx {
    struct tb_daemon *d;
    struct tb_daemon_options o;
    char dir[300];
    char script[400], journal[400], socket[400];
    char *log;
    size_t log_len, log_cap;
    char warnings[8192]; /* the log's warning and error lines (the first that fit) */
    size_t warnings_len;
    char answer[65536];
};

/* A fresh directory (under the test's scratch directory) named name. */
void fx_init(struct fx *f, const char *name);
/* Writes text as the script both sim: boards play. */
void fx_script(struct fx *f, const char *text);
/* Options for boards vi and sighted (resource strings; "script" = sim:SCRIPT), fast script
 * time, no speech, the PIN set, exiting when done. Call fx_start after changing f->o. */
void fx_options(struct fx *f, const char *vi, const char *sighted);
void fx_start(struct fx *f);
/* A simulated reed board (pty) for the vi player against a keys: board for the sighted player's
 * assistant, in real time; returns once the reed board has been read. */
struct ptyboard;
void fx_start_pty_keys(struct fx *f, struct ptyboard *b, const char *name);
/* The same in two steps, to change f->o between them: the options, then the start. */
void fx_pty_keys_options(struct fx *f, struct ptyboard *b, const char *name);
void fx_start_pty(struct fx *f);
/* Conditions for fx_run_until on the pty board started last: its events read, then the state
 * in status. */
bool fx_pty_waiting_vi(struct fx *f);
bool fx_pty_waiting_sighted(struct fx *f);
bool fx_pty_blocked(struct fx *f);
bool fx_pty_in_sync(struct fx *f);
/* Turns the loop until the daemon is done or a mismatch is open (or max turns). Returns the
 * open mismatch id, 0 if none. */
unsigned fx_run(struct fx *f, int max_turns);
/* Turns the loop for up to ms of real time (pty boards; scaled by TB_TIME_MULTIPLIER), or until
 * cond(f) holds. */
bool fx_run_until(struct fx *f, int ms, bool (*cond)(struct fx *f));
/* A control request in-process; the answer (in f->answer). */
const char *fx_req(struct fx *f, const char *line);
/* The agreed moves in SAN separated by spaces, from the `moves` answer. */
const char *fx_moves(struct fx *f, char *buf, size_t len);
void fx_stop(struct fx *f);
void fx_free(struct fx *f);
int fx_plies(struct fx *f);
/* A client connection to the daemon's control socket (non-blocking); fails the test if none. */
int fx_dial(struct fx *f);
/* The daemon program run with -c config --audio none and extra (NULL: none), stderr to
 * /dev/null; its pid. */
int fx_spawn(const char *program, const char *config, const char *extra);
/* The demo game as both boards' script with one wrong replication (ply 4, held 1.5 s, then put
 * right), fly-over blips; options for two sim: boards (call fx_start). */
void fx_demo_with_mismatch(struct fx *f);
/* Runs to the end, confirming each mismatch's resolution as the arbiter would; done then. */
void fx_run_resolving(struct fx *f);
/* The game ended whole: `moves` lists the n moves (from the standard position), status says the
 * journal is ok; then f is freed and the journal on disk must hold the n agreed moves in order,
 * each once, intact. */
void fx_free_whole(struct fx *f, const tb_chess_move *moves, int n);
/* The moves in SAN (English letters) from start, separated by spaces, as `moves` lists them. */
void fx_san_list(const tb_chess_pos *start, const tb_chess_move *moves, int n, char *buf,
                 size_t len);

#endif
