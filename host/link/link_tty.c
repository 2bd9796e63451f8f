/* link_tty.c - opening a board's tty raw 8N1 and non-blocking: a real serial device through
 * libserialport, a pseudo-terminal (a simulator) directly. Shared by the reed links and dgt:. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libserialport.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <termios.h>
#include <unistd.h>

#include "link_internal.h"

static speed_t speed_of(int baud)
{
    return baud == 9600 ? B9600 : baud == 38400 ? B38400 : B115200;
}

static int open_pty(const char *scheme, const char *path, int baud, int *out, struct tb_error *err)
{
    int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return tb_error_set(err, TB_ERR_SYS, "%s:%s: %s", scheme, path, strerror(errno));
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "%s:%s: not a terminal: %s", scheme, path,
                            strerror(e));
    }
    /* Raw 8N1: no echo, no line editing, no character translation. */
    t.c_iflag &=
        ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB);
    t.c_cflag |= CS8 | CLOCAL | CREAD;
    t.c_cc[VMIN] = 1; /* with O_NONBLOCK: EAGAIN when empty, so 0 can only mean hang-up */
    t.c_cc[VTIME] = 0;
    cfsetispeed(&t, speed_of(baud));
    cfsetospeed(&t, speed_of(baud));
    if (tcsetattr(fd, TCSANOW, &t) != 0) {
        int e = errno;
        close(fd);
        return tb_error_set(err, TB_ERR_SYS, "%s:%s: cannot set raw mode: %s", scheme, path,
                            strerror(e));
    }
    *out = fd;
    return TB_OK;
}

static int open_serial(const char *scheme, const char *path, int baud, bool seven_odd, int *out,
                       struct sp_port **out_port, struct tb_error *err)
{
    struct sp_port *port = NULL;
    const char *step = "no such port";
    if (sp_get_port_by_name(path, &port) != SP_OK)
        goto fail;
    step = "cannot open";
    if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK)
        goto fail;
    step = seven_odd ? "cannot set the speed and 7O1" : "cannot set the speed and 8N1";
    if (sp_set_baudrate(port, baud) != SP_OK || sp_set_bits(port, seven_odd ? 7 : 8) != SP_OK ||
        sp_set_parity(port, seven_odd ? SP_PARITY_ODD : SP_PARITY_NONE) != SP_OK ||
        sp_set_stopbits(port, 1) != SP_OK || sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) != SP_OK)
        goto fail;
    int fd;
    step = "no file descriptor";
    if (sp_get_port_handle(port, &fd) != SP_OK)
        goto fail;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0)
        goto fail;
    /* As for a pty: VMIN 1 so an empty line reads as EAGAIN and 0 only as hang-up. */
    struct termios t;
    step = "cannot set VMIN";
    if (tcgetattr(fd, &t) != 0)
        goto fail;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &t) != 0)
        goto fail;
    *out_port = port;
    *out = fd;
    return TB_OK;
fail:;
    char *msg = sp_last_error_message();
    tb_error_set(err, TB_ERR_SYS, "%s:%s: %s: %s", scheme, path, step, msg ? msg : "?");
    sp_free_error_message(msg);
    if (port) {
        sp_close(port);
        sp_free_port(port);
    }
    return TB_ERR_SYS;
}

int tb_link__tty_open_framed(const char *scheme, const char *path, int baud, bool seven_odd,
                             bool serialport, int *fd, struct sp_port **port, struct tb_error *err)
{
    *fd = -1;
    *port = NULL;
    return serialport ? open_serial(scheme, path, baud, seven_odd, fd, port, err)
                      : open_pty(scheme, path, baud, fd, err);
}

int tb_link__tty_open(const char *scheme, const char *path, int baud, bool serialport, int *fd,
                      struct sp_port **port, struct tb_error *err)
{
    return tb_link__tty_open_framed(scheme, path, baud, false, serialport, fd, port, err);
}

int tb_link__tty_lock(int fd)
{
    int rc;
    do
        rc = flock(fd, LOCK_EX | LOCK_NB);
    while (rc != 0 && errno == EINTR);
    return rc == 0 ? TB_OK : TB_ERR_STATE;
}

void tb_link__tty_close(int *fd, struct sp_port **port)
{
    if (*port) {
        sp_close(*port);
        sp_free_port(*port);
        *port = NULL;
    } else if (*fd >= 0) {
        close(*fd);
    }
    *fd = -1;
}

bool tb_link__find_named(const char *udev_name, const char *const *words, char *out, size_t len)
{
    char path[300];
    snprintf(path, sizeof path, "%.200s/%s", tb_link_dev_dir(), udev_name);
    if (access(path, F_OK) == 0) { /* the package's udev rule names it */
        snprintf(out, len, "%s", path);
        return true;
    }
    DIR *d = opendir("/dev/serial/by-id");
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d))) {
        char up[256];
        size_t i = 0;
        for (; e->d_name[i] && i + 1 < sizeof up; i++)
            up[i] = (char)toupper((unsigned char)e->d_name[i]);
        up[i] = '\0';
        for (size_t w = 0; words[w] && !found; w++)
            found = strstr(up, words[w]) != NULL;
        if (found)
            snprintf(out, len, "/dev/serial/by-id/%.200s", e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}
