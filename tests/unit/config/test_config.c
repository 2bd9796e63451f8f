/* Tests of the daemon configuration: defaults, a table of good and bad files, --check-config. */
#include <stdio.h>

#include "tb_config.h"
#include "tb_voice.h"
#include "tb_run.h"
#include "tb_test.h"

static const char good_full[] = "; a full configuration\n"
                                "[daemon]\n"
                                "socket = /run/twinboard/control\n"
                                "journal_dir = /var/lib/twinboard\n"
                                "log_level = debug\n"
                                "blip_window_ms = 250\n"
                                "\n"
                                "[arbiter]\n"
                                "pin = 471193 ; inline comment\n"
                                "\n"
                                "[player vi]\n"
                                "board = usb:2341:0043:95635333231351F0E1A1\n"
                                "colour = black\n"
                                "pack = nl\n"
                                "voice = nl\n"
                                "rate = 175\n"
                                "audio = wav:/tmp/vi.wav\n"
                                "\n"
                                "[player sighted]\n"
                                "board = keys:\n"
                                "colour = white\n"
                                "pack = en\n"
                                "audio = default\n";

static void defaults(struct tb_config *c)
{
    const struct tb_config_place user = {.runtime_dir = "/run/user/1000", .home = "/home/a"};
    tb_config_defaults(c, &user, NULL);
}

TB_TEST(defaults_need_no_file)
{
    struct tb_config c;
    const struct tb_config_place user = {.runtime_dir = "/run/user/1000",
                                         .state_home = "/home/a/.state"};
    tb_config_defaults(&c, &user, "/usr/share/demo.script");
    ASSERT_STR_EQ(c.socket_path, "/run/user/1000/twinboard/control");
    ASSERT_STR_EQ(c.journal_dir, "/home/a/.state/twinboard");
    ASSERT_STR_EQ(c.player[TB_CONFIG_VI].board, "sim:/usr/share/demo.script");
    ASSERT_STR_EQ(c.player[TB_CONFIG_SIGHTED].board, "sim:/usr/share/demo.script");
    ASSERT_EQ(c.player[TB_CONFIG_VI].colour, TB_CONFIG_WHITE);
    ASSERT_EQ(c.player[TB_CONFIG_SIGHTED].colour, TB_CONFIG_BLACK);
    ASSERT_STR_EQ(c.player[TB_CONFIG_VI].audio, "null");
    ASSERT_STR_EQ(c.player[TB_CONFIG_VI].pack, "de-fide");
    ASSERT_STR_EQ(c.arbiter_pin, "");
    tb_config_defaults(&c, NULL, NULL);
    ASSERT_STR_EQ(c.player[TB_CONFIG_VI].board, "null:");
}

/* Defaults never land in /tmp: a user's runtime and state directories, the service's /run and
 * /var/lib, else no path and an error saying what to set. */
