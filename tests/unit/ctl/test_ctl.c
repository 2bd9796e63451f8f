/* Tests of the control protocol: requests, PIN checks, line reading, response lines. */
#include "tb_ctl.h"
#include "tb_test.h"

static int parse(const char *s, struct tb_ctl_request *r, struct tb_error *e)
{
    return tb_ctl_parse(s, strlen(s), r, e);
}

TB_TEST(good_requests_parse)
{
    struct tb_ctl_request r;
    struct tb_error e = {0};
#define OK(s) ASSERT_OK(parse(s, &r, &e))
    OK("status\n");
    ASSERT_EQ(r.verb, TB_CTL_STATUS);
    ASSERT_FALSE(r.needs_pin);
    ASSERT_TRUE(tb_ctl_verb_is_multiline(r.verb));
    OK("moves");
    ASSERT_EQ(r.verb, TB_CTL_MOVES);
    OK("pgn\r\n");
    ASSERT_EQ(r.verb, TB_CTL_PGN);
    OK("scoresheet");
    ASSERT_STR_EQ(r.lang, "");
    OK("scoresheet nl");
    ASSERT_STR_EQ(r.lang, "nl");
    OK("  resolve   3\tpin=471193 ");
    ASSERT_EQ(r.verb, TB_CTL_RESOLVE);
    ASSERT_EQ(r.number, 3);
    ASSERT_TRUE(r.needs_pin);
    ASSERT_TRUE(r.has_pin);
    ASSERT_STR_EQ(r.pin, "471193");
    OK("takeback pin=471193");
    ASSERT_EQ(r.number, 1);
    OK("takeback 4 pin=471193");
    ASSERT_EQ(r.number, 4);
    OK("promote n");
    ASSERT_EQ(r.piece, 'n');
    ASSERT_FALSE(r.needs_pin);
    OK("repeat");
    ASSERT_EQ(r.board, -1);
    OK("repeat sighted");
    ASSERT_EQ(r.board, 1);
    OK("new-game pin=12345678");
    ASSERT_EQ(r.verb, TB_CTL_NEW_GAME);
    ASSERT_STR_EQ(r.tag[TB_CTL_WHITE], "");
    /* games kept: the tags name the game, a value with spaces in double quotes */
    OK("new-game round=3 white=\"Anna Schmidt\" black=Bert pin=471193");
    ASSERT_STR_EQ(r.tag[TB_CTL_ROUND], "3");
    ASSERT_STR_EQ(r.tag[TB_CTL_WHITE], "Anna Schmidt");
    ASSERT_STR_EQ(r.tag[TB_CTL_BLACK], "Bert");
    ASSERT_EQ(parse("new-game colour=white pin=471193", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "is not event=, site=, date=, round=, white= or black=");
    OK("games");
    ASSERT_EQ(r.verb, TB_CTL_GAMES);
    ASSERT_FALSE(r.needs_pin);
    OK("set-position r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 pin=471193");
    ASSERT_EQ(r.verb, TB_CTL_SET_POSITION);
    ASSERT_STR_EQ(r.text, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    OK("move sighted Nf3");
    ASSERT_EQ(r.board, 1);
    ASSERT_STR_EQ(r.text, "Nf3");
    OK("move vi e7e8q");
    ASSERT_EQ(r.board, 0);
    OK("help");
    ASSERT_EQ(r.verb, TB_CTL_HELP);
#undef OK
}

/* The game said back to a player (D.2.7): board, request, count. */
TB_TEST(review_requests_parse_and_bad_ones_say_why)
{
    struct tb_ctl_request r;
    struct tb_error e;
    ASSERT_OK(parse("review vi", &r, &e));
    ASSERT_EQ(r.verb, TB_CTL_REVIEW);
    ASSERT_EQ(r.board, 0);
    ASSERT_STR_EQ(r.text, "last");
    ASSERT_EQ(r.number, 0);
    ASSERT_FALSE(r.needs_pin);
    ASSERT_TRUE(tb_ctl_verb_is_multiline(TB_CTL_REVIEW));
    ASSERT_OK(parse("review sighted last 12", &r, &e));
    ASSERT_EQ(r.board, 1);
    ASSERT_EQ(r.number, 12);
    ASSERT_OK(parse("review vi from 3", &r, &e));
    ASSERT_STR_EQ(r.text, "from");
    ASSERT_EQ(r.number, 3);
    ASSERT_OK(parse("review vi to-move", &r, &e));
    ASSERT_STR_EQ(r.text, "to-move");
    ASSERT_EQ(parse("review", &r, &e), TB_ERR_PARSE);
    ASSERT_EQ(parse("review both", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "vi or sighted");
    ASSERT_EQ(parse("review vi from", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "needs a move number");
    ASSERT_EQ(parse("review vi last 0", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "from 1 to 999");
    ASSERT_EQ(parse("review vi material 2", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "takes no number");
    ASSERT_EQ(parse("review vi board", &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "'board' is not last");
}

TB_TEST(malformed_requests_get_a_clear_error_and_leave_the_request_alone)
{
    static const struct {
        const char *line;
        int code;
        const char *msg;
    } bad[] = {
        {"", TB_ERR_PARSE, "empty request"},
        {"   \n", TB_ERR_PARSE, "empty request"},
        {"abandon", TB_ERR_NOTFOUND, "unknown request 'abandon'"},
        /* doorgeefschaak */
        {"resign", TB_ERR_PARSE, "resign takes more arguments"},
        {"resign c white pin=371946", TB_ERR_PARSE, "resign: board must be a or b, not 'c'"},
        {"resign a red pin=371946", TB_ERR_PARSE, "resign: 'red' is not white or black"},
        {"choose a k", TB_ERR_PARSE, "choose takes q, r, b, n or p, not 'k'"},
        {"accept", TB_ERR_PARSE, "accept takes more arguments"},
        {"accept c", TB_ERR_PARSE, "accept: board must be a or b, not 'c'"},
        {"replace a b", TB_ERR_PARSE, "replace takes fewer arguments"},
        {"hand 4", TB_ERR_PARSE, "hand: '4' is not white-a, black-a, white-b, black-b or 0..3"},
        {"move c e4", TB_ERR_PARSE, "move: board must be vi or sighted (a or b in doorgeefschaak)"},
        {"STATUS", TB_ERR_NOTFOUND, "unknown request 'STATUS'"},
        {"status now", TB_ERR_PARSE, "status takes fewer arguments"},
        {"resolve pin=471193", TB_ERR_PARSE, "usage: resolve <id> pin=NNNN"},
        {"resolve x pin=471193", TB_ERR_PARSE, "mismatch number"},
        {"resolve 0 pin=471193", TB_ERR_PARSE, "mismatch number"},
        {"resolve -1 pin=471193", TB_ERR_PARSE, "mismatch number"},
        {"resolve 007 pin=471193", TB_ERR_PARSE, "mismatch number"},
        {"takeback 1000 pin=471193", TB_ERR_PARSE, "number of plies"},
        {"promote k", TB_ERR_PARSE, "promote takes q, r, b or n"},
        {"promote", TB_ERR_PARSE, "promote takes more arguments"},
        {"promote q pin=471193", TB_ERR_PARSE, "promote takes no PIN"},
        {"repeat both", TB_ERR_PARSE, "repeat takes vi or sighted"},
        {"scoresheet fr", TB_ERR_PARSE, "not en, nl or de"},
        {"set-position pin=471193", TB_ERR_PARSE, "set-position takes more arguments"},
        {"set-position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR;ls w pin=471193", TB_ERR_PARSE,
         "not part of a FEN"},
        {"move white e4", TB_ERR_PARSE, "board must be vi or sighted"},
        {"move vi hello", TB_ERR_PARSE, "not a move"},
        {"move vi", TB_ERR_PARSE, "move takes more arguments"},
        {"resolve 3 pin=471193 now", TB_ERR_PARSE, "pin= must come last"},
        {"resolve 3 pin=47a1", TB_ERR_PARSE, "pin= takes up to 8 digits"},
        {"resolve 3 pin=", TB_ERR_PARSE, "pin= takes up to 8 digits"},
        {"resolve 3 pin=123456789", TB_ERR_PARSE, "pin= takes up to 8 digits"},
        {"status\x01", TB_ERR_PARSE, "control character 0x01 at column 7"},
        {"status\x1b[2J", TB_ERR_PARSE, "control character 0x1b"},
        {"st\x7f"
         "atus",
         TB_ERR_PARSE, "control character 0x7f"},
        {"status \xff", TB_ERR_PARSE, "not valid UTF-8 at column 8"},
        {"status \xc0\xaf", TB_ERR_PARSE, "not valid UTF-8"},     /* overlong '/' */
        {"status \xed\xa0\x80", TB_ERR_PARSE, "not valid UTF-8"}, /* surrogate */
        {"z\xc3\xbcge", TB_ERR_NOTFOUND, "unknown request"},      /* valid UTF-8, unknown */
        {"a b c d e f g h i j k l m n", TB_ERR_PARSE, "too many words"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_ctl_request r, before;
        memset(&r, 0x5a, sizeof r);
        before = r;
        struct tb_error e = {0};
        int rc = parse(bad[i].line, &r, &e);
        if (rc != bad[i].code)
            TB_FAIL("'%s': expected %d, got %d (%s)", bad[i].line, bad[i].code, rc, e.msg);
        ASSERT_STR_CONTAINS(e.msg, bad[i].msg);
        ASSERT_TRUE(memcmp(&r, &before, sizeof r) == 0);
    }
}

TB_TEST(embedded_nul_is_rejected_not_cut_short)
{
    struct tb_ctl_request r;
    struct tb_error e;
    const char line[] = "resolve 3\0 pin=471193\n";
    ASSERT_EQ(tb_ctl_parse(line, sizeof line - 1, &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "NUL byte at column 10");
}

TB_TEST(oversized_request_is_rejected)
{
    char line[TB_CTL_LINE_MAX + 8];
    memset(line, 'a', sizeof line);
    memcpy(line, "status ", 7);
    struct tb_ctl_request r;
    struct tb_error e;
    ASSERT_EQ(tb_ctl_parse(line, TB_CTL_LINE_MAX, &r, &e), TB_ERR_FULL);
    ASSERT_STR_CONTAINS(e.msg, "longer than 511 bytes");
    line[TB_CTL_LINE_MAX - 1] = '\n'; /* 511 bytes and the newline fit */
    ASSERT_EQ(tb_ctl_parse(line, TB_CTL_LINE_MAX, &r, &e), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(e.msg, "status takes fewer arguments");
}

TB_TEST(law_D_2_9_game_changing_requests_need_the_pin)
{
    static const char *const need[] = {"resolve 1", "takeback", "takeback 2", "new-game",
                                       "set-position 8/8/8/8/8/8/8/K1k5 w - - 0 1"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        struct tb_ctl_request r;
        struct tb_error e;
        ASSERT_OK(parse(need[i], &r, NULL));
        ASSERT_TRUE(r.needs_pin);
        ASSERT_EQ(tb_ctl_authorise(&r, "471193", &e), TB_ERR_PERM);
        ASSERT_STR_CONTAINS(e.msg, "needs the arbiter PIN: add pin=NNNN");
    }
    static const char *const free_[] = {"status",    "moves",     "pgn",        "scoresheet de",
                                        "promote q", "repeat vi", "move vi e4", "help"};
    for (size_t i = 0; i < sizeof free_ / sizeof free_[0]; i++) {
        struct tb_ctl_request r;
        ASSERT_OK(parse(free_[i], &r, NULL));
        ASSERT_FALSE(r.needs_pin);
        ASSERT_OK(tb_ctl_authorise(&r, "471193", NULL));
        ASSERT_OK(tb_ctl_authorise(&r, NULL, NULL));
    }
}

TB_TEST(wrong_or_unconfigured_pin_is_denied)
{
    struct tb_ctl_request r;
    struct tb_error e;
    ASSERT_OK(parse("takeback 1 pin=471194", &r, NULL));
    ASSERT_EQ(tb_ctl_authorise(&r, "471193", &e), TB_ERR_PERM);
    ASSERT_STR_EQ(e.msg, "wrong arbiter PIN");
    ASSERT_OK(parse("takeback 1 pin=4711930", &r, NULL)); /* a longer PIN with the same start */
    ASSERT_EQ(tb_ctl_authorise(&r, "471193", &e), TB_ERR_PERM);
    ASSERT_OK(parse("takeback 1 pin=471", &r, NULL));
    ASSERT_EQ(tb_ctl_authorise(&r, "471193", &e), TB_ERR_PERM);
    ASSERT_OK(parse("takeback 1 pin=471193", &r, NULL));
    ASSERT_OK(tb_ctl_authorise(&r, "471193", &e));
    ASSERT_EQ(tb_ctl_authorise(&r, "", &e), TB_ERR_PERM);
    ASSERT_STR_CONTAINS(e.msg, "none is configured");
    ASSERT_EQ(tb_ctl_authorise(&r, NULL, &e), TB_ERR_PERM);
}

TB_TEST(pin_compare)
{
    ASSERT_TRUE(tb_ctl_pin_equal("471193", "471193"));
    ASSERT_TRUE(tb_ctl_pin_equal("12345678", "12345678"));
    ASSERT_FALSE(tb_ctl_pin_equal("471193", "471194"));
    ASSERT_FALSE(tb_ctl_pin_equal("471193", "471"));
    ASSERT_FALSE(tb_ctl_pin_equal("471193", "4711930"));
    ASSERT_FALSE(tb_ctl_pin_equal("471193", ""));
    ASSERT_FALSE(tb_ctl_pin_equal("", ""));
    ASSERT_FALSE(tb_ctl_pin_equal("12345678", "123456789"));
}

TB_TEST(reader_splits_lines_across_reads)
{
    struct tb_ctl_reader rd;
    tb_ctl_reader_init(&rd);
    const char *line;
    size_t len, used;
    ASSERT_EQ(tb_ctl_reader_take(&rd, "sta", 3, &used, &line, &len), 0);
    ASSERT_EQ(used, 3);
    const char more[] = "tus\nmoves\n";
    ASSERT_EQ(tb_ctl_reader_take(&rd, more, sizeof more - 1, &used, &line, &len), 1);
    ASSERT_EQ(used, 4);
    ASSERT_EQ(len, 7);
    ASSERT_TRUE(memcmp(line, "status\n", 7) == 0);
    ASSERT_EQ(tb_ctl_reader_take(&rd, more + used, sizeof more - 1 - used, &used, &line, &len), 1);
    ASSERT_TRUE(memcmp(line, "moves\n", 6) == 0);
}

TB_TEST(reader_reports_a_long_line_once_and_drops_the_rest_of_it)
{
    struct tb_ctl_reader rd;
    tb_ctl_reader_init(&rd);
    static char data[3 * TB_CTL_LINE_MAX];
    memset(data, 'x', sizeof data);
    size_t n = 2 * TB_CTL_LINE_MAX;
    data[n - 1] = '\n';
    memcpy(data + n, "help\n", 5);
    n += 5;
    const char *line;
    size_t len, used, at = 0;
    int errors = 0, lines = 0;
    while (at < n) {
        int rc = tb_ctl_reader_take(&rd, data + at, n - at, &used, &line, &len);
        at += used;
        if (rc == TB_ERR_FULL)
            errors++;
        else if (rc == 1) {
            lines++;
            ASSERT_EQ(len, 5);
            ASSERT_TRUE(memcmp(line, "help\n", 5) == 0);
        }
    }
    ASSERT_EQ(errors, 1);
    ASSERT_EQ(lines, 1);
}

TB_TEST(responses_are_single_lines)
{
    char buf[128];
    ASSERT_EQ(tb_ctl_format_ok(buf, sizeof buf, NULL), 3);
    ASSERT_STR_EQ(buf, "ok\n");
    ASSERT_GT(tb_ctl_format_ok(buf, sizeof buf, "resolved 3"), 0);
    ASSERT_STR_EQ(buf, "ok resolved 3\n");
    ASSERT_GT(tb_ctl_format_error(buf, sizeof buf, TB_ERR_PERM, "wrong arbiter PIN"), 0);
    ASSERT_STR_EQ(buf, "error denied wrong arbiter PIN\n");
    ASSERT_GT(tb_ctl_format_error(buf, sizeof buf, TB_ERR_FULL, "line\nbreak"), 0);
    ASSERT_STR_EQ(buf, "error too-long line?break\n");
    ASSERT_GT(tb_ctl_format_data_begin(buf, sizeof buf, "12 moves"), 0);
    ASSERT_STR_EQ(buf, "ok+ 12 moves\n");
    ASSERT_GT(tb_ctl_format_data(buf, sizeof buf, "1. e4 e5"), 0);
    ASSERT_STR_EQ(buf, "1. e4 e5\n");
    ASSERT_GT(tb_ctl_format_data(buf, sizeof buf, "."), 0);
    ASSERT_STR_EQ(buf, "..\n"); /* never mistaken for the end */
    ASSERT_GT(tb_ctl_format_data(buf, sizeof buf, ""), 0);
    ASSERT_STR_EQ(buf, "\n");
    ASSERT_EQ(tb_ctl_format_end(buf, sizeof buf), 2);
    ASSERT_STR_EQ(buf, ".\n");
    ASSERT_EQ(tb_ctl_format_ok(buf, 5, "too long for this"), TB_ERR_FULL);
    ASSERT_STR_EQ(buf, "");
    ASSERT_STR_EQ(tb_ctl_error_word(TB_ERR_NOTFOUND), "unknown");
    ASSERT_STR_EQ(tb_ctl_error_word(TB_ERR_PARSE), "syntax");
}

TB_TEST(help_lists_every_request)
{
    static const char *const names[] = {
        "status",  "moves",   "pgn",      "scoresheet",   "resolve", "takeback",
        "promote", "repeat",  "new-game", "set-position", "move",    "help",
        "review",  "set-pin", "result",   "clock-set",    "games",   "hand",
        "bpgn",    "resign",  "choose",   "accept",       "replace"};
    int n = 0;
    while (tb_ctl_help_line(n))
        n++;
    ASSERT_EQ(n, (int)(sizeof names / sizeof names[0]));
    for (int i = 0; i < n; i++) {
        ASSERT_TRUE(strncmp(tb_ctl_help_line(i), names[i], strlen(names[i])) == 0);
        struct tb_ctl_request r;
        ASSERT_STR_EQ(tb_ctl_verb_name((enum tb_ctl_verb)(i + 1)), names[i]);
        (void)r;
    }
}

/* Each request's row is whole and agrees with itself: its help line starts with its name and
 * names pin=NNNN exactly when it needs the PIN, its arity holds, a table mode takes it, the
 * parser finds it by name and marks the PIN as the row says, a command of the CLI has its
 * arguments and summary (and no two share a name), and a game-changing request is no multi-line
 * one. */
TB_TEST(every_request_row_is_whole_and_consistent)
{
    int n = 0;
    for (const struct tb_ctl_verb_info *v; (v = tb_ctl_verb_at(n)) != NULL; n++) {
        ASSERT_TRUE(tb_ctl_verb_info(v->verb) == v);
        ASSERT_TRUE(v->name && v->name[0] && v->usage);
        size_t k = strlen(v->name);
        if (strncmp(v->usage, v->name, k) != 0 || v->usage[k] != ' ')
            TB_FAIL("%s: help line '%s'", v->name, v->usage);
        ASSERT_EQ(!!strstr(v->usage, "pin=NNNN"), !!(v->flags & TB_CTL_PIN));
        ASSERT_TRUE(v->min_args >= 0 && v->min_args <= v->max_args);
        ASSERT_TRUE(v->flags & (TB_CTL_TWIN | TB_CTL_BUG));
        ASSERT_FALSE((v->flags & TB_CTL_CHANGES) && (v->flags & TB_CTL_MULTI));
        ASSERT_EQ(!!v->cli, !!v->cli_args);
        ASSERT_EQ(!!v->cli, !!v->cli_summary);
        for (int j = 0; j < n; j++) {
            ASSERT_TRUE(strcmp(tb_ctl_verb_at(j)->name, v->name) != 0);
            ASSERT_TRUE(!v->cli || !tb_ctl_verb_at(j)->cli ||
                        strcmp(tb_ctl_verb_at(j)->cli, v->cli));
        }
        /* the parser reads the same row: the name alone is this request or too few words */
        struct tb_ctl_request r;
        struct tb_error err = {0};
        int rc = tb_ctl_parse(v->name, k, &r, &err);
        if (rc == TB_OK) {
            ASSERT_EQ(r.verb, v->verb);
            ASSERT_EQ(r.needs_pin, !!(v->flags & TB_CTL_PIN));
            ASSERT_EQ(tb_ctl_verb_is_multiline(r.verb), !!(v->flags & TB_CTL_MULTI));
        } else {
            ASSERT_EQ(rc, TB_ERR_PARSE);
            ASSERT_TRUE(v->min_args > 0 || v->verb == TB_CTL_REVIEW || v->verb == TB_CTL_RESULT);
        }
        ASSERT_STR_EQ(tb_ctl_help_line(n), v->usage);
    }
    ASSERT_EQ(n, TB_CTL_NVERBS - 1);
    ASSERT_NULL(tb_ctl_verb_info(TB_CTL_NO_VERB));
    ASSERT_NULL(tb_ctl_verb_info(TB_CTL_NVERBS));
}

/* The mode a request is for: its row's, or for move its board's (vi|sighted the twin game's, a|b
 * doorgeefschaak's). */
TB_TEST(a_requests_mode_is_its_rows_or_its_boards)
{
    struct tb_ctl_request r;
    ASSERT_OK(tb_ctl_parse("move a e4", 9, &r, NULL));
    ASSERT_EQ(tb_ctl_request_modes(&r), TB_CTL_BUG);
    ASSERT_OK(tb_ctl_parse("move vi e4", 10, &r, NULL));
    ASSERT_EQ(tb_ctl_request_modes(&r), TB_CTL_TWIN);
    ASSERT_OK(tb_ctl_parse("hand 2", 6, &r, NULL));
    ASSERT_EQ(tb_ctl_request_modes(&r), TB_CTL_BUG);
    ASSERT_OK(tb_ctl_parse("status", 6, &r, NULL));
    ASSERT_EQ(tb_ctl_request_modes(&r), TB_CTL_TWIN | TB_CTL_BUG);
    ASSERT_OK(tb_ctl_parse("resolve 3", 9, &r, NULL));
    ASSERT_EQ(tb_ctl_request_modes(&r), TB_CTL_TWIN);
}

/* The guard is where a PIN is checked: each check of a wrong one counts once, a right one clears
 * its peer, and a request without a PIN to check is a wrong one there. */
TB_TEST(the_guard_checks_a_pin_once_and_counts_it)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    struct tb_ctl_request r;
    uint64_t delay;
    bool locked;
    ASSERT_OK(tb_ctl_parse("resolve 3 pin=604127", 20, &r, NULL));
    ASSERT_EQ(tb_ctl_guard_check(&g, 1000, &r, "471193", 5000, &delay, &locked), TB_ERR_PERM);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 1000, 5000), 1u);
    ASSERT_EQ(delay, (uint64_t)TB_CTL_PIN_DELAY_MS);
    ASSERT_EQ(tb_ctl_guard_check(&g, 1000, &r, "471193", 6000, &delay, &locked), TB_ERR_PERM);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 1000, 6000), 2u);
    ASSERT_EQ(tb_ctl_guard_check(&g, 1000, &r, "", 9000, &delay, &locked), TB_ERR_PERM);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 1000, 9000), 3u);
    ASSERT_OK(tb_ctl_parse("resolve 3 pin=471193", 20, &r, NULL));
    ASSERT_OK(tb_ctl_guard_check(&g, 1000, &r, "471193", 20000, &delay, &locked));
    ASSERT_EQ(delay, 0u);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 1000, 20000), 0u);
}

/* The client reads what the formatter writes: an answer is complete at its last line, and its
 * text comes back unstuffed; an error gives its message. */
TB_TEST(client_reads_answers_as_the_daemon_formats_them)
{
    char ans[512], text[512], line[128];
    size_t n = 0;
    n += (size_t)tb_ctl_format_data_begin(ans + n, sizeof ans - n, "2 plies");
    ASSERT_FALSE(tb_ctl_answer_complete(ans, n));
    n += (size_t)tb_ctl_format_data(ans + n, sizeof ans - n, "1. e4 (e2e4)");
    n += (size_t)tb_ctl_format_data(ans + n, sizeof ans - n, ".. a line that starts with dots");
    ASSERT_FALSE(tb_ctl_answer_complete(ans, n));
    ASSERT_FALSE(tb_ctl_answer_complete(ans, n - 1)); /* cut inside a line */
    n += (size_t)tb_ctl_format_end(ans + n, sizeof ans - n);
    ASSERT_TRUE(tb_ctl_answer_complete(ans, n));
    ASSERT_EQ(tb_ctl_answer_text(ans, text, sizeof text), 0);
    ASSERT_STR_EQ(text, "1. e4 (e2e4)\n.. a line that starts with dots\n");

    ASSERT_GT(tb_ctl_format_error(line, sizeof line, TB_ERR_ILLEGAL,
                                  "the move to copy on the sighted board is 1. e4 (e2e4)"),
              0);
    ASSERT_TRUE(tb_ctl_answer_complete(line, strlen(line)));
    ASSERT_EQ(tb_ctl_answer_text(line, text, sizeof text), 1);
    ASSERT_STR_EQ(text, "the move to copy on the sighted board is 1. e4 (e2e4)");
    ASSERT_GT(tb_ctl_format_ok(line, sizeof line, NULL), 0);
    ASSERT_EQ(tb_ctl_answer_text(line, text, sizeof text), 0);
    ASSERT_STR_EQ(text, "");
    ASSERT_GT(tb_ctl_format_ok(line, sizeof line, "done"), 0);
    ASSERT_EQ(tb_ctl_answer_text(line, text, sizeof text), 0);
    ASSERT_STR_EQ(text, "done");
    ASSERT_EQ(tb_ctl_answer_text("hello\n", text, sizeof text), TB_ERR_PARSE);
    ASSERT_FALSE(tb_ctl_answer_complete("", 0));
}

TB_TEST(client_names_a_socket_nobody_listens_on)
{
    struct tb_error err = {0};
    char out[64];
    ASSERT_EQ(tb_ctl_request("/nonexistent/twinboard.sock", "status", out, sizeof out, &err),
              TB_ERR_SYS);
    ASSERT_STR_CONTAINS(err.msg, "/nonexistent/twinboard.sock");
    char longpath[200];
    memset(longpath, 'x', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    ASSERT_EQ(tb_ctl_client_connect(longpath, false, &err), TB_ERR_ARG);
}

/* A guesser that sends each wrong PIN the moment it may be checked (on as many connections as
 * it likes): how long n wrong PINs from the given number of uids take, in ms. */
static uint64_t brute_force(struct tb_ctl_guard *g, int n, uint32_t uids, int *lockouts)
{
    uint64_t now = 0, at;
    *lockouts = 0;
    for (int i = 0; i < n; i++) {
        uint32_t uid = 1000 + (uint32_t)i % uids;
        while (tb_ctl_guard_when(g, uid, now, &at) != 0)
            now = at;
        bool locked;
        tb_ctl_guard_result(g, uid, false, now, &locked);
        *lockouts += locked;
    }
    return now;
}

TB_TEST(ten_thousand_wrong_pins_from_one_uid_take_over_an_hour)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    int lockouts;
    uint64_t ms = brute_force(&g, 10000, 1, &lockouts);
    /* the stated rate: 255 s for the first 10, then 15 minutes each */
    ASSERT_GE(ms, 255000ull + 9990ull * 900000ull - 900000ull);
    ASSERT_GE(ms, 3600000ull);
    ASSERT_EQ(lockouts, 10000 - 9);
}

TB_TEST(wrong_pins_spread_over_many_uids_still_take_over_an_hour)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    int lockouts;
    ASSERT_GE(brute_force(&g, 10000, 500, &lockouts), 3600000ull);
}

