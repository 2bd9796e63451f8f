/* cnsim.h - an emulated Chessnut board, written from the vendor's published description
 * (host/chessnut), behind a stand-in for its USB HID device: a Unix SOCK_SEQPACKET socket, one
 * HID report a packet, that the chessnut: link opens in place of hidapi. It scans its squares
 * every CNSIM_SCAN_MS and, once the host has switched its reports on, sends its position
 * whenever it changed (and at once when the reports are switched on); it answers a battery
 * request and keeps its LEDs. Used by chessnut-sim and in-process by a benchmark. */
#ifndef CNSIM_H
#define CNSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CNSIM_SCAN_MS 50

struct cnsim {
    uint8_t pieces[64], sent[64];
    uint8_t stood[64]; /* --torn: the pieces as they stood at the previous scan */
    bool stood_known;
    bool enabled, must_send;
    uint64_t lit, next_scan, rng;
    int listener, conn;
    unsigned long reports, commands;
    long garbage;             /* permille of positions with a bad report before them */
    long torn;                /* permille of the scans that see a change read mid-change */
    unsigned long torn_scans; /* reports of a position no hand made (ebplan_tear) */
    const char *led_log;      /* ebplan_log_leds */
};

/* A listening socket at path (the device plugged in), or -1 with the reason on stderr. */
int cnsim_plug_socket(const char *path);
/* The device closed and its socket taken away. */
void cnsim_unplug(struct cnsim *b, const char *path);
/* A report the host wrote (at script time now: the LED log's). */
void cnsim_command(struct cnsim *b, const uint8_t *buf, size_t n, uint64_t now);
/* The scans due by now: positions sent. */
void cnsim_scan(struct cnsim *b, uint64_t now);
/* Accepts the host, reads what it wrote, scans (now: the board's clock; led_ms: the LED log's). */
void cnsim_pump(struct cnsim *b, uint64_t now, uint64_t led_ms);

#endif
