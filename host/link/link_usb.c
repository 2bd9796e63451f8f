/* link_usb.c - usb: a reed board found by USB vendor:product[:serial], in any port.
 *
 * libusb's hot-plug callbacks say when a matching device arrives or leaves; the board's tty is
 * then found through sysfs (link_usb_sysfs.c) and spoken to like serial: (link_reed.c). The fd
 * the daemon polls is an epoll set holding libusb's own fds and the board's tty. Leaving
 * (unplugged) is TB_LINK_EV_LOST; coming back, under any port, is TB_LINK_EV_BACK and the board
 * is re-read with a snapshot. Without hot-plug support the link refuses to open. */
#include <errno.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "link_internal.h"

#define SEARCH_MS       5000 /* how long after arrival to wait for the tty to appear */
#define SEARCH_EVERY_MS 100

struct usb {
    libusb_context *ctx;
    libusb_hotplug_callback_handle hotplug;
    bool hotplug_registered;
    int epfd;
    int watched; /* the tty fd in the epoll set, -1 if none */
    struct tb_link_resource res;
    struct tb_link__reed reed;
    char dev[64]; /* sysfs name of the connected device ("1-1.4") */
    bool searching;
    uint64_t search_until, next_search;
    uint64_t now_ms;
};

static void watch(struct usb *u, int fd, bool add)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(u->epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &ev);
}

static void fd_added(int fd, short events, void *user)
{
    (void)events;
    watch(user, fd, true);
}

static void fd_removed(int fd, void *user)
{
    watch(user, fd, false);
}

/* Keeps the epoll set in step with the reed board's tty. */
static void sync_tty(struct usb *u)
{
    if (u->watched == u->reed.fd)
        return;
    if (u->watched >= 0)
        watch(u, u->watched, false);
    if (u->reed.fd >= 0)
        watch(u, u->reed.fd, true);
    u->watched = u->reed.fd;
}

static void device_name(libusb_device *d, char *buf, size_t len)
{
    uint8_t ports[8];
    int n = libusb_get_port_numbers(d, ports, sizeof ports);
    size_t o = (size_t)snprintf(buf, len, "%u", libusb_get_bus_number(d));
    for (int i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%c%u", i ? '.' : '-', ports[i]);
}

static int LIBUSB_CALL hotplug(libusb_context *ctx, libusb_device *d, libusb_hotplug_event what,
                               void *user)
{
    (void)ctx;
    struct usb *u = user;
    if (what == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED) {
        if (!u->reed.connected) {
            u->searching = true;
            u->search_until = u->now_ms + SEARCH_MS;
            u->next_search = u->now_ms;
        }
    } else if (u->reed.connected) {
        char name[64];
        device_name(d, name, sizeof name);
        if (strcmp(name, u->dev) == 0) {
            char why[TB_LINK_TEXT_MAX];
            snprintf(why, sizeof why, "USB board %04x:%04x unplugged from %.20s", u->res.vid,
                     u->res.pid, name);
            tb_link__reed_disconnect(&u->reed, why);
            sync_tty(u);
        }
    }
    return 0; /* keep the callback */
}

/* Looks for the tty of our board and connects to it. */
static void search(struct usb *u)
{
    char tty[200];
    int rc = tb_link__usb_find_tty("/sys", u->res.vid, u->res.pid, u->res.serial, tty, sizeof tty,
                                   u->dev, sizeof u->dev);
    if (rc == TB_OK) {
        snprintf(u->reed.path, sizeof u->reed.path, "%s", tty);
        struct tb_error e;
        if (tb_link__reed_connect(&u->reed, u->now_ms, &e) == TB_OK) {
            u->searching = false;
            sync_tty(u);
            return;
        }
    }
    if (u->now_ms >= u->search_until) {
        u->searching = false;
        if (rc == TB_ERR_NOTFOUND)
            return; /* another board with the same vendor:product, not ours */
        struct tb_link_event f = {.kind = TB_LINK_EV_FAULT, .fault = TB_LINK_FAULT_DECODE};
        snprintf(f.text, sizeof f.text, "USB board %04x:%04x arrived but %s", u->res.vid,
                 u->res.pid, rc == TB_OK ? "its tty cannot be opened" : "has no tty");
        tb_link__queue_push(&u->reed.q, &f);
        return;
    }
    u->next_search = u->now_ms + SEARCH_EVERY_MS;
}

static int usb_open(struct tb_link *link, const struct tb_link_resource *res, uint64_t now_ms,
                    struct tb_error *err)
{
    struct usb *u = calloc(1, sizeof *u);
    if (!u)
        return tb_error_set(err, TB_ERR_MEM, "usb: out of memory");
    tb_link_set_priv(link, u);
    u->epfd = -1;
    u->watched = -1;
    u->res = *res;
    u->now_ms = now_ms;
    tb_link__reed_init(&u->reed, TB_LINK_SERIAL, "", false);
    int rc = libusb_init(&u->ctx);
    if (rc != 0) {
        u->ctx = NULL;
        return tb_error_set(err, TB_ERR_SUPP,
                            "usb:%04x:%04x: USB is not available here (%s); "
                            "name the board's port with serial: instead",
                            res->vid, res->pid, libusb_strerror(rc));
    }
    if (!libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG))
        return tb_error_set(err, TB_ERR_SUPP,
                            "usb:%04x:%04x: USB hot-plug is not available "
                            "here; name the board's port with serial: instead",
                            res->vid, res->pid);
    u->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (u->epfd < 0)
        return tb_error_set(err, TB_ERR_SYS, "usb: epoll: %s", strerror(errno));
    const struct libusb_pollfd **fds = libusb_get_pollfds(u->ctx);
    for (int i = 0; fds && fds[i]; i++)
        watch(u, fds[i]->fd, true);
    libusb_free_pollfds(fds);
    libusb_set_pollfd_notifiers(u->ctx, fd_added, fd_removed, u);
    /* ENUMERATE: a board already plugged in arrives now, inside this call. */
    rc = libusb_hotplug_register_callback(
        u->ctx, LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT,
        LIBUSB_HOTPLUG_ENUMERATE, res->vid, res->pid, LIBUSB_HOTPLUG_MATCH_ANY, hotplug, u,
        &u->hotplug);
    if (rc != LIBUSB_SUCCESS)
        return tb_error_set(err, TB_ERR_SUPP, "usb:%04x:%04x: cannot watch for the board: %s",
                            res->vid, res->pid, libusb_strerror(rc));
    u->hotplug_registered = true;
    if (u->searching)
        search(u);
    if (!u->reed.connected && !u->searching) {
        /* Not plugged in (yet): the daemon hears of it, and hears again when it arrives. */
        char why[TB_LINK_TEXT_MAX];
        snprintf(why, sizeof why, "waiting for USB board %04x:%04x%s%.40s", res->vid, res->pid,
                 res->serial[0] ? " serial " : "", res->serial);
        tb_link__reed_disconnect(&u->reed, why);
    }
    return TB_OK;
}

