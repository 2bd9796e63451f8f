/* The VI player on their own (issue 13), through the daemon on script time: the PROMOTE button
 * chooses every piece, with and without capture, before, during and after the placement, by the
 * prompt, ended by the clock; what each player hears is checked word for word (the daemon's
 * "say to" log lines, the words handed to the speech thread), the PGN has the piece, and a
 * restart from the journal gives the same game. Also: the review requests on the buttons and
 * the control socket, and the confirmation of the player's own move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "recorder.h"
#include "tb_test.h"

/* White (VI) promotes on b8, or takes the rook on a8; Black's king and pawn keep the game on. */
#define FEN "r7/1P5p/7k/8/8/8/8/4K3 w - - 0 1"

/* Everything said to one player ("say to vi (White): ..."), one per line, in order; the clock's
 * own words (the CLOCK button's time, D.2.6) are the clock's business and left out. */
static void heard(const struct fx *f, const char *who, char *buf, size_t len)
{
    char key[64];
    size_t used = 0;
    buf[0] = '\0';
    int n = snprintf(key, sizeof key, "say to %s (", who);
    for (const char *p = f->log; (p = strstr(p, key)); p += n) {
        const char *text = strstr(p, "): ");
        if (!text)
            break;
        text += 3;
        size_t k = strcspn(text, "\n");
        const char *minute = strstr(text, " Minute");
        if (minute && minute < text + k)
            continue;
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%.*s\n", (int)k, text);
    }
    ASSERT_LT(used, len);
}

/* Both boards play script from fen (NULL: the standard position) until it has all been
 * said; the VI player's own move is confirmed as confirm says. */
static void run_script(struct fx *f, const char *name, const char *fen, int confirm,
                       const char *script)
{
    fx_init(f, name);
    fx_script(f, script);
    fx_options(f, "script", "script");
    if (fen)
        snprintf(f->o.cfg.start_fen, sizeof f->o.cfg.start_fen, "%s", fen);
    f->o.cfg.player[0].confirm = confirm;
    fx_start(f);
    ASSERT_EQ(fx_run(f, 100000), 0u);
    struct tb_daemon_counters c;
    tb_daemon_counters(f->d, &c);
    ASSERT_TRUE(c.done);
}

static void start(struct fx *f, const char *name, const char *script)
{
    run_script(f, name, FEN, TB_VOICE_CONFIRM_WORD, script);
}

/* Appends "T vi press promote" / "T+50 vi release promote" n times from t, 200 ms apart;
 * returns the time after the last release. */
static int presses(char *s, size_t len, int t, int n)
{
    size_t used = strlen(s);
    for (int i = 0; i < n; i++, t += 200)
        used += (size_t)snprintf(s + used, len - used,
                                 "%d vi press promote\n%d vi release promote\n", t, t + 50);
    return t;
}

static const char *const piece_word[4] = {"Dame", "Turm", "Läufer", "Springer"};
static const char piece_letter[4] = {'Q', 'R', 'B', 'N'};

/* The words each press says: Dame, Turm, ... up to the n-th. */
static void press_words(int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s\n", piece_word[i % 4]);
}

enum when { BEFORE, DURING, AFTER };

/* 4.6, D.2.1: the player chooses the piece on the board's button (k+1 presses give piece k),
 * before, while or after the pawn is moved; the move is announced with it once the player has
 * stopped pressing (1.5 s) and the piece stands. */
