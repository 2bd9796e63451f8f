/* cmd_demo.c - `twinboard demo`: a real game on two simulated boards through twinboardd.
 *
 * The VI board plays White's moves and replicates Black's, the sighted board the reverse, with
 * human handling (event scripts from the recogniser's generator). One replication is made wrong
 * on purpose: the demo, acting as the arbiter, sees the mismatch through the control socket and
 * confirms the D.2.9 resolution; the scripted player puts the board right. The boards are the
 * real firmware in simavr behind pseudo-terminals (reedboard-sim --pty) when it is built, else
 * sim: links playing the same script. Speech goes to PortAudio when a device exists, else to
 * one WAV file per player. The arbiter's view is printed as it goes, then the PGN. */
#define _GNU_SOURCE /* mkdtemp, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tb_chess.h"
#include "tb_ctl.h"
#include "tb_daemon.h"
#include "tb_voice.h"

#ifndef TB_BUILD_DIR
#define TB_BUILD_DIR "."
#endif

#define DEMO_PIN       "246813"
#define DEMO_WRONG_PLY 7  /* 4. d4, made on the VI board; the sighted board replicates it wrong */
#define DEMO_LIMIT_S   90 /* --limit: a slow or busy machine may need more */

/* One line of the script as the demo feeds it to a board's simulator (firmware mode). */
struct step {
    enum { STEP_EVENT, STEP_MADE, STEP_AGREED, STEP_RESOLVED } kind;
    uint64_t ms;
    int board, n;
    char action[24]; /* "lift e2" */
};

struct demo {
    char dir[256];
    char script[300], config[300], socket[300], journal[300];
    const char *pgn_file;
    long game;
    long limit_s; /* the whole game must be over within this */
    bool realtime, force_sim, firmware;
    char audio[300];
    tb_chess_move moves[TB_CHESS_GAME_MAX_PLIES];
    int nmoves;
    pid_t sim[2], daemon;
    int sim_in[2];
    struct step *steps;
    int nsteps, next;
    uint64_t offset; /* wall time of script time 0 */
    int log_fd;
    char partial[8192];
    size_t partial_len;
    bool resolved;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static const char *tool(const char *env, const char *rel, char *buf, size_t len)
{
    const char *e = getenv(env);
    if (e && *e)
        return e;
    snprintf(buf, len, "%s/%s", TB_BUILD_DIR, rel);
    return buf;
}

/* The game: one of a PGN file, else the built-in one. */
static int load_game(struct demo *d)
{
    if (!d->pgn_file) {
        d->nmoves = tb_daemon_demo_moves(d->moves, TB_CHESS_GAME_MAX_PLIES);
        return d->nmoves > 0 ? 0 : -1;
    }
    size_t len;
    char *text = tb_cli_read_file(d->pgn_file, &len);
    if (!text)
        return -1;
    tb_chess_pgn_game *g = malloc(sizeof *g);
    tb_chess_pgn_reader r;
    tb_chess_pgn_reader_init(&r, text, len);
    struct tb_error err = {0};
    int rc = 0;
    for (long i = 1; g && (rc = tb_chess_pgn_read(&r, g, &err)) == 1 && i < d->game; i++)
        ;
    if (g && rc == 1) {
        d->nmoves = g->game.plies;
        memcpy(d->moves, g->game.moves, sizeof d->moves[0] * (size_t)d->nmoves);
        printf("demo: game %ld of %s: %s - %s, %s, %d plies\n", d->game, d->pgn_file,
               tb_chess_pgn_tag_get(g, "White"), tb_chess_pgn_tag_get(g, "Black"), g->result,
               d->nmoves);
    } else {
        tb_cli_error("%s: game %ld: %s", d->pgn_file, d->game, rc < 0 ? err.msg : "not found");
    }
    free(g);
    free(text);
    return rc == 1 && d->nmoves > DEMO_WRONG_PLY ? 0 : -1;
}

static pid_t spawn(char *const argv[], const char *log_path, int *pipe_out, int *pipe_in)
{
    int p[2] = {-1, -1}, q[2] = {-1, -1};
    if (pipe_out && pipe2(p, O_CLOEXEC) != 0)
        return -1;
    if (pipe_in && pipe2(q, O_CLOEXEC) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (pipe_in)
            dup2(q[0], 0);
        int fd = pipe_out ? p[1] : open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 2);
            if (!pipe_out)
                dup2(fd, 1);
        }
        execv(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (pipe_out) {
        close(p[1]);
        *pipe_out = p[0];
    }
    if (pipe_in) {
        close(q[0]);
        *pipe_in = q[1];
    }
    return pid;
}

static bool wait_for_file(const char *path, int ms)
{
    struct stat st;
    for (int i = 0; i < ms / 20; i++) {
        if (stat(path, &st) == 0)
            return true;
        usleep(20000);
    }
    return false;
}

/* The script as steps: board actions and the marks where the demo waits for the daemon. */
static int load_steps(struct demo *d)
{
    FILE *f = fopen(d->script, "r");
    if (!f)
        return -1;
    char line[256];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        struct step st = {0};
        unsigned long long ms;
        char board[16], what[8], sq[8];
        if (sscanf(line, "# sync: made %d @%llu", &st.n, &ms) == 2)
            st.kind = STEP_MADE;
        else if (sscanf(line, "# sync: agreed %d @%llu", &st.n, &ms) == 2)
            st.kind = STEP_AGREED;
        else if (sscanf(line, "# sync: resolved @%llu", &ms) == 1)
            st.kind = STEP_RESOLVED;
        else if (sscanf(line, "%llu %15s %7s %7s", &ms, board, what, sq) == 4) {
            st.kind = STEP_EVENT;
            st.board = strcmp(board, "vi") ? 1 : 0;
            snprintf(st.action, sizeof st.action, "%s %s", what, sq);
        } else
            continue;
        st.ms = ms;
        if (d->nsteps == cap) {
            cap = cap ? cap * 2 : 256;
            struct step *p = realloc(d->steps, (size_t)cap * sizeof *p);
            if (!p)
                break;
            d->steps = p;
        }
        d->steps[d->nsteps++] = st;
    }
    fclose(f);
    return 0;
}

