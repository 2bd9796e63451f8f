/* dgtpty.c - dgtsim on a pseudo-terminal, in-process. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#define _XOPEN_SOURCE   700
#include "dgtpty.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

static void start_codes(uint8_t codes[64])
{
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    tb_dgt_codes_of_pos(&pos, TB_DGT_ORIENT_NORMAL, codes);
}

int dgtpty_init(struct dgtpty *p, const char *link)
{
    p->fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (p->fd < 0 || grantpt(p->fd) != 0 || unlockpt(p->fd) != 0)
        return -1;
    struct termios t;
    if (tcgetattr(p->fd, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(p->fd, TCSANOW, &t);
    }
    const char *pts = ptsname(p->fd);
    unlink(link);
    if (!pts || symlink(pts, link) != 0)
        return -1;
    uint8_t codes[64];
    start_codes(codes);
    dgtsim_init(&p->sim, codes, TB_DGT_CLOCK_3000, 5400000, 15000, 1);
    return 0;
}

static void flush_out(struct dgtpty *p)
{
    uint8_t out[4096];
    size_t n;
    while ((n = dgtsim_take(&p->sim, out, sizeof out)) > 0) {
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(p->fd, out + off, n - off);
            if (w <= 0)
                break; /* nobody reads: the host reconnects and asks again */
            off += (size_t)w;
        }
    }
}

void dgtpty_pump(struct dgtpty *p, uint64_t now_ms)
{
    uint8_t in[256];
    ssize_t k;
    while ((k = read(p->fd, in, sizeof in)) > 0)
        dgtsim_input(&p->sim, in, (size_t)k);
    dgtsim_tick(&p->sim, now_ms);
    flush_out(p);
}

void dgtpty_move(struct dgtpty *p, const tb_chess_pos *pos, tb_chess_move m, uint64_t now_ms)
{
    struct tb_dgt_update up[8];
    int n = tb_dgt_move_updates(pos, m, TB_DGT_ORIENT_NORMAL, 0, up, 8);
    dgtsim_tick(&p->sim, now_ms);
    for (int i = 0; i < n; i++)
        dgtsim_field(&p->sim, up[i].field, up[i].code);
    flush_out(p);
}

void dgtpty_raw(struct dgtpty *p, const void *buf, size_t n)
{
    const uint8_t *b = buf;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(p->fd, b + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

void dgtpty_setup(struct dgtpty *p, uint64_t now_ms)
{
    uint8_t codes[64];
    start_codes(codes);
    dgtsim_tick(&p->sim, now_ms);
    for (int f = 0; f < 64; f++)
        if (p->sim.codes[f] && p->sim.codes[f] != codes[f])
            dgtsim_field(&p->sim, f, 0);
    for (int f = 0; f < 64; f++)
        if (p->sim.codes[f] != codes[f])
            dgtsim_field(&p->sim, f, codes[f]);
    flush_out(p);
}

void dgtpty_close(struct dgtpty *p)
{
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
}
