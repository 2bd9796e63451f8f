/* Time controls (6.3): what people and PGN write, the club's presets, errors that name the
 * column, the categories of Appendix A/B, and the PGN clock texts. */
#include "tb_clock.h"
#include "tb_test.h"

#define S(x) ((uint64_t)(x)*1000)
#define M(x) ((uint64_t)(x)*60000)

static struct tb_clock_control parse(const char *text)
{
    struct tb_clock_control c;
    struct tb_error err = {0};
    if (tb_clock_control_parse(&c, text, &err) != TB_OK)
        TB_FAIL("\"%s\" refused: %s", text, err.msg);
    return c;
}

static void assert_same(const struct tb_clock_control *a, const struct tb_clock_control *b,
                        const char *what)
{
    if (a->nperiods != b->nperiods)
        TB_FAIL("%s: %d periods vs %d", what, a->nperiods, b->nperiods);
    for (int i = 0; i < a->nperiods; i++) {
        const struct tb_clock_period *p = &a->periods[i], *q = &b->periods[i];
        if (p->moves != q->moves || p->time_ms != q->time_ms || p->bonus != q->bonus ||
            p->bonus_ms != q->bonus_ms)
            TB_FAIL("%s: period %d differs", what, i + 1);
    }
}

/* Club rules 2.2 and 3 (1 hour 30 minutes plus 15 seconds a move) and 4 (7 minutes). */
TB_TEST(club_presets_are_the_club_rules)
{
    struct tb_clock_control club = parse("club"), blitz = parse("blitz");
    ASSERT_EQ(club.nperiods, 1);
    ASSERT_U64_EQ(club.periods[0].time_ms, M(90));
    ASSERT_EQ(club.periods[0].bonus, TB_CLOCK_FISCHER);
    ASSERT_U64_EQ(club.periods[0].bonus_ms, S(15));
    ASSERT_EQ(club.periods[0].moves, 0);
    ASSERT_EQ(blitz.nperiods, 1);
    ASSERT_U64_EQ(blitz.periods[0].time_ms, M(7));
    ASSERT_EQ(blitz.periods[0].bonus, TB_CLOCK_BONUS_NONE);
    struct tb_clock_control spelled = parse(" Club ");
    assert_same(&spelled, &club, "Club");
    spelled = parse("1h30m+15s");
    assert_same(&spelled, &club, "1h30m+15s");
    spelled = parse("BLITZ");
    assert_same(&spelled, &blitz, "BLITZ");
}

