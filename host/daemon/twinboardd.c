/* twinboardd - the twinboard daemon: options, configuration, signals; the loop is tb_daemon. */
#define _GNU_SOURCE /* signalfd */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tb_config.h"
#include "tb_daemon.h"
#include "tb_link.h"

static void usage(FILE *out)
{
    fputs("usage: twinboardd [-c FILE] [--socket PATH] [--journal DIR] [--exit-when-done]\n"
          "                  [--speed fast|realtime] [--audio null|none|wav:DIR|pa]\n"
          "                  [--log-level error|warn|info|debug]\n"
          "       twinboardd --check-config FILE   check a configuration file, name every "
          "problem\n"
          "       twinboardd --help                 this text\n"
          "       twinboardd --version              the version\n"
          "\n"
          "-c FILE is also --config FILE; every long option takes its value as --opt=VALUE too.\n"
          "Without -c the daemon runs the demo: both boards replay a built-in game from an\n"
          "event script, no sound card needed. --once is --exit-when-done. The configuration\n"
          "format is in docs/configuration.md, the control protocol in "
          "docs/control-protocol.md.\n"
          "Exit status: 0 stopped normally or the configuration is good, 1 a problem in the\n"
          "configuration or the daemon failed, 2 a usage error.\n",
          out);
}

/* The configuration checked as the start checks it (tb_daemon_check): every problem as
 * "FILE:LINE: ..." on out. 0, or 1 with the problems shown. */
/* A configuration the daemon refuses: sysexits' EX_CONFIG, which the service unit names in
 * RestartPreventExitStatus= so a missing PIN is not retried every 2 s until systemd gives up. */
#define TB_EXIT_CONFIG 78

