/* paths.c - where the control socket and the state (journals, the arbiter's PIN file) go by
 * default, and the check of the directories that hold them: never /tmp or another directory
 * every user may write to (docs/configuration.md, "Where things go"). */
#define _GNU_SOURCE /* O_DIRECTORY, O_NOFOLLOW */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb_config.h"

void tb_config_place_from_env(struct tb_config_place *p)
{
    memset(p, 0, sizeof *p);
    p->runtime_dir = getenv("XDG_RUNTIME_DIR");
    p->state_home = getenv("XDG_STATE_HOME");
    p->home = getenv("HOME");
    uid_t me = geteuid();
    p->service = me == 0 || tb_config_service_uid() == (long)me;
}

/* An absolute path that leaves room for what goes below it. */
static bool usable(const char *dir, size_t room)
{
    return dir && dir[0] == '/' && strlen(dir) + room < TB_CONFIG_PATH_MAX;
}

void tb_config_default_paths(struct tb_config *cfg, const struct tb_config_place *p)
{
    cfg->socket_path[0] = cfg->journal_dir[0] = '\0'; /* "": no usable default */
    if (p->service) {
        snprintf(cfg->socket_path, sizeof cfg->socket_path, "%s", TB_CONFIG_SERVICE_SOCKET);
        snprintf(cfg->journal_dir, sizeof cfg->journal_dir, "%s", TB_CONFIG_SERVICE_STATE);
        return;
    }
    /* sun_path holds 108 bytes with the NUL */
    if (usable(p->runtime_dir, 0) && strlen(p->runtime_dir) + sizeof "/twinboard/control" <= 108)
        snprintf(cfg->socket_path, sizeof cfg->socket_path, "%s/twinboard/control", p->runtime_dir);
    if (usable(p->state_home, 16))
        snprintf(cfg->journal_dir, sizeof cfg->journal_dir, "%s/twinboard", p->state_home);
    else if (usable(p->home, 32))
        snprintf(cfg->journal_dir, sizeof cfg->journal_dir, "%s/.local/state/twinboard", p->home);
}

int tb_config_require_paths(const struct tb_config *cfg, struct tb_error *err)
{
    if (!cfg->socket_path[0])
        return tb_error_set(err, TB_ERR_NOTFOUND,
                            "no place for the control socket: XDG_RUNTIME_DIR is not set (or not "
                            "an absolute path) and this is not the service (root or the user "
                            "%s); set socket = PATH in [daemon] of the configuration (a "
                            "directory only this user may write to, never /tmp), or --socket "
                            "PATH",
                            TB_CONFIG_SERVICE_USER);
    if (!cfg->journal_dir[0])
        return tb_error_set(err, TB_ERR_NOTFOUND,
                            "no place for the journals: neither XDG_STATE_HOME nor HOME is set "
                            "(as an absolute path); set journal_dir = DIR in [daemon] of the "
                            "configuration, or --journal DIR");
    return TB_OK;
}

/* What is wrong with a directory: "" when it is owned by this user or root and no other user
 * may write to it. */
static const char *fault(const struct stat *st, long also, char *buf, size_t len)
{
    uid_t me = geteuid();
    if (!S_ISDIR(st->st_mode))
        return "it is not a directory";
    if (st->st_uid != me && st->st_uid != 0 && (also < 0 || st->st_uid != (uid_t)also)) {
        snprintf(buf, len, "it belongs to uid %u, not to this user (uid %u) or root",
                 (unsigned)st->st_uid, (unsigned)me);
        return buf;
    }
    if (st->st_mode & S_IWOTH)
        return "every user may write to it (mode o+w)";
    if (st->st_mode & S_IWGRP)
        return "its group may write to it (mode g+w)";
    return "";
}

/* The directories above dir: each must be owned by this user, root or also, and one its group
 * or every user may write to must have the sticky bit (/tmp), so no other user can rename the
 * checked directory away and put another in its place. Links above it are followed
 * (/var/run -> /run). */
