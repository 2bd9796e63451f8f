/* clpty.c - clsim on a pseudo-terminal, in-process. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#define _XOPEN_SOURCE   700
#include "clpty.h"

#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

int clpty_init(struct clpty *p, const char *link, uint64_t now_ms)
{
    p->fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    struct termios t;
    if (p->fd < 0 || grantpt(p->fd) != 0 || unlockpt(p->fd) != 0 || tcgetattr(p->fd, &t) != 0)
        return -1;
    cfmakeraw(&t);
    tcsetattr(p->fd, TCSANOW, &t);
    const char *pts = ptsname(p->fd);
    unlink(link);
    if (!pts || symlink(pts, link) != 0)
        return -1;
    tb_chess_pos pos;
    tb_chess_pos_startpos(&pos);
    uint8_t board[64];
    for (int sq = 0; sq < 64; sq++)
        board[sq] = (uint8_t)tb_chess_piece_at(&pos, sq);
    clsim_init(&p->sim, board, now_ms);
    return 0;
}

void clpty_pump(struct clpty *p, uint64_t now_ms)
{
    uint8_t buf[512];
    ssize_t k;
    while ((k = read(p->fd, buf, sizeof buf)) > 0)
        clsim_input(&p->sim, buf, (size_t)k, now_ms);
    clsim_tick(&p->sim, now_ms);
    size_t n;
    while ((n = clsim_take(&p->sim, buf, sizeof buf)) > 0) {
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(p->fd, buf + off, n - off);
            if (w <= 0)
                return; /* nobody reads: the host asks again */
            off += (size_t)w;
        }
    }
}

void clpty_set(struct clpty *p, const tb_chess_pos *pos)
{
    for (int sq = 0; sq < 64; sq++)
        clsim_set(&p->sim, sq, tb_chess_piece_at(pos, sq));
}

void clpty_close(struct clpty *p)
{
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
}
