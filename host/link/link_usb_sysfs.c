/* link_usb_sysfs.c - finding the tty of a USB board in sysfs, by vendor, product and serial
 * number: /sys/bus/usb/devices/<dev>/{idVendor,idProduct,serial} and the tty under one of its
 * interfaces, <dev>:<cfg>.<intf>/tty/ttyACM0 (CDC ACM) or <dev>:<cfg>.<intf>/ttyUSB0 (USB
 * serial converters: FTDI, CH340, CP210x). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "link_internal.h"

/* Room for any sysfs path we build; a longer one cannot name a board and is passed over. */
enum { PATH_LEN = 512 };

/* dir/name into out; false when it does not fit. */
static bool join(char *out, size_t len, const char *dir, const char *name)
{
    int n = snprintf(out, len, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < len;
}

/* The first line of a small sysfs attribute, without its newline; "" when absent. */
static void read_attr(const char *dir, const char *name, char *out, size_t len)
{
    char path[PATH_LEN];
    out[0] = '\0';
    if (!join(path, sizeof path, dir, name))
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\r\n")] = '\0';
    fclose(f);
}

static bool hex_is(const char *s, uint16_t v)
{
    unsigned x;
    return sscanf(s, "%4x", &x) == 1 && x == v;
}

/* The tty of one interface directory, if it has one. */
static bool interface_tty(const char *intf, char *tty, size_t len)
{
    /* <intf>/tty/ttyACM0 (CDC ACM) first, then <intf>/ttyUSB0 (serial converters) */
    char sub[PATH_LEN];
    bool has_sub = join(sub, sizeof sub, intf, "tty");
    const char *dirs[] = {sub, intf};
    for (int i = has_sub ? 0 : 1; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, "tty", 3) == 0 && e->d_name[3] &&
                join(tty, len, "/dev", e->d_name)) {
                closedir(d);
                return true;
            }
        }
        closedir(d);
    }
    return false;
}

int tb_link__usb_find_tty(const char *sysfs_root, uint16_t vid, uint16_t pid, const char *serial,
                          char *tty, size_t tty_len, char *dev, size_t dev_len)
{
    char base[PATH_LEN];
    if (!join(base, sizeof base, sysfs_root, "bus/usb/devices"))
        return TB_ERR_NOTFOUND;
    DIR *d = opendir(base);
    if (!d)
        return TB_ERR_NOTFOUND;
    int rc = TB_ERR_NOTFOUND;
    struct dirent *e;
    while (rc != TB_OK && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strchr(e->d_name, ':'))
            continue; /* interfaces are looked at through their device */
        char devdir[PATH_LEN], attr[128];
        if (!join(devdir, sizeof devdir, base, e->d_name))
            continue;
        read_attr(devdir, "idVendor", attr, sizeof attr);
        if (!hex_is(attr, vid))
            continue;
        read_attr(devdir, "idProduct", attr, sizeof attr);
        if (!hex_is(attr, pid))
            continue;
        read_attr(devdir, "serial", attr, sizeof attr);
        if (serial && *serial && strcmp(attr, serial) != 0)
            continue;
        rc = TB_ERR_AGAIN; /* the device is there; its driver may not have made the tty yet */
        DIR *dd = opendir(devdir);
        if (!dd)
            continue;
        struct dirent *i;
        size_t nl = strlen(e->d_name);
        while ((i = readdir(dd))) {
            if (strncmp(i->d_name, e->d_name, nl) != 0 || i->d_name[nl] != ':')
                continue;
            char intf[PATH_LEN];
            if (join(intf, sizeof intf, devdir, i->d_name) && interface_tty(intf, tty, tty_len)) {
                snprintf(dev, dev_len, "%s", e->d_name);
                rc = TB_OK;
                break;
            }
        }
        closedir(dd);
    }
    closedir(d);
    return rc;
}
