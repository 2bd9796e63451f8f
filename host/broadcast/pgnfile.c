/* pgnfile.c - a file replaced atomically: readers see the old text or the new, never half. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