TB_TEST(wrong_pin_delays_double_and_a_right_one_clears_them)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    uint64_t at;
    bool locked;
    ASSERT_EQ(tb_ctl_guard_when(&g, 7, 0, &at), 0);
    ASSERT_EQ(tb_ctl_guard_result(&g, 7, false, 0, &locked), 1000u);
    ASSERT_FALSE(locked);
    ASSERT_EQ(tb_ctl_guard_when(&g, 7, 10, &at), 1); /* held until the delay has passed */
    ASSERT_EQ(at, 1000u);
    ASSERT_EQ(tb_ctl_guard_result(&g, 7, false, 1000, &locked), 2000u);
    ASSERT_EQ(tb_ctl_guard_result(&g, 7, false, 3000, &locked), 4000u);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 7, 3000), 3u);
    /* another uid is not held back by uid 7's wrong PINs */
    ASSERT_EQ(tb_ctl_guard_when(&g, 8, 3001, &at), 0);
    ASSERT_EQ(tb_ctl_guard_result(&g, 7, true, 7000, &locked), 0u);
    ASSERT_EQ(tb_ctl_guard_fails(&g, 7, 7000), 0u);
}

TB_TEST(every_wrong_pin_from_a_new_peer_still_takes_the_ceilings_time)
{
    /* the worst case for the ceiling: each wrong PIN from a peer never seen before */
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    uint64_t now = 0, at;
    for (uint32_t i = 0; i < 10000; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)i);
        uint64_t peer = tb_ctl_guard_peer_named("hall", name);
        while (tb_ctl_guard_when(&g, peer, now, &at) != 0)
            now = at;
        bool locked;
        tb_ctl_guard_result(&g, peer, false, now, &locked);
    }
    ASSERT_GE(now, (10000ull - TB_CTL_PIN_GLOBAL_BURST) * TB_CTL_PIN_GLOBAL_EVERY_MS);
    ASSERT_GE(now, 3600000ull);
}

