/* fixture.c - see fixture.h. */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ptyboard.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_journal.h"
#include "tb_test.h"

static void capture(void *arg, enum tb_config_log level, const char *line)
{
    struct fx *f = arg;
    size_t n = strlen(line);
    if (level <= TB_CONFIG_LOG_WARN && f->warnings_len + n + 2 <= sizeof f->warnings) {
        memcpy(f->warnings + f->warnings_len, line, n);
        f->warnings_len += n;
        f->warnings[f->warnings_len++] = '\n';
        f->warnings[f->warnings_len] = '\0';
    }
    if (f->log_len + n + 2 > f->log_cap) {
        size_t cap = (f->log_len + n + 2) * 2;
        char *p = realloc(f->log, cap);
        if (!p)
            return;
        f->log = p;
        f->log_cap = cap;
    }
    memcpy(f->log + f->log_len, line, n);
    f->log_len += n;
    f->log[f->log_len++] = '\n';
    f->log[f->log_len] = '\0';
    if (getenv("FX_VERBOSE"))
        fprintf(stderr, "%s\n", line);
}

void fx_init(struct fx *f, const char *name)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "%s/%s", tb_test_tmp_dir(), name);
    mkdir(f->dir, 0755);
    snprintf(f->script, sizeof f->script, "%s/script.txt", f->dir);
    snprintf(f->journal, sizeof f->journal, "%s/journal", f->dir);
    snprintf(f->socket, sizeof f->socket, "%s/control", f->dir);
}

void fx_script(struct fx *f, const char *text)
{
    FILE *out = fopen(f->script, "w");
    ASSERT_NOT_NULL(out);
    fputs(text, out);
    ASSERT_OK(fclose(out));
}

void fx_options(struct fx *f, const char *vi, const char *sighted)
{
    tb_daemon_options_default(&f->o);
    const char *res[2] = {vi, sighted};
    for (int b = 0; b < 2; b++) {
        size_t len = sizeof f->o.cfg.player[b].board;
        int n = !strcmp(res[b], "script")
                    ? snprintf(f->o.cfg.player[b].board, len, "sim:%s", f->script)
                    : snprintf(f->o.cfg.player[b].board, len, "%s", res[b]);
        ASSERT_LT(n, (int)len);
        snprintf(f->o.cfg.player[b].audio, sizeof f->o.cfg.player[b].audio, "null");
    }
    snprintf(f->o.cfg.arbiter_pin, sizeof f->o.cfg.arbiter_pin, FX_PIN);
    f->o.cfg.blip_window_ms = 100;
    f->o.cfg.log_level = TB_CONFIG_LOG_DEBUG;
    f->o.journal_dir = f->journal;
    f->o.socket_path = "";
    f->o.speed = TB_DAEMON_SPEED_FAST;
    f->o.audio = "none";
    f->o.exit_when_done = true;
    f->o.log = capture;
    f->o.log_arg = f;
}

void fx_start(struct fx *f)
{
    struct tb_error err = {0};
    if (tb_daemon_new(&f->o, &f->d, &err) != TB_OK)
        TB_FAIL("daemon: %s", err.msg);
}

static struct ptyboard *pty_board;
static bool pty_read(struct fx *f)
{
    ptyboard_pump(pty_board);
    const char *st = fx_req(f, "status");
    return strstr(st, "vi: White") && !strstr(st, "waiting for its first reading") &&
           !strstr(st, "NOT CONNECTED");
}

/* The pty board's events read, then the status says want. */
static bool pty_state(struct fx *f, const char *want)
{
    ptyboard_pump(pty_board);
    return strstr(fx_req(f, "status"), want) != NULL;
}
bool fx_pty_waiting_vi(struct fx *f)
{
    return pty_state(f, "state: waiting: the vi board");
}
bool fx_pty_waiting_sighted(struct fx *f)
{
    return pty_state(f, "state: waiting: the sighted board");
}
bool fx_pty_blocked(struct fx *f)
{
    return pty_state(f, "state: blocked");
}
bool fx_pty_in_sync(struct fx *f)
{
    return pty_state(f, "state: in-sync");
}

void fx_pty_keys_options(struct fx *f, struct ptyboard *b, const char *name)
{
    char link[512];
    snprintf(link, sizeof link, "%s/%s-board", tb_test_tmp_dir(), name);
    ASSERT_OK(ptyboard_init(b, link));
    pty_board = b;
    fx_init(f, name);
    char res[600];
    snprintf(res, sizeof res, "pty:%s", b->link);
    fx_options(f, res, "keys:");
    f->o.speed = TB_DAEMON_SPEED_CONFIG;
}

void fx_start_pty(struct fx *f)
{
    fx_start(f);
    ASSERT_TRUE(fx_run_until(f, 5000, pty_read));
}

void fx_start_pty_keys(struct fx *f, struct ptyboard *b, const char *name)
{
    fx_pty_keys_options(f, b, name);
    fx_start_pty(f);
}