/* Every form, its canonical text and its PGN TimeControl value; both read back the same. */
TB_TEST(law_6_3_time_control_forms)
{
    static const struct {
        const char *text, *canonical, *pgn;
        int nperiods;
        uint64_t first_ms, bonus_ms;
        int bonus;
    } cases[] = {
        {"90m+15s", "90m+15s", "5400+15", 1, M(90), S(15), TB_CLOCK_FISCHER},
        {"7m", "7m", "420", 1, M(7), 0, TB_CLOCK_BONUS_NONE},
        {"5m+3s", "5m+3s", "300+3", 1, M(5), S(3), TB_CLOCK_FISCHER},
        {"1h30m+15s", "90m+15s", "5400+15", 1, M(90), S(15), TB_CLOCK_FISCHER},
        {"1h 30m + 15 s", "90m+15s", "5400+15", 1, M(90), S(15), TB_CLOCK_FISCHER},
        {"5400+15", "90m+15s", "5400+15", 1, M(90), S(15), TB_CLOCK_FISCHER},
        {"420", "7m", "420", 1, M(7), 0, TB_CLOCK_BONUS_NONE},
        {"40/120m+30s, 30m+30s", "40/120m+30s, 30m+30s", "40/7200+30:1800+30", 2, M(120), S(30),
         TB_CLOCK_FISCHER},
        {"40/7200+30:1800+30", "40/120m+30s, 30m+30s", "40/7200+30:1800+30", 2, M(120), S(30),
         TB_CLOCK_FISCHER},
        {"40/2h, 20/1h, 30m", "40/120m, 20/60m, 30m", "40/7200:20/3600:1800", 3, M(120), 0,
         TB_CLOCK_BONUS_NONE},
        {"25m d5s", "25m d5s", "1500d5", 1, M(25), S(5), TB_CLOCK_DELAY},
        {"25m+d5s", "25m d5s", "1500d5", 1, M(25), S(5), TB_CLOCK_DELAY},
        {"1500d5", "25m d5s", "1500d5", 1, M(25), S(5), TB_CLOCK_DELAY},
        {"25m b5s", "25m b5s", "1500b5", 1, M(25), S(5), TB_CLOCK_BRONSTEIN},
        {"90s", "1m30s", "90", 1, S(90), 0, TB_CLOCK_BONUS_NONE},
        {"3m+2", "3m+2s", "180+2", 1, M(3), S(2), TB_CLOCK_FISCHER},
        {"45s+1s", "45s+1s", "45+1", 1, S(45), S(1), TB_CLOCK_FISCHER},
        {"5m+0s", "5m", "300", 1, M(5), 0, TB_CLOCK_BONUS_NONE},
        {"2h+1m", "120m+1m", "7200+60", 1, M(120), M(1), TB_CLOCK_FISCHER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tb_clock_control c = parse(cases[i].text);
        if (c.nperiods != cases[i].nperiods || c.periods[0].time_ms != cases[i].first_ms ||
            c.periods[0].bonus != cases[i].bonus || c.periods[0].bonus_ms != cases[i].bonus_ms)
            TB_FAIL("\"%s\": read as %d periods, first %llu ms, bonus %d of %llu ms", cases[i].text,
                    c.nperiods, (unsigned long long)c.periods[0].time_ms, c.periods[0].bonus,
                    (unsigned long long)c.periods[0].bonus_ms);
        char text[64], pgn[64];
        ASSERT_EQ(tb_clock_control_format(&c, text, sizeof text), (int)strlen(cases[i].canonical));
        ASSERT_STR_EQ(text, cases[i].canonical);
        ASSERT_EQ(tb_clock_control_pgn(&c, pgn, sizeof pgn), (int)strlen(cases[i].pgn));
        ASSERT_STR_EQ(pgn, cases[i].pgn);
        struct tb_clock_control again = parse(text);
        assert_same(&again, &c, text);
        again = parse(pgn);
        assert_same(&again, &c, pgn);
    }
    struct tb_clock_control multi = parse("40/120m+30s, 30m+30s");
    ASSERT_EQ(multi.periods[0].moves, 40);
    ASSERT_EQ(multi.periods[1].moves, 0);
    ASSERT_U64_EQ(multi.periods[1].time_ms, M(30));
    ASSERT_U64_EQ(multi.periods[1].bonus_ms, S(30));
}

/* Bad input: refused with the column and what was expected there; the control is untouched. */
TB_TEST(bad_time_controls_name_the_column)
{
    static const struct {
        const char *text;
        int code;
        long column;
        const char *says;
    } cases[] = {
        {"", TB_ERR_PARSE, 1, "empty"},
        {"   ", TB_ERR_PARSE, 4, "empty"},
        {"90x", TB_ERR_PARSE, 3, "expected '+' (increment)"},
        {"1h30", TB_ERR_PARSE, 5, "expected a unit (h, m or s)"},
        {"30m1h", TB_ERR_PARSE, 5, "order h, m, s"},
        {"1m1m", TB_ERR_PARSE, 4, "order h, m, s"},
        {"90m+", TB_ERR_PARSE, 5, "expected the increment"},
        {"25m d", TB_ERR_PARSE, 6, "expected the delay"},
        {"40/90m+15s,", TB_ERR_PARSE, 12, "expected a number"},
        {"90m+15s, 30m", TB_ERR_PARSE, 1, "only the last period"},
        {"40/120m, 30m, 10m", TB_ERR_PARSE, 10, "only the last period"},
        {"0m", TB_ERR_PARSE, 1, "more than 0"},
        {"40/0s", TB_ERR_PARSE, 4, "more than 0"},
        {"0/90m", TB_ERR_PARSE, 1, "move count must be 1 to 500"},
        {"501/90m", TB_ERR_PARSE, 1, "move count must be 1 to 500"},
        {"1234567890", TB_ERR_PARSE, 1, "at most 9 digits"},
        {"101h", TB_ERR_PARSE, 1, "at most 100 hours"},
        {"90m+2h", TB_ERR_PARSE, 5, "at most 1 hour"},
        {"40/90m, 40/90m, 40/90m, 40/90m, 30m", TB_ERR_PARSE, 33, "more than 4 periods"},
        {"clubs", TB_ERR_PARSE, 1, "unknown preset"},
        {"club blitz", TB_ERR_PARSE, 1, "unknown preset"},
        {"/90m", TB_ERR_PARSE, 1, "expected a number"},
        {"?", TB_ERR_SUPP, 1, "sandglass"},
        {"-", TB_ERR_SUPP, 1, "no control"},
        {"*180", TB_ERR_SUPP, 1, "sandglass"},
        {"90m+15s extra", TB_ERR_PARSE, 9, "expected '+'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tb_clock_control c, before;
        memset(&c, 0xA5, sizeof c);
        before = c;
        struct tb_error err = {0};
        int rc = tb_clock_control_parse(&c, cases[i].text, &err);
        if (rc != cases[i].code || err.column != cases[i].column || !strstr(err.msg, cases[i].says))
            TB_FAIL("\"%s\": rc %d column %ld \"%s\"; expected %d, column %ld, \"%s\"",
                    cases[i].text, rc, err.column, err.msg, cases[i].code, cases[i].column,
                    cases[i].says);
        ASSERT_STR_CONTAINS(err.msg, "time control");
        ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    }
    struct tb_error err = {0};
    ASSERT_EQ(tb_clock_control_parse(NULL, "7m", &err), TB_ERR_ARG);
    struct tb_clock_control c;
    ASSERT_EQ(tb_clock_control_parse(&c, NULL, NULL), TB_ERR_ARG);
}

TB_TEST(control_check_refuses_what_the_clock_cannot_run)
{
    struct tb_clock_control c = parse("40/120m+30s, 30m+30s");
    struct tb_error err = {0};
    ASSERT_OK(tb_clock_control_check(&c, &err));
    struct tb_clock_control bad = c;
    bad.periods[0].moves = 0; /* a sudden-death period before another */
    ASSERT_EQ(tb_clock_control_check(&bad, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "period 1");
    bad = c;
    bad.periods[1].time_ms = 1500; /* not whole seconds */
    ASSERT_EQ(tb_clock_control_check(&bad, &err), TB_ERR_ARG);
    ASSERT_STR_CONTAINS(err.msg, "period 2");
    bad = c;
    bad.periods[0].bonus = TB_CLOCK_BONUS_NONE; /* a bonus time without a kind */
    ASSERT_EQ(tb_clock_control_check(&bad, &err), TB_ERR_ARG);
    bad = c;
    bad.nperiods = 0;
    ASSERT_EQ(tb_clock_control_check(&bad, &err), TB_ERR_ARG);
    char buf[64];
    ASSERT_EQ(tb_clock_control_format(&bad, buf, sizeof buf), TB_ERR_ARG);
    ASSERT_EQ(tb_clock_control_pgn(&bad, buf, sizeof buf), TB_ERR_ARG);
    tb_clock clock;
    ASSERT_EQ(tb_clock_init(&clock, &bad, &err), TB_ERR_ARG);
}

/* snprintf semantics: the full length is returned, a prefix fits. */
TB_TEST(formats_cut_to_fit)
{
    struct tb_clock_control c = parse("40/120m+30s, 30m+30s");
    char small[8];
    int n = tb_clock_control_format(&c, small, sizeof small);
    ASSERT_EQ(n, (int)strlen("40/120m+30s, 30m+30s"));
    ASSERT_STR_EQ(small, "40/120m");
    ASSERT_EQ(tb_clock_control_pgn(&c, NULL, 0), (int)strlen("40/7200+30:1800+30"));
    char clk[8];
    ASSERT_EQ(tb_clock_format_clk(M(90), clk, sizeof clk), (int)strlen("[%clk 1:30:00]"));
    ASSERT_STR_EQ(clk, "[%clk 1");
}

/* Appendix A.1 and B.1 (time plus 60 times the increment), and 7.5.5 / A.3 penalties. */
TB_TEST(appendix_a_b_categories_and_penalties)
{
    static const struct {
        const char *text;
        int category;
        uint64_t penalty;
    } cases[] = {
        {"club", TB_CLOCK_STANDARD, M(2)}, {"blitz", TB_CLOCK_BLITZ, M(1)},
        {"10m", TB_CLOCK_BLITZ, M(1)},     {"5m+5s", TB_CLOCK_BLITZ, M(1)},
        {"10m+1s", TB_CLOCK_RAPID, M(1)},  {"15m+10s", TB_CLOCK_RAPID, M(1)},
        {"59m", TB_CLOCK_RAPID, M(1)},     {"50m+10s", TB_CLOCK_STANDARD, M(2)},
        {"60m", TB_CLOCK_STANDARD, M(2)},  {"40/120m+30s, 30m+30s", TB_CLOCK_STANDARD, M(2)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tb_clock_control c = parse(cases[i].text);
        if ((int)tb_clock_control_category(&c) != cases[i].category)
            TB_FAIL("%s: category %d, expected %d", cases[i].text,
                    (int)tb_clock_control_category(&c), cases[i].category);
        ASSERT_U64_EQ(tb_clock_penalty_ms(&c), cases[i].penalty);
    }
}

TB_TEST(pgn_clock_comment_and_hms)
{
    static const struct {
        uint64_t ms;
        const char *clk;
    } cases[] = {
        {M(90), "[%clk 1:30:00]"},       {M(90) + S(15), "[%clk 1:30:15]"},
        {S(59) + 999, "[%clk 0:00:59]"}, {0, "[%clk 0:00:00]"},
        {M(7), "[%clk 0:07:00]"},        {S(36000) + S(61), "[%clk 10:01:01]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        ASSERT_EQ(tb_clock_format_clk(cases[i].ms, buf, sizeof buf), (int)strlen(cases[i].clk));
        ASSERT_STR_EQ(buf, cases[i].clk);
    }
    struct tb_clock_hms h = tb_clock_hms(S(3600 + 25 * 60 + 7) + 999);
    ASSERT_EQ(h.hours, 1);
    ASSERT_EQ(h.minutes, 25);
    ASSERT_EQ(h.seconds, 7);
}

/* The per-player warning list of the configuration (D.2.6: the talking clock). */
TB_TEST(warning_lists_parse_with_columns)
{
    uint64_t w[TB_CLOCK_MAX_WARN];
    struct tb_error err = {0};
    ASSERT_EQ(tb_clock_warnings_parse(w, TB_CLOCK_MAX_WARN, "5m, 1m", &err), 2);
    ASSERT_U64_EQ(w[0], M(5));
    ASSERT_U64_EQ(w[1], M(1));
    ASSERT_EQ(tb_clock_warnings_parse(w, TB_CLOCK_MAX_WARN, "10m, 1m30s,30", &err), 3);
    ASSERT_U64_EQ(w[1], S(90));
    ASSERT_U64_EQ(w[2], S(30));
    ASSERT_EQ(tb_clock_warnings_parse(w, TB_CLOCK_MAX_WARN, "  ", &err), 0);
    static const struct {
        const char *text;
        int code;
        long column;
        const char *says;
    } bad[] = {
        {"5m; 1m", TB_ERR_PARSE, 3, "expected ','"},
        {"5m 1m", TB_ERR_PARSE, 5, "order h, m, s"},
        {"5m, 0s", TB_ERR_PARSE, 5, "more than 0"},
        {"5x", TB_ERR_PARSE, 2, "expected ','"},
        {"5m, m", TB_ERR_PARSE, 5, "expected a number"},
        {"1m,2m,3m,4m,5m,6m,7m,8m,9m", TB_ERR_FULL, 25, "too many"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t out[TB_CLOCK_MAX_WARN] = {7};
        int rc = tb_clock_warnings_parse(out, TB_CLOCK_MAX_WARN, bad[i].text, &err);
        if (rc != bad[i].code || err.column != bad[i].column || !strstr(err.msg, bad[i].says) ||
            !strstr(err.msg, "warnings"))
            TB_FAIL("\"%s\": rc %d column %ld \"%s\"", bad[i].text, rc, err.column, err.msg);
        ASSERT_U64_EQ(out[0], 7);
    }
    ASSERT_EQ(tb_clock_warnings_parse(w, 1, "5m, 1m", &err), TB_ERR_FULL);
    ASSERT_EQ(tb_clock_warnings_parse(NULL, 1, "5m", &err), TB_ERR_ARG);
}
