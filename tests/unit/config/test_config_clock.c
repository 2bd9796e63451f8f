/* The [clock] section of the daemon configuration: the time control, the clock's source and
 * the players' warnings; every bad value named with its line and key, nothing changed. */
#include <stdio.h>
#include <string.h>

#include "config_check.h"
#include "tb_config.h"
#include "tb_test.h"

TB_TEST(clock_section_sets_control_source_and_warnings)
{
    struct tb_config c;
    struct tb_config_report rep;
    ASSERT_OK(
        config_check_parse("[arbiter]\npin=371946\n[clock]\ncontrol = club\nwarn_vi = 5m, 1m\n"
                           "warn_sighted = 30\n",
                           &c, &rep));
    ASSERT_STR_EQ(c.clock.control, "club");
    ASSERT_EQ(c.clock.source, TB_CONFIG_CLOCK_BUILTIN); /* a control alone: the built-in clock */
    ASSERT_EQ(c.clock.nwarn[TB_CONFIG_VI], 2);
    ASSERT_U64_EQ(c.clock.warn_ms[TB_CONFIG_VI][0], 300000);
    ASSERT_U64_EQ(c.clock.warn_ms[TB_CONFIG_VI][1], 60000);
    ASSERT_EQ(c.clock.nwarn[TB_CONFIG_SIGHTED], 1);
    ASSERT_U64_EQ(c.clock.warn_ms[TB_CONFIG_SIGHTED][0], 30000);
    ASSERT_OK(config_check_parse(
        "[arbiter]\npin=371946\n[clock]\nsource = board\ncontrol = 40/120m+30s, 30m\n", &c, &rep));
    ASSERT_EQ(c.clock.source, TB_CONFIG_CLOCK_BOARD);
    ASSERT_STR_EQ(c.clock.control, "40/120m+30s, 30m");
    ASSERT_OK(config_check_parse("[arbiter]\npin=371946\n[clock]\nsource = none\ncontrol = 7m\n",
                                 &c, &rep));
    ASSERT_EQ(c.clock.source, TB_CONFIG_CLOCK_NONE);
    ASSERT_OK(config_check_parse("[arbiter]\npin=371946\n", &c, &rep)); /* no section: no clock */
    ASSERT_EQ(c.clock.source, TB_CONFIG_CLOCK_NONE);
    ASSERT_STR_EQ(c.clock.control, "");
    ASSERT_STR_EQ(tb_config_clock_source_name(TB_CONFIG_CLOCK_BUILTIN), "builtin");
}

TB_TEST(clock_bad_values_name_line_and_key)
{
    static const struct config_check_bad bad[] = {
        {"[arbiter]\npin=371946\n[clock]\ncontrol = 1h30\n", 4,
         "control: time control \"1h30\": column 5: expected a unit"},
        {"[arbiter]\npin=371946\n[clock]\ncontrol = clubs\n", 4,
         "control: time control \"clubs\": column 1: unknown preset"},
        {"[arbiter]\npin=371946\n[clock]\ncontrol = *180\n", 4, "control: time control \"*180\""},
        {"[arbiter]\npin=371946\n[clock]\nsource = dgt\n", 4,
         "source 'dgt' is not one of builtin, board, none"},
        {"[arbiter]\npin=371946\n[clock]\nsource = builtin\n", 4,
         "source builtin needs a time control"},
        {"[arbiter]\npin=371946\n[clock]\ncontrol = 7m\nwarn_vi = 5 minutes\n", 5, "warn_vi: "},
        {"[arbiter]\npin=371946\n[clock]\ncontrol = 7m\nwarn_sighted = "
         "1m,1m,1m,1m,1m,1m,1m,1m,1m\n",
         5, "warn_sighted: "},
        {"[arbiter]\npin=371946\n[clock]\ncontrol = 7m\ncontrol = 5m\n", 5,
         "control is set twice in [clock] (first at line 4)"},
        {"[arbiter]\npin=371946\n[clock]\nincrement = 15s\n", 4,
         "unknown key 'increment' in [clock]"},
        {"[arbiter]\npin=371946\n[clocks]\n", 3, "unknown section [clocks]"},
    };
    config_check_refused(bad, sizeof bad / sizeof bad[0]);
}
