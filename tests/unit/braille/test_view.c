/* The braille view (pure): windows of the display's width cut at word boundaries, UTF-8 counted
 * in characters, the status line, the clock on request, and the scoresheet browsed with the
 * display's keys. */
#include <stdlib.h>

#include "tb_braille.h"
#include "tb_test.h"

static char shown[4 * TB_BRAILLE_CELLS_MAX + 1];

/* The window, trailing padding dropped (the padding itself is checked in render_pads). */
static const char *window_text(const struct tb_braille_view *v)
{
    ASSERT_TRUE(tb_braille_view_render(v, shown, sizeof shown) > 0);
    size_t n = strlen(shown);
    while (n > 0 && shown[n - 1] == ' ')
        shown[--n] = '\0';
    return shown;
}

static size_t chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        n += (*u & 0xC0) != 0x80;
    return n;
}

static struct tb_braille_view *view(int cells)
{
    struct tb_braille_view *v = NULL;
    ASSERT_OK(tb_braille_view_new(cells, &v));
    return v;
}

TB_TEST(render_pads_to_the_width_in_characters)
{
    struct tb_braille_view *v = view(20);
    ASSERT_OK(tb_braille_view_last_move(v, "Läufer schlägt"));
    int n = tb_braille_view_render(v, shown, sizeof shown);
    ASSERT_EQ(n, (int)strlen("Läufer schlägt") + 6); /* 14 characters, 2 of 2 bytes */
    ASSERT_EQ(chars(shown), 20);
    ASSERT_EQ(tb_braille_view_render(v, shown, 10), TB_ERR_FULL);
    ASSERT_EQ(tb_braille_view_new(0, &v), TB_ERR_ARG);
    tb_braille_view_free(v);
    tb_braille_view_free(NULL);
}

/* A window ends before a word it would split; the next starts with that word. A word longer
 * than the display is cut where the display ends. */
TB_TEST(windows_end_at_word_boundaries)
{
    struct tb_braille_view *v = view(12);
    ASSERT_OK(tb_braille_view_last_move(v, "Springer Gustav eins Felix drei"));
    ASSERT_STR_EQ(window_text(v), "Springer");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Gustav eins");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Felix drei");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_UNCHANGED);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_LEFT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Gustav eins");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_LEFT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Springer");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_LEFT), TB_BRAILLE_UNCHANGED);
    ASSERT_OK(tb_braille_view_last_move(v, "Schachweltmeisterschaft"));
    ASSERT_STR_EQ(window_text(v), "Schachweltme");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "isterschaft");
    tb_braille_view_free(v);
}

/* Generated: for random texts and widths, panning right from the start shows every word exactly
 * once, in order, and every window is exactly the width; panning left retraces the same
 * windows. */
TB_TEST(panning_shows_every_word_once_generated)
{
    static const char *const words[] = {"Zug",   "Weiß",  "Läufer", "Felix",       "eins",
                                        "fünf",  "Bella", "a",      "Schwarz:",    "Dame,",
                                        "Türme", "und",   "Hector", "Unzulässiger"};
    srand(13);
    for (int round = 0; round < 500; round++) {
        int cells = 12 + rand() % 40;
        char text[TB_BRAILLE_TEXT_MAX + 1] = "";
        int nwords = 1 + rand() % 30;
        for (int i = 0; i < nwords; i++) {
            strcat(text, i ? " " : "");
            strcat(text, words[rand() % 14]);
        }
        struct tb_braille_view *v = view(cells);
        ASSERT_OK(tb_braille_view_state(v, text));
        char joined[2 * TB_BRAILLE_TEXT_MAX] = "";
        char seen[64][4 * TB_BRAILLE_CELLS_MAX + 1];
        int windows = 0;
        do {
            ASSERT_TRUE(tb_braille_view_render(v, shown, sizeof shown) > 0);
            ASSERT_EQ(chars(shown), (size_t)cells);
            ASSERT_LT(windows, 64);
            snprintf(seen[windows++], sizeof seen[0], "%s", shown);
            window_text(v);
            strcat(joined, *joined ? " " : "");
            strcat(joined, shown);
        } while (tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT) == TB_BRAILLE_REDRAW);
        ASSERT_STR_EQ(joined, text);
        for (int w = windows - 1; w >= 0; w--) {
            ASSERT_TRUE(tb_braille_view_render(v, shown, sizeof shown) > 0);
            ASSERT_STR_EQ(shown, seen[w]);
            ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_LEFT),
                      w ? TB_BRAILLE_REDRAW : TB_BRAILLE_UNCHANGED);
        }
        tb_braille_view_free(v);
    }
}

