/* link_probe.c - asking a reed-board candidate who it is, and listing the candidates.
 *
 * The package's udev rules name every tty on a USB-serial chip a reed board may use
 * (CH340, FT232, the Arduino's own) as a candidate, /dev/twinboard/candidate-*; only asking tells
 * a reed board from another device on the same chip. A probe opens the tty, takes it (flock: a
 * tty another link or probe holds is passed over), and sends GET_INFO every PROBE_ASK_MS until
 * an INFO frame answers or TB_LINK__PROBE_MS have passed: an Arduino Nano restarts when its port
 * is opened and its boot loader listens for up to about two seconds before the firmware runs. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "link_internal.h"

#define PROBE_ASK_MS 200

const char *tb_link_dev_dir(void)
{
    const char *d = getenv("TWINBOARD_DEV_DIR");
    return d && *d ? d : "/dev/twinboard";
}

static int is_candidate(const struct dirent *e)
{
    return strncmp(e->d_name, TB_LINK_CANDIDATE_PREFIX, strlen(TB_LINK_CANDIDATE_PREFIX)) == 0;
}

int tb_link__candidates(char (*out)[TB_LINK__PATH_MAX], int max)
{
    const char *dir = tb_link_dev_dir();
    struct dirent **list = NULL;
    int n = scandir(dir, &list, is_candidate, alphasort), got = 0;
    for (int i = 0; i < n; i++) {
        int len = snprintf(out[got], TB_LINK__PATH_MAX, "%s/%s", dir, list[i]->d_name);
        if (got < max && len > 0 && len < TB_LINK__PATH_MAX)
            got++;
        free(list[i]);
    }
    free(list);
    return got;
}

bool tb_link__plug_of(const char *path, struct tb_link__plug *out)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    /* A device node made anew (plugged in again, a new pseudo-terminal) has a new inode or a
     * new change time: the same board on the same tty number is still a new plug. */
    *out = (struct tb_link__plug){st.st_rdev, st.st_ino, st.st_ctim.tv_sec, st.st_ctim.tv_nsec};
    return true;
}

bool tb_link__plug_same(const struct tb_link__plug *a, const struct tb_link__plug *b)
{
    return a->rdev == b->rdev && a->ino == b->ino && a->ctime_s == b->ctime_s &&
           a->ctime_ns == b->ctime_ns;
}

/* A pseudo-terminal (a simulator) is opened as one; anything else through libserialport. */
static bool is_pty(const char *path)
{
    char real[PATH_MAX];
    return realpath(path, real) && strncmp(real, "/dev/pts/", 9) == 0;
}

static void ask(struct tb_link__probe *p, uint64_t now_ms)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    size_t n = rb_proto_encode_get_info(buf, sizeof buf);
    ssize_t w;
    do
        w = write(p->fd, buf, n);
    while (w < 0 && errno == EINTR);
    p->next_ask_ms = now_ms + PROBE_ASK_MS;
}

int tb_link__probe_start(struct tb_link__probe *p, const char *path, uint64_t now_ms)
{
    memset(p, 0, sizeof *p);
    p->fd = -1;
    snprintf(p->path, sizeof p->path, "%s", path);
    p->pty = is_pty(path);
    int rc =
        tb_link__tty_open(p->pty ? "pty" : "serial", path, 115200, !p->pty, &p->fd, &p->port, NULL);
    if (rc != TB_OK)
        return rc;
    if (tb_link__tty_lock(p->fd) != TB_OK) {
        tb_link__tty_close(&p->fd, &p->port);
        return TB_ERR_STATE;
    }
    rb_proto_decoder_init(&p->dec);
    p->until_ms = now_ms + TB_LINK__PROBE_MS;
    ask(p, now_ms);
    return TB_OK;
}

int tb_link__probe_step(struct tb_link__probe *p, uint64_t now_ms)
{
    uint8_t buf[64];
    ssize_t n;
    while ((n = read(p->fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
        struct rb_proto_msg m;
        for (ssize_t i = 0; i < n; i++) {
            int got = rb_proto_decoder_push(&p->dec, buf[i], &m);
            while (got && m.type != RB_PROTO_INFO)
                got = rb_proto_decoder_next(&p->dec, &m);
            if (got) {
                p->info = m.u.info;
                return 1;
            }
        }
    }
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
        return TB_ERR_SYS; /* hung up: unplugged while asked */
    if (now_ms >= p->until_ms)
        return TB_ERR_TIMEOUT;
    if (now_ms >= p->next_ask_ms)
        ask(p, now_ms);
    return 0;
}

uint64_t tb_link__probe_due(const struct tb_link__probe *p)
{
    return p->next_ask_ms < p->until_ms ? p->next_ask_ms : p->until_ms;
}

void tb_link__probe_end(struct tb_link__probe *p)
{
    if (p->fd >= 0)
        tb_link__tty_close(&p->fd, &p->port);
}

static uint64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* Waits for the probe's next INFO: 1, or its error. */
static int wait_info(struct tb_link__probe *p)
{
    for (;;) {
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        uint64_t now = mono_ms(), due = tb_link__probe_due(p);
        poll(&pf, 1, due > now ? (int)(due - now) : 0);
        int rc = tb_link__probe_step(p, mono_ms());
        if (rc != 0)
            return rc;
    }
}

int tb_link_reed_identify(const char *path, uint32_t set_id, struct tb_link_reed_identity *out,
                          struct tb_error *err)
{
    if (!path || !out || set_id > RB_PROTO_SERIAL_MAX)
        return tb_error_set(err, TB_ERR_ARG, "reed board identity: bad argument");
    struct tb_link__probe p;
    int rc = tb_link__probe_start(&p, path, mono_ms());
    if (rc == TB_ERR_STATE)
        return tb_error_set(err, rc, "%s: another program has it open (a running twinboardd?)",
                            path);
    if (rc != TB_OK)
        return tb_error_set(err, rc, "%s: cannot open it: %s", path, strerror(errno));
    rc = wait_info(&p);
    if (rc == 1 && set_id && p.info.serial == 0) {
        uint8_t buf[RB_PROTO_MAX_FRAME];
        size_t n = rb_proto_encode_set_serial(buf, sizeof buf, set_id);
        p.until_ms = mono_ms() + TB_LINK__PROBE_MS; /* the answer: INFO with the new one */
        /* an INFO still saying none answers an earlier GET_INFO (or the request was lost while
         * the board started): asked again, as it takes the same serial twice */
        do
            rc = write(p.fd, buf, n) == (ssize_t)n ? wait_info(&p) : TB_ERR_SYS;
        while (rc == 1 && p.info.serial == 0);
    }
    tb_link__probe_end(&p);
    if (rc != 1)
        return tb_error_set(err, rc == TB_ERR_TIMEOUT ? rc : TB_ERR_SYS,
                            rc == TB_ERR_TIMEOUT
                                ? "%s: no reed board answered in %d s (another device?)"
                                : "%s: the line hung up while asked (unplugged?)",
                            path, TB_LINK__PROBE_MS / 1000);
    *out = (struct tb_link_reed_identity){p.info.serial,   p.info.fw_major,      p.info.fw_minor,
                                          p.info.fw_patch, p.info.proto_version, p.pty};
    if (set_id && p.info.serial != set_id)
        return tb_error_set(err, TB_ERR_ILLEGAL,
                            "%s: the board keeps the identity %lu it has (an identity is set "
                            "once)",
                            path, (unsigned long)p.info.serial);
    return TB_OK;
}
