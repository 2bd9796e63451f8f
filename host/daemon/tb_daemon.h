/* tb_daemon.h - the core of twinboardd as a library: one poll loop over the board links, the
 * control socket, the speech thread's completions and the timers; the match (tb_match) in the
 * middle; the journal for recovery. twinboardd.c is a thin main around it; tests and the
 * latency benchmark run it in-process.
 *
 * Flow: link events -> journal (raw board event) -> match -> outputs: agreed moves -> journal
 * record + fdatasync, announcements -> voice (the other player's ears) once every record before
 * them is on disk, mismatches -> the arbiter's view in the log and `status`; arbiter requests
 * (PIN checked) -> journal + fdatasync -> match. A journal that cannot be written stops play
 * (said once) until a retry succeeds; then play resumes with nothing lost (docs/journal.md).
 *
 * Time: the match runs on the daemon's clock (CLOCK_MONOTONIC, continued from the journal after
 * a restart). When a board is `sim:FILE?speed=fast` the daemon runs on the scripts' own time
 * instead (virtual time): the boards' events are merged in script order, and while a mismatch
 * is open the scripts wait for the arbiter, so a fast run is deterministic.
 *
 * Recovery: on start the journal of the current game (JOURNAL_DIR/current.tbj) is replayed
 * through the same code path as live events before any link is opened.
 */
#ifndef TB_DAEMON_H
#define TB_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_config.h"
#include "tb_err.h"
#include "tb_voice.h"

struct tb_journal_io;

enum tb_daemon_speed { TB_DAEMON_SPEED_CONFIG = 0, TB_DAEMON_SPEED_REALTIME, TB_DAEMON_SPEED_FAST };

struct tb_daemon_options {
    struct tb_config cfg;       /* defaults or a file, already validated */
    const char *socket_path;    /* NULL: cfg.socket_path; "" = no control socket */
    const char *journal_dir;    /* NULL: cfg.journal_dir */
    bool exit_when_done;        /* stop once every sim: script has ended, nothing is pending and
                                   speech has drained */
    enum tb_daemon_speed speed; /* applied to sim: boards */
    const char *audio;          /* NULL (config), "null", "wav:DIR", "pa", "none" (no speech) */
    int signal_fd;              /* a signalfd (SIGHUP: status; others stop); -1 */
    /* Replaces both players' sinks (benchmarks): each gets sink_arg[its player's colour]. */
    const struct tb_voice_sink_ops *sink;
    void *sink_arg[TB_VOICE_PLAYERS];
    /* Where log lines go ("twinboardd: info: ..." without newline); NULL = stderr. */
    void (*log)(void *arg, enum tb_config_log level, const char *line);
    void *log_arg;
    /* Tests: the journal's file operations (a disk that fails on demand); NULL = the real
     * calls. The table must outlive the daemon. */
    const struct tb_journal_io *journal_io;
};

/* The PortAudio device that an audio entry of the configuration ("default", a device name, null,
 * wav:FILE) opens, probed now: its full name into name ("" when the entry is no device).
 * TB_ERR_NOTFOUND for a name no device has, TB_ERR_ARG for one that several devices match; err
 * names the devices there are. For --check-config and start-up. */
int tb_daemon_audio_device(const char *audio, char *name, size_t len, struct tb_error *err);

/* The check of a configuration file before the start, for --check-config and for the start
 * itself (one decision for both): reads path over o->cfg, then checks what it names (sim:
 * scripts, the socket's and journal's directories, the packs and headsets in use, [broadcast]
 * and [hall] files) with o's command-line overrides (--socket, --journal, --speed; --audio
 * skips the headsets). Every problem in rep, its line and "[section] key = value: why".
 * Returns 0, TB_ERR_PARSE (rep filled, err "PATH: N problems") or TB_ERR_SYS (the file cannot
 * be read: err). */
int tb_daemon_check(struct tb_daemon_options *o, const char *path, struct tb_config_report *rep,
                    struct tb_error *err);

/* Zeroes o and fills the demo defaults (tb_config_defaults from the environment). */
void tb_daemon_options_default(struct tb_daemon_options *o);

struct tb_daemon;

/* Opens the journal (and replays it), starts the voice, opens the boards and the control
 * socket. Returns 0 or an error with err naming what failed. */
int tb_daemon_new(const struct tb_daemon_options *o, struct tb_daemon **out, struct tb_error *err);
/* Stops the speech, closes links and clients, syncs and closes the journal, removes the
 * socket. NULL is a no-op. */
void tb_daemon_free(struct tb_daemon *d);

/* One turn of the loop: waits at most max_wait_ms (negative: until the next deadline or
 * input), handles what is ready. Returns 1 while running, 0 once stopped or done, or an error. */
int tb_daemon_step(struct tb_daemon *d, int max_wait_ms);
/* Runs until stopped (signal), done (exit_when_done) or a fatal error. Returns 0 or the error. */
int tb_daemon_run(struct tb_daemon *d);
/* Asks the loop to stop after the current turn. */
void tb_daemon_stop(struct tb_daemon *d);

/* A control request handled in-process, exactly as from the socket (the response lines,
 * dot-stuffed, into out). Returns the response length or TB_ERR_FULL. */
int tb_daemon_request(struct tb_daemon *d, const char *line, char *out, size_t len);

/* Counters for tests: poll wake-ups so far, agreed plies, open mismatch id (0 none). */
struct tb_daemon_counters {
    unsigned long wakeups;
    unsigned long events;
    int plies;
    uint32_t mismatch;
    bool done;
    uint64_t journal_last_seq;    /* last record appended */
    uint64_t journal_durable_seq; /* last record on disk and synced */
    bool journal_stopped;         /* play is stopped: the journal cannot be written */
    bool journal_writing;         /* a write is under way on the writer thread */
};
void tb_daemon_counters(const struct tb_daemon *d, struct tb_daemon_counters *c);

/* The daemon's clock now (ms), as used for the match in real time. */
uint64_t tb_daemon_now(const struct tb_daemon *d);

/* ---- the demo game ---------------------------------------------------------------------- */

/* Writes the event script of a game played on two boards (D.2.1): the board of the player to
 * move makes each move, the other board replicates it after it has been announced, both with
 * human handling (tb_sensor_gen). When wrong_ply > 0 the replication of that ply is first made
 * wrong (another legal move of the same piece, else any other legal move), left standing for
 * hold_ms, and then put right: the pieces moved back and the announced move made.
 * Comment lines "# sync: made N @MS", "# sync: agreed N @MS" and "# sync: resolved @MS" mark
 * where a driver that waits for the daemon (twinboard demo) waits: for ply N to be made, for
 * ply N to be agreed, for the arbiter's decision; @MS is the script time at the mark.
 * vi_color: the colour of the player at the "vi" board. Returns 0 or an error (err says). */
struct tb_daemon_demo_script {
    const tb_chess_pos *start; /* NULL: the standard position */
    const tb_chess_move *moves;
    int nmoves;
    int vi_color;
    int wrong_ply;     /* 0 = none */
    uint32_t hold_ms;  /* how long the wrong replication stands before it is put right */
    uint32_t pause_ms; /* between an announcement and its replication, and between moves */
    bool blips;        /* fly-over blips (a magnet carried over empty squares) */
    uint64_t seed;
};
int tb_daemon_demo_script_write(const struct tb_daemon_demo_script *s, const char *path,
                                struct tb_error *err);

/* The built-in demo game (a short decisive game of the shared corpus) as moves from the standard
 * position. Returns the count. */
int tb_daemon_demo_moves(tb_chess_move *moves, int cap);

#endif /* TB_DAEMON_H */
