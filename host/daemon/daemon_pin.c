/* daemon_pin.c - the arbiter PIN changed without a restart (docs/control-protocol.md, "The
 * PIN"): `set-pin <new> pin=<current>` passes the guard like every PIN request, then the new PIN
 * is kept in JOURNAL_DIR/arbiter-pin (0600, written to a new file, synced, renamed) and used at
 * once. At start that file replaces the configured PIN as long as the configuration's PIN is
 * the one it replaced; once the configuration names another PIN, the configuration wins. The
 * log says who changed it (uid, pid), never the PIN. The guard's delays and lockouts stay as they
 * are: a change clears nothing but the count of the uid that gave the right PIN. */
#define _GNU_SOURCE /* O_NOFOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon_ctl.h"
#include "daemon_shell.h"
#include "tb_str.h"

#define PIN_FILE "arbiter-pin"

/* Which configured PIN a kept PIN replaced, without writing that PIN down (FNV-1a). */
static unsigned long long replaced_tag(const char *pin)
{
    unsigned long long h = 0xcbf29ce484222325ull;
    for (const char *s = "twinboard arbiter pin:"; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    for (; *pin; pin++)
        h = (h ^ (unsigned char)*pin) * 0x100000001b3ull;
    return h;
}

static void pin_path(const struct tb_daemon *d, char *buf, size_t len)
{
    snprintf(buf, len, "%s/" PIN_FILE, d->cfg->journal_dir);
}

/* Reads the kept PIN: 0 and pin filled, 1 none kept, or a problem told in why. */
static int read_kept(const char *path, char *pin, unsigned long long *tag, char *why, size_t len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        snprintf(why, len, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    char buf[256];
    ssize_t n = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077)) {
        snprintf(why, len, "not a regular file of this user readable by it alone (mode 0600)");
        close(fd);
        return -1;
    }
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    /* "# comment\nPIN\nTAG\n" */
    char *line = strchr(buf, '\n'), *end;
    if (buf[0] != '#' || !line || sscanf(line + 1, "%8[0-9]", pin) != 1 ||
        strlen(pin) < TB_CTL_PIN_MIN || !(line = strchr(line + 1, '\n'))) {
        snprintf(why, len, "not a PIN file written by set-pin");
        return -1;
    }
    errno = 0;
    *tag = strtoull(line + 1, &end, 16);
    if (errno || end == line + 1) {
        snprintf(why, len, "not a PIN file written by set-pin");
        return -1;
    }
    return 0;
}

void tb_daemon__pin_start(struct tb_daemon *d)
{
    char path[TB_CONFIG_PATH_MAX + 32], why[128], pin[TB_CTL_PIN_MAX + 1] = "";
    unsigned long long tag;
    pin_path(d, path, sizeof path);
    int rc = read_kept(path, pin, &tag, why, sizeof why);
    if (rc < 0) {
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "arbiter PIN file %s: %s; the configuration's PIN is used", path, why);
    } else if (rc == 0 && d->cfg->arbiter_pin[0] && tag == replaced_tag(d->cfg->arbiter_pin)) {
        snprintf(d->cfg->arbiter_pin, sizeof d->cfg->arbiter_pin, "%s", pin);
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "arbiter PIN: the one set with set-pin (%s), not the configuration's", path);
    } else if (rc == 0) {
        unlink(path);
        tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                       "arbiter PIN: the configuration names another PIN than the one set-pin "
                       "replaced: the configuration's is used (%s removed)",
                       path);
    }
}

/* Writes the kept PIN: a new file, synced, renamed over the old one, the directory synced. */
static int keep(struct tb_daemon *d, const char *pin, const char *configured, struct tb_error *err)
{
    char path[TB_CONFIG_PATH_MAX + 32], tmp[TB_CONFIG_PATH_MAX + 48], text[256];
    pin_path(d, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    unlink(tmp); /* left by a crash: made anew below with O_EXCL */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS,
                            "the new PIN cannot be kept in %s: %s; nothing "
                            "changed",
                            tmp, strerror(errno));
    time_t now = time(NULL);
    char when[32] = "";
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int n = snprintf(text, sizeof text,
                     "# twinboardd: the arbiter PIN set with set-pin at %s; it replaces the "
                     "configured PIN while the configuration names the one it replaced\n%s\n"
                     "%llx\n",
                     when, pin, replaced_tag(configured));
    bool ok = write(fd, text, (size_t)n) == n && fsync(fd) == 0;
    int e = errno;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlink(tmp);
        return tb_error_set(err, TB_ERR_SYS,
                            "the new PIN cannot be kept in %s: %s; nothing "
                            "changed",
                            path, strerror(e));
    }
    int dfd = open(d->cfg->journal_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return TB_OK;
}

int tb_daemon__set_pin(struct tb_daemon *d, const struct tb_ctl_request *req, uint32_t uid,
                       int32_t pid, const char *configured, char *note, size_t len,
                       struct tb_error *err)
{
    if (tb_ctl_pin_equal(d->cfg->arbiter_pin, req->text))
        return tb_error_set(err, TB_ERR_STATE, "the new PIN is the PIN in use: nothing changed");
    int rc = keep(d, req->text, configured, err);
    if (rc != TB_OK) {
        tb_daemon__log(d, TB_CONFIG_LOG_ERROR, "set-pin from uid %u pid %d: %s", (unsigned)uid,
                       (int)pid, err->msg);
        return rc;
    }
    tb_str_copy(d->cfg->arbiter_pin, sizeof d->cfg->arbiter_pin, req->text); /* checked by keep() */
    tb_daemon__log(d, TB_CONFIG_LOG_WARN,
                   "arbiter PIN changed by uid %u pid %d (%zu digits), kept in %s/" PIN_FILE,
                   (unsigned)uid, (int)pid, strlen(req->text), d->cfg->journal_dir);
    snprintf(note, len, "the arbiter PIN is changed");
    return TB_OK;
}
