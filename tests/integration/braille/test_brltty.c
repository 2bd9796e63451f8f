/* Braille through a real BRLTTY (issue 13). The test starts brltty itself with its Virtual
 * driver (-b vr), which needs no hardware: the driver serves a socket in the test's directory,
 * and the test plays the braille display on it. It tells BRLTTY the display's width ("Cells 40"),
 * reads back what BRLTTY shows (the driver's "Visual" line: the text of the cells, and its
 * "Braille" line: the dots), and presses the display's keys (the driver's commands "LnUp",
 * "FWinRt" ...), which BRLTTY hands to twinboard through BrlAPI. BrlAPI listens on a private TCP
 * port of 127.0.0.1 without authentication. Skipped (exit 77) only when brltty is not installed
 * or the build has no BrlAPI.
 *
 * style: real-time wait: brltty is a real process; reads wait on poll with deadlines. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brltty_harness.h"
#include "tb_braille.h"
#include "tb_test.h"

/* Connects twinboard's display to the test's BRLTTY (its API may come up a moment later). */
static struct tb_braille_display *connect_display(struct brltty *b)
{
    struct tb_braille_display *d = NULL;
    struct tb_error err = {0};
    double end = now() + 15;
    while (tb_braille_display_open(&tb_braille_brlapi, b->host, "none", &d, &err)) {
        if (now() > end)
            TB_FAIL("%s", err.msg);
        struct timespec t = {0, 50000000};
        nanosleep(&t, NULL);
    }
    return d;
}

/* Presses a key and lets twinboard take it, until the display shows want. */
static int press_and_poll(struct brltty *b, struct tb_braille_display *d, const char *command,
                          const char *want)
{
    press(b, command);
    double end = now() + 10;
    int rc = TB_OK;
    for (;;) {
        struct pollfd p = {.fd = tb_braille_display_fd(d), .events = POLLIN};
        if (poll(&p, 1, 100) > 0) {
            rc = tb_braille_display_poll(d);
            ASSERT_TRUE(rc >= 0);
            if (rc == TB_BRAILLE_WANT_CLOCK)
                return rc;
        }
        if (want && read_display(b, want, 0.05))
            return rc;
        if (now() > end)
            TB_FAIL("after %s BRLTTY shows \"%s\", expected \"%s\"", command, b->visual,
                    want ? want : "(a clock request)");
    }
}

