/* link_find.c - the boards this machine shows, as the resources to name them by (`twinboard
 * devices`): the package's udev names under /dev/twinboard, serial devices whose by-id names
 * say DGT or ChessLink, and Chessnut boards on USB HID. Nothing is opened but the HID list. */
#include <ctype.h>
#include <dirent.h>
#include <hidapi.h>
#include <stdio.h>
#include <string.h>

#include "tb_chessnut.h"
#include "tb_link.h"

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
            if (!hit || (!upper && strncmp(e->d_name, "chessnut", 8) == 0))
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
    int n = scan_dir("/dev/twinboard", false, fn, arg);
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
