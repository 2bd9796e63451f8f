/* brltty_harness.h - a real BRLTTY for the braille tests: started with its Virtual driver (-b
 * vr, no hardware), the test playing the braille display on the driver's socket: it gives the
 * width, reads back what BRLTTY shows (text and dots) and presses the display's keys. BrlAPI
 * listens on a private TCP port of 127.0.0.1 without authentication (host, auth "none"). */
#ifndef TB_BRLTTY_HARNESS_H
#define TB_BRLTTY_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CELLS 40

struct brltty {
    pid_t pid;
    char dir[1024], sock[1100], host[64];
    int disp;          /* our end of the Virtual driver's socket: we are the display */
    char visual[1024]; /* the last text BRLTTY showed */
    char dots[4096];   /* the last dots BRLTTY showed */
    char in[8192];
    size_t inlen;
};

double now(void);
const char *find_brltty(void);
/* Exits 77 (skipped, saying why) without brltty or without BrlAPI in this build. */
void need_brltty(void);
/* Reads the driver's lines for up to `seconds`; true once the display shows want (NULL:
 * anything), text and dots. */
bool read_display(struct brltty *b, const char *want, double seconds);
/* As read_display, until the text shown starts with prefix. */
bool read_display_starting(struct brltty *b, const char *prefix, double seconds);
void expect_display(struct brltty *b, const char *want);
/* Presses a key of the display: one of BRLTTY's commands ("LnUp", "FWinRt" ...). */
void press(struct brltty *b, const char *command);
/* Starts BRLTTY in the test's directory and connects as its display (40 cells). */
void start_brltty(struct brltty *b);
void stop_brltty(struct brltty *b);
/* One cell per character, dots in every cell whose character is not a space. */
void check_dots(const struct brltty *b);
/* text padded with spaces to the display's width. */
const char *pad(const char *text);

#endif