/* The real firmware in simavr, one per board; the demo's hands act through their stdin. */
static int start_firmware(struct demo *d)
{
    char simbuf[512], elfbuf[512];
    const char *sim = tool("TB_REEDBOARD_SIM", "firmware/sim/reedboard-sim", simbuf, sizeof simbuf);
    const char *elf = tool("TB_REEDBOARD_ELF", "firmware/reedboard.elf", elfbuf, sizeof elfbuf);
    if (d->force_sim || access(sim, X_OK) != 0 || access(elf, R_OK) != 0)
        return 0;
    static const char *const names[2] = {"vi", "sighted"};
    for (int b = 0; b < 2; b++) {
        char link[320], log[320];
        snprintf(link, sizeof link, "%s/%s.pty", d->dir, names[b]);
        snprintf(log, sizeof log, "%s/%s-firmware.log", d->dir, names[b]);
        char *argv[] = {(char *)sim, "--elf",   (char *)elf, "--pty",          "--link",
                        link,        "--stdin", "--board",   (char *)names[b], NULL};
        d->sim[b] = spawn(argv, log, NULL, &d->sim_in[b]);
        if (d->sim[b] < 0 || !wait_for_file(link, 5000)) {
            tb_cli_error("reedboard-sim for the %s board did not start (see %s)", names[b], log);
            return -1;
        }
    }
    d->firmware = true;
    return load_steps(d);
}

static void count_device(void *arg, const char *name, int channels, double rate)
{
    (void)name, (void)rate;
    if (channels > 0)
        ++*(int *)arg;
}

/* PortAudio when it finds an output device, else one WAV file per player. */
static void choose_audio(struct demo *d)
{
    if (d->audio[0])
        return;
    int devices = 0;
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 2); /* PortAudio's probing talks on stderr */
    tb_voice_portaudio_devices(count_device, &devices, NULL);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null >= 0)
        close(null);
    if (devices > 0 && !getenv("TB_DEMO_NO_PA"))
        snprintf(d->audio, sizeof d->audio, "default");
    else
        snprintf(d->audio, sizeof d->audio, "wav:%s", d->dir);
}