TB_TEST(default_places_are_never_in_tmp)
{
    struct tb_config c;
    struct tb_error err = {0};
    const struct tb_config_place home_only = {.home = "/home/a"};
    tb_config_defaults(&c, &home_only, NULL);
    ASSERT_STR_EQ(c.socket_path, "");
    ASSERT_STR_EQ(c.journal_dir, "/home/a/.local/state/twinboard");
    ASSERT_EQ(tb_config_require_paths(&c, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "XDG_RUNTIME_DIR is not set");
    ASSERT_STR_CONTAINS(err.msg, "socket = PATH in [daemon]");
    const struct tb_config_place relative = {.runtime_dir = "run", .state_home = "state"};
    tb_config_defaults(&c, &relative, NULL);
    ASSERT_STR_EQ(c.socket_path, "");
    ASSERT_STR_EQ(c.journal_dir, "");
    const struct tb_config_place runtime_only = {.runtime_dir = "/run/user/7"};
    tb_config_defaults(&c, &runtime_only, NULL);
    ASSERT_EQ(tb_config_require_paths(&c, &err), TB_ERR_NOTFOUND);
    ASSERT_STR_CONTAINS(err.msg, "journal_dir = DIR");
    const struct tb_config_place service = {.runtime_dir = "/run/user/0", .service = true};
    tb_config_defaults(&c, &service, NULL);
    ASSERT_STR_EQ(c.socket_path, "/run/twinboard/control");
    ASSERT_STR_EQ(c.journal_dir, "/var/lib/twinboard");
    ASSERT_OK(tb_config_require_paths(&c, &err));
    char longdir[120];
    memset(longdir, 'x', sizeof longdir - 1);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = '\0';
    const struct tb_config_place too_long = {.runtime_dir = longdir, .state_home = "/s"};
    tb_config_defaults(&c, &too_long, NULL); /* sun_path holds 108 bytes */
    ASSERT_STR_EQ(c.socket_path, "");
}

/* "[arbiter] pin = PIN" read over the defaults. */
static int parse_pin(const char *pin, struct tb_config *c, struct tb_config_report *rep)
{
    char text[64];
    snprintf(text, sizeof text, "[arbiter]\npin = %s\n", pin);
    tb_config_defaults(c, NULL, NULL);
    return tb_config_parse(c, text, strlen(text), rep);
}

/* A PIN anyone would try first is no PIN: the file is refused, as set-pin refuses it. */
TB_TEST(a_short_or_guessable_pin_is_refused)
{
    static const char *const weak[] = {"4711",     "47110",  "555555", "77777777", "234567",
                                       "12345678", "987654", "890123", "210987"};
    struct tb_config c;
    struct tb_config_report rep;
    for (size_t i = 0; i < sizeof weak / sizeof weak[0]; i++) {
        ASSERT_EQ(parse_pin(weak[i], &c, &rep), TB_ERR_PARSE);
        ASSERT_EQ(rep.count, 1);
        ASSERT_EQ(rep.problem[0].line, 2);
        ASSERT_STR_CONTAINS(rep.problem[0].msg, "pin ");
        ASSERT_NULL(strstr(rep.problem[0].msg, weak[i])); /* never echoed */
        ASSERT_STR_CONTAINS(rep.problem[0].msg, strlen(weak[i]) < 6 ? "must be 6 to 8 digits"
                                                                    : "the first guess of anyone");
    }
    static const char *const strong[] = {"471193", "135790", "20261124", "0147258", "112233"};
    for (size_t i = 0; i < sizeof strong / sizeof strong[0]; i++) {
        ASSERT_OK(parse_pin(strong[i], &c, &rep));
        ASSERT_STR_EQ(c.arbiter_pin, strong[i]);
    }
}

TB_TEST(full_file_sets_every_key)
{
    struct tb_config c;
    struct tb_config_report rep;
    defaults(&c);
    ASSERT_OK(tb_config_parse(&c, good_full, sizeof good_full - 1, &rep));
    ASSERT_EQ(rep.count, 0);
    ASSERT_STR_EQ(c.socket_path, "/run/twinboard/control");
    ASSERT_STR_EQ(c.journal_dir, "/var/lib/twinboard");
    ASSERT_EQ(c.log_level, TB_CONFIG_LOG_DEBUG);
    ASSERT_EQ(c.blip_window_ms, 250);
    ASSERT_STR_EQ(c.arbiter_pin, "471193");
    const struct tb_config_player *vi = &c.player[TB_CONFIG_VI], *si = &c.player[TB_CONFIG_SIGHTED];
    ASSERT_STR_EQ(vi->board, "usb:2341:0043:95635333231351F0E1A1");
    ASSERT_EQ(vi->board_line, 12);
    ASSERT_EQ(vi->colour, TB_CONFIG_BLACK);
    ASSERT_STR_EQ(vi->pack, "nl");
    ASSERT_STR_EQ(vi->voice, "nl");
    ASSERT_EQ(vi->rate, 175);
    ASSERT_STR_EQ(vi->audio, "wav:/tmp/vi.wav");
    ASSERT_STR_EQ(si->board, "keys:");
    ASSERT_EQ(si->colour, TB_CONFIG_WHITE);
    ASSERT_STR_EQ(si->pack, "en");
    ASSERT_STR_EQ(si->audio, "default");
    ASSERT_EQ(si->rate, 160); /* default kept */
    char sum[1024];
    ASSERT_GT(tb_config_summary(&c, sum, sizeof sum), 0);
    ASSERT_STR_CONTAINS(sum, "vi: usb:2341:0043:95635333231351F0E1A1 black pack=nl");
    ASSERT_STR_CONTAINS(sum, "pin=set");
    ASSERT_TRUE(strstr(sum, "471193") == NULL); /* the PIN never appears */
}

/* The VI player on their own: any pack found, confirmation, promotion and review timings, review
 * keys and braille, per player. */
TB_TEST(vi_player_keys_are_read_per_player)
{
    static const char text[] = "[arbiter]\npin=371946\n[daemon]\npromotion_prompt_ms=5000\n"
                               "[player vi]\npack=en\nconfirm=earcon\npromote_settle_ms=2000\n"
                               "review_hold_ms=800\nreview_repeat_hold=material\n"
                               "review_promote_hold=off\nbraille=brltty:127.0.0.1:1\n"
                               "braille_auth=none\n[player sighted]\nconfirm=word\n";
    struct tb_config c;
    struct tb_config_report rep;
    defaults(&c);
    ASSERT_EQ(c.player[0].confirm, TB_VOICE_CONFIRM_OFF);
    ASSERT_EQ(c.player[0].promote_settle_ms, 1500);
    ASSERT_EQ(c.player[0].review_repeat_hold, TB_VOICE_REVIEW_LAST);
    ASSERT_EQ(c.player[0].review_promote_hold, TB_VOICE_REVIEW_POSITION);
    ASSERT_STR_EQ(c.player[0].braille, "");
    ASSERT_EQ(c.promotion_prompt_ms, 3000);
    ASSERT_OK(tb_config_parse(&c, text, strlen(text), &rep));
    ASSERT_STR_EQ(c.player[0].pack, "en");
    ASSERT_EQ(c.player[0].confirm, TB_VOICE_CONFIRM_EARCON);
    ASSERT_EQ(c.player[1].confirm, TB_VOICE_CONFIRM_WORD);
    ASSERT_EQ(c.player[0].promote_settle_ms, 2000);
    ASSERT_EQ(c.player[0].review_hold_ms, 800);
    ASSERT_EQ(c.player[0].review_repeat_hold, TB_VOICE_REVIEW_MATERIAL);
    ASSERT_EQ(c.player[0].review_promote_hold, -1);
    ASSERT_STR_EQ(c.player[0].braille, "brltty:127.0.0.1:1");
    ASSERT_STR_EQ(c.player[0].braille_auth, "none");
    ASSERT_STR_EQ(c.player[1].braille, "");
    ASSERT_EQ(c.promotion_prompt_ms, 5000);
    ASSERT_STR_EQ(tb_config_review_name(TB_VOICE_REVIEW_TO_MOVE), "to-move");
    ASSERT_STR_EQ(tb_config_review_name(-1), "off");
}

TB_TEST(good_files_table)
{
    static const char *const good[] = {
        "[arbiter]\npin=371946\n",
        "[arbiter]\r\npin = 13572468\r\n",     /* CRLF, 8 digits */
        "\xef\xbb\xbf[arbiter]\npin=604127\n", /* UTF-8 BOM */
        "# comment\n[arbiter]\n  pin = 371946\n[daemon]\nblip_window_ms=10\n",
        "[arbiter]\npin=371946\n[player vi]\ncolour=black\n[player sighted]\ncolour=white\n",
        "[arbiter]\npin=371946\n[player vi]\nboard=serial:/dev/ttyUSB0\n[player sighted]\n"
        "board=serial:/dev/ttyUSB1\n",
        "[arbiter]\npin=371946\n[player vi]\nboard=sim:a.script?speed=fast\n[player sighted]\n"
        "board=sim:a.script?speed=fast\n", /* one script plays both boards */
        "[arbiter]\npin: 371946\n",        /* name: value */
        "[arbiter]\npin=371946\n[player sighted]\nboard=dgt:auto\n", /* a DGT e-board */
        "[arbiter]\npin=371946\n[player vi]\nboard=reed:id=111\n[player sighted]\n"
        "board=reed:id=222\n", /* two reed boards by their identities */
        /* a new language is a new file: any pack name (--check-config finds the file) */
        "[arbiter]\npin=371946\n[player vi]\npack=es\nrate=800\n",
        "[arbiter]\npin=371946\n[game]\nevent=Club championship\nsite=Utrecht\nround=3.1\n"
        "white=Anna Schmidt\nblack=Bert Meier\n",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct tb_config c;
        struct tb_config_report rep;
        defaults(&c);
        if (tb_config_parse(&c, good[i], strlen(good[i]), &rep) != TB_OK)
            TB_FAIL("good file %zu: line %ld: %s", i, rep.problem[0].line, rep.problem[0].msg);
    }
}

TB_TEST(bad_files_table_names_line_and_problem)
{
    static const struct {
        const char *text;
        long line;
        const char *msg;
    } bad[] = {
        {"[arbiter]\npin=371946\n[boards]\n", 3, "unknown section [boards]"},
        {"[arbiter]\npin=371946\n[player  vi]\n", 3, "unknown section [player  vi]"},
        {"[arbiter]\npin=371946\nfoo=1\n", 3, "unknown key 'foo' in [arbiter]"},
        {"pin=371946\n", 1, "outside any section"},
        {"[arbiter]\npin=123\n", 2, "pin must be 6 to 8 digits"},
        {"[arbiter]\npin=123456789\n", 2, "pin must be 6 to 8 digits"},
        {"[arbiter]\npin=12a4\n", 2, "pin must be 6 to 8 digits"},
        {"[arbiter]\npin=\n", 2, "pin has no value"},
        {"[daemon]\nlog_level=info\n", 1, "no arbiter PIN"},
        {"[arbiter]\npin=371946\npin=567192\n", 3,
         "pin is set twice in [arbiter] (first at line 2)"},
        {"[arbiter]\npin=371946\n[player vi]\ncolour=red\n", 4,
         "colour 'red' is not white or black"},
        {"[arbiter]\npin=371946\n[player sighted]\ncolour=white\n", 4,
         "both players have the colour white"},
        {"[arbiter]\npin=371946\n[player vi]\nboard=tty:/dev/x\n", 4, "unknown kind 'tty'"},
        {"[arbiter]\npin=371946\n[player vi]\nboard=usb:12:34\n", 4, "vendor id"},
        /* D.2: the VI player's board holds the pieces in holes; a DGT board has none */
        {"[arbiter]\npin=371946\n[player vi]\nboard=dgt:/dev/ttyACM0\n", 4,
         "a DGT e-board cannot be the VI player's board"},
        {"[arbiter]\npin=371946\n[player vi]\nboard=serial:/dev/ttyUSB0\n[player sighted]\n"
         "board=serial:/dev/ttyUSB0\n",
         6, "both players' boards are serial:/dev/ttyUSB0"},
        /* one reed board, by its identity, however the number is written */
        {"[arbiter]\npin=371946\n[player vi]\nboard=reed:id=0042\n[player sighted]\n"
         "board=reed:id=42\n",
         6, "both players' boards are reed:id=0042"},
        {"[arbiter]\npin=371946\n[player vi]\nboard=reed:id=0\n", 4,
         "the identity after id= is a number from 1 to 4294967294"},
        {"[arbiter]\npin=371946\n[player vi]\npack=../fr\n", 4, "pack '../fr' is not a pack name"},
        {"[arbiter]\npin=371946\n[player vi]\nconfirm=beep\n", 4, "not off, earcon or word"},
        {"[arbiter]\npin=371946\n[player vi]\npromote_settle_ms=100\n", 4, "from 300 to 10000"},
        {"[arbiter]\npin=371946\n[player vi]\nreview_hold_ms=9000\n", 4, "from 300 to 5000"},
        {"[arbiter]\npin=371946\n[player vi]\nreview_repeat_hold=from\n", 4,
         "not one of last, position"},
        {"[arbiter]\npin=371946\n[player vi]\nbraille=usb:\n", 4, "not off, brltty or brltty:HOST"},
        {"[arbiter]\npin=371946\n[player vi]\nbraille=brltty:\n", 4, "brltty:HOST"},
        {"[arbiter]\npin=371946\n[player vi]\nbraille_auth=secret\n", 4, "none or keyfile"},
        {"[arbiter]\npin=371946\n[daemon]\npromotion_prompt_ms=100\n", 4, "from 500 to 60000"},
        {"[arbiter]\npin=371946\n[game]\nwhite=A\"B\n", 4, "white must be shorter than"},
        {"[arbiter]\npin=371946\n[game]\nopponent=B\n", 4, "unknown key 'opponent' in [game]"},
        {"[arbiter]\npin=371946\n[player vi]\nrate=fast\n", 4, "rate 'fast' must be words per"},
        {"[arbiter]\npin=371946\n[player vi]\nrate=1000\n", 4, "rate '1000'"},
        {"[arbiter]\npin=371946\n[player vi]\nrate=801\n", 4, "from 80 to 800"},
        {"[arbiter]\npin=371946\n[player vi]\nvoice=de;rm\n", 4, "not an eSpeak NG voice"},
        {"[arbiter]\npin=371946\n[player vi]\naudio=wav:\n", 4, "'wav:' needs a file path"},
        {"[arbiter]\npin=371946\n[daemon]\nblip_window_ms=5\n", 4, "from 10 to 2000"},
        {"[arbiter]\npin=371946\n[daemon]\nblip_window_ms=300ms\n", 4, "from 10 to 2000"},
        {"[arbiter]\npin=371946\n[daemon]\nlog_level=loud\n", 4, "not one of error, warn"},
        {"[arbiter]\npin=371946\n[daemon]\nsocket=relative.sock\n", 4, "absolute path"},
        {"[arbiter]\npin=371946\n[daemon]\njournal_dir=var/lib\n", 4, "absolute path"},
        {"[arbiter\npin=371946\n", 1, "closing ']'"},
        {"[arbiter]\npin 371946\n", 2, "expected 'key = value'"},
        {"[arbiter]\n= 371946\n", 2, "a value without a key"},
        {"[arbiter]\npin=371946\n[daemon]\nsocket=/tmp/a\x01\n", 4, "control characters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_config c, before;
        struct tb_config_report rep;
        defaults(&c);
        before = c;
        if (tb_config_parse(&c, bad[i].text, strlen(bad[i].text), &rep) != TB_ERR_PARSE)
            TB_FAIL("bad file %zu accepted", i);
        int found = 0;
        for (int k = 0; k < rep.count; k++)
            if (rep.problem[k].line == bad[i].line && strstr(rep.problem[k].msg, bad[i].msg))
                found = 1;
        if (!found)
            TB_FAIL("bad file %zu: wanted line %ld '%s', first problem: line %ld '%s'", i,
                    bad[i].line, bad[i].msg, rep.problem[0].line, rep.problem[0].msg);
        ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0); /* nothing changed */
    }
}

/* [arbiter] start: where every new game starts, as a FEN (Chess960 in X-FEN or Shredder-FEN)
 * or a Guideline II array number; a bad one is named with its line and changes nothing. */
TB_TEST(guideline_ii_start_position_from_fen_or_chess960_number)
{
    static const struct {
        const char *text, *fen;
    } good[] = {
        {"[arbiter]\npin=371946\n", ""},
        {"[arbiter]\npin=371946\nstart = chess960 0\n",
         "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"},
        {"[arbiter]\npin=371946\nstart = chess960 518\n",
         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
        {"[arbiter]\npin=371946\nstart = nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 "
         "1\n",
         "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1"},
        {"[arbiter]\npin=371946\nstart = 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n",
         "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct tb_config c;
        struct tb_config_report rep;
        defaults(&c);
        if (tb_config_parse(&c, good[i].text, strlen(good[i].text), &rep) != TB_OK)
            TB_FAIL("good file %zu: line %ld: %s", i, rep.problem[0].line, rep.problem[0].msg);
        ASSERT_STR_EQ(c.start_fen, good[i].fen);
    }
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"[arbiter]\npin=371946\nstart = chess960 960\n", "from 0 to 959"},
        {"[arbiter]\npin=371946\nstart = chess960\n", "the Chess960 number must be from 0 to 959"},
        {"[arbiter]\npin=371946\nstart = standard\n", "start: FEN has 1 fields"},
        {"[arbiter]\npin=371946\nstart = nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GCgb - 0 "
         "1\n",
         "start: FEN castling field: 'C' but no white rook on rank 1 on that file (column 48)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb_config c, before;
        struct tb_config_report rep;
        defaults(&c);
        before = c;
        ASSERT_EQ(tb_config_parse(&c, bad[i].text, strlen(bad[i].text), &rep), TB_ERR_PARSE);
        ASSERT_EQ(rep.problem[0].line, 3);
        ASSERT_STR_CONTAINS(rep.problem[0].msg, bad[i].msg);
        ASSERT_TRUE(memcmp(&c, &before, sizeof c) == 0);
    }
}

TB_TEST(every_problem_is_named_not_only_the_first)
{
    const char text[] = "[arbiter]\n"
                        "pin=12\n"
                        "[player vi]\n"
                        "colour=green\n"
                        "rate=9\n"
                        "bogus=1\n"
                        "[nowhere]\n"
                        "x=1\n";
    struct tb_config c;
    struct tb_config_report rep;
    defaults(&c);
    ASSERT_EQ(tb_config_parse(&c, text, sizeof text - 1, &rep), TB_ERR_PARSE);
    ASSERT_EQ(rep.count, 5);
    ASSERT_EQ(rep.problem[0].line, 2);
    ASSERT_EQ(rep.problem[1].line, 4);
    ASSERT_EQ(rep.problem[2].line, 5);
    ASSERT_EQ(rep.problem[3].line, 6);
    ASSERT_EQ(rep.problem[4].line, 7);
}

TB_TEST(long_lines_and_nul_bytes_are_problems_not_crashes)
{
    char text[600];
    int n = snprintf(text, sizeof text, "[arbiter]\npin=371946\n[daemon]\nsocket=/%0300d\n", 0);
    struct tb_config c;
    struct tb_config_report rep;
    defaults(&c);
    ASSERT_EQ(tb_config_parse(&c, text, (size_t)n, &rep), TB_ERR_PARSE);
    ASSERT_EQ(rep.problem[0].line, 4);
    ASSERT_STR_CONTAINS(rep.problem[0].msg, "longer than");
    const char nul[] = "[arbiter]\npin=12\0"
                       "34\n";
    ASSERT_EQ(tb_config_parse(&c, nul, sizeof nul - 1, &rep), TB_ERR_PARSE);
    ASSERT_STR_CONTAINS(rep.problem[0].msg, "NUL");
}

TB_TEST(load_reports_a_missing_file)
{
    struct tb_config c;
    struct tb_config_report rep;
    struct tb_error e;
    defaults(&c);
    ASSERT_EQ(tb_config_load(&c, "/nonexistent/twinboard.ini", &rep, &e), TB_ERR_SYS);
    ASSERT_STR_CONTAINS(e.msg, "/nonexistent/twinboard.ini");
}

static int run_check(const char *path, char *out, size_t len)
{
    return tb_run(out, len, "%s --check-config %s 2>&1", TWINBOARDD, path);
}

TB_TEST(check_config_prints_file_line_message_and_fails)
{
    char path[512], out[4096];
    snprintf(path, sizeof path, "%s/bad.ini", tb_test_tmp_dir());
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs("[arbiter]\npin=12\n[player vi]\ncolour=blue\n", f);
    fclose(f);
    ASSERT_EQ(run_check(path, out, sizeof out), 1);
    char want[600];
    snprintf(want, sizeof want, "%s:2: pin must be 6 to 8 digits", path);
    ASSERT_STR_CONTAINS(out, want);
    snprintf(want, sizeof want, "%s:4: colour 'blue' is not white or black", path);
    ASSERT_STR_CONTAINS(out, want);
}

TB_TEST(check_config_accepts_a_good_file_with_a_summary)
{
    char path[512], out[4096], alsa[512];
    /* audio = default needs a default device: one the sound system knows, no sound card */
    snprintf(alsa, sizeof alsa, "%s/alsa.conf", tb_test_tmp_dir());
    FILE *a = fopen(alsa, "w");
    ASSERT_NOT_NULL(a);
    fputs("pcm.!default { type null }\n", a);
    fclose(a);
    setenv("ALSA_CONFIG_PATH", alsa, 1);
    snprintf(path, sizeof path, "%s/good.ini", tb_test_tmp_dir());
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(good_full, f);
    fclose(f);
    ASSERT_EQ(run_check(path, out, sizeof out), 0);
    ASSERT_STR_CONTAINS(out, "ok");
    ASSERT_STR_CONTAINS(out, "sighted: keys: white");
    ASSERT_EQ(run_check("/nonexistent.ini", out, sizeof out), 1);
    ASSERT_STR_CONTAINS(out, "cannot read /nonexistent.ini");
}

TB_TEST(check_config_reads_the_event_scripts_of_sim_boards)
{
    char ini[512], script[512], out[4096];
    snprintf(script, sizeof script, "%s/demo.script", tb_test_tmp_dir());
    FILE *f = fopen(script, "w");
    ASSERT_NOT_NULL(f);
    fputs("0 vi lift e2\n400 vi place e9\n", f);
    fclose(f);
    snprintf(ini, sizeof ini, "%s/sim.ini", tb_test_tmp_dir());
    f = fopen(ini, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "[arbiter]\npin=371946\n[player vi]\nboard = sim:%s\n", script);
    fclose(f);
    ASSERT_EQ(run_check(ini, out, sizeof out), 1);
    char want[1600];
    snprintf(want, sizeof want, "%s:4: [player vi] board = sim:%s: %s:2:", ini, script, script);
    ASSERT_STR_CONTAINS(out, want);
    f = fopen(script, "w");
    fputs("0 vi lift e2\n400 vi place e4\n", f);
    fclose(f);
    ASSERT_EQ(run_check(ini, out, sizeof out), 0);
}