/* The right PIN of peer at now: how long the guard holds it back (it must never refuse it). */
static uint64_t right_pin_wait(struct tb_ctl_guard *g, uint64_t peer, uint64_t now)
{
    uint64_t at;
    bool locked;
    int w = tb_ctl_guard_when(g, peer, now, &at);
    ASSERT_NE(w, TB_ERR_PERM);
    uint64_t wait = w == 1 ? at - now : 0;
    tb_ctl_guard_result(g, peer, true, now + wait, &locked);
    return wait;
}

/* guessers uids (from 2000) each send a wrong PIN whenever the guard lets them, every step ms
 * for ms (refused unchecked while held or locked out); every `every` ms uid 1000 or a hall
 * session (in turn) gives the right PIN. Returns the longest wait of a right PIN; *checks the
 * wrong PINs checked, *locked_out the guesses refused during a lockout. */
static uint64_t guessing(uint32_t guessers, uint64_t ms, uint64_t step, uint64_t every, int *checks,
                         int *locked_out)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    uint64_t at, worst = 0;
    *checks = *locked_out = 0;
    for (uint64_t now = 0; now < ms; now += step) {
        bool locked;
        for (uint32_t p = 0; p < guessers; p++) {
            int w = tb_ctl_guard_when(&g, 2000 + p, now, &at);
            if (w == 0)
                tb_ctl_guard_result(&g, 2000 + p, false, now, &locked);
            *checks += w == 0;
            *locked_out += w == TB_ERR_PERM;
        }
        if (now % every == 0) {
            uint64_t peer = now / every % 2 ? 1000 : tb_ctl_guard_peer_named("hall", "session1");
            uint64_t wait = right_pin_wait(&g, peer, now);
            worst = wait > worst ? wait : worst;
        }
    }
    return worst;
}