static tb_chess_game *ruy_lopez(void)
{
    static const char *const uci[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
    tb_chess_game *g = calloc(1, sizeof *g);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(g, &start);
    for (int i = 0; i < 6; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, uci[i], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    return g;
}

/* The status line, the scoresheet browsed with the display's keys, the clock on request: each
 * read back from BRLTTY as it shows it. */
TB_TEST(brltty_shows_the_game_and_its_keys_browse_the_scoresheet)
{
    need_brltty();
    struct brltty b;
    start_brltty(&b);
    struct tb_braille_display *d = connect_display(&b);
    struct tb_braille_view *v = tb_braille_display_view(d);
    ASSERT_EQ(tb_braille_view_cells(v), CELLS); /* the width BRLTTY reported */
    expect_display(&b, pad(""));

    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("de-fide", &pack, &err));
    tb_chess_game *g = ruy_lopez();
    ASSERT_OK(tb_braille_view_set_game(v, pack, g, TB_VOICE_LONG));
    ASSERT_OK(tb_braille_view_last_move(v, "Bauer Anna sieben Anna sechs"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Bauer Anna sieben Anna sechs"));
    check_dots(&b);

    /* A mismatch: the state comes first, the last move in the next window. */
    ASSERT_OK(tb_braille_view_state(v, "Bretter weichen ab, Brett Weiß"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Bretter weichen ab, Brett Weiß -"));
    check_dots(&b);
    press_and_poll(&b, d, "FWinRt", pad("Bauer Anna sieben Anna sechs"));
    press_and_poll(&b, d, "FWinLt", pad("Bretter weichen ab, Brett Weiß -"));

    /* Line up: the scoresheet at the latest half-move; pan right for the rest of a long line. */
    press_and_poll(&b, d, "LnUp", pad("Zug 3, Schwarz: Bauer Anna sieben Anna"));
    check_dots(&b);
    press_and_poll(&b, d, "FWinRt", pad("sechs"));
    press_and_poll(&b, d, "LnUp", pad("Zug 3, Weiß: Läufer Felix eins Bella"));
    press_and_poll(&b, d, "Top", pad("Zug 1, Weiß: Bauer Eva zwei Eva vier"));
    press_and_poll(&b, d, "LnDn", pad("Zug 1, Schwarz: Bauer Eva sieben Eva"));
    ASSERT_EQ(tb_braille_view_line(v), 1);
    press_and_poll(&b, d, "Bot", pad("Zug 3, Schwarz: Bauer Anna sieben Anna"));

    /* The clock on request: the key asks, twinboard answers with the time. */
    ASSERT_EQ(press_and_poll(&b, d, "Time", NULL), TB_BRAILLE_WANT_CLOCK);
    ASSERT_OK(tb_braille_view_clock(v, "Weiß 3:10, Schwarz 2:45, 6 Züge"));
    ASSERT_OK(tb_braille_display_update(d));
    expect_display(&b, pad("Weiß 3:10, Schwarz 2:45, 6 Züge"));
    press_and_poll(&b, d, "Home", pad("Bretter weichen ab, Brett Weiß -"));

    /* BRLTTY goes away: writes to it do not crash the process (no SIGPIPE), and the display's
     * descriptor becomes readable, where polling it reports the loss through its return value. */
    stop_brltty(&b);
    char text[32];
    for (int i = 0; i < 20; i++) {
        snprintf(text, sizeof text, "Kurze Rochade %d", i);
        ASSERT_OK(tb_braille_view_last_move(v, text));
        tb_braille_display_update(d);
    }
    struct pollfd p = {.fd = tb_braille_display_fd(d), .events = POLLIN};
    ASSERT_EQ(poll(&p, 1, 10000), 1);
    ASSERT_TRUE(tb_braille_display_poll(d) < 0);
    tb_braille_display_free(d);
    tb_voice_pack_free(pack);
    free(g);
}

/* With no BRLTTY to reach, opening the display fails once with a sentence naming where it
 * looked, and prints nothing: the daemon goes on without braille. */
TB_TEST(no_brltty_is_said_once_and_nothing_printed)
{
    if (!tb_braille_brlapi_built()) {
        printf("SKIP: this build has no BrlAPI (install libbrlapi-dev)\n");
        exit(77);
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/stderr", tb_test_tmp_dir());
    int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    dup2(fd, 2);
    struct tb_braille_display *d = NULL;
    struct tb_error err = {0};
    /* A TCP port nobody listens on: BrlAPI port 4101 + 1, refused on this machine's loopback
     * unless a BRLTTY runs there; the error names the host either way. */
    int rc = tb_braille_display_open(&tb_braille_brlapi, "127.0.0.1:59000", "none", &d, &err);
    dup2(saved, 2);
    close(saved);
    close(fd);
    ASSERT_EQ(rc, TB_ERR_NOTFOUND);
    ASSERT_NULL(d);
    ASSERT_STR_CONTAINS(err.msg, "127.0.0.1:59000");
    struct stat st;
    ASSERT_OK(stat(path, &st));
    ASSERT_EQ(st.st_size, 0);
    /* The null driver is always there. */
    ASSERT_OK(tb_braille_display_open(NULL, NULL, NULL, &d, &err));
    ASSERT_EQ(tb_braille_view_cells(tb_braille_display_view(d)), 40);
    ASSERT_EQ(tb_braille_display_fd(d), -1);
    ASSERT_OK(tb_braille_display_poll(d));
    tb_braille_display_free(d);
    tb_braille_display_free(NULL);
}
