/* The VI player's braille display through twinboardd and a real BRLTTY (issue 13): the daemon
 * opens the display named in the player's configuration (braille = brltty:HOST), shows the last
 * move and what the player must know (a mismatch) in the words they hear, and the display's keys
 * browse the scoresheet and ask for the clock. A configured display with no BRLTTY there is said
 * once and the game goes on. Skipped (exit 77) only without brltty or BrlAPI.
 *
 * style: real-time wait: brltty is a real process; reads wait on poll with deadlines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brltty_harness.h"
#include "fixture.h"
#include "tb_braille.h"
#include "tb_test.h"

/* A move each, copied; then White's knight copied wrong on the sighted board: a mismatch. */
static const char script[] =
    "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n"
    "2300 sighted place e4\n3000 sighted lift e7\n3300 sighted place e5\n"
    "4000 vi lift e7\n4300 vi place e5\n5000 vi lift g1\n5300 vi place f3\n"
    "6000 sighted lift g1\n6300 sighted place h3\n";

static struct brltty *brl;
static struct fx *fxp;

/* Presses a key of the display and turns the daemon's loop until BRLTTY shows want. */
static void key(const char *command, const char *want)
{
    press(brl, command);
    double end = now() + 10;
    while (!read_display(brl, want, 0.05)) {
        tb_daemon_step(fxp->d, 20);
        if (now() > end)
            TB_FAIL("after %s BRLTTY shows \"%s\", expected \"%s\"", command, brl->visual, want);
    }
}

/* A BRLTTY of the test's own, and the daemon playing text with the VI player's display on it. */
static void start(struct brltty *b, struct fx *f, const char *name, const char *text)
{
    need_brltty();
    brl = b;
    fxp = f;
    start_brltty(b);
    fx_init(f, name);
    fx_script(f, text);
    fx_options(f, "script", "script");
    snprintf(f->o.cfg.player[0].braille, sizeof f->o.cfg.player[0].braille, "brltty:%s", b->host);
    snprintf(f->o.cfg.player[0].braille_auth, sizeof f->o.cfg.player[0].braille_auth, "none");
    /* BrlAPI may come up a moment after the driver's socket */
    double end = now() + 15;
    for (;;) {
        fx_start(f);
        if (strstr(f->log, "braille display through BRLTTY (40 cells)"))
            break;
        fx_stop(f);
        if (now() > end)
            TB_FAIL("the daemon never reached BRLTTY: %s", f->log);
        f->log_len = 0;
        f->log[0] = '\0';
        struct timespec t = {0, 100000000};
        nanosleep(&t, NULL);
    }
}

TB_TEST(daemon_shows_the_vi_players_game_on_a_real_brltty)
{
    struct brltty b;
    struct fx f;
    start(&b, &f, "daemon-braille", script);
    unsigned id = fx_run(&f, 100000);
    double end;
    ASSERT_GT(id, 0u);
    /* the mismatch, in the words the VI player hears, then (next window) the last move */
    ASSERT_STR_CONTAINS(f.log, "say to vi (White): Bretter weichen ab, Brett Schwarz");
    if (!read_display_starting(&b, "Bretter weichen ab, Brett Schwarz", 10))
        TB_FAIL("BRLTTY shows \"%s\"", b.visual);
    check_dots(&b);
    key("FWinRt", pad("Springer Gustav eins Felix drei"));
    /* the scoresheet: the latest agreed half-move, then the one before */
    key("LnUp", pad("Zug 1, Schwarz: Bauer Eva sieben Eva"));
    key("FWinRt", pad("fünf"));
    key("Top", pad("Zug 1, Weiß: Bauer Eva zwei Eva vier"));
    /* the clock on request: the CLOCK button's words */
    press(&b, "Time");
    end = now() + 10;
    while (!read_display_starting(&b, "Weiß 0 Minuten", 0.05)) {
        tb_daemon_step(f.d, 20);
        if (now() > end)
            TB_FAIL("the clock was not shown: \"%s\"", b.visual);
    }
    /* BRLTTY stops: said once, the daemon goes on */
    stop_brltty(&b);
    for (int i = 0; i < 50; i++)
        tb_daemon_step(f.d, 20);
    ASSERT_STR_CONTAINS(f.log, "the braille display is gone (BRLTTY stopped)");
    ASSERT_STR_CONTAINS(fx_req(&f, "status"), "blocked");
    fx_free(&f);
}

/* D.2.1: the opponent's move waits for the VI player's copy: the display asks for it, naming
 * the move (once, not twice); the copy made, the move stays as the last move. */
TB_TEST(daemon_shows_the_move_to_copy_on_a_real_brltty)
{
    struct brltty b;
    struct fx f;
    start(&b, &f, "daemon-braille-copy",
          "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
          "3000 sighted lift g8\n3300 sighted place f6\n");
    for (int i = 0; i < 20; i++) /* the scripts end; the copy is not made */
        tb_daemon_step(f.d, 0);
    if (!read_display_starting(&b, "Bitte nachziehen: Springer Gustav acht", 10))
        TB_FAIL("BRLTTY shows \"%s\"", b.visual);
    key("FWinRt", pad("Felix sechs"));
    fx_free(&f);
    stop_brltty(&b);
}

/* braille configured, BRLTTY not there: one line in the log, the game is played as without. */
TB_TEST(daemon_without_brltty_says_so_once_and_plays_on)
{
    struct fx f;
    fx_init(&f, "daemon-no-braille");
    fx_script(&f,
              "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n");
    fx_options(&f, "script", "script");
    snprintf(f.o.cfg.player[0].braille, sizeof f.o.cfg.player[0].braille, "brltty:127.0.0.1:59001");
    snprintf(f.o.cfg.player[0].braille_auth, sizeof f.o.cfg.player[0].braille_auth, "none");
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    ASSERT_EQ(fx_plies(&f), 1);
    const char *first = strstr(f.log, "vi player: no braille display");
    ASSERT_NOT_NULL(first);
    if (tb_braille_brlapi_built()) /* else: this build has no BrlAPI, which is said instead */
        ASSERT_STR_CONTAINS(first, "127.0.0.1:59001");
    ASSERT_NULL(strstr(first + 1, "vi player: no braille display"));
    fx_free(&f);
}
