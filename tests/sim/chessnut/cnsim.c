/* cnsim.c - the emulated Chessnut board (cnsim.h). */
#define _GNU_SOURCE /* accept4 */
#include "cnsim.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ebplan.h"
#include "tb_chessnut.h"

/* The device plugged in: a listening socket at path. */
int cnsim_plug_socket(const char *path)
{
    union {
        struct sockaddr sa;
        struct sockaddr_un un;
    } a = {.un = {.sun_family = AF_UNIX}};
    if (strlen(path) >= sizeof a.un.sun_path) {
        fprintf(stderr, "chessnut-sim: %s: path too long\n", path);
        return -1;
    }
    memcpy(a.un.sun_path, path, strlen(path) + 1);
    unlink(path);
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, &a.sa, sizeof a.un) != 0 || listen(fd, 1) != 0) {
        perror("chessnut-sim: socket");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

void cnsim_unplug(struct cnsim *b, const char *path)
{
    if (b->conn >= 0)
        close(b->conn);
    if (b->listener >= 0)
        close(b->listener);
    b->conn = b->listener = -1;
    b->enabled = false;
    unlink(path);
}

static uint32_t next_rand(struct cnsim *b)
{
    b->rng = b->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(b->rng >> 33);
}

static void send_report(struct cnsim *b, const uint8_t *buf, int n)
{
    if (b->conn >= 0 && n > 0 && send(b->conn, buf, (size_t)n, MSG_NOSIGNAL) < 0 &&
        errno != EAGAIN) {
        close(b->conn); /* the host went away */
        b->conn = -1;
        b->enabled = false;
    }
}

/* Now and then a report no board should send: random bytes, a position cut short, a position
 * with a nibble that is no piece. */
static void noise(struct cnsim *b)
{
    if (!b->garbage || (long)(next_rand(b) % 1000) >= b->garbage)
        return;
    uint8_t junk[TB_CHESSNUT_REPORT_MAX];
    int kind = (int)(next_rand(b) % 3), n;
    if (kind == 0) {
        n = 1 + (int)(next_rand(b) % sizeof junk);
        for (int i = 0; i < n; i++)
            junk[i] = (uint8_t)next_rand(b);
    } else {
        n = tb_chessnut_position(junk, sizeof junk, b->pieces);
        if (kind == 1)
            n = 2 + (int)(next_rand(b) % 30); /* cut short */
        else
            junk[2 + next_rand(b) % 32] |= 0x0E; /* a nibble above C */
    }
    send_report(b, junk, n);
}

static void send_position(struct cnsim *b)
{
    uint8_t r[TB_CHESSNUT_REPORT_MAX];
    noise(b);
    send_report(b, r, tb_chessnut_position(r, sizeof r, b->pieces));
    memcpy(b->sent, b->pieces, 64);
    b->reports++;
}

void cnsim_command(struct cnsim *b, const uint8_t *buf, size_t n, uint64_t now)
{
    uint64_t squares = 0;
    uint8_t r[8];
    b->commands++;
    switch (tb_chessnut_command(buf, n, &squares)) {
    case 'E':
        b->enabled = true;
        send_position(b); /* the board says where it stands */
        break;
    case 'B':
        send_report(b, r, tb_chessnut_battery(r, sizeof r, 87, false));
        break;
    case 'L':
        if (squares != b->lit)
            ebplan_log_leds(b->led_log, now, squares);
        b->lit = squares;
        break;
    default:
        break;
    }
}

void cnsim_scan(struct cnsim *b, uint64_t now)
{
    while (b->next_scan <= now) {
        b->next_scan += CNSIM_SCAN_MS;
        /* a piece lifted mid-read: part of the scan before the change, part after; the next
         * scan reads the board as it stands */
        uint8_t torn[64];
        if (!b->stood_known)
            memcpy(b->stood, b->pieces, 64);
        b->stood_known = true;
        bool tear = b->torn && memcmp(b->stood, b->pieces, 64) != 0 &&
                    (long)(next_rand(b) % 1000) < b->torn &&
                    ebplan_tear(torn, b->stood, b->pieces, next_rand(b));
        memcpy(b->stood, b->pieces, 64);
        if (!b->enabled || memcmp(tear ? torn : b->pieces, b->sent, 64) == 0)
            continue;
        if (tear) {
            uint8_t r[TB_CHESSNUT_REPORT_MAX];
            send_report(b, r, tb_chessnut_position(r, sizeof r, torn));
            memcpy(b->sent, torn, 64);
            b->torn_scans++;
            b->reports++;
            continue;
        }
        send_position(b);
    }
}

void cnsim_pump(struct cnsim *b, uint64_t now, uint64_t led_ms)
{
    cnsim_scan(b, now);
    if (b->listener >= 0 && b->conn < 0)
        b->conn = accept4(b->listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    uint8_t in[TB_CHESSNUT_REPORT_MAX];
    while (b->conn >= 0) {
        ssize_t k = recv(b->conn, in, sizeof in, 0);
        if (k > 0) {
            cnsim_command(b, in, (size_t)k, led_ms);
            continue;
        }
        if (k == 0 || errno != EAGAIN) {
            close(b->conn); /* the host closed the device: wait for it again */
            b->conn = -1;
            b->enabled = false;
        }
        break;
    }
}