static int write_config(struct demo *d)
{
    FILE *f = fopen(d->config, "w");
    if (!f) {
        tb_cli_error("%s: %s", d->config, strerror(errno));
        return -1;
    }
    fprintf(f,
            "; twinboard demo\n[daemon]\nsocket = %s\njournal_dir = %s\nlog_level = info\n"
            "blip_window_ms = 100\n\n[arbiter]\npin = %s\n",
            d->socket, d->journal, DEMO_PIN);
    static const char *const names[2] = {"vi", "sighted"};
    for (int b = 0; b < 2; b++) {
        char board[400], audio[400];
        if (d->firmware)
            snprintf(board, sizeof board, "pty:%s/%s.pty", d->dir, names[b]);
        else
            snprintf(board, sizeof board, "sim:%s?speed=%s", d->script,
                     d->realtime ? "realtime" : "fast");
        if (!strncmp(d->audio, "wav:", 4))
            snprintf(audio, sizeof audio, "wav:%s/%s.wav", d->audio + 4, names[b]);
        else
            snprintf(audio, sizeof audio, "%s", d->audio);
        fprintf(f, "\n[player %s]\nboard = %s\ncolour = %s\npack = de-fide\naudio = %s\n", names[b],
                board, b ? "black" : "white", audio);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* One request; the answer as sent into out. 0 ok, 1 error, -1 no daemon. */
static int request(const struct demo *d, const char *line, char *out, size_t len)
{
    int rc = tb_ctl_request(d->socket, line, out, len, NULL);
    return rc < 0 ? -1 : rc;
}

/* The daemon's log, as the arbiter's view: the level prefix dropped. */
static void show_log(struct demo *d)
{
    ssize_t r =
        read(d->log_fd, d->partial + d->partial_len, sizeof d->partial - d->partial_len - 1);
    if (r <= 0) {
        if (r == 0) {
            close(d->log_fd);
            d->log_fd = -1;
        }
        return;
    }
    d->partial_len += (size_t)r;
    d->partial[d->partial_len] = '\0';
    char *start = d->partial, *nl;
    while ((nl = strchr(start, '\n'))) {
        *nl = '\0';
        const char *text = start;
        if (!strncmp(text, "twinboardd: info: ", 18))
            text += 18;
        else if (!strncmp(text, "twinboardd: ", 12))
            text += 12;
        printf("  | %s\n", text);
        start = nl + 1;
    }
    d->partial_len = strlen(start);
    memmove(d->partial, start, d->partial_len + 1);
    if (d->partial_len == sizeof d->partial - 1)
        d->partial_len = 0;
    fflush(stdout);
}

/* The arbiter at work: an open mismatch is looked at and its resolution confirmed. */
static void arbiter(struct demo *d)
{
    char st[8192];
    if (request(d, "status", st, sizeof st) != 0)
        return;
    const char *b = strstr(st, "state: blocked: mismatch ");
    if (!b)
        return;
    unsigned id = (unsigned)strtoul(b + 25, NULL, 10);
    char line[64], ans[1024];
    printf("demo (arbiter): mismatch %u seen in `twinboard status`; both scoresheets have the "
           "announced move, so the board that deviates is put right (D.2.9). Confirming:\n"
           "demo (arbiter): TB_PIN=%s twinboard resolve %u\n",
           id, DEMO_PIN, id);
    snprintf(line, sizeof line, "resolve %u pin=%s", id, DEMO_PIN);
    int rc = request(d, line, ans, sizeof ans);
    printf("demo (arbiter): %s", ans);
    if (rc == 0)
        d->resolved = true;
    fflush(stdout);
}

/* The game is over once every move is agreed, the boards are in sync and speech is done. */
static bool game_done(struct demo *d)
{
    char st[8192], want[64];
    if (request(d, "status", st, sizeof st) != 0)
        return false;
    snprintf(want, sizeof want, "game: %d plies agreed", d->nmoves);
    return strstr(st, want) && strstr(st, "state: in-sync") &&
           (strstr(st, "speech: idle") || strstr(st, "speech: off"));
}

static void stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 150; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        usleep(20000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* Is the daemon where a sync mark wants it? st: its status. */
static bool sync_met(const struct demo *d, const struct step *st, const char *status)
{
    char want[64];
    switch (st->kind) {
    case STEP_MADE:
        snprintf(want, sizeof want, "game: %d plies agreed,", st->n - 1);
        return strstr(status, want) && strstr(status, "state: waiting");
    case STEP_AGREED:
        snprintf(want, sizeof want, "game: %d plies agreed,", st->n);
        return strstr(status, want) != NULL;
    case STEP_RESOLVED:
        return d->resolved;
    default:
        return true;
    }
}

/* Feeds the board actions that are due; at a sync mark waits for the daemon, then goes on
 * from there with the script's own timing. Returns the ms until the next action is due. */
static int feed(struct demo *d)
{
    while (d->next < d->nsteps) {
        struct step *st = &d->steps[d->next];
        uint64_t now = now_ms();
        if (st->kind != STEP_EVENT) {
            char status[8192];
            if (request(d, "status", status, sizeof status) != 0 || !sync_met(d, st, status))
                return 30;
            d->offset = now - st->ms + 150; /* a short pause, then on */
            d->next++;
            continue;
        }
        uint64_t due = d->offset + st->ms;
        if (due > now)
            return (int)(due - now < 100 ? due - now : 100);
        char line[32];
        int n = snprintf(line, sizeof line, "%s\n", st->action);
        if (write(d->sim_in[st->board], line, (size_t)n) != n)
            return 100;
        d->next++;
    }
    return 100;
}

/* Both boards connected and read once. */
static bool boards_ready(const struct demo *d)
{
    char st[8192];
    return request(d, "status", st, sizeof st) == 0 && !strstr(st, "NOT CONNECTED") &&
           !strstr(st, "waiting for its first reading");
}

static int play(struct demo *d)
{
    char dbuf[512];
    const char *daemon = tool("TB_TWINBOARDD", "host/daemon/twinboardd", dbuf, sizeof dbuf);
    char *argv[] = {(char *)daemon, "-c", d->config, NULL};
    d->daemon = spawn(argv, NULL, &d->log_fd, NULL);
    if (d->daemon < 0) {
        tb_cli_error("cannot start %s", daemon);
        return -1;
    }
    uint64_t start = now_ms(), last_check = 0;
    bool done = false, ready = !d->firmware;
    while (!done && now_ms() - start < (uint64_t)d->limit_s * 1000u) {
        int wait = 100;
        if (!ready && (ready = boards_ready(d)))
            d->offset = now_ms() - 1500; /* the first move is made half a second later */
        else if (ready && d->firmware)
            wait = feed(d);
        struct pollfd p = {.fd = d->log_fd, .events = POLLIN};
        if (d->log_fd >= 0 && poll(&p, 1, wait) > 0)
            show_log(d);
        if (d->log_fd < 0) {
            tb_cli_error("twinboardd stopped before the game ended");
            return -1;
        }
        if (now_ms() - last_check >= 150) {
            last_check = now_ms();
            if (!d->resolved)
                arbiter(d);
            done = game_done(d);
        }
    }
    if (!done) {
        tb_cli_error("the game did not finish within %ld s (--limit SECONDS gives it longer)",
                     d->limit_s);
        return -1;
    }
    static char pgn[65536];
    if (request(d, "pgn", pgn, sizeof pgn) != 0)
        return -1;
    printf("\ndemo: the game as the daemon recorded it (twinboard pgn):\n\n");
    for (char *l = strchr(pgn, '\n') ? strchr(pgn, '\n') + 1 : pgn; *l;) {
        char *nl = strchr(l, '\n');
        if (!nl)
            break;
        *nl = '\0';
        if (strcmp(l, "."))
            printf("%s\n", l[0] == '.' ? l + 1 : l);
        l = nl + 1;
    }
    return d->resolved ? 0 : -1;
}

int tb_cli_cmd_demo(int argc, char **argv)
{
    static struct demo d;
    memset(&d, 0, sizeof d);
    d.log_fd = -1;
    signal(SIGPIPE, SIG_IGN); /* a simulator that stopped is reported, not fatal */
    const char *keep = NULL;
    enum { O_REALTIME = 256, O_SIM, O_AUDIO, O_KEEP, O_PGN, O_GAME, O_LIMIT };
    static const struct option longs[] = {
        {"realtime", no_argument, NULL, O_REALTIME}, {"sim", no_argument, NULL, O_SIM},
        {"audio", required_argument, NULL, O_AUDIO}, {"keep", required_argument, NULL, O_KEEP},
        {"pgn", required_argument, NULL, O_PGN},     {"game", required_argument, NULL, O_GAME},
        {"limit", required_argument, NULL, O_LIMIT}, {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = tb_cli_getopt(argc, argv, "", longs)) != -1) {
        if (c == O_REALTIME) {
            d.realtime = true;
        } else if (c == O_SIM) {
            d.force_sim = true;
        } else if (c == O_AUDIO) {
            snprintf(d.audio, sizeof d.audio, "%s", optarg);
        } else if (c == O_KEEP) {
            keep = optarg;
        } else if (c == O_PGN) {
            d.pgn_file = optarg;
        } else if (c == O_GAME) {
            d.game = strtol(optarg, NULL, 10);
        } else if (c == O_LIMIT) {
            char *end;
            d.limit_s = strtol(optarg, &end, 10);
            if (*end || d.limit_s < 1 || d.limit_s > 86400) {
                tb_cli_error("--limit %s: give the seconds the game may take, 1 to 86400", optarg);
                return 2;
            }
        } else {
            return tb_cli_usage(argv[0]);
        }
    }
    if (!d.game)
        d.game = 1;
    if (!d.limit_s)
        d.limit_s = DEMO_LIMIT_S;
    if (keep) {
        snprintf(d.dir, sizeof d.dir, "%s", keep);
        mkdir(d.dir, 0755);
    } else {
        const char *tmp = getenv("TMPDIR"); /* a private directory (mkdtemp: 0700) */
        snprintf(d.dir, sizeof d.dir, "%s/twinboard-demo-XXXXXX",
                 tmp && tmp[0] == '/' ? tmp : "/tmp");
        if (!mkdtemp(d.dir)) {
            tb_cli_error("cannot make a directory for the demo: %s", strerror(errno));
            return TB_CLI_USAGE;
        }
    }
    snprintf(d.script, sizeof d.script, "%s/game.txt", d.dir);
    snprintf(d.config, sizeof d.config, "%s/twinboard.ini", d.dir);
    snprintf(d.socket, sizeof d.socket, "%s/control", d.dir);
    snprintf(d.journal, sizeof d.journal, "%s/journal", d.dir);
    if (load_game(&d) != 0)
        return TB_CLI_USAGE;
    struct tb_daemon_demo_script s = {.moves = d.moves,
                                      .nmoves = d.nmoves,
                                      .vi_color = TB_CHESS_WHITE,
                                      .wrong_ply = DEMO_WRONG_PLY,
                                      .hold_ms = 2500,
                                      .pause_ms = 300,
                                      /* no fly-over blips: on a loaded machine the simulator
                                         may hold one longer than the blip window */
                                      .blips = false,
                                      .seed = 7};
    struct tb_error err = {0};
    if (tb_daemon_demo_script_write(&s, d.script, &err) != 0) {
        tb_cli_error("demo script: %s", err.msg);
        return TB_CLI_USAGE;
    }
    int rc = start_firmware(&d);
    choose_audio(&d);
    printf("demo: %d plies on two boards: %s; the sighted board replicates ply %d wrong\n"
           "demo: files in %s (script game.txt, configuration twinboard.ini, journal/)\n"
           "demo: speech: %s\n\n",
           d.nmoves,
           d.firmware ? "the reedboard firmware in simavr behind pseudo-terminals"
                      : "sim: links playing the event script",
           DEMO_WRONG_PLY, d.dir,
           !strncmp(d.audio, "wav:", 4) ? "no sound device: WAV files vi.wav and sighted.wav"
                                        : d.audio);
    fflush(stdout);
    if (rc == 0 && write_config(&d) == 0)
        rc = play(&d);
    else
        rc = -1;
    stop(d.daemon);
    if (d.log_fd >= 0) {
        show_log(&d);
        close(d.log_fd);
    }
    for (int b = 0; b < 2; b++) {
        if (d.sim_in[b] > 0)
            close(d.sim_in[b]); /* end of input ends the simulator's session */
        stop(d.sim[b]);
    }
    free(d.steps);
    if (!strncmp(d.audio, "wav:", 4))
        printf("\ndemo: what each player heard: %s/vi.wav (the VI player, White) and "
               "%s/sighted.wav (the sighted player, Black)\n",
               d.audio + 4, d.audio + 4);
    return rc == 0 ? TB_CLI_OK : TB_CLI_FOUND;
}
