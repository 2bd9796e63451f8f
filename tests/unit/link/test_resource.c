/* Tests of resource strings and of the null and keys links. */
#include "tb_link.h"
#include "tb_test.h"

TB_TEST(good_resource_strings_parse)
{
    static const struct {
        const char *s;
        enum tb_link_kind kind;
        const char *path;
        unsigned vid, pid;
        const char *serial;
        bool fast;
    } good[] = {
        {"serial:/dev/ttyUSB0", TB_LINK_SERIAL, "/dev/ttyUSB0", 0, 0, "", false},
        {"serial:/dev/serial/by-id/usb-x", TB_LINK_SERIAL, "/dev/serial/by-id/usb-x", 0, 0, "",
         false},
        {"usb:2341:0043:SERIALNO", TB_LINK_USB, "", 0x2341, 0x0043, "SERIALNO", false},
        {"usb:1A86:7523", TB_LINK_USB, "", 0x1a86, 0x7523, "", false},
        {"usb:2341:0043:95635333231351F0E1A1", TB_LINK_USB, "", 0x2341, 0x43,
         "95635333231351F0E1A1", false},
        {"sim:games/opening.script", TB_LINK_SIM, "games/opening.script", 0, 0, "", false},
        {"sim:/tmp/a.script?speed=fast", TB_LINK_SIM, "/tmp/a.script", 0, 0, "", true},
        {"sim:a.script?speed=realtime", TB_LINK_SIM, "a.script", 0, 0, "", false},
        {"pty:/dev/pts/5", TB_LINK_PTY, "/dev/pts/5", 0, 0, "", false},
        {"keys:", TB_LINK_KEYS, "", 0, 0, "", false},
        {"null:", TB_LINK_NULL, "", 0, 0, "", false},
        {"dgt:/dev/ttyACM0", TB_LINK_DGT, "/dev/ttyACM0", 0, 0, "", false},
        {"dgt:/dev/rfcomm0", TB_LINK_DGT, "/dev/rfcomm0", 0, 0, "", false},
        {"dgt:auto", TB_LINK_DGT, "auto", 0, 0, "", false},
        {"chesslink:/dev/ttyUSB0", TB_LINK_CHESSLINK, "/dev/ttyUSB0", 0, 0, "", false},
        {"chesslink:auto", TB_LINK_CHESSLINK, "auto", 0, 0, "", false},
        {"chessnut:auto", TB_LINK_CHESSNUT, "auto", 0, 0, "", false},
        {"chessnut:/dev/hidraw3", TB_LINK_CHESSNUT, "/dev/hidraw3", 0, 0, "", false},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct tb_link_resource r;
        struct tb_error e = {0};
        int rc = tb_link_resource_parse(good[i].s, &r, &e);
        if (rc != TB_OK)
            TB_FAIL("%s: %s", good[i].s, e.msg);
        ASSERT_EQ(r.kind, good[i].kind);
        ASSERT_STR_EQ(r.path, good[i].path);
        ASSERT_EQ(r.vid, good[i].vid);
        ASSERT_EQ(r.pid, good[i].pid);
        ASSERT_STR_EQ(r.serial, good[i].serial);
        ASSERT_EQ(r.fast, good[i].fast);
    }
}

