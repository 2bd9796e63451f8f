/* link_find.c - the boards this machine shows, as the resources to name them by (`twinboard
 * devices`): the package's udev names under /dev/twinboard, serial devices whose by-id names
 * say DGT or ChessLink, and Chessnut boards on USB HID. Only the reed-board candidates are
 * opened, one at a time, to ask who they are (link_probe.c). */
#include <ctype.h>
#include <dirent.h>
#include <hidapi.h>
#include <stdio.h>
#include <string.h>

#include "tb_chessnut.h"
#include "link_internal.h"

struct kind {
    const char *word, *scheme, *what;
};

/* udev names (lower case) and by-id words (upper case), the scheme and what it is */
static const struct kind kinds[] = {
    {"reed", "serial", "a twinboard reed board"},
    {"dgt", "dgt", "a DGT e-board"},
    {"DGT", "dgt", "a DGT e-board"},
    {"DIGITAL_GAME", "dgt", "a DGT e-board"},
    {"chesslink", "chesslink", "a Millennium ChessLink board"},
    {"CHESSLINK", "chesslink", "a Millennium ChessLink board"},
    {"MILLENNIUM", "chesslink", "a Millennium ChessLink board"},
};

static bool is_candidate(const char *name)
{
    return strncmp(name, TB_LINK_CANDIDATE_PREFIX, strlen(TB_LINK_CANDIDATE_PREFIX)) == 0;
}

/* Asks one candidate who it is, waiting for the answer; what it is goes to fn. */
static void ask_candidate(const char *path, tb_link_board_fn fn, void *arg)
{
    struct tb_link_reed_identity who;
    char res[600], what[500];
    int rc = tb_link_reed_identify(path, 0, &who, NULL);
    snprintf(res, sizeof res, "%.255s", path);
    if (rc == TB_OK && who.id) {
        snprintf(res, sizeof res, "reed:id=%lu", (unsigned long)who.id);
        snprintf(what, sizeof what,
                 "a twinboard reed board, identity %lu, firmware %u.%u.%u, now on %.255s",
                 (unsigned long)who.id, who.fw_major, who.fw_minor, who.fw_patch, path);
    } else if (rc == TB_OK) {
        snprintf(res, sizeof res, "%s:%.255s", who.pty ? "pty" : "serial", path);
        snprintf(what, sizeof what,
                 "a twinboard reed board with no identity yet (firmware %u.%u.%u): give it one "
                 "with twinboard board-id %.200s",
                 who.fw_major, who.fw_minor, who.fw_patch, path);
    } else if (rc == TB_ERR_STATE) {
        snprintf(what, sizeof what,
                 "in use by another program (a running twinboardd has it if it is a board: "
                 "twinboard status names it)");
    } else if (rc == TB_ERR_TIMEOUT) {
        snprintf(what, sizeof what,
                 "not a reed board: a device on a USB-serial chip that did not answer the reed "
                 "board's protocol in %d s",
                 TB_LINK__PROBE_MS / 1000);
    } else {
        snprintf(what, sizeof what, "cannot be opened to ask what it is (see its permissions)");
    }
    fn(arg, res, what);
}

static int scan_dir(const char *dir, bool upper, tb_link_board_fn fn, void *arg)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        char name[256];
        size_t i = 0;
        for (; e->d_name[i] && i + 1 < sizeof name; i++)
            name[i] = upper ? (char)toupper((unsigned char)e->d_name[i]) : e->d_name[i];
        name[i] = '\0';
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            bool hit = upper ? strstr(name, kinds[k].word) != NULL
                             : strncmp(name, kinds[k].word, strlen(kinds[k].word)) == 0;
            if (!hit || (!upper && strncmp(e->d_name, "chessnut", 8) == 0) ||
                (!upper && is_candidate(e->d_name)))
                continue;
            char res[600];
            snprintf(res, sizeof res, "%s:%s/%s", kinds[k].scheme, dir, e->d_name);
            fn(arg, res, kinds[k].what);
            n++;
            break;
        }
    }
    if (d)
        closedir(d);
    return n;
}

int tb_link_find_boards(tb_link_board_fn fn, void *arg)
{
    int n = scan_dir(tb_link_dev_dir(), false, fn, arg);
    char cand[16][TB_LINK__PATH_MAX];
    int nc = tb_link__candidates(cand, 16);
    for (int i = 0; i < nc; i++) /* a reed board or not: only asking tells */
        ask_candidate(cand[i], fn, arg);
    n += nc;
    n += scan_dir("/dev/serial/by-id", true, fn, arg);
    if (hid_init() != 0)
        return n;
    struct hid_device_info *all = hid_enumerate(TB_CHESSNUT_VID, 0);
    for (struct hid_device_info *i = all; i; i = i->next) {
        if (i->usage_page != TB_CHESSNUT_USAGE_PAGE)
            continue;
        char res[600], what[160];
        snprintf(res, sizeof res, "chessnut:%s", i->path);
        snprintf(what, sizeof what, "a Chessnut board (%04x:%04x%s%ls)", i->vendor_id,
                 i->product_id, i->product_string ? ", " : "",
                 i->product_string ? i->product_string : L"");
        fn(arg, res, what);
        n++;
    }
    hid_free_enumeration(all);
    return n;
}