TB_TEST(status_line_state_then_last_move)
{
    struct tb_braille_view *v = view(80);
    ASSERT_STR_EQ(window_text(v), "");
    ASSERT_OK(tb_braille_view_last_move(v, "Kurze Rochade"));
    ASSERT_STR_EQ(window_text(v), "Kurze Rochade");
    ASSERT_OK(tb_braille_view_state(v, "Bitte korrigieren: Bauer auf Eva zwei stellen"));
    ASSERT_STR_EQ(window_text(v), "Bitte korrigieren: Bauer auf Eva zwei stellen - Kurze Rochade");
    ASSERT_OK(tb_braille_view_state(v, ""));
    ASSERT_STR_EQ(window_text(v), "Kurze Rochade");
    /* When both do not fit, the state and the last move get windows of their own. */
    ASSERT_OK(tb_braille_view_state(v, "Bretter weichen ab, Brett Weiß, Bauer auf Eva zwei"));
    ASSERT_OK(tb_braille_view_last_move(v, "Springer Gustav eins Felix drei"));
    ASSERT_STR_EQ(window_text(v), "Bretter weichen ab, Brett Weiß, Bauer auf Eva zwei -");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Springer Gustav eins Felix drei");
    ASSERT_OK(tb_braille_view_state(v, ""));
    ASSERT_OK(tb_braille_view_last_move(v, "Kurze Rochade"));
    /* Bad text changes nothing. */
    ASSERT_EQ(tb_braille_view_last_move(v, "Zug\n"), TB_ERR_ARG);
    ASSERT_EQ(tb_braille_view_last_move(v, "\xC3\x28"), TB_ERR_ARG);
    ASSERT_EQ(tb_braille_view_last_move(v, NULL), TB_ERR_ARG);
    char big[TB_BRAILLE_TEXT_MAX + 2];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ASSERT_EQ(tb_braille_view_last_move(v, big), TB_ERR_ARG);
    ASSERT_STR_EQ(window_text(v), "Kurze Rochade");
    tb_braille_view_free(v);
}

static struct tb_braille_view *with_sheet(int cells)
{
    struct tb_braille_view *v = view(cells);
    static const char *const lines[] = {"Zug 1, Weiß: Eva vier", "Zug 1, Schwarz: Eva fünf",
                                        "Zug 2, Weiß: Springer Felix drei"};
    for (int i = 0; i < 3; i++)
        ASSERT_OK(tb_braille_view_append(v, lines[i]));
    ASSERT_OK(tb_braille_view_last_move(v, "Springer Felix drei"));
    return v;
}

TB_TEST(scoresheet_browsed_with_line_keys)
{
    struct tb_braille_view *v = with_sheet(40);
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_STATUS);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_DOWN), TB_BRAILLE_UNCHANGED);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_SCORESHEET);
    ASSERT_EQ(tb_braille_view_line(v), 2);
    ASSERT_STR_EQ(window_text(v), "Zug 2, Weiß: Springer Felix drei");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Zug 1, Schwarz: Eva fünf");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_UNCHANGED);
    ASSERT_EQ(tb_braille_view_line(v), 0);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_BOTTOM), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_line(v), 2);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_TOP), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Zug 1, Weiß: Eva vier");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_DOWN), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_DOWN), TB_BRAILLE_REDRAW);
    /* Past the latest half-move: back to the status line. */
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_DOWN), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_STATUS);
    ASSERT_EQ(tb_braille_view_line(v), -1);
    ASSERT_STR_EQ(window_text(v), "Springer Felix drei");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_TOP), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_HOME), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_HOME), TB_BRAILLE_UNCHANGED);
    ASSERT_EQ(tb_braille_view_key(v, 99), TB_ERR_ARG);
    tb_braille_view_free(v);
}