static void promote_by_button(int k, bool capture, enum when when)
{
    static const char *const when_name[] = {"before", "during", "after"};
    char name[64], s[4096] = "", want[512], got[2048], pgn_san[16];
    snprintf(name, sizeof name, "promote-%c-%s-%s", piece_letter[k], capture ? "x" : "q",
             when_name[when]);
    const char *to = capture ? "a8" : "b8";
    size_t u = 0;
    int t = 1000;
    if (when == BEFORE) {
        t = presses(s, sizeof s, t, k + 1);
        t += 2000; /* the choice taken (1.5 s after the last press) before the pawn moves */
    }
    if (capture)
        u = strlen(s), snprintf(s + u, sizeof s - u, "%d vi lift a8\n", t), t += 300;
    u = strlen(s), snprintf(s + u, sizeof s - u, "%d vi lift b7\n", t), t += 300;
    if (when == DURING)
        t = presses(s, sizeof s, t, k + 1);
    u = strlen(s), snprintf(s + u, sizeof s - u, "%d vi place %s\n", t, to), t += 500;
    if (when == AFTER)
        t = presses(s, sizeof s, t, k + 1);
    t += 3000; /* the copy, once the move has been announced */
    if (capture)
        u = strlen(s), snprintf(s + u, sizeof s - u, "%d sighted lift a8\n", t), t += 300;
    u = strlen(s);
    snprintf(s + u, sizeof s - u, "%d sighted lift b7\n%d sighted place %s\n", t, t + 300, to);

    struct fx f;
    start(&f, name, s);
    /* the VI player: each press names the piece it offers, then the move is taken */
    press_words(k + 1, want, sizeof want);
    u = strlen(want);
    snprintf(want + u, sizeof want - u, "Zug genommen\n");
    heard(&f, "vi", got, sizeof got);
    ASSERT_STR_EQ(got, want);
    /* the sighted player: the move with its piece (D.2.1) */
    snprintf(want, sizeof want, "Bauer Bella sieben %s%s %s\n", capture ? "schlägt " : "",
             capture ? "Anna acht" : "Bella acht", piece_word[k]);
    heard(&f, "sighted", got, sizeof got);
    ASSERT_STR_EQ(got, want);
    /* the game and its PGN */
    snprintf(pgn_san, sizeof pgn_san, "%s8=%c", capture ? "bxa" : "b", piece_letter[k]);
    char moves[256];
    ASSERT_STR_EQ(fx_moves(&f, moves, sizeof moves), pgn_san);
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), pgn_san);
    ASSERT_NULL(strstr(f.log, "queen assumed"));
    ASSERT_NULL(strstr(f.log, "Umwandlung: welche Figur?")); /* chosen before the prompt */
    /* the journal has the choice: a restart gives the same game */
    fx_stop(&f);
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    ASSERT_STR_EQ(fx_moves(&f, moves, sizeof moves), pgn_san);
    fx_free(&f);
}

TB_TEST(law_4_6_promote_button_chooses_every_piece_before_the_placement)
{
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++)
            promote_by_button(k, x, BEFORE);
}

TB_TEST(law_4_6_promote_button_chooses_every_piece_during_the_placement)
{
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++)
            promote_by_button(k, x, DURING);
}

TB_TEST(law_4_6_promote_button_chooses_every_piece_after_the_placement)
{
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++)
            promote_by_button(k, x, AFTER);
}

/* 4.6: the pawn on the last rank, no choice: after promotion_prompt_ms the player is asked in
 * their pack's words; five presses come round to the queen again and past it to the rook. */
TB_TEST(law_4_6_promotion_waiting_asks_the_player_who_then_chooses)
{
    struct fx f;
    char s[2048] = "1000 vi lift b7\n1300 vi place b8\n", got[1024];
    int t = presses(s, sizeof s, 5000, 6); /* Dame Turm Läufer Springer Dame Turm */
    size_t u = strlen(s);
    snprintf(s + u, sizeof s - u, "%d sighted lift b7\n%d sighted place b8\n", t + 3000, t + 3300);
    start(&f, "promote-asked", s);
    heard(&f, "vi", got, sizeof got);
    ASSERT_STR_EQ(got, "Umwandlung: welche Figur?\nDame\nTurm\nLäufer\nSpringer\nDame\nTurm\n"
                       "Zug genommen\n");
    heard(&f, "sighted", got, sizeof got);
    ASSERT_STR_EQ(got, "Bauer Bella sieben Bella acht Turm\n");
    char moves[64];
    ASSERT_STR_EQ(fx_moves(&f, moves, sizeof moves), "b8=R");
    fx_free(&f);
}

/* 6.2.1, 7.5.2: the clock pressed with the pawn on the last rank and no piece chosen gives the
 * queen, and the player is told; the opponent hears the queen. */