/* One uid guesses every 5 ms for 20 minutes: another uid's and a hall session's right PIN,
 * every 3.7 s, are never held back. */
TB_TEST(a_brute_force_from_one_peer_never_holds_back_another_peers_right_pin)
{
    int checks, locked_out;
    ASSERT_EQ(guessing(1, 20u * 60u * 1000u, 5, 3700, &checks, &locked_out), 0u);
    ASSERT_GT(locked_out, 0);  /* the guesser was locked out */
    ASSERT_EQ(checks, 10 + 1); /* 255 s to the lockout, one more check after 15 minutes */
}

/* 200 uids guess as fast as each may for 10 minutes; a peer without wrong PINs waits at most
 * one step of the ceiling (0.4 s), never for the guessers' lockouts. */
TB_TEST(many_guessing_peers_leave_a_peer_with_the_right_pin_within_a_step)
{
    int checks, locked_out;
    ASSERT_LE(guessing(200, 10u * 60u * 1000u, 10, 5000, &checks, &locked_out),
              (uint64_t)TB_CTL_PIN_GLOBAL_EVERY_MS);
    /* the ceiling held the 200 to its rate: 10 minutes, at most 30 + 1,500 wrong PINs */
    ASSERT_LE(checks, (int)(TB_CTL_PIN_GLOBAL_BURST + 600000u / TB_CTL_PIN_GLOBAL_EVERY_MS));
    ASSERT_GT(checks, 1000);
}