/* Panning past a line's end goes on to the next line, and back to the previous line's end. */
TB_TEST(panning_crosses_scoresheet_lines)
{
    struct tb_braille_view *v = with_sheet(16);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_TOP), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Zug 1, Weiß: Eva");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "vier");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_line(v), 1);
    ASSERT_STR_EQ(window_text(v), "Zug 1, Schwarz:");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_LEFT), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_line(v), 0);
    ASSERT_STR_EQ(window_text(v), "vier");
    tb_braille_view_free(v);
}

/* News brings the status line back at once, whatever the player was reading. */
TB_TEST(news_returns_to_the_status_line)
{
    struct tb_braille_view *v = with_sheet(40);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_TOP), TB_BRAILLE_REDRAW);
    ASSERT_OK(tb_braille_view_state(v, "Bretter weichen ab, Brett Schwarz"));
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_STATUS);
    ASSERT_STR_EQ(window_text(v), "Bretter weichen ab, Brett Schwarz -");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_OK(tb_braille_view_last_move(v, "Lange Rochade"));
    ASSERT_STR_EQ(window_text(v), "Bretter weichen ab, Brett Schwarz -");
    tb_braille_view_free(v);
}

/* The clock key asks for the clock; the clock shows until another key, which then acts. */
TB_TEST(clock_on_request)
{
    struct tb_braille_view *v = with_sheet(40);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_CLOCK), TB_BRAILLE_WANT_CLOCK);
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_STATUS); /* nothing until the answer */
    ASSERT_OK(tb_braille_view_clock(v, "Weiß 3 Minuten 10 Sekunden, Schwarz 2 Minuten"));
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_CLOCK);
    ASSERT_STR_EQ(window_text(v), "Weiß 3 Minuten 10 Sekunden, Schwarz 2");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_PAN_RIGHT), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Minuten");
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_CLOCK);
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_SCORESHEET);
    ASSERT_EQ(tb_braille_view_line(v), 2);
    ASSERT_OK(tb_braille_view_clock(v, "Weiß 3:10"));
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_HOME), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Springer Felix drei");
    tb_braille_view_free(v);
}

/* The scoresheet built from a game in the pack's words; rebuilt shorter (moves taken back, D.2.9)
 * while a later line is read, the view stays on the latest line there is. */
TB_TEST(scoresheet_from_a_game_in_the_pack_words)
{
    struct tb_voice_pack *pack = NULL;
    struct tb_error err = {0};
    ASSERT_OK(tb_voice_pack_load("nl", &pack, &err));
    tb_chess_game *g = calloc(1, sizeof *g);
    tb_chess_pos start;
    tb_chess_pos_startpos(&start);
    tb_chess_game_init(g, &start);
    static const char *const uci[] = {"d2d4", "g8f6", "c2c4"};
    for (int i = 0; i < 3; i++) {
        tb_chess_move m;
        ASSERT_OK(tb_chess_move_from_uci(&g->pos, uci[i], &m));
        ASSERT_OK(tb_chess_game_push(g, m));
    }
    struct tb_braille_view *v = view(40);
    ASSERT_OK(tb_braille_view_set_game(v, pack, g, TB_VOICE_SHORT));
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Zet 2, wit: Cesar vier");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_LINE_UP), TB_BRAILLE_REDRAW);
    ASSERT_STR_EQ(window_text(v), "Zet 1, zwart: paard Felix zes");
    ASSERT_EQ(tb_braille_view_key(v, TB_BRAILLE_KEY_BOTTOM), TB_BRAILLE_REDRAW);
    ASSERT_OK(tb_chess_game_pop(g));
    ASSERT_OK(tb_chess_game_pop(g));
    ASSERT_OK(tb_braille_view_set_game(v, pack, g, TB_VOICE_SHORT));
    ASSERT_EQ(tb_braille_view_line(v), 0);
    ASSERT_STR_EQ(window_text(v), "Zet 1, wit: David vier");
    ASSERT_OK(tb_chess_game_pop(g));
    ASSERT_OK(tb_braille_view_set_game(v, pack, g, TB_VOICE_SHORT));
    ASSERT_EQ(tb_braille_view_mode(v), TB_BRAILLE_STATUS);
    ASSERT_EQ(tb_braille_view_set_game(v, NULL, g, TB_VOICE_SHORT), TB_ERR_ARG);
    tb_braille_view_free(v);
    tb_voice_pack_free(pack);
    free(g);
}