TB_TEST(law_7_5_2_clock_without_a_choice_gives_the_queen_and_says_so)
{
    struct fx f;
    start(&f, "promote-clock-queen",
          "1000 vi lift a8\n1300 vi lift b7\n1600 vi place a8\n2000 vi press clock\n"
          "2050 vi release clock\n5000 sighted lift a8\n5300 sighted lift b7\n"
          "5600 sighted place a8\n");
    char got[1024];
    heard(&f, "vi", got, sizeof got);
    ASSERT_STR_EQ(got, "Zug genommen\nKeine Figur gewählt: Dame\n");
    heard(&f, "sighted", got, sizeof got);
    ASSERT_STR_EQ(got, "Bauer Bella sieben schlägt Anna acht Dame\n");
    char moves[64];
    ASSERT_STR_EQ(fx_moves(&f, moves, sizeof moves), "bxa8=Q");
    ASSERT_STR_CONTAINS(fx_req(&f, "pgn"), "promoted without a choice: queen (7.5.2)");
    fx_free(&f);
}

/* 6.2.1: the clock pressed right after the presses (before the player would have paused) takes
 * the piece offered then, not the queen. */
TB_TEST(law_6_2_1_clock_takes_the_piece_the_button_offers)
{
    struct fx f;
    char s[2048] = "1000 vi lift b7\n1300 vi place b8\n";
    int t = presses(s, sizeof s, 1600, 4); /* ... Springer */
    size_t u = strlen(s);
    snprintf(s + u, sizeof s - u,
             "%d vi press clock\n%d vi release clock\n%d sighted lift b7\n%d sighted place b8\n", t,
             t + 50, t + 3000, t + 3300);
    start(&f, "promote-clock-knight", s);
    char got[1024], moves[64];
    heard(&f, "vi", got, sizeof got);
    ASSERT_STR_EQ(got, "Dame\nTurm\nLäufer\nSpringer\nZug genommen\n");
    ASSERT_STR_EQ(fx_moves(&f, moves, sizeof moves), "b8=N");
    ASSERT_NULL(strstr(f.log, "7.5.2"));
    fx_free(&f);
}

/* The PROMOTE button with no promotion to make says so; held, it asks for the position; REPEAT
 * held asks for the last moves; the words are the pack's. */
TB_TEST(buttons_outside_a_promotion_no_promotion_and_reviews)
{
    struct fx f;
    run_script(&f, "review-buttons", NULL, TB_VOICE_CONFIRM_OFF,
               "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
               "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
               "5000 vi press promote\n5100 vi release promote\n"
               "6000 vi press repeat\n7500 vi release repeat\n"
               "9000 vi press promote\n10500 vi release promote\n");
    char got[1024];
    heard(&f, "vi", got, sizeof got);
    /* the opponent's move, the promote button (REPEAT's last move again is the speaker's own:
     * no speech here) */
    ASSERT_STR_EQ(got, "Bauer Eva sieben Eva fünf\nKeine Umwandlung\n");
    ASSERT_STR_CONTAINS(f.log, "review to vi (White): Zug 1, Weiß: Bauer Eva zwei Eva vier. "
                               "Zug 1, Schwarz: Bauer Eva sieben Eva fünf\n");
    ASSERT_STR_CONTAINS(f.log, "review to vi (White): Weiß: König Eva eins, Dame David eins, ");
    fx_free(&f);
}

/* The `review` request: said to the player, the text in the answer, a sentence a line; bad
 * requests refused with the reason. */
TB_TEST(review_request_says_the_game_back)
{
    struct fx f;
    run_script(&f, "review-request", NULL, TB_VOICE_CONFIRM_OFF,
               "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
               "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n");
    ASSERT_STR_EQ(fx_req(&f, "review vi"), "ok+ said to vi\nZug 1, Weiß: Bauer Eva zwei Eva vier.\n"
                                           "Zug 1, Schwarz: Bauer Eva sieben Eva fünf\n.\n");
    ASSERT_STR_EQ(fx_req(&f, "review sighted last 1"),
                  "ok+ said to sighted\nZug 1, Schwarz: Bauer Eva sieben Eva fünf\n.\n");
    ASSERT_STR_EQ(fx_req(&f, "review vi to-move"),
                  "ok+ said to vi\nWeiß am Zug.\nKein Schach\n.\n");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi material"), "Material gleich");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi from 1"), "Zug 1, Weiß");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi from 9"), "error ");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi sideways"), "error syntax");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi from"), "needs a move number");
    ASSERT_STR_CONTAINS(fx_req(&f, "review vi position 3"), "takes no number");
    ASSERT_STR_CONTAINS(f.log, "review to sighted (Black): Zug 1, Schwarz");
    fx_free(&f);
}