TB_TEST(a_lockout_refuses_even_the_right_pin_until_it_ends)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    uint64_t now = 0, at;
    bool locked = false;
    for (unsigned i = 0; i < TB_CTL_PIN_LOCKOUT_AFTER; i++) {
        while (tb_ctl_guard_when(&g, 5, now, &at) == 1)
            now = at;
        tb_ctl_guard_result(&g, 5, false, now, &locked);
    }
    ASSERT_TRUE(locked);
    ASSERT_EQ(tb_ctl_guard_when(&g, 5, now + 1000, &at), TB_ERR_PERM);
    ASSERT_EQ(at, now + TB_CTL_PIN_LOCKOUT_MS);
    ASSERT_EQ(tb_ctl_guard_when(&g, 5, at, &at), 0);
}

TB_TEST(a_lockout_holds_back_its_peer_alone)
{
    struct tb_ctl_guard g;
    tb_ctl_guard_init(&g);
    uint64_t now = 0, at;
    bool locked = false;
    uint64_t hall = tb_ctl_guard_peer_named("hall", "");
    for (unsigned i = 0; i < TB_CTL_PIN_LOCKOUT_AFTER; i++) {
        while (tb_ctl_guard_when(&g, hall, now, &at) == 1)
            now = at;
        tb_ctl_guard_result(&g, hall, false, now, &locked);
    }
    ASSERT_TRUE(locked);
    ASSERT_EQ(tb_ctl_guard_when(&g, hall, now + 1, &at), TB_ERR_PERM);
    ASSERT_EQ(tb_ctl_guard_when(&g, tb_ctl_guard_peer_named("hall", "s2"), now + 1, &at), 0);
    ASSERT_EQ(tb_ctl_guard_when(&g, 1000, now + 1, &at), 0);
    ASSERT_NE(hall, tb_ctl_guard_peer_named("hall", "s2"));
    ASSERT_TRUE(hall > UINT32_MAX); /* never a uid */
}

