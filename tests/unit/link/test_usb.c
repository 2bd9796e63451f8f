/* Tests of the usb: link without hardware: the sysfs lookup against a made-up sysfs tree, and
 * what opening does on this machine (waiting for the board, or a clear refusal). */
#include <stdio.h>
#include <sys/stat.h>

#include "link_internal.h"
#include "tb_link.h"
#include "tb_test.h"

static void mkdirs(const char *root, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    mkdir(path, 0755);
}

static void attr(const char *root, const char *rel, const char *value)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "%s\n", value);
    fclose(f);
}

/* An Arduino (CDC ACM) in port 1-1.4, an FTDI adapter in 2-1, a second Arduino whose driver
 * has not made its tty yet in 1-2. */
static const char *fake_sysfs(void)
{
    static char root[512];
    snprintf(root, sizeof root, "%s/sys", tb_test_tmp_dir());
    const char *d = "bus/usb/devices";
    char rel[256];
    snprintf(rel, sizeof rel, "%s/usb1", d);
    mkdirs(root, rel);
    snprintf(rel, sizeof rel, "%s/1-1.4/1-1.4:1.0/tty/ttyACM3", d);
    mkdirs(root, rel);
    snprintf(rel, sizeof rel, "%s/1-1.4/1-1.4:1.1", d);
    mkdirs(root, rel);
    attr(root, "bus/usb/devices/1-1.4/idVendor", "2341");
    attr(root, "bus/usb/devices/1-1.4/idProduct", "0043");
    attr(root, "bus/usb/devices/1-1.4/serial", "95635333231351F0E1A1");
    snprintf(rel, sizeof rel, "%s/2-1/2-1:1.0/ttyUSB0", d);
    mkdirs(root, rel);
    attr(root, "bus/usb/devices/2-1/idVendor", "0403");
    attr(root, "bus/usb/devices/2-1/idProduct", "6001");
    attr(root, "bus/usb/devices/2-1/serial", "A50285BI");
    snprintf(rel, sizeof rel, "%s/1-2/1-2:1.0", d);
    mkdirs(root, rel);
    attr(root, "bus/usb/devices/1-2/idVendor", "2341");
    attr(root, "bus/usb/devices/1-2/idProduct", "0043");
    attr(root, "bus/usb/devices/1-2/serial", "SECONDBOARD");
    return root;
}

TB_TEST(sysfs_finds_the_tty_of_a_board_by_serial_number)
{
    const char *root = fake_sysfs();
    char tty[200], dev[64];
    ASSERT_OK(tb_link__usb_find_tty(root, 0x2341, 0x0043, "95635333231351F0E1A1", tty, sizeof tty,
                                    dev, sizeof dev));
    ASSERT_STR_EQ(tty, "/dev/ttyACM3");
    ASSERT_STR_EQ(dev, "1-1.4");
    ASSERT_OK(
        tb_link__usb_find_tty(root, 0x0403, 0x6001, "A50285BI", tty, sizeof tty, dev, sizeof dev));
    ASSERT_STR_EQ(tty, "/dev/ttyUSB0"); /* a USB serial converter: tty right in the interface */
    ASSERT_STR_EQ(dev, "2-1");
}

TB_TEST(sysfs_tells_missing_board_from_board_without_tty_yet)
{
    const char *root = fake_sysfs();
    char tty[200], dev[64];
    ASSERT_EQ(tb_link__usb_find_tty(root, 0x2341, 0x0043, "SECONDBOARD", tty, sizeof tty, dev,
                                    sizeof dev),
              TB_ERR_AGAIN);
    ASSERT_EQ(
        tb_link__usb_find_tty(root, 0x2341, 0x0043, "UNKNOWN", tty, sizeof tty, dev, sizeof dev),
        TB_ERR_NOTFOUND);
    ASSERT_EQ(tb_link__usb_find_tty(root, 0x1a86, 0x7523, "", tty, sizeof tty, dev, sizeof dev),
              TB_ERR_NOTFOUND);
    ASSERT_EQ(
        tb_link__usb_find_tty("/nonexistent", 0x2341, 0x0043, "", tty, sizeof tty, dev, sizeof dev),
        TB_ERR_NOTFOUND);
}

TB_TEST(sysfs_without_serial_takes_any_board_with_a_tty)
{
    const char *root = fake_sysfs();
    char tty[200], dev[64];
    ASSERT_OK(tb_link__usb_find_tty(root, 0x2341, 0x0043, "", tty, sizeof tty, dev, sizeof dev));
    ASSERT_STR_EQ(tty, "/dev/ttyACM3");
}

/* Hot-plug: with no such board plugged in, the link opens and reports the board missing
 * (TB_LINK_EV_LOST), to report it back when it arrives; where USB hot-plug cannot work the
 * open fails with a message saying so. Either way, nothing crashes and nothing is silent. */
TB_TEST(usb_open_waits_for_a_missing_board_or_refuses_clearly)
{
    struct tb_link *l;
    struct tb_error e = {0};
    int rc = tb_link_open(&l, "usb:2341:0043:NOSUCHBOARD0", "vi", 100, &e);
    if (rc == TB_ERR_SUPP) {
        ASSERT_STR_CONTAINS(e.msg, "usb:2341:0043");
        ASSERT_STR_CONTAINS(e.msg, "serial:");
        return;
    }
    ASSERT_OK(rc);
    ASSERT_GE(tb_link_fd(l), 0);
    struct tb_link_event ev[4];
    ASSERT_EQ(tb_link_read(l, 100, ev, 4, NULL), 1);
    ASSERT_EQ(ev[0].kind, TB_LINK_EV_LOST);
    ASSERT_STR_CONTAINS(ev[0].text, "waiting for USB board 2341:0043 serial NOSUCHBOARD0");
    ASSERT_U64_EQ(tb_link_deadline(l), TB_LINK_NO_DEADLINE); /* hot-plug wakes it, not a timer */
    struct tb_link_stats st;
    tb_link_stats(l, &st);
    ASSERT_FALSE(st.connected);
    ASSERT_EQ(tb_link_request_snapshot(l, &e), TB_ERR_STATE);
    tb_link_close(l);
}
