/* brlapi.c - the BrlAPI driver: one connection to BRLTTY per player's display.
 *
 * Built only when BrlAPI was found (TB_BRAILLE_HAVE_BRLAPI); otherwise open says so. Each
 * display has its own BrlAPI handle (brlapi__* calls), so two players may have two displays.
 * The connection takes the display in tty mode at the root of BRLTTY's tty tree, which is where
 * a program not attached to a console belongs (BRLTTY run with no screen driver, -x no). */
#include <stdlib.h>
#include <string.h>

#include "tb_braille.h"

#ifdef TB_BRAILLE_HAVE_BRLAPI

#include <brlapi.h>

struct conn {
    brlapi_handle_t *h;
    int fd;
    int cells;
    bool broken; /* an exception came: the connection is not to be used again */
};

/* BrlAPI's default exception handler prints and exits the process; this one only notes it. */
static void on_exception(brlapi_handle_t *h, int error, brlapi_packetType_t type,
                         const void *packet, size_t size)
{
    (void)error, (void)type, (void)packet, (void)size;
    struct conn *c = brlapi__getClientData(h);
    if (c)
        c->broken = true;
}

static int lost(const char *what, struct tb_error *err, const char *target)
{
    return tb_error_set(err, TB_ERR_NOTFOUND, "braille: BRLTTY at %s: %s: %s",
                        target && *target ? target : "the default BrlAPI host", what,
                        brlapi_strerror(&brlapi_error));
}

static void conn_free(struct conn *c, bool connected)
{
    if (connected)
        brlapi__closeConnection(c->h);
    free(c->h);
    free(c);
}

static int brl_open(void **state, const char *target, const char *auth, int *cells,
                    struct tb_error *err)
{
    struct conn *c = calloc(1, sizeof *c);
    if (c)
        c->h = malloc(brlapi_getHandleSize());
    if (!c || !c->h) {
        free(c);
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    }
    brlapi_connectionSettings_t want = {
        .auth = auth && *auth ? (char *)auth : NULL,
        .host = target && *target ? (char *)target : NULL,
    };
    brlapi__setExceptionHandler(c->h, on_exception);
    c->fd = brlapi__openConnection(c->h, &want, NULL);
    if (c->fd == BRLAPI_INVALID_FILE_DESCRIPTOR) {
        int rc = lost("cannot connect", err, target);
        conn_free(c, false);
        return rc;
    }
    brlapi__setClientData(c->h, c);
    unsigned x = 0, y = 0;
    if (brlapi__getDisplaySize(c->h, &x, &y) < 0 || x == 0) {
        int rc = x == 0 ? tb_error_set(err, TB_ERR_NOTFOUND,
                                       "braille: BRLTTY at %s has no braille display",
                                       target && *target ? target : "the default BrlAPI host")
                        : lost("cannot read the display size", err, target);
        conn_free(c, true);
        return rc;
    }
    if (brlapi__enterTtyModeWithPath(c->h, NULL, 0, NULL) < 0) {
        int rc = lost("cannot take the display", err, target);
        conn_free(c, true);
        return rc;
    }
    c->cells = x > TB_BRAILLE_CELLS_MAX ? TB_BRAILLE_CELLS_MAX : (int)x;
    *cells = c->cells;
    *state = c;
    return TB_OK;
}

static int brl_write(void *state, const char *text)
{
    struct conn *c = state;
    if (c->broken)
        return TB_ERR_STATE;
    brlapi_writeArguments_t wa = BRLAPI_WRITEARGUMENTS_INITIALIZER;
    wa.regionBegin = 1;
    wa.regionSize = c->cells;
    wa.text = text;
    wa.textSize = (int)strlen(text);
    wa.charset = "UTF-8";
    wa.cursor = BRLAPI_CURSOR_OFF;
    return brlapi__write(c->h, &wa) < 0 || c->broken ? TB_ERR_SYS : TB_OK;
}

