/* pgnfile.c - a file replaced atomically: readers see the old text or the new, never half; and
 * the temporary files of a writer that was killed mid-write, removed at the next game's start. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "broadcast_internal.h"

static int fail(struct tb_error *err, const char *step, const char *path)
{
    int e = errno;
    tb_error_set(err, TB_ERR_SYS, "live PGN: cannot %s %s: %s", step, path, strerror(e));
    errno = e;
    return TB_ERR_SYS;
}

int tb_broadcast__write_atomic(const char *path, const char *text, size_t n, struct tb_error *err)
{
    char tmp[4096], dir[4096];
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path) : 1;
    if (snprintf(dir, sizeof dir, "%.*s", dl, slash ? path : ".") >= (int)sizeof dir ||
        snprintf(tmp, sizeof tmp, "%.*s/.%s.XXXXXX", dl, slash ? path : ".",
                 slash ? slash + 1 : path) >= (int)sizeof tmp)
        return tb_error_set(err, TB_ERR_ARG, "live PGN: path too long: %s", path);
    if (slash == path)
        strcpy(dir, "/");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return fail(err, "create a file beside", path);
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int rc = fail(err, "write", tmp);
            close(fd);
            unlink(tmp);
            return rc;
        }
        done += (size_t)w;
    }
    /* Readable by a web server or a follower running as another user. */
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
        int rc = fail(err, "sync", tmp);
        close(fd);
        unlink(tmp);
        return rc;
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        int rc = fail(err, "rename to", path);
        unlink(tmp);
        return rc;
    }
    /* The rename itself reaches the disk with the directory. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd < 0)
        return fail(err, "open the directory of", path);
    int rc = fsync(dfd);
    close(dfd);
    return rc == 0 ? TB_OK : fail(err, "sync the directory of", path);
}

/* ".<name>.pgn.XXXXXX": a temporary file of write_atomic (mkstemp's six characters). */
static bool temp_name(const char *n)
{
    size_t len = strlen(n);
    if (n[0] != '.' || len < 1 + 5 + 7 || memcmp(n + len - 11, ".pgn.", 5) != 0)
        return false;
    for (size_t i = len - 6; i < len; i++)
        if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'z') ||
              (n[i] >= 'A' && n[i] <= 'Z')))
            return false;
    return true;
}

int tb_broadcast__clean_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        /* only this user's regular files, untouched for a minute: another table's writer
           sharing the directory may be writing one of its own just now */
        if (!temp_name(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
            now - st.st_mtime < TB_BROADCAST__TEMP_AGE_S)
            continue;
        removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    closedir(d);
    return removed;
}
