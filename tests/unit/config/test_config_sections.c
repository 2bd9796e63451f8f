/* The [game] (the game's tags), [broadcast] (docs/broadcast.md) and [hall] (docs/hall.md)
 * sections of the daemon's configuration: the game's tags in [game] alone; broadcast and hall
 * off by default (an empty [hall], the packaged file's, too), every key taken,
 * each bad value a problem naming its line and what is wrong (the loopback-only TCP port, names
 * that cannot leave their MQTT topic level, the keys a table needs), nothing taken from a file
 * with a problem. */
#include <stdio.h>
#include <string.h>

#include "tb_config.h"
#include "tb_test.h"

#define BASE "[arbiter]\npin = 471193\n"

static int parse(struct tb_config *c, const char *text, struct tb_config_report *rep)
{
    const struct tb_config_place user = {.runtime_dir = "/run/user/1000", .home = "/home/a"};
    tb_config_defaults(c, &user, NULL);
    return tb_config_parse(c, text, strlen(text), rep);
}

TB_TEST(broadcast_is_off_by_default_and_every_key_is_taken)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(parse(&c, BASE, &rep));
    ASSERT_FALSE(tb_config_broadcast_on(&c));
    ASSERT_OK(parse(&c,
                    BASE "[broadcast]\n"
                         "dgt = pty:/run/twinboard/dgt\n"
                         "tcp = 127.0.0.1:3334\n"
                         "max_clients = 3\n"
                         "pgn_dir = /var/lib/twinboard/pgn\n"
                         "serial = 04711\n"
                         "delay = 15m\n",
                    &rep));
    ASSERT_TRUE(tb_config_broadcast_on(&c));
    const struct tb_config_broadcast *b = &c.broadcast;
    ASSERT_STR_EQ(b->dgt, "/run/twinboard/dgt");
    ASSERT_EQ(b->tcp_port, 3334);
    ASSERT_EQ(b->max_clients, 3);
    ASSERT_STR_EQ(b->pgn_dir, "/var/lib/twinboard/pgn");
    ASSERT_STR_EQ(b->serial, "04711");
    ASSERT_EQ(b->delay_ms, 15 * 60 * 1000);
    char sum[1024];
    ASSERT_GT(tb_config_summary(&c, sum, sizeof sum), 0);
    ASSERT_STR_CONTAINS(sum, " pgn_dir=/var/lib/twinboard/pgn delay=15m;");
    /* the delay as the hall's: seconds by default, ms, the hour at most; none by default */
    const struct {
        const char *v;
        uint64_t ms;
    } delays[] = {{"90s", 90000}, {"90", 90000}, {"500ms", 500}, {"60m", 3600000}, {"0", 0}};
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, BASE "[broadcast]\npgn_dir = /srv/pgn\ndelay = %s\n",
                 delays[i].v);
        ASSERT_OK(parse(&c, text, &rep));
        ASSERT_EQ(c.broadcast.delay_ms, delays[i].ms);
    }
    /* a PGN directory alone turns it on: the live PGN without a virtual board */
    ASSERT_OK(parse(&c, BASE "[broadcast]\npgn_dir = /srv/pgn\n", &rep));
    ASSERT_TRUE(tb_config_broadcast_on(&c));
    ASSERT_EQ(c.broadcast.tcp_port, -1);
    ASSERT_EQ(c.broadcast.delay_ms, 0);
}

struct bad {
    const char *lines, *msg;
    long line;
};

/* Each entry as the section's only lines: a problem at its line naming it, nothing turned on. */
static void check_bad(const char *section, const struct bad *bad, size_t n,
                      bool (*on)(const struct tb_config *))
{
    for (size_t i = 0; i < n; i++) {
        char text[512];
        snprintf(text, sizeof text, BASE "[%s]\n%s\n", section, bad[i].lines);
        struct tb_config c;
        struct tb_config_report rep;
        ASSERT_EQ(parse(&c, text, &rep), TB_ERR_PARSE);
        ASSERT_EQ(rep.problem[0].line, bad[i].line);
        if (!strstr(rep.problem[0].msg, bad[i].msg))
            TB_FAIL("'%s': wanted '%s', got '%s'", bad[i].lines, bad[i].msg, rep.problem[0].msg);
        ASSERT_FALSE(on(&c));
    }
}