static int check_file(struct tb_daemon_options *o, const char *path, FILE *out)
{
    struct tb_config_report rep;
    struct tb_error err = {0};
    int rc = tb_daemon_check(o, path, &rep, &err);
    if (rc == TB_ERR_PARSE && rep.count) {
        int shown = rep.count < TB_CONFIG_MAX_PROBLEMS ? rep.count : TB_CONFIG_MAX_PROBLEMS;
        for (int i = 0; i < shown; i++)
            fprintf(out, "%s:%ld: %s\n", path, rep.problem[i].line, rep.problem[i].msg);
        if (rep.count > shown)
            fprintf(out, "%s: %d more problems not shown\n", path, rep.count - shown);
        return 1;
    }
    if (rc != TB_OK) {
        fprintf(stderr, "twinboardd: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int check_config(const char *path)
{
    struct tb_daemon_options o;
    tb_daemon_options_default(&o);
    if (check_file(&o, path, stdout))
        return 1;
    const struct tb_config *cfg = &o.cfg;
    if (cfg->socket_path[0])
        printf("control socket: %s\n", cfg->socket_path);
    printf("journal: %s\n", cfg->journal_dir);
    char summary[2048];
    tb_config_summary(cfg, summary, sizeof summary);
    printf("%s: ok\n%s\n", path, summary);
    return 0;
}

/* Without a configuration: both boards replay the built-in game, written into a private
 * directory (mkdtemp, 0700) under $TMPDIR; the socket and the journals go where the defaults
 * say. */
static int demo_defaults(struct tb_config *cfg, char *dir, size_t dlen, char *script, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, dlen, "%s/twinboardd-demo-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "twinboardd: demo directory %s: %s\n", dir, strerror(errno));
        dir[0] = '\0';
        return 1;
    }
    snprintf(script, len, "%s/game.txt", dir);
    tb_chess_move moves[64];
    int n = tb_daemon_demo_moves(moves, 64);
    struct tb_daemon_demo_script s = {
        .moves = moves, .nmoves = n, .pause_ms = 300, .hold_ms = 1500, .seed = 1};
    struct tb_error err = {0};
    if (n < 0 || tb_daemon_demo_script_write(&s, script, &err) != TB_OK) {
        fprintf(stderr, "twinboardd: demo script %s: %s\n", script, err.msg);
        return 1;
    }
    struct tb_config_place place;
    tb_config_place_from_env(&place);
    tb_config_defaults(cfg, &place, script);
    return 0;
}

/* Under systemd (Type=notify) the service is ready once the control socket listens: READY=1 on
 * the datagram socket named by NOTIFY_SOCKET (sd_notify(3)'s protocol; '@' is the abstract
 * namespace). Without NOTIFY_SOCKET this does nothing. */
static void notify_ready(void)
{
    const char *path = getenv("NOTIFY_SOCKET");
    union { /* the address as sendto() takes it, with no cast between object types */
        struct sockaddr sa;
        struct sockaddr_un un;
    } addr = {.un.sun_family = AF_UNIX};
    if (!path || (path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof addr.un.sun_path)
        return;
    memcpy(addr.un.sun_path, path, strlen(path));
    if (path[0] == '@')
        addr.un.sun_path[0] = '\0';
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    static const char msg[] = "READY=1";
    if (sendto(fd, msg, sizeof msg - 1, 0, &addr.sa, len) < 0)
        fprintf(stderr, "twinboardd: warning: cannot tell systemd it is ready: %s\n",
                strerror(errno));
    close(fd);
}

/* Under systemd with stderr connected to the journal (JOURNAL_STREAM names stderr's device and
 * inode), each line becomes one journal record with its priority: "<3>" error, "<4>" warning,
 * "<6>" info, "<7>" debug (sd-daemon(3)). A multi-line message (the arbiter's view) gives one
 * record per line, each with the message's priority. */
static bool stderr_is_journal(void)
{
    const char *js = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    struct stat st;
    return js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(STDERR_FILENO, &st) == 0 &&
           (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

static void journal_log(void *arg, enum tb_config_log level, const char *line)
{
    (void)arg;
    static const char prio[] = {[TB_CONFIG_LOG_ERROR] = '3',
                                [TB_CONFIG_LOG_WARN] = '4',
                                [TB_CONFIG_LOG_INFO] = '6',
                                [TB_CONFIG_LOG_DEBUG] = '7'};
    for (const char *p = line;;) {
        size_t n = strcspn(p, "\n");
        fprintf(stderr, "<%c>%.*s\n", prio[level], (int)n, p);
        if (!p[n])
            break;
        p += n + 1;
    }
}

static int parse_level(const char *s, enum tb_config_log *out)
{
    for (int l = TB_CONFIG_LOG_ERROR; l <= TB_CONFIG_LOG_DEBUG; l++)
        if (!strcmp(s, tb_config_log_name((enum tb_config_log)l))) {
            *out = (enum tb_config_log)l;
            return 0;
        }
    return -1;
}

/* Every signal whose default action ends the process, except those a fault raises (SEGV, BUS,
 * FPE, ILL, TRAP, SYS, XCPU: no clean stop is possible) and SIGPIPE and SIGXFSZ (ignored: the
 * failing write returns an error instead). They are read from the signalfd, so each ends the
 * loop and the socket file is removed and the journal closed; SIGHUP logs the status. */
static void stopping_signals(sigset_t *set)
{
    static const int stop[] = {SIGTERM, SIGINT,    SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2,
                               SIGALRM, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSTKFLT};
    sigemptyset(set);
    for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
        sigaddset(set, stop[i]);
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
        sigaddset(set, s);
}

static int bad_usage(const char *what, const char *value)
{
    fprintf(stderr, "twinboardd: %s%s%s\n", what, value ? " " : "", value ? value : "");
    usage(stderr);
    return 2;
}

int main(int argc, char **argv)
{
    struct tb_daemon_options o;
    const char *config = NULL, *level = NULL, *check = NULL;
    char script[600] = "", demo_dir[512] = "";
    tb_daemon_options_default(&o);
    enum { O_CHECK = 256, O_SOCKET, O_JOURNAL, O_ONCE, O_SPEED, O_AUDIO, O_LEVEL };
    static const struct option longs[] = {
        {"config", required_argument, NULL, 'c'},
        {"check-config", required_argument, NULL, O_CHECK},
        {"socket", required_argument, NULL, O_SOCKET},
        {"journal", required_argument, NULL, O_JOURNAL},
        {"exit-when-done", no_argument, NULL, O_ONCE},
        {"once", no_argument, NULL, O_ONCE},
        {"speed", required_argument, NULL, O_SPEED},
        {"audio", required_argument, NULL, O_AUDIO},
        {"log-level", required_argument, NULL, O_LEVEL},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0; /* the messages below name the option */
    int c;
    while ((c = getopt_long(argc, argv, ":c:hV", longs, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            puts("twinboardd " TB_VERSION);
            return 0;
        case 'c':
            config = v;
            break;
        case O_CHECK:
            check = v;
            break;
        case O_SOCKET:
            o.socket_path = v;
            break;
        case O_JOURNAL:
            o.journal_dir = v;
            break;
        case O_ONCE:
            o.exit_when_done = true;
            break;
        case O_SPEED:
            if (strcmp(v, "fast") && strcmp(v, "realtime"))
                return bad_usage("--speed: fast or realtime, not", v);
            o.speed = !strcmp(v, "fast") ? TB_DAEMON_SPEED_FAST : TB_DAEMON_SPEED_REALTIME;
            break;
        case O_AUDIO:
            if (strcmp(v, "null") && strcmp(v, "none") && strcmp(v, "pa") && strncmp(v, "wav:", 4))
                return bad_usage("--audio: null, none, wav:DIR or pa, not", v);
            o.audio = v;
            break;
        case O_LEVEL:
            level = v;
            break;
        case ':':
            return bad_usage("missing value for", argv[optind - 1]);
        default:
            return bad_usage("unknown option", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad_usage("unexpected argument", argv[optind]);
    if (check) {
        if (config || o.socket_path || o.journal_dir || o.audio || level)
            return bad_usage("--check-config FILE takes no other option", NULL);
        return check_config(check);
    }
    if (stderr_is_journal())
        o.log = journal_log;
    if (config && check_file(&o, config, stderr) != 0)
        return TB_EXIT_CONFIG;
    if (!config && demo_defaults(&o.cfg, demo_dir, sizeof demo_dir, script, sizeof script)) {
        if (demo_dir[0])
            unlink(script), rmdir(demo_dir);
        return 1;
    }
    if (level && parse_level(level, &o.cfg.log_level) != 0) {
        fprintf(stderr, "twinboardd: --log-level %s: use error, warn, info or debug\n", level);
        if (demo_dir[0])
            unlink(script), rmdir(demo_dir);
        return 2;
    }
    sigset_t set;
    stopping_signals(&set);
    sigprocmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN); /* a client gone mid-answer: send() says EPIPE */
    signal(SIGXFSZ, SIG_IGN); /* a file-size limit: the journal's write fails with EFBIG */
    o.signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);

    struct tb_daemon *d;
    struct tb_error err = {0};
    int rc = tb_daemon_new(&o, &d, &err);
    if (rc != TB_OK) {
        fprintf(stderr, "twinboardd: error: %s\n", err.msg);
    } else {
        notify_ready();
        rc = tb_daemon_run(d);
        tb_daemon_free(d);
    }
    if (o.signal_fd >= 0)
        close(o.signal_fd);
    if (demo_dir[0])
        unlink(script), rmdir(demo_dir);
    return rc == TB_OK ? 0 : 1;
}