static int usb_fd(const struct tb_link *link)
{
    const struct usb *u = tb_link_priv(link);
    return u->epfd;
}

static uint64_t usb_deadline(const struct tb_link *link)
{
    const struct usb *u = tb_link_priv(link);
    uint64_t d = tb_link__reed_deadline(&u->reed);
    if (u->searching && u->next_search < d)
        d = u->next_search;
    return d;
}

static int usb_read(struct tb_link *link, uint64_t now_ms, struct tb_link_event *ev, int max,
                    struct tb_error *err)
{
    (void)err;
    struct usb *u = tb_link_priv(link);
    u->now_ms = now_ms;
    struct timeval zero = {0, 0};
    libusb_handle_events_timeout_completed(u->ctx, &zero, NULL);
    if (u->searching && now_ms >= u->next_search)
        search(u);
    int n = tb_link__reed_read(&u->reed, now_ms, ev, max);
    sync_tty(u);
    return n;
}

static int usb_request_snapshot(struct tb_link *link, struct tb_error *err)
{
    struct usb *u = tb_link_priv(link);
    return tb_link__reed_request_snapshot(&u->reed, err);
}

static void usb_stats(const struct tb_link *link, struct tb_link_stats *st)
{
    const struct usb *u = tb_link_priv(link);
    tb_link__reed_stats(&u->reed, st);
}

static void usb_close(struct tb_link *link)
{
    struct usb *u = tb_link_priv(link);
    if (!u)
        return;
    tb_link__reed_disconnect(&u->reed, NULL);
    if (u->ctx) {
        if (u->hotplug_registered)
            libusb_hotplug_deregister_callback(u->ctx, u->hotplug);
        libusb_set_pollfd_notifiers(u->ctx, NULL, NULL, NULL);
        libusb_exit(u->ctx);
    }
    if (u->epfd >= 0)
        close(u->epfd);
    free(u);
    tb_link_set_priv(link, NULL);
}

static unsigned usb_caps(const struct tb_link_resource *res)
{
    (void)res;
    return TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_HOTPLUG | TB_LINK_CAP_DEVICE;
}

const struct tb_link_ops tb_link__usb_ops = {
    .scheme = "usb",
    .caps = usb_caps,
    .open = usb_open,
    .fd = usb_fd,
    .deadline = usb_deadline,
    .read = usb_read,
    .request_snapshot = usb_request_snapshot,
    .stats = usb_stats,
    .close = usb_close,
};