/* Refusals in the log: a guesser refused every millisecond for 5 minutes (300,000 refusals, a
 * tenth with a wrong PIN) beside 20 other peers: at most 5 lines told and 9 summary lines a
 * minute, and the summaries count every refusal not told. */
TB_TEST(five_minutes_of_refusals_write_a_bounded_log)
{
    struct tb_ctl_loglimit l;
    tb_ctl_loglimit_init(&l, 0);
    unsigned long told = 0, summaries = 0, counted = 0, wrong = 0, total = 0;
    struct tb_ctl_logcount c;
    for (uint64_t now = 0; now < 5u * 60u * 1000u + TB_CTL_LOG_WINDOW_MS; now++) {
        while (tb_ctl_log_summary(&l, now, &c) == 1) {
            summaries++;
            counted += c.refused;
            wrong += c.wrong_pins;
        }
        if (now >= 5u * 60u * 1000u)
            continue; /* the last window's summary */
        uint64_t peer = now % 50 == 0 ? 2000 + now / 50 % 20 : 1001;
        told += tb_ctl_log_refusal(&l, peer, now % 10 == 0, now);
        total++;
    }
    ASSERT_EQ(total, 300000ul);
    ASSERT_EQ(told + counted, total);
    ASSERT_LE(told, 5ul * TB_CTL_LOG_TELL + TB_CTL_LOG_TELL);
    ASSERT_LE(summaries, 6ul * (TB_CTL_LOG_PEERS + 1));
    ASSERT_GT(wrong, 29000ul);
    /* each line at most 200 bytes: under 100 KB for the 5 minutes */
    ASSERT_LT((told + summaries) * 200ul, 100000ul);
    ASSERT_EQ(tb_ctl_log_due(&l), UINT64_MAX); /* all told */
}

