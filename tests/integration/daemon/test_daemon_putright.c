/* Long put-right lists stay readable (D.2.9): a board with many squares to change is told what
 * to do in spoken parts of at most 6 squares (each a whole instruction, lifts before places,
 * in order), and the arbiter's view gives at most 4 steps a line and no line over 200
 * characters, none cut, in status and in the log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tb_test.h"

#define PARTS_MAX 6 /* TBD_PUT_RIGHT_SQUARES */
#define STEPS_MAX 4 /* TBD_FIX_STEPS_PER_LINE */
#define LINE_MAX  200

/* The put-right instructions said to a player, in order (from the log). */
static int put_rights(const struct fx *f, const char *who, char parts[][1024], int max)
{
    char key[64];
    snprintf(key, sizeof key, "say to %s (", who);
    int n = 0;
    for (const char *p = f->log; (p = strstr(p, key)) && n < max; p++) {
        const char *text = strstr(p, "): ") + 3;
        size_t len = strcspn(text, "\n");
        if (strncmp(text, "Bitte korrigieren", 17) != 0)
            continue;
        snprintf(parts[n++], 1024, "%.*s", (int)len, text);
    }
    return n;
}

static int count(const char *s, const char *word)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, word)); p += strlen(word))
        n++;
    return n;
}

/* set-position to two bare kings: each board, showing the start, must lose 30 pieces. */
TB_TEST(law_D_2_9_a_whole_board_to_set_up_is_said_in_parts)
{
    struct fx f;
    fx_init(&f, "setup");
    fx_script(&f, "");
    fx_options(&f, "null:", "null:");
    f.o.exit_when_done = false;
    fx_start(&f);
    ASSERT_STR_EQ(fx_req(&f, "set-position 4k3/8/8/8/8/8/8/4K3 w - - 0 1 pin=" FX_PIN), "ok\n");
    char parts[16][1024];
    int n = put_rights(&f, "vi", parts, 16);
    ASSERT_EQ(n, 5); /* 30 squares, 6 a part */
    int squares = 0;
    for (int i = 0; i < n; i++) {
        int k = count(parts[i], " nehmen");
        if (k < 1 || k > PARTS_MAX)
            TB_FAIL("part %d has %d squares: %s", i + 1, k, parts[i]);
        squares += k;
        ASSERT_LT(strlen(parts[i]), 400u);
    }
    ASSERT_EQ(squares, 30);
    /* in board order: the first part begins with White's pieces on the first rank */
    ASSERT_STR_CONTAINS(parts[0], "Anna eins nehmen");
    ASSERT_STR_CONTAINS(parts[4], "Hector acht nehmen");
    fx_free(&f);
}

/* A VI player sweeps ten pieces off the board and holds them: the view names each square, four
 * steps a line, and every line is whole. */
TB_TEST(law_D_2_9_a_long_view_keeps_its_lines_short_and_whole)
{
    struct fx f;
    fx_init(&f, "sweep");
    fx_script(&f, "1000 vi lift e2\n1300 vi place e4\n2000 sighted lift e2\n2300 sighted place e4\n"
                  "2600 vi lift a2\n2610 vi lift b2\n2620 vi lift c2\n2630 vi lift d2\n"
                  "2640 vi lift f2\n2650 vi lift g2\n2660 vi lift h2\n2670 vi lift b1\n"
                  "2680 vi lift g1\n2690 vi lift c1\n");
    fx_options(&f, "script", "script");
    f.o.exit_when_done = false;
    fx_start(&f);
    unsigned id = fx_run(&f, 2000);
    ASSERT_GT(id, 0u);
    const char *st = fx_req(&f, "status");
    const char *view = strstr(st, "MISMATCH");
    ASSERT_NOT_NULL(view);
    int steps_seen = 0;
    for (const char *p = view; *p;) {
        size_t len = strcspn(p, "\n");
        if (len > LINE_MAX)
            TB_FAIL("a line of %zu characters: %.*s", len, (int)len, p);
        char line[LINE_MAX + 1];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (strstr(line, "put a ")) {
            int k = count(line, "put a ");
            ASSERT_LE(k, STEPS_MAX);
            steps_seen += k;
        }
        p += len + (p[len] == '\n');
    }
    ASSERT_EQ(steps_seen, 10); /* every piece to put back, none cut */
    ASSERT_STR_CONTAINS(view, "put a White pawn on a2");
    ASSERT_STR_CONTAINS(view, "put a White B on c1");
    /* the log has the same lines, one record a line (the view is logged as warnings) */
    ASSERT_STR_CONTAINS(f.log, "put a White N on g1");
    static const char warn[] = "twinboardd: warn: ";
    for (const char *p = f.log; *p;) {
        size_t len = strcspn(p, "\n");
        if (!strncmp(p, warn, sizeof warn - 1) && len > LINE_MAX + sizeof warn - 1)
            TB_FAIL("a log line of %zu characters: %.*s", len, (int)len, p);
        p += len + (p[len] == '\n');
    }
    fx_free(&f);
}
