/* ptyboard.c - see ptyboard.h. */
#define _DEFAULT_SOURCE     /* cfmakeraw */
#define _XOPEN_SOURCE   700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "ptyboard.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tb_chess.h"

int ptyboard_plug(struct ptyboard *b)
{
    b->master = posix_openpt(O_RDWR | O_NOCTTY);
    if (b->master < 0 || grantpt(b->master) != 0 || unlockpt(b->master) != 0)
        return -1;
    struct termios t;
    if (tcgetattr(b->master, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(b->master, TCSANOW, &t);
    }
    const char *pts = ptsname(b->master);
    if (!pts)
        return -1;
    unlink(b->link);
    if (symlink(pts, b->link) != 0)
        return -1;
    rb_proto_decoder_init(&b->dec);
    return 0;
}

int ptyboard_init(struct ptyboard *b, const char *link)
{
    memset(b, 0, sizeof *b);
    snprintf(b->link, sizeof b->link, "%s", link);
    b->occ = 0xffff00000000ffffull;
    b->ms = 1000;
    return ptyboard_plug(b);
}

void ptyboard_unplug(struct ptyboard *b)
{
    if (b->master >= 0)
        close(b->master);
    b->master = -1;
}

int ptyboard_write(struct ptyboard *b, const void *buf, size_t n)
{
    return write(b->master, buf, n) == (ssize_t)n ? 0 : -1;
}

int ptyboard_snapshot(struct ptyboard *b)
{
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_snapshot s = {.seq = b->seq, .ms = b->ms, .occupancy = b->occ, .raw = b->occ};
    return ptyboard_write(b, buf, rb_proto_encode_snapshot(buf, sizeof buf, &s));
}

void ptyboard_pump(struct ptyboard *b)
{
    uint8_t in[256], buf[RB_PROTO_MAX_FRAME];
    struct pollfd p = {.fd = b->master, .events = POLLIN};
    while (b->master >= 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
        ssize_t r = read(b->master, in, sizeof in);
        if (r <= 0)
            return;
        for (ssize_t i = 0; i < r; i++) {
            struct rb_proto_msg m;
            if (!rb_proto_decoder_push(&b->dec, in[i], &m))
                continue;
            if (m.type == RB_PROTO_GET_INFO) {
                struct rb_proto_info info = {.proto_version = RB_PROTO_VERSION,
                                             .fw_major = 1,
                                             .serial = 7,
                                             .debounce_ms = 20,
                                             .events = RB_PROTO_EV_ALL};
                ptyboard_write(b, buf, rb_proto_encode_info(buf, sizeof buf, &info));
            } else if (m.type == RB_PROTO_GET_SNAPSHOT) {
                ptyboard_snapshot(b);
            } else if (m.type == RB_PROTO_PING) {
                struct rb_proto_pong pong = {.token = m.u.ping_token};
                ptyboard_write(b, buf, rb_proto_encode_pong(buf, sizeof buf, &pong));
            }
        }
    }
}

int ptyboard_square(struct ptyboard *b, int sq, int placed, bool send)
{
    if (sq < 0 || sq > 63)
        return -1;
    if (placed)
        b->occ |= TB_CHESS_BIT(sq);
    else
        b->occ &= ~TB_CHESS_BIT(sq);
    b->seq++;
    b->ms += 300;
    if (!send)
        return 0;
    uint8_t buf[RB_PROTO_MAX_FRAME];
    struct rb_proto_square e = {
        .seq = b->seq, .ms = b->ms, .square = (uint8_t)sq, .placed = (uint8_t)placed};
    return ptyboard_write(b, buf, rb_proto_encode_square(buf, sizeof buf, &e));
}

int ptyboard_move(struct ptyboard *b, const struct tb_chess_pos *pos, uint16_t move)
{
    struct tb_chess_move_squares ms;
    tb_chess_move_squares(pos, move, &ms);
    int rc = 0;
    if (ms.capture_sq != TB_CHESS_NOSQ)
        rc |= ptyboard_square(b, ms.capture_sq, 0, true);
    rc |= ptyboard_square(b, ms.from, 0, true);
    if (ms.rook_from != TB_CHESS_NOSQ && ms.rook_from == ms.to)
        rc |= ptyboard_square(b, ms.rook_from, 0, true);
    rc |= ptyboard_square(b, ms.to, 1, true);
    if (ms.rook_from != TB_CHESS_NOSQ) {
        if (ms.rook_from != ms.to)
            rc |= ptyboard_square(b, ms.rook_from, 0, true);
        if (ms.rook_to != ms.from || ms.rook_from == ms.to)
            rc |= ptyboard_square(b, ms.rook_to, 1, true);
    }
    return rc;
}