/* The display's keys, as BRLTTY's commands (the display's own key bindings decide which key
 * gives which command), to what they do on a twinboard display. */
static enum tb_braille_key map_key(brlapi_keyCode_t code)
{
    brlapi_expandedKeyCode_t e;
    if (brlapi_expandKeyCode(code, &e) < 0 || e.type != BRLAPI_KEY_TYPE_CMD)
        return TB_BRAILLE_KEY_NONE;
    switch (e.command | e.argument) {
    case BRLAPI_KEY_CMD_FWINLT:
    case BRLAPI_KEY_CMD_FWINLTSKIP:
    case BRLAPI_KEY_CMD_LNBEG:
        return TB_BRAILLE_KEY_PAN_LEFT;
    case BRLAPI_KEY_CMD_FWINRT:
    case BRLAPI_KEY_CMD_FWINRTSKIP:
    case BRLAPI_KEY_CMD_LNEND:
        return TB_BRAILLE_KEY_PAN_RIGHT;
    case BRLAPI_KEY_CMD_LNUP:
    case BRLAPI_KEY_CMD_PRDIFLN:
        return TB_BRAILLE_KEY_LINE_UP;
    case BRLAPI_KEY_CMD_LNDN:
    case BRLAPI_KEY_CMD_NXDIFLN:
        return TB_BRAILLE_KEY_LINE_DOWN;
    case BRLAPI_KEY_CMD_TOP:
    case BRLAPI_KEY_CMD_TOP_LEFT:
        return TB_BRAILLE_KEY_TOP;
    case BRLAPI_KEY_CMD_BOT:
    case BRLAPI_KEY_CMD_BOT_LEFT:
        return TB_BRAILLE_KEY_BOTTOM;
    case BRLAPI_KEY_CMD_HOME:
    case BRLAPI_KEY_CMD_RETURN:
        return TB_BRAILLE_KEY_HOME;
    case BRLAPI_KEY_CMD_TIME:
        return TB_BRAILLE_KEY_CLOCK;
    default:
        return TB_BRAILLE_KEY_NONE;
    }
}

static int brl_read_key(void *state, enum tb_braille_key *key)
{
    struct conn *c = state;
    if (c->broken)
        return TB_ERR_STATE;
    brlapi_keyCode_t code;
    int n = brlapi__readKey(c->h, 0, &code);
    if (n < 0 || c->broken)
        return TB_ERR_SYS;
    if (n == 0)
        return 0;
    *key = map_key(code);
    return 1;
}

static int brl_fd(void *state)
{
    return ((const struct conn *)state)->fd;
}

static void brl_close(void *state)
{
    struct conn *c = state;
    if (!c)
        return;
    if (!c->broken)
        brlapi__leaveTtyMode(c->h);
    conn_free(c, true);
}

bool tb_braille_brlapi_built(void)
{
    return true;
}

#else /* no BrlAPI in this build */

static int brl_open(void **state, const char *target, const char *auth, int *cells,
                    struct tb_error *err)
{
    (void)state, (void)target, (void)auth, (void)cells;
    return tb_error_set(err, TB_ERR_SUPP, "braille: this build has no BrlAPI (libbrlapi-dev)");
}

static int brl_write(void *state, const char *text)
{
    (void)state, (void)text;
    return TB_ERR_SUPP;
}

static int brl_read_key(void *state, enum tb_braille_key *key)
{
    (void)state, (void)key;
    return TB_ERR_SUPP;
}

static int brl_fd(void *state)
{
    (void)state;
    return -1;
}

static void brl_close(void *state)
{
    (void)state;
}

bool tb_braille_brlapi_built(void)
{
    return false;
}

#endif

const struct tb_braille_ops tb_braille_brlapi = {
    .name = "brlapi",
    .open = brl_open,
    .write = brl_write,
    .read_key = brl_read_key,
    .fd = brl_fd,
    .close = brl_close,
};