TB_TEST(a_quiet_log_tells_the_next_refusals_at_once)
{
    struct tb_ctl_loglimit l;
    tb_ctl_loglimit_init(&l, 0);
    for (unsigned i = 0; i < TB_CTL_LOG_TELL; i++)
        ASSERT_TRUE(tb_ctl_log_refusal(&l, 1000, false, i));
    ASSERT_FALSE(tb_ctl_log_refusal(&l, 1000, true, 10));
    ASSERT_EQ(tb_ctl_log_due(&l), (uint64_t)TB_CTL_LOG_WINDOW_MS);
    struct tb_ctl_logcount c;
    ASSERT_EQ(tb_ctl_log_summary(&l, TB_CTL_LOG_WINDOW_MS - 1, &c), 0); /* not yet */
    ASSERT_EQ(tb_ctl_log_summary(&l, TB_CTL_LOG_WINDOW_MS, &c), 1);
    ASSERT_EQ(c.peer, 1000u);
    ASSERT_EQ(c.refused, 1u);
    ASSERT_EQ(c.wrong_pins, 1u);
    ASSERT_EQ(tb_ctl_log_summary(&l, TB_CTL_LOG_WINDOW_MS, &c), 0);
    /* hours later: told as they come again */
    ASSERT_TRUE(tb_ctl_log_refusal(&l, 1000, false, 3u * 3600u * 1000u));
}

