/* Braille through a real BRLTTY (issue 13). The test starts brltty itself with its Virtual
 * driver (-b vr), which needs no hardware: the driver serves a socket in the test's directory,
 * and the test plays the braille display on it. It tells BRLTTY the display's width ("Cells 40"),
 * reads back what BRLTTY shows (the driver's "Visual" line: the text of the cells, and its
 * "Braille" line: the dots), and presses the display's keys (the driver's commands "LnUp",
 * "FWinRt" ...), which BRLTTY hands to twinboard through BrlAPI. BrlAPI listens on a private TCP
 * port of 127.0.0.1 without authentication. Skipped (exit 77) only when brltty is not installed
 * or the build has no BrlAPI.
 *
 * style: real-time wait: brltty is a real process; reads wait on poll with deadlines. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_braille.h"
#include "tb_test.h"

#define CELLS 40

struct brltty {
    pid_t pid;
    char dir[1024], sock[1100], host[64];
    int disp;          /* our end of the Virtual driver's socket: we are the display */
    char visual[1024]; /* the last text BRLTTY showed */
    char dots[4096];   /* the last dots BRLTTY showed */
    char in[8192];
    size_t inlen;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *find_brltty(void)
{
    static const char *const paths[] = {"/usr/bin/brltty", "/bin/brltty", "/usr/sbin/brltty",
                                        "/sbin/brltty", "/usr/local/bin/brltty"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

static void need_brltty(void)
{
    if (!tb_braille_brlapi_built()) {
        printf("SKIP: this build has no BrlAPI (install libbrlapi-dev)\n");
        exit(77);
    }
    if (!find_brltty()) {
        printf("SKIP: brltty is not installed (Debian package brltty)\n");
        exit(77);
    }
}

/* Decodes a driver string "..." with \\ \" and \Xhh escapes into out. */
static void unquote(const char *s, char *out, size_t len)
{
    size_t n = 0;
    if (*s == '"')
        s++;
    while (*s && *s != '"' && n + 1 < len) {
        if (*s == '\\' && (s[1] == 'X' || s[1] == 'x') && s[2] && s[3]) {
            char hex[3] = {s[2], s[3], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            s += 4;
        } else if (*s == '\\' && s[1]) {
            out[n++] = s[1];
            s += 2;
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
}

/* Reads the driver's lines for up to `seconds`; returns early once the display shows want
 * (NULL: anything), text and dots (the driver sends the Visual line, then the Braille line). */
static bool read_display(struct brltty *b, const char *want, double seconds)
{
    double end = now() + seconds;
    bool matched = false;
    for (;;) {
        char *nl;
        while ((nl = memchr(b->in, '\n', b->inlen))) {
            *nl = '\0';
            bool visual = strncmp(b->in, "Visual ", 7) == 0;
            if (visual)
                unquote(b->in + 7, b->visual, sizeof b->visual);
            else if (strncmp(b->in, "Braille ", 8) == 0)
                unquote(b->in + 8, b->dots, sizeof b->dots);
            size_t used = (size_t)(nl - b->in) + 1;
            memmove(b->in, b->in + used, b->inlen - used);
            b->inlen -= used;
            if (matched && !visual)
                return true;
            matched = visual && (!want || strcmp(b->visual, want) == 0);
        }
        int ms = (int)((end - now()) * 1000);
        if (matched && ms < 1000)
            ms = 1000; /* the dots follow the text at once */
        if (ms <= 0)
            return false;
        struct pollfd p = {.fd = b->disp, .events = POLLIN};
        if (poll(&p, 1, ms) <= 0)
            continue;
        ssize_t r = read(b->disp, b->in + b->inlen, sizeof b->in - b->inlen - 1);
        if (r <= 0)
            return false;
        b->inlen += (size_t)r;
    }
}

static void expect_display(struct brltty *b, const char *want)
{
    if (!read_display(b, want, 10))
        TB_FAIL("BRLTTY shows \"%s\", expected \"%s\"", b->visual, want);
}

/* Presses a key of the display: one of BRLTTY's commands, as the Virtual driver takes them. */
static void press(struct brltty *b, const char *command)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s\n", command);
    ASSERT_EQ(write(b->disp, line, (size_t)n), n);
}

static void start_brltty(struct brltty *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "%s/brltty", tb_test_tmp_dir());
    ASSERT_OK(mkdir(b->dir, 0700));
    snprintf(b->sock, sizeof b->sock, "%s/vr.sock", b->dir);
    /* BrlAPI's TCP port is 4101 + N. */
    int n = 20000 + (int)(getpid() % 30000);
    snprintf(b->host, sizeof b->host, "127.0.0.1:%d", n);
    char device[1200], api[100], pidfile[1100], log[1100];
    snprintf(device, sizeof device, "server:%s", b->sock);
    snprintf(api, sizeof api, "auth=none,host=%s", b->host);
    snprintf(pidfile, sizeof pidfile, "%s/brltty.pid", b->dir);
    snprintf(log, sizeof log, "%s/brltty.log", b->dir);
    b->pid = fork();
    ASSERT_GE(b->pid, 0);
    if (b->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failing test (abort) leaves no brltty behind */
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        /* No configuration or preferences file, no screen, no speech, foreground, logs to the
         * test's directory: a BRLTTY of this test's own. */
        execl(find_brltty(), "brltty", "-n", "-e", "-q", "-f", "/dev/null", "-F", "/dev/null", "-b",
              "vr", "-d", device, "-x", "no", "-s", "no", "-A", api, "-U", b->dir, "-W", b->dir,
              "-P", pidfile, "-l", "warning", (char *)NULL);
        _exit(127);
    }
    /* Be the display: connect to the driver's socket and give the width. */
    double end = now() + 15;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", b->sock);
    for (;;) {
        b->disp = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ASSERT_GE(b->disp, 0);
        if (connect(b->disp, (struct sockaddr *)&addr, sizeof addr) == 0)
            break;
        close(b->disp);
        if (now() > end || waitpid(b->pid, NULL, WNOHANG) == b->pid)
            TB_FAIL("brltty did not open %s (log: %s)", b->sock, log);
        struct timespec t = {0, 20000000};
        nanosleep(&t, NULL);
    }
    press(b, "Cells 40");
    ASSERT_TRUE(read_display(b, NULL, 10)); /* BRLTTY's own first text */
}

static void stop_brltty(struct brltty *b)
{
    if (b->disp > 0)
        close(b->disp);
    if (b->pid <= 0)
        return;
    kill(b->pid, SIGTERM);
    double end = now() + 3;
    while (waitpid(b->pid, NULL, WNOHANG) == 0) {
        if (now() > end) { /* brltty may sit in its driver; it is our own child */
            kill(b->pid, SIGKILL);
            waitpid(b->pid, NULL, 0);
            break;
        }
        struct timespec t = {0, 20000000};
        nanosleep(&t, NULL);
    }
    b->pid = 0;
}

/* Connects twinboard's display to the test's BRLTTY (its API may come up a moment later). */
static struct tb_braille_display *connect_display(struct brltty *b)
{
    struct tb_braille_display *d = NULL;
    struct tb_error err = {0};
    double end = now() + 15;
    while (tb_braille_display_open(&tb_braille_brlapi, b->host, "none", &d, &err)) {
        if (now() > end)
            TB_FAIL("%s", err.msg);
        struct timespec t = {0, 50000000};
        nanosleep(&t, NULL);
    }
    return d;
}

/* Presses a key and lets twinboard take it, until the display shows want. */
static int press_and_poll(struct brltty *b, struct tb_braille_display *d, const char *command,
                          const char *want)
{
    press(b, command);
    double end = now() + 10;
    int rc = TB_OK;
    for (;;) {
        struct pollfd p = {.fd = tb_braille_display_fd(d), .events = POLLIN};
        if (poll(&p, 1, 100) > 0) {
            rc = tb_braille_display_poll(d);
            ASSERT_TRUE(rc >= 0);
            if (rc == TB_BRAILLE_WANT_CLOCK)
                return rc;
        }
        if (want && read_display(b, want, 0.05))
            return rc;
        if (now() > end)
            TB_FAIL("after %s BRLTTY shows \"%s\", expected \"%s\"", command, b->visual,
                    want ? want : "(a clock request)");
    }
}

/* The cells BRLTTY shows: one per character, and a cell with dots for every character that is
 * not a space (computer braille). */
static void check_dots(const struct brltty *b)
{
    int cells = 1, raised = 0, printed = 0;
    bool dot = false;
    for (const char *s = b->dots; *s; s++) {
        if (*s == '|') {
            cells++;
            raised += dot;
            dot = false;
        } else if (*s >= '1' && *s <= '8') {
            dot = true;
        }
    }
    raised += dot;
    for (const unsigned char *s = (const unsigned char *)b->visual; *s; s++)
        printed += *s != ' ' && (*s & 0xC0) != 0x80;
    ASSERT_EQ(cells, CELLS);
    ASSERT_EQ(raised, printed);
}

static const char *pad(const char *text)
{
    static char buf[512];
    size_t chars = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++)
        chars += (*s & 0xC0) != 0x80;
    snprintf(buf, sizeof buf, "%s%*s", text, (int)(CELLS - chars), "");
    return buf;
}

static tb_chess_game *ruy_lopez(void)
{
    static const char *const uci[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
    tb_chess_game *g = calloc(1, sizeof *g);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(g, &start);
    for (int i = 0; i < 6; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, uci[i], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    return g;
}

/* The status line, the scoresheet browsed with the display's keys, the clock on request: each
 * read back from BRLTTY as it shows it. */
TB_TEST(brltty_shows_the_game_and_its_keys_browse_the_scoresheet)
{
    need_brltty();
    struct brltty b;
    start_brltty(&b);
    struct tb_braille_display *d = connect_display(&b);
    struct tb_braille_view *v = tb_braille_display_view(d);
    ASSERT_EQ(tb_braille_view_cells(v), CELLS); /* the width BRLTTY reported */
    expect_display(&b, pad(""));

    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    tb_chess_game *g = ruy_lopez();
    ASSERT_OK(tb_braille_view_set_game(v, pack, g, TB_VOICE_LONG));
    ASSERT_OK(tb_braille_view_last_move(v, "Bauer Anna sieben Anna sechs"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Bauer Anna sieben Anna sechs"));
    check_dots(&b);

    /* A mismatch: the state comes first, the last move in the next window. */
    ASSERT_OK(tb_braille_view_state(v, "Bretter weichen ab, Brett Weiß"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Bretter weichen ab, Brett Weiß -"));
    check_dots(&b);
    press_and_poll(&b, d, "FWinRt", pad("Bauer Anna sieben Anna sechs"));
    press_and_poll(&b, d, "FWinLt", pad("Bretter weichen ab, Brett Weiß -"));

    /* Line up: the scoresheet at the latest half-move; pan right for the rest of a long line. */
    press_and_poll(&b, d, "LnUp", pad("Zug 3, Schwarz: Bauer Anna sieben Anna"));
    check_dots(&b);
    press_and_poll(&b, d, "FWinRt", pad("sechs"));
    press_and_poll(&b, d, "LnUp", pad("Zug 3, Weiß: Läufer Felix eins Bella"));
    press_and_poll(&b, d, "Top", pad("Zug 1, Weiß: Bauer Eva zwei Eva vier"));
    press_and_poll(&b, d, "LnDn", pad("Zug 1, Schwarz: Bauer Eva sieben Eva"));
    ASSERT_EQ(tb_braille_view_line(v), 1);
    press_and_poll(&b, d, "Bot", pad("Zug 3, Schwarz: Bauer Anna sieben Anna"));

    /* The clock on request: the key asks, twinboard answers with the time. */
    ASSERT_EQ(press_and_poll(&b, d, "Time", NULL), TB_BRAILLE_WANT_CLOCK);
    ASSERT_OK(tb_braille_view_clock(v, "Weiß 3:10, Schwarz 2:45, 6 Züge"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Weiß 3:10, Schwarz 2:45, 6 Züge"));
    press_and_poll(&b, d, "Home", pad("Bretter weichen ab, Brett Weiß -"));

    /* BRLTTY goes away: writes to it do not crash the process (no SIGPIPE), and the display's
     * descriptor becomes readable, where polling it reports the loss through its return value. */
    stop_brltty(&b);
    char text[32];
    for (int i = 0; i < 20; i++) {
        snprintf(text, sizeof text, "Kurze Rochade %d", i);
        ASSERT_OK(tb_braille_view_last_move(v, text));
        tb_braille_display_update(d);
    }
    struct pollfd p = {.fd = tb_braille_display_fd(d), .events = POLLIN};
    ASSERT_EQ(poll(&p, 1, 10000), 1);
    ASSERT_TRUE(tb_braille_display_poll(d) < 0);
    tb_braille_display_free(d);
    tb_voice_pack_free(pack);
    free(g);
}

/* With no BRLTTY to reach, opening the display fails once with a sentence naming where it
 * looked, and prints nothing: the daemon goes on without braille. */
TB_TEST(no_brltty_is_said_once_and_nothing_printed)
{
    if (!tb_braille_brlapi_built()) {
        printf("SKIP: this build has no BrlAPI (install libbrlapi-dev)\n");
        exit(77);
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/stderr", tb_test_tmp_dir());
    int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    dup2(fd, 2);
    struct tb_braille_display *d = NULL;
    struct tb_error err = {0};
    /* A TCP port nobody listens on: BrlAPI port 4101 + 1, refused on this machine's loopback
     * unless a BRLTTY runs there; the error names the host either way. */
    int rc = tb_braille_display_open(&tb_braille_brlapi, "127.0.0.1:59000", "none", &d, &err);
    dup2(saved, 2);
    close(saved);
    close(fd);
    ASSERT_EQ(rc, TB_ERR_NOTFOUND);
    ASSERT_NULL(d);
    ASSERT_STR_CONTAINS(err.msg, "127.0.0.1:59000");
    struct stat st;
    ASSERT_OK(stat(path, &st));
    ASSERT_EQ(st.st_size, 0);
    /* The null driver is always there. */
    ASSERT_OK(tb_braille_display_open(NULL, NULL, NULL, &d, &err));
    ASSERT_EQ(tb_braille_view_cells(tb_braille_display_view(d)), 40);
    ASSERT_EQ(tb_braille_display_fd(d), -1);
    ASSERT_OK(tb_braille_display_poll(d));
    tb_braille_display_free(d);
    tb_braille_display_free(NULL);
}