unsigned fx_run(struct fx *f, int max_turns)
{
    struct tb_daemon_counters c;
    for (int i = 0; i < max_turns; i++) {
        tb_daemon_counters(f->d, &c);
        if ((c.mismatch || c.done) && !c.journal_writing) /* what follows the disk is said too */
            return c.mismatch;
        if (tb_daemon_step(f->d, 50) <= 0)
            break;
    }
    tb_daemon_counters(f->d, &c);
    return c.mismatch;
}

static long elapsed_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

bool fx_run_until(struct fx *f, int ms, bool (*cond)(struct fx *f))
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ms = tb_test_ms(ms); /* a loaded machine is slower, not wrong */
    while (elapsed_ms(&t0) < ms) {
        if (cond && cond(f))
            return true;
        if (tb_daemon_step(f->d, 10) < 0)
            return false;
    }
    return cond ? cond(f) : true;
}

const char *fx_req(struct fx *f, const char *line)
{
    int n = tb_daemon_request(f->d, line, f->answer, sizeof f->answer);
    ASSERT_GE(n, 0);
    return f->answer;
}

const char *fx_moves(struct fx *f, char *buf, size_t len)
{
    const char *a = fx_req(f, "moves");
    buf[0] = '\0';
    size_t used = 0;
    /* data lines: "1. e4 (e2e4)" / "1... e5 (e7e5)" */
    for (const char *l = strchr(a, '\n'); l && l[1] && l[1] != '.'; l = strchr(l + 1, '\n')) {
        char num[16], san[16];
        if (sscanf(l + 1, "%15s %15s", num, san) == 2)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? " " : "", san);
    }
    return buf;
}

int fx_plies(struct fx *f)
{
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    return c.plies;
}

void fx_stop(struct fx *f)
{
    tb_daemon_free(f->d);
    f->d = NULL;
}

void fx_free(struct fx *f)
{
    fx_stop(f);
    free(f->log);
    f->log = NULL;
}

void fx_san_list(const tb_chess_pos *start, const tb_chess_move *moves, int n, char *buf,
                 size_t len)
{
    tb_chess_pos pos = *start;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char san[16];
        tb_chess_move_to_san(&pos, moves[i], TB_CHESS_LETTERS_EN, 0, san, sizeof san);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", san);
        tb_chess_undo u;
        tb_chess_make(&pos, moves[i], &u);
    }
}

void fx_free_whole(struct fx *f, const tb_chess_move *moves, int n)
{
    static char got[8192], source[8192];
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    fx_san_list(&start, moves, n, source, sizeof source);
    ASSERT_STR_EQ(fx_moves(f, got, sizeof got), source);
    ASSERT_STR_CONTAINS(fx_req(f, "status"), "journal: ok");
    fx_free(f);
    char path[512];
    snprintf(path, sizeof path, "%s/current.tbj", f->journal);
    struct tb_journal *j;
    struct tb_journal_recovery rec;
    struct tb_error err = {0};
    if (tb_journal_open(&j, path, &rec, &err) != TB_OK)
        TB_FAIL("%s", err.msg);
    ASSERT_EQ(rec.corrupt, 0u);
    ASSERT_EQ(rec.torn_bytes, 0u);
    size_t len;
    const uint8_t *buf = tb_journal_contents(j, &len);
    struct tb_journal_iter it;
    struct tb_journal_record r;
    tb_journal_iter_init(&it, buf, len);
    int plies = 0, rc;
    while ((rc = tb_journal_iter_next(&it, &r, NULL)) != 0) {
        ASSERT_GT(rc, 0);
        if (r.type == TB_JOURNAL_MOVE) {
            struct tb_journal_move mv;
            ASSERT_OK(tb_journal_move_decode(&mv, &r, NULL));
            ASSERT_EQ(mv.ply, ++plies);
            ASSERT_EQ(mv.move, moves[plies - 1]);
        }
    }
    ASSERT_EQ(plies, n);
    tb_journal_close(j);
}

void fx_demo_with_mismatch(struct fx *f)
{
    tb_chess_move moves[64];
    int n = tb_daemon_demo_moves(moves, 64);
    struct tb_daemon_demo_script s = {.moves = moves,
                                      .nmoves = n,
                                      .wrong_ply = 4,
                                      .hold_ms = 1500,
                                      .pause_ms = 300,
                                      .blips = true,
                                      .seed = 11};
    ASSERT_OK(tb_daemon_demo_script_write(&s, f->script, NULL));
    fx_options(f, "script", "script");
}

void fx_run_resolving(struct fx *f)
{
    for (int i = 0; i < 10; i++) {
        unsigned id = fx_run(f, 100000);
        if (!id)
            break;
        char line[64];
        snprintf(line, sizeof line, "resolve %u pin=%s", id, FX_PIN);
        ASSERT_STR_EQ(fx_req(f, line), "ok\n");
    }
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    ASSERT_TRUE(c.done);
}

int fx_dial(struct fx *f)
{
    struct tb_error err = {0};
    int fd = tb_ctl_client_connect(f->socket, true, &err);
    if (fd < 0)
        TB_FAIL("%s", err.msg);
    return fd;
}

int fx_spawn(const char *program, const char *config, const char *extra)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execl(program, program, "-c", config, "--audio", "none", extra, (char *)NULL);
        _exit(127);
    }
    return (int)pid;
}
