/* daemon_shell.h - twinboardd's shell: one pointer to each part's own state, the parts' ops
 * table and lists, the daemon's clock and log, the answer buffer. Each part's calls are in its
 * own header (daemon_<part>.h); the game's state is the session's (daemon_session.h). */
#ifndef TB_DAEMON_SHELL_H
#define TB_DAEMON_SHELL_H

#include <poll.h>
#include <pthread.h>
#include <stdarg.h>

#include "tb_broadcast.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_daemon.h"
#include "tb_journal.h"
#include "tb_link.h"
#include "tb_match.h"
#include "tb_table.h"
#include "tb_voice.h"

#define TBD_BOARDS  2
#define TBD_WHY_MAX 160 /* why a game ended: "the arbiter's decision: " and the reason */

struct tb_daemon__braille; /* daemon_braille.c */
struct tb_daemon__vi;      /* daemon_vi.c */
struct tb_daemon__voice;   /* daemon_voice.c */
struct tb_daemon__hall;    /* daemon_hall.c */
struct tb_daemon__buf;     /* daemon_ctl.c */

/* Put-right lists (D.2.9) stay readable: at most this many squares in one spoken instruction,
 * at most TBD_FIX_STEPS_PER_LINE steps on one line of the arbiter's view. */
#define TBD_PUT_RIGHT_SQUARES  6
#define TBD_FIX_STEPS_PER_LINE 4

struct tb_daemon {
    struct tb_daemon_options opt;
    struct tb_config *cfg; /* &opt.cfg */
    char socket_path[TB_CONFIG_PATH_MAX];
    char journal_path[TB_CONFIG_PATH_MAX + 32];

    /* clock */
    uint64_t mono_start, base_ms;
    bool virtual_time; /* some board is a fast sim: the match runs on script time */
    uint64_t vnow;     /* virtual time: the latest time fed to the match */
    uint64_t last_mt;  /* latest time given to the match */

    struct tb_daemon__session *session; /* the game and its journal (daemon_session.h) */
    struct tb_daemon__boards *boards;   /* the two boards: links, events (daemon_boards.c) */

    const struct tb_daemon__part *const *status_parts; /* TBD_NPARTS: their lines in status */
    const struct tb_daemon__in_row *inputs; /* tb_daemon__inputs: the session's and recovery's */

    struct tb_daemon__voice *voice; /* the speech thread, the packs (daemon_voice.c) */

    struct tb_daemon__ctl *ctl; /* the control socket (daemon_ctl.c) */
    int wake_pipe[2];

    struct tb_daemon__vi *vi;           /* the VI player on their own (daemon_vi.c) */
    struct tb_daemon__braille *braille; /* the braille displays (daemon_braille.c) */

    struct tb_daemon__game *game; /* games kept (daemon_games.c) */

    struct tb_daemon__clk *clk; /* the game's clock (daemon_clock.c) */

    bool stop, done;
    unsigned long wakeups, events;

    /* broadcast (daemon_broadcast.c): the agreed game shown; NULL while [broadcast] is off */
    struct tb_daemon__broadcast *broadcast;
    struct tb_daemon__result *res; /* the game's tags and its end (daemon_result.c) */

    /* hall (daemon_hall.c): the table on the MQTT broker; NULL when [hall] is off */
    struct tb_daemon__hall *hall;

    /* doorgeefschaak (daemon_bug.c): the match of two games; NULL unless [bughouse] enabled */
    struct tb_daemon__bug *bug;
};

/* daemon.c */
uint64_t tb_daemon__clock(const struct tb_daemon *d);
uint64_t tb_daemon__match_time(struct tb_daemon *d);
void tb_daemon__log(struct tb_daemon *d, enum tb_config_log level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* daemon_time.c: CLOCK_MONOTONIC ms (the control guard's and the refusals' times too). */
uint64_t tb_daemon__mono_ms(void);

/* One part of the daemon, as a libuv handle or a BRLTTY driver: an ops table the loop asks in
 * turn (daemon.c, its parts list). A slot a part has no use for is NULL. */
struct tb_daemon__part {
    const char *name;
    /* At tb_daemon_new, in the list's opening order; err names what failed. */
    int (*open)(struct tb_daemon *d, struct tb_error *err);
    /* At tb_daemon_free, in the reverse order: idempotent, safe on a part never opened and after
     * a failed open. */
    void (*close)(struct tb_daemon *d);
    /* Fills at most max pollfds (fd -1: poll skips it) and returns how many; each turn. */
    int (*pollfds)(struct tb_daemon *d, struct pollfd *p, int max);
    /* Each turn after the poll, with the part's own slice of the revents (all 0 when the poll
     * timed out); negative: the loop stops with that error. */
    int (*handle)(struct tb_daemon *d, const struct pollfd *p, int n);
    /* Its next due time on the daemon's clock (UINT64_MAX: none), asked after its pollfds. */
    uint64_t (*deadline)(struct tb_daemon *d);
    /* Its deadline is the match's: frozen while the journal holds play, and left to the scripts'
     * own times in virtual time. */
    bool match_time;
    /* Appends the part's lines of the `twinboard status` answer to out (each ending in '\n'),
     * in tb_daemon__parts_status's order after the game's own lines; NULL when it has none. */
    void (*status)(struct tb_daemon *d, struct tb_daemon__buf *out);
};
extern const struct tb_daemon__part tb_daemon__part_boards, tb_daemon__part_ctl,
    tb_daemon__part_hall, tb_daemon__part_broadcast, tb_daemon__part_braille, tb_daemon__part_voice,
    tb_daemon__part_clock, tb_daemon__part_games, tb_daemon__part_writer, tb_daemon__part_vi;
/* daemon_parts.c: the same TBD_NPARTS parts in the order they are opened (closed in the reverse)
 * and in the order each turn serves them. */
enum { TBD_NPARTS = 10 };
extern const struct tb_daemon__part *const tb_daemon__parts_opened[];
extern const struct tb_daemon__part *const tb_daemon__parts_served[];
/* The same parts in the order their lines are read in the status answer (the loop hands it to
 * the mode as d->status_parts). */
extern const struct tb_daemon__part *const tb_daemon__parts_status[];

/* daemon_ctl.c: the answer to a request, appended to (the part's own calls: daemon_ctl.h). */
struct tb_daemon__buf {
    char *p;
    size_t len, cap;
    bool failed;
    unsigned long ticket; /* no answer yet: it comes with the session's ticket of this id */
};
void tb_daemon__buf_put(struct tb_daemon__buf *b, const char *s, size_t n);
/* Data lines of text (split at '\n') as ok+ ... . */
void tb_daemon__data(struct tb_daemon__buf *out, const char *head, const char *text);

/* daemon_paths.c: the socket's and the journal's directories made and checked (never a
 * symbolic link, a directory another user may write to, or a default in /tmp). */
int tb_daemon__paths_prepare(struct tb_daemon *d, struct tb_error *err);

#endif /* TB_DAEMON_SHELL_H */