/* set-pin: the new PIN as its one word, the current one in pin=; the new PIN is never echoed. */
TB_TEST(set_pin_takes_the_new_pin_and_needs_the_current_one)
{
    struct tb_ctl_request r;
    struct tb_error err = {0};
    const char *ok = "set-pin 20261124 pin=471193\n";
    ASSERT_OK(tb_ctl_parse(ok, strlen(ok), &r, &err));
    ASSERT_EQ(r.verb, TB_CTL_SET_PIN);
    ASSERT_TRUE(r.needs_pin);
    ASSERT_STR_EQ(r.text, "20261124");
    ASSERT_STR_EQ(r.pin, "471193");
    static const char *const bad[] = {"set-pin 123 pin=471193", "set-pin 123456789 pin=471193",
                                      "set-pin 12a456 pin=471193", "set-pin pin=471193"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_EQ(tb_ctl_parse(bad[i], strlen(bad[i]), &r, &err), TB_ERR_PARSE);
        ASSERT_NULL(strstr(err.msg, "123"));
    }
    /* one digit repeated, a run up or down (wrapping past 9): the first guesses, refused */
    static const char *const weak[] = {"set-pin 000000 pin=471193", "set-pin 99999999 pin=471193",
                                       "set-pin 123456 pin=471193", "set-pin 6543210 pin=471193",
                                       "set-pin 890123 pin=471193"};
    for (size_t i = 0; i < sizeof weak / sizeof weak[0]; i++) {
        ASSERT_EQ(tb_ctl_parse(weak[i], strlen(weak[i]), &r, &err), TB_ERR_PARSE);
        ASSERT_STR_CONTAINS(err.msg, "the first guess of anyone");
    }
    ASSERT_OK(tb_ctl_parse("set-pin 654312", 14, &r, &err));
    ASSERT_EQ(tb_ctl_authorise(&r, "471193", &err), TB_ERR_PERM);
    ASSERT_STR_CONTAINS(err.msg, "set-pin needs the arbiter PIN");
}