TB_TEST(bad_resource_strings_name_the_problem)
{
    static const struct {
        const char *s, *msg;
    } bad[] = {
        {"", "expected KIND:ARGUMENT"},
        {"/dev/ttyUSB0", "expected KIND:ARGUMENT"},
        {"tty:/dev/ttyUSB0", "unknown kind 'tty'"},
        {"Serial:/dev/ttyUSB0", "unknown kind 'Serial'"},
        {"serial:", "needs an absolute device path"},
        {"serial:ttyUSB0", "needs an absolute device path"},
        {"pty:", "needs an absolute device path"},
        {"usb:", "needs VID:PID"},
        {"usb:2341", "needs VID:PID"},
        {"usb:234:0043", "vendor id must be 4 hex digits"},
        {"usb:2341:43", "product id must be 4 hex digits"},
        {"usb:23g1:0043", "vendor id must be 4 hex digits"},
        {"usb:2341:0043:", "empty USB serial number"},
        {"usb:2341:0043:AB:CD", "may not contain ':'"},
        {"sim:", "needs a script file"},
        {"sim:?speed=fast", "needs a script file"},
        {"sim:a.script?speed=slow", "unknown option 'speed=slow'"},
        {"keys:alice", "takes no argument"},
        {"null:x", "takes no argument"},
        {"dgt:", "needs an absolute device path or auto"},
        {"dgt:ttyACM0", "needs an absolute device path or auto"},
        {"dgt:Auto", "needs an absolute device path or auto"},
        {"chesslink:ttyUSB0", "chesslink: needs an absolute device path or auto"},
        {"chessnut:", "chessnut: needs an absolute device path or auto"},
        {"serial:/dev/tty\x01", "control characters"},
        {"reed:", "needs the board's identity, e.g. reed:id=1234"},
        {"reed:1234", "needs the board's identity"},
        {"reed:id=", "needs the board's identity"},
        {"reed:id=0", "a number from 1 to 4294967294"},
        {"reed:id=4294967295", "a number from 1 to 4294967294"},
        {"reed:id=99999999999999999999999", "a number from 1 to 4294967294"},
        {"reed:id=12a", "a number from 1 to 4294967294"},
        {"reed:id=-5", "a number from 1 to 4294967294"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_link_resource r = {.kind = TB_LINK_KEYS, .path = "untouched"};
        struct tb_error e = {0};
        ASSERT_EQ(tb_link_resource_parse(bad[i].s, &r, &e), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(e.msg, bad[i].msg);
        ASSERT_STR_EQ(r.path, "untouched"); /* nothing written on failure */
        ASSERT_EQ(r.kind, TB_LINK_KEYS);
    }
}

TB_TEST(reed_resource_names_a_board_by_its_identity)
{
    struct tb_link_resource r;
    ASSERT_OK(tb_link_resource_parse("reed:id=4294967294", &r, NULL));
    ASSERT_EQ(r.kind, TB_LINK_REED);
    ASSERT_EQ(r.board_id, 4294967294u);
    ASSERT_OK(tb_link_resource_parse("reed:id=17", &r, NULL));
    ASSERT_EQ(r.board_id, 17);
    /* found wherever it is plugged in: it may open before the board is there */
    ASSERT_TRUE(tb_link_resource_caps(&r) & TB_LINK_CAP_HOTPLUG);
    ASSERT_TRUE(tb_link_resource_caps(&r) & TB_LINK_CAP_DEVICE);
}

TB_TEST(null_link_never_delivers_and_has_nothing_to_poll)
{
    struct tb_link *l;
    ASSERT_OK(tb_link_open(&l, "null:", "sighted", 0, NULL));
    struct tb_link_event ev[4];
    ASSERT_EQ(tb_link_read(l, 1000, ev, 4, NULL), 0);
    ASSERT_EQ(tb_link_fd(l), -1);
    ASSERT_U64_EQ(tb_link_deadline(l), TB_LINK_NO_DEADLINE);
    struct tb_error e;
    ASSERT_EQ(tb_link_request_snapshot(l, &e), TB_ERR_SUPP);
    ASSERT_STR_EQ(tb_link_name(l), "null:");
    tb_link_close(l);
    tb_link_close(NULL);
}

/* Every kind says what it can do; the daemon, the configuration and the CLI ask this, never the
 * kind. D.2.10.1: a keys: board has no sensors, its moves are typed, and it says nothing. */
TB_TEST(law_D_2_10_1_links_declare_capabilities_keys_is_typed)
{
    static const struct {
        const char *res;
        unsigned caps;
    } cases[] = {
        {"null:", 0},
        {"keys:", TB_LINK_CAP_TYPED},
        {"serial:/dev/ttyUSB0", TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE},
        {"pty:/dev/pts/5", TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE},
        {"usb:2341:0043",
         TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_HOTPLUG | TB_LINK_CAP_DEVICE},
        {"sim:a.script", TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_REPLAYS | TB_LINK_CAP_ENDS},
        {"sim:a.script?speed=fast",
         TB_LINK_CAP_SCRIPT_TIME | TB_LINK_CAP_REPLAYS | TB_LINK_CAP_ENDS},
        /* a DGT e-board names its pieces and has a clock display; auto may come later */
        {"dgt:/dev/ttyACM0", TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE |
                                 TB_LINK_CAP_PIECES | TB_LINK_CAP_DISPLAY},
        {"dgt:auto", TB_LINK_CAP_REAL_TIME | TB_LINK_CAP_SNAPSHOTS | TB_LINK_CAP_DEVICE |
                         TB_LINK_CAP_PIECES | TB_LINK_CAP_DISPLAY | TB_LINK_CAP_HOTPLUG},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tb_link_resource res;
        ASSERT_OK(tb_link_resource_parse(cases[i].res, &res, NULL));
        ASSERT_EQ(tb_link_resource_caps(&res), cases[i].caps);
    }
    struct tb_link *l;
    ASSERT_OK(tb_link_open(&l, "keys:", "sighted", 0, NULL));
    ASSERT_EQ(tb_link_caps(l), TB_LINK_CAP_TYPED);
    ASSERT_EQ(tb_link_fd(l), -1);
    ASSERT_U64_EQ(tb_link_deadline(l), TB_LINK_NO_DEADLINE);
    struct tb_link_event ev[2];
    ASSERT_EQ(tb_link_read(l, 500, ev, 2, NULL), 0);
    tb_link_close(l);
    ASSERT_EQ(tb_link_caps(NULL), 0);
}

TB_TEST(open_reports_a_bad_resource)
{
    struct tb_link *l = (struct tb_link *)(uintptr_t)1; /* not NULL, never read */
    struct tb_error e;
    ASSERT_EQ(tb_link_open(&l, "usb:zz:0043", "vi", 0, &e), TB_ERR_PARSE);
    ASSERT_NULL(l);
    ASSERT_STR_CONTAINS(e.msg, "usb:zz:0043");
}

/* A named DGT device that is not there is a configuration error at start; dgt:auto waits. */
TB_TEST(dgt_link_missing_device_refused_auto_waits)
{
    struct tb_link *l = NULL;
    struct tb_error e = {0};
    ASSERT_EQ(tb_link_open(&l, "dgt:/dev/nonexistent-dgt", "sighted", 0, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "dgt:/dev/nonexistent-dgt");
    ASSERT_NULL(l);
}