static int check_above(const char *dir, const char *what, long also, struct tb_error *err)
{
    char up[TB_CONFIG_PATH_MAX];
    snprintf(up, sizeof up, "%s", dir);
    for (char *slash = strrchr(up, '/'); slash; slash = strrchr(up, '/')) {
        slash[slash == up ? 1 : 0] = '\0';
        struct stat st;
        if (stat(up, &st) != 0)
            return tb_error_set(err, TB_ERR_SYS, "%s directory %s: %s: %s", what, dir, up,
                                strerror(errno));
        uid_t me = geteuid();
        bool owner = st.st_uid == me || st.st_uid == 0 || (also >= 0 && st.st_uid == (uid_t)also);
        if (!owner || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
            return tb_error_set(err, TB_ERR_PERM, "%s directory %s is not safe: %s above it %s",
                                what, dir, up,
                                !owner ? "belongs to another user"
                                       : "may be written by other users without the sticky bit");
        if (slash == up)
            break;
    }
    return TB_OK;
}

/* Opens dir without following a symbolic link and says what is wrong with it. */
static int check_open(const char *dir, const char *what, long also, struct tb_error *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ELOOP || e == ENOTDIR)
            if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
                return tb_error_set(err, TB_ERR_PERM,
                                    "%s directory %s is a symbolic link: not followed (make it "
                                    "a directory, or name the real one)",
                                    what, dir);
        errno = e;
        return tb_error_set(err, e == ENOENT ? TB_ERR_NOTFOUND : TB_ERR_SYS, "%s directory %s: %s",
                            what, dir, strerror(e));
    }
    struct stat st;
    char why[120];
    const char *f = fstat(fd, &st) == 0 ? fault(&st, also, why, sizeof why) : strerror(errno);
    close(fd);
    if (f[0])
        return tb_error_set(err, TB_ERR_PERM, "%s directory %s is not safe: %s", what, dir, f);
    return check_above(dir, what, also, err);
}

/* The directory of path (path itself when is_dir), into buf. */
static int dir_of(const char *path, bool is_dir, char *buf, size_t len, const char *what,
                  struct tb_error *err)
{
    if (path[0] != '/' || strlen(path) >= len)
        return tb_error_set(err, TB_ERR_ARG, "%s %s: not an absolute path shorter than %zu bytes",
                            what, path, len);
    strcpy(buf, path);
    if (!is_dir) {
        char *slash = strrchr(buf, '/');
        slash[slash == buf ? 1 : 0] = '\0';
    }
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    return TB_OK;
}

int tb_config_check_dir(const char *path, bool is_dir, const char *what, long also_uid,
                        struct tb_error *err)
{
    char dir[TB_CONFIG_PATH_MAX];
    int rc = dir_of(path, is_dir, dir, sizeof dir, what, err);
    return rc != TB_OK ? rc : check_open(dir, what, also_uid, err);
}

long tb_config_service_uid(void)
{
    const struct passwd *pw = getpwnam(TB_CONFIG_SERVICE_USER);
    return pw ? (long)pw->pw_uid : -1;
}

int tb_config_make_dir(const char *path, bool is_dir, unsigned mode, const char *what,
                       struct tb_error *err)
{
    char dir[TB_CONFIG_PATH_MAX];
    int rc = dir_of(path, is_dir, dir, sizeof dir, what, err);
    if (rc != TB_OK)
        return rc;
    /* missing parents (~/.local/state) as the XDG base directory rules make them: 0700 */
    for (char *s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            int e = errno;
            *s = '/';
            return tb_error_set(err, TB_ERR_SYS, "%s directory %s: cannot create it: %s", what, dir,
                                strerror(e));
        }
        *s = '/';
    }
    /* mkdir makes a new directory or fails: it never follows a link planted at the path */
    if (mkdir(dir, (mode_t)mode) != 0 && errno != EEXIST) {
        int e = errno;
        return tb_error_set(err, TB_ERR_SYS, "%s directory %s: cannot create it: %s", what, dir,
                            strerror(e));
    }
    return check_open(dir, what, -1, err);
}
