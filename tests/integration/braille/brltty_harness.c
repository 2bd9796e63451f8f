/* brltty_harness.c - see brltty_harness.h.
 *
 * style: real-time wait: brltty is a real process; reads wait on poll with deadlines. */
#include "brltty_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb_braille.h"
#include "tb_test.h"

double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

const char *find_brltty(void)
{
    static const char *const paths[] = {"/usr/bin/brltty", "/bin/brltty", "/usr/sbin/brltty",
                                        "/sbin/brltty", "/usr/local/bin/brltty"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

void need_brltty(void)
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
static bool read_until(struct brltty *b, const char *want, bool prefix, double seconds)
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
            matched = visual && (!want || (prefix ? strncmp(b->visual, want, strlen(want))
                                                  : strcmp(b->visual, want)) == 0);
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

bool read_display(struct brltty *b, const char *want, double seconds)
{
    return read_until(b, want, false, seconds);
}

bool read_display_starting(struct brltty *b, const char *prefix, double seconds)
{
    return read_until(b, prefix, true, seconds);
}

void expect_display(struct brltty *b, const char *want)
{
    if (!read_display(b, want, 10))
        TB_FAIL("BRLTTY shows \"%s\", expected \"%s\"", b->visual, want);
}

/* Presses a key of the display: one of BRLTTY's commands, as the Virtual driver takes them. */
void press(struct brltty *b, const char *command)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s\n", command);
    ASSERT_EQ(write(b->disp, line, (size_t)n), n);
}

void start_brltty(struct brltty *b)
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
    union { /* the address as connect() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_un un;
    } addr = {.un.sun_family = AF_UNIX};
    ASSERT_LT(snprintf(addr.un.sun_path, sizeof addr.un.sun_path, "%s", b->sock),
              (int)sizeof addr.un.sun_path);
    for (;;) {
        b->disp = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ASSERT_GE(b->disp, 0);
        if (connect(b->disp, &addr.sa, sizeof addr.un) == 0)
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

void stop_brltty(struct brltty *b)
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

/* The cells BRLTTY shows: one per character, and a cell with dots for every character that is
 * not a space (computer braille). */
void check_dots(const struct brltty *b)
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

const char *pad(const char *text)
{
    static char buf[512];
    size_t chars = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++)
        chars += (*s & 0xC0) != 0x80;
    snprintf(buf, sizeof buf, "%s%*s", text, (int)(CELLS - chars), "");
    return buf;
}
