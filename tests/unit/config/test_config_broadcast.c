/* The [broadcast] section of the daemon's configuration (docs/broadcast.md): every key taken, the
 * section off by default, each bad value a problem naming its line, the loopback-only TCP port. */
#include <stdio.h>
#include <string.h>

#include "tb_config.h"
#include "tb_test.h"

#define BASE "[arbiter]\npin = 4711\n"

static int parse(struct tb_config *c, const char *text, struct tb_config_report *rep)
{
    tb_config_defaults(c, "/run/user/1000", NULL, NULL);
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
                         "date = 2026.11.??\n"
                         "event = Club championship\n"
                         "site = Hall 2\n"
                         "round = 4.2\n"
                         "white = Navara, David\n"
                         "black = Carlsen, Magnus\n"
                         "time_control = 5400+30\n",
                    &rep));
    ASSERT_TRUE(tb_config_broadcast_on(&c));
    const struct tb_config_broadcast *b = &c.broadcast;
    ASSERT_STR_EQ(b->dgt, "/run/twinboard/dgt");
    ASSERT_EQ(b->tcp_port, 3334);
    ASSERT_EQ(b->max_clients, 3);
    ASSERT_STR_EQ(b->pgn_dir, "/var/lib/twinboard/pgn");
    ASSERT_STR_EQ(b->serial, "04711");
    ASSERT_STR_EQ(b->date, "2026.11.??");
    ASSERT_STR_EQ(b->event, "Club championship");
    ASSERT_STR_EQ(b->site, "Hall 2");
    ASSERT_STR_EQ(b->round, "4.2");
    ASSERT_STR_EQ(b->white, "Navara, David");
    ASSERT_STR_EQ(b->black, "Carlsen, Magnus");
    ASSERT_STR_EQ(b->time_control, "5400+30");
    /* a PGN directory alone turns it on: the live PGN without a virtual board */
    ASSERT_OK(parse(&c, BASE "[broadcast]\npgn_dir = /srv/pgn\n", &rep));
    ASSERT_TRUE(tb_config_broadcast_on(&c));
    ASSERT_EQ(c.broadcast.tcp_port, -1);
}

TB_TEST(bad_broadcast_values_are_problems_with_their_line)
{
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"dgt = /run/twinboard/dgt", "must be pty:PATH"},
        {"dgt = pty:relative", "must be pty:PATH"},
        {"tcp = 0.0.0.0:3334", "loopback address only"},
        {"tcp = 192.168.1.10:3334", "loopback address only"},
        {"tcp = 127.0.0.1:70000", "must be 127.0.0.1:PORT"},
        {"max_clients = 65", "from 0 to 64"},
        {"pgn_dir = pgn", "absolute path"},
        {"serial = 123", "five digits"},
        {"date = 24.11.2026", "YYYY.MM.DD"},
        {"white = Evil \"quote", "without \" or \\"},
        {"event = 1234567890123456789012345678901234567890123456789012345678901234", "shorter"},
        {"colour = white", "unknown key 'colour' in [broadcast]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, BASE "[broadcast]\n%s\n", bad[i].line);
        struct tb_config c;
        struct tb_config_report rep;
        ASSERT_EQ(parse(&c, text, &rep), TB_ERR_PARSE);
        ASSERT_EQ(rep.problem[0].line, 4);
        if (!strstr(rep.problem[0].msg, bad[i].msg))
            TB_FAIL("'%s': wanted '%s', got '%s'", bad[i].line, bad[i].msg, rep.problem[0].msg);
        ASSERT_FALSE(tb_config_broadcast_on(&c)); /* nothing taken from a file with a problem */
    }
}