/* The confirmation as an earcon: logged for the player, no word said. */
TB_TEST(confirmation_earcon_for_the_own_move)
{
    struct fx f;
    run_script(&f, "confirm-earcon", NULL, TB_VOICE_CONFIRM_EARCON,
               "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n");
    ASSERT_STR_CONTAINS(f.log, "earcon to vi (White): move taken");
    ASSERT_NULL(strstr(f.log, "earcon to sighted"));
    char got[256];
    heard(&f, "vi", got, sizeof got);
    ASSERT_STR_EQ(got, "");
    fx_free(&f);
}

static bool review_cut(struct fx *f)
{
    return strstr(f->log, " cut\n") != NULL;
}

/* A review never stands in the way of play: the VI player holds REPEAT (the last moves are
 * queued as a review behind the move still being heard), then lifts a piece: the review is cut
 * before a word of it was played. Speech on, into a sink that plays nothing (the test holds the
 * play position), so "still waiting" is a state, not a race. */
TB_TEST(a_board_event_cuts_the_review)
{
    struct fx f;
    struct recorder rec[2];
    fx_init(&f, "review-cut");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
                  "3000 sighted lift e7\n3300 sighted place e5\n4000 vi lift e7\n4300 vi place e5\n"
                  "5000 vi press repeat\n6500 vi release repeat\n7000 vi lift g1\n");
    fx_options(&f, "script", "script");
    f.o.audio = NULL;
    f.o.sink = &recorder_ops;
    for (int i = 0; i < 2; i++) {
        recorder_init(&rec[i], i == TB_CHESS_WHITE ? 0 : UINT64_MAX);
        f.o.sink_arg[i] = &rec[i];
    }
    fx_start(&f);
    ASSERT_TRUE(fx_run_until(&f, 20000, review_cut));
    ASSERT_STR_CONTAINS(f.log, "review to vi (White): Zug 1, Weiß: Bauer Eva zwei Eva vier. ");
    /* the review came after REPEAT's release and was cut by the lift that followed */
    const char *review = strstr(f.log, "review to vi"), *lift = strstr(f.log, "cut\n");
    ASSERT_TRUE(review && lift && review < lift);
    fx_stop(&f);
    for (int i = 0; i < 2; i++)
        recorder_destroy(&rec[i]);
    fx_free(&f);
}

/* The "time used:" line of status ("" when there is none). */
static void time_used(struct fx *f, char *buf, size_t len)
{
    const char *line = strstr(fx_req(f, "status"), "time used: ");
    snprintf(buf, len, "%.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
}

/* D.2.6: the time each colour has used, measured between the boards' moves (what the CLOCK
 * button says without a clock), is rebuilt from the journal at a restart: recovery replays the
 * moves into the VI player's state before anything else is heard. */
TB_TEST(law_D_2_6_time_used_is_the_same_after_a_restart)
{
    struct fx f;
    char before[128], after[128];
    run_script(
        &f, "time-used-restart", NULL, TB_VOICE_CONFIRM_OFF,
        "1000 vi lift e2\n1300 vi place e4\n4000 sighted lift e2\n4300 sighted place e4\n"
        "9000 sighted lift e7\n9300 sighted place e5\n12000 vi lift e7\n12300 vi place e5\n"
        "20000 vi lift g1\n20300 vi place f3\n23000 sighted lift g1\n23300 sighted place f3\n");
    time_used(&f, before, sizeof before);
    /* White's e4 at 1.3 s and Nf3 at 20.3 s, Black's e5 at 9.3 s: 12 s and 8 s */
    ASSERT_STR_EQ(before, "time used: White 12 s, Black 8 s");
    fx_stop(&f);
    fx_start(&f);
    ASSERT_EQ(fx_run(&f, 100000), 0u);
    time_used(&f, after, sizeof after);
    ASSERT_STR_EQ(after, before);
    fx_free(&f);
}