TB_TEST(bad_broadcast_values_are_problems_with_their_line)
{
    static const struct bad bad[] = {
        {"dgt = /run/twinboard/dgt", "must be pty:PATH", 4},
        {"dgt = pty:relative", "must be pty:PATH", 4},
        {"tcp = 0.0.0.0:3334", "loopback address only", 4},
        {"tcp = 192.168.1.10:3334", "loopback address only", 4},
        {"tcp = 127.0.0.1:70000", "must be 127.0.0.1:PORT", 4},
        {"max_clients = 65", "from 0 to 64", 4},
        {"pgn_dir = pgn", "absolute path", 4},
        {"serial = 123", "five digits", 4},
        {"delay = 61m", "'61m' is not a delay (0, 90s, 15m; at most 60m)", 4},
        {"delay = 3601s", "not a delay", 4},
        {"delay = -5s", "not a delay", 4},
        {"delay = 15h", "not a delay", 4},
        {"delay = soon", "not a delay", 4},
        {"delay = 99999999999999999999", "not a delay", 4},
        {"delay =", "delay has no value", 4},
        {"colour = white", "unknown key 'colour' in [broadcast]", 4},
        /* the game's tags are [game]'s alone */
        {"white = Navara, David", "unknown key 'white' in [broadcast]", 4},
        {"time_control = 5400+30", "unknown key 'time_control' in [broadcast]", 4},
    };
    check_bad("broadcast", bad, sizeof bad / sizeof bad[0], tb_config_broadcast_on);
}

TB_TEST(game_tags_are_taken_from_game_and_turn_nothing_on)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(parse(&c,
                    BASE "[game]\n"
                         "date = 2026.11.??\n"
                         "event = Club championship\n"
                         "site = Hall 2\n"
                         "round = 4.2\n"
                         "white = Navara, David\n"
                         "black = Carlsen, Magnus\n"
                         "time_control = 5400+30\n",
                    &rep));
    ASSERT_FALSE(tb_config_broadcast_on(&c));
    const struct tb_config_game *g = &c.game;
    ASSERT_STR_EQ(g->date, "2026.11.??");
    ASSERT_STR_EQ(g->event, "Club championship");
    ASSERT_STR_EQ(g->site, "Hall 2");
    ASSERT_STR_EQ(g->round, "4.2");
    ASSERT_STR_EQ(g->white, "Navara, David");
    ASSERT_STR_EQ(g->black, "Carlsen, Magnus");
    ASSERT_STR_EQ(g->time_control, "5400+30");
}

static bool game_changed(const struct tb_config *c)
{
    return c->game.date[0] || c->game.event[0] || c->game.white[0];
}

TB_TEST(bad_game_tags_are_problems_with_their_line)
{
    static const struct bad bad[] = {
        {"date = 24.11.2026", "YYYY.MM.DD", 4},
        {"white = Evil \"quote", "without \" or \\", 4},
        {"event = 1234567890123456789012345678901234567890123456789012345678901234", "shorter", 4},
        {"event = Open\nevent = Closed", "event is set twice in [game]", 5},
        {"dgt = pty:/run/twinboard/dgt", "unknown key 'dgt' in [game]", 4},
    };
    check_bad("game", bad, sizeof bad / sizeof bad[0], game_changed);
}

TB_TEST(hall_is_off_by_default_and_every_key_is_taken)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(parse(&c, BASE "[hall]\n; all commented out\n", &rep));
    ASSERT_FALSE(tb_config_hall_on(&c));
    ASSERT_OK(parse(&c,
                    BASE "[hall]\n"
                         "broker = 192.168.1.10\n"
                         "port = 8883\n"
                         "tournament = open-2026\n"
                         "table = t_7\n"
                         "username = table7\n"
                         "password_file = /etc/twinboard/hall-password\n"
                         "cafile = /etc/twinboard/hall-ca.crt\n",
                    &rep));
    ASSERT_TRUE(tb_config_hall_on(&c));
    const struct tb_config_hall *h = &c.hall;
    ASSERT_STR_EQ(h->broker, "192.168.1.10");
    ASSERT_EQ(h->port, 8883);
    ASSERT_STR_EQ(h->tournament, "open-2026");
    ASSERT_STR_EQ(h->table, "t_7");
    ASSERT_STR_EQ(h->username, "table7");
    ASSERT_STR_EQ(h->password_file, "/etc/twinboard/hall-password");
    ASSERT_STR_EQ(h->cafile, "/etc/twinboard/hall-ca.crt");
}

TB_TEST(bad_hall_values_are_problems_with_their_line)
{
    static const struct bad bad[] = {
        {"table = t1\ntournament = open\nbroker = hall box", "is not a host name", 6},
        {"table = t1\ntournament = open\nbroker = h\nport = 0", "from 1 to 65535", 7},
        {"table = t/1\ntournament = open\nbroker = h", "1 to 31 of A-Z", 4},
        {"table = t1\ntournament = open+\nbroker = h", "1 to 31 of A-Z", 5},
        {"table = t1\ntournament = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nbroker = h", "1 to 31", 5},
        {"table = t1\ntournament = open\nbroker = h\ncafile = ca.crt", "absolute path", 7},
        {"table = t1\ntournament = open\nbroker = h\npassword_file = pw", "absolute path", 7},
        {"table = t1\nbroker = h", "needs both tournament and table", 3},
        {"tournament = open\nbroker = h", "needs both tournament and table", 3},
        {"table = t1\ntournament = open", "needs broker", 3},
    };
    check_bad("hall", bad, sizeof bad / sizeof bad[0], tb_config_hall_on);
}
